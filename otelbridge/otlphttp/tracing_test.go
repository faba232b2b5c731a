package otlphttp_test

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/opentoolgen/opentoolgen/otelbridge/otlphttp"
	"github.com/opentoolgen/opentoolgen/otelbridge/tracing"
)

// makeSpans makes, with tp, a server span that is the remote child of a
// traceparent, with attributes of every type, events (one an error), links
// and an error status; its local child of another scope, with an Ok
// status; and a new root with a dropped attribute.
func makeSpans(tp trace.TracerProvider) {
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	ts, _ := trace.ParseTraceState("vendor=x")
	parent := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, TraceState: ts, Remote: true})
	ctx := trace.ContextWithRemoteSpanContext(context.Background(), parent)
	start := time.Unix(1700000000, 123)
	ctx, span := tp.Tracer("scope.a", trace.WithInstrumentationVersion("1.2.3"), trace.WithSchemaURL("https://opentelemetry.io/schemas/1.43.0"),
		trace.WithInstrumentationAttributes(attribute.String("lib", "x"))).Start(ctx, "add", trace.WithSpanKind(trace.SpanKindServer),
		trace.WithTimestamp(start), trace.WithLinks(trace.Link{SpanContext: parent, Attributes: []attribute.KeyValue{attribute.Bool("l", true)}}),
		trace.WithAttributes(attribute.String("rpc.method", "add"), attribute.Int64("n", -7), attribute.Float64("f", 2.5),
			attribute.Bool("b", false), attribute.StringSlice("ss", []string{"x", "y"}), attribute.Int64Slice("is", []int64{1, 2}),
			attribute.BoolSlice("bs", []bool{true}), attribute.Float64Slice("fs", []float64{0.5}),
			attribute.Map("m", attribute.String("k", "v")), attribute.Int("n", 8)))
	span.AddEvent("retry", trace.WithTimestamp(start.Add(time.Millisecond)), trace.WithAttributes(attribute.Int("attempt", 2)))
	span.RecordError(errors.New("first try"), trace.WithTimestamp(start.Add(2*time.Millisecond)))
	_, child := tp.Tracer("scope.b").Start(ctx, "inner", trace.WithSpanKind(trace.SpanKindClient), trace.WithTimestamp(start))
	child.SetStatus(codes.Ok, "")
	child.End(trace.WithTimestamp(start.Add(2 * time.Millisecond)))
	span.SetStatus(codes.Error, "disk on fire")
	span.End(trace.WithTimestamp(start.Add(3 * time.Millisecond)))
	_, root := tp.Tracer("scope.b").Start(ctx, "root", trace.WithNewRoot(), trace.WithTimestamp(start), trace.WithAttributes(attribute.KeyValue{}))
	root.End(trace.WithTimestamp(start.Add(time.Millisecond)))
}

// sameIDs is a span of tracing with the span IDs of the SDK's span of the
// same place: the IDs are random (the span IDs, and the trace ID of a new
// root), all else must encode alike.
type sameIDs struct {
	tracing.ReadOnlySpan
	sc, parent trace.SpanContext
}

func (s sameIDs) SpanContext() trace.SpanContext { return s.sc }
func (s sameIDs) Parent() trace.SpanContext      { return s.parent }

// withSpanID returns sc with the span ID of other.
func withSpanID(sc trace.SpanContext, other trace.SpanID) trace.SpanContext {
	if !sc.SpanID().IsValid() {
		return sc
	}
	return sc.WithSpanID(other)
}

