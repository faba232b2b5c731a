package runtime_test

// Tests of what every route of a server gets: deadlines for requests refused
// before any handler reads them, and the Host check on loopback.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// closedWithin reports whether the server closes c (after answering, or
// not) before limit passes.
func closedWithin(c net.Conn, limit time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(limit))
	_, err := io.Copy(io.Discard, c)
	return !errors.Is(err, os.ErrDeadlineExceeded)
}

// TestServeHandlerDeadlines: requests that a wrapper refuses before any
// handler reads their body (RequireAPIKeys' 401), and requests to a handler
// that sets no deadline, are closed once the read timeout has passed when
// their bodies stall: they hold no connection for ever.
func TestServeHandlerDeadlines(t *testing.T) {
	const readTimeout = 300 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	mux := http.NewServeMux()
	mux.Handle(runtime.DefaultPrefix+"/", runtime.NewHandler(newHardTool(), runtime.WithReadTimeout(readTimeout)))
	mux.HandleFunc("/plain", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // a handler that trusts the server's deadlines
		w.WriteHeader(http.StatusNoContent)
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- runtime.ServeHandler(ctx, ln, runtime.RequireAPIKeys(mux, "k"),
			runtime.WithReadTimeout(readTimeout), runtime.WithWriteTimeout(time.Second), runtime.WithLogger(slog.New(slog.DiscardHandler)))
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeHandler: %v", err)
		}
	}()

	var conns []net.Conn
	for i := range 20 {
		path := "/opentool/call"
		if i%2 == 1 {
			path = "/plain"
		}
		// Without a key: 401 before any handler; a body of 100 bytes that stops at 10.
		conns = append(conns, rawPost(t, addr, path, 100, `{"method":`))
	}
	// With a key, to a handler that sets no deadline of its own.
	keyed, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer keyed.Close()
	fmt.Fprintf(keyed, "POST /plain HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer k\r\nContent-Length: 100\r\n\r\n{", addr)
	conns = append(conns, keyed)
	for i, c := range conns {
		// Generous: the read timeout is 0.3 s; before, none was ever closed.
		if !closedWithin(c, 10*time.Second) {
			t.Errorf("connection %d with a stalled body is still open", i)
		}
	}
}

// TestHostOnLoopback: on a loopback address, a Host that does not name a
// loopback host is refused (DNS rebinding), unless WithAnyHost.
func TestHostOnLoopback(t *testing.T) {
	for _, anyHost := range []bool{false, true} {
		var opts []runtime.ServerOption
		if anyHost {
			opts = append(opts, runtime.WithAnyHost())
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv := &http.Server{Handler: runtime.NewHandler(newHardTool(), opts...)}
		go srv.Serve(ln)
		addr := ln.Addr().String()
		_, port, _ := net.SplitHostPort(addr)
		for host, loopback := range map[string]bool{
			addr: true, "localhost:" + port: true, "[::1]:" + port: true, "127.1.2.3": true,
			"evil.example:" + port: false, "10.0.0.1": false,
		} {
			req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/opentool/version", nil)
			req.Host = host
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			want := http.StatusOK
			if !loopback && !anyHost {
				want = http.StatusForbidden
			}
			if resp.StatusCode != want || (want == http.StatusForbidden && !strings.Contains(string(body), `"code":403`)) {
				t.Errorf("WithAnyHost %v, Host %s: %d %s, want %d", anyHost, host, resp.StatusCode, body, want)
			}
		}
		srv.Close()
	}
}
