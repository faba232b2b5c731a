// Package rest is what clients generated from OpenAPI documents build on: a
// REST client ([Client]) with credentials and request editors, parameter
// serialisation per OpenAPI style and explode ([Style]), request bodies,
// retries ([RetryPolicy]) with idempotency keys ([Request.Idempotency]), the
// pages of a list operation as one iterator ([Cursors], [Links],
// [PageNumbers], [Offsets]; bounded by [Gather] and [Take], never looping on
// a repeated cursor: [ErrPageRepeated], [MaxEmptyPages]), redirects that keep
// credentials with their origin ([runtime.RedirectPolicy]), streamed
// responses ([StreamResponse]: Server-Sent Events and NDJSON, reconnecting),
// and the errors of documented and undocumented responses ([APIError],
// [StatusError]). Generated code stays small: one builder call per
// parameter, r.Query("limit", args.Limit), with the [Style] values a
// parameter needs only where the document departs from OpenAPI's defaults
// (r.Query("ids", args.IDs, rest.NoExplode)), and one call that sends the
// request and reads the response as the document says ([Receive],
// [ReceiveResponse], [ReceiveBody], [Do], with the [APIErrors] of its error
// statuses), or, for responses of other shapes, a switch over the
// documented statuses; a Tool's list function ends in [GatherInto].
// OpenAPI 3.2's querystring parameter is [Request.QueryString], and any
// method the document gives an operation is sent as is, with its body. [WithStrictResponses] (off by default) checks
// every success response against the document with the generated decoder of
// its type ([DecodeChecked]): a violation is a 502 naming its JSON path.
//
// It uses the standard library and package runtime only.
package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// RequestEditor changes a request before it is sent (to add headers, sign it…).
// An error it returns aborts the call.
type RequestEditor func(ctx context.Context, req *http.Request) error

// Client sends the requests of a generated OpenAPI client. Configure it
// before the first call; it is then safe for concurrent use.
type Client struct {
	// BaseURL is prefixed to every operation's path ("https://api.example.com/v1").
	BaseURL string
	// HTTPClient sends the requests; nil means http.DefaultClient. It is not
	// changed: the client sends with a copy of it whose CheckRedirect keeps
	// the credentials from other origins (CrossOriginRedirect) and then
	// calls its own.
	HTTPClient *http.Client
	// CrossOriginRedirect says what a request redirected to another origin
	// (scheme, host, port) does: by default it is followed without the
	// request's credentials (API keys in headers, cookies or the query,
	// Authorization, the headers Editors set); RedirectRefuse fails the
	// call. See [RedirectPolicy].
	CrossOriginRedirect runtime.RedirectPolicy
	// ResponseHeaderTimeout bounds the wait for the headers of each answer
	// (each attempt, when retrying): connecting, sending the request and the
	// API's work until its answer starts. Reading the body is not bounded by
	// it: Timeout and the context bound that, and only the context a stream.
	// 0 means DefaultResponseHeaderTimeout (two minutes); a negative value
	// means no bound. It applies whatever HTTPClient sends the request.
	ResponseHeaderTimeout time.Duration
	// Editors run, in order, on every request before it is sent.
	Editors []RequestEditor
	// MaxResponseBytes bounds the size of a response body; 0 means
	// DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// Retry, when set, sends a request again after a failed connection, a
	// 429 or a 503, as it says; nil sends every request once.
	Retry *RetryPolicy
	// Reconnect, when set, opens a streamed text/event-stream response again
	// when its connection breaks, and the events go on in the same sequence:
	// the request is sent again with the header Last-Event-ID set to the
	// last id the stream gave (the API resumes after it, if it can). Only
	// requests the policy may send twice reconnect (as for Retry: GET, PUT,
	// DELETE… or a request with an idempotency header); never a stream that
	// ended (its body ended, or [DONE]), never after an error status other
	// than 429 and 503, which are waited for as Retry says (Retry-After
	// honoured); a 204 No Content ends the stream. After a break, at most
	// MaxAttempts−1 connections are tried before one gives an event; each
	// waits as Retry's attempts do, and never less than the stream's retry
	// field asked (one asking longer than MaxRetryAfter ends the stream with
	// the break's error), nor past the context's deadline. nil ends the
	// stream with the break's error. NDJSON streams do not reconnect: a line
	// has no id to resume after.
	Reconnect *RetryPolicy
	// Timeout bounds each call, retries and reading the response included;
	// a context with an earlier deadline shortens it. 0 means none.
	Timeout time.Duration
	// Interceptors run around each request ([runtime.Interceptor], the first
	// outermost), retries included, until the answer's headers arrive: they
	// see a [runtime.CallInfo] of [runtime.FrontREST] whose Function is
	// "METHOD /path/{template}", whose Args is the request body, whose Meta
	// is the request's headers (to which they may add) and whose HTTP tells
	// the method, the path template, the URL without its query and, after
	// next, the status. An answer of status 400 or more is not an error of
	// next: the interceptor reads HTTP.StatusCode. With a
	// [runtime.Propagator] set ([runtime.SetPropagator]) every request
	// carries the call context of its context (traceparent, tracestate),
	// interceptors or not. Without interceptors of its own, a request runs
	// those its context carries ([runtime.WithCallInterceptors]: a served
	// call's, in a server command that traces its calls).
	Interceptors []runtime.Interceptor
	// StrictResponses makes every success response's JSON body checked
	// against the document (WithStrictResponses, DecodeChecked); false
	// checks them only for calls whose context asks for it
	// (runtime.ContextWithStrictResponses).
	StrictResponses bool

	creds map[string]Credential

	// The server of the document, used when BaseURL is "" (SetServer).
	server         string
	serverDefaults []string          // name, value pairs
	serverVars     map[string]string // the values SetServerVariable set
	err            error             // a bad option's, returned by every call
}

