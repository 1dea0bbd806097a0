package mem

import (
	"math/bits"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
)

// l2probeTar holds two runs of scripts/l2/l2probe.cu on the H200 (testdata/measured/l2/README.md).
var l2probeTar = filepath.Join(golden, "..", "measured", "l2", "l2probe.tar.gz")

// num parses a CSV field.
func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func medianOf(v []float64) float64 {
	sort.Float64s(v)
	if len(v) == 0 {
		return 0
	}
	return v[len(v)/2]
}

// probeHomes classifies atom.csv's lines: far from SM 0 when the atomic round trip
// is above the midpoint of its 10th and 90th percentiles.
func probeHomes(t *testing.T) map[uint64]bool {
	rows := tarCSV(t, l2probeTar, "run1/atom.csv")
	var lat []float64
	for _, r := range rows {
		lat = append(lat, num(t, r[1]))
	}
	s := append([]float64(nil), lat...)
	sort.Float64s(s)
	thr := (s[len(s)/10] + s[len(s)*9/10]) / 2
	far := map[uint64]bool{}
	for i, r := range rows {
		far[uint64(num(t, r[0]))] = lat[i] > thr
	}
	return far
}

// TestL2PartitioningMeasured checks DefaultL2Partitioning against the probe
// (calibration data): within each 2 MiB page the home is the parity of HomeBits'
// low bits (every line; one bit more or less breaks it), Side is the set of SMs
// on one side of side.csv, and Fabric is the far-minus-near median of the first
// touch of lines in L2 (chase step firstA). It also checks the behaviour the
// model follows: a far line is kept in the near partition (againA), a store from
// the other side invalidates that copy (afterStoreB_A), a whole-sector store
// from the near side leaves one (afterStoreA_A).
func TestL2PartitioningMeasured(t *testing.T) {
	far := probeHomes(t)
	low := DefaultL2Partitioning.HomeBits & (1<<21 - 1)
	offPage := func(mask uint64) int {
		page := map[uint64][2]int{}
		for o, f := range far {
			p := page[o>>21]
			k := bits.OnesCount64(o&mask) & 1
			if f {
				k ^= 1
			}
			p[k]++
			page[o>>21] = p
		}
		n := 0
		for _, p := range page {
			n += min(p[0], p[1])
		}
		return n
	}
	if n := offPage(low); n != 0 {
		t.Errorf("HomeBits %#x: %d of %d lines off the per-page parity", low, n, len(far))
	}
	for b := 7; b < 21; b++ {
		if n := offPage(low ^ 1<<b); n == 0 {
			t.Errorf("bit %d toggled in HomeBits fits the probe as well", b)
		}
	}
	var side [4]uint64
	n := 0
	for _, r := range tarCSV(t, l2probeTar, "run1/side.csv") {
		if sm := int(num(t, r[0])); num(t, r[1]) < num(t, r[2]) {
			side[sm/64] |= 1 << (sm % 64)
			n++
		}
	}
	comp := side
	for i := range comp {
		comp[i] ^= [4]uint64{^uint64(0), ^uint64(0), 0xf}[i]
	}
	if side != DefaultL2Partitioning.Side && comp != DefaultL2Partitioning.Side {
		t.Errorf("Side %#x, side.csv gives %#x (or its complement)", DefaultL2Partitioning.Side, side)
	}
	if DefaultL2Partitioning.Side != DefaultAtomicCosts.Home {
		t.Errorf("L2 sides and atomic homes differ: %#x, %#x", DefaultL2Partitioning.Side, DefaultAtomicCosts.Home)
	}
	steps := map[string][2][]float64{}
	for _, r := range tarCSV(t, l2probeTar, "run1/chase.csv") {
		if r[1] != "0" {
			continue
		}
		s := steps[r[0]]
		f := 0
		if far[uint64(num(t, r[3]))] {
			f = 1
		}
		s[f] = append(s[f], num(t, r[4]))
		steps[r[0]] = s
	}
	med := map[string][2]float64{}
	for k, s := range steps {
		med[k] = [2]float64{medianOf(s[0]), medianOf(s[1])}
		t.Logf("%-14s SM 0: near-home lines %4.0f cycles, far-home %4.0f (medians of %d, %d)", k, med[k][0], med[k][1], len(s[0]), len(s[1]))
	}
	fab := DefaultL2Partitioning.Fabric
	if d := med["firstA"][1] - med["firstA"][0]; d < float64(fab)-1 || d > float64(fab)+1 {
		t.Errorf("Fabric %d, firstA gives %.0f", fab, d)
	}
	if d := med["dramA"][1] - med["dramA"][0]; d < float64(fab)-15 || d > float64(fab)+15 {
		t.Errorf("DRAM through the far partition: %.0f cycles more (Fabric %d)", d, fab)
	}
	for step, wantFar := range map[string]bool{"againA": false, "afterStoreB_A": true, "afterStoreA_A": false} {
		if isFar := med[step][1]-med[step][0] > float64(fab)/2; isFar != wantFar {
			t.Errorf("%s: far-home lines %.0f cycles, near-home %.0f: far %v, want %v", step, med[step][1], med[step][0], isFar, wantFar)
		}
	}
}

