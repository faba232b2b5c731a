package tracing_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/opentoolgen/opentoolgen/otelbridge/tracing"
)

func newProvider(t *testing.T, c *collector, opts ...tracing.Option) *tracing.Provider {
	tp := tracing.NewProvider(c, append([]tracing.Option{tracing.WithResource(testResource)}, opts...)...)
	t.Cleanup(func() { tp.Shutdown(context.Background()) })
	return tp
}

func flushed(t *testing.T, tp *tracing.Provider, c *collector) ([]tracing.ReadOnlySpan, []int) {
	t.Helper()
	if err := tp.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c.got()
}

// StartShared keeps the caller's slice, never writes it (a later
// SetAttributes copies it first), and exports what Start with the same
// kind and attributes exports.
func TestStartShared(t *testing.T) {
	c := &collector{}
	tp := newProvider(t, c, tracing.WithScheduleDelay(time.Hour))
	tr := tp.Tracer("scope").(*tracing.Tracer)
	shared := []attribute.KeyValue{attribute.String("rpc.method", "echo"), attribute.String("front", "opentool"), attribute.Int("n", 1)}
	orig := slices.Clone(shared)
	_, s1 := tr.StartShared(context.Background(), "plain", trace.SpanKindServer, shared)
	s1.End(trace.WithTimestamp(at(1)))
	_, s2 := tr.StartShared(context.Background(), "changed", trace.SpanKindServer, shared[:2])
	s2.SetAttributes(attribute.String("front", "mcp"), attribute.Int("extra", 7))
	s2.End()
	_, s3 := tr.Start(context.Background(), "plain", trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(shared...))
	s3.End(trace.WithTimestamp(at(1)))
	if !slices.Equal(shared, orig) || cap(shared) != 3 {
		t.Fatalf("the shared slice was changed: %v", shared)
	}
	spans, _ := flushed(t, tp, c)
	if len(spans) != 3 {
		t.Fatalf("%d spans", len(spans))
	}
	if got := kvs(spans[1].Attributes()); got != "[rpc.method=STRING:echo front=STRING:mcp extra=INT64:7]" {
		t.Fatalf("changed span's attributes: %s", got)
	}
	names := map[trace.SpanID]string{}
	a, b := render(spans[0], names), render(spans[2], names)
	a = a[strings.Index(a, "\n"):] // but the start time
	b = b[strings.Index(b, "\n"):]
	if a != b || spans[0].SpanKind() != trace.SpanKindServer {
		t.Fatalf("StartShared exported\n%s\nStart exported\n%s", a, b)
	}
}

