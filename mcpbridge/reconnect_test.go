package mcpbridge_test

// Tests of HTTPTool when the server ends its session: on real listeners, in
// front of servers of this package.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// pinger is a tool with "ping", which it counts, "slow", which says it
// started and waits for its context, or release to be closed, and "trickle",
// which streams one item, says it started and waits as slow does.
type pinger struct {
	pings   atomic.Int64
	slows   atomic.Int64 // slow and trickle
	started chan struct{}
	release chan struct{}
}

func newPinger() *pinger {
	return &pinger{started: make(chan struct{}, 4), release: make(chan struct{})}
}

func (p *pinger) Load(context.Context) (*document.OpenTool, error) {
	return &document.OpenTool{
		OpenTool: "1.0.0",
		Info:     document.Info{Title: "pinger", Version: "1"},
		Functions: []document.Function{
			{Name: "ping", Description: "counts"},
			{Name: "slow", Description: "waits"},
			{Name: "trickle", Description: "streams", Stream: map[string]*document.Return{"data": {Name: "n", Schema: &document.Schema{Type: "integer"}}}},
		},
	}, nil
}

func (p *pinger) StreamCall(ctx context.Context, name string, _ json.RawMessage, emit func(json.RawMessage) error) error {
	if name != "trickle" {
		return runtime.MethodNotFound(name)
	}
	p.slows.Add(1)
	if err := emit(json.RawMessage(`{"n":1}`)); err != nil {
		return err
	}
	p.started <- struct{}{}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-p.release:
		return errors.New("released")
	}
}

func (p *pinger) Call(ctx context.Context, name string, _ json.RawMessage) (json.RawMessage, error) {
	switch name {
	case "ping":
		p.pings.Add(1)
		return json.RawMessage(`{}`), nil
	case "slow":
		p.slows.Add(1)
		p.started <- struct{}{}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-p.release:
			return nil, errors.New("released")
		}
	}
	return nil, runtime.MethodNotFound(name)
}

// front is a server's HTTP handler seen from the network: it counts the
// initialize and tools/call requests that reach it and the 404s it answers
// to GET streams, and answers 404 to the sessions it is told to drop (as
// the TypeScript SDK's servers do, with a JSON-RPC error -32001) and, when
// refuse says so for a request's method, to every request with a session
// id (a plain 404, as the Go SDK's servers answer an unknown session).
type front struct {
	h           http.Handler
	initializes atomic.Int64
	calls       atomic.Int64
	get404      atomic.Int64

	mu       sync.Mutex
	dropped  map[string]bool
	sessions []string // in the order they were opened
	refuse   func(method string) bool
	unknown  string                          // a method answered 404 with a JSON-RPC error -32601
	gets     map[string][]context.CancelFunc // the GET streams under way, by session
	getsOpen int                             // GET streams of a session under way
	getsDone map[string]int                  // GET streams answered, ended or refused, by session
}

// getsDoneOf is the number of GET streams of session id that were answered
// and have ended (an expired session's stream ends, or is answered 404).
func (f *front) getsDoneOf(id string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.getsDone[id]
}

// openGets is the number of GET streams of a session under way.
func (f *front) openGets() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.getsOpen
}

