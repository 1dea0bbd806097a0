package mem

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/arch"
)

// warp builds a full-warp access with lane t at base + f(t).
func warp(space Space, kind Kind, bytes int, base uint64, f func(t int) uint64) *Access {
	a := &Access{Space: space, Kind: kind, Bytes: bytes, Mask: 0xffffffff}
	for t := 0; t < 32; t++ {
		a.Addr[t] = base + f(t)
	}
	return a
}

func TestGlobalSectorsHandComputed(t *testing.T) {
	const base = 0x10000
	cases := []struct {
		name                 string
		a                    *Access
		req, sec, ideal, lns int
	}{
		// 8-bit, consecutive: 32 bytes in one sector.
		{"u8 t", warp(Global, Load, 1, base, func(t int) uint64 { return uint64(t) }), 1, 1, 1, 1},
		// 8-bit starting 16 bytes into a sector: straddles two.
		{"u8 t+16", warp(Global, Load, 1, base+16, func(t int) uint64 { return uint64(t) }), 1, 2, 1, 1},
		// 16-bit consecutive: 64 bytes, 2 sectors.
		{"u16 t", warp(Global, Load, 2, base, func(t int) uint64 { return 2 * uint64(t) }), 1, 2, 2, 1},
		// 16-bit stride 16 elements = 32 bytes: one sector per lane.
		{"u16 16t", warp(Global, Load, 2, base, func(t int) uint64 { return 32 * uint64(t) }), 1, 32, 2, 8},
		// 64-bit consecutive: 256 bytes, 8 sectors, 2 lines.
		{"f64 t", warp(Global, Store, 8, base, func(t int) uint64 { return 8 * uint64(t) }), 1, 8, 8, 2},
		// v2.f32 stride 2 vectors: lanes touch every other 8 bytes: 512 bytes span, 16 sectors, ideal 8.
		{"v2 2t", warp(Global, Load, 8, base, func(t int) uint64 { return 16 * uint64(t) }), 1, 16, 8, 4},
		// v4.f32 consecutive: 512 bytes, 16 sectors, 4 lines.
		{"v4 t", warp(Global, Load, 16, base, func(t int) uint64 { return 16 * uint64(t) }), 1, 16, 16, 4},
		// v4.f32 misaligned by 8 (not legal PTX, but must not break): 17 sectors.
		{"v4 t+8", warp(Global, Load, 16, base+8, func(t int) uint64 { return 16 * uint64(t) }), 1, 17, 16, 5},
		// f32 all lanes one address: 1 sector, ideal 1.
		{"f32 0", warp(Global, Load, 4, base, func(int) uint64 { return 0 }), 1, 1, 1, 1},
		// f32 stride 128 bytes: a line per lane.
		{"f32 32t", warp(Global, Load, 4, base, func(t int) uint64 { return 128 * uint64(t) }), 1, 32, 4, 32},
	}
	for _, c := range cases {
		req, sec, ideal := GlobalSectors(c.a)
		lines := GlobalLines(c.a)
		if req != c.req || sec != c.sec || ideal != c.ideal || lines != c.lns {
			t.Errorf("%s: req %d sec %d ideal %d lines %d; want %d %d %d %d", c.name, req, sec, ideal, lines, c.req, c.sec, c.ideal, c.lns)
		}
	}
	// Partial mask: 8 active lanes of consecutive floats: 1 sector.
	a := warp(Global, Load, 4, base, func(t int) uint64 { return 4 * uint64(t) })
	a.Mask = 0xff
	if r, s, i := GlobalSectors(a); r != 1 || s != 1 || i != 1 {
		t.Errorf("8 lanes: %d %d %d", r, s, i)
	}
	// Lanes 0 and 31 only: 2 sectors, ideal 1.
	a.Mask = 1 | 1<<31
	if r, s, i := GlobalSectors(a); r != 1 || s != 2 || i != 1 {
		t.Errorf("lanes 0,31: %d %d %d", r, s, i)
	}
	a.Mask = 0
	if r, s, i := GlobalSectors(a); r != 0 || s != 0 || i != 0 {
		t.Errorf("no lanes: %d %d %d", r, s, i)
	}
	if r, s, i := GlobalSectors(nil); r+s+i != 0 {
		t.Error("nil access counted")
	}
	// Address at the top of the space must not loop forever or panic.
	a = warp(Global, Load, 16, math.MaxUint64-7, func(int) uint64 { return 0 })
	if _, s, _ := GlobalSectors(a); s != 1 {
		t.Errorf("wrapping address: %d sectors", s)
	}
}

