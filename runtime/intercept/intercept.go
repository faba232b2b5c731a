// Package intercept is what interceptors see of a call and what the fronts
// carry for them: the [Call], the [Metadata] of a call and its [Propagator],
// the incoming and outgoing metadata of a context, and the interceptors a
// context gives the calls made with it. Package runtime runs them around
// the calls its server, client and Local serve and make (runtime.Intercept,
// runtime.InterceptCaller, runtime.WithInterceptors).
package intercept

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
)

// Func runs around a call, on the side that serves it or on the side
// that makes it: it sees the call (function, arguments, metadata) before
// calling next, and its outcome after: the error next returns and, for a
// call that is not a stream, call.Result. An interceptor may change ctx for
// what follows (a span), may add to call.Meta on the calling side (what
// the call carries: headers, MCP _meta, NATS headers), and may return
// without calling next (a call refused) or return another error. It must
// call next at most once, and must not keep call after it returns.
//
// Interceptors are given as a list: the first is the outermost, as with
// connect-go's and gRPC's chains. The same Func serves both sides
// ([Call.Server] tells them apart).
type Func func(ctx context.Context, call *Call, next func(ctx context.Context) error) error

// The fronts and transports of this module, as [Call.Front] names
// them; other fronts (natsbridge) name themselves.
const (
	FrontOpenTool = "opentool" // OpenTool HTTP: /call and /streamCall
	FrontMCP      = "mcp"      // MCP, through mcpbridge
	FrontLocal    = "local"    // in process: runtime.Local
	FrontREST     = "rest"     // an OpenAPI REST API, through runtime/rest
)

// Call is what a [Func] sees of a call.
type Call struct {
	// Function is the function called; for a REST call, the operation as
	// "METHOD /path/{template}".
	Function string
	// Args is the JSON object of the arguments (nil for none; for a REST
	// call, the request body, if any). It must not be modified.
	Args json.RawMessage
	// Stream is true for a streaming call.
	Stream bool
	// Server is true on the serving side, false on the calling side.
	Server bool
	// Front is the front or transport that carries the call: [FrontOpenTool],
	// [FrontMCP], [FrontLocal], [FrontREST], or another front's own name;
	// "" when the Caller does not say. runtime.InterceptCaller asks a Caller of
	// another package, and the Tool of a runtime.Local, for a method
	// Front() string.
	Front string
	// Meta is the metadata the call carries: on the serving side, what the
	// front received (HTTP headers, MCP _meta, …; empty when the front has
	// none, and then Set does nothing); on the calling side, what the transport will send with the
	// call, to which an interceptor may add.
	Meta Metadata
	// Result is the result object of a call that returned without error,
	// set when next returns (nil for a stream).
	Result json.RawMessage
	// Items counts the items of a stream, set when next returns.
	Items int
	// HTTP describes a REST call (nil for the others).
	HTTP *HTTPCall
	// RequestID is the id of the JSON-RPC request that carried a served
	// call, as text (a string id's value, a number's digits), when the
	// front knows it (OpenTool HTTP); Session is the session the call
	// came in (an MCP session's id), Destination where it was addressed
	// (a NATS subject; on the caller's side too, when the Caller has a
	// Destination(function string) string method, as natsbridge's has).
	// Each is "" when the front does not say.
	RequestID, Session, Destination string
}

// HTTPCall is what a [Call] of a REST call ([FrontREST]) tells of its
// HTTP request.
type HTTPCall struct {
	Method   string // GET, POST, …
	Template string // the operation's path template: "/pets/{petId}"
	URL      string // the URL requested, without its query (which may carry keys)
	// StatusCode is the status of the answer, set when next returns (0 when
	// no answer came).
	StatusCode int
}

// Metadata is the metadata a call carries, keyed by name: HTTP headers, MCP
// _meta members, NATS headers. Its methods are those of OpenTelemetry's
// propagation.TextMapCarrier, so that a propagator reads and writes it as
// it is. Keys of HTTP headers match case-insensitively.
type Metadata interface {
	// Get returns the value of key, "" when there is none.
	Get(key string) string
	// Set sets the value of key.
	Set(key, value string)
	// Keys returns the keys present.
	Keys() []string
}

