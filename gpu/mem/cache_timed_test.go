package mem

import "testing"

// line0 is a warp load of the 32 floats of line 0 (4 sectors).
func line0(kind Kind, op CacheOp) *Access {
	a := &Access{Space: Global, Kind: kind, Cache: op, Bytes: 4, Mask: 0xffffffff}
	for l := range a.Addr {
		a.Addr[l] = 0x10000 + 4*uint64(l)
	}
	return a
}

func timed(t *testing.T, o TimedOptions) *TimedHierarchy {
	t.Helper()
	o.L1Latency, o.L2Latency, o.DRAMLatency = 40, 370, 700
	o.L1Bytes, o.L2Bytes, o.L2FetchBytes = 64*LineBytes, 1024*LineBytes, 64
	return NewTimedHierarchy(nil, 2, o)
}

// TestTimedFillsInFlight: a miss completes after the DRAM latency; a second
// request for the same sectors while the fill is in flight waits for that fill
// (an L1 hit as Nsight Compute counts it); after the fill it is an L1 hit.
func TestTimedFillsInFlight(t *testing.T) {
	h := timed(t, TimedOptions{})
	a := line0(Load, Default)
	if r, o := h.Access(a, 0); r != 700 || o.L1Misses != 4 || o.L2Misses != 4 || o.DRAMReads != 4 {
		t.Errorf("cold miss: ready %d, %+v", r, o)
	}
	if r, o := h.Access(a, 10); r != 700 || o.L1Hits != 4 || o.L1InFlight != 4 || o.L2Hits+o.L2Misses != 0 {
		t.Errorf("hit in flight: ready %d, %+v", r, o)
	}
	if r, o := h.Access(a, 1000); r != 1040 || o.L1Hits != 4 || o.L1InFlight != 0 {
		t.Errorf("hit: ready %d, %+v", r, o)
	}
	// Another SM: misses its own L1, hits L2.
	b := *a
	b.SM = 1
	if r, o := h.Access(&b, 1000); r != 1370 || o.L1Misses != 4 || o.L2Hits != 4 {
		t.Errorf("other SM: ready %d, %+v", r, o)
	}
}

// TestTimedL2Neighbour: the 64-byte DRAM fetch brings sector 1 with sector 0;
// asked for before that fill returns it is an L2 miss that waits and reads
// nothing more; asked for later it is a hit.
func TestTimedL2Neighbour(t *testing.T) {
	h := timed(t, TimedOptions{})
	s0 := line0(Load, CG)
	s0.Mask = 0xff // lanes 0-7: sector 0
	if r, o := h.Access(s0, 0); r != 700 || o.DRAMReads != 2 || o.L1Hits+o.L1Misses != 0 {
		t.Errorf(".cg sector 0: ready %d, %+v", r, o)
	}
	s1 := *s0
	for l := range s1.Addr {
		s1.Addr[l] += SectorBytes
	}
	if r, o := h.Access(&s1, 100); r != 700 || o.L2Misses != 1 || o.L2InFlight != 1 || o.DRAMReads != 0 {
		t.Errorf("sector 1 in flight: ready %d, %+v", r, o)
	}
	if r, o := h.Access(&s1, 2000); r != 2370 || o.L2Hits != 1 {
		t.Errorf("sector 1 later: ready %d, %+v", r, o)
	}
	// A request for a sector another request is fetching is a hit that waits.
	s2 := *s0
	for l := range s2.Addr {
		s2.Addr[l] += 8 * SectorBytes // line 2, sector 0
	}
	h.Access(&s2, 3000)
	if r, o := h.Access(&s2, 3100); r != 3700 || o.L2Hits != 1 || o.L2InFlight != 1 || o.DRAMReads != 0 {
		t.Errorf("requested sector in flight: ready %d, %+v", r, o)
	}
}

// TestTimedMSHRs: with two L1 MSHRs the third outstanding line miss waits
// for the first fill to return.
func TestTimedMSHRs(t *testing.T) {
	h := timed(t, TimedOptions{L1MSHRs: 2})
	for i, want := range []int64{700, 700, 1400} {
		a := line0(Load, Default)
		for l := range a.Addr {
			a.Addr[l] += uint64(i) * 4096
		}
		r, o := h.Access(a, 0)
		if r != want || (i == 2) != (o.Wait == 700) {
			t.Errorf("miss %d: ready %d (want %d), wait %d", i, r, want, o.Wait)
		}
	}
	// L2 pending fills bound the whole L2 the same way.
	h = timed(t, TimedOptions{L2Pending: 1})
	a, b := line0(Load, CG), line0(Load, CG)
	for l := range b.Addr {
		b.Addr[l] += 4096
	}
	h.Access(a, 0)
	if r, o := h.Access(b, 0); r != 1400 || o.Wait != 700 {
		t.Errorf("second L2 miss with one pending slot: ready %d, %+v", r, o)
	}
}

