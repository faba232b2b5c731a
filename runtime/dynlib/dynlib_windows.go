//go:build windows

package dynlib

import (
	"runtime"
	"syscall"
)

// handle is what LoadLibrary returns.
type handle = syscall.Handle

// loadLibrary opens the library at path with LoadLibraryW.
func loadLibrary(path string) (handle, error) {
	return syscall.LoadLibrary(path)
}

// lookupSymbol returns the address of s, 0 when the library lacks it. On
// 32-bit Windows a stdcall function missing under its name is looked up under
// its decorated names too.
func lookupSymbol(h handle, s Symbol) uintptr {
	if p, err := syscall.GetProcAddress(h, s.Name); err == nil {
		return p
	}
	if runtime.GOARCH == "386" && s.Stdcall32 != "" {
		for _, name := range [...]string{s.Stdcall32, "_" + s.Stdcall32} {
			if p, err := syscall.GetProcAddress(h, name); err == nil {
				return p
			}
		}
	}
	return 0
}

// freeLibrary closes the library with FreeLibrary.
func freeLibrary(h handle) error {
	return syscall.FreeLibrary(h)
}

// flushProcessWriteBuffers is kernel32's FlushProcessWriteBuffers (Windows
// Vista and later).
var flushProcessWriteBuffers = syscall.NewLazyDLL("kernel32.dll").NewProc("FlushProcessWriteBuffers")

// registerBarrier reports whether FlushProcessWriteBuffers can be called.
func registerBarrier() bool { return flushProcessWriteBuffers.Find() == nil }

// processBarrier makes every running thread of the process execute a full
// memory barrier (FlushProcessWriteBuffers).
func processBarrier() error {
	flushProcessWriteBuffers.Call()
	return nil
}
