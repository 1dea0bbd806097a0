package mem

import "slices"

// SectorBytes is the size of a sector, the unit of a global memory transaction.
const SectorBytes = 32

// LineBytes is the size of an L1/L2 cache line (four sectors).
const LineBytes = 128

// BankCount is the number of shared-memory banks; each is 4 bytes wide.
const BankCount = 32

// maxLaneBytes caps the bytes one lane may touch; PTX vectors are at most 16 bytes.
const maxLaneBytes = 128

// laneBytes returns the bytes per lane clamped to a sane range.
func laneBytes(a *Access) uint64 {
	switch {
	case a.Bytes <= 0:
		return 1
	case a.Bytes > maxLaneBytes:
		return maxLaneBytes
	}
	return uint64(a.Bytes)
}

// sectorBuf holds the sector indices of one warp access: 32 lanes, each
// spanning at most maxLaneBytes/SectorBytes+1 sectors.
type sectorBuf [32 * (maxLaneBytes/SectorBytes + 1)]uint64

// collectSectors fills buf with the sorted, distinct sector indices (address/32)
// that the active lanes of a touch, and returns them.
func collectSectors(a *Access, buf *sectorBuf) []uint64 {
	n := 0
	w := laneBytes(a)
	for lane := 0; lane < 32; lane++ {
		if a.Mask&(1<<lane) == 0 {
			continue
		}
		first, last := a.Addr[lane]/SectorBytes, (a.Addr[lane]+w-1)/SectorBytes
		if last < first { // wrapped around the address space
			last = first
		}
		for s := first; s <= last; s++ {
			if n > 0 && buf[n-1] == s { // neighbouring lanes share sectors: drop repeats early
				continue
			}
			buf[n] = s
			n++
		}
	}
	out := buf[:n]
	if !slices.IsSorted(out) { // coalesced accesses arrive sorted
		slices.Sort(out)
	}
	return slices.Compact(out)
}

// GlobalSectors returns, for one warp-level global (or local) access, the
// requests (one per instruction with any active lane, Volta and later), the
// distinct 32-byte sectors the active lanes touch, and the ideal sector count:
// the fewest sectors that could hold the distinct lane addresses' data
// (ceil(distinct addresses x width / 32)), so broadcasts are not penalised.
func GlobalSectors(a *Access) (requests, sectors, idealSectors int) {
	if a == nil || a.Mask == 0 {
		return 0, 0, 0
	}
	var buf sectorBuf
	sectors = len(collectSectors(a, &buf))
	return 1, sectors, idealSectorsFor(a)
}

// GlobalLines returns the distinct 128-byte lines the active lanes of a touch.
func GlobalLines(a *Access) int {
	if a == nil || a.Mask == 0 {
		return 0
	}
	var buf sectorBuf
	_, lines := countSectorsLines(collectSectors(a, &buf))
	return lines
}

// countSectorsLines counts sorted distinct sectors and the lines they fall in.
func countSectorsLines(secs []uint64) (sectors, lines int) {
	prev := ^uint64(0)
	for _, s := range secs {
		if l := s / (LineBytes / SectorBytes); l != prev {
			lines++
			prev = l
		}
	}
	return len(secs), lines
}

// idealSectorsFor is ceil(distinct lane addresses x bytes per lane / 32).
func idealSectorsFor(a *Access) int {
	var addrs [32]uint64
	n := 0
	for lane := 0; lane < 32; lane++ {
		if a.Mask&(1<<lane) != 0 {
			addrs[n] = a.Addr[lane]
			n++
		}
	}
	s := addrs[:n]
	if !slices.IsSorted(s) { // coalesced accesses arrive sorted
		slices.Sort(s)
	}
	distinct := len(slices.Compact(s))
	return (distinct*int(laneBytes(a)) + SectorBytes - 1) / SectorBytes
}
