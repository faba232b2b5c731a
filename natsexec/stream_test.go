package natsexec

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/nats-io/nats.go"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/opentoolgen/opentoolgen/otelbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// feedTool is testTool with a streaming function, feed {n, fail}: items
// {"i":0} … {"i":n-1}, then a 503 error when fail is set.
type feedTool struct {
	*testTool
	ended chan error // how each stream ended (its emit's last error)
}

func newFeedTool(t *testing.T) *feedTool {
	tt := newTestTool(t)
	doc := *tt.doc
	doc.Functions = append(doc.Functions[:len(doc.Functions):len(doc.Functions)],
		document.Function{Name: "feed", Description: "streams", Stream: map[string]*document.Return{"data": {Name: "i"}}})
	tt.doc = &doc
	return &feedTool{testTool: tt, ended: make(chan error, 10)}
}

func (ft *feedTool) StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(json.RawMessage) error) error {
	var a struct {
		N    int
		Fail bool
	}
	json.Unmarshal(args, &a)
	for i := range a.N {
		if err := emit(json.RawMessage(`{"i":` + strconv.Itoa(i) + `}`)); err != nil {
			ft.ended <- err
			return err
		}
	}
	ft.ended <- nil
	if a.Fail {
		return runtime.NewError(503, "the feed is down")
	}
	return nil
}

func feedHarness(t *testing.T, tool runtime.Tool, opts Options) *harness {
	h := &harness{nc: startServer(t), cards: NewMemoryCardStore(), rep: &MemoryReporter{C: make(chan *Report, 100)}}
	opts.Subject = fullSubject
	ex, err := New(h.nc, tool, h.cards, h.rep, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ex.Close(context.Background()) })
	h.ex = ex
	return h
}

func (h *harness) putFeed(t *testing.T, args string) {
	t.Helper()
	c := &Card{CardID: "card-1", ProjectID: "p1", Type: TypeToolCall,
		Content: json.RawMessage(`{"tool_call_id":"tc-1","tool_name":"feed","arguments":` + args + `}`)}
	if err := h.cards.Save(context.Background(), c); err != nil {
		t.Fatal(err)
	}
}

// A streaming function's items are the result's "items", in order; a bound
// ends the stream and says "truncated"; an error of the stream fails the
// result as a call's error does.
func TestStreamItemsInResult(t *testing.T) {
	tool := newFeedTool(t)
	h := feedHarness(t, tool, Options{MaxStreamItems: 3})
	for _, tt := range []struct {
		args, status, result string
		ended                error
	}{
		{`{"n":2}`, "success", `{"items":[{"i":0},{"i":1}]}`, nil},
		{`{"n":0}`, "success", `{"items":[]}`, nil},
		{`{"n":3}`, "success", `{"items":[{"i":0},{"i":1},{"i":2}]}`, nil},
		{`{"n":10}`, "success", `{"items":[{"i":0},{"i":1},{"i":2}],"truncated":true}`, errStreamFull},
		{`{"n":1,"fail":true}`, "failed", `{"error_code":"upstream_unavailable","error_message":"the feed is down"}`, nil},
	} {
		h.putFeed(t, tt.args)
		_, r := h.send(t, "cg.v1.p1.public.cmd.tool.feed", cmdPayload("feed", nil), nil)
		_, content, _ := h.resultCard(t, r)
		if content.Status != tt.status || string(content.Result) != tt.result {
			t.Errorf("%s: %s %s, want %s %s", tt.args, content.Status, content.Result, tt.status, tt.result)
		}
		if err := <-tool.ended; err != tt.ended {
			t.Errorf("%s: the stream ended with %v, want %v", tt.args, err, tt.ended)
		}
	}
	h2 := feedHarness(t, tool, Options{MaxStreamBytes: 40})
	h2.putFeed(t, `{"n":10}`)
	_, r := h2.send(t, "cg.v1.p1.public.cmd.tool.feed", cmdPayload("feed", nil), nil)
	if _, content, _ := h2.resultCard(t, r); string(content.Result) != `{"items":[],"truncated":true}` {
		t.Errorf("MaxStreamBytes 40: %s", content.Result)
	}
	<-tool.ended
}

// With otelbridge's interceptor in Options.Interceptors, each call is a
// span of the natsexec front, child of the command's traceparent, and the
// report's traceparent is that span; a stream's span counts its items.
func TestInterceptorSpan(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	intercept.SetPropagator(otelbridge.Propagator())
	t.Cleanup(func() { intercept.SetPropagator(nil) })
	var fronts []string
	record := func(ctx context.Context, call *intercept.Call, next func(context.Context) error) error {
		err := next(ctx)
		fronts = append(fronts, call.Front+" "+call.Function+" items="+strconv.Itoa(call.Items))
		return err
	}
	h := feedHarness(t, newFeedTool(t), Options{Interceptors: []intercept.Func{otelbridge.Interceptor(otelbridge.WithTracerProvider(tp)), record}})
	for _, fn := range []string{"search", "feed"} {
		spans.Reset()
		args := `{"query":"go","session_id":"s","project_id":"p1"}`
		if fn == "feed" {
			args = `{"n":2}`
		}
		c := &Card{CardID: "card-1", ProjectID: "p1", Type: TypeToolCall,
			Content: json.RawMessage(`{"tool_call_id":"tc-1","tool_name":"` + fn + `","arguments":` + args + `}`)}
		h.cards.Save(context.Background(), c)
		header := nats.Header{}
		header.Set("traceparent", traceparentIn)
		_, r := h.send(t, "cg.v1.p1.public.cmd.tool."+fn, cmdPayload(fn, nil), header)
		if _, content, _ := h.resultCard(t, r); content.Status != "success" {
			t.Fatalf("%s: %s %s", fn, content.Status, content.Result)
		}
		got := spans.GetSpans()
		if len(got) != 1 {
			t.Fatalf("%s: %d spans", fn, len(got))
		}
		s := got[0]
		if s.Name != fn || s.Parent.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || s.Parent.SpanID().String() != "00f067aa0ba902b7" || !s.Parent.IsRemote() {
			t.Errorf("%s: span %q with parent %s/%s, want the command's", fn, s.Name, s.Parent.TraceID(), s.Parent.SpanID())
		}
		want := "00-" + s.SpanContext.TraceID().String() + "-" + s.SpanContext.SpanID().String() + "-01"
		if tp := r.Header.Get("traceparent"); tp != want {
			t.Errorf("%s: report traceparent %s, want the span's %s", fn, tp, want)
		}
	}
	if want := []string{"natsexec search items=0", "natsexec feed items=2"}; len(fronts) != 2 || fronts[0] != want[0] || fronts[1] != want[1] {
		t.Errorf("the interceptor saw %q, want %q", fronts, want)
	}
}
