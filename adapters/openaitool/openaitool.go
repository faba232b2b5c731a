// Package openaitool plugs any OpenTool tool (a generated package's *Tool, a
// remote tool's client, any runtime.Tool) into the official OpenAI Go SDK
// (github.com/openai/openai-go/v3), Chat Completions and Responses, with one
// line of user code each way:
//
//	ts, err := openaitool.New(ctx, weatherTool, openaitool.Strict())
//	params.Tools = ts.Chat()                                  // or ts.Responses() for the Responses API
//	params.Messages = append(params.Messages, ts.RunChat(ctx, completion.Choices[0].Message)...)
//
// The declarations are those of package runtime/declare (profile openai, or
// openai-strict with Strict), converted to the SDK's types; the calls of a
// model's answer run through functions.Tool, validated exactly as a
// direct call, and come back as the messages the API takes: RunChat returns
// the assistant message followed by one tool message per call, RunResponses
// one function_call_output item per function call.
//
// Errors: the OpenAI API has no error flag on a tool result, and a model reads
// what it is sent, so an error of the tool (a function's own error,
// arguments that do not match the schema: code -32602 with every violation,
// a function the tool lacks: -32601) is sent as the tool message's content,
// {"error":{"code":…,"message":…,"data":…}}, for the model to correct; a
// call cut short by a cancelled context is answered so too, and Call
// returns ctx.Err() for it.
//
// This package is a module of its own, so that only its users depend on the
// SDK.
package openaitool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/functions"
)

// Option configures New.
type Option func(*options)

type options struct{ strict bool }

// Strict declares the functions in OpenAI's strict mode (profile
// openai-strict): a strict model sends null for each optional argument it
// leaves out, which a generated Tool decodes as absent.
func Strict() Option { return func(o *options) { o.strict = true } }

// Tools is a tool's functions declared for OpenAI and run on a model's calls.
// It is safe for concurrent use.
type Tools struct {
	fns      map[string]*functions.Tool // by declared name
	decls    []declaration
	Warnings []string // what the profile could not declare as the document says
}

// declaration is one member of the openai profile's "tools".
type declaration struct {
	Function struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Parameters  map[string]any `json:"parameters"`
		Strict      *bool          `json:"strict"`
	} `json:"function"`
}

// New loads t's document with ctx and declares its functions. It fails when
// loading fails, when a function streams and t is not a runtime.StreamTool
// (a streaming function answers all its items at once, {"items":[…]}), or
// when the declarations exceed a limit OpenAI documents (declare.LimitError,
// e.g. more than 128 tools).
func New(ctx context.Context, t runtime.Tool, opts ...Option) (*Tools, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	doc, fts, err := functions.LoadDocument(ctx, t)
	if err != nil {
		return nil, err
	}
	profile := declare.OpenAI
	if o.strict {
		profile = declare.OpenAIStrict
	}
	d, err := declare.Functions(doc, profile)
	if err != nil {
		return nil, err
	}
	ts := &Tools{fns: map[string]*functions.Tool{}, Warnings: d.Warnings}
	if err := json.Unmarshal(d.Tools, &ts.decls); err != nil {
		return nil, fmt.Errorf("openaitool: reading the declarations: %w", err)
	}
	names := declare.Names(doc)
	for _, ft := range fts {
		ts.fns[names[ft.Name()]] = ft
	}
	return ts, nil
}

// Chat returns the declarations for Chat Completions'
// ChatCompletionNewParams.Tools. Each call returns new values.
func (ts *Tools) Chat() []openai.ChatCompletionToolUnionParam {
	out := make([]openai.ChatCompletionToolUnionParam, len(ts.decls))
	for i, d := range ts.decls {
		f := shared.FunctionDefinitionParam{Name: d.Function.Name, Parameters: clone(d.Function.Parameters)}
		if d.Function.Description != "" {
			f.Description = openai.String(d.Function.Description)
		}
		if d.Function.Strict != nil {
			f.Strict = openai.Bool(*d.Function.Strict)
		}
		out[i] = openai.ChatCompletionFunctionTool(f)
	}
	return out
}

// Responses returns the declarations for the Responses API's
// ResponseNewParams.Tools. Each call returns new values.
func (ts *Tools) Responses() []responses.ToolUnionParam {
	out := make([]responses.ToolUnionParam, len(ts.decls))
	for i, d := range ts.decls {
		out[i] = responses.ToolParamOfFunction(d.Function.Name, clone(d.Function.Parameters), d.Function.Strict != nil && *d.Function.Strict)
		if d.Function.Description != "" {
			out[i].OfFunction.Description = openai.String(d.Function.Description)
		}
	}
	return out
}

// Call runs the function declared as name with the model's arguments (a JSON
// object; empty: none) and returns what to send back as its output: the
// result object's JSON, or the tool's error as {"error":{…}}. The error is
// ctx's when ctx ended.
func (ts *Tools) Call(ctx context.Context, name, arguments string) (string, error) {
	f, ok := ts.fns[name]
	var (
		result json.RawMessage
		err    error
	)
	if ok {
		result, err = f.Call(ctx, json.RawMessage(arguments))
	} else {
		err = runtime.MethodNotFound(name)
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return errorText(err), nil
	}
	return string(result), nil
}

// RunChat runs the tool calls of msg, a model's answer from Chat Completions,
// and returns the messages to append to the conversation: msg itself, then a
// tool message per function call, in order (none when msg calls nothing).
// The calls run one after another.
func (ts *Tools) RunChat(ctx context.Context, msg openai.ChatCompletionMessage) []openai.ChatCompletionMessageParamUnion {
	if len(msg.ToolCalls) == 0 {
		return nil
	}
	out := []openai.ChatCompletionMessageParamUnion{msg.ToParam()}
	for _, c := range msg.ToolCalls {
		if c.Type != "function" {
			continue
		}
		content, err := ts.Call(ctx, c.Function.Name, c.Function.Arguments)
		if err != nil {
			content = errorText(err)
		}
		out = append(out, openai.ToolMessage(content, c.ID))
	}
	return out
}

// RunResponses runs the function calls of a Responses API answer and returns
// the input items to send in the next request (with PreviousResponseID, or
// after the answer's output items): one function_call_output per call, in
// order.
func (ts *Tools) RunResponses(ctx context.Context, resp *responses.Response) []responses.ResponseInputItemUnionParam {
	var out []responses.ResponseInputItemUnionParam
	for _, item := range resp.Output {
		if item.Type != "function_call" {
			continue
		}
		c := item.AsFunctionCall()
		content, err := ts.Call(ctx, c.Name, c.Arguments)
		if err != nil {
			content = errorText(err)
		}
		out = append(out, responses.ResponseInputItemUnionParam{OfFunctionCallOutput: &responses.ResponseInputItemFunctionCallOutputParam{
			CallID: openai.String(c.CallID),
			Output: responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfString: openai.String(content)},
		}})
	}
	return out
}

// errorText is a tool error as the output {"error":{…}}.
func errorText(err error) string {
	var e *runtime.Error
	if !errors.As(err, &e) {
		e = runtime.NewError(500, err.Error())
	}
	b, merr := json.Marshal(struct {
		Error *runtime.Error `json:"error"`
	}{e})
	if merr != nil {
		b, _ = json.Marshal(map[string]any{"error": map[string]any{"code": 500, "message": err.Error()}})
	}
	return string(b)
}

// clone copies a decoded JSON value, so that callers may modify what they get.
func clone(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}
