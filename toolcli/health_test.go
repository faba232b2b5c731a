package toolcli_test

// Tests of what makes start safe to run as replicas behind a load balancer:
// /healthz and /readyz, the drain on SIGTERM, stateless MCP. The command runs
// in this process on a real listener (internal/replicae2e runs replicas as
// subprocesses).

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/internal/testtool"
)

// probe does a request and returns its status, body and Connection header.
func probe(t *testing.T, method, url, key string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := (&http.Client{Timeout: waitLong}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	conn := ""
	if resp.Close { // the client takes "Connection: close" out of the header
		conn = "close"
	}
	return resp.StatusCode, string(b), conn
}

// callCount calls count over OpenTool HTTP and returns the HTTP status, the
// body and the Connection header.
func callCount(t *testing.T, base, key string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/opentool/call", strings.NewReader(`{"jsonrpc":"2.0","method":"count","params":{},"id":1}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := (&http.Client{Timeout: waitLong}).Do(req)
	if err != nil {
		t.Fatalf("POST /opentool/call: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	conn := ""
	if resp.Close { // the client takes "Connection: close" out of the header
		conn = "close"
	}
	return resp.StatusCode, string(b), conn
}

// TestHealthAndDrain: /healthz and /readyz answer without the API key;
// once told to stop, /readyz is 503 "draining" at once while calls are
// still served for the drain delay, every answer closing its connection;
// then the port closes and the command exits 0.
func TestHealthAndDrain(t *testing.T) {
	const delay = 700 * time.Millisecond
	r := testtool.Start(t, mockCommand(newStore("a", "b")), "-k", "secret", "--drainDelay", delay.String())
	for _, c := range []struct{ method, path, want string }{
		{"GET", "/healthz", `{"status":"ok"}` + "\n"},
		{"GET", "/readyz", `{"status":"ready"}` + "\n"},
		{"HEAD", "/readyz", ""},
	} {
		if code, body, conn := probe(t, c.method, r.Base+c.path, ""); code != 200 || body != c.want || conn == "close" {
			t.Errorf("%s %s: %d %q (Connection %q), want 200 %q, kept alive", c.method, c.path, code, body, conn, c.want)
		}
	}
	if code, _, _ := probe(t, "POST", r.Base+"/readyz", ""); code != http.StatusMethodNotAllowed {
		t.Errorf("POST /readyz: %d, want 405", code)
	}
	if code, _, _ := probe(t, "GET", r.Base+"/opentool/version", ""); code != http.StatusUnauthorized {
		t.Errorf("GET /opentool/version without key: %d, want 401 (only the probes are open)", code)
	}
	if code, body, conn := callCount(t, r.Base, "secret"); code != 200 || !strings.Contains(body, `"Count":2`) || conn == "close" {
		t.Fatalf("count before the stop: %d %s (Connection %q)", code, body, conn)
	}

	stopped := time.Now()
	r.Stop() // as SIGTERM does
	deadline := time.Now().Add(delay / 2)
	for {
		code, body, conn := probe(t, "GET", r.Base+"/readyz", "")
		if code == http.StatusServiceUnavailable {
			if body != `{"status":"draining"}`+"\n" || conn != "close" {
				t.Errorf("/readyz draining: %q (Connection %q), want draining, close", body, conn)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still %d %q %v after the stop", code, body, time.Since(stopped))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if time.Since(stopped) < delay {
		if code, body, conn := callCount(t, r.Base, "secret"); code != 200 || !strings.Contains(body, `"Count":2`) || conn != "close" {
			t.Errorf("count while draining: %d %s (Connection %q), want answered, close", code, body, conn)
		}
		if code, _, _ := probe(t, "GET", r.Base+"/healthz", ""); code != 200 {
			t.Errorf("/healthz while draining: %d, want 200 (still alive)", code)
		}
	} else {
		t.Log("the machine is too slow to check the calls during the drain delay")
	}
	if code := r.Wait(t); code != 0 {
		t.Errorf("exit status %d, want 0\n%s", code, r.Logs)
	}
	if took := time.Since(stopped); took < delay {
		t.Errorf("stopped %v after SIGTERM, before the drain delay %v", took, delay)
	}
	if _, err := http.Get(r.Base + "/healthz"); err == nil {
		t.Error("the port still answers after the command exited")
	}
	if !strings.Contains(r.Logs.String(), "msg=\"draining: /readyz answers 503") {
		t.Errorf("no draining line in the logs:\n%s", r.Logs)
	}
}

// TestDrainDelaySkippedUnprobed: a server whose /readyz nobody asked stops
// at once, whatever its drain delay.
func TestDrainDelaySkippedUnprobed(t *testing.T) {
	r := testtool.Start(t, mockCommand(newStore()), "--drainDelay", "1m")
	stopped := time.Now()
	r.Stop()
	if code := r.Wait(t); code != 0 {
		t.Errorf("exit status %d, want 0", code)
	}
	if took := time.Since(stopped); took > 10*time.Second {
		t.Errorf("stopped %v after SIGTERM, unprobed: the drain delay was not skipped", took)
	}
	if strings.Contains(r.Logs.String(), "draining") {
		t.Errorf("logged a drain nobody watched:\n%s", r.Logs)
	}
}

// TestReadyHook: Command.Ready decides readiness; its error is logged once
// per change and never told to the prober.
func TestReadyHook(t *testing.T) {
	var down atomic.Bool
	c := mockCommand(newStore())
	c.Ready = func(ctx context.Context) error {
		if down.Load() {
			return errors.New("upstream http://10.0.0.7:9 unreachable")
		}
		return nil
	}
	r := testtool.Start(t, c, "--drainDelay", "0")
	want := map[bool]string{false: `{"status":"ready"}` + "\n", true: `{"status":"unavailable"}` + "\n"}
	for _, d := range []bool{false, true, true, false} {
		down.Store(d)
		code, body, _ := probe(t, "GET", r.Base+"/readyz", "")
		if wantCode := map[bool]int{false: 200, true: 503}[d]; code != wantCode || body != want[d] {
			t.Errorf("upstream down=%v: /readyz %d %q, want %d %q", d, code, body, wantCode, want[d])
		}
	}
	logs := r.Logs.String()
	if strings.Count(logs, `msg="not ready"`) != 1 || strings.Count(logs, `msg="ready again"`) != 1 || !strings.Contains(logs, "unreachable") {
		t.Errorf("want one not ready line with the reason and one ready again line:\n%s", logs)
	}
}

// mcpPost posts one JSON-RPC message to /mcp with a session ID from
// elsewhere (a replica that initialized it), as an MCP client of 2025-06-18
// does after its initialize went to another replica.
func mcpPost(t *testing.T, base, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") // never issued here
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := (&http.Client{Timeout: waitLong}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestStartMCPStateless: by default start answers an MCP call whose session
// another replica opened (no initialize here); with --mcpSessions it is 404,
// as a stateful server must answer.
func TestStartMCPStateless(t *testing.T) {
	const call = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"count","arguments":{}}}`
	r := testtool.Start(t, mockCommand(newStore("a", "b", "c")))
	code, body := mcpPost(t, r.Base, call)
	if code != 200 || !strings.Contains(body, `"id":7`) || !strings.Contains(body, `"structuredContent":{"Count":3}`) {
		t.Errorf("stateless: a call with another replica's session: %d %s, want 200 with count 3", code, body)
	}
	if code, _, _ := probe(t, "GET", r.Base+"/mcp", ""); code != http.StatusMethodNotAllowed {
		t.Errorf("stateless: GET /mcp: %d, want 405 (no standing stream)", code)
	}
	s := testtool.Start(t, mockCommand(newStore("a")), "--mcpSessions")
	if code, body := mcpPost(t, s.Base, call); code != http.StatusNotFound {
		t.Errorf("--mcpSessions: a call with an unknown session: %d %s, want 404", code, body)
	}
}
