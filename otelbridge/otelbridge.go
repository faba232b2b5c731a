// Package otelbridge connects the calls of opentoolgen's runtime to
// OpenTelemetry (go.opentelemetry.io/otel): [Interceptor] is a
// [intercept.Func] that makes a span per call and records metrics, on
// the serving side and the calling side alike, and [Propagator] is the
// [intercept.Propagator] of W3C trace context, which [Install] sets so that
// every front and transport carries traceparent and tracestate: headers over
// OpenTool HTTP and REST, _meta.traceparent and _meta.tracestate over MCP,
// headers over NATS.
//
// A tool server traced end to end:
//
//	otelbridge.Install()                    // W3C trace context on every front
//	trace := otelbridge.Interceptor()       // spans and metrics
//	runtime.Serve(ctx, addr, tool, runtime.WithInterceptors(trace))
//	client := weather.NewClient(runtime.InterceptCaller(runtime.NewClient(url), trace))
//	api.Interceptors = append(api.Interceptors, trace) // a *rest.Client
//
// # Spans
//
// The conventions are those of semconv v1.43.0 (go.opentelemetry.io/otel/semconv/v1.43.0).
// A call is a span named after its function, of kind Server on the serving
// side and Client on the calling side, with:
//
//   - rpc.system.name: "jsonrpc" over OpenTool HTTP (JSON-RPC 2.0),
//     "opentool" over the other fronts (runtime.Local, NATS);
//   - rpc.method: the function;
//   - jsonrpc.request.id, serving over OpenTool HTTP: the request's id;
//   - over NATS, messaging.system "nats", messaging.operation.type
//     ("process" serving, "send" calling) and, serving,
//     messaging.destination.name (the subject);
//   - opentool.front: the front or transport (intercept.Call.Front);
//   - opentool.stream.items, for a streaming call: the items it carried;
//   - on failure: status Error, and error.type and rpc.response.status_code
//     the code the error has on the wire: a *runtime.Error's ("-32602",
//     "404", the tool's own; "500" when it has none), "500" for any other
//     error a tool returns (every front answers it with 500), "canceled" or
//     "deadline_exceeded" when the context ended. An error the calling side
//     made of its own (a *runtime.Error of class noAccess, responseNull,
//     errorNull or unauthorized) has its class as error.type; a calling
//     side's error that is not a *runtime.Error is error.type "_OTHER",
//     without rpc.response.status_code. No Go type name is recorded.
//
// A call over MCP follows MCP's conventions instead: a span named
// "tools/call NAME" with mcp.method.name "tools/call", gen_ai.tool.name
// the function, gen_ai.operation.name "execute_tool", opentool.front and,
// in a stateful session, mcp.session.id; the error attributes as above.
//
// A REST call (a *rest.Client's Interceptors) is an HTTP client span named
// "METHOD /path/{template}", with http.request.method, url.template,
// url.full (without its query, which may carry keys, and with each path
// parameter written as its template's "{name}"), server.address,
// server.port and http.response.status_code; an answer of status 400 or more
// sets error.type to the status and the span's status to Error (without a
// description); a request that got no answer has the Go type of the
// transport's error as error.type ("*net.OpError", beneath net/http's
// *url.Error) and the description "request failed: " and that type.
//
// # What is never recorded
//
// No argument value, result, error message, error data or HTTP body is
// put in a span (its attributes, status, events) or a metric: they may
// hold secrets, and an error's message often repeats the arguments (a
// violation's `got "…"`) or an API's answer. A failed call's status
// description is its code and a text of its own for the code or class:
// "code -32602: invalid params at /status, /limit" (the JSON pointers of
// the violations, member names and indexes, the keys of a map argument
// among them; at most 8, then "and N more"), "code -32601: method not
// found", "code 404: tool error (Not Found)" (a code that is an HTTP status
// has its status text), "code 404: noAccess (the server cannot be
// reached)", "canceled", "deadline exceeded", and on the calling side
// "call failed" for an error without a code.
//
// # Metrics
//
//   - rpc.server.call.duration and rpc.client.call.duration (histograms, s):
//     the duration of each call, with rpc.system.name, rpc.method and, on
//     failure, error.type; http.client.request.duration for REST calls,
//     with http.request.method, url.template, http.response.status_code and
//     error.type;
//   - opentool.calls and opentool.errors (counters, {call}): the calls and
//     the failed ones, with rpc.method, opentool.front and opentool.side
//     ("server" or "client"; "rest" for REST calls).
//
// # Costs
//
// Without an interceptor and a propagator, the runtime does nothing for
// tracing. With them, each call costs a span and the metrics' records. The
// attributes of spans and metrics (attribute sets, span start options) are
// made once per function, front, side and error type (for a REST call: per
// operation, host, status and error type) and kept for up to 4,096 such
// keys, so that a call allocates little of its own beyond the SDK's span
// (the request id, session and subject, which differ per call, are set on
// a recording span only); a span the sampler drops gets no attributes at
// all. Without a meter provider (the no-op one), nothing is timed or
// recorded. With the SDK, its span is most of the cost (Start and End:
// about 1.3 KB in 5 allocations, 2–5 µs of CPU on a shared 2-core
// machine). A sampler (OTEL_TRACES_SAMPLER) is the way to pay less.
// docs/telemetry.md has the figures (BenchmarkGatewayTracing, BenchmarkTracing,
// BenchmarkTracingPaired, BenchmarkInterceptor).
package otelbridge

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// ScopeName is the instrumentation scope of the tracer and meter.
const ScopeName = "github.com/opentoolgen/opentoolgen/otelbridge"

