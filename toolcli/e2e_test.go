package toolcli_test

// End to end: the mains opentoolgen -cmd generated for the golden cases,
// built with go build and run as subprocesses, as an MCP client (the SDK's
// own) and an OpenTool client use them.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/internal/testtool"
	opentool "github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
)

// binDir holds the commands the tests build, removed after them.
var binDir string

// mainEnv makes the test binary a command (Command.Main) serving a mock tool
// whose count prints to standard output.
const mainEnv = "TOOLCLI_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) == "1" {
		c := mockCommand(newStore("Hello"))
		c.NewTool = func(_ context.Context, opts ...toolopt.Option) (opentool.Tool, error) {
			return mocktool.NewTool(noisyStore{newStore("Hello")}, opts...)
		}
		c.Main()
	}
	dir, err := os.MkdirTemp("", "toolcli-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var builds sync.Map // golden case → *buildResult

type buildResult struct {
	once sync.Once
	path string
	err  error
}

// build builds the main generated for the golden case name (its cmd/name)
// with go build, once per test run, and returns the executable.
func build(t *testing.T, name string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping go build of the generated commands")
	}
	v, _ := builds.LoadOrStore(name, &buildResult{})
	b := v.(*buildResult)
	b.once.Do(func() {
		b.path = filepath.Join(binDir, name)
		if runtime.GOOS == "windows" {
			b.path += ".exe"
		}
		cmd := exec.Command("go", "build", "-o", b.path, "../testdata/golden/"+name+"/cmd/"+name)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build of %s's main: %v\n%s", name, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// upstream serves the mock tool over OpenTool HTTP, guarded by key: what the
// gateway generated for the mocktool document forwards to.
func upstream(t *testing.T, s *testtool.Store, key string) string {
	t.Helper()
	tool, err := mocktool.NewTool(s)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(opentool.NewHandler(tool, opentool.WithAPIKeys(key)))
	t.Cleanup(srv.Close)
	return srv.URL + opentool.DefaultPrefix
}

// progress records progress notifications.
type progress struct {
	mu    sync.Mutex
	notes []*mcp.ProgressNotificationParams
	more  chan struct{} // closed at the next notification, when wait waits
}

func (p *progress) handler(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.notes = append(p.notes, req.Params)
	if p.more != nil {
		close(p.more)
		p.more = nil
	}
}

// wait waits for n notifications (a client may handle them after the result
// arrived), at most waitLong, and returns those received in order of
// progress.
func (p *progress) wait(n int) []*mcp.ProgressNotificationParams {
	timeout := time.After(waitLong)
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.notes) < n {
		if p.more == nil {
			p.more = make(chan struct{})
		}
		more := p.more
		p.mu.Unlock()
		select {
		case <-more:
		case <-timeout:
			p.mu.Lock()
			return p.sorted()
		}
		p.mu.Lock()
	}
	return p.sorted()
}

// sorted returns the notifications in order of progress; p.mu is held.
func (p *progress) sorted() []*mcp.ProgressNotificationParams {
	out := slices.Clone(p.notes)
	slices.SortFunc(out, func(a, b *mcp.ProgressNotificationParams) int { return int(a.Progress - b.Progress) })
	return out
}

func newClient(p *progress) *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "toolcli-test", Version: "1"}, &mcp.ClientOptions{ProgressNotificationHandler: p.handler})
}

