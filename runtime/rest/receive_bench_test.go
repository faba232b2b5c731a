package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkReceive is a generated method's call over loopback HTTP, its
// response read by the switch it held before (switch) and by Receive (the
// same work: the difference is the cost of the helper).
func BenchmarkReceive(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"a","status":"active","price":2.5,"tags":["x","y"]}`))
	}))
	defer srv.Close()
	c := NewClient(srv.URL)
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		call func(r *Request, out *benchItem) error
	}{
		{"switch", func(r *Request, out *benchItem) error {
			return switchReceive(ctx, r, "200", out, decodeBenchItem, "4XX,5XX")
		}},
		{"Receive", func(r *Request, out *benchItem) error {
			return Receive(ctx, r, "200", out, decodeBenchItem, APIErrors[apiError]("4XX", "5XX"))
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var out benchItem
				if err := bc.call(c.NewRequest("GET", "/items"), &out); err != nil || out.ID != "a" {
					b.Fatal(out, err)
				}
			}
		})
	}
}
