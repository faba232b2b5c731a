package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// The client methods of an operation whose response is a stream.

// emitRESTStream renders the client methods of an operation whose success
// response is a stream (Server-Sent Events or NDJSON): the iterator, and the
// Service's form with emit (emitSeqForm):
//
//	func (c *Client) ChatSeq(ctx context.Context, args ChatArgs) iter.Seq2[ChatEvent, error] {
//		r := c.rc.NewRequest("POST", "/chat")
//		r.BodyField("prompt", args.Prompt)
//		r.ObjectBody(true)
//		return rest.StreamResponse[ChatEvent](ctx, r, "text/event-stream", rest.StreamSSE, func(resp *rest.Response) error {
//			switch {
//			case resp.Is("400"):
//				return rest.NewAPIError[Error](resp)
//			}
//			return resp.Unexpected()
//		})
//	}
func emitRESTStream(f *jen.File, fn *model.Function) {
	op := fn.HTTP
	params := []jen.Code{jen.Id("ctx").Qual(contextPath, "Context")}
	if fn.Args != nil {
		params = append(params, jen.Id("args").Id(fn.Args.Name))
	}
	body := restRequest(fn)
	var cases []jen.Code
	// Every 2xx is read as the stream; the other documented statuses are
	// errors, as the default response says for the rest.
	var last jen.Code = jen.Return(jen.Id("resp").Dot("Unexpected").Call())
	apiDefault := false
	for _, r := range op.Responses {
		if r.Status == "default" && r.Type != nil && r.Media == model.MediaJSON {
			last, apiDefault = jen.Return(restQ("NewAPIError").Types(goType(r.Type)).Call(jen.Id("resp"))), true
		}
	}
	var all []statusCase
	for _, r := range op.Responses {
		if r.Success || r.Status == "default" {
			continue
		}
		stmt := jen.Return(jen.Id("resp").Dot("Unexpected").Call())
		action, same := actUnexpected, "unexpected"
		if r.Type != nil && r.Media == model.MediaJSON {
			stmt = jen.Return(restQ("NewAPIError").Types(goType(r.Type)).Call(jen.Id("resp")))
			action, same = actOwn, ""
			if r.Type.Kind == model.RefNamed {
				same = "error " + r.Type.Named.Name
			}
		}
		all = append(all, statusCase{r.Status, action, jen.Id("resp").Dot("Is").Call(jen.Lit(r.Status)), []jen.Code{stmt}, same, nil, nil, false})
	}
	defaultAction := actUnexpected
	if apiDefault {
		defaultAction = actOwn
	}
	cases = append(cases, mergeCases(dropDead(keepCases(all, defaultAction)))...)
	var fail jen.Code = jen.Nil()
	if len(cases) > 0 || apiDefault {
		fail = jen.Func().Params(jen.Id("resp").Op("*").Add(restQ("Response"))).Error().Block(switchOrNull(cases), last)
	}
	format := restQ("StreamNDJSON")
	switch {
	case op.StreamEvents:
		format = restQ("StreamSSEEvents")
	case model.StreamKind(op.StreamMedia) == "sse":
		format = restQ("StreamSSE")
	}
	body = append(body, jen.Return(restQ("StreamResponse").Types(resultType(fn)).Call(
		jen.Id("ctx"), jen.Id("r"), jen.Lit(op.StreamMedia), format, fail)))

	lead := fn.SeqName + " is " + fn.GoName + " as an iterator: it sends " + op.Method + " " + op.Path + " and yields the\nvalues of the streamed response as they arrive, "
	switch {
	case op.StreamEvents:
		lead += "each event of the\n" + op.StreamMedia + " response whole (its name, data, id and retry) decoded as\nthe document says; an event whose data is [DONE] (as OpenAI sends) ends\nthe stream."
	case model.StreamKind(op.StreamMedia) == "sse":
		lead += "the data of each event of the\n" + op.StreamMedia + " response decoded as the document says; an event whose\ndata is [DONE] (as OpenAI sends) ends the stream."
	default:
		lead += "each line of the\n" + op.StreamMedia + " response decoded as the document says."
	}
	text := model.JoinDoc(lead, fn.Doc)
	text = model.JoinDoc(text, "Each range over the sequence sends the request; breaking out of the loop\ncloses the response. The client's timeout bounds the wait for the response's\nheaders, not the stream: the context ends it.")
	f.Add(funcDoc(fn.SeqName, fn.Name, text).Func().Params(jen.Id("c").Op("*").Id("Client")).Id(fn.SeqName).Params(params...).
		Qual(iterPath, "Seq2").Types(resultType(fn), jen.Error()).Block(body...))
	f.Line()
	emitSeqForm(f, fn, model.JoinDoc(fn.Doc, op.Method+" "+op.Path))
	f.Line()
}
