package runtime_test

// Tests of the server against hostile and broken peers: ids and results that
// are not valid UTF-8, repeated envelope members, clients that stall or
// trickle, streams nobody reads, shutdown with open streams, and tools that
// panic on every call.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// hardTool misbehaves on purpose.
type hardTool struct {
	// wait (stream): emits one result, then waits for its context to end,
	// signals waitSaw, takes waitCleanup to clean up, and closes waitDone.
	// The slow cleanup is what TestShutdownEndsStreams needs, not a wait for
	// an event: a ServeListener that did not wait for the handlers would
	// return within it, before waitDone.
	waitSaw     chan error
	waitCleanup time.Duration
	waitDone    chan struct{}

	// slow (call): waits for its context to end or for slowFor, and reports
	// which on slowSaw.
	slowFor time.Duration
	slowSaw chan error
}

func newHardTool() *hardTool {
	return &hardTool{waitSaw: make(chan error, 1), waitDone: make(chan struct{}), slowSaw: make(chan error, 4)}
}

func (h *hardTool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	switch name {
	case "echo":
		if args == nil {
			return nil, nil
		}
		return json.RawMessage(`{"args":` + string(args) + `}`), nil
	case "badError": // a message and data that are not valid UTF-8
		return nil, &runtime.Error{Code: 4000, Message: "bad \xff message", Data: json.RawMessage("{\"d\":\"\xfe\xff\"}")}
	case "slow":
		select {
		case <-time.After(h.slowFor):
			h.slowSaw <- nil
			return json.RawMessage(`{"slept":true}`), nil
		case <-ctx.Done():
			h.slowSaw <- ctx.Err()
			return nil, ctx.Err()
		}
	}
	if strings.HasPrefix(name, "panic") {
		panic("hostile " + name)
	}
	if strings.HasPrefix(name, "invalid") {
		return json.RawMessage(`[1]`), nil
	}
	return nil, runtime.MethodNotFound(name)
}

func (h *hardTool) StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(json.RawMessage) error) error {
	switch name {
	case "bad": // a result and an error that are not valid UTF-8
		if err := emit(json.RawMessage("{\"s\":\"a\xffb\"}")); err != nil {
			return err
		}
		return &runtime.Error{Code: 4001, Message: "bad \xff", Data: json.RawMessage("[\"\xfe\"]")}
	case "wait":
		if err := emit(json.RawMessage(`{"waiting":true}`)); err != nil {
			return err
		}
		<-ctx.Done()
		h.waitSaw <- ctx.Err()
		time.Sleep(h.waitCleanup)
		close(h.waitDone)
		return ctx.Err()
	case "panicStream":
		panic("stream boom")
	}
	return runtime.MethodNotFound(name)
}

func (h *hardTool) Load(ctx context.Context) (*document.OpenTool, error) { return nil, nil }

// wantUTF8JSON fails unless body is valid UTF-8 and valid JSON.
func wantUTF8JSON(t testing.TB, what string, body []byte) {
	t.Helper()
	if !utf8.Valid(body) {
		t.Errorf("%s is not valid UTF-8: %q", what, body)
	}
	if !json.Valid(body) {
		t.Errorf("%s is not valid JSON: %q", what, body)
	}
}

// ---- item 2: every response is valid UTF-8 JSON ----