// SetServer makes the client call the document's server: its URL template
// ("https://{region}.example.com/v1") with the variables' defaults given as
// name, value pairs, changed by SetServerVariable. It is used while BaseURL
// is "" (a generated NewClient calls it when it is given no base URL).
func (c *Client) SetServer(template string, defaults ...string) {
	c.server, c.serverDefaults = template, defaults
}

// SetServerVariable sets the variable name of the server's URL template to
// value. When enum is not empty, value must be one of it: otherwise every
// call of the client returns an error that says so (an option cannot return
// one). Operations with servers of their own that have a variable of that
// name use the value too.
func (c *Client) SetServerVariable(name, value string, enum ...string) {
	if len(enum) > 0 && !slices.Contains(enum, value) {
		q := make([]string, len(enum))
		for i, e := range enum {
			q[i] = strconv.Quote(e)
		}
		c.SetError(fmt.Errorf("server variable %s: %s is not one of %s", strconv.Quote(name), strconv.Quote(value), strings.Join(q, ", ")))
		return
	}
	if c.serverVars == nil {
		c.serverVars = map[string]string{}
	}
	c.serverVars[name] = value
}

// SetError makes every call of the client return err (the first error set
// is kept): an option given a value it cannot use says so this way, since
// it cannot return an error.
func (c *Client) SetError(err error) {
	if c.err == nil {
		c.err = err
	}
}

// expandServer substitutes the variables of a server URL template: the
// values the client set, else the defaults given as name, value pairs.
func (c *Client) expandServer(template string, defaults []string) string {
	var pairs []string
	for k, v := range c.serverVars {
		pairs = append(pairs, "{"+k+"}", v)
	}
	for i := 0; i+1 < len(defaults); i += 2 {
		if _, ok := c.serverVars[defaults[i]]; !ok {
			pairs = append(pairs, "{"+defaults[i]+"}", defaults[i+1])
		}
	}
	return strings.NewReplacer(pairs...).Replace(template)
}

// baseURL is what the request's path is appended to: BaseURL when set, else
// the operation's own server, else the client's (SetServer). A server whose
// URL is relative (no scheme: "/api/v3", Swagger 2.0's basePath without a
// host) is resolved as a URL reference against BaseURL ("http://host" and
// "/api/v3" make "http://host/api/v3"), or an operation's against the
// client's server when that is absolute; with nothing to resolve it
// against, the call fails with an error that says to give the base URL, as
// it does when there is neither a base URL nor a server.
func (r *Request) baseURL() (string, error) {
	c := r.c
	if c.err != nil {
		return "", c.err
	}
	server, defaults := c.server, c.serverDefaults
	if r.server != "" {
		server, defaults = r.server, r.serverDefaults
	}
	if server == "" {
		if c.BaseURL == "" {
			return "", errNoBaseURL
		}
		return c.BaseURL, nil
	}
	u := c.expandServer(server, defaults)
	switch {
	case absoluteURL(u) && c.BaseURL != "":
		return c.BaseURL, nil // a base URL given replaces the document's servers
	case absoluteURL(u):
		return u, nil
	case c.BaseURL != "":
		return resolveURL(c.BaseURL, u)
	case r.server != "" && c.server != "":
		if cu := c.expandServer(c.server, c.serverDefaults); absoluteURL(cu) {
			return resolveURL(cu, u)
		}
	}
	return "", &RelativeServerError{Server: u}
}

