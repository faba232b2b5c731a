package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/pprof"
)

// startProfiles starts the CPU profile into cpuFile (if not empty) and
// returns the function that ends the run's profiles: it stops the CPU
// profile and writes the allocations profile into memFile (if not empty).
// The files are created before the run, so that a wrong path is an error
// before any work is done.
func startProfiles(cpuFile, memFile string) (stop func() error, err error) {
	var cpu, mem *os.File
	closeAll := func() {
		if cpu != nil {
			cpu.Close()
		}
		if mem != nil {
			mem.Close()
		}
	}
	if cpuFile != "" {
		if cpu, err = os.Create(cpuFile); err != nil {
			return nil, fmt.Errorf("-cpuprofile: %w", err)
		}
		if err = pprof.StartCPUProfile(cpu); err != nil {
			closeAll()
			return nil, fmt.Errorf("-cpuprofile: %w", err)
		}
	}
	if memFile != "" {
		if mem, err = os.Create(memFile); err != nil {
			if cpu != nil {
				pprof.StopCPUProfile()
			}
			closeAll()
			return nil, fmt.Errorf("-memprofile: %w", err)
		}
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				errs = append(errs, fmt.Errorf("-cpuprofile: %w", err))
			}
		}
		if mem != nil {
			// "allocs" holds every allocation since the start (sampled), not
			// only what is live at the end, which is what a run's cost is.
			if err := pprof.Lookup("allocs").WriteTo(mem, 0); err != nil {
				errs = append(errs, fmt.Errorf("-memprofile: %w", err))
			}
			if err := mem.Close(); err != nil {
				errs = append(errs, fmt.Errorf("-memprofile: %w", err))
			}
		}
		return errors.Join(errs...)
	}, nil
}
