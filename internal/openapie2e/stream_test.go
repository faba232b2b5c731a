package openapie2e

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
	"github.com/opentoolgen/opentoolgen/runtime/rest"
	stream "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-stream"
)

// streamAPI is the API of testdata/golden/openapi-stream over real HTTP: it
// streams events one at a time, flushing each, and records what it saw.
type streamAPI struct {
	t         *testing.T
	cancelled chan struct{} // receives when an endless stream's request ends
	accept    chan string   // the Accept header of each /chat request
}

func newStreamAPI(t *testing.T) (*streamAPI, *httptest.Server) {
	a := &streamAPI{t: t, cancelled: make(chan struct{}, 10), accept: make(chan string, 100)}
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	return a, srv
}

func (a *streamAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	send := func(s string) bool {
		if _, err := fmt.Fprint(w, s); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	switch r.URL.Path {
	case "/chat":
		a.accept <- r.Header.Get("Accept")
		var body struct {
			Prompt    string `json:"prompt"`
			MaxChunks int    `json:"maxChunks"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		switch body.Prompt {
		case "bad":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			fmt.Fprint(w, `{"message":"the prompt is bad"}`)
			return
		case "busy":
			w.WriteHeader(429)
			fmt.Fprint(w, "slow down")
			return
		case "json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"index":0,"text":"not a stream"}`)
			return
		case "late": // no headers before the client's timeout, which ends the request
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		switch body.Prompt {
		case "endless":
			for i := 0; ; i++ {
				select {
				case <-r.Context().Done():
					a.cancelled <- struct{}{}
					return
				case <-time.After(time.Millisecond):
				}
				if !send(fmt.Sprintf("data: {\"index\":%d,\"text\":\"x\"}\n\n", i)) {
					<-r.Context().Done()
					a.cancelled <- struct{}{}
					return
				}
			}
		case "big":
			send("data: {\"index\":0,\"text\":\"ok\"}\n\n")
			send("data: {\"index\":1,\"text\":\"" + strings.Repeat("y", 5000) + "\"}\n\n")
		case "malformed":
			send("data: {\"index\":0,\"text\":\"ok\"}\n\n")
			send("event: chunk\ndata: {\"index\":\"one\",\"text\":\"ok\"}\n\n")
		case "slow":
			// Longer in all than the client's timeout, each event well within
			// it: the pauses are what is tested, not a wait for an event.
			for i := range 4 {
				send(fmt.Sprintf("data: {\"index\":%d,\"text\":\"slow\"}\n\n", i))
				time.Sleep(120 * time.Millisecond)
			}
		default:
			// Comments, an event name, an id, a data split over two lines, an
			// event without data, then [DONE] and what follows it (ignored).
			words := strings.Fields(body.Prompt)
			send(": keep-alive\n\n")
			for i, wd := range words {
				if body.MaxChunks > 0 && i == body.MaxChunks {
					break
				}
				if i == 1 {
					send("event: chunk\nid: 7\ndata: {\"index\":1,\n" + `data: "text":"` + wd + "\"}\r\n\r\n")
					continue
				}
				send(fmt.Sprintf("data:{\"index\":%d,\"text\":%q}\n\n", i, wd))
			}
			send("event: ping\n\n")
			send("data: [DONE]\n\n")
			send("data: {\"index\":99,\"text\":\"after done\"}\n\n")
		}
	case "/logs/api", "/logs/bad":
		w.Header().Set("Content-Type", "application/x-ndjson")
		send(`{"level":"info","message":"started"}` + "\n")
		send("\n")
		if r.URL.Path == "/logs/bad" {
			send(`{"level":"info","message":42}` + "\n")
			return
		}
		send(`{"level":"warn","message":"since ` + r.URL.Query().Get("since") + `"}` + "\r\n")
		send(`{"level":"error","message":"last, without a line end"}`)
	case "/logs/gone":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(503)
		fmt.Fprint(w, `{"message":"the log service is down"}`)
	case "/ticks":
		w.Header().Set("Content-Type", "application/jsonl")
		for i := range 3 {
			send(fmt.Sprintf("%d\n", i*10))
		}
	case "/watch":
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		send("data: first notice\n\ndata: second\ndata: notice\n\n")
	default:
		http.NotFound(w, r)
	}
}

func TestStreamClient(t *testing.T) {
	ctx := context.Background()
	api, srv := newStreamAPI(t)
	c := must(stream.NewClient(srv.URL))

	// The events, typed, in order: [DONE] ends the stream.
	var got []string
	for ch, err := range c.ChatSeq(ctx, stream.ChatArgs{Prompt: "hello streaming world"}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d:%s", ch.Index, ch.Text))
	}
	if want := "0:hello 1:streaming 2:world"; strings.Join(got, " ") != want {
		t.Errorf("chat events: %q, want %q", strings.Join(got, " "), want)
	}
	if acc := <-api.accept; acc != "text/event-stream" {
		t.Errorf("Accept: %q, want text/event-stream", acc)
	}

	// The Service's form: emit gets each event; its error ends the call.
	n := 0
	stop := errors.New("enough")
	err := c.Chat(ctx, stream.ChatArgs{Prompt: "a b c", MaxChunks: ptr[int64](3)}, func(ch stream.Chunk) error {
		n++
		if ch.Index == 1 {
			return stop
		}
		return nil
	})
	<-api.accept
	if !errors.Is(err, stop) || n != 2 {
		t.Errorf("Chat with emit: %v after %d events, want %v after 2", err, n, stop)
	}

	// Breaking out of the loop closes the connection: the server sees its
	// request's context end.
	n = 0
	for _, err := range c.ChatSeq(ctx, stream.ChatArgs{Prompt: "endless"}) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 3 {
			break
		}
	}
	<-api.accept
	select {
	case <-api.cancelled:
	case <-time.After(5 * time.Second):
		t.Error("the server's request context was not cancelled after the loop ended")
	}

	// A documented error status: the same error as a call without a stream.
	for _, err := range c.ChatSeq(ctx, stream.ChatArgs{Prompt: "bad"}) {
		var ae *rest.APIError[stream.Error]
		if !errors.As(err, &ae) || ae.StatusCode != 400 || ae.Body.Message != "the prompt is bad" || ae.Operation != "POST /chat" {
			t.Errorf("bad prompt: %v, want an *APIError[Error] with status 400", err)
		}
	}
	<-api.accept
	for _, err := range c.ChatSeq(ctx, stream.ChatArgs{Prompt: "busy"}) {
		var se *rest.StatusError
		if !errors.As(err, &se) || se.StatusCode != 429 || string(se.Body) != "slow down" {
			t.Errorf("busy: %v, want a *StatusError with status 429", err)
		}
	}
	<-api.accept
	// A 2xx that is not an event stream is an error, not an empty stream.
	for _, err := range c.ChatSeq(ctx, stream.ChatArgs{Prompt: "json"}) {
		if err == nil || !strings.Contains(err.Error(), "application/json, not text/event-stream") {
			t.Errorf("a JSON answer: %v, want an error saying it is not a stream", err)
		}
	}
	<-api.accept

	// An event larger than MaxResponseBytes ends the stream with an error
	// naming it, after the events before it.
	small := must(stream.NewClient(srv.URL, func(rc *rest.Client) { rc.MaxResponseBytes = 1000 }))
	var events []int64
	var last error
	for ch, err := range small.ChatSeq(ctx, stream.ChatArgs{Prompt: "big"}) {
		if err != nil {
			last = err
			continue
		}
		events = append(events, ch.Index)
	}
	<-api.accept
	if len(events) != 1 || last == nil || !strings.Contains(last.Error(), "POST /chat: event 2 is larger than 1000 bytes") {
		t.Errorf("big event: events %v, error %v; want [0] and event 2 too large", events, last)
	}

	// An event that does not match the document: the error names it.
	events, last = nil, nil
	for ch, err := range c.ChatSeq(ctx, stream.ChatArgs{Prompt: "malformed"}) {
		if err != nil {
			last = err
			continue
		}
		events = append(events, ch.Index)
	}
	<-api.accept
	var oe *runtime.Error
	if len(events) != 1 || !errors.As(last, &oe) || oe.Code != http.StatusBadGateway ||
		!strings.Contains(oe.Message, "POST /chat: event 2 does not match the document") || !strings.Contains(oe.Message, `(data: {"index":"one","text":"ok"})`) {
		t.Errorf("malformed event: events %v, error %v; want [0] and a 502 naming event 2 and its data", events, last)
	}

	// The client's timeout bounds the wait for the headers, not the stream.
	timed := must(stream.NewClient(srv.URL, stream.WithTimeout(200*time.Millisecond)))
	n = 0
	for _, err := range timed.ChatSeq(ctx, stream.ChatArgs{Prompt: "slow"}) {
		if err != nil {
			t.Fatalf("slow stream after %d events: %v", n, err)
		}
		n++
	}
	<-api.accept
	if n != 4 {
		t.Errorf("slow stream: %d events, want 4", n)
	}
	for _, err := range timed.ChatSeq(ctx, stream.ChatArgs{Prompt: "late"}) {
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("late headers: %v, want context.DeadlineExceeded", err)
		}
	}
	<-api.accept

	// The context ends a stream.
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n = 0
	for _, err := range c.ChatSeq(cctx, stream.ChatArgs{Prompt: "endless"}) {
		if err != nil {
			last = err
			break
		}
		if n++; n == 2 {
			cancel()
		}
	}
	<-api.accept
	if !errors.Is(last, context.Canceled) {
		t.Errorf("a cancelled stream: %v, want context.Canceled", last)
	}
}

