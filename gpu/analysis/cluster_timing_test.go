package analysis_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
)

// TestClusterTimingH200 times the cluster launches of testdata/measured/cluster from
// nvcc's PTX against Nsight Compute's sm__cycles_elapsed.max (h200/ncu.csv: the
// launches of each kernel in the order of clusterCases). Validation: the cluster
// timing constants (gpu/timing/async.go) come from scripts/tensor4's probes, not from
// these launches. Each must be within 20% (35% before the blocks of a cluster were timed
// together; the table in docs/clusters.md has the figures).
func TestClusterTimingH200(t *testing.T) {
	want := ncuClusterCycles(t, filepath.Join(clusterDir, "h200", "ncu.csv"))
	req := clusterPaths(t)["nvcc"]
	if req.Prebuilt == nil {
		t.Fatal("no nvcc PTX")
	}
	var sum float64
	seen := map[string]int{}
	for _, c := range clusterCases[:9] {
		req.Launch = parseLaunch(t, c.launch, nil)
		req.Timing = true
		rep, err := analysis.Run(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if rep.Timing == nil {
			t.Fatalf("%s: not timed", c.name)
		}
		k := c.launch[:strings.Index(c.launch, "<<<")]
		if seen[k] >= len(want[k]) {
			t.Fatalf("%s: ncu.csv has %d launches of %s", c.name, len(want[k]), k)
		}
		got, w := rep.Timing.Cycles, want[k][seen[k]]
		seen[k]++
		e := float64(got-w) / float64(w)
		sum += max(e, -e)
		t.Logf("%-16s model %6d (kernel %6d + launch %d), H200 %6d: %+5.1f%%", c.name, got, rep.Timing.KernelCycles, rep.Timing.LaunchCycles, w, 100*e)
		if e < -0.20 || e > 0.20 {
			t.Errorf("%s: model %d cycles, H200 %d (%+.1f%%): more than 20%% off", c.name, got, w, 100*e)
		}
	}
	t.Logf("mean absolute error %.1f%%", 100*sum/9)
}

// ncuClusterCycles reads sm__cycles_elapsed.max of each launch, per kernel in order.
func ncuClusterCycles(t *testing.T, path string) map[string][]int64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]int64{}
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.Contains(line, "sm__cycles_elapsed.max") {
			continue
		}
		rec, err := csv.NewReader(strings.NewReader(line)).Read()
		if err != nil || len(rec) < 15 {
			continue
		}
		v, err := strconv.ParseInt(strings.ReplaceAll(rec[14], ",", ""), 10, 64)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		k := rec[4]
		if i := strings.Index(k, "("); i >= 0 {
			k = k[:i]
		}
		out[k] = append(out[k], v)
	}
	return out
}

// TestClusterProbesModel replays scripts/tensor4's cluster probes (nvcc's PTX of
// testdata/measured/tensor4) through the model and compares the per-step cost with what
// the probes measured on the H200 (run.txt). Calibration check: these are the figures the
// cluster constants of gpu/timing/async.go were taken from, so this checks that the model
// built from them (co-dispatched clusters, the barrier over all blocks, DSMEM per access)
// gives them back, not a prediction. Each step's cost is the difference of two launches'
// kernel cycles over their difference in steps; within 15% of the H200's.
func TestClusterProbesModel(t *testing.T) {
	dir := "../../testdata/measured/tensor4/h200/out/"
	ptxSrc, err := os.ReadFile(dir + "harness.sm_90a.ptx")
	if err != nil {
		t.Fatal(err)
	}
	kernelCycles := func(launch string) int64 {
		t.Helper()
		req := analysis.Request{Source: ptxSrc, Prebuilt: ptxSrc, SourceFile: "harness.sm_90a.ptx", Arch: "sm_90a", Timing: true}
		req.Launch = parseLaunch(t, launch, nil)
		rep, err := analysis.Run(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", launch, err)
		}
		if rep.Timing == nil {
			t.Fatalf("%s: not timed (%v)", launch, rep.Notes)
		}
		return rep.Timing.KernelCycles
	}
	for _, c := range []struct {
		name, launch string // launch with %d for the steps
		lo, hi       int
		h200         float64 // run.txt
	}{
		{"cl_bar cluster 2", "cl_bar<<<8, 128, 0, cluster(2)>>>(zeros(8):i64, %d, 0)", 20, 60, 398.1}, // 389.04 to 406.07
		{"cl_bar cluster 4", "cl_bar<<<8, 128, 0, cluster(4)>>>(zeros(8):i64, %d, 0)", 20, 60, 405.6},
		{"cl_chase remote", "cl_chase<<<2, 128, 0, cluster(2)>>>(zeros(1):i64, %d, 1)", 50, 150, 196.1},
		{"cl_chase own", "cl_chase<<<2, 128, 0, cluster(2)>>>(zeros(1):i64, %d, 0)", 50, 150, 37.3},
	} {
		a, b := kernelCycles(fmt.Sprintf(c.launch, c.lo)), kernelCycles(fmt.Sprintf(c.launch, c.hi))
		per := float64(b-a) / float64(c.hi-c.lo)
		e := (per - c.h200) / c.h200
		t.Logf("%-17s model %6.1f cycles per step, H200 %6.1f: %+5.1f%%", c.name, per, c.h200, 100*e)
		if e < -0.15 || e > 0.15 {
			t.Errorf("%s: model %.1f cycles per step, H200 %.1f (%+.1f%%)", c.name, per, c.h200, 100*e)
		}
	}
}