// Attribute keys of this package (beside semconv's).
const (
	FrontKey = attribute.Key("opentool.front")        // intercept.Call.Front
	SideKey  = attribute.Key("opentool.side")         // "server", "client", "rest"
	ItemsKey = attribute.Key("opentool.stream.items") // items of a streaming call
)

// Keys of the semantic conventions of MCP and GenAI (development), which
// the Go semconv/v1.43.0 package, of stable conventions, does not have.
const (
	MCPMethodNameKey      = attribute.Key("mcp.method.name")
	MCPSessionIDKey       = attribute.Key("mcp.session.id")
	GenAIToolNameKey      = attribute.Key("gen_ai.tool.name")
	GenAIOperationNameKey = attribute.Key("gen_ai.operation.name")
)

// Option configures [Interceptor].
type Option func(*config)

type config struct {
	tp trace.TracerProvider
	mp metric.MeterProvider
}

// WithTracerProvider sets the tracer provider (default: otel.GetTracerProvider()).
func WithTracerProvider(tp trace.TracerProvider) Option { return func(c *config) { c.tp = tp } }

// WithMeterProvider sets the meter provider (default: otel.GetMeterProvider()).
func WithMeterProvider(mp metric.MeterProvider) Option { return func(c *config) { c.mp = mp } }

// Propagator returns the [intercept.Propagator] of W3C trace context
// (OpenTelemetry's propagation.TraceContext): traceparent and tracestate.
func Propagator() intercept.Propagator { return traceContext{} }

// traceContext is propagation.TraceContext with its first checks made
// before it is called: a call without a span sends nothing, a request
// without a traceparent header is not parsed (what most calls of a server
// that traces are, at the cost of a lookup).
type traceContext struct{}

func (traceContext) Inject(ctx context.Context, md intercept.Metadata) {
	if trace.SpanContextFromContext(ctx).IsValid() {
		propagation.TraceContext{}.Inject(ctx, md)
	}
}

func (traceContext) Extract(ctx context.Context, md intercept.Metadata) context.Context {
	if md.Get("traceparent") == "" {
		return ctx
	}
	return propagation.TraceContext{}.Extract(ctx, md)
}

// PropagatorOf returns p as a [intercept.Propagator] (otel.GetTextMapPropagator(),
// a composite with baggage, …).
func PropagatorOf(p propagation.TextMapPropagator) intercept.Propagator { return propagator{p} }

type propagator struct{ p propagation.TextMapPropagator }

func (p propagator) Inject(ctx context.Context, md intercept.Metadata) { p.p.Inject(ctx, md) }

func (p propagator) Extract(ctx context.Context, md intercept.Metadata) context.Context {
	return p.p.Extract(ctx, md)
}

// Install sets [Propagator] as the runtime's propagator
// (intercept.SetPropagator) and as OpenTelemetry's global one
// (otel.SetTextMapPropagator), so that the trace context crosses every
// front.
func Install() {
	otel.SetTextMapPropagator(propagation.TraceContext{})
	intercept.SetPropagator(Propagator())
}