// errNoBaseURL is the error of a call of a client that has neither a base
// URL nor a server.
var errNoBaseURL = errors.New("rest: the client has no base URL and the document no server: give NewClient the API's base URL (\"https://host/path\")")

// RelativeServerError is the error of every call of a client whose server
// is a relative URL and that was given no base URL to resolve it against.
type RelativeServerError struct {
	Server string // the server's URL, its variables substituted
}

func (e *RelativeServerError) Error() string {
	return fmt.Sprintf("rest: the document's server %s is a relative URL: give NewClient the API's base URL to resolve it against (NewClient(\"https://host\") calls %s)",
		strconv.Quote(e.Server), strconv.Quote(mustResolve("https://host", e.Server)))
}

// absoluteURL reports whether u has a scheme ("https://…"), not a
// reference relative to another URL.
func absoluteURL(u string) bool {
	i := strings.Index(u, "://")
	return i > 0 && !strings.ContainsAny(u[:i], "/?#")
}

// resolveURL resolves the reference ref against base (RFC 3986).
func resolveURL(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("rest: base URL %s: %w", strconv.Quote(base), err)
	}
	rr, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("rest: server %s: %w", strconv.Quote(ref), err)
	}
	return b.ResolveReference(rr).String(), nil
}

// mustResolve is resolveURL, or ref when it does not parse.
func mustResolve(base, ref string) string {
	if u, err := resolveURL(base, ref); err == nil {
		return u
	}
	return ref
}

// String describes the client without its credentials: the schemes it has
// credentials for, never their values.
func (c Client) String() string {
	schemes := make([]string, 0, len(c.creds))
	for s := range c.creds {
		schemes = append(schemes, s)
	}
	sort.Strings(schemes)
	return fmt.Sprintf("Client(%s, credentials for %s)", c.BaseURL, strings.Join(schemes, ", "))
}

// GoString is String: %#v shows no credential either.
func (c Client) GoString() string { return "rest." + c.String() }

// Format writes String whatever the verb, so that no verb prints the fields.
func (c Client) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		io.WriteString(f, c.GoString())
		return
	}
	formatAs(f, verb, c.String())
}

// formatAs writes s for any verb: quoted for %q, as Go syntax for %#v.
func formatAs(f fmt.State, verb rune, s string) {
	if verb == 'q' {
		fmt.Fprintf(f, "%q", s)
		return
	}
	io.WriteString(f, s)
}

// NewClient returns a client of the API at baseURL.
func NewClient(baseURL string) *Client {
	return &Client{BaseURL: baseURL}
}

// NewRequest starts a request of an operation: its method and its path
// template ("/pets/{petId}"), relative to the base URL.
func (c *Client) NewRequest(method, path string) *Request {
	return &Request{c: c, method: method, path: path}
}

// Request is one request being built by a generated client method. Its
// methods record the first error, which Send returns.
type Request struct {
	c        *Client
	method   string
	path     string
	pathVals []string // name, value pairs
	query    Query
	// querystring is the query string QueryString set, encoded; the
	// parameters of query follow it.
	querystring string
	header      http.Header
	cookies     []string
	body        []byte
	bodyType    string
	// contentType overrides bodyType for a body that was sent.
	contentType string
	security    [][]string
	err         error
	// idempotency is the header of the request's idempotency key
	// (Idempotency), "" for none.
	idempotency string

	// The operation's own server (Server).
	server         string
	serverDefaults []string

	// The members of an object body, sent as JSON, form or multipart.
	fields    []bodyField
	form      *Query
	multipart *Multipart

	// secrets are the credential values the last round trip sent: an
	// error's body, as a tool answers it (WireBody), has them redacted.
	secrets []string
}

type bodyField struct {
	name string
	raw  json.RawMessage
}

func (r *Request) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// Path sets the path parameter name to v, serialised as styles say (Simple,
// Label, Matrix; Explode, NoExplode), simple and not exploded by default.
func (r *Request) Path(name string, v any, styles ...Style) {
	ser, err := pathPlace.serializationOf(name, styles)
	if err != nil {
		r.fail(err)
		return
	}
	pv, err := paramValueOf(v)
	if err != nil {
		r.fail(fmt.Errorf("path parameter %s: %w", strconv.Quote(name), err))
		return
	}
	r.pathVals = append(r.pathVals, name, serializePath(name, pv, ser))
}

