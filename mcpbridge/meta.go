package mcpbridge

import (
	"context"
	"sort"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// meta is the intercept.Metadata of an MCP request's _meta: its string
// members by exact key. Set adds to the map it holds, made on the first Set
// when there is none.
type meta struct{ m *mcp.Meta }

func (md meta) Get(key string) string {
	s, _ := (*md.m)[key].(string)
	return s
}

func (md meta) Set(key, value string) {
	if *md.m == nil {
		*md.m = mcp.Meta{}
	}
	(*md.m)[key] = value
}

func (md meta) Keys() []string {
	keys := make([]string, 0, len(*md.m))
	for k, v := range *md.m {
		if _, ok := v.(string); ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// WithInterceptors runs ics around each tools/call the server serves
// (runtime.Intercept), with the request's _meta as metadata
// (intercept.Call.Meta; Front intercept.FrontMCP). With a
// intercept.Propagator set, the call's context is read from
// _meta.traceparent and _meta.tracestate, else from the HTTP request's
// traceparent and tracestate headers, interceptors or not.
func WithInterceptors(ics ...intercept.Func) Option {
	return func(c *config) { c.interceptors = append(c.interceptors, ics...) }
}

// intercepted reports whether tool runs interceptors (runtime.Intercept).
func intercepted(tool runtime.Tool) bool {
	it, ok := tool.(interface{ Interceptors() []intercept.Func })
	return ok && len(it.Interceptors()) > 0
}

// incoming returns ctx with the metadata of req for the tool's
// interceptors (metered: it has some) and, with a intercept.Propagator set,
// the call context it carries (extractTraceContext).
func incoming(ctx context.Context, req *mcp.CallToolRequest, metered bool) context.Context {
	if !metered && !intercept.Propagating() {
		return ctx
	}
	var m mcp.Meta
	if req != nil && req.Params != nil {
		m = req.Params.Meta
	}
	md := meta{&m}
	if metered {
		in := intercept.Incoming{Front: intercept.FrontMCP, Meta: md}
		if req != nil && req.Session != nil {
			in.Session = req.Session.ID() // "" when stateless
		}
		ctx = intercept.WithIncoming(ctx, in)
	}
	return extractTraceContext(ctx, req, md)
}

// extractTraceContext returns ctx with the call context of a tools/call:
// that of its _meta.traceparent (and _meta.tracestate), else, over
// streamable HTTP, that of the HTTP request's traceparent and tracestate
// headers, which an HTTP client instrumented with OpenTelemetry sends.
func extractTraceContext(ctx context.Context, req *mcp.CallToolRequest, md meta) context.Context {
	if md.Get("traceparent") == "" && req != nil && req.Extra != nil && req.Extra.Header.Get("traceparent") != "" {
		return intercept.ExtractMetadata(ctx, intercept.HeaderMetadata(req.Extra.Header))
	}
	return intercept.ExtractMetadata(ctx, md)
}

// outgoing sets the _meta of a tools/call from ctx: the metadata of
// intercept.WithOutgoingMetadata and, with a intercept.Propagator set, the call
// context (traceparent, tracestate).
func outgoing(ctx context.Context, params *mcp.CallToolParams) {
	md := meta{&params.Meta}
	if out := intercept.OutgoingMetadata(ctx); out != nil {
		for _, k := range out.Keys() {
			md.Set(k, out.Get(k))
		}
	}
	if intercept.Propagating() {
		intercept.InjectMetadata(ctx, md)
	}
}

// Front names the transport of the Tool's calls, intercept.FrontMCP: what
// the interceptors of runtime.InterceptCaller(runtime.Local(tool)) see as
// intercept.Call.Front.
func (t *Tool) Front() string { return intercept.FrontMCP }