func TestStreamNDJSON(t *testing.T) {
	ctx := context.Background()
	_, srv := newStreamAPI(t)
	c := must(stream.NewClient(srv.URL))
	since := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	var got []string
	for l, err := range c.TailLogsSeq(ctx, stream.TailLogsArgs{Service: "api", Since: &since}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(l.Level)+": "+l.Message)
	}
	want := "info: started|warn: since 2024-05-06T07:08:09Z|error: last, without a line end"
	if strings.Join(got, "|") != want {
		t.Errorf("log lines: %q, want %q", strings.Join(got, "|"), want)
	}

	// A line that breaks the document's schema (a number for a string).
	var last error
	n := 0
	for _, err := range c.TailLogsSeq(ctx, stream.TailLogsArgs{Service: "bad"}) {
		if err != nil {
			last = err
			continue
		}
		n++
	}
	if n != 1 || last == nil || !strings.Contains(last.Error(), "GET /logs/{service}: event 2 does not match the document") {
		t.Errorf("bad line: %d values, error %v", n, last)
	}
	// The default response is the documented error.
	for _, err := range c.TailLogsSeq(ctx, stream.TailLogsArgs{Service: "gone"}) {
		var ae *rest.APIError[stream.Error]
		if !errors.As(err, &ae) || ae.StatusCode != 503 || ae.Body.Message != "the log service is down" {
			t.Errorf("gone: %v, want an *APIError[Error] with status 503", err)
		}
	}

	var ticks []int64
	for v, err := range c.TicksSeq(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		ticks = append(ticks, v)
	}
	if fmt.Sprint(ticks) != "[0 10 20]" {
		t.Errorf("ticks: %v", ticks)
	}
	// SSE events as text.
	var notes []string
	for s, err := range c.WatchSeq(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		notes = append(notes, s)
	}
	if fmt.Sprintf("%q", notes) != `["first notice" "second\nnotice"]` {
		t.Errorf("notices: %q", notes)
	}
}

