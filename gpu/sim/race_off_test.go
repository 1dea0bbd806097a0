//go:build !race

package sim

// raceDetector: the race detector is off.
const raceDetector = false
