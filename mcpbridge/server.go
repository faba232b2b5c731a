// Package mcpbridge serves any [runtime.Tool] — a generated package's *Tool, a
// runtime.RemoteTool, a Tool of your own — as a Model Context Protocol server,
// over stdio ([ServeStdio]) or streamable HTTP ([NewHTTPHandler]), with the
// official MCP Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// Each function of the served document (what the tool's Load returns, options
// applied) is one MCP tool of the same name:
//
//   - inputSchema is the function's parameters as one object schema, exactly the
//     parameters of its LLM declaration ([declare.Plain]): references to
//     the document's schemas point into "$defs".
//   - outputSchema is the schema of the result object the OpenTool server
//     answers on /call: an object return is the object itself, a scalar or
//     array return R named N is {"N": R}, no return is {}.
//   - tools/call answers that result object as structuredContent and as one
//     text content holding the same JSON; when the tool put content on the
//     call's context (content.With: a gateway to an MCP server puts
//     the upstream's images, audio, resource links), that content instead,
//     as it came (content.go). A tool's content.ReportProgress reaches a
//     client that sent a progress token.
//   - Arguments that are header parameters of the API behind the tool
//     (runtime.HeaderTool) are marked x-mcp-header (headers.go).
//   - Invalid arguments (-32602, the message naming every JSON path) and errors
//     the tool returns are results with isError: true and the error's message
//     as text, so that a model can correct its call (a REST API's error adds
//     the API's own message, bounded: "HTTP 404 Not Found: non existing id",
//     apimessage.go); the error object
//     ({"code", "message", "data"}) is in the result's _meta under
//     "opentool/error". Only an unknown tool, or arguments that are not a JSON
//     object, are protocol errors.
//   - A streaming function (runtime.StreamTool; Function.IsStream) sends each
//     item as a notifications/progress when the client sent a progress token
//     (progress counts the items, message is the item's JSON, _meta
//     "opentool/item" the item itself), and its result holds every item:
//     structuredContent {"items": [item, …]}, at most WithMaxResultBytes of
//     them (4 MiB; beyond, the stream is cancelled and the call ends with an
//     error result, code 413). An error ends the call with isError; the items
//     sent before it are in its _meta "opentool/items" too (a client may see
//     notifications after the result). A client that asks for the items as
//     notifications only (_meta {"opentool/stream": "progress"} beside its
//     progress token, as the clients of NewClient do) gets {"items": []} with
//     _meta {"opentool/count": N} instead, N the items sent, also in an error
//     result: nothing is collected, whatever the stream's length.
//   - A client's cancellation (notifications/cancelled, or over stateless
//     HTTP the request going away, whatever the protocol version: cause
//     ErrRequestEnded) cancels the call's context, and so does
//     the server's end: [HTTPHandler.Close], the end of [ServeStdio]'s
//     context, or of the context of [WithStopContext] (the SDK does not
//     cancel the calls of a session it closes: it waits for them). Then the
//     call's context.Cause is ErrServerStopped (or that context's cause), and
//     a call that fails once its server has stopped is answered with an
//     error result of code 503.
//
// Tool annotations are the tool's hints when it is a [runtime.HintTool]: the
// *Tool of a package generated from OpenAPI gives each operation the hints of
// its HTTP method ([document.MethodHints]: GET and HEAD readOnlyHint, DELETE
// destructiveHint and idempotentHint, PUT idempotentHint, all openWorldHint).
// [WithAnnotations] replaces them for one function; the others have none.
//
// The tool's document is loaded once, when the server is built.
//
// Long-running calls run as tasks (MCP's tasks extension, [TasksExtension],
// SEP-2663 of the 2026-07-28 specification) for a client that declares it:
// the functions whose document says execution.taskSupport "optional" or
// "required", and those of [WithTasks] ([TaskOptions]: Functions, After,
// Max, MaxPerOwner, MaxBytes, MaxOwnerBytes, TTL, PollInterval). The server
// answers tasks/get and tasks/cancel; a task answers only the session (and
// user) that created it; tools/list says each function's taskSupport as the
// server serves it. A full store answers the retryable [CodeTasksFull]. [HTTPTool]
// follows the tasks it is answered with: it polls tasks/get and returns the
// task's result as the call's, and cancels the task when the call's context
// ends.
//
// Interceptors ([WithInterceptors]) run around each tools/call with its
// _meta as metadata (intercept.Call.Meta, Front intercept.FrontMCP). With a
// intercept.Propagator set (otelbridge.Install), a call's trace context is
// read from _meta.traceparent and _meta.tracestate (over streamable HTTP,
// from the request's traceparent and tracestate headers when _meta has no
// traceparent), and [Tool] writes the caller's there, as the 2026-07-28
// specification carries it.
//
// The other way round, [Tool] is any MCP server as a runtime.Tool ([NewTool]
// over a session, [CommandTool] over stdio, [HTTPTool] over streamable HTTP):
// its tools become functions, their input schemas the parameters, so that an
// MCP server can be served over OpenTool HTTP with runtime.Serve.
package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/internal/inflight"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/content"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// Keys of the results and _meta members this package writes.
const (
	itemsKey = declare.ItemsKey // structuredContent of a streaming function's result
	errorKey = "opentool/error" // _meta of an error result: the error object
	itemKey  = "opentool/item"  // _meta of a progress notification: the item
	// streamedKey is the _meta of a streaming call's error result: the items
	// sent before the error, as progress notifications may reach a client
	// after the result.
	streamedKey = "opentool/items"
	// countKey is the _meta of a streaming call's result when its items went
	// as progress notifications only: how many were sent.
	countKey = "opentool/count"
	// streamModeKey is the _meta of a tools/call by which a client that
	// routes progress notifications (NewClient) asks for the items as
	// notifications only (streamModeProgress), not in the result too.
	streamModeKey      = "opentool/stream"
	streamModeProgress = "progress"
)