func TestSharedWavefrontsHandComputed(t *testing.T) {
	cases := []struct {
		name      string
		a         *Access
		w, ideal  int
		mask      uint32
		maskGiven bool
	}{
		// 8-bit consecutive: 8 words, banks 0..7, one wavefront.
		{name: "u8 t", a: warp(Shared, Load, 1, 0, func(t int) uint64 { return uint64(t) }), w: 1, ideal: 1},
		// 8-bit stride 128 bytes: 32 different words in bank 0.
		{name: "u8 128t", a: warp(Shared, Load, 1, 0, func(t int) uint64 { return 128 * uint64(t) }), w: 32, ideal: 1},
		// 16-bit stride 2 elements: word t, no conflict.
		{name: "u16 2t", a: warp(Shared, Store, 2, 0, func(t int) uint64 { return 4 * uint64(t) }), w: 1, ideal: 1},
		// 32-bit stride 2: lanes t and t+16 share a bank: 2-way.
		{name: "f32 2t", a: warp(Shared, Store, 4, 0, func(t int) uint64 { return 8 * uint64(t) }), w: 2, ideal: 1},
		// 32-bit stride 4 words, only 8 lanes: banks 0,4,...,28: 1.
		{name: "f32 4t 8 lanes", a: warp(Shared, Load, 4, 0, func(t int) uint64 { return 16 * uint64(t) }), w: 1, ideal: 1, mask: 0xff, maskGiven: true},
		// 64-bit, only lanes 0..15: one half-warp group, no conflict.
		{name: "f64 t half", a: warp(Shared, Load, 8, 0, func(t int) uint64 { return 8 * uint64(t) }), w: 1, ideal: 1, mask: 0xffff, maskGiven: true},
		// 128-bit, all lanes in pairs reading stride-32-byte addresses: 16 pair slots, 2 groups;
		// within a group slots 0..7 at 32*k bytes: banks 8k..8k+3 mod 32 -> slot k and k+4 collide: 2 each.
		{name: "v4 pairs 2x", a: warp(Shared, Load, 16, 0, func(t int) uint64 { return 32 * uint64(t/2) }), w: 4, ideal: 2},
		// Shared atomics to one word: every lane serialises (assumption documented on SharedWavefronts).
		{name: "atom same", a: warp(Shared, Atomic, 4, 0, func(int) uint64 { return 64 }), w: 32, ideal: 1},
		// Shared atomics to distinct banks: one wavefront.
		{name: "atom t", a: warp(Shared, Atomic, 4, 0, func(t int) uint64 { return 4 * uint64(t) }), w: 1, ideal: 1},
	}
	for _, c := range cases {
		if c.maskGiven {
			c.a.Mask = c.mask
		}
		w, ideal := SharedWavefronts(c.a)
		if w != c.w || ideal != c.ideal {
			t.Errorf("%s: wavefronts %d ideal %d, want %d %d", c.name, w, ideal, c.w, c.ideal)
		}
	}
	if w, i := SharedWavefronts(&Access{Space: Shared, Bytes: 4}); w != 0 || i != 0 {
		t.Errorf("empty mask: %d %d", w, i)
	}
}

