package emit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// Emitters of packages generated from OpenAPI documents: the REST client, the
// Tool adapter that exposes each operation as an OpenTool function, and the
// pieces of the type emitter that only OpenAPI models use (formats,
// constraints, unions).

const (
	timePath       = "time"
	httpPath       = "net/http"
	oauth2credPath = "github.com/opentoolgen/opentoolgen/oauth2cred"
)

// ---- types: formats, constraints, unions -----------------------------------------

func oaGoType(r *model.TypeRef) *jen.Statement {
	switch r.Kind {
	case model.RefTime:
		return jen.Qual(timePath, "Time")
	case model.RefBytes:
		return jen.Index().Byte()
	}
	return jen.Qual(jsonPath, "RawMessage")
}

// oaDecodeValue decodes a value of a format kind: runtime.DecodeTime(d, &target).
func oaDecodeValue(r *model.TypeRef, target *jen.Statement) []jen.Code {
	fn := "DecodeRaw"
	switch r.Kind {
	case model.RefTime:
		fn = "DecodeTime"
	case model.RefBytes:
		fn = "DecodeBytes"
	}
	return []jen.Code{rt(fn).Call(jen.Id("d"), addr(target.Clone()))}
}

// aliasTarget returns the type an alias chain ends at when that is not a named
// type (type T = time.Time), or nil.
func aliasTarget(t *model.Type) *model.TypeRef {
	for i := 0; t.Kind == model.KindAlias && t.Underlying != nil && i < 100; i++ {
		if t.Underlying.Kind != model.RefNamed {
			return t.Underlying
		}
		t = t.Underlying.Named
	}
	return nil
}

// indexable returns target ready to be indexed: (*x)[k], not *x[k].
func indexable(target *jen.Statement) *jen.Statement {
	if strings.HasPrefix(fmt.Sprintf("%#v", target), "*") {
		return jen.Parens(target.Clone())
	}
	return target.Clone()
}

func variantType(v *model.Variant) *jen.Statement {
	if v.Pointer {
		return jen.Op("*").Add(goType(v.Type))
	}
	return goType(v.Type)
}

// emitUnion declares a union: a struct with one field per variant and its
// JSON methods.
func emitUnion(f *jen.File, t *model.Type) {
	var fields []jen.Code
	for _, v := range t.Variants {
		fields = append(fields, jen.Id(v.Name).Add(variantType(v)))
	}
	doc := t.Doc
	if doc == "" {
		doc = t.Origin
	}
	doc = model.JoinDoc(doc, "Set exactly one field; the value is that variant.")
	f.Add(docComment(t.Name, doc, t.Origin).Type().Id(t.Name).Struct(fields...))
	f.Line()

	// func (x T) MarshalJSON() ([]byte, error) {
	//	switch {
	//	case x.A != nil:
	//		return json.Marshal(x.A)
	//	}
	//	return []byte("null"), nil
	// }
	var cases []jen.Code
	var zero []jen.Code
	for _, v := range t.Variants {
		cases = append(cases, jen.Case(jen.Id("x").Dot(v.Name).Op("!=").Nil()).Block(
			jen.Return(jen.Qual(jsonPath, "Marshal").Call(jen.Id("x").Dot(v.Name))),
		))
		zero = append(zero, jen.Id("x").Dot(v.Name).Op("==").Nil())
	}
	f.Comment("MarshalJSON encodes the variant that is set; null when none is.")
	f.Func().Params(jen.Id("x").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		switchOrNull(cases),
		jen.Return(jen.Index().Byte().Call(jen.Lit("null")), jen.Nil()),
	)
	f.Line()
	f.Comment("UnmarshalJSON decodes the variant the value is.")
	f.Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Return(rt("Unmarshal").Call(jen.Id("data"), jen.Id("x"), jen.Id(t.Decoder))),
	)
	f.Line()
	isZero := jen.True()
	if len(zero) > 0 {
		isZero = jen.Null()
		for i, z := range zero {
			if i > 0 {
				isZero.Op("&&")
			}
			isZero.Add(z)
		}
	}
	f.Comment("IsZero reports whether no variant is set.")
	f.Func().Params(jen.Id("x").Id(t.Name)).Id("IsZero").Params().Bool().Block(jen.Return(isZero))
	f.Line()
}

