package mcpbridge_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	stream "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-stream"
)

// TestRESTStream serves the Tool of an OpenAPI operation whose response is a
// stream of Server-Sent Events (testdata/golden/openapi-stream) over MCP: each
// event of the API is a progress notification, and the result gathers them.
func TestRESTStream(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for i, word := range []string{"one", "two"} {
			fmt.Fprintf(w, "data: {\"index\":%d,\"text\":%q}\n\n", i, word)
			rc.Flush()
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer api.Close()
	tool, err := stream.NewTool(must(stream.NewClient(api.URL)))
	if err != nil {
		t.Fatal(err)
	}
	notes := newProgressLog()
	cs := connect(t, "memory", tool, notes.add)
	params := &mcp.CallToolParams{Name: "chat", Arguments: map[string]any{"prompt": "hi"}}
	params.SetProgressToken("p")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("isError: %s", text(t, res))
	}
	items := []string{`{"index":0,"text":"one"}`, `{"index":1,"text":"two"}`}
	want := `{"items":[` + items[0] + "," + items[1] + `]}`
	if diff := cmp.Diff(asJSON(t, want), asJSON(t, res.StructuredContent)); diff != "" {
		t.Errorf("structuredContent (-want +got):\n%s", diff)
	}
	var got []string
	for _, p := range notes.wait(t, 2) {
		got = append(got, p.Message)
	}
	slices.Sort(got)
	if !slices.Equal(got, items) {
		t.Errorf("progress messages %q, want %q", got, items)
	}
}