// DefaultMaxResultBytes is the most bytes of items the result of a streaming
// call carries over MCP unless WithMaxResultBytes says otherwise: 4 MiB, so
// that the result, which holds them twice (structuredContent and its text),
// stays within the 16 MiB an SDK client reads in one event.
const DefaultMaxResultBytes = 4 << 20

// WithMaxResultBytes bounds the bytes of items the result of a streaming
// call collects (default DefaultMaxResultBytes; 0 or less: no bound). A
// stream beyond it is cancelled and answered with an error result (code 413)
// whose _meta "opentool/items" holds the items before it. A client of
// NewClient is not bounded: it takes the items from the progress
// notifications, and the result only counts them.
func WithMaxResultBytes(n int) Option { return func(c *config) { c.maxResultBytes = n } }

// Option configures a server built by [NewServer], [ServeStdio] or
// [NewHTTPHandler].
type Option func(*config)

type config struct {
	server       mcp.ServerOptions
	http         mcp.StreamableHTTPOptions
	annotations  map[string]*mcp.ToolAnnotations
	valueHeaders map[string]string // WithCallValueHeaders: header → call value name

	// The bounds of NewHTTPHandler (httpfront.go) and of streams.
	maxSessions       int
	sessionTimeout    time.Duration
	sessionTimeoutSet bool
	maxBatch          int
	readTimeout       time.Duration
	writeTimeout      time.Duration
	origins           []string // lower case
	maxResultBytes    int
	stop              context.Context // WithStopContext; nil: none
	interceptors      []intercept.Func
	tasks             *TaskOptions // WithTasks; nil: the document's taskSupport only
}

// ErrServerStopped is the cause (context.Cause) of the context of a call
// cut off because its server stopped: [HTTPHandler.Close], or the end of the
// context given to [ServeStdio].
var ErrServerStopped = errors.New("mcpbridge: the MCP server stopped")

// closeWait bounds the time the end of a server waits for the calls it
// cancelled to return (HTTPHandler.Close, ServeStdio): a tool that ignores
// its context cannot hold the server's owner for longer.
const closeWait = 2 * time.Second

// WithStopContext ties the calls of the server to ctx: when ctx ends, the
// context of every call under way ends too (its cause is ctx's cause), and
// later calls are answered with an error result (code 503) without running.
// This is how the owner of a server from [NewServer] stops the calls of its
// sessions: the SDK's ServerSession.Close does not cancel them, it waits for
// them.
func WithStopContext(ctx context.Context) Option { return func(c *config) { c.stop = ctx } }