func switchOrNull(cases []jen.Code) jen.Code {
	if len(cases) == 0 {
		return jen.Null()
	}
	return jen.Switch().Block(cases...)
}

// variantDecoder is the decode function of a variant: a generated decoder,
// or a literal for types without one.
func variantDecoder(v *model.Variant) jen.Code {
	if v.Type.Kind == model.RefNamed && aliasTarget(v.Type.Named) == nil {
		if d := decoderOf(v.Type.Named); d != "" {
			return jen.Id(d)
		}
	}
	// func(d *runtime.Decoder, x *T) { … }
	return jen.Func().Params(jen.Id("d").Op("*").Add(rt("Decoder")), jen.Id("x").Op("*").Add(goType(v.Type))).Block(
		decodeValue(v.Type, jen.Op("*").Id("x"), "", 1)...,
	)
}

// unionDecoder decodes a union: by its discriminator, or as the first variant
// that accepts the value.
func unionDecoder(t *model.Type) []jen.Code {
	body := []jen.Code{
		jen.Id("raw").Op(":=").Id("d").Dot("Raw").Call(),
		jen.If(jen.Id("raw").Op("==").Nil()).Block(jen.Return()),
		jen.Op("*").Id("x").Op("=").Id(t.Name).Values(),
	}
	assign := func(v *model.Variant, local string) jen.Code {
		if v.Pointer {
			return jen.Id("x").Dot(v.Name).Op("=").Op("&").Id(local)
		}
		return jen.Id("x").Dot(v.Name).Op("=").Id(local)
	}
	if t.Discriminator != "" {
		return append(body, taggedUnionDecoder(t, assign)...)
	}
	// {
	//	var v A
	//	if runtime.DecodeVariant(d, raw, &v, decodeA, false) { x.A = &v; return }
	// }
	var names []string
	for _, v := range t.Variants {
		body = append(body, jen.Block(
			jen.Var().Id("v").Add(goType(v.Type)),
			jen.If(rt("DecodeVariant").Call(jen.Id("d"), jen.Id("raw"), jen.Op("&").Id("v"), variantDecoder(v), jen.False())).Block(assign(v, "v"), jen.Return()),
		))
		names = append(names, v.Name)
	}
	body = append(body, jen.Id("d").Dot("Invalid").Call(jen.Lit("got a value that is none of the variants "+strings.Join(names, ", "))))
	return body
}

// ---- REST client --------------------------------------------------------------------

// present renders the condition under which an optional argument is sent, or
// nil when it always is.
func present(f *model.Field) jen.Code {
	if f.Required && !f.Pointer {
		return nil
	}
	if f.Required && f.Nullable {
		return nil // null is a value: sent as the parameter's empty form
	}
	if !f.Pointer && f.Type.Kind == model.RefNamed && f.Type.Named.Kind == model.KindUnion {
		return jen.Op("!").Id("args").Dot(f.Name).Dot("IsZero").Call()
	}
	if f.NullFlag != "" {
		return jen.Id("args").Dot(f.Name).Op("!=").Nil().Op("||").Id("args").Dot(f.NullFlag)
	}
	return jen.Id("args").Dot(f.Name).Op("!=").Nil()
}

