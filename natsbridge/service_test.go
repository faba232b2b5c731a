package natsbridge_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"

	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// errString is what a test compares of an error: an *Error's class, code,
// message and data, and what errors.Is says of it.
func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	var e *runtime.Error
	if !errors.As(err, &e) {
		return "not a *runtime.Error: " + err.Error()
	}
	s := string(e.Class) + " " + strings.TrimSpace(strings.Join([]string{itoa(e.Code), e.Message, string(e.Data)}, "|"))
	for _, sen := range []struct {
		n string
		e error
	}{{"ErrCall", runtime.ErrCall}, {"ErrNoAccess", runtime.ErrNoAccess}, {"ErrNoStreaming", runtime.ErrNoStreaming}} {
		if errors.Is(err, sen.e) {
			s += " " + sen.n
		}
	}
	return s
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// Calls through the Caller: results, and errors with their code, message
// and data as a /call answer has them.
func TestCalls(t *testing.T) {
	url := startServer(t)
	svc := serve(t, url, newCalc("a"))
	if svc.Prefix() != "calc_tool" {
		t.Errorf("prefix %q, want the title's calc_tool", svc.Prefix())
	}
	c := natsbridge.NewCaller(connect(t, url), svc.Prefix())
	ctx := t.Context()
	tests := []struct {
		name, fn, args string
		want, err      string
	}{
		{"a result", "add", `{"a":1,"b":2.5}`, `{"sum":3.5}`, "<nil>"},
		{"a tool error with code and data", "add", `{"a":-1}`, "", `call 422|a must not be negative|{"a":-1} ErrCall`},
		{"a plain error", "fail", ``, "", `call 500|disk on fire| ErrCall`},
		{"invalid params", "add", `{"a":"x"}`, "", `call -32602|invalid params: json: cannot unmarshal string into Go struct field .A of type float64|[{"path":"","message":"json: cannot unmarshal string into Go struct field .A of type float64"}] ErrCall`},
		{"arguments that are not an object", "add", `[1]`, "", ` -32602|arguments must be a JSON object|`},
		{"a function the tool does not have", "nope", `{}`, "", `noAccess 404|no service answers on calc_tool.nope (NATS: no responders)| ErrNoAccess`},
		{"a name that is no subject token", "a.b", `{}`, "", `call -32601|method not found: "a.b" (not a NATS subject token)| ErrCall`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.CallFunction(ctx, tt.fn, json.RawMessage(tt.args))
			if string(got) != tt.want || errString(err) != tt.err {
				t.Errorf("got %s, %s\nwant %s, %s", got, errString(err), tt.want, tt.err)
			}
		})
	}
}