// newConfig returns the configuration opts make from the defaults.
func newConfig(opts []Option) *config {
	c := &config{maxSessions: DefaultMaxSessions, sessionTimeout: DefaultSessionTimeout, maxBatch: DefaultMaxBatch,
		readTimeout: DefaultReadTimeout, writeTimeout: DefaultWriteTimeout, maxResultBytes: DefaultMaxResultBytes}
	for _, o := range opts {
		o(c)
	}
	return c
}

// WithCallValueHeaders fills call values (runtime.WithCallValues: the
// {name} placeholders of default and fixed argument values) from the HTTP
// headers of streamable-HTTP requests, header name → value name, as
// runtime.WithCallValueHeaders does for OpenTool HTTP. They win over the
// values of the call's _meta.
func WithCallValueHeaders(headers map[string]string) Option {
	return func(c *config) {
		if c.valueHeaders == nil {
			c.valueHeaders = map[string]string{}
		}
		for h, n := range headers {
			c.valueHeaders[h] = n
		}
	}
}

// callContext returns ctx with the call values of req: the string members of
// its _meta without a prefix ({"trace_id": "t-1"}: how an MCP client passes
// the agent platform's identifiers), then the headers of
// WithCallValueHeaders.
func (b *bridge) callContext(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	ctx = incoming(ctx, req, b.metered)
	var values map[string]string
	put := func(k, v string) {
		if values == nil {
			values = map[string]string{}
		}
		values[k] = v
	}
	if req.Params != nil {
		for k, v := range req.Params.Meta {
			// Prefixed keys ("io.modelcontextprotocol/…") are the protocol's.
			if s, ok := v.(string); ok && !strings.Contains(k, "/") {
				put(k, s)
			}
		}
	}
	if req.Extra != nil && req.Extra.Header != nil {
		for h, n := range b.cfg.valueHeaders {
			if v := req.Extra.Header.Get(h); v != "" {
				put(n, v)
			}
		}
	}
	if values == nil {
		return ctx
	}
	return runtime.WithCallValues(ctx, values)
}

// WithServerOptions sets the SDK's server options (instructions, logger,
// keep-alive, …). The logger, when set, also logs the tool's panics.
func WithServerOptions(o *mcp.ServerOptions) Option {
	return func(c *config) {
		if o != nil {
			c.server = *o
		}
	}
}

// WithHTTPOptions sets the SDK's streamable HTTP options for [NewHTTPHandler]
// (its Stateless member is NewHTTPHandler's argument).
func WithHTTPOptions(o *mcp.StreamableHTTPOptions) Option {
	return func(c *config) {
		if o != nil {
			c.http = *o
		}
	}
}

// WithAnnotations sets the annotations (read-only, destructive, idempotent
// hints, …) of the tool of the function named function, instead of those of
// the tool's hints (nil: none). Building the server fails when the document
// has no such function.
func WithAnnotations(function string, a *mcp.ToolAnnotations) Option {
	return func(c *config) {
		if c.annotations == nil {
			c.annotations = map[string]*mcp.ToolAnnotations{}
		}
		c.annotations[function] = a
	}
}

// NewServer returns an MCP server with one tool per function of tool's
// document, which it loads now (with ctx). impl names the server to clients; nil
// takes the document's title and version.
func NewServer(ctx context.Context, tool runtime.Tool, impl *mcp.Implementation, opts ...Option) (*mcp.Server, error) {
	s, _, err := newServer(ctx, tool, impl, newConfig(opts))
	return s, err
}

