package runtime_test

// Tests of POST /streamCall: the server's Server-Sent Events and the client's
// StreamCall and Stream[T] against it.

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// dartEvent is how the Dart reference client reads events: every event of a
// stream must match it, one after the other, with nothing in between.
var dartEvent = regexp.MustCompile(`event:(\w+)\ndata:(.*?)\n\n`)

// splitEvents checks that body is a sequence of events the Dart client reads and
// returns them as name, data pairs.
func splitEvents(t testing.TB, body []byte) [][2]string {
	t.Helper()
	var evs [][2]string
	rest := string(body)
	for rest != "" {
		loc := dartEvent.FindStringSubmatchIndex(rest)
		if loc == nil || loc[0] != 0 {
			t.Fatalf("not an event the Dart client reads at %q (whole stream %q)", rest, body)
		}
		evs = append(evs, [2]string{rest[loc[2]:loc[3]], rest[loc[4]:loc[5]]})
		rest = rest[loc[1]:]
	}
	return evs
}

func seedTexts(t testing.TB, client *runtime.Client, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if err := client.Invoke(context.Background(), "create", map[string]string{"text": s}, "", nil); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStreamWireFormat(t *testing.T) {
	srv, client := serveMock(t, newMockTool())
	seedTexts(t, client, "a", "b")
	res := postJSON(t, srv.URL+"/opentool/streamCall", `{"jsonrpc":"2.0","method":"sequentiallyRead","id":"s1"}`)
	if res.status != 200 || res.header.Get("Content-Type") != "text/event-stream" || res.header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("%d %v", res.status, res.header)
	}
	want := "event:start\ndata:{\"start\":\"sequentiallyRead\"}\n\n" +
		"event:data\ndata:{\"jsonrpc\":\"2.0\",\"result\":{\"text\":\"a\"},\"error\":null,\"id\":\"s1\"}\n\n" +
		"event:data\ndata:{\"jsonrpc\":\"2.0\",\"result\":{\"text\":\"b\"},\"error\":null,\"id\":\"s1\"}\n\n" +
		"event:done\ndata:{\"done\":\"sequentiallyRead\"}\n\n"
	if string(res.body) != want {
		t.Errorf("stream:\n got %q\nwant %q", res.body, want)
	}
	splitEvents(t, res.body)

	// An error ends the stream with an error event carrying a JSON-RPC error.
	res = postJSON(t, srv.URL+"/opentool/streamCall", `{"jsonrpc":"2.0","method":"failAfter","params":{"n":1},"id":7}`)
	evs := splitEvents(t, res.body)
	if len(evs) != 3 || evs[0][0] != "start" || evs[1][0] != "data" || evs[2][0] != "error" {
		t.Fatalf("events %q", evs)
	}
	if evs[2][1] != `{"jsonrpc":"2.0","result":{},"error":{"code":4243,"message":"stream failed after 1"},"id":7}` {
		t.Errorf("error event %s", evs[2][1])
	}
}

// A result or error data spread over several lines is sent on one data line:
// the Dart client reads only one.
func TestStreamMultiLineResults(t *testing.T) {
	srv, client := serveMock(t, newMockTool())
	res := postJSON(t, srv.URL+"/opentool/streamCall", `{"jsonrpc":"2.0","method":"streamPretty","id":1}`)
	evs := splitEvents(t, res.body)
	if len(evs) != 4 {
		t.Fatalf("events %q", evs)
	}
	for _, ev := range evs[1:] {
		if _, err := parseResponse([]byte(ev[1])); err != nil {
			t.Errorf("%s event: %v", ev[0], err)
		}
	}
	var got []string
	var last error
	for ret, err := range client.StreamCall(context.Background(), runtime.FunctionCall{Name: "streamPretty"}) {
		if err != nil {
			last = err
			break
		}
		got = append(got, string(ret.Result))
	}
	if len(got) != 2 || got[0] != `{"a":[1,2]}` {
		t.Errorf("results %q", got)
	}
	if e := asError(t, last); e.Code != mockCodeStream || string(e.Data) != `{"x":1}` {
		t.Errorf("error %v", last)
	}
}

