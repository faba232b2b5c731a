// Package replicae2e runs a generated tool server as replicas: three
// subprocesses of the golden mocktool gateway (testdata/golden/mocktool/cmd,
// built by the test with go build), each started with "start", behind a
// round-robin reverse proxy written here, forwarding to one upstream OpenTool
// server in the test that records every call it executes. It is tests only.
//
// The balancer is what a load balancer does: it sends each request to the
// next replica that its /readyz probe (every probeEvery) found ready, and
// sends a request whose connection could not be made (nothing sent) to the
// next one, as nginx's proxy_next_upstream error does. It never resends a
// request that reached a replica: a call is executed at most once. Its probe
// takes a replica out on a 503, a refused connection, or a second timeout
// in a row.
//
// The SIGTERM test makes REPLICAS_CALLS calls (default 10,000; 4,000 with
// the race detector; 2,000 with -short).
package replicae2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// probeEvery is the balancer's readiness probe period; the replicas'
// --drainDelay is a few of them, as a deployment would set it.
const (
	probeEvery = 25 * time.Millisecond
	drainDelay = 300 * time.Millisecond
)

// waitLong bounds the waits of the test (a replica starting, stopping).
const waitLong = testtool.WaitLong

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// gateway builds the golden mocktool command once per test binary.
func gateway(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "replicae2e")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "mocktool")
		cmd := exec.Command("go", "build", "-o", binary, "./testdata/golden/mocktool/cmd/mocktool")
		cmd.Dir = "../.."
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binary != "" {
		os.RemoveAll(filepath.Dir(binary))
	}
	os.Exit(code)
}

// ledger is the upstream's service: create records each text it executes,
// after pause, a slow upstream simulated (so that calls are in flight when a
// replica stops): the pause is the load tested, not a wait for an event.
type ledger struct {
	*testtool.Store
	pause time.Duration
	mu    sync.Mutex
	texts map[mocktool.ID]string
	count map[string]int // executions per text
}

func newLedger(pause time.Duration) *ledger {
	return &ledger{Store: testtool.NewStore(), pause: pause, texts: map[mocktool.ID]string{}, count: map[string]int{}}
}

func (l *ledger) Create(ctx context.Context, a mocktool.CreateArgs) (mocktool.ID, error) {
	time.Sleep(l.pause)
	l.mu.Lock()
	defer l.mu.Unlock()
	id := mocktool.ID(len(l.texts))
	l.texts[id] = a.Text
	l.count[a.Text]++
	return id, nil
}

// upstream serves l over OpenTool HTTP; its URL ends in /opentool.
func upstream(t *testing.T, l *ledger) string {
	tool, err := mocktool.NewTool(l)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(runtime.NewHandler(tool))
	t.Cleanup(srv.Close)
	return srv.URL + runtime.DefaultPrefix
}

// replica is one subprocess of the gateway.
type replica struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:port
	logs *testtool.LockedBuffer
	done chan struct{} // closed when it has exited (cmd.ProcessState set)
}

// startReplicas starts n replicas forwarding to up, with args.
func startReplicas(t *testing.T, n int, up string, args ...string) []*replica {
	bin := gateway(t)
	rs := make([]*replica, n)
	for i := range rs {
		r := &replica{logs: &testtool.LockedBuffer{}, done: make(chan struct{})}
		r.cmd = exec.Command(bin, append([]string{"start", "-t", "0", "--upstream", up}, args...)...)
		stderr, err := r.cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := r.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		base := make(chan string, 1)
		go func() {
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				r.logs.WriteString(sc.Text() + "\n")
				if m := testtool.ServingLine.FindStringSubmatch(sc.Text()); m != nil {
					base <- m[1]
				}
			}
			r.cmd.Wait()
			close(r.done)
		}()
		t.Cleanup(func() {
			r.cmd.Process.Kill()
			<-r.done
		})
		select {
		case r.base = <-base:
		case <-r.done:
			t.Fatalf("replica %d exited without serving:\n%s", i, r.logs)
		case <-time.After(waitLong):
			t.Fatalf("replica %d did not say where it serves:\n%s", i, r.logs)
		}
		rs[i] = r
	}
	return rs
}

// exited waits for r to exit and returns its exit status (-1: killed).
func (r *replica) exited(t *testing.T) int {
	t.Helper()
	select {
	case <-r.done:
		return r.cmd.ProcessState.ExitCode()
	case <-time.After(waitLong):
		t.Fatalf("the replica did not exit:\n%s", r.logs)
		return 0
	}
}

