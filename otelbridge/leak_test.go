package otelbridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nats-io/nats.go"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/opentoolgen/opentoolgen/examples/petstore/petstoreclient"
	"github.com/opentoolgen/opentoolgen/mcpbridge"
	"github.com/opentoolgen/opentoolgen/natsbridge"
	"github.com/opentoolgen/opentoolgen/natsexec"
	"github.com/opentoolgen/opentoolgen/otelbridge/internal/petgateway"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
	"github.com/opentoolgen/opentoolgen/runtime/rest"
)

// marker stands for a secret a caller passes or a tool or an API answers.
const marker = "sk-live-MARKER"

// markerService is the petstore's Service answering the marker everywhere:
// a result that holds it, a plain Go error whose text holds it, a
// *runtime.Error whose message and data hold it.
type markerService struct{}

func (markerService) ListPets(context.Context, petgateway.ListPetsArgs) ([]petgateway.Pet, error) {
	return []petgateway.Pet{{ID: 1, Name: marker, Status: petgateway.PetStatusAvailable}}, nil
}

func (markerService) AddPet(_ context.Context, args petgateway.AddPetArgs) (petgateway.Pet, error) {
	return petgateway.Pet{}, errors.New("the name " + args.Name + " is taken")
}

func (markerService) GetPet(context.Context, petgateway.GetPetArgs) (petgateway.Pet, error) {
	return petgateway.Pet{}, &runtime.Error{Code: 409, Message: "pet " + marker, Data: json.RawMessage(`{"key":"` + marker + `"}`)}
}

// markerAPI is a REST API of the petstore's document that answers the
// marker: in the list of pets, in the body of a 422 to POST /pets and in
// the text/plain body of a 500 to GET /pets/{id}.
func markerAPI() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/pets", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `[{"id":1,"name":%q,"status":"available"}]`, marker)
	})
	mux.HandleFunc("POST /v1/pets", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		fmt.Fprintf(w, `{"message":"the name %s is taken"}`, marker)
	})
	mux.HandleFunc("GET /v1/pets/{id}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintf(w, "database %s down", marker)
	})
	return mux
}

// closedURL is the URL of a port nothing listens on.
func closedURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// leakCalls are the calls each tool gets on each front: arguments that
// fail validation with the marker in the violation's message, then calls
// whose results, errors or upstream answers hold the marker.
var leakCalls = []struct{ function, args string }{
	{"listPets", `{"status":"` + marker + `"}`}, // -32602, `got "sk-live-MARKER", want one of …`
	{"listPets", `{"limit":1000,"status":"` + marker + `"}`},
	{"listPets", `{}`},                      // a result with the marker
	{"addPet", `{"name":"` + marker + `"}`}, // a plain Go error; a 422 with the marker in its body
	{"getPet", `{"petId":7}`},               // a *runtime.Error; a 500 with the marker as text
	{"addPet", `{"name":"` + marker + `"`},  // not JSON (-32602 or -32700 on some fronts)
	{"addPet", `{"name":"` + marker + `","x":` + `"` + marker + `"}`},
}

