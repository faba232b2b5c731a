package mcpbridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// An MCP server written with the SDK alone, as a third party would.

type bookArgs struct {
	Guest   string   `json:"guest"`
	Room    string   `json:"room"`
	Nights  int      `json:"nights,omitempty"`
	Address *address `json:"address,omitempty"`
	Note    *string  `json:"note,omitempty"`
}

type address struct {
	Street string `json:"street,omitempty"`
	City   string `json:"city"`
}

type booking struct {
	ID     int64  `json:"id"`
	Guest  string `json:"guest"`
	Room   string `json:"room"`
	Nights int    `json:"nights"`
	City   string `json:"city,omitempty"`
}

// bookSchema is written by hand, for what inference does not write: an enum,
// $defs, a nullable type, a default.
const bookSchema = `{
  "type": "object",
  "properties": {
    "guest": {"type": "string", "description": "Who stays."},
    "room": {"type": "string", "enum": ["single", "double"]},
    "nights": {"type": "integer", "minimum": 1, "default": 1},
    "address": {"$ref": "#/$defs/Address"},
    "note": {"type": ["string", "null"]}
  },
  "required": ["room", "guest"],
  "$defs": {
    "Address": {
      "type": "object",
      "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
      "required": ["city"]
    }
  }
}`

type echoArgs struct {
	Text  string `json:"text"`
	Times int    `json:"times,omitempty"`
}

// quote is the result of a tool added without the SDK's typed handlers: its
// number does not fit a float64, its members are not in name order.
const quote = `{"price":12345678901234567890,"currency":"EUR"}`

type sdkServer struct {
	server    *mcp.Server
	started   chan struct{}
	cancelled chan error
}

func newSDKServer(t testing.TB) *sdkServer {
	t.Helper()
	s := &sdkServer{
		server:    mcp.NewServer(&mcp.Implementation{Name: "hotel", Title: "Hotel", Version: "3.1.0"}, &mcp.ServerOptions{PageSize: 2, Instructions: "Book rooms."}),
		started:   make(chan struct{}, 1),
		cancelled: make(chan error, 1),
	}
	mcp.AddTool(s.server, &mcp.Tool{Name: "book", Description: "Book a room.", InputSchema: json.RawMessage(bookSchema)},
		func(_ context.Context, _ *mcp.CallToolRequest, in bookArgs) (*mcp.CallToolResult, booking, error) {
			b := booking{ID: 7, Guest: in.Guest, Room: in.Room, Nights: max(in.Nights, 1)}
			if in.Address != nil {
				b.City = in.Address.City
			}
			return nil, b, nil
		})
	s.server.AddTool(&mcp.Tool{Name: "quote", Description: "Quote a price.", InputSchema: json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"price":{"type":"integer"},"currency":{"type":"string"}}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: quote}}, StructuredContent: json.RawMessage(quote)}, nil
		})
	mcp.AddTool(s.server, &mcp.Tool{Name: "echo", Description: "Repeat a text."},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
			words := slices.Repeat([]string{in.Text}, max(in.Times, 1))
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(words, " ")}}}, nil, nil
		})
	mcp.AddTool(s.server, &mcp.Tool{Name: "picture", Description: "Draw."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "a dot"},
				&mcp.ImageContent{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}},
			}}, nil, nil
		})
	mcp.AddTool(s.server, &mcp.Tool{Name: "fail", Description: "Fail."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, errors.New("the front desk is closed")
		})
	mcp.AddTool(s.server, &mcp.Tool{Name: "slow", Description: "Wait until cancelled."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			s.started <- struct{}{}
			select {
			case <-ctx.Done():
				s.cancelled <- ctx.Err()
				return nil, nil, ctx.Err()
			case <-time.After(waitLong):
				s.cancelled <- nil
				return nil, nil, nil
			}
		})
	return s
}

// memoryTool connects to server in memory and returns its Tool.
func memoryTool(t testing.TB, server *mcp.Server) *mcpbridge.Tool {
	t.Helper()
	return sessionTool(t, server, mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil))
}

