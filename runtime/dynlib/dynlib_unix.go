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

// otg_membarrier issues cmd (MEMBARRIER_CMD_*, defined here for older
// headers) and returns 0, or errno; ENOSYS where there is no membarrier
// (before Linux 4.14 for the private expedited commands, and off Linux).
#ifdef __linux__
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef SYS_membarrier
static int otg_membarrier(int cmd) {
	return syscall(SYS_membarrier, cmd, 0) == 0 ? 0 : errno;
}
#else
static int otg_membarrier(int cmd) { (void)cmd; return ENOSYS; }
#endif
#else
#include <errno.h>
static int otg_membarrier(int cmd) { (void)cmd; return ENOSYS; }
#endif
enum {
	OTG_MEMBARRIER_PRIVATE_EXPEDITED = 1 << 3,
	OTG_MEMBARRIER_REGISTER_PRIVATE_EXPEDITED = 1 << 4,
};

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
	"syscall"
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

// registerBarrier registers the process for membarrier's private expedited
// barrier (Linux 4.14 and later), once, and reports whether it can be used.
func registerBarrier() bool {
	return C.otg_membarrier(C.OTG_MEMBARRIER_REGISTER_PRIVATE_EXPEDITED) == 0
}

// processBarrier makes every running thread of the process execute a full
// memory barrier (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)).
func processBarrier() error {
	if e := C.otg_membarrier(C.OTG_MEMBARRIER_PRIVATE_EXPEDITED); e != 0 {
		return errors.New("membarrier: " + syscall.Errno(e).Error())
	}
	return nil
}
