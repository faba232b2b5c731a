package otelbridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/opentoolgen/opentoolgen/examples/petstore/fakeapi"
	"github.com/opentoolgen/opentoolgen/examples/petstore/petstoreclient"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/otelbridge"
	"github.com/opentoolgen/opentoolgen/otelbridge/internal/petgateway"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
	"github.com/opentoolgen/opentoolgen/runtime/rest"
)

// telemetry is an SDK tracer provider with an in-memory exporter and a
// meter provider with a manual reader, and the interceptor over both. The
// runtime's propagator is W3C trace context until the test ends.
type telemetry struct {
	spans  *tracetest.InMemoryExporter
	tp     *sdktrace.TracerProvider
	reader *sdkmetric.ManualReader
	ic     intercept.Func
}

func newTelemetry(t *testing.T) *telemetry {
	tel := &telemetry{spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader()}
	tel.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(tel.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(tel.reader))
	tel.ic = otelbridge.Interceptor(otelbridge.WithTracerProvider(tel.tp), otelbridge.WithMeterProvider(mp))
	intercept.SetPropagator(otelbridge.Propagator())
	t.Cleanup(func() { intercept.SetPropagator(nil) })
	return tel
}

// byName returns the ended spans of name, in the order they ended.
func (tel *telemetry) byName(name string) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range tel.spans.GetSpans() {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

func attr(s tracetest.SpanStub, key string) string {
	for _, a := range s.Attributes {
		if string(a.Key) == key {
			return a.Value.String()
		}
	}
	return ""
}

// headerRecorder passes requests on to h and records the traceparent header
// of each.
type headerRecorder struct {
	h  http.Handler
	mu sync.Mutex
	tp []string
}

func (r *headerRecorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.tp = append(r.tp, req.Header.Get("traceparent"))
	r.mu.Unlock()
	r.h.ServeHTTP(w, req)
}

// gatewayChain is a typed client → OpenTool gateway (the generated Tool of
// the petstore's OpenTool document over a typed *Client of the upstream) →
// the upstream OpenTool server (the petstore's generated Tool over its REST
// client) → the REST API, every hop over loopback HTTP and every hop's
// interceptors tel's.
func gatewayChain(t *testing.T, tel *telemetry) (*petgateway.Client, *headerRecorder) {
	api := &headerRecorder{h: (&fakeapi.API{Key: "secret"}).Handler()}
	apiSrv := httptest.NewServer(api)
	t.Cleanup(apiSrv.Close)
	rc, err := petstoreclient.NewClient(apiSrv.URL+"/v1", petstoreclient.WithAPIKey("secret"),
		func(c *rest.Client) { c.Interceptors = append(c.Interceptors, tel.ic) })
	if err != nil {
		t.Fatal(err)
	}
	upTool, err := petstoreclient.NewTool(rc)
	if err != nil {
		t.Fatal(err)
	}
	upSrv := httptest.NewServer(runtime.NewHandler(upTool, runtime.WithInterceptors(tel.ic)))
	t.Cleanup(upSrv.Close)
	gwTool, err := petgateway.NewTool(petgateway.NewClient(runtime.InterceptCaller(runtime.NewClient(upSrv.URL+"/opentool"), tel.ic)))
	if err != nil {
		t.Fatal(err)
	}
	gwSrv := httptest.NewServer(runtime.NewHandler(gwTool, runtime.WithInterceptors(tel.ic)))
	t.Cleanup(gwSrv.Close)
	return petgateway.NewClient(runtime.InterceptCaller(runtime.NewClient(gwSrv.URL+"/opentool"), tel.ic)), api
}

// TestTraceThroughGateway is the "done when": a call of a typed
// client through an OpenTool gateway to a REST API is one trace, each span
// the child of the one before, with the semantic conventions' attributes,
// and the REST API receives the traceparent of the REST span.
func TestTraceThroughGateway(t *testing.T) {
	tel := newTelemetry(t)
	agent, api := gatewayChain(t, tel)
	ctx, root := tel.tp.Tracer("test").Start(context.Background(), "agent turn")
	pet, err := agent.AddPet(ctx, petgateway.AddPetArgs{Name: "Rex"})
	root.End()
	if err != nil || pet.Name != "Rex" {
		t.Fatalf("AddPet: %+v, %v", pet, err)
	}

	// The chain, outermost first: what each span's parent must be.
	want := []struct {
		name string
		kind trace.SpanKind
	}{
		{"agent turn", trace.SpanKindInternal},
		{"addPet", trace.SpanKindClient}, // the agent's typed client
		{"addPet", trace.SpanKindServer}, // the gateway
		{"addPet", trace.SpanKindClient}, // the gateway's typed client of the upstream
		{"addPet", trace.SpanKindServer}, // the upstream OpenTool server
		{"POST /pets", trace.SpanKindClient},
	}
	spans := tel.spans.GetSpans()
	if len(spans) != len(want) {
		for _, s := range spans {
			t.Logf("span %s %s parent %s", s.Name, s.SpanKind, s.Parent.SpanID())
		}
		t.Fatalf("%d spans, want %d", len(spans), len(want))
	}
	// Spans end innermost first: the chain is the reverse order of ending.
	chain := make([]tracetest.SpanStub, len(spans))
	for i, s := range spans {
		chain[len(spans)-1-i] = s
	}
	traceID := root.SpanContext().TraceID()
	for i, s := range chain {
		if s.Name != want[i].name || s.SpanKind != want[i].kind {
			t.Errorf("span %d: %s (%s), want %s (%s)", i, s.Name, s.SpanKind, want[i].name, want[i].kind)
		}
		if s.SpanContext.TraceID() != traceID {
			t.Errorf("span %d (%s) is in trace %s, want %s", i, s.Name, s.SpanContext.TraceID(), traceID)
		}
		if i > 0 && s.Parent.SpanID() != chain[i-1].SpanContext.SpanID() {
			t.Errorf("span %d (%s %s): parent %s, want span %d (%s)", i, s.Name, s.SpanKind, s.Parent.SpanID(), i-1, chain[i-1].SpanContext.SpanID())
		}
		if i > 1 && want[i].kind == trace.SpanKindServer && !s.Parent.IsRemote() {
			t.Errorf("span %d (%s): its parent came in process, not over HTTP", i, s.Name)
		}
	}
	for i := 1; i <= 4; i++ {
		s := chain[i]
		if attr(s, "rpc.system.name") != "jsonrpc" || attr(s, "rpc.method") != "addPet" || attr(s, "opentool.front") != "opentool" || s.Status.Code == codes.Error {
			t.Errorf("span %d attributes %v, status %v", i, s.Attributes, s.Status)
		}
	}
	restSpan := chain[5]
	if attr(restSpan, "url.template") != "/pets" || attr(restSpan, "http.request.method") != "POST" ||
		attr(restSpan, "http.response.status_code") != "201" || !strings.HasSuffix(attr(restSpan, "url.full"), "/v1/pets") ||
		attr(restSpan, "server.address") != "127.0.0.1" {
		t.Errorf("REST span attributes %v", restSpan.Attributes)
	}
	wantTP := "00-" + traceID.String() + "-" + restSpan.SpanContext.SpanID().String() + "-01"
	if len(api.tp) != 1 || api.tp[0] != wantTP {
		t.Errorf("the REST API got traceparent %q, want %q", api.tp, wantTP)
	}
}

// TestTraceErrors: an error answered by the REST API is on every span of
// the chain with the error's code as error.type, and counted.
func TestTraceErrors(t *testing.T) {
	tel := newTelemetry(t)
	agent, _ := gatewayChain(t, tel)
	_, err := agent.GetPet(context.Background(), petgateway.GetPetArgs{PetID: 42})
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != 404 {
		t.Fatalf("GetPet 42: %v, want a 404 call error", err)
	}
	spans := tel.byName("getPet")
	if len(spans) != 4 {
		t.Fatalf("%d getPet spans, want 4", len(spans))
	}
	for _, s := range spans {
		if s.Status.Code != codes.Error || attr(s, "error.type") != "404" || attr(s, "rpc.response.status_code") != "404" {
			t.Errorf("%s span: status %v, attributes %v", s.SpanKind, s.Status, s.Attributes)
		}
	}
	rest := tel.byName("GET /pets/{petId}")
	if len(rest) != 1 || rest[0].Status.Code != codes.Error || attr(rest[0], "error.type") != "404" ||
		attr(rest[0], "url.template") != "/pets/{petId}" || !strings.HasSuffix(attr(rest[0], "url.full"), "/v1/pets/{petId}") {
		t.Errorf("REST span %+v", rest)
	}

	// Metrics: two calls served, two made, one REST request; all failed.
	var rm metricdata.ResourceMetrics
	if err := tel.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int64{}
	durations := map[string]uint64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					side, _ := p.Attributes.Value(attribute.Key("opentool.side"))
					counts[m.Name+" "+side.AsString()] += p.Value
				}
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					et, _ := p.Attributes.Value(attribute.Key("error.type"))
					durations[m.Name+" "+et.AsString()] += p.Count
				}
			}
		}
	}
	wantCounts := map[string]int64{"opentool.calls server": 2, "opentool.calls client": 2, "opentool.calls rest": 1,
		"opentool.errors server": 2, "opentool.errors client": 2, "opentool.errors rest": 1}
	for k, v := range wantCounts {
		if counts[k] != v {
			t.Errorf("%s = %d, want %d (all: %v)", k, counts[k], v, counts)
		}
	}
	wantDur := map[string]uint64{"rpc.server.call.duration 404": 2, "rpc.client.call.duration 404": 2, "http.client.request.duration 404": 1}
	for k, v := range wantDur {
		if durations[k] != v {
			t.Errorf("%s: %d recorded, want %d (all: %v)", k, durations[k], v, durations)
		}
	}
}

