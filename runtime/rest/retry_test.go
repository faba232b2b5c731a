package rest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// script is an API that answers each attempt as told, in order, and records
// what it was sent.
type script struct {
	mu      sync.Mutex
	answers []func(w http.ResponseWriter, r *http.Request)
	bodies  []string
	headers []http.Header
}

func (s *script) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.bodies)
	s.bodies = append(s.bodies, string(b))
	s.headers = append(s.headers, r.Header.Clone())
	s.mu.Unlock()
	if n >= len(s.answers) {
		w.Write([]byte(`{"ok":true}`))
		return
	}
	s.answers[n](w, r)
}

func (s *script) attempts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

func status(code int, header ...string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
		w.Write([]byte(`{"error":"busy"}`))
	}
}

// hangUp closes the connection without an answer.
func hangUp(w http.ResponseWriter, _ *http.Request) {
	c, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		c.Close()
	}
}

func fastRetry() *RetryPolicy {
	return &RetryPolicy{MinWait: time.Microsecond, MaxWait: time.Millisecond}
}

func send(t *testing.T, c *Client, ctx context.Context, method string, header ...string) (*Response, error) {
	t.Helper()
	r := c.NewRequest(method, "/things")
	for i := 0; i+1 < len(header); i += 2 {
		r.Header(header[i], header[i+1])
	}
	if method != http.MethodGet {
		r.RawBody([]byte(`{"n":1}`), "application/json")
	}
	return r.Send(ctx)
}

func TestRetry(t *testing.T) {
	past := time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)
	for _, tc := range []struct {
		name     string
		method   string
		header   []string
		answers  []func(http.ResponseWriter, *http.Request)
		policy   *RetryPolicy
		attempts int
		status   int // 0: an error
	}{
		{"503 twice then 200", "GET", nil, []func(http.ResponseWriter, *http.Request){status(503), status(503)}, fastRetry(), 3, 200},
		{"429 with Retry-After 0", "GET", nil, []func(http.ResponseWriter, *http.Request){status(429, "Retry-After", "0")}, fastRetry(), 2, 200},
		{"Retry-After as a past date", "DELETE", nil, []func(http.ResponseWriter, *http.Request){status(503, "Retry-After", past)}, fastRetry(), 2, 200},
		{"a connection that fails", "PUT", nil, []func(http.ResponseWriter, *http.Request){hangUp}, fastRetry(), 2, 200},
		{"attempts run out: the last answer", "GET", nil, []func(http.ResponseWriter, *http.Request){status(503), status(503), status(503), status(503)}, fastRetry(), 3, 503},
		{"MaxAttempts", "GET", nil, []func(http.ResponseWriter, *http.Request){status(503), status(503)}, &RetryPolicy{MaxAttempts: 2, MinWait: time.Microsecond}, 2, 503},
		{"QUERY (safe) is retried", "QUERY", nil, []func(http.ResponseWriter, *http.Request){status(503)}, fastRetry(), 2, 200},
		{"another method is not", "PURGE", nil, []func(http.ResponseWriter, *http.Request){status(503)}, fastRetry(), 1, 503},
		{"POST is not retried", "POST", nil, []func(http.ResponseWriter, *http.Request){status(503)}, fastRetry(), 1, 503},
		{"POST with an idempotency key is", "POST", []string{"Idempotency-Key", "k1"}, []func(http.ResponseWriter, *http.Request){status(503)}, fastRetry(), 2, 200},
		{"a header of the policy", "PATCH", []string{"X-Request-Id", "r1"}, []func(http.ResponseWriter, *http.Request){status(429)}, &RetryPolicy{MinWait: time.Microsecond, IdempotencyHeaders: []string{"X-Request-Id"}}, 2, 200},
		{"500 is not retried", "GET", nil, []func(http.ResponseWriter, *http.Request){status(500)}, fastRetry(), 1, 500},
		{"Retry-After longer than MaxRetryAfter", "GET", nil, []func(http.ResponseWriter, *http.Request){status(429, "Retry-After", "120")}, fastRetry(), 1, 429},
		{"no policy", "GET", nil, []func(http.ResponseWriter, *http.Request){status(503)}, nil, 1, 503},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := &script{answers: tc.answers}
			srv := httptest.NewServer(api)
			defer srv.Close()
			c := NewClient(srv.URL)
			c.Retry = tc.policy
			resp, err := send(t, c, t.Context(), tc.method, tc.header...)
			if got := api.attempts(); got != tc.attempts {
				t.Errorf("%d attempts, want %d", got, tc.attempts)
			}
			switch {
			case tc.status == 0 && err == nil:
				t.Errorf("status %d, want an error", resp.StatusCode)
			case tc.status != 0 && (err != nil || resp.StatusCode != tc.status):
				t.Errorf("got %v %v, want status %d", resp, err, tc.status)
			}
			for i, b := range api.bodies {
				if want := map[bool]string{true: "", false: `{"n":1}`}[tc.method == "GET"]; b != want {
					t.Errorf("attempt %d sent body %q, want %q", i+1, b, want)
				}
			}
		})
	}
}

// A Retry-After the context's deadline would not see the end of is not
// waited for: the answer comes back at once.
func TestRetryAfterPastDeadline(t *testing.T) {
	api := &script{answers: []func(http.ResponseWriter, *http.Request){status(429, "Retry-After", "30")}}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := NewClient(srv.URL)
	c.Retry = fastRetry()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	resp, err := send(t, c, ctx, "GET")
	if err != nil || resp.StatusCode != 429 || api.attempts() != 1 {
		t.Errorf("got %v %v after %d attempts, want the 429 at once", resp, err, api.attempts())
	}
}