// What the nats CLI sees: micro's error headers, and the error object as
// body; a body that is not JSON is -32700, a too large one -32600.
func TestWire(t *testing.T) {
	url := startServer(t)
	serve(t, url, newCalc("a"), natsbridge.WithPrefix("tools.calc"), natsbridge.WithMaxRequestBytes(64))
	nc := connect(t, url)
	req := func(subject, body string) *nats.Msg {
		m, err := nc.Request(subject, []byte(body), waitLong)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := req("tools.calc.add", `{"a":-2,"b":1}`)
	if got := [2]string{m.Header.Get(micro.ErrorCodeHeader), m.Header.Get(micro.ErrorHeader)}; got != [2]string{"422", "a must not be negative"} {
		t.Errorf("headers %q", got)
	}
	if string(m.Data) != `{"code":422,"message":"a must not be negative","data":{"a":-2}}` {
		t.Errorf("body %s", m.Data)
	}
	if m := req("tools.calc.add", `{"a":1,"b":1}`); string(m.Data) != `{"sum":2}` || len(m.Header) != 0 {
		t.Errorf("a result: %s %v", m.Data, m.Header)
	}
	if m := req("tools.calc.add", `{"a":`); m.Header.Get(micro.ErrorCodeHeader) != "-32700" {
		t.Errorf("bad JSON: %v %s", m.Header, m.Data)
	}
	if m := req("tools.calc.add", `{"a":1,"b":1,"pad":"`+strings.Repeat("x", 64)+`"}`); m.Header.Get(micro.ErrorCodeHeader) != "-32600" ||
		!strings.Contains(string(m.Data), "request too large") {
		t.Errorf("a large request: %v %s", m.Header, m.Data)
	}
	if m := req("tools.calc.who", ``); !strings.Contains(string(m.Data), `"replica":"a"`) {
		t.Errorf("no body: %s", m.Data)
	}
}

// Call values come from the headers WithCallValueHeaders names, matched
// regardless of case, as over HTTP.
func TestCallValues(t *testing.T) {
	url := startServer(t)
	serve(t, url, newCalc("a"), natsbridge.WithCallValueHeaders(map[string]string{"X-Project": "project_id", "X-Trace-Id": "trace_id"}))
	c := natsbridge.NewCaller(connect(t, url), "calc_tool", natsbridge.WithHeaders(func(context.Context) nats.Header {
		return nats.Header{"X-Project": {"p-42"}, "x-trace-id": {"t-1"}, "X-Other": {"o"}}
	}))
	got, err := c.CallFunction(t.Context(), "who", nil)
	if err != nil || string(got) != `{"replica":"a","values":{"project_id":"p-42","trace_id":"t-1"}}` {
		t.Errorf("got %s, %v", got, err)
	}
}

func collect(seq func(func(json.RawMessage, error) bool)) (items []string, err error) {
	for raw, e := range seq {
		if e != nil {
			return items, e
		}
		items = append(items, string(raw))
	}
	return items, nil
}

// Streams: items in order past the credit window, an error at the end, a
// stream of a function that does not stream, and a caller that stops early
// (the tool's emit fails and its context ends).
func TestStreams(t *testing.T) {
	url := startServer(t)
	tool := newCalc("a")
	serve(t, url, tool, natsbridge.WithStreamWindow(4))
	c := natsbridge.NewCaller(connect(t, url), "calc_tool")
	ctx := t.Context()

	items, err := collect(c.StreamFunction(ctx, "count", json.RawMessage(`{"n":300}`)))
	if err != nil || len(items) != 300 || items[0] != `{"i":0}` || items[299] != `{"i":299}` {
		t.Errorf("count 300: %d items (%v), %v", len(items), items[:min(len(items), 3)], err)
	}
	// A service whose window is larger than the caller takes sends no more
	// than the caller's, so that none is dropped.
	wide := serve(t, url, newCalc("w"), natsbridge.WithPrefix("wide"), natsbridge.WithStreamWindow(100000))
	items, err = collect(natsbridge.NewCaller(connect(t, url), wide.Prefix()).StreamFunction(ctx, "count", json.RawMessage(`{"n":5000}`)))
	if err != nil || len(items) != 5000 || items[4999] != `{"i":4999}` {
		t.Errorf("count 5000 from a wide window: %d items, %v", len(items), err)
	}
	// A slow stream is alive: the pings between its items are answered.
	slow := natsbridge.NewCaller(connect(t, url), "calc_tool", natsbridge.WithStreamPing(50*time.Millisecond))
	items, err = collect(slow.StreamFunction(ctx, "count", json.RawMessage(`{"n":3,"delay":300}`)))
	if err != nil || len(items) != 3 {
		t.Errorf("a slow stream: %v, %v", items, err)
	}
	items, err = collect(c.StreamFunction(ctx, "count", json.RawMessage(`{"n":-1}`)))
	if diff := cmp.Diff([]string{`{"i":0}`, `{"i":1}`}, items); diff != "" || errString(err) != "call 503|the feed is down| ErrCall" {
		t.Errorf("a failing stream: %s %s", diff, errString(err))
	}
	_, err = collect(c.StreamFunction(ctx, "nope", nil))
	if errString(err) != `noAccess 404|no service answers on calc_tool.nope (NATS: no responders)| ErrNoAccess` {
		t.Errorf("a stream of a function without a service: %s", errString(err))
	}
	_, err = collect(c.StreamFunction(ctx, "add", json.RawMessage(`{}`)))
	if errString(err) != `call -32601|method not found: "add"| ErrCall ErrNoStreaming` {
		t.Errorf("a function that does not stream: %s", errString(err))
	}
	n := 0
	for _, err := range c.StreamFunction(ctx, "forever", nil) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 10 {
			break
		}
	}
	select {
	case how := <-tool.ended:
		if how != "emit failed, ctx done" {
			t.Errorf("the stream's end: %s", how)
		}
	case <-time.After(waitLong):
		t.Error("the tool did not see its caller go")
	}
	// A call cancelled by its caller is cancelled at the service.
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := c.CallFunction(cctx, "hold", nil)
		done <- err
	}()
	<-tool.started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call: %v", err)
	}
}

