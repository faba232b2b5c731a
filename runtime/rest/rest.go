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
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
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
	// Interceptors run around each request ([intercept.Func], the first
	// outermost), retries included, until the answer's headers arrive: they
	// see a [intercept.Call] of [intercept.FrontREST] whose Function is
	// "METHOD /path/{template}", whose Args is the request body, whose Meta
	// is the request's headers (to which they may add) and whose HTTP tells
	// the method, the path template, the URL without its query and, after
	// next, the status. An answer of status 400 or more is not an error of
	// next: the interceptor reads HTTP.StatusCode. With a
	// [intercept.Propagator] set ([intercept.SetPropagator]) every request
	// carries the call context of its context (traceparent, tracestate),
	// interceptors or not. Without interceptors of its own, a request runs
	// those its context carries ([intercept.WithCallInterceptors]: a served
	// call's, in a server command that traces its calls).
	Interceptors []intercept.Func
	// StrictResponses makes every success response's JSON body checked
	// against the document (WithStrictResponses, DecodeChecked); false
	// checks them only for calls whose context asks for it
	// (toolopt.ContextWithStrictResponses).
	StrictResponses bool

	creds map[string]Credential

	// The server of the document, used when BaseURL is "" (SetServer).
	server         string
	serverDefaults []string          // name, value pairs
	serverVars     map[string]string // the values SetServerVariable set
	err            error             // a bad option's, returned by every call
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
