//go:build !unix

package timing

import "time"

// processCPU is not measured on this system (benchmarks then report no cpu-ns/op).
func processCPU() time.Duration { return 0 }