// replicaProc is a replica running as a subprocess.
type replicaProc struct {
	cmd   *exec.Cmd
	lines chan string // what it prints after "ready"
}

// startReplica runs the test binary as a replica serving calc on url.
func startReplica(t *testing.T, url, name string) *replicaProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "NATSBRIDGE_REPLICA="+url, "NATSBRIDGE_NAME="+name)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	r := &replicaProc{cmd: cmd, lines: make(chan string, 10)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
		close(r.lines)
	}()
	select {
	case line := <-r.lines:
		if line != "ready" {
			t.Fatalf("the replica did not start: %q", line)
		}
	case <-time.After(waitLong):
		t.Fatal("the replica did not start")
	}
	return r
}

// A stream whose service is killed mid-stream ends with an error at the
// caller, soon (the ping interval), not at its deadline.
func TestStreamLostEnd(t *testing.T) {
	url := startServer(t)
	cmd := startReplica(t, url, "r1").cmd
	c := natsbridge.NewCaller(connect(t, url), "calc", natsbridge.WithStreamPing(200*time.Millisecond))
	ctx, cancel := context.WithTimeout(t.Context(), waitLong)
	defer cancel()
	n := 0
	var last error
	start := time.Now()
	for _, err := range c.StreamFunction(ctx, "forever", nil) {
		if err != nil {
			last = err
			break
		}
		if n++; n == 5 {
			cmd.Process.Kill()
		}
	}
	if errString(last) != "noAccess 404|the stream broke: its service went away without a done or error message| ErrNoAccess" {
		t.Errorf("after %d items: %s", n, errString(last))
	}
	if d := time.Since(start); d > waitLong/2 {
		t.Errorf("the lost end took %v", d)
	}
}