// requestStmt is the call that puts one argument into the request.
func requestStmt(fn *model.Function, f *model.Field) jen.Code {
	h := f.HTTP
	v := jen.Id("args").Dot(f.Name)
	if h.JSON && h.In != model.InBody && h.In != model.InBodyProp {
		v = restQ("JSONContent").Call(v)
	}
	r := jen.Id("r")
	switch h.In {
	case model.InPath:
		return r.Dot("Path").Call(jen.Lit(h.Name), v, jen.Lit(h.Style), jen.Lit(h.Explode))
	case model.InQuery:
		return r.Dot("Query").Call(jen.Lit(h.Name), v, jen.Lit(h.Style), jen.Lit(h.Explode), jen.Lit(h.AllowReserved))
	case model.InHeader:
		return r.Dot("Header").Call(jen.Lit(h.Name), v, jen.Lit(h.Explode))
	case model.InCookie:
		return r.Dot("Cookie").Call(jen.Lit(h.Name), v, jen.Lit(h.Explode))
	case model.InBody:
		switch model.MediaKind(fn.HTTP.BodyMedia) {
		case "binary":
			return r.Dot("RawBody").Call(v, jen.Lit(fn.HTTP.BodyMedia))
		case "text":
			val := jen.Index().Byte().Call(v)
			if f.Pointer {
				val = jen.Index().Byte().Call(jen.Op("*").Add(v))
			}
			return r.Dot("RawBody").Call(val, jen.Lit(fn.HTTP.BodyMedia))
		}
		return r.Dot("JSONBody").Call(v)
	case model.InBodyProp:
		switch model.MediaKind(fn.HTTP.BodyMedia) {
		case "form":
			return r.Dot("FormField").Call(jen.Lit(h.Name), v, jen.Lit(h.Style), jen.Lit(h.Explode), jen.Lit(h.AllowReserved))
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

// emitRESTClient renders client.gen.go of an OpenAPI package: the REST client
// and one method per operation, each a Service method:
//
//	const DefaultBaseURL = "https://api.example.com/v1"
//
//	type Client struct{ rc *rest.Client }
//	type ClientOption func(*rest.Client)
//	func WithHTTPClient(hc *http.Client) ClientOption // WithRequestEditor, WithRetry, WithTimeout,
//	                                                  // WithCredential and one option per security scheme
//	func NewClient(baseURL string, opts ...ClientOption) *Client
//
//	// ShowPetByID …
//	func (c *Client) ShowPetByID(ctx context.Context, args ShowPetByIDArgs) (Pet, error) {
//		r := c.rc.NewRequest("GET", "/pets/{petId}")
//		r.Path("petId", args.PetID, "simple", false) // each argument where it travels
//		r.Security("api_key")
//		var out Pet
//		resp, err := r.Send(ctx)
//		if err != nil {
//			return out, err
//		}
//		switch { // the documented responses
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
func emitRESTClient(p *model.Package) *jen.File {
	f := newFile(p)
	api := p.API
	f.Comment("DefaultBaseURL is the address of the API: the first server of the document.")
	f.Const().Id("DefaultBaseURL").Op("=").Lit(api.BaseURL)
	f.Line()
	f.Comment("Client calls the operations of the API over HTTP. It is safe for concurrent")
	f.Comment("use; it keeps no global state.")
	f.Type().Id("Client").Struct(jen.Id("rc").Op("*").Add(restQ("Client")))
	f.Line()
	f.Comment("ClientOption configures NewClient.")
	f.Type().Id("ClientOption").Func().Params(jen.Op("*").Add(restQ("Client")))
	f.Line()
	option := func(name string, doc []string, params []jen.Code, body ...jen.Code) {
		for _, l := range doc {
			f.Comment(l)
		}
		f.Func().Id(name).Params(params...).Id("ClientOption").Block(
			jen.Return(jen.Func().Params(jen.Id("c").Op("*").Add(restQ("Client"))).Block(body...)),
		)
		f.Line()
	}
	option("WithHTTPClient", []string{
		"WithHTTPClient sets the HTTP client that sends the requests (default",
		"http.DefaultClient). hc is not changed: the client sends with a copy whose",
		"CheckRedirect keeps the credentials from other origins, then calls hc's own."},
		[]jen.Code{jen.Id("hc").Op("*").Qual(httpPath, "Client")},
		jen.Id("c").Dot("HTTPClient").Op("=").Id("hc"))
	option("WithCrossOriginRedirect", []string{
		"WithCrossOriginRedirect sets what a request redirected to another origin",
		"(scheme, host, port) does: by default it is followed without the request's",
		"credentials; runtime.RedirectRefuse fails the call instead."},
		[]jen.Code{jen.Id("p").Add(rt("RedirectPolicy"))},
		jen.Id("c").Dot("CrossOriginRedirect").Op("=").Id("p"))
	option("WithResponseHeaderTimeout", []string{
		"WithResponseHeaderTimeout bounds the wait for the headers of each answer",
		"(default rest.DefaultResponseHeaderTimeout, two minutes; negative: no",
		"bound). Reading a body, or a stream, is bounded by the context and WithTimeout."},
		[]jen.Code{jen.Id("d").Qual(timePath, "Duration")},
		jen.Id("c").Dot("ResponseHeaderTimeout").Op("=").Id("d"))
	option("WithRequestEditor", []string{"WithRequestEditor adds a function that edits every request before it is sent."},
		[]jen.Code{jen.Id("fn").Add(restQ("RequestEditor"))},
		jen.Id("c").Dot("Editors").Op("=").Append(jen.Id("c").Dot("Editors"), jen.Id("fn")))
	option("WithRetry", []string{
		"WithRetry sends a request again when its connection fails or the API answers",
		"429 or 503, as p says (idempotent methods, or requests with an idempotency",
		"header; Retry-After honoured). Without it, every request is sent once."},
		[]jen.Code{jen.Id("p").Add(restQ("RetryPolicy"))},
		jen.Id("c").Dot("Retry").Op("=").Op("&").Id("p"))
	sse := false
	for _, fn := range p.Functions {
		sse = sse || fn.Stream && model.StreamKind(fn.HTTP.StreamMedia) == "sse"
	}
	if sse {
		option("WithReconnect", []string{
			"WithReconnect makes a streamed text/event-stream response go on after its",
			"connection breaks: the request is sent again with the Last-Event-ID of the",
			"last event received, as p says (idempotent methods, or requests with an",
			"idempotency header; the stream's retry field and Retry-After honoured; never",
			"after the stream ended). Without it, a broken stream ends with an error.",
			"See rest.Client's Reconnect."},
			[]jen.Code{jen.Id("p").Add(restQ("RetryPolicy"))},
			jen.Id("c").Dot("Reconnect").Op("=").Op("&").Id("p"))
	}
	option("WithTimeout", []string{
		"WithTimeout bounds every call, retries included; a context whose deadline",
		"comes earlier shortens it."},
		[]jen.Code{jen.Id("d").Qual(timePath, "Duration")},
		jen.Id("c").Dot("Timeout").Op("=").Id("d"))
	if len(api.Security) > 0 {
		option("WithCredential", []string{
			"WithCredential sets the credential of the security scheme named scheme, for",
			"example a token source: WithCredential(name, rest.TokenCredential(src)).",
			"rest.WithCredentials gives a call credentials of its own."},
			[]jen.Code{jen.Id("scheme").String(), jen.Id("cred").Add(restQ("Credential"))},
			jen.Id("c").Dot("SetCredential").Call(jen.Id("scheme"), jen.Id("cred")))
	}
	for _, s := range api.Security {
		var doc []string
		var params []jen.Code
		var cred jen.Code
		switch s.Kind {
		case model.SchemeAPIKey:
			doc = []string{s.Option + " sets the API key of the security scheme " + strconv.Quote(s.Name) + ", sent in the " + string(s.In) + " " + strconv.Quote(s.Key) + "."}
			params = []jen.Code{jen.Id("key").String()}
			cred = restQ("APIKeyCredential").Call(jen.Lit(string(s.In)), jen.Lit(s.Key), jen.Id("key"))
		case model.SchemeBasic:
			doc = []string{s.Option + " sets the user and password of the security scheme " + strconv.Quote(s.Name) + " (HTTP basic)."}
			params = []jen.Code{jen.Id("user"), jen.Id("password").String()}
			cred = restQ("BasicCredential").Call(jen.Id("user"), jen.Id("password"))
		default:
			doc = []string{s.Option + " sets the token of the security scheme " + strconv.Quote(s.Name) + ", sent as", `"Authorization: Bearer <token>".`}
			params = []jen.Code{jen.Id("token").String()}
			cred = restQ("BearerCredential").Call(jen.Id("token"))
		}
		if lines := docLines(s.Doc); len(lines) > 0 {
			doc = append(doc, "//")
			doc = append(doc, lines...)
		}
		f.Add(commentLines(doc).Func().Id(s.Option).Params(params...).Id("ClientOption").Block(
			jen.Return(jen.Func().Params(jen.Id("c").Op("*").Add(restQ("Client"))).Block(
				jen.Id("c").Dot("SetCredential").Call(jen.Lit(s.Name), cred),
			)),
		))
		f.Line()
		if cc := s.ClientCredentials; cc != nil {
			emitClientCredentials(f, s, cc)
		}
	}
	if sv := api.Server; sv != nil {
		for _, v := range api.Variables {
			emitServerVariable(f, v)
		}
		if len(api.Servers) > 0 {
			emitServers(f, api)
		}
		// rc := rest.NewClient(baseURL)
		// if baseURL == "" { rc.SetServer("https://{region}.example.com", "region", "us") }
		setServer := []jen.Code{jen.Lit(sv.URL)}
		for _, v := range sv.Variables {
			setServer = append(setServer, jen.Lit(v.Name), jen.Lit(v.Default))
		}
		doc := []string{`NewClient returns a client of the API at baseURL. Given "", it calls the`,
			"document's server, " + sv.URL + ",",
			"with the variables the options set (DefaultBaseURL when none is set), and",
			"the operations that have servers of their own call theirs; a base URL given",
			"is used for every operation."}
		if len(api.Servers) > 0 {
			doc = []string{`NewClient returns a client of the API at baseURL. Given "", it calls the`,
				"document's first server, " + sv.URL + ", or the one WithServer",
				"chooses, with the variables the options set (DefaultBaseURL when none is",
				"set), and the operations that have servers of their own call theirs; a base",
				"URL given is used for every operation."}
		}
		f.Add(commentLines(doc).Func().Id("NewClient").Params(jen.Id("baseURL").String(), jen.Id("opts").Op("...").Id("ClientOption")).Op("*").Id("Client").Block(
			jen.Id("rc").Op(":=").Add(restQ("NewClient")).Call(jen.Id("baseURL")),
			jen.If(jen.Id("baseURL").Op("==").Lit("")).Block(jen.Id("rc").Dot("SetServer").Call(setServer...)),
			jen.For(jen.List(jen.Id("_"), jen.Id("o")).Op(":=").Range().Id("opts")).Block(jen.Id("o").Call(jen.Id("rc"))),
			jen.Return(jen.Op("&").Id("Client").Values(jen.Id("rc").Op(":").Id("rc"))),
		))
	} else {
		f.Comment(`NewClient returns a client of the API at baseURL ("" for DefaultBaseURL).`)
		f.Func().Id("NewClient").Params(jen.Id("baseURL").String(), jen.Id("opts").Op("...").Id("ClientOption")).Op("*").Id("Client").Block(
			jen.If(jen.Id("baseURL").Op("==").Lit("")).Block(jen.Id("baseURL").Op("=").Id("DefaultBaseURL")),
			jen.Id("rc").Op(":=").Add(restQ("NewClient")).Call(jen.Id("baseURL")),
			jen.For(jen.List(jen.Id("_"), jen.Id("o")).Op(":=").Range().Id("opts")).Block(jen.Id("o").Call(jen.Id("rc"))),
			jen.Return(jen.Op("&").Id("Client").Values(jen.Id("rc").Op(":").Id("rc"))),
		)
	}
	f.Line()
	f.Var().Id("_").Id("Service").Op("=").Parens(jen.Op("*").Id("Client")).Parens(jen.Nil())
	f.Line()
	for _, fn := range p.Functions {
		emitRESTMethod(f, fn)
	}
	return f
}

// emitServerVariable renders the option that sets a variable of the server's
// URL:
//
//	// WithServerRegion sets the variable "region" of the server's URL (default "us").
//	// The value must be one of "us", "eu": another makes every call of
//	// the client fail.
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
		doc = append(doc, "The value must be one of "+strings.Join(q, ", ")+" (the constants of "+v.Type.Name+"):", "another makes every call of the client fail.")
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
//				c.SetError(fmt.Errorf("WithServer(%d): the document has no such server", int(s)))
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
		jen.Qual("fmt", "Errorf").Call(jen.Lit("WithServer(%d): the document has no such server"), jen.Int().Call(jen.Id("s"))))))
	doc := []string{
		"WithServer makes the client call the server s of the document instead of the",
		"first, with the variables the options set (the server's defaults for the",
		"others). A base URL given to NewClient is used instead; operations that",
		"have servers of their own call theirs. A value that is none of the",
		"constants of " + st + " makes every call of the client fail."}
	f.Add(commentLines(doc).Func().Id("WithServer").Params(jen.Id("s").Id(st)).Id("ClientOption").Block(
		jen.Return(jen.Func().Params(jen.Id("c").Op("*").Add(restQ("Client"))).Block(jen.Switch(jen.Id("s")).Block(cases...))),
	))
	f.Line()
}

