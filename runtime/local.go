package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"sync"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/internal/jsonrpc"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// Local returns the [Caller] of tool in the same process, for tests and for
// programs that hold the tool themselves: a generated typed client over it,
// NewClient(runtime.Local(tool)), calls the tool directly (no HTTP, no
// request to encode, no goroutine) and sees what it would see of the same
// tool served with [NewHandler] and called through a [*Client]:
//
//   - the tool gets the caller's context, with its values (the call values of
//     [WithCallValues] among them, which a server fills from request headers),
//     and the arguments a server passes it: {} when there are none;
//     arguments that are not a JSON object are refused without calling the
//     tool, with the same error; arguments that are not valid JSON are a -32700
//     call error, an empty name a -32600 one (a server, which parses the
//     arguments as part of the request, may word the message otherwise);
//   - a result is checked as the server checks it: none is {}, one that is not
//     a JSON object is a -32603 call error, invalid UTF-8 becomes U+FFFD;
//   - an error of the tool is the [*Error] of class [ClassCall] a *Client
//     reads from the server's answer: the tool's code, message and data, code
//     500 and the error's text for an error that is not an *Error. Like the
//     *Client's, it has no cause: the tool's own error values are not in its
//     chain, so that errors.Is and errors.As answer as they do over HTTP;
//   - when ctx ends before the tool returns, the error wraps ctx.Err()
//     (errors.Is(err, context.Canceled)), whatever the tool answered;
//   - the metadata of the call ([intercept.WithOutgoingMetadata], what the interceptors
//     of [InterceptCaller] add) is the tool's incoming metadata
//     ([intercept.IncomingMetadata], front [intercept.FrontLocal]), as a server's headers are;
//   - a streaming call of a tool that is not a [StreamTool] is the -32601 call
//     error a server answers, with [ErrNoStreaming] in its chain (as has any
//     -32601 error of a streaming call: a function the tool does not stream).
//
// A stream runs the tool's StreamCall in the goroutine that ranges over the
// sequence, and emit yields each item (checked as a result) to the loop body.
// emit returns an error once ctx is done, once the loop has stopped (a break:
// the context StreamCall got is then cancelled too, as a server's is when its
// client goes) and after StreamCall returned; StreamCall should then return. A
// tool may call emit from goroutines of its own, even concurrently: the calls
// are taken one at a time, and the loop body then runs in the goroutine that
// called emit.
//
// What Local does not do as a server and a *Client do: it does not recover a
// panic of the tool, which reaches the caller with its stack, as a panic of a
// function called directly does (a server logs it and answers -32603,
// "internal error"); and a call returns when the tool returns, so that a tool
// that ignores its context, or a stream's failing emit, keeps its caller
// waiting (a *Client returns as soon as ctx ends or the loop stops). Results
// and items are passed on without a copy: a tool must not modify one after
// returning or emitting it.
//
// Any Tool works: Local(runtime.RemoteTool(c)) calls an OpenTool server through
// its Tool (whose errors are a gateway's: a server that cannot be reached is a
// 502 call error; c itself is the Caller of that server), and
// Local(mcpTool), with a *mcpbridge.Tool, calls an MCP server: there the codes
// and data of errors are those the MCP server puts in its results' _meta
// ("opentool/error", as servers of mcpbridge do; otherwise code 500), and an
// MCP tool does not stream.
func Local(tool Tool) Caller {
	st, _ := tool.(StreamTool)
	_, metered := tool.(interface{ intercepted() *interceptedTool })
	return &local{tool: tool, stream: st, metered: metered}
}

type local struct {
	tool    Tool
	stream  StreamTool // nil when tool does not stream
	metered bool       // tool runs interceptors ([Intercept])
}

// callContext is the context the tool gets: the outgoing metadata of ctx
// becomes the incoming metadata of the call, as a front's would.
func (l *local) callContext(ctx context.Context) context.Context {
	md := intercept.OutgoingMetadata(ctx)
	if md == nil && !l.metered {
		return ctx
	}
	if md == nil {
		return intercept.WithLocal(ctx)
	}
	return intercept.WithIncomingMetadata(ctx, intercept.FrontLocal, md)
}

