package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

type statusErr int

func (s statusErr) Error() string   { return fmt.Sprintf("status %d", int(s)) }
func (s statusErr) HTTPStatus() int { return int(s) }

// testServer serves one route "ping" whose Serve checks the body is a JSON
// object with a string "name" and then runs handle.
func testServer(t *testing.T, handle func(name string) error, opts ...Option) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	route := Route{Name: "ping", Method: http.MethodPost, Status: http.StatusAccepted,
		Serve: func(ctx context.Context, r *Request) error {
			args, err := r.Args(Fields{Body: "body", Headers: []Header{{Name: "X-Count", Member: "count", Literal: true}}})
			if err != nil {
				return err
			}
			var v struct {
				Body struct {
					Name *string `json:"name"`
				} `json:"body"`
				Count any `json:"count"`
			}
			if err := json.Unmarshal(args, &v); err != nil || v.Body.Name == nil {
				return Invalid(errors.New("/body/name: required string"))
			}
			calls.Add(1)
			return handle(*v.Body.Name)
		}}
	h, err := NewHandler([]Route{route}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s, &calls
}

func post(t *testing.T, url string, h http.Header, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestHandlerStandard(t *testing.T) {
	v, _ := NewStandard(vecSecret)
	now := time.Now()
	var logged atomic.Int32
	s, calls := testServer(t, func(name string) error {
		switch name {
		case "fail":
			return errors.New("database down: password=hunter2")
		case "busy":
			return statusErr(http.StatusTooManyRequests)
		case "panic":
			panic("boom")
		}
		return nil
	}, WithSecret(vecSecret), WithLogf(func(string, ...any) { logged.Add(1) }))
	n := 0
	signed := func(body string) http.Header {
		n++
		return v.Header(fmt.Sprintf("msg_%d", n), now, []byte(body))
	}
	body := `{"name":"a"}`
	h := signed(body)
	if st, b := post(t, s.URL+"/ping", h, body); st != http.StatusAccepted {
		t.Fatalf("signed: %d %s", st, b)
	}
	if st, _ := post(t, s.URL+"/ping", h, body); st != http.StatusConflict {
		t.Fatalf("replay: %d, want 409", st)
	}
	if st, _ := post(t, s.URL, signed(body), body); st != http.StatusAccepted {
		t.Fatalf("the only route at /: %d", st)
	}
	if calls.Load() != 2 {
		t.Fatalf("calls = %d, want 2 (the replay refused before the method)", calls.Load())
	}
	old := v.Header("msg_old", now.Add(-10*time.Minute), []byte(body))
	wrong, _ := NewStandard("whsec_c2VjcmV0LW9mLWFub3RoZXItc2VuZGVy")
	for _, tc := range []struct {
		name   string
		path   string
		h      http.Header
		body   string
		status int
	}{
		{"unsigned", "/ping", nil, body, 401},
		{"old", "/ping", old, body, 401},
		{"wrong secret", "/ping", wrong.Header("msg_w", now, []byte(body)), body, 401},
		{"body changed", "/ping", signed(body), `{"name":"b"}`, 401},
		{"invalid", "/ping", signed(`{"name":1}`), `{"name":1}`, 400},
		{"not JSON", "/ping", signed(`{"name":`), `{"name":`, 400},
		{"unknown event", "/pong", signed(body), body, 404},
		{"fails", "/ping", signed(`{"name":"fail"}`), `{"name":"fail"}`, 500},
		{"carries a status", "/ping", signed(`{"name":"busy"}`), `{"name":"busy"}`, 429},
		{"panics", "/ping", signed(`{"name":"panic"}`), `{"name":"panic"}`, 500},
	} {
		st, b := post(t, s.URL+tc.path, tc.h, tc.body)
		if st != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, st, b, tc.status)
		}
		var e struct{ Error string }
		if err := json.Unmarshal([]byte(b), &e); err != nil || e.Error == "" {
			t.Errorf("%s: body %q is not {\"error\": …}", tc.name, b)
		}
		if strings.Contains(b, "hunter2") {
			t.Errorf("%s: the method's error text was sent: %s", tc.name, b)
		}
	}
	if logged.Load() != 2 {
		t.Errorf("logged %d errors, want 2 (fail, panic)", logged.Load())
	}
	// A failed message is forgotten: the sender's retry is received.
	h = signed(`{"name":"fail"}`)
	post(t, s.URL+"/ping", h, `{"name":"fail"}`)
	if st, _ := post(t, s.URL+"/ping", h, `{"name":"fail"}`); st != 500 {
		t.Errorf("retry of a failed message: %d, want 500 again (not 409)", st)
	}
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/ping", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "POST" {
		t.Errorf("GET: %d Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

func TestHandlerLimits(t *testing.T) {
	v, _ := NewStandard(vecSecret)
	s, calls := testServer(t, func(string) error { return nil }, WithSecret(vecSecret), WithMaxBytes(64))
	big := `{"name":"` + strings.Repeat("x", 100) + `"}`
	if st, _ := post(t, s.URL+"/ping", v.Header("m1", time.Now(), []byte(big)), big); st != 413 {
		t.Errorf("large body: %d, want 413", st)
	}
	// Without a Content-Length (chunked), the limit holds while reading.
	pr, pw := io.Pipe()
	go func() { pw.Write([]byte(big)); pw.Close() }()
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/ping", pr)
	req.Header = v.Header("m2", time.Now(), []byte(big))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 413 {
		t.Errorf("large chunked body: %d, want 413", resp.StatusCode)
	}
	if calls.Load() != 0 {
		t.Error("a method was called")
	}
}

// Hostile bodies and headers: each gets a 4xx, none a panic or a 5xx.
func TestHandlerHostile(t *testing.T) {
	v, _ := NewStandard(vecSecret)
	s, _ := testServer(t, func(string) error { return nil }, WithSecret(vecSecret))
	bodies := []string{"", "null", "[", strings.Repeat("[", 100000), "\xff\xfe", `{"name":"a"} trailing`, "{\"name\":\"a\"}\x00"}
	for i, b := range bodies {
		st, _ := post(t, s.URL+"/ping", v.Header(fmt.Sprintf("h%d", i), time.Now(), []byte(b)), b)
		if st < 400 || st >= 500 {
			t.Errorf("body %q: %d, want a 4xx", clip(b), st)
		}
	}
	for i, sig := range []string{"v1,", "v1", ",,,,", strings.Repeat("v1,AAAA ", 5000)} {
		h := v.Header(fmt.Sprintf("s%d", i), time.Now(), []byte(`{}`))
		h.Set("Webhook-Signature", sig)
		if st, _ := post(t, s.URL+"/ping", h, `{}`); st != 401 {
			t.Errorf("signature %q: %d, want 401", clip(sig), st)
		}
	}
}

func TestHandlerUnsignedOptions(t *testing.T) {
	route := Route{Name: "e", Method: "POST", Serve: func(context.Context, *Request) error { return nil }}
	if _, err := NewHandler([]Route{route}); err == nil || !strings.Contains(err.Error(), "no secret") {
		t.Errorf("no secret: %v", err)
	}
	none := route
	none.Scheme = SchemeNone
	if _, err := NewHandler([]Route{none}, WithSecret("whsec_c2VjcmV0")); err == nil {
		t.Error("scheme none with only a secret accepted")
	}
	if _, err := NewHandler([]Route{route, route}, WithoutVerification()); err == nil {
		t.Error("two routes of one name accepted")
	}
	h, err := NewHandler([]Route{none}, WithoutVerification())
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/e", bytes.NewReader(nil)))
	if rec.Code != 204 {
		t.Errorf("unsigned with WithoutVerification: %d", rec.Code)
	}
	// Stripe and GitHub routes each verify with their own scheme.
	gh := Route{Name: "gh", Method: "POST", Scheme: SchemeGitHub, Serve: route.Serve}
	st := Route{Name: "st", Method: "POST", Scheme: SchemeStripe, Serve: route.Serve}
	h, err = NewHandler([]Route{gh, st}, WithSecret("s3cret"))
	if err != nil {
		t.Fatal(err)
	}
	ghv, _ := NewGitHub("s3cret")
	stv, _ := NewStripe("s3cret")
	body := []byte(`{}`)
	for _, tc := range []struct {
		path, header, value string
		want                int
	}{
		{"/gh", "X-Hub-Signature-256", ghv.Sign(body), 204},
		{"/gh", "X-Hub-Signature-256", ghv.Sign(body), 409}, // the same body: a replay
		{"/st", "Stripe-Signature", stv.Sign(time.Now(), body), 204},
		{"/st", "X-Hub-Signature-256", ghv.Sign(body), 401},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", tc.path, bytes.NewReader(body))
		req.Header.Set(tc.header, tc.value)
		h.ServeHTTP(rec, req)
		if rec.Code != tc.want {
			t.Errorf("%s %s: %d, want %d", tc.path, tc.header, rec.Code, tc.want)
		}
	}
}

func TestMemoryStoreBounded(t *testing.T) {
	s := NewMemoryStore(3)
	now := time.Unix(1000, 0)
	s.now = func() time.Time { return now }
	ctx := context.Background()
	for i := range 10 {
		if ok, _ := s.Remember(ctx, fmt.Sprint(i), now.Add(time.Minute)); !ok {
			t.Fatalf("%d: not new", i)
		}
		if s.Len() > 3 {
			t.Fatalf("holds %d ids, bound 3", s.Len())
		}
	}
	if ok, _ := s.Remember(ctx, "9", now.Add(time.Minute)); ok {
		t.Error("a held id counted as new")
	}
	now = now.Add(2 * time.Minute)
	if ok, _ := s.Remember(ctx, "9", now.Add(time.Minute)); !ok {
		t.Error("an expired id still held")
	}
	_ = s.Forget(ctx, "9")
	if ok, _ := s.Remember(ctx, "9", now.Add(time.Minute)); !ok {
		t.Error("a forgotten id still held")
	}
}

func TestArgs(t *testing.T) {
	r := &Request{Header: http.Header{}, Body: []byte("\x00\x01")}
	r.Header.Set("X-N", "12")
	r.Header.Set("X-B", "yes")
	r.Header.Set("X-S", "a\"b\x01")
	r.Header.Set("X-J", `{"k":1}`)
	got, err := r.Args(Fields{Body: "body", BodyKind: BodyBinary, Headers: []Header{
		{Name: "X-N", Member: "n", Literal: true}, {Name: "X-B", Member: "b", Literal: true},
		{Name: "X-S", Member: "s\u2028"}, {Name: "X-J", Member: "j", JSON: true}, {Name: "X-Absent", Member: "a"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"n":12,"b":"yes","s\u2028":"a\"b\u0001","j":{"k":1},"body":"AAE="}`
	if string(got) != want || !json.Valid(got) {
		t.Errorf("Args = %s, want %s", got, want)
	}
}

func TestFeedSlowWaiterKeepsNewest(t *testing.T) {
	f := NewFeed()
	ch, stop := f.Subscribe("e")
	for i := range FeedBuffer + 10 {
		if err := f.Publish("e", i); err != nil {
			t.Fatal(err)
		}
	}
	if first := string(<-ch); first != "10" {
		t.Errorf("oldest kept = %s, want 10 (the 10 oldest dropped)", first)
	}
	stop()
	if f.Waiting("e") != 0 {
		t.Error("a stopped waiter is still waiting")
	}
	if err := f.Publish("e", func() {}); err == nil {
		t.Error("an event JSON cannot encode was published")
	}
}
