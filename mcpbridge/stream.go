package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/content"
)

// Streaming over MCP.
//
// A server of this package sends each item of a streaming function as a
// progress notification (its message the item's JSON, its _meta
// "opentool/item" the item) when the call has a progress token, and answers
// the call with every item in structuredContent {"items": […]}, within
// WithMaxResultBytes. A client that routes the notifications to the call
// (those of NewClient) asks, with _meta {"opentool/stream": "progress"} in
// its tools/call, for the items as notifications only: the result is then
// {"items": []} with _meta {"opentool/count": N}, the number of items sent,
// and neither side holds more than one item at a time.
//
// The Tool of such a server is a runtime.StreamTool: StreamCall hands each
// item to emit as its notification comes, when the session's client routes
// progress notifications here (the clients of NewClient, CommandTool and
// HTTPTool do), and otherwise, or for the items no notification brought,
// when the call ends. When the result only counts the items, StreamCall
// waits for the notifications of all of them (they may be handled after the
// result arrives), and fails when they stop coming for itemWait before the
// count is reached. A tool of another server, whose result has no items,
// streams that result as its one item.

// progressToken numbers the streaming calls of the process.
var progressToken atomic.Uint64

// streams are the streaming calls under way, by progress token.
var streams sync.Map // string → *streamCall

// itemWait is how long StreamCall waits for the next item's notification
// once the result has said how many were sent.
var itemWait = 10 * time.Second

// streamCall is one streaming call: the items emitted so far.
type streamCall struct {
	mu       sync.Mutex
	progress func(content.Progress)      // the call's progress function; nil for none
	emit     func(json.RawMessage) error // nil for a call that does not stream
	emitted  int
	done     bool
	err      error // emit's error: the call is cancelled
	cancel   context.CancelFunc
	moved    chan struct{} // closed, and replaced, when an item is emitted
}

// waitFor waits until n items are emitted, ctx ends, emit fails or no item
// comes for itemWait.
func (s *streamCall) waitFor(ctx context.Context, n int) error {
	t := time.NewTimer(itemWait)
	defer t.Stop()
	for {
		s.mu.Lock()
		emitted, err, moved := s.emitted, s.err, s.moved
		s.mu.Unlock()
		switch {
		case err != nil:
			return err
		case emitted >= n:
			return nil
		}
		select {
		case <-moved:
			t.Reset(itemWait)
		case <-ctx.Done():
			s.mu.Lock()
			err := s.err // emit's error cancels ctx: it is the cause
			s.mu.Unlock()
			if err != nil {
				return err
			}
			return ctx.Err()
		case <-t.C:
			return fmt.Errorf("mcpbridge: the server sent %d items as progress notifications, %d arrived", n, emitted)
		}
	}
}

// item hands the item a notification brings to emit, in order: an item out
// of order, or after the call ended, is left for the result to bring.
func (s *streamCall) item(progress float64, item json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done || s.err != nil || progress != float64(s.emitted+1) {
		return
	}
	if err := s.emit(item); err != nil {
		s.err = err
		s.cancel()
		return
	}
	s.emitted++
	close(s.moved)
	s.moved = make(chan struct{})
}

// NewClient returns an MCP client whose sessions' Tools (NewTool) stream:
// the progress notifications of a streaming call reach its emit as they come.
// opts may be nil; a ProgressNotificationHandler of its own is called too.
func NewClient(impl *mcp.Implementation, opts *mcp.ClientOptions) *mcp.Client {
	o := mcp.ClientOptions{}
	if opts != nil {
		o = *opts
	}
	theirs := o.ProgressNotificationHandler
	o.ProgressNotificationHandler = func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
		handleProgress(req.Params)
		if theirs != nil {
			theirs(ctx, req)
		}
	}
	c := mcp.NewClient(impl, &o)
	c.AddSendingMiddleware(askProgressOnly)
	return c
}

// askProgressOnly is the sending middleware of NewClient's clients: a
// streaming call of StreamCall, whose notifications this client routes to it,
// asks for its items as notifications only.
func askProgressOnly(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if p, ok := req.GetParams().(*mcp.CallToolParams); ok && p != nil && method == "tools/call" {
			if token, ok := p.GetProgressToken().(string); ok {
				if v, ours := streams.Load(token); ours && v.(*streamCall).emit != nil {
					if p.Meta == nil {
						p.Meta = mcp.Meta{}
					}
					p.Meta[streamModeKey] = streamModeProgress
				}
			}
		}
		return next(ctx, method, req)
	}
}

