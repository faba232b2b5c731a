// Package otelcli is the OpenTelemetry export of a toolcli.Command:
// [Telemetry], which a main generated with opentoolgen -with otel sets as
// its Command's Telemetry, so that only such a binary links the
// OpenTelemetry SDK, its OTLP exporters and gRPC.
//
// Telemetry configures the SDK's tracer provider (with the batch span
// processor) and meter provider (with a periodic reader) from the standard
// variables, as the OpenTelemetry contrib package autoexport does, with the
// official exporters:
//
//   - OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER: otlp, console (standard
//     error: under mcp standard output carries the protocol) or none, a
//     comma-separated list for several. Unset, a signal is exported with
//     OTLP when an OTLP endpoint variable is set for it
//     (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
//     OTEL_EXPORTER_OTLP_METRICS_ENDPOINT), not at all otherwise: a command
//     run without a collector logs no export errors. OTEL_SDK_DISABLED=true
//     exports nothing.
//   - OTEL_EXPORTER_OTLP_PROTOCOL and OTEL_EXPORTER_OTLP_TRACES_PROTOCOL,
//     …_METRICS_PROTOCOL: grpc (otlptracegrpc, otlpmetricgrpc) or
//     http/protobuf (otlptracehttp, otlpmetrichttp; the default).
//   - The exporters read their endpoint, headers, timeout, compression,
//     certificates and insecure flag themselves (OTEL_EXPORTER_OTLP_*); the
//     SDK reads the sampler (OTEL_TRACES_SAMPLER), batching (OTEL_BSP_*),
//     span limits (OTEL_SPAN_*), the metric interval
//     (OTEL_METRIC_EXPORT_INTERVAL) and the resource (OTEL_SERVICE_NAME,
//     OTEL_RESOURCE_ATTRIBUTES; service.name defaults to the command's name,
//     service.version to its --version; telemetry.sdk.* are the SDK's).
//
// An unknown exporter or protocol is one warning line, and that signal is
// not exported: telemetry never stops a server. Export errors go to the
// command's structured log, each kind once (otel.SetErrorHandler): an
// endpoint that does not answer as an OTLP receiver of the protocol is
// found by an empty export when the command starts and reported in one
// line that names it and says what it answered, and again only after an
// export has succeeded since.
package otelcli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdoutmetric"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/opentoolgen/opentoolgen/otelbridge"
	"github.com/opentoolgen/opentoolgen/runtime/intercept"
	"github.com/opentoolgen/opentoolgen/toolcli"
)

var _ toolcli.TelemetryFunc = Telemetry

// Protocols of OTLP.
const (
	ProtocolGRPC = "grpc"
	ProtocolHTTP = "http/protobuf"
)

// probeTimeout bounds the empty export that checks an OTLP endpoint when
// the command starts.
const probeTimeout = 10 * time.Second

// stopTimeout bounds the flush of the last spans and metrics.
const stopTimeout = 5 * time.Second