// openTool serves tool over OpenTool HTTP and returns a client of it.
func openTool(t testing.TB, tool runtime.Tool) *runtime.Client {
	t.Helper()
	srv := httptest.NewServer(runtime.NewHandler(tool))
	t.Cleanup(srv.Close)
	return runtime.NewClient(srv.URL + runtime.DefaultPrefix)
}

func function(t *testing.T, doc *document.OpenTool, name string) *document.Function {
	t.Helper()
	for i := range doc.Functions {
		if doc.Functions[i].Name == name {
			return &doc.Functions[i]
		}
	}
	t.Fatalf("no function %q", name)
	return nil
}

// TestMCPServerOverOpenTool is what opentool-server-mcp-http does: an MCP
// server served over OpenTool HTTP, loaded and called with the OpenTool client.
func TestMCPServerOverOpenTool(t *testing.T) {
	ctx := context.Background()
	srv := newSDKServer(t)
	client := openTool(t, memoryTool(t, srv.server))

	doc, err := client.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Info.Title != "Hotel" || doc.Info.Version != "3.1.0" || doc.Info.Description != "Book rooms." {
		t.Errorf("info %+v", doc.Info)
	}
	var names []string
	for _, f := range doc.Functions {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	if want := []string{"book", "echo", "fail", "picture", "quote", "slow"}; !slices.Equal(names, want) {
		t.Fatalf("functions %v, want %v (every page of tools/list)", names, want)
	}

	book := function(t, doc, "book")
	wantParams := `[
	  {"name": "room", "schema": {"type": "string", "enum": ["single", "double"]}, "required": true},
	  {"name": "guest", "description": "Who stays.", "schema": {"type": "string"}, "required": true},
	  {"name": "address", "schema": {"$ref": "#/schemas/Address"}, "required": false},
	  {"name": "nights", "schema": {"type": "integer", "minimum": 1, "default": 1}, "required": false},
	  {"name": "note", "schema": {"type": "string", "nullable": true}, "required": false}
	]`
	if diff := cmp.Diff(asJSON(t, wantParams), asJSON(t, book.Parameters)); diff != "" {
		t.Errorf("book: parameters (-want +got):\n%s", diff)
	}
	wantSchemas := `{"Address": {"type": "object", "properties": {"city": {"type": "string"}, "street": {"type": "string"}}, "required": ["city"]}}`
	if diff := cmp.Diff(asJSON(t, wantSchemas), asJSON(t, doc.Schemas)); diff != "" {
		t.Errorf("schemas (-want +got):\n%s", diff)
	}
	if r := book.Return; r == nil || r.Name != "result" || r.Schema.Type != document.TypeObject || r.Schema.Properties.Get("id") == nil {
		t.Errorf("book: return %s, want the object of the output schema", must(json.Marshal(r)))
	}
	echo := function(t, doc, "echo")
	if diff := cmp.Diff(asJSON(t, `[{"name":"text","schema":{"type":"string"},"required":true},{"name":"times","schema":{"type":"integer"},"required":false}]`),
		asJSON(t, echo.Parameters)); diff != "" {
		t.Errorf("echo: parameters (-want +got):\n%s", diff)
	}
	if r := echo.Return; r == nil || r.Name != "text" || r.Schema.Type != document.TypeString {
		t.Errorf("echo: return %s, want text, a string", must(json.Marshal(r)))
	}
	if f := function(t, doc, "fail"); len(f.Parameters) != 0 {
		t.Errorf("fail: parameters %s, want none", must(json.Marshal(f.Parameters)))
	}

	for _, c := range []struct{ name, args, want string }{
		{"book", `{"guest":"Ada","room":"double","address":{"city":"Paris"}}`, `{"id":7,"guest":"Ada","room":"double","nights":1,"city":"Paris"}`},
		{"quote", `{}`, quote},
		{"echo", `{"text":"hi","times":2}`, `{"text":"hi hi"}`},
		{"picture", ``, `{"text":"a dot","content":[{"type":"text","text":"a dot"},{"type":"image","mimeType":"image/png","data":"iVBORw=="}]}`},
	} {
		ret, err := client.Call(ctx, runtime.FunctionCall{Name: c.name, Arguments: json.RawMessage(c.args)})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if c.name == "quote" && string(ret.Result) != c.want {
			t.Errorf("quote: %s, want %s exactly", ret.Result, c.want)
		}
		if diff := cmp.Diff(asJSON(t, c.want), asJSON(t, ret.Result)); diff != "" {
			t.Errorf("%s: result (-want +got):\n%s", c.name, diff)
		}
	}

	for _, c := range []struct {
		name, args string
		code       int
		msg        string
	}{
		{"fail", `{}`, runtime.CodeToolError, "the front desk is closed"},
		{"nope", `{}`, runtime.CodeMethodNotFound, `method not found: "nope"`},
		// The SDK's servers answer invalid arguments with isError.
		{"book", `{"guest":"Ada","room":"suite"}`, runtime.CodeToolError, "room"},
		{"book", `{"room":"single"}`, runtime.CodeToolError, "guest"},
	} {
		_, err := client.Call(ctx, runtime.FunctionCall{Name: c.name, Arguments: json.RawMessage(c.args)})
		var e *runtime.Error
		if !errors.As(err, &e) {
			t.Errorf("%s %s: %v, want a *runtime.Error", c.name, c.args, err)
			continue
		}
		if e.Code != c.code || !strings.Contains(e.Message, c.msg) {
			t.Errorf("%s %s: code %d, %q; want %d, %q", c.name, c.args, e.Code, e.Message, c.code, c.msg)
		}
	}
}

// TestCallCancel: cancelling Call's context cancels the MCP request.
func TestCallCancel(t *testing.T) {
	srv := newSDKServer(t)
	tool := memoryTool(t, srv.server)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := tool.Call(ctx, "slow", nil)
		done <- err
	}()
	select {
	case <-srv.started:
	case <-time.After(waitLong):
		t.Fatal("the call did not start")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Call: %v, want context.Canceled", err)
		}
	case <-time.After(waitLong):
		t.Fatal("Call did not return after cancel")
	}
	select {
	case err := <-srv.cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the server's handler ended with %v, want its context cancelled", err)
		}
	case <-time.After(waitLong):
		t.Fatal("the server's handler was not cancelled")
	}
	// The session still works.
	if _, err := tool.Call(context.Background(), "echo", json.RawMessage(`{"text":"again"}`)); err != nil {
		t.Errorf("after the cancel: %v", err)
	}
}