type interceptor struct {
	attrs          cache[string, *fnAttrs] // by function
	variants       atomic.Int64            // attrs in attrs' fnAttrs, at most maxCached
	rests          cache[restKey, *restAttrs]
	tracer         trace.Tracer
	serverDuration metric.Float64Histogram
	clientDuration metric.Float64Histogram
	httpDuration   metric.Float64Histogram
	calls, errs    metric.Int64Counter
}

// Interceptor returns the [intercept.Func] that makes a span of each
// call and records its metrics (see the package doc), on whichever side it
// runs: a server's (runtime.WithInterceptors, runtime.Intercept,
// mcpbridge.WithInterceptors), a Caller's (runtime.InterceptCaller) or a
// REST client's (rest.Client.Interceptors). The span is the parent of what
// the call does with its context: the calls a gateway's tool makes, and the
// traceparent a transport sends.
func Interceptor(opts ...Option) intercept.Func {
	c := &config{}
	for _, o := range opts {
		o(c)
	}
	if c.tp == nil {
		c.tp = otel.GetTracerProvider()
	}
	if c.mp == nil {
		c.mp = otel.GetMeterProvider()
	}
	m := c.mp.Meter(ScopeName)
	it := &interceptor{tracer: c.tp.Tracer(ScopeName)}
	it.attrs.make, it.rests.make = newFnAttrs, makeRESTAttrs
	// Errors of instrument creation leave no-op instruments: telemetry never
	// fails a call.
	it.serverDuration, _ = m.Float64Histogram("rpc.server.call.duration", metric.WithUnit("s"),
		metric.WithDescription("Measures the duration of an incoming Remote Procedure Call (RPC)."))
	it.clientDuration, _ = m.Float64Histogram("rpc.client.call.duration", metric.WithUnit("s"),
		metric.WithDescription("Measures the duration of an outgoing Remote Procedure Call (RPC)."))
	it.httpDuration, _ = m.Float64Histogram("http.client.request.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of HTTP client requests."))
	it.calls, _ = m.Int64Counter("opentool.calls", metric.WithUnit("{call}"),
		metric.WithDescription("Calls of tool functions, served or made."))
	it.errs, _ = m.Int64Counter("opentool.errors", metric.WithUnit("{call}"),
		metric.WithDescription("Calls of tool functions that failed."))
	return it.intercept
}

var (
	systemJSONRPC  = semconv.RPCSystemNameJSONRPC
	systemOpenTool = semconv.RPCSystemNameKey.String("opentool")
	sideServer     = SideKey.String("server")
	sideClient     = SideKey.String("client")
	sideREST       = SideKey.String("rest")
	kindClient     = trace.WithSpanKind(trace.SpanKindClient)
)

func (it *interceptor) intercept(ctx context.Context, call *intercept.Call, next func(context.Context) error) error {
	if call.HTTP != nil {
		return it.rest(ctx, call, next)
	}
	hist := it.clientDuration
	if call.Server {
		hist = it.serverDuration
	}
	k := attrKey{function: call.Function, front: call.Front, server: call.Server}
	a := it.attrsOf(k)
	// Without a meter provider (the no-op one), nothing is timed or recorded.
	metered := hist.Enabled(ctx) || it.calls.Enabled(ctx) || it.errs.Enabled(ctx)
	var start time.Time
	if metered {
		start = time.Now()
	}
	ctx, span := it.tracer.Start(ctx, a.name, a.start...)
	if call.RequestID != "" || call.Session != "" || call.Destination != "" {
		callAttrs(span, call)
	}
	err := next(ctx)
	var elapsed float64
	if metered {
		elapsed = time.Since(start).Seconds()
	}
	// A span dropped by the sampler or a no-op: no attributes to make. Asked
	// only when there is one to make (a successful unary call has none).
	recording := (call.Stream || err != nil) && span.IsRecording()
	if recording && call.Stream {
		span.SetAttributes(ItemsKey.Int(call.Items))
	}
	if err != nil && (recording || metered) {
		var status string
		k.errorType, status = errorType(err, call.Server)
		a = it.attrsOf(k)
		if recording {
			if status == "" {
				span.SetAttributes(semconv.ErrorTypeKey.String(k.errorType))
			} else {
				span.SetAttributes(semconv.ErrorTypeKey.String(k.errorType), semconv.RPCResponseStatusCodeKey.String(status))
			}
			span.SetStatus(codes.Error, describe(err, call.Server))
		}
		if metered {
			it.errs.Add(ctx, 1, a.counted...)
		}
	}
	span.End()
	if metered {
		hist.Record(ctx, elapsed, a.duration...)
		it.calls.Add(ctx, 1, a.counted...)
	}
	return err
}