// TestTimedPolicy: stores allocate in L1, .lu bypasses it, atomics drop the L1 copy.
func TestTimedPolicy(t *testing.T) {
	h := timed(t, TimedOptions{})
	if _, o := h.Access(line0(Store, Default), 0); o.L1Misses != 4 || o.L2Hits != 4 || o.DRAMReads != 0 {
		t.Errorf("store: %+v", o)
	}
	if r, o := h.Access(line0(Load, Default), 100); r != 140 || o.L1Hits != 4 {
		t.Errorf("load after store: ready %d, %+v", r, o)
	}
	if _, o := h.Access(line0(Load, LU), 200); o.L1Hits+o.L1Misses != 0 || o.L2Hits != 4 {
		t.Errorf(".lu: %+v", o)
	}
	if _, o := h.Access(line0(Atomic, Default), 300); o.L2Hits != 4 {
		t.Errorf("atomic: %+v", o)
	}
	if _, o := h.Access(line0(Load, Default), 2000); o.L1Misses != 4 || o.L2Hits != 4 {
		t.Errorf("load after atomic (L1 copy dropped): %+v", o)
	}
	tot := h.Totals()
	if tot.L1Hits != 4 || h.L1HitRate() <= 0 || h.L2HitRate() <= 0 {
		t.Errorf("totals %+v", tot)
	}
}

// TestSlotsHeap: slots hand out the earliest completions first.
func TestSlotsHeap(t *testing.T) {
	s := slots{max: 3}
	for _, d := range []int64{50, 10, 30} {
		if got := s.acquire(0); got != 0 {
			t.Fatalf("free slot at %d", got)
		}
		s.finish(d)
	}
	if got := s.acquire(0); got != 10 {
		t.Errorf("full: got %d, want the earliest completion 10", got)
	}
	s.finish(70)
	if got := s.acquire(40); got != 40 || len(s.done) != 2 {
		t.Errorf("after 10 and 30 completed: got %d with %d outstanding", got, len(s.done))
	}
}

// BenchmarkTimedHierarchyStream times coalesced warp loads streaming through
// the time-aware caches of a 132-SM H200-sized hierarchy (one op = one warp access).
func BenchmarkTimedHierarchyStream(b *testing.B) {
	h := NewTimedHierarchy(nil, 132, TimedOptions{Options: Options{L1Bytes: 224 << 10, L2Bytes: 60 << 20, L2FetchBytes: 64}})
	a := line0(Load, Default)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		a.SM = i % 132
		base := 0x10000 + uint64(i)*LineBytes
		for l := range a.Addr {
			a.Addr[l] = base + 4*uint64(l)
		}
		h.Access(a, int64(i/4))
	}
}

// TestPartialStores: a store that writes part of a sector allocates nothing in
// L1 (both models); one that writes whole sectors does.
func TestPartialStores(t *testing.T) {
	part := line0(Store, Default)
	part.Mask = 1 // 4 bytes of sector 0
	ld := line0(Load, Default)
	ld.Mask = 1
	h := NewHierarchy(nil, 1, Options{L1Bytes: 64 * LineBytes, L2Bytes: 1024 * LineBytes})
	h.Access(part)
	if o := h.Access(ld); o.L1Hits != 0 || o.L1Misses != 1 {
		t.Errorf("Hierarchy: load after a partial store: %+v", o)
	}
	th := timed(t, TimedOptions{})
	th.Access(part, 0)
	if _, o := th.Access(ld, 1000); o.L1Hits != 0 || o.L1Misses != 1 {
		t.Errorf("TimedHierarchy: load after a partial store: %+v", o)
	}
	full := line0(Store, Default)
	full.Mask = 0xff // lanes 0-7: sector 0 whole
	th.Access(full, 2000)
	if _, o := th.Access(ld, 3000); o.L1Hits != 1 {
		t.Errorf("TimedHierarchy: load after a whole-sector store: %+v", o)
	}
}
