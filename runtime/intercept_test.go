package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// seen is what an interceptor recorded of one call, after next returned.
type seen struct {
	side, front, function, args, result, header string
	stream                                      bool
	items                                       int
	err                                         error
}

type recorder struct {
	mu    sync.Mutex
	calls []seen
	order *[]string // names of interceptors, in the order they ran
}

// interceptor records each call, reading the metadata key header, and adds
// key "X-Added: name" to the metadata of calls it makes.
func (r *recorder) interceptor(name, header string) intercept.Func {
	return func(ctx context.Context, call *intercept.Call, next func(context.Context) error) error {
		if r.order != nil {
			*r.order = append(*r.order, name)
		}
		side := "client"
		if call.Server {
			side = "server"
		} else {
			call.Meta.Set("X-Added", name)
		}
		err := next(ctx)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.calls = append(r.calls, seen{side: side, front: call.Front, function: call.Function, args: string(call.Args),
			result: string(call.Result), header: call.Meta.Get(header), stream: call.Stream, items: call.Items, err: err})
		return err
	}
}

func (r *recorder) last(t *testing.T) seen {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.calls) == 0 {
		t.Fatal("the interceptor saw no call")
	}
	return r.calls[len(r.calls)-1]
}

// TestInterceptorsOverHTTP: a server's interceptors see the function, the
// arguments, the request's headers, the result, a tool's error and a
// stream's items; a client's interceptors see the same from the other side
// and what they add to the metadata reaches the server as headers.
func TestInterceptorsOverHTTP(t *testing.T) {
	srvRec, cliRec := &recorder{}, &recorder{}
	_, c := serveMock(t, newMockTool(), runtime.WithInterceptors(srvRec.interceptor("srv", "X-Added")))
	caller := runtime.InterceptCaller(c, cliRec.interceptor("cli", "X-Added"))
	ctx := context.Background()

	res, err := caller.CallFunction(ctx, "create", json.RawMessage(`{"text":"a"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := seen{side: "server", front: intercept.FrontOpenTool, function: "create", args: `{"text":"a"}`, result: `{"id":0}`, header: "cli"}
	if got := srvRec.last(t); got != want {
		t.Errorf("server saw %+v, want %+v", got, want)
	}
	want = seen{side: "client", front: intercept.FrontOpenTool, function: "create", args: `{"text":"a"}`, result: string(res), header: "cli"}
	if got := cliRec.last(t); got != want {
		t.Errorf("client saw %+v, want %+v", got, want)
	}

	_, err = caller.CallFunction(ctx, "fail", nil)
	var srvErr, cliErr *runtime.Error
	if got := srvRec.last(t); !errors.As(got.err, &srvErr) || srvErr.Code != 4242 || got.result != "" {
		t.Errorf("server saw %+v, want the tool's error 4242 and no result", got)
	}
	if got := cliRec.last(t); !errors.As(got.err, &cliErr) || cliErr.Code != 4242 || got.err != err {
		t.Errorf("client saw %+v, want the error the caller got (%v)", got, err)
	}

	caller.CallFunction(ctx, "create", json.RawMessage(`{"text":"b"}`))
	var items []string
	for item, err := range caller.StreamFunction(ctx, "sequentiallyRead", nil) {
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, string(item))
	}
	if len(items) != 2 {
		t.Fatalf("items %q, want 2", items)
	}
	if got := srvRec.last(t); !got.stream || got.items != 2 || got.err != nil || got.header != "cli" {
		t.Errorf("server saw %+v, want a stream of 2 items with the client's header", got)
	}
	if got := cliRec.last(t); !got.stream || got.items != 2 || got.err != nil {
		t.Errorf("client saw %+v, want a stream of 2 items", got)
	}
	// A loop that stops early: no error, one item.
	for range caller.StreamFunction(ctx, "sequentiallyRead", nil) {
		break
	}
	if got := cliRec.last(t); got.items != 1 || got.err != nil {
		t.Errorf("client saw %+v after a break, want 1 item and no error", got)
	}
}

// TestInterceptorsLocal: runtime.Local is a front and a Caller: the
// caller's metadata reaches the served tool's interceptors, and the order
// of a chain is outermost first.
func TestInterceptorsLocal(t *testing.T) {
	var order []string
	srvRec, cliRec := &recorder{order: &order}, &recorder{order: &order}
	tool := runtime.Intercept(runtime.Intercept(newMockTool(), srvRec.interceptor("s2", "X-Added")), srvRec.interceptor("s1", "X-Added"))
	caller := runtime.InterceptCaller(runtime.Local(tool), cliRec.interceptor("c1", "X-Added"), cliRec.interceptor("c2", "X-Added"))
	if _, err := caller.CallFunction(context.Background(), "create", json.RawMessage(`{"text":"a"}`)); err != nil {
		t.Fatal(err)
	}
	if want := []string{"c1", "c2", "s1", "s2"}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	want := seen{side: "server", front: intercept.FrontLocal, function: "create", args: `{"text":"a"}`, result: `{"id":0}`, header: "c2"}
	if got := srvRec.last(t); got != want {
		t.Errorf("server saw %+v, want %+v", got, want)
	}
	if _, ok := tool.(runtime.StreamTool); !ok {
		t.Error("an intercepted StreamTool is no longer a StreamTool")
	}
	// An interceptor that refuses a call: the tool does not run.
	refuse := func(ctx context.Context, call *intercept.Call, next func(context.Context) error) error {
		return runtime.NewError(403, "refused: "+call.Function)
	}
	m := newMockTool()
	_, err := runtime.Local(runtime.Intercept(m, refuse)).CallFunction(context.Background(), "create", json.RawMessage(`{"text":"a"}`))
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != 403 || len(m.texts) != 0 {
		t.Errorf("err %v, texts %q: want a 403 and no call", err, m.texts)
	}
}

type ctxKey struct{}

// testPropagator carries the context's ctxKey value as "traceparent".
type testPropagator struct{}

func (testPropagator) Inject(ctx context.Context, md intercept.Metadata) {
	if v, ok := ctx.Value(ctxKey{}).(string); ok {
		md.Set("traceparent", v)
	}
}

func (testPropagator) Extract(ctx context.Context, md intercept.Metadata) context.Context {
	if v := md.Get("traceparent"); v != "" {
		return context.WithValue(ctx, ctxKey{}, "from:"+v)
	}
	return ctx
}

// ctxTool answers the ctxKey value of the context it gets.
type ctxTool struct{}

func (ctxTool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	v, _ := ctx.Value(ctxKey{}).(string)
	return json.Marshal(map[string]string{"v": v})
}

func (ctxTool) Load(context.Context) (*document.OpenTool, error) { return nil, nil }

func (t ctxTool) StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(json.RawMessage) error) error {
	r, _ := t.Call(ctx, name, args)
	return emit(r)
}

// TestPropagator: with a Propagator set, the *Client writes the call
// context into headers and the server reads it into the tool's context, for
// calls and streams; without one, nothing travels.
func TestPropagator(t *testing.T) {
	_, c := serveMock(t, ctxTool{})
	ctx := context.WithValue(context.Background(), ctxKey{}, "00-abc")
	call := func() string {
		res, err := c.CallFunction(ctx, "f", nil)
		if err != nil {
			t.Fatal(err)
		}
		var item string
		for r, err := range c.StreamFunction(ctx, "f", nil) {
			if err != nil {
				t.Fatal(err)
			}
			item = string(r)
		}
		return string(res) + " " + item
	}
	if got, want := call(), `{"v":""} {"v":""}`; got != want {
		t.Errorf("without a propagator: %s, want %s", got, want)
	}
	intercept.SetPropagator(testPropagator{})
	defer intercept.SetPropagator(nil)
	if got, want := call(), `{"v":"from:00-abc"} {"v":"from:00-abc"}`; got != want {
		t.Errorf("with a propagator: %s, want %s", got, want)
	}
}

func TestMetadataTypes(t *testing.T) {
	h := intercept.HeaderMetadata{}
	h.Set("traceparent", "x")
	if h.Get("Traceparent") != "x" || fmt.Sprint(h.Keys()) != "[Traceparent]" {
		t.Errorf("HeaderMetadata: %v", h)
	}
	// Get finds what http.Header.Get finds, whatever the case of the key,
	// and allocates nothing for a key in lower case.
	hdr := http.Header{}
	hdr.Set("Traceparent", "tp")
	hdr.Set("X-Api-Key", "k")
	hdr["not canonical"] = []string{"raw"} // a name with a space: kept as is
	hdr["Bad:key"] = []string{"colon"}
	long := strings.Repeat("x-long", 20)
	hdr.Set(long, "long")
	hm := intercept.HeaderMetadata(hdr)
	for _, k := range []string{"traceparent", "TRACEPARENT", "Traceparent", "x-api-key", "X-API-KEY", "not canonical",
		"Bad:key", "bad:key", long, strings.ToUpper(long), "tracestate", "", "-", "x--y"} {
		if got, want := hm.Get(k), hdr.Get(k); got != want {
			t.Errorf("HeaderMetadata.Get(%q) = %q, http.Header.Get: %q", k, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { hm.Get("traceparent") }); n != 0 {
		t.Errorf("HeaderMetadata.Get(\"traceparent\"): %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { hm.Set("traceparent", "tp2") }); n != 1 { // the value's []string
		t.Errorf("HeaderMetadata.Set(\"traceparent\"): %v allocations, want 1", n)
	}
	if hdr.Get("Traceparent") != "tp2" || len(hdr) != 5 {
		t.Errorf("after Set: %v", hdr)
	}
	m := intercept.MapMetadata{"b": "2", "a": "1"}
	if m.Get("a") != "1" || strings.Join(m.Keys(), ",") != "a,b" {
		t.Errorf("MapMetadata keys %v", m.Keys())
	}
}

// BenchmarkIntercept measures what the interceptor mechanism costs a call
// in process (runtime.Local, where it shows most): none, one interceptor
// that only calls next on the serving side (Intercept), and on the calling
// side (InterceptCaller).
func BenchmarkIntercept(b *testing.B) {
	pass := func(ctx context.Context, call *intercept.Call, next func(context.Context) error) error {
		return next(ctx)
	}
	tool := newMockTool()
	args := json.RawMessage(`{"text":"hello"}`)
	for _, c := range []struct {
		name   string
		caller runtime.Caller
	}{
		{"none", runtime.Local(tool)},
		{"serving", runtime.Local(runtime.Intercept(tool, pass))},
		{"calling", runtime.InterceptCaller(runtime.Local(tool), pass)},
	} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.caller.CallFunction(ctx, "echo", args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
