package mcpbridge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The client side of the tasks extension ([TasksExtension]).
//
// The Go SDK v1.8.0 decodes the answer to tools/call into a CallToolResult,
// which has no room for a task (taskId, status, …), and a Connection of its
// streamable transport cannot be wrapped (its session hooks are
// unexported). So HTTPTool's HTTP client does the polling itself, below the
// SDK: taskTransport reads the answers to tools/call; an answer with
// resultType "task" is held back while it polls tasks/get (with the
// session's headers, Mcp-Name set to the task's id, as the specification
// asks), and the task's final result (or error) is handed to the SDK in its
// place, as the answer to the call. The call's context ending sends
// tasks/cancel.

// Bounds of the polling: the interval a server suggests is kept within
// them (none suggested: DefaultTaskPollInterval).
const (
	minTaskPoll = 10 * time.Millisecond
	maxTaskPoll = 30 * time.Second
)

// taskCapabilities are the capabilities of HTTPTool's client: the tasks
// extension (not the SDK's default, roots, which the Tool does not serve).
func taskCapabilities() *mcp.ClientCapabilities {
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension(TasksExtension, map[string]any{})
	return caps
}

// taskAnswerGrace is how long the answer to a call is still read after the
// call's context ended.
const taskAnswerGrace = 5 * time.Second

// closer is a body whose Close also calls done.
type closer struct {
	io.ReadCloser
	done func()
}

func (c closer) Close() error {
	err := c.ReadCloser.Close()
	c.done()
	return err
}

// taskTransport is the RoundTripper of HTTPTool's client that polls the
// tasks servers answer tools/call with.
type taskTransport struct {
	next http.RoundTripper
	// maxEvent bounds an event of the answer to a call (< 0: none): a
	// longer one is read past, not kept, and the SDK is handed an error
	// answer to the call in its place (its own bound on an event would
	// close the session: every later call would fail).
	maxEvent int
}

var taskRequests atomic.Uint64 // numbers the JSON-RPC ids of the polls

// rpcCall is what taskTransport reads of a request.
type rpcCall struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta map[string]any `json:"_meta"`
	} `json:"params"`
}

// rpcAnswer is what taskTransport reads of an answer.
type rpcAnswer struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// wireTask is a task as the server sends it (CreateTaskResult, tasks/get).
type wireTask struct {
	ResultType     string          `json:"resultType"`
	TaskID         string          `json:"taskId"`
	Status         string          `json:"status"`
	StatusMessage  string          `json:"statusMessage"`
	PollIntervalMs *int64          `json:"pollIntervalMs"`
	Result         json.RawMessage `json:"result"`
	Error          json.RawMessage `json:"error"`
}

