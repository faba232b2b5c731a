// Package tracing is a tracer provider of OpenTelemetry
// (go.opentelemetry.io/otel/trace), made for servers that make a span per
// call and export them in batches: what the server command of a generated
// tool runs when OTEL_EXPORTER_OTLP_ENDPOINT is set. It records and exports
// spans as the SDK (go.opentelemetry.io/otel/sdk/trace) with a batch span
// processor does, at less than half the SDK's cost per span: a span is one
// allocation of 192 B, and one more once it has events or links, an end time
// given to End or an error status with a description (the SDK
// makes five, 1.3 KB: its span, the start options' copy of the
// attributes, its own copy, a snapshot at End, a map to deduplicate the
// attributes), its IDs come from math/rand/v2 (no lock), and an ended span
// is itself what the exporter reads, queued under a mutex for the
// goroutine that exports (the queue of otelbridge/spanbatch, shared
// through otelbridge/internal/batch).
//
//	tp := tracing.NewProvider(exporter, tracing.WithResource(res))
//	defer tp.Shutdown(ctx)
//	tracer := tp.Tracer("my/scope")
//
// [Tracer.StartShared] is a faster Start for callers that hold an
// immutable attribute slice (otelbridge's interceptor): the slice is not
// copied unless the span's attributes change later.
//
// Spans have the SDK's semantics: SetAttributes (a key set again keeps its
// place and takes the last value), AddEvent, RecordError (an "exception"
// event), AddLink, SetStatus (Ok wins over Error, Unset is ignored, a
// description is kept for Error only), SetName, End (WithTimestamp,
// WithStackTrace; a panic passing through a deferred End is recorded as
// an "exception" event, as the SDK does), IsRecording false after End,
// calls after End ignored, all safe for concurrent use. The exporter
// reads [ReadOnlySpan], whose methods are those of sdktrace.ReadOnlySpan
// (an SDK span is one too), with the SDK's types for links, events and
// status.
//
// # Configuration
//
// As the SDK, [NewProvider] reads the standard variables (options win):
//
//	OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG  always_on, always_off, traceidratio,
//	                              parentbased_always_on (the default),
//	                              parentbased_always_off, parentbased_traceidratio
//	OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT   attributes per span (default 128, -1: no limit)
//	OTEL_SPAN_EVENT_COUNT_LIMIT       events per span (128; the oldest is dropped)
//	OTEL_SPAN_LINK_COUNT_LIMIT        links per span (128; the oldest is dropped)
//	OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT, OTEL_LINK_ATTRIBUTE_COUNT_LIMIT  attributes per event, per link (128)
//	OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT  characters of a span attribute's strings (default no limit)
//	OTEL_BSP_SCHEDULE_DELAY           ms between two exports of a batch not full (5000)
//	OTEL_BSP_EXPORT_TIMEOUT           ms an export may take (30000)
//	OTEL_BSP_MAX_QUEUE_SIZE           ended spans waiting at most; more are dropped (2048)
//	OTEL_BSP_MAX_EXPORT_BATCH_SIZE    spans given to the exporter at once at most (512)
//
// What is dropped is counted: a span's DroppedAttributes, DroppedEvents
// and DroppedLinks, the provider's [Provider.Dropped] (spans dropped
// because the queue was full; reported through otel.Handle at most once a
// minute). A span the sampler drops is not recording and not exported,
// but carries its SpanContext (new span ID, the parent's trace ID) to what
// it propagates to; a span the sampler records without sampling
// (RecordOnly) is recorded and not exported, as with the SDK's processors.
//
// # What it leaves out
//
// Compared with the SDK's TracerProvider: no span processors (one
// exporter, batched; an exporter that wants every span at once is called
// with batches all the same), no ID generator option, no OnStart hook, no
// self-observability metrics, no runtime/trace tasks, and no depth limit
// of map and slice attribute values (AttributeValueDepthLimit; their keys
// are deduplicated and their strings cut to the length limit, as the SDK
// does), no warning logged when a limit drops something (the counts say
// it). DroppedEvents and DroppedLinks count what a limit of 0 dropped too,
// where the SDK's exported span says 0 when it keeps no event or link.
// Tracers of a shut-down provider still make spans, which are not
// exported.
package tracing

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"

	"github.com/opentoolgen/opentoolgen/otelbridge/internal/batch"
)

