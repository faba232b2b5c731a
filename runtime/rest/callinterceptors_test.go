package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// TestCallInterceptors: a client without interceptors runs those its
// request's context carries (intercept.WithCallInterceptors); one with
// interceptors of its own runs those alone.
func TestCallInterceptors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer srv.Close()
	var got []string
	ic := func(name string) intercept.Func {
		return func(ctx context.Context, call *intercept.Call, next func(context.Context) error) error {
			err := next(ctx)
			got = append(got, name+" "+call.Function+" "+call.Front)
			return err
		}
	}
	ctx := intercept.WithCallInterceptors(context.Background(), ic("carried"))
	for _, c := range []*Client{{BaseURL: srv.URL}, {BaseURL: srv.URL, Interceptors: []intercept.Func{ic("own")}}} {
		r := c.NewRequest(http.MethodDelete, "/pets/{id}")
		r.Path("id", 7)
		if _, err := r.Send(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"carried DELETE /pets/{id} rest", "own DELETE /pets/{id} rest"}; !slices.Equal(got, want) {
		t.Errorf("interceptors ran %q, want %q", got, want)
	}
}
