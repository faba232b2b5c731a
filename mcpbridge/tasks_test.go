package mcpbridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	stream "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-stream"
)

const jobsDoc = `{
  "opentool": "1.0.0",
  "info": {"title": "jobs", "version": "1.0.0"},
  "functions": [
    {"name": "build", "description": "A long build.", "parameters": [
      {"name": "target", "schema": {"type": "string"}, "required": true}],
     "return": {"name": "artifact", "schema": {"type": "string"}},
     "execution": {"taskSupport": "required"}},
    {"name": "lint", "description": "A quick check.", "parameters": [],
     "return": {"name": "ok", "schema": {"type": "boolean"}},
     "execution": {"taskSupport": "optional"}},
    {"name": "plain", "description": "Never a task.", "parameters": [],
     "return": {"name": "ok", "schema": {"type": "boolean"}}}
  ]
}`

// jobs is a tool whose build runs until released or cancelled.
type jobs struct {
	doc       *document.OpenTool
	started   chan struct{}
	release   chan struct{}
	once      sync.Once
	cancelled chan error
}

// free lets the builds end.
func (j *jobs) free() { j.once.Do(func() { close(j.release) }) }

func newJobs(t testing.TB) *jobs {
	t.Helper()
	var doc document.OpenTool
	if err := json.Unmarshal([]byte(jobsDoc), &doc); err != nil {
		t.Fatal(err)
	}
	return &jobs{doc: &doc, started: make(chan struct{}, 8), release: make(chan struct{}), cancelled: make(chan error, 8)}
}

func (j *jobs) Load(context.Context) (*document.OpenTool, error) { return j.doc, nil }

func (j *jobs) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	switch name {
	case "build":
		var a struct{ Target string }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, runtime.InvalidParams(runtime.Violation{Message: err.Error()})
		}
		j.started <- struct{}{}
		select {
		case <-ctx.Done():
			j.cancelled <- context.Cause(ctx)
			return nil, ctx.Err()
		case <-j.release:
			return json.Marshal(map[string]string{"artifact": a.Target + ".tar"})
		}
	case "lint", "plain":
		return []byte(`{"ok":true}`), nil
	}
	return nil, runtime.MethodNotFound(name)
}

// wireLog records the JSON-RPC methods an MCP server receives over HTTP
// (with their Mcp-Name header) and the bodies of its answers to tools/call.
type wireLog struct {
	mu      sync.Mutex
	methods []string
	names   []string
	answers []string
	changed changed // after each method and answer logged
}

func (l *wireLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			var m struct{ Method string }
			_ = json.Unmarshal(body, &m)
			l.mu.Lock()
			l.methods = append(l.methods, m.Method)
			l.names = append(l.names, r.Header.Get("Mcp-Name"))
			l.mu.Unlock()
			l.changed.notify()
			if m.Method == "tools/call" {
				rec := &teeWriter{ResponseWriter: w}
				h.ServeHTTP(rec, r)
				l.mu.Lock()
				l.answers = append(l.answers, rec.buf.String())
				l.mu.Unlock()
				l.changed.notify()
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

func (l *wireLog) count(method string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, m := range l.methods {
		if m == method {
			n++
		}
	}
	return n
}

// taskID returns the taskId of the first answer to tools/call that is a
// task (waiting for it: the task may start before its answer is written).
func (l *wireLog) taskID(t testing.TB) string {
	t.Helper()
	var id string
	l.changed.waitUntil(t, "a task among the answers to tools/call", func() bool { id = l.firstTask(); return id != "" })
	return id
}

// waitCount waits until the server has received method n times in all.
func (l *wireLog) waitCount(t testing.TB, method string, n int) {
	t.Helper()
	l.changed.waitUntil(t, fmt.Sprintf("%d %s", n, method), func() bool { return l.count(method) >= n })
}

func (l *wireLog) firstTask() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, a := range l.answers {
		for _, line := range strings.Split(a, "\n") {
			line = strings.TrimPrefix(strings.TrimSpace(line), "data: ")
			var msg struct {
				Result struct{ ResultType, TaskID string }
			}
			if json.Unmarshal([]byte(line), &msg) == nil && msg.Result.ResultType == "task" {
				return msg.Result.TaskID
			}
		}
	}
	return ""
}

type teeWriter struct {
	http.ResponseWriter
	buf bytes.Buffer
}

func (w *teeWriter) Write(p []byte) (int, error) { w.buf.Write(p); return w.ResponseWriter.Write(p) }
func (w *teeWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// serveTasks serves tool over streamable HTTP with the options, logging
// the wire.
func serveTasks(t testing.TB, tool runtime.Tool, stateless bool, opts ...mcpbridge.Option) (string, *wireLog) {
	t.Helper()
	h, err := mcpbridge.NewHTTPHandler(context.Background(), tool, nil, stateless, opts...)
	if err != nil {
		t.Fatal(err)
	}
	log := &wireLog{changed: newChanged()}
	srv := httptest.NewServer(log.wrap(h))
	t.Cleanup(func() { h.Close(); srv.Close() })
	return srv.URL, log
}

func httpTool(t testing.TB, url string) *mcpbridge.Tool {
	t.Helper()
	tool, err := mcpbridge.HTTPTool(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tool.Close() })
	return tool
}

func waitFor[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(waitLong):
		t.Fatalf("timed out waiting for %s", what)
	}
	var zero T
	return zero
}