func TestInvalidUTF8IsNotEchoed(t *testing.T) {
	srv, _ := serveMock(t, newHardTool())
	url := srv.URL + "/opentool/call"
	for _, c := range []struct {
		name, body string
		status     int
		id         string // the id decoded, as a JSON decoder reads it
	}{
		{"id", `{"jsonrpc":"2.0","method":"echo","id":"a` + "\xff" + `b"}`, 200, "a\ufffdb"},
		{"id of several bad bytes", `{"jsonrpc":"2.0","method":"echo","id":"` + "\xff\xfe\xc3" + `"}`, 200, "\ufffd\ufffd\ufffd"},
		{"id with a lone surrogate", `{"jsonrpc":"2.0","method":"echo","id":"x\ud800y"}`, 200, "x\ufffdy"},
		{"id of an unknown method", `{"jsonrpc":"2.0","method":"nope` + "\xff" + `","id":"` + "\xff" + `"}`, 200, "\ufffd"},
		{"id of bad params", `{"jsonrpc":"2.0","method":"echo","params":[1],"id":"` + "\xff" + `"}`, 200, "\ufffd"},
		{"id of a missing method", `{"jsonrpc":"2.0","id":"` + "\xff" + `"}`, 400, "\ufffd"},
		{"result", `{"jsonrpc":"2.0","method":"echo","params":{"` + "\xfe" + `":"` + "\xff" + `"},"id":1}`, 200, ""},
		{"error message and data", `{"jsonrpc":"2.0","method":"badError","id":1}`, 200, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := postJSON(t, url, c.body)
			if res.status != c.status {
				t.Errorf("status %d, want %d: %s", res.status, c.status, res.body)
			}
			wantUTF8JSON(t, "the response", res.body)
			r := mustParse(t, res.body)
			if c.id != "" {
				var id string
				if err := json.Unmarshal(r.ID, &id); err != nil || id != c.id {
					t.Errorf("id %s (%q), want %q", r.ID, id, c.id)
				}
			}
		})
	}
	// A valid id is echoed byte for byte, escapes and all.
	for _, id := range []string{`"\u00e9\ud83d\ude00 x"`, `"é"`, `"a\"b\\"`, `-1.5e3`, `"<&>"`} {
		r := mustParse(t, postJSON(t, url, `{"jsonrpc":"2.0","method":"echo","id":`+id+`}`).body)
		if string(r.ID) != id {
			t.Errorf("id %s echoed as %s", id, r.ID)
		}
	}
}

func TestInvalidUTF8IsNotEchoedInStreams(t *testing.T) {
	srv, _ := serveMock(t, newHardTool())
	res := postJSON(t, srv.URL+"/opentool/streamCall", `{"jsonrpc":"2.0","method":"bad","id":"`+"\xff"+`"}`)
	evs := splitEvents(t, res.body)
	if len(evs) != 3 || evs[1][0] != "data" || evs[2][0] != "error" {
		t.Fatalf("events %q", evs)
	}
	for _, ev := range evs {
		wantUTF8JSON(t, ev[0]+" event", []byte(ev[1]))
	}
	r := mustParse(t, []byte(evs[1][1]))
	var id string
	if err := json.Unmarshal(r.ID, &id); err != nil || id != "\ufffd" {
		t.Errorf("id %s", r.ID)
	}
}

// ---- item 3: an envelope that repeats a member is rejected ----

func TestDuplicateEnvelopeMembers(t *testing.T) {
	srv, _ := serveMock(t, newHardTool())
	for _, c := range []struct{ body, id string }{
		{`{"jsonrpc":"2.0","method":"echo","method":"badError","id":1}`, `1`},
		{`{"jsonrpc":"2.0","method":"echo","METHOD":"badError","id":1}`, `1`},
		{`{"jsonrpc":"2.0","method":"echo","\u006dethod":"badError","id":1}`, `1`},
		{`{"jsonrpc":"2.0","method":"echo","params":{},"params":{"a":1},"id":"x"}`, `"x"`},
		{`{"jsonrpc":"2.0","method":"echo","params":{},"param\u017f":{"a":1},"id":"x"}`, `"x"`}, // ſ folds to s, as encoding/json matches
		{`{"jsonrpc":"2.0","method":"echo","id":1,"id":2}`, `null`},
		{`{"jsonrpc":"2.0","method":"echo","id":1,"Id":1}`, `null`},
		{`{"jsonrpc":"2.0","jsonrpc":"2.0","method":"echo"}`, `null`},
		{` { "method" : "echo" , "params" : { "method" : 1 } , "method" : "echo" } `, `null`},
	} {
		for _, path := range []string{"/call", "/streamCall"} {
			t.Run(path+" "+c.body, func(t *testing.T) {
				r := wantRPCError(t, postJSON(t, srv.URL+"/opentool"+path, c.body), http.StatusBadRequest, runtime.CodeInvalidRequest, c.id)
				if !strings.Contains(r.Error.Message, "repeat") {
					t.Errorf("message %q does not say the member repeats", r.Error.Message)
				}
			})
		}
	}
	// Members repeated inside params are the tool's business, and unknown
	// members are ignored.
	for _, c := range []struct{ body, result string }{
		{`{"jsonrpc":"2.0","method":"echo","params":{"a":1,"a":2,"method":3},"id":1}`, `{"args":{"a":1,"a":2,"method":3}}`},
		{`{"jsonrpc":"2.0","method":"echo","x":1,"x":[2,{"method":"no"}],"params":{"b":"}"},"id":1}`, `{"args":{"b":"}"}}`},
		{"\t{\"Method\" :\"echo\",\"ID\":[] ,\"id\":1}", ``},
	} {
		res := postJSON(t, srv.URL+"/opentool/call", c.body)
		if c.result == "" {
			wantRPCError(t, res, http.StatusBadRequest, runtime.CodeInvalidRequest, "null")
			continue
		}
		if r := mustParse(t, res.body); res.status != 200 || string(r.Result) != c.result {
			t.Errorf("%s: %d %s, want result %s", c.body, res.status, res.body, c.result)
		}
	}
}

