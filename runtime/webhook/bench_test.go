package webhook

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// BenchmarkStandardVerify: one 1 KiB message against a header of two
// signatures and a verifier of two secrets (a rotation), the worst case.
func BenchmarkStandardVerify(b *testing.B) {
	v, _ := NewStandard("whsec_c2VjcmV0LW9mLWFub3RoZXItc2VuZGVy", vecSecret)
	old, _ := NewStandard(vecSecret)
	body := []byte(`{"data":"` + strings.Repeat("x", 1000) + `"}`)
	now := time.Now()
	h := old.Header("msg_1", now, body)
	h.Set("Webhook-Signature", otherSig+" "+h.Get("Webhook-Signature"))
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Verify(h, body, now); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHandler: a signed 1 KiB event through the whole handler (read,
// verify, replay store, Args, the route), each with a new id.
func BenchmarkHandler(b *testing.B) {
	v, _ := NewStandard(vecSecret)
	route := Route{Name: "e", Method: "POST", Serve: func(_ context.Context, r *Request) error {
		_, err := r.Args(Fields{Body: "body"})
		return err
	}}
	h, err := NewHandler([]Route{route}, WithSecret(vecSecret), WithLogf(func(string, ...any) {}))
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(`{"data":"` + strings.Repeat("x", 1000) + `"}`)
	now := time.Now()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		req := httptest.NewRequest("POST", "/e", bytes.NewReader(body))
		req.Header = v.Header(fmt.Sprint("m", i), now, body)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 204 {
			b.Fatal(rec.Code, rec.Body.String())
		}
	}
}