// TestTaskRequired calls a function whose document says taskSupport
// "required" through HTTPTool over streamable HTTP: the server answers the
// call with a task, the client polls tasks/get (Mcp-Name: the task's id)
// until it completes and returns its result as the call's. A client that
// does not declare the extension is refused with -32021.
func TestTaskRequired(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		t.Run(map[bool]string{false: "stateful", true: "stateless"}[stateless], func(t *testing.T) {
			j := newJobs(t)
			url, log := serveTasks(t, j, stateless, mcpbridge.WithTasks(mcpbridge.TaskOptions{PollInterval: 20 * time.Millisecond}))
			tool := httpTool(t, url)
			t.Cleanup(j.free) // before the Tool's Close, which waits for the call
			type out struct {
				res json.RawMessage
				err error
			}
			done := make(chan out, 1)
			go func() {
				res, err := tool.Call(context.Background(), "build", json.RawMessage(`{"target":"app"}`))
				done <- out{res, err}
			}()
			waitFor(t, j.started, "the build to start")
			id := log.taskID(t)
			log.waitCount(t, "tasks/get", 2)
			j.free()
			got := waitFor(t, done, "the call's result")
			if got.err != nil {
				t.Fatal(got.err)
			}
			if string(got.res) != `{"artifact":"app.tar"}` {
				t.Errorf("result %s", got.res)
			}
			log.mu.Lock()
			for i, m := range log.methods {
				if m == "tasks/get" && log.names[i] != id {
					t.Errorf("tasks/get with Mcp-Name %q, want the task's id %q", log.names[i], id)
				}
			}
			log.mu.Unlock()

			// The SDK's client, without the extension: refused.
			cs := sdkClient(t, url, false)
			_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "build", Arguments: map[string]any{"target": "x"}})
			var je *jsonrpc.Error
			if !errors.As(err, &je) || je.Code != mcp.CodeMissingRequiredClientCapabilities || !strings.Contains(string(je.Data), mcpbridge.TasksExtension) {
				t.Errorf("a plain call of a task-required function: %v (%+v), want -32021 naming %s", err, je, mcpbridge.TasksExtension)
			}
			// An optional one runs as a plain call for it.
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lint"})
			if err != nil || res.IsError {
				t.Errorf("a plain call of an optional function: %v %v", res, err)
			}
		})
	}
}

// TestTaskCancel ends the context of a call running as a task: the client
// sends tasks/cancel and the tool's context ends.
func TestTaskCancel(t *testing.T) {
	j := newJobs(t)
	url, log := serveTasks(t, j, false, mcpbridge.WithTasks(mcpbridge.TaskOptions{PollInterval: 20 * time.Millisecond}))
	tool := httpTool(t, url)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := tool.Call(ctx, "build", json.RawMessage(`{"target":"app"}`))
		done <- err
	}()
	waitFor(t, j.started, "the build to start")
	cancel()
	if err := waitFor(t, done, "the call to return"); err == nil {
		t.Error("a cancelled call returned no error")
	}
	var cause error
	select {
	case cause = <-j.cancelled:
	case <-time.After(waitLong):
		log.mu.Lock()
		t.Fatalf("the tool's context did not end; the server received %q", log.methods)
	}
	if cause == nil || !strings.Contains(cause.Error(), "tasks/cancel") {
		t.Errorf("the tool's context ended with %v, want the cause of tasks/cancel", cause)
	}
	if log.count("tasks/cancel") != 1 {
		t.Errorf("%d tasks/cancel, want 1", log.count("tasks/cancel"))
	}
}