// HeaderMetadata is the [Metadata] of HTTP headers.
type HeaderMetadata http.Header

// Get implements [Metadata]. A key a propagator names in lower case
// ("traceparent") is canonicalised without allocating; those of W3C trace
// context, which a propagator reads for every call, are known already.
func (h HeaderMetadata) Get(key string) string {
	switch key {
	case "traceparent":
		return first(h["Traceparent"])
	case "tracestate":
		return first(h["Tracestate"])
	}
	var buf [64]byte
	if len(key) > len(buf) {
		return http.Header(h).Get(key)
	}
	b := buf[:len(key)]
	upper := true
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case !isTokenByte(c):
			return http.Header(h).Get(key) // not a token: http.Header's rules
		case upper && 'a' <= c && c <= 'z':
			c -= 'a' - 'A'
		case !upper && 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		b[i] = c
		upper = c == '-'
	}
	return first(h[string(b)]) // no allocation: a map index by string(bytes)
}

// first is the first of values, "" when there is none.
func first(values []string) string {
	if len(values) > 0 {
		return values[0]
	}
	return ""
}

// isTokenByte reports whether c may be in a header's name (RFC 9110 tchar).
func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// Set implements [Metadata].
// The keys of W3C trace context and baggage, as a propagator sets them,
// are given their canonical names without making them again.
func (h HeaderMetadata) Set(key, value string) {
	switch key {
	case "traceparent":
		key = "Traceparent"
	case "tracestate":
		key = "Tracestate"
	case "baggage":
		key = "Baggage"
	default:
		http.Header(h).Set(key, value)
		return
	}
	h[key] = []string{value}
}

// Keys implements [Metadata].
func (h HeaderMetadata) Keys() []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	return keys
}

// MapMetadata is a [Metadata] of its own: string values by exact key.
type MapMetadata map[string]string

// Get implements [Metadata].
func (m MapMetadata) Get(key string) string { return m[key] }

// Set implements [Metadata].
func (m MapMetadata) Set(key, value string) { m[key] = value }

// Keys implements [Metadata].
func (m MapMetadata) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// noMetadata is the Metadata of a call that carries none: empty, and Set
// does nothing (there is nothing to send it with).
type noMetadata struct{}

func (noMetadata) Get(string) string  { return "" }
func (noMetadata) Set(string, string) {}
func (noMetadata) Keys() []string     { return nil }

// localFront is what runtime.Local tells interceptors of a call without
// metadata.
var localFront = &incoming{front: FrontLocal, md: noMetadata{}}

// WithLocal returns ctx telling interceptors that its calls are made in
// process ([FrontLocal]) without metadata: what runtime.Local does for a
// call whose context has no outgoing metadata.
func WithLocal(ctx context.Context) context.Context {
	return context.WithValue(ctx, incomingKey{}, localFront)
}

// Propagator carries a call's context (W3C trace context: traceparent and
// tracestate) across a front: Inject writes what ctx holds into the
// metadata of an outgoing call, Extract reads the metadata of an incoming
// call into the context its handler gets. Its methods are those of
// OpenTelemetry's propagation.TextMapPropagator that the fronts need;
// otelbridge installs one with [SetPropagator].
type Propagator interface {
	Inject(ctx context.Context, md Metadata)
	Extract(ctx context.Context, md Metadata) context.Context
}

type propagatorBox struct{ p Propagator }

var propagator atomic.Pointer[propagatorBox]

// SetPropagator sets the [Propagator] every front and transport of this
// module uses (nil: none, the default): the OpenTool server and *Client
// (traceparent/tracestate headers), the REST client (headers), mcpbridge
// (_meta.traceparent, _meta.tracestate, both ways), and the fronts of other
// packages that call [InjectMetadata] and [ExtractMetadata]. Without one,
// nothing is read or written, at no cost.
func SetPropagator(p Propagator) {
	if p == nil {
		propagator.Store(nil)
		return
	}
	propagator.Store(&propagatorBox{p})
}

