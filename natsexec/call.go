package natsexec

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/nats-io/nats.go"

	"github.com/opentoolgen/opentoolgen/internal/natsmeta"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// Front is what [intercept.Call.Front] says of a call the executor makes
// (Options.Interceptors, and the interceptors of a tool of
// runtime.Intercept).
const Front = "natsexec"

// Bounds of a streaming function's items collected into its result.
const (
	DefaultMaxStreamItems = 1000
	DefaultMaxStreamBytes = 1 << 20
)

// call calls the function with the command's values and trace context on
// the context, through Options.Interceptors; spanCtx is the trace context
// of the innermost call's span when interceptors ran and a propagator is
// set (intercept.SetPropagator), else nil.
func (e *Executor) call(ctx context.Context, cmd *command, card *Card, args json.RawMessage, h nats.Header, subject string) (result json.RawMessage, spanCtx intercept.MapMetadata, f *failure) {
	ctx = runtime.WithCallValues(ctx, callValues(cmd, card))
	if h == nil {
		h = nats.Header{}
	}
	md := natsmeta.Header(h)
	ctx = intercept.WithIncoming(intercept.ExtractMetadata(ctx, md), intercept.Incoming{Front: Front, Meta: md, Destination: subject})
	if e.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.opts.Timeout)
		defer cancel()
	}
	defer func() {
		if p := recover(); p != nil {
			e.opts.Logger.Error("natsexec: the tool panicked", "function", cmd.function, "panic", p)
			result, f = nil, failureOf(runtime.InternalError("internal error: the tool panicked"))
		}
	}()
	stream := e.streams[cmd.function]
	info := &intercept.Call{Function: cmd.function, Args: args, Stream: stream, Server: true, Front: Front, Meta: md, Destination: subject}
	var res json.RawMessage
	err := intercept.Run(ctx, e.opts.Interceptors, info, func(ctx context.Context) error {
		if len(e.opts.Interceptors) > 0 && intercept.Propagating() {
			spanCtx = intercept.MapMetadata{}
			intercept.InjectMetadata(ctx, spanCtx)
		}
		var err error
		if stream {
			res, info.Items, err = e.collect(ctx, cmd.function, args)
			return err
		}
		res, err = e.tool.Call(ctx, cmd.function, args)
		if err == nil {
			info.Result = res
		}
		return err
	})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, spanCtx, failureOf(cerr)
		}
		return nil, spanCtx, failureOf(err)
	}
	res = bytes.TrimSpace(res)
	if len(res) == 0 || isNull(res) {
		return json.RawMessage("{}"), spanCtx, nil
	}
	if !isObject(res) || !json.Valid(res) {
		return nil, spanCtx, failureOf(runtime.InternalError("internal error: the tool's result is not a JSON object"))
	}
	return res, spanCtx, nil
}

// callValues are the call values of a command: the seed's template
// variables it and its card carry.
func callValues(cmd *command, card *Card) map[string]string {
	values := map[string]string{"project_id": cmd.project, "channel_id": cmd.channel}
	for _, k := range []string{"agent_id", "agent_turn_id", "tool_call_id", "context_box_id"} {
		var s string
		if json.Unmarshal(cmd.fields[k], &s) == nil {
			values[k] = s
		}
	}
	values["turn_epoch"] = string(cmd.fields["turn_epoch"])
	for _, k := range []string{"step_id", "parent_step_id", "trace_id"} {
		var s string
		if json.Unmarshal(card.Metadata[k], &s) == nil {
			values[k] = s
		}
	}
	for k, v := range values {
		if v == "" {
			delete(values, k)
		}
	}
	return values
}

var errStreamFull = errors.New("natsexec: the stream's items reached the bound")

// collect runs a streaming function and collects its items into the result
// {"items":[…]}, with "truncated": true when a bound ended the stream.
func (e *Executor) collect(ctx context.Context, function string, args json.RawMessage) (json.RawMessage, int, error) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var buf bytes.Buffer
	buf.WriteString(`{"items":[`)
	n, truncated := 0, false
	err := e.tool.(runtime.StreamTool).StreamCall(sctx, function, args, func(item json.RawMessage) error {
		item = bytes.TrimSpace(item)
		if !json.Valid(item) {
			return runtime.InternalError("internal error: the tool streamed an item that is not JSON")
		}
		if n >= e.opts.MaxStreamItems || buf.Len()+len(item)+32 > e.opts.MaxStreamBytes {
			truncated = true
			cancel()
			return errStreamFull
		}
		if n > 0 {
			buf.WriteByte(',')
		}
		buf.Write(item)
		n++
		return nil
	})
	if truncated && ctx.Err() == nil {
		err = nil // the tool ended on the bound: errStreamFull or the cancelled context
	}
	if err != nil {
		return nil, n, err
	}
	buf.WriteString("]")
	if truncated {
		buf.WriteString(`,"truncated":true`)
	}
	buf.WriteString("}")
	return buf.Bytes(), n, nil
}