func spec(t *testing.T, name string) *arch.Spec {
	t.Helper()
	s, err := arch.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCacheLRU(t *testing.T) {
	// A 2-way L1 of 4 lines (2 sets): lines 0, 2, 4 map to set 0.
	h := NewHierarchy(nil, 1, Options{L1Bytes: 4 * LineBytes, L1Ways: 2, L2Bytes: 64 * LineBytes, L2Ways: 4, L2InFlight: -1})
	ld := func(line uint64) Outcome {
		return h.Access(warp(Global, Load, 4, line*LineBytes, func(t int) uint64 { return 4 * uint64(t) }))
	}
	if o := ld(0); o.L1Misses != 4 || o.L2Misses != 4 || o.DRAMReads != 4 || o.Sectors != 4 {
		t.Fatalf("cold: %+v", o)
	}
	if o := ld(0); o.L1Hits != 4 || o.L2Hits+o.L2Misses != 0 {
		t.Fatalf("warm: %+v", o)
	}
	ld(2)      // set 0 now {0, 2}, 0 older
	ld(0)      // 0 becomes most recent
	ld(4)      // evicts 2 (LRU)
	o := ld(0) // still there
	if o.L1Hits != 4 {
		t.Errorf("line 0 evicted despite recent use: %+v", o)
	}
	o = ld(2) // was evicted from L1, still in L2
	if o.L1Misses != 4 || o.L2Hits != 4 || o.DRAMReads != 0 {
		t.Errorf("line 2 after eviction: %+v", o)
	}
	if h.L1HitRate() <= 0 || h.L1HitRate() >= 1 || h.L2HitRate() <= 0 {
		t.Errorf("hit rates %v %v", h.L1HitRate(), h.L2HitRate())
	}
}

func TestCacheSectoredAndPolicies(t *testing.T) {
	h := NewHierarchy(spec(t, "sm_90"), 2, Options{Carveout: 228 * arch.KB, L2FetchBytes: 32, L2InFlight: -1})
	if h.L1Bytes() != 28*arch.KB {
		t.Fatalf("L1 at max carveout: %d", h.L1Bytes())
	}
	// One lane reads sector 1 of a line; then the full line: 1 hit, 3 misses (no sector promotion).
	a := &Access{Space: Global, Kind: Load, Bytes: 4, Mask: 1}
	a.Addr[0] = 0x1000 + 32
	h.Access(a)
	full := warp(Global, Load, 4, 0x1000, func(t int) uint64 { return 4 * uint64(t) })
	if o := h.Access(full); o.L1Hits != 1 || o.L1Misses != 3 || o.L2Hits != 0 || o.L2Misses != 3 {
		t.Errorf("sectored fill: %+v", o)
	}
	// Another SM has its own L1 but shares L2.
	full.SM = 1
	if o := h.Access(full); o.L1Misses != 4 || o.L2Hits != 4 {
		t.Errorf("second SM: %+v", o)
	}
	// .cg bypasses L1.
	cg := *full
	cg.Cache = CG
	if o := h.Access(&cg); o.L1Hits+o.L1Misses != 0 || o.L2Hits != 4 {
		t.Errorf(".cg: %+v", o)
	}
	// .cv refetches from DRAM.
	cv := *full
	cv.Cache = CV
	if o := h.Access(&cv); o.L1Hits+o.L1Misses != 0 || o.DRAMReads != 4 || o.L2Misses != 4 {
		t.Errorf(".cv: %+v", o)
	}
	// Stores: looked up in L1 (miss; the sectors written whole are allocated, as
	// measured on the H200), written into L2 without DRAM reads and counted as L2 hits.
	st := warp(Global, Store, 4, 0x8000, func(t int) uint64 { return 4 * uint64(t) })
	if o := h.Access(st); o.L1Misses != 4 || o.L2Hits != 4 || o.L2Misses != 0 || o.DRAMReads != 0 {
		t.Errorf("store: %+v", o)
	}
	ld := *st
	ld.Kind = Load
	if o := h.Access(&ld); o.L1Hits != 4 || o.L2Hits+o.L2Misses != 0 {
		t.Errorf("load after store (L1 allocated by the store): %+v", o)
	}
	wt := *st
	wt.Cache = WT
	if o := h.Access(&wt); o.DRAMWrites != 4 {
		t.Errorf(".wt: %+v", o)
	}
	// Atomics run at L2 and drop the L1 copy.
	at := ld
	at.Kind = Atomic
	h.Access(&at)
	if o := h.Access(&ld); o.L1Misses != 4 || o.L2Hits != 4 {
		t.Errorf("load after atomic: %+v", o)
	}
	if n := h.Flush(); n != 4 {
		t.Errorf("flush wrote %d dirty sectors, want 4 (store line)", n)
	}
	// Shared accesses do not touch the caches.
	if o := h.Access(warp(Shared, Load, 4, 0, func(t int) uint64 { return 4 * uint64(t) })); o != (Outcome{}) {
		t.Errorf("shared in cache: %+v", o)
	}
}

func TestL2FetchGranularity(t *testing.T) {
	// The H200 reads 64 bytes from DRAM per L2 miss: one lane per 128-byte line
	// touches 1 sector but brings 2 from DRAM; the neighbour is then an L2 hit.
	h := NewHierarchy(spec(t, "sm_90"), 1, Options{})
	a := warp(Global, Load, 4, 0x10000, func(t int) uint64 { return 128 * uint64(t) })
	a.Cache = CG
	if o := h.Access(a); o.Sectors != 32 || o.L2Misses != 32 || o.DRAMReads != 64 {
		t.Errorf("64B fetch: %+v", o)
	}
	a2 := warp(Global, Load, 4, 0x10000+32, func(t int) uint64 { return 128 * uint64(t) })
	a2.Cache = CG
	if o := h.Access(a2); o.L2Hits != 32 || o.DRAMReads != 0 {
		t.Errorf("neighbour sector: %+v", o)
	}
	// 32-byte granularity elsewhere.
	h = NewHierarchy(spec(t, "sm_80"), 1, Options{})
	if o := h.Access(a); o.DRAMReads != 32 {
		t.Errorf("32B fetch: %+v", o)
	}
	if w := widen(0b0100, 2); w != 0b1100 {
		t.Errorf("widen pair: %04b", w)
	}
	if w := widen(0b0001, 4); w != 0b1111 {
		t.Errorf("widen line: %04b", w)
	}
}

func TestEvictFirst(t *testing.T) {
	// L2 of one 2-way set: a .cs line is the next victim even when used last.
	h := NewHierarchy(nil, 1, Options{L1Bytes: LineBytes, L1Ways: 1, L2Bytes: 2 * LineBytes, L2Ways: 2, L2InFlight: -1})
	mk := func(line uint64, op CacheOp) *Access {
		a := warp(Global, Load, 4, line*LineBytes, func(t int) uint64 { return 4 * uint64(t) })
		a.Cache = CG
		if op != Default {
			a.Cache = op
		}
		return a
	}
	h.Access(mk(0, CG))
	h.Access(mk(1, CS)) // streaming: inserted oldest
	h.Access(mk(2, CG)) // evicts line 1, not line 0
	if o := h.Access(mk(0, CG)); o.L2Hits != 4 {
		t.Errorf("line 0 was evicted instead of the streaming line: %+v", o)
	}
}

func TestLocalInterleaving(t *testing.T) {
	h := NewHierarchy(spec(t, "sm_80"), 1, Options{})
	// Every lane reads its own local offset 0: interleaved, 4 sectors.
	a := warp(Local, Load, 4, 0, func(int) uint64 { return 0 })
	if o := h.Access(a); o.Sectors != 4 {
		t.Errorf("local interleave: %+v", o)
	}
	// A different warp's same offsets are different memory.
	a.Warp = 1
	if o := h.Access(a); o.L1Hits != 0 {
		t.Errorf("local windows overlap: %+v", o)
	}
}

func TestCounter(t *testing.T) {
	h := NewHierarchy(spec(t, "sm_90"), 4, Options{Carveout: 32 * arch.KB})
	c := NewCounter(h)
	ld := warp(Global, Load, 4, 0x4000, func(t int) uint64 { return 8 * uint64(t) })
	ld.PC, ld.Line = 3, 20
	st := warp(Global, Store, 4, 0x9000, func(t int) uint64 { return 4 * uint64(t) })
	st.PC, st.Line = 7, 22
	sh := warp(Shared, Load, 4, 0, func(t int) uint64 { return 128 * uint64(t) })
	sh.PC, sh.Line = 5, 21
	shs := warp(Shared, Store, 8, 0, func(t int) uint64 { return 16 * uint64(t) })
	shs.PC, shs.Line = 6, 21
	red := warp(Global, Reduction, 4, 0x4000, func(int) uint64 { return 0 })
	red.PC, red.Line = 8, 23
	for i := 0; i < 2; i++ {
		c.Observe(ld)
		c.Observe(st)
		c.Observe(sh)
		c.Observe(shs)
		c.Observe(red)
	}
	c.Observe(&Access{PC: 9}) // no active lanes: ignored
	tot := c.Totals()
	want := Totals{GlobalLoadRequests: 2, GlobalLoadSectors: 16, GlobalStoreRequests: 2, GlobalStoreSectors: 8, GlobalRedRequests: 2,
		SharedLoadWavefronts: 64, SharedLoadBankConflicts: 62, SharedStoreWavefronts: 8, SharedStoreBankConflicts: 4,
		SharedLoadInstructions: 2, SharedStoreInstructions: 2}
	got := tot
	got.L1HitRate, got.L2HitRate, got.DRAMReadSectors, got.DRAMWriteSectors = 0, 0, 0, 0
	if got != want {
		t.Errorf("totals\n got %+v\nwant %+v", got, want)
	}
	// Loads: 8 sectors cold; the reduction to 0x4000 drops that sector from L1,
	// so the second pass hits 7 of 8 in L1 (the 8th hits L2). Stores look up
	// 4 sectors twice: the first pass allocates them (whole-sector stores
	// allocate, as on the H200), the second hits: (7+4)/(16+8).
	if tot.L1HitRate != 11.0/24 {
		t.Errorf("l1 hit rate %v", tot.L1HitRate)
	}
	rows := c.Instructions()
	if len(rows) != 5 || rows[0].PTXLine != 20 || rows[0].Sectors != 16 || rows[0].IdealSectors != 8 || rows[0].L1Hits != 7 || rows[0].L2Hits != 1 {
		t.Fatalf("rows: %+v", rows)
	}
	if rows[1].Op != "ld" || rows[1].Space != "shared" || rows[1].Wavefronts != 64 || rows[1].Excess() != 62 {
		t.Errorf("shared row: %+v", rows[1])
	}
	b, err := json.Marshal(c.Report())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"global_load_requests", "global_load_sectors", "global_store_requests", "global_store_sectors",
		"shared_load_wavefronts", "shared_store_wavefronts", "shared_load_bank_conflicts", "shared_store_bank_conflicts",
		"l1_hit_rate", "l2_hit_rate", `"instructions":[`, "ptx_line", "space", "op", "width_bits", "requests", "sectors",
		"ideal_sectors", "wavefronts", "ideal_wavefronts", "l1_hits", "l2_hits"} {
		if !strings.Contains(string(b), k) {
			t.Errorf("report JSON lacks %s", k)
		}
	}
	if b, _ := json.Marshal(NewCounter(nil).Report()); !strings.Contains(string(b), `"instructions":[]`) {
		t.Errorf("empty report: %s", b)
	}
}

