package mcpbridge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// TasksExtension is the name of MCP's tasks extension (SEP-2663 of the
// 2026-07-28 specification): a server answers a tools/call with a task
// (resultType "task") that the client polls with tasks/get and ends with
// tasks/cancel.
const TasksExtension = "io.modelcontextprotocol/tasks"

// The defaults of TaskOptions.
const (
	DefaultMaxTasks         = 1000
	DefaultTaskTTL          = time.Hour
	DefaultTaskPollInterval = time.Second
)

// TaskOptions says which calls a server of this package runs as tasks (MCP's
// tasks extension, [TasksExtension]) and bounds the tasks it keeps.
//
// A call runs as a task only when its client declares the extension in the
// request's capabilities (the specification's rule), and only for the
// functions of Functions and those whose document says
// execution.taskSupport "optional" or "required" (a package generated from
// an MCP listing). A function whose document says "required" refuses the
// calls of a client that does not declare the extension: error -32021
// (missing required client capability), naming the extension.
type TaskOptions struct {
	// Functions run as tasks (a streaming function's items are then
	// gathered into its result, as for a client that asks for no progress).
	Functions []string
	// After: a call that has returned within After is answered at once,
	// as a plain call; only a slower one becomes a task. 0: every call of
	// the functions is a task.
	After time.Duration
	// Max is the number of tasks kept at once, running or done (default
	// DefaultMaxTasks). When it is reached, a function that requires tasks
	// is refused (-32603) and the others run as plain calls.
	Max int
	// TTL is how long a task is kept after its creation (default
	// DefaultTaskTTL); a task still running then is cancelled and dropped.
	TTL time.Duration
	// PollInterval is the interval between polls suggested to clients
	// (default DefaultTaskPollInterval).
	PollInterval time.Duration
}

// WithTasks lets the server run calls as tasks (see [TaskOptions]) and
// declares the tasks extension in its capabilities. Without it, only the
// functions whose document says execution.taskSupport "optional" or
// "required" run as tasks, with the default bounds.
func WithTasks(o TaskOptions) Option { return func(c *config) { c.tasks = &o } }

// The statuses of a task.
const (
	taskWorking   = "working"
	taskCompleted = "completed"
	taskFailed    = "failed"
	taskCancelled = "cancelled"
)

// errTaskCancelled is the cause of the context of a task that tasks/cancel
// ended.
var errTaskCancelled = errors.New("mcpbridge: the task was cancelled (tasks/cancel)")

// errTaskExpired is the cause of the context of a task still running when
// its ttl elapsed.
var errTaskExpired = errors.New("mcpbridge: the task's ttl elapsed")

// task is one call run as a task.
type task struct {
	id, owner string
	created   time.Time
	expires   time.Time
	cancel    context.CancelCauseFunc

	mu      sync.Mutex
	updated time.Time
	status  string
	message string
	result  *mcp.CallToolResult
	err     *jsonrpc.Error
	done    chan struct{} // closed when the task has ended
}

// taskInfo is a task on the wire: CreateTaskResult (ResultType "task") and
// the result of tasks/get ("complete", with Result or Error when it has
// ended).
type taskInfo struct {
	mcp.ResultBase
	ResultType     string              `json:"resultType"`
	TaskID         string              `json:"taskId"`
	Status         string              `json:"status"`
	StatusMessage  string              `json:"statusMessage,omitempty"`
	CreatedAt      string              `json:"createdAt"`
	LastUpdatedAt  string              `json:"lastUpdatedAt"`
	TTLMs          int64               `json:"ttlMs"`
	PollIntervalMs int64               `json:"pollIntervalMs,omitempty"`
	Result         *mcp.CallToolResult `json:"result,omitempty"`
	Error          *jsonrpc.Error      `json:"error,omitempty"`
}

// taskParams are the parameters of tasks/get, tasks/update and tasks/cancel.
type taskParams struct {
	mcp.ParamsBase
	TaskID         string          `json:"taskId"`
	InputResponses json.RawMessage `json:"inputResponses,omitempty"`
}

// ackResult is the empty acknowledgement of tasks/cancel.
type ackResult struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
}

// tasks is the task store of a server.
type tasks struct {
	opts     TaskOptions
	eligible map[string]bool // functions that may run as tasks
	required map[string]bool // functions that run as tasks only
	stopped  context.Context // the bridge's: the end of the server ends the tasks

	mu    sync.Mutex
	tasks map[string]*task
}