// Task parameters and results of the test's own SDK client.
type taskParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

type taskResult struct {
	mcp.ResultBase
	ResultType     string              `json:"resultType"`
	TaskID         string              `json:"taskId"`
	Status         string              `json:"status"`
	CreatedAt      string              `json:"createdAt"`
	LastUpdatedAt  string              `json:"lastUpdatedAt"`
	TTLMs          *int64              `json:"ttlMs"`
	PollIntervalMs int64               `json:"pollIntervalMs"`
	Result         *mcp.CallToolResult `json:"result"`
}

// sdkClient connects the SDK's client to url, declaring the tasks
// extension or not.
func sdkClient(t testing.TB, url string, tasks bool) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{}
	if tasks {
		opts.Capabilities = &mcp.ClientCapabilities{}
		opts.Capabilities.AddExtension(mcpbridge.TasksExtension, map[string]any{})
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, opts)
	for _, m := range []string{"tasks/get", "tasks/cancel"} {
		if err := mcp.AddSendingCustomMethod[*taskParams, *taskResult](c, m); err != nil {
			t.Fatal(err)
		}
	}
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func getTask(cs *mcp.ClientSession, id string) (*taskResult, error) {
	return mcp.CallCustomMethod[*taskParams, *taskResult](context.Background(), cs, "tasks/get", &taskParams{TaskID: id})
}

func rpcCode(err error) int64 {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je.Code
	}
	return 0
}

