//go:build race

package sim

// raceDetector: the race detector is on, so kernels whose blocks race on
// global memory (on purpose) are left out of the tests that run them in parallel.
const raceDetector = true
