package otelbridge_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/examples/petstore/petstoreclient"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/toolcli"
	"github.com/opentoolgen/opentoolgen/toolcli/otelcli"
)

// upstreamDelay is the time the REST upstream of BenchmarkGatewayTracing
// takes to answer: the work of an API, which tracing is measured against.
const upstreamDelay = time.Millisecond

// BenchmarkGatewayTracing measures the calls/s of a generated gateway (the
// petstore's OpenTool tool over its REST client) serving getPet over
// OpenTool HTTP on loopback, its REST upstream on loopback answering after
// 1 ms, with 8 calls under way at once (c=8: b.SetParallelism of
// 8/GOMAXPROCS), tracing off (no telemetry: what a main generated without
// -with otel runs) and on (toolcli/otelcli.Telemetry as a -with otel main
// runs it: the SDK's tracer provider, its batch span processor and the
// OTLP/HTTP exporter to a receiver on loopback; a Server span per call and
// a Client span per REST request; metrics off). It reports calls/s and the
// CPU time of the process (gateway, upstream, receiver, client) per call.
// Run with -count and compare with benchstat (docs/telemetry.md has the
// figure).
func BenchmarkGatewayTracing(b *testing.B) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(upstreamDelay) // the API's work
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":7,"name":"Rex","status":"available"}`)
	}))
	defer upstream.Close()
	var spansIn atomic.Int64 // OTLP export requests received
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		spansIn.Add(1)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer receiver.Close()
	for _, mode := range []string{"off", "on"} {
		b.Run("tracing="+mode, func(b *testing.B) {
			var ics []runtime.Interceptor
			if mode == "on" {
				b.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.URL)
				b.Setenv("OTEL_METRICS_EXPORTER", "none")
				var stop func()
				var err error
				ics, stop, err = otelcli.Telemetry(context.Background(), toolcli.TelemetrySetup{Name: "petstore", Version: "1.0.0"})
				if err != nil || stop == nil {
					b.Fatalf("telemetry: %v", err)
				}
				defer stop()
				defer runtime.SetPropagator(nil)
			}
			rc, err := petstoreclient.NewClient(upstream.URL + "/v1")
			if err != nil {
				b.Fatal(err)
			}
			tool, err := petstoreclient.NewTool(rc)
			if err != nil {
				b.Fatal(err)
			}
			gw := httptest.NewServer(runtime.NewHandler(tool, runtime.WithInterceptors(ics...)))
			defer gw.Close()
			client := runtime.NewClient(gw.URL + runtime.DefaultPrefix)
			args := json.RawMessage(`{"petId":7}`)
			p := max(1, (8+goruntime.GOMAXPROCS(0)-1)/goruntime.GOMAXPROCS(0))
			b.SetParallelism(p)
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := client.CallFunction(context.Background(), "getPet", args); err != nil {
						b.Error(err)
						return
					}
				}
			})
			reportCPU(b, cpu0) // calls/s, and the CPU time of the process per call
			b.ReportMetric(float64(p*goruntime.GOMAXPROCS(0)), "c")
		})
	}
	if spansIn.Load() == 0 {
		b.Error("no OTLP export reached the receiver")
	}
}
