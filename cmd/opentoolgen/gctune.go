package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The garbage collector's pace. Generation allocates mostly short-lived
// values (a file's jennifer tree, its syntax tree, its buffers) over a small
// live heap, so the Go default (collect when the heap has doubled) collects
// often while the heap is small and lets it grow to twice the live heap
// when it is not: a soft memory limit of 64 MiB kept GitHub's REST API at
// ~75 MB instead of ~90. But a fixed limit makes the collector run back to
// back once the live heap nears it (Stripe's document, 45–75 MB live, spent
// more than half of its CPU in the collector; Microsoft Graph's, 400 MB live,
// as much as the runtime lets it). So the collector runs only at the limit
// (GOGC=off), and the limit follows the live heap: after each collection it
// is the larger of minMemoryLimit and half again the live heap plus
// liveSlack. Peak memory is the larger of a constant and a multiple of the
// live heap, the collector's work stays proportional to what is allocated,
// and small heaps are not collected again and again on the way up.
const (
	minMemoryLimit = 64 << 20
	liveSlack      = 8 << 20
)

// tuneGC paces the collector as above, unless GOGC or GOMEMLIMIT is set
// (then the environment decides, and tuneGC returns nil). stop ends the
// tuning (after the next collection) and restores the limit and GOGC it
// found.
func tuneGC() (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return nil
	}
	before := debug.SetMemoryLimit(minMemoryLimit)
	percent := debug.SetGCPercent(-1)
	t := &gcTuner{sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	runtime.SetFinalizer(&gcSentinel{t: t}, (*gcSentinel).collected)
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.stopped = true
		debug.SetMemoryLimit(before)
		debug.SetGCPercent(percent)
	}
}

// memoryLimit is the soft memory limit for a live heap of live bytes.
func memoryLimit(live uint64) int64 {
	return int64(max(minMemoryLimit, live+live/2+liveSlack))
}

type gcTuner struct {
	mu      sync.Mutex
	stopped bool
	sample  []metrics.Sample
}

// adjust sets the limit for the live heap of the last collection and
// reports whether the tuning goes on.
func (t *gcTuner) adjust() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return false
	}
	metrics.Read(t.sample)
	if s := t.sample[0]; s.Value.Kind() == metrics.KindUint64 {
		debug.SetMemoryLimit(memoryLimit(s.Value.Uint64()))
	}
	return true
}

// gcSentinel is unreachable from the start: its finalizer runs after every
// collection, adjusts the limit and sets itself again. (It holds a pointer
// and is larger than 16 bytes so that it is not a tiny allocation, which
// might never be finalized.)
type gcSentinel struct {
	t *gcTuner
	_ [16]byte
}

func (s *gcSentinel) collected() {
	if s.t.adjust() {
		runtime.SetFinalizer(s, (*gcSentinel).collected)
	}
}