// request checks a call as *Client and a server would, before the tool is
// called: it returns the arguments the tool gets (nil for none) and the name.
func (l *local) request(ctx context.Context, name string, args json.RawMessage) (string, json.RawMessage, error) {
	if len(args) > 0 && !jsonrpc.IsNull(args) && !jsonrpc.IsObject(args) {
		return "", nil, errArgsNotObject()
	}
	if err := ctx.Err(); err != nil {
		return "", nil, localContextError(name, err)
	}
	if l.tool == nil {
		return "", nil, clientError(ClassNoAccess, CodeNoAccess, "runtime.Local: the tool is nil", nil)
	}
	if jsonrpc.IsNull(args) {
		args = emptyObject // what *Client sends
	} else if !json.Valid(args) {
		var v struct{}
		msg := "invalid JSON"
		if err := json.Unmarshal(args, &v); err != nil {
			msg = err.Error()
		}
		return "", nil, &Error{Class: ClassCall, Code: CodeParseError, Message: "parse error: " + msg}
	}
	if name == "" {
		return "", nil, &Error{Class: ClassCall, Code: CodeInvalidRequest, Message: "method must be a non-empty string"}
	}
	// The server reads the arguments' value alone, and the name from its JSON
	// string (U+FFFD for each byte that is not UTF-8).
	args = bytes.Trim(args, jsonSpace)
	if !utf8.ValidString(name) {
		b, _ := json.Marshal(name)
		json.Unmarshal(b, &name)
	}
	return name, args, nil
}

func localContextError(name string, err error) error {
	return fmt.Errorf("opentool: call %s: %w", quote(name), err)
}

// localError is the error a *Client reads when the server answers err.
func localError(err error) *Error {
	buf := getBuffer()
	defer putBuffer(buf)
	appendErrorObject(buf, asError(err))
	return decodeCallError(http.StatusOK, buf.Bytes())
}

const jsonSpace = " \t\r\n"

var errResultNotObject = InternalError("internal error: the tool returned a result that is not a JSON object")

// localResult is the result object a *Client reads when the tool answers
// result (item: emits it in a stream, where a result with line breaks is
// compacted to stay on the event's one data line).
func localResult(result json.RawMessage, item bool) (json.RawMessage, error) {
	if len(result) == 0 {
		return emptyObject, nil
	}
	if !json.Valid(result) || !jsonrpc.IsObject(result) {
		return nil, errResultNotObject
	}
	if !utf8.Valid(result) {
		var buf bytes.Buffer
		jsonrpc.WriteValidUTF8(&buf, result)
		result = buf.Bytes()
	}
	if item && bytes.ContainsAny(result, "\r\n") {
		var buf bytes.Buffer
		json.Compact(&buf, result)
		result = buf.Bytes()
	}
	return bytes.Trim(result, jsonSpace), nil // the client reads the value alone
}

func (l *local) CallFunction(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	name, args, err := l.request(ctx, name, args)
	if err != nil {
		return nil, err
	}
	result, err := l.tool.Call(l.callContext(ctx), name, args)
	if cerr := ctx.Err(); cerr != nil {
		return nil, localContextError(name, cerr)
	}
	if err != nil {
		return nil, localError(err)
	}
	if result, err = localResult(result, false); err != nil {
		return nil, localError(err)
	}
	return result, nil
}

func (l *local) StreamFunction(ctx context.Context, name string, args json.RawMessage) iter.Seq2[json.RawMessage, error] {
	return func(yield func(json.RawMessage, error) bool) {
		name, args, err := l.request(ctx, name, args)
		if err != nil {
			yield(nil, err)
			return
		}
		if l.stream == nil {
			yield(nil, &Error{Class: ClassCall, Code: CodeMethodNotFound,
				Message: "this tool has no streaming functions: " + quote(name), cause: ErrNoStreaming})
			return
		}
		sctx, cancel := context.WithCancel(l.callContext(ctx))
		defer cancel()
		var (
			mu            sync.Mutex
			stopped, done bool
		)
		emit := func(item json.RawMessage) error {
			mu.Lock()
			defer mu.Unlock()
			switch {
			case stopped:
				return errStreamStopped
			case done:
				return errStreamEnded
			}
			if err := sctx.Err(); err != nil {
				return err
			}
			item, err := localResult(item, true)
			if err != nil {
				return err
			}
			if !yield(item, nil) {
				stopped = true
				cancel()
				return errStreamStopped
			}
			return nil
		}
		err = l.stream.StreamCall(sctx, name, args, emit)
		mu.Lock()
		done = true
		wasStopped := stopped
		mu.Unlock()
		switch {
		case wasStopped:
		case ctx.Err() != nil:
			yield(nil, localContextError(name, ctx.Err()))
		case err != nil:
			yield(nil, notStreamed(localError(err)))
		}
	}
}

// What a Local stream's emit returns once the loop has stopped, and after
// StreamCall returned.
var (
	errStreamStopped = errors.New("opentool: the caller stopped reading the stream")
	errStreamEnded   = errors.New("opentool: stream already ended")
)