// ---- item 4: read and write deadlines, memory, shutdown ----

// rawPost opens a connection to addr and sends the head of a POST to path
// declaring a body of length bytes, and body (which may be shorter).
func rawPost(t testing.TB, addr, path string, length int, body string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", path, addr, length, body)
	return c
}

// readAnswer reads the server's answer to a raw request, within a generous
// bound (a watchdog, not a measure of speed).
func readAnswer(t testing.TB, c net.Conn) (*http.Response, []byte) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	return resp, b
}

// serveListener runs ServeListener on a loopback port until the test ends and
// returns its address.
func serveListener(t testing.TB, tool runtime.Tool, opts ...runtime.ServerOption) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	opts = append([]runtime.ServerOption{runtime.WithLogger(quietLogger(nil)), runtime.WithShutdownTimeout(time.Second)}, opts...)
	go func() { done <- runtime.ServeListener(ctx, ln, tool, opts...) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return ln.Addr().String()
}

// Both ways of serving: ServeListener, and NewHandler in a server of one's own
// (the handler sets its deadlines itself).
func eachServer(t *testing.T, tool runtime.Tool, opts []runtime.ServerOption, test func(t *testing.T, addr string)) {
	t.Run("ServeListener", func(t *testing.T) { test(t, serveListener(t, tool, opts...)) })
	t.Run("NewHandler", func(t *testing.T) {
		srv, _ := serveMock(t, tool, opts...)
		test(t, srv.Listener.Addr().String())
	})
}

// A client that sends part of a body and stalls, or trickles it, is answered
// 408 at the read deadline.
func TestReadTimeoutStalledBody(t *testing.T) {
	opts := []runtime.ServerOption{runtime.WithReadTimeout(200 * time.Millisecond)}
	eachServer(t, newHardTool(), opts, func(t *testing.T, addr string) {
		for _, path := range []string{"/opentool/call", "/opentool/streamCall"} {
			c := rawPost(t, addr, path, 1000, `{"jsonrpc":"2.0","method":"echo","params":{"s":"`)
			resp, body := readAnswer(t, c)
			if resp.StatusCode != http.StatusRequestTimeout {
				t.Errorf("%s: status %d, want 408: %s", path, resp.StatusCode, body)
			}
			if r := mustParse(t, body); r.Error == nil || r.Error.Code != runtime.CodeInvalidRequest {
				t.Errorf("%s: body %s", path, body)
			}
		}

		// One byte every 20ms (the pace is what is tested): the body would
		// take 20s.
		c := rawPost(t, addr, "/opentool/call", 1000, "")
		stop := make(chan struct{})
		var sent atomic.Int64
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(20 * time.Millisecond):
					if _, err := c.Write([]byte(" ")); err != nil {
						return
					}
					sent.Add(1)
				}
			}
		}()
		resp, body := readAnswer(t, c)
		close(stop)
		if resp.StatusCode != http.StatusRequestTimeout || sent.Load() >= 1000 {
			t.Errorf("trickled body: status %d after %d bytes, want 408 before the end: %s", resp.StatusCode, sent.Load(), body)
		}
	})
}

