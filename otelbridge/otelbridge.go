// Package otelbridge connects the calls of opentoolgen's runtime to
// OpenTelemetry (go.opentelemetry.io/otel): [Interceptor] is a
// [runtime.Interceptor] that makes a span per call and records metrics, on
// the serving side and the calling side alike, and [Propagator] is the
// [runtime.Propagator] of W3C trace context, which [Install] sets so that
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
//   - rpc.system.name: "jsonrpc" over OpenTool HTTP and MCP (both carry
//     JSON-RPC 2.0), "opentool" over the other fronts (runtime.Local, NATS);
//   - rpc.method: the function;
//   - opentool.front: the front or transport (runtime.CallInfo.Front);
//   - opentool.stream.items, for a streaming call: the items it carried;
//   - on failure: status Error with the error's text, error.type and
//     rpc.response.status_code: the code of a *runtime.Error ("-32602",
//     "500", …; the tool's own code), "canceled" or "deadline_exceeded" when the
//     context ended, else the Go type of the error (semconv.ErrorType).
//
// A REST call (a *rest.Client's Interceptors) is an HTTP client span named
// "METHOD /path/{template}", with http.request.method, url.template,
// url.full (without its query, which may carry keys), server.address,
// server.port and http.response.status_code; an answer of status 400 or more
// sets error.type to the status and the span's status to Error.
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
// tracing. With them, each call costs a span, its attributes and the
// metrics' records; BENCHMARKS.md has the figures (BenchmarkTracing).
package otelbridge

import (
	"context"
	"errors"
	"net/url"
	"strconv"
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

	"github.com/opentoolgen/opentoolgen/runtime"
)

// ScopeName is the instrumentation scope of the tracer and meter.
const ScopeName = "github.com/opentoolgen/opentoolgen/otelbridge"

