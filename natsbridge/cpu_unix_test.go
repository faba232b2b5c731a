//go:build unix

package natsbridge_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used: what a
// benchmark on a busy machine can compare where wall time varies with the
// other processes.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
