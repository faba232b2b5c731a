package emit

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// The client method of an operation: its request, one call of runtime/rest
// or a switch over the documented responses, and the response's headers.

// emitRESTMethod renders the client method of one operation. Most end in
// one call of runtime/rest (receiveArgs):
//
//	func (c *Client) GetPet(ctx context.Context, args GetPetArgs) (Pet, error) {
//		r := c.rc.NewRequest("GET", "/pets/{petId}")
//		r.Path("petId", args.PetID)
//		var out Pet
//		err := rest.Receive(ctx, r, "200", &out, decodePet, rest.APIErrors[Error]("4XX", "5XX"))
//		return out, err
//	}
//
// the others in a switch over the documented responses:
//
//	func (c *Client) GetPet(ctx context.Context, args GetPetArgs) (Pet, error) {
//		r := c.rc.NewRequest("GET", "/pets/{petId}")
//		r.Path("petId", args.PetID)
//		var out Pet
//		resp, err := r.Send(ctx)
//		if err != nil {
//			return out, err
//		}
//		switch {
//		case resp.Is("200"):
//			err = resp.Decode(&out)
//		case resp.Is("404"):
//			err = rest.NewAPIError[Error](resp)
//		case resp.Success():
//		default:
//			err = resp.Unexpected()
//		}
//		return out, err
//	}
func emitRESTMethod(f *jen.File, fn *model.Function) {
	if fn.Stream {
		emitRESTStream(f, fn)
		return
	}
	op := fn.HTTP
	params := []jen.Code{jen.Id("ctx").Qual(contextPath, "Context")}
	if fn.Args != nil {
		params = append(params, jen.Id("args").Id(fn.Args.Name))
	}
	body := restRequest(fn)
	hdr := op.Headers
	out := jen.Id("out")
	hasResult := fn.Result != nil
	ret := func(err jen.Code) jen.Code {
		if hdr != nil {
			return jen.Return(jen.Id("out"), err)
		}
		if hasResult {
			return jen.Return(out.Clone(), err)
		}
		return jen.Return(err)
	}
	switch {
	case hdr != nil:
		out = jen.Id("out").Dot("Body")
		body = append(body, jen.Var().Id("out").Id(hdr.Name))
	case hasResult:
		body = append(body, jen.Var().Id("out").Add(goType(fn.Result)))
	}
	cases, fail := responseCases(fn, out)
	end := ret(jen.Err()) // return out, err
	switch args := receiveArgs(fn, cases, fail, out); {
	case args == nil:
		body = append(body,
			jen.List(jen.Id("resp"), jen.Err()).Op(":=").Id("r").Dot("Send").Call(jen.Id("ctx")),
			jen.If(jen.Err().Op("!=").Nil()).Block(ret(jen.Err())),
			jen.Switch().Block(append(mergeCases(cases), fail.switchDefault())...),
		)
	case !hasResult:
		// return rest.Do(ctx, r, rest.APIErrors[Error]("4XX", "5XX"))
		end = jen.Return(restQ("Do").Call(args...))
	case hdr != nil:
		// resp, err := rest.ReceiveResponse(ctx, r, "200", &out.Body, decodePet)
		body = append(body, jen.List(jen.Id("resp"), jen.Err()).Op(":=").Add(restQ("ReceiveResponse")).Call(args...))
	case cases[0].raw:
		// err := rest.ReceiveBody(ctx, r, "200", &out)
		body = append(body, jen.Err().Op(":=").Add(restQ("ReceiveBody")).Call(args...))
	default:
		// err := rest.Receive(ctx, r, "200", &out, decodePet)
		body = append(body, jen.Err().Op(":=").Add(restQ("Receive")).Call(args...))
	}
	if hdr != nil {
		// if err == nil { err = resp.HeaderValue("Location", &out.Location) }
		for _, h := range hdr.Fields {
			body = append(body, jen.If(jen.Err().Op("==").Nil()).Block(
				jen.Err().Op("=").Id("resp").Dot("HeaderValue").Call(jen.Lit(h.HTTP.Name), jen.Op("&").Id("out").Dot(h.Name))))
		}
	}
	body = append(body, end)

	doc := model.JoinDoc(fn.Doc, op.Method+" "+op.Path)
	if hdr != nil {
		body = emitHeadersMethod(f, fn, params, body)
		doc = model.JoinDoc(doc, op.HeadersMethod+" returns the headers of the response too.")
	}
	f.Add(restMethodDoc(fn, doc).Func().Params(jen.Id("c").Op("*").Id("Client")).Id(fn.GoName).Params(params...).Add(methodResults(fn)).Block(body...))
	f.Line()
}

