package rest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// seen is what one request brought to a listener: the headers and query keys
// that matter here.
type seen struct {
	path   string
	header http.Header
	query  url.Values
	body   string
}

// recorder is a listener on loopback that records every request and answers
// as route says (nil: 200 with {}).
type recorder struct {
	*httptest.Server
	mu    sync.Mutex
	reqs  []seen
	route func(w http.ResponseWriter, r *http.Request) bool // true: answered
}

func newRecorder(t *testing.T) *recorder {
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, seen{path: r.URL.Path, header: r.Header.Clone(), query: r.URL.Query(), body: string(b)})
		route := rec.route
		rec.mu.Unlock()
		if route != nil && route(w, r) {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","result":{"ok":true},"error":null,"id":"1"}`)
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (rec *recorder) requests() []seen {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return slices.Clone(rec.reqs)
}

func (rec *recorder) reset() {
	rec.mu.Lock()
	rec.reqs = nil
	rec.mu.Unlock()
}

// credentialClient is a REST client of base with an API key in a header, one
// in the query, one in a cookie and a bearer token, all for the scheme set
// the request names, and an editor that signs requests.
func credentialClient(base string) *Client {
	c := NewClient(base)
	c.SetCredential("hkey", APIKeyCredential("header", "X-Api-Key", "header-secret"))
	c.SetCredential("qkey", APIKeyCredential("query", "api_key", "query-secret"))
	c.SetCredential("ckey", APIKeyCredential("cookie", "session", "cookie-secret"))
	c.SetCredential("bearer", BearerCredential("bearer-secret"))
	c.Editors = []RequestEditor{func(_ context.Context, r *http.Request) error {
		r.Header.Set("X-Signature", "signed-secret")
		return nil
	}}
	return c
}

func credentialRequest(c *Client, method, path string) *Request {
	r := c.NewRequest(method, path)
	r.Security("hkey", "qkey", "ckey", "bearer")
	r.Query("q", "kept")
	r.Header("X-Trace", "t-1")
	r.Cookie("pref", "dark", NoExplode)
	if method == http.MethodPost {
		r.JSONBody(map[string]int{"n": 1})
	}
	return r
}

// secrets are the values no other origin may see.
var secrets = []string{"header-secret", "query-secret", "cookie-secret", "bearer-secret", "signed-secret"}

// leaked returns the secrets s carries, anywhere in its headers or query.
func (s seen) leaked() []string {
	var all strings.Builder
	for k, v := range s.header {
		fmt.Fprintf(&all, "%s: %s\n", k, strings.Join(v, ", "))
	}
	fmt.Fprintf(&all, "?%s\n", s.query.Encode())
	var out []string
	for _, sec := range secrets {
		if strings.Contains(all.String(), sec) {
			out = append(out, sec)
		}
	}
	return out
}

// redirectTo makes rec answer its path /start with status and a Location of
// target plus the request's own query, as servers that move a resource do.
func redirectTo(rec *recorder, status int, target func() string) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.route = func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path != "/start" {
			return false
		}
		loc := target()
		if r.URL.RawQuery != "" {
			loc += "?" + r.URL.RawQuery
		}
		w.Header().Set("Location", loc)
		w.WriteHeader(status)
		return true
	}
}