// TestTimedL2Partitions replays the probe's steps on the model (two partitions,
// DefaultL2Partitioning): SM 0 and SM 2 are on different sides. Each step's load
// latency on a line is near or far as on the H200 (TestL2PartitioningMeasured),
// and ncu's count holds: the near partition's lookups are the L2 hit rate, the
// fabric's are apart. With one partition every line costs the same.
func TestTimedL2Partitions(t *testing.T) {
	p := &DefaultL2Partitioning
	a, b := 0, 2
	if p.side(a) == p.side(b) {
		t.Fatal("SMs 0 and 2 on one side")
	}
	var lines []uint64
	for l := uint64(0x100000); len(lines) < 64; l += 4096 + LineBytes {
		lines = append(lines, l)
	}
	h := NewTimedHierarchy(nil, 132, TimedOptions{Options: Options{L1Bytes: 64 << 10, L2Bytes: 1 << 20, L2FetchBytes: 32}, L2Partitions: 2})
	now := int64(0)
	step := func(kind Kind, sm int) (lat map[bool][]float64, o TimedOutcome) {
		lat = map[bool][]float64{}
		for _, l := range lines {
			acc := &Access{SM: sm, Space: Global, Kind: kind, Cache: CG, Bytes: 8, Mask: 1}
			if kind == Store {
				acc.Mask = 0xf // one whole sector
				for i := range 4 {
					acc.Addr[i] = l + 8*uint64(i)
				}
			} else {
				acc.Addr[0] = l
			}
			done, oo := h.Access(acc, now)
			lat[p.home(l/LineBytes) != p.side(sm)] = append(lat[p.home(l/LineBytes) != p.side(sm)], float64(done-now))
			o.Outcome.add(oo.Outcome)
			o.FabricHits += oo.FabricHits
			o.FabricMisses += oo.FabricMisses
			now = done + 10
		}
		return lat, o
	}
	step(Load, b) // warm: in the home partitions and b's
	for _, c := range []struct {
		name   string
		kind   Kind
		sm     int
		farGap bool // far-home lines cost Fabric more
	}{{"firstA", Load, a, true}, {"againA", Load, a, false}, {"storeB", Store, b, false}, {"afterStoreB_A", Load, a, true}, {"storeA", Store, a, false}, {"afterStoreA_A", Load, a, false}} {
		lat, o := step(c.kind, c.sm)
		if c.kind == Store {
			continue
		}
		near, far := medianOf(lat[false]), medianOf(lat[true])
		t.Logf("%-14s near-home %4.0f far-home %4.0f; L2 %d hits %d misses, fabric %d hits %d misses", c.name, near, far, o.L2Hits, o.L2Misses, o.FabricHits, o.FabricMisses)
		if gap := far-near > float64(p.Fabric)/2; gap != c.farGap {
			t.Errorf("%s: near-home %.0f, far-home %.0f cycles; far costs more: %v, want %v", c.name, near, far, gap, c.farGap)
		}
		if c.farGap && (o.L2Misses != len(lat[true]) || o.FabricHits != len(lat[true])) {
			t.Errorf("%s: %d near-partition misses and %d fabric hits, want %d each (the far-home lines)", c.name, o.L2Misses, o.FabricHits, len(lat[true]))
		}
	}
	one := NewTimedHierarchy(nil, 132, TimedOptions{Options: Options{L1Bytes: 64 << 10, L2Bytes: 1 << 20, L2FetchBytes: 32}, L2Partitions: 1})
	seen := map[int64]bool{}
	for _, l := range lines {
		acc := &Access{SM: a, Space: Global, Kind: Load, Cache: CG, Bytes: 8, Mask: 1}
		acc.Addr[0] = l
		one.Access(acc, 0)
		done, _ := one.Access(acc, 10000)
		seen[done-10000] = true
	}
	if len(seen) != 1 {
		t.Errorf("one partition: L2 hits of %d different latencies", len(seen))
	}
}
