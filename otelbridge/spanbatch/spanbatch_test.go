package spanbatch_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/opentoolgen/opentoolgen/otelbridge/spanbatch"
)

// recorder is an exporter that keeps the batches it is given, checks that
// it is never called concurrently, and can be held (block) until released.
type recorder struct {
	mu       sync.Mutex
	batches  [][]string // span names per export
	inExport atomic.Int32
	overlap  atomic.Bool
	block    chan struct{} // when non-nil, ExportSpans waits for it (or ctx)
	shutdown atomic.Bool
}

func (r *recorder) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if r.inExport.Add(1) > 1 {
		r.overlap.Store(true)
	}
	defer r.inExport.Add(-1)
	if r.block != nil {
		select {
		case <-r.block:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	names := make([]string, len(spans))
	for i, s := range spans {
		names[i] = s.Name()
	}
	r.mu.Lock()
	r.batches = append(r.batches, names)
	r.mu.Unlock()
	return nil
}

func (r *recorder) Shutdown(context.Context) error { r.shutdown.Store(true); return nil }

func (r *recorder) got() (batches [][]string, spans int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range r.batches {
		spans += len(b)
	}
	return append([][]string(nil), r.batches...), spans
}

// waitSpans waits until r has n spans (up to 10 s) and returns its batches.
func (r *recorder) waitSpans(t *testing.T, n int) [][]string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		batches, got := r.got()
		if got >= n {
			return batches
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d spans exported, want %d: %v", got, n, batches)
		}
	}
}

func provider(t *testing.T, p *spanbatch.Processor, opts ...sdktrace.TracerProviderOption) *sdktrace.TracerProvider {
	tp := sdktrace.NewTracerProvider(append(opts, sdktrace.WithSpanProcessor(p))...)
	t.Cleanup(func() { tp.Shutdown(context.Background()) })
	return tp
}

func endSpans(tp *sdktrace.TracerProvider, prefix string, n int) {
	tr := tp.Tracer("test")
	for i := range n {
		_, span := tr.Start(context.Background(), fmt.Sprintf("%s%d", prefix, i))
		span.End()
	}
}

// errorsSeen collects what is given to otel.Handle while the test runs.
func errorsSeen(t *testing.T) func() []string {
	var mu sync.Mutex
	var seen []string
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
		mu.Lock()
		seen = append(seen, err.Error())
		mu.Unlock()
	}))
	t.Cleanup(func() { otel.SetErrorHandler(otel.ErrorHandlerFunc(func(error) {})) })
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

func TestFullBatchExportedWithoutDelay(t *testing.T) {
	r := &recorder{}
	p := spanbatch.New(r, spanbatch.WithScheduleDelay(time.Hour), spanbatch.WithMaxExportBatchSize(4))
	tp := provider(t, p)
	endSpans(tp, "a", 4)
	batches := r.waitSpans(t, 4)
	if len(batches) != 1 || strings.Join(batches[0], ",") != "a0,a1,a2,a3" {
		t.Fatalf("batches %v, want one of a0..a3", batches)
	}
	endSpans(tp, "b", 3) // not a full batch: waits for the delay, or a flush
	time.Sleep(50 * time.Millisecond)
	if _, n := r.got(); n != 4 {
		t.Fatalf("%d spans exported before the delay, want 4", n)
	}
	if err := tp.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	batches, _ = r.got()
	if len(batches) != 2 || strings.Join(batches[1], ",") != "b0,b1,b2" {
		t.Fatalf("batches %v, want b0..b2 flushed", batches)
	}
}

func TestScheduleDelay(t *testing.T) {
	r := &recorder{}
	tp := provider(t, spanbatch.New(r, spanbatch.WithScheduleDelay(20*time.Millisecond)))
	endSpans(tp, "s", 3)
	if batches := r.waitSpans(t, 3); len(batches) != 1 {
		t.Fatalf("batches %v, want one", batches)
	}
}

func TestQueueFullDropsAndReports(t *testing.T) {
	seen := errorsSeen(t)
	r := &recorder{block: make(chan struct{})}
	p := spanbatch.New(r, spanbatch.WithScheduleDelay(time.Hour), spanbatch.WithMaxQueueSize(4), spanbatch.WithMaxExportBatchSize(2))
	tp := provider(t, p)
	endSpans(tp, "x", 2) // a full batch: the exporter takes it and holds
	for r.inExport.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	endSpans(tp, "y", 7) // 4 queued, 3 dropped
	close(r.block)
	if err := tp.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	batches, n := r.got()
	if n != 6 {
		t.Fatalf("%d spans exported, want 6 (2 + a queue of 4): %v", n, batches)
	}
	for _, b := range batches {
		if len(b) > 2 {
			t.Fatalf("a batch of %d, more than the maximum 2: %v", len(b), batches)
		}
	}
	if got := strings.Join(seen(), "\n"); !strings.Contains(got, "3 spans dropped: the queue of 4 was full") {
		t.Fatalf("errors reported %q, want the 3 dropped", got)
	}
	if p.Dropped() != 3 {
		t.Fatalf("Dropped() = %d, want 3", p.Dropped())
	}
}

