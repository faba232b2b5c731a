//go:build !unix

package natsbridge_test

import "time"

// cpuTime is 0 where getrusage is not available: no cpu-ns/call figure.
func cpuTime() time.Duration { return 0 }