// TestRESTRedirectCredentials: a 302 or 307 to another port, or to another
// host on the same port, arrives without any credential — API key header,
// query key, cookie, bearer token, the editor's signature, the Referer (which
// would carry the query) — and keeps the rest of the request; a redirect
// within the origin keeps every credential.
func TestRESTRedirectCredentials(t *testing.T) {
	a := newRecorder(t)
	b := newRecorder(t)
	aURL, _ := url.Parse(a.URL)
	otherHost := "http://localhost:" + aURL.Port() // same port, another host

	for _, tc := range []struct {
		name   string
		status int
		method string
		target func() string
		dest   *recorder
	}{
		{"302 to another port", http.StatusFound, http.MethodGet, func() string { return b.URL + "/landing" }, b},
		{"307 POST to another port", http.StatusTemporaryRedirect, http.MethodPost, func() string { return b.URL + "/landing" }, b},
		{"302 to another host, same port", http.StatusFound, http.MethodGet, func() string { return otherHost + "/landing" }, a},
		{"308 POST to another host, same port", http.StatusPermanentRedirect, http.MethodPost, func() string { return otherHost + "/landing" }, a},
		{"to https on the same host and port", http.StatusFound, http.MethodGet, func() string { return "https://" + aURL.Host + "/landing" }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a.reset()
			b.reset()
			redirectTo(a, tc.status, tc.target)
			c := credentialClient(a.URL)
			_, err := credentialRequest(c, tc.method, "/start").Send(t.Context())
			if tc.dest == nil {
				// The TLS handshake with a plain listener fails: the point is
				// that the first request had every credential and nothing
				// reached a listener in the clear after it.
				if err == nil {
					t.Fatal("a plain listener answered TLS")
				}
				if got := len(a.requests()); got != 1 {
					t.Errorf("%d requests reached the listener, want 1", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			first := a.requests()[0]
			if first.path != "/start" || len(first.leaked()) != len(secrets) {
				t.Fatalf("the first request carries %v, want every credential", first.leaked())
			}
			reqs := tc.dest.requests()
			landing := reqs[len(reqs)-1]
			if landing.path != "/landing" {
				t.Fatalf("last request at %s, want /landing", landing.path)
			}
			if l := landing.leaked(); len(l) > 0 {
				t.Errorf("the other origin got %v; headers %v, query %v", l, landing.header, landing.query)
			}
			for _, h := range []string{"X-Api-Key", "Authorization", "Cookie", "X-Signature", "Referer"} {
				if v := landing.header.Get(h); v != "" {
					t.Errorf("the other origin got %s: %s", h, v)
				}
			}
			if landing.query.Has("api_key") || landing.query.Get("q") != "kept" {
				t.Errorf("the other origin's query is %v, want q=kept alone", landing.query)
			}
			if landing.header.Get("X-Trace") != "t-1" {
				t.Errorf("the operation's own header did not follow: %v", landing.header)
			}
			if tc.method == http.MethodPost && landing.body != `{"n":1}` {
				t.Errorf("the 307/308 body is %q", landing.body)
			}
		})
	}

	t.Run("within the origin", func(t *testing.T) {
		a.reset()
		redirectTo(a, http.StatusTemporaryRedirect, func() string { return a.URL + "/landing" })
		if _, err := credentialRequest(credentialClient(a.URL), http.MethodPost, "/start").Send(t.Context()); err != nil {
			t.Fatal(err)
		}
		reqs := a.requests()
		if len(reqs) != 2 || reqs[1].path != "/landing" {
			t.Fatalf("requests %v", reqs)
		}
		if l := reqs[1].leaked(); len(l) != len(secrets) {
			t.Errorf("the same origin got %v after the redirect, want every credential", l)
		}
		if reqs[1].header.Get("X-Api-Key") != "header-secret" || reqs[1].query.Get("api_key") != "query-secret" ||
			!strings.Contains(reqs[1].header.Get("Cookie"), "session=cookie-secret") || reqs[1].header.Get("Authorization") != "Bearer bearer-secret" {
			t.Errorf("same origin: %v %v", reqs[1].header, reqs[1].query)
		}
	})

	t.Run("out and back", func(t *testing.T) {
		// A → B → A: once the chain left the origin, the way back carries nothing.
		a.reset()
		b.reset()
		redirectTo(a, http.StatusFound, func() string { return b.URL + "/start" })
		redirectTo(b, http.StatusFound, func() string { return a.URL + "/landing" })
		defer func() { b.route = nil }()
		if _, err := credentialRequest(credentialClient(a.URL), http.MethodGet, "/start").Send(t.Context()); err != nil {
			t.Fatal(err)
		}
		reqs := a.requests()
		if len(reqs) != 2 {
			t.Fatalf("%d requests at A", len(reqs))
		}
		if l := reqs[1].leaked(); len(l) > 0 {
			t.Errorf("back at A through B, the request carries %v", l)
		}
		if l := b.requests()[0].leaked(); len(l) > 0 {
			t.Errorf("B got %v", l)
		}
	})
}

// TestRESTRedirectPerCallCredentials: credentials of a call (WithCredentials)
// stay with the origin too.
func TestRESTRedirectPerCallCredentials(t *testing.T) {
	a := newRecorder(t)
	b := newRecorder(t)
	redirectTo(a, http.StatusFound, func() string { return b.URL + "/landing" })
	c := NewClient(a.URL)
	ctx := WithCredentials(t.Context(), map[string]Credential{"k": APIKeyCredential("header", "X-Tenant-Token", "header-secret")})
	r := c.NewRequest("GET", "/start")
	r.Security("k")
	if _, err := r.Send(ctx); err != nil {
		t.Fatal(err)
	}
	if a.requests()[0].header.Get("X-Tenant-Token") != "header-secret" {
		t.Fatal("the key was not sent to its origin")
	}
	if v := b.requests()[0].header.Get("X-Tenant-Token"); v != "" {
		t.Errorf("the other origin got the call's key %q", v)
	}
}

// TestRESTRedirectRefuse: with RedirectRefuse, a redirect to another origin
// fails the call with a *RedirectError and reaches nothing; one within the
// origin is followed.
func TestRESTRedirectRefuse(t *testing.T) {
	a := newRecorder(t)
	b := newRecorder(t)
	redirectTo(a, http.StatusTemporaryRedirect, func() string { return b.URL + "/landing" })
	c := credentialClient(a.URL)
	c.CrossOriginRedirect = runtime.RedirectRefuse
	_, err := credentialRequest(c, http.MethodGet, "/start").Send(t.Context())
	var re *runtime.RedirectError
	if !errors.As(err, &re) {
		t.Fatalf("error %v, want a *RedirectError", err)
	}
	if re.StatusCode != 307 || re.From != a.URL || re.To != b.URL {
		t.Errorf("%+v, want 307 from %s to %s", re, a.URL, b.URL)
	}
	for _, s := range secrets {
		if strings.Contains(err.Error(), s) {
			t.Errorf("the error shows %s: %v", s, err)
		}
	}
	if n := len(b.requests()); n != 0 {
		t.Errorf("%d requests reached the other origin", n)
	}

	redirectTo(a, http.StatusTemporaryRedirect, func() string { return a.URL + "/landing" })
	if _, err := credentialRequest(c, http.MethodGet, "/start").Send(t.Context()); err != nil {
		t.Errorf("a redirect within the origin: %v", err)
	}
}

// TestRESTRedirectUserClient: the http.Client given is not changed, and its
// CheckRedirect still decides (after the credentials are gone), seeing the
// request as it will be sent.
func TestRESTRedirectUserClient(t *testing.T) {
	a := newRecorder(t)
	b := newRecorder(t)
	redirectTo(a, http.StatusFound, func() string { return b.URL + "/landing" })
	var calls int
	var sawKey string
	check := func(req *http.Request, via []*http.Request) error {
		calls++
		sawKey = req.Header.Get("X-Api-Key")
		return http.ErrUseLastResponse
	}
	hc := &http.Client{CheckRedirect: check, Timeout: time.Minute}
	before := *hc
	c := credentialClient(a.URL)
	c.HTTPClient = hc
	resp, err := credentialRequest(c, http.MethodGet, "/start").Send(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusFound || calls != 1 || sawKey != "" {
		t.Errorf("status %d, CheckRedirect called %d times seeing key %q; want 302 (its ErrUseLastResponse), once, none", resp.StatusCode, calls, sawKey)
	}
	if n := len(b.requests()); n != 0 {
		t.Errorf("the user's CheckRedirect stopped it, yet %d requests went on", n)
	}
	if reflect.ValueOf(hc.CheckRedirect).Pointer() != reflect.ValueOf(before.CheckRedirect).Pointer() || hc.Timeout != before.Timeout || hc.Transport != before.Transport || hc.Jar != before.Jar {
		t.Error("the user's http.Client was changed")
	}
}

// TestOpenToolClientRedirect: the OpenTool client's API key and the headers of
// WithHeader stay with the server's origin; a redirect within it keeps them;
// WithCrossOriginRedirect(RedirectRefuse) fails the call.
func TestOpenToolClientRedirect(t *testing.T) {
	a := newRecorder(t)
	b := newRecorder(t)
	aURL, _ := url.Parse(a.URL)
	route := func(target string) {
		a.mu.Lock()
		a.route = func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path != "/opentool/call" {
				return false
			}
			w.Header().Set("Location", target)
			w.WriteHeader(http.StatusTemporaryRedirect)
			return true
		}
		a.mu.Unlock()
	}
	check := func(s seen, want bool) {
		t.Helper()
		got := []string{s.header.Get("Authorization"), s.header.Get("X-Tenant-Key")}
		if want && (got[0] != "Bearer tool-key" || got[1] != "tenant-secret") || !want && (got[0] != "" || got[1] != "") {
			t.Errorf("%s got Authorization %q, X-Tenant-Key %q (want them: %v)", s.path, got[0], got[1], want)
		}
	}
	user := &http.Client{}
	for _, target := range []string{b.URL + "/opentool/call2", "http://localhost:" + aURL.Port() + "/opentool/call2"} {
		a.reset()
		b.reset()
		route(target)
		c := runtime.NewClient(a.URL+"/opentool", runtime.WithAPIKey("tool-key"), runtime.WithHeader("X-Tenant-Key", "tenant-secret"), runtime.WithHTTPClient(user))
		if _, err := c.CallFunction(t.Context(), "f", nil); err != nil {
			t.Fatal(err)
		}
		check(a.requests()[0], true)
		all := append(a.requests()[1:], b.requests()...)
		if len(all) != 1 || all[0].path != "/opentool/call2" {
			t.Fatalf("requests after the redirect: %v", all)
		}
		check(all[0], false)
	}
	if user.CheckRedirect != nil {
		t.Error("the user's http.Client was changed")
	}

	a.reset()
	route(a.URL + "/opentool/call2")
	c := runtime.NewClient(a.URL+"/opentool", runtime.WithAPIKey("tool-key"), runtime.WithHeader("X-Tenant-Key", "tenant-secret"))
	if _, err := c.CallFunction(t.Context(), "f", nil); err != nil {
		t.Fatal(err)
	}
	check(a.requests()[1], true)

	b.reset()
	route(b.URL + "/opentool/call")
	c = runtime.NewClient(a.URL+"/opentool", runtime.WithAPIKey("tool-key"), runtime.WithCrossOriginRedirect(runtime.RedirectRefuse))
	_, err := c.CallFunction(t.Context(), "f", nil)
	var re *runtime.RedirectError
	if !errors.As(err, &re) || len(b.requests()) != 0 {
		t.Errorf("refused redirect: %v, %d requests at the other origin", err, len(b.requests()))
	}
}

// hanging is a listener whose handler never answers until the test ends.
func hanging(t *testing.T) *httptest.Server {
	done := make(chan struct{})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-done:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(done); s.Close() })
	return s
}

