package mcpbridge

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/internal/mcpschema"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// Tool is an MCP server as a [runtime.Tool], the other way round from
// [NewServer]: serve it with runtime.NewHandler to put an MCP server behind
// OpenTool HTTP (what the reference project opentool-server-mcp-http does),
// list it for an LLM with runtime.Declarations, or call it from Go: a generated
// package's typed client over runtime.Local(tool) calls the MCP server's tools
// of the same names.
//
// Load lists the server's tools (tools/list, every page, each time; the same
// listing gives the same *runtime.OpenTool) as a document with one function per
// tool:
//
//   - its name is the tool's, its description the tool's description, else its
//     title, else the title of its annotations;
//   - its parameters are the properties of the tool's inputSchema, required as
//     "required" says, the required ones first (the SDK's client reads the
//     schema into a map, so the server's order of the others is lost: they come
//     in name order). Each JSON Schema becomes a [runtime.Schema] as far as the
//     OpenTool model carries it (type, ["T", "null"] and nullable, description,
//     enum and const, items, properties, required, format, default, bounds,
//     pattern, additionalProperties, anyOf and oneOf); what it cannot carry is
//     left out, at worst leaving a schema without type (any value), never an
//     error. Local references ($defs, definitions, any "#/…" pointer) become
//     entries of the document's schemas, shared by the tools that refer to the
//     same definition.
//   - its return is the result object the tool's outputSchema describes when
//     that is an object (named "result"); a tool with another outputSchema
//     returns "result" ({"result": value}); a tool without one returns "text",
//     a string ({"text": "…"}).
//
// The document's info is the server's (title or name, version, instructions
// as description). opentoolgen converts a saved tools/list result with the
// same code (internal/mcpschema), so a package generated from it has this
// document's types, and its typed client decodes what Call answers.
//
// Call calls the tool of that name (tools/call) and answers:
//
//   - structuredContent, when the result has it: an object as it is (the text
//     content itself when it holds the same JSON, so that numbers keep their
//     digits and members their order), anything else as {"result": value};
//   - otherwise {"text": "…"}, the result's text contents joined by newlines,
//     with "content": [...] holding every content as MCP sent it when some are
//     not text (images, audio, resources);
//   - a result with isError as a *runtime.Error with the text as message and
//     code 500, or the code and data of the error object a server of this
//     package puts in its _meta ("opentool/error");
//   - a protocol error as a *runtime.Error keeping its JSON-RPC code, except
//     that an unknown tool (-32602 from the SDK's servers) is -32601, method
//     not found, as an OpenTool server answers it;
//   - a server that cannot be reached, or has gone, as a 502 *runtime.Error
//     (Bad Gateway), as runtime.RemoteTool does.
//
// Cancelling Call's context cancels the MCP request (notifications/cancelled).
// Tool is a runtime.StreamTool (StreamCall, see stream.go): a streaming
// function of a server of this package, which the listing shows as a
// function returning {"items": […]}, streams its items, as they come when the
// session's client is one of NewClient (CommandTool and HTTPTool make such
// clients), else when the call ends; a tool of another server streams its
// result as its one item.
type Tool struct {
	session *mcp.ClientSession
	name    string // what messages call the server

	mu      sync.Mutex
	listing []byte // the JSON of the last tools/list
	doc     *runtime.OpenTool
	hints   map[string]runtime.Hints // the annotations of the last tools/list, by tool
}

var _ runtime.HintTool = (*Tool)(nil)

// Return names of the functions of a Tool's document.
const (
	resultKey = mcpschema.ResultKey // an object return, or a structuredContent that is not an object
	textKey   = mcpschema.TextKey   // the text of a result without structuredContent
)

// NewTool returns the Tool of the MCP server session is connected to, and
// checks that it lists its tools (with ctx). Close closes the session.
func NewTool(ctx context.Context, session *mcp.ClientSession) (*Tool, error) {
	if session == nil {
		return nil, errors.New("mcpbridge: nil session")
	}
	t := &Tool{session: session, name: "MCP server"}
	if ir := session.InitializeResult(); ir != nil && ir.ServerInfo != nil && ir.ServerInfo.Name != "" {
		t.name += " " + strconv.Quote(ir.ServerInfo.Name)
	}
	if _, err := t.Load(ctx); err != nil {
		return nil, err
	}
	return t, nil
}