// InjectMetadata writes the call context of ctx into md with the
// [Propagator] set, if any: what a transport does to an outgoing call.
func InjectMetadata(ctx context.Context, md Metadata) {
	if b := propagator.Load(); b != nil {
		b.p.Inject(ctx, md)
	}
}

// ExtractMetadata returns ctx with the call context md carries, read by
// the [Propagator] set (ctx itself when none is set): what a front does to
// an incoming call.
func ExtractMetadata(ctx context.Context, md Metadata) context.Context {
	if b := propagator.Load(); b != nil {
		return b.p.Extract(ctx, md)
	}
	return ctx
}

// Propagating reports whether a [Propagator] is set: a front or transport
// that would make metadata only for it asks first.
func Propagating() bool { return propagator.Load() != nil }

type incomingKey struct{}

type incoming struct {
	front string
	md    Metadata
	// what else the front knows of the call (Call's)
	id, session, destination string
}

// Incoming is what a front that received a call tells its interceptors
// ([WithIncoming]): they see it in [Call].
type Incoming struct {
	Front string   // Call.Front
	Meta  Metadata // Call.Meta
	// Call.RequestID, Session and Destination.
	RequestID, Session, Destination string
}

// WithIncoming is [WithIncomingMetadata] with the rest of what a front
// knows of a call: its request id, session and destination.
func WithIncoming(ctx context.Context, in Incoming) context.Context {
	return &incomingContext{Context: ctx, in: incoming{in.Front, in.Meta, in.RequestID, in.Session, in.Destination}}
}

// WithIncomingMetadata returns ctx carrying the metadata of a call a front
// received, for the interceptors of runtime.Intercept (which see it as
// [Call.Meta] with [Call.Front] front). A front of another package
// (NATS) calls it before it calls a tool that has interceptors (a Tool of
// runtime.Intercept has a method Interceptors() []Func); it also calls
// [ExtractMetadata], interceptors or not.
func WithIncomingMetadata(ctx context.Context, front string, md Metadata) context.Context {
	return &incomingContext{Context: ctx, in: incoming{front: front, md: md}}
}

// incomingContext is context.WithValue(ctx, incomingKey{}, &in) in one
// allocation instead of two.
type incomingContext struct {
	context.Context
	in incoming
	// call, when not nil, is the Call of the call a front makes with
	// the context at once (withServedCall): the first intercepted tool
	// called with it takes it (taken, [ServedCall]) instead of making one.
	call  *Call
	taken atomic.Bool
}

// servedCall is the context of [WithIncomingMetadata] and the Call of
// the call made with it, in one allocation instead of two.
type servedCall struct {
	incomingContext
	info Call
}

// WithServedCall is WithIncomingMetadata for a front that calls an
// intercepted tool with the context it returns, and with nothing else
// before: the tool takes its Call from the context.
func WithServedCall(ctx context.Context, front string, md Metadata, id string) context.Context {
	s := &servedCall{incomingContext: incomingContext{Context: ctx, in: incoming{front: front, md: md, id: id}}}
	s.call = &s.info
	return &s.incomingContext
}

func (c *incomingContext) Value(key any) any {
	if _, ok := key.(incomingKey); ok {
		return &c.in
	}
	return c.Context.Value(key)
}

// IncomingMetadata returns the metadata and the front [WithIncomingMetadata]
// put on ctx (nil and "" when none did).
func IncomingMetadata(ctx context.Context) (md Metadata, front string) {
	if in, _ := ctx.Value(incomingKey{}).(*incoming); in != nil {
		return in.md, in.front
	}
	return nil, ""
}

type outgoingKey struct{}

// WithOutgoingMetadata returns ctx carrying metadata for the calls made
// with it: the *Client sends it as headers, mcpbridge as _meta, and other
// transports as they can (runtime.Local gives it to the tool as incoming
// metadata). runtime.InterceptCaller does it with the metadata its interceptors set.
// Metadata is not treated as a credential: a *Client keeps it on a redirect
// to another origin (use runtime.WithHeader or runtime.WithAPIKey for secrets).
func WithOutgoingMetadata(ctx context.Context, md Metadata) context.Context {
	return context.WithValue(ctx, outgoingKey{}, md)
}

