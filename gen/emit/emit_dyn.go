package emit

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"text/template"

	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/templates"
)

// The emitter of the cgo bindings of an OpenDyn package. The package has what
// an OpenTool package has (types, Service, client, document), with the server
// constructor named NewServiceTool, plus:
//
//	library.gen.go  Library, Open, Close, one method per function, Service, CodeText
//	opendyn.gen.h   the C side, from templates/opendyn.h.tmpl: prototypes and trampolines,
//	                and the guard of templates/opendyn_guard.h
//
// What every package would have alike (loading the library with dlopen or
// LoadLibrary, looking up its functions, Close waiting for the calls in
// progress before it unloads the library) is runtime/dynlib: Library wraps a
// *dynlib.Library, and each method takes its function's address (and the
// library's guard, which its trampoline checks) from it.

const (
	unsafePath  = "unsafe"
	bytesPath   = "bytes"
	stringsPath = "strings"
	cPath       = "C"
	dynlibPath  = runtimePath + "/dynlib"
)

// ---- C ------------------------------------------------------------------------

// cDecl is the C type of a parameter in the prototype the library has.
func cDecl(c model.CType, shape model.CShape, out bool) string {
	switch {
	case !c.Pointer:
		return c.Name
	case shape == model.CString && !out:
		return "const " + c.Name + " *"
	}
	return c.Name + " *"
}

