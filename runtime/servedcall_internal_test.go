package runtime

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// nameTool answers the name of the function called: {"name":NAME}.
type nameTool struct{}

func (nameTool) Call(_ context.Context, name string, _ json.RawMessage) (json.RawMessage, error) {
	return json.Marshal(map[string]string{"name": name})
}

func (nameTool) Load(context.Context) (*document.OpenTool, error) { return &document.OpenTool{}, nil }

// The CallInfo a front makes with the context of a call (withServedCall)
// goes to the first intercepted call made with that context, whole; the
// calls made with the same context at the same time, or after, get their
// own; the tool's code sees the incoming metadata either way.
func TestServedCallTakenOnce(t *testing.T) {
	var mu sync.Mutex
	seen := map[string][]*CallInfo{}
	record := func(ctx context.Context, call *CallInfo, next func(context.Context) error) error {
		mu.Lock()
		seen[call.Function] = append(seen[call.Function], call)
		mu.Unlock()
		if md, front := IncomingMetadata(ctx); front != "test" || md.Get("X-Key") != "v" {
			t.Errorf("%s: incoming metadata %v of %q", call.Function, md, front)
		}
		if call.Front != "test" || !call.Server || call.Meta.Get("X-Key") != "v" || string(call.Args) != `{"f":"`+call.Function+`"}` {
			t.Errorf("%s: call %+v", call.Function, call)
		}
		err := next(ctx)
		if string(call.Result) != `{"name":"`+call.Function+`"}` {
			t.Errorf("%s: result %s", call.Function, call.Result)
		}
		return err
	}
	tool := Intercept(nameTool{}, record)
	ctx := withServedCall(context.Background(), "test", HeaderMetadata(http.Header{"X-Key": {"v"}}), "")
	var wg sync.WaitGroup
	for _, f := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		wg.Go(func() {
			if _, err := tool.Call(ctx, f, json.RawMessage(`{"f":"`+f+`"}`)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	taken := ctx.(*incomingContext).call
	owners := 0
	for f, calls := range seen {
		if len(calls) != 1 || calls[0].Function != f {
			t.Fatalf("%s: %d calls seen", f, len(calls))
		}
		if calls[0] == taken {
			owners++
		}
	}
	if len(seen) != 8 || owners != 1 {
		t.Fatalf("%d functions seen, %d with the context's CallInfo (want 8, 1)", len(seen), owners)
	}
}

// Over OpenTool HTTP, a served call's interceptors get a CallInfo of the
// front, traced or not, and two served calls never share one.
func TestServedCallOverHTTP(t *testing.T) {
	calls := make(chan *CallInfo, 2)
	h := NewHandler(nameTool{}, WithInterceptors(func(ctx context.Context, call *CallInfo, next func(context.Context) error) error {
		calls <- call
		return next(ctx)
	}))
	for _, f := range []string{"one", "two"} {
		req, _ := http.NewRequest(http.MethodPost, DefaultPrefix+"/call", strings.NewReader(`{"jsonrpc":"2.0","method":"`+f+`","params":{},"id":1}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Key", "v")
		rec := &recorder{header: http.Header{}}
		h.ServeHTTP(rec, req)
		if rec.code != http.StatusOK || !strings.Contains(rec.body.String(), `"result":{"name":"`+f+`"}`) {
			t.Fatalf("%s: %d %s", f, rec.code, rec.body.String())
		}
	}
	a, b := <-calls, <-calls
	if a == b || a.Function != "one" || b.Function != "two" || a.Front != FrontOpenTool || a.Meta.Get("X-Key") != "v" {
		t.Fatalf("calls %+v, %+v", a, b)
	}
}

type recorder struct {
	header http.Header
	code   int
	body   strings.Builder
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
}
func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}