// methodResults is the results of the client method of fn: (T, error), or
// error.
func methodResults(fn *model.Function) jen.Code {
	if fn.Result != nil {
		return jen.Params(goType(fn.Result), jen.Error())
	}
	return jen.Error()
}

// receiveArgs returns the arguments of the one call of runtime/rest that
// does what the response cases of a client method (cases, then fail) do,
// or nil when they are not of its shape: with a result, first a case that
// decodes the JSON body into out; then cases of API errors, none for a
// 2xx, and, unless the first case takes every 2xx, one that takes any
// other 2xx and does nothing. The call is
//
//	err := rest.Receive(ctx, r, "200", &out, decodePet, rest.APIErrors[Error]("4XX", "5XX"))
//
// or rest.ReceiveResponse (the same, with the response, whose headers the
// method reads) into &out.Body, or, for a result that is the body itself
// (text or binary, and no headers), rest.ReceiveBody(ctx, r, "200", &out, …);
// with no result (and no headers) the same but the first case. Several
// API errors go one a line:
//
//	return rest.Do(ctx, r,
//		rest.APIErrors[NotFound]("404"),
//		rest.APIErrors[Error]("default"))
//
// Receive and Do take a 2xx before the API errors: an API error case for
// a 2xx keeps the switch.
func receiveArgs(fn *model.Function, cases []statusCase, fail failure, out *jen.Statement) []jen.Code {
	if fn.HTTP.Headers != nil && fn.Result == nil {
		return nil
	}
	args := []jen.Code{jen.Id("ctx"), jen.Id("r")}
	other := false // a case takes every 2xx the first does not
	if fn.Result != nil {
		switch {
		case len(cases) == 0:
			return nil
		case cases[0].raw && fn.HTTP.Headers == nil:
			// rest.ReceiveBody(ctx, r, "200", &out)
			args = append(args, jen.Lit(cases[0].status), jen.Op("&").Add(out.Clone()))
		case cases[0].decoder != nil:
			args = append(args, jen.Lit(cases[0].status), jen.Op("&").Add(out.Clone()), cases[0].decoder)
		default:
			return nil
		}
		other = statusCovers(cases[0].status, "2XX")
		cases = cases[1:]
	}
	var fails []failure
	for i, c := range cases {
		switch {
		case c.status == "2XX" && c.action == actNothing && !other:
			other = true
		case c.errType != nil && !statusesOverlap(c.status, "2XX"):
			if i > 0 && c.same != "" && c.same == cases[i-1].same {
				// an API error of the same type as the case before
				fails[len(fails)-1].statuses = append(fails[len(fails)-1].statuses, c.status)
				continue
			}
			fails = append(fails, failure{c.errType, []string{c.status}})
		default:
			return nil
		}
	}
	if !other {
		return nil
	}
	if fail.typ != nil {
		fails = append(fails, fail)
	}
	for _, f := range fails {
		if len(fails) == 1 {
			args = append(args, f.helper())
		} else {
			args = append(args, jen.Line().Add(f.helper())) // one a line
		}
	}
	return args
}

// failure is what a client method makes of a response no case of its
// switch takes: resp.Unexpected() (typ nil), or the API error of type typ
// for statuses (rest.ErrorFor); with no statuses, the documented default
// response's API error (rest.NewAPIError) for every status.
type failure struct {
	typ      jen.Code
	statuses []string
}

// switchDefault renders the default case of a method's switch:
//
//	default:
//		err = rest.ErrorFor[Error](resp, "4XX", "5XX")
func (f failure) switchDefault() jen.Code {
	switch {
	case f.typ == nil:
		return jen.Default().Block(jen.Err().Op("=").Id("resp").Dot("Unexpected").Call())
	case len(f.statuses) == 0:
		return jen.Default().Block(jen.Err().Op("=").Add(restQ("NewAPIError")).Types(f.typ).Call(jen.Id("resp")))
	}
	args := append([]jen.Code{jen.Id("resp")}, f.lits()...)
	return jen.Default().Block(jen.Err().Op("=").Add(restQ("ErrorFor")).Types(f.typ).Call(args...))
}

