package mcpbridge_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
	petstore "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-petstore"
)

// TestAnnotationsFromOpenAPI serves the Tool generated from the OpenAPI
// petstore and lists its tools with the SDK's client: each operation's
// annotations are those of its HTTP method.
func TestAnnotationsFromOpenAPI(t *testing.T) {
	yes, no := new(true), new(false)
	var (
		get    = &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: yes}
		post   = &mcp.ToolAnnotations{OpenWorldHint: yes} // destructiveHint unset: MCP's default, true
		put    = &mcp.ToolAnnotations{IdempotentHint: true, OpenWorldHint: yes}
		delete = &mcp.ToolAnnotations{DestructiveHint: yes, IdempotentHint: true, OpenWorldHint: yes}
	)
	want := map[string]*mcp.ToolAnnotations{
		"listPets":             get,  // GET /pets
		"showPetById":          get,  // GET /pets/{petId}
		"stats":                get,  // GET /stats
		"createPet":            post, // POST /pets
		"updatePet":            post, // PATCH /pets/{petId}
		"deletePet":            delete,
		"put_pets_petId_photo": put,
	}
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			tool, err := petstore.NewTool(must(petstore.NewClient("http://127.0.0.1:1")))
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]*mcp.ToolAnnotations{}
			for name, tl := range listTools(t, connect(t, tr, tool, nil)) {
				got[name] = tl.Annotations
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("annotations (-want +got):\n%s", diff)
			}
		})
	}

	// WithAnnotations replaces the hints of one function; WithFunctions
	// narrows the tools and their hints alike.
	tool, err := petstore.NewTool(must(petstore.NewClient("http://127.0.0.1:1")), toolopt.WithFunctions("deletePet", "listPets"))
	if err != nil {
		t.Fatal(err)
	}
	mine := &mcp.ToolAnnotations{Title: "Remove a pet", DestructiveHint: no}
	got := map[string]*mcp.ToolAnnotations{}
	for name, tl := range listTools(t, connect(t, "memory", tool, nil, mcpbridge.WithAnnotations("deletePet", mine))) {
		got[name] = tl.Annotations
	}
	if diff := cmp.Diff(map[string]*mcp.ToolAnnotations{"deletePet": mine, "listPets": get}, got); diff != "" {
		t.Errorf("annotations with WithAnnotations and WithFunctions (-want +got):\n%s", diff)
	}
	// A tool with no hints (generated from an OpenTool document) has no
	// annotations.
	for name, tl := range listTools(t, connect(t, "memory", newMockTool(t, newStore()), nil)) {
		if tl.Annotations != nil {
			t.Errorf("mocktool %s: annotations %+v, want none", name, tl.Annotations)
		}
	}
}

// TestAnnotationsThroughGateway: an MCP server's annotations reach the Tool
// of its client (runtime.HintTool), and the tools that Tool serves again
// through this package carry them (an MCP to MCP gateway keeps them).
func TestAnnotationsThroughGateway(t *testing.T) {
	yes, no := new(true), new(false)
	server := mcp.NewServer(&mcp.Implementation{Name: "upstream", Version: "1"}, nil)
	noop := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	}
	schema := json.RawMessage(`{"type":"object"}`)
	annotated := map[string]*mcp.ToolAnnotations{
		"look":   {ReadOnlyHint: true, OpenWorldHint: no},
		"remove": {DestructiveHint: yes, IdempotentHint: true},
		"add":    {DestructiveHint: no, OpenWorldHint: yes},
	}
	for name, a := range annotated {
		server.AddTool(&mcp.Tool{Name: name, InputSchema: schema, Annotations: a}, noop)
	}
	server.AddTool(&mcp.Tool{Name: "plain", InputSchema: schema}, noop)
	tool := memoryTool(t, server)

	want := map[string]document.Hints{
		"look":   {ReadOnly: yes, OpenWorld: no},
		"remove": {Destructive: yes, Idempotent: yes},
		"add":    {Destructive: no, OpenWorld: yes},
	}
	for _, name := range []string{"look", "remove", "add", "plain"} {
		h, ok := tool.Hints(name)
		if w, annotated := want[name]; ok != annotated || !cmp.Equal(h, w) {
			t.Errorf("Hints(%q) = %+v, %v; want %+v, %v", name, h, ok, w, annotated)
		}
	}

	got := map[string]*mcp.ToolAnnotations{}
	for name, tl := range listTools(t, connect(t, "memory", tool, nil)) {
		got[name] = tl.Annotations
	}
	if diff := cmp.Diff(map[string]*mcp.ToolAnnotations{"look": annotated["look"], "remove": annotated["remove"], "add": annotated["add"], "plain": nil}, got); diff != "" {
		t.Errorf("annotations served again (-want +got):\n%s", diff)
	}
}
