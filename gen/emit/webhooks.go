package emit

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/opentoolgen/opentoolgen/gen/model"
)

// webhookPath is runtime/webhook: signatures, replays, the handler.
const webhookPath = runtimePath + "/webhook"

func whQ(name string) *jen.Statement { return jen.Qual(webhookPath, name) }

// hasWebhooks reports whether the API sends events (webhooks, callbacks).
func hasWebhooks(p *model.Package) bool { return len(p.Webhooks) > 0 }

// webhooksCost is the Cost of webhooks.gen.go.
func webhooksCost(p *model.Package) int { return 8 * len(p.Webhooks) }

// emitWebhooks renders webhooks.gen.go: the receiver's interface, one
// method per event, and the handler that serves it.
//
//	type Webhooks interface {
//		NewPet(ctx context.Context, event NewPetEvent) error
//	}
//
//	func NewWebhookHandler(recv Webhooks, opts ...webhook.Option) (*webhook.Handler, error) {
//		return webhook.NewHandler([]webhook.Route{{Name: "newPet", Method: "POST", Scheme: "standard",
//			Serve: func(ctx context.Context, r *webhook.Request) error {
//				args, err := r.Args(webhook.Fields{Body: "body", Headers: …})
//				if err != nil {
//					return err
//				}
//				var event NewPetEvent
//				if err := decode.Value(args, &event, decodeNewPetEvent); err != nil {
//					return webhook.Invalid(err)
//				}
//				return recv.NewPet(ctx, event)
//			}}}, opts...)
//	}
func emitWebhooks(p *model.Package) *jen.File {
	f := newFile(p)
	f.ImportName(webhookPath, "webhook")
	f.Comment("Webhooks receives the events the API sends (its webhooks and callbacks):")
	f.Comment("one method per event, given the event decoded and checked against the")
	f.Comment("document. NewWebhookHandler serves it over HTTP. A method's error is a 500")
	f.Comment("to the sender (who retries), or the status of an error with an")
	f.Comment("HTTPStatus() int method.")
	var methods []jen.Code
	for _, w := range p.Webhooks {
		methods = append(methods, webhookMethodDoc(w), webhookMethod(w))
	}
	f.Type().Id("Webhooks").Interface(methods...)
	f.Line()

	f.Comment("NewWebhookHandler returns the http.Handler that receives the events for recv,")
	f.Comment("each at its path under the handler (mount it with http.StripPrefix):")
	for _, w := range p.Webhooks {
		f.Comment(w.Fn.HTTP.Method + " /" + sanitizeLine(w.Name) + " calls " + w.Fn.GoName + " (signature: " + w.Scheme + ");")
	}
	f.Comment("")
	f.Comment("It verifies each signature with the secrets of webhook.WithSecret (or")
	f.Comment("webhook.WithVerifier), refuses replays, and answers as the package")
	f.Comment("runtime/webhook says: 401 unsigned, 409 replayed, 413 too large, 400 invalid.")
	f.Comment("It fails when recv is nil (NewWebhookFeed(feed, nil) publishes without a")
	f.Comment("receiver of its own).")
	var routes []jen.Code
	for _, w := range p.Webhooks {
		routes = append(routes, webhookRoute(w))
	}
	f.Func().Id("NewWebhookHandler").Params(jen.Id("recv").Id("Webhooks"), jen.Id("opts").Op("...").Add(whQ("Option"))).
		Params(jen.Op("*").Add(whQ("Handler")), jen.Error()).Block(
		jen.If(jen.Id("recv").Op("==").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(jen.Lit(p.Name+".NewWebhookHandler: recv is nil (want the Webhooks receiver, or NewWebhookFeed(feed, nil))"))),
		),
		jen.Return(whQ("NewHandler").Call(jen.Index().Add(whQ("Route")).Values(routes...), jen.Id("opts").Op("..."))),
	)
	f.Line()
	emitWebhookFeed(f, p)
	return f
}

