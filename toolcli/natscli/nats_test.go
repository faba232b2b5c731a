package natscli_test

// Tests of NAME nats, the command running in this process: on its embedded
// NATS server, and joining a server the test runs.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/toolcli"
)

// natsRun is a nats command running in the test's process.
type natsRun struct {
	url   string // of the NATS server it serves on
	stop  context.CancelFunc
	logs  *testtool.LockedBuffer
	lines chan string // the log's lines after the one saying where it serves
	done  chan int
}

// waitLine waits for a line of the log that matches re.
func (r *natsRun) waitLine(t *testing.T, re *regexp.Regexp) string {
	t.Helper()
	deadline := time.After(waitLong)
	for {
		select {
		case l := <-r.lines:
			if re.MatchString(l) {
				return l
			}
		case <-deadline:
			t.Fatalf("no log line matching %s:\n%s", re, r.logs)
			return ""
		}
	}
}

var servingNATS = regexp.MustCompile(`msg="serving NATS" .*url=(nats://[^ ]+) `)

// startNATS runs c with "nats" and args until the test ends (or stop).
func startNATS(t *testing.T, c *toolcli.Command, args ...string) *natsRun {
	t.Helper()
	return startServing(t, c, servingNATS, append([]string{"nats"}, args...)...)
}

// startServing runs c with args until the test ends (or stop), once it
// logged a line matching serving, whose first group is the server's URL.
func startServing(t *testing.T, c *toolcli.Command, serving *regexp.Regexp, args ...string) *natsRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	r := &natsRun{stop: cancel, logs: &testtool.LockedBuffer{}, lines: make(chan string, 1000), done: make(chan int, 1)}
	drained := make(chan struct{}) // the log read to its end
	go func() {
		code := c.Run(ctx, args, strings.NewReader(""), io.Discard, pw)
		pw.Close()
		<-drained // so that r.logs holds every line once done says the command ended
		r.done <- code
	}()
	url := make(chan string, 1)
	go func() {
		defer close(drained)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			r.logs.WriteString(sc.Text() + "\n")
			if m := serving.FindStringSubmatch(sc.Text()); m != nil {
				url <- m[1]
			} else {
				select {
				case r.lines <- sc.Text():
				default: // a test that reads no lines
				}
			}
		}
		close(url)
	}()
	t.Cleanup(func() { cancel(); r.wait(t) })
	select {
	case u, ok := <-url:
		if !ok {
			t.Fatalf("the command ended without serving:\n%s", r.logs)
		}
		r.url = u
	case <-time.After(waitLong):
		t.Fatalf("the command did not say where it serves:\n%s", r.logs)
	}
	return r
}

func (r *natsRun) wait(t *testing.T) int {
	t.Helper()
	return r.waitWithin(t, waitLong)
}

// waitWithin waits at most d for the command's end.
func (r *natsRun) waitWithin(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case code := <-r.done:
		r.done <- code
		return code
	case <-time.After(d):
		t.Fatalf("the command did not stop within %v:\n%s", d, r.logs)
		return -1
	}
}

// promptly bounds the stop of a command with nothing to wait for: it takes
// milliseconds; generous for a loaded machine.
const promptly = 5 * time.Second

func natsConnect(t *testing.T, url string) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// NAME nats with no --url serves on an embedded server on 127.0.0.1: the
// typed client calls it over NATS (a call, an error, a stream), micro's
// discovery finds it under the document's title, and SIGINT stops it.
func TestNATSEmbedded(t *testing.T) {
	r := startNATS(t, mockCommand(newStore("a", "b")), "--natsPort", "0")
	if !strings.HasPrefix(r.url, "nats://127.0.0.1:") {
		t.Errorf("url %s, want one on 127.0.0.1", r.url)
	}
	nc := natsConnect(t, r.url)
	c := mocktool.NewClient(natsbridge.NewCaller(nc, "crud_api_for_mock"))
	ctx := t.Context()
	if n, err := c.Count(ctx); err != nil || n != 2 {
		t.Errorf("count: %v, %v", n, err)
	}
	if text, err := c.Read(ctx, mocktool.ReadArgs{ID: 1}); err != nil || text != "b" {
		t.Errorf("read: %q, %v", text, err)
	}
	var e *runtime.Error
	if _, err := c.Read(ctx, mocktool.ReadArgs{ID: 9}); !errors.As(err, &e) || e.Code != 404 || e.Class != runtime.ClassCall {
		t.Errorf("read of an unknown id: %v", err)
	}
	var items []string
	for text, err := range c.SequentiallyReadSeq(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, string(text))
	}
	if strings.Join(items, ",") != "a,b" {
		t.Errorf("stream: %q", items)
	}
	m, err := nc.Request("$SRV.INFO.mock_util_tool", nil, waitLong)
	if err != nil {
		t.Fatal(err)
	}
	var info micro.Info
	json.Unmarshal(m.Data, &info)
	if len(info.Endpoints) != 7 || info.Description != "CRUD API for mock" || info.Endpoints[0].Subject != "crud_api_for_mock.count" || info.Endpoints[0].QueueGroup != "opentool" {
		t.Errorf("info: %s", m.Data)
	}
	if !strings.Contains(r.logs.String(), "front=nats function=read") {
		t.Errorf("no call logged:\n%s", r.logs)
	}
	r.stop()
	if code := r.wait(t); code != 0 || !strings.Contains(r.logs.String(), "msg=stopped") {
		t.Errorf("exit %d:\n%s", code, r.logs)
	}
}

