package mcpbridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// listTools returns the tools the client lists, by name.
func listTools(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		out[tool.Name] = tool
	}
	return out
}

func TestList(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			mock := newMockTool(t, newStore())
			tools := listTools(t, connect(t, tr, mock, nil))
			var names []string
			for n := range tools {
				names = append(names, n)
			}
			slices.Sort(names)
			if want := []string{"count", "create", "delete", "read", "run", "sequentiallyRead", "update"}; !slices.Equal(names, want) {
				t.Fatalf("names: got %v, want %v", names, want)
			}
			// Each input schema is the function's declared parameters.
			for _, d := range declare.Plain(mock.Document()) {
				if diff := cmp.Diff(asJSON(t, d.Parameters), asJSON(t, tools[d.Name].InputSchema)); diff != "" {
					t.Errorf("%s: inputSchema differs from the declaration (-want +got):\n%s", d.Name, diff)
				}
				if tools[d.Name].Description != d.Description {
					t.Errorf("%s: description %q, want %q", d.Name, tools[d.Name].Description, d.Description)
				}
			}
			for name, want := range map[string]string{
				// a scalar return R named N is {"N": R}
				"count": `{"type":"object","properties":{"Count":{"$ref":"#/$defs/Count","description":"Storage size"}},"required":["Count"],
					"$defs":{"Count":{"type":"integer"}}}`,
				// no return: {}
				"run": `{"type":"object"}`,
				// a stream: every item
				"sequentiallyRead": `{"type":"object","required":["items"],"properties":{"items":{"type":"array","items":
					{"type":"object","properties":{"text":{"$ref":"#/$defs/Text","description":"Text in storage"}},"required":["text"]}}},
					"$defs":{"Text":{"type":"string"}}}`,
			} {
				if diff := cmp.Diff(asJSON(t, want), asJSON(t, tools[name].OutputSchema)); diff != "" {
					t.Errorf("%s: outputSchema (-want +got):\n%s", name, diff)
				}
			}

			tools = listTools(t, connect(t, tr, newPets(t), nil))
			// Required and optional parameters, a $ref'd schema in $defs.
			want := `{"type":"object","properties":{
				"name":{"type":"string","description":"The pet's name."},
				"tag":{"$ref":"#/$defs/Tag"}},
				"required":["name"],
				"$defs":{"Tag":{"type":"string","enum":["cat","dog"]}}}`
			if diff := cmp.Diff(asJSON(t, want), asJSON(t, tools["addPet"].InputSchema)); diff != "" {
				t.Errorf("addPet: inputSchema (-want +got):\n%s", diff)
			}
			// An object return is the object itself, its reference resolved.
			want = `{"type":"object","description":"The new pet.","properties":{
				"id":{"type":"integer"},"name":{"type":"string"},"tag":{"$ref":"#/$defs/Tag"}},
				"required":["id","name"],
				"$defs":{"Tag":{"type":"string","enum":["cat","dog"]}}}`
			if diff := cmp.Diff(asJSON(t, want), asJSON(t, tools["addPet"].OutputSchema)); diff != "" {
				t.Errorf("addPet: outputSchema (-want +got):\n%s", diff)
			}
			if tools["addPet"].Annotations != nil {
				t.Errorf("addPet: annotations %+v, want none", tools["addPet"].Annotations)
			}
		})
	}
}