// ReadOnlySpan is an ended span as an [Exporter] reads it: the read
// methods of sdktrace.ReadOnlySpan, so that a span of the SDK is one too.
// Attributes, Links and Events must not be modified.
type ReadOnlySpan interface {
	Name() string
	SpanContext() trace.SpanContext
	Parent() trace.SpanContext
	SpanKind() trace.SpanKind
	StartTime() time.Time
	EndTime() time.Time
	Attributes() []attribute.KeyValue
	Links() []sdktrace.Link
	Events() []sdktrace.Event
	Status() sdktrace.Status
	InstrumentationScope() instrumentation.Scope
	Resource() *resource.Resource
	DroppedAttributes() int
	DroppedLinks() int
	DroppedEvents() int
	ChildSpanCount() int
}

var _ ReadOnlySpan = sdktrace.ReadOnlySpan(nil)

// Exporter is given the ended spans, a batch at a time, never
// concurrently (otelbridge/otlphttp's Exporter is one). Export must not
// keep the slice after it returns (the spans it holds it may keep).
type Exporter interface {
	Export(ctx context.Context, spans []ReadOnlySpan) error
	Shutdown(ctx context.Context) error
}

// Option configures [NewProvider].
type Option func(*config)

type config struct {
	sampler sdktrace.Sampler
	res     *resource.Resource
	limits  *sdktrace.SpanLimits
	batch   batch.Config
}

// WithSampler sets the sampler (default: that of OTEL_TRACES_SAMPLER, else
// sdktrace.ParentBased(sdktrace.AlwaysSample())). The SDK's samplers
// (sdktrace.TraceIDRatioBased, …) work as they do with the SDK.
func WithSampler(s sdktrace.Sampler) Option { return func(c *config) { c.sampler = s } }

// WithResource sets the resource of the spans (default: resource.Default()).
func WithResource(r *resource.Resource) Option { return func(c *config) { c.res = r } }

// WithSpanLimits sets the limits of a span's attributes, events and links
// (default: sdktrace.NewSpanLimits(), the OTEL_*_LIMIT variables). A
// negative limit is no limit; the depth limit is not applied (see the
// package doc).
func WithSpanLimits(l sdktrace.SpanLimits) Option { return func(c *config) { c.limits = &l } }

// WithScheduleDelay sets the longest time an ended span waits before it is
// exported (OTEL_BSP_SCHEDULE_DELAY).
func WithScheduleDelay(d time.Duration) Option { return func(c *config) { c.batch.Delay = d } }

// WithExportTimeout sets how long one call of the exporter may take
// (OTEL_BSP_EXPORT_TIMEOUT).
func WithExportTimeout(d time.Duration) Option { return func(c *config) { c.batch.Timeout = d } }

// WithMaxQueueSize sets how many ended spans may wait for export; more are
// dropped (OTEL_BSP_MAX_QUEUE_SIZE).
func WithMaxQueueSize(n int) Option { return func(c *config) { c.batch.Queue = n } }

// WithMaxExportBatchSize sets how many spans are given to the exporter at
// once at most, and how many make a batch exported without waiting for the
// schedule delay (OTEL_BSP_MAX_EXPORT_BATCH_SIZE).
func WithMaxExportBatchSize(n int) Option { return func(c *config) { c.batch.Batch = n } }

// Provider is the trace.TracerProvider of [NewProvider].
type Provider struct {
	embedded.TracerProvider

	sampler sdktrace.Sampler
	// parentAlwaysOn: sampler is the default, parentbased_always_on, whose
	// decision start makes itself from the parent it has looked up.
	parentAlwaysOn bool
	res            *resource.Resource
	limits         sdktrace.SpanLimits
	batch          *batch.Batcher[ReadOnlySpan]

	mu      sync.Mutex
	tracers map[scopeKey]*Tracer
}

var _ trace.TracerProvider = (*Provider)(nil)

type scopeKey struct {
	name, version, schemaURL string
	attrs                    attribute.Distinct
}

