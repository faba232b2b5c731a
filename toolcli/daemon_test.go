package toolcli_test

// The OpenTool daemon's launch contract (opentool-hub/opentool-util-daemon
// 0.2.1, lib/src/service/tool_service.dart), played exactly against
// generated commands and the examples, as subprocesses: the daemon runs
//
//	bash -c "ENTRYPOINT CMD… --opentoolServerTag TAG --opentoolServerHost HOST --opentoolServerPort PORT --opentoolServerApiKeys KEY"
//
// in the tool's directory, on a port it found free, with a key it made;
// marks the tool ready once GET /opentool/version answers (polling, 30 s at
// most); calls it with "Authorization: Bearer KEY"; and sends POST
// /opentool/stop before it stops or deletes it, after which the process
// must end with status 0 (the daemon reports any other as a failure).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/examples/petstore/fakeapi"
	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	opentool "github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	mcpserver "github.com/opentoolgen/opentoolgen/testdata/golden/mcp-server"
)

// daemonReady is how long the daemon waits for /version (_readyCheckTimeout).
const daemonReady = 30 * time.Second

// daemonTool is a tool the test launched as the daemon does.
type daemonTool struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:PORT/opentool, as the daemon's client calls it
	logs *testtool.LockedBuffer
	done chan struct{} // closed when the process has ended
	code int
}

// freePort is a port free on host, as the daemon's port allocator finds one.
func freePort(t *testing.T, host string) int {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// daemonLaunch runs bin as the daemon runs a tool's ENTRYPOINT with CMD
// cmdArgs, on host (the daemon's hostType: 0.0.0.0 or 127.0.0.1), with key
// ("" adds no --opentoolServerApiKeys: not what the daemon does, but how the
// rule without keys is played), and waits until /version answers.
func daemonLaunch(t *testing.T, bin string, cmdArgs []string, host, key string, env ...string) *daemonTool {
	t.Helper()
	port := freePort(t, host)
	args := append([]string{"./" + filepath.Base(bin)}, cmdArgs...)
	args = append(args, "--opentoolServerTag latest", "--opentoolServerHost "+host, "--opentoolServerPort "+strconv.Itoa(port))
	if key != "" {
		args = append(args, "--opentoolServerApiKeys "+key)
	}
	cmd := exec.Command("bash", "-c", strings.Join(args, " "))
	cmd.Dir = filepath.Dir(bin)
	cmd.Env = append(os.Environ(), env...)
	d := &daemonTool{cmd: cmd, logs: &testtool.LockedBuffer{}, done: make(chan struct{}),
		base: "http://127.0.0.1:" + strconv.Itoa(port) + opentool.DefaultPrefix}
	cmd.Stdout, cmd.Stderr = d.logs, d.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		cmd.Wait()
		d.code = cmd.ProcessState.ExitCode()
		close(d.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-d.done
	})
	// _waitUntilReady: GET /version until it answers (the daemon every
	// 500 ms; here more often), at most 30 s.
	c := opentool.NewClient(d.base, opentool.WithAPIKey(key))
	deadline := time.Now().Add(daemonReady)
	for {
		v, err := c.Version(context.Background())
		if err == nil {
			if v.Version != "latest" {
				t.Errorf("/version: %q, want the daemon's tag \"latest\"", v.Version)
			}
			return d
		}
		select {
		case <-d.done:
			t.Fatalf("the tool ended (status %d) before it was ready: %s: %v\n%s", d.code, cmd.Args[2], err, d.logs)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("/version did not answer within %v: %v\n%s", daemonReady, err, d.logs)
		}
	}
}

