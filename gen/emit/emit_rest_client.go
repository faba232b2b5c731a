package emit

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// The REST client of an OpenAPI package (client.gen.go): the Client type,
// its options, servers and credentials.

// emitRESTClient renders client.gen.go of an OpenAPI package: the REST client
// and one method per operation, each a Service method:
//
//	const DefaultBaseURL = "https://api.example.com/v1"
//
//	type Client struct{ rc *rest.Client }
//	type ClientOption func(*rest.Client)
//	func WithHTTPClient(hc *http.Client) ClientOption // WithRequestEditor, WithRetry, WithTimeout,
//	                                                  // WithCredential and one option per security scheme
//	func NewClient(baseURL string, opts ...ClientOption) (*Client, error)
//
//	// ShowPetByID …
//	func (c *Client) ShowPetByID(ctx context.Context, args ShowPetByIDArgs) (Pet, error) {
//		r := c.rc.NewRequest("GET", "/pets/{petId}")
//		r.Path("petId", args.PetID) // each argument where it travels
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
//
// It holds the methods of fns, the first functions of p; client2.gen.go, …
// hold those of the others (emitRESTMethods).
func emitRESTClient(p *model.Package, fns []*model.Function) *jen.File {
	f := newFile(p)
	api := p.API
	f.Comment("DefaultBaseURL is the address of the API: the first server of the document.")
	f.Const().Id("DefaultBaseURL").Op("=").Lit(api.BaseURL)
	f.Line()
	f.Comment("Client calls the operations of the API over HTTP. It is safe for concurrent")
	f.Comment("use; it keeps no global state.")
	if hasPaging(p) {
		f.Comment("")
		f.Comment("A list operation F has an iterator, FAll, over the items of all its pages, in")
		f.Comment("order. Each page is an ordinary call of F, retried as any call is, fetched when")
		f.Comment("the loop needs it; breaking out of the loop stops. An error ends the iteration:")
		f.Comment("a page's, the context's, or rest.ErrPageRepeated when the API repeats a cursor,")
		f.Comment("link or page.")
	}
	f.Type().Id("Client").Struct(jen.Id("rc").Op("*").Add(restQ("Client")))
	f.Line()
	f.Comment("ClientOption configures NewClient.")
	f.Type().Id("ClientOption").Func().Params(jen.Op("*").Add(restQ("Client")))
	f.Line()
	emitClientOptions(f, p)
	emitSecurityOptions(f, api)
	if api.Server != nil {
		for _, v := range api.Variables {
			emitServerVariable(f, v)
		}
		if len(api.Servers) > 0 {
			emitServers(f, api)
		}
	}
	emitNewClient(f, p)
	f.Line()
	f.Var().Id("_").Id(p.Service()).Op("=").Parens(jen.Op("*").Id("Client")).Parens(jen.Nil())
	f.Line()
	for _, fn := range fns {
		emitRESTMethods(f, fn)
	}
	return f
}

// emitRESTMethods renders the Client's method of fn, and its paging method
// when fn pages.
func emitRESTMethods(f *jen.File, fn *model.Function) {
	emitRESTMethod(f, fn)
	if fn.HTTP != nil && fn.HTTP.Paging != nil {
		emitPagingMethod(f, fn)
	}
}

// emitOption renders a ClientOption that sets the rest.Client c:
//
//	// WithTimeout bounds every call, …
//	func WithTimeout(d time.Duration) ClientOption {
//		return func(c *rest.Client) { c.Timeout = d }
//	}
func emitOption(f *jen.File, name string, doc []string, params []jen.Code, body ...jen.Code) {
	f.Add(commentLines(doc).Func().Id(name).Params(params...).Id("ClientOption").Block(
		jen.Return(jen.Func().Params(jen.Id("c").Op("*").Add(restQ("Client"))).Block(body...)),
	))
	f.Line()
}

