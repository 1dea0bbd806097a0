package mem

import (
	"math"
	"strconv"
	"testing"

	corpus "github.com/kernelscope/kernelscope/internal/golden"
)

// atomicsCSV is the event-timed throughput table of scripts/caches/micro.cu.
var atomicsCSV = corpus.Measured("caches", "atomics.csv")

// warpAtoms is the Access of warp w of a k_gatom / v_atom11 style request: lane
// l of global thread t touches word wordOf(t).
func warpAtoms(sm, block, w, blockDim int, wordOf func(t int) int) *Access {
	a := &Access{Space: Global, Kind: Atomic, Bytes: 4, SM: sm}
	for l := 0; l < 32; l++ {
		t := block*blockDim + w*32 + l
		a.Addr[l] = 0x1000_0000 + 4*uint64(wordOf(t))
		a.Mask |= 1 << l
	}
	return a
}

// replay issues, round-robin over warps, each warp's iters atomics and returns
// the last result's cycle. Independent atomics all issue at once (the units
// queue them); dependent ones (k_gatom's CAS compares with the previous result)
// issue when the warp's previous result is back.
func replay(u *AtomicUnits, grid, blockDim, iters int, op AtomicOp, dependent bool, wordOf func(t int) int, numSMs int) float64 {
	end := 0.0
	warps := blockDim / 32
	next := make([]float64, grid*warps)
	for it := 0; it < iters; it++ {
		for w := 0; w < warps; w++ {
			for b := 0; b < grid; b++ {
				r, _ := u.Global(warpAtoms(b%numSMs, b, w, blockDim, wordOf), op, false, next[b*warps+w])
				if dependent {
					next[b*warps+w] = r
				}
				end = max(end, r)
			}
		}
	}
	return end
}

// atomicKnown lists the throughput rows the model misses by more than 25%, with the reason.
var atomicKnown = map[string]string{
	"atomicAdd.f32/2/32":  "float adds on two words 128 B apart (two lines of one L2 server) run faster than the model's one line after the other (2.55 cycles/op, model 3.36)",
	"atomicAdd.f32/32/32": "float adds on 32 lines 4 KB apart, one lane each: the H200 takes 0.257 cycles/op against 0.196 for integer adds; the model costs them as integer ones",
}

