package lograte

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Callers choose function names: what the limiter keeps is bounded.
func TestLogLimiterBounded(t *testing.T) {
	l := New(time.Hour)
	logged := 0
	for i := range 10000 {
		if log, _, _ := l.Allow(Panic, fmt.Sprint("f", i)); log {
			logged++
		}
	}
	long := strings.Repeat("x", NameMax+1)
	for range 3 {
		if log, _, _ := l.Allow(Panic, long); log {
			logged++
		}
	}
	if len(l.fns) != Functions {
		t.Errorf("%d functions kept, want %d", len(l.fns), Functions)
	}
	if logged != Functions+1 {
		t.Errorf("%d failures logged, want %d (one per function kept, one for all others)", logged, Functions+1)
	}
	if got := Name(long); len(got) > NameMax+len("…") {
		t.Errorf("a long name is logged with %d bytes", len(got))
	}
}
