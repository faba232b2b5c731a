// Package functions gives each function of a runtime.Tool as a tool of its own, in the shapes agent frameworks take (what adapters/* wrap).
package functions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/opentoolgen/opentoolgen/internal/jsonrpc"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// Tool is one function of a Tool as a tool of its own, in the shapes
// agent frameworks take. Name, Description, InputSchema, OutputSchema and
// Invoke are the Tool interface of OpenManus-Go, which a *Tool
// satisfies without this module importing it:
//
//	Invoke(ctx context.Context, args map[string]any) (map[string]any, error)
//
// Call takes and returns raw JSON: tRPC-Agent-Go's CallableTool.Call(ctx,
// jsonArgs []byte) (any, error) wraps it as
//
//	func (t trpcTool) Call(ctx context.Context, jsonArgs []byte) (any, error) {
//		result, err := t.Tool.Call(ctx, jsonArgs)
//		if err != nil {
//			return nil, err
//		}
//		return result, nil // a json.RawMessage: marshalled as the JSON it is
//	}
//
// and its Declaration's schemas are InputSchemaJSON and OutputSchemaJSON
// unmarshalled into the framework's Schema type.
//
// The schemas are the function's as the tool serves it (options applied):
// InputSchema is its LLM declaration's parameters ([declare.Plain]),
// OutputSchema the result object the OpenTool server answers on /call
// ([OutputSchema]). A streaming function is called to its end and answers
// every item at once, {"items": [item, …]}, as MCP's tools/call does.
//
// Errors are the tool's, unchanged: arguments that do not match the
// parameters are an *Error with code -32602 naming every JSON path
// ([runtime.Error.Violations]). A Tool is safe for concurrent use.
type Tool struct {
	tool   runtime.Tool
	fn     *document.Function
	hints  document.Hints
	hinted bool
	input  func() json.RawMessage
	output func() json.RawMessage
}

// Load returns a Tool for each function of tool's document, which
// it loads now (with ctx), in document order. It fails when Load fails, or
// when a function streams its results and tool is not a StreamTool.
func Load(ctx context.Context, tool runtime.Tool) ([]*Tool, error) {
	_, fts, err := LoadDocument(ctx, tool)
	return fts, err
}

// LoadDocument is Load that also returns the document it loaded, for
// callers that need both (declarations, declared names) without loading the
// document twice.
func LoadDocument(ctx context.Context, tool runtime.Tool) (*document.OpenTool, []*Tool, error) {
	if tool == nil {
		return nil, nil, errors.New("opentool: Functions of a nil tool")
	}
	doc, err := tool.Load(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("opentool: loading the tool's document: %w", err)
	}
	if _, ok := tool.(runtime.StreamTool); !ok && doc != nil {
		for i := range doc.Functions {
			if f := &doc.Functions[i]; f.IsStream() {
				return nil, nil, fmt.Errorf("opentool: function %s streams its results but the tool is not a StreamTool", quote(f.Name))
			}
		}
	}
	return doc, Of(tool, doc), nil
}

// Of returns a Tool for each function of doc, in document
// order, calling them through tool, whose document doc must be (what its Load
// returns; generated packages' (*Tool).Functions uses it). doc is read, never
// modified, and must not be modified afterwards. Calling a streaming function
// of a tool that is not a StreamTool is an *Error with code -32601.
func Of(tool runtime.Tool, doc *document.OpenTool) []*Tool {
	if doc == nil {
		return []*Tool{}
	}
	ht, _ := tool.(runtime.HintTool)
	out := make([]*Tool, len(doc.Functions))
	for i := range doc.Functions {
		f := &doc.Functions[i]
		t := &Tool{tool: tool, fn: f}
		if ht != nil {
			t.hints, t.hinted = ht.Hints(f.Name)
		}
		t.input = sync.OnceValue(func() json.RawMessage { return declare.InputSchema(doc, f) })
		t.output = sync.OnceValue(func() json.RawMessage { return declare.OutputSchema(doc, f) })
		out[i] = t
	}
	return out
}

// Name returns the function's name, as it is called.
func (t *Tool) Name() string { return t.fn.Name }

// Description returns the function's description.
func (t *Tool) Description() string { return t.fn.Description }

// InputSchema returns the JSON Schema of the function's arguments: one object
// schema, its references into its "$defs". Each call returns a new map, which
// the caller may modify; numbers are json.Number.
func (t *Tool) InputSchema() map[string]any { return object(t.input()) }

