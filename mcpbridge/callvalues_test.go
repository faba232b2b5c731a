package mcpbridge_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// valuesTool answers the call values its calls' contexts carry.
type valuesTool struct {
	mu   sync.Mutex
	seen map[string]string
}

func (v *valuesTool) Load(context.Context) (*document.OpenTool, error) {
	return &document.OpenTool{OpenTool: "1.0.0", Info: document.Info{Title: "v", Version: "1"},
		Functions: []document.Function{{Name: "who", Description: "Who calls.", Parameters: []document.Parameter{}}}}, nil
}

func (v *valuesTool) Call(ctx context.Context, _ string, _ json.RawMessage) (json.RawMessage, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.seen = runtime.CallValues(ctx)
	return json.RawMessage(`{}`), nil
}

type withHeader struct{ key, value string }

func (h withHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.key, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// TestCallValues: a call's _meta strings and the headers the server maps
// become the call values the tool's placeholders take; headers win.
func TestCallValues(t *testing.T) {
	tool := &valuesTool{}
	ctx := t.Context()
	// In memory: _meta only.
	cs := connect(t, "memory", tool, nil)
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "who", Meta: mcp.Meta{"trace_id": "t-1", "agent_turn_id": "7", "n": 3}}); err != nil {
		t.Fatal(err)
	}
	if tool.seen["trace_id"] != "t-1" || tool.seen["agent_turn_id"] != "7" || len(tool.seen) != 2 {
		t.Errorf("values from _meta: %v", tool.seen)
	}
	// Streamable HTTP: a mapped header, over _meta.
	h, err := mcpbridge.NewHTTPHandler(ctx, tool, nil, true, mcpbridge.WithCallValueHeaders(map[string]string{"X-Trace-Id": "trace_id"}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
	hs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: withHeader{"X-Trace-Id", "from-header"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hs.Close()
	if _, err := hs.CallTool(ctx, &mcp.CallToolParams{Name: "who", Meta: mcp.Meta{"trace_id": "from-meta", "step_id": "s"}}); err != nil {
		t.Fatal(err)
	}
	if tool.seen["trace_id"] != "from-header" || tool.seen["step_id"] != "s" {
		t.Errorf("values over HTTP: %v", tool.seen)
	}
}