// emitWebhookFeed renders what lets an agent wait for the events: their
// declarations and the receiver that publishes them to a webhook.Feed.
//
//	var WebhookEvents = []webhook.Event{{Name: "newPet", Description: "…", Schema: `{…}`}}
//
//	func NewWebhookFeed(feed *webhook.Feed, next Webhooks) Webhooks { return &webhookFeed{feed: feed, next: next} }
//
//	type webhookFeed struct { feed *webhook.Feed; next Webhooks }
//
//	func (w *webhookFeed) PetCreated(ctx context.Context, event PetCreatedEvent) error {
//		if w.next != nil {
//			if err := w.next.PetCreated(ctx, event); err != nil {
//				return err
//			}
//		}
//		return w.feed.Publish("newPet", event)
//	}
func emitWebhookFeed(f *jen.File, p *model.Package) {
	var events []jen.Code
	for _, w := range p.Webhooks {
		schema, _ := json.Marshal(w.Schema)
		d := jen.Dict{jen.Id("Name"): jen.Lit(w.Name), jen.Id("Schema"): jen.Lit(string(schema))}
		if desc := strings.Join(docLines(w.Fn.Doc), " "); desc != "" {
			d[jen.Id("Description")] = jen.Lit(desc)
		}
		events = append(events, jen.Values(d))
	}
	f.Comment("WebhookEvents are the events of Webhooks as the tool declares them:")
	f.Comment("webhook.WaitTool(tool, feed, WebhookEvents) gives an agent a streaming")
	f.Comment("function wait_<event> per event, fed by NewWebhookFeed.")
	f.Var().Id("WebhookEvents").Op("=").Index().Add(whQ("Event")).Values(events...)
	f.Line()
	f.Comment("NewWebhookFeed returns the Webhooks that gives each event to next (when not")
	f.Comment("nil) and, once next has taken it, publishes it to feed for the wait")
	f.Comment("functions of webhook.WaitTool.")
	f.Func().Id("NewWebhookFeed").Params(jen.Id("feed").Op("*").Add(whQ("Feed")), jen.Id("next").Id("Webhooks")).Id("Webhooks").Block(
		jen.Return(jen.Op("&").Id("webhookFeed").Values(jen.Dict{jen.Id("feed"): jen.Id("feed"), jen.Id("next"): jen.Id("next")})),
	)
	f.Line()
	f.Type().Id("webhookFeed").Struct(jen.Id("feed").Op("*").Add(whQ("Feed")), jen.Id("next").Id("Webhooks"))
	f.Line()
	f.Var().Id("_").Id("Webhooks").Op("=").Parens(jen.Op("*").Id("webhookFeed")).Parens(jen.Nil())
	for _, w := range p.Webhooks {
		params, args := []jen.Code{jen.Id("ctx").Qual(contextPath, "Context")}, []jen.Code{jen.Id("ctx")}
		var value jen.Code = jen.Struct().Values()
		if t := w.Fn.Args; t != nil {
			params = append(params, jen.Id("event").Id(t.Name))
			args = append(args, jen.Id("event"))
			value = jen.Id("event")
		}
		f.Line()
		f.Func().Params(jen.Id("w").Op("*").Id("webhookFeed")).Id(w.Fn.GoName).Params(params...).Error().Block(
			jen.If(jen.Id("w").Dot("next").Op("!=").Nil()).Block(
				jen.If(jen.Err().Op(":=").Id("w").Dot("next").Dot(w.Fn.GoName).Call(args...), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			),
			jen.Return(jen.Id("w").Dot("feed").Dot("Publish").Call(jen.Lit(w.Name), value)),
		)
	}
}

// webhookMethodDoc is the doc comment of w's method.
func webhookMethodDoc(w *model.Webhook) jen.Code {
	fn := w.Fn
	what := "the webhook " + strconv.Quote(w.Name)
	if w.Callback != "" {
		what = "the callback " + strconv.Quote(w.Name) + " of " + strconv.Quote(w.Callback)
	}
	lead := fn.GoName + " receives " + what + " (" + fn.HTTP.Method + " /" + w.Name + ")."
	text := lead
	if lines := docLines(fn.Doc); len(lines) > 0 {
		text += "\n\n" + fn.Doc
	}
	return commentBlock(docLines(text))
}

// webhookMethod is w's method in the interface.
func webhookMethod(w *model.Webhook) jen.Code {
	params := []jen.Code{jen.Id("ctx").Qual(contextPath, "Context")}
	if t := w.Fn.Args; t != nil {
		params = append(params, jen.Id("event").Id(t.Name))
	}
	return jen.Id(w.Fn.GoName).Params(params...).Error()
}

// webhookRoute is w's webhook.Route.
func webhookRoute(w *model.Webhook) jen.Code {
	d := jen.Dict{
		jen.Id("Name"):   jen.Lit(w.Name),
		jen.Id("Method"): jen.Lit(w.Fn.HTTP.Method),
		jen.Id("Scheme"): jen.Lit(w.Scheme),
		jen.Id("Serve"):  webhookServe(w),
	}
	if w.Status != 0 {
		d[jen.Id("Status")] = jen.Lit(w.Status)
	}
	return jen.Values(d)
}

// webhookServe is the route's Serve: the event's arguments object, decoded
// and checked, given to the method.
func webhookServe(w *model.Webhook) jen.Code {
	fn := w.Fn
	body := []jen.Code{}
	t := fn.Args
	if t == nil {
		body = append(body, jen.Return(jen.Id("recv").Dot(fn.GoName).Call(jen.Id("ctx"))))
	} else {
		body = append(body,
			jen.List(jen.Id("args"), jen.Err()).Op(":=").Id("r").Dot("Args").Call(webhookFields(t)),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.Var().Id("event").Id(t.Name),
			jen.If(jen.Err().Op(":=").Add(decQ("Value")).Call(jen.Id("args"), jen.Op("&").Id("event"), jen.Id(t.Decoder)), jen.Err().Op("!=").Nil()).
				Block(jen.Return(whQ("Invalid").Call(jen.Err()))),
			jen.Return(jen.Id("recv").Dot(fn.GoName).Call(jen.Id("ctx"), jen.Id("event"))),
		)
	}
	return jen.Func().Params(jen.Id("ctx").Qual(contextPath, "Context"), jen.Id("r").Op("*").Add(whQ("Request"))).Error().Block(body...)
}

// webhookFields is the webhook.Fields of the event type t: where its
// header fields and its body come from.
func webhookFields(t *model.Type) jen.Code {
	d := jen.Dict{}
	var headers []jen.Code
	for _, f := range t.Fields {
		if f.HTTP == nil {
			continue
		}
		switch f.HTTP.In {
		case model.InBody:
			d[jen.Id("Body")] = jen.Lit(f.JSONName)
			switch model.MediaKind(f.HTTP.Name) {
			case "text":
				d[jen.Id("BodyKind")] = whQ("BodyText")
			case "binary":
				d[jen.Id("BodyKind")] = whQ("BodyBinary")
			}
		case model.InHeader:
			h := jen.Dict{jen.Id("Name"): jen.Lit(f.HTTP.Name), jen.Id("Member"): jen.Lit(f.JSONName)}
			if f.HTTP.JSON {
				h[jen.Id("JSON")] = jen.True()
			} else if literalKind(f.Type) {
				h[jen.Id("Literal")] = jen.True()
			}
			headers = append(headers, jen.Values(h))
		}
	}
	if len(headers) > 0 {
		d[jen.Id("Headers")] = jen.Index().Add(whQ("Header")).Values(headers...)
	}
	return whQ("Fields").Values(d)
}

// literalKind reports whether a header of type r is a JSON literal in its
// arguments object (a number, an integer, a boolean) rather than a string.
func literalKind(r *model.TypeRef) bool {
	for r.Kind == model.RefNamed && r.Named.Underlying != nil && (r.Named.Kind == model.KindNamed || r.Named.Kind == model.KindAlias || r.Named.Kind == model.KindEnum) {
		r = r.Named.Underlying
	}
	switch r.Kind {
	case model.RefInt, model.RefFloat, model.RefBool:
		return true
	}
	return false
}