func TestObserveDoesNotAllocate(t *testing.T) {
	h := NewHierarchy(spec(t, "sm_90"), 2, Options{})
	c := NewCounter(h)
	ld := warp(Global, Load, 16, 0x4000, func(t int) uint64 { return 16 * uint64(t) })
	sh := warp(Shared, Load, 16, 0, func(t int) uint64 { return 16 * uint64(t%8) })
	c.Observe(ld)
	c.Observe(sh)
	allocs := testing.AllocsPerRun(200, func() {
		ld.Addr[0] += 4096
		c.Observe(ld)
		c.Observe(sh)
	})
	if allocs != 0 {
		t.Errorf("Observe allocates %.1f times per call pair", allocs)
	}
}

func TestLoadNCU(t *testing.T) {
	m, err := LoadNCU(golden + "ncu_sm90.json")
	if err != nil {
		t.Fatal(err)
	}
	tn, ok := m["transpose_naive"]
	if !ok || len(m) != 17 {
		t.Fatalf("cases: %d", len(m))
	}
	// "4,096" wavefronts and "3,968" conflicts in the file.
	if tn.SharedLoadWavefronts != 4096 || tn.SharedLoadBankConflicts != 3968 || tn.GlobalLoadSectors != 512 {
		t.Errorf("transpose_naive: %+v", tn)
	}
	if _, err := LoadNCU("does/not/exist.json"); err == nil {
		t.Error("missing file accepted")
	}
	if _, err := ParseNCUNumber("x1"); err == nil {
		t.Error("bad number accepted")
	}
}

