package mem

import "math/bits"

// SharedWavefronts returns the wavefronts (passes through the 32 banks) that
// one warp-level shared-memory access needs, and the ideal count without bank
// conflicts. Bank conflicts are wavefronts - ideal.
//
// The model, checked against every pattern of memory_patterns_sm90.csv:
//   - bank = (byte address / 4) % 32; one wavefront serves, per bank, one
//     distinct 32-bit word, to any number of lanes (broadcast/multicast);
//   - accesses of 4 bytes or less are served per warp (ideal 1);
//   - 8-byte accesses are served in groups of 16 lane slots, 16-byte accesses in
//     groups of 8 (half- and quarter-warps, ideal one wavefront per group);
//   - a lane slot is one active lane, except that an even lane and the next odd
//     lane reading the same address share a slot. This is what the H200 shows:
//     a uniform 128-bit load takes 2 wavefronts (16 pair slots), t/2 takes 2,
//     while t%4 and t%8 take 4 (pairs differ, so no sharing).
//   - Assumption (not in the csv): inactive lanes take no slot; slots are
//     packed in lane order.
//   - Atomics and reductions (ATOMS): assumed per warp like 32-bit accesses but
//     without broadcast, so lanes updating the same word serialise: a bank's
//     wavefronts count its active lanes, not its distinct words.
//
// It counts each group once, without sorting or allocating: per bank, a
// bitmask of the rows (word / 32) it serves, relative to the group's lowest
// row; a bank's wavefronts are the bits set in its mask. Groups whose rows
// span more than 64 fall back to comparing the words of each bank.
func SharedWavefronts(a *Access) (wavefronts, idealWavefronts int) {
	if a == nil || a.Mask == 0 {
		return 0, 0
	}
	w := laneBytes(a)
	atomic := a.Kind == Atomic || a.Kind == Reduction
	group := 32
	switch {
	case atomic || w <= 4:
		group = 32
	case w <= 8:
		group = 16
	default:
		group = 8
	}
	var g bankGroup
	for m := a.Mask; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		if !atomic && group < 32 && lane&1 == 1 && a.Mask&(1<<(lane-1)) != 0 && a.Addr[lane-1] == a.Addr[lane] {
			continue // shares the even lane's slot
		}
		g.slots[g.n] = a.Addr[lane]
		g.n++
		if g.n == group {
			wavefronts += g.wavefronts(w, atomic)
			idealWavefronts++
			g.n = 0
		}
	}
	if g.n > 0 {
		wavefronts += g.wavefronts(w, atomic)
		idealWavefronts++
	}
	return wavefronts, idealWavefronts
}

// bankGroup holds the lane slots of one group (a warp, half- or quarter-warp).
type bankGroup struct {
	slots [32]uint64 // byte addresses of the slots, in lane order
	n     int
}

// wavefronts is the largest number of distinct 32-bit words (or, for
// atomics, of word touches) that any bank receives from the group's slots.
func (g *bankGroup) wavefronts(w uint64, atomic bool) int {
	slots := g.slots[:g.n]
	if atomic {
		// Every word touch serialises: count touches per bank.
		var perBank [BankCount]uint16
		most := uint16(0)
		for _, addr := range slots {
			first, last := wordSpan(addr, w)
			for wd := first; wd <= last; wd++ {
				b := wd % BankCount
				perBank[b]++
				most = max(most, perBank[b])
			}
		}
		return int(most)
	}
	// Lowest row of the group, and whether every row lies within 64 of it.
	lo, hi := ^uint64(0), uint64(0)
	for _, addr := range slots {
		first, last := wordSpan(addr, w)
		lo = min(lo, first/BankCount)
		hi = max(hi, last/BankCount)
	}
	switch {
	case hi == lo:
		return 1 // one row: each bank serves at most one word
	case hi-lo >= 64:
		return g.wavefrontsSpread(w)
	}
	var rows [BankCount]uint64 // per bank: bit r set when row lo+r is served
	for _, addr := range slots {
		first, last := wordSpan(addr, w)
		for wd := first; wd <= last; wd++ {
			rows[wd%BankCount] |= 1 << (wd/BankCount - lo)
		}
	}
	most := 0
	for _, r := range rows {
		most = max(most, bits.OnesCount64(r))
	}
	return most
}

// wavefrontsSpread is wavefronts for a group whose rows span more than 64:
// per bank, the distinct words are found by comparing with the bank's
// earlier words (a chain through the group's words).
func (g *bankGroup) wavefrontsSpread(w uint64) int {
	const maxWords = 32 * (maxLaneBytes/4 + 1)
	var words [maxWords]uint64
	var next [maxWords]int16
	var head, count [BankCount]int16
	for b := range head {
		head[b] = -1
	}
	n := int16(0)
	most := int16(0)
	for _, addr := range g.slots[:g.n] {
		first, last := wordSpan(addr, w)
		for wd := first; wd <= last; wd++ {
			b := wd % BankCount
			seen := false
			for i := head[b]; i >= 0; i = next[i] {
				if words[i] == wd {
					seen = true
					break
				}
			}
			if seen {
				continue
			}
			words[n], next[n], head[b] = wd, head[b], n
			n++
			count[b]++
			most = max(most, count[b])
		}
	}
	return int(most)
}

// wordSpan is the first and last 32-bit word an access of w bytes at addr touches.
func wordSpan(addr, w uint64) (first, last uint64) {
	first, last = addr/4, (addr+w-1)/4
	if last < first { // wrapped around the address space
		last = first
	}
	return first, last
}