// newServer returns the server of tool and the bridge its tools call
// through.
func newServer(ctx context.Context, tool runtime.Tool, impl *mcp.Implementation, cfg *config) (*mcp.Server, *bridge, error) {
	if tool == nil {
		return nil, nil, errors.New("mcpbridge: nil tool")
	}
	runner, _ := tool.(TaskRunner)
	tool = runtime.Intercept(tool, cfg.interceptors...)
	doc, err := tool.Load(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("mcpbridge: loading the tool's document: %w", err)
	}
	if doc == nil {
		doc = &document.OpenTool{}
	}
	if impl == nil {
		impl = &mcp.Implementation{Name: doc.Info.Title, Version: doc.Info.Version}
		if impl.Name == "" {
			impl.Name = "opentool"
		}
	}
	known := map[string]bool{}
	for i := range doc.Functions {
		known[doc.Functions[i].Name] = true
	}
	for name := range cfg.annotations {
		if !known[name] {
			return nil, nil, fmt.Errorf("mcpbridge: annotations for %s: the document has no such function", strconv.Quote(name))
		}
	}
	st, _ := tool.(runtime.StreamTool)
	ht, _ := tool.(runtime.HintTool)
	b := &bridge{tool: tool, stream: st, logger: cfg.server.Logger, cfg: cfg, metered: intercepted(tool)}
	stop := cfg.stop
	if stop == nil {
		stop = context.Background()
	}
	b.stopped, b.stop = context.WithCancelCause(stop)
	if b.logger == nil {
		b.logger = slog.Default()
	}
	decls := declare.Plain(doc)
	type entry struct {
		t *mcp.Tool
		h mcp.ToolHandler
	}
	entries := make([]entry, 0, len(doc.Functions))
	for i := range doc.Functions {
		f := &doc.Functions[i]
		t := &mcp.Tool{
			Name:         f.Name,
			Description:  f.Description,
			InputSchema:  headerSchema(decls[i].Parameters, headerParameters(tool, f.Name)),
			OutputSchema: declare.OutputSchema(doc, f),
			Title:        f.Title,
			Annotations:  annotations(cfg, ht, f),
		}
		var h mcp.ToolHandler
		if f.IsStream() {
			if st == nil {
				return nil, nil, fmt.Errorf("mcpbridge: function %s streams its results but the tool is not a runtime.StreamTool", strconv.Quote(f.Name))
			}
			h = b.streamHandler(f.Name)
		} else {
			h = b.callHandler(f.Name)
		}
		entries = append(entries, entry{t, h})
	}
	ts, err := newTasks(doc, cfg.tasks, b.stopped, runner)
	if err != nil {
		return nil, nil, err
	}
	opts := ts.serverOptions(cfg.server)
	s := mcp.NewServer(impl, &opts)
	for _, e := range entries {
		s.AddTool(e.t, e.h)
	}
	if ts != nil {
		if err := ts.install(s); err != nil {
			return nil, nil, err
		}
	}
	return s, b, nil
}

// annotations returns the annotations of the tool of function f: those
// WithAnnotations set, else the tool's hints, else the document's (from an
// MCP listing), else none.
func annotations(cfg *config, ht runtime.HintTool, f *document.Function) *mcp.ToolAnnotations {
	if a, ok := cfg.annotations[f.Name]; ok {
		return a
	}
	var (
		h  document.Hints
		ok bool
	)
	if ht != nil {
		h, ok = ht.Hints(f.Name)
	}
	if !ok && f.Hints != nil {
		h, ok = *f.Hints, true
	}
	if !ok {
		return nil
	}
	a := &mcp.ToolAnnotations{}
	if h.ReadOnly != nil {
		a.ReadOnlyHint = *h.ReadOnly
	}
	if h.Destructive != nil {
		a.DestructiveHint = new(*h.Destructive)
	}
	if h.Idempotent != nil {
		a.IdempotentHint = *h.Idempotent
	}
	if h.OpenWorld != nil {
		a.OpenWorldHint = new(*h.OpenWorld)
	}
	return a
}

// ServeStdio serves tool as an MCP server on standard input and output until
// ctx is done or the client closes the connection. A malformed line from the
// client is answered with an error and the session goes on; a line is at
// most DefaultMaxLineBytes (see [StdioTransport]).
//
// When ctx ends, the calls under way are cancelled (their context's cause is
// ErrServerStopped) and ServeStdio returns ctx's error once they have
// returned, or 2 seconds after, whichever comes first: a tool that ignores its
// context cannot hold it. When the client closes the connection, the calls
// under way complete first.
func ServeStdio(ctx context.Context, tool runtime.Tool, impl *mcp.Implementation, opts ...Option) error {
	s, b, err := newServer(ctx, tool, impl, newConfig(opts))
	if err != nil {
		return err
	}
	defer b.stop(ErrServerStopped)
	ss, err := s.Connect(ctx, &StdioTransport{}, nil)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case err := <-ended:
		return err
	case <-ctx.Done():
	}
	b.stop(ErrServerStopped)
	go ss.Close() // returns once the calls have
	t := time.NewTimer(closeWait)
	defer t.Stop()
	select {
	case <-ended:
	case <-t.C:
		return fmt.Errorf("mcpbridge: %w; %d calls did not return within %v of their cancellation", ctx.Err(), b.calls.Count(), closeWait)
	}
	return ctx.Err()
}

