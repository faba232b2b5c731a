package mcpbridge_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	petstore "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-petstore"
)

// TestMCPHeaders serves the Tool generated from the OpenAPI petstore over
// streamable HTTP: listPets' header parameter X-Request-ID is marked
// x-mcp-header in its inputSchema; the SDK's client (2026-07-28) sends its
// value as Mcp-Param-X-Request-ID beside the argument, and the REST API gets
// it as its header; a request whose Mcp-Param header contradicts the
// argument is refused by the SDK's server before the tool runs.
func TestMCPHeaders(t *testing.T) {
	ctx := context.Background()
	got := make(chan string, 4)
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("X-Request-ID")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[]`)
	}))
	defer backend.Close()
	tool, err := petstore.NewTool(must(petstore.NewClient(backend.URL)))
	if err != nil {
		t.Fatal(err)
	}
	h, err := mcpbridge.NewHTTPHandler(ctx, tool, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get("Mcp-Param-X-Request-ID"); v != "" {
			seen = append(seen, v)
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "sdk", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	tools := listTools(t, cs)
	props := asJSON(t, tools["listPets"].InputSchema).(map[string]any)["properties"].(map[string]any)
	if mark := props["X-Request-ID"].(map[string]any)["x-mcp-header"]; mark != "X-Request-ID" {
		t.Errorf("listPets X-Request-ID: x-mcp-header %v, want X-Request-ID", mark)
	}
	if _, marked := props["limit"].(map[string]any)["x-mcp-header"]; marked {
		t.Error("the query parameter limit is marked x-mcp-header")
	}

	const id = "0b7c9a52-1f7e-4e55-9a42-4d7f0a1c2b3d"
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "listPets", Arguments: map[string]any{"X-Request-ID": id}})
	if err != nil || res.IsError {
		t.Fatalf("listPets: %+v, %v", res, err)
	}
	if v := <-got; v != id {
		t.Errorf("the REST API got X-Request-ID %q, want %q", v, id)
	}
	if len(seen) != 1 || seen[0] != id {
		t.Errorf("Mcp-Param-X-Request-ID headers %q, want the argument's value once", seen)
	}

	// The same request by hand: with the header the argument says it is
	// served, with a contradicting one the SDK's server refuses it.
	const id2, other = "7d2c1e0a-3b4f-4a5e-8c6d-9e0f1a2b3c4d", "11111111-2222-4333-8444-555555555555"
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"listPets","arguments":{"X-Request-ID":"` + id2 + `"},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	post := func(param string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "listPets")
		req.Header.Set("Mcp-Param-X-Request-ID", param)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		io.Copy(io.Discard, resp.Body)
		return resp.StatusCode
	}
	if code := post(id2); code != http.StatusOK {
		t.Fatalf("the raw request with a matching header: HTTP %d, want 200", code)
	}
	select {
	case v := <-got:
		if v != id2 {
			t.Errorf("the REST API got X-Request-ID %q, want %q", v, id2)
		}
	case <-time.After(waitLong):
		t.Fatal("the raw request did not reach the REST API")
	}
	if code := post(other); code != http.StatusBadRequest {
		t.Errorf("a contradicting Mcp-Param header: HTTP %d, want 400", code)
	}
	select {
	case v := <-got:
		t.Errorf("the refused call reached the REST API (X-Request-ID %q)", v)
	default:
	}
}