// attrKey is what the attributes of a call's span and metrics depend on.
type attrKey struct {
	function, front, errorType string
	server                     bool
}

// attrs are the attributes of calls of one attrKey, made once: the
// attribute sets of metrics are sorted and hashed when they are made.
type attrs struct {
	key      attrKey
	name     string                  // the span's
	start    []trace.SpanStartOption // the span's kind and attributes
	duration []metric.RecordOption   // of the duration histograms
	counted  []metric.AddOption      // of the counters
}

const maxCached = 4096

func makeAttrs(k attrKey) *attrs {
	system := systemOpenTool
	if k.front == intercept.FrontOpenTool || k.front == intercept.FrontMCP {
		system = systemJSONRPC
	}
	side := sideClient
	if k.server {
		side = sideServer
	}
	method := semconv.RPCMethod(k.function)
	dur := []attribute.KeyValue{system, method}
	counted := []attribute.KeyValue{method, FrontKey.String(k.front), side}
	if k.errorType != "" {
		dur = append(dur, semconv.ErrorTypeKey.String(k.errorType))
		counted = append(counted, semconv.ErrorTypeKey.String(k.errorType))
	}
	ds, cs := attribute.NewSet(dur...), attribute.NewSet(counted...)
	kind := trace.SpanKindClient
	if k.server {
		kind = trace.SpanKindServer
	}
	name, span := spanAttrs(k, system, method)
	return &attrs{
		key:   k,
		name:  name,
		start: []trace.SpanStartOption{trace.WithSpanKind(kind), trace.WithAttributes(span...)},
		// Slices made once: passing one option as a variadic argument to
		// an interface's method would allocate its slice at each call.
		duration: []metric.RecordOption{metric.WithAttributeSet(ds)},
		counted:  []metric.AddOption{metric.WithAttributeSet(cs)},
	}
}

// spanAttrs returns the name and the attributes of the spans of calls of
// k, by the conventions of their front: MCP's over MCP ("tools/call NAME",
// mcp.method.name, gen_ai.tool.name), RPC's over the others (the function,
// rpc.system.name, rpc.method), with messaging's over NATS
// (messaging.system nats, messaging.operation.type).
func spanAttrs(k attrKey, system, method attribute.KeyValue) (string, []attribute.KeyValue) {
	front := FrontKey.String(k.front)
	switch k.front {
	case intercept.FrontMCP:
		return "tools/call " + k.function, []attribute.KeyValue{MCPMethodNameKey.String("tools/call"),
			GenAIToolNameKey.String(k.function), GenAIOperationNameKey.String("execute_tool"), front}
	case frontNATS, frontNATSExec:
		op := semconv.MessagingOperationTypeSend
		if k.server {
			op = semconv.MessagingOperationTypeProcess
		}
		return k.function, []attribute.KeyValue{system, method, semconv.MessagingSystemKey.String("nats"), op, front}
	}
	return k.function, []attribute.KeyValue{system, method, front}
}

// The fronts of NATS (natsbridge's and natsexec's intercept.Call.Front).
const (
	frontNATS     = "nats"
	frontNATSExec = "natsexec"
)

// callAttrs sets on span the attributes of call that differ from call to
// call: jsonrpc.request.id, mcp.session.id, messaging.destination.name.
func callAttrs(span trace.Span, call *intercept.Call) {
	if !span.IsRecording() {
		return
	}
	if call.RequestID != "" {
		span.SetAttributes(semconv.JSONRPCRequestID(call.RequestID))
	}
	if call.Session != "" {
		span.SetAttributes(MCPSessionIDKey.String(call.Session))
	}
	if call.Destination != "" {
		span.SetAttributes(semconv.MessagingDestinationName(call.Destination))
	}
}

// fnAttrs are the attrs of the calls of one function: a short list, one
// per front, side and error type seen, read without a lock (a function's
// calls come from one or two fronts and sides, and few error types: a
// look-up hashes the function's name and compares a few keys, where a map
// of attrKey would hash the three strings of the key).
type fnAttrs struct {
	list atomic.Pointer[[]*attrs] // replaced by a longer copy under mu
	mu   sync.Mutex
}

