// Package trpctool gives any OpenTool tool's functions in the shape
// tRPC-Agent-Go (trpc.group/trpc-go/trpc-agent-go) takes, without importing
// it: the module proxy this project builds with does not serve tRPC-Agent-Go,
// so this package matches its interfaces structurally, checked against the
// method sets and the Declaration type as read in its source (tool/tool.go at
// github.com/trpc-group/trpc-agent-go 0e352fdd1).
//
// A *Function's Call has exactly the signature of tRPC's
// tool.CallableTool.Call, Call(ctx, jsonArgs []byte) (any, error), and
// answers the result object as a json.RawMessage (which marshals as the JSON
// it is). tRPC's Declaration method returns its own *tool.Declaration type,
// which no package can return without importing tRPC, so DeclarationJSON
// gives it as JSON ({"name","description","inputSchema","outputSchema"}, the
// type's own tags) and a program wraps the functions once:
//
//	type trpcTool struct{ *trpctool.Function }
//
//	func (t trpcTool) Declaration() *tool.Declaration {
//		var d tool.Declaration
//		_ = json.Unmarshal(t.DeclarationJSON(), &d)
//		return &d
//	}
//
//	fns, err := trpctool.Functions(ctx, weatherTool) // then trpcTool{f} for each
//
// Errors: tRPC's function-call processor answers a tool's error to the model
// as an error tool response (internal/flow/processor/functioncall.go), so the
// tool's errors (a function's own, arguments that do not match the schema:
// code -32602 naming every violation) are Go errors here.
package trpctool

import (
	"context"
	"encoding/json"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/functions"
)

// Function is one function of a tool in tRPC-Agent-Go's shape.
type Function struct {
	Func *functions.Tool
	name string
}

// Functions returns each function of t, in document order. It loads t's
// document with ctx and fails when that fails or when a function streams and
// t is not a runtime.StreamTool (a streaming function answers all its items
// at once, {"items":[…]}).
func Functions(ctx context.Context, t runtime.Tool) ([]*Function, error) {
	doc, fts, err := functions.LoadDocument(ctx, t)
	if err != nil {
		return nil, err
	}
	names := declare.Names(doc)
	out := make([]*Function, len(fts))
	for i, ft := range fts {
		out[i] = &Function{Func: ft, name: names[ft.Name()]}
	}
	return out, nil
}

// Name returns the function's declared name (declare.Names).
func (f *Function) Name() string { return f.name }

// DeclarationJSON returns the function's declaration as tRPC's
// tool.Declaration reads it: {"name","description","inputSchema",
// "outputSchema"}. Each call returns a new slice.
func (f *Function) DeclarationJSON() json.RawMessage {
	b, _ := json.Marshal(struct {
		Name         string          `json:"name"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	}{f.name, f.Func.Description(), f.Func.InputSchemaJSON(), f.Func.OutputSchemaJSON()})
	return b
}

// Call calls the function with the model's arguments (a JSON object; empty:
// none) and returns its result object as a json.RawMessage, or the tool's
// error.
func (f *Function) Call(ctx context.Context, jsonArgs []byte) (any, error) {
	result, err := f.Func.Call(ctx, jsonArgs)
	if err != nil {
		return nil, err
	}
	return result, nil
}
