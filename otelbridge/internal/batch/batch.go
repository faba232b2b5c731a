// Package batch is the queue and export loop shared by otelbridge/spanbatch
// (a span processor of the OpenTelemetry SDK) and otelbridge/tracing (the
// server command's tracer): items are appended to a queue under a mutex,
// and one goroutine gives them to the exporter in batches, woken only when
// a batch is full, when the schedule delay has passed, or on ForceFlush and
// Shutdown. A full queue drops the item, never blocks; the exporter is
// never called concurrently.
package batch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
)

// Defaults, those of the OpenTelemetry specification's batch span processor.
const (
	DefaultScheduleDelay      = 5 * time.Second
	DefaultExportTimeout      = 30 * time.Second
	DefaultMaxQueueSize       = 2048
	DefaultMaxExportBatchSize = 512
)

// Config is the batching configuration: a value not positive is the default.
type Config struct {
	Delay, Timeout time.Duration
	Queue, Batch   int
}

// FromEnv returns the configuration of the standard variables of the batch
// span processor (OTEL_BSP_*), the defaults where unset; name prefixes the
// errors reported through otel.Handle for values that are not positive
// integers.
func FromEnv(name string) Config {
	return Config{
		Delay:   envMillis(name, "OTEL_BSP_SCHEDULE_DELAY", DefaultScheduleDelay),
		Timeout: envMillis(name, "OTEL_BSP_EXPORT_TIMEOUT", DefaultExportTimeout),
		Queue:   envInt(name, "OTEL_BSP_MAX_QUEUE_SIZE", DefaultMaxQueueSize),
		Batch:   envInt(name, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", DefaultMaxExportBatchSize),
	}
}

func (c Config) normal() Config {
	if c.Delay <= 0 {
		c.Delay = DefaultScheduleDelay
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultExportTimeout
	}
	if c.Queue <= 0 {
		c.Queue = DefaultMaxQueueSize
	}
	if c.Batch <= 0 {
		c.Batch = DefaultMaxExportBatchSize
	}
	c.Batch = min(c.Batch, c.Queue)
	return c
}

// Exporter is what a Batcher gives its batches to.
type Exporter[T any] interface {
	Export(ctx context.Context, batch []T) error
	Shutdown(ctx context.Context) error
}

// Batcher queues items and exports them in batches.
type Batcher[T any] struct {
	exporter Exporter[T]
	cfg      Config
	name     string // in the reports of dropped items

	mu         sync.Mutex
	queue      []T  // queued: queue[head:]
	head       int  // items before it were taken by the exporter
	spare      []T  // the other buffer, while the exporter has none
	kicked     bool // a full batch was signalled and not yet taken
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

// New returns a Batcher exporting to exporter, and starts the goroutine
// that exports; Shutdown stops it. name starts the reports of dropped items.
func New[T any](exporter Exporter[T], cfg Config, name string) *Batcher[T] {
	cfg = cfg.normal()
	b := &Batcher[T]{
		exporter: exporter,
		cfg:      cfg,
		name:     name,
		queue:    make([]T, 0, cfg.Batch),
		spare:    make([]T, 0, cfg.Batch),
		kick:     make(chan struct{}, 1),
		flushes:  make(chan chan error),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	go b.run()
	return b
}

// Config returns the configuration in force.
func (b *Batcher[T]) Config() Config { return b.cfg }

// Add queues v for export; it drops v when the queue is full or the
// batcher is shut down.
func (b *Batcher[T]) Add(v T) {
	b.mu.Lock()
	switch {
	case b.stopped:
	case len(b.queue)-b.head >= b.cfg.Queue:
		b.dropped++
		b.total++
	default:
		b.queue = append(b.queue, v)
		if len(b.queue)-b.head >= b.cfg.Batch && !b.kicked {
			b.kicked = true
			select {
			case b.kick <- struct{}{}:
			default: // a signal is pending already
			}
		}
	}
	b.mu.Unlock()
}

// ForceFlush exports the items queued, waiting until they are exported or
// ctx is done.
func (b *Batcher[T]) ForceFlush(ctx context.Context) error {
	answer := make(chan error, 1)
	select {
	case b.flushes <- answer:
	case <-b.done:
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

// Shutdown stops taking items, exports those queued and shuts the exporter
// down, waiting until done or ctx is done. Later calls do nothing.
func (b *Batcher[T]) Shutdown(ctx context.Context) error {
	var err error
	b.stopOnce.Do(func() {
		b.mu.Lock()
		b.stopped = true
		b.mu.Unlock()
		close(b.stop)
		select {
		case <-b.done:
		case <-ctx.Done():
			err = ctx.Err()
			return
		}
		err = b.exporter.Shutdown(ctx)
	})
	return err
}

// run is the exporting goroutine.
func (b *Batcher[T]) run() {
	defer close(b.done)
	timer := time.NewTimer(b.cfg.Delay)
	defer timer.Stop()
	for {
		select {
		case <-b.stop:
			b.export(true)
			b.reportDropped(true)
			return
		case answer := <-b.flushes:
			answer <- b.export(true)
		case <-b.kick:
			b.export(false)
		case <-timer.C:
			b.export(true)
		}
		timer.Reset(b.cfg.Delay)
	}
}

// export gives the exporter the queued items, a batch at a time: all of
// them, or only full batches when all is false. It returns the first error.
func (b *Batcher[T]) export(all bool) error {
	var first error
	for {
		b.mu.Lock()
		b.kicked = false
		n := len(b.queue) - b.head
		if n == 0 || (!all && n < b.cfg.Batch) {
			b.mu.Unlock()
			b.reportDropped(false)
			return first
		}
		var batch []T
		if b.head == 0 && n <= b.cfg.Batch {
			batch, b.queue, b.spare = b.queue, b.spare[:0], nil
		} else {
			batch = b.takeBatch(min(n, b.cfg.Batch))
		}
		b.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), b.cfg.Timeout)
		err := b.exporter.Export(ctx, batch)
		cancel()
		if err != nil {
			otel.Handle(err)
			if first == nil {
				first = err
			}
		}
		clear(batch) // let the items go
		b.mu.Lock()
		b.spare = batch[:0]
		b.mu.Unlock()
	}
}

// takeBatch returns a copy of the first n items queued (in the spare
// buffer) and takes them from the queue: the queue's head moves past them,
// and the items left are moved down only once they are fewer than those
// taken, so that each item is moved at most once on average, however long
// the queue (moving them down for each batch would move a long queue's
// items once per batch). b.mu is held.
func (b *Batcher[T]) takeBatch(n int) []T {
	batch := append(b.spare[:0], b.queue[b.head:b.head+n]...)
	b.spare = nil
	clear(b.queue[b.head : b.head+n]) // let the items go
	b.head += n
	if left := len(b.queue) - b.head; left <= b.head {
		copy(b.queue, b.queue[b.head:])
		clear(b.queue[left:])
		b.queue, b.head = b.queue[:left], 0
	}
	return batch
}

// Dropped returns the number of items dropped since New because the queue
// was full.
func (b *Batcher[T]) Dropped() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total
}

// reportInterval is the shortest time between two reports of dropped items.
const reportInterval = time.Minute

// reportDropped reports through otel.Handle the items dropped since the
// last report, at most once per reportInterval unless final.
func (b *Batcher[T]) reportDropped(final bool) {
	b.mu.Lock()
	dropped := b.dropped
	now := time.Now()
	if dropped == 0 || (!final && now.Sub(b.lastReport) < reportInterval) {
		b.mu.Unlock()
		return
	}
	b.dropped, b.lastReport = 0, now
	b.mu.Unlock()
	otel.Handle(fmt.Errorf("%s: %d spans dropped: the queue of %d was full", b.name, dropped, b.cfg.Queue))
}

func envMillis(prefix, name string, def time.Duration) time.Duration {
	if n, ok := envPositive(prefix, name); ok {
		return time.Duration(n) * time.Millisecond
	}
	return def
}

func envInt(prefix, name string, def int) int {
	if n, ok := envPositive(prefix, name); ok {
		return n
	}
	return def
}

func envPositive(prefix, name string) (int, bool) {
	v := os.Getenv(name)
	if v == "" {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		otel.Handle(errors.New(prefix + ": " + name + "=" + strconv.Quote(v) + " is not a positive integer: the default is used"))
		return 0, false
	}
	return n, true
}
