package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestMemoryLimit: 64 MiB up to a live heap of about 37 MiB, then half
// again the live heap plus 8 MiB.
func TestMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, 64 << 20},
		{20 << 20, 64 << 20},
		{36 << 20, 64 << 20},
		{40 << 20, 68 << 20},
		{64 << 20, 104 << 20},
		{400 << 20, 608 << 20},
	} {
		if got := memoryLimit(c.live); got != c.want {
			t.Errorf("memoryLimit(%d MiB) = %d MiB, want %d MiB", c.live>>20, got>>20, c.want>>20)
		}
	}
}

// TestTuneGC: with GOGC and GOMEMLIMIT unset the collector runs at the limit
// only (GOGC off), which starts at 64 MiB and follows a live heap that grows
// past it after a collection; with GOGC set, nothing is tuned; stop restores
// the limit and GOGC.
func TestTuneGC(t *testing.T) {
	for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
		if v, ok := os.LookupEnv(k); ok {
			os.Unsetenv(k)
			t.Cleanup(func() { os.Setenv(k, v) })
		}
	}
	before := debug.SetMemoryLimit(-1)
	percent := debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	stop := tuneGC()
	if stop == nil {
		t.Fatal("tuneGC without GOGC and GOMEMLIMIT: no tuning")
	}
	defer func() {
		stop()
		if got := debug.SetMemoryLimit(-1); got != before {
			t.Errorf("after stop the limit is %d, want %d", got, before)
		}
		if got := debug.SetGCPercent(percent); got != percent {
			t.Errorf("after stop GOGC is %d, want %d", got, percent)
		}
	}()
	if got := debug.SetMemoryLimit(-1); got != minMemoryLimit {
		t.Errorf("limit at the start: %d, want %d", got, minMemoryLimit)
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GOGC while tuning: %d, want off (-1)", got)
	}
	live := make([][]byte, 100) // 100 MiB live, with pointers to scan
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // the finalizer runs in its own goroutine
		if got := debug.SetMemoryLimit(-1); got >= memoryLimit(100<<20) {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("limit with 100 MiB live: %d MiB, want at least %d MiB", got>>20, memoryLimit(100<<20)>>20)
		}
	}
	runtime.KeepAlive(live)

	t.Setenv("GOGC", "100")
	if tuneGC() != nil {
		t.Error("tuneGC with GOGC set: tuning")
	}
}