// emitClientCredentials renders the option of a scheme's OAuth 2 client
// credentials flow:
//
//	// WithPetstoreAuthClientCredentials gets the tokens of … from https://…/token …
//	func WithPetstoreAuthClientCredentials(ctx context.Context, clientID, clientSecret string, scopes ...string) ClientOption {
//		return func(c *rest.Client) {
//			c.SetCredential("petstore_auth", rest.TokenCredential(oauth2cred.ClientCredentials(ctx, clientcredentials.Config{
//				ClientID: clientID, ClientSecret: clientSecret, TokenURL: "https://…/token", Scopes: scopes,
//			})))
//		}
//	}
func emitClientCredentials(f *jen.File, s *model.SecurityScheme, cc *model.OAuthFlow) {
	scopes := "the document lists none"
	if len(cc.Scopes) > 0 {
		q := make([]string, len(cc.Scopes))
		for i, sc := range cc.Scopes {
			q[i] = strconv.Quote(sc)
		}
		scopes = "the document lists " + strings.Join(q, ", ")
	}
	doc := []string{
		s.FlowOption + " authenticates the security scheme " + strconv.Quote(s.Name),
		"with tokens of OAuth 2's client credentials flow from " + cc.TokenURL + ",",
		"for the scopes given (" + scopes + "),",
		"fetched again when they expire, each within the context of the call that",
		"needs it. ctx gives the token requests their HTTP client (oauth2.HTTPClient)",
		"and ends them when it ends: it should live as long as the client.",
	}
	ccPath := "golang.org/x/oauth2/clientcredentials"
	f.Add(commentLines(doc).Func().Id(s.FlowOption).Params(
		jen.Id("ctx").Qual(contextPath, "Context"), jen.List(jen.Id("clientID"), jen.Id("clientSecret")).String(), jen.Id("scopes").Op("...").String(),
	).Id("ClientOption").Block(
		jen.Return(jen.Func().Params(jen.Id("c").Op("*").Add(restQ("Client"))).Block(
			jen.Id("c").Dot("SetCredential").Call(jen.Lit(s.Name), restQ("TokenCredential").Call(
				jen.Qual(oauth2credPath, "ClientCredentials").Call(jen.Id("ctx"), jen.Qual(ccPath, "Config").Values(jen.Dict{
					jen.Id("ClientID"):     jen.Id("clientID"),
					jen.Id("ClientSecret"): jen.Id("clientSecret"),
					jen.Id("TokenURL"):     jen.Lit(cc.TokenURL),
					jen.Id("Scopes"):       jen.Id("scopes"),
				})),
			)),
		)),
	))
	f.Line()
}

