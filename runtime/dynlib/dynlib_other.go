//go:build !windows && !(unix && cgo)

package dynlib

import (
	"errors"
	"runtime"
)

// handle stands for the handle of a library, which this build cannot open.
type handle = uintptr

// loadLibrary fails: without cgo (or on a platform without dlopen or
// LoadLibrary) no library can be opened.
func loadLibrary(string) (handle, error) {
	return 0, errors.New("dynamic libraries cannot be opened on " + runtime.GOOS + " without cgo")
}

func lookupSymbol(handle, Symbol) uintptr { return 0 }

func freeLibrary(handle) error { return nil }

// registerBarrier reports that there is no process-wide barrier: the calls
// fence (none can be made anyway).
func registerBarrier() bool { return false }

func processBarrier() error { return nil }