func newFnAttrs(string) *fnAttrs { return &fnAttrs{} }

// attrsOf returns the attrs of k, made once for up to maxCached keys
// (calls of others get theirs made each time).
func (it *interceptor) attrsOf(k attrKey) *attrs {
	f := it.attrs.get(k.function)
	if l := f.list.Load(); l != nil {
		for _, a := range *l {
			if a.key == k {
				return a
			}
		}
	}
	a := makeAttrs(k)
	f.mu.Lock()
	defer f.mu.Unlock()
	var old []*attrs
	if l := f.list.Load(); l != nil {
		old = *l
	}
	for _, made := range old {
		if made.key == k {
			return made
		}
	}
	if !it.attrs.holds(k.function, f) { // f is made for this call: beyond maxCached functions
		return a
	}
	if it.variants.Add(1) <= maxCached {
		l := append(slices.Clip(old), a)
		f.list.Store(&l)
	} else {
		it.variants.Add(-1)
	}
	return a
}

// otherError is semconv's error.type of an error without a code: "_OTHER".
var otherError = semconv.ErrorTypeOther.Value.AsString()

// errorType is the error.type of a call's error and its
// rpc.response.status_code ("" for none): "canceled" or
// "deadline_exceeded" for a context that ended (both); else the code the
// error has on the wire: a *runtime.Error's (500 when it has none, -32603
// for a nil one, as the fronts answer them), 500 for any other error on the
// serving side (what every front answers for it). An error the calling
// side made of its own (a *runtime.Error of a class other than
// runtime.ClassCall: the server could not be reached, answered no usable
// response, refused the key) has its class as error.type ("noAccess",
// "responseNull", "errorNull", "unauthorized") and its code as status.
// On the calling side an error that is not a *runtime.Error (a Caller of
// another package's) has no code: semconv's "_OTHER", and no status. The
// Go type of an error is never recorded for a call: the fronts do not send
// it, and a type such as *errors.errorString tells nothing.
func errorType(err error, server bool) (errorType, status string) {
	switch {
	case errors.Is(err, context.Canceled):
		return "canceled", "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline_exceeded", "deadline_exceeded"
	}
	var e *runtime.Error
	switch {
	case !errors.As(err, &e):
		if server {
			return codeToolError, codeToolError
		}
		return otherError, ""
	case e == nil:
		return codeInternalError, codeInternalError
	case e.Code == 0:
		status = codeToolError
	default:
		status = strconv.Itoa(e.Code)
	}
	if e.Class != "" && e.Class != runtime.ClassCall {
		return string(e.Class), status
	}
	return status, status
}

var (
	codeToolError     = strconv.Itoa(runtime.CodeToolError)
	codeInternalError = strconv.Itoa(runtime.CodeInternalError)
)

// maxPaths is the number of violations' paths a status description names.
const maxPaths = 8

// describe is the description of the Error status of a call that failed
// with err: what the error is, never what it says. An error's message and
// data may carry the arguments (a violation's "got \"sk-live-…\"", a tool's
// fmt.Errorf("no pet %q", name)) or an API's answer (a REST error's body),
// and the docs promise neither is recorded: the description is the
// error's code and a text of its own for the code or class ("code -32602:
// invalid params at /status", "code 404: tool error (Not Found)", "code 404:
// noAccess (the server cannot be reached)"), "canceled", "deadline
// exceeded", or, on the calling side, "call failed" for an error without
// a code (on the serving side, it is answered as code 500). Invalid
// arguments are named by their JSON pointers (member names and indexes,
// the keys of a map argument among them), at most maxPaths of them.
func describe(err error, server bool) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline exceeded"
	}
	var e *runtime.Error
	if !errors.As(err, &e) {
		if server { // answered as a tool error, code 500
			e = &runtime.Error{}
		} else {
			return "call failed"
		}
	}
	if e == nil {
		return "code " + codeInternalError + ": internal error"
	}
	code := e.Code
	if code == 0 {
		code = runtime.CodeToolError
	}
	var b strings.Builder
	b.WriteString("code ")
	b.WriteString(strconv.Itoa(code))
	b.WriteString(": ")
	switch e.Class {
	case runtime.ClassUnauthorized:
		b.WriteString("unauthorized (the API key was refused)")
		return b.String()
	case runtime.ClassNoAccess:
		b.WriteString("noAccess (the server cannot be reached)")
		return b.String()
	case runtime.ClassResponseNull:
		b.WriteString("responseNull (no usable response)")
		return b.String()
	case runtime.ClassErrorNull:
		b.WriteString("errorNull (the call failed without an error object)")
		return b.String()
	}
	switch code {
	case runtime.CodeParseError:
		b.WriteString("parse error")
	case runtime.CodeInvalidRequest:
		b.WriteString("invalid request")
	case runtime.CodeMethodNotFound:
		b.WriteString("method not found")
	case runtime.CodeInternalError:
		b.WriteString("internal error")
	case runtime.CodeInvalidParams:
		b.WriteString("invalid params")
		vs := e.Violations()
		for i, v := range vs {
			if i == maxPaths {
				b.WriteString(" and ")
				b.WriteString(strconv.Itoa(len(vs) - maxPaths))
				b.WriteString(" more")
				break
			}
			if i == 0 {
				b.WriteString(" at ")
			} else {
				b.WriteString(", ")
			}
			if v.Path == "" {
				b.WriteString("the arguments")
			} else {
				b.WriteString(jsontree.ShortPointer(v.Path))
			}
		}
	default:
		b.WriteString("tool error")
		if t := http.StatusText(code); t != "" {
			b.WriteString(" (")
			b.WriteString(t)
			b.WriteString(")")
		}
	}
	return b.String()
}

