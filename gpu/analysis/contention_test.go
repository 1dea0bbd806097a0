package analysis

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/internal/golden"
)

// contentionDir holds the same-address microbenchmarks measured on the H200
// (scripts/contention; README.md there says how they were made).
var contentionDir = filepath.Join(golden.Dir(), "..", "measured", "contention")

// contentionRow is one ncu row of contention_ncu.csv.
type contentionRow struct {
	kernel      string // c_casloop, c_add, c_scas
	grid, block int
	iters       int
	cycles      int64 // sm__cycles_elapsed.max
	lookups     int64 // lts__t_sectors_srcunit_tex_op_atom_lookup_hit.sum (lane attempts at L2)
}

// dim3 reads "(132, 1, 1)".
func dim3(s string) int {
	s = strings.Trim(s, "()")
	n := 1
	for _, f := range strings.Split(s, ",") {
		v, _ := strconv.Atoi(strings.TrimSpace(f))
		n *= max(v, 1)
	}
	return n
}

// contentionRows reads contention_ncu.csv, with each row's iteration count
// from contention.csv (the event-timed run of the same cases).
func contentionRows(t *testing.T) []contentionRow {
	t.Helper()
	read := func(name string) [][]string {
		b, err := os.ReadFile(filepath.Join(contentionDir, name))
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, l := range strings.Split(string(b), "\n") {
			if !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "==") && l != "" {
				lines = append(lines, l)
			}
		}
		rows, err := csv.NewReader(strings.NewReader(strings.Join(lines, "\n"))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	iters := map[string]int{}
	for _, r := range read("contention.csv")[1:] {
		it, _ := strconv.Atoi(r[3])
		iters[fmt.Sprintf("c_%s %s %s", r[0], r[1], r[2])] = it
	}
	ncu := read("contention_ncu.csv")
	col := map[string]int{}
	for i, h := range ncu[0] {
		col[h] = i
	}
	var out []contentionRow
	for _, r := range ncu[2:] { // the second line holds units
		name := r[col["Kernel Name"]]
		name = name[:strings.IndexByte(name, '(')]
		g, b := dim3(r[col["Grid Size"]]), dim3(r[col["Block Size"]])
		c, err := ncuNumber(r[col["sm__cycles_elapsed.max"]])
		if err != nil {
			t.Fatal(err)
		}
		l, _ := ncuNumber(r[col["lts__t_sectors_srcunit_tex_op_atom_lookup_hit.sum"]])
		out = append(out, contentionRow{kernel: name, grid: g, block: b, iters: iters[fmt.Sprintf("%s %d %d", name, g, b)], cycles: c, lookups: l})
	}
	return out
}

// TestContentionSweep runs the same-address microbenchmarks of
// testdata/measured/contention on the interleaved path and compares the
// cycles with the H200's. Validation: no cost was fitted to these rows (the
// atomic units' costs come from testdata/measured/caches/atomics.csv, their
// partitions and far round trip from testdata/contention/trace.tar.gz). From
// 16 SMs on, the H200 needs fewer lane attempts per success than one per round
// of the queued requests (lookups vs grid*block*(grid*block+1)/2 in the log):
// the L2 server applies its own partition's lanes before the fabric's.
// Known deviations (knownContentionMiss) must stay outside 25%
// (else the list is stale) and within 175% (150% until the launch overhead was
// taken at the launches' clocks, which added about 600 cycles to each: c_add 8x256
// went from +140.7% to +150.1%).
func TestContentionSweep(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(contentionDir, "ptx", "contention.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	var n int
	for _, r := range contentionRows(t) {
		threads := r.grid * r.block
		if (r.kernel != "c_casloop" && threads > 4224) || (testing.Short() && threads > 1024) {
			continue // the CAS loops up to 16,896 threads take about 80 s here
		}
		var args []launch.Arg
		switch r.kernel {
		case "c_casloop":
			args = []launch.Arg{{Init: &launch.Init{Func: "zeros", N: 64, Type: "u32"}}}
		case "c_add":
			args = []launch.Arg{{Init: &launch.Init{Func: "zeros", N: 64, Type: "u32"}}, {Init: &launch.Init{Func: "zeros", N: 1024, Type: "u32"}}, {Scalar: strconv.Itoa(r.iters)}}
		case "c_scas":
			args = []launch.Arg{{Init: &launch.Init{Func: "zeros", N: r.grid, Type: "u32"}}}
		default:
			continue
		}
		rep, err := Run(context.Background(), Request{Source: src, SourceFile: "contention.ptx", IsPTX: true, Arch: "sm_90",
			Launch: &launch.Launch{Kernel: r.kernel, Args: args}, Grid: [3]int{r.grid, 1, 1}, Block: [3]int{r.block, 1, 1},
			Timing: true, TimingPath: TimingInterleaved, Trace: launch.Trace{Steps: -1}})
		if err != nil || rep.Timing == nil {
			t.Fatalf("%s %dx%d: %v", r.kernel, r.grid, r.block, err)
		}
		e := float64(rep.Timing.Cycles-r.cycles) / float64(r.cycles)
		round := float64(threads) * float64(threads+1) / 2
		t.Logf("%-10s %4d x %4d: H200 %9d cycles, model %9d (%+6.1f%%); H200 L2 atom lookups %9d (%.0f%% of one success per round)",
			r.kernel, r.grid, r.block, r.cycles, rep.Timing.Cycles, 100*e, r.lookups, 100*float64(r.lookups)/round)
		sum += math.Abs(e)
		n++
		known := knownContentionMiss(r)
		switch {
		case known != "" && math.Abs(e) <= 0.25:
			t.Errorf("%s %dx%d: listed as a known deviation (%s) but now within 25%% (%+.1f%%): update the list", r.kernel, r.grid, r.block, known, 100*e)
		case known != "" && math.Abs(e) > 1.75:
			t.Errorf("%s %dx%d: known deviation (%s) grew to %+.1f%%", r.kernel, r.grid, r.block, known, 100*e)
		case known == "" && math.Abs(e) > 0.25:
			t.Errorf("%s %dx%d: model %d cycles, H200 %d (%+.1f%%, bound 25%%)", r.kernel, r.grid, r.block, rep.Timing.Cycles, r.cycles, 100*e)
		}
	}
	if n > 0 {
		t.Logf("mean |error| over %d rows: %.1f%%", n, 100*sum/float64(n))
	}
}

// knownContentionMiss says why a row is a known deviation of the model ("" if it is not one).
func knownContentionMiss(r contentionRow) string {
	switch {
	case r.kernel == "c_casloop" && r.grid == 8:
		return "block placement: the H200 put the 8 blocks on SMs 124-131, all near the word's L2 server; the model puts block b on SM b, and SMs 2-7 pay the far round trip"
	case r.kernel == "c_casloop" && r.grid*r.block > 8448:
		return "CAS loop, 16,896 threads: the H200 needs 35% of one success per round of queued lanes, the model's near-partition-first service 50%"
	case r.kernel == "c_add" && r.grid*r.block < 1024 || r.kernel == "c_add" && r.grid > 1:
		return "ptxas issues the 4 unrolled ATOMG back to back; the model issues PTX order, where each add waits for its atomic (since the 274-cycle round trip of non-CAS atomics, testdata/measured/atomics, 1 x 1024 is within 25%)"
	case r.kernel == "c_scas" && r.block <= 32:
		return "one warp's same-word shared CAS: the H200 takes about 6.5 cycles per lane, the model's SharedLaneCAS (fitted on 1024 threads) 2.16"
	}
	return ""
}

// TestContentionReplayAtomics: the replay path (the one `--check order` and
// co-scheduled launches use) serialises same-address atomics through the same
// atomic units as the interleaved path, so the H200's same-address add sweep
// (no retries: the replay's block-by-block order cannot change what they do)
// is within 25% there. The interleaved path's known c_add deviation (PTX
// order: each add waits for its atomic) does not apply: the replay path issues
// the modelled ptxas schedule, the 4 unrolled atomics back to back.
func TestContentionReplayAtomics(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(contentionDir, "ptx", "contention.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range contentionRows(t) {
		if r.kernel != "c_add" || r.grid*r.block > 4224 {
			continue
		}
		args := []launch.Arg{{Init: &launch.Init{Func: "zeros", N: 64, Type: "u32"}}, {Init: &launch.Init{Func: "zeros", N: 1024, Type: "u32"}}, {Scalar: strconv.Itoa(r.iters)}}
		rep, err := Run(context.Background(), Request{Source: src, SourceFile: "contention.ptx", IsPTX: true, Arch: "sm_90",
			Launch: &launch.Launch{Kernel: r.kernel, Args: args}, Grid: [3]int{r.grid, 1, 1}, Block: [3]int{r.block, 1, 1},
			Timing: true, TimingPath: TimingReplay, Trace: launch.Trace{Steps: -1}})
		if err != nil || rep.Timing == nil {
			t.Fatalf("%s %dx%d: %v", r.kernel, r.grid, r.block, err)
		}
		if rep.Timing.Path != TimingReplay {
			t.Fatalf("%s %dx%d: timed on the %s path", r.kernel, r.grid, r.block, rep.Timing.Path)
		}
		e := float64(rep.Timing.Cycles-r.cycles) / float64(r.cycles)
		t.Logf("%s %4d x %4d replay: H200 %d cycles, model %d (%+.1f%%)", r.kernel, r.grid, r.block, r.cycles, rep.Timing.Cycles, 100*e)
		n++
		if r.grid == 1 && r.block >= 256 {
			// known: one SM's warps each issue 4 same-address ATOMG back to back and
			// wait for them, 4 times; the H200 takes 1,500-1,900 cycles more than the
			// model, whose round trip (274 + passes) reproduces one dependent atomic per
			// iteration (testdata/measured/atomics l_atom, 296 cycles). Not found why.
			t.Logf("  known: one block's back-to-back same-address ATOMG batches are slower on the H200 than one round trip each")
			if math.Abs(e) <= 0.25 {
				t.Errorf("%s %dx%d replay: listed as a known deviation but within 25%% (%+.1f%%): update the test", r.kernel, r.grid, r.block, 100*e)
			}
			continue
		}
		if math.Abs(e) > 0.25 {
			t.Errorf("%s %dx%d on the replay path: model %d cycles, H200 %d (%+.1f%%, bound 25%%)", r.kernel, r.grid, r.block, rep.Timing.Cycles, r.cycles, 100*e)
		}
	}
	if n == 0 {
		t.Fatal("no c_add rows in contention_ncu.csv")
	}
}