// Telemetry is the [toolcli.TelemetryFunc] of OpenTelemetry export (see the
// package doc): with an export asked for, it sets the SDK's providers as
// OpenTelemetry's global ones (otel.SetTracerProvider,
// otel.SetMeterProvider), W3C trace context as the propagator
// (otelbridge.Install) and returns otelbridge's interceptor, run around the
// calls the command serves and those its tool makes.
func Telemetry(ctx context.Context, s toolcli.TelemetrySetup) ([]intercept.Func, func(), error) {
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		return nil, nil, nil
	}
	logger := s.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	stderr := s.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	traces, metrics := exporters("traces", logger), exporters("metrics", logger)
	if len(traces) == 0 && len(metrics) == 0 {
		return nil, nil, nil
	}
	rep := newReporter(logger)
	res, err := resource.New(ctx, resource.WithTelemetrySDK(),
		resource.WithAttributes(semconv.ServiceName(s.Name), semconv.ServiceVersion(s.Version)),
		resource.WithFromEnv()) // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win
	if err != nil {
		logger.Warn("OpenTelemetry: the resource", "error", err.Error())
	}
	probes, cancelProbes := context.WithCancel(context.Background())
	var stops []func(context.Context) error
	fail := func(err error) ([]intercept.Func, func(), error) {
		cancelProbes()
		for _, stop := range stops {
			_ = stop(context.Background())
		}
		rep.close()
		return nil, nil, err
	}

	var tp trace.TracerProvider = tracenoop.NewTracerProvider()
	if len(traces) > 0 {
		opts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res)}
		for _, name := range traces {
			exp, err := rep.spanExporter(ctx, probes, name, stderr)
			if err != nil {
				return fail(err)
			}
			opts = append(opts, sdktrace.WithBatcher(exp))
		}
		sdk := sdktrace.NewTracerProvider(opts...)
		stops = append(stops, sdk.Shutdown)
		otel.SetTracerProvider(sdk)
		tp = sdk
	}
	var mp metric.MeterProvider = metricnoop.NewMeterProvider()
	if len(metrics) > 0 {
		opts := []sdkmetric.Option{sdkmetric.WithResource(res)}
		for _, name := range metrics {
			exp, err := rep.metricExporter(ctx, name, stderr)
			if err != nil {
				return fail(err)
			}
			opts = append(opts, sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)))
		}
		sdk := sdkmetric.NewMeterProvider(opts...)
		stops = append(stops, sdk.Shutdown)
		otel.SetMeterProvider(sdk)
		mp = sdk
	}
	otelbridge.Install()
	stop := func() {
		cancelProbes()
		ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
		defer cancel()
		for _, stop := range stops {
			if err := stop(ctx); err != nil {
				rep.Handle(fmt.Errorf("flushing the last spans and metrics: %w", err))
			}
		}
		rep.close()
	}
	ic := otelbridge.Interceptor(otelbridge.WithTracerProvider(tp), otelbridge.WithMeterProvider(mp))
	return tracingInterceptors(ic), stop, nil
}

// exporters returns the exporters asked for signal ("traces" or
// "metrics"): the names of OTEL_TRACES_EXPORTER (OTEL_METRICS_EXPORTER)
// that are known, "otlp" when it is unset and an OTLP endpoint is set for
// the signal, none otherwise. An unknown name is a warning line.
func exporters(signal string, logger *slog.Logger) []string {
	variable := "OTEL_" + strings.ToUpper(signal) + "_EXPORTER"
	v := strings.TrimSpace(os.Getenv(variable))
	if v == "" {
		if os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv(signalVar(signal, "ENDPOINT")) != "" {
			return []string{"otlp"}
		}
		return nil
	}
	var names []string
	for _, name := range strings.Split(v, ",") {
		switch name = strings.ToLower(strings.TrimSpace(name)); name {
		case "none":
			return nil
		case "otlp", "console":
			names = append(names, name)
		default:
			logger.Warn(fmt.Sprintf("OpenTelemetry: %s=%s: unknown exporter %q, want otlp, console or none: it is not used", variable, v, name),
				"variable", variable)
		}
	}
	return names
}

// signalVar is the OTLP variable of signal: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT.
func signalVar(signal, what string) string {
	return "OTEL_EXPORTER_OTLP_" + strings.ToUpper(signal) + "_" + what
}

// protocol returns the OTLP protocol of signal (…_TRACES_PROTOCOL, else
// OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf) and the variable that
// set it.
func protocol(signal string) (protocol, variable string) {
	for _, variable := range []string{signalVar(signal, "PROTOCOL"), "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if v := strings.TrimSpace(os.Getenv(variable)); v != "" {
			return strings.ToLower(v), variable
		}
	}
	return ProtocolHTTP, ""
}

// endpoint describes where signal is exported with protocol, as the
// exporters read it: the signal's variable as it is, else
// OTEL_EXPORTER_OTLP_ENDPOINT (with /v1/traces or /v1/metrics over HTTP),
// else the default (localhost:4317 for gRPC, http://localhost:4318/v1/… for
// HTTP).
func endpoint(signal, protocol string) string {
	if v := os.Getenv(signalVar(signal, "ENDPOINT")); v != "" {
		return v
	}
	base := os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT")
	if protocol == ProtocolGRPC {
		if base == "" {
			return "localhost:4317"
		}
		return base
	}
	if base == "" {
		base = "http://localhost:4318"
	}
	return strings.TrimSuffix(base, "/") + "/v1/" + signal
}