// TestRESTResponseHeaderTimeout: an upstream that never answers fails the
// call once the headers are late, whatever http.Client sends it (the call's
// context has no deadline); the error says why and is a timeout.
func TestRESTResponseHeaderTimeout(t *testing.T) {
	s := hanging(t)
	for _, hc := range []*http.Client{nil, {}} {
		c := NewClient(s.URL)
		c.HTTPClient = hc
		c.ResponseHeaderTimeout = 100 * time.Millisecond
		r := c.NewRequest("GET", "/never")
		r.Query("api_key", "query-secret")
		_, err := r.Send(context.Background())
		var ne interface{ Timeout() bool }
		if err == nil || !strings.Contains(err.Error(), "no response within 100ms (ResponseHeaderTimeout)") ||
			!errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &ne) || !ne.Timeout() {
			t.Fatalf("error %v, want the header timeout", err)
		}
		if strings.Contains(err.Error(), "query-secret") {
			t.Errorf("the error shows the query: %v", err)
		}
	}
	// A retry policy tries again after a late answer, as after a broken connection.
	var attempts int
	var mu sync.Mutex
	done := make(chan struct{})
	defer close(done)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		attempts++
		n := attempts
		mu.Unlock()
		if n == 1 {
			select {
			case <-done:
			case <-r.Context().Done():
			}
			return
		}
		io.WriteString(w, `{}`)
	}))
	defer slow.Close()
	c := NewClient(slow.URL)
	c.ResponseHeaderTimeout = 100 * time.Millisecond
	c.Retry = &RetryPolicy{MinWait: time.Millisecond, MaxWait: time.Millisecond}
	if _, err := c.NewRequest("GET", "/x").Send(context.Background()); err != nil || attempts != 2 {
		t.Errorf("retry after a late answer: %v after %d attempts", err, attempts)
	}
}

