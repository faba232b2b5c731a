package toolcli_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLinksOnlyWhatItServes checks with go list that package toolcli, and a
// main generated without -with, link no NATS (the nats and exec commands are
// package toolcli/natscli's, which a main generated with -with nats imports)
// and no OpenTelemetry SDK, OTLP exporter or gRPC (package toolcli/otelcli's,
// which a main generated with -with otel imports), and that those mains and
// otelcli do link them.
func TestLinksOnlyWhatItServes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, pkg := range []string{".", "../testdata/golden/openapi-petstore/cmd/openapi-petstore"} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if forbidden(dep) {
				t.Errorf("%s links %s", pkg, dep)
			}
		}
	}
	out, err := exec.Command("go", "list", "-deps", "../testdata/golden/mocktool/cmd/mocktool").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps mocktool: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "github.com/nats-io/nats-server/v2/server\n") {
		t.Errorf("the mocktool main, generated with -with nats, does not link the NATS server")
	}
	if strings.Contains(string(out), "go.opentelemetry.io/otel/sdk") {
		t.Errorf("the mocktool main, generated with -with nats only, links the OpenTelemetry SDK")
	}
	for _, pkg := range []string{"./otelcli", "../testdata/golden/weather/cmd/weather"} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		for _, want := range []string{"go.opentelemetry.io/otel/sdk/trace", "go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc",
			"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp", "google.golang.org/grpc"} {
			if !strings.Contains(string(out), want+"\n") {
				t.Errorf("%s does not link %s", pkg, want)
			}
		}
	}
}

// forbidden reports whether a main generated without -with may not link
// package dep: NATS, the OpenTelemetry SDK, its OTLP exporters, gRPC.
func forbidden(dep string) bool {
	return strings.Contains(dep, "nats-io") || strings.HasPrefix(dep, "go.opentelemetry.io/otel/sdk") ||
		strings.HasPrefix(dep, "go.opentelemetry.io/otel/exporters/otlp") || strings.HasPrefix(dep, "google.golang.org/grpc")
}