// lits renders f's statuses as literals.
func (f failure) lits() []jen.Code {
	var lits []jen.Code
	for _, s := range f.statuses {
		lits = append(lits, jen.Lit(s))
	}
	return lits
}

// helper renders the rest.Failure of rest.Receive and rest.Do for an API
// error (typ not nil): rest.APIErrors[Error]("4XX", "5XX"), or
// rest.APIErrors[Error]("default") for a documented default response.
func (f failure) helper() jen.Code {
	if len(f.statuses) == 0 {
		return restQ("APIErrors").Types(f.typ).Call(jen.Lit("default"))
	}
	return restQ("APIErrors").Types(f.typ).Call(f.lits()...)
}

// responseCases returns the cases of the switch over the documented
// responses of an operation, which decodes the success into out (the
// result, or out.Body) and makes the others errors, and what its default
// case makes of the statuses they leave (failure):
//
//	switch {
//	case resp.Is("200"):
//		err = rest.DecodeChecked(resp, &out, decodePet)
//	case resp.Is("404"):
//		err = rest.NewAPIError[Error](resp)
//	case resp.Success():
//	default:
//		err = resp.Unexpected()
//	}
func responseCases(fn *model.Function, out *jen.Statement) ([]statusCase, failure) {
	var cases []statusCase
	var fail failure
	hasDefault := false
	defaultAction := actUnexpected
	for _, r := range fn.HTTP.Responses {
		var stmts []jen.Code
		var decoder, errType jen.Code
		raw := false
		action, same := actOwn, ""
		switch {
		case r.Success && r.Type != nil && fn.Result != nil && r.Type == fn.Result:
			switch r.Media {
			case "text":
				stmts = append(stmts, out.Clone().Op("=").String().Call(jen.Id("resp").Dot("Body")))
				raw = true
			case "binary":
				stmts = append(stmts, out.Clone().Op("=").Id("resp").Dot("Body"))
				raw = true
			default:
				var stmt jen.Code
				stmt, decoder = decodeResult(fn, out)
				stmts = append(stmts, stmt)
			}
		case r.Success:
			action, same = actNothing, "nothing"
		case r.Type != nil && r.Media == model.MediaJSON:
			errType = goType(r.Type)
			stmts = append(stmts, jen.Err().Op("=").Add(restQ("NewAPIError")).Types(errType).Call(jen.Id("resp")))
			if r.Type.Kind == model.RefNamed {
				same = "error " + r.Type.Named.Name
			}
			if r.Status == "default" {
				fail = failure{typ: errType}
			}
		default:
			stmts = append(stmts, jen.Err().Op("=").Id("resp").Dot("Unexpected").Call())
			action, same = actUnexpected, "unexpected"
		}
		if r.Status == "default" {
			if r.Success {
				// The default response is the success response: any 2xx.
				cases = append(cases, statusCase{"2XX", action, jen.Id("resp").Dot("Success").Call(), stmts, same, decoder, errType, raw})
				continue
			}
			hasDefault, defaultAction = true, action
			continue
		}
		cases = append(cases, statusCase{r.Status, action, jen.Id("resp").Dot("Is").Call(jen.Lit(r.Status)), stmts, same, decoder, errType, raw})
	}
	cases = append(cases, statusCase{"2XX", actNothing, jen.Id("resp").Dot("Success").Call(), nil, "nothing", nil, nil, false})
	kept := dropDead(keepCases(cases, defaultAction))
	if !hasDefault {
		return foldErrors(kept)
	}
	return kept, fail
}

// foldErrors folds the last cases of an API error of one type (but for a
// resp.Success() after them, which takes none of their statuses) into the
// default case, which would answer resp.Unexpected():
//
//	default:
//		err = rest.ErrorFor[Error](resp, "4XX", "5XX")
//
// for
//
//	case resp.Is("4XX"), resp.Is("5XX"):
//		err = rest.NewAPIError[Error](resp)
//	default:
//		err = resp.Unexpected()
func foldErrors(cases []statusCase) ([]statusCase, failure) {
	end := len(cases)
	if end > 0 && cases[end-1].action == actNothing && cases[end-1].status == "2XX" {
		end-- // resp.Success()
	}
	typ, ok := "", false
	if end > 0 {
		typ, ok = strings.CutPrefix(cases[end-1].same, "error ")
	}
	if !ok {
		return cases, failure{}
	}
	start := end - 1
	for start > 0 && cases[start-1].same == cases[end-1].same {
		start--
	}
	var statuses []string
	for _, c := range cases[start:end] {
		if end < len(cases) && statusesOverlap(c.status, "2XX") {
			return cases, failure{}
		}
		statuses = append(statuses, c.status)
	}
	return append(cases[:start:start], cases[end:]...), failure{jen.Id(typ), statuses}
}

