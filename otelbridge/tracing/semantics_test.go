package tracing_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/opentoolgen/opentoolgen/otelbridge/tracing"
)

// collector is an exporter of both kinds (the SDK's and tracing's) that
// keeps the spans it is given; it notes whether it was ever called
// concurrently.
type collector struct {
	mu       sync.Mutex
	spans    []tracing.ReadOnlySpan
	batches  []int
	inExport sync.Mutex
	overlap  bool
	block    chan struct{} // when non-nil, Export waits for it (or ctx)
	busy     chan struct{} // when non-nil, closed at the first Export
	busyOnce sync.Once
	shutdown bool
}

func (c *collector) Export(ctx context.Context, spans []tracing.ReadOnlySpan) error {
	if !c.inExport.TryLock() {
		c.mu.Lock()
		c.overlap = true
		c.mu.Unlock()
		c.inExport.Lock()
	}
	defer c.inExport.Unlock()
	if c.busy != nil {
		c.busyOnce.Do(func() { close(c.busy) })
	}
	if c.block != nil {
		select {
		case <-c.block:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.spans = append(c.spans, spans...)
	c.batches = append(c.batches, len(spans))
	return nil
}

func (c *collector) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	conv := make([]tracing.ReadOnlySpan, len(spans))
	for i, s := range spans {
		conv[i] = s
	}
	return c.Export(ctx, conv)
}

func (c *collector) Shutdown(context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.shutdown = true
	return nil
}

func (c *collector) got() ([]tracing.ReadOnlySpan, []int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]tracing.ReadOnlySpan(nil), c.spans...), append([]int(nil), c.batches...)
}

var testResource = resource.NewSchemaless(attribute.String("service.name", "calc"))

// pair is the same provider made twice: the SDK's (with a synchronous
// processor) and tracing's, exporting to their collectors.
type pair struct {
	sdk       *sdktrace.TracerProvider
	ours      *tracing.Provider
	sdkC, ouC *collector
}

func newPair(t *testing.T, sampler sdktrace.Sampler, limits *sdktrace.SpanLimits) *pair {
	p := &pair{sdkC: &collector{}, ouC: &collector{}}
	sopts := []sdktrace.TracerProviderOption{sdktrace.WithSyncer(p.sdkC), sdktrace.WithResource(testResource)}
	oopts := []tracing.Option{tracing.WithResource(testResource), tracing.WithScheduleDelay(time.Hour)}
	if sampler != nil {
		sopts = append(sopts, sdktrace.WithSampler(sampler))
		oopts = append(oopts, tracing.WithSampler(sampler))
	}
	if limits != nil {
		sopts = append(sopts, sdktrace.WithRawSpanLimits(*limits))
		oopts = append(oopts, tracing.WithSpanLimits(*limits))
	}
	p.sdk = sdktrace.NewTracerProvider(sopts...)
	p.ours = tracing.NewProvider(p.ouC, oopts...)
	t.Cleanup(func() {
		p.sdk.Shutdown(context.Background())
		p.ours.Shutdown(context.Background())
	})
	return p
}

// exported returns the spans each provider exported, rendered.
func (p *pair) exported(t *testing.T) (sdk, ours []string) {
	t.Helper()
	if err := p.ours.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	s, _ := p.sdkC.got()
	o, _ := p.ouC.got()
	return renderAll(s), renderAll(o)
}

func renderAll(spans []tracing.ReadOnlySpan) []string {
	names := map[trace.SpanID]string{spanID: "the remote parent"}
	for _, s := range spans {
		names[s.SpanContext().SpanID()] = s.Name()
	}
	var out []string
	for _, s := range spans {
		out = append(out, render(s, names))
	}
	sort.Strings(out)
	return out
}