// Two replicas in one queue group share the calls; one shut down while
// calls are in flight on it answers them all, and later calls go to the
// other.
func TestDrainTwoReplicas(t *testing.T) {
	url := startServer(t)
	a, b := newCalc("a"), newCalc("b")
	nca := connect(t, url)
	sa, err := natsbridge.NewService(context.Background(), nca, a, natsbridge.WithPrefix("calc"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sa.Shutdown(context.Background()) })
	serve(t, url, b, natsbridge.WithPrefix("calc"))
	c := natsbridge.NewCaller(connect(t, url), "calc")
	ctx := t.Context()

	const calls = 40
	results := make(chan string, calls)
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() {
			got, err := c.CallFunction(ctx, "hold", nil)
			if err != nil {
				results <- "error: " + err.Error()
				return
			}
			results <- string(got)
		})
	}
	onA := 0
	for range calls {
		select {
		case <-a.started:
			onA++
		case <-b.started:
		case <-time.After(waitLong):
			t.Fatal("the calls did not all start")
		}
	}
	if onA == 0 || onA == calls {
		t.Fatalf("%d of %d calls on replica a: the queue group did not share them", onA, calls)
	}
	stopped := make(chan error, 1)
	go func() { stopped <- sa.Shutdown(context.Background()) }()
	// Once a's endpoints have stopped and the server has their
	// unsubscriptions (a flush of a's connection after them), new calls go
	// to b only.
	drained := func() bool {
		select {
		case err := <-stopped:
			t.Fatalf("Shutdown returned with calls in flight: %v", err)
		default:
		}
		return sa.Micro().Stopped()
	}
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for deadline := time.Now().Add(waitLong); !drained(); <-tick.C {
		if time.Now().After(deadline) {
			t.Fatal("a's endpoints did not stop")
		}
	}
	if err := nca.Flush(); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		got, err := c.CallFunction(ctx, "who", nil)
		if err != nil || !strings.Contains(string(got), `"replica":"b"`) {
			t.Errorf("a call during the drain: %s, %v", got, err)
		}
	}
	// The calls of the drain came after Shutdown began: it must not have
	// returned, a's calls are still held.
	select {
	case err := <-stopped:
		t.Fatalf("Shutdown returned with calls in flight: %v", err)
	default:
	}
	close(a.release)
	close(b.release)
	if err := <-stopped; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	wg.Wait()
	close(results)
	count := map[string]int{}
	for r := range results {
		count[r]++
	}
	if want := map[string]int{`{"replica":"a"}`: onA, `{"replica":"b"}`: calls - onA}; !cmp.Equal(want, count) {
		t.Errorf("answers %v, want %v", count, want)
	}
}

// The service is found with micro's discovery: $SRV.PING, $SRV.INFO (its
// endpoints, their subjects, queue group and metadata) and $SRV.STATS.
func TestDiscovery(t *testing.T) {
	url := startServer(t)
	serve(t, url, newCalc("a"), natsbridge.WithQueueGroup("workers"))
	nc := connect(t, url)
	m, err := nc.Request("$SRV.INFO.calc_tool", nil, waitLong)
	if err != nil {
		t.Fatal(err)
	}
	var info micro.Info
	if err := json.Unmarshal(m.Data, &info); err != nil {
		t.Fatal(err)
	}
	if info.Name != "calc_tool" || info.Version != "1.2.3" || info.Description != "adds" || info.Metadata["opentool.prefix"] != "calc_tool" {
		t.Errorf("info %+v", info)
	}
	var subjects []string
	for _, e := range info.Endpoints {
		subjects = append(subjects, e.Name+" "+e.Subject+" "+e.QueueGroup+" "+e.Metadata["stream"])
	}
	want := []string{"add calc_tool.add workers ", "fail calc_tool.fail workers ", "who calc_tool.who workers ", "hold calc_tool.hold workers ",
		"count calc_tool.count workers true", "forever calc_tool.forever workers true"}
	if diff := cmp.Diff(want, subjects); diff != "" {
		t.Errorf("endpoints (-want +got):\n%s", diff)
	}
	c := natsbridge.NewCaller(nc, "calc_tool")
	c.CallFunction(t.Context(), "add", json.RawMessage(`{"a":-1}`))
	m, err = nc.Request("$SRV.STATS.calc_tool", nil, waitLong)
	if err != nil {
		t.Fatal(err)
	}
	var stats micro.Stats
	json.Unmarshal(m.Data, &stats)
	var data natsbridge.Stats
	json.Unmarshal(stats.Endpoints[0].Data, &data)
	if stats.Endpoints[0].NumRequests != 1 || data.Calls != 1 || data.Errors != 1 {
		t.Errorf("stats %+v, data %+v", stats.Endpoints[0], data)
	}
	if _, err := nc.Request("$SRV.PING.calc_tool", nil, waitLong); err != nil {
		t.Errorf("ping: %v", err)
	}
}
