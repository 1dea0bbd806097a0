package analysis

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/kernelscope/kernelscope/gpu/timing"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/internal/golden"
)

var (
	timingScale    = flag.Bool("timing-scale", false, "also time the large launches of scale_sm90.json (minutes)")
	timingOut      = flag.String("timing-table", "", "write the per-case timing table (Markdown) to this file")
	timingNoCaches = flag.Bool("timing-nocaches", false, "time without the time-aware caches (%timing on nocaches); by default they run, as in the product")
	timingOnly     = flag.String("timing-only", "", "with -timing-scale: only the large launches whose names match this regexp")
)

// timingRow is one launch: modelled cycles against ncu's sm__cycles_elapsed.max.
type timingRow struct {
	set, name       string
	measured, model int64
	launch          int64 // the measured launch overhead the model adds (an empty kernel of the grid)
	fixed           int64 // the part of it no kernel hides (timing.LaunchFixed)
	simSeconds      float64
	memDiffs        []string // memory counters that differ from ncu's (scale set)
}

// b2f is 1 for true.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func (r timingRow) errPct() float64 { return 100 * float64(r.model-r.measured) / float64(r.measured) }

// kernelErrPct is the error on the kernel alone: modelled kernel cycles
// against the measured cycles minus the measured launch overhead; ok is
// false when the measurement is not above the overhead.
func (r timingRow) kernelErrPct() (pct float64, ok bool) {
	mk := r.measured - r.launch
	if mk <= 0 {
		return 0, false
	}
	return 100 * float64(r.model-r.launch-mk) / float64(mk), true
}

// beyondFixedErrPct is the error on the cycles beyond the fixed launch part
// (timing.LaunchFixed), the same subtraction on both sides: unlike
// kernelErrPct it does not take off the dispatch of the blocks beyond the
// first ones, which the H200 overlaps with the kernel.
func (r timingRow) beyondFixedErrPct() (pct float64, ok bool) {
	mk := r.measured - r.fixed
	if mk <= 0 {
		return 0, false
	}
	return 100 * float64(r.model-r.fixed-mk) / float64(mk), true
}

// fixedOf is the fixed launch part of a grid and block.
func fixedOf(grid, block [3]int) int64 {
	return timing.LaunchFixed(grid[0]*grid[1]*grid[2], block[0]*block[1]*block[2])
}

// timeGoldenCases runs the small golden launches through the pipeline with timing on and
// the default issue stream (SASS, as %timing on gives it).
func timeGoldenCases(t *testing.T) []timingRow { return timeGoldenCasesWith(t, true) }