// render writes every field of s an exporter reads, but the random IDs
// (their validity is written, the trace ID when it is a test's, the name
// of the parent span) and the times of events made without a timestamp.
func render(s tracing.ReadOnlySpan, names map[trace.SpanID]string) string {
	var b strings.Builder
	sc, parent := s.SpanContext(), s.Parent()
	fmt.Fprintf(&b, "%s kind=%v start=%d end=%d\n", s.Name(), s.SpanKind(), s.StartTime().UnixNano(), s.EndTime().UnixNano())
	fmt.Fprintf(&b, "  sc: %s flags=%v state=%q remote=%v spanValid=%v\n", id(sc.TraceID()), sc.TraceFlags(), sc.TraceState().String(), sc.IsRemote(), sc.SpanID().IsValid())
	pname, ok := names[parent.SpanID()]
	if !ok {
		pname = fmt.Sprintf("valid=%v", parent.SpanID().IsValid())
	}
	fmt.Fprintf(&b, "  parent: %s span=%s flags=%v remote=%v\n", id(parent.TraceID()), pname, parent.TraceFlags(), parent.IsRemote())
	fmt.Fprintf(&b, "  attrs: %s dropped=%d\n", kvs(s.Attributes()), s.DroppedAttributes())
	for _, e := range s.Events() {
		ts := e.Time.UnixNano()
		if d := e.Time.Sub(t0); d < 0 || d > time.Hour {
			ts = -1 // now: not comparable
		}
		attrs := e.Attributes
		if e.Name == "exception" {
			attrs = withoutStack(attrs)
		}
		fmt.Fprintf(&b, "  event %s t=%d %s dropped=%d\n", e.Name, ts, kvs(attrs), e.DroppedAttributeCount)
	}
	fmt.Fprintf(&b, "  events dropped=%d\n", s.DroppedEvents())
	for _, l := range s.Links() {
		fmt.Fprintf(&b, "  link %s/%s state=%q %s dropped=%d\n", l.SpanContext.TraceID(), l.SpanContext.SpanID(), l.SpanContext.TraceState().String(), kvs(l.Attributes), l.DroppedAttributeCount)
	}
	fmt.Fprintf(&b, "  links dropped=%d\n", s.DroppedLinks())
	fmt.Fprintf(&b, "  status %v %q children=%d\n", s.Status().Code, s.Status().Description, s.ChildSpanCount())
	sc2 := s.InstrumentationScope()
	fmt.Fprintf(&b, "  scope %s %s %s %s resource=%s\n", sc2.Name, sc2.Version, sc2.SchemaURL, sc2.Attributes.Encoded(attribute.DefaultEncoder()), s.Resource().Encoded(attribute.DefaultEncoder()))
	return b.String()
}

// id writes a trace ID of the tests (they start with 4bf9), else whether
// it is valid.
func id(tid trace.TraceID) string {
	if strings.HasPrefix(tid.String(), "4bf9") {
		return tid.String()
	}
	return fmt.Sprintf("valid=%v", tid.IsValid())
}