func (t taskTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != http.MethodPost || r.Body == nil || (r.Header.Get("Mcp-Method") != "" && r.Header.Get("Mcp-Method") != "tools/call") {
		return t.next.RoundTrip(r)
	}
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return nil, err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var call rpcCall
	if json.Unmarshal(body, &call) != nil || call.Method != "tools/call" || len(call.ID) == 0 {
		return t.next.RoundTrip(r)
	}
	// The answer is read for a while after the call's context ends: a
	// task it brings is then cancelled (tasks/cancel), not left running.
	dctx, dcancel := context.WithCancel(context.WithoutCancel(r.Context()))
	unhook := context.AfterFunc(r.Context(), func() { time.AfterFunc(taskAnswerGrace, dcancel) })
	done := func() { unhook(); dcancel() }
	resp, err := t.next.RoundTrip(r.WithContext(dctx))
	if err != nil || resp.StatusCode != http.StatusOK {
		if err != nil {
			done()
		} else {
			resp.Body = closer{resp.Body, done}
		}
		return resp, err
	}
	p := &poller{t: t, r: r, call: call}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body = &taskEvents{p: p, src: closer{resp.Body, done}, in: bufio.NewReader(resp.Body), max: t.maxEvent}
		return resp, nil
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	done()
	if err != nil {
		return nil, err
	}
	if final, ok := p.replace(data); ok {
		data = final
	}
	resp.Body = io.NopCloser(bytes.NewReader(data))
	resp.ContentLength = int64(len(data))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// poller follows the task a call was answered with.
type poller struct {
	t    taskTransport
	r    *http.Request // the call's
	call rpcCall
}

// replace returns the answer to hand to the SDK in place of data (an
// answer to the call): when data is a task, the task's outcome.
func (p *poller) replace(data []byte) ([]byte, bool) {
	var a rpcAnswer
	if json.Unmarshal(data, &a) != nil || len(a.Result) == 0 || !bytes.Equal(bytes.TrimSpace(a.ID), bytes.TrimSpace(p.call.ID)) {
		return nil, false
	}
	var created wireTask
	if json.Unmarshal(a.Result, &created) != nil || created.ResultType != "task" || created.TaskID == "" {
		return nil, false
	}
	result, rpcErr := p.await(&created)
	out := map[string]any{"jsonrpc": "2.0", "id": p.call.ID}
	if rpcErr != nil {
		out["error"] = rpcErr
	} else {
		out["result"] = result
	}
	final, _ := json.Marshal(out)
	return final, true
}

// await polls the task until it ends: the call's result, or its JSON-RPC
// error.
func (p *poller) await(task *wireTask) (json.RawMessage, json.RawMessage) {
	ctx := p.r.Context()
	for {
		switch task.Status {
		case taskCompleted:
			if len(task.Result) == 0 {
				return nil, rpcError(-32603, "task "+task.TaskID+" completed without a result")
			}
			return task.Result, nil
		case taskFailed:
			if len(task.Error) == 0 {
				return nil, rpcError(-32603, "task "+task.TaskID+" failed: "+task.StatusMessage)
			}
			return nil, task.Error
		case taskCancelled:
			return nil, rpcError(-32603, "task "+task.TaskID+" was cancelled by the server: "+task.StatusMessage)
		}
		interval := DefaultTaskPollInterval
		if task.PollIntervalMs != nil {
			interval = min(max(time.Duration(*task.PollIntervalMs)*time.Millisecond, minTaskPoll), maxTaskPoll)
		}
		timer := time.NewTimer(interval)
		select {
		case <-ctx.Done():
			timer.Stop()
			p.cancel(task.TaskID)
			return nil, rpcError(-32800, "request cancelled: "+context.Cause(ctx).Error())
		case <-timer.C:
		}
		next, rpcErr := p.send(ctx, "tasks/get", task.TaskID)
		if rpcErr != nil {
			if ctx.Err() != nil {
				p.cancel(task.TaskID)
			}
			return nil, rpcErr
		}
		task = next
	}
}

// cancel sends tasks/cancel for a call whose context ended (within 5
// seconds, whatever the answer).
func (p *poller) cancel(id string) {
	ctx, stop := context.WithTimeout(context.WithoutCancel(p.r.Context()), 5*time.Second)
	defer stop()
	_, _ = p.send(ctx, "tasks/cancel", id)
}

// send sends a tasks method in the call's session and reads its answer.
func (p *poller) send(ctx context.Context, method, taskID string) (*wireTask, json.RawMessage) {
	meta := maps.Clone(p.call.Params.Meta)
	delete(meta, "progressToken")
	delete(meta, streamModeKey)
	id := "mcpbridge-task-" + strconv.FormatUint(taskRequests.Add(1), 10)
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method,
		"params": map[string]any{"taskId": taskID, "_meta": meta}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.r.URL.String(), bytes.NewReader(body))
	if err != nil {
		return nil, rpcError(-32603, err.Error())
	}
	for k, v := range p.r.Header {
		if !strings.HasPrefix(strings.ToLower(k), "mcp-param-") {
			req.Header[k] = v
		}
	}
	req.Header.Del("Content-Length")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", taskID)
	resp, err := p.t.next.RoundTrip(req)
	if err != nil {
		return nil, rpcError(-32603, method+": "+err.Error())
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusAccepted {
		return nil, rpcError(-32603, fmt.Sprintf("%s: HTTP %d", method, resp.StatusCode))
	}
	a, err := readAnswer(resp, id, p.t.maxEvent)
	if err != nil {
		return nil, rpcError(-32603, method+": "+err.Error())
	}
	if len(a.Error) > 0 && string(a.Error) != "null" {
		return nil, a.Error
	}
	var task wireTask
	if err := json.Unmarshal(a.Result, &task); err != nil {
		return nil, rpcError(-32603, method+": "+err.Error())
	}
	return &task, nil
}

// readAnswer reads the answer whose id is id from resp: a JSON body, or the
// event of an event stream that carries it.
func readAnswer(resp *http.Response, id string, max int) (*rpcAnswer, error) {
	want, _ := json.Marshal(id)
	match := func(data []byte) (*rpcAnswer, bool) {
		var a rpcAnswer
		if json.Unmarshal(data, &a) == nil && bytes.Equal(bytes.TrimSpace(a.ID), want) {
			return &a, true
		}
		return nil, false
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, err
		}
		if a, ok := match(data); ok {
			return a, nil
		}
		return nil, errors.New("no answer in the body")
	}
	in := bufio.NewReader(resp.Body)
	for {
		event, err := readEvent(in, max)
		if errors.Is(err, errEventTooLong) {
			return nil, err
		}
		if a, ok := match(eventData(event)); ok {
			return a, nil
		}
		if err != nil {
			return nil, fmt.Errorf("no answer in the event stream: %w", err)
		}
	}
}

