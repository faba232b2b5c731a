package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/decode"
)

// events answers with a text/event-stream body: the given chunks, each
// flushed, then a broken connection when brk is set (the handler aborts, so
// the client reads an unexpected EOF), else the body's end.
func events(brk bool, chunks ...string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for _, c := range chunks {
			fmt.Fprint(w, c)
			w.(http.Flusher).Flush()
		}
		if brk {
			panic(http.ErrAbortHandler)
		}
	}
}

// timedScript is a script that also records when each request came.
type timedScript struct {
	script
	mu    sync.Mutex
	times []time.Time
}

func (s *timedScript) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.times = append(s.times, time.Now())
	s.mu.Unlock()
	s.script.ServeHTTP(w, r)
}

// readStream ranges over a stream of strings, returning the events and the
// error that ended it.
func readStream(ctx context.Context, c *Client, method string, header ...string) ([]string, error) {
	r := c.NewRequest(method, "/events")
	for i := 0; i+1 < len(header); i += 2 {
		r.Header(header[i], header[i+1])
	}
	var got []string
	for v, err := range StreamResponse[string](ctx, r, "text/event-stream", StreamSSE, nil) {
		if err != nil {
			return got, err
		}
		got = append(got, v)
	}
	return got, nil
}

// A stream whose connection breaks goes on over a new one, which carries the
// last event ID the stream gave; the wait honours the stream's retry field.
func TestStreamReconnect(t *testing.T) {
	api := &timedScript{script: script{answers: []func(http.ResponseWriter, *http.Request){
		// An id, a retry of 30ms, a second id; then an event cut off, whose id
		// must not count.
		events(true, "retry: 30\nid: 1\ndata: one\n\n", "id: 2\ndata: two\n\n", "id: 3\ndata: thr"),
		// No id: the last one stays 2. An id with NUL is ignored.
		events(true, "data: three\n\n", "id: x\x00y\n\n"),
		events(false, "id: 4\ndata: four\n\n"),
	}}}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := NewClient(srv.URL)
	c.Reconnect = &RetryPolicy{MinWait: time.Microsecond, MaxWait: time.Millisecond}
	got, err := readStream(t.Context(), c, "GET")
	if err != nil || strings.Join(got, " ") != "one two three four" {
		t.Fatalf("got %q, %v; want the four events and no error", got, err)
	}
	if n := api.attempts(); n != 3 {
		t.Fatalf("%d connections, want 3", n)
	}
	for i, want := range []string{"", "2", "2"} {
		if h := api.headers[i].Get("Last-Event-ID"); h != want {
			t.Errorf("connection %d: Last-Event-ID %q, want %q", i+1, h, want)
		}
	}
	if d := api.times[1].Sub(api.times[0]); d < 30*time.Millisecond {
		t.Errorf("reconnected after %v, sooner than the stream's retry of 30ms", d)
	}
}