// exercise lists the tools of the mock tool's gateway through cs and calls
// them: a call, a violation as isError, an unknown tool as a protocol error,
// a stream with progress notifications, a cancelled call (its context
// cancelled upstream).
func exercise(t *testing.T, cs *mcp.ClientSession, p *progress, s *testtool.Store) {
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if want := []string{"count", "create", "delete", "read", "run", "sequentiallyRead", "update"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"id": 1}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || jsonText(res.StructuredContent) != `{"text":"World"}` {
		t.Errorf("read: isError %v, %s; want {\"text\":\"World\"}", res.IsError, jsonText(res.StructuredContent))
	}

	// The gateway checks the arguments before they leave.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "create", Arguments: map[string]any{"text": 5}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(textOf(res), "/text") {
		t.Errorf("create with a number: isError %v, %q; want an error naming /text", res.IsError, textOf(res))
	}

	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope"}); err == nil {
		t.Error("an unknown tool: no protocol error")
	}

	n, _ := s.Count(ctx)
	params := &mcp.CallToolParams{Name: "sequentiallyRead"}
	params.SetProgressToken("tok")
	res, err = cs.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	var items struct{ Items []map[string]string }
	if err := json.Unmarshal([]byte(jsonText(res.StructuredContent)), &items); err != nil || len(items.Items) != int(n) || items.Items[1]["text"] != "World" {
		t.Errorf("sequentiallyRead: %s, %v; want the %d texts", jsonText(res.StructuredContent), err, n)
	}
	notes := p.wait(int(n))
	if len(notes) != int(n) {
		t.Fatalf("%d progress notifications, want %d", len(notes), n)
	}
	for i, note := range notes {
		if note.ProgressToken != "tok" || note.Progress != float64(i+1) || note.Message != jsonText(items.Items[i]) {
			t.Errorf("notification %d: %s, want item %s", i, jsonText(note), jsonText(items.Items[i]))
		}
	}

	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "run"})
		done <- err
	}()
	select {
	case <-s.Started:
	case <-time.After(waitLong):
		t.Fatal("run did not reach the upstream tool")
	}
	cancel()
	select {
	case err := <-s.Cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the upstream call's context ended with %v, want context.Canceled", err)
		}
	case <-time.After(waitLong):
		t.Fatal("the upstream call's context was not cancelled")
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("CallTool of a cancelled call: %v, want context.Canceled", err)
	}
}

// TestGatewayStdio runs the mock tool's gateway as an MCP server over stdio,
// as Claude Desktop or an IDE starts it; the upstream key comes from the
// environment.
func TestGatewayStdio(t *testing.T) {
	bin := build(t, "mocktool")
	s := newStore("Hello", "World")
	url := upstream(t, s, "up-secret")
	cmd := exec.Command(bin, "mcp", "--upstream", url, "-v", "3.1.4")
	cmd.Env = append(os.Environ(), "MOCKTOOL_UPSTREAM_KEY=up-secret")
	logs := &testtool.LockedBuffer{}
	cmd.Stderr = logs
	p := &progress{}
	cs, err := newClient(p).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs)
	}
	if info := cs.InitializeResult().ServerInfo; info.Name != "mocktool" || info.Version != "3.1.4" || info.Title != "CRUD API for mock" {
		t.Errorf("server info %s, want mocktool 3.1.4 titled as the document", jsonText(info))
	}
	exercise(t, cs, p, s)
	// The cancelled call ends in the command a moment after the client gave up on it.
	waitLog(t, logs, `function=run duration=\S+ outcome=cancelled\n`)
	// SIGTERM (as a supervisor stops it) ends the command cleanly.
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cs.Close(); err != nil { // waits for the command
		t.Errorf("the command ended with %v, want exit status 0\n%s", err, logs)
	}
	if !strings.Contains(logs.String(), "msg=stopped") {
		t.Errorf("no log line of the shutdown:\n%s", logs)
	}
	checkLogs(t, logs.String(), "mcp", "up-secret")
}