// newTasks returns the task store of the server of doc, or nil when no
// function runs as a task.
func newTasks(doc *runtime.OpenTool, o *TaskOptions, stopped context.Context) (*tasks, error) {
	ts := &tasks{eligible: map[string]bool{}, required: map[string]bool{}, stopped: stopped, tasks: map[string]*task{}}
	if o != nil {
		ts.opts = *o
	}
	known := map[string]bool{}
	for i := range doc.Functions {
		f := &doc.Functions[i]
		known[f.Name] = true
		if f.Execution != nil && (f.Execution.TaskSupport == "optional" || f.Execution.TaskSupport == "required") {
			ts.eligible[f.Name] = true
			ts.required[f.Name] = f.TaskRequired()
		}
	}
	for _, name := range ts.opts.Functions {
		if !known[name] {
			return nil, fmt.Errorf("mcpbridge: tasks for %s: the document has no such function", strconv.Quote(name))
		}
		ts.eligible[name] = true
	}
	if len(ts.eligible) == 0 && o == nil {
		return nil, nil
	}
	ts.opts.Max = limit(ts.opts.Max, DefaultMaxTasks, 1<<20)
	if ts.opts.TTL <= 0 {
		ts.opts.TTL = DefaultTaskTTL
	}
	if ts.opts.PollInterval <= 0 {
		ts.opts.PollInterval = DefaultTaskPollInterval
	}
	return ts, nil
}

// serverOptions returns opts, with the tasks extension among the
// capabilities when ts is not nil.
func (ts *tasks) serverOptions(opts mcp.ServerOptions) mcp.ServerOptions {
	if ts == nil {
		return opts
	}
	caps := &mcp.ServerCapabilities{} // not the SDK's default, logging (deprecated since 2026-07-28)
	if opts.Capabilities != nil {
		c := *opts.Capabilities
		c.Extensions = maps.Clone(c.Extensions)
		caps = &c
	}
	caps.AddExtension(TasksExtension, map[string]any{})
	opts.Capabilities = caps
	return opts
}

// install adds the extension's methods and the middleware that turns calls into tasks.
func (ts *tasks) install(s *mcp.Server) error {
	handler := func(context.Context, *mcp.ServerSession, *taskParams) (*ackResult, error) {
		return nil, errors.New("mcpbridge: tasks middleware not installed") // the middleware answers
	}
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		if err := mcp.AddReceivingCustomMethod(s, m, handler); err != nil {
			return err
		}
	}
	s.AddReceivingMiddleware(ts.middleware)
	return nil
}

// declaresTasks reports whether the client of req declares the tasks
// extension.
func declaresTasks(caps *mcp.ClientCapabilities) bool {
	if caps == nil {
		return false
	}
	_, ok := caps.Extensions[TasksExtension]
	return ok
}

// missingCapability is the error -32021 that names the tasks extension.
func missingCapability() error {
	data, _ := json.Marshal(mcp.MissingRequiredClientCapabilityData{
		RequiredCapabilities: &mcp.ClientCapabilities{Extensions: map[string]any{TasksExtension: map[string]any{}}}})
	return &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: "Missing required client capability: " + TasksExtension, Data: data}
}

// ownerOf is who a request comes from: its session and, with
// authentication, its user. A task answers its owner only.
func ownerOf(ss *mcp.ServerSession, extra *mcp.RequestExtra) string {
	owner := ""
	if ss != nil {
		owner = ss.ID()
	}
	if extra != nil && extra.TokenInfo != nil {
		owner += "\x00" + extra.TokenInfo.UserID
	}
	return owner
}

func (ts *tasks) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/call":
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil && ts.eligible[r.Params.Name] {
				return ts.call(ctx, next, r)
			}
		case "tasks/get", "tasks/update", "tasks/cancel":
			if r, ok := req.(*mcp.ServerRequest[*taskParams]); ok {
				return ts.serve(method, r)
			}
		}
		return next(ctx, method, req)
	}
}

// call runs a call of a function that may run as a task.
func (ts *tasks) call(ctx context.Context, next mcp.MethodHandler, r *mcp.CallToolRequest) (mcp.Result, error) {
	name := r.Params.Name
	if !declaresTasks(r.ClientCapabilities()) {
		if ts.required[name] {
			return nil, missingCapability()
		}
		return next(ctx, "tools/call", r)
	}
	tctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	t, ok := ts.add(ownerOf(r.Session, r.Extra), cancel)
	if !ok {
		cancel(nil)
		if ts.required[name] {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
				Message: fmt.Sprintf("too many tasks (%d): %s cannot run now", ts.opts.Max, strconv.Quote(name))}
		}
		return next(ctx, "tools/call", r)
	}
	stopHook := context.AfterFunc(ts.stopped, func() { cancel(context.Cause(ts.stopped)) })
	go func() {
		defer stopHook()
		defer cancel(nil)
		res, err := next(tctx, "tools/call", detached(r))
		t.end(res, err, tctx)
	}()
	if ts.opts.After > 0 && !ts.required[name] {
		timer := time.NewTimer(ts.opts.After)
		defer timer.Stop()
		select {
		case <-t.done:
			ts.drop(t.id)
			return t.plain()
		case <-timer.C:
		case <-ctx.Done():
		}
	}
	info := ts.info(t, "task")
	return &info, nil
}

