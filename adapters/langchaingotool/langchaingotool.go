// Package langchaingotool plugs any OpenTool tool (a generated package's *Tool, a
// remote tool's client, any runtime.Tool) into langchaingo, with one line of
// user code:
//
//	tools, err := langchaingotool.Tools(ctx, weatherTool) // []tools.Tool for an agent
//
// Each function of the tool's document becomes one tools.Tool: Name is its
// declared name (declare.Names), Call takes the arguments as a JSON
// object (what langchaingo's OpenAI-functions agent passes on, and what the
// description asks a text agent to write; surrounding blanks and a ``` fence
// are dropped) and answers the result object's JSON, validated and decoded
// exactly as a direct call. Description is the function's description
// followed by the JSON Schema of its arguments, because langchaingo's agents
// declare a tool to the model by its name and description only.
//
// For code that calls llms.Model.GenerateContent itself, Definitions gives
// the functions as llms.Tool declarations with their full parameters schema,
// and Execute runs the tool calls of the model's answer and returns the tool
// message to send back.
//
// Errors: langchaingo's agent executor ends the run when a tool returns a Go
// error, so an error of the tool (a function's own error, or arguments that
// do not match the schema: code -32602 with every violation) is answered as
// the observation {"error":{"code":…,"message":…,"data":…}}, for the model
// to read and correct, as langchaingo's own tools answer theirs. Only a
// cancelled or expired context is a Go error.
//
// This package is a module of its own, so that only its users depend on
// langchaingo.
package langchaingotool

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/tools"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/functions"
)

// Function is one function of a tool as a langchaingo tools.Tool.
type Function struct {
	*functions.Tool
	name string
}

var _ tools.Tool = (*Function)(nil)

// Functions returns each function of t, in document order. It loads t's
// document with ctx and fails when that fails or when a function streams
// and t is not a runtime.StreamTool (a streaming function answers all its
// items at once, {"items":[…]}).
func Functions(ctx context.Context, t runtime.Tool) ([]*Function, error) {
	doc, fts, err := functions.LoadDocument(ctx, t)
	if err != nil {
		return nil, err
	}
	names := declare.Names(doc)
	out := make([]*Function, len(fts))
	for i, ft := range fts {
		out[i] = &Function{Tool: ft, name: names[ft.Name()]}
	}
	return out, nil
}

// Tools is Functions as langchaingo's []tools.Tool, for an agent.
func Tools(ctx context.Context, t runtime.Tool) ([]tools.Tool, error) {
	fns, err := Functions(ctx, t)
	if err != nil {
		return nil, err
	}
	out := make([]tools.Tool, len(fns))
	for i, f := range fns {
		out[i] = f
	}
	return out, nil
}

// Definitions returns the functions of t as llms.Tool declarations, for
// llms.WithTools.
func Definitions(ctx context.Context, t runtime.Tool) ([]llms.Tool, error) {
	fns, err := Functions(ctx, t)
	if err != nil {
		return nil, err
	}
	out := make([]llms.Tool, len(fns))
	for i, f := range fns {
		out[i] = f.Definition()
	}
	return out, nil
}

// Name returns the function's declared name.
func (f *Function) Name() string { return f.name }

// Description returns the function's description and the JSON Schema its
// input must match.
func (f *Function) Description() string {
	d := f.Tool.Description()
	if d != "" {
		d += "\n"
	}
	return d + "Input: a JSON object matching this JSON Schema: " + string(f.InputSchemaJSON())
}

// Definition returns the function's declaration: its declared name, its
// description and its arguments' JSON Schema.
func (f *Function) Definition() llms.Tool {
	return llms.Tool{Type: "function", Function: &llms.FunctionDefinition{
		Name:        f.name,
		Description: f.Tool.Description(),
		Parameters:  f.InputSchemaJSON(),
	}}
}

// Call calls the function with input, the JSON object of its arguments
// (empty: none), and answers its result object as JSON, or the tool's error
// as {"error":{…}} (see the package doc).
func (f *Function) Call(ctx context.Context, input string) (string, error) {
	result, err := f.Tool.Call(ctx, json.RawMessage(unfence(input)))
	if err != nil {
		return errorResult(ctx, err)
	}
	return string(result), nil
}

// Execute runs calls, the tool calls of a model's answer, with the functions
// fns (from Functions) and returns the tool message that answers them, one
// llms.ToolCallResponse per call in order. A call of a function fns lacks is
// answered with an error naming it. Execute returns an error only when ctx
// ends.
func Execute(ctx context.Context, fns []*Function, calls []llms.ToolCall) (llms.MessageContent, error) {
	msg := llms.MessageContent{Role: llms.ChatMessageTypeTool}
	for _, c := range calls {
		if c.FunctionCall == nil {
			continue
		}
		name := c.FunctionCall.Name
		content := ""
		var err error
		if f := find(fns, name); f != nil {
			content, err = f.Call(ctx, c.FunctionCall.Arguments)
		} else {
			content, err = errorResult(ctx, runtime.MethodNotFound(name))
		}
		if err != nil {
			return llms.MessageContent{}, err
		}
		msg.Parts = append(msg.Parts, llms.ToolCallResponse{ToolCallID: c.ID, Name: name, Content: content})
	}
	return msg, nil
}

func find(fns []*Function, name string) *Function {
	for _, f := range fns {
		if f.name == name {
			return f
		}
	}
	return nil
}

// unfence drops blanks around s and a Markdown code fence (```json … ```)
// around it, which text agents write.
func unfence(s string) string {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "```"); ok && strings.HasSuffix(rest, "```") {
		rest = strings.TrimSuffix(rest, "```")
		if i := strings.IndexAny(rest, "{\n"); i >= 0 && rest[i] == '\n' {
			rest = rest[i+1:] // the fence's language tag
		}
		s = strings.TrimSpace(rest)
	}
	return s
}

// errorResult answers a tool error as the result {"error":{…}}, or returns
// the context's error when the call was cancelled.
func errorResult(ctx context.Context, err error) (string, error) {
	if ctx.Err() != nil {
		return "", err
	}
	var e *runtime.Error
	if !errors.As(err, &e) {
		e = runtime.NewError(500, err.Error())
	}
	b, merr := json.Marshal(struct {
		Error *runtime.Error `json:"error"`
	}{e})
	if merr != nil {
		return "", err
	}
	return string(b), nil
}
