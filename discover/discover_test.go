package discover_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/discover"
	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/functions"
	petstore "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-petstore"
)

// mcpSession serves tool over MCP streamable HTTP on loopback and connects
// the official SDK's client to it.
func mcpSession(t *testing.T, tool runtime.Tool) *mcp.ClientSession {
	t.Helper()
	h, err := mcpbridge.NewHTTPHandler(context.Background(), tool, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "discover-test", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: srv.URL, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// hugeDocument is a tool set far past any real API: n functions with long
// names and descriptions in 2,000 namespaces with long names, under a 100 KB
// info description.
func hugeDocument(n int) *document.OpenTool {
	doc := &document.OpenTool{OpenTool: "1.0.0", Info: document.Info{Title: "Huge", Version: "1", Description: strings.Repeat("An enormous API. ", 6000)}}
	for i := range n {
		doc.Functions = append(doc.Functions, document.Function{
			Name:        fmt.Sprintf("namespace%04d_operation_with_a_long_name_%06d", i%2000, i),
			Description: strings.Repeat(fmt.Sprintf("Operation %d does something. ", i), 40),
			Parameters:  []document.Parameter{{Name: "id", Schema: &document.Schema{Type: document.TypeString}, Required: true}},
			Tags:        []string{fmt.Sprintf("a-namespace-with-a-rather-long-name-%04d", i%2000)},
			HTTP:        &document.FunctionHTTP{Method: "GET", Path: fmt.Sprintf("/things/%d/{id}", i)},
		})
	}
	return doc
}

// TestListUnder5KB: MCP's tools/list of a tool in discovery mode, as the
// official Go SDK's client reads it over streamable HTTP, is under 5 KB for
// GitHub's REST API (767 functions) and for 20,000 functions in 2,000
// namespaces; so is the OpenAI declaration of the discovery document.
func TestListUnder5KB(t *testing.T) {
	for name, doc := range map[string]*document.OpenTool{"GitHub": loadGitHub(t), "huge": hugeDocument(20000)} {
		tool := discover.Wrap(docTool{doc: doc})
		list, err := mcpSession(t, tool).ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(list)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d functions, tools/list in discovery mode: %d bytes", name, len(doc.Functions), len(b))
		if len(b) >= 5*1024 || len(list.Tools) != 3 {
			t.Errorf("%s: tools/list has %d tools in %d bytes, want 3 in under 5 KB:\n%s", name, len(list.Tools), len(b), b)
		}
		ddoc, _ := tool.Load(context.Background())
		d, err := declare.Functions(ddoc, declare.OpenAI)
		if err != nil || len(d.Tools) >= 5*1024 {
			t.Errorf("%s: OpenAI declarations: %v, %d bytes", name, err, len(d.Tools))
		}
	}
}

// mockTools returns the generated tool of examples/mocktool over a store
// with texts, and it in discovery mode.
func mockTools(t *testing.T, texts ...mocktool.Text) (*mocktool.Tool, *discover.Tool) {
	t.Helper()
	tool, err := mocktool.NewTool(testtool.NewStore(texts...))
	if err != nil {
		t.Fatal(err)
	}
	return tool, discover.Wrap(tool)
}

// wireError is what a client reads of an error: its code, message and data.
func wireError(t *testing.T, err error) string {
	t.Helper()
	var e *runtime.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want a *runtime.Error", err)
	}
	return fmt.Sprintf("%d %s %s", e.Code, e.Message, e.Data)
}

// TestCallToolAsDirect: call_tool answers what a direct call answers, results
// and errors alike (invalid arguments naming their paths, a missing required
// one), and reads arguments sent as a JSON string.
func TestCallToolAsDirect(t *testing.T) {
	ctx := context.Background()
	direct, tool := mockTools(t, "a", "b")
	for _, tc := range []struct{ fn, args string }{
		{"count", `{}`},
		{"read", `{"id": 1}`},
		{"read", `{"id": "one"}`},
		{"update", `{"id": true, "text": 5}`},
		{"create", `{}`},
	} {
		want, wantErr := direct.Call(ctx, tc.fn, json.RawMessage(tc.args))
		for _, args := range []string{tc.args, mustJSON(t, tc.args)} {
			got, err := tool.Call(ctx, discover.CallName, json.RawMessage(`{"name":`+mustJSON(t, tc.fn)+`,"arguments":`+args+`}`))
			switch {
			case wantErr != nil && err != nil:
				if w, g := wireError(t, wantErr), wireError(t, err); w != g {
					t.Errorf("%s %s: call_tool's error %s, want the direct call's %s", tc.fn, args, g, w)
				}
			case wantErr != nil || err != nil:
				t.Errorf("%s %s: call_tool's error %v, want the direct call's %v", tc.fn, args, err, wantErr)
			case string(got) != string(want):
				t.Errorf("%s %s: call_tool answered %s, want the direct call's %s", tc.fn, args, got, want)
			}
		}
	}
	// Errors of call_tool's own arguments name their paths.
	for args, want := range map[string]string{
		`{}`:                                    `/name: missing`,
		`{"name": 3}`:                           `/name: got 3, want a string`,
		`{"name": "read", "arguments": [1]}`:    `/arguments: got [1], want an object`,
		`{"name": "read", "arguments": "nope"}`: `/arguments: got "nope", want an object`,
	} {
		_, err := tool.Call(ctx, discover.CallName, json.RawMessage(args))
		var e *runtime.Error
		if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams || !strings.Contains(e.Message, want) {
			t.Errorf("call_tool %s: got %v, want -32602 with %q", args, err, want)
		}
	}
}

// TestCallToolUnknownFunction: call_tool naming a function the wrapped tool
// does not know answers an error that names that function and suggests
// search_tools (and the closest name), a -32602 at /name: over MCP, the text
// the model reads is not unknown tool "call_tool", which would say the
// meta-tool itself does not exist. Call and StreamCall alike.
func TestCallToolUnknownFunction(t *testing.T) {
	ctx := context.Background()
	_, tool := mockTools(t, "a")
	for _, fn := range []string{"read_text", "noSuchFunction"} {
		args := json.RawMessage(`{"name":` + mustJSON(t, fn) + `,"arguments":{}}`)
		_, err := tool.Call(ctx, discover.CallName, args)
		serr := tool.StreamCall(ctx, discover.CallName, args, func(json.RawMessage) error { return nil })
		for what, err := range map[string]error{"Call": err, "StreamCall": serr} {
			var e *runtime.Error
			if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams || !strings.Contains(e.Message, `/name: no function named "`+fn+`"`) ||
				!strings.Contains(e.Message, discover.SearchName) {
				t.Errorf("%s call_tool %s: %v, want -32602 naming %q and %s", what, fn, err, fn, discover.SearchName)
			}
		}
	}
	_, err := tool.Call(ctx, discover.CallName, json.RawMessage(`{"name":"read_text"}`))
	if err == nil || !strings.Contains(err.Error(), `did you mean "read"`) {
		t.Errorf("call_tool read_text: %v, want a suggestion of read", err)
	}
	res, err := mcpSession(t, tool).CallTool(ctx, &mcp.CallToolParams{Name: discover.CallName, Arguments: map[string]any{"name": "read_text"}})
	if err != nil {
		t.Fatal(err)
	}
	var text string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if !res.IsError || !strings.Contains(text, `no function named "read_text"`) || strings.Contains(text, `unknown tool`) {
		t.Errorf("call_tool read_text over MCP: isError %v, text %q, want the function named, not an unknown tool", res.IsError, text)
	}
}

// mustJSON returns s as a JSON string.
func mustJSON(t *testing.T, s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCallToolStreams: call_tool of a streaming function answers every item
// at once through Call ({"items": […]}, as functions.Tool and MCP do),
// and streams them one by one through StreamCall, in process and over
// OpenTool HTTP.
func TestCallToolStreams(t *testing.T) {
	ctx := context.Background()
	_, tool := mockTools(t, "a", "b", "c")
	res, err := tool.Call(ctx, discover.CallName, json.RawMessage(`{"name":"sequentiallyRead"}`))
	if err != nil || !strings.HasPrefix(string(res), `{"items":[`) || strings.Count(string(res), `"text"`) != 3 {
		t.Errorf("Call: %v %s, want the 3 items", err, res)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	for name, st := range map[string]runtime.StreamTool{"in process": tool, "OpenTool HTTP": runtime.RemoteTool(runtime.NewClient(srv.URL + "/opentool"))} {
		var items []string
		err := st.StreamCall(ctx, discover.CallName, json.RawMessage(`{"name":"sequentiallyRead","arguments":{}}`), func(item json.RawMessage) error {
			items = append(items, string(item))
			return nil
		})
		if err != nil || len(items) != 3 || !strings.Contains(items[2], `"c"`) {
			t.Errorf("%s: StreamCall: %v, items %v, want 3 ending with c", name, err, items)
		}
		// A function that does not stream emits its one result.
		items = nil
		err = st.StreamCall(ctx, discover.CallName, json.RawMessage(`{"name":"count"}`), func(item json.RawMessage) error {
			items = append(items, string(item))
			return nil
		})
		if err != nil || len(items) != 1 || !strings.Contains(items[0], `3`) {
			t.Errorf("%s: StreamCall of count: %v, items %v", name, err, items)
		}
	}
}

// TestDescribeAsDeclared: describe_tool gives each function's parameters as
// its direct declaration has them, and a name that is no function's is a
// -32602 error with a suggestion.
func TestDescribeAsDeclared(t *testing.T) {
	ctx := context.Background()
	direct, tool := mockTools(t)
	decls := declare.Plain(direct.Document())
	for _, d := range decls {
		res, err := tool.Call(ctx, discover.DescribeName, json.RawMessage(`{"name":`+mustJSON(t, d.Name)+`}`))
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Name, Description string
			Parameters        json.RawMessage
			Streams           bool
		}
		if err := json.Unmarshal(res, &got); err != nil {
			t.Fatal(err)
		}
		if got.Name != d.Name || got.Description != d.Description || string(got.Parameters) != string(d.Parameters) || got.Streams != (d.Name == "sequentiallyRead") {
			t.Errorf("describe %s: got %s, want the declaration %+v", d.Name, res, d)
		}
	}
	_, err := tool.Call(ctx, discover.DescribeName, json.RawMessage(`{"name":"reed"}`))
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams || !strings.Contains(e.Message, `no function named "reed"`) {
		t.Errorf("describe reed: got %v, want -32602 naming it", err)
	}
}

// TestFronts: functions.Load and declare.Functions of a tool in discovery
// mode are the three functions, which work as tools of a framework.
func TestFronts(t *testing.T) {
	ctx := context.Background()
	_, tool := mockTools(t, "a")
	fns, err := functions.Load(ctx, tool)
	if err != nil || len(fns) != 3 {
		t.Fatalf("Functions: %v, %d functions", err, len(fns))
	}
	out, err := fns[2].Invoke(ctx, map[string]any{"name": "read", "arguments": map[string]any{"id": 0}})
	if err != nil || fmt.Sprint(out) != "map[text:a]" {
		t.Errorf("Invoke call_tool read: %v %v", out, err)
	}
	doc, err := tool.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range declare.Profiles() {
		if _, err := declare.Functions(doc, p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	// With the arguments as a string, the three are strict in the strict
	// profiles, and call_tool reads the string.
	st := discover.Wrap(tool.Unwrap(), discover.WithArgumentsAsString())
	sdoc, err := st.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []declare.Profile{declare.OpenAIStrict, declare.AnthropicStrict} {
		d, err := declare.Functions(sdoc, p)
		if err != nil || len(d.Warnings) > 0 || strings.Count(string(d.Tools), `"strict":true`) != 3 {
			t.Errorf("%s with arguments as a string: %v %v\n%s", p, err, d.Warnings, d.Tools)
		}
	}
	if res, err := st.Call(ctx, discover.CallName, json.RawMessage(`{"name":"read","arguments":"{\"id\":0}"}`)); err != nil || string(res) != `{"text":"a"}` {
		t.Errorf("call_tool with arguments as a string: %s %v", res, err)
	}
	if h, ok := tool.Hints(discover.SearchName); !ok || !*h.ReadOnly {
		t.Errorf("search_tools hints: %+v %v, want read-only", h, ok)
	}
}

// TestSearchNamespaces: with no query search_tools lists the namespaces
// (OpenAPI tags); a namespace keeps only its functions; an unknown one is
// a -32602 error; limit is checked.
func TestSearchNamespaces(t *testing.T) {
	ctx := context.Background()
	tool := discover.Wrap(docTool{doc: loadGitHub(t)})
	res, err := tool.Call(ctx, discover.SearchName, nil)
	if err != nil || !strings.Contains(string(res), `{"name":"issues","tools":39}`) {
		t.Errorf("namespaces: %v %s", err, res)
	}
	res, err = tool.Call(ctx, discover.SearchName, json.RawMessage(`{"query":"create","namespace":"gists","limit":50}`))
	var out struct {
		Tools []struct{ Name, Namespace string }
		Total int
	}
	if err != nil || json.Unmarshal(res, &out) != nil || len(out.Tools) == 0 {
		t.Fatalf("search in gists: %v %s", err, res)
	}
	for _, f := range out.Tools {
		if f.Namespace != "gists" {
			t.Errorf("search in gists found %s of %s", f.Name, f.Namespace)
		}
	}
	if out.Tools[0].Name != "gists_create" {
		t.Errorf("search create in gists: first %s, want gists_create", out.Tools[0].Name)
	}
	for args, want := range map[string]string{
		`{"query":"x","namespace":"nope"}`: `/namespace: no namespace "nope"`,
		`{"query":"x","limit":0}`:          `/limit: got 0, want an integer from 1 to 50`,
		`{"query":"x","limit":"ten"}`:      `/limit: got "ten"`,
		`{"query":7}`:                      `/query: got 7, want a string`,
	} {
		_, err := tool.Call(ctx, discover.SearchName, json.RawMessage(args))
		var e *runtime.Error
		if !errors.As(err, &e) || e.Code != runtime.CodeInvalidParams || !strings.Contains(e.Message, want) {
			t.Errorf("search %s: got %v, want -32602 with %q", args, err, want)
		}
	}
}

// TestPetstoreOverMCP drives a generated OpenAPI package in discovery mode
// over MCP with the official Go SDK's client: list the tools, search by
// namespace and words, describe, and call an operation, which reaches a REST
// stand-in of the test's own.
func TestPetstoreOverMCP(t *testing.T) {
	ctx := context.Background()
	var got []string
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method+" "+r.URL.Path+" "+r.Header.Get("X-API-Key"))
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":7,"name":"Rex","tag":"dog","created":"2024-05-01T10:00:00Z","owner":null}`)
	}))
	defer api.Close()
	tool, err := petstore.NewTool(must(petstore.NewClient(api.URL+"/v1", petstore.WithAPIKey("k3y"))))
	if err != nil {
		t.Fatal(err)
	}
	cs := mcpSession(t, discover.Wrap(tool))
	list, err := cs.ListTools(ctx, nil)
	if err != nil || len(list.Tools) != 3 {
		t.Fatalf("tools/list: %v %v", err, list)
	}
	call := func(name string, args map[string]any) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s %v: %v %v", name, args, err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		return string(b)
	}
	if s := call(discover.SearchName, map[string]any{"query": "show one pet by its id", "limit": 3}); !strings.Contains(s, `"name":"showPetById"`) || strings.Index(s, "showPetById") > strings.Index(s, `"name":`)+10 {
		t.Errorf("search: %s, want showPetById first", s)
	}
	// Only listPets is tagged "pets" in the document.
	if s := call(discover.SearchName, map[string]any{"query": "pets", "namespace": "pets"}); !strings.Contains(s, `"name":"listPets"`) || !strings.Contains(s, `"total":1`) {
		t.Errorf("search in namespace pets: %s, want listPets alone", s)
	}
	if s := call(discover.DescribeName, map[string]any{"name": "showPetById"}); !strings.Contains(s, `"required":["petId"]`) || !strings.Contains(s, `"path":"/pets/{petId}"`) {
		t.Errorf("describe: %s", s)
	}
	if s := call(discover.CallName, map[string]any{"name": "showPetById", "arguments": map[string]any{"petId": 7}}); !strings.Contains(s, `"name":"Rex"`) {
		t.Errorf("call: %s", s)
	}
	if len(got) != 1 || got[0] != "GET /v1/pets/7 k3y" {
		t.Errorf("the REST API got %v, want GET /v1/pets/7 with the key", got)
	}
	// An invalid argument is the direct call's -32602, as MCP carries it.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: discover.CallName, Arguments: map[string]any{"name": "showPetById", "arguments": map[string]any{"petId": "seven"}}})
	if err != nil || !res.IsError || !strings.Contains(fmt.Sprint(res.Content[0].(*mcp.TextContent).Text), "/petId") {
		t.Errorf("call with a bad petId: %v %v, want a tool error naming /petId", err, res)
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
