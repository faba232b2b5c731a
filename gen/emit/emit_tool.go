package emit

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// The one Tool adapter, the same for every input kind: tool.gen.go holds the
// Service interface and the Tool that serves a Service over the OpenTool
// protocol with the options of toolopt.Option.

// serviceDoc is the comment of the Service interface: what implements it,
// the library (hasC), the REST client (hasHTTP) or the user's code.
func serviceDoc(p *model.Package) []string {
	switch {
	case hasC(p):
		return []string{
			"Service is the library's functions with typed arguments and results: one",
			"method per function of the document. (*Library).Service() implements it by",
			"calling the library; *Client implements it by calling a server that serves it.",
		}
	case hasHTTP(p):
		return []string{
			"Service is the API: one method per operation. *Client implements it by calling",
			"the API over HTTP; a fake can implement it in tests.",
		}
	}
	return []string{
		"Service is the tool: one method per function of the document. Implement it to",
		"serve the tool (NewTool); *Client implements it by calling a server, so that",
		"a remote tool can be served again. A method's error reaches the caller as a",
		"JSON-RPC error: return " + an("*runtime.Error") + " to choose its code, any other error",
		"is reported with code 500.",
	}
}

// emitTool renders tool.gen.go:
//
//	type Service interface { F(ctx context.Context, args FArgs) (R, error); … }
//
//	type Tool struct { svc Service; args *toolopt.Args }
//
//	func NewTool(svc Service, opts ...toolopt.Option) (*Tool, error)
//	func (t *Tool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error)
//	func (t *Tool) StreamCall(ctx, name, args, emit) error // when a function streams
//	func (t *Tool) Load(context.Context) (*document.OpenTool, error)
//	func (t *Tool) Document() *document.OpenTool
//	func (t *Tool) Declarations(p declare.Profile) (*declare.Declared, error)
//	func (t *Tool) Functions() []*functions.Tool
//	func (t *Tool) Hints(name string) (document.Hints, bool) // OpenAPI
//
// It holds the methods of fns, the first functions of p; tool2.gen.go, …
// hold those of the others (emitToolPart), with their part of Service and of
// Call's switch.
func emitTool(p *model.Package, fns []*model.Function) *jen.File {
	f := newFile(p)
	n := parts(p, len(fns))
	emitService(f, p, fns, n)
	emitToolType(f, p)
	for _, fn := range fns {
		emitToolMethod(f, fn)
	}
	c := toolCases{checked: checksResults(p)}
	for _, fn := range p.Functions {
		c.add(fn)
	}
	if n > 1 {
		// Call switches over the functions of this file, then calls
		// call2, which switches over those of tool2.gen.go, … (emitToolPart).
		c.call, c.next = callCases(fns), "call2"
	}
	emitToolCalls(f, c, streams(p))
	emitToolDocument(f)
	if hasHints(p) {
		f.Line()
		emitHints(f, p)
	}
	if hasHeaderParams(p) {
		// With n > 1, HeaderParameters switches over the functions of
		// this file, then calls headerParameters2 (emitToolPart).
		next := jen.Return(jen.Nil())
		if n > 1 {
			next = jen.Return(jen.Id("t").Dot("headerParameters2").Call(jen.Id("name")))
		}
		f.Line()
		emitHeaderParams(f, headerParams(fns), next)
	}
	return f
}

// hasHeaderParams reports whether a function of p has header parameters.
func hasHeaderParams(p *model.Package) bool {
	for _, fn := range p.Functions {
		if fn.HTTP != nil && fn.Args != nil {
			for _, fd := range fn.Args.Fields {
				if fd.HTTP != nil && fd.HTTP.In == model.InHeader {
					return true
				}
			}
		}
	}
	return false
}