// A shared slice with a key twice, an invalid attribute or more than the
// limit allows is copied and cleaned as Start's are.
func TestStartSharedCleansAttributes(t *testing.T) {
	c := &collector{}
	tp := newProvider(t, c, tracing.WithSpanLimits(sdktrace.SpanLimits{AttributeCountLimit: 2, EventCountLimit: 1, LinkCountLimit: 1}))
	tr := tp.Tracer("scope").(*tracing.Tracer)
	for _, attrs := range [][]attribute.KeyValue{
		{attribute.Int("a", 1), attribute.Int("a", 2)},
		{attribute.Int("a", 2), {}},
		{attribute.Int("a", 2), attribute.Int("b", 1), attribute.Int("c", 1)},
	} {
		orig := slices.Clone(attrs)
		_, s := tr.StartShared(context.Background(), "s", trace.SpanKindInternal, attrs)
		s.End()
		if !slices.Equal(attrs, orig) {
			t.Fatalf("the shared slice was changed: %v", attrs)
		}
	}
	spans, _ := flushed(t, tp, c)
	var got []string
	for _, s := range spans {
		got = append(got, fmt.Sprintf("%s %d", kvs(s.Attributes()), s.DroppedAttributes()))
	}
	want := []string{"[a=INT64:2] 0", "[a=INT64:2] 1", "[a=INT64:2 b=INT64:1] 1"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// Start and End of a span with shared attributes allocate the span and the
// context that holds it, nothing else.
func TestStartSharedAllocations(t *testing.T) {
	tp := newProvider(t, &collector{}, tracing.WithMaxQueueSize(1<<20), tracing.WithScheduleDelay(time.Hour))
	tr := tp.Tracer("scope").(*tracing.Tracer)
	attrs := []attribute.KeyValue{attribute.String("rpc.method", "echo"), attribute.String("front", "opentool")}
	ctx := context.Background()
	allocs := testing.AllocsPerRun(1000, func() {
		_, s := tr.StartShared(ctx, "echo", trace.SpanKindServer, attrs)
		s.End()
	})
	if allocs > 2 {
		t.Fatalf("%.1f allocations per span, want 2 (the span, its context)", allocs)
	}
}

// A span the sampler drops records nothing and is not exported, yet carries
// its trace: a new span ID, the parent's trace ID and unsampled flags, to
// its children and to what is injected.
func TestUnsampledPropagates(t *testing.T) {
	c := &collector{}
	tp := newProvider(t, c)
	tr := tp.Tracer("scope")
	ctx := trace.ContextWithRemoteSpanContext(context.Background(), remoteOff)
	ctx, s := tr.Start(ctx, "unsampled")
	child := trace.SpanFromContext(ctx)
	sc := s.SpanContext()
	if s.IsRecording() || child != s || sc.IsSampled() || sc.TraceID() != traceID || !sc.SpanID().IsValid() || sc.SpanID() == spanID || sc.IsRemote() {
		t.Fatalf("span: recording %v, context %v", s.IsRecording(), sc)
	}
	if sc.TraceState().String() != remoteOff.TraceState().String() {
		t.Fatalf("trace state %q", sc.TraceState())
	}
	_, grandchild := tr.Start(ctx, "grandchild")
	if g := grandchild.SpanContext(); g.TraceID() != traceID || g.IsSampled() || g.SpanID() == sc.SpanID() {
		t.Fatalf("grandchild: %v", g)
	}
	s.SetAttributes(attribute.Int("a", 1))
	s.SetStatus(codes.Error, "x")
	s.End()
	grandchild.End()
	if s.TracerProvider() != tp {
		t.Fatal("TracerProvider is not the provider")
	}
	if spans, _ := flushed(t, tp, c); len(spans) != 0 {
		t.Fatalf("%d spans exported", len(spans))
	}
}

// A ratio sampler takes the spans whose trace ID the SDK's same sampler
// takes, about the ratio of them.
func TestRatioSampling(t *testing.T) {
	c := &collector{}
	ratio := sdktrace.TraceIDRatioBased(0.25)
	tp := newProvider(t, c, tracing.WithSampler(ratio), tracing.WithMaxQueueSize(4096))
	tr := tp.Tracer("scope")
	sampled := 0
	for range 2000 {
		_, s := tr.Start(context.Background(), "r")
		sc := s.SpanContext()
		want := ratio.ShouldSample(sdktrace.SamplingParameters{ParentContext: context.Background(), TraceID: sc.TraceID()}).Decision == sdktrace.RecordAndSample
		if sc.IsSampled() != want || s.IsRecording() != want {
			t.Fatalf("trace %s sampled %v, the SDK's sampler says %v", sc.TraceID(), sc.IsSampled(), want)
		}
		if want {
			sampled++
		}
		s.End()
	}
	if sampled < 350 || sampled > 650 {
		t.Fatalf("%d of 2000 sampled at 0.25", sampled)
	}
	if spans, _ := flushed(t, tp, c); len(spans) != sampled {
		t.Fatalf("%d spans exported, %d sampled", len(spans), sampled)
	}
}

// errorsSeen collects what is given to otel.Handle while the test runs.
func errorsSeen(t *testing.T) func() string {
	var mu sync.Mutex
	var seen []string
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
		mu.Lock()
		seen = append(seen, err.Error())
		mu.Unlock()
	}))
	t.Cleanup(func() { otel.SetErrorHandler(otel.ErrorHandlerFunc(func(error) {})) })
	return func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(seen, "\n")
	}
}

// OTEL_TRACES_SAMPLER and its argument choose the sampler as with the SDK.
func TestSamplerFromEnvironment(t *testing.T) {
	for _, c := range []struct {
		sampler, arg                       string
		root, sampledChild, unsampledChild bool
		reported                           string
	}{
		{"", "", true, true, false, ""},
		{"always_on", "", true, true, true, ""},
		{"always_off", "", false, false, false, ""},
		{"traceidratio", "0", false, false, false, ""},
		{"traceidratio", "", true, true, true, ""},
		{"parentbased_always_on", "", true, true, false, ""},
		{"parentbased_always_off", "", false, true, false, ""},
		{"parentbased_traceidratio", "0", false, true, false, ""},
		{"parentbased_traceidratio", "2", true, true, false, "is not a ratio"},
		{"sometimes", "", true, true, false, `OTEL_TRACES_SAMPLER="sometimes" is not a sampler`},
	} {
		t.Run(c.sampler+"="+c.arg, func(t *testing.T) {
			seen := errorsSeen(t)
			t.Setenv("OTEL_TRACES_SAMPLER", c.sampler)
			t.Setenv("OTEL_TRACES_SAMPLER_ARG", c.arg)
			tp := newProvider(t, &collector{})
			tr := tp.Tracer("scope")
			var got [3]bool
			for i, parent := range []trace.SpanContext{{}, remoteOn, remoteOff} {
				_, s := tr.Start(trace.ContextWithRemoteSpanContext(context.Background(), parent), "s")
				got[i] = s.SpanContext().IsSampled()
				s.End()
			}
			if want := [3]bool{c.root, c.sampledChild, c.unsampledChild}; got != want {
				t.Fatalf("sampled (root, child of sampled, child of unsampled) = %v, want %v", got, want)
			}
			if r := seen(); (c.reported == "") != (r == "") || !strings.Contains(r, c.reported) {
				t.Fatalf("reported %q, want %q", r, c.reported)
			}
		})
	}
}

