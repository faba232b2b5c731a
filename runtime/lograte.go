package runtime

import (
	"sync"
	"time"
)

// Logs of a tool's failures (panics, invalid results), rate-limited: a tool
// that fails on every call must not write a stack per call, and callers choose
// the function names, so what is kept per name is bounded.

const (
	// logEvery is how often a failure of one function is logged after its
	// first: each time with the number of failures not logged since.
	logEvery = time.Minute
	// logFunctions bounds the functions whose failures are counted apart; the
	// failures of functions past it, or with names longer than logNameMax,
	// are counted together.
	logFunctions = 256
	logNameMax   = 128
)

// Kinds of failure, counted apart.
const (
	failPanic = iota
	failResult
	failLoad
	failKinds
)

// logLimiter decides which failures are logged.
type logLimiter struct {
	every time.Duration
	mu    sync.Mutex
	fns   map[logKey]*logState
	other [failKinds]logState // the failures of functions not in fns
}

type logKey struct {
	kind int
	fn   string
}

type logState struct {
	logged     bool      // the first failure has been logged
	last       time.Time // when a failure was last logged
	suppressed int       // failures not logged since
}

func newLogLimiter(every time.Duration) *logLimiter {
	return &logLimiter{every: every, fns: map[logKey]*logState{}}
}

// allow counts a failure of kind in function fn and tells whether to log it:
// log is true for the first failure of fn (full reports this one with its
// stack) and then at most once per interval, with the number of failures that
// were not logged since (suppressed).
func (l *logLimiter) allow(kind int, fn string) (log, full bool, suppressed int) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.fns[logKey{kind, fn}]
	if st == nil {
		if len(fn) <= logNameMax && len(l.fns) < logFunctions {
			st = new(logState)
			l.fns[logKey{kind, fn}] = st
		} else {
			st = &l.other[kind]
		}
	}
	switch {
	case !st.logged:
		st.logged, st.last = true, now
		return true, true, 0
	case now.Sub(st.last) >= l.every:
		n := st.suppressed
		st.last, st.suppressed = now, 0
		return true, false, n
	}
	st.suppressed++
	return false, false, 0
}

// logName shortens a function name chosen by the caller for a log line.
func logName(fn string) string {
	if len(fn) > logNameMax {
		return truncate([]byte(fn), logNameMax)
	}
	return fn
}