// errEventTooLong is the error of readEvent for an event beyond its bound.
var errEventTooLong = errors.New("an event of the server is longer than the client's limit")

// readEvent reads one server-sent event: its lines up to the blank line
// that ends it, included. An event longer than max bytes (max < 0: no
// bound) is read to its end but not kept: errEventTooLong, and the stream
// can be read on.
func readEvent(in *bufio.Reader, max int) ([]byte, error) {
	var (
		event     []byte
		n         int
		over      bool
		lineStart = true
	)
	for {
		chunk, err := in.ReadSlice('\n')
		n += len(chunk)
		if max >= 0 && n > max {
			over, event = true, nil
		}
		if !over {
			event = append(event, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			lineStart = false // the line goes on
			continue
		}
		if err != nil {
			if over {
				return nil, errEventTooLong
			}
			return event, err
		}
		blank := lineStart && len(bytes.TrimRight(chunk, "\r\n")) == 0
		lineStart = true
		if blank {
			if over {
				return nil, errEventTooLong
			}
			return event, nil
		}
	}
}

// eventData returns the data of an event (its data lines joined).
func eventData(event []byte) []byte {
	var data [][]byte
	for _, line := range bytes.Split(event, []byte("\n")) {
		line = bytes.TrimRight(line, "\r")
		if rest, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			data = append(data, bytes.TrimPrefix(rest, []byte(" ")))
		}
	}
	return bytes.Join(data, []byte("\n"))
}

// taskEvents is the event stream of an answer to tools/call as the SDK
// reads it: the events as they came, but an event that answers the call
// with a task becomes the task's outcome (read after the polls).
type taskEvents struct {
	p   *poller
	src io.Closer
	in  *bufio.Reader
	max int // bytes of an event (< 0: no bound)
	buf []byte
	err error
}

func (e *taskEvents) Read(b []byte) (int, error) {
	for len(e.buf) == 0 {
		if e.err != nil {
			return 0, e.err
		}
		var event []byte
		event, e.err = readEvent(e.in, e.max)
		if errors.Is(e.err, errEventTooLong) {
			// The answer to the call, most likely: the call fails, the
			// session goes on.
			e.err = nil
			final, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": e.p.call.ID,
				"error": rpcError(http.StatusBadGateway, fmt.Sprintf("upstream MCP server: tools/call: an event of the answer is longer than the client's limit of %d bytes (mcpbridge.WithMaxMessageBytes): refused", e.max))})
			event = replaceData(nil, final)
		} else if final, ok := e.p.replace(eventData(event)); ok {
			event = replaceData(event, final)
		}
		e.buf = event
	}
	n := copy(b, e.buf)
	e.buf = e.buf[n:]
	return n, nil
}

func (e *taskEvents) Close() error { return e.src.Close() }

// replaceData returns event with data in place of its data lines.
func replaceData(event, data []byte) []byte {
	var out []byte
	for _, line := range bytes.SplitAfter(event, []byte("\n")) {
		if bytes.HasPrefix(line, []byte("data:")) || len(bytes.TrimRight(line, "\r\n")) == 0 {
			continue
		}
		out = append(out, line...)
	}
	out = append(out, "data: "...)
	out = append(out, data...)
	return append(out, "\n\n"...)
}

// rpcError is a JSON-RPC error object.
func rpcError(code int, message string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"code": code, "message": message})
	return b
}