// TestTaskGet reads a task with tasks/get from the SDK's client (its
// custom methods): its status, timestamps, ttl and poll interval, its
// result inline once completed; an unknown task and another session's are
// -32602, a client without the extension -32021.
func TestTaskGet(t *testing.T) {
	j := newJobs(t)
	url, log := serveTasks(t, j, false, mcpbridge.WithTasks(mcpbridge.TaskOptions{TTL: time.Minute, PollInterval: 250 * time.Millisecond}))
	cs := sdkClient(t, url, true)
	// The SDK cannot read the task it is answered with: it gets an empty
	// CallToolResult. The wire log has the task.
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "build", Arguments: map[string]any{"target": "lib"}}); err != nil {
		t.Fatal(err)
	}
	id := log.taskID(t)
	task, err := getTask(cs, id)
	if err != nil {
		t.Fatal(err)
	}
	created, err1 := time.Parse(time.RFC3339Nano, task.CreatedAt)
	_, err2 := time.Parse(time.RFC3339Nano, task.LastUpdatedAt)
	if task.TaskID != id || task.Status != "working" || task.ResultType != "complete" || err1 != nil || err2 != nil ||
		time.Since(created) > waitLong || task.TTLMs == nil || *task.TTLMs != 60000 || task.PollIntervalMs != 250 || task.Result != nil {
		t.Errorf("working task: %+v", task)
	}
	j.free()
	eventually(t, "the task to end", func() bool {
		if task, err = getTask(cs, id); err != nil {
			t.Fatal(err)
		}
		return task.Status != "working"
	})
	if task.Status != "completed" || task.Result == nil || task.Result.IsError {
		t.Fatalf("ended task: %+v", task)
	}
	if got := asJSON(t, task.Result.StructuredContent); !jsonEqual(got, map[string]any{"artifact": "lib.tar"}) {
		t.Errorf("structuredContent %v", got)
	}
	if _, err := getTask(cs, "nope"); rpcCode(err) != jsonrpc.CodeInvalidParams {
		t.Errorf("unknown task: %v, want -32602", err)
	}
	if _, err := getTask(sdkClient(t, url, true), id); rpcCode(err) != jsonrpc.CodeInvalidParams {
		t.Errorf("another session's task: %v, want -32602", err)
	}
	if _, err := getTask(sdkClient(t, url, false), id); rpcCode(err) != mcp.CodeMissingRequiredClientCapabilities {
		t.Errorf("tasks/get without the extension: %v, want -32021", err)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// TestTaskLimits: a store of one task refuses a second task-required call
// while the first runs, with the retryable error CodeTasksFull naming the
// limit and when to retry; a task is gone once its ttl has elapsed.
func TestTaskLimits(t *testing.T) {
	j := newJobs(t)
	url, log := serveTasks(t, j, false, mcpbridge.WithTasks(mcpbridge.TaskOptions{Max: 1, TTL: 1500 * time.Millisecond}))
	cs := sdkClient(t, url, true)
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "build", Arguments: map[string]any{"target": "a"}}); err != nil {
		t.Fatal(err)
	}
	id := log.taskID(t)
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "build", Arguments: map[string]any{"target": "b"}})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != mcpbridge.CodeTasksFull || !strings.Contains(je.Message, "too many tasks") ||
		!strings.Contains(je.Message, "TaskOptions.Max 1") || !strings.Contains(string(je.Data), `"retryAfterMs":`) {
		t.Errorf("a task beyond Max: %v (%+v), want %d too many tasks naming TaskOptions.Max 1, retryAfterMs in its data", err, je, mcpbridge.CodeTasksFull)
	}
	// An optional function runs as a plain call then.
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lint"}); err != nil || res.IsError || !jsonEqual(res.StructuredContent, map[string]any{"ok": true}) {
		t.Errorf("an optional function beyond Max: %+v %v", res, err)
	}
	eventually(t, "the task gone past its ttl", func() bool {
		_, err := getTask(cs, id)
		if code := rpcCode(err); code != jsonrpc.CodeInvalidParams && err != nil {
			t.Fatalf("a task past its ttl: %v, want -32602", err)
		}
		return err != nil
	})
	if cause := waitFor(t, j.cancelled, "the expired task's context to end"); cause == nil || !strings.Contains(cause.Error(), "ttl") {
		t.Errorf("the expired task ended with %v", cause)
	}
}

// TestTaskStream runs a streaming function of an OpenAPI package
// (testdata/golden/openapi-stream) as a task when it is slow: a call that
// returns within After is answered as a plain call, a slower one (its API
// answers only once the task has been polled) becomes a task whose result
// gathers the stream's items.
func TestTaskStream(t *testing.T) {
	var (
		mu   sync.Mutex
		hold chan struct{} // nil: answer at once
	)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		h := hold
		mu.Unlock()
		if h != nil {
			<-h
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"index\":0,\"text\":\"one\"}\n\ndata: {\"index\":1,\"text\":\"two\"}\n\ndata: [DONE]\n\n")
	}))
	defer api.Close()
	st, err := stream.NewTool(must(stream.NewClient(api.URL)))
	if err != nil {
		t.Fatal(err)
	}
	url, log := serveTasks(t, st, false, mcpbridge.WithTasks(mcpbridge.TaskOptions{
		Functions: []string{"chat"}, After: 2 * time.Second, PollInterval: 20 * time.Millisecond}))
	tool := httpTool(t, url)
	want := `{"items":[{"index":0,"text":"one"},{"index":1,"text":"two"}]}`
	for _, slow := range []bool{false, true} {
		before := log.count("tasks/get")
		if slow {
			// The API answers once the client has polled the task.
			h := make(chan struct{})
			mu.Lock()
			hold = h
			mu.Unlock()
			go func() {
				defer close(h)
				if !log.changed.until(func() bool { return log.count("tasks/get") > before }) {
					t.Errorf("no tasks/get after %v", waitLong)
				}
			}()
		}
		res, err := tool.Call(context.Background(), "chat", json.RawMessage(`{"prompt":"hi"}`))
		if err != nil {
			t.Fatal(err)
		}
		if !jsonEqual(asJSON(t, json.RawMessage(res)), asJSON(t, json.RawMessage(want))) {
			t.Errorf("slow %v: result %s, want %s", slow, res, want)
		}
		if polled := log.count("tasks/get") > before; polled != slow {
			t.Errorf("slow %v: polled %v", slow, polled)
		}
	}
	if _, err := mcpbridge.NewHTTPHandler(context.Background(), st, nil, false, mcpbridge.WithTasks(mcpbridge.TaskOptions{Functions: []string{"nope"}})); err == nil {
		t.Error("tasks for an unknown function: no error")
	}
}