// The OTEL_SPAN_*_LIMIT variables limit spans as the SDK's.
func TestLimitsFromEnvironment(t *testing.T) {
	t.Setenv("OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT", "2")
	t.Setenv("OTEL_SPAN_EVENT_COUNT_LIMIT", "1")
	t.Setenv("OTEL_SPAN_LINK_COUNT_LIMIT", "1")
	t.Setenv("OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT", "3")
	p := newPair(t, nil, nil)
	run := func(tp trace.TracerProvider) {
		_, s := tp.Tracer("scope").Start(context.Background(), "s", trace.WithTimestamp(at(0)),
			trace.WithAttributes(attribute.Int("a", 1), attribute.String("b", "long"), attribute.Int("c", 3)),
			trace.WithLinks(trace.Link{SpanContext: remoteOn}, trace.Link{SpanContext: remoteOff}))
		s.AddEvent("e1", trace.WithTimestamp(at(1)))
		s.AddEvent("e2", trace.WithTimestamp(at(2)))
		s.End(trace.WithTimestamp(at(3)))
	}
	run(p.sdk)
	run(p.ours)
	sdk, ours := p.exported(t)
	if len(ours) != 1 || !slices.Equal(sdk, ours) {
		t.Fatalf("the SDK exported:\n%s\ntracing exported:\n%s", sdk, ours)
	}
	for _, want := range []string{"attrs: [a=INT64:1 b=STRING:lon] dropped=1", "events dropped=1", "links dropped=1"} {
		if !strings.Contains(ours[0], want) {
			t.Fatalf("%q not in\n%s", want, ours[0])
		}
	}
}

// Tracer returns one tracer per scope, Tracer("") the SDK's default scope.
func TestTracerScopes(t *testing.T) {
	tp := newProvider(t, &collector{})
	a := tp.Tracer("a", trace.WithInstrumentationVersion("1"))
	if tp.Tracer("a", trace.WithInstrumentationVersion("1")) != a || tp.Tracer("a") == a ||
		tp.Tracer("a", trace.WithInstrumentationVersion("1"), trace.WithInstrumentationAttributes(attribute.Int("x", 1))) == a {
		t.Fatal("tracers of scopes")
	}
	_, s := tp.Tracer("").Start(context.Background(), "s")
	if got := s.(tracing.ReadOnlySpan).InstrumentationScope().Name; got != "go.opentelemetry.io/otel/sdk/tracer" {
		t.Fatalf("scope %q", got)
	}
}

// With a limit of 0, what is dropped is counted, where the SDK's exported
// span says 0 (the one difference of dropped counts, in the package doc).
func TestZeroLimitsCounted(t *testing.T) {
	limits := sdktrace.SpanLimits{AttributeValueLengthLimit: -1, AttributeValueDepthLimit: -1}
	p := newPair(t, nil, &limits)
	for _, tp := range []trace.TracerProvider{p.sdk, p.ours} {
		_, s := tp.Tracer("scope").Start(context.Background(), "zero", trace.WithAttributes(attribute.Int("a", 1)))
		s.AddEvent("e")
		s.AddLink(trace.Link{SpanContext: remoteOn})
		s.End()
	}
	if err := p.ours.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	sdk, _ := p.sdkC.got()
	ours, _ := p.ouC.got()
	if len(sdk) != 1 || len(ours) != 1 {
		t.Fatalf("%d and %d spans", len(sdk), len(ours))
	}
	count := func(s tracing.ReadOnlySpan) [3]int {
		return [3]int{s.DroppedAttributes(), s.DroppedEvents(), s.DroppedLinks()}
	}
	if got, sdkGot := count(ours[0]), count(sdk[0]); got != [3]int{1, 1, 1} || sdkGot != [3]int{1, 0, 0} {
		t.Fatalf("dropped (attributes, events, links): %v, the SDK's %v", got, sdkGot)
	}
}
