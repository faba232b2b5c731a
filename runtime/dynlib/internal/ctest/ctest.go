// Package ctest calls functions by address for the tests of runtime/dynlib,
// which cannot use cgo in test files: plainly, and through a trampoline with
// the guard generated headers have (templates/opendyn_guard.h, included from
// the module's templates folder).
package ctest

/*
#cgo CFLAGS: -I${SRCDIR}/../../../../templates
#include <stdbool.h>
#include <stdint.h>
#include "opendyn_guard.h"

typedef int (*int_int_int)(int, int);

// watch is what testdata/lib.c's checked records, in this program's memory,
// which outlives the library: set_watch gives the library its address.
struct watch {
	int unloaded;       // set by the library's destructor (dlclose)
	int inflight;       // calls of checked in progress
	int late;           // calls of checked that began after the destructor
	int busy_at_unload; // calls of checked in progress during the destructor
	int calls;          // calls of checked
};
static struct watch the_watch;

static void watch(uintptr_t set_watch) {
	__atomic_store_n(&the_watch.unloaded, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&the_watch.late, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&the_watch.busy_at_unload, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&the_watch.calls, 0, __ATOMIC_SEQ_CST);
	((void (*)(struct watch *))set_watch)(&the_watch);
}

static struct watch watched(void) {
	struct watch w;
	w.unloaded = __atomic_load_n(&the_watch.unloaded, __ATOMIC_SEQ_CST);
	w.inflight = __atomic_load_n(&the_watch.inflight, __ATOMIC_SEQ_CST);
	w.late = __atomic_load_n(&the_watch.late, __ATOMIC_SEQ_CST);
	w.busy_at_unload = __atomic_load_n(&the_watch.busy_at_unload, __ATOMIC_SEQ_CST);
	w.calls = __atomic_load_n(&the_watch.calls, __ATOMIC_SEQ_CST);
	return w;
}

static int call_int_int_int(uintptr_t fn, int a, int b) {
	return ((int_int_int)fn)(a, b);
}

// guarded_int_int_int is a generated header's trampoline of int f(int, int).
typedef struct {
	int r;
	bool ok;
} ret_int;
static ret_int guarded_int_int_int(uintptr_t g, uintptr_t fn, int a, int b) {
	ret_int r = {0};
	otg_slot *s = otg_enter(g);
	if (s != NULL) {
		r.r = ((int_int_int)fn)(a, b);
		r.ok = true;
		otg_leave(s);
	}
	return r;
}
*/
import "C"

// CallIntIntInt calls the C function int f(int, int) at addr.
func CallIntIntInt(addr uintptr, a, b int32) int32 {
	return int32(C.call_int_int_int(C.uintptr_t(addr), C.int(a), C.int(b)))
}

// GuardedIntIntInt calls the C function int f(int, int) at addr through a
// guarded trampoline, as a generated method does with what
// (*dynlib.Library).Func returns: ok is false when the guard is closed and the
// function was not called.
func GuardedIntIntInt(guard, addr uintptr, a, b int32) (r int32, ok bool) {
	v := C.guarded_int_int_int(C.uintptr_t(guard), C.uintptr_t(addr), C.int(a), C.int(b))
	return int32(v.r), bool(v.ok)
}

// Watch gives the library its watch, through its function void
// set_watch(struct watch *) at setWatch, with every count but inflight reset.
func Watch(setWatch uintptr) { C.watch(C.uintptr_t(setWatch)) }

// Watched is what the library has recorded in its watch.
type Watched struct {
	Unloaded     bool // the library's destructor has run
	InFlight     int  // calls of checked in progress
	Late         int  // calls of checked that began after the destructor
	BusyAtUnload int  // calls of checked that the destructor saw in progress
	Calls        int  // calls of checked since Watch
}

// ReadWatch returns what the library has recorded.
func ReadWatch() Watched {
	w := C.watched()
	return Watched{Unloaded: w.unloaded != 0, InFlight: int(w.inflight), Late: int(w.late), BusyAtUnload: int(w.busy_at_unload), Calls: int(w.calls)}
}