// spanExporter returns the span exporter name ("otlp" or "console") as the
// environment configures it, its errors reported by r. An OTLP exporter's
// endpoint is checked by an empty export (probe) until probes ends.
func (r *reporter) spanExporter(ctx, probes context.Context, name string, stderr io.Writer) (sdktrace.SpanExporter, error) {
	if name == "console" {
		exp, err := stdouttrace.New(stdouttrace.WithWriter(stderr))
		if err != nil {
			return nil, fmt.Errorf("OpenTelemetry: the console span exporter: %w", err)
		}
		r.logger.Info("OpenTelemetry: writing traces to standard error")
		return exp, nil
	}
	proto, variable := protocol("traces")
	var client otlptrace.Client
	switch proto {
	case ProtocolGRPC:
		client = otlptracegrpc.NewClient()
	case ProtocolHTTP:
		client = otlptracehttp.NewClient()
	default:
		return nil, fmt.Errorf("OpenTelemetry: %s=%s: want grpc or http/protobuf", variable, proto)
	}
	t := target{signal: "traces", protocol: proto, endpoint: endpoint("traces", proto)}
	if proto == ProtocolHTTP {
		r.watchHTTPLog(t)
	}
	exp, err := otlptrace.New(ctx, client)
	if err != nil {
		return nil, fmt.Errorf("OpenTelemetry: the OTLP span exporter to %s over %s: %w", t.endpoint, proto, err)
	}
	r.logger.Info("OpenTelemetry: exporting traces with OTLP over "+proto, "endpoint", t.endpoint)
	go r.probe(probes, t, client)
	return &spanExporter{SpanExporter: exp, r: r, t: t}, nil
}

// metricExporter returns the metric exporter name ("otlp" or "console") as
// the environment configures it, its errors reported by r.
func (r *reporter) metricExporter(ctx context.Context, name string, stderr io.Writer) (sdkmetric.Exporter, error) {
	if name == "console" {
		exp, err := stdoutmetric.New(stdoutmetric.WithWriter(stderr))
		if err != nil {
			return nil, fmt.Errorf("OpenTelemetry: the console metric exporter: %w", err)
		}
		r.logger.Info("OpenTelemetry: writing metrics to standard error")
		return exp, nil
	}
	proto, variable := protocol("metrics")
	var exp sdkmetric.Exporter
	var err error
	switch proto {
	case ProtocolGRPC:
		exp, err = otlpmetricgrpc.New(ctx)
	case ProtocolHTTP:
		exp, err = otlpmetrichttp.New(ctx)
	default:
		return nil, fmt.Errorf("OpenTelemetry: %s=%s: want grpc or http/protobuf", variable, proto)
	}
	t := target{signal: "metrics", protocol: proto, endpoint: endpoint("metrics", proto)}
	if proto == ProtocolHTTP {
		r.watchHTTPLog(t)
	}
	if err != nil {
		return nil, fmt.Errorf("OpenTelemetry: the OTLP metric exporter to %s over %s: %w", t.endpoint, proto, err)
	}
	r.logger.Info("OpenTelemetry: exporting metrics with OTLP over "+proto, "endpoint", t.endpoint)
	return &metricExporter{Exporter: exp, r: r, t: t}, nil
}

// tracingInterceptors are the interceptors the fronts run to trace with
// trace: trace around each call served, then one that makes trace run
// around the calls the tool makes while it serves it
// (intercept.WithCallInterceptors): a generated gateway's typed client of its
// upstream (runtime.Invoke) and its REST client, which the generated main
// builds without interceptors, get their Client spans, children of the
// call's Server span, and send the traceparent of theirs.
func tracingInterceptors(trace intercept.Func) []intercept.Func {
	calls := []intercept.Func{trace}
	carry := func(ctx context.Context, _ *intercept.Call, next func(context.Context) error) error {
		return next(intercept.WithCallInterceptors(ctx, calls...))
	}
	return []intercept.Func{trace, carry}
}
