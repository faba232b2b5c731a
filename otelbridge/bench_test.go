package otelbridge_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/opentoolgen/opentoolgen/otelbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// echoTool answers its arguments.
type echoTool struct{}

func (echoTool) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	return args, nil
}

func (echoTool) Load(context.Context) (*document.OpenTool, error) { return nil, nil }

// noopExporter drops the spans it is given: the provider does all its
// work, and nothing leaves the process.
type noopExporter struct{}

func (noopExporter) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (noopExporter) Shutdown(context.Context) error                             { return nil }

// tracingMode is a way to serve calls: its server options and the
// propagator set while it serves.
type tracingMode struct {
	name string
	opts []runtime.ServerOption
	prop intercept.Propagator
}

// tracingModes are the modes of BenchmarkTracing, off first; the providers
// are shut down when b ends.
func tracingModes(b *testing.B) []tracingMode {
	bspTP := sdktrace.NewTracerProvider(sdktrace.WithBatcher(noopExporter{}))
	b.Cleanup(func() { bspTP.Shutdown(context.Background()) })
	offTP := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.NeverSample()), sdktrace.WithBatcher(noopExporter{}))
	b.Cleanup(func() { offTP.Shutdown(context.Background()) })
	sdkMP := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	noMetrics := otelbridge.WithMeterProvider(metricnoop.NewMeterProvider())
	traced := func(opts ...otelbridge.Option) []runtime.ServerOption {
		return []runtime.ServerOption{runtime.WithInterceptors(otelbridge.Interceptor(opts...))}
	}
	return []tracingMode{
		{"off", nil, nil},
		{"noop", traced(otelbridge.WithTracerProvider(tracenoop.NewTracerProvider()), noMetrics), otelbridge.Propagator()},
		{"sdk-unsampled", traced(otelbridge.WithTracerProvider(offTP), noMetrics), otelbridge.Propagator()},
		{"sdk", traced(otelbridge.WithTracerProvider(bspTP), noMetrics), otelbridge.Propagator()},
		{"sdk+metrics", traced(otelbridge.WithTracerProvider(bspTP), otelbridge.WithMeterProvider(sdkMP)), otelbridge.Propagator()},
	}
}

// BenchmarkTracing measures the calls/s of POST /opentool/call and the CPU
// time of the process per call (cpu-µs/call: server, client and the SDK's
// batcher; the figure to compare on a machine other processes share), the
// server in these modes:
//
//   - off: no interceptor and no propagator (what toolcli runs without
//     telemetry);
//   - noop: otelbridge's interceptor and propagator with OpenTelemetry's
//     no-op providers (instrumented, every span dropped at once);
//   - sdk-unsampled: the SDK's tracer provider with a sampler that drops
//     every span (OTEL_TRACES_SAMPLER=always_off): the SDK's Start and End
//     without a span to record;
//   - sdk: the SDK's tracer provider with its batch span processor to an
//     exporter that drops the spans, W3C propagation, metrics to the no-op
//     meter;
//   - sdk+metrics: sdk with the SDK's meter provider too.
//
// handler/ serves each request in process (ServeHTTP with a recorder, a
// request with a traceparent header, as a traced caller sends): the
// server's own cost per call, steady on a busy machine. loopback/ is a
// plain *runtime.Client over loopback HTTP with c×GOMAXPROCS goroutines
// calling (b.SetParallelism(c)): the whole round trip, noisier.
func BenchmarkTracing(b *testing.B) {
	modes := tracingModes(b)
	body := `{"jsonrpc":"2.0","method":"echo","params":{"text":"hello"},"id":1}`
	for _, m := range modes {
		b.Run("handler/"+m.name, func(b *testing.B) {
			intercept.SetPropagator(m.prop)
			defer intercept.SetPropagator(nil)
			h := runtime.NewHandler(echoTool{}, m.opts...)
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/opentool/call", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatal(rec.Code, rec.Body.String())
				}
			}
			reportCPU(b, cpu0)
		})
	}
	args := json.RawMessage(`{"text":"hello"}`)
	for _, c := range []int{1, 8} {
		for _, m := range modes {
			b.Run("loopback/c="+strconv.Itoa(c)+"/"+m.name, func(b *testing.B) {
				intercept.SetPropagator(m.prop)
				defer intercept.SetPropagator(nil)
				srv := httptest.NewServer(runtime.NewHandler(echoTool{}, m.opts...))
				defer srv.Close()
				client := runtime.NewClient(srv.URL + runtime.DefaultPrefix)
				ctx := context.Background()
				b.SetParallelism(c)
				b.ReportAllocs()
				b.ResetTimer()
				cpu0 := cpuTime()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if _, err := client.CallFunction(ctx, "echo", args); err != nil {
							b.Error(err)
							return
						}
					}
				})
				reportCPU(b, cpu0)
			})
		}
	}
}

