package analysis

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/internal/golden"
)

// startupDir holds the start-up microbenchmarks of scripts/startup (README.md there).
var startupDir = filepath.Join(golden.Dir(), "..", "timing_startup")

// startupCase is one launch of scripts/startup/startup.cu.
type startupCase struct {
	kernel      string
	grid, block int
}

// runStartup runs one start-up kernel on the timing model and returns its
// modelled cycles, launch overhead and kernel cycles.
func runStartup(t *testing.T, src []byte, c startupCase) (cycles, launchCycles, kernelCycles int64) {
	t.Helper()
	n := c.grid * c.block
	buf := func() launch.Arg { return launch.Arg{Init: &launch.Init{Func: "zeros", N: n, Type: "u32"}} }
	var args []launch.Arg
	switch c.kernel {
	case "s_empty":
	case "s_param":
		args = []launch.Arg{buf(), {Scalar: "7"}}
	case "s_copy", "s_chain", "s_load":
		args = []launch.Arg{buf(), buf()}
	case "s_add2":
		args = []launch.Arg{buf(), buf(), buf()}
	case "s_alu":
		args = []launch.Arg{buf(), {Scalar: "1.0"}, {Scalar: strconv.Itoa(256)}}
	default:
		t.Fatalf("unknown start-up kernel %s", c.kernel)
	}
	rep, err := Run(context.Background(), Request{Source: src, SourceFile: "startup.ptx", IsPTX: true, Arch: "sm_90",
		Launch: &launch.Launch{Kernel: c.kernel, Args: args}, Grid: [3]int{c.grid, 1, 1}, Block: [3]int{c.block, 1, 1},
		Timing: true, TimingWaves: -1, Trace: launch.Trace{Steps: -1}})
	if err != nil || rep.Timing == nil {
		t.Fatalf("%s %dx%d: %v", c.kernel, c.grid, c.block, err)
	}
	return rep.Timing.Cycles, rep.Timing.LaunchCycles, rep.Timing.KernelCycles
}

// startupH200 reads the two Nsight Compute runs of startup.tar.gz: the mean
// sm__cycles_elapsed.max of each launch.
func startupH200(t *testing.T) map[startupCase]float64 {
	t.Helper()
	rows, err := golden.NCUTar(filepath.Join(startupDir, "startup.tar.gz"), "startup_ncu_", "sm__cycles_elapsed.max")
	if err != nil {
		t.Fatal(err)
	}
	sum, cnt := map[startupCase]float64{}, map[startupCase]int{}
	for _, r := range rows {
		c, err := ncuNumber(r.Value)
		if err != nil {
			t.Fatal(err)
		}
		sc := startupCase{r.Kernel, dim3(r.Grid), dim3(r.Block)}
		sum[sc] += float64(c)
		cnt[sc]++
	}
	for k := range sum {
		sum[k] /= float64(cnt[k])
	}
	return sum
}

// TestStartupKernelOnly compares the model's kernel cycles of the start-up
// microbenchmarks (testdata/timing_startup: one param store, a copy, two loads
// and a store, a dependent load, a load only, 256 dependent FMAs, at 1x32,
// 132x256 and 1056x256) with the H200's kernel-only cycles: the launch's
// cycles less the same run's empty kernel at the same grid (the empty kernels
// calibrated the launch overhead's clock factor; these rows are validation).
// Two runs only: the empty kernel varies by up to 310 cycles between them.
// Guard: mean |difference| at most 600 cycles (it is logged with each row).
func TestStartupKernelOnly(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(startupDir, "ptx", "startup.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	h := startupH200(t)
	var sumAbs, sumPct float64
	n := 0
	for _, k := range []string{"s_param", "s_copy", "s_add2", "s_chain", "s_load", "s_alu"} {
		for _, g := range [][2]int{{1, 32}, {132, 256}, {1056, 256}} {
			c := startupCase{k, g[0], g[1]}
			meas, ok1 := h[c]
			empty, ok2 := h[startupCase{"s_empty", g[0], g[1]}]
			if !ok1 || !ok2 {
				t.Fatalf("%v: not in the recorded data", c)
			}
			_, _, kernel := runStartup(t, src, c)
			ko := meas - empty
			d := float64(kernel) - ko
			t.Logf("%-8s %4dx%-4d H200 kernel-only %6.0f, model kernel %6d (%+6.0f cycles, %+.0f%%)", k, g[0], g[1], ko, kernel, d, 100*d/math.Max(ko, 1))
			sumAbs += math.Abs(d)
			sumPct += math.Abs(d) / math.Max(ko, 100)
			n++
		}
	}
	t.Logf("mean |difference| %.0f cycles, mean |error| %.0f%% (H200 kernel-only below 100 cycles counted as 100) over %d launches", sumAbs/float64(n), 100*sumPct/float64(n), n)
	if sumAbs/float64(n) > 600 {
		t.Errorf("mean |difference| %.0f cycles, guard 600", sumAbs/float64(n))
	}
}
