// Package anthropictool plugs any OpenTool tool (a generated package's *Tool,
// a remote tool's client, any runtime.Tool) into the official Anthropic Go
// SDK (github.com/anthropics/anthropic-sdk-go/v2), with one line of user
// code:
//
//	tools, err := anthropictool.Tools(ctx, weatherTool)                  // []anthropic.BetaTool
//	runner := client.Beta.Messages.NewToolRunner(tools, params)           // the SDK's tool runner
//
// or, for the Messages API without the runner:
//
//	ts, err := anthropictool.New(ctx, weatherTool)
//	params.Tools = ts.Params()
//	params.Messages = append(params.Messages, message.ToParam(), ts.Run(ctx, message))
//
// The declarations are those of package runtime/declare (profile anthropic,
// or anthropic-strict with Strict): each function under its declared name
// (declare.Names), its input_schema in full. A call runs through
// functions.Tool, validated exactly as a direct call, and answers the
// result object's JSON as one text block.
//
// Errors: Anthropic's API takes a failed tool call as a tool_result with
// "is_error": true, and the SDK's tool runner sends one for any error
// Execute returns ("Error: " and its text), so the tool's errors (a
// function's own error, arguments that do not match the schema: code -32602
// naming every violation) are Go errors here; Run marks them so too.
//
// This package is a module of its own, so that only its users depend on the
// SDK.
package anthropictool

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/functions"
)

// Option configures New and Tools.
type Option func(*options)

type options struct{ strict bool }

// Strict declares the functions for Anthropic's strict tool use (profile
// anthropic-strict).
func Strict() Option { return func(o *options) { o.strict = true } }

// Function is one function of a tool as an anthropic.BetaTool.
type Function struct {
	Func        *functions.Tool
	name        string
	description string
	schema      json.RawMessage // input_schema
	strict      bool
}

var _ anthropic.BetaTool = (*Function)(nil)

// Set is a tool's functions declared for Anthropic. It is safe for
// concurrent use.
type Set struct {
	Functions []*Function
	Warnings  []string // what the profile could not declare as the document says
	byName    map[string]*Function
}

// New loads t's document with ctx and declares its functions. It fails when
// loading fails, when a function streams and t is not a runtime.StreamTool
// (a streaming function answers all its items at once, {"items":[…]}), or
// when the declarations exceed a limit Anthropic documents
// (declare.LimitError).
func New(ctx context.Context, t runtime.Tool, opts ...Option) (*Set, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	doc, fts, err := functions.LoadDocument(ctx, t)
	if err != nil {
		return nil, err
	}
	profile := declare.Anthropic
	if o.strict {
		profile = declare.AnthropicStrict
	}
	d, err := declare.Functions(doc, profile)
	if err != nil {
		return nil, err
	}
	var decls []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
		Strict      bool            `json:"strict"`
	}
	if err := json.Unmarshal(d.Tools, &decls); err != nil {
		return nil, fmt.Errorf("anthropictool: reading the declarations: %w", err)
	}
	names := declare.Names(doc)
	byFunc := map[string]*functions.Tool{}
	for _, ft := range fts {
		byFunc[names[ft.Name()]] = ft
	}
	s := &Set{Warnings: d.Warnings, byName: map[string]*Function{}}
	for _, dc := range decls {
		ft := byFunc[dc.Name]
		if ft == nil {
			return nil, fmt.Errorf("anthropictool: the declaration %q names no function", dc.Name)
		}
		f := &Function{Func: ft, name: dc.Name, description: dc.Description, schema: dc.InputSchema, strict: dc.Strict}
		s.Functions = append(s.Functions, f)
		s.byName[dc.Name] = f
	}
	return s, nil
}

// Tools returns the functions of t for the SDK's tool runner
// (client.Beta.Messages.NewToolRunner).
func Tools(ctx context.Context, t runtime.Tool, opts ...Option) ([]anthropic.BetaTool, error) {
	s, err := New(ctx, t, opts...)
	if err != nil {
		return nil, err
	}
	return s.BetaTools(), nil
}

// BetaTools returns the functions as the tool runner's tools.
func (s *Set) BetaTools() []anthropic.BetaTool {
	out := make([]anthropic.BetaTool, len(s.Functions))
	for i, f := range s.Functions {
		out[i] = f
	}
	return out
}

// Params returns the declarations for MessageNewParams.Tools. Each call
// returns new values.
func (s *Set) Params() []anthropic.ToolUnionParam {
	out := make([]anthropic.ToolUnionParam, len(s.Functions))
	for i, f := range s.Functions {
		p := anthropic.ToolParam{Name: f.name, InputSchema: anthropic.ToolInputSchemaParam(f.InputSchema())}
		if f.description != "" {
			p.Description = anthropic.String(f.description)
		}
		if f.strict {
			p.Strict = anthropic.Bool(true)
		}
		out[i] = anthropic.ToolUnionParam{OfTool: &p}
	}
	return out
}

// Run runs the tool_use blocks of msg, a model's answer, and returns the
// user message of their tool_result blocks, in order; an error is a
// tool_result with "is_error": true, and so is a call of a function the set
// lacks.
func (s *Set) Run(ctx context.Context, msg *anthropic.Message) anthropic.MessageParam {
	var blocks []anthropic.ContentBlockParamUnion
	for _, b := range msg.Content {
		if b.Type != "tool_use" {
			continue
		}
		u := b.AsToolUse()
		var (
			text string
			err  error = runtime.MethodNotFound(u.Name)
		)
		if f := s.byName[u.Name]; f != nil {
			text, err = f.call(ctx, u.Input)
		}
		if err != nil {
			text = "Error: " + err.Error()
		}
		blocks = append(blocks, anthropic.NewToolResultBlock(u.ID, text, err != nil))
	}
	return anthropic.NewUserMessage(blocks...)
}

// Name returns the function's declared name.
func (f *Function) Name() string { return f.name }

// Description returns the function's description.
func (f *Function) Description() string { return f.description }

// InputSchema returns the function's input_schema. Each call returns new
// values.
func (f *Function) InputSchema() anthropic.BetaToolInputSchemaParam {
	var m map[string]any
	_ = json.Unmarshal(f.schema, &m) // a schema package declare wrote
	var s anthropic.BetaToolInputSchemaParam
	s.Properties = m["properties"]
	for _, r := range asSlice(m["required"]) {
		if r, ok := r.(string); ok {
			s.Required = append(s.Required, r)
		}
	}
	delete(m, "type")
	delete(m, "properties")
	delete(m, "required")
	if len(m) > 0 {
		s.ExtraFields = m // $defs, additionalProperties, …
	}
	return s
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

// Execute calls the function with the model's input and returns its result
// object's JSON as one text block, or the tool's error.
func (f *Function) Execute(ctx context.Context, input json.RawMessage) ([]anthropic.BetaToolResultBlockParamContentUnion, error) {
	text, err := f.call(ctx, input)
	if err != nil {
		return nil, err
	}
	return []anthropic.BetaToolResultBlockParamContentUnion{{OfText: &anthropic.BetaTextBlockParam{Text: text}}}, nil
}

func (f *Function) call(ctx context.Context, input json.RawMessage) (string, error) {
	result, err := f.Func.Call(ctx, input)
	if err != nil {
		return "", err
	}
	return string(result), nil
}
