package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

type spanKey struct{}

// ctxPropagator carries the context's spanKey value as "traceparent".
type ctxPropagator struct{}

func (ctxPropagator) Inject(ctx context.Context, md intercept.Metadata) {
	if v, ok := ctx.Value(spanKey{}).(string); ok {
		md.Set("traceparent", v)
	}
}

func (ctxPropagator) Extract(ctx context.Context, md intercept.Metadata) context.Context { return ctx }

// TestInterceptors: an interceptor of the REST client runs once per
// request, retries included, and sees the operation, the body, the headers
// (to which it adds), the URL without its query (an API key there) and the
// status; the propagator writes the context its next got into every
// attempt's headers.
func TestInterceptors(t *testing.T) {
	var mu sync.Mutex
	var got []string // traceparent and X-Added of each attempt
	attempts := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, r.Header.Get("traceparent")+" "+r.Header.Get("X-Added"))
		attempts++
		if attempts == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNotFound)
	}))
	defer srv.Close()
	intercept.SetPropagator(ctxPropagator{})
	defer intercept.SetPropagator(nil)

	var seen []intercept.Call
	var status []int
	c := NewClient(srv.URL + "/v1")
	c.SetCredential("key", APIKeyCredential("query", "api_key", "secret"))
	c.Retry = &RetryPolicy{MinWait: time.Microsecond}
	c.Interceptors = []intercept.Func{func(ctx context.Context, call *intercept.Call, next func(context.Context) error) error {
		call.Meta.Set("X-Added", "yes")
		err := next(context.WithValue(ctx, spanKey{}, "span-1"))
		seen = append(seen, *call)
		status = append(status, call.HTTP.StatusCode)
		return err
	}}
	r := c.NewRequest(http.MethodPut, "/pets/{petId}")
	r.Path("petId", 7)
	r.Security("key")
	r.JSONBody(map[string]string{"name": "Rex"})
	resp, err := r.Send(context.Background())
	if err != nil || resp.StatusCode != 404 {
		t.Fatalf("Send: %v, %v", resp, err)
	}
	if len(seen) != 1 {
		t.Fatalf("the interceptor ran %d times, want once", len(seen))
	}
	call := seen[0]
	if call.Function != "PUT /pets/{petId}" || call.Front != intercept.FrontREST || call.Server ||
		string(call.Args) != `{"name":"Rex"}` || call.HTTP.Template != "/pets/{petId}" || call.HTTP.Method != "PUT" ||
		call.HTTP.URL != srv.URL+"/v1/pets/7" || status[0] != 404 {
		t.Errorf("the interceptor saw %+v, HTTP %+v, status %d", call, call.HTTP, status[0])
	}
	if strings.Contains(call.HTTP.URL, "secret") {
		t.Errorf("the URL the interceptor saw holds the API key: %s", call.HTTP.URL)
	}
	if want := []string{"span-1 yes", "span-1 yes"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("the attempts carried %q, want %q", got, want)
	}
}