// commentLines renders prepared comment lines ("//" for a blank one).
func commentLines(lines []string) *jen.Statement {
	s := jen.Null()
	for _, l := range lines {
		if l == "//" || l == "" {
			s.Comment("//")
		} else {
			s.Comment("// " + sanitizeLine(l))
		}
		s.Line()
	}
	return s
}

// emitRESTMethod renders the client method of one operation:
//
//	func (c *Client) GetPet(ctx context.Context, args GetPetArgs) (Pet, error) {
//		r := c.rc.NewRequest("GET", "/pets/{petId}")
//		r.Path("petId", args.PetID, "simple", false)
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
	body = append(body,
		jen.List(jen.Id("resp"), jen.Err()).Op(":=").Id("r").Dot("Send").Call(jen.Id("ctx")),
		jen.If(jen.Err().Op("!=").Nil()).Block(ret(jen.Err())),
	)
	var cases []statusCase
	var defaultCase jen.Code
	defaultUnexpected := true
	for _, r := range op.Responses {
		var stmts []jen.Code
		unexpected := false
		switch {
		case r.Success && r.Type != nil && hasResult && r.Type == fn.Result:
			switch r.Media {
			case "text":
				stmts = append(stmts, out.Clone().Op("=").String().Call(jen.Id("resp").Dot("Body")))
			case "binary":
				stmts = append(stmts, out.Clone().Op("=").Id("resp").Dot("Body"))
			default:
				stmts = append(stmts, jen.Err().Op("=").Id("resp").Dot("Decode").Call(jen.Op("&").Add(out.Clone())))
			}
		case r.Success:
		case r.Type != nil && r.Media == model.MediaJSON:
			stmts = append(stmts, jen.Err().Op("=").Add(restQ("NewAPIError")).Types(goType(r.Type)).Call(jen.Id("resp")))
		default:
			stmts = append(stmts, jen.Err().Op("=").Id("resp").Dot("Unexpected").Call())
			unexpected = true
		}
		if r.Status == "default" {
			if r.Success {
				// The default response is the success response: any 2xx.
				cases = append(cases, statusCase{"2XX", false, jen.Case(jen.Id("resp").Dot("Success").Call()).Block(stmts...)})
				continue
			}
			defaultCase, defaultUnexpected = jen.Default().Block(stmts...), unexpected
			continue
		}
		cases = append(cases, statusCase{r.Status, unexpected, jen.Case(jen.Id("resp").Dot("Is").Call(jen.Lit(r.Status))).Block(stmts...)})
	}
	cases = append(cases, statusCase{"2XX", false, jen.Case(jen.Id("resp").Dot("Success").Call())})
	if defaultCase == nil {
		defaultCase = jen.Default().Block(jen.Err().Op("=").Id("resp").Dot("Unexpected").Call())
	}
	var switchBody []jen.Code
	for _, c := range keepCases(cases, defaultUnexpected) {
		switchBody = append(switchBody, c.code)
	}
	switchBody = append(switchBody, defaultCase)
	body = append(body, jen.Switch().Block(switchBody...))
	if hdr != nil {
		// if err == nil { err = resp.HeaderValue("Location", &out.Location) }
		for _, h := range hdr.Fields {
			body = append(body, jen.If(jen.Err().Op("==").Nil()).Block(
				jen.Err().Op("=").Id("resp").Dot("HeaderValue").Call(jen.Lit(h.HTTP.Name), jen.Op("&").Id("out").Dot(h.Name))))
		}
	}
	body = append(body, ret(jen.Err()))

	doc := model.JoinDoc(fn.Doc, op.Method+" "+op.Path)
	results := jen.Error()
	if hasResult {
		results = jen.Params(goType(fn.Result), jen.Error())
	}
	if hdr != nil {
		emitHeadersType(f, fn)
		hdoc := op.HeadersMethod + " is " + fn.GoName + " with the headers of the response: " + op.Method + " " + op.Path + "."
		f.Add(funcDoc(op.HeadersMethod, fn.Name, hdoc).Func().Params(jen.Id("c").Op("*").Id("Client")).Id(op.HeadersMethod).Params(params...).
			Params(jen.Id(hdr.Name), jen.Error()).Block(body...))
		f.Line()
		// func (c *Client) F(ctx, args) (T, error) { res, err := c.FWithHeaders(ctx, args); return res.Body, err }
		call := []jen.Code{jen.Id("ctx")}
		if fn.Args != nil {
			call = append(call, jen.Id("args"))
		}
		body = []jen.Code{jen.List(jen.Id("res"), jen.Err()).Op(":=").Id("c").Dot(op.HeadersMethod).Call(call...)}
		if hasResult {
			body = append(body, jen.Return(jen.Id("res").Dot("Body"), jen.Err()))
		} else {
			body = []jen.Code{jen.List(jen.Id("_"), jen.Err()).Op(":=").Id("c").Dot(op.HeadersMethod).Call(call...), jen.Return(jen.Err())}
		}
		doc = model.JoinDoc(doc, op.HeadersMethod+" returns the headers of the response too.")
	}
	f.Add(restMethodDoc(fn, doc).Func().Params(jen.Id("c").Op("*").Id("Client")).Id(fn.GoName).Params(params...).Add(results).Block(body...))
	f.Line()
}