// TestAtomicThroughputCalibration replays the global rows of atomics.csv that
// run on all 132 SMs (the rows the costs were fitted to, plus the few-word rows
// they predict) and checks the modelled time within 25%.
func TestAtomicThroughputCalibration(t *testing.T) {
	rows, err := corpus.ReadCSV(atomicsCSV)
	if err != nil {
		t.Fatal(err)
	}
	num := func(r map[string]string, k string) float64 {
		v, err := strconv.ParseFloat(r[k], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	n := 0
	for _, r := range rows {
		grid, nw := int(num(r, "grid")), int(num(r, "nwords"))
		if r["space"] != "global" || grid != 132 || nw > 32 || r["op"] == "red.add" {
			continue
		}
		op := AtomicInt
		switch r["op"] {
		case "atomicAdd.f32":
			op = AtomicF32
		case "atomicCAS":
			op = AtomicCAS
		}
		stride := int(num(r, "stride_words"))
		u := NewAtomicUnits(132, DefaultAtomicCosts)
		dep := r["op"] == "atomicCAS"
		got := replay(u, grid, int(num(r, "block")), int(num(r, "iters")), op, dep, func(t int) int { return (t % nw) * stride }, 132)
		want := num(r, "median_ms") * 1e-3 * num(r, "clock_ghz") * 1e9
		e := (got - want) / want
		t.Logf("%-14s %4d words stride %2d: model %9.0f cycles, H200 %9.0f (%+.0f%%)", r["op"], nw, stride, got, want, 100*e)
		n++
		if why, ok := atomicKnown[r["op"]+"/"+r["nwords"]+"/"+r["stride_words"]]; ok {
			t.Logf("  known: %s", why)
			if math.Abs(e) <= 0.25 {
				t.Errorf("%s %d words stride %d: listed as a known miss but within 25%% (%+.0f%%): update atomicKnown", r["op"], nw, stride, 100*e)
			}
			continue
		}
		if math.Abs(e) > 0.25 {
			t.Errorf("%s %d words stride %d: model %.0f cycles, H200 %.0f (%+.0f%%)", r["op"], nw, stride, got, want, 100*e)
		}
	}
	if n == 0 {
		t.Fatal("no rows replayed")
	}
}

// emptyLaunchCycles is the H200's sm__cycles_elapsed.max of an empty one-block
// kernel at the clocks the contention kernels ran at (--clock-control none):
// s_empty 1 x 32 of testdata/timing_startup/startup.tar.gz, mean of 3,051 and 3,045
// (launch_overhead_sm90.csv's 2,570 was measured with the clocks locked to base).
const emptyLaunchCycles = 3048

// casLoop replays v_casloop: every thread of grid x blockDim increments one
// word with `do { assumed = old; old = atomicCAS(p, assumed, assumed+1); } while (old != assumed)`.
// Each warp issues its next CAS when the previous result is back; the L2 applies
// a request's lanes in lane order, so a request succeeds for at most one lane.
func casLoop(u *AtomicUnits, grid, blockDim, numSMs int) float64 {
	end, _ := casLoopSides(u, grid, blockDim, numSMs, nil)
	return end
}

// casLoopSides is casLoop that also returns the lane attempts and appends, per
// success in order, whether the succeeding warp's SM is in DefaultAtomicCosts.Home
// (sides nil: not kept).
func casLoopSides(u *AtomicUnits, grid, blockDim, numSMs int, sides *[]bool) (end float64, attempts int64) {
	type warp struct {
		sm      int
		active  uint32
		assumed [32]uint32
		next    float64
	}
	var ws []*warp
	for b := 0; b < grid; b++ {
		for w := 0; w < blockDim/32; w++ {
			ws = append(ws, &warp{sm: b % numSMs, active: 0xffffffff})
		}
	}
	value := uint32(0)
	a := &Access{Space: Global, Kind: Atomic, Bytes: 4}
	for {
		var cur *warp
		for _, w := range ws {
			if w.active != 0 && (cur == nil || w.next < cur.next) {
				cur = w
			}
		}
		if cur == nil {
			return end, attempts
		}
		a.SM, a.Mask = cur.sm, cur.active
		for l := range a.Addr {
			a.Addr[l] = 0x2000_0000
		}
		r, _ := u.Global(a, AtomicCAS, false, cur.next)
		for l := 0; l < 32; l++ {
			if cur.active&(1<<l) == 0 {
				continue
			}
			attempts++
			if cur.assumed[l] == value {
				value++
				cur.active &^= 1 << l
				if sides != nil {
					*sides = append(*sides, DefaultAtomicCosts.Home[cur.sm/64]&(1<<(cur.sm%64)) != 0)
				}
			} else {
				cur.assumed[l] = value
			}
		}
		cur.next = r
		end = max(end, r)
	}
}

// TestAtomicContentionValidation compares the modelled cycles of the
// contention kernels of scripts/caches/micro.cu with the H200's
// (micro_ncu.csv, sm__cycles_elapsed.max). Validation only: none of these
// launches was used to choose a cost. Model = atomic units + the measured
// empty-launch cycles; the rest of each kernel (a few instructions) is left out.
func TestAtomicContentionValidation(t *testing.T) {
	atom11 := func(grid int) float64 {
		u := NewAtomicUnits(132, DefaultAtomicCosts)
		end := 0.0
		for k := 0; k < 11; k++ {
			for w := 0; w < 8; w++ {
				for b := 0; b < grid; b++ {
					r, _ := u.Global(warpAtoms(b%132, b, w, 256, func(t int) int { return (t + k) % 4 }), AtomicInt, false, 0)
					end = max(end, r)
				}
			}
		}
		return end
	}
	cases := []struct {
		name  string
		model float64
		h200  float64
		known string
	}{
		{"v_atom11 grid=132 block=256 (11 atomicAdd on 4 words of one line)", atom11(132), 138884, ""},
		{"v_casloop grid=132 block=64 (CAS-increment loop on one word)", casLoop(NewAtomicUnits(132, DefaultAtomicCosts), 132, 64, 132), 23409335, ""},
		{"v_casloop grid=1 block=256", casLoop(NewAtomicUnits(132, DefaultAtomicCosts), 1, 256, 132), 171851, ""},
	}
	for _, c := range cases {
		got := c.model + emptyLaunchCycles
		e := (got - c.h200) / c.h200
		t.Logf("%-68s model %9.0f cycles, H200 %9.0f (%+.0f%%)", c.name, got, c.h200, 100*e)
		if c.known != "" {
			t.Logf("  known: %s", c.known)
			if e < 1 {
				t.Errorf("%s: listed as not reproduced but now %+.0f%%: update the list", c.name, 100*e)
			}
			continue
		}
		if math.Abs(e) > 0.25 {
			t.Errorf("%s: model %.0f cycles, H200 %.0f (%+.0f%%)", c.name, got, c.h200, 100*e)
		}
	}
}
