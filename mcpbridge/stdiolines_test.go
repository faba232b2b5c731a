package mcpbridge_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// lineClient talks to an MCP server over stdio line by line, as a client
// with bugs (or a hostile one) would.
type lineClient struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
}

// startLines starts cmd and returns a lineClient of it.
func startLines(t *testing.T, cmd *exec.Cmd) *lineClient {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &lineClient{t: t, cmd: cmd, stdin: stdin, lines: make(chan string, 16)}
	go func() {
		defer close(c.lines)
		r := bufio.NewReader(stdout)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			c.lines <- line
		}
	}()
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	return c
}

// send writes line and its newline.
func (c *lineClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		c.t.Fatalf("writing %.40q: %v", line, err)
	}
}

// recv returns the next message from the server.
func (c *lineClient) recv() map[string]any {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatal("the server has closed its output")
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			c.t.Fatalf("the server wrote %q: %v", line, err)
		}
		return m
	case <-time.After(waitLong):
		c.t.Fatal("no answer")
	}
	return nil
}

// wantError checks that m is an error response with code and id (nil: null)
// whose message contains want.
func wantError(t *testing.T, m map[string]any, code float64, id any, want string) {
	t.Helper()
	e, _ := m["error"].(map[string]any)
	gotID, hasID := m["id"]
	if e == nil || e["code"] != code || !hasID || gotID != id || !strings.Contains(e["message"].(string), want) || m["jsonrpc"] != "2.0" {
		t.Errorf("got %v, want error %v with id %v saying %q", m, code, id, want)
	}
}

// handshake initializes the session with the protocol version.
func (c *lineClient) handshake(version string) {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"lines","version":"1"}}}`)
	if m := c.recv(); m["result"] == nil {
		c.t.Fatalf("initialize: %v", m)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// toolCount lists the tools with id and returns how many there are.
func (c *lineClient) toolCount(id string) int {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list"}`)
	m := c.recv()
	res, _ := m["result"].(map[string]any)
	tools, _ := res["tools"].([]any)
	if m["id"] != json.Number(id) && m["id"] != mustFloat(id) {
		c.t.Errorf("tools/list %s: answered %v", id, m)
	}
	return len(tools)
}

func mustFloat(s string) float64 {
	var f float64
	json.Unmarshal([]byte(s), &f)
	return f
}

// TestStdioMalformed writes malformed lines to ServeStdio (this test binary
// as the server, see TestMain): each is answered with an error and the
// session goes on.
func TestStdioMalformed(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), stdioEnv+"=1")
	cmd.Stderr = os.Stderr
	c := startLines(t, cmd)
	c.handshake("2025-06-18")
	if n := c.toolCount("2"); n != 7 {
		t.Fatalf("%d tools, want 7", n)
	}
	for _, tc := range []struct {
		line string
		code float64
		id   any
		want string
	}{
		{`{"jsonrpc":"2.0","id":3,"method":`, -32700, nil, "Parse error"},
		{`this is not JSON`, -32700, nil, "invalid character 'h'"},
		{`{"jsonrpc":"2.0","id":4} {"x":1}`, -32700, nil, "Parse error"},
		{`{"jsonrpc":"1.0","id":5,"method":"ping"}`, -32600, 5.0, "version"},
		{`{"jsonrpc":"2.0","id":"six","method":7}`, -32600, "six", "not a JSON-RPC 2.0 message"},
		{`42`, -32600, nil, "not a JSON-RPC 2.0 message"},
		{`[]`, -32600, nil, "empty batch"},
		{`[{"jsonrpc":"2.0","id":8,"method":"ping"}]`, -32600, nil, "batches are not part of protocol version 2025-06-18"},
		{`{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"` + strings.Repeat("x", 5<<20) + `"}}`, -32600, nil, "longer than 4194304 bytes"},
	} {
		c.send(tc.line)
		wantError(t, c.recv(), tc.code, tc.id, tc.want)
		if n := c.toolCount("10"); n != 7 {
			t.Fatalf("after %.40q: %d tools, want 7", tc.line, n)
		}
	}
	c.send("")
	c.send("  \r")
	if n := c.toolCount("11"); n != 7 {
		t.Fatalf("after empty lines: %d tools", n)
	}
	// A line just within the limit is read.
	c.send(`{"jsonrpc":"2.0","id":12,"method":"ping","params":{"_meta":{"pad":"` + strings.Repeat("x", 4<<20-80) + `"}}}`)
	if m := c.recv(); m["id"] != 12.0 || m["error"] != nil {
		t.Errorf("a line within the limit: %v", m)
	}
	// The client closes its side: the server ends.
	c.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the server ended with %v", err)
		}
	case <-time.After(waitLong):
		t.Error("the server has not ended after its input closed")
	}
}

// TestStdioBatch: under a protocol version with batches (2025-03-26), a
// batch is answered as one, and a batch that repeats an id is refused.
func TestStdioBatch(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), stdioEnv+"=1")
	cmd.Stderr = os.Stderr
	c := startLines(t, cmd)
	c.handshake("2025-03-26")
	c.send(`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	wantError(t, c.recv(), -32600, nil, "repeats the id 2")
	c.send(`[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":4,"method":"tools/list"}]`)
	select {
	case line := <-c.lines:
		var batch []map[string]any
		if err := json.Unmarshal([]byte(line), &batch); err != nil || len(batch) != 2 {
			t.Fatalf("the batch's answer %q: %v", line, err)
		}
	case <-time.After(waitLong):
		t.Fatal("no answer to the batch")
	}
	if n := c.toolCount("5"); n != 7 {
		t.Errorf("%d tools, want 7", n)
	}
}

// TestStdioAnswersBeforeEOF closes the server's standard input right after
// requests, as a client that is done does: every request is answered before
// the server exits (MCP's stdio shutdown: close the input, wait for the exit).
func TestStdioAnswersBeforeEOF(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), stdioEnv+"=1")
	c := startLines(t, cmd)
	c.handshake("2025-06-18")
	c.send(`{"jsonrpc":"2.0","id":"list","method":"tools/list"}`)
	c.send(`{"jsonrpc":"2.0","id":"read","method":"tools/call","params":{"name":"read","arguments":{"id":1}}}`)
	c.send(`{"jsonrpc":"2.0","id":"seq","method":"tools/call","params":{"name":"sequentiallyRead","arguments":{}}}`)
	c.stdin.Close()
	got := map[any]bool{}
	for line := range c.lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("the server wrote %q: %v", line, err)
		}
		if _, ok := m["result"]; ok {
			got[m["id"]] = true
		} else if m["error"] != nil {
			t.Errorf("answer %v", m)
		}
	}
	for _, id := range []string{"list", "read", "seq"} {
		if !got[id] {
			t.Errorf("request %q not answered before the server exited", id)
		}
	}
}
