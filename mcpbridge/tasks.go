package mcpbridge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// TasksExtension is the name of MCP's tasks extension (SEP-2663 of the
// 2026-07-28 specification): a server answers a tools/call with a task
// (resultType "task") that the client polls with tasks/get and ends with
// tasks/cancel.
const TasksExtension = "io.modelcontextprotocol/tasks"

// The defaults of TaskOptions.
const (
	DefaultMaxTasks         = 1000
	DefaultMaxOwnerTasks    = 100
	DefaultMaxTaskBytes     = 256 << 20
	DefaultMaxOwnerBytes    = 64 << 20
	DefaultTaskTTL          = time.Hour
	DefaultTaskPollInterval = time.Second
)

// CodeTasksFull is the JSON-RPC error code of a task the store cannot
// take now (too many tasks, or too many bytes of results): a retryable
// error, whose data says which limit ("limit", "max") and when to retry
// ("retryAfterMs", when the oldest task that counts expires).
const CodeTasksFull = -32000

// TaskOptions says which calls a server of this package runs as tasks (MCP's
// tasks extension, [TasksExtension]) and bounds the tasks it keeps.
//
// A call runs as a task only when its client declares the extension in the
// request's capabilities (the specification's rule), and only for the
// functions of Functions and those whose document says
// execution.taskSupport "optional" or "required" (a package generated from
// an MCP listing). A function whose document says "required" refuses the
// calls of a client that does not declare the extension: error -32021
// (missing required client capability), naming the extension; except when
// the served tool is a [TaskRunner] for it (a gateway to an MCP server,
// whose client runs the upstream's task for a plain call): then a client
// without the extension is served a plain call.
//
// tools/list says what the server does: execution.taskSupport "required"
// for a function it refuses to call plainly, "optional" for the other
// functions that may run as tasks, nothing for the rest.
type TaskOptions struct {
	// Functions run as tasks (a streaming function's items are then
	// gathered into its result, as for a client that asks for no progress).
	Functions []string
	// After: a call that has returned within After is answered at once,
	// as a plain call; only a slower one becomes a task. 0: every call of
	// the functions is a task.
	After time.Duration
	// Max is the number of tasks kept at once, running or done, of all
	// owners (default DefaultMaxTasks), and MaxPerOwner that of one owner
	// (default DefaultMaxOwnerTasks). When one is reached, a function that
	// requires tasks is refused with the retryable error CodeTasksFull
	// naming the limit, and the others run as plain calls.
	//
	// The owner of a task is who may read it: its session and, when the
	// request was authenticated (the SDK's auth middleware: TokenInfo), its
	// user. The quota of MaxPerOwner and MaxOwnerBytes is counted by user
	// when there is one (all of a user's sessions together), else by
	// session. A stateless handler has no sessions: its unauthenticated
	// clients are one owner.
	Max, MaxPerOwner int
	// MaxBytes bounds the bytes of results the store holds, of all owners
	// (default DefaultMaxTaskBytes), MaxOwnerBytes those of one owner
	// (default DefaultMaxOwnerBytes). A result is held once: its text
	// content, when it is the JSON of its structuredContent (what this
	// package answers), is made again from it for each tasks/get. A result
	// that would take the store beyond a bound is not kept: the task fails
	// with the error CodeTasksFull naming the limit and the result's size.
	MaxBytes, MaxOwnerBytes int64
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
	name      string // the function's
	created   time.Time
	expires   time.Time
	cancel    context.CancelCauseFunc

	quota   string          // whom the task counts against (quotaOf)
	handoff chan callResult // a plain call's waiter (After), nil without one
	size    int64           // the bytes of its result counted in the store (tasks.mu)

	mu      sync.Mutex
	updated time.Time
	status  string
	message string
	result  *mcp.CallToolResult // its text content left out when derived
	derived bool                // the text content is the JSON of structuredContent
	err     *jsonrpc.Error
	done    chan struct{} // closed when the task has ended
}

