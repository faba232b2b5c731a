// Package einotool plugs any OpenTool tool (a generated package's *Tool, a remote
// tool's client, any runtime.Tool) into CloudWeGo Eino as its tools, with one
// line of user code:
//
//	tools, err := einotool.Tools(ctx, weatherTool) // []tool.BaseTool for a ToolsNode or an agent
//
// Each function of the tool's document becomes one tool.InvokableTool: Info
// declares it (its declared name, see declare.Names; its description;
// its arguments' JSON Schema, functions.Tool.InputSchemaJSON), and
// InvokableRun calls it with the model's arguments, validated exactly as a
// direct call, and answers the result object's JSON. A streaming function is
// also a tool.StreamableTool: StreamableRun sends `{"items":[`, each item as
// the tool emits it, and `]}`, so that the chunks joined are the JSON
// InvokableRun answers.
//
// Errors: Eino's ToolsNode ends the whole graph run when a tool returns a Go
// error, so an error of the tool (a function's own error, or arguments that
// do not match the schema: code -32602 with every violation) is answered as
// the tool's result, {"error":{"code":…,"message":…,"data":…}}, for the model
// to read and correct. Only a cancelled or expired context is a Go error.
//
// This package is a module of its own, so that only its users depend on Eino.
package einotool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/declare"
	"github.com/opentoolgen/opentoolgen/runtime/functions"
)

// Tools returns each function of t as an Eino tool, in document order: a
// *Function, which is a tool.InvokableTool, and for a streaming function also
// a tool.StreamableTool. It loads t's document with ctx and fails when that
// fails, when a function streams and t is not a runtime.StreamTool, or when a
// function's schema is not one Eino's JSON Schema type reads.
func Tools(ctx context.Context, t runtime.Tool) ([]tool.BaseTool, error) {
	fns, err := Functions(ctx, t)
	if err != nil {
		return nil, err
	}
	out := make([]tool.BaseTool, len(fns))
	for i, f := range fns {
		if f.stream != nil {
			out[i] = &StreamFunction{Function: f}
		} else {
			out[i] = f
		}
	}
	return out, nil
}

// Functions is Tools with the concrete type, for code that wants a function
// by name or its functions.Tool.
func Functions(ctx context.Context, t runtime.Tool) ([]*Function, error) {
	doc, fts, err := functions.LoadDocument(ctx, t)
	if err != nil {
		return nil, err
	}
	names := declare.Names(doc)
	st, _ := t.(runtime.StreamTool)
	out := make([]*Function, len(fts))
	for i, ft := range fts {
		var params jsonschema.Schema
		if err := json.Unmarshal(ft.InputSchemaJSON(), &params); err != nil {
			return nil, fmt.Errorf("einotool: the parameters of %q: %w", ft.Name(), err)
		}
		f := &Function{Tool: ft, info: &schema.ToolInfo{
			Name:        names[ft.Name()],
			Desc:        ft.Description(),
			ParamsOneOf: schema.NewParamsOneOfByJSONSchema(&params),
		}}
		if doc.Functions[i].IsStream() {
			f.stream = st
		}
		out[i] = f
	}
	return out, nil
}

// Function is one function of a tool as an Eino tool.InvokableTool.
type Function struct {
	*functions.Tool
	info   *schema.ToolInfo
	stream runtime.StreamTool // set for a streaming function
}

var _ tool.InvokableTool = (*Function)(nil)

// Info returns the function's declaration. The caller must not modify it.
func (f *Function) Info(context.Context) (*schema.ToolInfo, error) { return f.info, nil }

// InvokableRun calls the function with the model's arguments (a JSON object;
// empty: none) and returns its result object as JSON, or the tool's error as
// {"error":{…}} (see the package doc).
func (f *Function) InvokableRun(ctx context.Context, argumentsInJSON string, _ ...tool.Option) (string, error) {
	result, err := f.Call(ctx, json.RawMessage(argumentsInJSON))
	if err != nil {
		return errorResult(ctx, err)
	}
	return string(result), nil
}

// StreamFunction is a streaming function: an Invokable tool that is also a
// tool.StreamableTool.
type StreamFunction struct{ *Function }

var _ tool.StreamableTool = (*StreamFunction)(nil)

// StreamableRun calls the function and streams `{"items":[`, each item's JSON
// as the tool emits it (a comma before all but the first) and `]}`: the
// chunks joined are what InvokableRun answers. A tool error ends the stream
// with its {"error":{…}} chunk in place of `]}`; a cancelled context ends it
// with the context's error. The reader is closed by the caller, which stops
// the call.
func (f *StreamFunction) StreamableRun(ctx context.Context, argumentsInJSON string, _ ...tool.Option) (*schema.StreamReader[string], error) {
	args := json.RawMessage(argumentsInJSON)
	if strings.TrimSpace(argumentsInJSON) == "" {
		args = nil
	}
	r, w := schema.Pipe[string](1)
	go func() {
		defer w.Close()
		n := 0
		err := f.stream.StreamCall(ctx, f.Name(), args, func(item json.RawMessage) error {
			chunk := string(item)
			switch {
			case n == 0:
				chunk = `{"` + declare.ItemsKey + `":[` + chunk
			default:
				chunk = "," + chunk
			}
			n++
			if w.Send(chunk, nil) {
				return errors.New("einotool: the stream's reader was closed")
			}
			return nil
		})
		if err != nil {
			text, err := errorResult(ctx, err)
			if n > 0 && err == nil {
				text = "]," + text[1:] // {"items":[…],"error":{…}}
			}
			w.Send(text, err)
			return
		}
		if n == 0 {
			w.Send(`{"`+declare.ItemsKey+`":[]}`, nil)
			return
		}
		w.Send("]}", nil)
	}()
	return r, nil
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