// TestTraceOverMCP: the trace context crosses MCP in _meta.traceparent,
// from mcpbridge's caller to mcpbridge's server, whose span is the child of
// the caller's and the parent of the REST call.
func TestTraceOverMCP(t *testing.T) {
	tel := newTelemetry(t)
	api := &headerRecorder{h: (&fakeapi.API{Key: "secret"}).Handler()}
	apiSrv := httptest.NewServer(api)
	defer apiSrv.Close()
	rc, err := petstoreclient.NewClient(apiSrv.URL+"/v1", petstoreclient.WithAPIKey("secret"),
		func(c *rest.Client) { c.Interceptors = append(c.Interceptors, tel.ic) })
	if err != nil {
		t.Fatal(err)
	}
	tool, err := petstoreclient.NewTool(rc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var sawMeta string
	peek := func(ctx context.Context, call *intercept.Call, next func(context.Context) error) error {
		sawMeta = call.Front + " " + call.Meta.Get("traceparent")
		return next(ctx)
	}
	h, err := mcpbridge.NewHTTPHandler(ctx, tool, nil, true, mcpbridge.WithInterceptors(tel.ic, peek))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	srv := httptest.NewServer(h)
	defer srv.Close()
	mt, err := mcpbridge.HTTPTool(ctx, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mt.Close()
	caller := runtime.InterceptCaller(runtime.Local(mt), tel.ic)

	cctx, root := tel.tp.Tracer("test").Start(ctx, "agent turn")
	_, err = caller.CallFunction(cctx, "addPet", []byte(`{"name":"Rex"}`))
	root.End()
	if err != nil {
		t.Fatal(err)
	}
	both, restCall := tel.byName("tools/call addPet"), tel.byName("POST /pets")
	if len(both) != 2 || len(restCall) != 1 {
		t.Fatalf("spans %v", tel.spans.GetSpans())
	}
	server, client := both[:1], both[1:] // the server's ends first
	if server[0].SpanKind != trace.SpanKindServer || client[0].SpanKind != trace.SpanKindClient {
		t.Fatalf("kinds %s, %s", server[0].SpanKind, client[0].SpanKind)
	}
	if client[0].Parent.SpanID() != root.SpanContext().SpanID() ||
		server[0].Parent.SpanID() != client[0].SpanContext.SpanID() || !server[0].Parent.IsRemote() ||
		restCall[0].Parent.SpanID() != server[0].SpanContext.SpanID() ||
		restCall[0].SpanContext.TraceID() != root.SpanContext().TraceID() {
		t.Errorf("the chain root → MCP client → MCP server → REST is broken: %+v", tel.spans.GetSpans())
	}
	for _, s := range []tracetest.SpanStub{client[0], server[0]} {
		// MCP's conventions: mcp.method.name, gen_ai.tool.name, not RPC's.
		if attr(s, "opentool.front") != "mcp" || attr(s, "mcp.method.name") != "tools/call" ||
			attr(s, "gen_ai.tool.name") != "addPet" || attr(s, "gen_ai.operation.name") != "execute_tool" || attr(s, "rpc.method") != "" {
			t.Errorf("%s span attributes %v", s.SpanKind, s.Attributes)
		}
	}
	want := "mcp 00-" + root.SpanContext().TraceID().String() + "-" + client[0].SpanContext.SpanID().String() + "-01"
	if sawMeta != want {
		t.Errorf("the server's interceptor saw %q, want %q", sawMeta, want)
	}
}

// TestTraceWithoutMeterOrSampledSpan: without a meter provider (the no-op
// one, as the server command runs) the spans still carry the error's
// attributes; with a sampler that drops every span, the metrics still count
// the calls and their errors.
func TestTraceWithoutMeterOrSampledSpan(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	noMeter := otelbridge.Interceptor(otelbridge.WithTracerProvider(tp), otelbridge.WithMeterProvider(metricnoop.NewMeterProvider()))
	reader := sdkmetric.NewManualReader()
	unsampled := otelbridge.Interceptor(
		otelbridge.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.NeverSample()), sdktrace.WithSyncer(spans))),
		otelbridge.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	ctx := context.Background()
	for _, ic := range []intercept.Func{noMeter, unsampled} {
		tool := runtime.Intercept(errorTool{}, ic)
		if _, err := tool.Call(ctx, "fail", nil); err == nil {
			t.Fatal("fail: no error")
		}
		if _, err := tool.Call(ctx, "ok", nil); err != nil {
			t.Fatal(err)
		}
	}
	got := spans.GetSpans()
	if len(got) != 2 {
		t.Fatalf("%d spans, want the 2 of the interceptor without a meter", len(got))
	}
	if s := got[0]; s.Name != "fail" || s.Status.Code != codes.Error || attr(s, "error.type") != "418" || attr(s, "rpc.method") != "fail" {
		t.Errorf("failed call's span: %s %v %v", s.Name, s.Status, s.Attributes)
	}
	if s := got[1]; s.Name != "ok" || s.Status.Code == codes.Error || attr(s, "error.type") != "" || attr(s, "rpc.system.name") != "opentool" {
		t.Errorf("call's span: %s %v %v", s.Name, s.Status, s.Attributes)
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int64{}
	var durations uint64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					et, _ := p.Attributes.Value(attribute.Key("error.type"))
					counts[m.Name+" "+et.AsString()] += p.Value
				}
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					durations += p.Count
				}
			}
		}
	}
	if want := map[string]int64{"opentool.calls 418": 1, "opentool.calls ": 1, "opentool.errors 418": 1}; !maps.Equal(counts, want) || durations != 2 {
		t.Errorf("metrics of unsampled calls: counts %v, want %v; %d durations, want 2", counts, want, durations)
	}
}