// pairChunk is the number of calls BenchmarkTracingPaired makes of one
// server before it calls the other.
const pairChunk = 500

// BenchmarkTracingPaired measures what BenchmarkTracing's loopback/c=8
// does, each mode against off, in one process: two servers, off's and the
// mode's, called in alternation pairChunk calls at a time by
// 8×GOMAXPROCS goroutines (off first in one pair, the mode first in the
// next), so that both see the same load of the machine, where separate runs
// see loads that differ by more than the 5 % to resolve. b.N is the number
// of calls each server answers. It reports the mode's calls/s and
// cpu-µs/call, off's (off-calls/s, off-cpu-µs/call), and the mode's change
// against off in per cent, the median of the pairs' (Δcalls/s-%, Δcpu-%).
func BenchmarkTracingPaired(b *testing.B) {
	modes := tracingModes(b)
	args := json.RawMessage(`{"text":"hello"}`)
	for _, m := range modes { // off against off: the noise of the measure
		b.Run("c=8/"+m.name, func(b *testing.B) {
			defer intercept.SetPropagator(nil)
			var sides [2]*pairedSide
			for i, mode := range []tracingMode{modes[0], m} {
				srv := httptest.NewServer(runtime.NewHandler(echoTool{}, mode.opts...))
				defer srv.Close()
				sides[i] = &pairedSide{prop: mode.prop, client: runtime.NewClient(srv.URL + runtime.DefaultPrefix)}
			}
			runPaired(b, sides, 8*goruntime.GOMAXPROCS(0), "echo", args)
		})
	}
}

// pairedSide is one server of a paired benchmark (BenchmarkTracingPaired,
// BenchmarkGatewayTracing): the propagator its calls run with, its client,
// and what was measured of its calls.
type pairedSide struct {
	prop      intercept.Propagator
	client    *runtime.Client
	calls     int
	wall, cpu time.Duration
}