func TestUnsampledNotExported(t *testing.T) {
	r := &recorder{}
	tp := provider(t, spanbatch.New(r, spanbatch.WithMaxExportBatchSize(1)), sdktrace.WithSampler(sdktrace.NeverSample()))
	endSpans(tp, "n", 5)
	if err := tp.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if batches, n := r.got(); n != 0 {
		t.Fatalf("unsampled spans exported: %v", batches)
	}
}

func TestShutdownExportsQueued(t *testing.T) {
	r := &recorder{}
	p := spanbatch.New(r, spanbatch.WithScheduleDelay(time.Hour))
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(p))
	endSpans(tp, "q", 5)
	if err := tp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, n := r.got(); n != 5 || !r.shutdown.Load() {
		t.Fatalf("after Shutdown: %d spans exported (want 5), exporter shut down %v", n, r.shutdown.Load())
	}
	// Spans of a shut-down processor are dropped; flush and shutdown again do nothing.
	other := sdktrace.NewTracerProvider() // tp is shut down: a span of another, given to p directly
	_, span := other.Tracer("test").Start(context.Background(), "late")
	span.End()
	p.OnEnd(span.(sdktrace.ReadOnlySpan))
	if err := p.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if batches, n := r.got(); n != 5 {
		t.Fatalf("spans exported after Shutdown: %v", batches)
	}
}

func TestShutdownHonoursContext(t *testing.T) {
	r := &recorder{block: make(chan struct{})}
	defer close(r.block)
	p := spanbatch.New(r, spanbatch.WithScheduleDelay(time.Hour))
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(p))
	endSpans(tp, "q", 1)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := p.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown with an exporter that hangs: %v, want the context's deadline", err)
	}
}

func TestExportTimeout(t *testing.T) {
	errorsSeen(t)
	r := &recorder{block: make(chan struct{})} // never released: the export ends at its timeout
	defer close(r.block)
	tp := provider(t, spanbatch.New(r, spanbatch.WithScheduleDelay(time.Hour), spanbatch.WithExportTimeout(20*time.Millisecond)))
	endSpans(tp, "t", 2)
	if err := tp.ForceFlush(context.Background()); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("ForceFlush: %v, want the export's deadline exceeded", err)
	}
}

// Many goroutines end spans at once: every span is exported once, in
// batches no larger than the maximum, the exporter never called twice at
// once.
func TestConcurrentSpans(t *testing.T) {
	r := &recorder{}
	tp := provider(t, spanbatch.New(r, spanbatch.WithScheduleDelay(time.Hour), spanbatch.WithMaxQueueSize(1<<16), spanbatch.WithMaxExportBatchSize(64)))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() { endSpans(tp, fmt.Sprintf("g%d-", g), 1000) })
	}
	wg.Wait()
	if err := tp.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	batches, n := r.got()
	if n != 8000 {
		t.Fatalf("%d spans exported, want 8000", n)
	}
	seen := map[string]bool{}
	for _, b := range batches {
		if len(b) > 64 {
			t.Fatalf("a batch of %d spans, more than 64", len(b))
		}
		for _, name := range b {
			if seen[name] {
				t.Fatalf("span %s exported twice", name)
			}
			seen[name] = true
		}
	}
	if r.overlap.Load() {
		t.Fatal("the exporter was called concurrently")
	}
}

func TestEnvironment(t *testing.T) {
	seen := errorsSeen(t)
	t.Setenv("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "3")
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "3600000")
	t.Setenv("OTEL_BSP_MAX_QUEUE_SIZE", "lots")
	r := &recorder{}
	tp := provider(t, spanbatch.New(r))
	endSpans(tp, "e", 3) // a full batch of 3: exported without the hour's delay
	if batches := r.waitSpans(t, 3); len(batches) != 1 {
		t.Fatalf("batches %v, want one of 3", batches)
	}
	if got := strings.Join(seen(), "\n"); !strings.Contains(got, `OTEL_BSP_MAX_QUEUE_SIZE="lots" is not a positive integer`) {
		t.Fatalf("errors reported %q, want the bad variable named", got)
	}
	// An option wins over the environment.
	r2 := &recorder{}
	tp2 := provider(t, spanbatch.New(r2, spanbatch.WithMaxExportBatchSize(2)))
	endSpans(tp2, "o", 2)
	if batches := r2.waitSpans(t, 2); len(batches) != 1 {
		t.Fatalf("batches %v, want one of 2", batches)
	}
}
