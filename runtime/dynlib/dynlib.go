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
//		return opentool.ErrLibraryClosed
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

	opentool "github.com/opentoolgen/opentoolgen/runtime"
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
type Library struct {
	mu   sync.RWMutex // read-held by calls (Acquire to Release), held by Close
	fns  []uintptr    // the addresses of the symbols given to Open; all 0 once closed
	open bool
	h    handle
	path string
}

// Open loads the dynamic library at path (dlopen with RTLD_NOW|RTLD_LOCAL;
// LoadLibraryW on Windows) and looks up every one of symbols, whose indices
// are those Acquire takes. Its error is an *opentool.LibraryError naming path
// and, when the library lacks symbols, every one of them (in the order of
// symbols; the library is then unloaded). An empty path is refused
// (opentool.ErrEmptyLibraryPath): dlopen would open the program itself.
func Open(path string, symbols []Symbol) (*Library, error) {
	if path == "" {
		return nil, &opentool.LibraryError{Path: path, Err: opentool.ErrEmptyLibraryPath}
	}
	h, err := loadLibrary(path)
	if err != nil {
		return nil, &opentool.LibraryError{Path: path, Err: err}
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
		return nil, &opentool.LibraryError{Path: path, Missing: missing}
	}
	return &Library{fns: fns, open: true, h: h, path: path}, nil
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
	// Acquire is not inlined (sync.RWMutex.RLock alone fills the inlining
	// budget); the call costs nothing measurable next to the lock's atomic
	// operations (BenchmarkAcquireRelease).
	if l == nil {
		return 0, false
	}
	l.mu.RLock()
	if uint(i) < uint(len(l.fns)) && l.fns[i] != 0 {
		return l.fns[i], true
	}
	l.mu.RUnlock()
	return 0, false
}

// Release releases the read lock a successful Acquire took.
func (l *Library) Release() { l.mu.RUnlock() }

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
// nil Library) does nothing. Its error is an *opentool.LibraryError with the
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
	clear(l.fns)
	if err := freeLibrary(l.h); err != nil {
		return &opentool.LibraryError{Path: l.path, Err: err}
	}
	return nil
}
