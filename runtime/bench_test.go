//go:build unix

package runtime_test

// Benchmarks of the runtime against a bare net/http + encoding/json ceiling.
// They run only with -bench; see BENCHMARKS.md for the commands and figures.
//
//	go test -run='^$' -bench='RoundTrip|Handler|Stream' -benchtime=3s -count=5 ./runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// ---- the tool: a typed adapter, as generated code would write it ----

type benchCountArgs struct{}

type benchCountResult struct {
	Count int `json:"count"`
}

type benchCreateArgs struct {
	Text string `json:"text"`
}

type benchCreateResult struct {
	ID   int    `json:"id"`
	Text string `json:"text"`
}

type benchTicksArgs struct {
	N int `json:"n"`
}

type benchTick struct {
	Seq int `json:"seq"`
}

type benchTool struct{}

func (benchTool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	switch name {
	case "count":
		var a benchCountArgs
		if len(args) > 0 {
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, runtime.InvalidParams(runtime.Violation{Message: err.Error()})
			}
		}
		return json.Marshal(benchCountResult{Count: 5})
	case "create":
		var a benchCreateArgs
		if len(args) > 0 {
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, runtime.InvalidParams(runtime.Violation{Message: err.Error()})
			}
		}
		return json.Marshal(benchCreateResult{ID: 1, Text: a.Text})
	}
	return nil, runtime.MethodNotFound(name)
}

func (benchTool) Load(ctx context.Context) (*document.OpenTool, error) { return nil, nil }

func (benchTool) StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(json.RawMessage) error) error {
	if name != "ticks" {
		return runtime.MethodNotFound(name)
	}
	var a benchTicksArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return runtime.InvalidParams(runtime.Violation{Message: err.Error()})
	}
	for i := range a.N {
		b, err := json.Marshal(benchTick{Seq: i})
		if err != nil {
			return err
		}
		if err := emit(b); err != nil {
			return err
		}
	}
	return nil
}

// ---- harness ----

var benchConcurrency = []int{1, 32}

// benchServe serves h on a real loopback listener and returns its base URL.
func benchServe(b *testing.B, h http.Handler) string {
	b.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	go srv.Serve(ln)
	b.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// benchTransport is the keep-alive transport of the bare client: the same
// settings as the runtime client's default transport.
func benchTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 1024
	t.MaxIdleConnsPerHost = 256
	t.IdleConnTimeout = 90 * time.Second
	return t
}

// cpuTime is the CPU time (user + system) this process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// runPool runs b.N calls of call on a fixed pool of c workers and reports calls/s
// and cpu-ns/op: the CPU time of the whole process (client and server, user and
// system) per call, a figure that other load on the machine disturbs much less
// than the wall-clock ones.
func runPool(b *testing.B, c int, call func() error) {
	b.Helper()
	if err := call(); err != nil { // warm up a connection, check the answer
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	err := pool(c, b.N, call)
	b.StopTimer()
	cpu := cpuTime() - cpu0
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// pool makes n calls of call on c workers and returns the first error.
func pool(c, n int, call func() error) error {
	var next atomic.Int64
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	for range c {
		wg.Go(func() {
			for next.Add(1) <= int64(n) {
				if err := call(); err != nil {
					failed.CompareAndSwap(nil, &err)
					return
				}
			}
		})
	}
	wg.Wait()
	if p := failed.Load(); p != nil {
		return *p
	}
	return nil
}

// ---- runtime server + runtime client ----

// rtCall is one call of fn ("count" or "create") through the runtime client as
// a generated client makes it (runtime.Invoke), checking the answer.
func rtCall(ctx context.Context, client *runtime.Client, fn string) func() error {
	if fn == "count" {
		return func() error {
			var n int
			if err := runtime.Invoke(ctx, client, "count", nil, "count", &n); err != nil {
				return err
			}
			if n != 5 {
				return errors.New("count: got " + strconv.Itoa(n))
			}
			return nil
		}
	}
	return func() error {
		var out benchCreateResult
		if err := runtime.Invoke(ctx, client, "create", benchCreateArgs{Text: "hello"}, "", &out); err != nil {
			return err
		}
		if out.Text != "hello" {
			return errors.New("create: got " + out.Text)
		}
		return nil
	}
}

var benchFunctions = []string{"count", "create"}

func BenchmarkRoundTrip(b *testing.B) {
	base := benchServe(b, runtime.NewHandler(benchTool{}))
	client := runtime.NewClient(base + runtime.DefaultPrefix)
	for _, c := range benchConcurrency {
		for _, fn := range benchFunctions {
			b.Run("call="+fn+"/c="+strconv.Itoa(c), func(b *testing.B) {
				runPool(b, c, rtCall(context.Background(), client, fn))
			})
		}
	}
}

// ---- bare net/http + encoding/json: the practical ceiling ----

type bareRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
	ID      json.RawMessage `json:"id"`
}

type bareError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type bareResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	Result  any             `json:"result"`
	Error   *bareError      `json:"error"`
	ID      json.RawMessage `json:"id"`
}