// openToolCall answers what the OpenTool server's POST /call answers for a
// call of name with args: the result object, or the error object.
func openToolCall(t *testing.T, tool runtime.Tool, name, args string) (result, errObj json.RawMessage) {
	t.Helper()
	srv := httptest.NewServer(runtime.NewHandler(tool))
	defer srv.Close()
	body := `{"jsonrpc":"2.0","method":` + string(must(json.Marshal(name))) + `,"params":` + args + `,"id":1}`
	resp, err := http.Post(srv.URL+"/opentool/call", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	if string(r.Error) == "null" {
		r.Error = nil
	}
	return r.Result, r.Error
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// validate checks v against the JSON Schema schema (as a client reads it).
func validate(t *testing.T, schema, v any) {
	t.Helper()
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem:///out.json", asJSON(t, schema)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem:///out.json")
	if err != nil {
		t.Fatalf("outputSchema does not compile: %v", err)
	}
	if err := s.Validate(asJSON(t, v)); err != nil {
		t.Errorf("structuredContent %s does not match the outputSchema: %v", must(json.Marshal(v)), err)
	}
}

func TestCall(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			mock := newMockTool(t, newStore("Hello", "World"))
			p := newPets(t)
			for _, c := range []struct {
				tool       runtime.Tool
				name, args string
				want       string
			}{
				{mock, "create", `{"text":"again"}`, `{"Id":2}`},
				{mock, "read", `{"id":1}`, `{"text":"World"}`},
				{mock, "count", `{}`, `{"Count":3}`},
				{mock, "update", `{"id":0,"text":"Hi"}`, `{}`},
				{p, "addPet", `{"name":"Rex","tag":"dog"}`, `{"id":7,"name":"Rex","tag":"dog"}`},
			} {
				cs := connect(t, tr, c.tool, nil)
				tools := listTools(t, cs)
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.name, Arguments: json.RawMessage(c.args)})
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				if res.IsError {
					t.Fatalf("%s: isError: %s", c.name, text(t, res))
				}
				if diff := cmp.Diff(asJSON(t, c.want), asJSON(t, res.StructuredContent)); diff != "" {
					t.Errorf("%s: structuredContent (-want +got):\n%s", c.name, diff)
				}
				if diff := cmp.Diff(asJSON(t, c.want), asJSON(t, text(t, res))); diff != "" {
					t.Errorf("%s: text content (-want +got):\n%s", c.name, diff)
				}
				validate(t, tools[c.name].OutputSchema, res.StructuredContent)
				// What /call answers for the same call (the mock store has changed by
				// then for create and update; read and count it again).
				if c.name == "read" || c.name == "addPet" {
					got, e := openToolCall(t, c.tool, c.name, c.args)
					if e != nil {
						t.Fatalf("/call: %s", e)
					}
					if diff := cmp.Diff(asJSON(t, got), asJSON(t, text(t, res))); diff != "" {
						t.Errorf("%s: MCP and /call differ (-/call +MCP):\n%s", c.name, diff)
					}
				}
			}
		})
	}
}

// errorMeta returns the error object an error result carries in its _meta.
func errorMeta(t *testing.T, res *mcp.CallToolResult) *runtime.Error {
	t.Helper()
	var e runtime.Error
	raw, ok := res.Meta["opentool/error"]
	if !ok {
		t.Fatalf("no opentool/error in _meta %v", res.Meta)
	}
	if err := json.Unmarshal(must(json.Marshal(raw)), &e); err != nil {
		t.Fatal(err)
	}
	return &e
}

func TestViolations(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			mock := newMockTool(t, newStore("Hello"))
			cs := connect(t, tr, mock, nil)
			args := `{"id":"zero","text":7}`
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "update", Arguments: json.RawMessage(args)})
			if err != nil {
				t.Fatalf("a violation is a result, not a protocol error: %v", err)
			}
			if !res.IsError {
				t.Fatalf("isError is false: %s", text(t, res))
			}
			_, wire := openToolCall(t, mock, "update", args)
			var want runtime.Error
			if err := json.Unmarshal(wire, &want); err != nil {
				t.Fatal(err)
			}
			msg := text(t, res)
			if msg != want.Message {
				t.Errorf("message %q, want /call's %q", msg, want.Message)
			}
			for _, path := range []string{"/id", "/text"} {
				if !strings.Contains(msg, path) {
					t.Errorf("message %q does not name %s", msg, path)
				}
			}
			e := errorMeta(t, res)
			if e.Code != runtime.CodeInvalidParams || len(e.Violations()) != 2 {
				t.Errorf("_meta error: code %d, violations %v; want -32602 and two", e.Code, e.Violations())
			}

			// A missing required argument.
			res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "create", Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			if !res.IsError || !strings.Contains(text(t, res), "/text") {
				t.Errorf("create without text: isError %v, %q; want an error naming /text", res.IsError, text(t, res))
			}
		})
	}
}