func TestStreamCallInOrder(t *testing.T) {
	_, client := serveMock(t, newMockTool())
	var texts []string
	for i := range 50 {
		texts = append(texts, strings.Repeat("t", i+1))
	}
	texts = append(texts, strings.Repeat("long\n", 20000)) // larger than the client's read buffer
	seedTexts(t, client, texts...)

	var got []string
	for ret, err := range client.StreamCall(context.Background(), runtime.FunctionCall{ID: "sid", Name: "sequentiallyRead"}) {
		if err != nil {
			t.Fatal(err)
		}
		if ret.ID != "sid" {
			t.Errorf("id %q", ret.ID)
		}
		var s string
		if err := ret.Decode("text", &s); err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	if strings.Join(got, ",") != strings.Join(texts, ",") {
		t.Errorf("got %d texts, want %d in order", len(got), len(texts))
	}

	// The typed helper.
	got = got[:0]
	for s, err := range runtime.Stream[string](context.Background(), client, "sequentiallyRead", nil, "text") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	if strings.Join(got, ",") != strings.Join(texts, ",") {
		t.Errorf("Stream: got %d texts, want %d in order", len(got), len(texts))
	}
	// A value of the wrong type ends the stream with an error.
	n := 0
	for _, err := range runtime.Stream[int](context.Background(), client, "sequentiallyRead", nil, "text") {
		n++
		if !errors.Is(err, runtime.ErrResponseNull) {
			t.Errorf("Stream[int] of texts: %v", err)
		}
	}
	if n != 1 {
		t.Errorf("Stream[int] yielded %d times", n)
	}
}

func TestStreamErrorMidStream(t *testing.T) {
	_, client := serveMock(t, newMockTool())
	var got []int
	var errs []error
	for v, err := range runtime.Stream[struct{ I int }](context.Background(), client, "failAfter", map[string]int{"n": 3}, "") {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, v.I)
	}
	if len(got) != 3 || got[2] != 2 {
		t.Errorf("data before the error: %v", got)
	}
	if len(errs) != 1 {
		t.Fatalf("errors %v", errs)
	}
	if e := asError(t, errs[0]); !errors.Is(errs[0], runtime.ErrCall) || e.Code != mockCodeStream || e.Message != "stream failed after 3" {
		t.Errorf("error %#v", e)
	}

	// A panic mid-stream is an internal error; the server keeps serving.
	var last error
	n := 0
	for _, err := range runtime.Stream[json.RawMessage](context.Background(), client, "streamPanic", nil, "") {
		if err != nil {
			last = err
		} else {
			n++
		}
	}
	if n != 1 || asError(t, last).Code != runtime.CodeInternalError {
		t.Errorf("panic: %d results, %v", n, last)
	}
	// An invalid result: emit refuses it, the stream ends with an internal error.
	last = nil
	n = 0
	for _, err := range client.StreamCall(context.Background(), runtime.FunctionCall{Name: "streamBad"}) {
		if err != nil {
			last = err
		} else {
			n++
		}
	}
	if n != 0 || asError(t, last).Code != runtime.CodeInternalError {
		t.Errorf("invalid result: %d results, %v", n, last)
	}
	// Unknown function, bad params: the error before any event.
	for _, c := range []struct {
		fc   runtime.FunctionCall
		code int
	}{
		{runtime.FunctionCall{Name: "nope"}, runtime.CodeMethodNotFound},
		{runtime.FunctionCall{Name: "failAfter", Arguments: json.RawMessage(`{"n":"x"}`)}, runtime.CodeInvalidParams},
		{runtime.FunctionCall{Name: ""}, runtime.CodeInvalidRequest},
	} {
		n := 0
		for _, err := range client.StreamCall(context.Background(), c.fc) {
			n++
			if e := asError(t, err); !errors.Is(err, runtime.ErrCall) || e.Code != c.code {
				t.Errorf("%s: %v, want code %d", c.fc.Name, err, c.code)
			}
		}
		if n != 1 {
			t.Errorf("%s: %d yields", c.fc.Name, n)
		}
	}
}

// The consumer stops early: the connection closes, the tool's emit fails and its
// context is cancelled.
func TestStreamEarlyBreak(t *testing.T) {
	tool := newMockTool()
	_, client := serveMock(t, tool)
	n := 0
	for ret, err := range client.StreamCall(context.Background(), runtime.FunctionCall{Name: "forever"}) {
		if err != nil {
			t.Fatal(err)
		}
		if string(ret.Result) != `{"i":`+string(rune('0'+n))+`}` {
			t.Errorf("result %d: %s", n, ret.Result)
		}
		if n++; n == 3 {
			break
		}
	}
	saw := recv(t, tool.foreverSaw, "the tool to notice the caller left")
	if saw[0] == nil {
		t.Error("emit did not fail")
	}
	if !errors.Is(saw[1], context.Canceled) {
		t.Errorf("the tool's context: %v, want canceled", saw[1])
	}
	// The typed helper too.
	for range runtime.Stream[struct{ I int }](context.Background(), client, "forever", nil, "") {
		break
	}
	recv(t, tool.foreverSaw, "the tool to notice the caller left")
	// The server still serves.
	if _, err := client.Call(context.Background(), runtime.FunctionCall{Name: "count"}); err != nil {
		t.Error(err)
	}
}

