package toolcli_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/internal/testtool"
)

// TestStdioMalformedLines runs the command (this test binary, see TestMain)
// in mcp mode and writes it malformed lines as a client with bugs would:
// each is answered with a JSON-RPC error and logged, and the session goes on.
func TestStdioMalformedLines(t *testing.T) {
	cmd := exec.Command(os.Args[0], "mcp")
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	logs := &testtool.LockedBuffer{}
	cmd.Stderr = logs
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
	defer cmd.Process.Kill()
	lines := make(chan string, 4)
	go func() {
		defer close(lines)
		r := bufio.NewReader(stdout)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			lines <- line
		}
	}()
	exchange := func(line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatal(err)
		}
		select {
		case l, ok := <-lines:
			var m map[string]any
			if !ok || json.Unmarshal([]byte(l), &m) != nil {
				t.Fatalf("after %.40q the command wrote %q\n%s", line, l, logs)
			}
			return m
		case <-time.After(waitLong):
			t.Fatalf("no answer to %.40q\n%s", line, logs)
		}
		return nil
	}
	wantCode := func(m map[string]any, code float64, id any) {
		t.Helper()
		e, _ := m["error"].(map[string]any)
		if gotID, ok := m["id"]; e == nil || e["code"] != code || !ok || gotID != id {
			t.Errorf("got %v, want error %v with id %v", m, code, id)
		}
	}
	wantCode(exchange(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{`), -32700, nil)
	m := exchange(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"lines","version":"1"}}}`)
	if m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	wantCode(exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"count"`), -32700, nil)
	wantCode(exchange(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"count","arguments":{"pad":"`+strings.Repeat("x", 5<<20)+`"}}}`), -32600, nil)
	m = exchange(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"count"}}`)
	if res, _ := m["result"].(map[string]any); m["id"] != 4.0 || res == nil || res["isError"] == true {
		t.Errorf("count after the malformed lines: %v\n%s", m, logs)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("the command ended with %v\n%s", err, logs)
	}
	out := logs.String()
	if n := strings.Count(out, "level=WARN msg=\"MCP over stdio: a line from the client is answered with an error\""); n != 3 {
		t.Errorf("%d warnings of malformed lines, want 3:\n%s", n, out)
	}
	if !strings.Contains(out, "msg=stopped") {
		t.Errorf("no log line of the end:\n%s", out)
	}
}
