// Package e2e holds what the end-to-end tests of the generated OpenDyn
// packages need outside test files, where cgo is not allowed: the baseline of
// the benchmarks (the same C functions linked at build time) and the leak
// check of the ASan run. The tests are in e2e_test.go and bench_test.go.
package e2e

/*
#define _GNU_SOURCE
#cgo CFLAGS: -I${SRCDIR}/..
#cgo LDFLAGS: -lm
#include <dlfcn.h>
#include <math.h>
#include "ctypes.c"

// leak_check runs LeakSanitizer now, when it is loaded (Go exits without
// running the C exit handlers, where it would run): 1 when it found leaks,
// 0 when not, -1 when it is not loaded.
static int leak_check(void) {
	int (*check)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "__lsan_do_recoverable_leak_check");
	return check == NULL ? -1 : check() != 0;
}
*/
import "C"

import "unsafe"

// Cos is libm's cos, linked at build time and called with cgo.
func Cos(x float64) float64 { return float64(C.cos(C.double(x))) }

// Adler32 is testdata/opendyn/ctypes.c's adler32, linked at build time and
// called with cgo.
func Adler32(data []byte) uint32 {
	return uint32(C.adler32((*C.uchar)(unsafe.Pointer(unsafe.SliceData(data))), C.int(len(data))))
}

// LeakCheck runs LeakSanitizer: loaded reports whether it is (the ASan run
// preloads it), leaks whether it found leaks, which it has then printed.
func LeakCheck() (leaks, loaded bool) {
	switch C.leak_check() {
	case -1:
		return false, false
	case 1:
		return true, true
	}
	return false, true
}