// NewHTTPHandler returns the http.Handler serving tool as an MCP server over
// streamable HTTP; mount it where clients connect (for example at "/mcp").
// A stateless handler keeps no session between requests, so that it can run
// as N replicas behind a load balancer without affinity: the MCP 2026-07-28
// form, which has no sessions. It answers every POST on its own (an
// Mcp-Session-Id header, from a replica that initialized a session with an
// older client, is ignored: never 404); GET (the standing stream) and DELETE
// are 405, which clients of the earlier versions take as "no such stream".
// It cannot send requests to the client, but progress notifications of a
// streaming call still reach it on the call's own response stream. A tool
// bridged here needs no session: it sends no requests to the client and its
// tools do not change. A stateful handler (false) keeps each session in this
// process and answers 404 to a session it does not know; behind a load
// balancer it needs session affinity. In both modes a call's context ends
// when the client cancels it; stateless, also when its HTTP request ends
// (cause ErrRequestEnded), which is how a client of a version before
// 2026-07-28 cancels there: its notifications/cancelled reaches no session.
//
// What hostile or broken clients can take is bounded, each bound an Option:
//
//   - Origin: a request with an Origin header that is neither the server's
//     own, nor a loopback one, nor one of WithAllowedOrigins is answered 403
//     (as the MCP specification requires); one without is served. A Host that
//     is not loopback on a loopback address is 403 too (the SDK's check).
//   - Deadlines: a request body must arrive within WithReadTimeout (30 s;
//     else 408), and each write (an answer, each event of a stream) take at
//     most WithWriteTimeout (30 s): a client that stops reading is cut off and
//     the call streaming to it cancelled. The handler sets them on its
//     connections itself, as runtime.NewHandler does.
//   - Bodies: at most the SDK's MaxRequestBodyBytes (4 MiB; else 413).
//   - Batches (protocol versions before 2025-06-18; the SDK refuses them
//     after): at most WithMaxBatch messages (16; else 400 with a JSON-RPC
//     error -32600, and none of them handled).
//   - Sessions (stateful): at most WithMaxSessions at once (1,000; one more is
//     503 with Retry-After and a JSON-RPC error -32000), each closed after
//     WithSessionTimeout without a POST (30 minutes). Stateless, every POST
//     is a session while it runs: WithMaxSessions bounds the POSTs under way. A session has at most
//     one standalone GET stream (the SDK answers 409 to a second), which ends
//     with it. Close cancels the calls under way and closes every session,
//     waiting 2 seconds at most for calls that ignore their cancellation.
//   - Streaming results: WithMaxResultBytes (4 MiB), see the package doc.
func NewHTTPHandler(ctx context.Context, tool runtime.Tool, impl *mcp.Implementation, stateless bool, opts ...Option) (*HTTPHandler, error) {
	cfg := newConfig(opts)
	s, b, err := newServer(ctx, tool, impl, cfg)
	if err != nil {
		return nil, err
	}
	hopts := cfg.http
	hopts.Stateless = stateless
	// A stateless client cannot reach the call's session with
	// notifications/cancelled: the end of its HTTP request is the cancellation.
	hopts.PropagateRequestCancellation = true
	if cfg.sessionTimeoutSet || hopts.SessionTimeout == 0 {
		hopts.SessionTimeout = max(cfg.sessionTimeout, 0)
	}
	maxBody := hopts.MaxRequestBodyBytes
	if maxBody == 0 {
		maxBody = mcp.DefaultMaxRequestBodyBytes
	}
	return &HTTPHandler{
		sdk:       mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &hopts),
		server:    s,
		bridge:    b,
		cfg:       cfg,
		stateless: stateless,
		maxBody:   maxBody,
	}, nil
}

type bridge struct {
	tool    runtime.Tool
	stream  runtime.StreamTool
	logger  *slog.Logger
	cfg     *config
	metered bool // tool runs interceptors: calls carry their _meta as metadata

	// stopped ends when the server stops (stop, or the end of
	// WithStopContext's context): every call's context ends with it.
	stopped context.Context
	stop    context.CancelCauseFunc
	calls   inflight.Counter // the calls under way

	// requests are the contexts of the stateless POSTs under way, by the
	// number HTTPHandler gives each in requestHeader: a client of a version
	// before 2026-07-28 cancels a call by ending its request (its
	// notifications/cancelled reaches no session), and the SDK does not
	// cancel the call then.
	requests    sync.Map // string → context.Context
	nextRequest atomic.Uint64
}