// errorTool fails the function "fail" with code 418 and answers {} to the others.
type errorTool struct{}

func (errorTool) Call(_ context.Context, name string, _ json.RawMessage) (json.RawMessage, error) {
	if name == "fail" {
		return nil, &runtime.Error{Code: 418, Message: "teapot"}
	}
	return json.RawMessage(`{}`), nil
}

func (errorTool) Load(context.Context) (*document.OpenTool, error) { return nil, nil }

// plainErrorTool fails every call with a plain Go error.
type plainErrorTool struct{}

func (plainErrorTool) Call(context.Context, string, json.RawMessage) (json.RawMessage, error) {
	return nil, errors.New("disk full")
}

func (plainErrorTool) Load(context.Context) (*document.OpenTool, error) { return nil, nil }

// plainErrorCaller is a Caller of another package whose calls fail with a
// plain Go error.
type plainErrorCaller struct{ runtime.Caller }

func (plainErrorCaller) CallFunction(context.Context, string, json.RawMessage) (json.RawMessage, error) {
	return nil, errors.New("no route")
}

// TestErrorTypeIsTheWireCode: a tool's plain Go error is answered with
// code 500, and its spans say 500 (error.type and rpc.response.status_code),
// not the Go type *errors.errorString; a calling side's error without a
// code is error.type _OTHER, without a status code; one the client made of
// its own (a server that cannot be reached) has its class as error.type.
func TestErrorTypeIsTheWireCode(t *testing.T) {
	tel := newTelemetry(t)
	srv := httptest.NewServer(runtime.NewHandler(plainErrorTool{}, runtime.WithInterceptors(tel.ic)))
	defer srv.Close()
	_, err := runtime.InterceptCaller(runtime.NewClient(srv.URL+"/opentool"), tel.ic).CallFunction(context.Background(), "save", nil)
	var e *runtime.Error
	if !errors.As(err, &e) || e.Code != 500 {
		t.Fatalf("save: %v, want code 500 on the wire", err)
	}
	_, err = runtime.InterceptCaller(plainErrorCaller{}, tel.ic).CallFunction(context.Background(), "route", nil)
	if err == nil {
		t.Fatal("route: no error")
	}
	spans := tel.byName("save")
	if len(spans) != 2 {
		t.Fatalf("%d save spans, want 2", len(spans))
	}
	for _, s := range spans {
		if attr(s, "error.type") != "500" || attr(s, "rpc.response.status_code") != "500" || s.Status.Description != "code 500: tool error (Internal Server Error)" {
			t.Errorf("%s span: error.type %q, rpc.response.status_code %q, status %q", s.SpanKind, attr(s, "error.type"), attr(s, "rpc.response.status_code"), s.Status.Description)
		}
	}
	_, err = runtime.InterceptCaller(runtime.NewClient(closedURL(t)+"/opentool"), tel.ic).CallFunction(context.Background(), "unreachable", nil)
	if !errors.Is(err, runtime.ErrNoAccess) {
		t.Fatalf("unreachable: %v, want ErrNoAccess", err)
	}
	if s := tel.byName("unreachable"); len(s) != 1 || attr(s[0], "error.type") != "noAccess" || attr(s[0], "rpc.response.status_code") != "404" ||
		s[0].Status.Description != "code 404: noAccess (the server cannot be reached)" {
		t.Errorf("unreachable span %+v", s)
	}
	route := tel.byName("route")
	if len(route) != 1 || attr(route[0], "error.type") != "_OTHER" || attr(route[0], "rpc.response.status_code") != "" || route[0].Status.Description != "call failed" {
		t.Errorf("route span %+v", route)
	}
}

