package toolcli_test

// Tests of the command's stop with MCP calls that only their cancellation
// ends, on a real listener and on stdio, the command running in this
// process.

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"regexp"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/internal/testtool"
)

// stopBound is how long after its grace period the command may take to
// stop: its own bound is 2 s twice (the HTTP server's handlers, then the
// MCP calls); the store's Run would hold it waitLong.
const stopBound = 8 * time.Second

// cutRun is the log line of a call of "run" that the stop cut off.
var cutRun = regexp.MustCompile(`level=INFO msg=call front=mcp function=run duration=\S+ outcome=cancelled\n`)

// TestStartShutdownCutsMCPCall: told to stop while an MCP call runs that
// only its cancellation ends, start waits the grace period, cancels the
// call, logs it "cancelled", exits 0 within a bound, and leaves no
// goroutine behind.
func TestStartShutdownCutsMCPCall(t *testing.T) {
	before := goruntime.NumGoroutine()
	s := newStore()
	const grace = 300 * time.Millisecond
	r := testtool.Start(t, mockCommand(s), "--shutdownTimeout", grace.String())
	transport := &mcp.StreamableClientTransport{Endpoint: r.Base + "/mcp", MaxRetries: -1, HTTPClient: &http.Client{Transport: &http.Transport{}}}
	cs, err := newClient(&progress{}).Connect(context.Background(), transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run"})
		done <- err
	}()
	select {
	case <-s.Started:
	case <-time.After(waitLong):
		t.Fatal("run did not start")
	}
	stopped := time.Now()
	r.Stop() // as SIGTERM does
	code := r.Wait(t)
	took := time.Since(stopped)
	if code != 0 {
		t.Errorf("exit status %d, want 0:\n%s", code, r.Logs)
	}
	if took < grace || took > grace+stopBound {
		t.Errorf("the command stopped %v after it was told to, want its grace period of %v and at most %v more", took, grace, stopBound)
	}
	if err := <-s.Cancelled; !errors.Is(err, context.Canceled) {
		t.Errorf("run ended with %v, want its cancellation", err)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("the client's call succeeded through the stop")
		}
	case <-time.After(waitLong):
		t.Error("the client's call is still waiting")
	}
	logs := r.Logs.String()
	if !cutRun.MatchString(logs) {
		t.Errorf("no log line of the call cut off:\n%s", logs)
	}
	if !strings.Contains(logs, "the grace period ended with calls in flight") || strings.Contains(logs, "level=ERROR") {
		t.Errorf("want the warning of calls cut off and no error:\n%s", logs)
	}
	cs.Close()
	transport.HTTPClient.CloseIdleConnections()
	http.DefaultClient.CloseIdleConnections()
	if n := settled(before + 1); n > before+1 {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after the command returned, %d before:\n%s", n, before, buf[:goruntime.Stack(buf, true)])
	}
}

// TestMCPStopCutsCall: told to stop (its context ends, as on SIGTERM) while
// a call runs that only its cancellation ends, mcp cancels it at once,
// logs it "cancelled", exits 0, and leaves no goroutine behind.
func TestMCPStopCutsCall(t *testing.T) {
	before := goruntime.NumGoroutine()
	s := newStore()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	logs := &testtool.LockedBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- mockCommand(s).Run(ctx, []string{"mcp"}, inR, outW, logs)
		outW.Close()
	}()
	lines := make(chan string, 8)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stop","version":"1"}}}`)
	select {
	case l := <-lines:
		if !strings.Contains(l, `"result"`) {
			t.Fatalf("initialize: %s\n%s", l, logs)
		}
	case <-time.After(waitLong):
		t.Fatalf("no answer to initialize\n%s", logs)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run"}}`)
	select {
	case <-s.Started:
	case <-time.After(waitLong):
		t.Fatalf("run did not start\n%s", logs)
	}
	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit status %d, want 0:\n%s", c, logs)
		}
	case <-time.After(stopBound): // the command's bound is 2 s; run would hold it waitLong
		t.Fatalf("the command did not stop:\n%s", logs)
	}
	if err := <-s.Cancelled; !errors.Is(err, context.Canceled) {
		t.Errorf("run ended with %v, want its cancellation", err)
	}
	if out := logs.String(); !cutRun.MatchString(out) || !strings.Contains(out, "msg=stopped\n") {
		t.Errorf("want the log lines of the call cut off and of the stop:\n%s", out)
	}
	inW.Close() // the client goes too: the transport's reader ends
	for range lines {
	}
	if n := settled(before); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after the command returned, %d before:\n%s", n, before, buf[:goruntime.Stack(buf, true)])
	}
}