// emitClientOptions renders the options every client has (WithHTTPClient,
// WithRetry, WithTimeout…), and WithReconnect when an operation streams
// Server-Sent Events.
func emitClientOptions(f *jen.File, p *model.Package) {
	emitOption(f, "WithHTTPClient", []string{
		"WithHTTPClient sets the HTTP client that sends the requests (default",
		"http.DefaultClient). hc is not changed: the client sends with a copy whose",
		"CheckRedirect keeps the credentials from other origins, then calls hc's own."},
		[]jen.Code{jen.Id("hc").Op("*").Qual(httpPath, "Client")},
		jen.Id("c").Dot("HTTPClient").Op("=").Id("hc"))
	emitOption(f, "WithCrossOriginRedirect", []string{
		"WithCrossOriginRedirect sets what a request redirected to another origin",
		"(scheme, host, port) does: by default it is followed without the request's",
		"credentials; runtime.RedirectRefuse fails the call instead."},
		[]jen.Code{jen.Id("p").Add(rt("RedirectPolicy"))},
		jen.Id("c").Dot("CrossOriginRedirect").Op("=").Id("p"))
	emitOption(f, "WithResponseHeaderTimeout", []string{
		"WithResponseHeaderTimeout bounds the wait for the headers of each answer",
		"(default rest.DefaultResponseHeaderTimeout, two minutes; negative: no",
		"bound). Reading a body, or a stream, is bounded by the context and WithTimeout."},
		[]jen.Code{jen.Id("d").Qual(timePath, "Duration")},
		jen.Id("c").Dot("ResponseHeaderTimeout").Op("=").Id("d"))
	emitOption(f, "WithRequestEditor", []string{"WithRequestEditor adds a function that edits every request before it is sent."},
		[]jen.Code{jen.Id("fn").Add(restQ("RequestEditor"))},
		jen.Id("c").Dot("Editors").Op("=").Append(jen.Id("c").Dot("Editors"), jen.Id("fn")))
	emitOption(f, "WithRetry", []string{
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
		emitOption(f, "WithReconnect", []string{
			"WithReconnect makes a streamed text/event-stream response go on after its",
			"connection breaks: the request is sent again with the Last-Event-ID of the",
			"last event received, as p says (idempotent methods, or requests with an",
			"idempotency header; the stream's retry field and Retry-After honoured; never",
			"after the stream ended). Without it, a broken stream ends with an error.",
			"See rest.Client's Reconnect."},
			[]jen.Code{jen.Id("p").Add(restQ("RetryPolicy"))},
			jen.Id("c").Dot("Reconnect").Op("=").Op("&").Id("p"))
	}
	emitOption(f, "WithTimeout", []string{
		"WithTimeout bounds every call, retries included; a context whose deadline",
		"comes earlier shortens it."},
		[]jen.Code{jen.Id("d").Qual(timePath, "Duration")},
		jen.Id("c").Dot("Timeout").Op("=").Id("d"))
}

// emitNewClient renders NewClient: the base URL given, else the document's
// server with its variables' defaults, else DefaultBaseURL. It returns the
// client's error (rest.Client.Check) once the options ran: a base URL that
// is not absolute, an option's value the client cannot use (a server
// variable outside its enum), no URL to call.
func emitNewClient(f *jen.File, p *model.Package) {
	api := p.API
	sv := api.Server
	if api.BaseURL != "" && model.RelativeURL(api.BaseURL) {
		emitNewClientRelative(f, api)
		return
	}
	if sv == nil {
		doc := []string{`NewClient returns a client of the API at baseURL ("" for DefaultBaseURL),`,
			"or the error that keeps it from calling the API (a base URL that is not an",
			`absolute URL, such as "https://api.example.com/v1", an option's value that`,
			"cannot be used)."}
		check := rc("Check").Call()
		if api.BaseURL == "" {
			doc = []string{"NewClient returns a client of the API at baseURL, which the document does",
				"not give (it has no server), or the error that keeps it from calling the",
				`API (a base URL that is not an absolute URL, such as`,
				`"https://api.example.com/v1", an option's value that cannot be used).`}
			if ownServers(p) {
				doc = append(doc, `Given "", each operation calls its own server.`)
			} else {
				doc = append(doc, `Given "", it returns rest.ErrNoBaseURL.`)
			}
		}
		body := []jen.Code{
			jen.If(jen.Id("baseURL").Op("==").Lit("")).Block(jen.Id("baseURL").Op("=").Id("DefaultBaseURL")),
			jen.Id("rc").Op(":=").Add(restQ("NewClient")).Call(jen.Id("baseURL")),
		}
		if api.BaseURL == "" {
			body = body[1:]
		}
		f.Add(commentLines(doc).Func().Id("NewClient").Params(newClientParams()...).Params(jen.Op("*").Id("Client"), jen.Error()).Block(
			append(body, newClientEnd(check, api.BaseURL == "" && ownServers(p))...)...))
		return
	}
	// rc := rest.NewClient(baseURL)
	// if baseURL == "" { rc.SetServer("https://{region}.example.com", "region", "us") }
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
	doc = append(doc, "When the client cannot call the API, NewClient returns the error that says",
		`why: a base URL that is not an absolute URL (such as "https://api.example.com/v1"),`,
		"a server variable outside its enum, a value of WithServer that names no server.")
	if len(api.Servers) == 0 {
		doc[len(doc)-1] = "a server variable outside its enum."
	}
	f.Add(commentLines(doc).Func().Id("NewClient").Params(newClientParams()...).Params(jen.Op("*").Id("Client"), jen.Error()).Block(
		append([]jen.Code{
			jen.Id("rc").Op(":=").Add(restQ("NewClient")).Call(jen.Id("baseURL")),
			jen.If(jen.Id("baseURL").Op("==").Lit("")).Block(jen.Id("rc").Dot("SetServer").Call(serverArgs(sv)...)),
		}, newClientEnd(rc("Check").Call(), false)...)...,
	))
}

// newClientParams are the parameters of NewClient: baseURL string, opts
// ...ClientOption.
func newClientParams() []jen.Code {
	return []jen.Code{jen.Id("baseURL").String(), jen.Id("opts").Op("...").Id("ClientOption")}
}

// rc is a method of the rest.Client rc: rc.Check.
func rc(name string) *jen.Statement { return jen.Id("rc").Dot(name) }

// serverArgs are the arguments of SetServer for sv: its URL and its
// variables' defaults as name, value pairs.
func serverArgs(sv *model.Server) []jen.Code {
	args := []jen.Code{jen.Lit(sv.URL)}
	for _, v := range sv.Variables {
		args = append(args, jen.Lit(v.Name), jen.Lit(v.Default))
	}
	return args
}

// newClientEnd runs the options and returns the client or its error,
// ErrNoBaseURL excepted when every operation has its own server:
//
//	for _, o := range opts {
//		o(rc)
//	}
//	if err := rc.Check(); err != nil {
//		return nil, err
//	}
//	return &Client{rc: rc}, nil
func newClientEnd(check *jen.Statement, ownServers bool) []jen.Code {
	cond := jen.Err().Op("!=").Nil()
	if ownServers {
		cond = cond.Op("&&").Op("!").Qual(errorsPath, "Is").Call(jen.Err(), restQ("ErrNoBaseURL"))
	}
	return []jen.Code{
		jen.For(jen.List(jen.Id("_"), jen.Id("o")).Op(":=").Range().Id("opts")).Block(jen.Id("o").Call(jen.Id("rc"))),
		jen.If(jen.Err().Op(":=").Add(check), cond).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Op("&").Id("Client").Values(jen.Id("rc").Op(":").Id("rc")), jen.Nil()),
	}
}