// TestRESTResponseHeaderTimeoutDefault: 0 is the default, negative is none.
func TestRESTResponseHeaderTimeoutDefault(t *testing.T) {
	for set, want := range map[time.Duration]time.Duration{0: DefaultResponseHeaderTimeout, -1: 0, time.Second: time.Second} {
		c := Client{ResponseHeaderTimeout: set}
		if got := c.responseHeaderTimeout(); got != want {
			t.Errorf("ResponseHeaderTimeout %v: %v, want %v", set, got, want)
		}
	}
}

// TestRESTStreamAfterHeaders: a stream whose events come slower than the
// header timeout goes on; only its headers are bounded.
func TestRESTStreamAfterHeaders(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		for i := range 3 {
			w.(http.Flusher).Flush()
			// Not a stand-in for an event: a gap longer than the header
			// timeout (100 ms) is what is under test.
			time.Sleep(150 * time.Millisecond)
			fmt.Fprintf(w, "data: \"e%d\"\n\n", i)
		}
	}))
	defer s.Close()
	c := NewClient(s.URL)
	c.ResponseHeaderTimeout = 100 * time.Millisecond
	var got []string
	for v, err := range StreamResponse[string](context.Background(), c.NewRequest("GET", "/s"), "text/event-stream", StreamSSE, nil) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	if strings.Join(got, ",") != `"e0","e1","e2"` {
		t.Errorf("events %v", got)
	}

	h := hanging(t)
	c = NewClient(h.URL)
	c.ResponseHeaderTimeout = 100 * time.Millisecond
	for _, err := range StreamResponse[string](context.Background(), c.NewRequest("GET", "/s"), "text/event-stream", StreamSSE, nil) {
		if err == nil || !strings.Contains(err.Error(), "ResponseHeaderTimeout") {
			t.Errorf("a stream whose headers never come: %v", err)
		}
	}
}
