// Package discover serves a tool set of any size to a model as three
// functions, so that a model finds the functions it needs instead of reading
// every declaration first ("progressive discovery"):
//
//   - search_tools {query, namespace, limit}: the functions whose names,
//     summaries, descriptions, HTTP paths and tags best match the words of
//     query (BM25, words of names split at camelCase, snake_case and
//     kebab-case, plurals and -ing/-ed stemmed, synonyms that matter for
//     APIs: create ~ add ~ new ~ open, list ~ all, delete ~ remove, update ~
//     edit ~ patch, repo ~ repository, my ~ authenticated …), best first:
//     {"tools": [{"name", "summary", "namespace", "method", "path"}],
//     "total"}. namespace keeps only the functions tagged with it (an
//     OpenAPI operation's tags, carried in the served document as
//     [document.Function.Tags]). With no query and no namespace it lists the
//     namespaces, {"namespaces": [{"name", "tools"}]}; with a namespace and
//     no query, that namespace's functions in document order.
//   - describe_tool {name}: the function as its direct declaration would
//     be: {"name", "description", "parameters" (the JSON Schema of its
//     arguments, [declare.Plain]' parameters), "streams", "tags",
//     "method", "path"}.
//   - call_tool {name, arguments}: calls the function with arguments,
//     through the wrapped tool itself, so that they are decoded, checked
//     and defaulted as a direct call's are and every error is the direct
//     call's, unchanged (a -32602 naming each JSON path of the arguments,
//     the tool's own errors), except for a name the wrapped tool does not
//     know or serve (its -32601): that is a -32602 at /name naming the
//     function asked for, with the closest match and search_tools
//     suggested (`/name: no function named "x"; did you mean "y"?
//     (search_tools finds functions)`), not a -32601, which a front would
//     report as call_tool itself being unknown. The result is the
//     function's result object; for a streaming function called with Call,
//     {"items": [item, …]} once the stream has ended (as [functions.Tool]
//     answers), while StreamCall of call_tool streams the items as they come.
//     arguments may also be a JSON string holding the object, which some
//     models send.
//
// [Wrap] returns the wrapped tool as a [runtime.StreamTool] and
// [runtime.HintTool] whose document has these three functions, so every
// front that serves a runtime.Tool serves the discovery mode with no code of
// its own: MCP (mcpbridge), OpenTool HTTP (runtime.Serve), NATS
// (natsbridge), functions.Load (agent frameworks) and declare.Functions
// (LLM declarations). The served document stays small whatever the tool set:
// an MCP tools/list of it is under 5 KB (TestListUnder5KB), against 1.2 MB of
// declarations for GitHub's REST API.
//
// A function of the wrapped tool can still be called by its own name on the
// wrapped tool, directly (Call and StreamCall pass names other than the three
// through), for clients that already know it. The three names take
// precedence over functions of the same names; [WithNames] renames them.
// [WithLimit] sets how many functions a search answers by default (10, at
// most [MaxLimit], 50). call_tool's arguments are an object of any members,
// which strict modes cannot declare (declare's strict profiles declare it
// non-strict, with a warning); [WithArgumentsAsString] declares them as a
// string holding the object instead, and all three are strict.
//
// The document stays small: the wrapped tool's info description is clipped
// to 400 bytes and the namespaces named in search_tools' description to
// 1,200 bytes; the index is built on the first Load or call, again when the
// wrapped tool's Load returns another document.
//
// # When
//
// Discovery costs a model two more steps (search, describe) before a call;
// declaring every function costs it reading them all, and providers limit how
// many it may be given: OpenAI takes at most 128 tools. [AutoLimit] is that
// number: toolcli's --discovery auto (the default) turns discovery on for a
// tool set of more functions than AutoLimit, and [Auto] says whether to.
//
// It uses the standard library and package runtime only.
package discover

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/functions"
)

// AutoLimit is the number of functions above which discovery is on by
// default (toolcli's --discovery auto, [Auto]): OpenAI's limit on the tools
// of one request, the lowest of the major providers'. A tool set up to that
// size can be declared whole to every provider, which saves a model the
// search and describe steps.
const AutoLimit = 128

