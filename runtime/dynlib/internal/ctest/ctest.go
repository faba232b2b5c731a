// Package ctest calls functions by address for the tests of runtime/dynlib,
// which cannot use cgo in test files.
package ctest

/*
#include <stdint.h>

typedef int (*int_int_int)(int, int);

static int call_int_int_int(uintptr_t fn, int a, int b) {
	return ((int_int_int)fn)(a, b);
}
*/
import "C"

// CallIntIntInt calls the C function int f(int, int) at addr.
func CallIntIntInt(addr uintptr, a, b int32) int32 {
	return int32(C.call_int_int_int(C.uintptr_t(addr), C.int(a), C.int(b)))
}