// headerParams returns, for each function of fns with header parameters in
// document order, a case of the Tool's HeaderParameters switch.
func headerParams(fns []*model.Function) []jen.Code {
	var cases []jen.Code
	for _, fn := range fns {
		if fn.HTTP == nil || fn.Args == nil {
			continue
		}
		d := jen.Dict{}
		for _, fd := range fn.Args.Fields {
			if fd.HTTP != nil && fd.HTTP.In == model.InHeader {
				d[jen.Lit(fd.JSONName)] = jen.Lit(fd.HTTP.Name)
			}
		}
		if len(d) > 0 {
			cases = append(cases, jen.Case(jen.Lit(fn.Name)).Block(jen.Return(jen.Map(jen.String()).String().Values(d))))
		}
	}
	return cases
}

// emitHeaderParams renders the Tool's HeaderParameters method:
//
//	func (t *Tool) HeaderParameters(name string) map[string]string {
//		switch name {
//		case "listPets":
//			return map[string]string{"X-Request-ID": "X-Request-ID"}
//		…
//		}
//		return nil // or, split: return t.headerParameters2(name)
//	}
func emitHeaderParams(f *jen.File, cases []jen.Code, next jen.Code) {
	f.Comment("HeaderParameters implements runtime.HeaderTool: the arguments of an operation")
	f.Comment("that are HTTP header parameters (argument → header), which mcpbridge marks")
	f.Comment("x-mcp-header.")
	f.Func().Params(jen.Id("t").Op("*").Id("Tool")).Id("HeaderParameters").Params(jen.Id("name").String()).Map(jen.String()).String().Block(
		switchOrNothing(cases),
		next,
	)
}

// emitService renders the Service interface, one method per function: the
// methods of fns, and when the tool is in n > 1 files, the interfaces of
// the functions of the others (service2, …; emitToolPart).
func emitService(f *jen.File, p *model.Package, fns []*model.Function, n int) {
	var methods []jen.Code
	for _, fn := range fns {
		methods = append(methods, funcDoc(fn.GoName, fn.Name, fn.Doc).Add(serviceMethod(fn)))
	}
	for i := 2; i <= n; i++ {
		methods = append(methods, jen.Id("service"+strconv.Itoa(i)))
	}
	for i, line := range serviceDoc(p) {
		if i == 0 {
			line = p.Service() + strings.TrimPrefix(line, "Service")
		}
		f.Comment(line)
	}
	f.Type().Id(p.Service()).Interface(methods...)
	f.Line()
}

// emitToolPart renders toolN.gen.go, part n of the tool of a large
// document: the Service methods of fns, the Tool's methods, and its part of
// Call's switch:
//
//	// serviceN are the methods of Service of the functions of toolN.gen.go.
//	type serviceN interface { F(ctx context.Context, args FArgs) (R, error); … }
//
//	func (t *Tool) callF(ctx context.Context, args json.RawMessage) (json.RawMessage, error) { … }
//
//	// callN calls the function name of toolN.gen.go, or passes it on to callN+1.
//	func (t *Tool) callN(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
//		switch name {
//		case "f":
//			return t.callF(ctx, args)
//		}
//		return t.callN+1(ctx, name, args) // in the last part: return nil, runtime.MethodNotFound(name)
//	}
func emitToolPart(p *model.Package, n int, fns []*model.Function) *jen.File {
	f := newFile(p)
	var methods []jen.Code
	for _, fn := range fns {
		methods = append(methods, funcDoc(fn.GoName, fn.Name, fn.Doc).Add(serviceMethod(fn)))
	}
	id := strconv.Itoa(n)
	f.Comment("service" + id + " are the methods of Service of the functions of tool" + id + ".gen.go.")
	f.Type().Id("service" + id).Interface(methods...)
	f.Line()
	for _, fn := range fns {
		emitToolMethod(f, fn)
	}
	next := jen.Return(jen.Nil(), rt("MethodNotFound").Call(jen.Id("name")))
	if fns[len(fns)-1] != p.Functions[len(p.Functions)-1] { // not the last part
		next = jen.Return(jen.Id("t").Dot("call"+strconv.Itoa(n+1)).Call(jen.Id("ctx"), jen.Id("name"), jen.Id("args")))
	}
	f.Comment("call" + id + " calls the function name of tool" + id + ".gen.go, or passes it on.")
	f.Func().Params(jen.Id("t").Op("*").Id("Tool")).Id("call"+id).Params(
		jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("name").String(), jen.Id("args").Qual(jsonPath, "RawMessage"),
	).Params(jen.Qual(jsonPath, "RawMessage"), jen.Error()).Block(
		switchOrNothing(callCases(fns)),
		next,
	)
	if hasHeaderParams(p) {
		// func (t *Tool) headerParameters2(name string) map[string]string
		next := jen.Return(jen.Nil())
		if fns[len(fns)-1] != p.Functions[len(p.Functions)-1] {
			next = jen.Return(jen.Id("t").Dot("headerParameters" + strconv.Itoa(n+1)).Call(jen.Id("name")))
		}
		f.Line()
		f.Comment("headerParameters" + id + " is HeaderParameters of the functions of tool" + id + ".gen.go, or passes name on.")
		f.Func().Params(jen.Id("t").Op("*").Id("Tool")).Id("headerParameters"+id).Params(jen.Id("name").String()).Map(jen.String()).String().Block(
			switchOrNothing(headerParams(fns)),
			next,
		)
	}
	return f
}