func TestToolErrors(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			cs := connect(t, tr, newMockTool(t, newStore()), nil)
			for _, c := range []struct {
				name, args string
				code       int
				msg        string
			}{
				{"run", `{}`, runtime.CodeToolError, "run failed: nothing to run"},
				{"read", `{"id":9}`, 404, "no text with id 9"},
			} {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.name, Arguments: json.RawMessage(c.args)})
				if err != nil {
					t.Fatalf("%s: a tool error is a result, not a protocol error: %v", c.name, err)
				}
				if !res.IsError || text(t, res) != c.msg {
					t.Errorf("%s: isError %v, %q; want true, %q", c.name, res.IsError, text(t, res), c.msg)
				}
				if res.StructuredContent != nil {
					t.Errorf("%s: structuredContent %v, want none", c.name, res.StructuredContent)
				}
				if e := errorMeta(t, res); e.Code != c.code || e.Message != c.msg {
					t.Errorf("%s: _meta error %+v, want code %d", c.name, e, c.code)
				}
			}

			// A panic is an internal error result; the server goes on.
			var logs bytes.Buffer
			var mu sync.Mutex
			cs = connect(t, tr, newPets(t), nil, mcpbridge.WithServerOptions(&mcp.ServerOptions{Logger: newLogger(&mu, &logs)}))
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "boom"})
			if err != nil {
				t.Fatal(err)
			}
			if !res.IsError || text(t, res) != `internal error: the tool failed while calling "boom"` {
				t.Errorf("boom: isError %v, %q", res.IsError, text(t, res))
			}
			mu.Lock()
			if !strings.Contains(logs.String(), "panicked") {
				t.Errorf("the panic was not logged: %q", logs.String())
			}
			mu.Unlock()
			if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "addPet", Arguments: map[string]any{"name": "Tom"}}); err != nil {
				t.Errorf("after the panic: %v", err)
			}
		})
	}
}

func TestProtocolErrors(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			cs := connect(t, tr, newMockTool(t, newStore()), nil)
			for _, c := range []struct {
				name string
				args any
			}{
				{"nope", map[string]any{}},               // an unknown tool
				{"create", json.RawMessage(`["again"]`)}, // arguments that are not an object
				{"create", json.RawMessage(`"again"`)},   // …
			} {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.name, Arguments: c.args})
				var je *jsonrpc.Error
				if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
					t.Errorf("%s %s: got %+v, %v; want a -32602 protocol error", c.name, must(json.Marshal(c.args)), res, err)
				}
			}

			// A function of the document that the tool answers -32601 for is an
			// unknown tool too.
			p := newPets(t)
			p.doc.Functions = append(p.doc.Functions, document.Function{Name: "ghost", Parameters: []document.Parameter{}})
			cs = connect(t, tr, p, nil)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ghost"})
			var je *jsonrpc.Error
			if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, `"ghost"`) {
				t.Errorf("ghost: got %+v, %v; want a -32602 protocol error naming it", res, err)
			}
		})
	}
}

func TestStream(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			notes := newProgressLog()
			cs := connect(t, tr, newMockTool(t, newStore("a", "b", "c")), notes.add)
			tools := listTools(t, cs)
			params := &mcp.CallToolParams{Name: "sequentiallyRead", Arguments: map[string]any{}}
			params.SetProgressToken("tok-1")
			res, err := cs.CallTool(context.Background(), params)
			if err != nil {
				t.Fatal(err)
			}
			want := `{"items":[{"text":"a"},{"text":"b"},{"text":"c"}]}`
			if res.IsError {
				t.Fatalf("isError: %s", text(t, res))
			}
			if diff := cmp.Diff(asJSON(t, want), asJSON(t, res.StructuredContent)); diff != "" {
				t.Errorf("structuredContent (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(asJSON(t, want), asJSON(t, text(t, res))); diff != "" {
				t.Errorf("text content (-want +got):\n%s", diff)
			}
			validate(t, tools["sequentiallyRead"].OutputSchema, res.StructuredContent)
			got := notes.wait(t, 3)
			if len(got) != 3 {
				t.Fatalf("got %d progress notifications, want 3", len(got))
			}
			slices.SortFunc(got, func(a, b *mcp.ProgressNotificationParams) int { return int(a.Progress - b.Progress) })
			for i, p := range got {
				item := `{"text":"` + string(rune('a'+i)) + `"}`
				if p.ProgressToken != "tok-1" || p.Progress != float64(i+1) || p.Message != item {
					t.Errorf("notification %d: token %v, progress %v, message %q; want tok-1, %d, %s", i, p.ProgressToken, p.Progress, p.Message, i+1, item)
				}
				if diff := cmp.Diff(asJSON(t, item), asJSON(t, p.Meta["opentool/item"])); diff != "" {
					t.Errorf("notification %d: _meta item (-want +got):\n%s", i, diff)
				}
			}

			// Without a progress token: no notifications, the same result.
			res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "sequentiallyRead"})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(asJSON(t, want), asJSON(t, res.StructuredContent)); diff != "" {
				t.Errorf("without a token: structuredContent (-want +got):\n%s", diff)
			}
			// Then a call with a token: the client handles notifications in
			// the order they come, and any of the call without a token came
			// before its result, so before these.
			params.SetProgressToken("tok-2")
			if _, err := cs.CallTool(context.Background(), params); err != nil {
				t.Fatal(err)
			}
			for i, p := range notes.wait(t, 6)[3:] {
				if p.ProgressToken != "tok-2" {
					t.Errorf("notification %d after the first call: token %v, want tok-2 (the call without a token sent none)", i+1, p.ProgressToken)
				}
			}
		})
	}
}

