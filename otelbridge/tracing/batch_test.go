package tracing_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/opentoolgen/opentoolgen/otelbridge/tracing"
)

func endSpans(tp trace.TracerProvider, prefix string, n int) {
	tr := tp.Tracer("test")
	for i := range n {
		_, s := tr.Start(context.Background(), fmt.Sprint(prefix, i))
		s.End()
	}
}

// waitSpans waits until c holds n spans (up to 10 s).
func waitSpans(t *testing.T, c *collector, n int) []int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		spans, batches := c.got()
		if len(spans) >= n {
			return batches
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d spans exported, want %d", len(spans), n)
		}
	}
}

// A full batch is exported at once, without waiting for the delay; the
// rest waits for ForceFlush.
func TestBatchSize(t *testing.T) {
	c := &collector{}
	tp := newProvider(t, c, tracing.WithScheduleDelay(time.Hour), tracing.WithMaxExportBatchSize(4))
	endSpans(tp, "s", 10)
	if batches := waitSpans(t, c, 8); !slices.Equal(batches, []int{4, 4}) {
		t.Fatalf("batches %v, want [4 4]", batches)
	}
	if _, batches := flushed(t, tp, c); !slices.Equal(batches, []int{4, 4, 2}) {
		t.Fatalf("batches %v after ForceFlush, want [4 4 2]", batches)
	}
}

// A batch not full is exported after the schedule delay.
func TestScheduleDelay(t *testing.T) {
	c := &collector{}
	tp := newProvider(t, c, tracing.WithScheduleDelay(20*time.Millisecond))
	endSpans(tp, "s", 3)
	waitSpans(t, c, 3)
}

// When the queue is full, spans are dropped at once (End never blocks),
// counted by Dropped and reported.
func TestQueueFullDrops(t *testing.T) {
	seen := errorsSeen(t)
	c := &collector{block: make(chan struct{}), busy: make(chan struct{})}
	tp := newProvider(t, c, tracing.WithScheduleDelay(time.Hour), tracing.WithMaxQueueSize(4), tracing.WithMaxExportBatchSize(2))
	endSpans(tp, "x", 2) // a full batch: the exporter takes it and holds
	<-c.busy
	endSpans(tp, "y", 7) // 4 queued, 3 dropped
	close(c.block)
	spans, batches := flushed(t, tp, c)
	if len(spans) != 6 || slices.Max(batches) > 2 {
		t.Fatalf("%d spans exported in %v, want 6 (2 + a queue of 4) in batches of 2", len(spans), batches)
	}
	if tp.Dropped() != 3 {
		t.Fatalf("Dropped() = %d, want 3", tp.Dropped())
	}
	if got := seen(); !strings.Contains(got, "tracing: 3 spans dropped: the queue of 4 was full") {
		t.Fatalf("reported %q", got)
	}
}

// Shutdown exports what is queued, shuts the exporter down; spans that end
// later are not exported, and Shutdown again does nothing.
func TestShutdownFlushes(t *testing.T) {
	c := &collector{}
	tp := tracing.NewProvider(c, tracing.WithScheduleDelay(time.Hour))
	tr := tp.Tracer("test")
	_, open := tr.Start(context.Background(), "open")
	endSpans(tp, "s", 3)
	if err := tp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if spans, _ := c.got(); len(spans) != 3 || !c.shutdown {
		t.Fatalf("%d spans exported, exporter shut down %v", len(spans), c.shutdown)
	}
	open.End()
	endSpans(tp, "late", 2)
	if err := tp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := tp.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if spans, _ := c.got(); len(spans) != 3 {
		t.Fatalf("%d spans exported after Shutdown", len(spans))
	}
}

// ForceFlush gives up when its context ends before the export does.
func TestForceFlushContext(t *testing.T) {
	c := &collector{block: make(chan struct{})}
	tp := newProvider(t, c, tracing.WithScheduleDelay(time.Hour))
	defer close(c.block)
	endSpans(tp, "s", 1)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := tp.ForceFlush(ctx); err != context.DeadlineExceeded {
		t.Fatalf("ForceFlush: %v", err)
	}
}

// Spans ended by many goroutines are exported once each, in batches no
// larger than the maximum, the exporter never called concurrently; the
// spans themselves are used concurrently.
func TestConcurrentSpans(t *testing.T) {
	c := &collector{}
	tp := newProvider(t, c, tracing.WithScheduleDelay(time.Millisecond), tracing.WithMaxQueueSize(1<<16), tracing.WithMaxExportBatchSize(64))
	tr := tp.Tracer("test")
	ctx, parent := tr.Start(context.Background(), "parent")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				_, s := tr.Start(ctx, fmt.Sprintf("g%d-%d", g, i))
				s.AddEvent("e")
				parent.SetAttributes(attribute.Int(fmt.Sprint("g", g), i))
				s.End()
			}
		})
	}
	wg.Wait()
	parent.End()
	spans, batches := flushed(t, tp, c)
	if len(spans) != 4001 || slices.Max(batches) > 64 {
		t.Fatalf("%d spans in batches up to %d", len(spans), slices.Max(batches))
	}
	names := map[string]bool{}
	for _, s := range spans {
		if names[s.Name()] {
			t.Fatalf("%s exported twice", s.Name())
		}
		names[s.Name()] = true
	}
	if c.overlap {
		t.Fatal("the exporter was called concurrently")
	}
	if n := parent.(tracing.ReadOnlySpan).ChildSpanCount(); n != 4000 {
		t.Fatalf("ChildSpanCount %d", n)
	}
	if got := kvs(parent.(tracing.ReadOnlySpan).Attributes()); !strings.Contains(got, "g7=INT64:499") {
		t.Fatalf("parent's attributes %s", got)
	}
}

// The OTEL_BSP_* variables configure the batching; a bad one is reported
// and its default used.
func TestBatchEnvironment(t *testing.T) {
	seen := errorsSeen(t)
	t.Setenv("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "3")
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "3600000")
	t.Setenv("OTEL_BSP_MAX_QUEUE_SIZE", "lots")
	c := &collector{}
	tp := newProvider(t, c)
	endSpans(tp, "s", 7)
	if batches := waitSpans(t, c, 6); !slices.Equal(batches, []int{3, 3}) {
		t.Fatalf("batches %v", batches)
	}
	if got := seen(); !strings.Contains(got, `tracing: OTEL_BSP_MAX_QUEUE_SIZE="lots" is not a positive integer`) {
		t.Fatalf("reported %q", got)
	}
}