func kvs(attrs []attribute.KeyValue) string {
	var parts []string
	for _, kv := range attrs {
		part := string(kv.Key) + "=" + kv.Value.Type().String() + ":" + kv.Value.String()
		if kv.Value.Type() == attribute.MAP { // String may hide keys given twice
			part += fmt.Sprintf("(%d keys)", len(kv.Value.AsMap()))
		}
		parts = append(parts, part)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// withoutStack replaces a stack trace (whose frames differ) by its presence.
func withoutStack(attrs []attribute.KeyValue) []attribute.KeyValue {
	out := make([]attribute.KeyValue, len(attrs))
	for i, kv := range attrs {
		if kv.Key == "exception.stacktrace" {
			kv = attribute.Bool("exception.stacktrace", strings.Contains(kv.Value.AsString(), "goroutine"))
		}
		out[i] = kv
	}
	return out
}

var (
	t0        = time.Unix(1700000000, 0)
	traceID   = mustTraceID("4bf92f3577b34da6a3ce929d0e0e4736")
	spanID    = mustSpanID("00f067aa0ba902b7")
	state, _  = trace.ParseTraceState("vendor=x,other=y")
	remoteOn  = trace.NewSpanContext(trace.SpanContextConfig{TraceID: traceID, SpanID: spanID, TraceFlags: trace.FlagsSampled, TraceState: state, Remote: true})
	remoteOff = trace.NewSpanContext(trace.SpanContextConfig{TraceID: traceID, SpanID: spanID, Remote: true})
)

func mustTraceID(h string) trace.TraceID {
	id, err := trace.TraceIDFromHex(h)
	if err != nil {
		panic(err)
	}
	return id
}

func mustSpanID(h string) trace.SpanID {
	id, err := trace.SpanIDFromHex(h)
	if err != nil {
		panic(err)
	}
	return id
}

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

type errDisk struct{}

func (errDisk) Error() string { return "disk on fire" }

// semanticsCases are operations made on both providers: their exported
// spans must be the same.
var semanticsCases = []struct {
	name    string
	sampler sdktrace.Sampler
	limits  *sdktrace.SpanLimits
	run     func(tp trace.TracerProvider)
}{
	{name: "attributes, events, links, status, name, end", run: func(tp trace.TracerProvider) {
		tr := tp.Tracer("scope.a", trace.WithInstrumentationVersion("1.2.3"), trace.WithSchemaURL("https://opentelemetry.io/schemas/1.43.0"),
			trace.WithInstrumentationAttributes(attribute.String("lib", "x")))
		_, s := tr.Start(context.Background(), "add", trace.WithSpanKind(trace.SpanKindServer), trace.WithTimestamp(at(0)),
			trace.WithAttributes(attribute.String("a", "1"), attribute.Int("n", 2), attribute.String("a", "again"),
				attribute.KeyValue{}, attribute.StringSlice("ss", []string{"x", "y"}), attribute.Map("m", attribute.String("k", "v"))),
			trace.WithLinks(trace.Link{SpanContext: remoteOn, Attributes: []attribute.KeyValue{attribute.Bool("l", true)}}, trace.Link{}))
		s.SetAttributes(attribute.Float64("f", 2.5), attribute.Int("n", 3), attribute.Bool("b", false))
		s.SetAttributes()
		s.AddEvent("retry", trace.WithTimestamp(at(1)), trace.WithAttributes(attribute.Int("attempt", 2), attribute.Int("attempt", 3)))
		s.AddLink(trace.Link{SpanContext: remoteOff})
		s.SetName("add2")
		s.SetStatus(codes.Error, "bad")
		s.SetStatus(codes.Unset, "ignored")
		s.SetStatus(codes.Ok, "ok's description is dropped")
		s.SetStatus(codes.Error, "Ok wins")
		s.End(trace.WithTimestamp(at(5)))
		// after End: ignored
		s.SetAttributes(attribute.String("late", "x"))
		s.AddEvent("late", trace.WithTimestamp(at(6)))
		s.SetName("late")
		s.SetStatus(codes.Error, "late")
		s.RecordError(errors.New("late"))
		s.AddLink(trace.Link{SpanContext: remoteOn})
		s.End(trace.WithTimestamp(at(9)))
	}},
	{name: "error status, RecordError", run: func(tp trace.TracerProvider) {
		_, s := tp.Tracer("scope").Start(context.Background(), "fail", trace.WithTimestamp(at(0)))
		s.RecordError(nil)
		s.RecordError(errDisk{}, trace.WithTimestamp(at(1)), trace.WithAttributes(attribute.String("where", "disk")))
		s.RecordError(fmt.Errorf("wrapped: %w", errDisk{}), trace.WithTimestamp(at(2)), trace.WithStackTrace(true))
		s.SetStatus(codes.Error, "disk on fire")
		s.SetStatus(codes.Unset, "")
		s.End(trace.WithTimestamp(at(3)))
	}},
	{name: "children, remote parent, new root", run: func(tp trace.TracerProvider) {
		tr := tp.Tracer("scope")
		ctx := trace.ContextWithRemoteSpanContext(context.Background(), remoteOn)
		ctx, parent := tr.Start(ctx, "parent", trace.WithSpanKind(trace.SpanKindServer), trace.WithTimestamp(at(0)))
		for _, name := range []string{"c1", "c2"} {
			_, c := tr.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithTimestamp(at(1)))
			c.End(trace.WithTimestamp(at(2)))
		}
		_, root := tr.Start(ctx, "root", trace.WithNewRoot(), trace.WithTimestamp(at(1)))
		root.End(trace.WithTimestamp(at(2)))
		parent.End(trace.WithTimestamp(at(3)))
		_, late := tr.Start(ctx, "after the parent ended", trace.WithTimestamp(at(4)))
		late.End(trace.WithTimestamp(at(5)))
		_, bad := tr.Start(ctx, "invalid kind", trace.WithSpanKind(trace.SpanKind(42)), trace.WithTimestamp(at(4)))
		bad.End(trace.WithTimestamp(at(5)))
	}},
	{name: "default sampler, parents sampled and not", run: func(tp trace.TracerProvider) {
		tr := tp.Tracer("scope")
		for i, psc := range []trace.SpanContext{remoteOn, remoteOff} {
			ctx, s := tr.Start(trace.ContextWithRemoteSpanContext(context.Background(), psc), fmt.Sprint("child of remote ", i), trace.WithTimestamp(at(0)))
			_, c := tr.Start(ctx, fmt.Sprint("grandchild ", i), trace.WithTimestamp(at(1)))
			c.End(trace.WithTimestamp(at(2)))
			s.End(trace.WithTimestamp(at(3)))
		}
		local := trace.NewSpanContext(trace.SpanContextConfig{TraceID: traceID, SpanID: trace.SpanID{7}, TraceState: remoteOn.TraceState()})
		_, s := tr.Start(trace.ContextWithSpanContext(context.Background(), local), "child of an unsampled local parent", trace.WithTimestamp(at(4)))
		s.End(trace.WithTimestamp(at(5)))
	}},
	{name: "panic in a deferred End", run: func(tp trace.TracerProvider) {
		func() {
			defer func() { recover() }()
			_, s := tp.Tracer("scope").Start(context.Background(), "panics", trace.WithTimestamp(at(0)))
			defer s.End(trace.WithTimestamp(at(1)), trace.WithStackTrace(true))
			panic("boom")
		}()
	}},
	{name: "limits and dropped counts", limits: &sdktrace.SpanLimits{AttributeCountLimit: 3, EventCountLimit: 2, LinkCountLimit: 2,
		AttributePerEventCountLimit: 1, AttributePerLinkCountLimit: 1, AttributeValueLengthLimit: -1, AttributeValueDepthLimit: -1},
		run: func(tp trace.TracerProvider) {
			_, s := tp.Tracer("scope").Start(context.Background(), "limited", trace.WithTimestamp(at(0)),
				trace.WithAttributes(attribute.Int("a", 1), attribute.Int("b", 2)))
			s.SetAttributes(attribute.Int("c", 3), attribute.Int("d", 4), attribute.Int("a", 10), attribute.KeyValue{})
			s.SetAttributes(attribute.Int("e", 5), attribute.Int("b", 20))
			for i := range 4 {
				s.AddEvent(fmt.Sprint("e", i), trace.WithTimestamp(at(i)), trace.WithAttributes(attribute.Int("x", i), attribute.Int("y", i)))
			}
			for i := range 3 {
				sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: traceID, SpanID: trace.SpanID{byte(i + 1)}})
				s.AddLink(trace.Link{SpanContext: sc, Attributes: []attribute.KeyValue{attribute.Int("x", i), attribute.Int("y", i)}})
			}
			s.End(trace.WithTimestamp(at(9)))
		}},
	{name: "value length limit, map keys", limits: &sdktrace.SpanLimits{AttributeValueLengthLimit: 4, AttributeValueDepthLimit: -1,
		AttributeCountLimit: 128, EventCountLimit: 128, LinkCountLimit: 128, AttributePerEventCountLimit: 128, AttributePerLinkCountLimit: 128},
		run: func(tp trace.TracerProvider) {
			_, s := tp.Tracer("scope").Start(context.Background(), "long", trace.WithTimestamp(at(0)),
				trace.WithAttributes(attribute.String("short", "abc"), attribute.String("utf8", "héllo wörld")))
			s.SetAttributes(attribute.String("invalid", "a\xffbcdef"), attribute.String("invalid-short", "a\xffb"),
				attribute.StringSlice("ss", []string{"abcdef", "ab"}), attribute.ByteSlice("bytes", []byte("abcdefgh")),
				attribute.Slice("slice", attribute.StringValue("abcdefg"), attribute.IntValue(12345678)),
				attribute.Map("map", attribute.String("k", "vvvvvvv"), attribute.Bool("b", true)), attribute.String("short", "abcdefg"),
				attribute.Map("dup", attribute.String("k", "first"), attribute.Int("a", 1), attribute.String("k", "last"),
					attribute.Slice("in", attribute.MapValue(attribute.Int("x", 1), attribute.Int("x", 2)))))
			s.AddEvent("e", trace.WithTimestamp(at(1)), trace.WithAttributes(attribute.Map("m", attribute.Int("x", 1), attribute.Int("x", 2))))
			s.AddLink(trace.Link{SpanContext: remoteOn, Attributes: []attribute.KeyValue{attribute.Map("m", attribute.Int("x", 1), attribute.Int("x", 2))}})
			s.End(trace.WithTimestamp(at(1)))
			_, s = tp.Tracer("scope").Start(context.Background(), "short", trace.WithTimestamp(at(0)),
				trace.WithAttributes(attribute.String("short", "abc"), attribute.Int("n", 123456),
					attribute.Map("dup", attribute.Int("x", 1), attribute.Int("x", 2))))
			s.End(trace.WithTimestamp(at(1)))
		}},
	{name: "no attributes, events or links allowed", limits: &sdktrace.SpanLimits{AttributeValueLengthLimit: -1, AttributeValueDepthLimit: -1,
		EventCountLimit: 1, LinkCountLimit: 1},
		run: func(tp trace.TracerProvider) {
			_, s := tp.Tracer("scope").Start(context.Background(), "zero", trace.WithTimestamp(at(0)), trace.WithAttributes(attribute.Int("a", 1)))
			s.SetAttributes(attribute.Int("b", 1))
			s.AddEvent("e", trace.WithTimestamp(at(1)), trace.WithAttributes(attribute.Int("x", 1)))
			s.AddLink(trace.Link{SpanContext: remoteOn, Attributes: []attribute.KeyValue{attribute.Int("x", 1)}})
			s.End(trace.WithTimestamp(at(2)))
		}},
	{name: "sampler: parent-based, remote parents", run: func(tp trace.TracerProvider) {
		tr := tp.Tracer("scope")
		for _, parent := range []trace.SpanContext{remoteOn, remoteOff} {
			ctx := trace.ContextWithRemoteSpanContext(context.Background(), parent)
			_, s := tr.Start(ctx, "child of "+parent.TraceFlags().String(), trace.WithTimestamp(at(0)))
			s.End(trace.WithTimestamp(at(1)))
		}
	}},
	{name: "sampler: attributes and trace state", sampler: annotating{}, run: func(tp trace.TracerProvider) {
		ctx := trace.ContextWithRemoteSpanContext(context.Background(), remoteOn)
		_, s := tp.Tracer("scope").Start(ctx, "annotated", trace.WithTimestamp(at(0)), trace.WithAttributes(attribute.String("mine", "1")))
		s.End(trace.WithTimestamp(at(1)))
		_, s = tp.Tracer("scope").Start(ctx, "record only", trace.WithTimestamp(at(0)))
		s.End(trace.WithTimestamp(at(1)))
	}},
	{name: "sampler: never", sampler: sdktrace.NeverSample(), run: func(tp trace.TracerProvider) {
		_, s := tp.Tracer("scope").Start(context.Background(), "dropped")
		s.End()
	}},
}

