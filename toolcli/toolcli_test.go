package toolcli_test

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/internal/buildinfo"
	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/toolcli"
)

// guidelineHelp is the start of the help: the layout of the OpenTool Server
// CLI guidelines' example under a title that says what the tool is, each
// command with what it does.
const guidelineHelp = `mock_util_tool 1.0.0 — OpenTool and MCP server for CRUD API for mock

Usage: mock_util_tool <command> [options]

Available commands:

Command: start    serve OpenTool HTTP at /opentool and MCP at /mcp, on one port
  -v, --version     Version, Default: 1.0.0
  -t, --toolPort    OpenTool Server Port, Default: 9639
  -k, --apiKeys     API Keys, allow array, as: --apiKeys KEY_A --apiKeys KEY_B
`

const guidelineGlobal = `Global options:

-h, --help       Show help information
-v, --version    Show the version, the document's and what the binary was built from (also: mock_util_tool version)
`

// TestHelpFormat checks -h, --help and help against the guidelines' example:
// the same usage and commands lines under a title naming the tool, its
// version and its document's title, the start command's options as there
// (ours follow them), the global options last.
func TestHelpFormat(t *testing.T) {
	c := mockCommand(newStore())
	c.Version, c.Port = "1.0.0", 9639
	for _, arg := range []string{"-h", "--help", "-help", "help"} {
		code, out, errs := testtool.Run(t, c, arg)
		if code != 0 || errs != "" {
			t.Errorf("%s: exit status %d, stderr %q", arg, code, errs)
		}
		if !strings.HasPrefix(out, guidelineHelp) {
			t.Errorf("%s: the help does not start as the guidelines' does:\n%s", arg, out)
		}
		if !strings.HasSuffix(out, "\n\n"+guidelineGlobal) {
			t.Errorf("%s: the help does not end with the guidelines' global options:\n%s", arg, out)
		}
		rest := strings.TrimSuffix(strings.TrimPrefix(out, guidelineHelp), guidelineGlobal)
		want := `      --host        Host, Default: 127.0.0.1
      --options     Argument options file (JSON): defaults, fixed and envs of arguments
      --values      Call values from request headers for {NAME} in options, as: --values X-Trace-Id=trace_id

Command: mcp      serve MCP over standard input and output
  -v, --version     Version, Default: 1.0.0
      --options     Argument options file (JSON): defaults, fixed and envs of arguments

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

Discovery of start and mcp:

--discovery            auto, on or off: serve three functions that search, describe and call the tool's functions instead of them all (auto: on above 128 functions), Default: auto

Environment variables:

MOCK_UTIL_TOOL_API_KEYS    API keys of start, comma-separated, when no -k is given (keys on the command line show in ps)

`
		if rest != want {
			t.Errorf("%s: between the guidelines' lines, got\n%s\nwant\n%s", arg, rest, want)
		}
	}
}

// TestHelpOwnFlags checks the help of a command with flags and environment
// variables of its own: one column for every option, required flags and
// defaults said, the variables in a section before the global options.
func TestHelpOwnFlags(t *testing.T) {
	c := mockCommand(newStore())
	c.Flags = func(fs *flag.FlagSet) {
		fs.String("upstream", "", "URL of the\n   upstream server")
		fs.String("upstream-key", "", "API key of the upstream server")
		fs.Int("retries", 3, "Retries")
		fs.Bool("dry", false, "Dry run")
	}
	c.Required = []string{"upstream"}
	c.Env = []toolcli.Env{{Name: "MOCK_KEY", Usage: "API key", Required: true}, {Name: "MOCK_UPSTREAM_TOKEN", Usage: "Token"}}
	_, out, _ := testtool.Run(t, c, "-h")
	for _, want := range []string{
		"Command: start    serve OpenTool HTTP at /opentool and MCP at /mcp, on one port\n  -v, --version         Version, Default: 1.0.0\n",
		"      --dry             Dry run\n      --retries         Retries, Default: 3\n" +
			"      --upstream        URL of the upstream server (required)\n      --upstream-key    API key of the upstream server\n\nCommand: mcp      serve MCP over standard input and output\n",
		"\nLimits of start:\n\n--readTimeout          Time a client has to send a request body (0: no bound), Default: 30s\n",
		"\n\nEnvironment variables:\n\nMOCK_UTIL_TOOL_API_KEYS    API keys of start, comma-separated, when no -k is given (keys on the command line show in ps)\n" +
			"MOCK_KEY                   API key (required by the document)\nMOCK_UPSTREAM_TOKEN        Token\n\nGlobal options:\n\n" +
			"-h, --help       Show help information\n-v, --version    Show the version, the document's and what the binary was built from (also: mock_util_tool version)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the help lacks\n%s\nin\n%s", want, out)
		}
	}
	if n := strings.Count(out, "--upstream-key"); n != 2 {
		t.Errorf("--upstream-key is listed %d times, want once per command", n)
	}
	// The command alone prints the help, since a flag is required.
	code, alone, _ := testtool.Run(t, c)
	if code != 2 || alone != out {
		t.Errorf("the command alone: exit status %d, output\n%s\nwant 2 and the help", code, alone)
	}
}