func TestStreamReconnectRules(t *testing.T) {
	fast := &RetryPolicy{MinWait: time.Microsecond, MaxWait: time.Millisecond}
	broken := events(true, "id: 1\ndata: one\n\n")
	type answers = []func(http.ResponseWriter, *http.Request)
	for _, tc := range []struct {
		name     string
		method   string
		header   []string
		answers  answers
		policy   *RetryPolicy
		events   string
		conns    int
		wantErr  string // "" for none
		wantType any    // the type of error wanted in the chain, or nil
	}{
		{"no policy: the break's error", "GET", nil, answers{broken}, nil, "one", 1, "GET /events: reading event 2: unexpected EOF", nil},
		{"a stream that ended is not reopened", "GET", nil, answers{events(false, "id: 1\ndata: one\n\n")}, fast, "one", 1, "", nil},
		{"nor one that sent [DONE]", "GET", nil, answers{events(true, "id: 1\ndata: one\n\ndata: [DONE]\n\n")}, fast, "one", 1, "", nil},
		{"POST is not reconnected", "POST", nil, answers{broken}, fast, "one", 1, "unexpected EOF", nil},
		{"POST with an idempotency key is", "POST", []string{"Idempotency-Key", "k"}, answers{broken, events(false, "data: two\n\n")}, fast, "one two", 2, "", nil},
		{"a 404 on reconnecting ends the stream with it", "GET", nil, answers{broken, status(404)}, fast, "one", 2, "GET /events: HTTP 404 Not Found", &StatusError{}},
		{"503 then the stream", "GET", nil, answers{broken, status(503, "Retry-After", "0"), events(false, "data: two\n\n")}, fast, "one two", 3, "", nil},
		{"204 No Content ends it", "GET", nil, answers{broken, status(204)}, fast, "one", 2, "", nil},
		{"attempts in a row run out", "GET", nil, answers{broken, events(true), events(true), events(true)}, fast, "one", 3, "reading event 2", nil},
		{"an event starts the count again", "GET", nil, answers{broken, events(true), broken, events(true), events(false, "data: end\n\n")},
			fast, "one one end", 5, "", nil},
		{"MaxAttempts 1: no reconnection", "GET", nil, answers{broken}, &RetryPolicy{MaxAttempts: 1}, "one", 1, "unexpected EOF", nil},
		{"a retry field above MaxRetryAfter ends it", "GET", nil, answers{events(true, "retry: 5000\ndata: one\n\n")},
			&RetryPolicy{MaxRetryAfter: time.Second}, "one", 1, "unexpected EOF", nil},
		{"a 2xx that is not a stream", "GET", nil, answers{broken, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"a":1}`)
		}}, fast, "one", 2, "the response is application/json, not text/event-stream", &runtime.Error{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := &script{answers: tc.answers}
			srv := httptest.NewServer(api)
			defer srv.Close()
			c := NewClient(srv.URL)
			c.Reconnect = tc.policy
			got, err := readStream(t.Context(), c, tc.method, tc.header...)
			if strings.Join(got, " ") != tc.events {
				t.Errorf("events %q, want %q", got, tc.events)
			}
			if n := api.attempts(); n != tc.conns {
				t.Errorf("%d connections, want %d", n, tc.conns)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one saying %q", err, tc.wantErr)
			}
			switch tc.wantType.(type) {
			case *StatusError:
				var se *StatusError
				if !errors.As(err, &se) || se.StatusCode != 404 {
					t.Errorf("error %#v, want a *StatusError 404", err)
				}
			case *runtime.Error:
				var e *runtime.Error
				if !errors.As(err, &e) || e.Code != http.StatusBadGateway {
					t.Errorf("error %#v, want a 502 *Error", err)
				}
			}
		})
	}
}

// Cancelling the context while the client waits to reconnect ends the stream
// at once with the context's error.
func TestStreamReconnectCancelled(t *testing.T) {
	api := &script{answers: []func(http.ResponseWriter, *http.Request){events(true, "retry: 20000\ndata: one\n\n")}}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := NewClient(srv.URL)
	c.Reconnect = &RetryPolicy{MaxRetryAfter: time.Minute}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	r := c.NewRequest("GET", "/events")
	start := time.Now()
	var last error
	for v, err := range StreamResponse[string](ctx, r, "text/event-stream", StreamSSE, nil) {
		if err != nil {
			last = err
			break
		}
		if v == "one" {
			time.AfterFunc(20*time.Millisecond, cancel)
		}
	}
	if !errors.Is(last, context.Canceled) || time.Since(start) > 10*time.Second || api.attempts() != 1 {
		t.Errorf("got %v after %v and %d connections, want context.Canceled at once after 1", last, time.Since(start), api.attempts())
	}

	// A deadline that the stream's retry would pass is not waited for.
	api = &script{answers: []func(http.ResponseWriter, *http.Request){events(true, "retry: 20000\ndata: one\n\n")}}
	srv2 := httptest.NewServer(api)
	defer srv2.Close()
	c.BaseURL = srv2.URL
	dctx, dcancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer dcancel()
	start = time.Now()
	got, err := readStream(dctx, c, "GET")
	if len(got) != 1 || err == nil || !strings.Contains(err.Error(), "unexpected EOF") || time.Since(start) > 4*time.Second {
		t.Errorf("got %q, %v after %v; want the break's error at once", got, err, time.Since(start))
	}
}

// NDJSON streams have no event ids: they do not reconnect.
func TestStreamNDJSONNoReconnect(t *testing.T) {
	api := &script{answers: []func(http.ResponseWriter, *http.Request){func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		fmt.Fprint(w, "1\n")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}}}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := NewClient(srv.URL)
	c.Reconnect = &RetryPolicy{MinWait: time.Microsecond}
	var got []int
	var last error
	for v, err := range StreamResponse[int](t.Context(), c.NewRequest("GET", "/n"), "application/x-ndjson", StreamNDJSON, nil) {
		if err != nil {
			last = err
			break
		}
		got = append(got, v)
	}
	if len(got) != 1 || last == nil || api.attempts() != 1 {
		t.Errorf("got %v, %v after %d connections; want [1], the break's error, 1", got, last, api.attempts())
	}
}

// DecodeText reads a value from the JSON text a string holds, or the value
// itself; a string that is not JSON is the value, and violations inside
// the text are at their place.
func TestDecodeText(t *testing.T) {
	type pair struct{ N int64 }
	decodePair := func(d *decode.Decoder, x *pair) {
		if !d.Object() {
			return
		}
		for d.Next() {
			d.Push("n")
			x.N, _ = d.Int()
			d.Pop()
		}
	}
	type event struct {
		Data pair
		Raw  json.RawMessage
	}
	decodeEvent := func(d *decode.Decoder, x *event) {
		if !d.Object() {
			return
		}
		for d.Next() {
			switch string(d.Key()) {
			case "data":
				decode.Text(d, &x.Data, decodePair)
			case "raw":
				decode.Text(d, &x.Raw, decode.Raw)
			default:
				d.Skip()
			}
		}
	}
	for in, want := range map[string]string{
		`{"data":"{\"n\":1}","raw":"[1, 2]"}`: `{1} [1, 2]`,
		`{"data":{"n":2},"raw":"not JSON"}`:   `{2} "not JSON"`,
		`{"raw":{"a":true}}`:                  `{0} {"a":true}`,
	} {
		var e event
		if err := decode.Value([]byte(in), &e, decodeEvent); err != nil || fmt.Sprint(e.Data, " ", string(e.Raw)) != want {
			t.Errorf("%s: %v %s, %v; want %s", in, e.Data, e.Raw, err, want)
		}
	}
	var e event
	err := decode.Value([]byte(`{"data":"{\"n\":\"one\"}"}`), &e, decodeEvent)
	if err == nil || !strings.Contains(err.Error(), "/data/n") {
		t.Errorf("a wrong member inside the text: %v, want a violation at /data/n", err)
	}
	if err := decode.Value([]byte(`{"data":"plain"}`), &e, decodeEvent); err == nil || !strings.Contains(err.Error(), "/data") {
		t.Errorf("text that is not JSON for an object: %v", err)
	}
}
