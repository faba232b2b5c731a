package otelbridge_test

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/otelbridge/internal/petgateway"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// TestFrontConventions: the spans of one call over each front carry that
// front's semantic conventions, the server's span and the caller's: NATS's
// messaging attributes (messaging.system nats, the operation type process
// or send, the subject as messaging.destination.name), OpenTool HTTP's
// JSON-RPC request id, and over a stateful MCP session its name
// ("tools/call NAME"), mcp.method.name, gen_ai.tool.name and mcp.session.id.
func TestFrontConventions(t *testing.T) {
	ctx := t.Context()
	tool, err := petgateway.NewTool(markerService{})
	if err != nil {
		t.Fatal(err)
	}
	args := json.RawMessage(`{"petId":7}`)
	// spansOf returns the spans call made, server's and client's.
	spansOf := func(t *testing.T, call func(tel *telemetry)) (server, client []tracetest.SpanStub) {
		tel := newTelemetry(t)
		call(tel)
		for _, s := range tel.spans.GetSpans() {
			switch s.SpanKind {
			case trace.SpanKindServer, trace.SpanKindConsumer:
				server = append(server, s)
			case trace.SpanKindClient, trace.SpanKindProducer:
				client = append(client, s)
			}
		}
		if len(server) != 1 || len(client) != 1 {
			t.Fatalf("got %d server and %d client spans, want one each: %+v", len(server), len(client), tel.spans.GetSpans())
		}
		return server, client
	}
	want := func(t *testing.T, side string, s tracetest.SpanStub, key, value string) {
		t.Helper()
		if got := attr(s, key); got != value {
			t.Errorf("%s span %q: %s = %q, want %q", side, s.Name, key, got, value)
		}
	}

	t.Run("nats", func(t *testing.T) {
		ns, err := natsbridge.StartEmbedded(0)
		if err != nil {
			t.Fatal(err)
		}
		defer ns.Shutdown()
		nc, err := nats.Connect(ns.ClientURL())
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		server, client := spansOf(t, func(tel *telemetry) {
			svc, err := natsbridge.NewService(ctx, nc, runtime.Intercept(tool, tel.ic), natsbridge.WithPrefix("semconv"))
			if err != nil {
				t.Fatal(err)
			}
			defer svc.Shutdown(ctx)
			caller := runtime.InterceptCaller(natsbridge.NewCaller(nc, "semconv"), tel.ic)
			if _, err := caller.CallFunction(ctx, "getPet", args); err == nil {
				t.Fatal("getPet of the marker service: want its error")
			}
		})
		for side, s := range map[string]tracetest.SpanStub{"server": server[0], "client": client[0]} {
			want(t, side, s, "messaging.system", "nats")
			if d := attr(s, "messaging.destination.name"); !strings.HasPrefix(d, "semconv") || !strings.Contains(d, "getPet") {
				t.Errorf("%s span: messaging.destination.name = %q, want the subject of getPet under semconv", side, d)
			}
		}
		want(t, "server", server[0], "messaging.operation.type", "process")
		want(t, "client", client[0], "messaging.operation.type", "send")
	})

	t.Run("opentool", func(t *testing.T) {
		server, _ := spansOf(t, func(tel *telemetry) {
			srv := httptest.NewServer(runtime.NewHandler(tool, runtime.WithInterceptors(tel.ic)))
			defer srv.Close()
			caller := runtime.InterceptCaller(runtime.NewClient(srv.URL+runtime.DefaultPrefix), tel.ic)
			caller.CallFunction(ctx, "getPet", args)
		})
		if attr(server[0], "jsonrpc.request.id") == "" {
			t.Errorf("server span %q has no jsonrpc.request.id: %v", server[0].Name, server[0].Attributes)
		}
	})

	t.Run("mcp", func(t *testing.T) {
		server, _ := spansOf(t, func(tel *telemetry) {
			mcpHTTPCaller(t, tool, false, tel.ic).CallFunction(ctx, "getPet", args)
		})
		s := server[0]
		if s.Name != "tools/call getPet" {
			t.Errorf("server span named %q, want %q", s.Name, "tools/call getPet")
		}
		want(t, "server", s, "mcp.method.name", "tools/call")
		want(t, "server", s, "gen_ai.tool.name", "getPet")
		if attr(s, "mcp.session.id") == "" {
			t.Errorf("server span of a stateful session has no mcp.session.id: %v", s.Attributes)
		}
	})
}

// mcpHTTPCaller serves tool over MCP streamable HTTP (stateless or not)
// with the server-side interceptors ics, and returns a Caller of it through
// mcpbridge.HTTPTool with tel's interceptor on the calling side (the first
// of ics); all is closed when t ends.
func mcpHTTPCaller(t *testing.T, tool runtime.Tool, stateless bool, ics ...intercept.Func) runtime.Caller {
	t.Helper()
	h, err := mcpbridge.NewHTTPHandler(t.Context(), tool, nil, stateless, mcpbridge.WithInterceptors(ics...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	mt, err := mcpbridge.HTTPTool(t.Context(), srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mt.Close() })
	return runtime.InterceptCaller(runtime.Local(mt), ics[0])
}