// TestPrintVersion checks that -v alone prints the version the server
// reports, then, labelled, the document's title and version and the
// versions the binary was built from, as the go command stamped them (the
// test binary's own: it runs the command), never a number of its own.
func TestPrintVersion(t *testing.T) {
	c := mockCommand(newStore())
	c.Version = "2.5.0" // what it reports, not the document's
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("no build information")
	}
	in := buildinfo.Of(bi)
	want := "mock_util_tool 2.5.0\n" +
		"  document:    CRUD API for mock, version 1.0.0\n" +
		"  module:      " + in.Main + " " + in.Version + "\n"
	if in.Main != buildinfo.Module {
		want += "  opentoolgen: " + in.OpenToolGen + "\n"
	}
	want += "  go:          " + bi.GoVersion + "\n"
	for _, args := range [][]string{{"-v"}, {"--version"}, {"-version"}, {"version"}, {"start", "-v"}, {"mcp", "--version"}} {
		code, out, errs := testtool.Run(t, c, args...)
		if code != 0 || out != want || errs != "" {
			t.Errorf("%q: exit status %d, output\n%s\nstderr %q; want\n%s", args, code, out, errs, want)
		}
	}
}

// TestUsageErrors checks bad command lines: exit status 2 and a message that
// names the mistake, nothing on standard output.
func TestUsageErrors(t *testing.T) {
	c := mockCommand(newStore())
	c.Flags = func(fs *flag.FlagSet) { fs.String("upstream", "", "URL") }
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve"}, `unknown command "serve", want start or mcp`},
		{[]string{"start", "-t", "70000"}, `invalid value "70000" for flag -t: want a port from 0 to 65535`},
		{[]string{"start", "--toolPort", "http"}, `invalid value "http" for flag -toolPort`},
		{[]string{"start", "--nope"}, "flag provided but not defined: -nope"},
		{[]string{"start", "extra"}, `unexpected argument "extra"`},
		{[]string{"-k", ""}, "empty API key"},
		{[]string{"--apiKeys", "a,,b"}, "empty API key"},
		{[]string{"mcp", "-t", "9000"}, "flag provided but not defined: -t"},
	} {
		code, out, errs := testtool.Run(t, c, tc.args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "Run 'mock_util_tool -h' for help.") {
			t.Errorf("%q: exit status %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
	c.Required = []string{"upstream"}
	if code, _, errs := testtool.Run(t, c, "start", "-t", "0"); code != 2 || !strings.Contains(errs, "missing --upstream") {
		t.Errorf("without a required flag: exit status %d, stderr %q", code, errs)
	}
}

// TestOptionsErrors checks that the mistakes of an options file are reported
// all at once, each at its line and column with its JSON path, and that the
// command then exits 1 without serving.
func TestOptionsErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, file string
		want       []string
	}{
		{"syntax", "{\n  \"args\": {\"defaults\": {\"id\": 1,}}\n}", []string{
			`:2:33: /args/defaults: invalid character '}' looking for beginning of object key string`}},
		{"not an object", `[]`, []string{`:1:1: got array, want an object (the options: args, envs, functions)`}},
		{"members", `{
  "arg": {},
  "args": {"default": {}, "fixed": []},
  "envs": {"text": 5, "id": ""},
  "functions": {"create": {"args": {}, "functions": {}}}
}`, []string{
			`:2:3: /arg: unknown member "arg", want "args", "envs", "functions"`,
			`:3:12: /args/default: unknown member "default", want "defaults", "fixed"`,
			`:3:36: /args/fixed: got array, want an object (argument name → value)`,
			`:4:20: /envs/text: got number, want the name of an environment variable`,
			`:4:29: /envs/id: got "", want the name of an environment variable`,
			`:5:40: /functions/create/functions: unknown member "functions", want "args", "envs"`,
		}},
		{"against the document", `{
  "args": {"defaults": {"id": "seven"}},
  "envs": {"title": "TITLE"},
  "functions": {
    "nope": {"args": {"fixed": {"text": "a"}}},
    "create": {"envs": {"txt": "TEXT"}, "args": {"fixed": {"text": "fixed"}}}
  }
}`, []string{
			`:2:25: /args/defaults/id: defaults: read.id: got string, want integer; defaults: update.id: got string, want integer; defaults: delete.id: got string, want integer`,
			`:3:12: /envs/title: envs: no function has an argument "title"`,
			`:5:33: /functions/nope/args/fixed/text: fixed: no function "nope"`,
			`:6:25: /functions/create/envs/txt: envs: function "create" has no argument "txt"`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".json")
			if err := os.WriteFile(path, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range tc.want {
				want = append(want, path+w)
			}
			// Without Command.Document, the places are found in the
			// document of the tool built without options.
			for _, withDoc := range []bool{true, false} {
				c := mockCommand(newStore())
				if !withDoc {
					c.Document = nil
					c.Version = "1.0.0"
				}
				code, _, errs := testtool.Run(t, c, "start", "-t", "0", "--options", path)
				if code != 1 || errs != strings.Join(want, "\n")+"\n" {
					t.Errorf("Document given %v: exit status %d, stderr\n%s\nwant 1 and\n%s", withDoc, code, errs, strings.Join(want, "\n"))
				}
			}
		})
	}
	code, _, errs := testtool.Run(t, mockCommand(newStore()), "mcp", "--options", filepath.Join(dir, "missing.json"))
	if code != 1 || !strings.Contains(errs, "--options: open "+filepath.Join(dir, "missing.json")) {
		t.Errorf("a missing file: exit status %d, stderr %q", code, errs)
	}
}

