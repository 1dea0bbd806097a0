package analysis

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/internal/golden"
)

// atomicsDir holds the atomic-unit sweep measured on the H200 (scripts/atomics;
// README.md there says how it was made and which rows calibrate what).
var atomicsDir = golden.Measured("atomics")

// atomicsCase is one one-shot case of atomics_ncu.csv: the median of its 3 launches.
type atomicsCase struct {
	kernel      string
	grid, block int
	k           int
	cycles      int64 // sm__cycles_elapsed.max, median of 3
}

// atomicsCases reads labels.txt and atomics_ncu.csv (one ncu row per label, in order).
func atomicsCases(t *testing.T) []atomicsCase {
	t.Helper()
	launches, rows, err := golden.AtomicsNCU()
	if err != nil {
		t.Fatal(err)
	}
	byCase := map[string][]int64{}
	var order []atomicsCase
	for i, l := range launches {
		c := atomicsCase{kernel: l.Kernel, grid: l.Grid, block: l.Block, k: l.K}
		cyc, err := ncuNumber(rows[i]["sm__cycles_elapsed.max"])
		if err != nil {
			t.Fatalf("atomics_ncu.csv launch %d: %v", i+1, err)
		}
		key := fmt.Sprintf("%s %d %d %d", c.kernel, c.grid, c.block, c.k)
		if len(byCase[key]) == 0 {
			order = append(order, c)
		}
		byCase[key] = append(byCase[key], cyc)
	}
	for i := range order {
		c := &order[i]
		v := byCase[fmt.Sprintf("%s %d %d %d", c.kernel, c.grid, c.block, c.k)]
		sort.Slice(v, func(a, b int) bool { return v[a] < v[b] })
		c.cycles = v[len(v)/2]
	}
	return order
}

// atomicsArgs are the launch arguments of a one-shot case (buffers zeroed, as on the device).
func atomicsArgs(c atomicsCase) []launch.Arg {
	z := func(n int, typ string) launch.Arg {
		return launch.Arg{Init: &launch.Init{Func: "zeros", N: n, Type: typ}}
	}
	switch {
	case strings.HasPrefix(c.kernel, "r_"):
		typ := "f32"
		if c.kernel == "r_ired" {
			typ = "u32"
		}
		return []launch.Arg{z(c.grid*c.block, "f32"), z(1, typ), z(c.grid, "f32")}
	case c.kernel == "h_red":
		return []launch.Arg{z(c.k, "u32"), {Scalar: strconv.Itoa(c.k)}, {Scalar: "1"}}
	case c.kernel == "h_fred":
		return []launch.Arg{z(c.k, "f32"), {Scalar: strconv.Itoa(c.k)}, {Scalar: "1"}}
	case c.kernel == "h_atom":
		return []launch.Arg{z(c.k, "u32"), z(1024, "u32"), {Scalar: strconv.Itoa(c.k)}, {Scalar: "1"}}
	case c.kernel == "h_cas":
		return []launch.Arg{z(c.k, "u32"), {Scalar: strconv.Itoa(c.k)}}
	}
	return nil
}

