// Package dynlib opens dynamic libraries for the packages opentoolgen generates
// from OpenDyn documents: what every such package shares, written once. It
// loads a library by path (dlopen on Unix, LoadLibraryW on Windows), looks up
// the functions a document describes, and keeps calls and Close apart: Close
// waits for the calls in progress before it unloads the library, and the calls
// that follow fail.
//
// The calls themselves stay in the generated packages, which have a C
// trampoline per prototype. A method calls the i-th function of its document
// so:
//
//	g, fn := lib.Func(i) // the library's guard and the function's address
//	r := C.otg_call_f(C.uintptr_t(g), C.uintptr_t(fn), …)
//	if !r.ok { // the library is closed: the function was not called
//		return dynlib.ErrLibraryClosed
//	}
//
// The trampoline marks the calling thread's slot as in a call of the library,
// then reads the guard's closed flag (templates/opendyn_guard.h, which the
// generated header holds): no atomic read-modify-write per call. Close sets
// the flag, makes every thread of the process pass a memory barrier
// (membarrier on Linux, FlushProcessWriteBuffers on Windows; where there is
// none, each call fences instead), and waits until no slot names the library.
//
// A function that returns a pointer, which points into the library and is
// read after the call, is called under a lock instead:
//
//	fn, ok := lib.Acquire(i)
//	if !ok {
//		return dynlib.ErrLibraryClosed
//	}
//	r := C.otg_call_f(C.uintptr_t(fn), …)
//	… // r converted
//	lib.Release()
//
// It is part of the runtime of generated code, beside package runtime, which
// does not import it (it uses cgo on Unix).
package dynlib

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Symbol is a function of a library, as Open looks it up.
type Symbol struct {
	// Name is the exported name.
	Name string
	// Stdcall32 is the name 32-bit Windows compilers give a stdcall function
	// (name@bytes of arguments, without the leading underscore some add). On
	// windows/386, when Name is missing, Open tries Stdcall32 and then "_" +
	// Stdcall32. Empty for cdecl functions.
	Stdcall32 string
}

// Library is a dynamic library opened with Open, with the addresses of its
// functions. It is safe for concurrent use. A zero Library (and a nil
// *Library) is not open: Acquire fails, Func returns a closed guard, Close
// does nothing.
//
// Calls through a guarded trampoline are kept from Close by g (see the
// package's doc). Calls under Acquire and Release are kept from it by one
// counter, calls: 1 while the library is open plus the calls in progress, made
// negative by Close. Acquire adds one and the call goes ahead while the sum is
// above 1; Release takes it back. Close, which is rare, does not wait on a
// semaphore: it looks at the counter and the slots until the calls in
// progress have ended, at most every millisecond.
type Library struct {
	calls atomic.Int64
	g     *guard    // nil in a zero Library
	fns   []uintptr // the addresses of the symbols given to Open

	mu   sync.Mutex // held by Close
	open bool
	h    handle
	path string
}

// slot is a thread's mark, templates/opendyn_guard.h's otg_slot: in is the
// address of the guard of the library the thread is calling into, 0 when
// none. Slots are C memory, allocated and linked into slots by the
// trampolines, never freed.
type slot struct {
	in   uintptr
	next *slot
}

// guard is what a guarded trampoline reads, templates/opendyn_guard.h's
// otg_guard. C code keeps its address in a slot during a call, and calls may
// read it after Close: guards are pinned and never freed (one per Open).
type guard struct {
	closed atomic.Uint32 // set by Close
	fence  uint32        // 1: no process-wide barrier, each call fences
	slots  *atomic.Pointer[slot]
}

// slots is the head of the list of every thread's slots, of every package.
var slots atomic.Pointer[slot]

var (
	guardsMu sync.Mutex
	guards   goruntime.Pinner // never unpinned: calls may read a guard after Close
	// closedGuard is the guard Func returns for a library that is not open.
	closedGuard = newGuard(true)
	// fence is the guards' fence: 0 once the process-wide barrier is
	// available (registerBarrier), else 1.
	fence = sync.OnceValue(func() uint32 {
		if registerBarrier() {
			return 0
		}
		return 1
	})
)

// newGuard returns a new pinned guard.
func newGuard(closed bool) *guard {
	g := &guard{fence: 1, slots: &slots}
	if closed {
		g.closed.Store(1)
	} else {
		g.fence = fence()
	}
	guardsMu.Lock()
	guards.Pin(g)
	guardsMu.Unlock()
	return g
}

// closed is what Close subtracts from calls: far more than calls can be in
// progress, so that the sum stays negative while it is closed.
const closed = 1 << 62

