package mcpbridge

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
	"github.com/opentoolgen/opentoolgen/internal/mcpschema"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Tool is an MCP server as a [runtime.Tool], the other way round from
// [NewServer]: serve it with runtime.NewHandler to put an MCP server behind
// OpenTool HTTP (what the reference project opentool-server-mcp-http does),
// list it for an LLM with declare.Plain, or call it from Go: a generated
// package's typed client over runtime.Local(tool) calls the MCP server's tools
// of the same names.
//
// Load lists the server's tools (tools/list, every page, each time; the same
// listing gives the same *document.OpenTool) as a document with one function per
// tool:
//
//   - its name is the tool's, its description the tool's description, else its
//     title, else the title of its annotations;
//   - its parameters are the properties of the tool's inputSchema, required as
//     "required" says, the required ones first (the SDK's client reads the
//     schema into a map, so the server's order of the others is lost: they come
//     in name order). Each JSON Schema becomes a [document.Schema] as far as the
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
//     package puts in its _meta ("opentool/error"), or -32601 and -32602
//     when the text is another SDK's for an unknown tool or invalid
//     arguments (see errors.go);
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
	session atomic.Pointer[mcp.ClientSession]
	redial  *redial // how HTTPTool opens a new session; nil for the others
	name    string  // what messages call the server
	cfg     toolConfig

	mu      sync.Mutex
	listing []byte // the JSON of the last tools/list
	doc     *document.OpenTool
	hints   map[string]document.Hints // the annotations of the last tools/list, by tool
}

var _ runtime.HintTool = (*Tool)(nil)

// Return names of the functions of a Tool's document.
const (
	resultKey = mcpschema.ResultKey // an object return, or a structuredContent that is not an object
	textKey   = mcpschema.TextKey   // the text of a result without structuredContent
)

// Defaults of [ListLimits]: what a Tool accepts of one tools/list, all its
// pages together. Real servers list tens to a few hundred tools in one page
// (the SDK's servers page by 1,000); a language model is given at most a
// few hundred functions. The limits leave a hundred times that room and keep
// the listing's cost in tens of megabytes.
const (
	DefaultMaxListPages = 1000     // requests of one listing
	DefaultMaxListTools = 10000    // tools of one listing
	DefaultMaxListBytes = 16 << 20 // JSON of the tools of one listing
)

// DefaultMaxMessageBytes is the largest message a Tool made by [HTTPTool] or
// [CommandTool] reads from the server unless [WithMaxMessageBytes] says
// otherwise: the SDK's own bound on a stdio line and an SSE event
// (mcp.DefaultMaxLineLength).
const DefaultMaxMessageBytes = mcp.DefaultMaxLineLength

// ListLimits bound what a Tool accepts of a server's tools/list: a server
// that pages without end, or lists more than the limits, is refused with an
// error (a 502 naming the limit), not followed until the deadline. A zero
// field is its default (DefaultMaxListPages, DefaultMaxListTools,
// DefaultMaxListBytes), a negative one no limit. A cursor the server has
// already given in the same listing is always an error.
type ListLimits struct {
	Pages int   // tools/list requests
	Tools int   // tools listed, those left out for their names included
	Bytes int64 // the tools' JSON, as the SDK decoded them
}

// ToolOption configures a Tool made by [NewTool], [CommandTool] or
// [HTTPTool].
type ToolOption func(*toolConfig)

type toolConfig struct {
	limits     ListLimits
	maxMessage int
	logger     *slog.Logger
}

// WithListLimits sets the bounds of a listing (see [ListLimits]).
func WithListLimits(l ListLimits) ToolOption { return func(c *toolConfig) { c.limits = l } }

// WithMaxMessageBytes bounds the size of one message a Tool made by
// [HTTPTool] or [CommandTool] reads from the server: a JSON response body,
// one event of an SSE stream, one line of the command's output. A longer one
// fails the request over HTTP — that call alone: an event of a tools/call's
// answer is read past, not held, and the session goes on — and the session
// over stdio (a stream of JSON lines has no way to skip it). Zero is
// DefaultMaxMessageBytes, negative no limit.
func WithMaxMessageBytes(n int) ToolOption { return func(c *toolConfig) { c.maxMessage = n } }

