package mcpbridge_test

// Tests of the bounds of NewHTTPHandler against hostile clients, on real
// listeners on loopback.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	goruntime "runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// endless is a tool with one streaming function, "flood", that emits items
// of size bytes until emit fails or its context ends, and "ping", a call
// it counts.
type endless struct {
	size  int
	max   int // items at most (0: no end)
	pings atomic.Int64
	ended chan error // what ended each flood
}

func newEndless(size, max int) *endless {
	return &endless{size: size, max: max, ended: make(chan error, 16)}
}

func (e *endless) Load(context.Context) (*document.OpenTool, error) {
	return &document.OpenTool{
		OpenTool: "1.0.0",
		Info:     document.Info{Title: "endless", Version: "1"},
		Functions: []document.Function{
			{Name: "ping", Description: "counts"},
			{Name: "flood", Description: "streams", Stream: map[string]*document.Return{"data": {Name: "s", Schema: &document.Schema{Type: "string"}}}},
		},
	}, nil
}

func (e *endless) Call(ctx context.Context, name string, _ json.RawMessage) (json.RawMessage, error) {
	if name != "ping" {
		return nil, runtime.MethodNotFound(name)
	}
	e.pings.Add(1)
	return json.RawMessage(`{}`), nil
}

func (e *endless) StreamCall(ctx context.Context, name string, _ json.RawMessage, emit func(json.RawMessage) error) error {
	item := json.RawMessage(`{"s":"` + strings.Repeat("x", e.size) + `"}`)
	for i := 0; e.max == 0 || i < e.max; i++ {
		if err := ctx.Err(); err != nil {
			e.ended <- err
			return err
		}
		if err := emit(item); err != nil {
			e.ended <- err
			return err
		}
	}
	e.ended <- nil
	return nil
}

// serveFront serves tool with NewHTTPHandler on a real listener.
func serveFront(t testing.TB, tool runtime.Tool, opts ...mcpbridge.Option) (*mcpbridge.HTTPHandler, string) {
	t.Helper()
	h, err := mcpbridge.NewHTTPHandler(context.Background(), tool, nil, false, opts...)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { h.Close() })
	return h, srv.URL
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// post sends body to url as an MCP client does, in session (if not "").
func post(t testing.TB, url, session, body string, header ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// openSession initializes a session and returns its id.
func openSession(t testing.TB, url string) string {
	t.Helper()
	resp, body := post(t, url, "", initBody)
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	if resp, body := post(t, url, id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: %d %s", resp.StatusCode, body)
	}
	return id
}

// rpcError decodes the JSON-RPC error of an answer.
func rpcError(t testing.TB, body string) (code int, msg string) {
	t.Helper()
	var r struct {
		Error *struct {
			Code    int
			Message string
		}
	}
	if err := json.Unmarshal([]byte(body), &r); err != nil || r.Error == nil {
		t.Fatalf("want a JSON-RPC error, got %q (%v)", body, err)
	}
	return r.Error.Code, r.Error.Message
}

// TestHTTPStalledBodies: bodies that stall are answered 408 and closed once
// the read timeout has passed, before and within sessions.
func TestHTTPStalledBodies(t *testing.T) {
	_, url := serveFront(t, newEndless(1, 1), mcpbridge.WithReadTimeout(300*time.Millisecond))
	session := openSession(t, url)
	addr := strings.TrimPrefix(url, "http://")
	var conns []net.Conn
	for i := range 20 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		sid := ""
		if i%2 == 1 {
			sid = "Mcp-Session-Id: " + session + "\r\n"
		}
		fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n%sContent-Length: 1000\r\n\r\n{\"jsonrpc\":", addr, sid)
		conns = append(conns, c)
	}
	for i, c := range conns {
		c.SetReadDeadline(time.Now().Add(5 * time.Second)) // a watchdog; the timeout is 0.3 s
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("connection %d: no answer: %v", i, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestTimeout || !resp.Close {
			t.Errorf("connection %d: %d (close %v) %s, want 408 and the connection closed", i, resp.StatusCode, resp.Close, body)
		}
		if _, err := c.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("connection %d is still open: %v", i, err)
		}
	}
}