// Cancelling while the client waits ends the call with the context's error.
func TestRetryCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	// The API answers 503 (retry in 20 s), then the caller cancels.
	api := &script{answers: []func(http.ResponseWriter, *http.Request){func(w http.ResponseWriter, r *http.Request) {
		status(503, "Retry-After", "20")(w, r)
		http.NewResponseController(w).Flush()
		cancel()
	}}}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := NewClient(srv.URL)
	c.Retry = fastRetry()
	_, err := send(t, c, ctx, "GET")
	if !errors.Is(err, context.Canceled) || api.attempts() != 1 {
		t.Errorf("got %v after %d attempts, want context.Canceled after 1", err, api.attempts())
	}
}

// The client's Timeout bounds a call whose API does not answer.
func TestRESTTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	c := NewClient(srv.URL)
	c.Timeout = 20 * time.Millisecond
	_, err := send(t, c, t.Context(), "GET")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want a deadline exceeded", err)
	}
}

func TestRetryWait(t *testing.T) {
	p := &RetryPolicy{MinWait: 10 * time.Millisecond, MaxWait: 50 * time.Millisecond}
	for n, ceil := range map[int]time.Duration{1: 10 * time.Millisecond, 2: 20 * time.Millisecond, 3: 40 * time.Millisecond, 4: 50 * time.Millisecond, 80: 50 * time.Millisecond} {
		for range 200 {
			d, ok := p.wait(n, nil, time.Now())
			if !ok || d < 0 || d > ceil {
				t.Fatalf("wait(%d) = %v, %v; want within [0, %v]", n, d, ok, ceil)
			}
		}
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"7":                             7 * time.Second,
		" 0 ":                           0,
		"Fri, 02 Jan 2026 03:04:15 GMT": 10 * time.Second,
		"Thu, 01 Jan 2026 03:04:15 GMT": 0, // past
	} {
		if got, ok := retryAfter(v, now); !ok || got != want {
			t.Errorf("Retry-After %q: %v %v, want %v", v, got, ok, want)
		}
	}
	for _, v := range []string{"", "-1", "soon", "1.5"} {
		if _, ok := retryAfter(v, now); ok {
			t.Errorf("Retry-After %q: accepted", v)
		}
	}
}

// Credentials per call, from the context, and from a token source.
func TestCallCredentials(t *testing.T) {
	api := &script{}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := NewClient(srv.URL)
	c.SetCredential("key", APIKeyCredential("header", "X-Key", "client-key"))
	get := func(ctx context.Context) {
		r := c.NewRequest("GET", "/x")
		r.Security("key")
		r.Security("oauth")
		if _, err := r.Send(ctx); err != nil {
			t.Fatal(err)
		}
	}
	get(t.Context())
	alice := WithCredentials(t.Context(), map[string]Credential{"key": APIKeyCredential("header", "X-Key", "alice-key")})
	get(alice)
	get(t.Context())
	for i, want := range []string{"client-key", "alice-key", "client-key"} {
		if got := api.headers[i].Get("X-Key"); got != want {
			t.Errorf("call %d: X-Key %q, want %q", i+1, got, want)
		}
	}

	// A token source, asked at every request.
	calls := 0
	c2 := NewClient(srv.URL)
	c2.SetCredential("oauth", TokenCredential(func(context.Context) (string, error) {
		calls++
		return fmt.Sprintf("tok-%d", calls), nil
	}))
	for range 2 {
		r := c2.NewRequest("GET", "/x")
		r.Security("oauth")
		if _, err := r.Send(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if got := api.headers[4].Get("Authorization"); got != "Bearer tok-2" {
		t.Errorf("second token: %q", got)
	}
	c2.SetCredential("oauth", TokenCredential(func(context.Context) (string, error) { return "", errors.New("token endpoint said no") }))
	r := c2.NewRequest("GET", "/x")
	r.Security("oauth")
	_, err := r.Send(t.Context())
	if err == nil || !strings.Contains(err.Error(), `security scheme "oauth"`) || !strings.Contains(err.Error(), "said no") {
		t.Errorf("a failing token source: %v", err)
	}
	if api.attempts() != 5 {
		t.Errorf("%d requests, want 5 (none when the token fails)", api.attempts())
	}
}

// Credentials appear in no formatting of the client or its credentials, and
// in no error, whatever the verb.
func TestCredentialsNeverShown(t *testing.T) {
	const secret = "s3cr3t-tok3n"
	c := NewClient("http://127.0.0.1:1") // nothing listens there
	c.SetCredential("q", APIKeyCredential("query", "api_key", secret))
	c.SetCredential("b", BearerCredential(secret))
	c.SetCredential("u", BasicCredential("user", secret))
	c.SetCredential("t", TokenCredential(func(context.Context) (string, error) { return secret, nil }))
	var shown []string
	for _, v := range []any{c, *c, c.creds["q"], c.creds["b"], c.creds["u"], c.creds["t"]} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
			shown = append(shown, fmt.Sprintf(verb, v))
		}
	}
	for _, schemes := range [][]string{{"q"}, {"b"}, {"u"}, {"t"}} {
		r := c.NewRequest("GET", "/x")
		r.Security(schemes...)
		_, err := r.Send(t.Context())
		if err == nil {
			t.Fatal("a call to a closed port succeeded")
		}
		var ne net.Error
		if !errors.As(err, &ne) {
			t.Errorf("%v: want the network error", err)
		}
		shown = append(shown, err.Error(), fmt.Sprintf("%+v", err))
	}
	for _, s := range shown {
		if strings.Contains(s, secret) {
			t.Errorf("a credential is shown: %s", s)
		}
	}
}
