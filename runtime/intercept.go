package runtime

import (
	"context"
	"encoding/json"
	"iter"
	"slices"

	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// Intercept returns tool with ics run around each of its calls, on the
// serving side: any front that serves the returned Tool (OpenTool HTTP,
// MCP, NATS, runtime.Local) runs them, with the metadata the front put on
// the context ([intercept.WithIncomingMetadata]). A StreamTool stays a StreamTool. With
// no interceptors it returns tool itself. [WithInterceptors] does it for
// [NewHandler] and [Serve].
func Intercept(tool Tool, ics ...intercept.Func) Tool {
	if len(ics) == 0 || tool == nil {
		return tool
	}
	it := &interceptedTool{tool: tool, ics: slices.Clone(ics)}
	if prev, ok := tool.(interface{ intercepted() *interceptedTool }); ok { // one chain, outer first
		p := prev.intercepted()
		it.tool, it.ics = p.tool, append(it.ics, p.ics...)
	}
	if st, ok := it.tool.(StreamTool); ok {
		return &interceptedStreamTool{interceptedTool: it, stream: st}
	}
	return it
}

// WithInterceptors runs ics around each call the server serves
// ([Intercept]), with the request's headers as metadata.
func WithInterceptors(ics ...intercept.Func) ServerOption {
	return func(c *serverConfig) { c.interceptors = append(c.interceptors, ics...) }
}

type interceptedTool struct {
	tool Tool
	ics  []intercept.Func
}

type interceptedStreamTool struct {
	*interceptedTool
	stream StreamTool
}

func (t *interceptedTool) intercepted() *interceptedTool { return t }

// Interceptors returns the interceptors the tool runs: a front of another
// package asks a Tool for this method to know whether to put the metadata
// of its calls on their context ([intercept.WithIncomingMetadata]).
func (t *interceptedTool) Interceptors() []intercept.Func { return t.ics }

func (t *interceptedTool) Load(ctx context.Context) (*document.OpenTool, error) {
	return t.tool.Load(ctx)
}

// Hints passes on the hints of the tool, if it has any.
func (t *interceptedTool) Hints(function string) (document.Hints, bool) {
	if ht, ok := t.tool.(HintTool); ok {
		return ht.Hints(function)
	}
	return document.Hints{}, false
}

// HeaderParameters passes on the header parameters of the tool, if it has
// any (HeaderTool).
func (t *interceptedTool) HeaderParameters(function string) map[string]string {
	if ht, ok := t.tool.(HeaderTool); ok {
		return ht.HeaderParameters(function)
	}
	return nil
}

func (t *interceptedTool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	call := intercept.ServedCall(ctx, name, args, false)
	// The result travels in call.Result, and the closure captures t and
	// call alone: two allocations a call (call, closure), not four.
	err := intercept.Run(ctx, t.ics, call, func(ctx context.Context) error {
		result, err := t.tool.Call(ctx, call.Function, call.Args)
		if err == nil {
			call.Result = result
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return call.Result, nil
}

func (t *interceptedStreamTool) StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(json.RawMessage) error) error {
	call := intercept.ServedCall(ctx, name, args, true)
	return intercept.Run(ctx, t.ics, call, func(ctx context.Context) error {
		return t.stream.StreamCall(ctx, name, args, func(item json.RawMessage) error {
			err := emit(item)
			if err == nil {
				call.Items++
			}
			return err
		})
	})
}

// InterceptCaller returns c with ics run around each of its calls, on the
// calling side: the typed client NewClient(runtime.InterceptCaller(c,
// ics...)) runs them whatever c's transport. The metadata interceptors
// add to [intercept.Call.Meta] travels with the call ([intercept.WithOutgoingMetadata]).
// With no interceptors it returns c itself.
func InterceptCaller(c Caller, ics ...intercept.Func) Caller {
	if len(ics) == 0 || c == nil {
		return c
	}
	ic := &interceptedCaller{c: c, ics: slices.Clone(ics), front: frontOf(c)}
	if d, ok := c.(interface{ Destination(function string) string }); ok {
		ic.dest = d.Destination
	}
	return ic
}

// frontOf is the front that carries the calls of c, for [intercept.Call.Front].
func frontOf(c Caller) string {
	front := ""
	switch c := c.(type) {
	case *Client:
		front = intercept.FrontOpenTool
	case *local:
		front = intercept.FrontLocal
		if f, ok := c.tool.(interface{ Front() string }); ok { // a transport as a Tool: mcpbridge.Tool
			front = f.Front()
		}
	case interface{ Front() string }:
		front = c.Front()
	}
	return front
}

// callerOf returns c, run through the interceptors ctx carries
// ([intercept.WithCallInterceptors]) unless it runs interceptors of its own.
func callerOf(ctx context.Context, c Caller) Caller {
	ics := intercept.CallInterceptors(ctx)
	if ics == nil {
		return c
	}
	if _, ok := c.(*interceptedCaller); ok {
		return c
	}
	return &interceptedCaller{c: c, ics: ics, front: frontOf(c)}
}

type interceptedCaller struct {
	c     Caller
	ics   []intercept.Func
	front string
	// dest names where a call of a function goes, for
	// intercept.Call.Destination, when c says (natsbridge.Caller: the subject).
	dest func(function string) string
}

// Front names the transport of the Caller it intercepts.
func (c *interceptedCaller) Front() string { return c.front }

func (c *interceptedCaller) clientCall(ctx context.Context, name string, args json.RawMessage, stream bool) *intercept.Call {
	md := intercept.MapMetadata{}
	if out := intercept.OutgoingMetadata(ctx); out != nil {
		for _, k := range out.Keys() {
			md[k] = out.Get(k)
		}
	}
	call := &intercept.Call{Function: name, Args: args, Stream: stream, Front: c.front, Meta: md}
	if c.dest != nil {
		call.Destination = c.dest(name)
	}
	return call
}

func (c *interceptedCaller) CallFunction(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	call := c.clientCall(ctx, name, args, false)
	var result json.RawMessage
	err := intercept.Run(ctx, c.ics, call, func(ctx context.Context) error {
		ctx = withCallMeta(ctx, call.Meta)
		var err error
		result, err = c.c.CallFunction(ctx, name, args)
		if err == nil {
			call.Result = result
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return result, nil
}

func (c *interceptedCaller) StreamFunction(ctx context.Context, name string, args json.RawMessage) iter.Seq2[json.RawMessage, error] {
	return func(yield func(json.RawMessage, error) bool) {
		call := c.clientCall(ctx, name, args, true)
		var yielded bool // the error is yielded already
		err := intercept.Run(ctx, c.ics, call, func(ctx context.Context) error {
			ctx = withCallMeta(ctx, call.Meta)
			for item, err := range c.c.StreamFunction(ctx, name, args) {
				if err != nil {
					return err
				}
				call.Items++
				if !yield(item, nil) {
					yielded = true
					return nil // the caller's choice, not a failure
				}
			}
			return nil
		})
		if err != nil && !yielded {
			yield(nil, err)
		}
	}
}

// withCallMeta returns ctx carrying md as outgoing metadata, unless md is
// empty.
func withCallMeta(ctx context.Context, md intercept.Metadata) context.Context {
	if m, ok := md.(intercept.MapMetadata); (ok && len(m) == 0) || md == nil {
		return ctx
	}
	return intercept.WithOutgoingMetadata(ctx, md)
}
