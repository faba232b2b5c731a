package mcpbridge_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

const sizedDoc = `{
  "opentool": "1.0.0",
  "info": {"title": "sized", "version": "1"},
  "functions": [
    {"name": "sized", "description": "A result of n bytes.", "parameters": [
      {"name": "n", "schema": {"type": "integer"}, "required": true}],
     "return": {"name": "text", "schema": {"type": "string"}}}
  ]
}`

// sized is a tool whose one function answers a text of n bytes.
type sized struct{ doc *document.OpenTool }

func (s sized) Load(context.Context) (*document.OpenTool, error) { return s.doc, nil }

func (s sized) Call(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	var a struct{ N int }
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, runtime.InvalidParams(runtime.Violation{Message: err.Error()})
	}
	return json.Marshal(map[string]string{"text": strings.Repeat("x", a.N)})
}

// TestRefusedResultCostsNothing: a Tool of HTTPTool refuses a result larger
// than WithMaxMessageBytes, and the calls after it on the same Tool (the
// same session) succeed, whether the server answers with an event stream
// or a JSON body.
func TestRefusedResultCostsNothing(t *testing.T) {
	var doc document.OpenTool
	if err := json.Unmarshal([]byte(sizedDoc), &doc); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []struct {
		name      string
		json      bool
		stateless bool
	}{{"sse", false, false}, {"json", true, false}, {"sse-stateless", false, true}, {"json-stateless", true, true}} {
		t.Run(mode.name, func(t *testing.T) {
			h, err := mcpbridge.NewHTTPHandler(context.Background(), sized{&doc}, nil, mode.stateless,
				mcpbridge.WithHTTPOptions(&mcp.StreamableHTTPOptions{JSONResponse: mode.json}))
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(h)
			t.Cleanup(func() { h.Close(); srv.Close() })
			tool, err := mcpbridge.HTTPTool(context.Background(), srv.URL, nil, mcpbridge.WithMaxMessageBytes(1<<20))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { tool.Close() })
			ctx, cancel := context.WithTimeout(context.Background(), waitLong)
			defer cancel()
			if _, err := tool.Call(ctx, "sized", json.RawMessage(`{"n":2097152}`)); err == nil {
				t.Fatal("a 2 MiB result within a 1 MiB limit: no error")
			} else {
				t.Logf("refused: %v", err)
			}
			for i := range 3 {
				res, err := tool.Call(ctx, "sized", json.RawMessage(`{"n":3}`))
				if err != nil || string(res) != `{"text":"xxx"}` {
					t.Fatalf("call %d after the refused one: %s %v", i+1, res, err)
				}
			}
		})
	}
}