// TestHTTPOrigin: no Origin, the server's own and loopback origins are
// served, listed ones too, others are 403.
func TestHTTPOrigin(t *testing.T) {
	_, url := serveFront(t, newEndless(1, 1), mcpbridge.WithAllowedOrigins("https://App.Example.com/"))
	host := strings.TrimPrefix(url, "http://")
	for origin, ok := range map[string]bool{
		"":                          true,
		"http://" + host:            true,
		"http://localhost:6274":     true,
		"http://127.0.0.1:3000":     true,
		"http://[::1]:8080":         true,
		"https://app.example.com":   true,
		"https://evil.example":      false,
		"http://app.example.com":    false, // another scheme: another origin
		"null":                      false,
		"http://localhost.evil.com": false,
	} {
		var header []string
		if origin != "" {
			header = []string{"Origin", origin}
		}
		resp, body := post(t, url, "", initBody, header...)
		switch {
		case ok && resp.StatusCode != http.StatusOK:
			t.Errorf("Origin %q: %d %s, want it served", origin, resp.StatusCode, body)
		case !ok && resp.StatusCode != http.StatusForbidden:
			t.Errorf("Origin %q: %d %s, want 403", origin, resp.StatusCode, body)
		case !ok:
			if code, msg := rpcError(t, body); code != -32600 || !strings.Contains(msg, "not allowed") {
				t.Errorf("Origin %q: error %d %q", origin, code, msg)
			}
		}
	}
}