// TestRoundTrip: a generated tool served by NewServer, used again as a Tool
// through NewTool (in memory) and HTTPTool (streamable HTTP), has the same
// functions and parameters and gives the same results.
func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	for _, tr := range []string{"memory", "http"} {
		t.Run(tr, func(t *testing.T) {
			orig := newMockTool(t, newStore("Hello", "World"))
			var tool *mcpbridge.Tool
			switch tr {
			case "memory":
				s, err := mcpbridge.NewServer(ctx, orig, nil)
				if err != nil {
					t.Fatal(err)
				}
				tool = memoryTool(t, s)
			case "http":
				h, err := mcpbridge.NewHTTPHandler(ctx, orig, nil, false)
				if err != nil {
					t.Fatal(err)
				}
				srv := httptest.NewServer(h)
				t.Cleanup(srv.Close)
				if tool, err = mcpbridge.HTTPTool(ctx, srv.URL, nil); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { tool.Close() })
			}
			want, err := orig.Load(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tool.Load(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got.Info.Title != want.Info.Title || got.Info.Version != want.Info.Version {
				t.Errorf("info %+v, want %+v", got.Info, want.Info)
			}
			if again, _ := tool.Load(ctx); again != got {
				t.Errorf("Load: a new document for the same listing")
			}
			if len(got.Functions) != len(want.Functions) {
				t.Fatalf("%d functions, want %d", len(got.Functions), len(want.Functions))
			}
			for _, wf := range want.Functions {
				gf := function(t, got, wf.Name)
				if gf.Description != wf.Description {
					t.Errorf("%s: description %q, want %q", wf.Name, gf.Description, wf.Description)
				}
				if diff := cmp.Diff(paramShapes(t, want, wf.Parameters), paramShapes(t, got, gf.Parameters)); diff != "" {
					t.Errorf("%s: parameters (-want +got):\n%s", wf.Name, diff)
				}
			}

			for _, c := range []struct{ name, args string }{
				{"read", `{"id":1}`},
				{"create", `{"text":"again"}`},
				{"count", `{}`},
				{"update", `{"id":0,"text":"Hi"}`},
				{"delete", `{"id":2}`},
				{"read", `{"id":9}`},
				{"run", `{}`},
				{"update", `{"id":"zero","text":7}`},
				{"nope", `{}`},
			} {
				// The original first, then the same call through MCP, which
				// repeats its effect (create, delete) on the same store.
				wr, werr := orig.Call(ctx, c.name, json.RawMessage(c.args))
				gr, gerr := tool.Call(ctx, c.name, json.RawMessage(c.args))
				if (werr == nil) != (gerr == nil) {
					t.Errorf("%s %s: error %v, want %v", c.name, c.args, gerr, werr)
					continue
				}
				if werr != nil {
					we := &runtime.Error{Code: runtime.CodeToolError, Message: werr.Error()} // as an OpenTool server answers it
					errors.As(werr, &we)
					var ge *runtime.Error
					if !errors.As(gerr, &ge) || we.Code != ge.Code || we.Message != ge.Message {
						t.Errorf("%s %s: error %v, want %v", c.name, c.args, gerr, werr)
					}
					continue
				}
				if c.name == "create" {
					wr = json.RawMessage(`{"Id":3}`) // the second create
				}
				if len(wr) == 0 {
					wr = json.RawMessage(`{}`)
				}
				if diff := cmp.Diff(asJSON(t, wr), asJSON(t, gr)); diff != "" {
					t.Errorf("%s %s: result (-want +got):\n%s", c.name, c.args, diff)
				}
			}
			res, err := tool.Call(ctx, "sequentiallyRead", nil)
			if err != nil || string(res) != `{"items":[{"text":"Hi"},{"text":"World"},{"text":"again"}]}` {
				t.Errorf("sequentiallyRead: %s, %v", res, err)
			}
		})
	}
}