// TestOptionsApplied checks that the options of the file reach the tool: a
// fixed argument hidden from the served document and forced, an argument read
// from the environment at each call and never logged, a default.
func TestOptionsApplied(t *testing.T) {
	path := filepath.Join(t.TempDir(), "options.json")
	options := `{
  "envs": {"text": "TOOLCLI_TEST_TEXT"},
  "functions": {
    "read": {"args": {"fixed": {"id": 1}}},
    "update": {"args": {"defaults": {"id": 0}}}
  }
}`
	if err := os.WriteFile(path, []byte(options), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TOOLCLI_TEST_TEXT", "secret-from-env")
	s := newStore("zero", "one")
	r := testtool.Start(t, mockCommand(s), "--options", path)
	c := runtime.NewClient(r.Base + runtime.DefaultPrefix)
	ctx := context.Background()
	doc, err := c.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	params := map[string][]string{}
	for _, f := range doc.Functions {
		for _, p := range f.Parameters {
			params[f.Name] = append(params[f.Name], p.Name+":"+strconv.FormatBool(p.Required))
		}
	}
	if got := strings.Join(params["read"], ","); got != "" {
		t.Errorf("read's parameters %s, want none (id is fixed)", got)
	}
	if got := strings.Join(params["update"], ","); got != "id:false" {
		t.Errorf("update's parameters %s, want id optional (text from the environment)", got)
	}
	res, err := c.Call(ctx, runtime.FunctionCall{Name: "read", Arguments: json.RawMessage(`{"id":0}`)})
	if err != nil || string(res.Result) != `{"text":"one"}` {
		t.Errorf("read with id 0: %s, %v; want the fixed id 1's text", res.Result, err)
	}
	if _, err := c.Call(ctx, runtime.FunctionCall{Name: "update"}); err != nil {
		t.Fatal(err)
	}
	res, err = c.Call(ctx, runtime.FunctionCall{Name: "create", Arguments: json.RawMessage(`{"text":"mine"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Read(ctx, mocktool.ReadArgs{ID: 0}); got != "secret-from-env" {
		t.Errorf("update without arguments wrote %q into text 0, want the environment's value", got)
	}
	if got, _ := s.Read(ctx, mocktool.ReadArgs{ID: 2}); got != "secret-from-env" {
		t.Errorf("create wrote %q, want the environment's value", got)
	}
	r.Stop()
	r.Wait(t)
	logs := r.Logs.String()
	if strings.Contains(logs, "secret-from-env") {
		t.Errorf("the logs hold the value of an environment argument:\n%s", logs)
	}
	for _, fn := range []string{"read", "update", "create"} {
		if !regexp.MustCompile(`msg=call front=opentool function=` + fn + ` duration=\S+ outcome=ok\n`).MatchString(logs) {
			t.Errorf("no log line of the call of %s:\n%s", fn, logs)
		}
	}
}

// TestBareCommand checks that the command alone serves nothing: it prints
// the help on stdout and what is missing on stderr, and exits 2, with or
// without required flags (before, it started a server with no API key).
func TestBareCommand(t *testing.T) {
	for _, required := range [][]string{nil, {"upstream"}} {
		c := mockCommand(newStore())
		c.Required = required
		if required != nil {
			c.Flags = func(fs *flag.FlagSet) { fs.String("upstream", "", "URL") }
		}
		code, out, errs := testtool.Run(t, c)
		if code != 2 || !strings.HasPrefix(out, "mock_util_tool 1.0.0 — OpenTool and MCP server for CRUD API for mock\n\nUsage: mock_util_tool <command> [options]\n") ||
			!strings.HasSuffix(out, guidelineGlobal) || errs != "mock_util_tool: no command given: want start or mcp\n" {
			t.Errorf("required %q: exit status %d, stderr %q, stdout\n%s", required, code, errs, out)
		}
	}
}

// TestDaemonInvocation checks the contract with the reference SDK's daemon,
// which runs ENTRYPOINT + CMD + --opentoolServerTag/Host/Port/ApiKeys with no
// command: those options alone start the server, with that version, host,
// port and key.
func TestDaemonInvocation(t *testing.T) {
	c := mockCommand(newStore())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- c.Run(ctx, []string{"--opentoolServerTag", "2.0.0", "--opentoolServerHost", "127.0.0.1",
			"--opentoolServerPort", "0", "--opentoolServerApiKeys", "daemon-key"}, strings.NewReader(""), io.Discard, pw)
		pw.Close()
	}()
	base := make(chan string, 1)
	var logs strings.Builder
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			logs.WriteString(sc.Text() + "\n")
			if m := testtool.ServingLine.FindStringSubmatch(sc.Text()); m != nil {
				base <- m[1]
			}
		}
		close(base)
	}()
	var b string
	select {
	case b = <-base:
	case <-time.After(waitLong):
		t.Fatal("the daemon's command line did not start the server")
	}
	if b == "" {
		t.Fatalf("the daemon's command line did not start the server: exit status %d", <-done)
	}
	if status := get(t, b+"/opentool/version", ""); status != http.StatusUnauthorized {
		t.Errorf("without the daemon's key: %d, want 401", status)
	}
	v, err := runtime.NewClient(b+runtime.DefaultPrefix, runtime.WithAPIKey("daemon-key")).Version(ctx)
	if err != nil || v.Version != "2.0.0" {
		t.Errorf("GET /version with the daemon's key: %v, %v; want 2.0.0", v, err)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit status %d after the context ended, want 0", code)
	}
	for range base { // the logs to their end
	}
	if strings.Contains(logs.String(), "without an API key") {
		t.Errorf("a server with a key warns of none:\n%s", logs.String())
	}
}

// TestNoKeyWarns checks that start without an API key says so, loudly: a
// warning in the logs naming how to give one.
func TestNoKeyWarns(t *testing.T) {
	r := testtool.Start(t, mockCommand(newStore()))
	r.Stop()
	r.Wait(t)
	if !regexp.MustCompile(`level=WARN msg="serving without an API key: whoever reaches the port can call every function; give -k KEY or MOCK_UTIL_TOOL_API_KEYS" host=127.0.0.1\n`).MatchString(r.Logs.String()) {
		t.Errorf("no warning of the missing key:\n%s", r.Logs)
	}
}

// TestAPIKeysInProcess checks that keys given with -k, --apiKeys and
// --opentoolServerApiKeys (commas separating keys) all guard /opentool and
// /mcp, and that no key reaches the logs.
func TestAPIKeysInProcess(t *testing.T) {
	r := testtool.Start(t, mockCommand(newStore()), "-k", "key-one", "--apiKeys", "key-two", "--opentoolServerApiKeys", "key-three,key-four",
		"--opentoolServerTag", "2.0.0")
	for _, key := range []string{"", "wrong"} {
		for _, path := range []string{"/opentool/version", "/mcp"} {
			if status := get(t, r.Base+path, key); status != http.StatusUnauthorized {
				t.Errorf("GET %s with key %q: %d, want 401", path, key, status)
			}
		}
	}
	for _, key := range []string{"key-one", "key-two", "key-three", "key-four"} {
		v, err := runtime.NewClient(r.Base+runtime.DefaultPrefix, runtime.WithAPIKey(key)).Version(context.Background())
		if err != nil || v.Version != "2.0.0" {
			t.Errorf("key %s: version %v, %v; want 2.0.0 (--opentoolServerTag)", key, v, err)
		}
		// MCP answers a GET without a session with an error of its own, not 401.
		if status := get(t, r.Base+"/mcp", key); status == http.StatusUnauthorized {
			t.Errorf("GET /mcp with key %s: 401", key)
		}
	}
	if logs := r.Logs.String(); strings.Contains(logs, "key-") || !strings.Contains(logs, "apiKeys=4") {
		t.Errorf("the logs name a key, or do not count them:\n%s", logs)
	}
}

// TestAPIKeysFromEnvironment checks that without -k the keys come from
// NAME_API_KEYS (commas separating keys), that -k wins over it, and that an
// empty key there is refused as on the command line.
func TestAPIKeysFromEnvironment(t *testing.T) {
	t.Setenv("MOCK_UTIL_TOOL_API_KEYS", "env-one, env-two")
	r := testtool.Start(t, mockCommand(newStore()))
	for key, want := range map[string]int{"": http.StatusUnauthorized, "wrong": http.StatusUnauthorized, "env-one": http.StatusOK, "env-two": http.StatusOK} {
		if status := get(t, r.Base+"/opentool/version", key); status != want {
			t.Errorf("GET /opentool/version with key %q: %d, want %d", key, status, want)
		}
	}
	if logs := r.Logs.String(); strings.Contains(logs, "env-") || !strings.Contains(logs, "apiKeys=2") {
		t.Errorf("the logs name a key, or do not count them:\n%s", logs)
	}

	r = testtool.Start(t, mockCommand(newStore()), "-k", "flag-key")
	if status := get(t, r.Base+"/opentool/version", "env-one"); status != http.StatusUnauthorized {
		t.Errorf("with -k, a key of the environment was accepted: %d", status)
	}
	if status := get(t, r.Base+"/opentool/version", "flag-key"); status != http.StatusOK {
		t.Errorf("with -k, its key was refused: %d", status)
	}

	t.Setenv("MOCK_UTIL_TOOL_API_KEYS", "a,,b")
	code, _, errs := testtool.Run(t, mockCommand(newStore()), "start", "-t", "0")
	if code != 2 || !strings.Contains(errs, "MOCK_UTIL_TOOL_API_KEYS: empty API key") {
		t.Errorf("an empty key in the environment: exit status %d, stderr %q; want 2 naming the variable", code, errs)
	}
}

func get(t *testing.T, url, key string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// TestCallValueHeaders: a {name} placeholder in the options file takes each
// call's value from the header --values maps to it, on /opentool and /mcp; a
// call without the header fails naming the placeholder.
func TestCallValueHeaders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "options.json")
	if err := os.WriteFile(path, []byte(`{"functions": {"create": {"args": {"fixed": {"text": "turn {agent_turn_id}"}}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newStore()
	r := testtool.Start(t, mockCommand(s), "--options", path, "--values", "X-Agent-Turn=agent_turn_id")
	ctx := context.Background()
	c := runtime.NewClient(r.Base+runtime.DefaultPrefix, runtime.WithHeader("X-Agent-Turn", "42"))
	if _, err := c.Call(ctx, runtime.FunctionCall{Name: "create", Arguments: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Read(ctx, mocktool.ReadArgs{ID: 0}); got != "turn 42" {
		t.Errorf("created %q, want the header's turn", got)
	}
	bare := runtime.NewClient(r.Base + runtime.DefaultPrefix)
	if _, err := bare.Call(ctx, runtime.FunctionCall{Name: "create", Arguments: json.RawMessage(`{}`)}); err == nil || !strings.Contains(err.Error(), "{agent_turn_id}") {
		t.Errorf("without the header: %v", err)
	}
	// MCP over streamable HTTP: the same header.
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: r.Base + "/mcp", MaxRetries: -1,
		HTTPClient: &http.Client{Transport: headerTransport{"X-Agent-Turn", "43"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("create over MCP: %v %+v", err, res)
	}
	if got, _ := s.Read(ctx, mocktool.ReadArgs{ID: 1}); got != "turn 43" {
		t.Errorf("created over MCP %q, want the header's turn", got)
	}
	if code, _, errs := testtool.Run(t, mockCommand(s), "start", "--values", "X-Agent-Turn"); code != 2 || !strings.Contains(errs, "HEADER=NAME") {
		t.Errorf("a bad --values: exit %d, %q", code, errs)
	}
}

type headerTransport struct{ key, value string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.key, h.value)
	return http.DefaultTransport.RoundTrip(r)
}