// clientImpl names the client of CommandTool and HTTPTool to servers.
var clientImpl = &mcp.Implementation{Name: "opentoolgen-mcpbridge", Version: "1.0.0"}

// CommandTool starts cmd as an MCP server on its standard input and output
// (mcp.CommandTransport) and returns its Tool. Close ends the session: it
// closes the command's standard input and waits for it to exit (terminating it
// after 5 seconds).
func CommandTool(ctx context.Context, cmd *exec.Cmd) (*Tool, error) {
	return connectTool(ctx, &mcp.CommandTransport{Command: cmd})
}

// HTTPTool connects to the MCP server at url over streamable HTTP with
// httpClient (nil: http.DefaultClient) and returns its Tool. Close ends the
// session.
func HTTPTool(ctx context.Context, url string, httpClient *http.Client) (*Tool, error) {
	return connectTool(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: httpClient})
}

func connectTool(ctx context.Context, transport mcp.Transport) (*Tool, error) {
	cs, err := NewClient(clientImpl, nil).Connect(ctx, transport, nil)
	if err != nil {
		return nil, fmt.Errorf("mcpbridge: connecting to the MCP server: %w", err)
	}
	t, err := NewTool(ctx, cs)
	if err != nil {
		cs.Close()
		return nil, err
	}
	return t, nil
}

// Session returns the MCP client session the Tool calls.
func (t *Tool) Session() *mcp.ClientSession { return t.session }

// Close closes the session (and for CommandTool ends the command).
func (t *Tool) Close() error { return t.session.Close() }