// shape is what a parameter's schema must keep through MCP.
type shape struct {
	Name     string
	Required bool
	Type     string
	Items    string
	Props    []string
}

func paramShapes(t *testing.T, doc *document.OpenTool, params []document.Parameter) []shape {
	t.Helper()
	var out []shape
	for _, p := range params {
		s, err := doc.Resolve(p.Schema)
		if err != nil {
			t.Fatal(err)
		}
		sh := shape{Name: p.Name, Required: p.Required, Type: s.Type}
		if s.Items != nil {
			it, _ := doc.Resolve(s.Items)
			sh.Items = it.Type
		}
		for _, m := range s.Properties {
			sh.Props = append(sh.Props, m.Name)
		}
		slices.Sort(sh.Props)
		out = append(out, sh)
	}
	return out
}

// TestCommandTool starts this test binary as an MCP server on stdio (see
// TestMain) and uses it as a Tool.
func TestCommandTool(t *testing.T) {
	ctx := context.Background()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), stdioEnv+"=1")
	cmd.Stderr = os.Stderr
	tool, err := mcpbridge.CommandTool(ctx, cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer tool.Close()
	doc, err := tool.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Info.Title != "CRUD API for mock" || len(doc.Functions) != 7 {
		t.Errorf("document %q with %d functions, want the mock's 7", doc.Info.Title, len(doc.Functions))
	}
	client := openTool(t, tool)
	ret, err := client.Call(ctx, runtime.FunctionCall{Name: "read", Arguments: json.RawMessage(`{"id":1}`)})
	if err != nil || string(ret.Result) != `{"text":"World"}` {
		t.Errorf("read: %s, %v", ret.Result, err)
	}
	_, err = client.Call(ctx, runtime.FunctionCall{Name: "read", Arguments: json.RawMessage(`{"id":7}`)})
	if e := (*runtime.Error)(nil); !errors.As(err, &e) || e.Code != 404 {
		t.Errorf("read 7: %v, want a 404", err)
	}
	if err := tool.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if cmd.ProcessState == nil {
		t.Errorf("the server process has not ended after Close")
	}
	_, err = tool.Call(ctx, "read", json.RawMessage(`{"id":1}`))
	if e := (*runtime.Error)(nil); !errors.As(err, &e) || e.Code != 502 {
		t.Errorf("after Close: %v, want a 502", err)
	}
}