// TestGatewayHTTP runs the gateway with start: MCP over streamable HTTP at
// /mcp and OpenTool at /opentool on one port, both behind API keys; SIGTERM
// with a session open ends it cleanly.
func TestGatewayHTTP(t *testing.T) {
	bin := build(t, "mocktool")
	s := newStore("Hello", "World")
	url := upstream(t, s, "up-secret")
	pr := startProcess(t, bin, nil, "start", "-t", "0", "--upstream", url, "--upstream-key", "up-secret", "-k", "client-key")

	// Without the key: 401 on both endpoints, and no MCP session.
	for _, path := range []string{"/opentool/version", "/mcp"} {
		if status := get(t, pr.base+path, ""); status != http.StatusUnauthorized {
			t.Errorf("GET %s without key: %d, want 401", path, status)
		}
	}
	if _, err := newClient(&progress{}).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: pr.base + "/mcp", MaxRetries: -1}, nil); err == nil {
		t.Error("an MCP session without key was opened")
	}
	// With it: OpenTool and MCP.
	oc := opentool.NewClient(pr.base+opentool.DefaultPrefix, opentool.WithAPIKey("client-key"))
	if res, err := oc.Call(context.Background(), opentool.FunctionCall{Name: "count"}); err != nil || string(res.Result) != `{"Count":2}` {
		t.Errorf("count over OpenTool: %s, %v", res.Result, err)
	}
	p := &progress{}
	hc := &http.Client{Transport: bearer{"client-key"}}
	cs, err := newClient(p).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: pr.base + "/mcp", HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	exercise(t, cs, p, s)
	// The cancelled call ends in the command a moment after the client gave up on it.
	waitLog(t, pr.logs, `function=run duration=\S+ outcome=cancelled\n`)

	// SIGTERM with the session (and its standing event stream) open.
	began := time.Now()
	if err := pr.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := pr.wait(t); code != 0 {
		t.Errorf("exit status %d after SIGTERM, want 0\n%s", code, pr.logs)
	}
	if d := time.Since(began); d > 10*time.Second {
		t.Errorf("the shutdown took %v: it waited for the open session", d)
	}
	logs := pr.logs.String()
	if !strings.Contains(logs, "msg=stopped") {
		t.Errorf("no log line of the shutdown:\n%s", logs)
	}
	checkLogs(t, logs, "mcp", "up-secret", "client-key")
	if !regexp.MustCompile(`msg=call front=opentool function=count duration=\S+ outcome=ok\n`).MatchString(logs) {
		t.Errorf("no log line of the OpenTool call:\n%s", logs)
	}
}

// waitLog waits until logs match re (a log tells no one of a new line: it
// polls, with a deadline).
func waitLog(t *testing.T, logs *testtool.LockedBuffer, re string) {
	t.Helper()
	rx := regexp.MustCompile(re)
	for deadline := time.Now().Add(waitLong); !rx.MatchString(logs.String()); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the logs lack %s:\n%s", re, logs)
		}
	}
}

// checkLogs checks the log lines of exercise's calls over front, and that no
// secret is in them.
func checkLogs(t *testing.T, logs, front string, secrets ...string) {
	t.Helper()
	for _, re := range []string{
		`msg=call front=` + front + ` function=read duration=\S+ outcome=ok\n`,
		`level=INFO msg=call front=` + front + ` function=create duration=\S+ outcome=invalid paths=\[/text\]\n`,
		`msg=call front=` + front + ` function=sequentiallyRead duration=\S+ outcome=ok items=2\n`,
		`msg=call front=` + front + ` function=run duration=\S+ outcome=cancelled\n`,
	} {
		if !regexp.MustCompile(re).MatchString(logs) {
			t.Errorf("the logs lack %s:\n%s", re, logs)
		}
	}
	for _, s := range secrets {
		if strings.Contains(logs, s) {
			t.Errorf("the logs hold the secret %q:\n%s", s, logs)
		}
	}
}

