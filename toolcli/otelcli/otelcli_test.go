package otelcli_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/opentoolgen/opentoolgen/examples/mocktool/mocktool"
	"github.com/opentoolgen/opentoolgen/examples/petstore/fakeapi"
	"github.com/opentoolgen/opentoolgen/examples/petstore/petstoreclient"
	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
	"github.com/opentoolgen/opentoolgen/runtime/toolopt"
	"github.com/opentoolgen/opentoolgen/toolcli"
	"github.com/opentoolgen/opentoolgen/toolcli/otelcli"
)

// otlpReceiver records the bodies of the OTLP trace exports it receives.
type otlpReceiver struct {
	mu     sync.Mutex
	bodies [][]byte
	types  []string
}

func (o *otlpReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	o.mu.Lock()
	if r.URL.Path == "/v1/traces" {
		o.bodies = append(o.bodies, body)
		o.types = append(o.types, r.Header.Get("Content-Type"))
	}
	o.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.WriteHeader(http.StatusOK)
}

// TestTelemetryOTLP: with OTEL_EXPORTER_OTLP_ENDPOINT set, start exports a
// span of each call over OTLP/HTTP (the default protocol), in the trace of the traceparent the
// caller sent, with the command's name as service.name; the last spans are
// flushed when the command stops.
func TestTelemetryOTLP(t *testing.T) {
	recv := &otlpReceiver{}
	srv := httptest.NewServer(recv)
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	t.Cleanup(func() { intercept.SetPropagator(nil) }) // start set it for the process
	r := testtool.Start(t, mockCommand())
	traceID := "4bf92f3577b34da6a3ce929d0e0e4736"
	req, _ := http.NewRequest(http.MethodPost, r.Base+"/opentool/call",
		strings.NewReader(`{"jsonrpc":"2.0","method":"create","params":{"text":"a"},"id":1}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	r.Stop()
	if code := r.Wait(t); code != 0 {
		t.Fatalf("exit %d:\n%s", code, r.Logs)
	}
	recv.mu.Lock()
	defer recv.mu.Unlock()
	if len(recv.bodies) == 0 {
		t.Fatalf("no OTLP export arrived:\n%s", r.Logs)
	}
	all := bytes.Join(recv.bodies, nil)
	tid, _ := hex.DecodeString(traceID)
	for what, b := range map[string][]byte{"the caller's trace id": tid, "the span's name": []byte("create"),
		"service.name": []byte("mock_util_tool"), "rpc.method": []byte("rpc.method")} {
		if !bytes.Contains(all, b) {
			t.Errorf("the export holds no %s", what)
		}
	}
	if recv.types[0] != "application/x-protobuf" {
		t.Errorf("Content-Type %q", recv.types[0])
	}
	if !strings.Contains(r.Logs.String(), "exporting traces with OTLP") {
		t.Errorf("the logs do not say that traces are exported:\n%s", r.Logs)
	}
}

// spans decodes the spans of the OTLP exports recv received.
func (o *otlpReceiver) spans(t *testing.T) []*tracepb.Span {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []*tracepb.Span
	for _, b := range o.bodies {
		var req collpb.ExportTraceServiceRequest
		if err := proto.Unmarshal(b, &req); err != nil {
			t.Fatalf("an OTLP export does not decode: %v", err)
		}
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				out = append(out, ss.Spans...)
			}
		}
	}
	return out
}

func spanAttr(s *tracepb.Span, key string) string {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			if v, ok := kv.Value.Value.(*commonpb.AnyValue_StringValue); ok {
				return v.StringValue
			}
			if v, ok := kv.Value.Value.(*commonpb.AnyValue_IntValue); ok {
				return strconv.FormatInt(v.IntValue, 10)
			}
		}
	}
	return ""
}

// traceparents passes requests on to h and records the traceparent header
// of each.
type traceparents struct {
	h  http.Handler
	mu sync.Mutex
	tp []string
}

func (r *traceparents) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.tp = append(r.tp, req.Header.Get("traceparent"))
	r.mu.Unlock()
	r.h.ServeHTTP(w, req)
}

func (r *traceparents) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.tp)
}

// tracedCommand runs c with OTEL_EXPORTER_OTLP_ENDPOINT at an OTLP
// receiver, makes the calls of do to its base URL, stops it and returns the
// spans it exported.
func tracedCommand(t *testing.T, c *toolcli.Command, do func(base string)) (*otlpReceiver, []*tracepb.Span) {
	t.Helper()
	recv := &otlpReceiver{}
	srv := httptest.NewServer(recv)
	t.Cleanup(srv.Close)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	t.Cleanup(func() { intercept.SetPropagator(nil) })
	r := testtool.Start(t, c)
	do(r.Base)
	r.Stop()
	if code := r.Wait(t); code != 0 {
		t.Fatalf("exit %d:\n%s", code, r.Logs)
	}
	return recv, recv.spans(t)
}

// callTool POSTs a call of function with args to /opentool/call, with the
// traceparent header tp, and returns the answer's body.
func callTool(t *testing.T, base, function, args, tp string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/opentool/call",
		strings.NewReader(`{"jsonrpc":"2.0","method":"`+function+`","params":`+args+`,"id":1}`))
	req.Header.Set("Content-Type", "application/json")
	if tp != "" {
		req.Header.Set("traceparent", tp)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return string(body)
}

const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"

// TestTelemetryGateway: a generated-style gateway's calls of its upstream
// are traced: the Server span of the call it serves is the parent of a
// Client span of the upstream call (a REST span with http.* attributes for
// an OpenAPI document's REST API, an RPC span for an OpenTool upstream), in
// the caller's trace, and the upstream receives the traceparent of that
// Client span.
func TestTelemetryGateway(t *testing.T) {
	check := func(t *testing.T, spans []*tracepb.Span, function, clientName string, upstream []string) *tracepb.Span {
		t.Helper()
		var server, client *tracepb.Span
		for _, s := range spans {
			switch {
			case s.Name == function && s.Kind == tracepb.Span_SPAN_KIND_SERVER:
				server = s
			case s.Name == clientName && s.Kind == tracepb.Span_SPAN_KIND_CLIENT:
				client = s
			}
		}
		if server == nil || client == nil {
			for _, s := range spans {
				t.Logf("span %s %s", s.Name, s.Kind)
			}
			t.Fatalf("no Server span %s or no Client span %s", function, clientName)
		}
		if hex.EncodeToString(server.TraceId) != callerTrace || !bytes.Equal(client.TraceId, server.TraceId) {
			t.Errorf("traces %x, %x: want the caller's, %s", server.TraceId, client.TraceId, callerTrace)
		}
		if !bytes.Equal(client.ParentSpanId, server.SpanId) {
			t.Errorf("the Client span's parent is %x, want the Server span %x", client.ParentSpanId, server.SpanId)
		}
		want := "00-" + callerTrace + "-" + hex.EncodeToString(client.SpanId) + "-01"
		if len(upstream) != 1 || upstream[0] != want {
			t.Errorf("the upstream received traceparent %q, want %q (the Client span's)", upstream, want)
		}
		return client
	}
	t.Run("openapi", func(t *testing.T) {
		api := &traceparents{h: (&fakeapi.API{Key: "secret"}).Handler()}
		apiSrv := httptest.NewServer(api)
		defer apiSrv.Close()
		c := &toolcli.Command{
			Name: "petstore", Document: petstoreclient.Document(), Telemetry: otelcli.Telemetry,
			NewTool: func(_ context.Context, opts ...toolopt.Option) (runtime.Tool, error) {
				c, err := petstoreclient.NewClient(apiSrv.URL+"/v1", petstoreclient.WithAPIKey("secret"))
				if err != nil {
					return nil, err
				}
				return petstoreclient.NewTool(c, opts...)
			},
		}
		_, spans := tracedCommand(t, c, func(base string) {
			if got := callTool(t, base, "addPet", `{"name":"Rex"}`, "00-"+callerTrace+"-00f067aa0ba902b7-01"); !strings.Contains(got, `"Rex"`) {
				t.Fatalf("addPet: %s", got)
			}
		})
		client := check(t, spans, "addPet", "POST /pets", api.all())
		if spanAttr(client, "http.request.method") != "POST" || spanAttr(client, "url.template") != "/pets" ||
			spanAttr(client, "http.response.status_code") != "201" || !strings.HasSuffix(spanAttr(client, "url.full"), "/v1/pets") {
			t.Errorf("REST span attributes %v", client.Attributes)
		}
	})
	t.Run("opentool", func(t *testing.T) {
		up, err := mocktool.NewTool(testtool.NewStore())
		if err != nil {
			t.Fatal(err)
		}
		upstream := &traceparents{h: runtime.NewHandler(up)}
		upSrv := httptest.NewServer(upstream)
		defer upSrv.Close()
		c := &toolcli.Command{
			Name: "mock_gateway", Document: mocktool.Document(), Telemetry: otelcli.Telemetry,
			NewTool: func(_ context.Context, opts ...toolopt.Option) (runtime.Tool, error) {
				return mocktool.NewTool(mocktool.NewClient(runtime.NewClient(upSrv.URL+"/opentool")), opts...)
			},
		}
		_, spans := tracedCommand(t, c, func(base string) {
			if got := callTool(t, base, "create", `{"text":"a"}`, "00-"+callerTrace+"-00f067aa0ba902b7-01"); !strings.Contains(got, `"result"`) {
				t.Fatalf("create: %s", got)
			}
		})
		client := check(t, spans, "create", "create", upstream.all())
		if spanAttr(client, "rpc.method") != "create" || spanAttr(client, "opentool.front") != "opentool" {
			t.Errorf("Client span attributes %v", client.Attributes)
		}
	})
	t.Run("mcp", func(t *testing.T) {
		up, err := mocktool.NewTool(testtool.NewStore())
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var metas []string // the _meta.traceparent of each call the upstream serves
		peek := func(ctx context.Context, call *intercept.Call, next func(context.Context) error) error {
			mu.Lock()
			metas = append(metas, call.Meta.Get("traceparent"))
			mu.Unlock()
			return next(ctx)
		}
		h, err := mcpbridge.NewHTTPHandler(context.Background(), up, nil, true, mcpbridge.WithInterceptors(peek))
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		upSrv := httptest.NewServer(h)
		defer upSrv.Close()
		c := &toolcli.Command{
			Name: "mock_gateway", Document: mocktool.Document(), Telemetry: otelcli.Telemetry,
			NewTool: func(ctx context.Context, opts ...toolopt.Option) (runtime.Tool, error) {
				return toolcli.MCPGateway(ctx, "", upSrv.URL, func(c runtime.Caller) (runtime.Tool, error) {
					// An MCP gateway's tool does not stream (an MCP listing has no streams).
					return mocktool.NewTool(mocktool.NewClient(c), append(opts, toolopt.WithFunctions("create"))...)
				})
			},
		}
		_, spans := tracedCommand(t, c, func(base string) {
			if got := callTool(t, base, "create", `{"text":"a"}`, "00-"+callerTrace+"-00f067aa0ba902b7-01"); !strings.Contains(got, `"result"`) {
				t.Fatalf("create: %s", got)
			}
		})
		mu.Lock()
		defer mu.Unlock()
		client := check(t, spans, "create", "tools/call create", metas)
		if spanAttr(client, "opentool.front") != "mcp" || spanAttr(client, "gen_ai.tool.name") != "create" || spanAttr(client, "mcp.method.name") != "tools/call" {
			t.Errorf("Client span attributes %v", client.Attributes)
		}
	})
}

// marker stands for a secret in arguments, results and API answers.
const marker = "sk-live-MARKER"

// TestTelemetryRecordsNoValues: the command's exporter sends no argument value, result or REST body: the marker,
// in arguments that fail validation, in a REST API's result and error
// bodies, over /opentool and /mcp, is in none of the OTLP bytes it
// exported, while the spans of those calls are.
func TestTelemetryRecordsNoValues(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/pets", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `[{"id":1,"name":"`+marker+`","status":"available"}]`)
	})
	mux.HandleFunc("POST /v1/pets", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		io.WriteString(w, `{"message":"the name `+marker+` is taken"}`)
	})
	mux.HandleFunc("GET /v1/pets/{id}", func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, "database "+marker+" down")
	})
	api := httptest.NewServer(mux)
	defer api.Close()
	c := &toolcli.Command{
		Name: "petstore", Document: petstoreclient.Document(), Telemetry: otelcli.Telemetry,
		NewTool: func(_ context.Context, opts ...toolopt.Option) (runtime.Tool, error) {
			c, err := petstoreclient.NewClient(api.URL + "/v1")
			if err != nil {
				return nil, err
			}
			return petstoreclient.NewTool(c, opts...)
		},
	}
	calls := [][2]string{
		{"listPets", `{"status":"` + marker + `"}`},
		{"listPets", `{}`},
		{"addPet", `{"name":"` + marker + `"}`},
		{"getPet", `{"petId":7}`},
	}
	recv, spans := tracedCommand(t, c, func(base string) {
		carried := 0
		for _, call := range calls {
			if strings.Contains(callTool(t, base, call[0], call[1], ""), marker) {
				carried++
			}
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + call[0] + `","arguments":` + call[1] + `}}`
			req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			answer, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.Contains(string(answer), marker) {
				carried++
			}
		}
		if carried < 4 {
			t.Errorf("the marker came back in %d answers only: the calls did not carry it", carried)
		}
	})
	if len(spans) < 2*len(calls) {
		t.Fatalf("%d spans exported, want the %d calls' and their REST requests'", len(spans), 2*len(calls))
	}
	recv.mu.Lock()
	defer recv.mu.Unlock()
	for _, b := range recv.bodies {
		if i := bytes.Index(b, []byte(marker)); i >= 0 {
			t.Errorf("an OTLP export holds the marker: …%q…", b[max(0, i-80):min(len(b), i+40)])
		}
	}
}

// mockCommand is the command of the mock tool, with telemetry.
func mockCommand() *toolcli.Command {
	s := testtool.NewStore()
	s.Blocking = true
	return &toolcli.Command{
		Name:      "mock_util_tool",
		Document:  mocktool.Document(),
		Telemetry: otelcli.Telemetry,
		NewTool: func(_ context.Context, opts ...toolopt.Option) (runtime.Tool, error) {
			return mocktool.NewTool(s, opts...)
		},
	}
}