// TestSchemaImport converts schemas as other SDKs write them (Pydantic's
// Optional, definitions, recursion) and what the model cannot carry.
func TestSchemaImport(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "schemas", Version: "1"}, nil)
	noop := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	}
	s.AddTool(&mcp.Tool{Name: "a", InputSchema: json.RawMessage(`{
	  "type": "object",
	  "properties": {
	    "tree": {"$ref": "#/$defs/Node", "description": "A tree."},
	    "maybe": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null},
	    "either": {"type": ["string", "integer"]},
	    "old": {"$ref": "#/definitions/Old"},
	    "wrapped": {"allOf": [{"$ref": "#/$defs/Color"}]},
	    "kind": {"const": "fixed"},
	    "pair": {"type": "array", "prefixItems": [{"type": "string"}], "items": false},
	    "odd": {"not": {"type": "string"}},
	    "remote": {"$ref": "https://example.com/schema.json"},
	    "map": {"type": "object", "additionalProperties": {"type": "number", "exclusiveMinimum": 0}}
	  },
	  "$defs": {
	    "Node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}},
	    "Color": {"type": "string", "enum": ["red", "green"]}
	  },
	  "definitions": {"Old": {"type": "boolean"}}
	}`)}, noop)
	s.AddTool(&mcp.Tool{Name: "b", InputSchema: json.RawMessage(`{
	  "type": "object",
	  "properties": {"c": {"$ref": "#/$defs/Color"}, "n": {"$ref": "#/$defs/Node"}},
	  "$defs": {
	    "Color": {"type": "string", "enum": ["red", "green"]},
	    "Node": {"type": "integer"}
	  }
	}`)}, noop)
	doc, err := memoryTool(t, s).Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := `{
	  "a": [
	    {"name": "either", "schema": {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "required": false},
	    {"name": "kind", "schema": {"enum": ["fixed"]}, "required": false},
	    {"name": "map", "schema": {"type": "object", "additionalProperties": {"type": "number", "exclusiveMinimum": 0}}, "required": false},
	    {"name": "maybe", "schema": {"type": "integer", "nullable": true, "default": null}, "required": false},
	    {"name": "odd", "schema": {}, "required": false},
	    {"name": "old", "schema": {"$ref": "#/schemas/Old"}, "required": false},
	    {"name": "pair", "schema": {"type": "array"}, "required": false},
	    {"name": "remote", "schema": {}, "required": false},
	    {"name": "tree", "description": "A tree.", "schema": {"$ref": "#/schemas/Node"}, "required": false},
	    {"name": "wrapped", "schema": {"$ref": "#/schemas/Color"}, "required": false}
	  ],
	  "b": [
	    {"name": "c", "schema": {"$ref": "#/schemas/Color"}, "required": false},
	    {"name": "n", "schema": {"$ref": "#/schemas/Node2"}, "required": false}
	  ]
	}`
	got := map[string]any{}
	for _, f := range doc.Functions {
		got[f.Name] = f.Parameters
	}
	if diff := cmp.Diff(asJSON(t, want), asJSON(t, got)); diff != "" {
		t.Errorf("parameters (-want +got):\n%s", diff)
	}
	wantSchemas := `{
	  "Color": {"type": "string", "enum": ["red", "green"]},
	  "Node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/schemas/Node"}}}},
	  "Node2": {"type": "integer"},
	  "Old": {"type": "boolean"}
	}`
	if diff := cmp.Diff(asJSON(t, wantSchemas), asJSON(t, doc.Schemas)); diff != "" {
		t.Errorf("schemas (-want +got):\n%s", diff)
	}
	// The document is one an OpenTool server serves and its client reads.
	if _, err := openTool(t, memoryTool(t, s)).Load(context.Background()); err != nil {
		t.Errorf("/load: %v", err)
	}
}