// postStop sends POST /stop to base with key ("": none), as the daemon's
// client does (no body), and returns the status and the body.
func postStop(t *testing.T, base, key string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/stop", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := (&http.Client{Transport: &http.Transport{}, Timeout: waitLong}).Do(req)
	if err != nil {
		t.Fatalf("POST /stop: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// exited waits until the tool has ended, at most within, and returns its
// exit status.
func (d *daemonTool) exited(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case <-d.done:
		return d.code
	case <-time.After(within):
		t.Fatalf("the tool is still running %v after /stop:\n%s", within, d.logs)
		return -1
	}
}

// stopAsDaemon plays the end of the contract: a /stop with a wrong key is
// refused (401) and the tool serves on; the daemon's /stop answers
// {"status":"stopped"} and the process exits 0.
func stopAsDaemon(t *testing.T, d *daemonTool, key string) {
	t.Helper()
	if status, body := postStop(t, d.base, "not-"+key); status != http.StatusUnauthorized {
		t.Errorf("/stop with a wrong key: %d %s, want 401", status, body)
	}
	if _, err := opentool.NewClient(d.base, opentool.WithAPIKey(key)).Version(context.Background()); err != nil {
		t.Fatalf("after a refused /stop the tool does not serve: %v\n%s", err, d.logs)
	}
	if status, body := postStop(t, d.base, key); status != http.StatusOK || body != `{"status":"stopped"}` {
		t.Fatalf("/stop: %d %s, want 200 {\"status\":\"stopped\"}\n%s", status, body, d.logs)
	}
	if code := d.exited(t, waitLong); code != 0 {
		t.Errorf("exit status %d after /stop, want 0:\n%s", code, d.logs)
	}
}

// buildPath builds the main package at dir (relative to toolcli) into
// binDir/name, once per test run.
func buildPath(t *testing.T, name, dir string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping go build of the commands")
	}
	v, _ := builds.LoadOrStore("path:"+dir, &buildResult{})
	b := v.(*buildResult)
	b.once.Do(func() {
		b.path = filepath.Join(binDir, name)
		if out, err := exec.Command("go", "build", "-o", b.path, dir).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", dir, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// TestDaemonOpenTool: the gateway generated for the mock tool's document,
// under the daemon: a call; a call under way when /stop arrives is cut off
// at the end of its grace period, the process still exits 0.
func TestDaemonOpenTool(t *testing.T) {
	bin := build(t, "mocktool")
	s := newStore("Hello", "World")
	url := upstream(t, s, "up-secret")
	const grace = 500 * time.Millisecond
	d := daemonLaunch(t, bin, []string{"start", "--upstream", url, "--upstream-key", "up-secret", "--shutdownTimeout", grace.String()}, "0.0.0.0", "daemon-key")
	c := opentool.NewClient(d.base, opentool.WithAPIKey("daemon-key"))
	if res, err := c.Call(context.Background(), opentool.FunctionCall{Name: "count"}); err != nil || string(res.Result) != `{"Count":2}` {
		t.Fatalf("count: %s, %v\n%s", res.Result, err, d.logs)
	}
	run := make(chan error, 1)
	go func() {
		_, err := c.Call(context.Background(), opentool.FunctionCall{Name: "run"})
		run <- err
	}()
	select {
	case <-s.Started:
	case <-time.After(waitLong):
		t.Fatalf("run did not start\n%s", d.logs)
	}
	stopAsDaemon(t, d, "daemon-key")
	if err := <-run; err == nil {
		t.Error("the call cut off by the end of the grace period succeeded")
	}
	if err := <-s.Cancelled; !errors.Is(err, context.Canceled) {
		t.Errorf("the upstream's run ended with %v, want its cancellation", err)
	}
	if logs := d.logs.String(); !strings.Contains(logs, "stopping, as POST /stop asked") {
		t.Errorf("no log line of the stop:\n%s", logs)
	}
}

// TestDaemonOpenAPI: the petstore command generated from OpenAPI, its REST
// API at --base-url.
func TestDaemonOpenAPI(t *testing.T) {
	bin := build(t, "openapi-petstore")
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-API-Key") != "rest-secret" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[{"id":1,"name":"Rex","status":"available"}]`)
	}))
	defer backend.Close()
	d := daemonLaunch(t, bin, []string{"start", "--base-url", backend.URL}, "127.0.0.1", "daemon-key", "OPENAPI_PETSTORE_API_KEY=rest-secret")
	res, err := opentool.NewClient(d.base, opentool.WithAPIKey("daemon-key")).Call(context.Background(), opentool.FunctionCall{Name: "listPets"})
	if err != nil || !strings.Contains(string(res.Result), `"name":"Rex"`) {
		t.Fatalf("listPets: %s, %v\n%s", res.Result, err, d.logs)
	}
	stopAsDaemon(t, d, "daemon-key")
}

// TestDaemonOpenDyn: the OpenDyn example's command, its library built with
// gcc.
func TestDaemonOpenDyn(t *testing.T) {
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
	d := daemonLaunch(t, bin, []string{"start", "--library", lib}, "127.0.0.1", "daemon-key")
	res, err := opentool.NewClient(d.base, opentool.WithAPIKey("daemon-key")).Call(context.Background(),
		opentool.FunctionCall{Name: "add", Arguments: json.RawMessage(`{"a":2,"b":40}`)})
	if err != nil || string(res.Result) != `{"result":42}` {
		t.Fatalf("add: %s, %v\n%s", res.Result, err, d.logs)
	}
	stopAsDaemon(t, d, "daemon-key")
}

// echoTool is the upstream MCP server of the mcp-server golden case's
// listing: its echo answers the text.
type echoTool struct{}

func (echoTool) Load(context.Context) (*document.OpenTool, error) { return mcpserver.Document(), nil }
func (echoTool) Call(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	if name != "echo" {
		return nil, opentool.NewError(404, "no "+name)
	}
	var a struct{ Text string }
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	return json.Marshal(map[string]string{"text": a.Text})
}

// TestDaemonMCPListing: the gateway generated from an MCP server's
// tools/list, its MCP server at --upstream.
func TestDaemonMCPListing(t *testing.T) {
	bin := build(t, "mcp-server")
	up, err := mcpbridge.NewHTTPHandler(context.Background(), echoTool{}, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	upSrv := httptest.NewServer(up)
	t.Cleanup(func() { up.Close(); upSrv.Close() })
	d := daemonLaunch(t, bin, []string{"start", "--upstream", upSrv.URL}, "127.0.0.1", "daemon-key")
	res, err := opentool.NewClient(d.base, opentool.WithAPIKey("daemon-key")).Call(context.Background(),
		opentool.FunctionCall{Name: "echo", Arguments: json.RawMessage(`{"text":"hi"}`)})
	if err != nil || !strings.Contains(string(res.Result), `hi`) {
		t.Fatalf("echo: %s, %v\n%s", res.Result, err, d.logs)
	}
	stopAsDaemon(t, d, "daemon-key")
}

// TestDaemonExample: examples/mocktool/server, a main written by hand on
// toolcli; then its rules without keys: /stop from a peer that is not on a
// loopback address is refused (when this machine has such an address), from
// loopback it stops; and --noRemoteStop.
func TestDaemonExample(t *testing.T) {
	bin := buildPath(t, "mocktool-server", "../examples/mocktool/server")
	d := daemonLaunch(t, bin, []string{"start"}, "127.0.0.1", "daemon-key")
	if res, err := opentool.NewClient(d.base, opentool.WithAPIKey("daemon-key")).Call(context.Background(), opentool.FunctionCall{Name: "count"}); err != nil || string(res.Result) != `{"Count":2}` {
		t.Fatalf("count: %s, %v\n%s", res.Result, err, d.logs)
	}
	stopAsDaemon(t, d, "daemon-key")

	t.Run("no keys", func(t *testing.T) {
		d := daemonLaunch(t, bin, []string{"start"}, "0.0.0.0", "")
		if ip := outsideAddr(); ip != "" {
			outside := "http://" + net.JoinHostPort(ip, strings.TrimPrefix(strings.TrimSuffix(d.base, opentool.DefaultPrefix), "http://127.0.0.1:")) + opentool.DefaultPrefix
			if status, body := postStop(t, outside, ""); status != http.StatusForbidden {
				t.Errorf("/stop from %s without keys: %d %s, want 403", ip, status, body)
			}
			if _, err := opentool.NewClient(d.base).Version(context.Background()); err != nil {
				t.Fatalf("after a refused /stop the tool does not serve: %v", err)
			}
		} else {
			t.Log("no address but loopback ones: the rule for other peers is TestStopRules's (runtime)")
		}
		if status, body := postStop(t, d.base, ""); status != http.StatusOK || body != `{"status":"stopped"}` {
			t.Fatalf("/stop from loopback without keys: %d %s", status, body)
		}
		if code := d.exited(t, waitLong); code != 0 {
			t.Errorf("exit status %d, want 0:\n%s", code, d.logs)
		}
	})
	t.Run("noRemoteStop", func(t *testing.T) {
		d := daemonLaunch(t, bin, []string{"start", "--noRemoteStop"}, "127.0.0.1", "daemon-key")
		if status, body := postStop(t, d.base, "daemon-key"); status != http.StatusNotFound {
			t.Errorf("/stop with --noRemoteStop: %d %s, want 404", status, body)
		}
		if _, err := opentool.NewClient(d.base, opentool.WithAPIKey("daemon-key")).Version(context.Background()); err != nil {
			t.Fatalf("after /stop the tool does not serve: %v", err)
		}
		d.cmd.Process.Signal(syscall.SIGTERM)
		if code := d.exited(t, waitLong); code != 0 {
			t.Errorf("exit status %d on SIGTERM, want 0:\n%s", code, d.logs)
		}
	})
}

// outsideAddr is an address of this machine that is not a loopback one
// (IPv4), "" when it has none.
func outsideAddr() string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	return ""
}

// TestPetstoreExampleStops: examples/petstore/tool, a main on runtime.Serve
// (no daemon flags: its own -addr and -api), in front of the fake petstore
// API: a call, then Client.Stop ends it with status 0.
func TestPetstoreExampleStops(t *testing.T) {
	bin := buildPath(t, "petstore-tool", "../examples/petstore/tool")
	api := httptest.NewServer((&fakeapi.API{Key: "pet-key"}).Handler())
	defer api.Close()
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t, "127.0.0.1")))
	cmd := exec.Command(bin, "-addr", addr, "-api", api.URL+"/v1")
	cmd.Env = append(os.Environ(), "PETSTORE_API_KEY=pet-key")
	logs := &testtool.LockedBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	done := make(chan struct{})
	go func() { cmd.Wait(); once.Do(func() { close(done) }) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-done })
	c := opentool.NewClient("http://" + addr + opentool.DefaultPrefix)
	deadline := time.Now().Add(daemonReady)
	for {
		if _, err := c.Version(context.Background()); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("/version: %v\n%s", err, logs)
		}
		select {
		case <-done:
			t.Fatalf("the tool ended:\n%s", logs)
		case <-time.After(50 * time.Millisecond):
		}
	}
	if res, err := c.Call(context.Background(), opentool.FunctionCall{Name: "listPets"}); err != nil {
		t.Fatalf("listPets: %s, %v\n%s", res.Result, err, logs)
	}
	if err := c.Stop(context.Background()); err != nil {
		t.Fatalf("Stop: %v\n%s", err, logs)
	}
	select {
	case <-done:
		if code := cmd.ProcessState.ExitCode(); code != 0 {
			t.Errorf("exit status %d after Stop, want 0:\n%s", code, logs)
		}
	case <-time.After(waitLong):
		t.Fatalf("the tool is still running after Stop:\n%s", logs)
	}
}

