//go:build !unix

package otelbridge_test

import "time"

// cpuTime is 0 where getrusage is not available: no cpu-µs/call figure.
func cpuTime() time.Duration { return 0 }