// restErrorType is the error.type of a REST request that got no answer:
// "canceled" or "deadline_exceeded" for a context that ended, a
// *runtime.Error's code (an interceptor's), else the Go type of the
// transport's error beneath the *url.Error of net/http ("*net.OpError",
// "*tls.CertificateVerificationError"), as semconv's HTTP conventions want
// for a request that failed before an answer (semconv.ErrorType: an
// ErrorType() method's value first).
func restErrorType(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline_exceeded"
	}
	var e *runtime.Error
	if errors.As(err, &e) && e != nil {
		et, _ := errorType(e, false)
		return et
	}
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		err = ue.Err
	}
	return semconv.ErrorType(err).Value.AsString()
}

func (it *interceptor) rest(ctx context.Context, call *intercept.Call, next func(context.Context) error) error {
	h := call.HTTP
	k := restKey{function: call.Function, method: h.Method, template: h.Template}
	k.host, k.port = hostPort(h.URL)
	a := it.rests.get(k)
	metered := it.httpDuration.Enabled(ctx) || it.calls.Enabled(ctx) || it.errs.Enabled(ctx)
	var start time.Time
	if metered {
		start = time.Now()
	}
	ctx, span := it.tracer.Start(ctx, call.Function, kindClient, a.start, trace.WithAttributes(semconv.URLFull(templatedURL(h.URL, h.Template))))
	err := next(ctx)
	var elapsed float64
	if metered {
		elapsed = time.Since(start).Seconds()
	}
	switch {
	case err != nil:
		// Not err.Error(): a transport's error names the URL, and with
		// it the values of path parameters.
		k.errorType = restErrorType(err)
		span.SetStatus(codes.Error, "request failed: "+k.errorType)
	case h.StatusCode >= 400:
		k.errorType = strconv.Itoa(h.StatusCode)
		span.SetStatus(codes.Error, "")
	}
	k.status = h.StatusCode
	if k.status != 0 || k.errorType != "" {
		a = it.rests.get(k)
		span.SetAttributes(a.end...) // the status and error.type, when set
	}
	span.End()
	if metered {
		it.httpDuration.Record(ctx, elapsed, a.duration...)
		if k.errorType != "" {
			it.errs.Add(ctx, 1, a.counted...)
		}
		it.calls.Add(ctx, 1, a.counted...)
	}
	return err
}

// templatedURL is rawURL, the URL of a request to the path template
// ("/pets/{petId}"), with each path segment that holds a parameter's value
// written as the template's ("http://host/v1/pets/{petId}"): the value is
// an argument of the call, which telemetry does not record. A URL whose
// path does not end in as many segments as the template has is cut to
// its scheme and host, followed by the template.
func templatedURL(rawURL, template string) string {
	if !strings.Contains(template, "{") {
		return rawURL
	}
	i := strings.Index(rawURL, "://")
	if i < 0 {
		return template
	}
	origin, path := rawURL, ""
	if j := strings.IndexByte(rawURL[i+3:], '/'); j >= 0 {
		origin, path = rawURL[:i+3+j], rawURL[i+3+j:]
	}
	tsegs := strings.Split(strings.TrimPrefix(template, "/"), "/")
	usegs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if path == "" || len(usegs) < len(tsegs) {
		return origin + "/" + strings.TrimPrefix(template, "/")
	}
	base := usegs[:len(usegs)-len(tsegs)]
	for k, seg := range tsegs {
		if strings.Contains(seg, "{") {
			usegs[len(base)+k] = seg
		}
	}
	return origin + "/" + strings.Join(usegs, "/")
}

