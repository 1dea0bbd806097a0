package timing

import (
	"strconv"
	"strings"
	"testing"

	goldens "github.com/kernelscope/kernelscope/internal/golden"
)

// startupNCU reads the Nsight Compute rows of testdata/timing_startup/startup.tar.gz
// (two runs of scripts/startup/startup.cu): kernel, grid, block size and
// sm__cycles_elapsed.max per launch.
func startupNCU(t *testing.T) [][4]string {
	t.Helper()
	rows, err := goldens.NCUTar("../../testdata/timing_startup/startup.tar.gz", "startup_ncu_", "sm__cycles_elapsed.max")
	if err != nil {
		t.Fatal(err)
	}
	out := make([][4]string, len(rows))
	for i, r := range rows {
		out[i] = [4]string{r.Kernel, r.Grid, r.Block, r.Value}
	}
	return out
}

// first reads the first number of "(132, 1, 1)".
func first(s string) int {
	s = strings.TrimPrefix(s, "(")
	n, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(s, ",", 2)[0]))
	return n
}

// TestBoostFactorFromStartup re-derives BoostPermille from the empty kernels
// measured with --clock-control none (calibration data).
func TestBoostFactorFromStartup(t *testing.T) {
	sum := map[[2]int]float64{}
	cnt := map[[2]int]int{}
	for _, r := range startupNCU(t) {
		if r[0] != "s_empty" {
			continue
		}
		c, err := strconv.ParseFloat(strings.ReplaceAll(r[3], ",", ""), 64)
		if err != nil {
			t.Fatal(err)
		}
		k := [2]int{first(r[1]), first(r[2])}
		sum[k] += c
		cnt[k]++
	}
	if len(sum) != 3 {
		t.Fatalf("%d empty-kernel grids, want 3", len(sum))
	}
	var ratio float64
	for k, s := range sum {
		r := s / float64(cnt[k]) / float64(tableOverhead(k[0], k[1]))
		t.Logf("grid %d x %d: %.0f cycles (mean of %d), table %d: x%.3f", k[0], k[1], s/float64(cnt[k]), cnt[k], tableOverhead(k[0], k[1]), r)
		ratio += r / 3
	}
	if got := int(ratio*1000 + 0.5); got < BoostPermille-1 || got > BoostPermille+1 {
		t.Errorf("BoostPermille %d, the startup data give %d", BoostPermille, got)
	}
	if LaunchOverhead(1, 32) != tableOverhead(1, 32)*BoostPermille/1000 {
		t.Error("LaunchOverhead does not apply BoostPermille")
	}
}

// TestLaunchHidden: the dispatch beyond overlapBlocks hides behind a long
// enough kernel and never hides more than it costs.
func TestLaunchHidden(t *testing.T) {
	if LaunchHidden(1e9, 1056, 256) != 0 || LaunchHidden(1e9, 132, 256) != 0 {
		t.Error("a grid of at most 1056 blocks hides nothing")
	}
	extra := LaunchOverhead(65536, 256) - LaunchOverhead(1056, 256)
	if h := LaunchHidden(1e9, 65536, 256); h != extra {
		t.Errorf("a long kernel hides %d, want the whole further dispatch %d", h, extra)
	}
	if h := LaunchHidden(1000, 65536, 256); h != 1000 {
		t.Errorf("a 1000-cycle kernel hides %d, want 1000", h)
	}
}