// handleProgress routes a progress notification of a streaming call.
func handleProgress(p *mcp.ProgressNotificationParams) {
	token, ok := p.ProgressToken.(string)
	if !ok {
		return
	}
	v, ok := streams.Load(token)
	if !ok {
		return
	}
	s := v.(*streamCall)
	if _, isItem := p.Meta[itemKey]; !isItem || s.emit == nil || !json.Valid([]byte(p.Message)) {
		s.report(content.Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
		return // a progress message, not an item
	}
	s.item(p.Progress, json.RawMessage(p.Message))
}

// report hands a progress notification to the call's progress function,
// one at a time, never after the call has ended.
func (s *streamCall) report(p content.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.progress == nil || s.done {
		return
	}
	s.progress(p)
}

// watch registers a call under a new progress token, which it returns with
// the function that ends the call.
func watch(s *streamCall) (token string, end func()) {
	token = "mcpbridge/" + strconv.FormatUint(progressToken.Add(1), 10)
	streams.Store(token, s)
	return token, func() {
		streams.Delete(token)
		s.mu.Lock()
		s.done = true
		s.mu.Unlock()
	}
}

// progressOf returns the progress function of ctx (content.WithProgress), as
// the function a streamCall calls.
func progressOf(ctx context.Context) func(content.Progress) {
	if !content.WantsProgress(ctx) {
		return nil
	}
	return func(p content.Progress) { content.ReportProgress(ctx, p) }
}

var _ runtime.StreamTool = (*Tool)(nil)

// StreamCall calls the MCP tool name with args and hands each item of its
// stream to emit (runtime.StreamTool). An error emit returns cancels the
// call and is returned.
func (t *Tool) StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(json.RawMessage) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &streamCall{emit: emit, progress: progressOf(ctx), cancel: cancel, moved: make(chan struct{})}
	token, end := watch(s)
	defer end()

	params := &mcp.CallToolParams{Name: name}
	if a := trimArgs(args); a != nil {
		params.Arguments = a
	}
	params.SetProgressToken(token)
	res, callErr := t.call(ctx, name, params)
	if res != nil {
		if n, ok := sentCount(res); ok { // the items came as notifications only
			if err := s.waitFor(ctx, n); err != nil {
				return err
			}
			s.mu.Lock()
			s.done = true
			s.mu.Unlock()
			return callErr
		}
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
	if s.err != nil {
		return s.err
	}
	if callErr != nil {
		if res != nil { // an error result: the items sent before the error
			var sent []json.RawMessage
			if b, err := json.Marshal(res.Meta[streamedKey]); err == nil && json.Unmarshal(b, &sent) == nil {
				for _, it := range sent[min(s.emitted, len(sent)):] {
					if err := emit(it); err != nil {
						return err
					}
				}
			}
		}
		return callErr
	}
	items, ok := streamItems(res)
	if !ok {
		if s.emitted > 0 {
			return nil
		}
		out, err := result(ctx, res)
		if err != nil {
			return err
		}
		return emit(out)
	}
	for _, it := range items[min(s.emitted, len(items)):] {
		if err := emit(it); err != nil {
			return err
		}
	}
	return nil
}

// sentCount returns the number of items a result says went as progress
// notifications only.
func sentCount(res *mcp.CallToolResult) (int, bool) {
	v, ok := res.Meta[countKey].(float64)
	if !ok || v < 0 || v != float64(int(v)) {
		return 0, false
	}
	return int(v), true
}

// streamItems returns the items of a streaming function's result
// (structuredContent {"items": […]}, read from the text content that holds
// the same JSON when there is one, for exact numbers).
func streamItems(res *mcp.CallToolResult) ([]json.RawMessage, bool) {
	raw, err := result(context.Background(), res)
	if err != nil {
		return nil, false
	}
	var body map[string]json.RawMessage
	if json.Unmarshal(raw, &body) != nil || len(body) != 1 {
		return nil, false
	}
	var items []json.RawMessage
	if b, ok := body[itemsKey]; !ok || json.Unmarshal(b, &items) != nil {
		return nil, false
	}
	return items, true
}

// errNoResult is a call that gave neither a result nor an error.
var errNoResult = errors.New("mcpbridge: the call gave no result")