// calls counts the calls of function over front the replica logged with
// outcome.
func (r *replica) calls(front, function, outcome string) int {
	re := regexp.MustCompile(`msg=call front=` + front + ` function=` + function + ` duration=\S+ outcome=` + outcome + `\b`)
	return len(re.FindAllString(r.logs.String(), -1))
}

// balancer is a round-robin load balancer over replicas that probes their
// /readyz.
type balancer struct {
	backends []*backend
	next     atomic.Uint64
	tr       *http.Transport
	redials  atomic.Int64 // requests sent on to another replica after a failed dial
	stop     chan struct{}

	mu     sync.Mutex
	routes []route // with record: what went where
	wg     sync.WaitGroup
}

// route is one request the balancer sent: to which replica, its JSON-RPC
// method, and the status of the answer.
type route struct {
	backend int
	method  string
	status  int
}

type backend struct {
	index int
	host  string // 127.0.0.1:port
	ready atomic.Bool
}

// newBalancer serves a balancer over rs; its URL is returned.
func newBalancer(t *testing.T, rs []*replica) (*balancer, string) {
	b := &balancer{
		tr:   &http.Transport{MaxIdleConnsPerHost: 64, IdleConnTimeout: time.Minute},
		stop: make(chan struct{}),
	}
	for i, r := range rs {
		be := &backend{index: i, host: strings.TrimPrefix(r.base, "http://")}
		be.ready.Store(true)
		b.backends = append(b.backends, be)
	}
	probe := &http.Client{Timeout: 10 * probeEvery, Transport: &http.Transport{}}
	for _, be := range b.backends {
		b.wg.Go(func() {
			tick := time.NewTicker(probeEvery)
			defer tick.Stop()
			timeouts := 0
			for {
				select {
				case <-b.stop:
					return
				case <-tick.C:
				}
				// An answer decides, and so does a refused connection;
				// timeouts do from the second in a row (one may be a
				// loaded machine's).
				resp, err := probe.Get("http://" + be.host + "/readyz")
				var op *net.OpError
				switch {
				case err == nil:
					resp.Body.Close()
					be.ready.Store(resp.StatusCode == http.StatusOK)
					timeouts = 0
				case errors.As(err, &op) && op.Op == "dial":
					be.ready.Store(false)
				default:
					if timeouts++; timeouts >= 2 {
						be.ready.Store(false)
					}
				}
			}
		})
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL.Scheme = "http"
			pr.Out.URL.Host = "balanced" // the Transport picks the replica
		},
		Transport:     b,
		FlushInterval: -1, // MCP answers as server-sent events
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			http.Error(w, "balancer: "+err.Error(), http.StatusBadGateway)
		},
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(func() {
		srv.Close()
		close(b.stop)
		b.wg.Wait()
		b.tr.CloseIdleConnections()
	})
	return b, srv.URL
}

// pick returns the next ready backend in turn that is not in tried (any
// not tried, when none is ready).
func (b *balancer) pick(tried map[*backend]bool) *backend {
	n := uint64(len(b.backends))
	start := b.next.Add(1)
	for i := range n {
		if be := b.backends[(start+i)%n]; be.ready.Load() && !tried[be] {
			return be
		}
	}
	for i := range n {
		if be := b.backends[(start+i)%n]; !tried[be] {
			return be
		}
	}
	return b.backends[start%n]
}

// RoundTrip sends req to a replica; a request whose connection could not be
// made goes to the next one.
func (b *balancer) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
	}
	var err error
	tried := map[*backend]bool{}
	for range len(b.backends) {
		be := b.pick(tried)
		tried[be] = true
		out := req.Clone(req.Context())
		out.URL.Host, out.Host = be.host, be.host
		out.Body = io.NopCloser(bytes.NewReader(body))
		var resp *http.Response
		if resp, err = b.tr.RoundTrip(out); err == nil {
			var m struct{ Method string }
			_ = json.Unmarshal(body, &m)
			b.mu.Lock()
			b.routes = append(b.routes, route{be.index, m.Method, resp.StatusCode})
			b.mu.Unlock()
			return resp, nil
		}
		var op *net.OpError
		if !errors.As(err, &op) || op.Op != "dial" {
			return nil, err // the request may have reached the replica: never resent
		}
		be.ready.Store(false)
		b.redials.Add(1)
	}
	return nil, err
}

// callsFromEnv is the number of calls of the SIGTERM test: REPLICAS_CALLS,
// else 10,000 (4,000 with the race detector, which slows the balancer and
// the clients of this process fourfold; 2,000 with -short).
func callsFromEnv(t *testing.T) int {
	if v := os.Getenv("REPLICAS_CALLS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 100 {
			t.Fatalf("REPLICAS_CALLS=%q: want a number of calls, 100 or more", v)
		}
		return n
	}
	switch {
	case testing.Short():
		return 2000
	case raceEnabled:
		return 4000
	}
	return 10000
}