// TestStreamTool serves the REST client through the Tool adapter: each event
// of the API is an item of OpenTool's /streamCall, and an error status is the
// stream's error event.
func TestStreamTool(t *testing.T) {
	ctx := context.Background()
	api, srv := newStreamAPI(t)
	tool, err := stream.NewTool(must(stream.NewClient(srv.URL)))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(runtime.NewHandler(tool))
	defer ts.Close()
	oc := runtime.NewClient(ts.URL + "/opentool")

	doc, err := oc.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range doc.Functions {
		if streams := fn.Name != "getStatus"; fn.IsStream() != streams {
			t.Errorf("%s: streams %v in the served document, want %v", fn.Name, fn.IsStream(), streams)
		}
	}

	var got []string
	for ret, err := range oc.StreamCall(ctx, fcall(t, "chat", map[string]any{"prompt": "over open tool"})) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(ret.Result))
	}
	<-api.accept
	want := `{"index":0,"text":"over"} {"index":1,"text":"open"} {"index":2,"text":"tool"}`
	if strings.Join(got, " ") != want {
		t.Errorf("streamed items: %s, want %s", strings.Join(got, " "), want)
	}

	// Scalars travel under the result's name.
	got = nil
	for ret, err := range oc.StreamCall(ctx, fcall(t, "ticks", nil)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(ret.Result))
	}
	if want := `{"result":0} {"result":10} {"result":20}`; strings.Join(got, " ") != want {
		t.Errorf("ticks: %s, want %s", strings.Join(got, " "), want)
	}

	// An error status of the API is the stream's error, with the status as code.
	for _, err := range oc.StreamCall(ctx, fcall(t, "chat", map[string]any{"prompt": "bad"})) {
		var e *runtime.Error
		if !errors.As(err, &e) || e.Code != 400 || !strings.Contains(string(e.Data), "the prompt is bad") {
			t.Errorf("bad prompt over /streamCall: %v, want code 400 with the body", err)
		}
	}
	<-api.accept

	// The same through runtime.Local, without HTTP.
	got = nil
	for raw, err := range runtime.Local(tool).StreamFunction(ctx, "tailLogs", json.RawMessage(`{"service":"api"}`)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(raw))
	}
	if len(got) != 3 || got[0] != `{"level":"info","message":"started"}` {
		t.Errorf("tailLogs through Local: %q", got)
	}
	// A streaming function called with call is refused.
	if _, err := oc.Call(ctx, fcall(t, "chat", map[string]any{"prompt": "x"})); err == nil || !strings.Contains(err.Error(), "streamCall") {
		t.Errorf("chat with call: %v, want an error pointing at streamCall", err)
	}
}

