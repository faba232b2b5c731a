// Package lograte decides which failures of a tool a server logs: the
// first of each function with its stack, then at most one per interval with
// the number not logged since, for a bounded number of function names.
package lograte

import (
	"sync"
	"time"
)

// The logs of a tool's failures (panics, invalid results), rate-limited: a tool
// that fails on every call must not write a stack per call, and callers choose
// the function names, so what is kept per name is bounded.

const (
	// Every is how often a failure of one function is logged after its
	// first: each time with the number of failures not logged since.
	Every = time.Minute
	// Functions bounds the functions whose failures are counted apart; the
	// failures of functions past it, or with names longer than NameMax,
	// are counted together.
	Functions = 256
	NameMax   = 128
)

// Kinds of failure, counted apart.
const (
	Panic = iota
	Result
	Load
	kinds
)

// Limiter decides which failures are logged.
type Limiter struct {
	every time.Duration
	mu    sync.Mutex
	fns   map[logKey]*logState
	other [kinds]logState // the failures of functions not in fns
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

// New returns a Limiter that logs a function's failures at most once per every
// after the first.
func New(every time.Duration) *Limiter {
	return &Limiter{every: every, fns: map[logKey]*logState{}}
}

// SetEvery sets the interval between two logs of a function's failures.
func (l *Limiter) SetEvery(every time.Duration) {
	l.mu.Lock()
	l.every = every
	l.mu.Unlock()
}

// Allow counts a failure of kind in function fn and tells whether to log it:
// log is true for the first failure of fn (full reports this one with its
// stack) and then at most once per interval, with the number of failures that
// were not logged since (suppressed).
func (l *Limiter) Allow(kind int, fn string) (log, full bool, suppressed int) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.fns[logKey{kind, fn}]
	if st == nil {
		if len(fn) <= NameMax && len(l.fns) < Functions {
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

// Name shortens a function name chosen by the caller for a log line.
func Name(fn string) string {
	if len(fn) > NameMax {
		return fn[:NameMax] + "…"
	}
	return fn
}
