package toolcli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/sdk/resource"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"github.com/opentoolgen/opentoolgen/otelbridge"
	"github.com/opentoolgen/opentoolgen/otelbridge/otlphttp"
	"github.com/opentoolgen/opentoolgen/otelbridge/tracing"
	"github.com/opentoolgen/opentoolgen/runtime"
)

// telemetryWanted reports whether the environment asks for traces exported
// with OTLP: OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
// set, and neither OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none.
func telemetryWanted() bool {
	if os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" && os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "" {
		return false
	}
	return !strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") &&
		!strings.EqualFold(os.Getenv("OTEL_TRACES_EXPORTER"), "none")
}

// telemetry starts exporting traces with OTLP over HTTP when the
// environment asks for it (telemetryWanted): it returns the interceptors the
// fronts run (tracingInterceptors) and the function that flushes and stops the exporter. When it
// does not, it returns neither and sets nothing: the server runs as if
// OpenTelemetry did not exist.
//
// The exporter (otelbridge/otlphttp: http/protobuf encoded with the standard
// library, so that the command links neither gRPC nor the protobuf runtime)
// reads the standard variables (OTEL_EXPORTER_OTLP_ENDPOINT, …_HEADERS,
// …_TIMEOUT, …_COMPRESSION, …_CERTIFICATE, …_PROTOCOL); the tracer provider
// (otelbridge/tracing: the SDK's span semantics, sampling and batching at
// less than half the SDK's cost per span) reads OTEL_TRACES_SAMPLER and its
// argument, the OTEL_BSP_* variables of batching and the OTEL_SPAN_*_LIMIT
// ones, as the SDK's provider with a batch span processor does; the
// resource reads OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES
// (service.name defaults to the command's name, service.version to
// --version).
func telemetry(ctx context.Context, name, version string, logger *slog.Logger) ([]runtime.Interceptor, func(), error) {
	if !telemetryWanted() {
		return nil, nil, nil
	}
	exp, err := otlphttp.New()
	if err != nil {
		return nil, nil, fmt.Errorf("OpenTelemetry: the OTLP exporter: %w", err)
	}
	res, err := resource.Merge(
		resource.NewSchemaless(semconv.ServiceName(name), semconv.ServiceVersion(version)),
		resource.Environment()) // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win
	if err != nil {
		logger.Warn("OpenTelemetry: the resource of OTEL_RESOURCE_ATTRIBUTES", "error", err)
	}
	// tracing records and batches as the SDK's provider with a batch span
	// processor does, reading the same variables, at one allocation per span.
	tp := tracing.NewProvider(exp, tracing.WithResource(res))
	otel.SetTracerProvider(tp)
	otelbridge.Install()
	logger.Info("OpenTelemetry: exporting traces with OTLP over HTTP")
	stop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tp.Shutdown(ctx); err != nil {
			logger.Warn("OpenTelemetry: flushing the last spans", "error", err)
		}
	}
	return tracingInterceptors(otelbridge.Interceptor(otelbridge.WithTracerProvider(tp))), stop, nil
}

// tracingInterceptors are the interceptors the fronts run to trace with
// trace: trace around each call served, then one that makes trace run
// around the calls the tool makes while it serves it
// (runtime.WithCallInterceptors): a generated gateway's typed client of its
// upstream (runtime.Invoke) and its REST client, which the generated main
// builds without interceptors, get their Client spans, children of the
// call's Server span, and send the traceparent of theirs.
func tracingInterceptors(trace runtime.Interceptor) []runtime.Interceptor {
	calls := []runtime.Interceptor{trace}
	carry := func(ctx context.Context, _ *runtime.CallInfo, next func(context.Context) error) error {
		return next(runtime.WithCallInterceptors(ctx, calls...))
	}
	return []runtime.Interceptor{trace, carry}
}
