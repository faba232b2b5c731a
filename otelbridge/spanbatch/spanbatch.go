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
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Defaults, those of the OpenTelemetry specification's batch span processor.
const (
	DefaultScheduleDelay      = 5 * time.Second
	DefaultExportTimeout      = 30 * time.Second
	DefaultMaxQueueSize       = 2048
	DefaultMaxExportBatchSize = 512
)

// Option configures [New].
type Option func(*config)

type config struct {
	delay, timeout time.Duration
	queue, batch   int
}

// WithScheduleDelay sets the longest time an ended span waits before it is
// exported (OTEL_BSP_SCHEDULE_DELAY).
func WithScheduleDelay(d time.Duration) Option { return func(c *config) { c.delay = d } }

// WithExportTimeout sets how long one call of the exporter may take
// (OTEL_BSP_EXPORT_TIMEOUT).
func WithExportTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithMaxQueueSize sets how many ended spans may wait for export; more are
// dropped (OTEL_BSP_MAX_QUEUE_SIZE).
func WithMaxQueueSize(n int) Option { return func(c *config) { c.queue = n } }

// WithMaxExportBatchSize sets how many spans are given to the exporter at
// once at most, and how many make a batch exported without waiting for the
// schedule delay (OTEL_BSP_MAX_EXPORT_BATCH_SIZE).
func WithMaxExportBatchSize(n int) Option { return func(c *config) { c.batch = n } }

// Processor is the batching sdktrace.SpanProcessor of [New].
type Processor struct {
	exporter sdktrace.SpanExporter
	cfg      config

	mu         sync.Mutex
	queue      []sdktrace.ReadOnlySpan
	spare      []sdktrace.ReadOnlySpan // the other buffer, while the exporter has none
	kicked     bool                    // a full batch was signalled and not yet taken
	stopped    bool
	dropped    uint64 // since the last report
	total      uint64 // dropped since New
	lastReport time.Time

	kick     chan struct{}   // a batch is full
	flushes  chan chan error // ForceFlush: export all, then answer
	stop     chan struct{}   // Shutdown: export all, then return
	done     chan struct{}   // closed when the exporting goroutine returns
	stopOnce sync.Once
}

var _ sdktrace.SpanProcessor = (*Processor)(nil)