// callCases are the cases of Call's switch (or of a part of it) for the
// functions of fns that return once.
func callCases(fns []*model.Function) []jen.Code {
	var c toolCases
	for _, fn := range fns {
		if !fn.Stream {
			c.add(fn)
		}
	}
	return c.call
}

// emitToolType renders the Tool type and NewTool.
func emitToolType(f *jen.File, p *model.Package) {
	stream := streams(p)
	f.Comment("Tool serves a Service as an OpenTool tool: it completes the arguments of a")
	f.Comment("call as its options say, decodes and validates them straight into the typed")
	f.Comment("arguments (answering -32602 with every violation), calls the Service and")
	f.Comment("encodes the result. Serve it with runtime.NewHandler or runtime.Serve.")
	if hasHTTP(p) {
		f.Comment("An HTTP error of the API reaches the caller with the HTTP status as code and")
		f.Comment("the response body as data.")
	}
	f.Type().Id("Tool").Struct(
		jen.Id("svc").Id(p.Service()),
		jen.Id("args").Op("*").Add(optQ("Args")),
	)
	f.Line()
	f.Var().Id("_").Add(rt("Tool")).Op("=").Parens(jen.Op("*").Id("Tool")).Parens(jen.Nil())
	if stream {
		f.Var().Id("_").Add(rt("StreamTool")).Op("=").Parens(jen.Op("*").Id("Tool")).Parens(jen.Nil())
	}
	if hasHints(p) {
		f.Var().Id("_").Add(rt("HintTool")).Op("=").Parens(jen.Op("*").Id("Tool")).Parens(jen.Nil())
	}
	f.Line()
	f.Comment("NewTool returns the Tool serving svc. Its options choose the functions it")
	f.Comment("serves (toolopt.WithFunctions) and complete their arguments")
	f.Comment("(toolopt.WithDefaults, toolopt.WithFixed, toolopt.WithEnvs). It fails when")
	f.Comment("an option names a function or an argument the document does not have, or")
	f.Comment("gives a value of the wrong type, or when svc is nil.")
	if checksResults(p) {
		f.Comment("With toolopt.WithStrictResponses, the REST client a call reaches checks")
		f.Comment("the API's response against the document (rest.DecodeChecked).")
	}
	f.Func().Id("NewTool").Params(jen.Id("svc").Id(p.Service()), jen.Id("opts").Op("...").Add(optQ("Option"))).Params(jen.Op("*").Id("Tool"), jen.Error()).Block(
		jen.If(jen.Id("svc").Op("==").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(jen.Lit(p.Name+".NewTool: svc is nil (want the "+p.Service()+" whose methods the functions call)"))),
		),
		jen.List(jen.Id("args"), jen.Err()).Op(":=").Add(optQ("NewArgs")).Call(jen.Id("Document").Call(), jen.Id("opts").Op("...")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Op("&").Id("Tool").Values(jen.Id("svc").Op(":").Id("svc"), jen.Id("args").Op(":").Id("args")), jen.Nil()),
	)
	f.Line()
}

