package mem

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	corpus "github.com/kernelscope/kernelscope/internal/golden"
)

// atomicsSweepCSV is the event-timed sweep of scripts/atomics/atomics.cu
// (testdata/measured/atomics/README.md): calibration of the sector passes.
var atomicsSweepCSV = corpus.Measured("atomics", "atomics.csv")

// binMix is scripts/atomics/atomics.cu's mix: thread t's k-th atomic goes to word binMix(t, k) % K.
func binMix(t, k uint32) uint32 {
	h := t*0x9E3779B1 + k*0x85EBCA6B
	h ^= h >> 15
	h *= 0x2C1B3C6D
	h ^= h >> 12
	return h
}

// sweepRows reads atomics.csv (comment lines skipped) as maps from column to value.
func sweepRows(t *testing.T) []map[string]string {
	t.Helper()
	rows, err := corpus.ReadCSV(atomicsSweepCSV)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// histKnown lists the histogram rows the model misses by more than 25%, with the reason.
var histKnown = map[string]string{
	"h_atom/4096":  "16 KB of bins, results returned: the H200 does 13.7 ops/cycle against 18.1 without results (h_red); the model has no limit on returning results beyond the L2 servers",
	"h_fatom/4096": "as h_atom/4096",
}

// TestAtomicHistogramCalibration replays the h_* rows of the sweep (132 x 1024
// threads, each iteration one atomic per thread on bin mix(t, k) % K, int and
// float, result used or not) through the atomic units and compares cycles per
// op (the difference of two iteration counts, as measured) within 25%.
func TestAtomicHistogramCalibration(t *testing.T) {
	n := 0
	seen := map[string]float64{}
	for _, r := range sweepRows(t) {
		kern := r["kernel"]
		if !strings.HasPrefix(kern, "h_") {
			continue
		}
		num := func(k string) int { v, _ := strconv.Atoi(r[k]); return v }
		grid, block, K, it0, it1 := num("grid"), num("block"), num("k"), num("iters0"), num("iters1")
		want, _ := strconv.ParseFloat(r["cycles_per_op"], 64)
		op := AtomicInt
		if strings.HasPrefix(kern, "h_f") {
			op = AtomicF32
		}
		run := func(iters int) float64 {
			u := NewAtomicUnits(132, DefaultAtomicCosts)
			end := 0.0
			for k := 0; k < iters; k++ {
				for w := 0; w < block/32; w++ {
					for b := 0; b < grid; b++ {
						a := warpAtoms(b%132, b, w, block, func(t int) int { return int(binMix(uint32(t), uint32(k)) % uint32(K)) })
						r, _ := u.Global(a, op, false, 0)
						end = max(end, r)
					}
				}
			}
			return end
		}
		// the replay does not tell a used result from an unused one: h_atom is h_red's replay
		key := fmt.Sprintf("%d/%d/%d/%d/%d/%d", op, grid, block, K, it0, it1)
		got, ok := seen[key]
		if !ok {
			got = (run(it1) - run(it0)) / float64(grid*block*(it1-it0))
			seen[key] = got
		}
		e := (got - want) / want
		t.Logf("%-7s K=%4d: model %.4f cycles/op, H200 %.4f (%+.0f%%)", kern, K, got, want, 100*e)
		n++
		if why, ok := histKnown[kern+"/"+strconv.Itoa(K)]; ok {
			t.Logf("  known: %s", why)
			if math.Abs(e) <= 0.25 {
				t.Errorf("%s K=%d: listed as a known miss but within 25%% (%+.0f%%): update histKnown", kern, K, 100*e)
			}
			continue
		}
		if math.Abs(e) > 0.25 {
			t.Errorf("%s K=%d: model %.4f cycles/op, H200 %.4f (%+.0f%%)", kern, K, got, want, 100*e)
		}
	}
	if n == 0 {
		t.Fatal("no h_ rows in atomics.csv")
	}
}

// TestAtomicLookupsMatchNCU replays the one-pass histograms of
// testdata/measured/atomics (256 x 256 threads, one atomic each on bin
// mix(t, 0) % K) and compares the atomic units' sector passes with ncu's L2
// lookups (lts__t_sectors_srcunit_tex_op_{atom,red}_lookup_{hit,miss}, each
// launch): a pass per lane of a sector's busiest word is what the L2 counts.
func TestAtomicLookupsMatchNCU(t *testing.T) {
	launches, rows, err := corpus.AtomicsNCU()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, l := range launches {
		kern, grid, block, K, rep := l.Kernel, l.Grid, l.Block, l.K, l.Rep
		if kern != "h_red" && kern != "h_atom" && kern != "h_fred" {
			continue
		}
		var want int64
		for _, m := range []string{"atom_lookup_hit", "atom_lookup_miss", "red_lookup_hit", "red_lookup_miss"} {
			v, err := strconv.ParseFloat(strings.ReplaceAll(rows[i]["lts__t_sectors_srcunit_tex_op_"+m+".sum"], ",", ""), 64)
			if err != nil {
				t.Fatalf("launch %d %s: %v", i+1, m, err)
			}
			want += int64(v)
		}
		op := AtomicInt
		if kern == "h_fred" {
			op = AtomicF32
		}
		u := NewAtomicUnits(132, DefaultAtomicCosts)
		for w := 0; w < block/32; w++ {
			for b := 0; b < grid; b++ {
				u.Global(warpAtoms(b%132, b, w, block, func(t int) int { return int(binMix(uint32(t), 0) % uint32(K)) }), op, false, 0)
			}
		}
		got := u.Lookups()
		e := float64(got-want) / float64(want)
		if rep == 0 {
			t.Logf("%-6s K=%4d: model %6d sector passes, ncu %6d L2 lookups (%+.2f%%)", kern, K, got, want, 100*e)
		}
		if math.Abs(e) > 0.02 {
			t.Errorf("%s K=%d launch %d: model %d sector passes, ncu %d lookups (%+.2f%%, bound 2%%)", kern, K, rep, got, want, 100*e)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no histogram launches in atomics_ncu.csv")
	}
}

// TestAtomicServerOffsets replays offsets.csv (scripts/atomics/offsets.cu: the
// h_red throughput with the bins starting at byte offsets of a 2 MB-aligned
// buffer, and at the address a real-code harness's second allocation gets) and
// compares cycles per op within 15%. Validation of AtomicUnits.server: the rule
// was chosen on the aligned sweep before these were measured (K=256 at 512 B
// runs twice as fast, K=64 at 128 B too, K=100 at 56 B 20% faster).
func TestAtomicServerOffsets(t *testing.T) {
	rows, err := corpus.ReadCSV(corpus.Measured("atomics", "offsets.csv"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]float64{}
	n := 0
	for _, r := range rows {
		K, _ := strconv.Atoi(r["K"])
		off, err := strconv.Atoi(r["offset_bytes"])
		if err != nil {
			off = 0x40000 // harness_y: 256 KB into a 2 MB page (the log's first line)
		}
		want, _ := strconv.ParseFloat(r["cycles_per_op_event"], 64)
		key := fmt.Sprintf("%d/%d", K, off)
		got, ok := seen[key]
		if !ok {
			run := func(iters int) float64 {
				u := NewAtomicUnits(132, DefaultAtomicCosts)
				end := 0.0
				for k := 0; k < iters; k++ {
					for w := 0; w < 32; w++ {
						for b := 0; b < 132; b++ {
							a := warpAtoms(b, b, w, 1024, func(t int) int { return off/4 + int(binMix(uint32(t), uint32(k))%uint32(K)) })
							r, _ := u.Global(a, AtomicInt, false, 0)
							end = max(end, r)
						}
					}
				}
				return end
			}
			got = (run(12) - run(4)) / float64(132*1024*8)
			seen[key] = got
		}
		e := (got - want) / want
		t.Logf("K=%4d at %6s: model %.4f cycles/op, H200 %.4f (%+.0f%%)", K, r["offset_bytes"], got, want, 100*e)
		if math.Abs(e) > 0.15 {
			t.Errorf("K=%d at %s: model %.4f cycles/op, H200 %.4f (%+.0f%%, bound 15%%)", K, r["offset_bytes"], got, want, 100*e)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no rows in offsets.csv")
	}
}