// TestNoArgumentsResultsOrBodiesRecorded: the marker, sent as arguments
// and answered in results, tool errors and REST bodies (and a REST upstream
// that cannot be reached), through every front — in process, OpenTool HTTP,
// MCP streamable HTTP, MCP over a connection as stdio has it, NATS
// (natsbridge) and the NATS executor (natsexec) — with the interceptor on
// both sides and on the REST client, appears in no exported span (name,
// attributes, status, events, links, resource) and no metric attribute,
// while the calls did carry it (the callers' errors and results hold it).
func TestNoArgumentsResultsOrBodiesRecorded(t *testing.T) {
	tel := newTelemetry(t)
	ctx := t.Context()
	api := httptest.NewServer(markerAPI())
	defer api.Close()
	withIC := func(c *rest.Client) { c.Interceptors = append(c.Interceptors, tel.ic) }
	gw, err := petgateway.NewTool(markerService{})
	if err != nil {
		t.Fatal(err)
	}
	restClient, err := petstoreclient.NewClient(api.URL+"/v1", withIC)
	if err != nil {
		t.Fatal(err)
	}
	restTool, err := petstoreclient.NewTool(restClient)
	if err != nil {
		t.Fatal(err)
	}
	downClient, err := petstoreclient.NewClient(closedURL(t)+"/v1", withIC)
	if err != nil {
		t.Fatal(err)
	}
	downTool, err := petstoreclient.NewTool(downClient)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]runtime.Tool{"service": gw, "rest": restTool, "down": downTool}

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

	// fronts make a Caller of a tool served on a front, interceptors on
	// both sides.
	fronts := map[string]func(t *testing.T, name string, tool runtime.Tool) runtime.Caller{
		"local": func(t *testing.T, _ string, tool runtime.Tool) runtime.Caller {
			return runtime.InterceptCaller(runtime.Local(runtime.Intercept(tool, tel.ic)), tel.ic)
		},
		"opentool": func(t *testing.T, _ string, tool runtime.Tool) runtime.Caller {
			srv := httptest.NewServer(runtime.NewHandler(tool, runtime.WithInterceptors(tel.ic)))
			t.Cleanup(srv.Close)
			return runtime.InterceptCaller(runtime.NewClient(srv.URL+"/opentool"), tel.ic)
		},
		"mcp-http": func(t *testing.T, _ string, tool runtime.Tool) runtime.Caller {
			return mcpHTTPCaller(t, tool, true, tel.ic)
		},
		"mcp-conn": func(t *testing.T, _ string, tool runtime.Tool) runtime.Caller {
			server, err := mcpbridge.NewServer(ctx, tool, &mcp.Implementation{Name: "pets", Version: "1"}, mcpbridge.WithInterceptors(tel.ic))
			if err != nil {
				t.Fatal(err)
			}
			st, ct := mcp.NewInMemoryTransports()
			ss, err := server.Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ss.Close() })
			cs, err := mcpbridge.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			mt, err := mcpbridge.NewTool(ctx, cs)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { mt.Close() })
			return runtime.InterceptCaller(runtime.Local(mt), tel.ic)
		},
		"nats": func(t *testing.T, name string, tool runtime.Tool) runtime.Caller {
			svc, err := natsbridge.NewService(ctx, nc, runtime.Intercept(tool, tel.ic), natsbridge.WithPrefix("leak_"+name))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { svc.Shutdown(context.Background()) })
			return runtime.InterceptCaller(natsbridge.NewCaller(nc, "leak_"+name), tel.ic)
		},
		"natsexec": func(t *testing.T, name string, tool runtime.Tool) runtime.Caller {
			return execCaller(t, nc, name, tool, tel)
		},
	}
	for front, serve := range fronts {
		for name, tool := range tools {
			caller := serve(t, name, tool)
			carried := 0
			for _, c := range leakCalls {
				result, err := caller.CallFunction(ctx, c.function, json.RawMessage(c.args))
				if strings.Contains(string(result), marker) || err != nil && strings.Contains(err.Error(), marker) {
					carried++
				}
			}
			if carried < 2 {
				t.Errorf("%s, %s: the marker came back in %d outcomes only: the calls did not carry it", front, name, carried)
			}
		}
	}
	// A REST operation whose path parameter is the marker, answered, and
	// refused by a port that does not listen.
	for _, base := range []string{api.URL, closedURL(t)} {
		rc := &rest.Client{BaseURL: base, Interceptors: []intercept.Func{tel.ic}}
		r := rc.NewRequest(http.MethodGet, "/keys/{key}")
		r.Path("key", marker)
		r.Send(ctx) //nolint:errcheck // a 404, then a refused connection: what the spans say is checked below
	}

	spans := tel.spans.GetSpans()
	if len(spans) < len(fronts)*len(tools)*len(leakCalls) {
		t.Fatalf("%d spans: the calls were not traced", len(spans))
	}
	for _, s := range spans {
		if where := spanLeak(s); where != "" {
			t.Errorf("span %s (%s) holds the marker in %s", s.Name, s.SpanKind, where)
		}
	}
	var rm metricdata.ResourceMetrics
	if err := tel.reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	points := 0
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			for _, set := range pointAttributes(m.Data) {
				points++
				if where := setLeak(set); where != "" {
					t.Errorf("metric %s: attribute %s holds the marker", m.Name, where)
				}
			}
		}
	}
	if points == 0 {
		t.Error("no metric was recorded")
	}

	// What the spans say instead: the code and its class, the paths of
	// the violations.
	want := map[string]bool{
		"code -32602: invalid params at /status":         false,
		"code -32602: invalid params at /limit, /status": false,
		"code 500: tool error (Internal Server Error)":   false, // the plain Go error, and the REST 500
		"code 409: tool error (Conflict)":                false,
		"code 422: tool error (Unprocessable Entity)":    false,
		"request failed: *net.OpError":                   false,
	}
	for _, s := range spans {
		if _, ok := want[s.Status.Description]; ok {
			want[s.Status.Description] = true
		}
	}
	for d, seen := range want {
		if !seen {
			t.Errorf("no span's status says %q", d)
		}
	}
}

// execCaller serves tool with natsexec's executor on nc and returns a
// Caller that sends each call as a command (its arguments in a tool.call
// card) and answers when the report arrives: the tool.result card's
// result or error.
func execCaller(t *testing.T, nc *nats.Conn, name string, tool runtime.Tool, tel *telemetry) runtime.Caller {
	cards := natsexec.NewMemoryCardStore()
	reports := &natsexec.MemoryReporter{C: make(chan *natsexec.Report, 1)}
	ex, err := natsexec.New(nc, tool, cards, reports, natsexec.Options{
		Subject: "cg." + name + ".{project_id}.{channel_id}.cmd.tool.{function}", Interceptors: []intercept.Func{tel.ic},
		Queue: "leak_" + name,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ex.Close(context.Background()) })
	return &commandCaller{t: t, nc: nc, subject: "cg." + name + ".proj.public.cmd.tool.", cards: cards, reports: reports}
}