// result is what one call got.
type result struct {
	id   mocktool.ID
	err  error
	took time.Duration
}

// run makes n calls of create, each with its own text "call-I", from
// workers concurrent clients through base, each with deadline; at is called
// once when half of them have been answered. It returns every call's result,
// by I.
func run(base string, n, workers int, deadline time.Duration, at func()) []result {
	client := mocktool.NewClient(runtime.NewClient(base + runtime.DefaultPrefix))
	results := make([]result, n)
	var next, answered atomic.Int64
	var once sync.Once
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				ctx, cancel := context.WithTimeout(context.Background(), deadline)
				start := time.Now()
				id, err := client.Create(ctx, mocktool.CreateArgs{Text: "call-" + strconv.Itoa(i)})
				cancel()
				results[i] = result{id: id, err: err, took: time.Since(start)}
				if answered.Add(1) == int64(n/2) {
					once.Do(at)
				}
			}
		})
	}
	wg.Wait()
	return results
}

// TestReplicasSIGTERM: three replicas, one told to stop (SIGTERM) in the
// middle of the calls: every call is answered, with the id of its own text,
// and executed exactly once; the stopped replica drained (its /readyz went
// 503, it served the calls in flight) and exited 0.
func TestReplicasSIGTERM(t *testing.T) {
	n := callsFromEnv(t)
	l := newLedger(time.Millisecond)
	rs := startReplicas(t, 3, upstream(t, l), "--drainDelay", drainDelay.String(), "--shutdownTimeout", "20s")
	b, base := newBalancer(t, rs)
	var termAt time.Time
	start := time.Now()
	results := run(base, n, 32, 20*time.Second, func() {
		termAt = time.Now()
		if err := rs[1].cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Error(err)
		}
	})
	took := time.Since(start)
	failed := 0
	for i, r := range results {
		want := "call-" + strconv.Itoa(i)
		switch {
		case r.err != nil:
			if failed++; failed <= 5 {
				t.Errorf("call %d: %v", i, r.err)
			}
		case l.texts[r.id] != want:
			t.Errorf("call %d: answered id %d, whose text is %q, not its own %q", i, r.id, l.texts[r.id], want)
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d calls failed", failed, n)
	}
	if len(l.texts) != n {
		t.Errorf("the upstream executed %d calls, want %d", len(l.texts), n)
	}
	for text, c := range l.count {
		if c != 1 {
			t.Errorf("%s executed %d times, want once", text, c)
		}
	}
	if code := rs[1].exited(t); code != 0 {
		t.Errorf("the replica told to stop exited %d, want 0:\n%s", code, rs[1].logs)
	}
	logs := rs[1].logs.String()
	drainAt := strings.Index(logs, `msg="draining: /readyz answers 503`)
	if drainAt < 0 || !strings.Contains(logs, "msg=stopped") {
		t.Errorf("the stopped replica did not log its drain and its stop:\n%s", logs)
	}
	// The calls it answered once told to stop: those in flight, and those
	// the balancer sent before its probe saw /readyz at 503.
	draining := 0
	if drainAt >= 0 {
		draining = strings.Count(logs[drainAt:], "msg=call front=opentool function=create")
	}
	if draining == 0 {
		t.Errorf("the stopped replica answered no call once told to stop: the test did not stop it mid-traffic")
	}
	t.Logf("the stopped replica answered %d calls after SIGTERM", draining)
	// The others stop too, so that every log line is in.
	for _, r := range []*replica{rs[0], rs[2]} {
		if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Error(err)
		}
		if code := r.exited(t); code != 0 {
			t.Errorf("a replica exited %d, want 0:\n%s", code, r.logs)
		}
	}
	served := 0
	for i, r := range rs {
		c := r.calls("opentool", "create", "ok")
		if c == 0 {
			t.Errorf("replica %d served no call", i)
		}
		served += c
		t.Logf("replica %d served %d calls", i, c)
	}
	if served != n {
		t.Errorf("the replicas logged %d calls served, want %d", served, n)
	}
	t.Logf("%d calls through 3 replicas in %v (%.0f calls/s); SIGTERM at %v; %d requests sent on after a failed dial",
		n, took.Round(time.Millisecond), float64(n)/took.Seconds(), termAt.Sub(start).Round(time.Millisecond), b.redials.Load())
}