// OutgoingMetadata returns the metadata [WithOutgoingMetadata] put on ctx,
// nil when none.
func OutgoingMetadata(ctx context.Context) Metadata {
	md, _ := ctx.Value(outgoingKey{}).(Metadata)
	return md
}

// Run runs call through ics around next, the first
// interceptor outermost; with no interceptors it is next(ctx). A front or
// transport of another package calls it to offer the same interceptors as
// this package's.
func Run(ctx context.Context, ics []Func, call *Call, next func(ctx context.Context) error) error {
	if len(ics) == 0 {
		return next(ctx)
	}
	return runFrom(ctx, ics, 0, call, next)
}

func runFrom(ctx context.Context, ics []Func, i int, call *Call, next func(ctx context.Context) error) error {
	switch i {
	case len(ics):
		return next(ctx)
	case len(ics) - 1: // the innermost calls next itself
		return ics[i](ctx, call, next)
	}
	return ics[i](ctx, call, func(ctx context.Context) error { return runFrom(ctx, ics, i+1, call, next) })
}

type callInterceptorsKey struct{}

// callInterceptorsUsed is set once a context carries call interceptors:
// until then, CallInterceptors does not look.
var callInterceptorsUsed atomic.Bool

// WithCallInterceptors returns ctx with ics run around each call made with
// it (or a context made of it) by a generated package's typed client
// (runtime.Invoke, runtime.InvokeStream: over any Caller) and by a rest.Client, unless
// the Caller or the REST client runs interceptors of its own
// (runtime.InterceptCaller, rest.Client.Interceptors): what a server that traces
// the calls it serves gives each of them (toolcli does, with
// otelbridge.Interceptor), so that the calls a tool makes while it serves
// one are traced as the tool's own, whatever client the tool built. ics
// must not be modified afterwards.
func WithCallInterceptors(ctx context.Context, ics ...Func) context.Context {
	if len(ics) == 0 {
		return ctx
	}
	callInterceptorsUsed.Store(true)
	return &callInterceptorsContext{Context: ctx, ics: ics}
}

// callInterceptorsContext is context.WithValue(ctx, callInterceptorsKey{},
// ics) in one allocation instead of two (the slice would be boxed).
type callInterceptorsContext struct {
	context.Context
	ics []Func
}

func (c *callInterceptorsContext) Value(key any) any {
	if _, ok := key.(callInterceptorsKey); ok {
		return c
	}
	return c.Context.Value(key)
}

// CallInterceptors returns the interceptors [WithCallInterceptors] put on
// ctx, nil when none: what a transport of another package runs around a
// call it makes when it has no interceptors of its own.
func CallInterceptors(ctx context.Context) []Func {
	if !callInterceptorsUsed.Load() {
		return nil
	}
	if c, _ := ctx.Value(callInterceptorsKey{}).(*callInterceptorsContext); c != nil {
		return c.ics
	}
	return nil
}

// ServedCall returns the Call the serving side's interceptors see of a
// call of name with args made with ctx: the one [WithServedCall] put on ctx,
// for the first call that asks, or a new one with the front's metadata
// ([WithIncoming]).
func ServedCall(ctx context.Context, name string, args json.RawMessage, stream bool) *Call {
	if c, ok := ctx.(*incomingContext); ok && c.call != nil && c.taken.CompareAndSwap(false, true) {
		md := c.in.md
		if md == nil {
			md = noMetadata{}
		}
		*c.call = Call{Function: name, Args: args, Stream: stream, Server: true, Front: c.in.front, Meta: md,
			RequestID: c.in.id, Session: c.in.session, Destination: c.in.destination}
		return c.call
	}
	call := &Call{Function: name, Args: args, Stream: stream, Server: true}
	if in, _ := ctx.Value(incomingKey{}).(*incoming); in != nil {
		call.Front, call.Meta = in.front, in.md
		call.RequestID, call.Session, call.Destination = in.id, in.session, in.destination
	}
	if call.Meta == nil {
		call.Meta = noMetadata{}
	}
	return call
}
