package analysis_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/launch"
)

// TestDRAMLatencyUnderLoad times latency2.cu's vector_add-shaped kernels (nvcc's
// PTX, 65,536 blocks, 8 resident per SM, every block timed) against Nsight
// Compute's cycles (ncu_lat2.csv: three repetitions per configuration, the
// median taken). It checks gpu/timing's DRAM read latency under write traffic
// against the cycles of the launches whose clock64 latencies calibrated it: a
// calibration check, not validation. One load without and with a store must be
// within 10% (before the write term: -4% and -16%); two loads and a store within
// 20%, since the ~100 cycles a second independent load adds are not modelled.
func TestDRAMLatencyUnderLoad(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(dramDir, "latency2.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	want := ncuClusterCycles(t, filepath.Join(dramDir, "ncu_lat2.csv"))
	const n = 16 << 20
	for _, c := range []struct {
		kernel string
		bound  float64
	}{{"lat_read1", 0.10}, {"lat_copy", 0.10}, {"lat_triad", 0.20}} {
		w := want[c.kernel]
		if len(w) != 15 {
			t.Fatalf("ncu_lat2.csv: %d %s launches, want 15", len(w), c.kernel)
		}
		l := &launch.Launch{Kernel: c.kernel, Shared: 0, SharedSet: true}
		for _, f := range []string{"rand", "rand", "zeros"} {
			l.Args = append(l.Args, launch.Arg{Init: &launch.Init{Func: f, N: n, Type: "f32"}})
		}
		l.Args = append(l.Args, launch.Arg{Scalar: "16777216"}, launch.Arg{Init: &launch.Init{Func: "zeros", N: n / 32, Type: "u32"}})
		rep, err := analysis.Run(context.Background(), analysis.Request{Source: src, SourceFile: "latency2.ptx", IsPTX: true, Arch: "sm_90",
			Launch: l, Grid: [3]int{n / 256, 1, 1}, Block: [3]int{256, 1, 1}, Timing: true, TimingWaves: -1, TimedCaches: true, SASSIssues: true,
			Budget: 1e10, Trace: launch.Trace{Steps: -1}})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Timing == nil || rep.Occupancy == nil || rep.Occupancy.ActiveBlocksPerSM != 8 {
			t.Fatalf("%s: timing %v, occupancy %+v", c.kernel, rep.Timing != nil, rep.Occupancy)
		}
		reps := slices.Clone(w[:3]) // the first configuration: no dynamic shared memory, 8 resident
		slices.Sort(reps)
		e := float64(rep.Timing.Cycles-reps[1]) / float64(reps[1])
		t.Logf("%s: model %d cycles, H200 %d: %+.1f%%", c.kernel, rep.Timing.Cycles, reps[1], 100*e)
		if e < -c.bound || e > c.bound {
			t.Errorf("%s: model %d cycles, H200 %d (%+.1f%%): more than %.0f%% off", c.kernel, rep.Timing.Cycles, reps[1], 100*e, 100*c.bound)
		}
	}
}