// fcall is a FunctionCall of name with args.
func fcall(t *testing.T, name string, args any) runtime.FunctionCall {
	t.Helper()
	fc, err := runtime.NewFunctionCall("", name, args)
	if err != nil {
		t.Fatal(err)
	}
	return fc
}

// With WithReconnect, the generated iterator goes on across a broken
// connection: the new request carries the last event's id. A POST without an
// idempotency key is not sent twice: its break ends the stream.
func TestStreamReconnect(t *testing.T) {
	var mu sync.Mutex
	var lastIDs []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		lastIDs = append(lastIDs, r.URL.Path+" "+r.Header.Get("Last-Event-ID"))
		n := len(lastIDs)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		flush := func(s string) {
			fmt.Fprint(w, s)
			w.(http.Flusher).Flush()
		}
		switch {
		case r.URL.Path == "/chat":
			flush("data: {\"index\":0,\"text\":\"a\"}\n\n")
			panic(http.ErrAbortHandler)
		case n == 1:
			flush("retry: 10\nid: n1\ndata: first notice\n\n")
			flush("id: n2\ndata: second notice\n\ndata: cut o")
			panic(http.ErrAbortHandler) // the connection breaks mid-event
		default:
			flush("id: n3\ndata: third notice\n\ndata: [DONE]\n\n")
		}
	}))
	defer srv.Close()
	c := must(stream.NewClient(srv.URL, stream.WithReconnect(rest.RetryPolicy{MinWait: time.Millisecond, MaxWait: 5 * time.Millisecond})))
	var got []string
	for v, err := range c.WatchSeq(t.Context()) {
		if err != nil {
			t.Fatalf("after %q: %v", got, err)
		}
		got = append(got, v)
	}
	if want := "first notice|second notice|third notice"; strings.Join(got, "|") != want {
		t.Errorf("notices %q, want %q", strings.Join(got, "|"), want)
	}
	var n int
	for _, err := range c.ChatSeq(t.Context(), stream.ChatArgs{Prompt: "x"}) {
		if err != nil {
			if !strings.Contains(err.Error(), "POST /chat: reading event 2") {
				t.Errorf("a broken chat: %v", err)
			}
			break
		}
		n++
	}
	mu.Lock()
	defer mu.Unlock()
	if want := "/watch |/watch n2|/chat "; strings.Join(lastIDs, "|") != want || n != 1 {
		t.Errorf("requests (path Last-Event-ID) %q and %d chat events, want %q and 1", strings.Join(lastIDs, "|"), n, want)
	}
}