// Query adds the query parameter name with value v, serialised as styles say
// (Form, SpaceDelimited, PipeDelimited, DeepObject; Explode, NoExplode,
// AllowReserved), form and exploded by default. A nil v (nil, or a nil
// pointer, slice or map) adds nothing, so that generated code passes an
// optional argument as it is.
func (r *Request) Query(name string, v any, styles ...Style) {
	if err := r.query.Add(name, v, styles...); err != nil {
		r.fail(err)
	}
}

// Header sets the header parameter name to v, style simple, not exploded
// unless styles has Explode. A nil v (nil, or a nil pointer, slice or map)
// sets nothing.
func (r *Request) Header(name string, v any, styles ...Style) {
	ser, err := headerPlace.serializationOf(name, styles)
	if err != nil {
		r.fail(err)
		return
	}
	pv, err := paramValueOf(v)
	if err != nil {
		r.fail(fmt.Errorf("header %s: %w", strconv.Quote(name), err))
		return
	}
	if pv.kind == pvNull {
		return
	}
	s := serializeSimple(pv, ser.explode, identity)
	if strings.ContainsAny(s, "\r\n\x00") {
		r.fail(fmt.Errorf("header %s: the value contains a line break or NUL", strconv.Quote(name)))
		return
	}
	if r.header == nil {
		r.header = http.Header{}
	}
	r.header[textproto.CanonicalMIMEHeaderKey(name)] = []string{s}
}

// Cookie adds the cookie parameter name with value v, style form, exploded
// unless styles has NoExplode. A nil v (nil, or a nil pointer, slice or
// map) adds nothing.
func (r *Request) Cookie(name string, v any, styles ...Style) {
	ser, err := cookiePlace.serializationOf(name, styles)
	if err != nil {
		r.fail(err)
		return
	}
	pv, err := paramValueOf(v)
	if err != nil {
		r.fail(fmt.Errorf("cookie %s: %w", strconv.Quote(name), err))
		return
	}
	if pv.kind == pvNull {
		return
	}
	n := escapeCookie(name)
	switch {
	case pv.kind == pvList && ser.explode:
		for _, it := range pv.list {
			r.cookies = append(r.cookies, n+"="+escapeCookie(it))
		}
	case pv.kind == pvObject && ser.explode:
		for _, kv := range pv.obj {
			r.cookies = append(r.cookies, escapeCookie(kv[0])+"="+escapeCookie(kv[1]))
		}
	default:
		r.cookies = append(r.cookies, n+"="+serializeSimple(pv, false, escapeCookie))
	}
}

// Security adds a set of security schemes the operation accepts together
// (one call per alternative, in the document's order). The request carries
// the credentials of the first set the client has every credential of; an
// empty set means the operation may be called without credentials.
func (r *Request) Security(schemes ...string) { r.security = append(r.security, schemes) }

// Server sets the operation's own server: its URL template with the
// variables' defaults as name, value pairs. It is used unless the client was
// given a base URL; a variable the client set (SetServerVariable) keeps the
// client's value.
func (r *Request) Server(template string, defaults ...string) {
	r.server, r.serverDefaults = template, defaults
}

// credentials returns the credentials the request carries, with the names
// of their schemes: the context's ([WithCredentials]), else the client's.
func (r *Request) credentials(ctx context.Context) ([]Credential, []string) {
	perCall, _ := ctx.Value(credentialsKey{}).(map[string]Credential)
	for _, set := range r.security {
		var creds []Credential
		for _, s := range set {
			cr, ok := perCall[s]
			if !ok || cr.secret == nil {
				cr, ok = r.c.creds[s]
			}
			if !ok || cr.secret == nil { // the zero Credential is none
				creds = nil
				break
			}
			creds = append(creds, cr)
		}
		if len(creds) == len(set) {
			return creds, set
		}
	}
	return nil, nil
}

// JSONBody sends v encoded as JSON.
func (r *Request) JSONBody(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		r.fail(fmt.Errorf("request body: %w", err))
		return
	}
	r.body, r.bodyType = b, "application/json"
}

// ContentType sets the media type of the body (a JSON type other than
// application/json, such as application/merge-patch+json).
func (r *Request) ContentType(ct string) { r.contentType = ct }

// RawBody sends b as is with the given content type.
func (r *Request) RawBody(b []byte, contentType string) {
	if b == nil {
		b = []byte{}
	}
	r.body, r.bodyType = b, contentType
}

// FormBody sends the fields of f as application/x-www-form-urlencoded.
func (r *Request) FormBody(f *Query) {
	if f.err != nil {
		r.fail(f.err)
		return
	}
	r.body, r.bodyType = []byte(f.Encode()), "application/x-www-form-urlencoded"
}

