package otelcli_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	collmetricpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	colltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// exported is what an OTLP receiver decoded: the resources' attributes
// and the spans.
type exported struct {
	mu        sync.Mutex
	resources []map[string]string
	spans     []*tracepb.Span
	metrics   int // export requests of metrics
	got       chan struct{}
	once      sync.Once
}

func newExported() *exported { return &exported{got: make(chan struct{})} }

func (e *exported) add(req *colltracepb.ExportTraceServiceRequest) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		res := map[string]string{}
		for _, kv := range rs.GetResource().GetAttributes() {
			res[kv.Key] = anyString(kv.Value)
		}
		e.resources = append(e.resources, res)
		for _, ss := range rs.ScopeSpans {
			e.spans = append(e.spans, ss.Spans...)
		}
	}
	if len(e.spans) > 0 {
		e.once.Do(func() { close(e.got) })
	}
}

func anyString(v *commonpb.AnyValue) string {
	switch v := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return v.StringValue
	case *commonpb.AnyValue_IntValue:
		return fmt.Sprint(v.IntValue)
	}
	return fmt.Sprint(v)
}

// grpcReceiver is an OTLP/gRPC receiver: the collector's trace and
// metrics services.
type grpcReceiver struct {
	colltracepb.UnimplementedTraceServiceServer
	e *exported
}

func (g *grpcReceiver) Export(_ context.Context, req *colltracepb.ExportTraceServiceRequest) (*colltracepb.ExportTraceServiceResponse, error) {
	g.e.add(req)
	return &colltracepb.ExportTraceServiceResponse{}, nil
}

type grpcMetrics struct {
	collmetricpb.UnimplementedMetricsServiceServer
	e *exported
}

func (g *grpcMetrics) Export(_ context.Context, req *collmetricpb.ExportMetricsServiceRequest) (*collmetricpb.ExportMetricsServiceResponse, error) {
	g.e.mu.Lock()
	g.e.metrics++
	g.e.mu.Unlock()
	return &collmetricpb.ExportMetricsServiceResponse{}, nil
}

// startGRPCReceiver serves an OTLP/gRPC receiver on loopback until the test
// ends; it returns its address.
func startGRPCReceiver(t *testing.T, e *exported, services bool) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	if services {
		colltracepb.RegisterTraceServiceServer(s, &grpcReceiver{e: e})
		collmetricpb.RegisterMetricsServiceServer(s, &grpcMetrics{e: e})
	}
	go s.Serve(l)
	t.Cleanup(s.Stop)
	return l.Addr().String()
}

// httpReceiver is an OTLP/HTTP receiver: it decodes the protobuf of
// /v1/traces and answers as the collector does.
func httpReceiver(e *exported) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/traces", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req colltracepb.ExportTraceServiceRequest
		if r.Header.Get("Content-Type") != "application/x-protobuf" || proto.Unmarshal(body, &req) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		e.add(&req)
		out, _ := proto.Marshal(&colltracepb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(out)
	})
	mux.HandleFunc("POST /v1/metrics", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		e.mu.Lock()
		e.metrics++
		e.mu.Unlock()
		out, _ := proto.Marshal(&collmetricpb.ExportMetricsServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(out)
	})
	return mux
}

