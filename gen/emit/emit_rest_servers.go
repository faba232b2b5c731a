package emit

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// The options that choose the server of an OpenAPI package's client: a
// variable of the server's URL, one of the document's servers.

// emitServerVariable renders the option that sets a variable of the server's
// URL:
//
//	// WithServerRegion sets the variable "region" of the server's URL (default "us").
//	// The value must be one of "us", "eu": with another, NewClient
//	// returns an error that says so.
//	func WithServerRegion(value string) ClientOption {
//		return func(c *rest.Client) { c.SetServerVariable("region", value, "us", "eu") }
//	}
//
// A variable with an enum has a type of its values (emitEnum), which the
// option takes: WithServerRegion(ServerRegionEu), or a literal
// WithServerRegion("eu").
func emitServerVariable(f *jen.File, v *model.ServerVariable) {
	doc := []string{v.Option + " sets the variable " + strconv.Quote(v.Name) + " of the server's URL (default " + strconv.Quote(v.Default) + ")."}
	value := jen.Id("value")
	typ := jen.String()
	if t := v.Type; t != nil {
		emitEnum(f, t)
		value, typ = jen.String().Call(jen.Id("value")), jen.Id(t.Name)
	}
	args := []jen.Code{jen.Lit(v.Name), value}
	if len(v.Enum) > 0 {
		q := make([]string, len(v.Enum))
		for i, e := range v.Enum {
			q[i] = strconv.Quote(e)
			args = append(args, jen.Lit(e))
		}
		doc = append(doc, "The value must be one of "+strings.Join(q, ", ")+" (the constants of "+v.Type.Name+"):", "with another, NewClient returns an error that says so.")
	}
	if lines := docLines(v.Doc); len(lines) > 0 {
		doc = append(doc, "//")
		doc = append(doc, lines...)
	}
	f.Add(commentLines(doc).Func().Id(v.Option).Params(jen.Id("value").Add(typ)).Id("ClientOption").Block(
		jen.Return(jen.Func().Params(jen.Id("c").Op("*").Add(restQ("Client"))).Block(
			jen.Id("c").Dot("SetServerVariable").Call(args...),
		)),
	))
	f.Line()
}

// emitServers renders the choice of a server of a document that has several:
//
//	// Server is a server of the document, for WithServer.
//	type Server int
//
//	const (
//		// ServerProduction is the server https://{region}.example.com (the first): Production.
//		ServerProduction Server = 0
//		…
//	)
//
//	// WithServer makes the client call the server s of the document …
//	func WithServer(s Server) ClientOption {
//		return func(c *rest.Client) {
//			switch s {
//			case ServerProduction:
//				c.SetServer("https://{region}.example.com", "region", "us")
//			…
//			default:
//				c.SetError(fmt.Errorf("WithServer(%d): got no server of the document, want one of the constants of Server", int(s)))
//			}
//		}
//	}
func emitServers(f *jen.File, api *model.API) {
	st := api.ServerType
	f.Comment(st + " is a server of the document, for WithServer: one of the constants.")
	f.Type().Id(st).Int()
	f.Line()
	var consts, cases []jen.Code
	for i, sv := range api.Servers {
		doc := sv.Const + " is the server " + sv.URL
		if i == 0 {
			doc += " (the default)"
		}
		switch d := strings.TrimSpace(sv.Doc); {
		case d == "":
			doc += "."
		case !strings.Contains(d, "\n"):
			doc += ": " + strings.TrimSuffix(d, ".") + "."
		default:
			doc = model.JoinDoc(doc+".", d)
		}
		consts = append(consts, docComment(sv.Const, doc, "").Id(sv.Const).Id(st).Op("=").Lit(i))
		args := []jen.Code{jen.Lit(sv.URL)}
		for _, v := range sv.Variables {
			args = append(args, jen.Lit(v.Name), jen.Lit(v.Default))
		}
		cases = append(cases, jen.Case(jen.Id(sv.Const)).Block(jen.Id("c").Dot("SetServer").Call(args...)))
	}
	f.Const().Defs(consts...)
	f.Line()
	cases = append(cases, jen.Default().Block(jen.Id("c").Dot("SetError").Call(
		jen.Qual("fmt", "Errorf").Call(jen.Lit("WithServer(%d): got no server of the document, want one of the constants of "+st), jen.Int().Call(jen.Id("s"))))))
	doc := []string{
		"WithServer makes the client call the server s of the document instead of the",
		"first, with the variables the options set (the server's defaults for the",
		"others). A base URL given to NewClient is used instead; operations that",
		"have servers of their own call theirs. A value that is none of the",
		"constants of " + st + " makes NewClient return an error that says so."}
	f.Add(commentLines(doc).Func().Id("WithServer").Params(jen.Id("s").Id(st)).Id("ClientOption").Block(
		jen.Return(jen.Func().Params(jen.Id("c").Op("*").Add(restQ("Client"))).Block(jen.Switch(jen.Id("s")).Block(cases...))),
	))
	f.Line()
}
