//go:build unix && cgo

package dynlib

/*
#cgo linux LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

// otg_dlopen opens the library at path, or writes why it cannot into msg.
// dlerror's message is the calling thread's: it is read in the same C call.
static void *otg_dlopen(const char *path, char *msg, size_t n) {
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		const char *e = dlerror();
		snprintf(msg, n, "%s", e != NULL ? e : "dlopen failed");
	}
	return h;
}

// otg_dlsym returns the address of the function name, 0 when it is missing.
static uintptr_t otg_dlsym(void *h, const char *name) {
	return (uintptr_t)dlsym(h, name);
}

// otg_dlclose closes the library, or writes why it cannot into msg.
static int otg_dlclose(void *h, char *msg, size_t n) {
	int r = dlclose(h);
	if (r != 0) {
		const char *e = dlerror();
		snprintf(msg, n, "%s", e != NULL ? e : "dlclose failed");
	}
	return r;
}
*/
import "C"

import (
	"errors"
	"strings"
	"unsafe"
)

// handle is what dlopen returns.
type handle = unsafe.Pointer

// errPathNUL is the error of a path with a NUL byte, which C would read as its
// end.
var errPathNUL = errors.New("the path contains a NUL byte")

// loadLibrary opens the library at path with dlopen(RTLD_NOW|RTLD_LOCAL).
func loadLibrary(path string) (handle, error) {
	if strings.IndexByte(path, 0) >= 0 {
		return nil, errPathNUL
	}
	p := C.CString(path)
	defer C.free(unsafe.Pointer(p))
	var msg [512]C.char
	h := C.otg_dlopen(p, &msg[0], C.size_t(len(msg)))
	if h == nil {
		return nil, errors.New(C.GoString(&msg[0]))
	}
	return h, nil
}

// lookupSymbol returns the address of s, 0 when the library lacks it.
func lookupSymbol(h handle, s Symbol) uintptr {
	if strings.IndexByte(s.Name, 0) >= 0 {
		return 0 // dlsym would look up the name up to the NUL
	}
	p := C.CString(s.Name)
	defer C.free(unsafe.Pointer(p))
	return uintptr(C.otg_dlsym(h, p))
}

// freeLibrary closes the library with dlclose.
func freeLibrary(h handle) error {
	var msg [512]C.char
	if C.otg_dlclose(h, &msg[0], C.size_t(len(msg))) != 0 {
		return errors.New(C.GoString(&msg[0]))
	}
	return nil
}
