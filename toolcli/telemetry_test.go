package toolcli_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/internal/testtool"
)

// TestTelemetryOff: without OTEL_* variables, nothing is said or set up: no
// OpenTelemetry log line.
func TestTelemetryOff(t *testing.T) {
	for _, v := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER",
		"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"} {
		t.Setenv(v, "")
	}
	r := testtool.Start(t, mockCommand(newStore()))
	if status := get(t, r.Base+"/opentool/version", ""); status != http.StatusOK {
		t.Fatalf("GET /opentool/version: %d", status)
	}
	if logs := r.Logs.String(); strings.Contains(logs, "OpenTelemetry") {
		t.Errorf("OpenTelemetry was set up without OTEL_* variables:\n%s", logs)
	}
}

// TestNoTelemetryInBuild: a Command without Telemetry (a main generated
// without -with otel) run with variables that ask for an export says so in
// one warning line, naming the variable and -with otel, exports nothing
// and serves; OTEL_SDK_DISABLED=true or an exporter of none silence it.
func TestNoTelemetryInBuild(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		warn string // the variable named, "" for no warning
	}{
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, "OTEL_EXPORTER_OTLP_ENDPOINT"},
		{map[string]string{"OTEL_TRACES_EXPORTER": "console"}, "OTEL_TRACES_EXPORTER"},
		{map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_METRICS_EXPORTER": "otlp"}, "OTEL_METRICS_EXPORTER"},
		{map[string]string{"OTEL_TRACES_EXPORTER": "none"}, ""},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "true"}, ""},
	} {
		for _, v := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER", "OTEL_SDK_DISABLED",
			"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"} {
			t.Setenv(v, c.env[v])
		}
		r := testtool.Start(t, mockCommand(newStore()))
		if status := get(t, r.Base+"/opentool/version", ""); status != http.StatusOK {
			t.Fatalf("%v: GET /opentool/version: %d", c.env, status)
		}
		r.Stop()
		if code := r.Wait(t); code != 0 {
			t.Fatalf("%v: exit %d:\n%s", c.env, code, r.Logs)
		}
		logs := r.Logs.String()
		n := strings.Count(logs, "msg=\"OpenTelemetry")
		switch {
		case c.warn == "" && n != 0:
			t.Errorf("%v: OpenTelemetry lines:\n%s", c.env, logs)
		case c.warn != "" && (n != 1 || !strings.Contains(logs, "level=WARN msg=\"OpenTelemetry: "+c.warn+" is set, but this binary was built without OpenTelemetry export (opentoolgen -with otel)")):
			t.Errorf("%v: want one warning naming %s and -with otel:\n%s", c.env, c.warn, logs)
		}
	}
}

// TestHelpWithoutOTEL: the help of a Command without Telemetry names no
// OTEL_* variable: it has no OpenTelemetry export.
func TestHelpWithoutOTEL(t *testing.T) {
	code, out, _ := testtool.Run(t, mockCommand(newStore()), "-h")
	if code != 0 || strings.Contains(out, "OTEL_") {
		t.Errorf("-h: exit %d, the help names OTEL_* variables:\n%s", code, out)
	}
}