// MultipartBody sends the parts of m as multipart/form-data.
func (r *Request) MultipartBody(m *Multipart) {
	if m.err != nil {
		r.fail(m.err)
		return
	}
	if err := m.w.Close(); err != nil {
		r.fail(err)
		return
	}
	r.body, r.bodyType = m.buf.Bytes(), m.w.FormDataContentType()
}

// BodyField adds the member name with value v to the JSON object body.
func (r *Request) BodyField(name string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		r.fail(fmt.Errorf("request body member %s: %w", strconv.Quote(name), err))
		return
	}
	r.fields = append(r.fields, bodyField{name, b})
}

// FormField adds the field name with value v to the form body
// (application/x-www-form-urlencoded), serialised like a query parameter
// (form and exploded by default).
func (r *Request) FormField(name string, v any, styles ...Style) {
	if r.form == nil {
		r.form = NewForm()
	}
	if err := r.form.Add(name, v, styles...); err != nil {
		r.fail(err)
	}
}

// PartField adds a part named name with value v to the multipart body.
func (r *Request) PartField(name string, v any, contentType string) {
	if r.multipart == nil {
		r.multipart = NewMultipart()
	}
	r.multipart.Field(name, v, contentType)
}

// PartFile adds a file part named name to the multipart body.
func (r *Request) PartFile(name string, data []byte, contentType string) {
	if r.multipart == nil {
		r.multipart = NewMultipart()
	}
	r.multipart.File(name, name, data, contentType)
}

// ObjectBody sends the members added with BodyField as a JSON object; when
// none was added, it sends {} if required and no body otherwise.
func (r *Request) ObjectBody(required bool) {
	if len(r.fields) == 0 && !required {
		return
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range r.fields {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.name)
		b.Write(k)
		b.WriteByte(':')
		b.Write(f.raw)
	}
	b.WriteByte('}')
	r.body, r.bodyType = b.Bytes(), "application/json"
}

// FormFields sends the fields added with FormField as the body; when none was
// added, it sends an empty form if required and no body otherwise.
func (r *Request) FormFields(required bool) {
	if r.form == nil {
		if !required {
			return
		}
		r.form = NewForm()
	}
	r.FormBody(r.form)
}

// Parts sends the parts added with PartField and PartFile as the body; when
// none was added, it sends an empty multipart body if required and no body
// otherwise.
func (r *Request) Parts(required bool) {
	if r.multipart == nil {
		if !required {
			return
		}
		r.multipart = NewMultipart()
	}
	r.MultipartBody(r.multipart)
}

// URL returns the URL of the request (for tests and request editors), with
// the client's credentials.
func (r *Request) URL() (string, error) {
	creds, _ := r.credentials(context.Background())
	return r.url(creds)
}

func (r *Request) url(creds []Credential) (string, error) {
	if r.err != nil {
		return "", r.err
	}
	path := r.path
	// A path template may end in a fragment, which is never sent: documents
	// converted from AWS's tell apart the operations of one path so
	// ("/#Action=DescribeInstances", the action also being a query
	// parameter). The query goes before it, not into it.
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path = path[:i]
	}
	for i := 0; i+1 < len(r.pathVals); i += 2 {
		path = strings.ReplaceAll(path, "{"+r.pathVals[i]+"}", r.pathVals[i+1])
	}
	if i := strings.IndexByte(path, '{'); i >= 0 {
		if j := strings.IndexByte(path[i:], '}'); j > 0 {
			return "", fmt.Errorf("path parameter %s has no value", strconv.Quote(path[i+1:i+j]))
		}
	}
	base, err := r.baseURL()
	if err != nil {
		return "", err
	}
	u := strings.TrimRight(base, "/") + path
	q := r.query.Encode()
	if r.querystring != "" {
		if q != "" {
			q = r.querystring + "&" + q
		} else {
			q = r.querystring
		}
	}
	for _, cr := range creds {
		if cr.kind == "apiKey" && cr.in == "query" {
			if q != "" {
				q += "&"
			}
			q += escapeQuery(cr.name, false) + "=" + escapeQuery(cr.value, false)
		}
	}
	if q != "" {
		if strings.Contains(u, "?") {
			u += "&" + q
		} else {
			u += "?" + q
		}
	}
	return u, nil
}