func newFront(h http.Handler) *front { return &front{h: h, dropped: map[string]bool{}} }

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var (
		method string
		reqID  json.RawMessage
	)
	if r.Method == http.MethodPost {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var m struct {
			Method string
			ID     json.RawMessage
		}
		_ = json.Unmarshal(body, &m)
		method, reqID = m.Method, m.ID
	}
	switch method {
	case "initialize":
		f.initializes.Add(1)
	case "tools/call":
		f.calls.Add(1)
	}
	id := r.Header.Get("Mcp-Session-Id")
	f.mu.Lock()
	dropped := f.dropped[id]
	refused := id != "" && f.refuse != nil && f.refuse(method)
	unknown := f.unknown != "" && method == f.unknown
	f.mu.Unlock()
	switch {
	case unknown: // as servers of the 2026-07-28 protocol answer an unknown method
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(reqID)+`,"error":{"code":-32601,"message":"method not found"}}`)
		return
	case dropped:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}`)
		return
	case refused:
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	if r.Method == http.MethodGet && id != "" {
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		f.mu.Lock()
		if f.gets == nil {
			f.gets = map[string][]context.CancelFunc{}
			f.getsDone = map[string]int{}
		}
		f.gets[id] = append(f.gets[id], cancel)
		f.getsOpen++
		f.mu.Unlock()
		defer func() {
			f.mu.Lock()
			f.getsOpen--
			f.getsDone[id]++
			f.mu.Unlock()
		}()
		r = r.WithContext(ctx)
	}
	sw := &statusWriter{ResponseWriter: w}
	if method == "initialize" {
		// Recorded before the response goes out: the client may have its
		// session, and the test drop it, before ServeHTTP returns here.
		sw.header = func() {
			if sid := w.Header().Get("Mcp-Session-Id"); sid != "" {
				f.mu.Lock()
				f.sessions = append(f.sessions, sid)
				f.mu.Unlock()
			}
		}
	}
	f.h.ServeHTTP(sw, r)
	if r.Method == http.MethodGet && sw.status == http.StatusNotFound {
		f.get404.Add(1)
	}
}

// drop ends the server's last session (as a DELETE of it does), and makes
// the front answer 404 to it from then on.
func (f *front) drop(t *testing.T) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.sessions) == 0 {
		t.Fatal("no session to drop")
	}
	id := f.sessions[len(f.sessions)-1]
	f.dropped[id] = true
	req := httptest.NewRequest(http.MethodDelete, "/", nil)
	req.Header.Set("Mcp-Session-Id", id)
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, req)
	if rec.Code/100 != 2 {
		t.Fatalf("ending session %s: %d %s", id, rec.Code, rec.Body)
	}
}

// forget makes the front answer 404 to the server's last session and cuts
// its GET streams, while the server goes on with the calls under way in it.
func (f *front) forget(t *testing.T) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.sessions) == 0 {
		t.Fatal("no session to forget")
	}
	id := f.sessions[len(f.sessions)-1]
	f.dropped[id] = true
	for _, cancel := range f.gets[id] {
		cancel()
	}
}

func (f *front) setRefuse(refuse func(string) bool) {
	f.mu.Lock()
	f.refuse = refuse
	f.mu.Unlock()
}

type statusWriter struct {
	http.ResponseWriter
	status int
	header func() // called once, before the response's header is written
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
		if s.header != nil {
			s.header()
		}
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(p []byte) (int, error) {
	if s.status == 0 {
		s.WriteHeader(http.StatusOK)
	}
	return s.ResponseWriter.Write(p)
}

func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// serveTool serves tool with NewHTTPHandler behind a front on a real
// listener.
func serveTool(t *testing.T, tool runtime.Tool, opts ...mcpbridge.Option) (*front, *mcpbridge.HTTPHandler, string) {
	t.Helper()
	h, err := mcpbridge.NewHTTPHandler(context.Background(), tool, nil, false, opts...)
	if err != nil {
		t.Fatal(err)
	}
	f := newFront(h)
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { h.Close() })
	return f, h, srv.URL
}

func ping(t *testing.T, tool *mcpbridge.Tool, what string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	if _, err := tool.Call(ctx, "ping", nil); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// TestHTTPToolSessionExpired: the server closes an idle session (its GET
// stream ends, the client's attempt to open it again is answered 404); the
// next call opens a new session and succeeds.
func TestHTTPToolSessionExpired(t *testing.T) {
	p := newPinger()
	f, h, url := serveTool(t, p, mcpbridge.WithSessionTimeout(200*time.Millisecond))
	tool, err := mcpbridge.HTTPTool(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tool.Close()
	ping(t, tool, "the first call")
	first := tool.Session().ID()
	// The SDK's client opens the ended GET stream again after 1 to 2 s, is
	// answered 404, and ends the session's connection.
	ended := make(chan error, 1)
	go func() { ended <- tool.Session().Wait() }()
	select {
	case err := <-ended:
		t.Logf("the expired session's connection ended: %v", err)
	case <-time.After(10 * time.Second): // a watchdog
		t.Fatal("the client did not learn that its session expired")
	}
	if n := f.get404.Load(); n != 1 {
		t.Errorf("the server answered %d GET streams 404, want 1", n)
	}
	calls := f.calls.Load()
	ping(t, tool, "a call after the session expired")
	if n := f.initializes.Load(); n != 2 {
		t.Errorf("the server saw %d initialize requests, want 2", n)
	}
	if n := f.calls.Load() - calls; n != 1 {
		t.Errorf("the call after the expiry sent %d tools/call, want 1 (the session was known to be gone)", n)
	}
	if n := p.pings.Load(); n != 2 {
		t.Errorf("the tool ran %d pings, want 2", n)
	}
	if id := tool.Session().ID(); id == first || id == "" {
		t.Errorf("the session is %q after the renewal (%q before)", id, first)
	}
	// Idle again, the session expires again (its GET stream ends), and the
	// calls go on: a call meeting the 404 itself this time (within 1 s of the
	// expiry, before the client opens the stream again).
	second := tool.Session().ID()
	eventually(t, "the second session's expiry", func() bool { return f.getsDoneOf(second) > 0 })
	// The SDK's server ends the GET stream before it forgets the session.
	eventually(t, "the second session forgotten", func() bool { return forgotten(h, second) })
	ping(t, tool, "a call after a second expiry")
	if n := f.initializes.Load(); n != 3 {
		t.Errorf("the server saw %d initialize requests, want 3", n)
	}
}

// forgotten reports whether h answers 404 to a ping in session id, asked
// directly (not through a front, nor on the network).
func forgotten(h http.Handler, id string) bool {
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"jsonrpc":"2.0","id":99,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code == http.StatusNotFound
}

// TestHTTPToolSessionDropped: the server answers 404 to the session of a
// call (with a JSON-RPC body, as the TypeScript SDK's servers do): the call
// is sent again in a new session and runs once. Calls that meet the end of
// the session together share one new session.
func TestHTTPToolSessionDropped(t *testing.T) {
	p := newPinger()
	f, _, url := serveTool(t, p)
	tool, err := mcpbridge.HTTPTool(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tool.Close()
	f.drop(t)
	ping(t, tool, "a call in a dropped session")
	if n := f.initializes.Load(); n != 2 {
		t.Errorf("the server saw %d initialize requests, want 2", n)
	}
	if n := f.calls.Load(); n != 2 {
		t.Errorf("the server saw %d tools/call, want 2 (the refused one, then the new session's)", n)
	}
	if n := p.pings.Load(); n != 1 {
		t.Errorf("the tool ran %d pings, want 1", n)
	}

	const concurrent = 8
	f.drop(t)
	var wg sync.WaitGroup
	errs := make(chan error, concurrent)
	for range concurrent {
		wg.Go(func() {
			_, err := tool.Call(context.Background(), "ping", nil)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a concurrent call: %v", err)
		}
	}
	if n := f.initializes.Load(); n != 3 {
		t.Errorf("%d concurrent calls in a dropped session made %d new sessions, want 1", concurrent, n-2)
	}
	if n := p.pings.Load(); n != 1+concurrent {
		t.Errorf("the tool ran %d pings, want %d", n, 1+concurrent)
	}
}

// TestHTTPToolServerRestarted: the server goes away (calls fail at once
// with a 502, no new session is tried) and comes back on the same address
// without its sessions, listing other tools: the next call opens a new
// session, and the Tool's listing is the new server's.
func TestHTTPToolServerRestarted(t *testing.T) {
	r := newRestartable(t, newPinger())
	tool, err := mcpbridge.HTTPTool(context.Background(), r.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tool.Close()
	ping(t, tool, "the first call")
	if _, ok := tool.Hints("ping"); ok {
		t.Fatal("the first server gave ping hints")
	}

	r.stop()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	start := time.Now()
	_, err = tool.Call(ctx, "ping", nil)
	wantGone(t, "a call while the server is away", err)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a call while the server is away took %v", d)
	}

	r.start(newPinger(), mcpbridge.WithAnnotations("ping", &mcp.ToolAnnotations{ReadOnlyHint: true}))
	ping(t, tool, "a call after the restart")
	if n := r.f.initializes.Load(); n != 1 {
		t.Errorf("the new server saw %d initialize requests, want 1", n)
	}
	if h, ok := tool.Hints("ping"); !ok || h.ReadOnly == nil || !*h.ReadOnly {
		t.Errorf("after the restart, the hints of ping are %+v, %v: want the new server's (read-only)", h, ok)
	}
}

// TestHTTPToolSessionRefused: a server that ends every session at once. A
// call opens at most one new session and is sent at most twice, and fails
// with a 502 naming the cause.
func TestHTTPToolSessionRefused(t *testing.T) {
	for _, c := range []struct {
		name     string
		refuse   func(string) bool
		maxCalls int64 // tools/call of a call
	}{
		// The new session's notifications/initialized is refused: no new
		// session opens.
		{"every request", func(string) bool { return true }, 1},
		// New sessions open and list their tools; the call is refused.
		{"tools/call", func(m string) bool { return m == "tools/call" }, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newPinger()
			f, _, url := serveTool(t, p)
			tool, err := mcpbridge.HTTPTool(context.Background(), url, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tool.Close()
			f.setRefuse(c.refuse)
			for i := range 3 {
				inits, calls := f.initializes.Load(), f.calls.Load()
				ctx, cancel := context.WithTimeout(context.Background(), waitLong)
				_, err := tool.Call(ctx, "ping", nil)
				cancel()
				var e *runtime.Error
				if !errors.As(err, &e) || e.Code != http.StatusBadGateway || !strings.Contains(e.Message, "HTTP 404") {
					t.Fatalf("call %d: got %v, want a 502 naming the 404", i, err)
				}
				t.Logf("call %d: %v", i, err)
				if n := f.initializes.Load() - inits; n != 1 {
					t.Errorf("call %d opened %d sessions, want 1", i, n)
				}
				if n := f.calls.Load() - calls; n > c.maxCalls {
					t.Errorf("call %d was sent %d times, want at most %d", i, n, c.maxCalls)
				}
			}
			if n := p.pings.Load(); n != 0 {
				t.Errorf("the tool ran %d pings", n)
			}
		})
	}
}

// TestHTTPToolSessionEndsDuringCall: the session ends while a call runs:
// the server restarts before the call answered ("slow"), or the server
// forgets the session while the call streams its items ("trickle": the
// client learns of it from the 404 to its GET stream). The call may have
// run: it fails at once and is not sent again; the next call opens a new
// session.
func TestHTTPToolSessionEndsDuringCall(t *testing.T) {
	for _, name := range []string{"slow", "trickle"} {
		t.Run(name, func(t *testing.T) {
			p := newPinger()
			r := newRestartable(t, p)
			// HTTPHandler.Close waits for the calls under way, and the
			// crash of the restart does not cancel them.
			t.Cleanup(func() { close(p.release) })
			tool, err := mcpbridge.HTTPTool(context.Background(), r.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tool.Close()
			ctx, cancel := context.WithTimeout(context.Background(), waitLong)
			defer cancel()
			done := make(chan error, 1)
			go func() {
				if name == "slow" {
					_, err := tool.Call(ctx, name, nil)
					done <- err
					return
				}
				done <- tool.StreamCall(ctx, name, nil, func(json.RawMessage) error { return nil })
			}()
			select {
			case <-p.started:
			case err := <-done:
				t.Fatalf("%s returned before it started: %v", name, err)
			}
			p2 := p
			if name == "slow" {
				p2 = newPinger()
				r.restart(p2)
			} else {
				r.f.forget(t)
			}
			select {
			case err := <-done:
				wantGone(t, "the call under way", err)
				t.Logf("the call under way: %v", err)
				if name == "trickle" && !strings.Contains(err.Error(), "may have run") {
					t.Errorf("the call under way: %v, want it to say that it may have run", err)
				}
			case <-ctx.Done():
				t.Fatal("the call under way waited for its deadline")
			}
			ping(t, tool, "the next call")
			if n := p.slows.Load(); n != 1 {
				t.Errorf("%s ran %d times, want 1", name, n)
			}
			if n := p2.pings.Load(); n != 1 {
				t.Errorf("the server ran %d pings, want 1", n)
			}
			if n := r.f.initializes.Load(); name == "trickle" && n != 2 {
				t.Errorf("the server saw %d initialize requests, want 2", n)
			}
		})
	}
}

// restartable serves a tool on a real listener that restarts on the same
// address.
type restartable struct {
	t    *testing.T
	addr string
	url  string
	srv  *http.Server
	h    *mcpbridge.HTTPHandler
	f    *front
}

func newRestartable(t *testing.T, tool runtime.Tool, opts ...mcpbridge.Option) *restartable {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &restartable{t: t, addr: ln.Addr().String()}
	r.url = "http://" + r.addr
	r.serve(ln, tool, opts)
	return r
}

func (r *restartable) serve(ln net.Listener, tool runtime.Tool, opts []mcpbridge.Option) {
	h, err := mcpbridge.NewHTTPHandler(context.Background(), tool, nil, false, opts...)
	if err != nil {
		r.t.Fatal(err)
	}
	r.h, r.f = h, newFront(h)
	r.srv = &http.Server{Handler: r.f}
	go r.srv.Serve(ln)
	srv := r.srv
	r.t.Cleanup(func() { srv.Close(); h.Close() })
}

// stop stops the server as a crash does: its listener and every
// connection.
func (r *restartable) stop() { r.srv.Close() }

// restart stops the server and serves tool on the same address.
func (r *restartable) restart(tool runtime.Tool, opts ...mcpbridge.Option) {
	r.stop()
	r.start(tool, opts...)
}

func (r *restartable) start(tool runtime.Tool, opts ...mcpbridge.Option) {
	ln, err := net.Listen("tcp", r.addr)
	if err != nil {
		r.t.Fatal(err)
	}
	r.serve(ln, tool, opts)
}

// TestHTTPToolRenewalGoroutines: new sessions leave no goroutine behind.
func TestHTTPToolRenewalGoroutines(t *testing.T) {
	http.DefaultClient.CloseIdleConnections()
	before := goruntime.NumGoroutine()
	func() {
		h, err := mcpbridge.NewHTTPHandler(context.Background(), newPinger(), nil, false)
		if err != nil {
			t.Fatal(err)
		}
		f := newFront(h)
		srv := httptest.NewUnstartedServer(f)
		open := trackConns(srv)
		srv.Start()
		defer srv.Close()
		defer h.Close()
		tool, err := mcpbridge.HTTPTool(context.Background(), srv.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tool.Close()
		// Idle keep-alive connections come and go with the calls: closed,
		// what is left is the session's GET stream on its connection (and
		// the listener).
		onlyStream := func() bool {
			http.DefaultClient.CloseIdleConnections()
			return open.count() == 1 && f.openGets() == 1
		}
		f.drop(t)
		ping(t, tool, "the first renewal")
		eventually(t, "only the GET stream open after the first renewal", onlyStream)
		once := goruntime.NumGoroutine()
		for i := range 10 {
			f.drop(t)
			ping(t, tool, "renewal "+string(rune('1'+i)))
		}
		eventually(t, "only the GET stream open after 11 renewals", onlyStream)
		if n := settle(once); n > once {
			buf := make([]byte, 1<<16)
			t.Errorf("%d goroutines after 11 renewals, %d after one:\n%s", n, once, buf[:goruntime.Stack(buf, true)])
		}
	}()
	http.DefaultClient.CloseIdleConnections()
	if n := settle(before + 2); n > before+2 {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after the tool and server closed, %d before:\n%s", n, before, buf[:goruntime.Stack(buf, true)])
	}
}

// TestHTTPToolMethodNotFound404: a 404 whose body is a JSON-RPC "method not
// found" (what a server of the 2026-07-28 protocol answers an unknown
// method with) does not end the session.
func TestHTTPToolMethodNotFound404(t *testing.T) {
	p := newPinger()
	f, _, url := serveTool(t, p)
	tool, err := mcpbridge.HTTPTool(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tool.Close()
	f.mu.Lock()
	f.unknown = "tools/call"
	f.mu.Unlock()
	_, err = tool.Call(context.Background(), "ping", nil)
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != -32601 {
		t.Errorf("got %v, want the server's -32601", err)
	}
	f.mu.Lock()
	f.unknown = ""
	f.mu.Unlock()
	ping(t, tool, "the next call")
	if n := f.initializes.Load(); n != 1 {
		t.Errorf("the server saw %d initialize requests, want 1", n)
	}
}