// hasHints reports whether the Tool has hints: those of the HTTP methods of
// the operations.
func hasHints(p *model.Package) bool { return hasHTTP(p) && len(p.Functions) > 0 || listedHints(p) }

// listedHints reports whether functions of the document carry hints (the
// annotations of an MCP listing).
func listedHints(p *model.Package) bool {
	if hasHTTP(p) || p.Document == nil {
		return false
	}
	for i := range p.Document.Functions {
		if p.Document.Functions[i].Hints != nil {
			return true
		}
	}
	return false
}

// toolCases are the cases of the Tool's Call and StreamCall switches, and
// the names of the functions that return once and of those that stream.
type toolCases struct {
	call, stream  []jen.Code
	once, streams []jen.Code
	// next, when set, is the method Call passes a name its cases do not
	// have on to (call2 of a tool split over files).
	next string
	// checked is set when the client of a function checks its response
	// with strict responses (checksResults): Call passes the Service the
	// context toolopt.WithStrictResponses marks.
	checked bool
}

// add adds the cases of fn to the switches of Call and StreamCall.
func (c *toolCases) add(fn *model.Function) {
	args := []jen.Code{jen.Id("ctx"), jen.Id("args")}
	if fn.Stream {
		c.stream = append(c.stream, jen.Case(jen.Lit(fn.Name)).Block(jen.Return(jen.Id("t").Dot(fn.ToolMethod).Call(append(args, jen.Id("emit"))...))))
		c.streams = append(c.streams, jen.Lit(fn.Name))
		return
	}
	c.call = append(c.call, jen.Case(jen.Lit(fn.Name)).Block(jen.Return(callBody(fn))))
	c.once = append(c.once, jen.Lit(fn.Name))
}

// callBody is what the case of fn in Call returns. A function with
// arguments is served by one of the runtime's helpers, which decodes the
// arguments, calls the Service (t.gatherF for a list function) and encodes
// the result (name is the function's name: Call resolved it):
//
//	return decode.CallObject(ctx, t.args, name, args, decodeFArgs, t.svc.F)
//	return decode.CallResult(ctx, t.args, name, args, decodeFArgs, t.svc.F, "r")
//	return decode.CallNoResult(ctx, t.args, name, args, decodeFArgs, t.svc.F)
//
// A function without arguments has its own method (emitToolMethod):
//
//	return t.callF(ctx, args)
func callBody(fn *model.Function) jen.Code {
	if fn.Args == nil {
		return jen.Id("t").Dot(fn.ToolMethod).Call(jen.Id("ctx"), jen.Id("args"))
	}
	helper, more := "CallObject", []jen.Code(nil)
	switch {
	case fn.Result == nil:
		helper = "CallNoResult"
	case fn.ResultName != "":
		helper, more = "CallResult", []jen.Code{jen.Lit(fn.ResultName)}
	}
	return decQ(helper).Call(append([]jen.Code{jen.Id("ctx"), jen.Id("t").Dot("args"), jen.Id("name"), jen.Id("args"),
		jen.Id(decoderOf(fn.Args)), toolCallee(fn)}, more...)...)
}