// Send sends the request and reads the response, again as the client's
// RetryPolicy says, within the client's Timeout.
func (r *Request) Send(ctx context.Context) (*Response, error) {
	if r.c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.c.Timeout)
		defer cancel()
	}
	resp, err := r.roundTrip(ctx, "application/json")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out, err := r.readResponse(resp)
	if out != nil {
		out.strict = r.c.StrictResponses || runtime.StrictResponses(ctx)
	}
	if err == nil {
		notePage(ctx, out)
	}
	return out, err
}

// readResponse reads the whole body of resp, within the client's
// MaxResponseBytes.
func (r *Request) readResponse(resp *http.Response) (*Response, error) {
	limit := r.c.maxResponseBytes()
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the response: %w", r.method, r.path, redactURLError(err))
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s %s: response larger than %d bytes", r.method, r.path, limit)
	}
	return &Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: data, method: r.method, path: r.path, secrets: r.secrets}, nil
}

func (c *Client) maxResponseBytes() int64 {
	if c.MaxResponseBytes <= 0 {
		return runtime.DefaultMaxResponseBytes
	}
	return c.MaxResponseBytes
}

// roundTrip sends the request (again as the client's RetryPolicy says) and
// returns the response with its body unread. accept is the Accept header
// sent unless the request sets one.
func (r *Request) roundTrip(ctx context.Context, accept string) (*http.Response, error) {
	creds, schemes := r.credentials(ctx)
	u, err := r.url(creds)
	if err == nil {
		u, err = pageURL(ctx, u, creds)
	}
	if err != nil {
		return nil, err
	}
	ctx = r.withIdempotency(ctx)
	body := func() io.Reader {
		if r.body == nil {
			return nil
		}
		return bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u, body())
	if err != nil {
		return nil, redactURLError(err)
	}
	for k, v := range r.header {
		req.Header[k] = v
	}
	r.setIdempotencyKey(req)
	switch {
	case r.body != nil && r.contentType != "":
		req.Header.Set("Content-Type", r.contentType)
	case r.bodyType != "":
		req.Header.Set("Content-Type", r.bodyType)
	}
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", accept)
	}
	cookies := r.cookies
	r.secrets = nil // a new slice: a Response of an earlier round trip keeps its own
	for i, cr := range creds {
		switch {
		case cr.kind == "bearer":
			req.Header.Set("Authorization", "Bearer "+cr.value)
			r.secrets = append(r.secrets, cr.value)
		case cr.kind == "token":
			tok, err := cr.token(ctx)
			if err != nil {
				return nil, fmt.Errorf("%s %s: the token of security scheme %s: %w", r.method, r.path, strconv.Quote(schemes[i]), err)
			}
			req.Header.Set("Authorization", "Bearer "+tok)
			r.secrets = append(r.secrets, tok)
		case cr.kind == "basic":
			req.SetBasicAuth(cr.name, cr.value)
			r.secrets = append(r.secrets, cr.value, strings.TrimPrefix(req.Header.Get("Authorization"), "Basic "))
		case cr.in == "header":
			req.Header.Set(cr.name, cr.value)
			r.secrets = append(r.secrets, cr.value)
		case cr.in == "cookie":
			cookies = append(cookies, escapeCookie(cr.name)+"="+escapeCookie(cr.value))
			r.secrets = append(r.secrets, cr.value)
		default: // the query (url)
			r.secrets = append(r.secrets, cr.value)
		}
	}
	if len(cookies) > 0 {
		req.Header.Set("Cookie", strings.Join(cookies, "; "))
	}
	// What a redirect to another origin must not carry: the headers of API
	// keys, the query values of API keys, and what the editors set.
	guard := redirectGuard(r.c.CrossOriginRedirect)
	for _, cr := range creds {
		switch {
		case cr.kind == "apiKey" && cr.in == "header":
			guard.Headers = append(guard.Headers, textproto.CanonicalMIMEHeaderKey(cr.name))
		case cr.kind == "apiKey" && cr.in == "query":
			guard.QueryValues = append(guard.QueryValues, cr.value)
		}
	}
	if len(r.c.Editors) > 0 {
		before := req.Header.Clone()
		for _, ed := range r.c.Editors {
			if err := ed(ctx, req); err != nil {
				return nil, err
			}
		}
		for k, v := range req.Header {
			if !slices.Equal(before[k], v) {
				guard.Headers = append(guard.Headers, k)
			}
		}
	}
	hc := r.c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	hc = guard.Client(hc)
	send := func(ctx context.Context, req *http.Request) (*http.Response, error) {
		runtime.InjectMetadata(ctx, runtime.HeaderMetadata(req.Header))
		resp, err := r.c.Retry.do(ctx, func(req *http.Request) (*http.Response, error) { return r.c.sendOnce(hc, req) }, req, body)
		if err != nil {
			return nil, redactURLError(err)
		}
		return resp, nil
	}
	ics := r.c.Interceptors
	if len(ics) == 0 {
		ics = runtime.CallInterceptors(ctx) // those of the call a server serves, if any
	}
	if len(ics) == 0 {
		return send(ctx, req)
	}
	return r.intercepted(ctx, req, ics, send)
}