// TestGatewayHelp checks the built command's help and what it does without
// arguments (--upstream is required: the document names no server).
func TestGatewayHelp(t *testing.T) {
	bin := build(t, "mocktool")
	want := `mocktool 1.0.0 — OpenTool and MCP server for CRUD API for mock

Usage: mocktool <command> [options]

Available commands:

Command: start    serve OpenTool HTTP at /opentool and MCP at /mcp, on one port
  -v, --version         Version, Default: 1.0.0
  -t, --toolPort        OpenTool Server Port, Default: 9627
  -k, --apiKeys         API Keys, allow array, as: --apiKeys KEY_A --apiKeys KEY_B
      --host            Host, Default: 127.0.0.1
      --options         Argument options file (JSON): defaults, fixed and envs of arguments
      --values          Call values from request headers for {NAME} in options, as: --values X-Trace-Id=trace_id
      --upstream        URL of the OpenTool server the calls go to (http://host:port/opentool) (required)
      --upstream-key    API key of the upstream server (default: $MOCKTOOL_UPSTREAM_KEY)

Command: mcp      serve MCP over standard input and output
  -v, --version         Version, Default: 1.0.0
      --options         Argument options file (JSON): defaults, fixed and envs of arguments
      --upstream        URL of the OpenTool server the calls go to (http://host:port/opentool) (required)
      --upstream-key    API key of the upstream server (default: $MOCKTOOL_UPSTREAM_KEY)

Command: nats     serve a NATS micro service, each function on PREFIX.function
  -v, --version         Version, Default: 1.0.0
      --url             NATS server URL(s) to join, as: --url nats://host:4222 (none: a NATS server embedded, on 127.0.0.1)
      --natsPort        Port of the embedded NATS server (0: a free one), Default: 4322
      --prefix          Subject prefix: function f answers on PREFIX.f, Default: the document's title in lower snake case
      --queue           Queue group the replicas share calls in, Default: opentool
      --options         Argument options file (JSON): defaults, fixed and envs of arguments
      --values          Call values from message headers for {NAME} in options, as: --values X-Trace-Id=trace_id
      --upstream        URL of the OpenTool server the calls go to (http://host:port/opentool) (required)
      --upstream-key    API key of the upstream server (default: $MOCKTOOL_UPSTREAM_KEY)

Command: exec     serve the functions as an agent platform's tool executor, on NATS cmd.tool.*
  -v, --version         Version, Default: 1.0.0
      --url             NATS server URL(s) to join (none: a NATS server with JetStream embedded, on 127.0.0.1)
      --natsPort        Port of the embedded NATS server (0: a free one), Default: 4322
      --queue           Queue group the replicas share commands in, Default: opentool
      --subject         target_subject of each function, Default: cmd.tool.{function}
      --project         project_id of {project_id} in --subject (none: any, read from each command)
      --channel         channel_id of {channel_id} in --subject (none: any, read from each command)
      --cards           JetStream key-value bucket of the tool.call and tool.result cards, Default: cardbox_cards
      --inbox           Subject the reports are published to, Default: l0.inbox.{project_id}.{agent_id}.tool_result
      --options         Argument options file (JSON): defaults, fixed and envs of arguments
      --upstream        URL of the OpenTool server the calls go to (http://host:port/opentool) (required)
      --upstream-key    API key of the upstream server (default: $MOCKTOOL_UPSTREAM_KEY)

Limits of start:

--readTimeout          Time a client has to send a request body (0: no bound), Default: 30s
--writeTimeout         Time each write of an answer or stream event may take: a client that stops reading is cut off (0: no bound), Default: 30s
--shutdownTimeout      Time calls and streams in flight get on SIGINT, SIGTERM or POST /opentool/stop, Default: 30s
--drainDelay           Time the server serves on once told to stop, /readyz answering 503, before it closes its port (only if /readyz was asked; 0: none), Default: 5s
--mcpSessions          Stateful MCP: sessions kept in this process, a load balancer needs session affinity (default: stateless, any replica answers)
--mcpMaxSessions       Most MCP sessions at once, stateless: MCP requests under way; one more is HTTP 503 (0: no bound), Default: 1000
--mcpSessionTimeout    An MCP session without a request for this long is closed (0: never), Default: 30m0s
--allowOrigin          Origin browsers may call /mcp from besides the server's own and loopback ones, allow array, as: --allowOrigin https://app.example.com
--noRemoteStop         Refuse POST /opentool/stop (HTTP 404), which otherwise stops the server as SIGTERM does (with API keys: for a caller with one; without: for this machine's own)

Limits of nats:

--shutdownTimeout      Time calls in flight get on SIGINT or SIGTERM; then they are cancelled, Default: 30s
--maxConcurrent        Calls run at once; more wait in the subscription, Default: 256

Limits of exec:

--shutdownTimeout      Time commands in flight get on SIGINT or SIGTERM; then they are reported as canceled, Default: 30s

Discovery of start, mcp and nats:

--discovery            auto, on or off: serve three functions that search, describe and call the tool's functions instead of them all (auto: on above 128 functions), Default: auto

Environment variables:

MOCKTOOL_API_KEYS        API keys of start, comma-separated, when no -k is given (keys on the command line show in ps)
MOCKTOOL_UPSTREAM_KEY    API key of the upstream server, when --upstream-key is not given

Global options:

-h, --help       Show help information
-v, --version    Show the version, the document's and what the binary was built from (also: mocktool version)
`
	for _, args := range [][]string{{"-h"}, {"--help"}, {}} {
		cmd := exec.Command(bin, args...)
		out, err := cmd.Output()
		code := cmd.ProcessState.ExitCode()
		if wantCode := map[bool]int{true: 2, false: 0}[len(args) == 0]; code != wantCode {
			t.Errorf("%q: exit status %d (%v), want %d", args, code, err, wantCode)
		}
		if string(out) != want {
			t.Errorf("%q: the help\n%s\nwant\n%s", args, out, want)
		}
	}
}