// checkCut checks the results of calls while a replica was killed or
// frozen: every call returned by its deadline (plus a second for a loaded
// machine), each answer is its own, no call was executed twice, and each
// failure is one of want — at most one per client, the calls in flight on
// that replica or sent to it before the balancer noticed. It returns the
// failures.
func checkCut(t *testing.T, l *ledger, results []result, deadline time.Duration, workers int, want ...error) []error {
	var failures []error
	for i, r := range results {
		if r.took > deadline+time.Second {
			t.Errorf("call %d took %v, beyond its deadline %v", i, r.took, deadline)
		}
		if r.err != nil {
			failures = append(failures, r.err)
			clear := false
			for _, w := range want {
				clear = clear || errors.Is(r.err, w)
			}
			if !clear {
				t.Errorf("call %d failed with %v, want one of %v", i, r.err, want)
			}
			continue
		}
		if got, own := l.texts[r.id], "call-"+strconv.Itoa(i); got != own {
			t.Errorf("call %d: answered id %d, whose text is %q, not its own %q", i, r.id, got, own)
		}
	}
	for text, c := range l.count {
		if c != 1 {
			t.Errorf("%s executed %d times, want at most once", text, c)
		}
	}
	if len(failures) == 0 || len(failures) > workers {
		t.Errorf("%d calls failed, want from 1 (the calls in flight on the replica) to %d (one per client)", len(failures), workers)
	}
	return failures
}

// TestReplicasSIGKILL: one of three replicas killed (SIGKILL) in the middle
// of the calls: the calls in flight on it fail at once with a clear error
// (the balancer's 502: runtime.ErrNoAccess), none hangs, no call is executed
// twice, and the others, and those after, are answered.
func TestReplicasSIGKILL(t *testing.T) {
	const n, workers, deadline = 2000, 32, 5 * time.Second
	l := newLedger(20 * time.Millisecond)
	rs := startReplicas(t, 3, upstream(t, l), "--drainDelay", drainDelay.String())
	b, base := newBalancer(t, rs)
	results := run(base, n, workers, deadline, func() { rs[1].cmd.Process.Kill() })
	failures := checkCut(t, l, results, deadline, workers, runtime.ErrNoAccess)
	if code := rs[1].exited(t); code != -1 {
		t.Errorf("the killed replica exited %d, want -1 (a signal)", code)
	}
	if len(failures) > 0 {
		t.Logf("%d of %d calls failed, first: %v; %d requests sent on after a failed dial", len(failures), n, failures[0], b.redials.Load())
	}
}

// TestReplicasFrozen: one of three replicas frozen (SIGSTOP: a machine
// that vanished; its port still accepts connections) in the middle of the
// calls: the calls in flight on it fail at their deadline with
// context.DeadlineExceeded, none hangs beyond it, the balancer's probe takes
// the replica out, and the other calls are answered.
func TestReplicasFrozen(t *testing.T) {
	const n, workers, deadline = 2000, 32, 2 * time.Second
	l := newLedger(20 * time.Millisecond)
	rs := startReplicas(t, 3, upstream(t, l), "--drainDelay", drainDelay.String())
	_, base := newBalancer(t, rs)
	results := run(base, n, workers, deadline, func() {
		if err := rs[1].cmd.Process.Signal(syscall.SIGSTOP); err != nil {
			t.Error(err)
		}
	})
	failures := checkCut(t, l, results, deadline, workers, context.DeadlineExceeded)
	rs[1].cmd.Process.Kill()
	if len(failures) > 0 {
		t.Logf("%d of %d calls failed, first: %v", len(failures), n, failures[0])
	}
}

// takeRoutes returns the routes so far and forgets them.
func (b *balancer) takeRoutes() []route {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.routes
	b.routes = nil
	return r
}

// mcpCalls connects an MCP client speaking version through base and makes
// calls of create, each with its own text: the error of the first that
// fails, after checking the answers against l.
func mcpCalls(t *testing.T, base, version string, calls int, l *ledger) error {
	client := mcp.NewClient(&mcp.Implementation{Name: "replicae2e", Version: "1.0.0"}, nil)
	transport := &mcp.StreamableClientTransport{Endpoint: base + "/mcp", MaxRetries: -1}
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer cs.Close()
	for i := range calls {
		text := "mcp-" + version + "-" + strconv.Itoa(i)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create", Arguments: map[string]any{"text": text}})
		if err != nil {
			return fmt.Errorf("call %d: %w", i, err)
		}
		if res.IsError {
			return fmt.Errorf("call %d: error result %v", i, res.Content)
		}
		var out struct{ ID mocktool.ID }
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &out); err != nil {
			return fmt.Errorf("call %d: structured content %s: %v", i, b, err)
		}
		l.mu.Lock()
		got := l.texts[out.ID]
		l.mu.Unlock()
		if got != text {
			t.Errorf("%s call %d: answered id %d, whose text is %q, not its own %q", version, i, out.ID, got, text)
		}
	}
	return nil
}