func TestStreamError(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			s := newStore("a")
			s.FailStream = true
			cs := connect(t, tr, newMockTool(t, s), nil)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "sequentiallyRead"})
			if err != nil {
				t.Fatal(err)
			}
			if !res.IsError || text(t, res) != "the store broke down" {
				t.Errorf("isError %v, %q; want true, the tool's message", res.IsError, text(t, res))
			}
		})
	}
}

func TestCancel(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			p := newPets(t)
			cs := connect(t, tr, p, nil)
			t.Cleanup(func() { close(p.release) }) // before the server closes
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "block"})
				done <- err
			}()
			select {
			case <-p.started:
			case <-time.After(waitLong):
				t.Fatal("block was not called")
			}
			cancel()
			select {
			case err := <-p.cancelled:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("the call's context ended with %v, want context.Canceled", err)
				}
			case <-time.After(waitLong):
				t.Fatal("the call's context was not cancelled")
			}
			if err := <-done; !errors.Is(err, context.Canceled) { // returns at once on cancel
				t.Errorf("CallTool: %v, want context.Canceled", err)
			}
		})
	}
}

func TestOptions(t *testing.T) {
	ctx := context.Background()
	if _, err := mcpbridge.NewServer(ctx, newPets(t), nil, mcpbridge.WithAnnotations("nope", &mcp.ToolAnnotations{})); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("annotations of an unknown function: %v, want an error naming it", err)
	}
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true, Title: "Add"}
	cs := connect(t, "memory", newPets(t), nil, mcpbridge.WithAnnotations("addPet", ro))
	if got := listTools(t, cs)["addPet"].Annotations; got == nil || !got.ReadOnlyHint || got.Title != "Add" {
		t.Errorf("annotations: got %+v, want %+v", got, ro)
	}
	// A document that streams, served by a Tool that cannot.
	mock := newMockTool(t, newStore())
	if _, err := mcpbridge.NewServer(ctx, callOnly{mock}, nil); err == nil || !strings.Contains(err.Error(), "sequentiallyRead") {
		t.Errorf("a streaming function without StreamCall: %v, want an error naming it", err)
	}
	// The document cannot be loaded.
	if _, err := mcpbridge.NewServer(ctx, failingLoad{newPets(t)}, nil); err == nil || !strings.Contains(err.Error(), "no document today") {
		t.Errorf("a failing Load: %v, want its error", err)
	}
	if _, err := mcpbridge.NewHTTPHandler(ctx, failingLoad{newPets(t)}, nil, true); err == nil {
		t.Error("NewHTTPHandler: a failing Load: no error")
	}
	if _, err := mcpbridge.NewServer(ctx, nil, nil); err == nil {
		t.Error("a nil tool: no error")
	}
	// The implementation defaults to the document's title and version.
	server, err := mcpbridge.NewServer(ctx, newPets(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	c, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if info := c.InitializeResult().ServerInfo; info.Name != "pets" || info.Version != "2.0.0" {
		t.Errorf("server info %+v, want pets 2.0.0", info)
	}
}

// callOnly hides the StreamCall method of a tool.
type callOnly struct{ runtime.Tool }

// failingLoad is a tool whose document cannot be loaded.
type failingLoad struct{ runtime.Tool }

func (failingLoad) Load(context.Context) (*document.OpenTool, error) {
	return nil, errors.New("no document today")
}