// intercepted sends req through the interceptors ics.
func (r *Request) intercepted(ctx context.Context, req *http.Request, ics []runtime.Interceptor, send func(context.Context, *http.Request) (*http.Response, error)) (*http.Response, error) {
	u := *req.URL
	u.RawQuery, u.User = "", nil
	hc := &runtime.HTTPCall{Method: r.method, Template: r.path, URL: u.String()}
	call := &runtime.CallInfo{Function: operationName(r.method, r.path), Args: r.body, Front: runtime.FrontREST,
		Meta: runtime.HeaderMetadata(req.Header), HTTP: hc}
	var resp *http.Response
	err := runtime.RunInterceptors(ctx, ics, call, func(ctx context.Context) error {
		var err error
		resp, err = send(ctx, req.WithContext(ctx))
		if resp != nil {
			hc.StatusCode = resp.StatusCode
		}
		return err
	})
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		return nil, err
	}
	return resp, nil
}

// operations holds the names of operations ("GET /pets/{petId}") made for
// interceptors, up to maxOperations: a traced call does not build its
// span's name again.
var (
	operations  sync.Map // [2]string{method, path} → string
	nOperations atomic.Int64
)

const maxOperations = 4096

// operationName returns method + " " + path, made once for the first
// maxOperations operations.
func operationName(method, path string) string {
	k := [2]string{method, path}
	if v, ok := operations.Load(k); ok {
		return v.(string)
	}
	name := method + " " + path
	if nOperations.Load() < maxOperations {
		if _, loaded := operations.LoadOrStore(k, name); !loaded {
			nOperations.Add(1)
		}
	}
	return name
}

// redactURLError removes the query (which may carry API keys) from the URL of
// a *url.Error.
func redactURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if i := strings.IndexAny(ue.URL, "?#"); i >= 0 {
			ue.URL = ue.URL[:i]
		}
	}
	return err
}

// Response is a response read by [Request.Send].
type Response struct {
	StatusCode   int
	Header       http.Header
	Body         []byte
	method, path string
	strict       bool     // DecodeChecked checks the body
	secrets      []string // the credential values the request sent
}

// Is reports whether the status matches a documented status: "200", "2XX"
// (any 2xx), "default" (anything).
func (r *Response) Is(status string) bool {
	switch {
	case status == "default":
		return true
	case len(status) == 3 && (status[1] == 'X' || status[1] == 'x'):
		return r.StatusCode/100 == int(status[0]-'0')
	}
	n, err := strconv.Atoi(status)
	return err == nil && n == r.StatusCode
}

// Success reports whether the status is 2xx.
func (r *Response) Success() bool { return r.StatusCode >= 200 && r.StatusCode < 300 }

// Decode decodes the JSON body into v; an empty body leaves v alone.
func (r *Response) Decode(v any) error {
	if len(bytes.TrimSpace(r.Body)) == 0 {
		return nil
	}
	if err := json.Unmarshal(r.Body, v); err != nil {
		// The API answered what its document does not say: a bad gateway for
		// the tool's caller, not a fault of the call's arguments (a decoder's
		// invalid-params error must not reach the caller as one).
		return &runtime.Error{Code: http.StatusBadGateway, Message: fmt.Sprintf("%s %s: HTTP %d: the response does not match the document: %v", r.method, r.path, r.StatusCode, err)}
	}
	return nil
}