// TestTaskOwnerQuota: one session fills its quota of tasks (MaxPerOwner)
// and is refused with the retryable CodeTasksFull naming MaxPerOwner,
// while another session still creates tasks; an optional function of the
// first runs as a plain call.
func TestTaskOwnerQuota(t *testing.T) {
	j := newJobs(t)
	url, log := serveTasks(t, j, false, mcpbridge.WithTasks(mcpbridge.TaskOptions{MaxPerOwner: 2}))
	t.Cleanup(j.free)
	a := sdkClient(t, url, true)
	build := func(cs *mcp.ClientSession, target string) error {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "build", Arguments: map[string]any{"target": target}})
		return err
	}
	for _, target := range []string{"a1", "a2"} {
		if err := build(a, target); err != nil {
			t.Fatalf("task %s within the quota: %v", target, err)
		}
	}
	err := build(a, "a3")
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != mcpbridge.CodeTasksFull || !strings.Contains(je.Message, "TaskOptions.MaxPerOwner 2") ||
		!strings.Contains(string(je.Data), `"limit":"MaxPerOwner"`) {
		t.Errorf("a task beyond the owner's quota: %v (%+v), want %d naming TaskOptions.MaxPerOwner 2", err, je, mcpbridge.CodeTasksFull)
	}
	if res, err := a.CallTool(context.Background(), &mcp.CallToolParams{Name: "lint"}); err != nil || res.IsError {
		t.Errorf("an optional function beyond the owner's quota: %+v %v", res, err)
	}
	b := sdkClient(t, url, true)
	for _, target := range []string{"b1", "b2"} {
		if err := build(b, target); err != nil {
			t.Errorf("another owner's task %s: %v", target, err)
		}
	}
	if n := log.count("tools/call"); n != 6 {
		t.Errorf("%d tools/call, want 6", n)
	}
}

// TestTaskBytes: a store whose owner may hold 1 MiB of results keeps one
// result of 600 KiB (held once: its text and structuredContent twice would
// be 1.2 MiB) and refuses the next of the same owner at completion, with
// the retryable CodeTasksFull naming MaxOwnerBytes and the result's size;
// another owner's result is kept.
func TestTaskBytes(t *testing.T) {
	var doc document.OpenTool
	if err := json.Unmarshal([]byte(sizedDoc), &doc); err != nil {
		t.Fatal(err)
	}
	url, _ := serveTasks(t, sized{&doc}, false, mcpbridge.WithTasks(mcpbridge.TaskOptions{
		Functions: []string{"sized"}, MaxOwnerBytes: 1 << 20, MaxBytes: 4 << 20, PollInterval: 10 * time.Millisecond}))
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	args := json.RawMessage(`{"n":614400}`)
	one := httpTool(t, url)
	res, err := one.Call(ctx, "sized", args)
	if err != nil || len(res) != 614400+len(`{"text":""}`) {
		t.Fatalf("a result of 600 KiB within 1 MiB: %d bytes, %v", len(res), err)
	}
	_, err = one.Call(ctx, "sized", args)
	var re *runtime.Error
	if !errors.As(err, &re) || re.Code != mcpbridge.CodeTasksFull || !strings.Contains(re.Message, "TaskOptions.MaxOwnerBytes 1048576") ||
		!strings.Contains(re.Message, `the result of "sized" (6144`) || !strings.Contains(re.Message, ` bytes) is not kept`) {
		t.Errorf("a second result beyond the owner's bytes: %v, want %d naming MaxOwnerBytes and the size", err, mcpbridge.CodeTasksFull)
	}
	if res, err := httpTool(t, url).Call(ctx, "sized", args); err != nil || len(res) != 614411 {
		t.Errorf("another owner's result: %d bytes, %v", len(res), err)
	}
}
