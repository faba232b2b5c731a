// Package adktool gives any OpenTool tool's functions in the shapes Google's
// Agent Development Kit for Go (ADK-Go, google.golang.org/adk) takes, without
// importing ADK: the module proxy this project builds with does not serve
// ADK, so this package satisfies its interfaces structurally and is checked
// against their method sets as read in ADK's source (tool/tool.go,
// internal/toolinternal/tool.go, tool/functiontool/function.go at
// github.com/google/adk-go 0a51e153), and against the genai types ADK uses
// (google.golang.org/genai, served).
//
// A *Function satisfies ADK's tool.Tool (Name, Description, IsLongRunning),
// and gives the rest of a function tool in the types ADK takes:
// Declaration returns its *genai.FunctionDeclaration (parametersJsonSchema
// and responseJsonSchema, the JSON Schemas of its arguments and result),
// InputSchema the *jsonschema.Schema (github.com/google/jsonschema-go) of
// functiontool.Config, and Run calls it with the model's arguments. ADK's
// own FunctionTool interface takes an agent.Context, an ADK type, so the
// tools reach an agent through functiontool.New, in one loop:
//
//	fns, err := adktool.Functions(ctx, weatherTool)
//	for _, f := range fns {
//		t, err := functiontool.New(functiontool.Config{Name: f.Name(), Description: f.Description(), InputSchema: f.InputSchema()},
//			func(ctx agent.Context, args map[string]any) (map[string]any, error) { return f.Run(ctx, args) })
//		…
//	}
//
// Errors: ADK's flow turns an error a tool returns into the function
// response {"error": text} for the model, so the tool's errors (a function's
// own, arguments that do not match the schema: code -32602 naming every
// violation) are Go errors here.
//
// This package is a module of its own, so that only its users depend on
// genai.
package adktool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"google.golang.org/genai"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/functions"
)

// Function is one function of a tool in ADK's shapes.
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

// Description returns the function's description.
func (f *Function) Description() string { return f.Func.Description() }

// IsLongRunning reports false: a call answers when the function returns.
func (f *Function) IsLongRunning() bool { return false }

// Declaration returns the function's declaration for Gemini, its schemas as
// plain JSON Schema. Each call returns a new value.
func (f *Function) Declaration() *genai.FunctionDeclaration {
	return &genai.FunctionDeclaration{
		Name:                 f.name,
		Description:          f.Func.Description(),
		ParametersJsonSchema: f.Func.InputSchema(),
		ResponseJsonSchema:   f.Func.OutputSchema(),
	}
}

// InputSchema returns the JSON Schema of the function's arguments, for
// functiontool.Config.InputSchema. It fails only if the schema is not one
// jsonschema-go reads; then it returns nil, and ADK infers the schema from
// the handler's argument type (map[string]any: any object).
func (f *Function) InputSchema() *jsonschema.Schema {
	var s jsonschema.Schema
	if err := json.Unmarshal(f.Func.InputSchemaJSON(), &s); err != nil {
		return nil
	}
	return &s
}

// Run calls the function with args, the model's arguments (a map[string]any
// as ADK decodes them, a json.RawMessage, or nil: none), and returns its
// result object.
func (f *Function) Run(ctx context.Context, args any) (map[string]any, error) {
	switch a := args.(type) {
	case nil:
		return f.Func.Invoke(ctx, nil)
	case map[string]any:
		return f.Func.Invoke(ctx, a)
	case json.RawMessage:
		result, err := f.Func.Call(ctx, a)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		dec := json.NewDecoder(bytes.NewReader(result))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			return nil, runtime.InternalError("internal error: decoding the result: " + err.Error())
		}
		return m, nil
	default:
		return nil, runtime.NewError(runtime.CodeInvalidParams, fmt.Sprintf("invalid params: the arguments of %q are a %T, not a JSON object", f.name, args))
	}
}