// WithToolLogger sets where a Tool reports the tools it leaves out of its
// document (nil: slog.Default()).
func WithToolLogger(l *slog.Logger) ToolOption { return func(c *toolConfig) { c.logger = l } }

func newToolConfig(opts []ToolOption) toolConfig {
	var c toolConfig
	for _, o := range opts {
		o(&c)
	}
	c.limits.Pages = limit(c.limits.Pages, DefaultMaxListPages, math.MaxInt)
	c.limits.Tools = limit(c.limits.Tools, DefaultMaxListTools, math.MaxInt)
	c.limits.Bytes = limit(c.limits.Bytes, DefaultMaxListBytes, math.MaxInt64)
	c.maxMessage = limit(c.maxMessage, DefaultMaxMessageBytes, -1) // the SDK's "no limit"
	if c.logger == nil {
		c.logger = slog.Default()
	}
	return c
}

// limit is n, or def when n is zero; negative is no limit (largest).
func limit[T int | int64](n, def, largest T) T {
	switch {
	case n == 0:
		return def
	case n < 0:
		return largest
	}
	return n
}

// NewTool returns the Tool of the MCP server session is connected to, and
// checks that it lists its tools (with ctx). Close closes the session.
func NewTool(ctx context.Context, session *mcp.ClientSession, opts ...ToolOption) (*Tool, error) {
	if session == nil {
		return nil, errors.New("mcpbridge: nil session")
	}
	return newTool(ctx, session, nil, opts)
}

func newTool(ctx context.Context, session *mcp.ClientSession, r *redial, opts []ToolOption) (*Tool, error) {
	t := &Tool{redial: r, name: "MCP server", cfg: newToolConfig(opts)}
	t.session.Store(session)
	if ir := session.InitializeResult(); ir != nil && ir.ServerInfo != nil && ir.ServerInfo.Name != "" {
		t.name += " " + strconv.Quote(clip(ir.ServerInfo.Name))
	}
	if _, err := t.Load(ctx); err != nil {
		return nil, err
	}
	return t, nil
}

// clientImpl names the client of CommandTool and HTTPTool to servers.
var clientImpl = &mcp.Implementation{Name: "opentoolgen-mcpbridge", Version: "1.0.0"}

// CommandTool starts cmd as an MCP server on its standard input and output
// (as mcp.CommandTransport does; cmd's Stdin and Stdout must be unset) and
// returns its Tool. Close ends the session: it closes the command's standard
// input and waits for it to exit (terminating it after 5 seconds, killing it
// after 5 more). When the command exits, the calls under way and every later
// one fail at once (502), also when a process it started (npx, uvx, a shell
// script) keeps its output open: what it wrote is read for a second more.
// Each line read is bounded ([WithMaxMessageBytes]).
func CommandTool(ctx context.Context, cmd *exec.Cmd, opts ...ToolOption) (*Tool, error) {
	cfg := newToolConfig(opts)
	return connectTool(ctx, &commandTransport{cmd: cmd, maxLine: cfg.maxMessage}, opts)
}