// ownServers reports whether every operation of p has a server of its own
// with an absolute URL: a client of a document without servers then needs
// no base URL.
func ownServers(p *model.Package) bool {
	n := 0
	for _, fn := range p.Functions {
		if fn.HTTP == nil {
			continue
		}
		if fn.HTTP.Server == nil || model.RelativeURL(fn.HTTP.Server.URL) {
			return false
		}
		n++
	}
	return n > 0
}

// emitNewClientRelative renders NewClient of a document whose (first)
// server is a relative URL (/api/v3, a Swagger 2.0 basePath without host):
// the client resolves it against the base URL given; given "", NewClient
// returns a *rest.RelativeServerError.
//
//	func NewClient(baseURL string, opts ...ClientOption) (*Client, error) {
//		rc := rest.NewClient(baseURL)
//		rc.SetServer("/api/v3")
//		…
//	}
func emitNewClientRelative(f *jen.File, api *model.API) {
	sv := api.Server
	if sv == nil {
		sv = &model.Server{URL: api.BaseURL}
	}
	example := model.ResolveRelative("https://api.example.com", api.BaseURL)
	doc := []string{"NewClient returns a client of the API at baseURL. The document's server,",
		strconv.Quote(sv.URL) + ", is a relative URL: it is resolved against baseURL",
		`(NewClient("https://api.example.com") calls ` + example + "), and",
		`so are the operations' relative servers. Given "", the client has no URL to`,
		"call: NewClient returns " + an("*rest.RelativeServerError") + " that says so. It returns",
		"the error of a base URL that is not an absolute URL, or of an option's value",
		"that cannot be used, too."}
	if len(api.Servers) > 0 {
		doc = append(doc, "WithServer chooses another of the document's servers.")
	}
	f.Add(commentLines(doc).Func().Id("NewClient").Params(newClientParams()...).Params(jen.Op("*").Id("Client"), jen.Error()).Block(
		append([]jen.Code{
			jen.Id("rc").Op(":=").Add(restQ("NewClient")).Call(jen.Id("baseURL")),
			jen.Id("rc").Dot("SetServer").Call(serverArgs(sv)...),
		}, newClientEnd(rc("Check").Call(), false)...)...,
	))
}

// commentLines renders prepared comment lines ("//" for a blank one).
func commentLines(lines []string) *jen.Statement {
	if len(lines) == 0 {
		return jen.Null()
	}
	clean := make([]string, len(lines))
	for i, l := range lines {
		if l != "//" {
			clean[i] = sanitizeLine(l)
		}
	}
	return commentBlock(clean).Line()
}
