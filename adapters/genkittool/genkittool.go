// Package genkittool plugs any OpenTool tool (a generated package's *Tool, a
// remote tool's client, any runtime.Tool) into Firebase Genkit for Go as its
// tools, with one line of user code:
//
//	tools, err := genkittool.Tools(ctx, weatherTool) // []ai.Tool for genkit.Generate's ai.WithTools
//
// Each function of the tool's document becomes one ai.Tool made by
// ai.NewTool with ai.WithInputSchema: its declared name
// (declare.Names), its description, its arguments' JSON Schema
// (functions.Tool.InputSchema). Genkit hands the tool the model's
// arguments decoded as JSON; the tool encodes them again and calls the
// function through functions.Tool, validated exactly as a direct call;
// its output is the result object (a json.RawMessage, which Genkit sends to
// the model as the JSON it is). Register the tools with genkit.RegisterAction
// or pass them to ai.WithTools; both work.
//
// Errors: Genkit's generate loop ends the whole generation when a tool
// returns a Go error ("tool … failed"), so an error of the tool (a
// function's own error, or a violation only the tool checks: code -32602
// with every violation) is the tool's output,
// {"error":{"code":…,"message":…,"data":…}}, for the model to read and
// correct. Only a cancelled or expired context is a Go error. Genkit itself
// checks the model's arguments against the declared schema before the tool
// runs, as for any Genkit tool, and ends the generation with an error naming
// the argument when they do not match.
//
// This package is a module of its own, so that only its users depend on
// Genkit.
package genkittool

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/firebase/genkit/go/ai"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/functions"
)

// Tools returns each function of t as a Genkit tool, in document order. It
// loads t's document with ctx and fails when that fails, or when a function
// streams and t is not a runtime.StreamTool (a streaming function answers all
// its items at once, {"items":[…]}).
func Tools(ctx context.Context, t runtime.Tool) ([]ai.Tool, error) {
	doc, fts, err := functions.LoadDocument(ctx, t)
	if err != nil {
		return nil, err
	}
	names := declare.Names(doc)
	out := make([]ai.Tool, len(fts))
	for i, ft := range fts {
		out[i] = Tool(names[ft.Name()], ft)
	}
	return out, nil
}

// Tool returns one function as a Genkit tool declared under name.
func Tool(name string, f *functions.Tool) ai.Tool {
	return ai.NewTool(name, f.Description(), func(tc *ai.ToolContext, input any) (json.RawMessage, error) {
		args, err := json.Marshal(input)
		if err != nil {
			return errorResult(tc, runtime.NewError(runtime.CodeInvalidParams, "invalid params: "+err.Error()))
		}
		result, err := f.Call(tc, args)
		if err != nil {
			return errorResult(tc, err)
		}
		return result, nil
	}, ai.WithInputSchema(f.InputSchema()))
}

// errorResult answers a tool error as the output {"error":{…}}, or returns
// the context's error when the call was cancelled.
func errorResult(ctx context.Context, err error) (json.RawMessage, error) {
	if ctx.Err() != nil {
		return nil, err
	}
	var e *runtime.Error
	if !errors.As(err, &e) {
		e = runtime.NewError(500, err.Error())
	}
	b, merr := json.Marshal(struct {
		Error *runtime.Error `json:"error"`
	}{e})
	if merr != nil {
		return nil, err
	}
	return b, nil
}
