//go:build !race

package replicae2e

// raceEnabled: the test runs with the race detector.
const raceEnabled = false