// TestHTTPBatch: under 2025-03-26, which allows batches, a batch of more
// than WithMaxBatch messages is refused whole; a small one is served.
func TestHTTPBatch(t *testing.T) {
	tool := newEndless(1, 1)
	_, url := serveFront(t, tool, mcpbridge.WithMaxBatch(4))
	session := openSession(t, url)
	batch := func(n int) string {
		var b strings.Builder
		b.WriteByte('[')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"ping"}}`, i+10)
		}
		b.WriteByte(']')
		return b.String()
	}
	resp, body := post(t, url, session, batch(5000))
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a batch of 5000: %d %s, want 400", resp.StatusCode, body)
	}
	if code, msg := rpcError(t, body); code != -32600 || !strings.Contains(msg, "more than 4 messages") {
		t.Errorf("a batch of 5000: error %d %q", code, msg)
	}
	if n := tool.pings.Load(); n != 0 {
		t.Errorf("a refused batch ran %d calls", n)
	}
	resp, body = post(t, url, session, batch(4))
	if resp.StatusCode != http.StatusOK || strings.Count(body, `"result"`) != 4 {
		t.Errorf("a batch of 4: %d %s, want 4 results", resp.StatusCode, body)
	}
	if n := tool.pings.Load(); n != 4 {
		t.Errorf("a batch of 4 ran %d calls", n)
	}
}

// settle waits until the number of goroutines is at most want, and returns
// it (the last count after 5 s): goroutines that end tell no one, so it polls.
func settle(want int) int {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	n := goruntime.NumGoroutine()
	for deadline := time.Now().Add(5 * time.Second); n > want && time.Now().Before(deadline); n = goruntime.NumGoroutine() {
		<-tick.C
	}
	return n
}

// getStream opens the standalone GET stream of session id, and sends how it
// ended once it has.
func getStream(t *testing.T, url, id string) <-chan error {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	get, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if get.StatusCode != http.StatusOK {
		t.Fatalf("the GET stream of %s: %s", id, get.Status)
	}
	ended := make(chan error, 1)
	go func() {
		defer get.Body.Close()
		_, err := io.Copy(io.Discard, get.Body)
		ended <- err
	}()
	return ended
}

// TestHTTPSessions: beyond WithMaxSessions a new session is 503 with a
// JSON-RPC body; idle sessions expire after WithSessionTimeout, their GET
// streams with them, and leave no goroutine; Close closes the rest.
func TestHTTPSessions(t *testing.T) {
	http.DefaultClient.CloseIdleConnections()
	before := goruntime.NumGoroutine()
	h, url := serveFront(t, newEndless(1, 1), mcpbridge.WithMaxSessions(3), mcpbridge.WithSessionTimeout(500*time.Millisecond))
	var ids []string
	for range 3 {
		ids = append(ids, openSession(t, url))
	}
	resp, body := post(t, url, "", initBody)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a fourth session: %d %s, want 503 with Retry-After", resp.StatusCode, body)
	}
	if code, msg := rpcError(t, body); code != -32000 || !strings.Contains(msg, "3 sessions") {
		t.Errorf("a fourth session: error %d %q", code, msg)
	}
	// A session's GET stream ends when the session expires (a GET does not
	// keep a session alive, a POST would).
	var ended []<-chan error
	for _, id := range ids {
		ended = append(ended, getStream(t, url, id))
	}
	for i, end := range ended {
		select {
		case err := <-end:
			if err != nil {
				t.Errorf("the GET stream of session %d ended with %v", i, err)
			}
		case <-time.After(10 * time.Second): // a watchdog; the timeout is 0.5 s
			t.Fatalf("the GET stream of session %d is still open after it expired", i)
		}
	}
	// The SDK ends a session's GET stream before it forgets the session: a
	// POST may find it closing for a moment, answered 200 with no body.
	for _, id := range ids {
		eventually(t, "an expired session answered 404", func() bool {
			resp, body = post(t, url, id, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
			if resp.StatusCode != http.StatusNotFound && (resp.StatusCode != http.StatusOK || body != "") {
				t.Fatalf("an expired session: %d %s, want 404", resp.StatusCode, body)
			}
			return resp.StatusCode == http.StatusNotFound
		})
	}
	// Places are free again; Close closes the sessions still open.
	for range 3 {
		openSession(t, url)
	}
	h.Close()
	http.DefaultClient.CloseIdleConnections()
	if n := settle(before + 2); n > before+2 { // the test server's listener and a spare
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after the sessions ended, %d before:\n%s", n, before, buf[:goruntime.Stack(buf, true)])
	}
}

// TestHTTPSlowReader: a client that stops reading a streaming call is cut
// off at the write timeout, and the call is cancelled.
func TestHTTPSlowReader(t *testing.T) {
	tool := newEndless(64<<10, 0)
	_, url := serveFront(t, tool, mcpbridge.WithWriteTimeout(300*time.Millisecond))
	session := openSession(t, url)
	addr := strings.TrimPrefix(url, "http://")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.(*net.TCPConn).SetReadBuffer(4 << 10)
	body := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"flood","_meta":{"progressToken":"p"}}}`
	fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: %s\r\nContent-Length: %d\r\n\r\n%s", addr, session, len(body), body)
	// The client reads nothing.
	select {
	case err := <-tool.ended:
		if err == nil {
			t.Error("the stream ended without an error")
		}
	case <-time.After(20 * time.Second): // a watchdog; the timeout is 0.3 s
		t.Fatal("a stream nobody reads is still running")
	}
}

// TestStreamResultBound: a client that takes the items from the result gets
// at most WithMaxResultBytes of them, then an error; the typed client of
// NewClient gets every item from the notifications, whatever their size.
func TestStreamResultBound(t *testing.T) {
	tool := newEndless(100, 50) // 50 items of 108 bytes
	for _, transport := range transports {
		t.Run(transport, func(t *testing.T) {
			cs := connect(t, transport, tool, nil, mcpbridge.WithMaxResultBytes(1000))
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "flood"})
			if err != nil {
				t.Fatal(err)
			}
			<-tool.ended
			if e := errorMeta(t, res); !res.IsError || e.Code != http.StatusRequestEntityTooLarge || !strings.Contains(e.Message, "1000 bytes") {
				t.Errorf("a stream beyond the bound: %+v, want an error 413", e)
			}
		})
	}
	server, err := mcpbridge.NewServer(context.Background(), tool, nil, mcpbridge.WithMaxResultBytes(1000))
	if err != nil {
		t.Fatal(err)
	}
	typed := sessionTool(t, server, mcpbridge.NewClient(&mcp.Implementation{Name: "typed", Version: "1"}, nil))
	n := 0
	err = typed.StreamCall(context.Background(), "flood", nil, func(json.RawMessage) error { n++; return nil })
	if err != nil || n != 50 {
		t.Errorf("the typed client: %d items, %v; want 50", n, err)
	}
	<-tool.ended
}