// cComment makes s safe in a C // comment: one line, and no backslash, which
// would continue the comment on the next line.
func cComment(s string) string {
	s = sanitizeLine(s)
	s = strings.ReplaceAll(s, `\`, "/")
	return strings.ReplaceAll(s, "??", "? ?") // no trigraphs
}

type headerParam struct{ Type, Name string }

type headerFunc struct {
	Symbol, Typedef, Trampoline, Return string
	Params                              []headerParam
	// Guarded: the trampoline takes the library's guard and calls the
	// function only while the library is open; Result names the struct it
	// returns (the function's value and whether it was called), for a
	// function that returns a value.
	Guarded bool
	Result  string
}

type headerData struct {
	Source    string
	Stdcall   bool
	Functions []headerFunc
	Guarded   bool   // some function is
	Guard     string // templates/opendyn_guard.h
}

// guardedCall reports whether a function is called through a guarded
// trampoline: all but those that return a pointer, which points into the
// library and is read after the call, under dynlib's Acquire and Release.
func guardedCall(c *model.CFunction) bool { return c.Return == nil || !c.Return.C.Pointer }

// resultStruct is the C name of the struct a guarded trampoline returns:
// otg_ret_ and what follows otg_fn_ in the function's typedef, which is unique.
func resultStruct(c *model.CFunction) string {
	return "otg_ret_" + strings.TrimPrefix(c.Typedef, "otg_fn_")
}

// guardSource is templates/opendyn_guard.h, without its trailing newline.
var guardSource = func() string {
	b, err := templates.FS.ReadFile("opendyn_guard.h")
	if err != nil {
		panic("opentoolgen: internal error: templates/opendyn_guard.h: " + err.Error())
	}
	return strings.TrimSuffix(string(b), "\n")
}()

var headerTemplate = template.Must(template.New("opendyn.h.tmpl").
	Funcs(template.FuncMap{"cComment": cComment}).
	ParseFS(templates.FS, "opendyn.h.tmpl"))

func emitDynHeader(p *model.Package) ([]byte, error) {
	d := headerData{Source: p.Source, Stdcall: p.Dyn.Stdcall, Guard: guardSource}
	for _, fn := range p.Functions {
		c := fn.C
		hf := headerFunc{Symbol: c.Symbol, Typedef: c.Typedef, Trampoline: c.Trampoline, Return: "void"}
		if guardedCall(c) {
			hf.Guarded, d.Guarded = true, true
			if c.Return != nil {
				hf.Result = resultStruct(c)
			}
		}
		if c.Return != nil {
			hf.Return = cDecl(c.Return.C, c.Return.Shape, false)
		}
		for i, cp := range c.Params {
			hf.Params = append(hf.Params, headerParam{Type: cDecl(cp.C, cp.Shape, cp.Out), Name: "a" + strconv.Itoa(i)})
		}
		d.Functions = append(d.Functions, hf)
	}
	var b bytes.Buffer
	if err := headerTemplate.Execute(&b, d); err != nil {
		return nil, fmt.Errorf("opentoolgen: internal error: the C header template: %v", err)
	}
	return b.Bytes(), nil
}

// ---- Go -----------------------------------------------------------------------

// cgoNames are the cgo names of the C types.
var cgoNames = map[string]string{
	"bool": "bool", "char": "char", "unsigned char": "uchar", "short": "short", "unsigned short": "ushort",
	"int": "int", "unsigned int": "uint", "long": "long", "unsigned long": "ulong",
	"long long": "longlong", "unsigned long long": "ulonglong", "float": "float", "double": "double",
}

func cgo(name string) *jen.Statement { return jen.Qual(cPath, cgoNames[name]) }

// isCLong reports whether a C type is long or unsigned long, which have 32 bits
// on Windows and 32-bit platforms and 64 elsewhere, while their Go types have 64.
func isCLong(name string) bool { return name == "long" || name == "unsigned long" }

// goWide is the 64-bit Go type of a C long.
func goWide(name string) *jen.Statement {
	if name == "unsigned long" {
		return jen.Uint64()
	}
	return jen.Int64()
}

// scalarRef returns the scalar type under r (r itself, or the underlying
// type of a named type).
func scalarRef(r *model.TypeRef) *model.TypeRef {
	for r.Kind == model.RefNamed && r.Named.Underlying != nil {
		r = r.Named.Underlying
	}
	return r
}

// methodParamType is the Go type of an input of a method.
func methodParamType(cp *model.CParam) *jen.Statement {
	switch cp.Shape {
	case model.CPointer:
		return jen.Op("*").Add(goType(cp.Type))
	case model.CString:
		if !cp.Required {
			return jen.Op("*").Add(goType(cp.Type))
		}
	}
	return goType(cp.Type)
}

// argPath is the JSON pointer of an argument, for violations.
func argPath(cp *model.CParam) string { return jsontree.Pointer(cp.Name) }

func emitLibrary(p *model.Package) *jen.File {
	f := newFile(p)
	var pre []string
	for _, fn := range p.Functions {
		// A trampoline that takes pointers keeps none (cgo's rules require
		// that of C code anyway) and the library cannot call back into Go (it
		// is given no Go function): so the Go memory passed stays on the stack
		// instead of escaping to the heap. Trampolines without pointers need
		// no annotation.
		if takesPointers(fn.C) {
			pre = append(pre, "#cgo noescape "+fn.C.Trampoline, "#cgo nocallback "+fn.C.Trampoline)
		}
	}
	pre = append(pre, "#include \""+p.Dyn.Header+"\"")
	f.CgoPreamble(strings.Join(pre, "\n"))

	// var symbols = [N]dynlib.Symbol{
	//	{Name: "add", Stdcall32: "add@8"},
	//	…
	// }
	var symbols []jen.Code
	for _, fn := range p.Functions {
		s := []jen.Code{jen.Id("Name").Op(":").Lit(fn.C.Symbol)}
		if fn.C.Stdcall32 != "" {
			s = append(s, jen.Id("Stdcall32").Op(":").Lit(fn.C.Stdcall32))
		}
		symbols = append(symbols, jen.Line().Values(s...))
	}
	n := len(symbols)
	if n > 0 {
		symbols = append(symbols, jen.Line())
	}
	if p.Dyn.Stdcall {
		f.Comment("symbols are the functions of the library, as the document names them, with")
		f.Comment("the names 32-bit Windows compilers give stdcall functions.")
	} else {
		f.Comment("symbols are the functions of the library, as the document names them.")
	}
	f.Var().Id("symbols").Op("=").Index(jen.Lit(n)).Qual(dynlibPath, "Symbol").Values(symbols...)
	f.Line()

	f.Comment("Library is the dynamic library the document describes, opened with Open. Its")
	f.Comment("methods call the functions of the library, through the prototypes the document")
	f.Comment("gives, and are safe for concurrent use when those functions are. After Close")
	f.Comment("they return dynlib.ErrLibraryClosed, as they do for a zero Library.")
	f.Type().Id("Library").Struct(
		jen.Id("lib").Op("*").Qual(dynlibPath, "Library").Comment("the addresses of symbols, by index; nil in a zero Library"),
	)
	f.Line()

	f.Comment("Open loads the dynamic library at path (dlopen with RTLD_NOW|RTLD_LOCAL;")
	f.Comment("LoadLibrary on Windows) and looks up every function the document describes.")
	f.Comment("Its error is an *dynlib.LibraryError naming path and, when the library lacks")
	f.Comment("functions, every one of them. An empty path is refused (dynlib.ErrEmptyLibraryPath):")
	f.Comment("dlopen would open the program itself.")
	f.Func().Id("Open").Params(jen.Id("path").String()).Params(jen.Op("*").Id("Library"), jen.Error()).Block(
		jen.List(jen.Id("lib"), jen.Err()).Op(":=").Qual(dynlibPath, "Open").Call(jen.Id("path"), jen.Id("symbols").Index(jen.Op(":"))),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Op("&").Id("Library").Values(jen.Dict{jen.Id("lib"): jen.Id("lib")}), jen.Nil()),
	)
	f.Line()

	f.Comment("Path returns the path the library was opened with.")
	f.Func().Params(jen.Id("l").Op("*").Id("Library")).Id("Path").Params().String().Block(jen.Return(jen.Id("l").Dot("lib").Dot("Path").Call()))
	f.Line()

	f.Comment("Close waits for the calls in progress and unloads the library; the calls that")
	f.Comment("follow return dynlib.ErrLibraryClosed. Closing a closed library (or a zero")
	f.Comment("Library) does nothing.")
	f.Func().Params(jen.Id("l").Op("*").Id("Library")).Id("Close").Params().Error().Block(jen.Return(jen.Id("l").Dot("lib").Dot("Close").Call()))
	f.Line()

	for _, fn := range p.Functions {
		emitDynMethod(f, fn)
	}
	emitDynTool(f, p)
	emitCodeText(f, p)
	emitDynHelpers(f, p)
	return f
}

// takesPointers reports whether a C function takes a pointer.
func takesPointers(c *model.CFunction) bool {
	for _, p := range c.Params {
		if p.C.Pointer {
			return true
		}
	}
	return false
}

// cPrototype is the C declaration of a function, for its method's comment.
func cPrototype(fn *model.Function) string {
	c := fn.C
	ret := "void"
	if c.Return != nil {
		ret = cDecl(c.Return.C, c.Return.Shape, false)
	}
	var params []string
	for _, cp := range c.Params {
		d := cDecl(cp.C, cp.Shape, cp.Out)
		if !strings.HasSuffix(d, "*") {
			d += " "
		}
		params = append(params, d+cp.Name)
	}
	if len(params) == 0 {
		params = []string{"void"}
	}
	if !strings.HasSuffix(ret, "*") {
		ret += " "
	}
	return ret + c.Symbol + "(" + strings.Join(params, ", ") + ")"
}

// emitDynMethod renders the method of one function:
//
//	func (l *Library) Add(a int32, b int32) (result int32, err error) {
//		g_, fn_ := l.lib.Func(0) // the library's guard and the function
//		r_ := C.otg_call_add(C.uintptr_t(g_), C.uintptr_t(fn_), C.int(a), C.int(b))
//		if !r_.ok { // closed (the function was not called), or a zero Library
//			return result, dynlib.ErrLibraryClosed
//		}
//		result = int32(r_.r)
//		return result, nil
//	}
//
// The trampoline keeps the call and Close apart (templates/opendyn_guard.h). A
// function that returns a pointer is called under Acquire and Release
// instead, since the pointer points into the library and is read after the
// call (acquired). Locals end in "_", which no name derived from the
// document does.
func emitDynMethod(f *jen.File, fn *model.Function) {
	c := fn.C
	m := &dynCall{}
	var params, results []jen.Code
	for _, cp := range c.Inputs() {
		params = append(params, jen.Id(cp.GoName).Add(methodParamType(cp)))
	}
	if c.Return != nil {
		results = append(results, jen.Id(c.Return.GoName).Add(goType(c.Return.Type)))
		m.zeros = append(m.zeros, jen.Id(c.Return.GoName))
	}
	for _, cp := range c.Outputs() {
		results = append(results, jen.Id(cp.GoName).Add(goType(cp.Type)))
		m.zeros = append(m.zeros, jen.Id(cp.GoName))
	}
	results = append(results, jen.Err().Error())
	for i, cp := range c.Params {
		m.param(i, cp)
	}
	var body []jen.Code
	if guardedCall(c) {
		body = m.guarded(c)
	} else {
		body = m.acquired(c)
	}
	body = append(body, m.post...)
	body = append(body, jen.Return(append(append([]jen.Code{}, m.zeros...), jen.Nil())...))
	f.Add(dynMethodDoc(fn)).Func().Params(jen.Id("l").Op("*").Id("Library")).Id(fn.GoName).Params(params...).Params(results...).Block(body...)
	f.Line()
}

// guarded is the body of a method up to its results, through a guarded
// trampoline, which returns whether it called the function (with its value in
// r_.r when it has one).
func (m *dynCall) guarded(c *model.CFunction) []jen.Code {
	body := append([]jen.Code{}, m.pre...)
	body = append(body, jen.List(jen.Id("g_"), jen.Id("fn_")).Op(":=").Id("l").Dot("lib").Dot("Func").Call(jen.Lit(c.Index)))
	args := append([]jen.Code{jen.Qual(cPath, "uintptr_t").Call(jen.Id("g_")), jen.Qual(cPath, "uintptr_t").Call(jen.Id("fn_"))}, m.call...)
	callExpr := jen.Qual(cPath, c.Trampoline).Call(args...)
	fail := m.fail(dynQ("ErrLibraryClosed"))
	if c.Return == nil {
		return append(body, jen.If(jen.Op("!").Add(callExpr)).Block(fail))
	}
	body = append(body,
		jen.Id("r_").Op(":=").Add(callExpr),
		jen.If(jen.Op("!").Id("r_").Dot("ok")).Block(fail))
	return append(body, dynReturn(c.Return, jen.Id("r_").Dot("r"))...)
}

// acquired is the body of a method up to its results, for a function that
// returns a pointer: the library is held with Acquire until the value it
// points to is converted, then released.
//
//	fn_, ok_ := l.lib.Acquire(0)
//	if !ok_ { return …, dynlib.ErrLibraryClosed }
//	r_ := C.otg_call_f(C.uintptr_t(fn_), …)
//	… // r_ converted
//	l.lib.Release()
//
// No defer: it would cost a quarter of a cheap call, and nothing between
// Acquire and Release can panic.
func (m *dynCall) acquired(c *model.CFunction) []jen.Code {
	body := append([]jen.Code{}, m.pre...)
	body = append(body,
		jen.List(jen.Id("fn_"), jen.Id("ok_")).Op(":=").Id("l").Dot("lib").Dot("Acquire").Call(jen.Lit(c.Index)),
		jen.If(jen.Op("!").Id("ok_")).Block(m.fail(dynQ("ErrLibraryClosed"))),
	)
	args := append([]jen.Code{jen.Qual(cPath, "uintptr_t").Call(jen.Id("fn_"))}, m.call...)
	body = append(body, jen.Id("r_").Op(":=").Add(jen.Qual(cPath, c.Trampoline).Call(args...)))
	body = append(body, dynReturn(c.Return, jen.Id("r_"))...)
	return append(body, jen.Id("l").Dot("lib").Dot("Release").Call())
}

// dynMethodDoc is the doc comment of a library method: the document's text,
// or what it calls, and the C prototype.
func dynMethodDoc(fn *model.Function) *jen.Statement {
	lines := docLines(fn.Doc)
	if len(lines) == 0 {
		lines = []string{fn.GoName + " calls " + fn.C.Symbol + "."}
	} else {
		lines[0] = docLead(fn.GoName, lines[0], "returns")
		leadWith(lines, fn.GoName, fn.GoName+" calls "+fn.C.Symbol, true)
	}
	lines = append(lines, "", "C: "+cPrototype(fn))
	return comment(strings.Join(lines, "\n"))
}

// dynCall collects the statements of one library method around the call of
// its trampoline: the argument checks and conversions before it (pre), its
// arguments after the guard and the function (call), and the results written
// back after it (post).
type dynCall struct {
	zeros           []jen.Code // the named results, returned with an error
	pre, call, post []jen.Code
}

// fail returns the named results and err.
func (m *dynCall) fail(err jen.Code) jen.Code {
	return jen.Return(append(append([]jen.Code{}, m.zeros...), err)...)
}

// invalid fails with an invalid-params error of one violation at path.
func (m *dynCall) invalid(path jen.Code, msg string) jen.Code {
	return m.fail(rt("InvalidParams").Call(rt("Violation").Values(jen.Dict{
		jen.Id("Path"): path, jen.Id("Message"): jen.Lit(msg),
	})))
}

// rangeMsg is the violation of a value a 32-bit C long cannot hold.
func rangeMsg(cp *model.CParam) string {
	return "out of the range of C " + cp.C.Name + ", which has 32 bits on this platform"
}

// dynLocal names the locals of parameter i: t0_, p0_, s0_, o0_, ok0_.
type dynLocal int

func (i dynLocal) id(s string) *jen.Statement { return jen.Id(s + strconv.Itoa(int(i)) + "_") }

// param adds the statements and the argument of parameter i, by its
// direction and shape.
func (m *dynCall) param(i int, cp *model.CParam) {
	x, id := jen.Id(cp.GoName), dynLocal(i).id
	switch {
	case !cp.Out && cp.Shape == model.CScalar:
		m.inScalar(x, cp)
	case !cp.Out && cp.Shape == model.CPointer:
		m.inPointer(x, id, cp)
	case !cp.Out && cp.Shape == model.CString:
		m.inString(x, id, cp)
	case !cp.Out && cp.Shape == model.CSlice:
		m.inSlice(x, id, cp)
	case cp.Out && (cp.Shape == model.CPointer || cp.Shape == model.CScalar):
		// var o_ C.int … x = T(o_)
		m.pre = append(m.pre, jen.Var().Add(id("o")).Add(cgo(cp.C.Name)))
		m.call = append(m.call, jen.Op("&").Add(id("o")))
		m.post = append(m.post, x.Clone().Op("=").Add(goType(cp.Type)).Call(id("o")))
	case cp.Out && cp.Shape == model.CString:
		m.outString(x, id, cp)
	case cp.Out && cp.Shape == model.CSlice:
		m.outSlice(x, id, cp)
	}
}

// inScalar passes a scalar, checking a long's range:
//
//	if int64(C.long(x)) != int64(x) { return …, invalid }
func (m *dynCall) inScalar(x *jen.Statement, cp *model.CParam) {
	name := cp.C.Name
	if isCLong(name) {
		m.pre = append(m.pre, jen.If(goWide(name).Call(cgo(name).Call(x)).Op("!=").Add(goWide(name)).Call(x)).Block(
			m.invalid(jen.Lit(argPath(cp)), rangeMsg(cp))))
	}
	m.call = append(m.call, cgo(name).Call(x))
}

// inPointer passes a pointer the function reads through.
func (m *dynCall) inPointer(x *jen.Statement, id func(string) *jen.Statement, cp *model.CParam) {
	name := cp.C.Name
	if cp.Required {
		m.pre = append(m.pre, jen.If(x.Clone().Op("==").Nil()).Block(
			m.invalid(jen.Lit(argPath(cp)), "missing: want a value, which the function reads through a pointer")))
	}
	if !isCLong(name) {
		m.call = append(m.call, jen.Parens(jen.Op("*").Add(cgo(name))).Call(jen.Qual(unsafePath, "Pointer").Call(x)))
		return
	}
	// var t_ C.long; var p_ *C.long
	// if x != nil { range check; t_ = C.long(*x); p_ = &t_ }
	// … call …
	// if x != nil { *x = T(t_) }
	m.pre = append(m.pre,
		jen.Var().Add(id("t")).Add(cgo(name)),
		jen.Var().Add(id("p")).Op("*").Add(cgo(name)),
		jen.If(x.Clone().Op("!=").Nil()).Block(
			jen.If(goWide(name).Call(cgo(name).Call(jen.Op("*").Add(x))).Op("!=").Add(goWide(name)).Call(jen.Op("*").Add(x))).Block(
				m.invalid(jen.Lit(argPath(cp)), rangeMsg(cp))),
			id("t").Op("=").Add(cgo(name)).Call(jen.Op("*").Add(x)),
			id("p").Op("=").Op("&").Add(id("t")),
		))
	m.call = append(m.call, id("p"))
	m.post = append(m.post, jen.If(x.Clone().Op("!=").Nil()).Block(
		jen.Op("*").Add(x).Op("=").Add(goType(cp.Type)).Call(id("t"))))
}

// inString passes a string as a NUL-terminated copy:
//
//	var s_ [64]byte
//	p_, ok_ := cStringOf(s_[:0], string(x))
//	if !ok_ { return …, invalid }
func (m *dynCall) inString(x *jen.Statement, id func(string) *jen.Statement, cp *model.CParam) {
	val := x.Clone()
	if !cp.Required {
		val = jen.Op("*").Add(x)
	}
	if scalarRef(cp.Type).Kind == model.RefString && cp.Type.Kind == model.RefNamed {
		val = jen.String().Call(val)
	}
	m.pre = append(m.pre, jen.Var().Add(id("s")).Index(jen.Lit(64)).Byte())
	check := jen.If(jen.Op("!").Add(id("ok"))).Block(
		m.invalid(jen.Lit(argPath(cp)), "contains a NUL byte, which would end the C string"))
	if cp.Required {
		m.pre = append(m.pre, jen.List(id("p"), id("ok")).Op(":=").Id("cStringOf").Call(id("s").Index(jen.Op(":")), val), check)
	} else {
		m.pre = append(m.pre,
			jen.Var().Add(id("p")).Qual(unsafePath, "Pointer"),
			jen.If(x.Clone().Op("!=").Nil()).Block(
				jen.Var().Add(id("ok")).Bool(),
				jen.List(id("p"), id("ok")).Op("=").Id("cStringOf").Call(id("s").Index(jen.Op(":")), val),
				check,
			))
	}
	m.call = append(m.call, jen.Parens(jen.Op("*").Add(cgo(cp.C.Name))).Call(id("p")))
}

// inSlice passes a slice's array, copied when its elements are longs of 32
// bits.
func (m *dynCall) inSlice(x *jen.Statement, id func(string) *jen.Statement, cp *model.CParam) {
	name := cp.C.Name
	data := jen.Qual(unsafePath, "Pointer").Call(jen.Qual(unsafePath, "SliceData").Call(x))
	if !isCLong(name) {
		m.call = append(m.call, jen.Parens(jen.Op("*").Add(cgo(name))).Call(data))
		return
	}
	// p_ := (*C.long)(unsafe.Pointer(unsafe.SliceData(x)))
	// var t_ []C.long
	// if unsafe.Sizeof(C.long(0)) != 8 && len(x) > 0 { copy, checking ranges; p_ = &t_[0] }
	// … call …
	// for i, v := range t_ { x[i] = T(v) }
	m.pre = append(m.pre,
		id("p").Op(":=").Parens(jen.Op("*").Add(cgo(name))).Call(data),
		jen.Var().Add(id("t")).Index().Add(cgo(name)),
		jen.If(jen.Qual(unsafePath, "Sizeof").Call(cgo(name).Call(jen.Lit(0))).Op("!=").Lit(8).Op("&&").Len(x).Op(">").Lit(0)).Block(
			id("t").Op("=").Make(jen.Index().Add(cgo(name)), jen.Len(x)),
			jen.For(jen.List(jen.Id("i"), jen.Id("v")).Op(":=").Range().Add(x)).Block(
				jen.If(goWide(name).Call(cgo(name).Call(jen.Id("v"))).Op("!=").Add(goWide(name)).Call(jen.Id("v"))).Block(
					m.invalid(jen.Lit(argPath(cp)+"/").Op("+").Qual("strconv", "Itoa").Call(jen.Id("i")), rangeMsg(cp))),
				id("t").Index(jen.Id("i")).Op("=").Add(cgo(name)).Call(jen.Id("v")),
			),
			id("p").Op("=").Op("&").Add(id("t")).Index(jen.Lit(0)),
		))
	m.call = append(m.call, id("p"))
	m.post = append(m.post, jen.For(jen.List(jen.Id("i"), jen.Id("v")).Op(":=").Range().Add(id("t"))).Block(
		x.Clone().Index(jen.Id("i")).Op("=").Add(goType(cp.Type.Elem)).Call(jen.Id("v"))))
}

// outString reads a string the function writes into a buffer:
//
//	var o_ [N]byte … x = goStringOf(o_[:])
func (m *dynCall) outString(x *jen.Statement, id func(string) *jen.Statement, cp *model.CParam) {
	m.pre = append(m.pre, jen.Var().Add(id("o")).Index(jen.Lit(cp.Size)).Byte())
	m.call = append(m.call, jen.Parens(jen.Op("*").Add(cgo(cp.C.Name))).Call(jen.Qual(unsafePath, "Pointer").Call(jen.Op("&").Add(id("o")).Index(jen.Lit(0)))))
	s := jen.Id("goStringOf").Call(id("o").Index(jen.Op(":")))
	if cp.Type.Kind == model.RefNamed {
		s = goType(cp.Type).Call(s)
	}
	m.post = append(m.post, x.Clone().Op("=").Add(s))
}

// outSlice reads an array the function writes.
func (m *dynCall) outSlice(x *jen.Statement, id func(string) *jen.Statement, cp *model.CParam) {
	name := cp.C.Name
	if !isCLong(name) {
		// o_ := make([]T, N) … x = o_
		m.pre = append(m.pre, id("o").Op(":=").Make(goType(cp.Type), jen.Lit(cp.Size)))
		m.call = append(m.call, jen.Parens(jen.Op("*").Add(cgo(name))).Call(jen.Qual(unsafePath, "Pointer").Call(jen.Op("&").Add(id("o")).Index(jen.Lit(0)))))
		m.post = append(m.post, x.Clone().Op("=").Add(id("o")))
		return
	}
	// var o_ [N]C.long … x = make([]T, N); for i, v := range o_ { x[i] = E(v) }
	m.pre = append(m.pre, jen.Var().Add(id("o")).Index(jen.Lit(cp.Size)).Add(cgo(name)))
	m.call = append(m.call, jen.Op("&").Add(id("o")).Index(jen.Lit(0)))
	m.post = append(m.post,
		x.Clone().Op("=").Make(goType(cp.Type), jen.Lit(cp.Size)),
		jen.For(jen.List(jen.Id("i"), jen.Id("v")).Op(":=").Range().Add(id("o"))).Block(
			x.Clone().Index(jen.Id("i")).Op("=").Add(goType(cp.Type.Elem)).Call(jen.Id("v"))))
}

// dynReturn converts the trampoline's result r (r_, or r_.r) into the named
// result.
func dynReturn(r *model.CReturn, v *jen.Statement) []jen.Code {
	ret := jen.Id(r.GoName)
	switch r.Shape {
	case model.CScalar:
		return []jen.Code{ret.Clone().Op("=").Add(goType(r.Type)).Call(v)}
	case model.CString:
		s := jen.Qual(cPath, "GoString").Call(v)
		if r.C.Name != "char" {
			s = jen.Qual(cPath, "GoString").Call(jen.Parens(jen.Op("*").Qual(cPath, "char")).Call(jen.Qual(unsafePath, "Pointer").Call(v)))
		}
		if r.Type.Kind == model.RefNamed {
			s = goType(r.Type).Call(s)
		}
		return []jen.Code{ret.Clone().Op("=").Add(s)}
	case model.CPointer:
		return []jen.Code{jen.If(v.Clone().Op("!=").Nil()).Block(
			ret.Clone().Op("=").Add(goType(r.Type)).Call(jen.Op("*").Add(v)))}
	}
	return nil
}

// emitDynTool renders (*Library).Service and the Service that calls the
// library:
//
//	func (l *Library) Service() Service { return libraryService{lib: l} }
func emitDynTool(f *jen.File, p *model.Package) {
	f.Comment("Service returns the Service that calls the functions of l, with typed")
	f.Comment("arguments and results: serve it with NewTool (which decodes and validates the")
	f.Comment("arguments of each call, the ranges of the C types included). A float or double")
	f.Comment("result that is not a finite number is an error: JSON cannot carry it.")
	f.Func().Params(jen.Id("l").Op("*").Id("Library")).Id("Service").Params().Id(p.Service()).Block(
		jen.Return(jen.Id("libraryService").Values(jen.Id("lib").Op(":").Id("l"))),
	)
	f.Line()
	f.Comment("libraryService is the Service that calls the library.")
	f.Type().Id("libraryService").Struct(jen.Id("lib").Op("*").Id("Library"))
	f.Var().Id("_").Id(p.Service()).Op("=").Id("libraryService").Values()
	f.Line()
	for _, fn := range p.Functions {
		c := fn.C
		var args []jen.Code
		for _, cp := range c.Inputs() {
			a := jen.Id("args").Dot(cp.Field.Name)
			switch {
			case cp.Shape == model.CScalar && cp.Field.Pointer:
				a = jen.Id("valueOf").Call(a)
			case cp.Shape == model.CPointer && !cp.Field.Pointer:
				a = jen.Op("&").Add(a)
			}
			args = append(args, a)
		}
		params := []jen.Code{jen.Id("ctx").Qual(contextPath, "Context")}
		if fn.Args != nil {
			params = append(params, jen.Id("args").Id(fn.Args.Name))
		}
		call := jen.Id("s").Dot("lib").Dot(fn.GoName).Call(args...)
		recv := jen.Params(jen.Id("s").Id("libraryService"))
		outs := c.Outputs()
		checks := finiteChecks(fn)
		switch {
		case fn.Result == nil:
			f.Func().Add(recv).Id(fn.GoName).Params(params...).Error().Block(jen.Return(call))
		case len(outs) == 0 && len(checks) == 0:
			f.Func().Add(recv).Id(fn.GoName).Params(params...).Params(goType(fn.Result), jen.Error()).Block(jen.Return(call))
		case len(outs) == 0:
			// r, err := s.lib.F(…)
			// if err != nil { return r, err }
			// return r, dynlib.CheckFinite("f", "result", r)
			f.Func().Add(recv).Id(fn.GoName).Params(params...).Params(goType(fn.Result), jen.Error()).Block(
				jen.List(jen.Id("r"), jen.Err()).Op(":=").Add(call),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("r"), jen.Err())),
				jen.Return(jen.Id("r"), checks[0].call(jen.Id("r"))),
			)
		default:
			// var r R; var err error; r.Ret, r.Out, err = s.lib.F(…); return r, err
			var lhs []jen.Code
			if c.Return != nil {
				lhs = append(lhs, jen.Id("r").Dot(c.Return.Field.Name))
			}
			for _, cp := range outs {
				lhs = append(lhs, jen.Id("r").Dot(cp.Field.Name))
			}
			lhs = append(lhs, jen.Err())
			body := []jen.Code{
				jen.Var().Id("r").Add(goType(fn.Result)),
				jen.Var().Err().Error(),
				jen.List(lhs...).Op("=").Add(call),
			}
			body = append(body, finiteBlock(checks)...)
			body = append(body, jen.Return(jen.Id("r"), jen.Err()))
			f.Func().Add(recv).Id(fn.GoName).Params(params...).Params(goType(fn.Result), jen.Error()).Block(body...)
		}
		f.Line()
	}
}

// finiteCheck is a float result member of an OpenDyn function that the
// served tool checks: JSON has no infinities or NaN.
type finiteCheck struct {
	function, member string
	field            string // the member's field of the result struct; "" for a scalar result
	slice            bool
}

// call renders dynlib.CheckFinite("f", "member", v) (v... for a slice).
func (c finiteCheck) call(v *jen.Statement) *jen.Statement {
	if c.slice {
		v = v.Op("...")
	}
	return dynQ("CheckFinite").Call(jen.Lit(c.function), jen.Lit(c.member), v)
}

// finiteChecks returns the float and double values fn's result carries: its
// C return value and its output parameters (scalars and arrays).
func finiteChecks(fn *model.Function) []finiteCheck {
	c := fn.C
	isFloat := func(t model.CType) bool { return t.Name == "float" || t.Name == "double" }
	var out []finiteCheck
	if r := c.Return; r != nil && r.Shape == model.CScalar && isFloat(r.C) {
		fc := finiteCheck{function: fn.Name, member: fn.ResultName}
		if r.Field != nil {
			fc.field, fc.member = r.Field.Name, r.Field.JSONName
		}
		out = append(out, fc)
	}
	for _, p := range c.Outputs() {
		if isFloat(p.C) && !p.Field.Pointer && (p.Shape == model.CPointer || p.Shape == model.CSlice) {
			out = append(out, finiteCheck{function: fn.Name, member: p.Field.JSONName, field: p.Field.Name, slice: p.Shape == model.CSlice})
		}
	}
	return out
}

// finiteBlock renders the checks of the members of a result struct r, after
// the call set err, one statement per member:
//
//	if err == nil { err = dynlib.CheckFinite("f", "x", r.X) }
func finiteBlock(checks []finiteCheck) []jen.Code {
	var out []jen.Code
	for _, c := range checks {
		out = append(out, jen.If(jen.Err().Op("==").Nil()).Block(jen.Err().Op("=").Add(c.call(jen.Id("r").Dot(c.field)))))
	}
	return out
}

// emitCodeText renders CodeText, from the document's status codes.
func emitCodeText(f *jen.File, p *model.Package) {
	f.Comment("CodeText returns the text the document gives the status code code, and whether")
	f.Comment("it gives one.")
	var cases []jen.Code
	seen := map[int64]bool{}
	for _, c := range p.Dyn.Codes {
		if seen[c.Code] {
			continue
		}
		seen[c.Code] = true
		cases = append(cases, jen.Case(jen.Op(strconv.FormatInt(c.Code, 10))).Block(jen.Return(jen.Lit(c.Text), jen.True())))
	}
	var body []jen.Code
	if len(cases) > 0 {
		body = append(body, jen.Switch(jen.Id("code")).Block(cases...))
	}
	body = append(body, jen.Return(jen.Lit(""), jen.False()))
	f.Func().Id("CodeText").Params(jen.Id("code").Int64()).Params(jen.String(), jen.Bool()).Block(body...)
	f.Line()
}

// emitDynHelpers renders the helpers the methods use, those they use.
func emitDynHelpers(f *jen.File, p *model.Package) {
	if usesCString(p, false) {
		f.Comment("cStringOf returns s as a NUL-terminated string in buf's memory (in new memory")
		f.Comment("when it does not fit), or false when s holds a NUL byte, which C would read as")
		f.Comment("its end.")
		f.Func().Id("cStringOf").Params(jen.Id("buf").Index().Byte(), jen.Id("s").String()).Params(jen.Qual(unsafePath, "Pointer"), jen.Bool()).Block(
			jen.If(jen.Qual(stringsPath, "IndexByte").Call(jen.Id("s"), jen.Lit(0)).Op(">=").Lit(0)).Block(jen.Return(jen.Nil(), jen.False())),
			jen.Id("buf").Op("=").Append(jen.Append(jen.Id("buf").Index(jen.Op(":").Lit(0)), jen.Id("s").Op("...")), jen.Lit(0)),
			jen.Return(jen.Qual(unsafePath, "Pointer").Call(jen.Op("&").Id("buf").Index(jen.Lit(0))), jen.True()),
		)
		f.Line()
	}
	if usesCString(p, true) {
		f.Comment("goStringOf returns the NUL-terminated string at the start of b (all of b when")
		f.Comment("it has no NUL).")
		f.Func().Id("goStringOf").Params(jen.Id("b").Index().Byte()).String().Block(
			jen.If(jen.Id("i").Op(":=").Qual(bytesPath, "IndexByte").Call(jen.Id("b"), jen.Lit(0)), jen.Id("i").Op(">=").Lit(0)).Block(
				jen.Id("b").Op("=").Id("b").Index(jen.Op(":").Id("i")),
			),
			jen.Return(jen.String().Call(jen.Id("b"))),
		)
		f.Line()
	}
	if usesValueOf(p) {
		f.Comment("valueOf returns *p, or the zero value when p is nil.")
		f.Func().Id("valueOf").Types(jen.Id("T").Any()).Params(jen.Id("p").Op("*").Id("T")).Id("T").Block(
			jen.If(jen.Id("p").Op("==").Nil()).Block(jen.Var().Id("zero").Id("T"), jen.Return(jen.Id("zero"))),
			jen.Return(jen.Op("*").Id("p")),
		)
	}
}

// usesCString reports whether a function of p has a char* input (converted
// with cStringOf), or with out a char* output (read with goStringOf).
func usesCString(p *model.Package, out bool) bool {
	for _, fn := range p.Functions {
		for _, cp := range fn.C.Params {
			if cp.Shape == model.CString && cp.Out == out {
				return true
			}
		}
	}
	return false
}

// usesValueOf reports whether the tool passes an optional argument to a C
// function by value: absent, it is the zero value.
func usesValueOf(p *model.Package) bool {
	for _, fn := range p.Functions {
		for _, cp := range fn.C.Inputs() {
			if cp.Shape == model.CScalar && cp.Field.Pointer {
				return true
			}
		}
	}
	return false
}