// TestReplicasMCP: MCP clients of the 2026-07-28 version (no session) and
// of the earlier ones (initialize, then a session ID the server may not
// give) call through the round-robin balancer: their consecutive calls land
// on different replicas, and each is answered. The same clients against
// replicas with --mcpSessions fail once a call lands on a replica that does
// not know their session: what stateless serving fixes.
func TestReplicasMCP(t *testing.T) {
	const calls = 6
	l := newLedger(0)
	up := upstream(t, l)
	rs := startReplicas(t, 3, up, "--drainDelay", drainDelay.String())
	b, base := newBalancer(t, rs)
	for _, version := range []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"} {
		if err := mcpCalls(t, base, version, calls, l); err != nil {
			t.Errorf("%s: %v", version, err)
		}
		landed := map[int]bool{}
		n := 0
		for _, r := range b.takeRoutes() {
			if r.method == "tools/call" {
				n++
				landed[r.backend] = true
				if r.status != http.StatusOK {
					t.Errorf("%s: a call answered HTTP %d by replica %d", version, r.status, r.backend)
				}
			}
		}
		if n != calls || len(landed) < 2 {
			t.Errorf("%s: %d calls landed on replicas %v, want %d on 2 or more", version, n, landed, calls)
		}
	}
	for _, r := range rs {
		if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Error(err)
		}
		r.exited(t)
	}
	for i, r := range rs {
		if c := r.calls("mcp", "create", "ok"); c == 0 {
			t.Errorf("replica %d served no MCP call", i)
		}
	}

	stateful := startReplicas(t, 3, up, "--mcpSessions")
	_, sbase := newBalancer(t, stateful)
	for _, version := range []string{"2025-06-18"} {
		err := mcpCalls(t, sbase, version, calls, l)
		if err == nil {
			t.Errorf("%s against stateful replicas: every call answered; want a call refused by a replica without the session", version)
		} else {
			t.Logf("%s against stateful replicas (--mcpSessions), as expected: %v", version, err)
		}
	}
}

// TestGatewayReadiness: a generated gateway is ready while its upstream
// answers: /readyz is 503 "unavailable" while the upstream fails (/healthz
// stays 200), and 200 again once it answers.
func TestGatewayReadiness(t *testing.T) {
	tool, err := mocktool.NewTool(newLedger(0))
	if err != nil {
		t.Fatal(err)
	}
	var down atomic.Bool
	h := runtime.NewHandler(tool)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			http.Error(w, "upstream down", http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(up.Close)
	r := startReplicas(t, 1, up.URL+runtime.DefaultPrefix, "--drainDelay", "0")[0]
	status := func(path string) (int, string) {
		resp, err := http.Get(r.base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, strings.TrimSpace(string(b))
	}
	for _, d := range []bool{false, true, false} {
		down.Store(d)
		want, wantBody := 200, `{"status":"ready"}`
		if d {
			want, wantBody = 503, `{"status":"unavailable"}`
		}
		if code, body := status("/readyz"); code != want || body != wantBody {
			t.Errorf("upstream down=%v: /readyz %d %s, want %d %s", d, code, body, want, wantBody)
		}
		if code, _ := status("/healthz"); code != 200 {
			t.Errorf("upstream down=%v: /healthz %d, want 200", d, code)
		}
	}
}

// TestSecondSignal: a replica draining (its /readyz was asked, its drain
// delay long) ends at once on a second SIGTERM.
func TestSecondSignal(t *testing.T) {
	r := startReplicas(t, 1, upstream(t, newLedger(0)), "--drainDelay", "1m")[0]
	readyz := func() int {
		resp, err := http.Get(r.base + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := readyz(); code != 200 {
		t.Fatalf("/readyz %d, want 200", code)
	}
	if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The replica tells the test nothing: poll its /readyz, with a deadline.
	deadline := time.Now().Add(waitLong)
	for readyz() != http.StatusServiceUnavailable {
		if time.Now().After(deadline) {
			t.Fatal("/readyz did not turn 503 after SIGTERM")
		}
		time.Sleep(10 * time.Millisecond)
	}
	signalled := time.Now()
	if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := r.exited(t); code != -1 {
		t.Errorf("exit status %d after a second SIGTERM, want -1 (ended by the signal)", code)
	}
	if took := time.Since(signalled); took > 10*time.Second {
		t.Errorf("ended %v after the second SIGTERM, want at once", took)
	}
}