// The caller's context ends mid-stream: the consumer gets an error wrapping the
// context's error, the tool stops.
func TestStreamContextCancelled(t *testing.T) {
	tool := newMockTool()
	_, client := serveMock(t, tool)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var last error
	n := 0
	for _, err := range client.StreamCall(ctx, runtime.FunctionCall{Name: "forever"}) {
		if err != nil {
			last = err
			continue
		}
		if n++; n == 2 {
			cancel()
		}
	}
	if !errors.Is(last, context.Canceled) || errors.Is(last, runtime.ErrNoAccess) {
		t.Errorf("error %v, want context.Canceled", last)
	}
	recv(t, tool.foreverSaw, "the tool to notice the caller left")
}

func TestStreamNotAStreamTool(t *testing.T) {
	srv, client := serveMock(t, plainTool{})
	wantRPCError(t, postJSON(t, srv.URL+"/opentool/streamCall", `{"jsonrpc":"2.0","method":"x","id":"a"}`), http.StatusOK, runtime.CodeMethodNotFound, `"a"`)
	for _, err := range client.StreamCall(context.Background(), runtime.FunctionCall{Name: "x"}) {
		if asError(t, err).Code != runtime.CodeMethodNotFound {
			t.Errorf("%v", err)
		}
	}
}

// A tool that keeps emit and calls it after its stream ended gets an error; the
// response is not touched.
func TestStreamEmitAfterEnd(t *testing.T) {
	tool := newMockTool()
	h := runtime.NewHandler(tool, runtime.WithLogger(quietLogger(nil)))
	for _, cancelled := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		if cancelled {
			cancel()
		}
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/opentool/streamCall", strings.NewReader(`{"method":"leak","id":1}`))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		cancel()
		body := rec.Body.String()
		emit := recv(t, tool.leaked, "the tool's emit")
		if err := emit(json.RawMessage(`{"late":true}`)); err == nil {
			t.Errorf("cancelled %v: emit after the end: no error", cancelled)
		}
		if rec.Body.String() != body || strings.Contains(body, "late") {
			t.Errorf("cancelled %v: written after the end: %q", cancelled, rec.Body.String())
		}
		if !cancelled && !strings.HasSuffix(body, "event:done\ndata:{\"done\":\"leak\"}\n\n") {
			t.Errorf("stream %q", body)
		}
	}
}

// WithMaxResponseBytes bounds each event of a stream, not the whole stream.
func TestStreamResponseLimit(t *testing.T) {
	event := "event:data\ndata:{\"jsonrpc\":\"2.0\",\"result\":{\"s\":\"" + strings.Repeat("x", 100) + "\"},\"error\":null,\"id\":\"1\"}\n\n"
	handler := func(n int, last string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, strings.Repeat(event, n)+last)
		}
	}
	client := fakeServer(t, handler(100, "event:done\ndata:{\"done\":\"s\"}\n\n"), runtime.WithMaxResponseBytes(1000))
	n := 0
	for _, err := range client.StreamCall(context.Background(), runtime.FunctionCall{Name: "s"}) {
		if err != nil {
			t.Fatalf("after %d events: %v", n, err)
		}
		n++
	}
	if n != 100 {
		t.Errorf("%d events of a stream 10 times the limit, want 100", n)
	}
	for _, big := range []string{
		"event:data\ndata:" + strings.Repeat("y", 2000) + "\n\n",                  // one long line
		"event:data\n" + strings.Repeat("data:"+strings.Repeat("z", 99)+"\n", 20), // many lines
	} {
		client = fakeServer(t, handler(2, big), runtime.WithMaxResponseBytes(1000))
		n = 0
		var last error
		for _, err := range client.StreamCall(context.Background(), runtime.FunctionCall{Name: "s"}) {
			if err != nil {
				last = err
				continue
			}
			n++
		}
		if n != 2 || !errors.Is(last, runtime.ErrResponseNull) || !strings.Contains(last.Error(), "larger than 1000 bytes") {
			t.Errorf("an event over the limit: %d events, %v", n, last)
		}
	}
}
