package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"
)

// A call of an operation with an idempotency header carries one key on all
// its attempts, a new one on the next call; the key makes a POST
// retryable; a value the caller set wins.
func TestIdempotencyKeyAcrossRetries(t *testing.T) {
	for _, header := range []string{"Idempotency-Key", "X-Idempotency-Key"} {
		s := &script{}
		srv := httptest.NewServer(s)
		c := NewClient(srv.URL)
		c.Retry = &RetryPolicy{MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond}
		call := func(set string) {
			r := c.NewRequest("POST", "/charges")
			if set != "" {
				r.Header(header, set)
			}
			r.Idempotency(header)
			r.JSONBody(map[string]int{"amount": 5})
			resp, err := r.Send(context.Background())
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("%s: %v %v", header, resp, err)
			}
		}
		s.answers = []func(http.ResponseWriter, *http.Request){status(503), status(503), status(200), status(429)}
		call("")
		call("")
		call("mine")
		srv.Close()
		if s.attempts() != 6 {
			t.Fatalf("%s: %d attempts, want 3 + 2 + 1", header, s.attempts())
		}
		keys := make([]string, 6)
		for i, h := range s.headers {
			keys[i] = h.Get(header)
		}
		uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
		if !uuid.MatchString(keys[0]) || keys[1] != keys[0] || keys[2] != keys[0] {
			t.Errorf("%s: the first call's keys %q", header, keys[:3])
		}
		if !uuid.MatchString(keys[3]) || keys[4] != keys[3] || keys[3] == keys[0] {
			t.Errorf("%s: the second call's keys %q (first %q)", header, keys[3:5], keys[0])
		}
		if keys[5] != "mine" {
			t.Errorf("%s: the caller's key became %q", header, keys[5])
		}
		for i, b := range s.bodies {
			if b != `{"amount":5}` {
				t.Errorf("attempt %d sent %q", i, b)
			}
		}
	}
}

// A POST without a declared idempotency header is still sent once, and
// carries no key.
func TestNoIdempotencyKeyUndeclared(t *testing.T) {
	s := &script{answers: []func(http.ResponseWriter, *http.Request){status(503)}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	c := NewClient(srv.URL)
	c.Retry = &RetryPolicy{MinWait: time.Millisecond}
	resp, err := c.NewRequest("POST", "/charges").Send(context.Background())
	if err != nil || resp.StatusCode != 503 || s.attempts() != 1 || s.headers[0].Get("Idempotency-Key") != "" {
		t.Fatalf("%v %v after %d attempts", resp, err, s.attempts())
	}
}

func BenchmarkNewIdempotencyKey(b *testing.B) {
	for b.Loop() {
		NewIdempotencyKey()
	}
}
