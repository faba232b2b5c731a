package otelbridge_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opentoolgen/opentoolgen/examples/petstore/petstoreclient"
	"github.com/opentoolgen/opentoolgen/otelbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
	"github.com/opentoolgen/opentoolgen/toolcli"
	"github.com/opentoolgen/opentoolgen/toolcli/otelcli"
)

// upstreamDelay is the time the REST upstream of BenchmarkGatewayTracing
// takes to answer: the work of an API, which tracing is measured against.
const upstreamDelay = time.Millisecond

// BenchmarkGatewayTracing measures the calls/s of a generated gateway (the
// petstore's OpenTool tool over its REST client) serving getPet over
// OpenTool HTTP on loopback, its REST upstream on loopback answering after
// 1 ms, with 8 calls under way at once (c=8), tracing off (no telemetry:
// what a main generated without -with otel runs) against on
// (toolcli/otelcli.Telemetry as a -with otel main runs it: the SDK's tracer
// provider, its batch span processor and the OTLP/HTTP exporter to a
// receiver on loopback; a Server span per call and a Client span per REST
// request; metrics off). As BenchmarkTracingPaired does, two gateways, off's
// and on's, are called in alternation pairChunk calls at a time (off first in
// one pair, on first in the next), so that both see the same load of the
// machine. b.N is the number of calls each gateway answers. It reports on's
// calls/s and cpu-µs/call, off's (off-calls/s, off-cpu-µs/call) and on's
// change against off in per cent, the median of the pairs'
// (Δcalls/s-%, Δcpu-%). docs/telemetry.md has the figure.
func BenchmarkGatewayTracing(b *testing.B) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(upstreamDelay) // the API's work, which tracing is measured against
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
	b.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.URL)
	b.Setenv("OTEL_METRICS_EXPORTER", "none")
	ics, stop, err := otelcli.Telemetry(context.Background(), toolcli.TelemetrySetup{Name: "petstore", Version: "1.0.0"})
	if err != nil || stop == nil {
		b.Fatalf("telemetry: %v", err)
	}
	stop = sync.OnceFunc(stop)
	defer stop()
	defer intercept.SetPropagator(nil)
	workers := 8
	// Keep-alive connections for every worker: Go's default of 2 idle
	// connections per host would make both sides open connections all the
	// time, a cost of the benchmark's clients, not of tracing.
	hc := func() *http.Client {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 2 * workers
		return &http.Client{Transport: t}
	}
	var sides [2]*pairedSide
	for i, on := range []bool{false, true} {
		rc, err := petstoreclient.NewClient(upstream.URL+"/v1", petstoreclient.WithHTTPClient(hc()))
		if err != nil {
			b.Fatal(err)
		}
		tool, err := petstoreclient.NewTool(rc)
		if err != nil {
			b.Fatal(err)
		}
		var opts []runtime.ServerOption
		s := &pairedSide{}
		if on {
			opts = append(opts, runtime.WithInterceptors(ics...))
			s.prop = otelbridge.Propagator()
		}
		gw := httptest.NewServer(runtime.NewHandler(tool, opts...))
		defer gw.Close()
		s.client = runtime.NewClient(gw.URL+runtime.DefaultPrefix, runtime.WithHTTPClient(hc()))
		sides[i] = s
	}
	runPaired(b, sides, workers, "getPet", json.RawMessage(`{"petId":7}`))
	b.ReportMetric(float64(workers), "c")
	stop() // flushes the batch span processor
	if spansIn.Load() == 0 {
		b.Error("no OTLP export reached the receiver")
	}
}