func BenchmarkObserve(b *testing.B) {
	s, _ := arch.Lookup("sm_90")
	c := NewCounter(NewHierarchy(s, 132, Options{}))
	ld := warp(Global, Load, 4, 0x4000, func(t int) uint64 { return 4 * uint64(t) })
	sh := warp(Shared, Load, 4, 0, func(t int) uint64 { return 4 * uint64(t) })
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		ld.Addr[0] = 0x4000 + uint64(i%4096)*128
		ld.SM = i % 132
		c.Observe(ld)
		c.Observe(sh)
	}
}

func TestRecordAndLines(t *testing.T) {
	c := NewCounter(NewHierarchy(spec(t, "sm_80"), 1, Options{}))
	a := warp(Global, Load, 4, 0x2000, func(t int) uint64 { return 4 * uint64(t) })
	a.Line = 40
	if o := c.Record(a); o.L1Misses != 4 || o.DRAMReads != 4 {
		t.Errorf("first: %+v", o)
	}
	if o := c.Record(a); o.L1Hits != 4 {
		t.Errorf("second: %+v", o)
	}
	sh := warp(Shared, Load, 4, 0, func(t int) uint64 { return 0 })
	sh.PC, sh.Line = 1, 50
	if o := c.Record(sh); o != (Outcome{Wavefronts: 1}) { // a broadcast: one wavefront, no cache
		t.Errorf("shared outcome %+v", o)
	}
	r := c.ReportWithLines(func(p int) int { return p + 1000 })
	if len(r.Instructions) != 2 || r.Instructions[0].CUDALine != 1040 || r.Instructions[1].CUDALine != 1050 {
		t.Errorf("cuda line: %+v", r.Instructions[0])
	}
}

