package mcpbridge_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// listed is what a package generated from an MCP listing serves: the
// listing's document (execution.taskSupport included, which the SDK's
// client drops from tools/list) and calls through a Tool of HTTPTool.
type listed struct {
	*mcpbridge.Tool
	doc *document.OpenTool
}

func (l listed) Load(context.Context) (*document.OpenTool, error) { return l.doc, nil }

// rawTaskSupport posts tools/list to the stateless MCP server at url and
// returns each tool's execution.taskSupport as the wire has it ("" for
// none).
func rawTaskSupport(t *testing.T, url string) map[string]string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body bytes.Buffer
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			body.WriteString(line)
		} else if strings.HasPrefix(sc.Text(), "{") {
			body.WriteString(sc.Text())
		}
	}
	var msg struct {
		Result struct {
			Tools []struct {
				Name      string
				Execution *struct{ TaskSupport string }
			}
		}
	}
	if err := json.Unmarshal(body.Bytes(), &msg); err != nil || len(msg.Result.Tools) == 0 {
		t.Fatalf("tools/list of %s: %v: %s", url, err, body.Bytes())
	}
	out := map[string]string{}
	for _, tool := range msg.Result.Tools {
		out[tool.Name] = ""
		if tool.Execution != nil {
			out[tool.Name] = tool.Execution.TaskSupport
		}
	}
	return out
}

// TestTaskGateway puts a gateway in front of an MCP server (this package's,
// on the official SDK, over streamable HTTP) whose build requires tasks:
// the upstream lists build "required", and refuses a plain call; the
// gateway, whose tool is the listing's document over HTTPTool (as the
// command generated from the listing is), lists build "optional", which is
// what it does: the SDK's client without the tasks extension calls build
// plainly through it, the gateway's client creates the task upstream,
// polls it and returns its result. A client with the extension gets a task
// of the gateway.
func TestTaskGateway(t *testing.T) {
	j := newJobs(t)
	upURL, upLog := serveTasks(t, j, true, mcpbridge.WithTasks(mcpbridge.TaskOptions{PollInterval: 10 * time.Millisecond}))
	if got := rawTaskSupport(t, upURL); got["build"] != "required" || got["lint"] != "optional" || got["plain"] != "" {
		t.Errorf("the upstream lists taskSupport %v, want build required, lint optional, plain none", got)
	}
	up := httpTool(t, upURL)
	gwURL, _ := serveTasks(t, listed{up, j.doc}, true)
	t.Cleanup(j.free)
	if got := rawTaskSupport(t, gwURL); got["build"] != "optional" || got["lint"] != "optional" || got["plain"] != "" {
		t.Errorf("the gateway lists taskSupport %v, want build and lint optional, plain none", got)
	}
	plain := sdkClient(t, gwURL, false)
	type out struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := plain.CallTool(context.Background(), &mcp.CallToolParams{Name: "build", Arguments: map[string]any{"target": "app"}})
		done <- out{res, err}
	}()
	waitFor(t, j.started, "the upstream build to start")
	j.free()
	got := waitFor(t, done, "the plain call's result")
	if got.err != nil || got.res.IsError || !jsonEqual(got.res.StructuredContent, map[string]any{"artifact": "app.tar"}) {
		t.Fatalf("a plain call of build through the gateway: %+v %v", got.res, got.err)
	}
	if upLog.count("tasks/get") == 0 {
		t.Error("the gateway did not poll the upstream's task")
	}
	// The upstream itself still refuses a plain call of build.
	if _, err := sdkClient(t, upURL, false).CallTool(context.Background(), &mcp.CallToolParams{Name: "build", Arguments: map[string]any{"target": "x"}}); rpcCode(err) != mcp.CodeMissingRequiredClientCapabilities {
		t.Errorf("a plain call of build upstream: %v, want -32021", err)
	}
}
