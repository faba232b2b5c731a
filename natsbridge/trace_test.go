package natsbridge_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

type traceKey struct{}

// testPropagator carries a context value as the traceparent member, as
// otelbridge's W3C propagator does with a span.
type testPropagator struct{}

func (testPropagator) Inject(ctx context.Context, md intercept.Metadata) {
	if v, _ := ctx.Value(traceKey{}).(string); v != "" {
		md.Set("traceparent", v)
	}
}

func (testPropagator) Extract(ctx context.Context, md intercept.Metadata) context.Context {
	if v := md.Get("traceparent"); v != "" {
		return context.WithValue(ctx, traceKey{}, v)
	}
	return ctx
}

// TestTraceContext: the call context crosses NATS in the message headers,
// both for a call and a stream, and the interceptors of a tool of
// runtime.Intercept see the call as the NATS front's, with its headers as
// metadata (what otelbridge's spans are made of).
func TestTraceContext(t *testing.T) {
	intercept.SetPropagator(testPropagator{})
	t.Cleanup(func() { intercept.SetPropagator(nil) })
	type seen struct {
		function, front, meta, extra, ctx string
		stream                            bool
	}
	var mu sync.Mutex
	var calls []seen
	ic := func(ctx context.Context, call *intercept.Call, next func(context.Context) error) error {
		v, _ := ctx.Value(traceKey{}).(string)
		mu.Lock()
		calls = append(calls, seen{call.Function, call.Front, call.Meta.Get("traceparent"), call.Meta.Get("X-Extra"), v, call.Stream})
		mu.Unlock()
		return next(ctx)
	}
	url := startServer(t)
	serve(t, url, runtime.Intercept(newCalc("a"), ic))
	c := natsbridge.NewCaller(connect(t, url), "calc_tool")
	const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	ctx := intercept.WithOutgoingMetadata(context.WithValue(t.Context(), traceKey{}, parent), intercept.MapMetadata{"X-Extra": "e"})
	if got, err := c.CallFunction(ctx, "add", json.RawMessage(`{"a":1,"b":2}`)); err != nil || string(got) != `{"sum":3}` {
		t.Fatalf("add: %s, %v", got, err)
	}
	if items, err := collect(c.StreamFunction(ctx, "count", json.RawMessage(`{"n":2}`))); err != nil || len(items) != 2 {
		t.Fatalf("count: %v, %v", items, err)
	}
	// Without a trace on the caller's context, none reaches the tool.
	if _, err := c.CallFunction(t.Context(), "add", json.RawMessage(`{"a":1,"b":1}`)); err != nil {
		t.Fatal(err)
	}
	// A header named in lower case, as the nats CLI sends it (-H), is read.
	raw := &nats.Msg{Subject: "calc_tool.add", Data: []byte(`{"a":1}`), Header: nats.Header{"traceparent": {parent}}}
	if m, err := connect(t, url).RequestMsg(raw, waitLong); err != nil || string(m.Data) != `{"sum":1}` {
		t.Fatalf("raw add: %v, %v", m, err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []seen{
		{"add", "nats", parent, "e", parent, false},
		{"count", "nats", parent, "e", parent, true},
		{"add", "nats", "", "", "", false},
		{"add", "nats", parent, "", parent, false},
	}
	if len(calls) != len(want) {
		t.Fatalf("interceptor saw %+v, want %+v", calls, want)
	}
	for i := range want {
		if calls[i] != want[i] {
			t.Errorf("call %d: interceptor saw %+v, want %+v", i, calls[i], want[i])
		}
	}
}
