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
// again and again while the heap is small: a soft memory limit of 64 MiB,
// with the collector off below it (GOGC=off), keeps GitHub's REST API at
// ~75 MB and spares it those collections. But a limit the live heap comes
// near makes the collector run back to back (Stripe's document, 45–75 MB
// live, spent more than half of its CPU in the collector), and a limit that
// follows the live heap closely paces a large heap worse than the default
// (Microsoft Graph's, 400 MB live: 42 s of CPU instead of 16). So once a
// collection finds a live heap of three quarters of the limit or more (which
// GitHub's document does not reach), the limit is removed and the
// collector paced by GOGC=200: it collects when the heap has grown by twice
// as much as the Go default lets it (GOGC=100). On Microsoft Graph's
// document GOGC=150 cost 14 % less CPU than 100 (peak 0.8–1.0 GB instead
// of 0.72–0.78), and 200 about 8 % less time again than 150 (five rounds
// alternating, 2026-11-27: 7.97 s median wall against 8.62, for a peak of
// 1.0–1.1 GB instead of 0.87–0.99).
// Peak memory stays linear in the document; GOGC or GOMEMLIMIT in the
// environment decide instead.
const (
	minMemoryLimit = 64 << 20
	handoverLive   = minMemoryLimit / 4 * 3
	largeGCPercent = 200 // GOGC once the live heap is handoverLive or more
)

// tuneGC paces the collector as above, unless GOGC or GOMEMLIMIT is set
// (then the environment decides, and tuneGC returns nil). stop ends the
// tuning, if the live heap has not already ended it, and restores the
// limit and GOGC it found.
func tuneGC() (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return nil
	}
	t := &gcTuner{sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	t.limit = debug.SetMemoryLimit(minMemoryLimit)
	t.percent = debug.SetGCPercent(-1)
	runtime.SetFinalizer(&gcSentinel{t: t}, (*gcSentinel).collected)
	return t.stop
}

type gcTuner struct {
	mu         sync.Mutex
	handedOver bool // to largeGCPercent without a limit
	stopped    bool
	limit      int64 // found by tuneGC, restored at the end
	percent    int   // the same
	sample     []metrics.Sample
}

// stop hands the collector back to the limit and GOGC tuneGC found.
func (t *gcTuner) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.stopped {
		t.stopped = true
		debug.SetMemoryLimit(t.limit)
		debug.SetGCPercent(t.percent)
	}
}

// adjust hands the collector over to largeGCPercent, without the limit,
// when the last collection found a live heap of handoverLive or more, and
// reports whether the tuning goes on.
func (t *gcTuner) adjust() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped || t.handedOver {
		return false
	}
	metrics.Read(t.sample)
	if s := t.sample[0]; s.Value.Kind() == metrics.KindUint64 && s.Value.Uint64() >= handoverLive {
		t.handedOver = true
		debug.SetMemoryLimit(t.limit)
		debug.SetGCPercent(largeGCPercent)
		return false
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