// annotating samples every span with an attribute and a trace state entry,
// but records without sampling the spans named "record only".
type annotating struct{}

func (annotating) ShouldSample(p sdktrace.SamplingParameters) sdktrace.SamplingResult {
	ts, _ := trace.SpanContextFromContext(p.ParentContext).TraceState().Insert("sampler", "seen")
	if p.Name == "record only" {
		return sdktrace.SamplingResult{Decision: sdktrace.RecordOnly, Tracestate: ts}
	}
	return sdktrace.SamplingResult{Decision: sdktrace.RecordAndSample, Tracestate: ts,
		Attributes: []attribute.KeyValue{attribute.String("sampler", "annotating"), attribute.String("mine", "sampler's")}}
}

func (annotating) Description() string { return "annotating" }

// The same operations on the SDK's provider and on tracing's export the
// same spans, field by field.
func TestSemanticsAsSDK(t *testing.T) {
	for _, c := range semanticsCases {
		t.Run(c.name, func(t *testing.T) {
			p := newPair(t, c.sampler, c.limits)
			c.run(p.sdk)
			c.run(p.ours)
			sdk, ours := p.exported(t)
			if strings.Join(sdk, "\n") != strings.Join(ours, "\n") {
				t.Fatalf("the SDK exported:\n%s\ntracing exported:\n%s", strings.Join(sdk, "\n"), strings.Join(ours, "\n"))
			}
			if len(sdk) == 0 && c.sampler == nil {
				t.Fatal("nothing exported")
			}
			t.Logf("%d spans:\n%s", len(ours), strings.Join(ours, "\n"))
		})
	}
}
