package model

// The part of the model only OpenDyn packages have: how each function of the
// document is called in the dynamic library. The rest of an OpenDyn package
// (argument and result types, functions, the equivalent OpenTool document) is
// the ordinary model, so the OpenTool emitters serve it unchanged.

// DynLibrary is what the cgo bindings of an OpenDyn package need besides the
// functions.
type DynLibrary struct {
	// Stdcall is set when the document's calling convention is stdcall, which
	// only 32-bit Windows distinguishes from cdecl.
	Stdcall bool
	// Codes are the status codes of the document ("code"), in document order.
	Codes []DynCode
	// Header is the name of the generated C header.
	Header string
}

// DynCode is one status code of an OpenDyn document and its text.
type DynCode struct {
	Code int64
	Text string
}

// CShape says how a C value crosses between Go and C.
type CShape int

const (
	// CScalar is a C value passed or returned by value (int, double, bool…).
	CScalar CShape = iota
	// CString is a NUL-terminated char* (or unsigned char*): a Go string.
	CString
	// CSlice is a T* to the first element of an array: a Go slice.
	CSlice
	// CPointer is a T* to one value: a Go *T for inputs (which the function may
	// also write), the value itself for outputs and returns.
	CPointer
)

// CType is a C type of the OpenDyn list ("int", "unsigned long"…), possibly a
// pointer to it.
type CType struct {
	Name    string // canonical spelling, one of the OpenDyn list
	Pointer bool
}

// CParam is one parameter of a C function, in C order.
type CParam struct {
	Name   string // as in the document
	GoName string // the Go parameter (inputs) or named result (outputs) of the method
	C      CType
	Shape  CShape
	Out    bool // an output parameter: the function writes the value, the method returns it
	// Required is false for optional inputs: a pointer, string or slice input
	// then passes NULL when it is absent (nil), a scalar passes its zero value.
	Required bool
	// Type is the Go type of the value (for CSlice, of the slice).
	Type *TypeRef
	// Field is the field of the function's arguments (inputs) or of its result
	// struct (outputs) that carries the value on the wire.
	Field *Field
	// Size is, for outputs, the capacity of the buffer the function writes: bytes
	// with the terminating NUL for CString (maxLength+1), elements for CSlice
	// (maxItems).
	Size int
}

// CReturn is the return value of a C function.
type CReturn struct {
	Name   string // the document's name of the return value
	GoName string // the named result of the method, when it has several
	C      CType
	Shape  CShape // CScalar, CString or CPointer
	Type   *TypeRef
	// Field is the field of the result struct that carries the value when the
	// function also has output parameters; nil otherwise.
	Field *Field
}

// CFunction is how to call one function of an OpenDyn package. The loader
// gives what the document says (Symbol, and of Params and Return their
// document names, C types, shapes, sizes and directions); FromOpenDyn the rest.
type CFunction struct {
	Symbol string // the exported symbol
	Index  int    // position in the library's table of symbols
	// Stdcall32 is the symbol's stdcall decoration on 32-bit Windows
	// ("_add@8"), tried when the plain name is missing there.
	Stdcall32 string
	// Typedef and Trampoline are the C names of the function pointer type and of
	// the C function that casts the looked-up pointer to it and calls it.
	Typedef, Trampoline string
	Params              []*CParam
	Return              *CReturn // nil for void
}

// Inputs returns the input parameters, in C order.
func (f *CFunction) Inputs() []*CParam {
	var in []*CParam
	for _, p := range f.Params {
		if !p.Out {
			in = append(in, p)
		}
	}
	return in
}

// Outputs returns the output parameters, in C order.
func (f *CFunction) Outputs() []*CParam {
	var out []*CParam
	for _, p := range f.Params {
		if p.Out {
			out = append(out, p)
		}
	}
	return out
}