// Load lists the server's tools and returns them as an OpenTool document. A
// server without tools (one that does not know tools/list) has a document
// without functions.
func (t *Tool) Load(ctx context.Context) (*runtime.OpenTool, error) {
	var tools []*mcp.Tool
	for tool, err := range t.session.Tools(ctx, nil) {
		if err != nil {
			var je *jsonrpc.Error
			if errors.As(err, &je) && je.Code == jsonrpc.CodeMethodNotFound {
				break
			}
			return nil, t.upstream(ctx, "tools/list", err)
		}
		tools = append(tools, tool)
	}
	listing, err := json.Marshal(tools)
	if err != nil {
		return nil, t.upstream(ctx, "tools/list", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.doc != nil && bytes.Equal(listing, t.listing) {
		return t.doc, nil
	}
	t.doc, t.listing = t.document(listing), listing
	t.hints = map[string]runtime.Hints{}
	for _, tool := range tools {
		if a := tool.Annotations; a != nil {
			h := runtime.Hints{Destructive: a.DestructiveHint, OpenWorld: a.OpenWorldHint}
			// MCP's readOnlyHint and idempotentHint are plain booleans: false
			// is also what an unsaid hint reads as.
			if a.ReadOnlyHint {
				h.ReadOnly = new(true)
			}
			if a.IdempotentHint {
				h.Idempotent = new(true)
			}
			t.hints[tool.Name] = h
		}
	}
	return t.doc, nil
}

// Hints returns the hints of the server's tool named function, from the
// annotations of its last tools/list (runtime.HintTool): served again
// through this package, the tool keeps them.
func (t *Tool) Hints(function string) (runtime.Hints, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	h, ok := t.hints[function]
	return h, ok
}

// document converts listing, the JSON of the server's tools, with the
// server's info.
func (t *Tool) document(listing []byte) *runtime.OpenTool {
	var info runtime.Info
	if ir := t.session.InitializeResult(); ir != nil {
		if si := ir.ServerInfo; si != nil {
			info.Title, info.Version = cmp.Or(si.Title, si.Name), si.Version
		}
		info.Description = ir.Instructions
	}
	tools, _ := jsontree.Parse(listing) // json.Marshal's output: it parses
	return mcpschema.Convert(info, tools, "", mcpschema.Options{}).Document
}

// Call calls the MCP tool name with args (a JSON object; nil for none).
func (t *Tool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	params := &mcp.CallToolParams{Name: name}
	if a := trimArgs(args); a != nil {
		params.Arguments = a
	}
	res, err := t.call(ctx, name, params)
	if err != nil {
		return nil, err
	}
	return result(res)
}

// trimArgs returns the arguments of a call, nil for none.
func trimArgs(args json.RawMessage) json.RawMessage {
	if a := bytes.TrimSpace(args); len(a) > 0 && string(a) != "null" {
		return args
	}
	return nil
}

// call calls a tool: its result, or the error a caller sees (an error result
// is a call error, returned with the result).
func (t *Tool) call(ctx context.Context, name string, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	res, err := t.session.CallTool(ctx, params)
	if err != nil {
		var je *jsonrpc.Error
		if errors.As(err, &je) && ctx.Err() == nil {
			if je.Code == jsonrpc.CodeInvalidParams && !t.lists(ctx, name) {
				return nil, runtime.MethodNotFound(name)
			}
			return nil, &runtime.Error{Code: int(je.Code), Message: je.Message, Data: validJSON(je.Data)}
		}
		return nil, t.upstream(ctx, "tools/call "+strconv.Quote(name), err)
	}
	if res == nil {
		return nil, t.upstream(ctx, "tools/call "+strconv.Quote(name), errNoResult)
	}
	if res.IsError {
		return res, callError(name, res)
	}
	return res, nil
}

// lists reports whether the server lists a tool named name (true when it
// cannot tell).
func (t *Tool) lists(ctx context.Context, name string) bool {
	for tool, err := range t.session.Tools(ctx, nil) {
		if err != nil {
			return true
		}
		if tool.Name == name {
			return true
		}
	}
	return false
}

// upstream is the error of a request the server did not answer: the caller's
// own cancellation as it is, anything else a 502.
func (t *Tool) upstream(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return &runtime.Error{Code: http.StatusBadGateway, Message: "upstream " + t.name + ": " + what + ": " + err.Error()}
}

func validJSON(b json.RawMessage) json.RawMessage {
	if len(b) == 0 || !json.Valid(b) {
		return nil
	}
	return b
}

func callError(name string, res *mcp.CallToolResult) *runtime.Error {
	e := &runtime.Error{Code: runtime.CodeToolError, Message: texts(res.Content)}
	if raw, ok := res.Meta[errorKey]; ok {
		var wire runtime.Error
		if b, err := json.Marshal(raw); err == nil && json.Unmarshal(b, &wire) == nil && wire.Code != 0 {
			e.Code, e.Data = wire.Code, validJSON(wire.Data)
			if wire.Message != "" {
				e.Message = wire.Message
			}
		}
	}
	if e.Message == "" {
		e.Message = "the MCP tool " + strconv.Quote(name) + " failed"
	}
	return e
}

// texts joins the text contents.
func texts(content []mcp.Content) string {
	var parts []string
	for _, c := range content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func result(res *mcp.CallToolResult) (json.RawMessage, error) {
	if sc := res.StructuredContent; sc != nil {
		b, err := json.Marshal(sc)
		if err != nil {
			return nil, runtime.InternalError("internal error: the MCP tool's structuredContent: " + err.Error())
		}
		if t := bytes.TrimSpace(b); len(t) == 0 || t[0] != '{' {
			return json.Marshal(map[string]json.RawMessage{resultKey: b})
		}
		// The SDK decodes structuredContent with float64 numbers: the text
		// content holding the same JSON keeps them exact.
		if len(res.Content) == 1 {
			if tc, ok := res.Content[0].(*mcp.TextContent); ok && sameJSON(tc.Text, sc) {
				return json.RawMessage(tc.Text), nil
			}
		}
		return b, nil
	}
	out := struct {
		Text    string        `json:"text"`
		Content []mcp.Content `json:"content,omitempty"`
	}{Text: texts(res.Content)}
	for _, c := range res.Content {
		if _, ok := c.(*mcp.TextContent); !ok {
			out.Content = res.Content
			break
		}
	}
	return json.Marshal(out)
}

// sameJSON reports whether text is a JSON object equal to v (as
// encoding/json decodes it).
func sameJSON(text string, v any) bool {
	t := strings.TrimSpace(text)
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	var got, want any
	if json.Unmarshal([]byte(t), &got) != nil {
		return false
	}
	b, err := json.Marshal(v)
	if err != nil || json.Unmarshal(b, &want) != nil {
		return false
	}
	return reflect.DeepEqual(got, want)
}
