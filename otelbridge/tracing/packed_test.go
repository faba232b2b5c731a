package tracing_test

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/opentoolgen/opentoolgen/otelbridge/tracing"
)

// A span keeps its SpanContext and its parent's as parts (trace states
// behind pointers, the parent's trace ID as a flag): both read back as the
// SDK's span gives them, trace states included, for every kind of parent
// and with a sampler that changes the trace state.
func TestPackedSpanContexts(t *testing.T) {
	state, _ := trace.ParseTraceState("vendor=x,other=y")
	traceID := trace.TraceID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	parents := map[string]context.Context{
		"none": context.Background(),
		"remote, sampled, with a state": trace.ContextWithRemoteSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
			TraceID: traceID, SpanID: trace.SpanID{1}, TraceFlags: trace.FlagsSampled | 0x02, TraceState: state})),
		"local, unsampled, with a state": trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
			TraceID: traceID, SpanID: trace.SpanID{2}, TraceState: state})),
		"a span ID without a trace ID": trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
			SpanID: trace.SpanID{3}, TraceFlags: trace.FlagsSampled})),
		"a trace ID without a span ID": trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
			TraceID: traceID, TraceState: state})),
	}
	samplers := map[string]sdktrace.Sampler{
		"default":      nil,
		"annotating":   annotating{}, // adds to the trace state
		"always":       sdktrace.AlwaysSample(),
		"record only":  recordOnly{},
		"parent based": sdktrace.ParentBased(sdktrace.TraceIDRatioBased(1)),
	}
	for sname, sampler := range samplers {
		p := newPair(t, sampler, nil)
		for pname, ctx := range parents {
			for _, newRoot := range []bool{false, true} {
				var opts []trace.SpanStartOption
				if newRoot {
					opts = append(opts, trace.WithNewRoot())
				}
				_, sdkSpan := p.sdk.Tracer("scope").Start(ctx, "s", opts...)
				_, ourSpan := p.ours.Tracer("scope").Start(ctx, "s", opts...)
				if sdkSpan.IsRecording() != ourSpan.IsRecording() {
					t.Fatalf("%s, %s, new root %v: recording %v, the SDK's %v", sname, pname, newRoot, ourSpan.IsRecording(), sdkSpan.IsRecording())
				}
				if !ourSpan.IsRecording() {
					continue
				}
				sdkRO, ourRO := sdkSpan.(sdktrace.ReadOnlySpan), ourSpan.(tracing.ReadOnlySpan)
				sp, op := sdkRO.Parent(), ourRO.Parent()
				if !op.Equal(sp) || op.TraceState().String() != sp.TraceState().String() || op.IsRemote() != sp.IsRemote() {
					t.Errorf("%s, %s, new root %v: parent %+v, the SDK's %+v", sname, pname, newRoot, op, sp)
				}
				ss, os := sdkSpan.SpanContext(), ourSpan.SpanContext()
				if !os.Equal(ourRO.SpanContext()) {
					t.Errorf("%s, %s: SpanContext changes", sname, pname)
				}
				sameTrace := os.TraceID() == ss.TraceID()
				if os.TraceFlags() != ss.TraceFlags() || os.TraceState().String() != ss.TraceState().String() ||
					os.IsRemote() || !os.IsValid() || sameTrace != sp.TraceID().IsValid() {
					t.Errorf("%s, %s, new root %v: span context %+v, the SDK's %+v", sname, pname, newRoot, os, ss)
				}
				sdkSpan.End()
				ourSpan.End()
			}
		}
	}
}

type recordOnly struct{}

func (recordOnly) ShouldSample(p sdktrace.SamplingParameters) sdktrace.SamplingResult {
	return sdktrace.SamplingResult{Decision: sdktrace.RecordOnly, Tracestate: trace.SpanContextFromContext(p.ParentContext).TraceState()}
}

func (recordOnly) Description() string { return "record only" }

// A span keeps its end as the time since its start, and an end time given
// to End as it was given; its status's description beside it: both read
// back as given, and as the SDK's.
func TestPackedEndAndStatus(t *testing.T) {
	p := newPair(t, nil, nil)
	at := time.Date(2026, 11, 26, 23, 0, 0, 123, time.FixedZone("X", 3600))
	statuses := [][]struct {
		code codes.Code
		desc string
	}{
		{{codes.Error, "disk full"}},
		{{codes.Error, "disk full"}, {codes.Ok, "ignored"}},
		{{codes.Ok, "not kept"}, {codes.Error, "too late"}},
		{{codes.Error, "first"}, {codes.Error, "second"}, {codes.Unset, "no"}},
		{{codes.Error, ""}},
		{},
	}
	for i, sts := range statuses {
		for _, given := range []bool{false, true} {
			var spans [2]trace.Span
			for j, tp := range []trace.TracerProvider{p.sdk, p.ours} {
				_, s := tp.Tracer("scope").Start(context.Background(), "s")
				for _, st := range sts {
					s.SetStatus(st.code, st.desc)
				}
				if given {
					s.End(trace.WithTimestamp(at))
				} else {
					s.End()
				}
				s.SetStatus(codes.Error, "after the end")
				spans[j] = s
			}
			sdkRO, ourRO := spans[0].(sdktrace.ReadOnlySpan), spans[1].(tracing.ReadOnlySpan)
			if got, want := ourRO.Status(), sdkRO.Status(); got != want {
				t.Errorf("statuses %d: %+v, the SDK's %+v", i, got, want)
			}
			end := ourRO.EndTime()
			switch {
			case given && (end != at || end.Location() != at.Location()):
				t.Errorf("end %v (%v), given %v", end, end.Location(), at)
			case !given && (end.Before(ourRO.StartTime()) || time.Since(end) < 0 || end.Sub(ourRO.StartTime()) > time.Minute):
				t.Errorf("end %v, started %v", end, ourRO.StartTime())
			case !given && end != ourRO.EndTime():
				t.Errorf("EndTime changes: %v, %v", end, ourRO.EndTime())
			}
		}
	}
}
