package mcpbridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// otherSDKServer is an MCP server that answers as the TypeScript and Python
// SDKs' servers do: an unknown tool and invalid arguments are results with
// isError and the SDK's message as text, not protocol errors.
func otherSDKServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "ts-like", Version: "1"}, nil)
	errResult := func(text string) *mcp.CallToolResult {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	}
	s.AddTool(&mcp.Tool{Name: "greet", InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Name string }
			if json.Unmarshal(req.Params.Arguments, &in) != nil || in.Name == "" {
				// The TypeScript SDK (McpServer, zod validation).
				return errResult(`MCP error -32602: Input validation error: Invalid arguments for tool greet: [{"path":["name"],"message":"Required"}]`), nil
			}
			if in.Name == "py" {
				// The Python SDK's lowlevel server.
				return errResult("Input validation error: 'name' is a required property"), nil
			}
			if in.Name == "disk" {
				return errResult("the disk is full"), nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello " + in.Name}}}, nil
		})
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && method == "tools/call" && p.Name != "greet" {
				if strings.HasPrefix(p.Name, "py_") {
					return errResult("Unknown tool: " + p.Name), nil
				}
				return errResult("MCP error -32602: Tool " + p.Name + " not found"), nil
			}
			return next(ctx, method, req)
		}
	})
	return s
}

// TestOtherSDKErrors calls a server that answers as the TypeScript and
// Python SDKs do, over streamable HTTP: an unknown tool is -32601 (method
// not found) and invalid arguments -32602, as their messages say, not 500;
// a tool's own error stays 500. Served again by mcpbridge, the SDK client
// sees the invalid arguments with their code in _meta.
func TestOtherSDKErrors(t *testing.T) {
	ctx := context.Background()
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return otherSDKServer() }, nil))
	defer srv.Close()
	tool, err := mcpbridge.HTTPTool(ctx, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tool.Close()
	for _, c := range []struct {
		name, args string
		code       int
		message    string
	}{
		{"nosuch", `{}`, runtime.CodeMethodNotFound, "Tool nosuch not found"},
		{"py_nosuch", `{}`, runtime.CodeMethodNotFound, "Unknown tool: py_nosuch"},
		{"greet", `{}`, runtime.CodeInvalidParams, `Input validation error: Invalid arguments for tool greet: [{"path":["name"],"message":"Required"}]`},
		{"greet", `{"name":"py"}`, runtime.CodeInvalidParams, "Input validation error: 'name' is a required property"},
		{"greet", `{"name":"disk"}`, runtime.CodeToolError, "the disk is full"},
	} {
		_, err := runtime.Local(tool).CallFunction(ctx, c.name, json.RawMessage(c.args))
		var e *runtime.Error
		if !errors.As(err, &e) || e.Code != c.code || e.Message != c.message {
			t.Errorf("%s %s: %v, want code %d, message %q", c.name, c.args, err, c.code, c.message)
		}
	}
	res, err := tool.Call(ctx, "greet", json.RawMessage(`{"name":"Ada"}`))
	if err != nil || string(res) != `{"text":"hello Ada"}` {
		t.Errorf("greet Ada: %s, %v", res, err)
	}

	// Served again: what an MCP client of the bridge sees.
	cs := connect(t, "http", tool, nil)
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}})
	if err != nil || !r.IsError {
		t.Fatalf("re-served invalid arguments: %+v, %v", r, err)
	}
	if code := asJSON(t, r.Meta).(map[string]any)["opentool/error"].(map[string]any)["code"]; code != float64(runtime.CodeInvalidParams) {
		t.Errorf("re-served invalid arguments: code %v, want -32602", code)
	}
}