// restKey is what the attributes of a REST call's span and metrics depend
// on (all but url.full).
type restKey struct {
	function, method, template, host, errorType string
	port, status                                int // port -1: none known
}

// restAttrs are the attributes of REST calls of one restKey, made once.
type restAttrs struct {
	start    trace.SpanStartOption // the span's kind and attributes, but url.full
	end      []attribute.KeyValue  // the status and error.type, when set
	duration []metric.RecordOption
	counted  []metric.AddOption
}

func makeRESTAttrs(k restKey) *restAttrs {
	attrs := make([]attribute.KeyValue, 0, 6)
	attrs = append(attrs, semconv.HTTPRequestMethodKey.String(k.method), semconv.URLTemplate(k.template))
	if k.port >= 0 {
		attrs = append(attrs, semconv.ServerAddress(k.host), semconv.ServerPort(k.port))
	}
	n := len(attrs)
	if k.status != 0 {
		attrs = append(attrs, semconv.HTTPResponseStatusCode(k.status))
	}
	if k.errorType != "" {
		attrs = append(attrs, semconv.ErrorTypeKey.String(k.errorType))
	}
	counted := []attribute.KeyValue{semconv.RPCMethod(k.function), FrontKey.String(intercept.FrontREST), sideREST}
	if k.errorType != "" {
		counted = append(counted, semconv.ErrorTypeKey.String(k.errorType))
	}
	return &restAttrs{
		start: trace.WithAttributes(slices.Clone(attrs[:n])...),
		end:   attrs[n:],
		// (attribute.NewSet sorts the slice it is given: a copy)
		duration: []metric.RecordOption{metric.WithAttributeSet(attribute.NewSet(slices.Clone(attrs)...))},
		counted:  []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(counted...))},
	}
}

// hostPort returns the host and port of rawURL ("http://127.0.0.1:8080/v1/pets"),
// as url.URL's Hostname and Port give them, the port of the scheme when it
// has none; port -1 when rawURL has no host.
func hostPort(rawURL string) (host string, port int) {
	scheme, rest, ok := strings.Cut(rawURL, "://")
	if !ok {
		return "", -1
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	host, p := rest, ""
	if i := strings.LastIndexByte(rest, ':'); i >= 0 && !strings.Contains(rest[i:], "]") {
		host, p = rest[:i], rest[i+1:]
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if host == "" {
		return "", -1
	}
	switch {
	case p != "":
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 65535 {
			return "", -1
		}
		return host, n
	case strings.EqualFold(scheme, "https"):
		return host, 443
	}
	return host, 80
}

// cache keeps the values of up to maxCached keys made by make (calls of
// other keys, names a hostile caller invents, get theirs made each time).
// Readers look in an immutable map without a lock; a key made for the
// first time replaces the map by a copy with it (the keys are the
// functions of a tool, made once each).
type cache[K comparable, V any] struct {
	m    atomic.Pointer[map[K]V]
	mu   sync.Mutex // of writers
	make func(K) V
}

// holds reports whether v is the value kept for k.
func (c *cache[K, V]) holds(k K, v V) bool {
	m := c.m.Load()
	if m == nil {
		return false
	}
	kept, ok := (*m)[k]
	return ok && any(kept) == any(v)
}

func (c *cache[K, V]) get(k K) V {
	if m := c.m.Load(); m != nil {
		if v, ok := (*m)[k]; ok {
			return v
		}
	}
	v := c.make(k)
	c.mu.Lock()
	defer c.mu.Unlock()
	var old map[K]V
	if m := c.m.Load(); m != nil {
		old = *m
	}
	if made, ok := old[k]; ok {
		return made
	}
	if len(old) < maxCached {
		m := make(map[K]V, len(old)+1)
		maps.Copy(m, old)
		m[k] = v
		c.m.Store(&m)
	}
	return v
}
