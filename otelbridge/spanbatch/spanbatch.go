// Package spanbatch is a span processor of the OpenTelemetry SDK
// (go.opentelemetry.io/otel/sdk/trace) that batches the spans that end and
// gives them to an exporter, as the SDK's BatchSpanProcessor does, at less
// cost per span: an ended span is appended to a queue under a mutex, and the
// goroutine that exports is woken only when a batch is full, when the
// schedule delay has passed, or on ForceFlush and Shutdown. The SDK's
// processor sends each span on a channel to that goroutine, waking it once
// per span (a goroutine switch, and often a thread woken, for each call a
// server traces).
//
//	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spanbatch.New(exporter)))
//
// It reads the standard variables of the batch span processor, as the SDK's
// does (options given to [New] win):
//
//	OTEL_BSP_SCHEDULE_DELAY         ms between two exports of a batch not full (default 5000)
//	OTEL_BSP_EXPORT_TIMEOUT         ms an export may take (default 30000)
//	OTEL_BSP_MAX_QUEUE_SIZE         spans waiting at most; more are dropped (default 2048)
//	OTEL_BSP_MAX_EXPORT_BATCH_SIZE  spans given to the exporter at once at most
//	                                (default 512, at most the queue size)
//
// A value that is not a positive integer is ignored (the default is kept)
// and reported once through otel.Handle. Spans that are not sampled are not
// exported. When the queue is full a span is dropped, never waited for: the
// number dropped is reported through otel.Handle (at most once a minute, and
// at Shutdown) and counted by [Processor.Dropped]. The exporter is never
// called concurrently.
package spanbatch

import (
	"context"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/opentoolgen/opentoolgen/otelbridge/internal/batch"
)

// Defaults, those of the OpenTelemetry specification's batch span processor.
const (
	DefaultScheduleDelay      = batch.DefaultScheduleDelay
	DefaultExportTimeout      = batch.DefaultExportTimeout
	DefaultMaxQueueSize       = batch.DefaultMaxQueueSize
	DefaultMaxExportBatchSize = batch.DefaultMaxExportBatchSize
)

// Option configures [New].
type Option func(*batch.Config)

// WithScheduleDelay sets the longest time an ended span waits before it is
// exported (OTEL_BSP_SCHEDULE_DELAY).
func WithScheduleDelay(d time.Duration) Option { return func(c *batch.Config) { c.Delay = d } }

// WithExportTimeout sets how long one call of the exporter may take
// (OTEL_BSP_EXPORT_TIMEOUT).
func WithExportTimeout(d time.Duration) Option { return func(c *batch.Config) { c.Timeout = d } }

// WithMaxQueueSize sets how many ended spans may wait for export; more are
// dropped (OTEL_BSP_MAX_QUEUE_SIZE).
func WithMaxQueueSize(n int) Option { return func(c *batch.Config) { c.Queue = n } }

// WithMaxExportBatchSize sets how many spans are given to the exporter at
// once at most, and how many make a batch exported without waiting for the
// schedule delay (OTEL_BSP_MAX_EXPORT_BATCH_SIZE).
func WithMaxExportBatchSize(n int) Option { return func(c *batch.Config) { c.Batch = n } }

// Processor is the batching sdktrace.SpanProcessor of [New].
type Processor struct {
	b *batch.Batcher[sdktrace.ReadOnlySpan]
}

var _ sdktrace.SpanProcessor = (*Processor)(nil)

// exporter adapts an sdktrace.SpanExporter to the batcher.
type exporter struct{ e sdktrace.SpanExporter }

func (e exporter) Export(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	return e.e.ExportSpans(ctx, spans)
}

func (e exporter) Shutdown(ctx context.Context) error { return e.e.Shutdown(ctx) }

// New returns a Processor exporting to exporter, configured by the
// environment (see the package doc) and opts. It starts the goroutine that
// exports; Shutdown (the tracer provider's) stops it.
func New(exp sdktrace.SpanExporter, opts ...Option) *Processor {
	c := batch.FromEnv("spanbatch")
	for _, o := range opts {
		o(&c)
	}
	return &Processor{b: batch.New[sdktrace.ReadOnlySpan](exporter{exp}, c, "spanbatch")}
}

// OnStart does nothing.
func (p *Processor) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

// OnEnd queues s for export, if it is sampled; it drops s when the queue is
// full or the processor is shut down.
func (p *Processor) OnEnd(s sdktrace.ReadOnlySpan) {
	if s.SpanContext().IsSampled() {
		p.b.Add(s)
	}
}

// ForceFlush exports the spans queued, waiting until they are exported or
// ctx is done.
func (p *Processor) ForceFlush(ctx context.Context) error { return p.b.ForceFlush(ctx) }

// Shutdown stops taking spans, exports those queued and shuts the exporter
// down, waiting until done or ctx is done. Later calls do nothing.
func (p *Processor) Shutdown(ctx context.Context) error { return p.b.Shutdown(ctx) }

// Dropped returns the number of spans dropped since New because the queue
// was full.
func (p *Processor) Dropped() uint64 { return p.b.Dropped() }
