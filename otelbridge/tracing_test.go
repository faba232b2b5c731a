package otelbridge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/opentoolgen/opentoolgen/otelbridge"
	"github.com/opentoolgen/opentoolgen/otelbridge/tracing"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// spanSink keeps what a tracing provider exports.
type spanSink struct {
	mu    sync.Mutex
	spans []tracing.ReadOnlySpan
}

func (s *spanSink) Export(_ context.Context, spans []tracing.ReadOnlySpan) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.spans = append(s.spans, spans...)
	return nil
}

func (s *spanSink) Shutdown(context.Context) error { return nil }

func (s *spanSink) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	for _, sp := range spans {
		s.Export(ctx, []tracing.ReadOnlySpan{sp})
	}
	return nil
}

// tracedCalls serves errorTool over loopback HTTP, the interceptor over tp
// on both sides, and calls "ok" and "fail" in the trace of a remote
// parent; it returns the traceparent headers the server received.
func tracedCalls(t *testing.T, tp trace.TracerProvider) []string {
	ic := otelbridge.Interceptor(otelbridge.WithTracerProvider(tp), otelbridge.WithMeterProvider(metricnoop.NewMeterProvider()))
	runtime.SetPropagator(otelbridge.Propagator())
	t.Cleanup(func() { runtime.SetPropagator(nil) })
	rec := &headerRecorder{h: runtime.NewHandler(errorTool{}, runtime.WithInterceptors(ic))}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	client := runtime.InterceptCaller(runtime.NewClient(srv.URL+runtime.DefaultPrefix), ic)
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	ctx := trace.ContextWithRemoteSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, Remote: true}))
	if _, err := client.CallFunction(ctx, "ok", json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := client.CallFunction(ctx, "fail", json.RawMessage(`{}`)); err == nil {
		t.Fatal("fail: no error")
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return slices.Clone(rec.tp)
}

// describe writes what the interceptor sets of each span, the parent by
// name, sorted.
func describe(spans []tracing.ReadOnlySpan) []string {
	names := map[trace.SpanID]string{}
	for _, s := range spans {
		names[s.SpanContext().SpanID()] = s.SpanKind().String() + " " + s.Name()
	}
	var out []string
	for _, s := range spans {
		var attrs []string
		for _, kv := range s.Attributes() {
			attrs = append(attrs, string(kv.Key)+"="+kv.Value.String())
		}
		parent, ok := names[s.Parent().SpanID()]
		if !ok {
			parent = s.Parent().SpanID().String()
		}
		out = append(out, fmt.Sprintf("%s %s trace=%s parent=%s remote=%v sampled=%v %v %q [%s]", s.SpanKind(), s.Name(), s.SpanContext().TraceID(),
			parent, s.Parent().IsRemote(), s.SpanContext().IsSampled(), s.Status().Code, s.Status().Description, strings.Join(attrs, " ")))
	}
	slices.Sort(out)
	return out
}

// The interceptor over a tracing provider (StartShared with its cached
// attributes) makes the spans it makes over the SDK's, on both sides of a
// call over loopback HTTP; the trace context crosses as W3C traceparent
// through otelbridge's Propagator: the server's span is the child of the
// client's, in the caller's trace.
func TestInterceptorWithTracing(t *testing.T) {
	sdkSink, sink := &spanSink{}, &spanSink{}
	sdkTP := sdktrace.NewTracerProvider(sdktrace.WithSyncer(sdkSink))
	tp := tracing.NewProvider(sink)
	sdkHeaders := tracedCalls(t, sdkTP)
	headers := tracedCalls(t, tp)
	if err := tp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	want, got := describe(sdkSink.spans), describe(sink.spans)
	if len(got) != 4 || !slices.Equal(want, got) {
		t.Fatalf("over the SDK:\n%s\nover tracing:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
	for _, want := range []string{
		"client ok trace=4bf92f3577b34da6a3ce929d0e0e4736 parent=00f067aa0ba902b7 remote=true sampled=true Unset",
		"server ok trace=4bf92f3577b34da6a3ce929d0e0e4736 parent=client ok remote=true sampled=true Unset",
		`server fail trace=4bf92f3577b34da6a3ce929d0e0e4736 parent=client fail remote=true sampled=true Error "code 418: tool error (I'm a teapot)" [rpc.system.name=jsonrpc rpc.method=fail opentool.front=opentool error.type=418`,
	} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("no span %s in\n%s", want, strings.Join(got, "\n"))
		}
	}
	// The traceparent each request carried names the client span.
	if len(headers) != 2 || len(sdkHeaders) != 2 {
		t.Fatalf("traceparents %q", headers)
	}
	for i, h := range headers {
		var client tracing.ReadOnlySpan
		for _, s := range sink.spans {
			if s.SpanKind() == trace.SpanKindClient && s.Name() == []string{"ok", "fail"}[i] {
				client = s
			}
		}
		sc := client.SpanContext()
		if want := "00-" + sc.TraceID().String() + "-" + sc.SpanID().String() + "-01"; h != want {
			t.Errorf("traceparent %s, want %s", h, want)
		}
	}
}