// emitHeadersMethod renders the method of an operation that returns the
// response's headers too (FWithHeaders, whose body is body), and returns
// the body of the method F, which calls it:
//
//	res, err := c.FWithHeaders(ctx, args)
//	return res.Body, err
func emitHeadersMethod(f *jen.File, fn *model.Function, params, body []jen.Code) []jen.Code {
	op := fn.HTTP
	emitHeadersType(f, fn)
	hdoc := op.HeadersMethod + " is " + fn.GoName + " with the headers of the response: " + op.Method + " " + op.Path + "."
	f.Add(funcDoc(op.HeadersMethod, fn.Name, hdoc).Func().Params(jen.Id("c").Op("*").Id("Client")).Id(op.HeadersMethod).Params(params...).
		Params(jen.Id(op.Headers.Name), jen.Error()).Block(body...))
	f.Line()
	call := []jen.Code{jen.Id("ctx")}
	if fn.Args != nil {
		call = append(call, jen.Id("args"))
	}
	if fn.Result == nil {
		return []jen.Code{jen.List(jen.Id("_"), jen.Err()).Op(":=").Id("c").Dot(op.HeadersMethod).Call(call...), jen.Return(jen.Err())}
	}
	return []jen.Code{
		jen.List(jen.Id("res"), jen.Err()).Op(":=").Id("c").Dot(op.HeadersMethod).Call(call...),
		jen.Return(jen.Id("res").Dot("Body"), jen.Err()),
	}
}

// statusCase is a case of the switch over a response's status: the status
// it matches as Response.Is does ("2XX" for resp.Success()), what it does,
// and its code.
type statusCase struct {
	status string
	action caseAction
	cond   jen.Code   // resp.Is("404"), resp.Success()
	body   []jen.Code // what it does
	// same is the same text for cases whose bodies are the same (an API
	// error of one type, resp.Unexpected(), nothing), "" for a body of its
	// own.
	same string
	// decoder is, for the case that decodes the JSON body into the result,
	// the decoder rest.DecodeChecked takes (decodePet), or nil (the
	// identifier) when resp.Decode decodes it; else nil.
	decoder jen.Code
	// errType is, for the case of an API error, the type of its body.
	errType jen.Code
	// raw is set for the case whose body is the result itself: a string
	// (text) or []byte (binary).
	raw bool
}

// dropDead drops the cases an earlier case takes every status of (a
// resp.Success() after a resp.Is("2XX")): they never run.
func dropDead(cases []statusCase) []statusCase {
	var kept []statusCase
	for _, c := range cases {
		if !slices.ContainsFunc(kept, func(k statusCase) bool { return statusCovers(k.status, c.status) }) {
			kept = append(kept, c)
		}
	}
	return kept
}

// mergeCases renders cases, adjacent cases with the same body as one
// (case resp.Is("4XX"), resp.Is("5XX"):). Only adjacent ones: the first
// matching case wins, and a case between them might take some of their
// statuses.
func mergeCases(cases []statusCase) []jen.Code {
	var out []jen.Code
	for i := 0; i < len(cases); {
		conds := []jen.Code{cases[i].cond}
		j := i + 1
		for ; j < len(cases) && cases[i].same != "" && cases[j].same == cases[i].same; j++ {
			conds = append(conds, cases[j].cond)
		}
		out = append(out, jen.Case(conds...).Block(cases[i].body...))
		i = j
	}
	return out
}

// caseAction says what a case of the switch over a response's status does,
// when other cases may do the same.
type caseAction int

const (
	actOwn        caseAction = iota // something of its own (decode the result, an API error)
	actNothing                      // nothing: a success whose body is not read
	actUnexpected                   // err = resp.Unexpected()
)