// statusCase is a case of the switch over a response's status: the status
// it matches as Response.Is does ("2XX" for resp.Success()), whether it does
// what the default case does (err = resp.Unexpected()), and its code.
type statusCase struct {
	status     string
	unexpected bool
	code       jen.Code
}

// keepCases returns the cases a switch needs: a case that does what the
// default case does (unexpected, when defaultUnexpected) is dropped unless a
// later case kept would then take its statuses and do something else (a
// "404" before "4XX"). The first matching case wins, so what remains behaves
// as the full switch.
func keepCases(cases []statusCase, defaultUnexpected bool) []statusCase {
	var kept []statusCase
	for i := len(cases) - 1; i >= 0; i-- {
		c := cases[i]
		if defaultUnexpected && c.unexpected && !overlapsAny(c.status, kept) {
			continue
		}
		kept = append(kept, c)
	}
	slices.Reverse(kept)
	return kept
}

// overlapsAny reports whether a status some response may have matches both
// status and the status of one of cases.
func overlapsAny(status string, cases []statusCase) bool {
	for _, c := range cases {
		if statusesOverlap(status, c.status) {
			return true
		}
	}
	return false
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
		typed := r.Type != nil && r.Media == model.MediaJSON
		if typed {
			stmt = jen.Return(restQ("NewAPIError").Types(goType(r.Type)).Call(jen.Id("resp")))
		}
		all = append(all, statusCase{r.Status, !typed, jen.Case(jen.Id("resp").Dot("Is").Call(jen.Lit(r.Status))).Block(stmt)})
	}
	for _, c := range keepCases(all, !apiDefault) {
		cases = append(cases, c.code)
	}
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
			if fl.HTTP.In == model.InBodyProp {
				bodyProps = true
			}
			stmt := requestStmt(fn, fl)
			if cond := present(fl); cond != nil {
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

// ---- Tool adapter -----------------------------------------------------------------