// HeaderValue reads the header name of the response into dst: a *string,
// *int64, *float64 or *bool, or a pointer to a pointer of one of them, which
// stays nil when the header is absent (a plain value then keeps its zero
// value). A value that is not of the type is an error, as a body that does
// not match the document is.
func (r *Response) HeaderValue(name string, dst any) error {
	vals, ok := r.Header[textproto.CanonicalMIMEHeaderKey(name)]
	if !ok || len(vals) == 0 {
		return nil
	}
	v := strings.TrimSpace(vals[0])
	bad := func(want string) error {
		return &runtime.Error{Code: http.StatusBadGateway, Message: fmt.Sprintf("%s %s: HTTP %d: the response's header %s is %s, not %s as the document says", r.method, r.path, r.StatusCode, name, strconv.Quote(clip(v, 64)), want)}
	}
	switch d := dst.(type) {
	case *string:
		*d = v
	case **string:
		*d = &v
	case *int64, **int64:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return bad("an integer")
		}
		if p, ok := d.(**int64); ok {
			*p = &n
		} else {
			*d.(*int64) = n
		}
	case *float64, **float64:
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return bad("a number")
		}
		if p, ok := d.(**float64); ok {
			*p = &n
		} else {
			*d.(*float64) = n
		}
	case *bool, **bool:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return bad("a boolean")
		}
		if p, ok := d.(**bool); ok {
			*p = &b
		} else {
			*d.(*bool) = b
		}
	default:
		return fmt.Errorf("header %s: cannot read into %T", strconv.Quote(name), dst)
	}
	return nil
}

// clip shortens s to at most n bytes for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Unexpected returns the error of an undocumented response.
func (r *Response) Unexpected() error {
	return &StatusError{StatusCode: r.StatusCode, Header: r.Header, Body: r.Body, Operation: r.method + " " + r.path, secrets: r.secrets}
}

// APIError is a documented error response: its status and its body decoded
// as the document says (Body), next to the raw body. Match it with errors.As:
//
//	var e *rest.APIError[petstore.Error]
//	if errors.As(err, &e) { … e.StatusCode, e.Body.Message … }
type APIError[T any] struct {
	StatusCode int
	Header     http.Header
	Body       T
	Raw        []byte
	// Operation is the method and path template ("GET /pets/{petId}").
	Operation string
	// DecodeErr is set when the body did not decode as T.
	DecodeErr error

	secrets []string // the credential values the request sent
}

func (e *APIError[T]) Error() string {
	return restErrorText(e.Operation, e.StatusCode, e.Raw)
}

// HTTPStatus returns the status code.
func (e *APIError[T]) HTTPStatus() int { return e.StatusCode }

// RawBody returns the body as received.
func (e *APIError[T]) RawBody() []byte { return e.Raw }

// WireBody returns the body as a tool answers it (runtime.ToolError): the
// credential values the request sent, wherever the API echoed them, read
// "[redacted]".
func (e *APIError[T]) WireBody() []byte { return redactSecrets(e.Raw, e.secrets) }

// NewAPIError returns the *APIError[T] of a documented error response.
func NewAPIError[T any](r *Response) error {
	e := &APIError[T]{StatusCode: r.StatusCode, Header: r.Header, Raw: r.Body, Operation: r.method + " " + r.path, secrets: r.secrets}
	if len(bytes.TrimSpace(r.Body)) > 0 {
		e.DecodeErr = json.Unmarshal(r.Body, &e.Body)
	}
	return e
}

// StatusError is a response whose status the document does not describe
// (or describes without a body): its status and raw body.
type StatusError struct {
	StatusCode int
	Header     http.Header
	Body       []byte
	Operation  string

	secrets []string // the credential values the request sent
}

func (e *StatusError) Error() string { return restErrorText(e.Operation, e.StatusCode, e.Body) }

// HTTPStatus returns the status code.
func (e *StatusError) HTTPStatus() int { return e.StatusCode }

// RawBody returns the body as received.
func (e *StatusError) RawBody() []byte { return e.Body }

// WireBody returns the body as a tool answers it (runtime.ToolError): the
// credential values the request sent, wherever the API echoed them, read
// "[redacted]".
func (e *StatusError) WireBody() []byte { return redactSecrets(e.Body, e.secrets) }

// redactSecrets returns body with each of secrets (those of 4 bytes or
// more: a shorter one would match by chance) replaced by "[redacted]";
// body itself when none occurs.
func redactSecrets(body []byte, secrets []string) []byte {
	out := body
	for _, s := range secrets {
		if len(s) < 4 || !bytes.Contains(out, []byte(s)) {
			continue
		}
		out = bytes.ReplaceAll(out, []byte(s), []byte("[redacted]"))
	}
	return out
}

func restErrorText(op string, status int, body []byte) string {
	var b strings.Builder
	if op != "" && op != " " {
		b.WriteString(op)
		b.WriteString(": ")
	}
	b.WriteString("HTTP ")
	b.WriteString(strconv.Itoa(status))
	if t := http.StatusText(status); t != "" {
		b.WriteString(" ")
		b.WriteString(t)
	}
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(body), "\uFFFD")), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	if s != "" {
		b.WriteString(": ")
		b.WriteString(s)
	}
	return b.String()
}
