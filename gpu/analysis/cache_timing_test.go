package analysis

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/internal/golden"
)

// contentionPTX is scripts/caches/contention.cu as KernelScope's clang path compiles it.
var contentionPTX = filepath.Join(golden.Dir(), "..", "measured", "caches", "ptx", "contention.ptx")

// TestContentionTimed runs the 11-atomics contention kernel (132 blocks of 256
// threads, each thread 11 atomicAdd on 4 words of one line) with the timing
// model and the atomic units, and compares the cycles with the H200's
// (testdata/measured/caches/micro_ncu.csv: 138,884). Validation: the atomic
// costs were fitted to atomics.csv, not to this kernel. Without the atomic
// units the model says a few thousand cycles.
func TestContentionTimed(t *testing.T) {
	src, err := os.ReadFile(contentionPTX)
	if err != nil {
		t.Fatal(err)
	}
	run := func(timed bool) int64 {
		l := &launch.Launch{Kernel: "v_atom11", Args: []launch.Arg{
			{Init: &launch.Init{Func: "zeros", N: 4, Type: "u32"}},
			{Init: &launch.Init{Func: "zeros", N: 132 * 256, Type: "u32"}}}}
		rep, err := Run(context.Background(), Request{Source: src, SourceFile: "contention.ptx", IsPTX: true, Arch: "sm_90",
			Launch: l, Grid: [3]int{132, 1, 1}, Block: [3]int{256, 1, 1}, Timing: true, TimedCaches: timed, Trace: launch.Trace{Steps: -1}})
		if err != nil || rep.Timing == nil {
			t.Fatalf("v_atom11: %v (timing %v)", err, rep)
		}
		return rep.Timing.Cycles
	}
	const h200 = 138884
	off, on := run(false), run(true)
	e := float64(on-h200) / h200
	t.Logf("v_atom11 132x256: H200 %d cycles; model %d with the atomic units (%+.0f%%), %d without (%+.0f%%)",
		h200, on, 100*e, off, 100*float64(off-h200)/h200)
	if math.Abs(e) > 0.25 {
		t.Errorf("v_atom11: model %d cycles, H200 %d (%+.0f%%)", on, h200, 100*e)
	}
}
