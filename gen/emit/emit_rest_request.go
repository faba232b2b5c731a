package emit

import (
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// The statements that build an operation's request: each argument where it
// travels (path, query, header, cookie, body), with its serialisation, and
// the security requirements.

// present renders the condition under which an optional argument is sent, or
// nil when it always is.
func present(f *model.Field) jen.Code { return presentIn("args", f) }

// presentIn is present for a field of the struct in the variable recv.
func presentIn(recv string, f *model.Field) jen.Code {
	if f.Required && !f.Pointer {
		return nil
	}
	if f.Required && f.Nullable {
		return nil // null is a value: sent as the parameter's empty form
	}
	if !f.Pointer && f.Type.Kind == model.RefNamed && f.Type.Named.Kind == model.KindUnion {
		return jen.Op("!").Id(recv).Dot(f.Name).Dot("IsZero").Call()
	}
	if f.NullFlag != "" {
		return jen.Id(recv).Dot(f.Name).Op("!=").Nil().Op("||").Id(recv).Dot(f.NullFlag)
	}
	return jen.Id(recv).Dot(f.Name).Op("!=").Nil()
}

// sentOnlyWhenSet reports whether the request method that puts the optional
// argument f into the request sends nothing when f is nil, so that it needs
// no test before it: rest.Request's Query, Header and Cookie skip a nil
// pointer, slice or map. An argument sent as JSON content, or with a flag
// that sends null, keeps its test.
//
//	r.Query("limit", args.Limit) // not: if args.Limit != nil { … }
func sentOnlyWhenSet(f *model.Field) bool {
	h := f.HTTP
	switch {
	case h == nil || h.JSON || f.NullFlag != "":
		return false
	case h.In != model.InQuery && h.In != model.InHeader && h.In != model.InCookie:
		return false
	}
	return f.Pointer || f.Type.Kind == model.RefSlice || f.Type.Kind == model.RefMap
}

// requestStmt is the call that puts one argument into the request.
func requestStmt(fn *model.Function, f *model.Field) jen.Code {
	return requestStmtIn("args", fn.HTTP.BodyMedia, f)
}

// requestStmtIn is requestStmt for a field of the struct in the variable
// recv, sent in a body of media type media.
func requestStmtIn(recv, media string, f *model.Field) jen.Code {
	h := f.HTTP
	v := jen.Id(recv).Dot(f.Name)
	if h.JSON && h.In != model.InBody && h.In != model.InBodyProp {
		v = restQ("JSONContent").Call(v)
	}
	r := jen.Id("r")
	switch h.In {
	case model.InPath, model.InQuery, model.InHeader, model.InCookie:
		return r.Dot(paramMethods[h.In]).Call(append([]jen.Code{jen.Lit(h.Name), v}, styleArgs(h)...)...)
	case model.InQueryString:
		// r.QueryString(args.Filter), or r.QueryString(rest.JSONContent(args.Q))
		return r.Dot("QueryString").Call(v)
	case model.InBody:
		switch model.MediaKind(media) {
		case "binary":
			return r.Dot("RawBody").Call(v, jen.Lit(media))
		case "text":
			val := jen.Index().Byte().Call(v)
			if f.Pointer {
				val = jen.Index().Byte().Call(jen.Op("*").Add(v))
			}
			return r.Dot("RawBody").Call(val, jen.Lit(media))
		}
		return r.Dot("JSONBody").Call(v)
	case model.InBodyMembers:
		// sendMicrosoftGraphUser(r, &args.MicrosoftGraphUser)
		return jen.Id(model.EmbeddedStruct(f).BodySender).Call(r, jen.Op("&").Add(v))
	case model.InBodyProp:
		switch model.MediaKind(media) {
		case "form":
			return r.Dot("FormField").Call(append([]jen.Code{jen.Lit(h.Name), v}, styleArgs(h)...)...)
		case "multipart":
			if f.Type.Kind == model.RefBytes {
				return r.Dot("PartFile").Call(jen.Lit(h.Name), v, jen.Lit(h.ContentType))
			}
			return r.Dot("PartField").Call(jen.Lit(h.Name), v, jen.Lit(h.ContentType))
		}
		return r.Dot("BodyField").Call(jen.Lit(h.Name), v)
	}
	return jen.Null()
}

// paramMethods are the rest.Request methods of the parameters of each place.
var paramMethods = map[model.In]string{model.InPath: "Path", model.InQuery: "Query", model.InHeader: "Header", model.InCookie: "Cookie"}

// placeStyles are the styles of each place (rest.Style), its default first;
// a form field's are a query parameter's.
var placeStyles = map[model.In][]string{
	model.InPath:     {"simple", "label", "matrix"},
	model.InQuery:    {"form", "spaceDelimited", "pipeDelimited", "deepObject"},
	model.InBodyProp: {"form", "spaceDelimited", "pipeDelimited", "deepObject"},
	model.InHeader:   {"simple"},
	model.InCookie:   {"form"},
}

// styleArgs are the rest.Style arguments of a parameter: only what differs
// from OpenAPI's defaults for its place (rest.Label, rest.Explode,
// rest.NoExplode, rest.AllowReserved). A style its place does not have is
// sent as the place's default, as the runtime did with any style it did not
// know.
func styleArgs(h *model.FieldHTTP) []jen.Code {
	styles := placeStyles[h.In]
	style := styles[0]
	if slices.Contains(styles, h.Style) {
		style = h.Style
	}
	var args []jen.Code
	if style != styles[0] {
		args = append(args, restQ(strings.ToUpper(style[:1])+style[1:]))
	}
	switch {
	case style == "deepObject" || h.Explode == (style == "form"):
	case h.Explode:
		args = append(args, restQ("Explode"))
	default:
		args = append(args, restQ("NoExplode"))
	}
	if h.AllowReserved && (h.In == model.InQuery || h.In == model.InBodyProp) {
		args = append(args, restQ("AllowReserved"))
	}
	return args
}

// restRequest renders the statements that build the request of an operation
// in r: r := c.rc.NewRequest(…), each argument where it travels, the body and
// the security requirements.
func restRequest(fn *model.Function) []jen.Code {
	op := fn.HTTP
	var body []jen.Code
	body = append(body, jen.Id("r").Op(":=").Id("c").Dot("rc").Dot("NewRequest").Call(jen.Lit(op.Method), jen.Lit(op.Path)))
	if sv := op.Server; sv != nil {
		// r.Server("https://{region}.upload.example.com", "region", "us")
		args := []jen.Code{jen.Lit(sv.URL)}
		for _, v := range sv.Variables {
			args = append(args, jen.Lit(v.Name), jen.Lit(v.Default))
		}
		body = append(body, jen.Id("r").Dot("Server").Call(args...))
	}
	bodyProps := false
	if fn.Args != nil {
		for _, fl := range fn.Args.Fields {
			if fl.HTTP == nil {
				continue
			}
			if fl.HTTP.In == model.InBodyProp || fl.HTTP.In == model.InBodyMembers {
				bodyProps = true
			}
			stmt := requestStmt(fn, fl)
			if cond := present(fl); cond != nil && !sentOnlyWhenSet(fl) {
				body = append(body, jen.If(cond).Block(stmt))
			} else {
				body = append(body, stmt)
			}
		}
	}
	if bodyProps {
		switch model.MediaKind(op.BodyMedia) {
		case "form":
			body = append(body, jen.Id("r").Dot("FormFields").Call(jen.Lit(op.BodyRequired)))
		case "multipart":
			body = append(body, jen.Id("r").Dot("Parts").Call(jen.Lit(op.BodyRequired)))
		default:
			body = append(body, jen.Id("r").Dot("ObjectBody").Call(jen.Lit(op.BodyRequired)))
		}
	}
	if strings.Contains(strings.ToLower(op.BodyMedia), "json") && !strings.EqualFold(op.BodyMedia, "application/json") && fn.Args != nil {
		body = append(body, jen.Id("r").Dot("ContentType").Call(jen.Lit(op.BodyMedia)))
	}
	// r.Security("a", "b"): one call per alternative set of schemes.
	for _, set := range securityCalls(op.Security) {
		var names []jen.Code
		for _, s := range set {
			names = append(names, jen.Lit(s))
		}
		body = append(body, jen.Id("r").Dot("Security").Call(names...))
	}
	if op.Idempotency != "" {
		// r.Idempotency("Idempotency-Key"): one key per call, the same on its retries.
		body = append(body, jen.Id("r").Dot("Idempotency").Call(jen.Lit(op.Idempotency)))
	}
	return body
}

// securityCalls returns the alternative sets of security schemes a request
// needs Security calls for. The request carries the credentials of the first
// set the client has all of, and none when no set matches (Request.Security),
// so an empty set (the operation may be called without credentials) chooses
// what no set would have, and ends the list: the sets after it are never
// chosen. A set equal to an earlier one is never chosen either.
func securityCalls(sets [][]string) [][]string {
	var out [][]string
	seen := map[string]bool{}
	for _, set := range sets {
		if len(set) == 0 {
			break
		}
		key := strings.Join(set, "\x00")
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, set)
	}
	return out
}

// emitBodySender renders the function that puts the members of the struct t
// into the JSON body of a request, for the operations whose arguments embed
// it as their body (model.Field.Embedded): one for them all.
//
//	// sendT puts the members of x into the JSON object body of r.
//	func sendT(r *rest.Request, x *T) {
//		r.BodyField("name", x.Name)
//		if x.Tag != nil || x.TagNull {
//			r.BodyField("tag", x.Tag)
//		}
//	}
func emitBodySender(f *jen.File, t *model.Type) {
	var body []jen.Code
	for _, fl := range t.Fields {
		stmt := requestStmtIn("x", "application/json", fl)
		if cond := presentIn("x", fl); cond != nil {
			stmt = jen.If(cond).Block(stmt)
		}
		body = append(body, stmt)
	}
	f.Comment(t.BodySender + " puts the members of x into the JSON object body of r.")
	f.Func().Id(t.BodySender).Params(jen.Id("r").Op("*").Add(restQ("Request")), jen.Id("x").Op("*").Id(t.Name)).Block(body...)
	f.Line()
}