// Auto reports whether a tool set whose document is doc is above
// [AutoLimit] functions.
func Auto(doc *document.OpenTool) bool {
	return doc != nil && len(doc.Functions) > AutoLimit
}

// The default names of the three functions.
const (
	SearchName   = "search_tools"
	DescribeName = "describe_tool"
	CallName     = "call_tool"
)

// Limits of search_tools' results.
const (
	DefaultLimit = 10 // results when the call gives no limit
	MaxLimit     = 50 // the largest limit a call may ask for
	maxSummary   = 120
)

// Option configures [Wrap].
type Option func(*config)

type config struct {
	search, describe, call string
	limit                  int
	argsString             bool // call_tool's arguments declared as a JSON string
}

// WithNames names the three functions (defaults [SearchName],
// [DescribeName], [CallName]); an empty name keeps the default. Each must be
// a valid function name (document.IsFunctionName) and the three distinct, or
// the wrapped tool's Load fails.
func WithNames(search, describe, call string) Option {
	return func(c *config) {
		if search != "" {
			c.search = search
		}
		if describe != "" {
			c.describe = describe
		}
		if call != "" {
			c.call = call
		}
	}
}

// WithLimit sets how many functions search_tools answers when the call
// gives no limit (default [DefaultLimit], at most [MaxLimit]).
func WithLimit(n int) Option {
	return func(c *config) { c.limit = max(1, min(n, MaxLimit)) }
}

// WithArgumentsAsString declares call_tool's arguments as a string that
// holds the JSON object of the function's arguments, rather than as an
// object of any members, which the strict modes of OpenAI and Anthropic
// cannot declare: with it, the three functions are strict in the strict
// profiles of package declare (without it call_tool is declared non-strict,
// with a warning). call_tool takes both forms either way.
func WithArgumentsAsString() Option {
	return func(c *config) { c.argsString = true }
}

// Tool is a tool in discovery mode (see the package doc). It is safe for
// concurrent use.
type Tool struct {
	tool runtime.Tool
	cfg  config

	mu    sync.Mutex
	inner *document.OpenTool // the document ix and doc were made of
	ix    *index
	fns   map[string]*functions.Tool
	doc   *document.OpenTool
}

var (
	_ runtime.StreamTool = (*Tool)(nil)
	_ runtime.HintTool   = (*Tool)(nil)
)

// Wrap returns tool in discovery mode: its document has the three functions
// of the package doc, which find, describe and call tool's functions.
func Wrap(tool runtime.Tool, opts ...Option) *Tool {
	t := &Tool{tool: tool, cfg: config{search: SearchName, describe: DescribeName, call: CallName, limit: DefaultLimit}}
	for _, o := range opts {
		o(&t.cfg)
	}
	return t
}

// Unwrap returns the wrapped tool.
func (t *Tool) Unwrap() runtime.Tool { return t.tool }

