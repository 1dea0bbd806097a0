//go:build unix

package timing

import (
	"syscall"
	"time"
)

// processCPU is the user plus system CPU time of the test process so far
// (GC workers included), so benchmarks on a loaded machine can report the
// CPU a run cost rather than the wall-clock time it waited.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