// The read deadline covers the body only: a call that runs past it keeps its
// context, a request that comes later on the same connection is served, and
// the write deadline starts when the answer is written.
func TestDeadlinesDoNotCutCalls(t *testing.T) {
	tool := newHardTool()
	tool.slowFor = 600 * time.Millisecond
	opts := []runtime.ServerOption{runtime.WithReadTimeout(100 * time.Millisecond), runtime.WithWriteTimeout(100 * time.Millisecond)}
	eachServer(t, tool, opts, func(t *testing.T, addr string) {
		client := runtime.NewClient("http://"+addr+runtime.DefaultPrefix, runtime.WithHTTPClient(&http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}))
		ctx := context.Background()
		var out struct{ Slept bool }
		if err := client.Invoke(ctx, "slow", nil, "", &out); err != nil || !out.Slept {
			t.Errorf("a call longer than both deadlines: %v %v", out, err)
		}
		if saw := recv(t, tool.slowSaw, "the call to end"); saw != nil {
			t.Errorf("the call's context ended: %v", saw)
		}
		// Idle past both deadlines, then requests on the same connection:
		// the idle time is what is tested, not a wait for an event.
		time.Sleep(300 * time.Millisecond)
		if _, err := client.Version(ctx); err != nil {
			t.Errorf("a request after an idle time: %v", err)
		}
		if _, err := client.Call(ctx, runtime.FunctionCall{Name: "unknown"}); asError(t, err).Code != runtime.CodeMethodNotFound {
			t.Errorf("an error answer after an idle time: %v", err)
		}
	})
}

// A stream whose client stops reading ends at the write deadline: the tool's
// emit fails.
func TestStreamStalledReader(t *testing.T) {
	tool := newMockTool()
	opts := []runtime.ServerOption{runtime.WithWriteTimeout(200 * time.Millisecond)}
	eachServer(t, tool, opts, func(t *testing.T, addr string) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.(*net.TCPConn).SetReadBuffer(4 << 10)
		body := `{"jsonrpc":"2.0","method":"forever","id":1}`
		fmt.Fprintf(c, "POST /opentool/streamCall HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", addr, len(body), body)
		// Never read.
		saw := recv(t, tool.foreverSaw, "the stream to end")
		if saw[0] == nil {
			t.Error("emit did not fail")
		}
	})
}

// When the shutdown grace period ends, open streams have their contexts
// cancelled, and ServeListener returns only once their handlers have.
func TestShutdownEndsStreams(t *testing.T) {
	tool := newHardTool()
	tool.waitCleanup = 300 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() {
		served <- runtime.ServeListener(ctx, ln, tool, runtime.WithLogger(quietLogger(nil)), runtime.WithShutdownTimeout(100*time.Millisecond))
	}()
	client := runtime.NewClient("http://" + ln.Addr().String() + runtime.DefaultPrefix)
	got := make(chan error, 2)
	go func() {
		for _, err := range client.StreamCall(context.Background(), runtime.FunctionCall{Name: "wait"}) {
			got <- err
		}
		close(got)
	}()
	if err := recv(t, got, "the first result"); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := recv(t, served, "ServeListener to return"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("ServeListener: %v, want context.DeadlineExceeded", err)
	}
	select {
	case <-tool.waitDone:
	default:
		t.Error("ServeListener returned before the stream's handler")
	}
	if err := recv(t, tool.waitSaw, "the stream's context to end"); err == nil {
		t.Error("the stream's context did not end")
	}
}

// ---- item 5: a tool that panics on every call does not flood the log ----

