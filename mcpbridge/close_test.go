package mcpbridge_test

// Tests of the end of a server: HTTPHandler.Close and the end of
// ServeStdio's context cancel the calls under way, on real listeners and a
// subprocess.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	goruntime "runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// blockEnv makes the test binary serve a blocker with ServeStdio until
// SIGTERM; it writes what happens on standard error.
const blockEnv = "MCPBRIDGE_TEST_BLOCK_SERVER"

func init() {
	if os.Getenv(blockEnv) != "1" {
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	b := newBlocker()
	quit, said := make(chan struct{}), make(chan struct{})
	go b.say(quit, said)
	err := mcpbridge.ServeStdio(ctx, b, nil)
	fmt.Fprintln(os.Stderr, "ServeStdio:", err)
	close(b.release)
	close(quit)
	<-said // the stubborn call's cause, once released
	os.Exit(0)
}

// blocker is a tool whose calls block: "wait" until its context ends,
// "trickle" (a stream) after its first item until its context ends, and
// "stubborn" until release is closed, whatever its context. Each says its
// name on started when it starts, and its context's cause on causes when
// it ends.
type blocker struct {
	started chan string
	causes  chan error
	release chan struct{}
}

// say writes on standard error the calls started and their causes until stop
// is closed and every call started has said its cause, then closes said.
// Every call ServeStdio took has sent on started by the time it returns.
func (b *blocker) say(stop <-chan struct{}, said chan<- struct{}) {
	defer close(said)
	running := 0
	for {
		select {
		case name := <-b.started:
			fmt.Fprintln(os.Stderr, "started", name)
			running++
		case err := <-b.causes:
			fmt.Fprintln(os.Stderr, "cause:", err)
			running--
		case <-stop:
			stop = nil
		}
		if stop == nil && running == 0 && len(b.started) == 0 {
			return
		}
	}
}

func newBlocker() *blocker {
	return &blocker{started: make(chan string, 8), causes: make(chan error, 8), release: make(chan struct{})}
}

func (b *blocker) Load(context.Context) (*document.OpenTool, error) {
	return &document.OpenTool{
		OpenTool: "1.0.0",
		Info:     document.Info{Title: "blocker", Version: "1"},
		Functions: []document.Function{
			{Name: "wait", Description: "waits for its cancellation"},
			{Name: "stubborn", Description: "ignores its cancellation"},
			{Name: "trickle", Description: "streams one item, then waits", Stream: map[string]*document.Return{"data": {Name: "s", Schema: &document.Schema{Type: "string"}}}},
		},
	}, nil
}

func (b *blocker) Call(ctx context.Context, name string, _ json.RawMessage) (json.RawMessage, error) {
	b.started <- name
	switch name {
	case "wait":
		<-ctx.Done()
	case "stubborn":
		<-b.release
	default:
		return nil, runtime.MethodNotFound(name)
	}
	b.causes <- context.Cause(ctx)
	return nil, ctx.Err()
}

func (b *blocker) StreamCall(ctx context.Context, name string, _ json.RawMessage, emit func(json.RawMessage) error) error {
	b.started <- name
	if err := emit(json.RawMessage(`{"s":"first"}`)); err != nil {
		return err
	}
	<-ctx.Done()
	b.causes <- context.Cause(ctx)
	return ctx.Err()
}

// await returns what ch gives, or fails the test after waitLong.
func await[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(waitLong):
		t.Fatalf("%s: nothing after %v", what, waitLong)
	}
	var zero T
	return zero
}

type callAnswer struct {
	res *mcp.CallToolResult
	err error
}

// newSession opens a session of url; without a standalone GET stream when
// noGET.
func newSession(t *testing.T, url string, noGET bool) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "closing", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1, DisableStandaloneSSE: noGET}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callAsync calls name on cs, and sends the answer.
func callAsync(cs *mcp.ClientSession, name string) <-chan callAnswer {
	done := make(chan callAnswer, 1)
	go func() {
		params := &mcp.CallToolParams{Name: name}
		params.SetProgressToken(name)
		res, err := cs.CallTool(context.Background(), params)
		done <- callAnswer{res, err}
	}()
	return done
}

