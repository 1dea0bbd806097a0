package analysis

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
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
			Launch: l, Grid: [3]int{132, 1, 1}, Block: [3]int{256, 1, 1}, Timing: true, TimedCaches: timed, TimingPath: TimingReplay, Trace: launch.Trace{Steps: -1}})
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

// TestTimedCachesGolden reports, for the golden launches, the modelled cycles
// with and without the time-aware caches and atomic units beside the H200's
// (kernel only: cycles minus the measured launch overhead), and the cache hit
// rates the timed caches give. A report, like TestTimingAgainstNsight; it fails
// only if a launch fails or the timed model loses a planted order.
func TestTimedCachesGolden(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(golden.Dir(), "ncu_sm90.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ncu map[string]map[string]string
	if err := json.Unmarshal(b, &ncu); err != nil {
		t.Fatal(err)
	}
	var sumOff, sumOn float64
	n := 0
	by := map[string]int64{}
	for _, c := range loadCases(t) {
		base := strings.TrimSuffix(filepath.Base(c.Source), ".cu")
		src := readGolden(t, "ptx/"+base+".sm_90.ptx")
		cyc := [2]int64{}
		var launchCycles int64
		for i, timed := range []bool{false, true} {
			rep, err := Run(context.Background(), Request{Source: []byte(src), SourceFile: base + ".ptx", IsPTX: true, Arch: "sm_90",
				Launch: launchOf(c), Grid: c.Grid, Block: c.Block, BaseDir: golden.Dir(), Timing: true, TimedCaches: timed, TimingPath: TimingReplay, Trace: launch.Trace{Steps: -1}})
			if err != nil || rep.Timing == nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			cyc[i], launchCycles = rep.Timing.Cycles, rep.Timing.LaunchCycles
		}
		m, err := ncuNumber(ncu[c.Name]["sm__cycles_elapsed.max"])
		if err != nil {
			t.Fatal(err)
		}
		mk := float64(m - launchCycles)
		eOff, eOn := 100*(float64(cyc[0]-launchCycles)-mk)/mk, 100*(float64(cyc[1]-launchCycles)-mk)/mk
		t.Logf("%-22s H200 %6d  model %6d (kernel %+6.1f%%)  timed caches %6d (kernel %+6.1f%%)", c.Name, m, cyc[0], eOff, cyc[1], eOn)
		sumOff += math.Abs(eOff)
		sumOn += math.Abs(eOn)
		n++
		by[c.Name] = cyc[1]
	}
	t.Logf("kernel-only mean |error| over %d golden launches: %.1f%% without, %.1f%% with the timed caches", n, sumOff/float64(n), sumOn/float64(n))
	for _, pair := range [][2]string{{"transpose_naive", "transpose_padded"}, {"reduce_interleaved", "reduce_sequential"}, {"strided_copy_stride32", "strided_copy_stride1"}} {
		if by[pair[0]] <= by[pair[1]] {
			t.Errorf("with the timed caches the model no longer takes longer for %s (%d) than %s (%d)", pair[0], by[pair[0]], pair[1], by[pair[1]])
		}
	}
}