// state loads the wrapped tool's document and returns the index and the
// discovery document made of it, made again when Load returns another
// document.
func (t *Tool) state(ctx context.Context) (*index, *document.OpenTool, map[string]*functions.Tool, error) {
	if t.tool == nil {
		return nil, nil, nil, errors.New("discover: nil tool")
	}
	if err := t.cfg.check(); err != nil {
		return nil, nil, nil, err
	}
	inner, err := t.tool.Load(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ix == nil || inner != t.inner {
		t.inner = inner
		t.ix = newIndex(inner)
		t.doc = t.document(t.ix)
		t.fns = map[string]*functions.Tool{}
		for _, f := range functions.Of(t.tool, inner) {
			if _, dup := t.fns[f.Name()]; !dup {
				t.fns[f.Name()] = f
			}
		}
	}
	return t.ix, t.doc, t.fns, nil
}

func (c *config) check() error {
	for _, n := range []string{c.search, c.describe, c.call} {
		if !document.IsFunctionName(n) {
			return errors.New("discover: function name " + quote(n) + ": want 1 to 64 characters a-z, A-Z, 0-9, _ or -")
		}
	}
	if c.search == c.describe || c.search == c.call || c.describe == c.call {
		return errors.New("discover: the three function names must differ")
	}
	return nil
}

// Load returns the discovery document: the wrapped tool's info, and the
// three functions. It fails when the wrapped tool's Load fails.
func (t *Tool) Load(ctx context.Context) (*document.OpenTool, error) {
	_, doc, _, err := t.state(ctx)
	return doc, err
}

// Call calls one of the three functions, or passes a call of any other name
// to the wrapped tool.
func (t *Tool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	switch name {
	case t.cfg.search, t.cfg.describe, t.cfg.call:
	default:
		return t.tool.Call(ctx, name, args)
	}
	ix, _, fns, err := t.state(ctx)
	if err != nil {
		return nil, err
	}
	switch name {
	case t.cfg.search:
		return t.search(ix, args)
	case t.cfg.describe:
		return t.describe(ix, fns, args)
	}
	fn, fargs, err := t.callArgs(args)
	if err != nil {
		return nil, err
	}
	var res json.RawMessage
	if f := fns[fn]; f != nil {
		res, err = f.Call(ctx, fargs) // a streaming function's items collected
	} else {
		res, err = t.tool.Call(ctx, fn, fargs)
	}
	return res, t.unknownFunction(ix, fn, err)
}

// unknownFunction is the error of call_tool naming fn when the wrapped
// tool answered err: a -32601 (no such function, or one left out of the
// served set) becomes a -32602 at /name naming fn and suggesting a
// function (search_tools finds them), so that the model does not read it as
// call_tool itself being unknown (a front answers a -32601 of a call as its
// function's: unknown tool "call_tool"). Any other error is err.
func (t *Tool) unknownFunction(ix *index, fn string, err error) error {
	var e *runtime.Error
	if err == nil || !errors.As(err, &e) || e.Code != runtime.CodeMethodNotFound {
		return err
	}
	return runtime.InvalidParams(runtime.Violation{Path: "/name", Message: "no function named " + quote(clip(fn, 80)) + t.didYouMean(ix, fn)})
}

// StreamCall streams a function of the wrapped tool called through
// call_tool, or passed through by name; search_tools, describe_tool and a
// function that does not stream emit their one result.
func (t *Tool) StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(json.RawMessage) error) error {
	st, _ := t.tool.(runtime.StreamTool)
	switch name {
	case t.cfg.search, t.cfg.describe:
	case t.cfg.call:
		fn, fargs, err := t.callArgs(args)
		if err != nil {
			return err
		}
		ix, _, fns, err := t.state(ctx)
		if err != nil {
			return err
		}
		if i, ok := ix.byName[fn]; ok && ix.entries[i].fn.IsStream() && st != nil {
			return st.StreamCall(ctx, fn, fargs, emit)
		}
		if fns[fn] == nil {
			return t.unknownFunction(ix, fn, streamOne(ctx, t.tool, fn, fargs, emit)) // the tool's own result, or the name's error
		}
	default:
		if st == nil {
			return runtime.MethodNotFound(name)
		}
		return st.StreamCall(ctx, name, args, emit)
	}
	return streamOne(ctx, t, name, args, emit)
}

// streamOne calls name and emits its result.
func streamOne(ctx context.Context, tool runtime.Tool, name string, args json.RawMessage, emit func(json.RawMessage) error) error {
	res, err := tool.Call(ctx, name, args)
	if err != nil {
		return err
	}
	if len(res) == 0 {
		res = json.RawMessage("{}")
	}
	return emit(res)
}

// Hints implements runtime.HintTool: search_tools and describe_tool are
// read-only and closed-world; call_tool has no hints (it may do anything
// the wrapped tool does); other names have the wrapped tool's.
func (t *Tool) Hints(name string) (document.Hints, bool) {
	switch name {
	case t.cfg.search, t.cfg.describe:
		return document.Hints{ReadOnly: new(true), OpenWorld: new(false)}, true
	case t.cfg.call:
		return document.Hints{}, false
	}
	if ht, ok := t.tool.(runtime.HintTool); ok {
		return ht.Hints(name)
	}
	return document.Hints{}, false
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
