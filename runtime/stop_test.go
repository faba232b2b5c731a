package runtime_test

// POST /stop (OpenTool 2.0) on a real listener, and its rules on the
// handler alone where a real connection cannot play the peer.

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// heldTool's "hold" runs until release is closed; every other call answers
// at once.
type heldTool struct {
	started chan struct{}
	release chan struct{}
}

func (t heldTool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	if name == "hold" {
		close(t.started)
		select {
		case <-t.release:
			return json.RawMessage(`{"held":true}`), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return json.RawMessage(`{"ok":true}`), nil
}

func (heldTool) Load(context.Context) (*document.OpenTool, error) { return nil, nil }

// serveStoppable serves tool on a loopback port with opts; the channel has
// what ServeListener returned.
func serveStoppable(t *testing.T, tool runtime.Tool, opts ...runtime.ServerOption) (string, <-chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	finished := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		done <- runtime.ServeListener(ctx, ln, tool, append([]runtime.ServerOption{runtime.WithLogger(quietLogger(nil))}, opts...)...)
		close(finished)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-finished:
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop")
		}
	})
	return "http://" + ln.Addr().String() + runtime.DefaultPrefix, done
}

// TestStop: POST /stop answers {"status":"stopped"}, the call under way
// completes, new connections are refused, and ServeListener returns nil.
func TestStop(t *testing.T) {
	tool := heldTool{started: make(chan struct{}), release: make(chan struct{})}
	base, done := serveStoppable(t, tool, runtime.WithAPIKeys("k"))
	c := runtime.NewClient(base, runtime.WithAPIKey("k"))
	ctx := context.Background()
	held := make(chan error, 1)
	go func() {
		res, err := c.Call(ctx, runtime.FunctionCall{Name: "hold"})
		if err == nil && string(res.Result) != `{"held":true}` {
			err = errors.New("result " + string(res.Result))
		}
		held <- err
	}()
	<-tool.started

	// The answer, as the Dart reference gives it.
	req, _ := http.NewRequest(http.MethodPost, base+"/stop", nil)
	req.Header.Set("Authorization", "Bearer k")
	resp, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != `{"status":"stopped"}` || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("POST /stop: %d %s %q, want 200 {\"status\":\"stopped\"} as JSON", resp.StatusCode, body, resp.Header.Get("Content-Type"))
	}
	select {
	case err := <-done:
		t.Fatalf("ServeListener returned (%v) with a call under way", err)
	default:
	}
	// The listener closes: a new connection is refused (polled: the
	// shutdown starts once the answer is written).
	deadline := time.Now().Add(10 * time.Second)
	for {
		conn, err := net.Dial("tcp", strings.TrimPrefix(strings.TrimSuffix(base, runtime.DefaultPrefix), "http://"))
		if err != nil {
			break
		}
		conn.Close()
		if time.Now().After(deadline) {
			t.Fatal("the listener still accepts connections after /stop")
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(tool.release)
	if err := <-held; err != nil {
		t.Errorf("the call under way: %v, want its result", err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeListener: %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeListener did not return after /stop")
	}
}

// TestClientStop: Client.Stop sends POST /stop; a wrong key is
// ErrUnauthorized and the server serves on.
func TestClientStop(t *testing.T) {
	base, done := serveStoppable(t, plainTool{}, runtime.WithAPIKeys("right"))
	ctx := context.Background()
	err := runtime.NewClient(base, runtime.WithAPIKey("wrong")).Stop(ctx)
	if !errors.Is(err, runtime.ErrUnauthorized) {
		t.Errorf("Stop with a wrong key: %v, want ErrUnauthorized", err)
	}
	c := runtime.NewClient(base, runtime.WithAPIKey("right"))
	if _, err := c.Version(ctx); err != nil {
		t.Fatalf("after a refused /stop: %v", err)
	}
	if err := c.Stop(ctx); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeListener: %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeListener did not return after Stop")
	}
}

// TestStopOff: with WithNoRemoteStop, /stop is 404 (Client.Stop:
// ErrNoAccess) and the server serves on.
func TestStopOff(t *testing.T) {
	base, _ := serveStoppable(t, plainTool{}, runtime.WithNoRemoteStop())
	c := runtime.NewClient(base)
	ctx := context.Background()
	if err := c.Stop(ctx); !errors.Is(err, runtime.ErrNoAccess) || !strings.Contains(err.Error(), "404") {
		t.Errorf("Stop: %v, want ErrNoAccess of HTTP 404", err)
	}
	if _, err := c.Version(ctx); err != nil {
		t.Errorf("after /stop: %v, want the server serving", err)
	}
}

// stopRecorder runs one request on the handler alone: a peer and headers a
// loopback connection cannot have.
func stopRecorder(t *testing.T, h http.Handler, method, remote string, header http.Header) (*httptest.ResponseRecorder, string) {
	t.Helper()
	r := httptest.NewRequest(method, "http://127.0.0.1:9627/opentool/stop", nil)
	r.RemoteAddr = remote
	for k, v := range header {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w, w.Body.String()
}

// TestStopRules: without API keys only a loopback peer, from no page of
// another origin, stops the server; with them any peer with a key does;
// only POST; a handler with nothing to stop answers 404.
func TestStopRules(t *testing.T) {
	open := []runtime.ServerOption{runtime.WithLogger(quietLogger(nil))}
	keyed := append(open[:1:1], runtime.WithAPIKeys("k"))
	bearer := http.Header{"Authorization": {"Bearer k"}}
	for _, tc := range []struct {
		name   string
		opts   []runtime.ServerOption
		method string
		remote string
		header http.Header
		status int
		stops  bool
	}{
		{"no keys, a remote peer", open, "POST", "192.0.2.7:40000", nil, http.StatusForbidden, false},
		{"no keys, an IPv6 remote peer", open, "POST", "[2001:db8::1]:40000", nil, http.StatusForbidden, false},
		{"no keys, a page of another origin", open, "POST", "127.0.0.1:40000", http.Header{"Origin": {"https://evil.example"}}, http.StatusForbidden, false},
		{"no keys, GET", open, "GET", "127.0.0.1:40000", nil, http.StatusMethodNotAllowed, false},
		{"keys, none sent", keyed, "POST", "127.0.0.1:40000", nil, http.StatusUnauthorized, false},
		{"keys, a wrong one", keyed, "POST", "127.0.0.1:40000", http.Header{"Authorization": {"Bearer x"}}, http.StatusUnauthorized, false},
		{"no keys, a loopback peer", open, "POST", "127.0.0.1:40000", nil, http.StatusOK, true},
		{"no keys, [::1], its own origin", open, "POST", "[::1]:40000", http.Header{"Origin": {"http://127.0.0.1:9627"}}, http.StatusOK, true},
		{"keys, a remote peer with one", keyed, "POST", "192.0.2.7:40000", bearer, http.StatusOK, true},
	} {
		var stops atomic.Int32
		h := runtime.NewHandler(plainTool{}, append(tc.opts, runtime.WithStopFunc(func() { stops.Add(1) }))...)
		w, body := stopRecorder(t, h, tc.method, tc.remote, tc.header)
		if w.Code != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, w.Code, body, tc.status)
		}
		if tc.status == http.StatusOK && body != `{"status":"stopped"}` {
			t.Errorf("%s: %s, want {\"status\":\"stopped\"}", tc.name, body)
		}
		if tc.status == http.StatusForbidden && !strings.Contains(body, `"code":403`) {
			t.Errorf("%s: %s, want a JSON-RPC error of code 403", tc.name, body)
		}
		if got := stops.Load() == 1; got != tc.stops {
			t.Errorf("%s: stopped %v, want %v", tc.name, got, tc.stops)
		}
	}
	// Served by no server of this package and without WithStopFunc: nothing to stop.
	w, body := stopRecorder(t, runtime.NewHandler(plainTool{}), "POST", "127.0.0.1:40000", nil)
	if w.Code != http.StatusNotFound {
		t.Errorf("a handler with nothing to stop: %d %s, want 404", w.Code, body)
	}
}