// TestDaemonFlagsLastWins: of the daemon's flags given twice, the last one
// wins (Dart's args package does so with an option), and
// --opentoolServerApiKeys repeated adds keys.
func TestDaemonFlagsLastWins(t *testing.T) {
	r := testtool.Start(t, mockCommand(newStore()), "--opentoolServerTag", "1.0.0", "--opentoolServerTag", "2.0.0",
		"--opentoolServerHost", "0.0.0.0", "--opentoolServerHost", "127.0.0.1",
		"--opentoolServerPort", "1", "--opentoolServerPort", "0",
		"--opentoolServerApiKeys", "key-one", "--opentoolServerApiKeys", "key-two")
	if !strings.HasPrefix(r.Base, "http://127.0.0.1:") || strings.HasSuffix(r.Base, ":1") {
		t.Errorf("serving at %s, want the last host and port (127.0.0.1, a free port)", r.Base)
	}
	for _, key := range []string{"key-one", "key-two"} {
		v, err := opentool.NewClient(r.Base+opentool.DefaultPrefix, opentool.WithAPIKey(key)).Version(context.Background())
		if err != nil || v.Version != "2.0.0" {
			t.Errorf("key %s: version %v, %v; want the last tag, 2.0.0", key, v, err)
		}
	}
	if err := opentool.NewClient(r.Base+opentool.DefaultPrefix, opentool.WithAPIKey("key-two")).Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if code := r.Wait(t); code != 0 {
		t.Errorf("exit status %d after /stop, want 0:\n%s", code, r.Logs)
	}
}
