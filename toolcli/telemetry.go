package toolcli

import (
	"context"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/opentoolgen/opentoolgen/runtime/intercept"
)

// TelemetryFunc starts the export of a command's telemetry
// ([Command.Telemetry]): toolcli/otelcli.Telemetry, what a main generated
// with opentoolgen -with otel sets. It reads the environment (the standard
// OTEL_* variables) and returns the interceptors every front runs around
// the calls it serves and the function that flushes and stops the export
// when the command stops; none of them, and no error, when the environment
// asks for no export. An error stops the command (exit status 1).
//
// The type is toolcli's so that package toolcli imports no OpenTelemetry
// SDK: a binary links the SDK and its exporters only when its main names a
// TelemetryFunc that does.
type TelemetryFunc func(ctx context.Context, s TelemetrySetup) (interceptors []intercept.Func, stop func(), err error)

// TelemetrySetup is what a [TelemetryFunc] is given.
type TelemetrySetup struct {
	// Name is Command.Name (service.name unless OTEL_SERVICE_NAME says
	// otherwise); Version is --version (service.version).
	Name, Version string
	// Logger is the command's structured log: where export errors go.
	Logger *slog.Logger
	// Stderr is the command's standard error, where a console exporter
	// writes (standard output carries MCP under mcp).
	Stderr io.Writer
}

// otelVariables are the variables that ask for OpenTelemetry export: the
// exporters and the OTLP endpoints.
var otelVariables = []string{
	"OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER",
	"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
}

// exportAsked returns the first variable of otelVariables that asks for an
// export (set, and not to "none"), "" when none does or
// OTEL_SDK_DISABLED=true.
func exportAsked() string {
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		return ""
	}
	for _, name := range otelVariables {
		if v := strings.TrimSpace(os.Getenv(name)); v != "" && !strings.EqualFold(v, "none") {
			return name
		}
	}
	return ""
}

// telemetry starts the Command's telemetry (Command.Telemetry). Without
// one, a binary built without -with otel, it sets nothing up and, when the
// environment asks for an export, says once that none happens: the
// variable is not silently ignored.
func (c *Command) telemetry(ctx context.Context, version string, stderr io.Writer, logger *slog.Logger) ([]intercept.Func, func(), error) {
	if c.Telemetry == nil {
		if name := exportAsked(); name != "" {
			logger.Warn("OpenTelemetry: "+name+" is set, but this binary was built without OpenTelemetry export (opentoolgen -with otel): nothing is exported",
				"variable", name)
		}
		return nil, nil, nil
	}
	return c.Telemetry(ctx, TelemetrySetup{Name: c.Name, Version: version, Logger: logger, Stderr: stderr})
}
