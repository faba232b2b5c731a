package toolcli_test

import (
	"bytes"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/opentoolgen/opentoolgen/internal/testtool"
	"github.com/opentoolgen/opentoolgen/runtime"
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
// span of each call over OTLP/HTTP, in the trace of the traceparent the
// caller sent, with the command's name as service.name; the last spans are
// flushed when the command stops.
func TestTelemetryOTLP(t *testing.T) {
	recv := &otlpReceiver{}
	srv := httptest.NewServer(recv)
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	t.Cleanup(func() { runtime.SetPropagator(nil) }) // start set it for the process
	r := testtool.Start(t, mockCommand(newStore()))
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

// TestTelemetryOff: without the variable, nothing is said or set up: no
// OpenTelemetry log line, and a traceparent sent is not read (the
// propagator stays unset, so that a call's context is the request's own).
func TestTelemetryOff(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	r := testtool.Start(t, mockCommand(newStore()))
	if status := get(t, r.Base+"/opentool/version", ""); status != http.StatusOK {
		t.Fatalf("GET /opentool/version: %d", status)
	}
	if logs := r.Logs.String(); strings.Contains(logs, "OpenTelemetry") {
		t.Errorf("OpenTelemetry was set up without OTEL_EXPORTER_OTLP_ENDPOINT:\n%s", logs)
	}
}
