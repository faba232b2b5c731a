package toolcli_test

// Tests of what start bounds against hostile clients, and of its shutdown,
// with the command running in this process on a real listener.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/internal/testtool"
)

// TestStartStalledBodies: stalled bodies on /mcp, with or without a key, and
// on /opentool without a key (refused before any handler reads them) are all
// closed once the read timeout has passed.
func TestStartStalledBodies(t *testing.T) {
	r := testtool.Start(t, mockCommand(newStore("a")), "-k", "key", "--readTimeout", "300ms")
	addr := strings.TrimPrefix(r.Base, "http://")
	var conns []net.Conn
	for i := range 30 {
		path, auth := "/mcp", "Authorization: Bearer key\r\n"
		switch i % 3 {
		case 1:
			auth = ""
		case 2:
			path, auth = "/opentool/call", ""
		}
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\n%sContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":", path, addr, auth)
		conns = append(conns, c)
	}
	for i, c := range conns {
		c.SetReadDeadline(time.Now().Add(10 * time.Second)) // a watchdog; the timeout is 0.3 s
		_, err := io.Copy(io.Discard, c)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("connection %d (%d of 3) with a stalled body is still open", i, i%3)
		}
	}
}

// settled waits until the process has at most want goroutines, and returns
// how many it has.
func settled(want int) int {
	n := goruntime.NumGoroutine()
	for deadline := time.Now().Add(10 * time.Second); n > want && time.Now().Before(deadline); n = goruntime.NumGoroutine() {
		time.Sleep(20 * time.Millisecond)
	}
	return n
}

// TestStartShutdownGrace: told to stop while an MCP stream runs, start lets
// it finish (its session's GET stream stays open meanwhile: the SDK's client
// gives a session up when that stream cannot reconnect), exits 0, logs the
// items delivered, and leaves no goroutine of its sessions behind.
func TestStartShutdownGrace(t *testing.T) {
	before := goruntime.NumGoroutine()
	s := newStore()
	for i := range 10 {
		s.Put(mocktool.ID(i), mocktool.Text(fmt.Sprint("t", i)))
	}
	s.Pace = 300 * time.Millisecond
	r := testtool.Start(t, mockCommand(s), "--shutdownTimeout", "20s")
	p := &progress{}
	// One retry: a GET stream cut at the shutdown would fail the session
	// within about 1.5 s, half-way through the stream.
	transport := &mcp.StreamableClientTransport{Endpoint: r.Base + "/mcp", MaxRetries: 1, HTTPClient: &http.Client{Transport: &http.Transport{}}}
	cs, err := newClient(p).Connect(context.Background(), transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Idle sessions are closed by the shutdown too.
	idle, err := newClient(&progress{}).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: r.Base + "/mcp", MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan answer, 1)
	go func() {
		params := &mcp.CallToolParams{Name: "sequentiallyRead"}
		params.SetProgressToken("grace")
		res, err := cs.CallTool(context.Background(), params)
		done <- answer{res, err}
	}()
	p.wait(1)
	r.Stop() // SIGTERM
	a := <-done
	if a.err != nil || a.res.IsError {
		t.Fatalf("the stream under shutdown: %v %v", a.err, a.res)
	}
	if items := strings.Count(textOf(a.res), `"text"`); items != 10 {
		t.Errorf("the stream under shutdown delivered %d items, want 10: %s", items, textOf(a.res))
	}
	if code := r.Wait(t); code != 0 {
		t.Errorf("exit status %d, want 0:\n%s", code, r.Logs)
	}
	if !regexp.MustCompile(`msg=call front=mcp function=sequentiallyRead duration=\S+ outcome=ok items=10\n`).MatchString(r.Logs.String()) {
		t.Errorf("no log line of the stream with its 10 items:\n%s", r.Logs)
	}
	cs.Close()
	idle.Close()
	transport.HTTPClient.CloseIdleConnections()
	http.DefaultClient.CloseIdleConnections()
	if n := settled(before + 1); n > before+1 {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after the command returned, %d before:\n%s", n, before, buf[:goruntime.Stack(buf, true)])
	}
}