// TestUniformAndAtomicContention counts broadcast loads and lanes per atomic address.
func TestUniformAndAtomicContention(t *testing.T) {
	c := NewCounter(nil)
	a := &Access{Line: 10, Space: Global, Kind: Load, Bytes: 4, Mask: 0xffffffff}
	for l := range a.Addr {
		a.Addr[l] = 0x1000
	}
	c.Observe(a)
	a.Addr[3] = 0x1004
	c.Observe(a)
	one := &Access{Line: 10, Space: Global, Kind: Load, Bytes: 4, Mask: 1, Addr: [32]uint64{0x1000}}
	c.Observe(one) // a single lane is not a broadcast
	at := &Access{Line: 20, Space: Global, Kind: Atomic, Bytes: 4, Mask: 0xffffffff}
	for l := range at.Addr {
		at.Addr[l] = 0x2000 + uint64(l%4)*4 // 8 lanes on each of 4 words
	}
	c.Observe(at)
	rows := map[int]InstStats{}
	for _, r := range c.Instructions() {
		rows[r.PTXLine] = r
	}
	if r := rows[10]; r.UniformLoads != 1 || r.Executions != 3 {
		t.Errorf("load row %+v: want 1 uniform execution of 3", r)
	}
	if r := rows[20]; r.AtomicLanes != 32 || r.AtomicAddresses != 4 {
		t.Errorf("atomic row %+v: want 32 lanes on 4 addresses", r)
	}
}