// Attribute keys of this package (beside semconv's).
const (
	FrontKey = attribute.Key("opentool.front")        // runtime.CallInfo.Front
	SideKey  = attribute.Key("opentool.side")         // "server", "client", "rest"
	ItemsKey = attribute.Key("opentool.stream.items") // items of a streaming call
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

// Propagator returns the [runtime.Propagator] of W3C trace context
// (OpenTelemetry's propagation.TraceContext): traceparent and tracestate.
func Propagator() runtime.Propagator { return propagator{propagation.TraceContext{}} }

// PropagatorOf returns p as a [runtime.Propagator] (otel.GetTextMapPropagator(),
// a composite with baggage, …).
func PropagatorOf(p propagation.TextMapPropagator) runtime.Propagator { return propagator{p} }

type propagator struct{ p propagation.TextMapPropagator }

func (p propagator) Inject(ctx context.Context, md runtime.Metadata) { p.p.Inject(ctx, md) }

func (p propagator) Extract(ctx context.Context, md runtime.Metadata) context.Context {
	return p.p.Extract(ctx, md)
}

// Install sets [Propagator] as the runtime's propagator
// (runtime.SetPropagator) and as OpenTelemetry's global one
// (otel.SetTextMapPropagator), so that the trace context crosses every
// front.
func Install() {
	otel.SetTextMapPropagator(propagation.TraceContext{})
	runtime.SetPropagator(Propagator())
}

type interceptor struct {
	attrs          attrCache
	tracer         trace.Tracer
	serverDuration metric.Float64Histogram
	clientDuration metric.Float64Histogram
	httpDuration   metric.Float64Histogram
	calls, errs    metric.Int64Counter
}

// Interceptor returns the [runtime.Interceptor] that makes a span of each
// call and records its metrics (see the package doc), on whichever side it
// runs: a server's (runtime.WithInterceptors, runtime.Intercept,
// mcpbridge.WithInterceptors), a Caller's (runtime.InterceptCaller) or a
// REST client's (rest.Client.Interceptors). The span is the parent of what
// the call does with its context: the calls a gateway's tool makes, and the
// traceparent a transport sends.
func Interceptor(opts ...Option) runtime.Interceptor {
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
)

func (it *interceptor) intercept(ctx context.Context, call *runtime.CallInfo, next func(context.Context) error) error {
	if call.HTTP != nil {
		return it.rest(ctx, call, next)
	}
	hist := it.clientDuration
	if call.Server {
		hist = it.serverDuration
	}
	k := attrKey{function: call.Function, front: call.Front, server: call.Server}
	a := it.attrs.get(k)
	start := time.Now()
	ctx, span := it.tracer.Start(ctx, call.Function, a.start...)
	err := next(ctx)
	elapsed := time.Since(start).Seconds()
	recording := span.IsRecording() // a span dropped by the sampler or a no-op: no attributes to make
	if recording && call.Stream {
		span.SetAttributes(ItemsKey.Int(call.Items))
	}
	if err != nil {
		k.errorType = errorType(err)
		a = it.attrs.get(k)
		if recording {
			span.SetAttributes(semconv.ErrorTypeKey.String(k.errorType), semconv.RPCResponseStatusCodeKey.String(k.errorType))
			span.SetStatus(codes.Error, err.Error())
		}
		it.errs.Add(ctx, 1, a.counted...)
	}
	span.End()
	hist.Record(ctx, elapsed, a.duration...)
	it.calls.Add(ctx, 1, a.counted...)
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
	start    []trace.SpanStartOption // the span's kind and attributes
	duration []metric.RecordOption   // of the duration histograms
	counted  []metric.AddOption      // of the counters
}

// attrCache keeps the attrs of up to maxCached keys (calls of other
// functions, names a hostile caller invents, get theirs made each time).
type attrCache struct {
	m sync.Map // attrKey → *attrs
	n atomic.Int64
}

const maxCached = 4096

func (c *attrCache) get(k attrKey) *attrs {
	if v, ok := c.m.Load(k); ok {
		return v.(*attrs)
	}
	a := makeAttrs(k)
	if c.n.Load() < maxCached {
		if _, loaded := c.m.LoadOrStore(k, a); !loaded {
			c.n.Add(1)
		}
	}
	return a
}

func makeAttrs(k attrKey) *attrs {
	system := systemOpenTool
	if k.front == runtime.FrontOpenTool || k.front == runtime.FrontMCP {
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
	return &attrs{
		start: []trace.SpanStartOption{trace.WithSpanKind(kind),
			trace.WithAttributes(system, method, FrontKey.String(k.front))},
		// Slices made once: passing one option as a variadic argument to
		// an interface's method would allocate its slice at each call.
		duration: []metric.RecordOption{metric.WithAttributeSet(ds)},
		counted:  []metric.AddOption{metric.WithAttributeSet(cs)},
	}
}

// errorType is the error.type of a call's error: a *runtime.Error's code,
// "canceled" or "deadline_exceeded" for a context that ended, else
// semconv's (the error's Go type).
func errorType(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline_exceeded"
	}
	var e *runtime.Error
	if errors.As(err, &e) {
		return strconv.Itoa(e.Code)
	}
	return semconv.ErrorType(err).Value.AsString()
}

func (it *interceptor) rest(ctx context.Context, call *runtime.CallInfo, next func(context.Context) error) error {
	h := call.HTTP
	attrs := make([]attribute.KeyValue, 0, 7)
	attrs = append(attrs, semconv.HTTPRequestMethodKey.String(h.Method), semconv.URLTemplate(h.Template))
	if u, err := url.Parse(h.URL); err == nil {
		attrs = append(attrs, semconv.ServerAddress(u.Hostname()))
		port := u.Port()
		if port == "" && u.Scheme == "https" {
			port = "443"
		} else if port == "" {
			port = "80"
		}
		if p, err := strconv.Atoi(port); err == nil {
			attrs = append(attrs, semconv.ServerPort(p))
		}
	}
	start := time.Now()
	ctx, span := it.tracer.Start(ctx, call.Function, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attrs...), trace.WithAttributes(semconv.URLFull(h.URL)), trace.WithTimestamp(start))
	err := next(ctx)
	elapsed := time.Since(start).Seconds()
	et := ""
	switch {
	case err != nil:
		et = errorType(err)
		span.SetStatus(codes.Error, err.Error())
	case h.StatusCode >= 400:
		et = strconv.Itoa(h.StatusCode)
		span.SetStatus(codes.Error, "")
	}
	n := len(attrs)
	if h.StatusCode != 0 {
		attrs = append(attrs, semconv.HTTPResponseStatusCode(h.StatusCode))
	}
	if et != "" {
		attrs = append(attrs, semconv.ErrorTypeKey.String(et))
	}
	span.SetAttributes(attrs[n:]...) // the status and error.type, when set
	span.End()
	it.httpDuration.Record(ctx, elapsed, metric.WithAttributes(attrs...))
	counted := []attribute.KeyValue{semconv.RPCMethod(call.Function), FrontKey.String(runtime.FrontREST), sideREST}
	if et != "" {
		counted = append(counted, semconv.ErrorTypeKey.String(et))
		it.errs.Add(ctx, 1, metric.WithAttributes(counted...))
	}
	it.calls.Add(ctx, 1, metric.WithAttributes(counted...))
	return err
}
