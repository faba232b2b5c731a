package toolcli_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/toolcli"
)

// requiresDoc is the document of an MCP listing whose one tool requires
// tasks.
const requiresDoc = `{"opentool": "1.0.0", "info": {"title": "slow", "version": "1"},
  "functions": [{"name": "build", "description": "A build.", "parameters": [],
    "return": {"name": "artifact", "schema": {"type": "string"}}, "execution": {"taskSupport": "required"}}]}`

// slowTool is the upstream's tool: build answers at once, but its document
// requires tasks.
type slowTool struct{ doc *document.OpenTool }

func (s slowTool) Load(context.Context) (*document.OpenTool, error) { return s.doc, nil }
func (s slowTool) Call(context.Context, string, json.RawMessage) (json.RawMessage, error) {
	return json.RawMessage(`{"artifact":"app.tar"}`), nil
}

// listingTool is what the generated package of the listing makes of a
// Caller: the listing's document, calls through the Caller.
type listingTool struct {
	doc *document.OpenTool
	c   runtime.Caller
}

func (l listingTool) Load(context.Context) (*document.OpenTool, error) { return l.doc, nil }
func (l listingTool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	return l.c.CallFunction(ctx, name, args)
}

// TestMCPGatewayServesPlainClients: the MCP gateway of a listing whose
// tool requires tasks (MCPGateway over streamable HTTP, served over MCP)
// serves a client without the tasks extension: its session runs the
// upstream's task for it.
func TestMCPGatewayServesPlainClients(t *testing.T) {
	var doc document.OpenTool
	if err := json.Unmarshal([]byte(requiresDoc), &doc); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	up, err := mcpbridge.NewHTTPHandler(ctx, slowTool{&doc}, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	upSrv := httptest.NewServer(up)
	t.Cleanup(func() { up.Close(); upSrv.Close() })
	gw, err := toolcli.MCPGateway(ctx, "", upSrv.URL, func(c runtime.Caller) (runtime.Tool, error) { return listingTool{&doc, c}, nil })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gw.(interface{ Close() error }).Close() })
	h, err := mcpbridge.NewHTTPHandler(ctx, gw, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); srv.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "plain", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "build"})
	if err != nil || res.IsError {
		t.Fatalf("a plain call of build through the gateway: %+v %v", res, err)
	}
	if got, _ := json.Marshal(res.StructuredContent); string(got) != `{"artifact":"app.tar"}` {
		t.Errorf("build: %s", got)
	}
}