// TestTraceOverMCPHeader: a tools/call over streamable HTTP whose _meta has
// no traceparent continues the trace of the HTTP request's traceparent
// header, as an HTTP client instrumented with OpenTelemetry sends it; with
// both, _meta's wins.
func TestTraceOverMCPHeader(t *testing.T) {
	tel := newTelemetry(t)
	tool, err := petgateway.NewTool(markerService{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := mcpbridge.NewHTTPHandler(context.Background(), tool, nil, true, mcpbridge.WithInterceptors(tel.ic))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	srv := httptest.NewServer(h)
	defer srv.Close()
	const (
		header = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
		inMeta = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	)
	call := func(meta string) {
		t.Helper()
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"listPets","arguments":{}` + meta + `}}`
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("traceparent", header)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(answer), `"result"`) {
			t.Fatalf("tools/call: %d %s", resp.StatusCode, answer)
		}
	}
	call("")
	call(`,"_meta":{"traceparent":"` + inMeta + `"}`)
	spans := tel.byName("tools/call listPets")
	if len(spans) != 2 {
		t.Fatalf("%d spans, want 2", len(spans))
	}
	for i, want := range []string{header, inMeta} {
		s := spans[i]
		got := "00-" + s.SpanContext.TraceID().String() + "-" + s.Parent.SpanID().String() + "-01"
		if got != want || !s.Parent.IsRemote() {
			t.Errorf("call %d: the server span's trace and parent are %s (remote %v), want %s", i, got, s.Parent.IsRemote(), want)
		}
	}
}