// requestHeader carries the number of a stateless POST from HTTPHandler to
// the call it makes (HTTPHandler sets it, whatever the client sent).
const requestHeader = "X-Mcpbridge-Request"

// ErrRequestEnded is the cause of a call's cancellation when the HTTP
// request that carries it to a stateless handler ends before its answer.
var ErrRequestEnded = errors.New("mcpbridge: the client's request ended")

// begin starts a call whose context is ctx: it returns the context the call
// runs with, which also ends when the bridge stops, and the function to call
// when the call has returned. ok is false when the bridge has stopped: the
// call must not run.
func (b *bridge) begin(ctx context.Context, req *mcp.CallToolRequest) (_ context.Context, end func(), ok bool) {
	if b.stopped.Err() != nil {
		return nil, nil, false
	}
	b.calls.Add(1)
	ctx, cancel := context.WithCancelCause(ctx)
	unhook := context.AfterFunc(b.stopped, func() { cancel(context.Cause(b.stopped)) })
	unhookRequest := func() bool { return false }
	if req != nil && req.Extra != nil && req.Extra.Header != nil {
		if id := req.Extra.Header.Get(requestHeader); id != "" {
			if rctx, ok := b.requests.Load(id); ok {
				unhookRequest = context.AfterFunc(rctx.(context.Context), func() { cancel(ErrRequestEnded) })
			}
		}
	}
	return ctx, func() {
		unhook()
		unhookRequest()
		cancel(nil)
		b.calls.Add(-1)
	}, true
}

// stoppedResult is the answer to a call the server's end cut off or
// refused.
func (b *bridge) stoppedResult(name string) *mcp.CallToolResult {
	return errorResult(&runtime.Error{Code: http.StatusServiceUnavailable,
		Message: fmt.Sprintf("the server stopped: %s did not complete (%v)", strconv.Quote(name), context.Cause(b.stopped))})
}

func (b *bridge) callHandler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		ctx, end, ok := b.begin(ctx, req)
		if !ok {
			return b.stoppedResult(name), nil
		}
		defer end()
		args, err := arguments(req.Params.Arguments)
		if err != nil {
			return nil, err
		}
		defer b.recoverPanic(name, &res, &err)
		var got []content.Item
		cctx := content.With(b.callContext(ctx, req), &got)
		cctx = content.WithProgress(cctx, progressFunc(ctx, req))
		result, err := b.tool.Call(cctx, name, args)
		if err != nil {
			if b.stopped.Err() != nil && ctx.Err() != nil {
				return b.stoppedResult(name), nil
			}
			return failure(name, err)
		}
		if result, err = checkResult(result); err != nil {
			return failure(name, err)
		}
		if res, err = answer(result, got); err != nil {
			return failure(name, err)
		}
		return res, nil
	}
}