// TestOpenAPICommand runs the petstore command against a REST backend: the
// REST API at --server (the deprecated alias of --base-url), the credential from the environment variable the
// help lists, the options file applied (a fixed argument hidden from the
// tools, an argument from the environment never logged), the tools annotated
// from their methods, a REST error as isError.
func TestOpenAPICommand(t *testing.T) {
	bin := build(t, "openapi-petstore")
	type seen struct{ key, limit, requestID string }
	requests := make(chan seen, 8)
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/pets":
			requests <- seen{r.Header.Get("X-API-Key"), r.URL.Query().Get("limit"), r.Header.Get("X-Request-ID")}
			fmt.Fprint(w, `[{"id":1,"name":"Rex","status":"available"}]`)
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"code":404,"message":"no such pet"}`)
		}
	}))
	defer backend.Close()
	options := filepath.Join(t.TempDir(), "options.json")
	if err := os.WriteFile(options, []byte(`{
  "functions": {"listPets": {"args": {"fixed": {"limit": 7}}, "envs": {"X-Request-ID": "PETSTORE_REQUEST_ID"}}}
}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "mcp", "--server", backend.URL, "--options", options)
	cmd.Env = append(os.Environ(), "OPENAPI_PETSTORE_API_KEY=rest-secret", "PETSTORE_REQUEST_ID=0b7c9a52-1f7e-4e55-9a42-4d7f0a1c2b3d")
	logs := &testtool.LockedBuffer{}
	cmd.Stderr = logs
	cs, err := newClient(&progress{}).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs)
	}
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for _, tool := range list.Tools {
		tools[tool.Name] = tool
	}
	// The hints of the generated Tool (its HTTP methods) pass the command's
	// logging on to MCP's annotations.
	if a := tools["listPets"].Annotations; a == nil || !a.ReadOnlyHint || a.OpenWorldHint == nil || !*a.OpenWorldHint {
		t.Errorf("listPets annotations %s, want readOnlyHint and openWorldHint", jsonText(a))
	}
	if a := tools["deletePet"].Annotations; a == nil || a.DestructiveHint == nil || !*a.DestructiveHint || !a.IdempotentHint || a.ReadOnlyHint {
		t.Errorf("deletePet annotations %s, want destructiveHint and idempotentHint", jsonText(a))
	}
	if a := tools["createPet"].Annotations; a == nil || a.ReadOnlyHint || a.IdempotentHint {
		t.Errorf("createPet annotations %s, want neither readOnlyHint nor idempotentHint", jsonText(a))
	}
	schema := jsonText(tools["listPets"].InputSchema)
	if strings.Contains(schema, `"limit"`) || strings.Contains(schema, `"X-Request-ID"`) || !strings.Contains(schema, `"status"`) {
		t.Errorf("listPets input schema %s: want status, not the fixed limit nor the environment's X-Request-ID", schema)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "listPets", Arguments: map[string]any{"limit": 99}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || !strings.Contains(jsonText(res.StructuredContent), `"name":"Rex"`) {
		t.Errorf("listPets: isError %v, %s", res.IsError, jsonText(res.StructuredContent))
	}
	select {
	case got := <-requests:
		if got != (seen{"rest-secret", "7", "0b7c9a52-1f7e-4e55-9a42-4d7f0a1c2b3d"}) {
			t.Errorf("the backend got key %q, limit %q, request id %q; want the environment's key, the fixed 7, the environment's id", got.key, got.limit, got.requestID)
		}
	default:
		t.Error("the backend got no request")
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "showPetById", Arguments: map[string]any{"petId": 9}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(textOf(res), "404") {
		t.Errorf("showPetById of a missing pet: isError %v, %q", res.IsError, textOf(res))
	}
	if err := cs.Close(); err != nil {
		t.Errorf("the command ended with %v\n%s", err, logs)
	}
	out := logs.String()
	for _, secret := range []string{"rest-secret", "0b7c9a52"} {
		if strings.Contains(out, secret) {
			t.Errorf("the logs hold %q:\n%s", secret, out)
		}
	}
	if !regexp.MustCompile(`level=WARN msg=call front=mcp function=showPetById duration=\S+ outcome=error code=404\n`).MatchString(out) {
		t.Errorf("no log line of the failed call:\n%s", out)
	}
}

// TestOpenDynCommand runs the command of the OpenDyn example against a
// library built with gcc.
func TestOpenDynCommand(t *testing.T) {
	bin := build(t, "opendyn-example")
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc to build the library:", err)
	}
	dir := t.TempDir()
	src, lib := filepath.Join(dir, "example.c"), filepath.Join(dir, "libexample.so")
	if err := os.WriteFile(src, []byte("int add(int a, int b) { return a + b; }\nfloat multiply(float a, float b) { return a * b; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gcc", "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	logs := &testtool.LockedBuffer{}
	cmd := exec.Command(bin, "mcp", "--library", lib)
	cmd.Stderr = logs
	cs, err := newClient(&progress{}).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": 2, "b": 40}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || jsonText(res.StructuredContent) != `{"result":42}` {
		t.Errorf("add: isError %v, %s", res.IsError, jsonText(res.StructuredContent))
	}
	if err := cs.Close(); err != nil {
		t.Errorf("the command ended with %v\n%s", err, logs)
	}
	// A library that is not there: the error names it, exit status 1.
	out, err := exec.Command(bin, "mcp", "--library", filepath.Join(dir, "nope.so")).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "nope.so") {
		t.Errorf("a missing library: %v\n%s", err, out)
	}
}