// callResult is what a task's call returned.
type callResult struct {
	res mcp.Result
	err error
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

	mu         sync.Mutex
	tasks      map[string]*task
	owned      map[string]int   // tasks by quota
	bytes      int64            // bytes of the results held
	ownerBytes map[string]int64 // bytes of the results held by quota
}

// TaskRunner is a runtime.Tool that runs, for a plain call, the task an
// MCP server behind it requires: a Tool of [HTTPTool] is one (its client
// declares the tasks extension, polls the task and returns its result), and
// so is a tool that passes its calls to one (the command generated from an
// MCP listing). A server of this package serves a function whose document
// says taskSupport "required" to a client without the extension when its
// tool runs tasks for that function.
type TaskRunner interface {
	RunsTasks(function string) bool
}

// newTasks returns the task store of the server of doc, or nil when no
// function runs as a task. runner, when not nil, runs the upstream tasks of
// the functions it says.
func newTasks(doc *document.OpenTool, o *TaskOptions, stopped context.Context, runner TaskRunner) (*tasks, error) {
	ts := &tasks{eligible: map[string]bool{}, required: map[string]bool{}, stopped: stopped, tasks: map[string]*task{},
		owned: map[string]int{}, ownerBytes: map[string]int64{}}
	if o != nil {
		ts.opts = *o
	}
	known := map[string]bool{}
	for i := range doc.Functions {
		f := &doc.Functions[i]
		known[f.Name] = true
		if f.Execution != nil && (f.Execution.TaskSupport == "optional" || f.Execution.TaskSupport == "required") {
			ts.eligible[f.Name] = true
			ts.required[f.Name] = f.TaskRequired() && (runner == nil || !runner.RunsTasks(f.Name))
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
	ts.opts.MaxPerOwner = limit(ts.opts.MaxPerOwner, DefaultMaxOwnerTasks, 1<<20)
	ts.opts.MaxBytes = limit(ts.opts.MaxBytes, DefaultMaxTaskBytes, math.MaxInt64)
	ts.opts.MaxOwnerBytes = limit(ts.opts.MaxOwnerBytes, DefaultMaxOwnerBytes, math.MaxInt64)
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

// quotaOf is whom a request's tasks count against (MaxPerOwner,
// MaxOwnerBytes): its authenticated user when it has one, else its session.
func quotaOf(ss *mcp.ServerSession, extra *mcp.RequestExtra) string {
	if extra != nil && extra.TokenInfo != nil && extra.TokenInfo.UserID != "" {
		return "user\x00" + extra.TokenInfo.UserID
	}
	if ss != nil {
		return "session\x00" + ss.ID()
	}
	return "session\x00"
}

// fullError is the retryable error of a store that cannot take a task or
// a result now: what, the limit's name and value, and when to retry.
func fullError(what, limitName string, max int64, retry time.Duration) *jsonrpc.Error {
	msg := what + " (mcpbridge.TaskOptions." + limitName + " " + strconv.FormatInt(max, 10) + ")"
	data := map[string]any{"limit": limitName, "max": max}
	if retry > 0 {
		retry = retry.Round(time.Second) + time.Second
		msg += ": retry in " + retry.String()
		data["retryAfterMs"] = retry.Milliseconds()
	}
	b, _ := json.Marshal(data)
	return &jsonrpc.Error{Code: CodeTasksFull, Message: msg, Data: b}
}

func (ts *tasks) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list":
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil {
				return ts.listing(lr)
			}
			return res, err
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

// listedTools is a tools/list result whose tools say their
// execution.taskSupport (the SDK's Tool has no member for it).
type listedTools struct {
	mcp.ResultBase
	Tools      []json.RawMessage `json:"tools"`
	NextCursor string            `json:"nextCursor,omitempty"`
}

// listing returns lr with each tool's execution.taskSupport: "required"
// for a function refused to a client without the extension, "optional"
// for the others that may run as tasks.
func (ts *tasks) listing(lr *mcp.ListToolsResult) (mcp.Result, error) {
	out := &listedTools{Tools: make([]json.RawMessage, 0, len(lr.Tools)), NextCursor: lr.NextCursor}
	out.SetMeta(lr.GetMeta())
	for _, tool := range lr.Tools {
		b, err := json.Marshal(tool)
		if err != nil {
			return nil, err
		}
		if ts.eligible[tool.Name] {
			support := "optional"
			if ts.required[tool.Name] {
				support = "required"
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b, &m); err != nil {
				return nil, err
			}
			m["execution"] = json.RawMessage(`{"taskSupport":"` + support + `"}`)
			if b, err = json.Marshal(m); err != nil {
				return nil, err
			}
		}
		out.Tools = append(out.Tools, b)
	}
	return out, nil
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
	waits := ts.opts.After > 0 && !ts.required[name]
	t, full := ts.add(ownerOf(r.Session, r.Extra), quotaOf(r.Session, r.Extra), cancel, name, waits)
	if full != nil {
		cancel(nil)
		if ts.required[name] {
			return nil, full
		}
		return next(ctx, "tools/call", r)
	}
	stopHook := context.AfterFunc(ts.stopped, func() { cancel(context.Cause(ts.stopped)) })
	go func() {
		defer stopHook()
		defer cancel(nil)
		res, err := next(tctx, "tools/call", detached(r))
		if t.handoff != nil {
			select {
			case t.handoff <- callResult{res, err}: // answered as a plain call
				ts.drop(t.id)
				close(t.done)
				return
			default:
			}
		}
		ts.end(t, res, err, tctx)
	}()
	if waits {
		timer := time.NewTimer(ts.opts.After)
		defer timer.Stop()
		select {
		case out := <-t.handoff:
			return out.res, out.err
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

// end records the outcome of a task's call, its result held once and
// counted in the store's bytes; a result beyond them fails the task.
func (ts *tasks) end(t *task, res mcp.Result, err error, ctx context.Context) {
	// The result is counted (ts.mu) before t.mu is taken: purge holds ts.mu
	// and never t.mu.
	var (
		kept    *mcp.CallToolResult
		derived bool
		full    *jsonrpc.Error
	)
	result, _ := res.(*mcp.CallToolResult)
	if context.Cause(ctx) != errTaskCancelled && err == nil && result != nil {
		var size int64
		kept, derived, size = keepOnce(result)
		full = ts.charge(t, size)
	}
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
	case result == nil:
		t.status, t.err = taskFailed, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("unexpected result %T", res)}
		t.message = t.err.Message
	case full != nil:
		t.status, t.err, t.message = taskFailed, full, full.Message
	default:
		t.status, t.result, t.derived = taskCompleted, kept, derived
	}
}

// keepOnce returns the form of res a task holds, whether its text content
// is left out (derived: the JSON of its structuredContent, made again on
// read), and the bytes it holds (its JSON's length).
func keepOnce(res *mcp.CallToolResult) (*mcp.CallToolResult, bool, int64) {
	kept := res
	derived := false
	if raw, ok := res.StructuredContent.(json.RawMessage); ok && len(res.Content) == 1 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok && tc.Meta == nil && tc.Annotations == nil && tc.Text == string(raw) {
			c := *res
			c.Content = nil
			kept, derived = &c, true
		}
	}
	b, err := json.Marshal(kept)
	if err != nil {
		return kept, derived, 0
	}
	return kept, derived, int64(len(b))
}

// charge counts size bytes of t's result in the store, or returns the
// error of a store that cannot hold them.
func (ts *tasks) charge(t *task, size int64) *jsonrpc.Error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if _, ok := ts.tasks[t.id]; !ok {
		return nil // dropped already (expired): nothing to count
	}
	what := fmt.Sprintf("the result of %s (%d bytes) is not kept", strconv.Quote(t.name), size)
	switch {
	case ts.ownerBytes[t.quota]+size > ts.opts.MaxOwnerBytes:
		return fullError(what+": the results of this owner's tasks would exceed the bytes one owner's may hold",
			"MaxOwnerBytes", ts.opts.MaxOwnerBytes, ts.retryAfter(t.quota, size <= ts.opts.MaxOwnerBytes))
	case ts.bytes+size > ts.opts.MaxBytes:
		return fullError(what+": the results of the server's tasks would exceed the bytes they may hold",
			"MaxBytes", ts.opts.MaxBytes, ts.retryAfter("", size <= ts.opts.MaxBytes))
	}
	ts.bytes += size
	ts.ownerBytes[t.quota] += size
	t.size = size
	return nil
}

// retryAfter is the time until the first task of quota (all for "")
// expires, 0 when waiting cannot help (!helps) or there is none. ts.mu is
// held.
func (ts *tasks) retryAfter(quota string, helps bool) time.Duration {
	if !helps {
		return 0
	}
	var first time.Time
	for _, t := range ts.tasks {
		if (quota == "" || t.quota == quota) && (first.IsZero() || t.expires.Before(first)) {
			first = t.expires
		}
	}
	if first.IsZero() {
		return 0
	}
	return max(time.Until(first), 0)
}

// held is the bytes of results the store holds (TaskOptions.MaxBytes
// counts them).
func (ts *tasks) held() int64 {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.bytes
}

// add creates a task of owner counted against quota, or returns the
// retryable error of a full store.
func (ts *tasks) add(owner, quota string, cancel context.CancelCauseFunc, name string, waits bool) (*task, *jsonrpc.Error) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	now := time.Now()
	t := &task{id: hex.EncodeToString(b[:]), owner: owner, quota: quota, name: name, cancel: cancel, created: now,
		expires: now.Add(ts.opts.TTL), updated: now, status: taskWorking, done: make(chan struct{})}
	if waits {
		t.handoff = make(chan callResult)
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.purge(now)
	if n := ts.owned[quota]; n >= ts.opts.MaxPerOwner {
		return nil, fullError(fmt.Sprintf("too many tasks: this owner has %d, the most one keeps; %s cannot run as a task now", n, strconv.Quote(name)),
			"MaxPerOwner", int64(ts.opts.MaxPerOwner), ts.retryAfter(quota, true))
	}
	if len(ts.tasks) >= ts.opts.Max {
		return nil, fullError(fmt.Sprintf("too many tasks: the server has %d, the most it keeps; %s cannot run as a task now", len(ts.tasks), strconv.Quote(name)),
			"Max", int64(ts.opts.Max), ts.retryAfter("", true))
	}
	ts.tasks[t.id] = t
	ts.owned[quota]++
	return t, nil
}

// remove drops t from the store and its counts. ts.mu is held.
func (ts *tasks) remove(t *task) {
	if _, ok := ts.tasks[t.id]; !ok {
		return
	}
	delete(ts.tasks, t.id)
	if ts.owned[t.quota]--; ts.owned[t.quota] <= 0 {
		delete(ts.owned, t.quota)
	}
	size := t.size
	t.size = 0
	ts.bytes -= size
	if ts.ownerBytes[t.quota] -= size; ts.ownerBytes[t.quota] <= 0 {
		delete(ts.ownerBytes, t.quota)
	}
}

// purge drops the expired tasks, cancelling those still running. ts.mu is
// held.
func (ts *tasks) purge(now time.Time) {
	for _, t := range ts.tasks {
		if now.After(t.expires) {
			t.cancel(errTaskExpired)
			ts.remove(t)
		}
	}
}

func (ts *tasks) drop(id string) {
	ts.mu.Lock()
	if t, ok := ts.tasks[id]; ok {
		ts.remove(t)
	}
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
		Result:         t.answer(),
		Error:          t.err,
	}
}

// answer is the result of t as it is sent: its text content made again
// when it was left out. t.mu is held.
func (t *task) answer() *mcp.CallToolResult {
	if t.result == nil || !t.derived {
		return t.result
	}
	c := *t.result
	c.Content = []mcp.Content{&mcp.TextContent{Text: string(c.StructuredContent.(json.RawMessage))}}
	return &c
}