func (b *bridge) streamHandler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		ctx, end, ok := b.begin(ctx, req)
		if !ok {
			return b.stoppedResult(name), nil
		}
		defer end()
		args, err := arguments(req.Params.Arguments)
		if err != nil {
			return nil, err
		}
		defer b.recoverPanic(name, &res, &err)
		token := req.Params.GetProgressToken()
		// progressOnly: the client takes the items from the notifications
		// alone; the result only counts them.
		progressOnly := token != nil && req.Params.Meta[streamModeKey] == streamModeProgress
		limit := b.cfg.maxResultBytes
		var (
			mu    sync.Mutex
			done  bool
			n     int
			items bytes.Buffer
		)
		if !progressOnly {
			items.WriteString(`{"` + itemsKey + `":[`)
		}
		emit := func(item json.RawMessage) error {
			item, err := checkResult(item)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			if done {
				return errors.New("mcpbridge: emit called after the stream ended")
			}
			if !progressOnly {
				if limit > 0 && items.Len()+len(item)+3 > limit {
					return &runtime.Error{Code: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf(
						"the items of the stream exceed %d bytes, the most one MCP result carries: the items sent before are in _meta %q", limit, streamedKey)}
				}
				if n > 0 {
					items.WriteByte(',')
				}
				items.Write(item)
			}
			n++
			if token == nil {
				return nil
			}
			return req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token,
				Progress:      float64(n),
				Message:       string(item),
				Meta:          mcp.Meta{itemKey: item},
			})
		}
		// The progress token carries the items: no other progress.
		cctx := content.WithProgress(content.With(b.callContext(ctx, req), nil), nil)
		err = b.stream.StreamCall(cctx, name, args, emit)
		mu.Lock()
		done = true
		mu.Unlock()
		if err != nil {
			res, err := failure(name, err)
			if b.stopped.Err() != nil && ctx.Err() != nil {
				res, err = b.stoppedResult(name), nil
			}
			switch {
			case res == nil || n == 0:
			case progressOnly:
				res.Meta[countKey] = n
			default:
				sent := append(bytes.Clone(items.Bytes()[len(`{"`+itemsKey+`":`):]), ']')
				res.Meta[streamedKey] = json.RawMessage(sent)
			}
			return res, err
		}
		if progressOnly {
			result := json.RawMessage(`{"` + itemsKey + `":[]}`)
			return &mcp.CallToolResult{
				Meta:              mcp.Meta{countKey: n},
				Content:           []mcp.Content{&mcp.TextContent{Text: string(result)}},
				StructuredContent: result,
			}, nil
		}
		items.WriteString("]}")
		result := json.RawMessage(items.Bytes())
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(result)}},
			StructuredContent: result,
		}, nil
	}
}

// recoverPanic turns a panic of the tool into an error result, as the OpenTool
// server does (-32603, without the tool's internals).
func (b *bridge) recoverPanic(name string, res **mcp.CallToolResult, err *error) {
	if v := recover(); v != nil {
		b.logger.Error("mcpbridge: the tool panicked", "function", name, "panic", fmt.Sprint(v))
		*res, *err = errorResult(runtime.InternalError("internal error: the tool failed while calling "+strconv.Quote(name))), nil
	}
}

// arguments returns the raw arguments of a call: nil when there are none, an
// invalid-params protocol error when they are not a JSON object.
func arguments(raw json.RawMessage) (json.RawMessage, error) {
	t := bytes.TrimLeft(raw, " \t\r\n")
	if len(t) == 0 || string(bytes.TrimRight(t, " \t\r\n")) == "null" {
		return nil, nil
	}
	if t[0] != '{' {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tools/call: arguments must be a JSON object"}
	}
	return raw, nil
}

var errNotObject = runtime.InternalError("internal error: the tool returned a result that is not a JSON object")

// checkResult returns the result object a tool returned ({} for none), with
// invalid UTF-8 replaced, or an internal error when it is not a JSON object.
func checkResult(result json.RawMessage) (json.RawMessage, error) {
	if len(result) == 0 {
		return json.RawMessage("{}"), nil
	}
	if t := bytes.TrimLeft(result, " \t\r\n"); len(t) == 0 || t[0] != '{' || !json.Valid(result) {
		return nil, errNotObject
	}
	if !utf8.Valid(result) {
		result = json.RawMessage(strings.ToValidUTF8(string(result), "\uFFFD"))
	}
	return result, nil
}

// failure answers an error of the tool: a result with isError, except for an
// unknown function, which is a protocol error as tools/call of an unknown
// tool is.
func failure(name string, err error) (*mcp.CallToolResult, error) {
	var e *runtime.Error
	if !errors.As(err, &e) || e == nil {
		e = &runtime.Error{Code: runtime.CodeToolError, Message: err.Error()}
	}
	if e.Code == runtime.CodeMethodNotFound {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %s: %s", strconv.Quote(name), e.Message)}
	}
	return errorResult(e), nil
}

func errorResult(e *runtime.Error) *mcp.CallToolResult {
	msg := e.Message
	if msg == "" {
		msg = "error " + strconv.Itoa(e.Code)
	}
	code := e.Code
	if code == 0 {
		code = runtime.CodeToolError
	}
	wire := &runtime.Error{Code: code, Message: e.Message, Data: e.Data}
	if len(wire.Data) > 0 && !json.Valid(wire.Data) {
		wire.Data = nil
	}
	return &mcp.CallToolResult{
		Meta:    mcp.Meta{errorKey: wire},
		Content: []mcp.Content{&mcp.TextContent{Text: errorText(e, msg)}},
		IsError: true,
	}
}