// Two commands join one server with --url, --prefix and --queue: they share
// the calls; one told to stop answers its call in flight, cancelled when its
// --shutdownTimeout ends, and the other serves on.
func TestNATSReplicas(t *testing.T) {
	ns, err := natsbridge.StartEmbedded(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	s1, s2 := newStore("one"), newStore("two")
	args := []string{"--url", ns.ClientURL(), "--prefix", "tools.mock", "--queue", "mockers", "--shutdownTimeout", "300ms"}
	r1 := startNATS(t, mockCommand(s1), args...)
	startNATS(t, mockCommand(s2), args...)
	if r1.url != ns.ClientURL() {
		t.Errorf("url %s, want %s", r1.url, ns.ClientURL())
	}
	c := mocktool.NewClient(natsbridge.NewCaller(natsConnect(t, ns.ClientURL()), "tools.mock"))
	ctx := t.Context()
	seen := map[string]int{}
	for range 40 {
		text, err := c.Read(ctx, mocktool.ReadArgs{ID: 0})
		if err != nil {
			t.Fatal(err)
		}
		seen[string(text)]++
	}
	if seen["one"] == 0 || seen["two"] == 0 {
		t.Errorf("calls per replica: %v", seen)
	}
	// Calls in flight (Run blocks until its context ends) until one runs on
	// replica 1.
	ran := make(chan error, 20)
	on1 := 0
	for i := 0; on1 == 0; i++ {
		if i == 20 {
			t.Fatal("no Run reached replica 1")
		}
		go func() { ran <- c.Run(ctx) }()
		select {
		case <-s1.Started:
			on1++
		case <-s2.Started:
		case <-time.After(waitLong):
			t.Fatal("Run did not start")
		}
	}
	r1.stop()
	// Its call is answered: cut off by the end of the grace period.
	select {
	case err := <-ran:
		var e *runtime.Error
		if !errors.As(err, &e) || e.Class != runtime.ClassCall || e.Code != 500 || !strings.Contains(e.Message, "context canceled") {
			t.Errorf("the call cut off by the shutdown: %v", err)
		}
	case <-time.After(waitLong):
		t.Error("the call in flight on the stopped replica was not answered")
	}
	if err := <-s1.Cancelled; !errors.Is(err, context.Canceled) {
		t.Errorf("the Run on replica 1 saw %v", err)
	}
	if code := r1.wait(t); code != 0 || !strings.Contains(r1.logs.String(), "grace period ended") {
		t.Errorf("exit %d:\n%s", code, r1.logs)
	}
	for range 10 {
		if text, err := c.Read(ctx, mocktool.ReadArgs{ID: 0}); err != nil || text != "two" {
			t.Errorf("after the stop: %q, %v", text, err)
		}
	}
}

func TestNATSUsage(t *testing.T) {
	c := mockCommand(newStore())
	for _, args := range [][]string{{"nats", "--url", "nats://127.0.0.1:1", "--natsPort", "5000"}, {"nats", "--natsPort", "70000"}, {"nats", "--queue"}} {
		if code, _, errs := testtool.Run(t, c, args...); code != 2 || errs == "" {
			t.Errorf("%q: exit %d, %q; want 2", args, code, errs)
		}
	}
	if code, _, errs := testtool.Run(t, c, "nats", "--url", "nats://127.0.0.1:1"); code != 1 || !strings.Contains(errs, "connecting to NATS at nats://127.0.0.1:1") {
		t.Errorf("no server: exit %d, %q", code, errs)
	}
	if code, out, _ := testtool.Run(t, c, "-h"); code != 0 || !strings.Contains(out, "Command: nats") || !strings.Contains(out, "--natsPort") {
		t.Errorf("help: %d\n%s", code, out)
	}
}

// --values takes call values from message headers, for {NAME} in --options.
func TestNATSCallValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "options.json")
	if err := os.WriteFile(path, []byte(`{"functions":{"create":{"args":{"fixed":{"text":"turn {agent_turn_id}"}}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := newStore()
	r := startNATS(t, mockCommand(s), "--natsPort", "0", "--options", path, "--values", "X-Agent-Turn=agent_turn_id")
	nc := natsConnect(t, r.url)
	c := mocktool.NewClient(natsbridge.NewCaller(nc, "crud_api_for_mock", natsbridge.WithHeaders(func(context.Context) nats.Header {
		return nats.Header{"X-Agent-Turn": {"42"}}
	})))
	if _, err := c.Create(t.Context(), mocktool.CreateArgs{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Read(t.Context(), mocktool.ReadArgs{ID: 0}); got != "turn 42" {
		t.Errorf("created %q, want the header's turn", got)
	}
	bare := mocktool.NewClient(natsbridge.NewCaller(nc, "crud_api_for_mock"))
	if _, err := bare.Create(t.Context(), mocktool.CreateArgs{}); err == nil || !strings.Contains(err.Error(), "{agent_turn_id}") {
		t.Errorf("without the header: %v", err)
	}
}

// A command whose NATS server goes away says so in its log, and on the end
// of its context (SIGTERM) stops at once when no call is in flight, saying
// none was left unanswered, not after the grace period.
func TestNATSServerGone(t *testing.T) {
	ns, err := natsbridge.StartEmbedded(0)
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Shutdown()
	r := startNATS(t, mockCommand(newStore("a")), "--url", ns.ClientURL(), "--shutdownTimeout", "1h")
	c := mocktool.NewClient(natsbridge.NewCaller(natsConnect(t, r.url), "crud_api_for_mock"))
	if n, err := c.Count(t.Context()); err != nil || n != 1 {
		t.Fatalf("count: %v, %v", n, err)
	}
	ns.Shutdown()
	r.waitLine(t, regexp.MustCompile(`level=WARN msg="disconnected from NATS: reconnecting"`))
	r.stop()
	if code := r.waitWithin(t, promptly); code != 0 {
		t.Errorf("exit code %d", code)
	}
	logs := r.logs.String()
	if !regexp.MustCompile(`msg=stopped unanswered=0\n`).MatchString(logs) || strings.Contains(logs, "grace period ended") {
		t.Errorf("the log of a stop with nothing in flight:\n%s", logs)
	}
}

// The same of NAME exec: its server going away is logged, and it stops at
// once with no command in flight.
func TestExecServerGone(t *testing.T) {
	ns, err := natsbridge.StartEmbeddedJetStream(0, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Shutdown()
	r := startServing(t, mockCommand(newStore("a")), servingExec, "exec", "--url", ns.ClientURL(), "--shutdownTimeout", "1h")
	ns.Shutdown()
	r.waitLine(t, regexp.MustCompile(`level=WARN msg="disconnected from NATS: reconnecting"`))
	r.stop()
	if code := r.waitWithin(t, promptly); code != 0 {
		t.Errorf("exit code %d", code)
	}
	if logs := r.logs.String(); !strings.Contains(logs, "msg=stopped") || strings.Contains(logs, "grace period ended") {
		t.Errorf("the log of a stop with nothing in flight:\n%s", logs)
	}
}

// TestNATSDiscovery: nats --discovery on serves the three discovery
// functions as the micro service's endpoints, and call_tool over NATS
// reaches the tool's own function, streams included.
func TestNATSDiscovery(t *testing.T) {
	r := startNATS(t, mockCommand(newStore("a", "b")), "--natsPort", "0", "--discovery", "on")
	nc := natsConnect(t, r.url)
	m, err := nc.Request("$SRV.INFO.mock_util_tool", nil, waitLong)
	if err != nil {
		t.Fatal(err)
	}
	var info micro.Info
	json.Unmarshal(m.Data, &info)
	var subjects []string
	for _, e := range info.Endpoints {
		subjects = append(subjects, e.Subject)
	}
	if strings.Join(subjects, " ") != "crud_api_for_mock.search_tools crud_api_for_mock.describe_tool crud_api_for_mock.call_tool" {
		t.Errorf("endpoints %v, want the three discovery functions", subjects)
	}
	c := natsbridge.NewCaller(nc, "crud_api_for_mock")
	res, err := c.CallFunction(t.Context(), "call_tool", json.RawMessage(`{"name":"read","arguments":{"id":1}}`))
	if err != nil || string(res) != `{"text":"b"}` {
		t.Errorf("call_tool read over NATS: %s %v", res, err)
	}
	var items []string
	for item, err := range c.StreamFunction(t.Context(), "call_tool", json.RawMessage(`{"name":"sequentiallyRead"}`)) {
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, string(item))
	}
	if strings.Join(items, ",") != `{"text":"a"},{"text":"b"}` {
		t.Errorf("call_tool sequentiallyRead streamed over NATS: %v", items)
	}
}