// The same spans made with the SDK and with tracing encode to the same
// OTLP bytes, but their random IDs (the SDK's given to tracing's).
func TestTracingEncodesAsSDK(t *testing.T) {
	r := &receiver{}
	srv := httptest.NewServer(r)
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	exp, err := otlphttp.New()
	if err != nil {
		t.Fatal(err)
	}
	res := resource.NewSchemaless(attribute.String("service.name", "calc"))
	var sdkSpans []sdktrace.ReadOnlySpan
	sdkTP := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(collector{&sdkSpans}), sdktrace.WithResource(res))
	makeSpans(sdkTP)
	var ours []tracing.ReadOnlySpan
	tp := tracing.NewProvider(exporterFunc(func(spans []tracing.ReadOnlySpan) { ours = append(ours, spans...) }), tracing.WithResource(res))
	makeSpans(tp)
	if err := tp.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	if len(sdkSpans) != 3 || len(ours) != 3 {
		t.Fatalf("%d spans of the SDK, %d of tracing", len(sdkSpans), len(ours))
	}
	ids := map[trace.SpanID]trace.SpanID{} // tracing's → the SDK's
	for i, s := range ours {
		ids[s.SpanContext().SpanID()] = sdkSpans[i].SpanContext().SpanID()
	}
	same := make([]tracing.ReadOnlySpan, len(ours))
	for i, s := range ours {
		parent := s.Parent()
		if id, ok := ids[parent.SpanID()]; ok {
			parent = withSpanID(parent, id)
		}
		sc := withSpanID(s.SpanContext(), ids[s.SpanContext().SpanID()])
		if !parent.IsValid() { // a new root: a random trace ID too
			sc = sc.WithTraceID(sdkSpans[i].SpanContext().TraceID())
		}
		same[i] = sameIDs{s, sc, parent}
	}
	if err := exp.ExportSpans(t.Context(), sdkSpans); err != nil {
		t.Fatal(err)
	}
	if err := exp.Export(t.Context(), same); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.bodies) != 2 {
		t.Fatalf("%d requests", len(r.bodies))
	}
	if !bytes.Equal(r.bodies[0], r.bodies[1]) {
		t.Fatalf("the SDK's spans encode as\n%s\ntracing's as\n%s", protojson.Format(r.requests[0]), protojson.Format(r.requests[1]))
	}
	if len(r.bodies[0]) < 500 {
		t.Fatalf("only %d bytes encoded:\n%s", len(r.bodies[0]), protojson.Format(r.requests[0]))
	}
}

type exporterFunc func([]tracing.ReadOnlySpan)

func (f exporterFunc) Export(_ context.Context, spans []tracing.ReadOnlySpan) error {
	f(spans)
	return nil
}

func (f exporterFunc) Shutdown(context.Context) error { return nil }

// A provider of tracing exporting with otlphttp: an OTLP/HTTP receiver
// gets its spans, decoded with the OTLP project's own types.
func TestProviderToReceiver(t *testing.T) {
	r := &receiver{}
	srv := httptest.NewServer(r)
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	exp, err := otlphttp.New()
	if err != nil {
		t.Fatal(err)
	}
	tp := tracing.NewProvider(exp, tracing.WithResource(resource.NewSchemaless(attribute.String("service.name", "calc"))))
	makeSpans(tp)
	if err := tp.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.requests) != 1 {
		t.Fatalf("%d requests", len(r.requests))
	}
	rs := r.requests[0].ResourceSpans
	if len(rs) != 1 || len(rs[0].ScopeSpans) != 2 || rs[0].Resource.Attributes[0].Value.GetStringValue() != "calc" {
		t.Fatalf("want 1 resource with 2 scopes:\n%s", protojson.Format(r.requests[0]))
	}
	inner, root := rs[0].ScopeSpans[0].Spans[0], rs[0].ScopeSpans[0].Spans[1]
	outer := rs[0].ScopeSpans[1].Spans[0]
	if inner.Name != "inner" || outer.Name != "add" || root.Name != "root" || !bytes.Equal(inner.ParentSpanId, outer.SpanId) ||
		!bytes.Equal(inner.TraceId, outer.TraceId) || len(root.ParentSpanId) != 0 || root.DroppedAttributesCount != 1 ||
		len(outer.Events) != 2 || outer.Events[1].Name != "exception" || outer.Status.Message != "disk on fire" {
		t.Fatalf("spans:\n%s", protojson.Format(r.requests[0]))
	}
}