func TestPanicLogIsRateLimited(t *testing.T) {
	logs := &syncBuffer{}
	srv, client := serveMock(t, newHardTool(), runtime.WithLogger(quietLogger(logs)))
	ctx := context.Background()
	for range 50 {
		if _, err := client.Call(ctx, runtime.FunctionCall{Name: "panic"}); asError(t, err).Code != runtime.CodeInternalError {
			t.Fatalf("panic: %v", err)
		}
		if _, err := client.Call(ctx, runtime.FunctionCall{Name: "invalid"}); asError(t, err).Code != runtime.CodeInternalError {
			t.Fatalf("invalid result: %v", err)
		}
	}
	for range 5 {
		res := postJSON(t, srv.URL+"/opentool/streamCall", `{"method":"panicStream","id":1}`)
		if evs := splitEvents(t, res.body); len(evs) != 2 || evs[1][0] != "error" {
			t.Fatalf("stream panic: %q", evs)
		}
	}
	out := logs.String()
	if n := strings.Count(out, "[running]"); n != 2 { // one stack for the call, one for the stream
		t.Errorf("%d stacks logged, want 2:\n%.2000s", n, out)
	}
	if n := strings.Count(out, "\n"); n != 3 {
		t.Errorf("%d lines logged, want 3 (the first panic of each kind and the first invalid result):\n%.2000s", n, out)
	}

	// Hostile names: every call a function of its own.
	logs = &syncBuffer{}
	srv, _ = serveMock(t, newHardTool(), runtime.WithLogger(quietLogger(logs)))
	var wg sync.WaitGroup
	names := make(chan string)
	for range 8 {
		wg.Go(func() {
			for name := range names {
				res := postJSON(t, srv.URL+"/opentool/call", `{"method":"`+name+`","id":1}`)
				if r := mustParse(t, res.body); r.Error == nil || r.Error.Code != runtime.CodeInternalError {
					t.Errorf("%s: %s", name, res.body)
				}
			}
		})
	}
	for i := range 2000 {
		names <- fmt.Sprintf("panic%d", i)
		names <- fmt.Sprintf("invalid%d", i)
	}
	close(names)
	wg.Wait()
	out = logs.String()
	if n := strings.Count(out, "\n"); n > 600 {
		t.Errorf("4000 calls of distinct functions logged %d lines", n)
	}
	if n := strings.Count(out, "[running]"); n > 300 {
		t.Errorf("2000 panics of distinct functions logged %d stacks", n)
	}
}

// Bodies past the first 16 KiB are read in pieces: they arrive whole, with or
// without a Content-Length, and the limit holds at its byte.
func TestLargeBodies(t *testing.T) {
	const limit = 200 << 10
	srv, _ := serveMock(t, newHardTool(), runtime.WithMaxBodyBytes(limit))
	url := srv.URL + "/opentool/call"
	prefix := `{"jsonrpc":"2.0","method":"echo","id":1,"params":{"s":"`
	fill := func(n int) string { // a request of exactly n bytes
		return prefix + strings.Repeat("x", n-len(prefix)-3) + `"}}`
	}
	for _, n := range []int{16<<10 - 1, 16 << 10, 16<<10 + 1, 80 << 10, 16<<10 + 64<<10, limit - 1, limit} {
		body := fill(n)
		want := `{"args":` + body[len(prefix)-len(`{"s":"`):len(body)-1] + `}`
		for _, chunked := range []bool{false, true} {
			var rd io.Reader = strings.NewReader(body)
			if chunked { // no Content-Length
				rd = io.MultiReader(strings.NewReader(body[:n/2]), strings.NewReader(body[n/2:]))
			}
			res := do(t, http.MethodPost, url, "application/json", rd)
			if r := mustParse(t, res.body); res.status != 200 || string(r.Result) != want {
				t.Errorf("%d bytes (chunked %v): %d, result of %d bytes", n, chunked, res.status, len(r.Result))
			}
		}
	}
	for _, n := range []int{limit + 1, limit + 64<<10} {
		body := fill(n)
		wantRPCError(t, postJSON(t, url, body), http.StatusRequestEntityTooLarge, runtime.CodeInvalidRequest, "null")
		chunked := io.MultiReader(strings.NewReader(body[:10]), strings.NewReader(body[10:]))
		wantRPCError(t, do(t, http.MethodPost, url, "application/json", chunked), http.StatusRequestEntityTooLarge, runtime.CodeInvalidRequest, "null")
	}
}
