package runtime

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// nameTool answers the name of the function called: {"name":NAME}.
type nameTool struct{}

func (nameTool) Call(_ context.Context, name string, _ json.RawMessage) (json.RawMessage, error) {
	return json.Marshal(map[string]string{"name": name})
}

func (nameTool) Load(context.Context) (*document.OpenTool, error) { return &document.OpenTool{}, nil }

// The calls made with the context of a served call (intercept.WithServedCall)
// at the same time each get a Call of their own, whole (which one takes the
// context's is runtime/intercept's test); the tool's code sees the incoming
// metadata either way.
func TestServedCallTakenOnce(t *testing.T) {
	var mu sync.Mutex
	seen := map[string][]*intercept.Call{}
	record := func(ctx context.Context, call *intercept.Call, next func(context.Context) error) error {
		mu.Lock()
		seen[call.Function] = append(seen[call.Function], call)
		mu.Unlock()
		if md, front := intercept.IncomingMetadata(ctx); front != "test" || md.Get("X-Key") != "v" {
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
	ctx := intercept.WithServedCall(context.Background(), "test", intercept.HeaderMetadata(http.Header{"X-Key": {"v"}}), "")
	var wg sync.WaitGroup
	for _, f := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		wg.Go(func() {
			if _, err := tool.Call(ctx, f, json.RawMessage(`{"f":"`+f+`"}`)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	distinct := map[*intercept.Call]bool{}
	for f, calls := range seen {
		if len(calls) != 1 || calls[0].Function != f {
			t.Fatalf("%s: %d calls seen", f, len(calls))
		}
		distinct[calls[0]] = true
	}
	if len(seen) != 8 || len(distinct) != 8 {
		t.Fatalf("%d functions seen, %d distinct Calls (want 8, 8)", len(seen), len(distinct))
	}
}

// Over OpenTool HTTP, a served call's interceptors get an intercept.Call of the
// front, traced or not, and two served calls never share one.
func TestServedCallOverHTTP(t *testing.T) {
	calls := make(chan *intercept.Call, 2)
	h := NewHandler(nameTool{}, WithInterceptors(func(ctx context.Context, call *intercept.Call, next func(context.Context) error) error {
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
	if a == b || a.Function != "one" || b.Function != "two" || a.Front != intercept.FrontOpenTool || a.Meta.Get("X-Key") != "v" {
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