// HTTPTool connects to the MCP server at url over streamable HTTP with
// httpClient (nil: http.DefaultClient) and returns its Tool. Close ends the
// session. Each message read is bounded ([WithMaxMessageBytes]).
//
// A server may end a session (an idle timeout, a restart): it then answers
// HTTP 404 to the session's id, and the Tool opens a new session (a new
// initialize, then tools/list, so that the document and the hints are the
// server's of now) and sends the request that met the 404 again, in it:
//
//   - only a request the server certainly did not run is sent again: one it
//     answered 404, or one that met the end of the session before it was
//     sent. A call under way when the session ended (its POST accepted) may
//     have run: it fails (502, saying so) and the next request opens the
//     new session;
//   - a request opens at most one session and is sent at most twice: a
//     server that ends each new session at once, or fails to open one, gives
//     each request a 502 naming the cause, never a loop;
//   - the requests that meet the end of one session share the opening of
//     the next, which runs apart from them (a request waits for it within its
//     own context; the opening is bounded by 30 seconds and by Close);
//   - a server that does not answer (refused connections, a connection
//     cut, an HTTP error other than 404) is not given a new session: the
//     calls fail at once (502), as they do when a CommandTool's command
//     exits.
//
// The client declares MCP's tasks extension ([TasksExtension]): a call the
// server answers with a task is followed to its end (tasks/get at the
// server's poll interval, Mcp-Name set to the task's id) and returns the
// task's result; when the call's context ends, the task is cancelled
// (tasks/cancel).
//
// [Tool.Session] is the session of the moment. A Tool of [NewTool] does not
// open new sessions: it does not know the transport of its session.
func HTTPTool(ctx context.Context, url string, httpClient *http.Client, opts ...ToolOption) (*Tool, error) {
	cfg := newToolConfig(opts)
	watch := &sessionWatch{}
	hc := boundedClient(httpClient, int64(cfg.maxMessage))
	hc = &http.Client{
		Transport:     taskTransport{sessionTransport{cmp.Or[http.RoundTripper](hc.Transport, http.DefaultTransport), watch}, cfg.maxMessage},
		CheckRedirect: hc.CheckRedirect,
		Jar:           hc.Jar,
		Timeout:       hc.Timeout,
	}
	client := NewClient(clientImpl, &mcp.ClientOptions{Capabilities: taskCapabilities()})
	connect := func(ctx context.Context) (*mcp.ClientSession, error) {
		return client.Connect(ctx, &mcp.StreamableClientTransport{
			Endpoint:     url,
			HTTPClient:   hc,
			MaxEventSize: cfg.maxMessage,
		}, nil)
	}
	cs, err := connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("mcpbridge: connecting to the MCP server: %w", err)
	}
	r := newRedial(ctx, watch, connect)
	t, err := newTool(ctx, cs, r, opts)
	if err != nil {
		r.close()
		cs.Close()
		return nil, err
	}
	return t, nil
}

func connectTool(ctx context.Context, transport mcp.Transport, opts []ToolOption) (*Tool, error) {
	cs, err := NewClient(clientImpl, nil).Connect(ctx, transport, nil)
	if err != nil {
		return nil, fmt.Errorf("mcpbridge: connecting to the MCP server: %w", err)
	}
	t, err := NewTool(ctx, cs, opts...)
	if err != nil {
		cs.Close()
		return nil, err
	}
	return t, nil
}

// RunsTasks reports whether the Tool runs, for a plain call of function,
// the task its server may answer with ([TaskRunner]): true for a Tool of
// [HTTPTool], whose client declares the tasks extension and follows the
// tasks; false for the others, whose clients do not declare it.
func (t *Tool) RunsTasks(function string) bool { return t.redial != nil }

// Session returns the MCP client session the Tool calls: for a Tool of
// [HTTPTool], the one of the moment (it opens another when the server ends
// it).
func (t *Tool) Session() *mcp.ClientSession { return t.session.Load() }

// Close closes the session (and for CommandTool ends the command); for a
// Tool of HTTPTool it first ends the opening of a new session under way.
func (t *Tool) Close() error {
	if t.redial != nil {
		t.redial.close()
	}
	return t.session.Load().Close()
}

// Load lists the server's tools and returns them as an OpenTool document. A
// server without tools (one that does not know tools/list) has a document
// without functions.
//
// A listing beyond the Tool's [ListLimits], or whose pages come round to a
// cursor again, is an error. A tool whose name is not an OpenTool function
// name (document.IsFunctionName: 1 to 64 of a-z, A-Z, 0-9, _ and -, the rule
// the generator applies to the same listing), or which repeats the name of
// an earlier one, is left out of the document with a warning (logged once
// per listing that differs from the last); Call refuses such a name as an
// unknown function without asking the server.
func (t *Tool) Load(ctx context.Context) (*document.OpenTool, error) {
	var (
		tools   []listed
		session *mcp.ClientSession
	)
	err := t.withSession(ctx, "tools/list", func(ctx context.Context, s *mcp.ClientSession) (err error) {
		tools, err = t.list(ctx, s)
		session = s
		return err
	})
	if err != nil {
		var re *runtime.Error
		if errors.As(err, &re) {
			return nil, re
		}
		return nil, t.upstream(ctx, "tools/list", err)
	}
	return t.keep(tools, session), nil
}