// run makes n calls of function with args over s by workers goroutines and
// returns their wall and CPU time, which it adds to s's.
func (s *pairedSide) run(b *testing.B, workers, n int, function string, args json.RawMessage) (wall, cpu time.Duration) {
	intercept.SetPropagator(s.prop) // no call in flight: the other side's are done
	var left atomic.Int64
	left.Store(int64(n))
	var wg sync.WaitGroup
	t0, cpu0 := time.Now(), cpuTime()
	for range workers {
		wg.Go(func() {
			for left.Add(-1) >= 0 {
				if _, err := s.client.CallFunction(context.Background(), function, args); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	wall, cpu = time.Since(t0), cpuTime()-cpu0
	s.wall += wall
	s.cpu += cpu
	s.calls += n
	return wall, cpu
}

// runPaired calls sides[0] (off) and sides[1] (the mode measured) in
// alternation, pairChunk calls at a time (off first in one pair, the mode
// first in the next), b.N calls each, and reports the mode's calls/s and
// cpu-µs/call, off's (off-calls/s, off-cpu-µs/call), and the mode's change
// against off in per cent, the median of the pairs' (Δcalls/s-%, Δcpu-%).
func runPaired(b *testing.B, sides [2]*pairedSide, workers int, function string, args json.RawMessage) {
	for _, s := range sides { // connections opened, then counted from zero
		s.run(b, workers, 4*workers, function, args)
		s.calls, s.wall, s.cpu = 0, 0, 0
	}
	b.ReportAllocs()
	b.ResetTimer()
	var wallRatios, cpuRatios []float64 // the mode's over off's, per pair
	for pair := 0; sides[0].calls < b.N; pair++ {
		n := min(pairChunk, b.N-sides[0].calls)
		var wall, cpu [2]time.Duration
		for _, i := range [][2]int{{0, 1}, {1, 0}}[pair%2] {
			wall[i], cpu[i] = sides[i].run(b, workers, n, function, args)
		}
		wallRatios = append(wallRatios, float64(wall[0])/float64(wall[1])) // calls/s: the inverse of time
		if cpu[0] > 0 && cpu[1] > 0 {
			cpuRatios = append(cpuRatios, float64(cpu[1])/float64(cpu[0]))
		}
	}
	if testing.Verbose() {
		b.Logf("per pair, the mode's wall and cpu over off's: %.3f\n%.3f", wallRatios, cpuRatios)
	}
	rate := func(s *pairedSide) float64 { return float64(s.calls) / s.wall.Seconds() }
	perCall := func(s *pairedSide) float64 { return float64(s.cpu.Nanoseconds()) / 1e3 / float64(s.calls) }
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(rate(sides[1]), "calls/s")
	b.ReportMetric(rate(sides[0]), "off-calls/s")
	b.ReportMetric(100*(median(wallRatios)-1), "Δcalls/s-%")
	if len(cpuRatios) > 0 {
		b.ReportMetric(perCall(sides[1]), "cpu-µs/call")
		b.ReportMetric(perCall(sides[0]), "off-cpu-µs/call")
		b.ReportMetric(100*(median(cpuRatios)-1), "Δcpu-%")
	}
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	x = slices.Clone(x)
	slices.Sort(x)
	if n := len(x); n%2 == 0 {
		return (x[n/2-1] + x[n/2]) / 2
	}
	return x[len(x)/2]
}

// reportCPU reports calls/s (wall time) and the CPU time of the process per
// call since cpu0, with the calls one core would serve at that cost
// (calls/cpu-s): on a machine other processes share, the wall-time figure
// varies with them, the CPU time much less.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(b.N), "cpu-µs/call")
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "calls/cpu-s")
	}
}

// BenchmarkInterceptor measures the interceptor alone around a call that
// does nothing, on the serving side, from 8×GOMAXPROCS goroutines at once
// (as a server runs it): the SDK's span given to its BatchSpanProcessor
// (sdk) or to its SimpleSpanProcessor (sdk-sync), each with an exporter
// that drops the spans, and the metrics, no-op or the SDK's; then the span
// alone (sdk-span-alone).
//
// The goroutines never block, so that the exporting goroutine may wait for
// one to be preempted: the queue is made large enough that no span is
// dropped (a dropped span costs less).
func BenchmarkInterceptor(b *testing.B) {
	sdkTP := sdktrace.NewTracerProvider(sdktrace.WithBatcher(noopExporter{}, sdktrace.WithMaxQueueSize(1<<20)))
	defer sdkTP.Shutdown(context.Background())
	noMetrics := otelbridge.WithMeterProvider(metricnoop.NewMeterProvider())
	for _, m := range []struct {
		name string
		ic   intercept.Func
	}{
		{"noop", otelbridge.Interceptor(otelbridge.WithTracerProvider(tracenoop.NewTracerProvider()), noMetrics)},
		{"sdk", otelbridge.Interceptor(otelbridge.WithTracerProvider(sdkTP), noMetrics)},
		{"sdk-sync", otelbridge.Interceptor(otelbridge.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSyncer(noopExporter{}))), noMetrics)},
		{"sdk+metrics", otelbridge.Interceptor(otelbridge.WithTracerProvider(sdkTP),
			otelbridge.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))))},
	} {
		b.Run(m.name, func(b *testing.B) {
			b.SetParallelism(8)
			b.ReportAllocs()
			cpu0 := cpuTime()
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				next := func(context.Context) error { return nil }
				for pb.Next() {
					call := intercept.Call{Function: "echo", Server: true, Front: intercept.FrontOpenTool}
					m.ic(ctx, &call, next)
				}
			})
			reportCPU(b, cpu0)
		})
	}
	// A REST call (a *rest.Client's interceptors), answered 200.
	b.Run("rest-sdk+metrics", func(b *testing.B) {
		ic := otelbridge.Interceptor(otelbridge.WithTracerProvider(sdkTP),
			otelbridge.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))))
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			h := intercept.HTTPCall{Method: "GET", Template: "/pets/{petId}", URL: "http://127.0.0.1:8080/v1/pets/42"}
			call := intercept.Call{Function: "GET /pets/{petId}", Front: intercept.FrontREST, HTTP: &h}
			ic(ctx, &call, func(context.Context) error { h.StatusCode = 200; return nil })
		}
	})
	// The SDK's span alone, with the kind and attributes the interceptor
	// gives it: what no interceptor can pay less for.
	b.Run("sdk-span-alone", func(b *testing.B) {
		tracer := sdkTP.Tracer(otelbridge.ScopeName)
		opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(
			semconv.RPCSystemNameJSONRPC, semconv.RPCMethod("echo"), otelbridge.FrontKey.String(intercept.FrontOpenTool))}
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			_, span := tracer.Start(ctx, "echo", opts...)
			span.End()
		}
	})
}
