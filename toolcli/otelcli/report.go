package otelcli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// target is where a signal is exported.
type target struct{ signal, protocol, endpoint string }

// reporter puts the errors of a command's export in its log, each kind
// once: an export that fails is one line (what the endpoint answered), the
// next ones are not logged until an export succeeds again; an error of
// another kind (otel.Handle) is logged the first time its text is seen.
type reporter struct {
	logger *slog.Logger
	mu     sync.Mutex
	// failing holds the signals whose last export failed (reported).
	failing map[string]bool
	// said holds the texts of the errors logged (otel.Handle), up to maxSaid.
	said map[string]bool
	// unsolicited is set once the HTTP client's "Unsolicited response" was
	// reported.
	unsolicited bool
	http        []target // the HTTP targets, named by that report
}

// maxSaid bounds the distinct errors a reporter logs.
const maxSaid = 32

// current is the reporter of the command running: OpenTelemetry's error
// handler and the standard log's filter are the process's, set once.
var (
	current     atomic.Pointer[reporter]
	handlerOnce sync.Once
	logOnce     sync.Once
)

func newReporter(logger *slog.Logger) *reporter {
	r := &reporter{logger: logger, failing: map[string]bool{}, said: map[string]bool{}}
	current.Store(r)
	handlerOnce.Do(func() {
		otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
			if r := current.Load(); r != nil {
				r.Handle(err)
			}
		}))
	})
	return r
}

// close makes r no longer the process's reporter.
func (r *reporter) close() { current.CompareAndSwap(r, nil) }

// Handle logs err the first time its text is seen (otel.ErrorHandler).
func (r *reporter) Handle(err error) {
	if err == nil {
		return
	}
	text := err.Error()
	r.mu.Lock()
	seen, full := r.said[text], len(r.said) >= maxSaid
	if !seen && !full {
		r.said[text] = true
	}
	r.mu.Unlock()
	if !seen && !full {
		r.logger.Warn("OpenTelemetry: "+text, "error", text)
	}
}

// exported records the outcome of an export to t: the first failure after
// a success (or the start) is logged, then nothing until one succeeds.
func (r *reporter) exported(t target, err error) {
	if errors.Is(err, context.Canceled) {
		return // the command stops
	}
	r.mu.Lock()
	was := r.failing[t.signal]
	r.failing[t.signal] = err != nil
	r.mu.Unlock()
	switch {
	case err != nil && !was:
		r.logger.Warn("OpenTelemetry: cannot export "+t.signal+" to "+t.endpoint+" over "+t.protocol+": "+diagnose(t, err)+" (said once until an export succeeds)",
			"endpoint", t.endpoint, "protocol", t.protocol, "error", err.Error())
	case err == nil && was:
		r.logger.Info("OpenTelemetry: exporting "+t.signal+" again", "endpoint", t.endpoint)
	}
}

// diagnose says in words what err, of an export to t, means.
func diagnose(t target, err error) string {
	text := err.Error()
	switch {
	case strings.Contains(text, "connection refused"):
		return "nothing listens there (connection refused)"
	case t.protocol == ProtocolGRPC && (strings.Contains(text, "preface") || strings.Contains(text, "http2") || strings.Contains(text, "frame")):
		return "it does not speak gRPC: is it an OTLP/HTTP receiver (OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf)?"
	case t.protocol == ProtocolGRPC && strings.Contains(text, "Unimplemented"):
		return "it is a gRPC server without the OTLP " + t.signal + " service"
	case t.protocol == ProtocolHTTP && strings.Contains(text, "malformed HTTP"):
		return "it does not answer HTTP/1.1: is it an OTLP/gRPC receiver (OTEL_EXPORTER_OTLP_PROTOCOL=grpc)?"
	case t.protocol == ProtocolHTTP && (strings.Contains(text, "404") || strings.Contains(text, "405")):
		return "it is an HTTP server, but not an OTLP receiver (no " + t.signal + " at that path)"
	}
	return "it does not answer as an OTLP receiver"
}

// probe checks t's endpoint with an empty export, which an OTLP receiver
// accepts, and reports a failure at once rather than at the first batch.
func (r *reporter) probe(ctx context.Context, t target, client otlptrace.Client) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	err := client.UploadTraces(ctx, nil)
	if err != nil && (ctx.Err() == context.Canceled || errors.Is(err, context.Canceled)) {
		return // the command stopped first
	}
	r.exported(t, err)
}

// spanExporter reports its exports' errors to r instead of the batch span
// processor's otel.Handle.
type spanExporter struct {
	sdktrace.SpanExporter
	r *reporter
	t target
}

func (e *spanExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := e.SpanExporter.ExportSpans(ctx, spans)
	e.r.exported(e.t, err)
	return nil
}

// metricExporter reports its exports' errors to r instead of the periodic
// reader's otel.Handle.
type metricExporter struct {
	sdkmetric.Exporter
	r *reporter
	t target
}

func (e *metricExporter) Export(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	err := e.Exporter.Export(ctx, rm)
	e.r.exported(e.t, err)
	return nil
}

// unsolicited is what net/http's Transport logs with the standard log
// when a server sends bytes on a connection with no request under way: an
// OTLP/HTTP exporter talking to a server of another protocol.
const unsolicited = "Unsolicited response received on idle HTTP channel"

// watchHTTPLog makes the standard log's lines of net/http's Transport about
// an unsolicited response a report of r (once, naming the endpoints),
// instead of a raw line on standard error; every other line goes where it
// went.
func (r *reporter) watchHTTPLog(t target) {
	r.mu.Lock()
	r.http = append(r.http, t)
	r.mu.Unlock()
	logOnce.Do(func() { log.SetOutput(&logFilter{next: log.Writer()}) })
}

type logFilter struct{ next io.Writer }

func (f *logFilter) Write(p []byte) (int, error) {
	r := current.Load()
	if r == nil || !bytes.Contains(p, []byte(unsolicited)) {
		return f.next.Write(p)
	}
	r.mu.Lock()
	said := r.unsolicited
	r.unsolicited = true
	r.mu.Unlock()
	if !said {
		r.logger.Warn("OpenTelemetry: an OTLP/HTTP endpoint sent data no request asked for: it is not an OTLP/HTTP receiver (an OTLP/gRPC one? OTEL_EXPORTER_OTLP_PROTOCOL=grpc)",
			"endpoints", r.httpEndpoints())
	}
	return len(p), nil
}

func (r *reporter) httpEndpoints() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var names []string
	for _, t := range r.http {
		names = append(names, t.endpoint)
	}
	return strings.Join(names, ", ")
}