// process is a command started as a subprocess with start.
type process struct {
	cmd  *exec.Cmd
	base string
	logs *testtool.LockedBuffer
	done chan int
	once sync.Once
	code int
}

// startProcess starts bin with args and env, and returns once it says where
// it serves; it is killed when the test ends, if still running.
func startProcess(t *testing.T, bin string, env []string, args ...string) *process {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, logs: &testtool.LockedBuffer{}, done: make(chan int, 1)}
	base := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.logs.WriteString(sc.Text() + "\n")
			if m := testtool.ServingLine.FindStringSubmatch(sc.Text()); m != nil {
				base <- m[1]
			}
		}
		cmd.Wait()
		p.done <- cmd.ProcessState.ExitCode()
		close(base)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		p.wait(t)
	})
	select {
	case b, ok := <-base:
		if !ok {
			t.Fatalf("the command ended without serving:\n%s", p.logs)
		}
		p.base = b
	case <-time.After(waitLong):
		t.Fatalf("the command did not say where it serves:\n%s", p.logs)
	}
	return p
}

// wait waits until the process exits, and returns its exit status.
func (p *process) wait(t *testing.T) int {
	t.Helper()
	p.once.Do(func() {
		select {
		case p.code = <-p.done:
		case <-time.After(waitLong):
			t.Error("the command did not stop")
			p.code = -1
		}
	})
	return p.code
}

// bearer adds an API key to each request.
type bearer struct{ key string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// textOf is the text of a result's contents.
func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// noisyStore prints to standard output when counting, as careless code does.
type noisyStore struct{ *testtool.Store }

func (s noisyStore) Count(ctx context.Context) (mocktool.Count, error) {
	fmt.Println("counting, on standard output")
	return s.Store.Count(ctx)
}

// TestMainStdout checks that in mcp mode, what the program prints to
// os.Stdout goes to standard error: standard output carries the protocol only.
func TestMainStdout(t *testing.T) {
	cmd := exec.Command(os.Args[0], "mcp")
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	logs := &testtool.LockedBuffer{}
	cmd.Stderr = logs
	cs, err := newClient(&progress{}).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs)
	}
	for range 2 {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "count"})
		if err != nil || res.IsError || jsonText(res.StructuredContent) != `{"Count":1}` {
			t.Fatalf("count: %v, %v\n%s", jsonText(res), err, logs)
		}
	}
	if err := cs.Close(); err != nil {
		t.Errorf("the command ended with %v\n%s", err, logs)
	}
	if n := strings.Count(logs.String(), "counting, on standard output\n"); n != 2 {
		t.Errorf("standard error has %d of the two lines printed to os.Stdout:\n%s", n, logs)
	}
}