// timeGoldenCasesWith is timeGoldenCases with the timing model issuing the
// modelled SASS stream (Request.SASSIssues) when sassIssues is set.
func timeGoldenCasesWith(t *testing.T, sassIssues bool) []timingRow {
	b, err := os.ReadFile(filepath.Join(golden.Dir(), "ncu_sm90.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ncu map[string]map[string]string
	if err := json.Unmarshal(b, &ncu); err != nil {
		t.Fatal(err)
	}
	var rows []timingRow
	for _, c := range loadCases(t) {
		base := strings.TrimSuffix(filepath.Base(c.Source), ".cu")
		src := readGolden(t, "ptx/"+base+".sm_90.ptx")
		start := time.Now()
		rep, err := Run(context.Background(), Request{Source: []byte(src), SourceFile: base + ".ptx", IsPTX: true, Arch: "sm_90",
			Launch: launchOf(c), Grid: c.Grid, Block: c.Block, BaseDir: golden.Dir(), Timing: true, TimedCaches: !*timingNoCaches, SASSIssues: sassIssues, Trace: launch.Trace{Steps: -1}})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		m, err := ncuNumber(ncu[c.Name]["sm__cycles_elapsed.max"])
		if err != nil || rep.Timing == nil {
			t.Fatalf("%s: measured %v, timing %v", c.Name, err, rep.Timing)
		}
		rows = append(rows, timingRow{set: "golden", name: c.Name, measured: m, model: rep.Timing.Cycles, launch: rep.Timing.LaunchCycles, fixed: fixedOf(c.Grid, c.Block), simSeconds: time.Since(start).Seconds()})
	}
	return rows
}

// timeScaleCases runs the large launches (random buffers: their control flow is data-independent)
// with the default issue stream (SASS).
func timeScaleCases(t *testing.T) []timingRow { return timeScaleCasesWith(t, true) }

// timeScaleCasesWith is timeScaleCases with the modelled SASS issue stream when sassIssues is set.
func timeScaleCasesWith(t *testing.T, sassIssues bool) []timingRow {
	cases := scaleCases(t)
	sort.Slice(cases, func(i, j int) bool { return cases[i].Name < cases[j].Name })
	var rows []timingRow
	only, err := regexp.Compile(*timingOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if !only.MatchString(c.Name) {
			continue
		}
		base := strings.TrimSuffix(filepath.Base(c.Source), ".cu")
		src := readGolden(t, "ptx/"+base+".sm_90.ptx")
		start := time.Now()
		rep, err := Run(context.Background(), Request{Source: []byte(src), SourceFile: base + ".ptx", IsPTX: true, Arch: "sm_90",
			Launch: c.launch(), Grid: c.Grid, Block: c.Block, Timing: true, TimingWaves: -1, TimedCaches: !*timingNoCaches, SASSIssues: sassIssues, Budget: 1e10, Trace: launch.Trace{Steps: -1}})
		if err != nil {
			t.Logf("%s: %v", c.Name, err)
			continue
		}
		m, err := ncuNumber(c.NCU["sm__cycles_elapsed.max"])
		if err != nil || rep.Timing == nil {
			t.Fatalf("%s: measured %v, timing %v", c.Name, err, rep.Timing)
		}
		row := timingRow{set: "scale", name: c.Name, measured: m, model: rep.Timing.Cycles, launch: rep.Timing.LaunchCycles, fixed: fixedOf(c.Grid, c.Block), simSeconds: time.Since(start).Seconds()}
		// The memory counters must hold at scale too.
		for _, mc := range memoryMetrics {
			w, err := ncuNumber(c.NCU[mc.name])
			if err != nil {
				continue
			}
			if g := mc.get(rep.Memory); g != w {
				row.memDiffs = append(row.memDiffs, fmt.Sprintf("%s %d vs ncu %d", strings.TrimSuffix(strings.TrimPrefix(mc.name, "l1tex__"), ".sum"), g, w))
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// TestTimingAgainstNsight reports modelled cycles against the H200's for the
// golden launches (and, with -timing-scale, the large ones) and asserts that
// the model orders the planted pairs as the H200 did. The error itself is a
// reported figure, not asserted (issue 6: a benchmark, not a test).
func TestTimingAgainstNsight(t *testing.T) {
	rows := timeGoldenCases(t)
	// The same launches with the PTX issue stream (%timing on ptx: one slot per PTX
	// instruction), the default before the SASS stream: reported beside.
	var ws, wk, n float64
	for _, r := range timeGoldenCasesWith(t, false) {
		if e, ok := r.kernelErrPct(); ok {
			ws, wk, n = ws+math.Abs(r.errPct()), wk+math.Abs(e), n+1
		}
	}
	if n > 0 {
		t.Logf("with the PTX issue stream (%%timing on ptx): golden mean absolute error %.1f%% whole launch, %.1f%% kernel only, over %d launches", ws/n, wk/n, int(n))
	}
	if *timingScale {
		rows = append(rows, timeScaleCases(t)...)
	}
	by := map[string]timingRow{}
	var b strings.Builder
	fmt.Fprintf(&b, "Issue stream: SASS, the default of `%%timing on` (gpu/ptxas's modelled lowering of the recorded nvcc PTX; docs/ptxas.md compares it with the PTX stream, `%%timing on ptx`).\n\n")
	fmt.Fprintf(&b, "| set | launch | H200 cycles (ncu) | modelled | error | kernel only: H200 − launch overhead | modelled kernel | kernel error | beyond the fixed launch part: H200 − fixed | modelled − fixed | error | simulated in | memory counters vs ncu |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	sums := map[string][2]float64{}
	ksums := map[string][2]float64{}
	fsums := map[string][3]float64{} // beyond the fixed part: sum of abs errors, launches, launches within 25%
	for _, r := range rows {
		by[r.name] = r
		mem := "equal"
		if r.set != "scale" {
			mem = "(see TestGoldenMemoryCountersMatchNsight)"
		} else if len(r.memDiffs) > 0 {
			mem = strings.Join(r.memDiffs, "; ")
		}
		kerr := "n/a"
		if e, ok := r.kernelErrPct(); ok {
			kerr = fmt.Sprintf("%+.1f%%", e)
			k := ksums[r.set]
			ksums[r.set] = [2]float64{k[0] + math.Abs(e), k[1] + 1}
		}
		ferr := "n/a"
		if e, ok := r.beyondFixedErrPct(); ok {
			ferr = fmt.Sprintf("%+.1f%%", e)
			f := fsums[r.set]
			fsums[r.set] = [3]float64{f[0] + math.Abs(e), f[1] + 1, f[2] + b2f(math.Abs(e) <= 25)}
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %+.1f%% | %d | %d | %s | %d | %d | %s | %.1f s | %s |\n", r.set, r.name, r.measured, r.model, r.errPct(),
			r.measured-r.launch, r.model-r.launch, kerr, r.measured-r.fixed, r.model-r.fixed, ferr, r.simSeconds, mem)
		s := sums[r.set]
		sums[r.set] = [2]float64{s[0] + math.Abs(r.errPct()), s[1] + 1}
	}
	for _, set := range []string{"golden", "scale"} {
		if s := sums[set]; s[1] > 0 {
			fmt.Fprintf(&b, "\nMean absolute error, %s set: %.1f%% over %d launches (whole launch)", set, s[0]/s[1], int(s[1]))
			if k := ksums[set]; k[1] > 0 {
				fmt.Fprintf(&b, "; kernel only (cycles minus the measured launch overhead): %.1f%% over %d", k[0]/k[1], int(k[1]))
			}
			if f := fsums[set]; f[1] > 0 {
				fmt.Fprintf(&b, "; beyond the fixed launch part: %.1f%% over %d, %d within 25%%", f[0]/f[1], int(f[1]), int(f[2]))
			}
			fmt.Fprintf(&b, ".\n")
		}
	}
	t.Log("\n" + b.String())
	if *timingOut != "" {
		if err := os.WriteFile(*timingOut, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, pair := range [][2]string{{"transpose_naive", "transpose_padded"}, {"reduce_interleaved", "reduce_sequential"}, {"strided_copy_stride32", "strided_copy_stride1"}} {
		slow, fast := by[pair[0]], by[pair[1]]
		if slow.measured <= fast.measured {
			t.Fatalf("the golden data no longer orders %s above %s", pair[0], pair[1])
		}
		if slow.model <= fast.model {
			t.Errorf("the H200 takes longer for %s (%d) than %s (%d); the model does not (%d vs %d)",
				pair[0], slow.measured, pair[1], fast.measured, slow.model, fast.model)
		}
	}
	if *timingScale {
		ri, rs, rw := by["reduce_interleaved_16M"], by["reduce_sequential_16M"], by["reduce_warp_shfl_16M"]
		if !(ri.model > rs.model && rs.model > rw.model) {
			t.Errorf("reductions at 16M: the H200 orders interleaved > sequential > warp_shfl (%d, %d, %d); the model gives %d, %d, %d",
				ri.measured, rs.measured, rw.measured, ri.model, rs.model, rw.model)
		}
	}
}

// TestTimelinesHaveIntervals: every recorded warp timeline covers the warp's life.
func TestTimelinesHaveIntervals(t *testing.T) {
	for _, c := range loadCases(t) {
		if c.Name != "transpose_naive" {
			continue
		}
		src := readGolden(t, "ptx/transpose.sm_90.ptx")
		rep, err := Run(context.Background(), Request{Source: []byte(src), SourceFile: "transpose.ptx", IsPTX: true, Arch: "sm_90",
			Launch: launchOf(c), Grid: c.Grid, Block: c.Block, BaseDir: golden.Dir(), Timing: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Timing.Timelines) != timelineWarps {
			t.Fatalf("%d timelines, want %d", len(rep.Timing.Timelines), timelineWarps)
		}
		for _, tl := range rep.Timing.Timelines {
			if len(tl.Intervals) == 0 || tl.Intervals[0].Start > tl.Intervals[len(tl.Intervals)-1].End {
				t.Errorf("block %d warp %d: timeline %+v", tl.Block, tl.Warp, tl.Intervals)
			}
		}
	}
}

// TestLineStallsAddUp: the stalls charged to lines add up to the launch's stalled warp-cycles.
func TestLineStallsAddUp(t *testing.T) {
	for _, c := range loadCases(t) {
		if c.Name != "reduce_interleaved" && c.Name != "matmul_tiled" {
			continue
		}
		base := strings.TrimSuffix(filepath.Base(c.Source), ".cu")
		rep, err := Run(context.Background(), Request{Source: []byte(readGolden(t, "ptx/"+base+".sm_90.ptx")), SourceFile: base + ".ptx", IsPTX: true,
			Arch: "sm_90", Launch: launchOf(c), Grid: c.Grid, Block: c.Block, BaseDir: golden.Dir(), Timing: true, Trace: launch.Trace{Steps: -1}})
		if err != nil {
			t.Fatal(err)
		}
		var lines, total int64
		for _, l := range rep.Lines {
			lines += l.StallCycles
		}
		for k, v := range rep.Timing.Stalls {
			if k != "selected" {
				total += v
			}
		}
		if lines != total || total == 0 {
			t.Errorf("%s: lines carry %d stalled warp-cycles, the launch %d", c.Name, lines, total)
		}
	}
}