// keep makes tools, the listing of session, the Tool's document and hints,
// and returns the document.
func (t *Tool) keep(tools []listed, session *mcp.ClientSession) *document.OpenTool {
	var (
		kept    []*mcp.Tool
		dropped []string // warnings
		seen    = map[string]bool{}
		listing = []byte{'['}
	)
	for _, lt := range tools {
		tool := lt.tool
		switch {
		case !document.IsFunctionName(tool.Name):
			dropped = append(dropped, fmt.Sprintf("the name %s (%d bytes) is not an OpenTool function name: want 1 to 64 of a-z, A-Z, 0-9, _ and -", strconv.Quote(clip(tool.Name)), len(tool.Name)))
			continue
		case seen[tool.Name]:
			dropped = append(dropped, "a second tool is named "+strconv.Quote(tool.Name))
			continue
		}
		seen[tool.Name] = true
		if len(kept) > 0 {
			listing = append(listing, ',')
		}
		listing = append(listing, lt.json...)
		kept = append(kept, tool)
	}
	listing = append(listing, ']')
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.doc != nil && bytes.Equal(listing, t.listing) {
		return t.doc
	}
	for _, d := range dropped {
		t.cfg.logger.Warn("mcpbridge: a tool of the "+t.name+" is left out: "+d, "server", t.name)
	}
	t.doc, t.listing = t.document(listing, session), listing
	t.hints = map[string]document.Hints{}
	for _, tool := range kept {
		if a := tool.Annotations; a != nil {
			h := document.Hints{Destructive: a.DestructiveHint, OpenWorld: a.OpenWorldHint}
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
	return t.doc
}

// errListLimit is the error of a listing beyond the Tool's ListLimits.
var errListLimit = errors.New("the listing exceeds the client's limits")

// listed is a tool of a listing and its JSON.
type listed struct {
	tool *mcp.Tool
	json []byte
}

// list returns every tool of the server's tools/list, page after page,
// within the Tool's limits; none for a server that does not know tools/list.
func (t *Tool) list(ctx context.Context, session *mcp.ClientSession) ([]listed, error) {
	var (
		tools   []listed
		size    int64
		cursors = map[string]bool{}
		params  = &mcp.ListToolsParams{}
		l       = t.cfg.limits
	)
	for page := 1; ; page++ {
		res, err := session.ListTools(ctx, params)
		if err != nil {
			var je *jsonrpc.Error
			if page == 1 && errors.As(err, &je) && je.Code == jsonrpc.CodeMethodNotFound {
				return nil, nil
			}
			return nil, err
		}
		if len(tools)+len(res.Tools) > l.Tools {
			return nil, fmt.Errorf("%w: more than %d tools (page %d)", errListLimit, l.Tools, page)
		}
		for _, tool := range res.Tools {
			b, err := json.Marshal(tool)
			if err != nil {
				return nil, err
			}
			if size += int64(len(b)); size > l.Bytes {
				return nil, fmt.Errorf("%w: more than %d bytes of tools (page %d)", errListLimit, l.Bytes, page)
			}
			tools = append(tools, listed{tool, b})
		}
		next := res.NextCursor
		if next == "" {
			return tools, nil
		}
		if cursors[next] || next == params.Cursor {
			return nil, fmt.Errorf("the server gave the cursor %s again (page %d): its pagination does not end", strconv.Quote(clip(next)), page)
		}
		if page >= l.Pages {
			return nil, fmt.Errorf("%w: more than %d pages", errListLimit, l.Pages)
		}
		cursors[next] = true
		params = &mcp.ListToolsParams{Cursor: next}
	}
}

// clip shortens a name or cursor from a server for a message: its first 64
// bytes (whole UTF-8 sequences), "…" when there were more.
func clip(s string) string {
	if len(s) <= 64 {
		return s
	}
	cut := 64
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Hints returns the hints of the server's tool named function, from the
// annotations of its last tools/list (runtime.HintTool): served again
// through this package, the tool keeps them.
func (t *Tool) Hints(function string) (document.Hints, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	h, ok := t.hints[function]
	return h, ok
}

// document converts listing, the JSON of the server's tools, with the
// server's info (of session).
func (t *Tool) document(listing []byte, session *mcp.ClientSession) *document.OpenTool {
	var info document.Info
	if ir := session.InitializeResult(); ir != nil {
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
	if progress := progressOf(ctx); progress != nil {
		token, end := watch(&streamCall{progress: progress})
		defer end()
		params.SetProgressToken(token)
	}
	res, err := t.call(ctx, name, params)
	if err != nil {
		return nil, err
	}
	return result(ctx, res)
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
	if !document.IsFunctionName(name) {
		// Not a function of the document: left out of it, or never listed.
		return nil, runtime.MethodNotFound(clip(name))
	}
	var (
		res     *mcp.CallToolResult
		session *mcp.ClientSession
	)
	outgoing(ctx, params)
	what := "tools/call " + strconv.Quote(name)
	err := t.withSession(ctx, what, func(ctx context.Context, s *mcp.ClientSession) (err error) {
		res, err = s.CallTool(ctx, params)
		session = s
		return err
	})
	if err != nil {
		var (
			je *jsonrpc.Error
			re *runtime.Error
		)
		if errors.As(err, &re) {
			return nil, re // withSession's
		}
		if errors.As(err, &je) && ctx.Err() == nil && !transportError(je) {
			if je.Code == jsonrpc.CodeInvalidParams && !t.lists(ctx, session, name) {
				return nil, runtime.MethodNotFound(name)
			}
			return nil, &runtime.Error{Code: int(je.Code), Message: je.Message, Data: validJSON(je.Data)}
		}
		return nil, t.upstream(ctx, what, err)
	}
	if res == nil {
		return nil, t.upstream(ctx, what, errNoResult)
	}
	if res.IsError {
		return res, callError(name, res)
	}
	return res, nil
}

// transportError reports whether je is the SDK's own error for a request
// its transport could not deliver (jsonrpc2.ErrRejected, of an internal
// package: -32005 "rejected by transport", wrapping the cause, such as a
// server gone): the server did not answer it.
func transportError(je *jsonrpc.Error) bool {
	return je.Code == -32005 && je.Message == "rejected by transport"
}

// lists reports whether the server lists a tool named name in session (true
// when it cannot tell).
func (t *Tool) lists(ctx context.Context, session *mcp.ClientSession, name string) bool {
	tools, err := t.list(ctx, session)
	if err != nil {
		return true
	}
	for _, lt := range tools {
		if lt.tool.Name == name {
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
	if errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		what += ": the connection to the server has ended"
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
	raw, ours := res.Meta[errorKey]
	if !ours {
		if code, msg := protocolCode(name, e.Message); code != 0 {
			e.Code, e.Message = code, msg
		}
	}
	if ours {
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

// result is the result object of res; its content goes to the destination
// of ctx when there is one (content.With), and is then left out of
// the object.
func result(ctx context.Context, res *mcp.CallToolResult) (json.RawMessage, error) {
	given, err := giveContent(ctx, res)
	if err != nil {
		return nil, err
	}
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
		if given {
			break
		}
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

// boundedClient returns a copy of c (nil: http.DefaultClient) whose
// responses other than event streams (the SDK bounds each event of those)
// fail past n bytes: the SDK reads a JSON response whole.
func boundedClient(c *http.Client, n int64) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	if n < 0 {
		return c
	}
	bc := *c
	rt := cmp.Or[http.RoundTripper](c.Transport, http.DefaultTransport)
	bc.Transport = boundedTransport{rt, n}
	return &bc
}

type boundedTransport struct {
	http.RoundTripper
	n int64
}

func (b boundedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := b.RoundTripper.RoundTrip(r)
	if err != nil || resp.Body == nil || strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return resp, err
	}
	if resp.ContentLength > b.n {
		resp.Body.Close()
		return nil, fmt.Errorf("the response of %d bytes is longer than the client's limit of %d bytes", resp.ContentLength, b.n)
	}
	resp.Body = &boundedBody{resp.Body, b.n}
	return resp, nil
}

// boundedBody fails once more than its limit is read.
type boundedBody struct {
	io.ReadCloser
	left int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, errTooLong
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	if b.left -= int64(n); b.left < 0 {
		return 0, errTooLong
	}
	return n, err
}

var errTooLong = errors.New("the response is longer than the client's limit (mcpbridge.WithMaxMessageBytes)")
