package mem_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/sim"
	"github.com/kernelscope/kernelscope/internal/golden"
)

// measuredCaches is where the cache ground truth of scripts/caches/device.sh lies.
var measuredCaches = filepath.Join(goldenDir, "..", "measured", "caches")

// readNCUCSV reads an `ncu --csv --page raw` log (golden.ReadNCURaw).
func readNCUCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	rows, err := golden.ReadNCURaw(path)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// ncuNum parses metric k of launch m.
func ncuNum(t *testing.T, m map[string]string, k string) float64 {
	t.Helper()
	v, err := mem.ParseNCUNumber(m[k])
	if err != nil {
		t.Fatalf("%s: %v", k, err)
	}
	return v
}

// TestGoldenHitRates runs every golden case through the simulator and the sm_90
// cache model and compares the L1 and L2 sector hit rates with Nsight Compute's
// (testdata/measured/caches/golden_ncu.csv; all golden cases validate: none was
// used to choose the policy). L1: l1tex__t_sector_hit_rate.pct. L2: the hit rate
// of the L1's requests, lts__t_sectors_srcunit_tex_lookup_hit / lts__t_sectors_srcunit_tex:
// on launches this small, lts__t_sector_hit_rate.pct (102-225% here) is dominated
// by traffic that is not the kernel's and cannot be compared.
func TestGoldenHitRates(t *testing.T) {
	cases, err := golden.Cases()
	if err != nil {
		t.Fatal(err)
	}
	rows := readNCUCSV(t, filepath.Join(measuredCaches, "golden_ncu.csv"))
	if len(rows) != len(cases) {
		t.Fatalf("golden_ncu.csv has %d launches, cases.json %d", len(rows), len(cases))
	}
	spec, err := arch.Lookup("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	var sumL1, sumL2 float64
	for i := range cases {
		c := &cases[i]
		m := rows[i]
		if !strings.Contains(m["Kernel Name"], c.Kernel) {
			t.Fatalf("launch %d is %q, want %s", i, m["Kernel Name"], c.Kernel)
		}
		src, err := os.ReadFile(filepath.Join(goldenDir, "ptx", strings.TrimSuffix(filepath.Base(c.Source), ".cu")+".sm_90.ptx"))
		if err != nil {
			t.Fatal(err)
		}
		mod, err := ptx.Parse(c.Name, src)
		if err != nil {
			t.Fatal(err)
		}
		args, err := launchArgs(c)
		if err != nil {
			t.Fatal(err)
		}
		h := mem.NewHierarchy(spec, spec.SMs, mem.Options{})
		counter := mem.NewCounter(h)
		if _, err := sim.Launch(context.Background(), mod, c.Kernel, args, sim.Config{Grid: c.Grid, Block: c.Block,
			DynamicShared: c.SharedBytes, NumSMs: spec.SMs, OnMemory: counter.Observe, Trace: sim.TraceConfig{MaxSteps: -1}}); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		l1, l2 := 100*h.L1HitRate(), 100*h.L2HitRate()
		wantL1 := ncuNum(t, m, "l1tex__t_sector_hit_rate.pct")
		wantL2 := 100 * ncuNum(t, m, "lts__t_sectors_srcunit_tex_lookup_hit.sum") / ncuNum(t, m, "lts__t_sectors_srcunit_tex.sum")
		t.Logf("%-22s L1 %6.2f%% (H200 %6.2f%%)  L2 %6.2f%% (H200 tex %6.2f%%, lts__t_sector_hit_rate %s%%)", c.Name, l1, wantL1, l2, wantL2, m["lts__t_sector_hit_rate.pct"])
		sumL1 += math.Abs(l1 - wantL1)
		sumL2 += math.Abs(l2 - wantL2)
		if why, ok := goldenL1Known[c.Name]; ok {
			t.Logf("  known L1 deviation: %s", why)
			if l1 >= wantL1 {
				t.Errorf("%s: known L1 deviation has changed: %.2f%% vs H200 %.2f%%", c.Name, l1, wantL1)
			}
		} else if math.Abs(l1-wantL1) > goldenTolerance {
			t.Errorf("%s: L1 hit rate %.2f%%, H200 %.2f%%", c.Name, l1, wantL1)
		}
		if why, ok := goldenL2Known[c.Name]; ok {
			t.Logf("  known deviation: %s", why)
			// Both known L2 deviations are the model above the H200: if that changes, so must the list.
			if l2 <= wantL2+goldenTolerance {
				t.Errorf("%s: known L2 deviation has changed: %.2f%% vs H200 %.2f%% (update goldenL2Known)", c.Name, l2, wantL2)
			}
		} else if math.Abs(l2-wantL2) > goldenTolerance {
			t.Errorf("%s: L2 hit rate %.2f%%, H200 %.2f%%", c.Name, l2, wantL2)
		}
	}
	t.Logf("mean |error|: L1 %.2f points, L2 %.2f points over %d cases", sumL1/float64(len(cases)), sumL2/float64(len(cases)), len(cases))
}

// goldenTolerance is the hit-rate goal in points.
const goldenTolerance = 5.0

// goldenL1Known lists golden cases whose L1 hit rate is off by more than the goal (model below), with the reason.
var goldenL1Known = map[string]string{
	"warp_vote": "lane 0 of each of a block's 4 warps stores 4 bytes into one sector (counts, flags): the H200 " +
		"counts 12 of those 16 store sectors as L1 hits and sends 8 to L2, so it merges partial stores in flight; " +
		"the model allocates only sectors a store writes whole (allocating partial ones puts the real-code naive " +
		"transposes at 78% against the H200's 0-38%)",
}

// goldenL2Known lists golden cases whose L2 hit rate is off by more than the goal, with the reason.
var goldenL2Known = map[string]string{
	"matmul_tiled": "the H200 misses 1,518 of 3,242 read sectors where 1,024 are compulsory; as matmul_tiled_256 " +
		"in scale_test.go (a lead: the two L2 partitions, not modelled)",
	"warp_vote": "8 warps store 4 bytes each into one sector of counts and one of flags: the H200's L1 sends " +
		"8 of those 16 store sectors to L2 (lts write sectors 8), the model all 16",
}