// detached returns the request a task runs: it is no longer tied to the
// HTTP request that carried it (requestHeader), and it asks for no progress
// (a streaming function's items are gathered into its result).
func detached(r *mcp.CallToolRequest) *mcp.CallToolRequest {
	c := *r
	p := *r.Params
	p.Meta = maps.Clone(p.Meta)
	delete(p.Meta, "progressToken")
	delete(p.Meta, streamModeKey)
	c.Params = &p
	if r.Extra != nil {
		e := *r.Extra
		e.Header = r.Extra.Header.Clone()
		e.Header.Del(requestHeader)
		c.Extra = &e
	}
	return &c
}

// end records the outcome of a task's call.
func (t *task) end(res mcp.Result, err error, ctx context.Context) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer close(t.done)
	t.updated = time.Now()
	switch {
	case context.Cause(ctx) == errTaskCancelled:
		t.status = taskCancelled
		t.message = "cancelled by tasks/cancel"
	case err != nil:
		t.status = taskFailed
		var je *jsonrpc.Error
		if !errors.As(err, &je) {
			je = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		t.err = je
		t.message = je.Message
	default:
		t.status = taskCompleted
		t.result, _ = res.(*mcp.CallToolResult)
		if t.result == nil {
			t.status, t.err = taskFailed, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("unexpected result %T", res)}
		}
	}
}

// plain is the answer of a task's call as a plain call's.
func (t *task) plain() (mcp.Result, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return nil, t.err
	}
	if t.result == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the call was cancelled"}
	}
	return t.result, nil
}

// add creates a task of owner, or reports that the store is full.
func (ts *tasks) add(owner string, cancel context.CancelCauseFunc) (*task, bool) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	now := time.Now()
	t := &task{id: hex.EncodeToString(b[:]), owner: owner, cancel: cancel, created: now, expires: now.Add(ts.opts.TTL),
		updated: now, status: taskWorking, done: make(chan struct{})}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.purge(now)
	if len(ts.tasks) >= ts.opts.Max {
		return nil, false
	}
	ts.tasks[t.id] = t
	return t, true
}

// purge drops the expired tasks, cancelling those still running. ts.mu is
// held.
func (ts *tasks) purge(now time.Time) {
	for id, t := range ts.tasks {
		if now.After(t.expires) {
			t.cancel(errTaskExpired)
			delete(ts.tasks, id)
		}
	}
}

func (ts *tasks) drop(id string) {
	ts.mu.Lock()
	delete(ts.tasks, id)
	ts.mu.Unlock()
}

// find returns the task id of owner, or the error -32602 the specification
// asks for an unknown task (another owner's task is unknown).
func (ts *tasks) find(id, owner string) (*task, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.purge(time.Now())
	t, ok := ts.tasks[id]
	if !ok || t.owner != owner {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown task " + strconv.Quote(clip(id))}
	}
	return t, nil
}

// serve answers tasks/get, tasks/update and tasks/cancel.
func (ts *tasks) serve(method string, r *mcp.ServerRequest[*taskParams]) (mcp.Result, error) {
	if !declaresTasks(r.ClientCapabilities()) {
		return nil, missingCapability()
	}
	if r.Params == nil || r.Params.TaskID == "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: method + ": missing taskId"}
	}
	t, err := ts.find(r.Params.TaskID, ownerOf(r.Session, r.Extra))
	if err != nil {
		return nil, err
	}
	switch method {
	case "tasks/cancel":
		t.cancel(errTaskCancelled)
		return &ackResult{ResultType: "complete"}, nil
	case "tasks/update":
		// No task of this server waits for input: nothing is outstanding,
		// and responses to keys not outstanding are ignored.
		return &ackResult{ResultType: "complete"}, nil
	}
	info := ts.info(t, "complete")
	return &info, nil
}

// info is the state of t on the wire.
func (ts *tasks) info(t *task, resultType string) taskInfo {
	t.mu.Lock()
	defer t.mu.Unlock()
	return taskInfo{
		ResultType:     resultType,
		TaskID:         t.id,
		Status:         t.status,
		StatusMessage:  t.message,
		CreatedAt:      t.created.UTC().Format(time.RFC3339Nano),
		LastUpdatedAt:  t.updated.UTC().Format(time.RFC3339Nano),
		TTLMs:          ts.opts.TTL.Milliseconds(),
		PollIntervalMs: ts.opts.PollInterval.Milliseconds(),
		Result:         t.result,
		Error:          t.err,
	}
}
