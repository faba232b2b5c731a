// Package dynlib opens dynamic libraries for the packages opentoolgen generates
// from OpenDyn documents: what every such package shares, written once. It
// loads a library by path (dlopen on Unix, LoadLibraryW on Windows), looks up
// the functions a document describes, and keeps calls and Close apart: a call
// holds a read lock while it runs, Close waits for the calls in progress before
// it unloads the library, and the calls that follow fail.
//
// The calls themselves stay in the generated packages, which have a C
// trampoline per prototype. A method calls the i-th function of its document
// so:
//
//	fn, ok := lib.Acquire(i) // read-locks lib
//	if !ok {
//		return dynlib.ErrLibraryClosed
//	}
//	r := C.otg_call_f(C.uintptr_t(fn), …) // the function, through its prototype
//	… // r converted: a returned pointer points into the library
//	lib.Release()
//
// It is part of the runtime of generated code, beside package runtime, which
// does not import it (it uses cgo on Unix).
package dynlib

import (
	"sync"
	"sync/atomic"
	"time"
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
// *Library) is not open: Acquire fails, Close does nothing.
//
// Calls and Close are kept apart by one counter, calls: 1 while the library
// is open plus the calls in progress, made negative by Close. Acquire adds
// one and the call goes ahead while the sum is above 1; Release takes it
// back. That is a read lock of one atomic addition each way, as
// sync.RWMutex's, but small enough that Acquire and Release are inlined into
// the generated methods (RWMutex.RLock alone filled the inlining budget, so
// Acquire was a function call). Close, which is rare, does not wait on a
// semaphore: it looks at the counter until the calls in progress have ended,
// at most every millisecond.
type Library struct {
	calls atomic.Int64
	fns   []uintptr // the addresses of the symbols given to Open

	mu   sync.Mutex // held by Close
	open bool
	h    handle
	path string
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
	l := &Library{fns: fns, open: true, h: h, path: path}
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

// Path returns the path the library was opened with ("" for a zero or nil
// Library).
func (l *Library) Path() string {
	if l == nil {
		return ""
	}
	return l.path
}

// Close waits for the calls in progress (Acquire to Release) and unloads the
// library; Acquire fails from then on. Closing a closed library (or a zero or
// nil Library) does nothing. Its error is an *LibraryError with the
// system's reason when the library could not be unloaded (it is closed all
// the same: Acquire fails).
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
	// From here calls is negative: Acquire fails. Wait until the calls in
	// progress have ended (calls back at -closed: the 1 of an open library
	// taken away with closed). Calls are not told to wake Close when they
	// end (that would cost each a branch and a call): Close looks again
	// after 1µs, 2µs… and then every millisecond.
	l.calls.Add(-closed - 1)
	for d := time.Microsecond; l.calls.Load() != -closed; d = min(2*d, time.Millisecond) {
		time.Sleep(d)
	}
	if err := freeLibrary(l.h); err != nil {
		return &LibraryError{Path: l.path, Err: err}
	}
	return nil
}
