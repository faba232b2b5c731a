package runtime

// Tests of the server's bounds that need its insides: the memory lent to
// request bodies and the rate-limited log (the envelope reader's are
// internal/jsonrpc's, the limiter's internal/lograte's).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// lockedBuffer is a log destination safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type panicky struct{}

func (panicky) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	if name == "echo" {
		return json.RawMessage(`{"n":` + fmt.Sprint(len(args)) + `}`), nil
	}
	panic("boom in " + name)
}

func (panicky) Load(ctx context.Context) (*document.OpenTool, error) { panic("load boom") }

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// eventually polls cond every 5 ms until it holds, for a state the test can
// observe but is not told of, failing the test after a generous bound (a
// watchdog, not a measure of speed).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// The first panic of a function is logged with its stack, the next ones not
// until the interval has passed, then once with the number left out.
func TestPanicLogInterval(t *testing.T) {
	logs := &lockedBuffer{}
	h := NewHandler(panicky{}, WithLogger(slog.New(slog.NewTextHandler(logs, nil))),
		func(c *serverConfig) { c.logEvery = time.Hour }).(*handler)
	srv := httptest.NewServer(h)
	defer srv.Close()
	for range 10 {
		post(t, srv.URL+"/opentool/call", `{"method":"f","id":1}`)
	}
	if out := logs.String(); strings.Count(out, "\n") != 1 || strings.Count(out, "[running]") != 1 || !strings.Contains(out, "boom in f") {
		t.Fatalf("after 10 panics in an hour:\n%s", out)
	}
	h.logs.SetEvery(0) // the interval has passed
	post(t, srv.URL+"/opentool/call", `{"method":"f","id":1}`)
	lines := strings.Split(strings.TrimSuffix(logs.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], "suppressed=9") || strings.Contains(lines[1], "[running]") {
		t.Errorf("after the interval:\n%s", strings.Join(lines, "\n"))
	}
	// Load panics are limited alike.
	for range 5 {
		if resp, err := http.Get(srv.URL + "/opentool/load"); err == nil {
			resp.Body.Close()
		}
	}
	if n := strings.Count(logs.String(), "in Load"); n != 5 { // every = 0 now: each is logged...
		t.Errorf("%d Load panics logged, want 5", n)
	}
	if n := strings.Count(logs.String(), "[running]"); n != 2 { // ...but with one stack
		t.Errorf("%d stacks logged, want 2", n)
	}
}

// A client that stalls halfway through a large body holds at most the memory
// it reserved; small bodies do not wait for it; a large body waits for the
// memory and goes on when the staller leaves.
func TestBodyMemoryIsBounded(t *testing.T) {
	const maxBody = 1 << 20
	h := NewHandler(panicky{}, WithLogger(slog.New(slog.DiscardHandler)), WithMaxBodyBytes(maxBody), WithBodyMemory(maxBody)).(*handler)
	srv := httptest.NewServer(h)
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	total := h.cfg.bodyMemory
	if total != maxBody+bodyChunk {
		t.Fatalf("memory for bodies %d, want the largest body and one byte, in chunks: %d", total, maxBody+bodyChunk)
	}
	free := func() int64 {
		h.bodies.mu.Lock()
		defer h.bodies.mu.Unlock()
		return h.bodies.free
	}
	waiting := func() int {
		h.bodies.mu.Lock()
		defer h.bodies.mu.Unlock()
		return len(h.bodies.waiters)
	}
	prefix := `{"method":"echo","id":1,"params":{"s":"`
	request := func(declared int, body string) net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "POST /opentool/call HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", declared, body)
		return c
	}

	// A declares the largest body, sends 100 KiB and stalls.
	a := request(maxBody, prefix+strings.Repeat("a", 100<<10))
	defer a.Close()
	eventually(t, "the staller to reserve its memory", func() bool { return free() == total-maxBody })

	// A small request is served.
	if status, body := post(t, srv.URL+"/opentool/call", prefix+`x"}}`); status != 200 {
		t.Fatalf("a small request while the memory is lent: %d %s", status, body)
	}

	// C sends a 200 KiB body whole: it needs more than is free, and waits.
	cBody := prefix + strings.Repeat("c", 200<<10) + `"}}`
	c := request(len(cBody), cBody)
	defer c.Close()
	eventually(t, "the large body to wait", func() bool { return waiting() == 1 })
	if got := free(); got != total-maxBody {
		t.Errorf("free %d while waiting, want %d", got, total-maxBody)
	}

	// A leaves: C is read and answered.
	a.Close()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := fmt.Sprintf(`"result":{"n":%d}`, len(`{"s":"`)+200<<10+len(`"}`)); resp.StatusCode != 200 || !strings.Contains(string(answer), want) {
		t.Errorf("the waiting body's answer: %d %s, want %s", resp.StatusCode, answer, want)
	}
	eventually(t, "all the memory to come back", func() bool { return free() == total && waiting() == 0 })
}

func TestBodyBudget(t *testing.T) {
	b := newBodyBudget(10)
	ctx := context.Background()
	if !b.acquire(ctx, 10, time.Time{}) {
		t.Fatal("acquire of all")
	}
	if b.acquire(ctx, 1, time.Now().Add(20*time.Millisecond)) {
		t.Fatal("acquire past the deadline succeeded")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if b.acquire(cctx, 1, time.Time{}) {
		t.Fatal("acquire with a cancelled context succeeded")
	}
	// In order: a large waiter is not overtaken by a small one.
	got := make(chan int, 2)
	go func() { b.acquire(ctx, 8, time.Time{}); got <- 8 }()
	eventually(t, "the first waiter", func() bool { b.mu.Lock(); defer b.mu.Unlock(); return len(b.waiters) == 1 })
	go func() { b.acquire(ctx, 2, time.Time{}); got <- 2 }()
	eventually(t, "the second waiter", func() bool { b.mu.Lock(); defer b.mu.Unlock(); return len(b.waiters) == 2 })
	b.release(9) // 8 fit, and 2 do not fit after them
	if n := <-got; n != 8 {
		t.Fatalf("granted %d, want 8", n)
	}
	b.mu.Lock()
	free, waiters := b.free, len(b.waiters)
	b.mu.Unlock()
	if free != 1 || waiters != 1 {
		t.Fatalf("free %d, %d waiters; want 1 and 1", free, waiters)
	}
	b.release(1)
	if n := <-got; n != 2 {
		t.Fatalf("granted %d, want 2", n)
	}
	b.release(10)
	if b.free != 10 || len(b.waiters) != 0 {
		t.Errorf("free %d, %d waiters", b.free, len(b.waiters))
	}
}