type bareClientResponse[T any] struct {
	JSONRPC string          `json:"jsonrpc"`
	Result  T               `json:"result"`
	Error   *bareError      `json:"error"`
	ID      json.RawMessage `json:"id"`
}

type bareClientRequest struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
	ID      string `json:"id"`
}

func bareHandler(w http.ResponseWriter, r *http.Request) {
	var req bareRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	resp := bareResponse{JSONRPC: "2.0", ID: req.ID}
	switch req.Method {
	case "count":
		var a benchCountArgs
		if len(req.Params) > 0 {
			json.Unmarshal(req.Params, &a)
		}
		resp.Result = benchCountResult{Count: 5}
	case "create":
		var a benchCreateArgs
		if len(req.Params) > 0 {
			json.Unmarshal(req.Params, &a)
		}
		resp.Result = benchCreateResult{ID: 1, Text: a.Text}
	default:
		resp.Result = struct{}{}
		resp.Error = &bareError{Code: -32601, Message: "method not found"}
	}
	body, err := json.Marshal(resp)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

func bareCall[T any](ctx context.Context, hc *http.Client, url, method string, params any, id string) (T, error) {
	var out bareClientResponse[T]
	body, err := json.Marshal(bareClientRequest{JSONRPC: "2.0", Method: method, Params: params, ID: id})
	if err != nil {
		return out.Result, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return out.Result, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return out.Result, err
	}
	defer resp.Body.Close()
	err = json.NewDecoder(resp.Body).Decode(&out)
	io.Copy(io.Discard, resp.Body) // keep the connection reusable
	if err != nil {
		return out.Result, err
	}
	if out.Error != nil {
		return out.Result, errors.New(out.Error.Message)
	}
	return out.Result, nil
}

// bareClient is the bare net/http client of the bare server at url.
type bareClient struct {
	hc  *http.Client
	url string
	seq atomic.Uint64
}

func newBareClient(b *testing.B, base string) *bareClient {
	hc := &http.Client{Transport: benchTransport()}
	b.Cleanup(hc.CloseIdleConnections)
	return &bareClient{hc: hc, url: base + "/opentool/call"}
}

// bareCallFn is one call of fn ("count" or "create") through the bare client,
// checking the answer.
func bareCallFn(ctx context.Context, bc *bareClient, fn string) func() error {
	if fn == "count" {
		return func() error {
			r, err := bareCall[benchCountResult](ctx, bc.hc, bc.url, "count", struct{}{}, "id-"+strconv.FormatUint(bc.seq.Add(1), 10))
			if err != nil {
				return err
			}
			if r.Count != 5 {
				return errors.New("count: got " + strconv.Itoa(r.Count))
			}
			return nil
		}
	}
	return func() error {
		r, err := bareCall[benchCreateResult](ctx, bc.hc, bc.url, "create", benchCreateArgs{Text: "hello"}, "id-"+strconv.FormatUint(bc.seq.Add(1), 10))
		if err != nil {
			return err
		}
		if r.Text != "hello" {
			return errors.New("create: got " + r.Text)
		}
		return nil
	}
}

func BenchmarkBareRoundTrip(b *testing.B) {
	bc := newBareClient(b, benchServe(b, http.HandlerFunc(bareHandler)))
	for _, c := range benchConcurrency {
		for _, fn := range benchFunctions {
			b.Run("call="+fn+"/c="+strconv.Itoa(c), func(b *testing.B) {
				runPool(b, c, bareCallFn(context.Background(), bc, fn))
			})
		}
	}
}

// BenchmarkRoundTripVsBare makes b.N runtime calls and b.N bare calls (as in
// BenchmarkRoundTrip and BenchmarkBareRoundTrip) in alternating blocks of a few
// milliseconds, each block timed on its own and the order switched every time,
// so that both see the same load on the machine. It reports the median over the
// blocks of the calls/s of each and the median of the ratio of each pair of
// adjacent blocks (runtime / bare). The separate benchmarks run seconds apart
// and, on a shared machine, drift with its load; medians of adjacent blocks
// resist both the drift and the stalls. ns/op and allocs/op are per pair of calls.
func BenchmarkRoundTripVsBare(b *testing.B) {
	client := runtime.NewClient(benchServe(b, runtime.NewHandler(benchTool{})) + runtime.DefaultPrefix)
	bc := newBareClient(b, benchServe(b, http.HandlerFunc(bareHandler)))
	ctx := context.Background()
	for _, c := range benchConcurrency {
		for _, fn := range benchFunctions {
			b.Run("call="+fn+"/c="+strconv.Itoa(c), func(b *testing.B) {
				calls := [2]func() error{rtCall(ctx, client, fn), bareCallFn(ctx, bc, fn)}
				for _, call := range calls {
					if err := call(); err != nil {
						b.Fatal(err)
					}
				}
				block := max(100, 20*c)
				var rates [2][]float64
				var ratios []float64
				b.ReportAllocs()
				b.ResetTimer()
				for i, done := 0, 0; done < b.N; i++ {
					n := min(block, b.N-done)
					var rate [2]float64
					for k := range 2 {
						j := (i + k) % 2
						t0 := time.Now()
						if err := pool(c, n, calls[j]); err != nil {
							b.Fatal(err)
						}
						rate[j] = float64(n) / time.Since(t0).Seconds()
					}
					done += n
					if n == block || i == 0 { // a short last block says little
						rates[0] = append(rates[0], rate[0])
						rates[1] = append(rates[1], rate[1])
						ratios = append(ratios, rate[0]/rate[1])
					}
				}
				b.StopTimer()
				b.ReportMetric(median(rates[0]), "runtime-calls/s")
				b.ReportMetric(median(rates[1]), "bare-calls/s")
				b.ReportMetric(median(ratios), "ratio")
			})
		}
	}
}

func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// ---- the handler alone, without the network ----

func benchHandler(b *testing.B, h http.Handler, body string, want string) {
	b.Helper()
	rd := bytes.NewReader([]byte(body))
	req := httptest.NewRequest(http.MethodPost, "/opentool/call", nil)
	req.Header.Set("Content-Type", "application/json")
	req.Body = io.NopCloser(rd)
	req.ContentLength = int64(len(body))
	serve := func() *httptest.ResponseRecorder {
		rd.Reset([]byte(body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	if rec := serve(); rec.Code != http.StatusOK || !bytes.Contains(rec.Body.Bytes(), []byte(want)) {
		b.Fatalf("status %d, body %s; want %s", rec.Code, rec.Body.Bytes(), want)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		serve()
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

func BenchmarkHandler(b *testing.B) {
	h := runtime.NewHandler(benchTool{})
	count := `{"jsonrpc":"2.0","method":"count","params":{},"id":"a1b2c3d4e5f6-1"}`
	create := `{"jsonrpc":"2.0","method":"create","params":{"text":"hello"},"id":"a1b2c3d4e5f6-1"}`
	b.Run("call=count", func(b *testing.B) { benchHandler(b, h, count, `"result":{"count":5}`) })
	b.Run("call=create", func(b *testing.B) { benchHandler(b, h, create, `"text":"hello"`) })
	// The same recorder and request with the bare handler, for scale.
	b.Run("bare/call=count", func(b *testing.B) { benchHandler(b, http.HandlerFunc(bareHandler), count, `"result":{"count":5}`) })
	b.Run("bare/call=create", func(b *testing.B) { benchHandler(b, http.HandlerFunc(bareHandler), create, `"text":"hello"`) })
	// The harness alone (recorder, reader reset, a fixed answer): what every line above includes.
	fixed := []byte(`{"jsonrpc":"2.0","result":{"count":5},"error":null,"id":"a1b2c3d4e5f6-1"}`)
	b.Run("harness", func(b *testing.B) {
		benchHandler(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write(fixed)
		}), count, `"result":{"count":5}`)
	})
}

// ---- streaming: events/s over loopback ----

// BenchmarkStream streams b.N data events in one /streamCall and reports events/s.
func BenchmarkStream(b *testing.B) {
	base := benchServe(b, runtime.NewHandler(benchTool{}))
	client := runtime.NewClient(base + runtime.DefaultPrefix)
	ctx := context.Background()
	b.ReportAllocs()
	n := 0
	for v, err := range runtime.InvokeStream[benchTick](ctx, client, "ticks", benchTicksArgs{N: b.N}, "") {
		if err != nil {
			b.Fatal(err)
		}
		if v.Seq != n {
			b.Fatalf("event %d: got seq %d", n, v.Seq)
		}
		n++
	}
	b.StopTimer()
	if n != b.N {
		b.Fatalf("got %d events, want %d", n, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkStreamLocal streams b.N data events through runtime.Local, in
// process, and reports events/s: what a typed stream over a Caller that is not
// a *Client costs (InvokeStream pulls its items).
func BenchmarkStreamLocal(b *testing.B) {
	caller := runtime.Local(benchTool{})
	ctx := context.Background()
	b.ReportAllocs()
	n := 0
	for v, err := range runtime.InvokeStream[benchTick](ctx, caller, "ticks", benchTicksArgs{N: b.N}, "") {
		if err != nil {
			b.Fatal(err)
		}
		if v.Seq != n {
			b.Fatalf("event %d: got seq %d", n, v.Seq)
		}
		n++
	}
	b.StopTimer()
	if n != b.N {
		b.Fatalf("got %d events, want %d", n, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
