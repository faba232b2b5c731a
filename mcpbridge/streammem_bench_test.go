package mcpbridge_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// memStream is a tool with one streaming function, "items", that emits n
// items of 1 KiB.
type memStream struct{ n int }

func (m memStream) Load(context.Context) (*document.OpenTool, error) {
	return &document.OpenTool{OpenTool: "1.0.0", Info: document.Info{Title: "mem", Version: "1"},
		Functions: []document.Function{{Name: "items", Description: "streams",
			Stream: map[string]*document.Return{"data": {Name: "s", Schema: &document.Schema{Type: "string"}}}}}}, nil
}

func (m memStream) Call(context.Context, string, json.RawMessage) (json.RawMessage, error) {
	return nil, runtime.MethodNotFound("call")
}

func (m memStream) StreamCall(ctx context.Context, _ string, _ json.RawMessage, emit func(json.RawMessage) error) error {
	item := json.RawMessage(`{"s":"` + strings.Repeat("x", 1024-8) + `"}`)
	for range m.n {
		if err := emit(item); err != nil {
			return err
		}
	}
	return nil
}

// peakHeap samples the heap in use until stop is called, and returns its
// peak above the heap at the start, in MB.
func peakHeap() (stop func() float64) {
	goruntime.GC()
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms goruntime.MemStats
		for {
			goruntime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return func() float64 {
		close(done)
		wg.Wait()
		return float64(peak.Load()-min(base, peak.Load())) / 1e6
	}
}

// BenchmarkMCPStreamMemory streams 4 MiB of items (4,096 items of 1 KiB)
// over MCP streamable HTTP on loopback to the typed client (HTTPTool,
// StreamCall), and reports the peak heap of the process (server and client)
// above its start.
func BenchmarkMCPStreamMemory(b *testing.B) {
	for _, mib := range []int{4, 25} {
		b.Run(strconv.Itoa(mib)+"MiB", func(b *testing.B) {
			var h http.Handler
			h, err := mcpbridge.NewHTTPHandler(context.Background(), memStream{n: mib << 10}, nil, false)
			if err != nil {
				b.Fatal(err)
			}
			srv := httptest.NewServer(h)
			defer srv.Close()
			tool, err := mcpbridge.HTTPTool(context.Background(), srv.URL, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer tool.Close()
			b.ReportAllocs()
			var peak float64
			for b.Loop() {
				stop := peakHeap()
				n := 0
				err := tool.StreamCall(context.Background(), "items", nil, func(json.RawMessage) error { n++; return nil })
				peak = max(peak, stop())
				if err != nil || n != mib<<10 {
					b.Fatalf("%d items, %v", n, err)
				}
			}
			b.ReportMetric(peak, "peak-MB")
		})
	}
}
