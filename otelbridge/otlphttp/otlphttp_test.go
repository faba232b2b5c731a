package otlphttp_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/opentoolgen/opentoolgen/otelbridge/otlphttp"
)

// receiver is an OTLP/HTTP receiver on loopback that decodes each export
// with the OTLP project's generated protobuf types.
type receiver struct {
	mu       sync.Mutex
	requests []*collpb.ExportTraceServiceRequest
	bodies   [][]byte // as received, uncompressed
	headers  []http.Header
	fail     int // answers 503 to the first fail requests
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if req.URL.Path != "/v1/traces" || req.Method != http.MethodPost {
		http.Error(w, "not here", http.StatusNotFound)
		return
	}
	if r.fail > 0 {
		r.fail--
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	var body io.Reader = req.Body
	if req.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	data, _ := io.ReadAll(body)
	var m collpb.ExportTraceServiceRequest
	if err := proto.Unmarshal(data, &m); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.requests = append(r.requests, &m)
	r.bodies = append(r.bodies, data)
	r.headers = append(r.headers, req.Header.Clone())
	w.Header().Set("Content-Type", "application/x-protobuf")
}

// spans makes two ended spans with the SDK: a server span that is the
// remote child of a traceparent, with attributes of every type, an event,
// a link and an error status; and its local child of another scope.
func spans(t *testing.T) []sdktrace.ReadOnlySpan {
	t.Helper()
	rec := sdktrace.NewSimpleSpanProcessor(nopExporter{})
	var got []sdktrace.ReadOnlySpan
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec), sdktrace.WithSpanProcessor(collector{&got}),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", "calc"))))
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	ts, _ := trace.ParseTraceState("vendor=x")
	parent := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, TraceState: ts, Remote: true})
	ctx := trace.ContextWithRemoteSpanContext(context.Background(), parent)
	start := time.Unix(1700000000, 123)
	ctx, span := tp.Tracer("scope.a", trace.WithInstrumentationVersion("1.2.3")).Start(ctx, "add", trace.WithSpanKind(trace.SpanKindServer),
		trace.WithTimestamp(start), trace.WithLinks(trace.Link{SpanContext: parent, Attributes: []attribute.KeyValue{attribute.Bool("l", true)}}),
		trace.WithAttributes(attribute.String("rpc.method", "add"), attribute.Int64("n", -7), attribute.Float64("f", 2.5),
			attribute.Bool("b", false), attribute.StringSlice("ss", []string{"x", "y"}), attribute.Int64Slice("is", []int64{1, 2}),
			attribute.Map("m", attribute.String("k", "v"))))
	span.AddEvent("retry", trace.WithTimestamp(start.Add(time.Millisecond)), trace.WithAttributes(attribute.Int("attempt", 2)))
	_, child := tp.Tracer("scope.b").Start(ctx, "inner", trace.WithSpanKind(trace.SpanKindClient), trace.WithTimestamp(start))
	child.SetStatus(codes.Ok, "")
	child.End(trace.WithTimestamp(start.Add(2 * time.Millisecond)))
	span.SetStatus(codes.Error, "disk on fire")
	span.End(trace.WithTimestamp(start.Add(3 * time.Millisecond)))
	if len(got) != 2 {
		t.Fatalf("%d spans", len(got))
	}
	return got
}

type nopExporter struct{}

func (nopExporter) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (nopExporter) Shutdown(context.Context) error                             { return nil }

type collector struct{ spans *[]sdktrace.ReadOnlySpan }

func (c collector) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (c collector) OnEnd(s sdktrace.ReadOnlySpan)                   { *c.spans = append(*c.spans, s) }
func (c collector) Shutdown(context.Context) error                  { return nil }
func (c collector) ForceFlush(context.Context) error                { return nil }

