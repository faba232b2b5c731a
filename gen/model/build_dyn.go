package model

import (
	"errors"
	"fmt"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// FromOpenDyn builds the model of an OpenDyn document: doc is its equivalent
// OpenTool document (output parameters moved into the result object, as the
// loader rewrote it), lib what the document says of the library (calling
// convention, status codes) and fns, one per function of doc, the C side
// of each as the document says it: the symbol, and the parameters (in C
// order) and return value with their document names, C types, shapes,
// sizes and whether they are outputs; nil entries are functions the loader
// could not read.
//
// The model decides everything else: the Go names of the types and methods
// (as FromOpenTool, never taking the names an OpenDyn package declares), the
// Go names of the methods' parameters and results, the C names of the
// function pointer typedefs and trampolines, each value's field and its Go
// width. Its error is an internal one: the loader reports every problem of
// the document that could make fns and doc disagree.
func FromOpenDyn(doc *document.OpenTool, source string, lib *DynLibrary, fns []*CFunction) (*Package, error) {
	pkg := fromOpenTool(doc, source, PackageOpenDyn)
	lib.Header = "opendyn.gen.h"
	pkg.Dyn = lib
	if len(fns) != len(pkg.Functions) {
		return nil, errors.New("internal error: the functions of the document and of the model differ")
	}
	cnames := NewScope()
	// The parameters of Library's methods never shadow what library.gen.go
	// uses: Go's predeclared names, its imports, locals and helpers, and the
	// package's decoders.
	reserved := append([]string(nil), reservedLibraryLocals...)
	for _, t := range pkg.Types {
		if t.Decoder != "" {
			reserved = append(reserved, t.Decoder)
		}
	}
	packageLocals := NewScope(reserved...)
	for i, fn := range pkg.Functions {
		cf := fns[i]
		if err := checkCFunction(cf, fn); err != nil {
			return nil, fmt.Errorf("internal error: function %q: %v", fn.Name, err)
		}
		cf.Index = i
		base := strings.ReplaceAll(cf.Symbol, "-", "_")
		cf.Typedef = cnames.Take("otg_fn_" + base)
		cf.Trampoline = cnames.Take("otg_call_" + base)
		locals := packageLocals.Sub()
		var result *Type
		if fn.Result != nil && fn.Result.Kind == RefNamed && len(cf.Outputs()) > 0 {
			result = fn.Result.Named
		}
		nin, nout := 0, 0
		if cf.Return != nil && result != nil {
			nout = 1
		}
		for _, cp := range cf.Params {
			if cp.Out {
				cp.Field = result.Fields[nout]
				nout++
			} else {
				cp.Field = fn.Args.Fields[nin]
				nin++
			}
			cp.GoName = locals.Take(LocalName(cp.Name, "arg"))
			cp.Type = cp.Field.Type
			setCWidth(cp.Type, cp.C.Name)
		}
		if r := cf.Return; r != nil {
			r.GoName = locals.Take(LocalName(r.Name, "result"))
			if result != nil {
				r.Field = result.Fields[0]
				r.Type = r.Field.Type
			} else {
				r.Type = fn.Result
			}
			setCWidth(r.Type, r.C.Name)
		}
		if lib.Stdcall {
			cf.Stdcall32 = fmt.Sprintf("%s@%d", cf.Symbol, stdcallArgBytes(cf))
		}
		fn.C = cf
	}
	return pkg, nil
}

// checkCFunction makes sure the C side of a function matches its model: a C
// type for every value and a field for every parameter.
func checkCFunction(cf *CFunction, fn *Function) error {
	if cf == nil {
		return errors.New("not read")
	}
	nin, nout := 0, 0
	for _, p := range cf.Params {
		switch {
		case p == nil || p.C.Name == "":
			return errors.New("a parameter without a C type")
		case p.Out:
			nout++
		default:
			nin++
		}
	}
	if cf.Return != nil {
		if cf.Return.C.Name == "" {
			return errors.New("a return value without a C type")
		}
		if nout > 0 {
			nout++
		}
	}
	args := 0
	if fn.Args != nil {
		args = len(fn.Args.Fields)
	}
	if args != nin {
		return fmt.Errorf("%d inputs, %d argument fields", nin, args)
	}
	if nout > 0 {
		if fn.Result == nil || fn.Result.Kind != RefNamed || len(fn.Result.Named.Fields) != nout {
			return errors.New("the outputs are not the fields of the result")
		}
	} else if (cf.Return == nil) != (fn.Result == nil) {
		return errors.New("the return values of the document and of the model differ")
	}
	return nil
}

// CIntRange is the range of values of a C integer type as far as JSON
// arguments are concerned. long is checked against 32 bits at the call where
// it has them (Windows, 32-bit platforms); here it has 64.
func CIntRange(name string) (bits int, unsigned bool) {
	switch name {
	case "char":
		return 8, false
	case "unsigned char":
		return 8, true
	case "short":
		return 16, false
	case "unsigned short":
		return 16, true
	case "int":
		return 32, false
	case "unsigned int":
		return 32, true
	case "unsigned long", "unsigned long long":
		return 64, true
	}
	return 64, false
}

// setCWidth gives the scalar values of r (its elements, for a slice; its
// underlying type, for a named type) the width of C type ct. The loader made
// sure that a named type is used with one C type only.
func setCWidth(r *TypeRef, ct string) {
	switch r.Kind {
	case RefSlice:
		setCWidth(r.Elem, ct)
	case RefNamed:
		if r.Named.Underlying != nil {
			setCWidth(r.Named.Underlying, ct)
		}
	case RefInt:
		r.Bits, r.Unsigned = CIntRange(ct)
	case RefFloat:
		if ct == "float" {
			r.Bits = 32
		} else {
			r.Bits = 64
		}
	}
}

// stdcallArgBytes is the size of the arguments of f on 32-bit Windows, which
// decorates stdcall names with it ("add@8").
func stdcallArgBytes(f *CFunction) int {
	n := 0
	for _, p := range f.Params {
		switch {
		case p.C.Pointer:
			n += 4
		case p.C.Name == "double" || p.C.Name == "long long" || p.C.Name == "unsigned long long":
			n += 8
		default:
			n += 4
		}
	}
	return n
}