// TestAtomicsOneShot runs the one-shot cases of testdata/measured/atomics
// (reductions' finishing atomics from N blocks, one-pass histograms, CAS loops
// on K words) on the default timing path and compares cycles with the H200's.
func TestAtomicsOneShot(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(atomicsDir, "ptx", "atomics.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	n := 0
	for _, c := range atomicsCases(t) {
		if c.kernel == "h_cas" && c.k == 1 {
			continue // c_casloop 132 x 64 of TestContentionSweep
		}
		if testing.Short() && c.grid*c.block > 65536 {
			continue
		}
		rep, err := Run(context.Background(), Request{Source: src, SourceFile: "atomics.ptx", IsPTX: true, Arch: "sm_90",
			Launch: &launch.Launch{Kernel: c.kernel, Args: atomicsArgs(c)}, Grid: [3]int{c.grid, 1, 1}, Block: [3]int{c.block, 1, 1},
			Timing: true, Trace: launch.Trace{Steps: -1}})
		if err != nil || rep.Timing == nil {
			t.Fatalf("%s %dx%d K=%d: %v", c.kernel, c.grid, c.block, c.k, err)
		}
		e := float64(rep.Timing.Cycles-c.cycles) / float64(c.cycles)
		t.Logf("%-8s %4d x %3d K=%4d: H200 %9d cycles, model %9d (%+6.1f%%) [%s]", c.kernel, c.grid, c.block, c.k, c.cycles, rep.Timing.Cycles, 100*e, rep.Timing.Path)
		sum += math.Abs(e)
		n++
		checkKnown(t, oneShotKnown, fmt.Sprintf("%s %d", c.kernel, c.grid), e)
	}
	if n > 0 {
		t.Logf("mean |error| over %d cases: %.1f%%", n, 100*sum/float64(n))
	}
}

// TestAtomicsFewLanes runs the few-lane rows of testdata/measured/atomics/atomics.csv
// (l_*: lanes < k of each one-warp block do iters atomics on one word; red:
// result unused, atom: each address depends on the previous result) at both
// iteration counts and compares the cycles per op of the difference, as
// measured (the launch cancels).
func TestAtomicsFewLanes(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(atomicsDir, "ptx", "atomics.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := golden.ReadCSV(filepath.Join(atomicsDir, "atomics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rows {
		if !strings.HasPrefix(r["kernel"], "l_") {
			continue
		}
		num := func(k string) int { v, _ := strconv.Atoi(r[k]); return v }
		grid, block, lanes, it0, it1 := num("grid"), num("block"), num("k"), num("iters0"), num("iters1")
		want, _ := strconv.ParseFloat(r["cycles_per_op"], 64)
		run := func(iters int) int64 {
			typ := "u32"
			if strings.HasPrefix(r["kernel"], "l_f") {
				typ = "f32"
			}
			args := []launch.Arg{{Init: &launch.Init{Func: "zeros", N: 1, Type: typ}}}
			if strings.HasSuffix(r["kernel"], "atom") {
				args = append(args, launch.Arg{Init: &launch.Init{Func: "zeros", N: 1024, Type: typ}})
			}
			args = append(args, launch.Arg{Scalar: "0"}, launch.Arg{Scalar: strconv.Itoa(lanes)}, launch.Arg{Scalar: strconv.Itoa(iters)})
			rep, err := Run(context.Background(), Request{Source: src, SourceFile: "atomics.ptx", IsPTX: true, Arch: "sm_90",
				Launch: &launch.Launch{Kernel: r["kernel"], Args: args}, Grid: [3]int{grid, 1, 1}, Block: [3]int{block, 1, 1},
				Timing: true, Trace: launch.Trace{Steps: -1}})
			if err != nil || rep.Timing == nil {
				t.Fatalf("%s %dx%d lanes %d: %v", r["kernel"], grid, block, lanes, err)
			}
			return rep.Timing.KernelCycles
		}
		got := float64(run(it1)-run(it0)) / float64(grid*(block/32)*lanes*(it1-it0))
		e := (got - want) / want
		t.Logf("%-8s %4d x %2d, %2d lanes: H200 %8.3f cycles/op, model %8.3f (%+6.1f%%)", r["kernel"], grid, block, lanes, want, got, 100*e)
		n++
		checkKnown(t, fewLanesKnown, fmt.Sprintf("%s %d %d", r["kernel"], grid, lanes), e)
	}
	if n == 0 {
		t.Fatal("no l_ rows in atomics.csv")
	}
}

// oneShotKnown lists the one-shot cases ("kernel grid") the model misses by more than 25%.
var oneShotKnown = map[string]string{
	"r_ired 1024": "1,024 blocks of 256: r_none itself is +7.6% (block dispatch), and the integer adds then finish later than on the H200",
}

// fewLanesKnown lists the few-lane rows ("kernel grid lanes") the model misses by more than 25%.
var fewLanesKnown = map[string]string{
	"l_red 1 1":   "one warp's REDs: the H200 issues one per 6.4 cycles, the model's SM port takes SMLane (2.15) per request",
	"l_red 1 2":   "as l_red 1 1",
	"l_red 1 8":   "one warp's same-word REDs: the H200's SM sends 8-16 lanes at 1.42 cycles each (L2-bound), the model's SMLane (fitted on atomicAdd with results) is 2.15",
	"l_red 1 16":  "as l_red 1 8",
	"l_fred 1 1":  "as l_red 1 1",
	"l_fred 1 2":  "2-4 float lanes of one warp on one word: the H200 takes 1.5-2.5 cycles per op, below the 3.48-cycle float chain; not found why",
	"l_fred 1 4":  "as l_fred 1 2",
	"l_atom 8 1":  "block placement: the H200 puts 8 blocks on SMs 124-131, near the word's L2 server (testdata/contention); the model puts block b on SM b, 2 of 8 far",
	"l_atom 8 32": "as l_atom 8 1",
	"l_fatom 8 1": "as l_atom 8 1",
}

// checkKnown fails e beyond 25% unless known lists key, and fails a known key within 25% (a stale list).
func checkKnown(t *testing.T, known map[string]string, key string, e float64) {
	t.Helper()
	why, ok := known[key]
	switch {
	case ok && math.Abs(e) <= 0.25:
		t.Errorf("%s: listed as a known miss (%s) but within 25%% (%+.1f%%): update the list", key, why, 100*e)
	case ok:
		t.Logf("  known: %s", why)
	case math.Abs(e) > 0.25:
		t.Errorf("%s: %+.1f%% against the H200 (bound 25%%)", key, 100*e)
	}
}