// NewProvider returns a provider whose sampled spans, once ended, are
// given to exp in batches (see the package doc); with a nil exp they are
// dropped. It starts the goroutine
// that exports: Shutdown stops it.
func NewProvider(exp Exporter, opts ...Option) *Provider {
	c := config{batch: batch.FromEnv("tracing")}
	for _, o := range opts {
		o(&c)
	}
	if c.sampler == nil {
		c.sampler = samplerFromEnv()
	}
	if c.res == nil {
		c.res = resource.Default()
	}
	if exp == nil {
		exp = discard{}
	}
	if c.limits == nil {
		l := sdktrace.NewSpanLimits()
		c.limits = &l
	}
	return &Provider{
		sampler: c.sampler,
		// Interfaces of different dynamic types compare unequal without
		// comparing their values: a sampler of a type == cannot compare
		// does not panic here.
		parentAlwaysOn: c.sampler == defaultSampler(),
		res:            c.res,
		limits:         *c.limits,
		batch:          batch.New(batch.Exporter[ReadOnlySpan](exp), c.batch, "tracing"),
		tracers:        map[scopeKey]*Tracer{},
	}
}

// discard is the exporter of NewProvider(nil): spans are recorded, and
// dropped when they end.
type discard struct{}

func (discard) Export(context.Context, []ReadOnlySpan) error { return nil }
func (discard) Shutdown(context.Context) error               { return nil }

// defaultTracerName is the scope of Tracer(""), as with the SDK.
const defaultTracerName = "go.opentelemetry.io/otel/sdk/tracer"

// Tracer returns the tracer of the instrumentation scope name (with the
// version, schema URL and attributes of opts), the same for the same
// scope.
func (p *Provider) Tracer(name string, opts ...trace.TracerOption) trace.Tracer {
	c := trace.NewTracerConfig(opts...)
	if name == "" {
		name = defaultTracerName
	}
	attrs := c.InstrumentationAttributes()
	k := scopeKey{name, c.InstrumentationVersion(), c.SchemaURL(), attrs.Equivalent()}
	p.mu.Lock()
	defer p.mu.Unlock()
	t, ok := p.tracers[k]
	if !ok {
		t = &Tracer{p: p, scope: instrumentation.Scope{Name: name, Version: k.version, SchemaURL: k.schemaURL, Attributes: attrs}}
		p.tracers[k] = t
	}
	return t
}

// ForceFlush exports the spans ended and queued, waiting until they are
// exported or ctx is done.
func (p *Provider) ForceFlush(ctx context.Context) error { return p.batch.ForceFlush(ctx) }

// Shutdown stops exporting: it exports the spans queued and shuts the
// exporter down, waiting until done or ctx is done. Spans that end later
// are not exported. Later calls do nothing.
func (p *Provider) Shutdown(ctx context.Context) error { return p.batch.Shutdown(ctx) }

// Dropped returns the number of ended spans dropped because the export
// queue was full.
func (p *Provider) Dropped() uint64 { return p.batch.Dropped() }

// defaultSampler is the sampler without OTEL_TRACES_SAMPLER, as the SDK's.
func defaultSampler() sdktrace.Sampler { return sdktrace.ParentBased(sdktrace.AlwaysSample()) }

// samplerFromEnv is the sampler of OTEL_TRACES_SAMPLER and
// OTEL_TRACES_SAMPLER_ARG, as the SDK reads them; a value it does not know
// is reported through otel.Handle and the default used.
func samplerFromEnv() sdktrace.Sampler {
	def := defaultSampler()
	name := strings.ToLower(strings.TrimSpace(os.Getenv("OTEL_TRACES_SAMPLER")))
	arg := strings.TrimSpace(os.Getenv("OTEL_TRACES_SAMPLER_ARG"))
	ratio := func() sdktrace.Sampler {
		if arg == "" {
			return sdktrace.TraceIDRatioBased(1)
		}
		v, err := strconv.ParseFloat(arg, 64)
		if err != nil || v < 0 || v > 1 {
			otel.Handle(errors.New("tracing: OTEL_TRACES_SAMPLER_ARG=" + strconv.Quote(arg) + " is not a ratio from 0 to 1: 1 is used"))
			v = 1
		}
		return sdktrace.TraceIDRatioBased(v)
	}
	switch name {
	case "":
		return def
	case "always_on":
		return sdktrace.AlwaysSample()
	case "always_off":
		return sdktrace.NeverSample()
	case "traceidratio":
		return ratio()
	case "parentbased_always_on":
		return def
	case "parentbased_always_off":
		return sdktrace.ParentBased(sdktrace.NeverSample())
	case "parentbased_traceidratio":
		return sdktrace.ParentBased(ratio())
	}
	otel.Handle(errors.New("tracing: OTEL_TRACES_SAMPLER=" + strconv.Quote(name) + " is not a sampler this provider knows: parentbased_always_on is used"))
	return def
}