// Open loads the dynamic library at path (dlopen with RTLD_NOW|RTLD_LOCAL;
// LoadLibraryW on Windows) and looks up every one of symbols, whose indices
// are those Acquire takes. Its error is a *LibraryError naming path
// and, when the library lacks symbols, every one of them (in the order of
// symbols; the library is then unloaded). An empty path is refused
// (ErrEmptyLibraryPath): dlopen would open the program itself.
func Open(path string, symbols []Symbol) (*Library, error) {
	if path == "" {
		return nil, &LibraryError{Path: path, Err: ErrEmptyLibraryPath}
	}
	h, err := loadLibrary(path)
	if err != nil {
		return nil, &LibraryError{Path: path, Err: err}
	}
	fns := make([]uintptr, len(symbols))
	var missing []string
	for i, s := range symbols {
		fns[i] = lookupSymbol(h, s)
		if fns[i] == 0 {
			missing = append(missing, s.Name)
		}
	}
	if missing != nil {
		freeLibrary(h)
		return nil, &LibraryError{Path: path, Missing: missing}
	}
	l := &Library{g: newGuard(false), fns: fns, open: true, h: h, path: path}
	l.calls.Store(1) // 1 while open, so that a zero Library is not
	return l, nil
}

// Acquire returns the address of the i-th symbol given to Open and holds l's
// read lock, which the caller releases with Release once the call is done and
// it no longer uses memory of the library (a returned pointer points into it):
// Close waits for it. ok is false, and no lock is held, when l is not open
// (closed, zero or nil) or i is not the index of a symbol.
//
// The caller must not call Close between Acquire and Release: Close would
// wait for the lock the caller holds.
func (l *Library) Acquire(i int) (addr uintptr, ok bool) {
	// Inlined: an atomic addition, and the address. An open library's
	// calls is 1 plus the calls in progress; a zero one's is 0, a closed
	// one's negative.
	if l == nil {
		return 0, false
	}
	if l.calls.Add(1) > 1 && uint(i) < uint(len(l.fns)) {
		return l.fns[i], true
	}
	l.calls.Add(-1)
	return 0, false
}

// Release releases the read lock a successful Acquire took.
func (l *Library) Release() { l.calls.Add(-1) }

// Func returns what the guarded trampoline of the i-th symbol given to Open
// takes: the address of l's guard, and the symbol's address. When l is not
// open (zero or nil), or i is not the index of a symbol, the guard is one that
// is always closed, with which the trampoline fails without calling. After
// Close, the guard is closed.
func (l *Library) Func(i int) (guard, addr uintptr) {
	// Inlined: no atomic operation, the trampoline reads the guard.
	if l == nil || l.g == nil || uint(i) >= uint(len(l.fns)) {
		return uintptr(unsafe.Pointer(closedGuard)), 0
	}
	return uintptr(unsafe.Pointer(l.g)), l.fns[i]
}

// Path returns the path the library was opened with ("" for a zero or nil
// Library).
func (l *Library) Path() string {
	if l == nil {
		return ""
	}
	return l.path
}

// Close waits for the calls in progress (through Func's guard, and from
// Acquire to Release) and unloads the library; Acquire fails from then on,
// and the trampolines fail with Func's guard. Closing a closed library (or a
// zero or nil Library) does nothing. Its error is an *LibraryError with the
// system's reason when the library could not be unloaded (it is closed all
// the same: the calls fail), or when the process-wide barrier failed: then
// the library is left loaded, since a call might still be running.
func (l *Library) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.open {
		return nil
	}
	l.open = false
	// From here calls is negative: Acquire fails; and the guard is closed:
	// the trampolines that read it fail. A trampoline that read it before
	// has marked its slot first: after the barrier (or, without one, the
	// fence each call makes), the mark is seen here. Wait until the calls
	// in progress have ended (calls back at -closed: the 1 of an open
	// library taken away with closed; no slot naming the guard). Calls are
	// not told to wake Close when they end (that would cost each a branch
	// and a call): Close looks again after 1µs, 2µs… and then every
	// millisecond.
	l.calls.Add(-closed - 1)
	l.g.closed.Store(1)
	if l.g.fence == 0 {
		if err := processBarrier(); err != nil {
			return &LibraryError{Path: l.path, Err: err}
		}
	}
	for d := time.Microsecond; l.busy(); d = min(2*d, time.Millisecond) {
		time.Sleep(d)
	}
	if err := freeLibrary(l.h); err != nil {
		return &LibraryError{Path: l.path, Err: err}
	}
	return nil
}

// busy reports whether a call of l is in progress: under Acquire, or marked in
// a thread's slot.
func (l *Library) busy() bool {
	if l.calls.Load() != -closed {
		return true
	}
	g := uintptr(unsafe.Pointer(l.g))
	for s := slots.Load(); s != nil; s = s.next {
		if atomic.LoadUintptr(&s.in) == g {
			return true
		}
	}
	return false
}
