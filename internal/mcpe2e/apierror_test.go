package mcpe2e

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/mcpbridge"
	petstore "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-petstore"
)

// apiKey is the credential the petstore tool sends; the API below echoes it
// in one of its errors.
const apiKey = "sk-live-SECRET123"

// TestAPIErrorText serves the generated petstore tool (testdata/golden/
// openapi-petstore, a REST client over httptest) over MCP streamable HTTP
// and reads its errors with the official SDK's client: the text content a
// model reads carries the API's own message after the status, picked from
// the common shapes of error bodies, bounded, with the credential the
// request sent redacted there and in the _meta error object.
func TestAPIErrorText(t *testing.T) {
	bodies := map[string]struct {
		status      int
		contentType string
		body        string
	}{
		"1": {404, "application/json", `{"error":{"message":"non existing id"}}`},
		"2": {404, "application/json", `{"code":404,"message":"no pet 2"}`},
		"3": {500, "text/plain", "database down,\n\tretry later\n"},
		"4": {404, "application/problem+json", `{"type":"about:blank","title":"Not Found","status":404,"detail":"pet 4 was adopted"}`},
		"5": {404, "application/json", `{"errors":[{"message":"first problem"},{"message":"second"}]}`},
		"6": {404, "application/json", `{"error":"the key ` + apiKey + ` may not read pet 6"}`},
		"7": {404, "application/json", `{"message":"` + strings.Repeat("very long ", 1000) + `"}`},
		"8": {503, "text/html", "<html><body><h1>Service Unavailable</h1></body></html>"},
		"9": {404, "application/json", `{"title":"Not Found"}`},
	}
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := bodies[strings.TrimPrefix(r.URL.Path, "/pets/")]
		if !ok || r.Header.Get("X-API-Key") != apiKey {
			http.Error(w, "unexpected request", http.StatusTeapot)
			return
		}
		w.Header().Set("Content-Type", b.contentType)
		w.WriteHeader(b.status)
		io.WriteString(w, b.body)
	}))
	defer api.Close()
	tool, err := petstore.NewTool(must(petstore.NewClient(api.URL, petstore.WithAPIKey(apiKey))))
	if err != nil {
		t.Fatal(err)
	}
	h, err := mcpbridge.NewHTTPHandler(context.Background(), tool, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "sdk", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: srv.URL, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	long := "HTTP 404 Not Found: " + strings.TrimSpace(strings.Repeat("very long ", 30))
	for id, want := range map[string]string{
		"1": "HTTP 404 Not Found: non existing id",
		"2": "HTTP 404 Not Found: no pet 2",
		"3": "HTTP 500 Internal Server Error: database down, retry later",
		"4": "HTTP 404 Not Found: pet 4 was adopted",
		"5": "HTTP 404 Not Found: first problem",
		"6": "HTTP 404 Not Found: the key [redacted] may not read pet 6",
		"7": long + "…",
		"8": "HTTP 503 Service Unavailable",
		"9": "HTTP 404 Not Found: Not Found",
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "showPetById", Arguments: map[string]any{"petId": json.Number(id)}})
		if err != nil {
			t.Fatalf("pet %s: %v", id, err)
		}
		var text string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text += tc.Text
			}
		}
		if !res.IsError || text != want {
			t.Errorf("pet %s: isError %v, text %q, want %q", id, res.IsError, text, want)
		}
		wire, _ := json.Marshal(res)
		if strings.Contains(string(wire), apiKey) {
			t.Errorf("pet %s: the credential is in the result: %s", id, wire)
		}
		var meta struct {
			Message string          `json:"message"`
			Code    int             `json:"code"`
			Data    json.RawMessage `json:"data"`
		}
		b, _ := json.Marshal(res.Meta["opentool/error"])
		if json.Unmarshal(b, &meta) != nil || meta.Code != bodies[id].status || !strings.HasPrefix(meta.Message, "HTTP ") || strings.Contains(meta.Message, ":") {
			t.Errorf("pet %s: _meta error %s, want the status and its HTTP message", id, b)
		}
		if id == "1" && !strings.Contains(string(meta.Data), "non existing id") {
			t.Errorf("pet 1: _meta data %s, want the body", meta.Data)
		}
	}
}

// must is v, or a panic with err: the client of a test whose base URL is
// right (NewClient returns an error only for a client that cannot call).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