// emitToolMethod renders the Tool's method of fn, which the case of fn in
// Call or StreamCall calls, for a function that streams or has no
// arguments (the others are served by a runtime helper, callBody), and the
// gathering method of a list function (emitGather). One small method per
// function, so that the compiler never sees one huge function (documents
// with hundreds of operations):
//
//	func (t *Tool) callF(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
//		r, err := t.svc.F(ctx)
//		if err != nil {
//			return nil, runtime.ToolError(err)
//		}
//		return decode.EncodeResult("r", r)
//	}
func emitToolMethod(f *jen.File, fn *model.Function) {
	if !fn.Stream && fn.HTTP != nil && fn.HTTP.Paging != nil {
		emitGather(f, fn) // paging.go
	}
	if !fn.Stream && fn.Args != nil {
		return // served by a runtime helper (callBody)
	}
	var body []jen.Code
	callArgs := []jen.Code{jen.Id("ctx")}
	failArgs := func(err jen.Code) jen.Code { return jen.Return(jen.Nil(), err) }
	fail := jen.Return(jen.Nil(), rt("ToolError").Call(jen.Err()))
	if fn.Stream {
		failArgs = func(err jen.Code) jen.Code { return jen.Return(err) }
	}
	if fn.Args != nil {
		body = append(body,
			jen.Var().Id("a").Id(fn.Args.Name),
			jen.If(jen.Err().Op(":=").Add(decQ("Arguments")).Call(
				jen.Id("ctx"), jen.Id("t").Dot("args"), jen.Lit(fn.Name), jen.Id("args"), jen.Op("&").Id("a"), jen.Id(decoderOf(fn.Args)),
			), jen.Err().Op("!=").Nil()).Block(failArgs(jen.Err())),
		)
		callArgs = append(callArgs, jen.Id("a"))
	}
	argsParam := jen.Id("args").Qual(jsonPath, "RawMessage")
	if fn.Args == nil {
		argsParam = jen.Id("_").Qual(jsonPath, "RawMessage")
	}
	method := fn.ToolMethod
	if fn.Stream {
		// return t.svc.F(ctx, a, func(v R) error {
		//	raw, err := decode.EncodeResult("r", v)
		//	if err != nil { return err }
		//	return emit(raw)
		// })
		callArgs = append(callArgs, jen.Func().Params(jen.Id("v").Add(resultType(fn))).Error().Block(
			jen.List(jen.Id("raw"), jen.Err()).Op(":=").Add(encodeResult(fn, jen.Id("v"))),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.Return(jen.Id("emit").Call(jen.Id("raw"))),
		))
		body = append(body, jen.Return(rt("ToolError").Call(jen.Id("t").Dot("svc").Dot(fn.GoName).Call(callArgs...))))
		f.Func().Params(jen.Id("t").Op("*").Id("Tool")).Id(method).Params(
			jen.Id("ctx").Qual(contextPath, "Context"), argsParam,
			jen.Id("emit").Func().Params(jen.Qual(jsonPath, "RawMessage")).Error(),
		).Error().Block(body...)
		f.Line()
		return
	}
	call := toolCallee(fn).Call(callArgs...)
	if fn.Result == nil {
		body = append(body,
			jen.If(jen.Err().Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(fail),
			jen.Return(jen.Nil(), jen.Nil()))
	} else {
		body = append(body,
			jen.List(jen.Id("r"), jen.Err()).Op(":=").Add(call),
			jen.If(jen.Err().Op("!=").Nil()).Block(fail),
			jen.Return(encodeResult(fn, jen.Id("r"))))
	}
	f.Func().Params(jen.Id("t").Op("*").Id("Tool")).Id(method).Params(
		jen.Id("ctx").Qual(contextPath, "Context"), argsParam,
	).Params(jen.Qual(jsonPath, "RawMessage"), jen.Error()).Block(body...)
	f.Line()
}

// emitToolCalls renders the Tool's Call, and StreamCall when a function
// streams: each resolves the name, then switches to the function's method.
func emitToolCalls(f *jen.File, c toolCases, stream bool) {
	// A streaming function called with call, and the other way round:
	//
	//	case "s": return nil, runtime.NewError(runtime.CodeMethodNotFound, strconv.Quote(name)+" streams its results: call it with streamCall")
	if len(c.streams) > 0 {
		c.call = append(c.call, jen.Case(c.streams...).Block(jen.Return(jen.Nil(), rt("NewError").Call(rt("CodeMethodNotFound"),
			jen.Qual("strconv", "Quote").Call(jen.Id("name")).Op("+").Lit(" streams its results: call it with streamCall")))))
	}
	if len(c.once) > 0 && stream {
		c.stream = append(c.stream, jen.Case(c.once...).Block(jen.Return(rt("NewError").Call(rt("CodeMethodNotFound"),
			jen.Qual("strconv", "Quote").Call(jen.Id("name")).Op("+").Lit(" does not stream its result: call it with call")))))
	}
	// A served function, by its name or the name it is declared under for LLM
	// providers (declare.Names):
	//
	//	name, ok := t.args.Resolve(name)
	//	if !ok { return nil, runtime.MethodNotFound(name) }
	notServed := func(ret ...jen.Code) jen.Code {
		return jen.Add(
			jen.List(jen.Id("name"), jen.Id("ok")).Op(":=").Id("t").Dot("args").Dot("Resolve").Call(jen.Id("name")).Line(),
			jen.If(jen.Op("!").Id("ok")).Block(jen.Return(ret...)),
		)
	}
	f.Comment("Call implements runtime.Tool.")
	f.Func().Params(jen.Id("t").Op("*").Id("Tool")).Id("Call").Params(
		jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("name").String(), jen.Id("args").Qual(jsonPath, "RawMessage"),
	).Params(jen.Qual(jsonPath, "RawMessage"), jen.Error()).Block(
		notServed(jen.Nil(), rt("MethodNotFound").Call(jen.Id("name"))),
		strictContext(c.checked),
		switchOrNothing(c.call),
		callNext(c.next),
	)
	f.Line()
	if stream {
		f.Comment("StreamCall implements runtime.StreamTool.")
		f.Func().Params(jen.Id("t").Op("*").Id("Tool")).Id("StreamCall").Params(
			jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("name").String(), jen.Id("args").Qual(jsonPath, "RawMessage"),
			jen.Id("emit").Func().Params(jen.Qual(jsonPath, "RawMessage")).Error(),
		).Error().Block(
			notServed(rt("MethodNotFound").Call(jen.Id("name"))),
			switchOrNothing(c.stream),
			jen.Return(rt("MethodNotFound").Call(jen.Id("name"))),
		)
		f.Line()
	}
}

// callNext is the end of Call: a function it does not have is not found,
// or is passed on to next.
func callNext(next string) jen.Code {
	if next == "" {
		return jen.Return(jen.Nil(), rt("MethodNotFound").Call(jen.Id("name")))
	}
	return jen.Return(jen.Id("t").Dot(next).Call(jen.Id("ctx"), jen.Id("name"), jen.Id("args")))
}

// emitToolDocument renders the Tool's methods over its served document:
// Load, Document, Declarations and Functions.
func emitToolDocument(f *jen.File) {
	f.Comment("Load implements runtime.Tool: it returns the served document (see Document).")
	f.Func().Params(jen.Id("t").Op("*").Id("Tool")).Id("Load").Params(jen.Qual(contextPath, "Context")).Params(
		jen.Op("*").Add(docQ("OpenTool")), jen.Error(),
	).Block(jen.Return(jen.Id("t").Dot("args").Dot("Served").Call(), jen.Nil()))
	f.Line()
	f.Comment("Document returns the OpenTool document as the tool serves it: the functions")
	f.Comment("it serves, without the fixed arguments and those read from the environment,")
	f.Comment("and with defaulted arguments optional. Each call returns a new copy; the")
	f.Comment("package-level Document is the document as written.")
	f.Func().Params(jen.Id("t").Op("*").Id("Tool")).Id("Document").Params().Op("*").Add(docQ("OpenTool")).Block(
		jen.Return(jen.Id("t").Dot("args").Dot("Document").Call()),
	)
	f.Line()
	f.Comment("Declarations returns the served functions (see Document) declared for the")
	f.Comment("LLM provider of profile p: Tools is the JSON its API takes in its \"tools\"")
	f.Comment("member (see declare.Functions). Call accepts the declared names.")
	f.Func().Params(jen.Id("t").Op("*").Id("Tool")).Id("Declarations").Params(jen.Id("p").Add(declQ("Profile"))).Params(
		jen.Op("*").Add(declQ("Declared")), jen.Error(),
	).Block(
		jen.Return(declQ("Functions").Call(jen.Id("t").Dot("args").Dot("Served").Call(), jen.Id("p"))),
	)
	f.Line()
	f.Comment("Functions returns each served function (see Document) as a tool of its own")
	f.Comment("for agent frameworks: its name, description, input and output schemas, and")
	f.Comment("Invoke (map in, map out) and Call (JSON in, JSON out) that call it through t.")
	f.Func().Params(jen.Id("t").Op("*").Id("Tool")).Id("Functions").Params().Index().Op("*").Add(funcsQ("Tool")).Block(
		jen.Return(funcsQ("Of").Call(jen.Id("t"), jen.Id("t").Dot("args").Dot("Served").Call())),
	)
}

// emitHints renders the Tool's Hints method, one case per HTTP method in the
// order the methods first appear:
//
//	func (t *Tool) Hints(name string) (document.Hints, bool) {
//		if !t.args.Serves(name) {
//			return document.Hints{}, false
//		}
//		switch name {
//		case "listPets", "showPetById":
//			return document.MethodHints("GET"), true
//		…
//		}
//		return document.Hints{}, false
//	}
func emitHints(f *jen.File, p *model.Package) {
	if listedHints(p) {
		// func (t *Tool) Hints(name string) (document.Hints, bool) {
		//	return document.FunctionHints(t.args.Served(), name)
		// }
		f.Comment("Hints implements runtime.HintTool: the hints of a served function are the")
		f.Comment("annotations its MCP tool was listed with (the document's annotations).")
		f.Func().Params(jen.Id("t").Op("*").Id("Tool")).Id("Hints").Params(jen.Id("name").String()).Params(docQ("Hints"), jen.Bool()).Block(
			jen.Return(docQ("FunctionHints").Call(jen.Id("t").Dot("args").Dot("Served").Call(), jen.Id("name"))),
		)
		return
	}
	var methods []string
	byMethod := map[string][]jen.Code{}
	for _, fn := range p.Functions {
		if fn.HTTP == nil {
			continue
		}
		m := fn.HTTP.Method
		if _, ok := byMethod[m]; !ok {
			methods = append(methods, m)
		}
		byMethod[m] = append(byMethod[m], jen.Lit(fn.Name))
	}
	var cases []jen.Code
	for _, m := range methods {
		cases = append(cases, jen.Case(byMethod[m]...).Block(jen.Return(docQ("MethodHints").Call(jen.Lit(m)), jen.True())))
	}
	none := jen.Return(docQ("Hints").Values(), jen.False())
	f.Comment("Hints implements runtime.HintTool: the hints of a served operation are those")
	f.Comment("of its HTTP method (document.MethodHints: GET and HEAD read only, DELETE")
	f.Comment("destructive, PUT and DELETE idempotent; every operation reaches the API).")
	f.Func().Params(jen.Id("t").Op("*").Id("Tool")).Id("Hints").Params(jen.Id("name").String()).Params(docQ("Hints"), jen.Bool()).Block(
		jen.If(jen.Op("!").Id("t").Dot("args").Dot("Serves").Call(jen.Id("name"))).Block(none),
		jen.Switch(jen.Id("name")).Block(cases...),
		jen.Return(docQ("Hints").Values(), jen.False()),
	)
}
