package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestTuneGC: with GOGC and GOMEMLIMIT unset the collector runs at the limit
// only (GOGC off), 64 MiB, until a collection finds a live heap of 48 MiB or
// more, which hands the collector over to GOGC=200 and the limit found;
// with GOGC set, nothing is tuned; stop restores the limit and GOGC.
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
		limit := debug.SetMemoryLimit(-1)
		gogc := debug.SetGCPercent(-1)
		if gogc != -1 { // handed back: put it back as it was
			debug.SetGCPercent(gogc)
			if gogc != largeGCPercent || limit != before {
				t.Errorf("handed over with GOGC %d and limit %d, want %d and %d", gogc, limit, largeGCPercent, before)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("with 100 MiB live, GOGC is still off and the limit %d MiB", limit>>20)
		}
	}
	runtime.KeepAlive(live)

	t.Setenv("GOGC", "100")
	if tuneGC() != nil {
		t.Error("tuneGC with GOGC set: tuning")
	}
}
