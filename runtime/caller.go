package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
)

// Caller calls the functions of a tool by name, with raw JSON: what a
// generated package's typed Client calls through, so that the same typed
// client works over any transport. [*Client] is a Caller over OpenTool HTTP;
// [Local] gives the Caller of a [Tool] in the same process, and with it of
// anything that is a Tool: an MCP server (mcpbridge.Tool), another OpenTool
// server ([RemoteTool]), a generated package's own Tool.
//
// A Caller's errors are classified as [*Client]'s are, so that errors.Is and
// errors.As answer the same whatever the transport: an error the tool answered
// is an [*Error] of class [ClassCall] with the tool's code, message and data; a
// transport that fails is an *Error of another class ([ErrNoAccess], …); when
// ctx ends first, the error wraps the context's (errors.Is(err,
// context.Canceled)); a streaming call of a function that does not stream has
// [ErrNoStreaming] in its chain.
//
// The methods are not named Call and StreamCall: *Client has methods of those
// names already, which take a [FunctionCall] and answer [ToolReturn]s (the
// call's id with its result) and which it keeps; and a [Tool]'s Call, with the
// same arguments as CallFunction, is the other side of the call (what a server
// calls, whose errors are the tool's own). A type can be a Tool and a Caller.
type Caller interface {
	// CallFunction calls the function name with args, the JSON object of its
	// arguments (nil for none), and returns the result object.
	CallFunction(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error)
	// StreamFunction calls the streaming function name with args and yields
	// each result object as the tool emits it. An error is yielded once and
	// ends the sequence. Each range over the sequence is a new call; stopping
	// the iteration early ends the call.
	StreamFunction(ctx context.Context, name string, args json.RawMessage) iter.Seq2[json.RawMessage, error]
}

var _ Caller = (*Client)(nil)

// CallFunction implements [Caller]: it is [Client.Call] (POST /call) with a
// new call id, answering the result object alone.
func (c *Client) CallFunction(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	return c.call(ctx, name, args, c.NewID())
}

// StreamFunction implements [Caller]: it is [Client.StreamCall] (POST
// /streamCall) with a new call id for each range over the sequence, yielding
// the result objects alone.
func (c *Client) StreamFunction(ctx context.Context, name string, args json.RawMessage) iter.Seq2[json.RawMessage, error] {
	return c.stream(ctx, name, args, "")
}

// errNoCaller is the error of a typed call through a nil Caller.
func errNoCaller(name string) error {
	return fmt.Errorf("opentool: calling %s: no Caller (a typed client made with a nil Caller)", quote(name))
}

// Invoke is the typed helper of generated clients: it calls name through c
// with args (a Go value encoded once as the arguments object; nil for none, a
// json.RawMessage or []byte as it is) and decodes the result into out (a
// pointer; nil to ignore it). resultName is the name of the function's return
// value for scalar and array returns (see [DecodeResult]), "" for an object
// return. A result that does not decode is an error of class
// [ClassResponseNull]. The interceptors ctx carries ([intercept.WithCallInterceptors])
// run around the call, unless c runs its own ([InterceptCaller]).
func Invoke(ctx context.Context, c Caller, name string, args any, resultName string, out any) error {
	if c == nil {
		return errNoCaller(name)
	}
	params, err := marshalArgs(args)
	if err != nil {
		return fmt.Errorf("opentool: encoding the arguments of %s: %w", name, err)
	}
	result, err := callerOf(ctx, c).CallFunction(ctx, name, params)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	if err := DecodeResult(result, resultName, out); err != nil {
		return resultError(name, err)
	}
	return nil
}

// InvokeStream is the typed helper of generated clients for streaming
// functions: it calls name through c with args (see [Invoke]) at each range
// over the sequence, and decodes each result into a T (see [Invoke] for
// resultName). An item that does not decode ends the sequence with an error of
// class [ClassResponseNull].
func InvokeStream[T any](ctx context.Context, c Caller, name string, args any, resultName string) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		if c == nil {
			yield(zero, errNoCaller(name))
			return
		}
		params, err := marshalArgs(args)
		if err != nil {
			yield(zero, fmt.Errorf("opentool: encoding the arguments of %s: %w", name, err))
			return
		}
		caller := callerOf(ctx, c)
		if cl, ok := caller.(*Client); ok {
			// A callback that does not escape, where a range over
			// StreamFunction's sequence would allocate its body.
			cl.streamTo(ctx, name, params, "", func(raw json.RawMessage, err error) bool {
				return yieldDecoded(yield, raw, err, name, resultName)
			})
			return
		}
		yieldEach(caller.StreamFunction(ctx, name, params), yield, name, resultName)
	}
}

// yieldEach yields each item of seq decoded (see [yieldDecoded]), until an
// error or yield answers false. It pulls the items (iter.Pull2) rather than
// ranging over seq: a range would hand seq a body holding yield, so yield
// would escape, and with it the body of every range over an [InvokeStream]
// sequence, a *Client's included.
func yieldEach[T any](seq iter.Seq2[json.RawMessage, error], yield func(T, error) bool, name, resultName string) {
	next, stop := iter.Pull2(seq)
	defer stop()
	for {
		raw, err, ok := next()
		if !ok || !yieldDecoded(yield, raw, err, name, resultName) {
			return
		}
	}
}

// yieldDecoded yields the error err, or raw decoded into a T (see
// [DecodeResult]), and reports whether the stream goes on.
func yieldDecoded[T any](yield func(T, error) bool, raw json.RawMessage, err error, name, resultName string) bool {
	var v T
	if err != nil {
		yield(v, err)
		return false
	}
	if err := DecodeResult(raw, resultName, &v); err != nil {
		var zero T
		yield(zero, resultError(name, err))
		return false
	}
	return yield(v, nil)
}