// TestExportProtocols: the command exports the spans of its calls to an
// OTLP receiver on loopback over grpc and over http/protobuf, as
// OTEL_EXPORTER_OTLP_PROTOCOL says, with the resource's service.name and
// telemetry.sdk.* and the spans' conventions; its logs say where and how,
// and hold no error.
func TestExportProtocols(t *testing.T) {
	for _, protocol := range []string{"grpc", "http/protobuf"} {
		t.Run(strings.ReplaceAll(protocol, "/", "-"), func(t *testing.T) {
			e := newExported()
			endpoint := ""
			if protocol == "grpc" {
				endpoint = "http://" + startGRPCReceiver(t, e, true)
			} else {
				srv := httptest.NewServer(httpReceiver(e))
				t.Cleanup(srv.Close)
				endpoint = srv.URL
			}
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint)
			t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", protocol)
			t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "10") // ms: the spans leave while the command runs
			t.Setenv("OTEL_METRIC_EXPORT_INTERVAL", "50")
			t.Cleanup(func() { intercept.SetPropagator(nil) })
			r := testtool.Start(t, mockCommand())
			if got := callTool(t, r.Base, "create", `{"text":"a"}`, ""); !strings.Contains(got, `"result"`) {
				t.Fatalf("create: %s", got)
			}
			select {
			case <-e.got: // exported before the command stops: the batch processor's schedule
			case <-time.After(testtool.WaitLong):
				t.Fatalf("no span arrived over %s:\n%s", protocol, r.Logs)
			}
			r.Stop()
			if code := r.Wait(t); code != 0 {
				t.Fatalf("exit %d:\n%s", code, r.Logs)
			}
			e.mu.Lock()
			defer e.mu.Unlock()
			var server *tracepb.Span
			for _, s := range e.spans {
				if s.Name == "create" && s.Kind == tracepb.Span_SPAN_KIND_SERVER {
					server = s
				}
			}
			if server == nil {
				t.Fatalf("no Server span create among %d spans", len(e.spans))
			}
			for k, want := range map[string]string{"rpc.system.name": "jsonrpc", "rpc.method": "create", "jsonrpc.request.id": "1", "opentool.front": "opentool"} {
				if got := spanAttr(server, k); got != want {
					t.Errorf("span attribute %s = %q, want %q", k, got, want)
				}
			}
			res := e.resources[0]
			for k, want := range map[string]string{"service.name": "mock_util_tool", "telemetry.sdk.language": "go", "telemetry.sdk.name": "opentelemetry"} {
				if res[k] != want {
					t.Errorf("resource %s = %q, want %q (%v)", k, res[k], want, res)
				}
			}
			if res["telemetry.sdk.version"] == "" {
				t.Errorf("resource without telemetry.sdk.version: %v", res)
			}
			if e.metrics == 0 {
				t.Errorf("no metrics export arrived over %s", protocol)
			}
			logs := r.Logs.String()
			if !strings.Contains(logs, "exporting traces with OTLP over "+protocol) {
				t.Errorf("the logs do not say how traces are exported:\n%s", logs)
			}
			for _, l := range strings.Split(logs, "\n") {
				if strings.Contains(l, "OpenTelemetry") && (strings.Contains(l, "level=WARN") || strings.Contains(l, "level=ERROR")) {
					t.Errorf("an OpenTelemetry warning: %s", l)
				}
			}
		})
	}
}

// TestWrongEndpoint: an endpoint that is not an OTLP receiver of the
// protocol (a plain HTTP server, for either protocol; a gRPC server without
// the collector's services; an OTLP/gRPC receiver spoken to over HTTP) is
// one clear log line that names it, however many exports fail, and no raw
// line of Go's HTTP client.
func TestWrongEndpoint(t *testing.T) {
	plain := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(plain.Close)
	grpcBare := "http://" + startGRPCReceiver(t, newExported(), false)
	grpcOTLP := "http://" + startGRPCReceiver(t, newExported(), true)
	for _, c := range []struct {
		name, protocol, endpoint, says string
	}{
		{"plain-http", "http/protobuf", plain.URL, "not an OTLP receiver"},
		{"plain-grpc", "grpc", plain.URL, "does not speak gRPC"},
		{"grpc-without-otlp", "grpc", grpcBare, "without the OTLP traces service"},
		{"http-to-grpc", "http/protobuf", grpcOTLP, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", c.endpoint)
			t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", c.protocol)
			t.Setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "2000") // ms: a gRPC export retries until then
			t.Setenv("OTEL_METRICS_EXPORTER", "none")
			t.Cleanup(func() { intercept.SetPropagator(nil) })
			r := testtool.Start(t, mockCommand())
			line := "cannot export traces to " + c.endpoint
			deadline := time.Now().Add(testtool.WaitLong)
			for !strings.Contains(r.Logs.String(), line) && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond) // polling the log, with a deadline
			}
			for range 3 { // spans that fail to export too, on the way out
				callTool(t, r.Base, "create", `{"text":"a"}`, "")
			}
			r.Stop()
			if code := r.Wait(t); code != 0 {
				t.Fatalf("exit %d:\n%s", code, r.Logs)
			}
			logs := r.Logs.String()
			if n := strings.Count(logs, line); n != 1 {
				t.Errorf("%d lines say %q, want 1:\n%s", n, line, logs)
			}
			if !strings.Contains(logs, c.says) {
				t.Errorf("the logs do not say %q:\n%s", c.says, logs)
			}
			if strings.Contains(logs, "Unsolicited response") {
				t.Errorf("a raw line of the HTTP client:\n%s", logs)
			}
		})
	}
}

// TestHelpNamesOTEL: the help of a command with telemetry names the OTEL_*
// variables; that of one without does not (toolcli's tests).
func TestHelpNamesOTEL(t *testing.T) {
	code, out, _ := testtool.Run(t, mockCommand(), "-h")
	if code != 0 || !strings.Contains(out, "OTEL_EXPORTER_OTLP_ENDPOINT") {
		t.Errorf("-h: exit %d, the help names no OTEL_* variable:\n%s", code, out)
	}
}
