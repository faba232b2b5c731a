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
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
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

func (benchTool) Load(ctx context.Context) (*runtime.OpenTool, error) { return nil, nil }

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
	var next atomic.Int64
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	n := int64(b.N)
	for range c {
		wg.Go(func() {
			for next.Add(1) <= n {
				if err := call(); err != nil {
					failed.CompareAndSwap(nil, &err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	cpu := cpuTime() - cpu0
	if p := failed.Load(); p != nil {
		b.Fatal(*p)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// ---- runtime server + runtime client ----

func BenchmarkRoundTrip(b *testing.B) {
	base := benchServe(b, runtime.NewHandler(benchTool{}))
	client := runtime.NewClient(base + runtime.DefaultPrefix)
	ctx := context.Background()
	for _, c := range benchConcurrency {
		b.Run("call=count/c="+strconv.Itoa(c), func(b *testing.B) {
			runPool(b, c, func() error {
				var n int
				if err := client.Invoke(ctx, "count", nil, "count", &n); err != nil {
					return err
				}
				if n != 5 {
					return errors.New("count: got " + strconv.Itoa(n))
				}
				return nil
			})
		})
		b.Run("call=create/c="+strconv.Itoa(c), func(b *testing.B) {
			runPool(b, c, func() error {
				var out benchCreateResult
				if err := client.Invoke(ctx, "create", benchCreateArgs{Text: "hello"}, "", &out); err != nil {
					return err
				}
				if out.Text != "hello" {
					return errors.New("create: got " + out.Text)
				}
				return nil
			})
		})
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

func BenchmarkBareRoundTrip(b *testing.B) {
	base := benchServe(b, http.HandlerFunc(bareHandler))
	hc := &http.Client{Transport: benchTransport()}
	b.Cleanup(hc.CloseIdleConnections)
	url := base + "/opentool/call"
	ctx := context.Background()
	var seq atomic.Uint64
	for _, c := range benchConcurrency {
		b.Run("call=count/c="+strconv.Itoa(c), func(b *testing.B) {
			runPool(b, c, func() error {
				r, err := bareCall[benchCountResult](ctx, hc, url, "count", struct{}{}, "id-"+strconv.FormatUint(seq.Add(1), 10))
				if err != nil {
					return err
				}
				if r.Count != 5 {
					return errors.New("count: got " + strconv.Itoa(r.Count))
				}
				return nil
			})
		})
		b.Run("call=create/c="+strconv.Itoa(c), func(b *testing.B) {
			runPool(b, c, func() error {
				r, err := bareCall[benchCreateResult](ctx, hc, url, "create", benchCreateArgs{Text: "hello"}, "id-"+strconv.FormatUint(seq.Add(1), 10))
				if err != nil {
					return err
				}
				if r.Text != "hello" {
					return errors.New("create: got " + r.Text)
				}
				return nil
			})
		})
	}
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
	for v, err := range runtime.Stream[benchTick](ctx, client, "ticks", benchTicksArgs{N: b.N}, "") {
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