// keepCases returns the cases a switch needs. The first matching case wins;
// a case is dropped when what would then take its statuses does the same:
// every later case kept that shares a status with it does the same, and so
// does the default case (defaultAction) or a later one that takes all its
// statuses ("204" doing nothing before "2XX" doing nothing). A case that does
// what the default does is kept before a later case that would take its
// statuses and do something else (a "404" before "4XX"). What remains behaves
// as the full switch.
func keepCases(cases []statusCase, defaultAction caseAction) []statusCase {
	var kept []statusCase
	for i := len(cases) - 1; i >= 0; i-- {
		if c := cases[i]; !redundant(c, kept, defaultAction) {
			kept = append(kept, c)
		}
	}
	slices.Reverse(kept)
	return kept
}

// redundant reports whether c does what the cases after it (later, kept)
// and the default case would do with its statuses.
func redundant(c statusCase, later []statusCase, defaultAction caseAction) bool {
	if c.action == actOwn {
		return false
	}
	covered := false
	for _, l := range later {
		if !statusesOverlap(c.status, l.status) {
			continue
		}
		if l.action != c.action {
			return false
		}
		covered = covered || statusCovers(l.status, c.status)
	}
	return covered || defaultAction == c.action
}

// statusCovers reports whether every status that matches b matches a: the
// same code or class, or a class and a code of it.
func statusCovers(a, b string) bool {
	ca, ka, oka := statusPattern(a)
	cb, kb, okb := statusPattern(b)
	switch {
	case !oka || !okb:
		return false
	case ka && !kb:
		return ca == cb/100
	}
	return ka == kb && ca == cb
}

// statusesOverlap reports whether some status code matches both a and b as
// Response.Is matches them: a code ("404") or a class ("4XX"). A status
// Response.Is never matches overlaps nothing.
func statusesOverlap(a, b string) bool {
	ca, ka, oka := statusPattern(a)
	cb, kb, okb := statusPattern(b)
	switch {
	case !oka || !okb:
		return false
	case ka && kb:
		return ca == cb
	case ka:
		return ca == cb/100
	case kb:
		return ca/100 == cb
	}
	return ca == cb
}

// statusPattern parses a status as Response.Is does: a class ("4XX": 4,
// true) or a code ("404": 404, false); ok is false for what matches nothing.
func statusPattern(s string) (n int, class, ok bool) {
	if len(s) == 3 && (s[1] == 'X' || s[1] == 'x') {
		return int(s[0] - '0'), true, true
	}
	n, err := strconv.Atoi(s)
	return n, false, err == nil
}

// restMethodDoc is the doc comment of the client method of an operation,
// text read as funcDoc reads it; a text that still does not start with the
// method's name is what the method calls ("Info for a specific pet" on
// ShowPetByID is "ShowPetByID calls showPetById: Info for a specific pet.").
func restMethodDoc(fn *model.Function, text string) *jen.Statement {
	return callDoc(fn.GoName, fn.Name, text, fn.Doc != "")
}

// emitHeadersType declares the struct of an operation's response body and
// headers (Operation.Headers):
//
//	// CreateItemResponse is the response of CreateItem: …
//	type CreateItemResponse struct {
//		// Body is the body of the response.
//		Body Item
//		// Location is the header "Location": Where the item is.
//		Location string
//	}
func emitHeadersType(f *jen.File, fn *model.Function) {
	hdr := fn.HTTP.Headers
	var fields []jen.Code
	if fn.Result != nil {
		fields = append(fields, jen.Comment("Body is the body of the response."), jen.Id("Body").Add(goType(fn.Result)))
	}
	for _, h := range hdr.Fields {
		doc := h.Name + " is the header " + strconv.Quote(h.HTTP.Name)
		t := goType(h.Type)
		if h.Required {
			doc += ", which the document says the response has."
		} else {
			doc += "; nil when the response has none."
			t = jen.Op("*").Add(t)
		}
		for _, l := range docLines(model.JoinDoc(doc, h.Doc)) {
			if l == "" {
				fields = append(fields, jen.Comment(""))
			} else {
				fields = append(fields, jen.Comment(sanitizeLine(l)))
			}
		}
		fields = append(fields, jen.Id(h.Name).Add(t))
	}
	f.Add(docComment(hdr.Name, hdr.Doc, "").Type().Id(hdr.Name).Struct(fields...))
	f.Line()
}
