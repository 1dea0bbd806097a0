package analysis

import (
	"context"
	"math"
	"os"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/report"
)

// runContention runs a kernel of testdata/measured/caches/ptx/contention.ptx.
func runContention(t *testing.T, kernel string, grid, block int, path string, timed bool) *report.Report {
	t.Helper()
	src, err := os.ReadFile(contentionPTX)
	if err != nil {
		t.Fatal(err)
	}
	args := []launch.Arg{{Init: &launch.Init{Func: "zeros", N: 4, Type: "u32"}}}
	if kernel == "v_atom11" {
		args = append(args, launch.Arg{Init: &launch.Init{Func: "zeros", N: grid * block, Type: "u32"}})
	}
	rep, err := Run(context.Background(), Request{Source: src, SourceFile: "contention.ptx", IsPTX: true, Arch: "sm_90",
		Launch: &launch.Launch{Kernel: kernel, Args: args}, Grid: [3]int{grid, 1, 1}, Block: [3]int{block, 1, 1},
		Timing: true, TimedCaches: timed, TimingPath: path, Trace: launch.Trace{Steps: -1}})
	if err != nil || rep.Timing == nil {
		t.Fatalf("%s %dx%d: %v (report %+v)", kernel, grid, block, err, rep)
	}
	return rep
}

// TestInterleavedContention compares the contention kernels' cycles on both
// timing paths with the H200's (testdata/measured/caches/micro_ncu.csv,
// sm__cycles_elapsed.max). Validation: nothing was fitted to these kernels.
func TestInterleavedContention(t *testing.T) {
	cases := []struct {
		kernel      string
		grid, block int
		h200        int64
		tol         float64 // the bound the interleaved path must meet
	}{
		{"v_atom11", 132, 256, 138884, 0.25},
		{"v_casloop", 1, 256, 171851, 0.25},
		{"v_casloop", 132, 64, 23409335, 0.25},
	}
	for _, c := range cases {
		if testing.Short() && c.grid > 1 {
			continue
		}
		in := runContention(t, c.kernel, c.grid, c.block, TimingInterleaved, false)
		re := runContention(t, c.kernel, c.grid, c.block, TimingReplay, false)
		if in.Timing.Path != TimingInterleaved || re.Timing.Path != TimingReplay {
			t.Fatalf("%s: paths %q and %q", c.kernel, in.Timing.Path, re.Timing.Path)
		}
		ei := float64(in.Timing.Cycles-c.h200) / float64(c.h200)
		er := float64(re.Timing.Cycles-c.h200) / float64(c.h200)
		t.Logf("%s %dx%d: H200 %d cycles; interleaved %d (%+.1f%%), replay %d (%+.1f%%)", c.kernel, c.grid, c.block, c.h200,
			in.Timing.Cycles, 100*ei, re.Timing.Cycles, 100*er)
		if math.Abs(ei) > c.tol {
			t.Errorf("%s %dx%d: interleaved %d cycles, H200 %d (%+.1f%%, bound %.0f%%)", c.kernel, c.grid, c.block, in.Timing.Cycles, c.h200, 100*ei, 100*c.tol)
		}
	}
}