// The export, decoded with the OTLP project's own types, holds every field
// of the spans as the SDK recorded them.
func TestExportDecodes(t *testing.T) {
	for _, compression := range []string{"none", "gzip"} {
		t.Run(compression, func(t *testing.T) {
			r := &receiver{fail: 1} // the first attempt is answered 503: retried
			srv := httptest.NewServer(r)
			defer srv.Close()
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL+"/")
			t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "api-key=se%20cret,x-tenant=t1")
			t.Setenv("OTEL_EXPORTER_OTLP_COMPRESSION", compression)
			exp, err := otlphttp.New()
			if err != nil {
				t.Fatal(err)
			}
			if exp.URL() != srv.URL+"/v1/traces" {
				t.Errorf("URL %s", exp.URL())
			}
			if err := exp.ExportSpans(t.Context(), spans(t)); err != nil {
				t.Fatal(err)
			}
			r.mu.Lock()
			defer r.mu.Unlock()
			if len(r.requests) != 1 {
				t.Fatalf("%d requests decoded", len(r.requests))
			}
			if h := r.headers[0]; h.Get("Api-Key") != "se cret" || h.Get("X-Tenant") != "t1" || h.Get("Content-Type") != "application/x-protobuf" {
				t.Errorf("headers %v", h)
			}
			// protojson varies its spacing on purpose: compare without it.
			got := strings.Join(strings.Fields(protojson.Format(r.requests[0])), "")
			for _, want := range []string{
				`"key": "service.name"`, `"stringValue": "calc"`,
				`"name": "scope.a"`, `"version": "1.2.3"`, `"name": "scope.b"`,
				`"traceId": "S/kvNXezTaajzpKdDg5HNg=="`, `"parentSpanId": "APBnqgupArc="`, `"traceState": "vendor=x"`,
				`"name": "add"`, `"kind": "SPAN_KIND_SERVER"`, `"startTimeUnixNano": "1700000000000000123"`, `"endTimeUnixNano": "1700000000003000123"`,
				`"key": "n"`, `"intValue": "-7"`, `"doubleValue": 2.5`, `"boolValue": false`, `"stringValue": "y"`, `"intValue": "2"`,
				`"kvlistValue"`, `"stringValue": "v"`,
				`"name": "retry"`, `"timeUnixNano": "1700000000001000123"`, `"key": "attempt"`,
				`"links"`, `"key": "l"`, `"boolValue": true`,
				`"message": "disk on fire"`, `"code": "STATUS_CODE_ERROR"`, `"code": "STATUS_CODE_OK"`,
				`"name": "inner"`, `"kind": "SPAN_KIND_CLIENT"`,
				`"flags": 769`, `"flags": 257`,
			} {
				if !strings.Contains(got, strings.Join(strings.Fields(want), "")) {
					t.Errorf("the decoded export has no %s:\n%s", want, got)
				}
			}
			rs := r.requests[0].ResourceSpans
			if len(rs) != 1 || len(rs[0].ScopeSpans) != 2 {
				t.Fatalf("want 1 resource with 2 scopes:\n%s", got)
			}
			// The inner span ended first: its scope comes first.
			inner := rs[0].ScopeSpans[0].Spans[0]
			outer := rs[0].ScopeSpans[1].Spans[0]
			if !bytes.Equal(inner.ParentSpanId, outer.SpanId) || !bytes.Equal(inner.TraceId, outer.TraceId) {
				t.Errorf("the inner span is not the outer one's child:\n%s", got)
			}
		})
	}
}

// Bad settings are errors naming the variable; grpc is refused.
func TestNewErrors(t *testing.T) {
	for _, tt := range []struct{ name, value, want string }{
		{"OTEL_EXPORTER_OTLP_PROTOCOL", "grpc", "OTEL_EXPORTER_OTLP_PROTOCOL=grpc: this command exports with http/protobuf only"},
		{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/json", "OTEL_EXPORTER_OTLP_PROTOCOL=http/json"},
		{"OTEL_EXPORTER_OTLP_TIMEOUT", "soon", "OTEL_EXPORTER_OTLP_TIMEOUT=soon: want milliseconds"},
		{"OTEL_EXPORTER_OTLP_COMPRESSION", "zstd", "OTEL_EXPORTER_OTLP_COMPRESSION=zstd: want gzip or none"},
		{"OTEL_EXPORTER_OTLP_HEADERS", "novalue", `OTEL_EXPORTER_OTLP_HEADERS: "novalue" is not key=value`},
		{"OTEL_EXPORTER_OTLP_ENDPOINT", "localhost:4318", `OTLP endpoint "localhost:4318/v1/traces": want an http or https URL`},
		{"OTEL_EXPORTER_OTLP_CERTIFICATE", "/nonexistent.pem", "OTEL_EXPORTER_OTLP_CERTIFICATE: open /nonexistent.pem"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(tt.name, tt.value)
			_, err := otlphttp.New()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}

// A receiver that refuses the export fails it with the status; the
// signal-specific endpoint is used as is.
func TestExportRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/custom" {
			t.Errorf("posted to %s", r.URL.Path)
		}
		http.Error(w, "bad spans", http.StatusBadRequest)
	}))
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", srv.URL+"/custom")
	exp, err := otlphttp.New()
	if err != nil {
		t.Fatal(err)
	}
	err = exp.ExportSpans(t.Context(), spans(t))
	if err == nil || !strings.Contains(err.Error(), "400 Bad Request") || !strings.Contains(err.Error(), "bad spans") {
		t.Errorf("got %v", err)
	}
}
