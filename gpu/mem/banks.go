package mem

import "slices"

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

	var slots [32]uint64 // addresses of the lane slots, in lane order
	n := 0
	for lane := 0; lane < 32; lane++ {
		if a.Mask&(1<<lane) == 0 {
			continue
		}
		if !atomic && group < 32 && lane&1 == 1 && a.Mask&(1<<(lane-1)) != 0 && a.Addr[lane-1] == a.Addr[lane] {
			continue // shares the even lane's slot
		}
		slots[n] = a.Addr[lane]
		n++
	}
	for start := 0; start < n; start += group {
		end := min(start+group, n)
		wavefronts += groupWavefronts(slots[start:end], w, atomic)
		idealWavefronts++
	}
	return wavefronts, idealWavefronts
}

// groupWavefronts is the largest number of distinct 32-bit words (or, for
// atomics, of word touches) that any bank receives from the slots.
func groupWavefronts(slots []uint64, w uint64, atomic bool) int {
	var words [32 * (maxLaneBytes/4 + 1)]uint64
	n := 0
	for _, addr := range slots {
		first, last := addr/4, (addr+w-1)/4
		if last < first {
			last = first
		}
		for wd := first; wd <= last; wd++ {
			words[n] = wd
			n++
		}
	}
	list := words[:n]
	if !atomic {
		if !slices.IsSorted(list) { // coalesced accesses arrive sorted
			slices.Sort(list)
		}
		list = slices.Compact(list)
	}
	var perBank [BankCount]int
	most := 0
	for _, wd := range list {
		b := wd % BankCount
		perBank[b]++
		most = max(most, perBank[b])
	}
	return most
}