// OutputSchema returns the JSON Schema of the object Invoke and Call answer
// (see [OutputSchema]). Each call returns a new map, which the caller may
// modify; numbers are json.Number.
func (t *Tool) OutputSchema() map[string]any { return object(t.output()) }

// InputSchemaJSON returns InputSchema as JSON, for frameworks that take a
// schema of their own type: unmarshal it into that. Each call returns a new
// slice.
func (t *Tool) InputSchemaJSON() json.RawMessage { return bytes.Clone(t.input()) }

// OutputSchemaJSON returns OutputSchema as JSON. Each call returns a new slice.
func (t *Tool) OutputSchemaJSON() json.RawMessage { return bytes.Clone(t.output()) }

// Hints returns the function's hints (read-only, destructive, …) when the
// tool is a [runtime.HintTool] that has some.
func (t *Tool) Hints() (document.Hints, bool) {
	h := t.hints
	for _, p := range []**bool{&h.ReadOnly, &h.Destructive, &h.Idempotent, &h.OpenWorld} {
		if *p != nil {
			*p = new(**p) // a copy, so that the caller cannot change the tool's
		}
	}
	return h, t.hinted
}

// Invoke calls the function with args (nil: no arguments) and returns its
// result object, decoded with numbers as json.Number so that integers keep
// every digit (json.Marshal writes them back as they came). The tool's errors
// are returned unchanged; arguments that JSON cannot encode are an *Error
// with code -32602.
func (t *Tool) Invoke(ctx context.Context, args map[string]any) (map[string]any, error) {
	var raw json.RawMessage
	if args != nil {
		b, err := json.Marshal(args)
		if err != nil {
			return nil, runtime.NewError(runtime.CodeInvalidParams, "invalid params: the arguments of "+quote(t.fn.Name)+" cannot be encoded as JSON: "+err.Error())
		}
		raw = b
	}
	result, err := t.Call(ctx, raw)
	if err != nil {
		return nil, err
	}
	return decodeObject(result)
}

// Call calls the function with the raw JSON object of its arguments (empty or
// null: none) and returns the raw JSON object of its result: what the OpenTool
// server answers on /call, {} when the function returns nothing, and for a
// streaming function {"items": [item, …]} once the stream has ended. The
// tool's errors are returned unchanged; a result that is not a JSON object is
// an *Error with code -32603.
func (t *Tool) Call(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	if jsonrpc.IsNull(args) {
		args = nil
	}
	if !t.fn.IsStream() {
		result, err := t.tool.Call(ctx, t.fn.Name, args)
		if err != nil {
			return nil, err
		}
		return t.checkResult(result)
	}
	st, ok := t.tool.(runtime.StreamTool)
	if !ok {
		return nil, runtime.NewError(runtime.CodeMethodNotFound, quote(t.fn.Name)+" streams its results but the tool is not a StreamTool")
	}
	var (
		mu    sync.Mutex
		done  bool
		items bytes.Buffer
	)
	items.WriteString(`{"` + declare.ItemsKey + `":[`)
	n := 0
	err := st.StreamCall(ctx, t.fn.Name, args, func(item json.RawMessage) error {
		item, err := t.checkResult(item)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if done {
			return errors.New("opentool: emit called after the stream of " + quote(t.fn.Name) + " ended")
		}
		if n > 0 {
			items.WriteByte(',')
		}
		items.Write(item)
		n++
		return nil
	})
	mu.Lock()
	done = true
	mu.Unlock()
	if err != nil {
		return nil, err
	}
	items.WriteString("]}")
	return items.Bytes(), nil
}

// checkResult returns a result object ({} for none), or an internal error when
// the tool returned something else.
func (t *Tool) checkResult(result json.RawMessage) (json.RawMessage, error) {
	if len(result) == 0 {
		return json.RawMessage("{}"), nil
	}
	if !json.Valid(result) || !jsonrpc.IsObject(result) {
		return nil, runtime.InternalError("internal error: " + quote(t.fn.Name) + " returned a result that is not a JSON object")
	}
	return result, nil
}

// object decodes a JSON object known to be valid (a schema this package wrote).
func object(raw json.RawMessage) map[string]any {
	m, err := decodeObject(raw)
	if err != nil { // cannot happen
		return map[string]any{}
	}
	return m
}

// decodeObject decodes a JSON object with numbers as json.Number.
func decodeObject(raw json.RawMessage) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, runtime.InternalError("internal error: decoding the result: " + err.Error())
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