type commandCaller struct {
	t       *testing.T
	nc      *nats.Conn
	subject string
	cards   *natsexec.MemoryCardStore
	reports *natsexec.MemoryReporter
	n       int
}

func (c *commandCaller) CallFunction(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	c.n++
	id := fmt.Sprintf("call-%d", c.n)
	content := json.RawMessage(`{"arguments":` + string(args) + `}`)
	if !json.Valid(content) {
		content = json.RawMessage(`{"arguments":` + string(json.RawMessage(mustQuote(string(args)))) + `}`)
	}
	if err := c.cards.Save(ctx, &natsexec.Card{CardID: id, ProjectID: "proj", Type: natsexec.TypeToolCall, Content: content}); err != nil {
		return nil, err
	}
	cmd := fmt.Sprintf(`{"tool_call_id":"tc-%d","agent_turn_id":"turn","turn_epoch":1,"agent_id":"agent","tool_call_card_id":%q,"tool_name":%q,"after_execution":"suspend"}`, c.n, id, name)
	if err := c.nc.Publish(c.subject+name, []byte(cmd)); err != nil {
		return nil, err
	}
	var report *natsexec.Report
	select {
	case report = <-c.reports.C:
	case <-time.After(waitLong):
		c.t.Fatalf("%s: no report", name)
	}
	var p natsexec.ReportPayload
	if err := json.Unmarshal(report.Payload, &p); err != nil {
		return nil, err
	}
	card, err := c.cards.Get(ctx, "proj", p.ToolResultCardID)
	if err != nil {
		return nil, fmt.Errorf("%s: %s (no result card: %v)", name, p.Status, err)
	}
	var rc natsexec.ToolResultContent
	if err := json.Unmarshal(card.Content, &rc); err != nil {
		return nil, err
	}
	if p.Status != "success" {
		return nil, fmt.Errorf("%s: %s: %s", name, p.Status, card.Content)
	}
	return rc.Result, nil
}

func (c *commandCaller) StreamFunction(context.Context, string, json.RawMessage) iter.Seq2[json.RawMessage, error] {
	return func(func(json.RawMessage, error) bool) {}
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

const waitLong = 30 * time.Second

// spanLeak names the part of s that holds the marker, "" when none does.
func spanLeak(s tracetest.SpanStub) string {
	if strings.Contains(s.Name, marker) {
		return "its name"
	}
	if where := kvLeak(s.Attributes); where != "" {
		return "attribute " + where
	}
	if strings.Contains(s.Status.Description, marker) {
		return "its status: " + s.Status.Description
	}
	for _, e := range s.Events {
		if strings.Contains(e.Name, marker) {
			return "event " + e.Name
		}
		if where := kvLeak(e.Attributes); where != "" {
			return "event " + e.Name + "'s attribute " + where
		}
	}
	for _, l := range s.Links {
		if where := kvLeak(l.Attributes); where != "" {
			return "a link's attribute " + where
		}
	}
	if s.Resource != nil {
		if where := kvLeak(s.Resource.Attributes()); where != "" {
			return "the resource's attribute " + where
		}
	}
	return ""
}

func kvLeak(kvs []attribute.KeyValue) string {
	for _, kv := range kvs {
		if v := kv.Value.String(); strings.Contains(string(kv.Key), marker) || strings.Contains(v, marker) {
			return string(kv.Key) + " = " + v
		}
	}
	return ""
}

func setLeak(set attribute.Set) string { return kvLeak(set.ToSlice()) }

// pointAttributes returns the attribute sets of the data points of data.
func pointAttributes(data metricdata.Aggregation) []attribute.Set {
	var sets []attribute.Set
	switch d := data.(type) {
	case metricdata.Sum[int64]:
		for _, p := range d.DataPoints {
			sets = append(sets, p.Attributes)
		}
	case metricdata.Sum[float64]:
		for _, p := range d.DataPoints {
			sets = append(sets, p.Attributes)
		}
	case metricdata.Histogram[float64]:
		for _, p := range d.DataPoints {
			sets = append(sets, p.Attributes)
		}
	case metricdata.Histogram[int64]:
		for _, p := range d.DataPoints {
			sets = append(sets, p.Attributes)
		}
	case metricdata.Gauge[int64]:
		for _, p := range d.DataPoints {
			sets = append(sets, p.Attributes)
		}
	case metricdata.Gauge[float64]:
		for _, p := range d.DataPoints {
			sets = append(sets, p.Attributes)
		}
	}
	return sets
}