// New returns a Processor exporting to exporter, configured by the
// environment (see the package doc) and opts. It starts the goroutine that
// exports; Shutdown (the tracer provider's) stops it.
func New(exporter sdktrace.SpanExporter, opts ...Option) *Processor {
	c := config{
		delay:   envMillis("OTEL_BSP_SCHEDULE_DELAY", DefaultScheduleDelay),
		timeout: envMillis("OTEL_BSP_EXPORT_TIMEOUT", DefaultExportTimeout),
		queue:   envInt("OTEL_BSP_MAX_QUEUE_SIZE", DefaultMaxQueueSize),
		batch:   envInt("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", DefaultMaxExportBatchSize),
	}
	for _, o := range opts {
		o(&c)
	}
	if c.delay <= 0 {
		c.delay = DefaultScheduleDelay
	}
	if c.timeout <= 0 {
		c.timeout = DefaultExportTimeout
	}
	if c.queue <= 0 {
		c.queue = DefaultMaxQueueSize
	}
	if c.batch <= 0 {
		c.batch = DefaultMaxExportBatchSize
	}
	c.batch = min(c.batch, c.queue)
	p := &Processor{
		exporter: exporter,
		cfg:      c,
		queue:    make([]sdktrace.ReadOnlySpan, 0, c.batch),
		spare:    make([]sdktrace.ReadOnlySpan, 0, c.batch),
		kick:     make(chan struct{}, 1),
		flushes:  make(chan chan error),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	go p.run()
	return p
}

// OnStart does nothing.
func (p *Processor) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

// OnEnd queues s for export, if it is sampled; it drops s when the queue is
// full or the processor is shut down.
func (p *Processor) OnEnd(s sdktrace.ReadOnlySpan) {
	if !s.SpanContext().IsSampled() {
		return
	}
	p.mu.Lock()
	switch {
	case p.stopped:
	case len(p.queue) >= p.cfg.queue:
		p.dropped++
		p.total++
	default:
		p.queue = append(p.queue, s)
		if len(p.queue) >= p.cfg.batch && !p.kicked {
			p.kicked = true
			select {
			case p.kick <- struct{}{}:
			default: // a signal is pending already
			}
		}
	}
	p.mu.Unlock()
}

// ForceFlush exports the spans queued, waiting until they are exported or
// ctx is done.
func (p *Processor) ForceFlush(ctx context.Context) error {
	answer := make(chan error, 1)
	select {
	case p.flushes <- answer:
	case <-p.done:
		return nil // shut down: nothing is left
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-answer:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Shutdown stops taking spans, exports those queued and shuts the exporter
// down, waiting until done or ctx is done. Later calls do nothing.
func (p *Processor) Shutdown(ctx context.Context) error {
	var err error
	p.stopOnce.Do(func() {
		p.mu.Lock()
		p.stopped = true
		p.mu.Unlock()
		close(p.stop)
		select {
		case <-p.done:
		case <-ctx.Done():
			err = ctx.Err()
			return
		}
		err = p.exporter.Shutdown(ctx)
	})
	return err
}

// run is the exporting goroutine.
func (p *Processor) run() {
	defer close(p.done)
	timer := time.NewTimer(p.cfg.delay)
	defer timer.Stop()
	for {
		select {
		case <-p.stop:
			p.export(true)
			p.reportDropped(true)
			return
		case answer := <-p.flushes:
			answer <- p.export(true)
		case <-p.kick:
			p.export(false)
		case <-timer.C:
			p.export(true)
		}
		timer.Reset(p.cfg.delay)
	}
}

// export gives the exporter the queued spans, a batch at a time: all of
// them, or only full batches when all is false. It returns the first error.
func (p *Processor) export(all bool) error {
	var first error
	for {
		p.mu.Lock()
		p.kicked = false
		n := len(p.queue)
		if n == 0 || (!all && n < p.cfg.batch) {
			p.mu.Unlock()
			p.reportDropped(false)
			return first
		}
		var batch []sdktrace.ReadOnlySpan
		if n <= p.cfg.batch {
			batch, p.queue, p.spare = p.queue, p.spare[:0], nil
		} else { // more than a batch (a queue larger than a batch): the first batch
			batch = append(p.spare[:0], p.queue[:p.cfg.batch]...)
			left := copy(p.queue, p.queue[p.cfg.batch:])
			clear(p.queue[left:]) // let the spans moved down go from the tail
			p.queue = p.queue[:left]
			p.spare = nil
		}
		p.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), p.cfg.timeout)
		err := p.exporter.ExportSpans(ctx, batch)
		cancel()
		if err != nil {
			otel.Handle(err)
			if first == nil {
				first = err
			}
		}
		clear(batch) // let the spans go
		p.mu.Lock()
		p.spare = batch[:0]
		p.mu.Unlock()
	}
}

// Dropped returns the number of spans dropped since New because the queue
// was full.
func (p *Processor) Dropped() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.total
}

// reportInterval is the shortest time between two reports of dropped spans.
const reportInterval = time.Minute

// reportDropped reports through otel.Handle the spans dropped since the
// last report, at most once per reportInterval unless final.
func (p *Processor) reportDropped(final bool) {
	p.mu.Lock()
	dropped := p.dropped
	now := time.Now()
	if dropped == 0 || (!final && now.Sub(p.lastReport) < reportInterval) {
		p.mu.Unlock()
		return
	}
	p.dropped, p.lastReport = 0, now
	p.mu.Unlock()
	otel.Handle(fmt.Errorf("spanbatch: %d spans dropped: the queue of %d was full", dropped, p.cfg.queue))
}

func envMillis(name string, def time.Duration) time.Duration {
	if n, ok := envPositive(name); ok {
		return time.Duration(n) * time.Millisecond
	}
	return def
}

func envInt(name string, def int) int {
	if n, ok := envPositive(name); ok {
		return n
	}
	return def
}

func envPositive(name string) (int, bool) {
	v := os.Getenv(name)
	if v == "" {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		otel.Handle(errors.New("spanbatch: " + name + "=" + strconv.Quote(v) + " is not a positive integer: the default is used"))
		return 0, false
	}
	return n, true
}
