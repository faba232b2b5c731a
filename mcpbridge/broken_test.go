package mcpbridge_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// slowEnv makes the test binary an MCP server on stdio (the SDK's alone)
// with a tool "slow" that says "started" on standard error and waits for
// its cancellation, and a tool "quick".
const slowEnv = "MCPBRIDGE_TEST_SLOW_SERVER"

// launcherEnv makes the test binary a launcher, as npx or a shell script
// is: it starts the slow server as its child on its own standard input and
// output, and waits.
const launcherEnv = "MCPBRIDGE_TEST_LAUNCHER"

func init() {
	if os.Getenv(launcherEnv) == "1" {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), launcherEnv+"=0", slowEnv+"=1")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "launcher:", err)
		}
		os.Exit(0)
	}
	if os.Getenv(slowEnv) != "1" {
		return
	}
	err := slowServer(func() { fmt.Fprintln(os.Stderr, "started") }, nil).Run(context.Background(), &mcp.StdioTransport{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "slow server:", err)
	}
	os.Exit(0)
}

// slowServer is an MCP server of the SDK's with the tools "slow", which
// calls started and waits until it is cancelled or quit is closed, and
// "quick". (The SDK does not cancel the calls of a session it closes: it
// waits for them; quit is how a test ends them.)
func slowServer(started func(), quit <-chan struct{}) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "Wait."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			started()
			select {
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			case <-quit:
				return nil, nil, errors.New("the test ended")
			}
		})
	mcp.AddTool(s, &mcp.Tool{Name: "quick", Description: "Answer."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
		})
	return s
}

// wantGone checks that err is the 502 of a server that has gone, not the
// end of the call's context.
func wantGone(t *testing.T, what string, err error) {
	t.Helper()
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != http.StatusBadGateway {
		t.Errorf("%s: got %v, want a 502 at once", what, err)
	}
}

// brokenCalls calls "slow" on tool, runs kill once the server has started
// it, and checks that the call under way and a later one fail at once: well
// before their deadline of waitLong.
func brokenCalls(t *testing.T, tool *mcpbridge.Tool, started <-chan struct{}, kill func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := tool.Call(ctx, "slow", nil)
		done <- err
	}()
	select {
	case <-started:
	case err := <-done:
		t.Fatalf("slow returned before it started: %v", err)
	case <-ctx.Done():
		t.Fatal("slow did not start")
	}
	kill()
	select {
	case err := <-done:
		wantGone(t, "the call under way", err)
		t.Logf("the call under way: %v", err)
	case <-ctx.Done():
		t.Fatal("the call under way waited for its deadline")
	}
	_, err := tool.Call(ctx, "quick", nil)
	wantGone(t, "a later call", err)
	_, err = tool.Load(ctx)
	wantGone(t, "a later listing", err)
	if ctx.Err() != nil {
		t.Errorf("the calls waited for their deadline")
	}
}

// TestCommandToolKilled: the server process is killed during a call; then
// a launcher is, leaving the server it started alive with the pipes open.
func TestCommandToolKilled(t *testing.T) {
	for _, env := range []string{slowEnv, launcherEnv} {
		t.Run(env, func(t *testing.T) {
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), env+"=1")
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			tool, err := mcpbridge.CommandTool(context.Background(), cmd)
			if err != nil {
				t.Fatal(err)
			}
			defer tool.Close()
			started := make(chan struct{})
			go func() {
				sc := bufio.NewScanner(stderr)
				for sc.Scan() {
					if sc.Text() == "started" {
						close(started)
					}
				}
			}()
			brokenCalls(t, tool, started, func() {
				if err := cmd.Process.Kill(); err != nil {
					t.Error(err)
				}
			})
		})
	}
}

// TestHTTPToolClosed: the HTTP server goes away during a call. The slow
// call, which the server's session would wait for, ends with the test, and
// so does the session.
func TestHTTPToolClosed(t *testing.T) {
	started := make(chan struct{}, 1)
	quit := make(chan struct{})
	s := slowServer(func() { started <- struct{}{} }, quit)
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer srv.Close()
	defer func() {
		close(quit)
		closed := make(chan struct{})
		go func() {
			for ss := range s.Sessions() {
				ss.Close()
			}
			close(closed)
		}()
		select {
		case <-closed:
		case <-time.After(waitLong):
			t.Error("the server's session is still waiting for the slow call")
		}
	}()
	tool, err := mcpbridge.HTTPTool(context.Background(), srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tool.Close()
	brokenCalls(t, tool, started, func() {
		srv.CloseClientConnections()
		srv.Listener.Close()
	})
}