// TestHTTPHandlerCloseCancels: Close cancels the calls under way on every
// session (a call and a stream), answers them 503 while their clients are
// there, ends the sessions (an idle one's GET stream too), refuses later
// requests, returns promptly, and leaves no goroutine.
func TestHTTPHandlerCloseCancels(t *testing.T) {
	http.DefaultClient.CloseIdleConnections()
	before := goruntime.NumGoroutine()
	func() {
		b := newBlocker()
		h, err := mcpbridge.NewHTTPHandler(context.Background(), b, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		defer srv.Close()
		idle := newSession(t, srv.URL, false)
		idleEnded := make(chan error, 1)
		go func() { idleEnded <- idle.Wait() }()
		calls := map[string]<-chan callAnswer{}
		for _, name := range []string{"wait", "trickle"} {
			// Without a GET stream: its end at Close could fail the call
			// in the SDK's client before the answer is read.
			cs := newSession(t, srv.URL, true)
			defer cs.Close()
			calls[name] = callAsync(cs, name)
		}
		for range calls {
			await(t, b.started, "a call's start")
		}
		closed := make(chan error, 1)
		go func() { closed <- h.Close() }()
		if err := await(t, closed, "Close"); err != nil {
			t.Errorf("Close: %v", err)
		}
		for range calls {
			if cause := await(t, b.causes, "a call's end"); !errors.Is(cause, mcpbridge.ErrServerStopped) {
				t.Errorf("a call's context ended with %v, want ErrServerStopped", cause)
			}
		}
		for name, done := range calls {
			a := await(t, done, name)
			if a.err != nil {
				t.Errorf("%s: %v, want an error result", name, a.err)
				continue
			}
			if e := errorMeta(t, a.res); !a.res.IsError || e.Code != http.StatusServiceUnavailable || !strings.Contains(e.Message, "the server stopped") {
				t.Errorf("%s: %+v, want an error 503", name, e)
			}
			if name == "trickle" {
				if items, _ := json.Marshal(a.res.Meta["opentool/items"]); string(items) != `[{"s":"first"}]` {
					t.Errorf("trickle: the items sent before the end: %s", items)
				}
			}
		}
		t.Logf("the idle session ended: %v", await(t, idleEnded, "the idle session's end"))
		resp, body := post(t, srv.URL, "", initBody)
		if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "closed") {
			t.Errorf("a request after Close: %d %s, want 503", resp.StatusCode, body)
		}
	}()
	http.DefaultClient.CloseIdleConnections()
	if n := settle(before); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after Close, %d before:\n%s", n, before, buf[:goruntime.Stack(buf, true)])
	}
}

// TestHTTPHandlerCloseStubborn: a call that ignores its cancellation holds
// Close 2 seconds at most, and Close says so.
func TestHTTPHandlerCloseStubborn(t *testing.T) {
	b := newBlocker()
	defer close(b.release)
	h, url := serveFront(t, b)
	callAsync(newSession(t, url, true), "stubborn")
	await(t, b.started, "the call's start")
	closed := make(chan error, 1)
	go func() { closed <- h.Close() }()
	select {
	case err := <-closed:
		if err == nil || !strings.Contains(err.Error(), "1 calls did not return") {
			t.Errorf("Close: %v, want an error counting 1 call", err)
		}
	case <-time.After(10 * time.Second): // a watchdog; the bound is 2 s
		t.Fatal("Close waits for a call that ignores its cancellation")
	}
}

// TestStdioStop: ServeStdio (this test binary as the server, see init)
// whose context ends during a call cancels it and returns; with a call that
// ignores its cancellation, it returns after 2 seconds saying so.
func TestStdioStop(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"wait", "ServeStdio: context canceled\n"},
		{"stubborn", "ServeStdio: mcpbridge: context canceled; 1 calls did not return within 2s of their cancellation\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), blockEnv+"=1")
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			c := startLines(t, cmd)
			lines := make(chan string, 8)
			go func() {
				defer close(lines)
				sc := bufio.NewScanner(stderr)
				for sc.Scan() {
					lines <- sc.Text() + "\n"
				}
			}()
			c.handshake("2025-06-18")
			c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + tc.name + `"}}`)
			if l := await(t, lines, "the call's start"); l != "started "+tc.name+"\n" {
				t.Fatalf("the server said %q", l)
			}
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			var said strings.Builder
			ended := make(chan struct{})
			go func() {
				for l := range lines {
					said.WriteString(l)
				}
				close(ended)
			}()
			select {
			case <-ended:
			case <-time.After(20 * time.Second): // a watchdog; the bound is 2 s
				t.Fatal("the server did not end after its context did")
			}
			if !strings.Contains(said.String(), "cause: mcpbridge: the MCP server stopped\n") || !strings.Contains(said.String(), tc.want) {
				t.Errorf("the server said %q, want the call's cause and %q", said.String(), tc.want)
			}
		})
	}
}