// waiter is a tool whose "wait" returns when its context ends (started
// says it began), and "ping" at once.
type waiter struct {
	started chan struct{}
	ended   chan error // the cause of each wait's end
	pings   atomic.Int64
}

func (w *waiter) Load(context.Context) (*document.OpenTool, error) {
	return &document.OpenTool{
		OpenTool:  "1.0.0",
		Info:      document.Info{Title: "waiter", Version: "1"},
		Functions: []document.Function{{Name: "wait", Description: "waits"}, {Name: "ping", Description: "counts"}},
	}, nil
}

func (w *waiter) Call(ctx context.Context, name string, _ json.RawMessage) (json.RawMessage, error) {
	if name == "ping" {
		w.pings.Add(1)
		return json.RawMessage(`{}`), nil
	}
	w.started <- struct{}{}
	<-ctx.Done()
	w.ended <- context.Cause(ctx)
	return nil, ctx.Err()
}

// TestHTTPStatelessBound: stateless, every POST is a session while it
// runs, so WithMaxSessions bounds the POSTs under way: one more is 503 with
// Retry-After and a JSON-RPC error; the end of a request cancels its call
// (a client of a version before 2026-07-28 has no other way: its
// notifications/cancelled reaches no session), and its place frees up. An
// Mcp-Session-Id from elsewhere changes nothing.
func TestHTTPStatelessBound(t *testing.T) {
	wt := &waiter{started: make(chan struct{}, 2), ended: make(chan error, 2)}
	h, err := mcpbridge.NewHTTPHandler(context.Background(), wt, nil, true, mcpbridge.WithMaxSessions(2))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { h.Close() })
	const wait = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait","arguments":{}}}`
	const ping = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ping","arguments":{}}}`
	var cancels []context.CancelFunc
	for range 2 {
		ctx, cancel := context.WithCancel(context.Background())
		cancels = append(cancels, cancel)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(wait))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		go func() {
			if resp, err := http.DefaultClient.Do(req); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
		select {
		case <-wt.started:
		case <-time.After(10 * time.Second):
			t.Fatal("a wait did not start")
		}
	}
	resp, body := post(t, srv.URL, "ANOTHERREPLICASSESSION", ping)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a third POST under way: %d %s, want 503 with Retry-After", resp.StatusCode, body)
	}
	if code, msg := rpcError(t, body); code != -32000 || !strings.Contains(msg, "2 MCP requests under way") {
		t.Errorf("a third POST under way: error %d %q", code, msg)
	}
	for _, cancel := range cancels {
		cancel()
	}
	for range 2 {
		select {
		case cause := <-wt.ended:
			if !errors.Is(cause, mcpbridge.ErrRequestEnded) {
				t.Errorf("a wait ended by %v, want ErrRequestEnded", cause)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a wait did not end with its request (a client before 2026-07-28 cancels so)")
		}
	}
	// The ends of the waits' requests are not told to the test: it polls.
	eventually(t, "a POST answered 200 once the waits ended", func() bool {
		resp, body = post(t, srv.URL, "ANOTHERREPLICASSESSION", ping)
		return resp.StatusCode == http.StatusOK
	})
	if n := wt.pings.Load(); n != 1 {
		t.Errorf("%d pings ran, want 1 (the refused one did not)", n)
	}
}
