package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"
)

// FuzzHandler: whatever the body and signature headers, the handler answers
// one of its statuses, never panics, and calls the route only with a
// signature that holds and a body Args accepts as JSON.
func FuzzHandler(f *testing.F) {
	v, _ := NewStandard(vecSecret)
	now := time.Unix(vecTime, 0)
	f.Add([]byte(vecBody), vecID, "1614265330", vecSig, true)
	f.Add([]byte(`{"a":`), "id", "1614265330", "v1,AAAA", false)
	f.Add([]byte{0xff, 0}, "", "-1", "v1, v1,,", true)
	f.Fuzz(func(t *testing.T, body []byte, id, ts, sig string, sign bool) {
		called := false
		route := Route{Name: "e", Method: "POST", Serve: func(_ context.Context, r *Request) error {
			args, err := r.Args(Fields{Body: "body", Headers: []Header{{Name: "Webhook-Id", Member: "id"}, {Name: "Webhook-Timestamp", Member: "ts", Literal: true}}})
			if err != nil {
				return err
			}
			if !json.Valid(args) {
				t.Fatalf("Args gave invalid JSON %q", args)
			}
			called = true
			return nil
		}}
		h, err := NewHandler([]Route{route}, WithSecret(vecSecret), WithClock(func() time.Time { return now }), WithMaxBytes(4096))
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest("POST", "/e", bytes.NewReader(body))
		req.Header.Set("Webhook-Id", id)
		req.Header.Set("Webhook-Timestamp", ts)
		if sign {
			sig = v.Sign(id, now, body)
			req.Header.Set("Webhook-Timestamp", "1614265330")
		}
		req.Header.Set("Webhook-Signature", sig)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case 204, 400, 401, 409, 413:
		default:
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
		if called != (rec.Code == 204) {
			t.Fatalf("status %d, route called %v", rec.Code, called)
		}
	})
}
