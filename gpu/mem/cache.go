package mem

import (
	"math/bits"
	"slices"

	"github.com/kernelscope/kernelscope/gpu/arch"
)

// sectorsPerLine is the number of 32-byte sectors in a 128-byte line.
const sectorsPerLine = LineBytes / SectorBytes

// cache is a sectored, set-associative cache with LRU replacement: a tag per
// 128-byte line, a valid and a dirty bit per 32-byte sector. A miss fills only
// the sectors that missed (no sector promotion).
type cache struct {
	sets, ways int
	tags       []uint64 // line index + 1; 0 marks an empty way
	valid      []uint8  // sector bits
	dirty      []uint8  // sector bits
	stamp      []uint64 // last use; lower is older
	clock      uint64
	// ready, when readyOn, holds per way and sector the L2 lookup count at
	// which a fill from DRAM completes (the sector is in flight until then),
	// in chunks of readyChunk ways made on the first stamp after 0 (a chunk
	// not made holds zeros): a launch pays for the part of the L2 it fetches into.
	readyOn bool
	ready   [][]uint64
	// with track (a pooled cache), mark has a bit per set that got a line and
	// used lists those sets (reset, pool.go)
	track bool
	mark  []uint64
	used  []int32
}

// readyChunk is how many ways one chunk of a cache's ready stamps covers.
const readyChunk = 4096

// readyOf is the ready stamps of way w's sectors, nil when none was set.
func (c *cache) readyOf(w int) []uint64 {
	ch := c.ready[w/readyChunk]
	if ch == nil {
		return nil
	}
	i := (w % readyChunk) * sectorsPerLine
	return ch[i : i+sectorsPerLine]
}

// newCache sizes a cache of bytes with ways-way sets; nil when bytes < one line.
func newCache(bytes, ways int) *cache {
	sets, ways := geometry(bytes, ways)
	if sets == 0 {
		return nil
	}
	n := sets * ways
	return &cache{sets: sets, ways: ways, tags: make([]uint64, n), valid: make([]uint8, n),
		dirty: make([]uint8, n), stamp: make([]uint64, n)}
}

// geometry is the sets and ways of a cache of bytes with ways-way sets (0
// sets when bytes < one line).
func geometry(bytes, ways int) (int, int) {
	lines := bytes / LineBytes
	if lines <= 0 {
		return 0, 0
	}
	if ways <= 0 || ways > lines {
		ways = lines
	}
	return lines / ways, ways
}

// newCacheFrom is newCache taking an empty cache of that geometry from p when it has one.
func newCacheFrom(p *CachePool, bytes, ways int) *cache {
	if sets, w := geometry(bytes, ways); sets > 0 {
		if c := p.get(sets, w); c != nil {
			return c
		}
	}
	c := newCache(bytes, ways)
	if p != nil && c != nil {
		c.tracked()
	}
	return c
}

// tracked makes c record the sets it fills, so that it can go to a pool.
func (c *cache) tracked() {
	c.track, c.mark = true, make([]uint64, (c.sets+63)/64)
}

// find returns the way index of line, or -1, and the first index of its set.
func (c *cache) find(line uint64) (way, base int) {
	base = int(line%uint64(c.sets)) * c.ways
	for i := base; i < base+c.ways; i++ {
		if c.tags[i] == line+1 {
			return i, base
		}
	}
	return -1, base
}

// victim returns the way to replace in the set at base: an empty way, else the LRU one.
func (c *cache) victim(base int) int {
	v := base
	for i := base; i < base+c.ways; i++ {
		if c.tags[i] == 0 {
			return i
		}
		if c.stamp[i] < c.stamp[v] {
			v = i
		}
	}
	return v
}

// touch marks way i used; evictFirst leaves it oldest in its set (.cs/.lu).
func (c *cache) touch(i int, evictFirst bool) {
	c.clock++
	if evictFirst {
		c.stamp[i] = 0
		return
	}
	c.stamp[i] = c.clock
}

// lookup reports which of the sectors in mask are present, without changing state.
func (c *cache) lookup(line uint64, mask uint8) (hit uint8) {
	if w, _ := c.find(line); w >= 0 {
		return c.valid[w] & mask
	}
	return 0
}

// fill makes the sectors in mask valid (allocating the line if needed) and
// marks them dirty when write is set. It returns the dirty sectors of an
// evicted line, which must be written to the next level.
func (c *cache) fill(line uint64, mask uint8, write, evictFirst bool) (evictedDirty int) {
	w, base := c.find(line)
	if w < 0 {
		w = c.victim(base)
		if c.tags[w] != 0 {
			evictedDirty = popcount(c.dirty[w])
		} else if c.track {
			c.markSet(base)
		}
		c.tags[w], c.valid[w], c.dirty[w] = line+1, 0, 0
		if c.readyOn {
			clear(c.readyOf(w))
		}
	}
	c.valid[w] |= mask
	if write {
		c.dirty[w] |= mask
	}
	c.touch(w, evictFirst)
	return evictedDirty
}

// update refreshes a present line after a write-through store (no
// allocation; sectors keep their valid bits: the store's bytes may not cover them).
func (c *cache) update(line uint64) bool {
	w, _ := c.find(line)
	if w < 0 {
		return false
	}
	c.touch(w, false)
	return true
}

// invalidate drops the sectors in mask of line, returning how many were dirty.
func (c *cache) invalidate(line uint64, mask uint8) int {
	w, _ := c.find(line)
	if w < 0 {
		return 0
	}
	d := popcount(c.dirty[w] & mask)
	c.valid[w] &^= mask
	c.dirty[w] &^= mask
	if c.valid[w] == 0 {
		c.tags[w] = 0
	}
	return d
}

// pending reports which of the sectors in mask of line are valid but still
// in flight at lookup count now (always 0 without ready stamps).
func (c *cache) pending(line uint64, mask uint8, now uint64) (p uint8) {
	if !c.readyOn {
		return 0
	}
	w, _ := c.find(line)
	if w < 0 {
		return 0
	}
	r := c.readyOf(w)
	if r == nil {
		return 0
	}
	for s := 0; s < sectorsPerLine; s++ {
		if mask&(1<<s) != 0 && r[s] > now {
			p |= 1 << s
		}
	}
	return p & c.valid[w]
}

// setReady stamps the sectors in mask of a present line as arriving at t.
func (c *cache) setReady(line uint64, mask uint8, t uint64) {
	if !c.readyOn {
		return
	}
	w, _ := c.find(line)
	if w < 0 {
		return
	}
	r := c.readyOf(w)
	if r == nil {
		if t == 0 {
			return // zeros already
		}
		c.ready[w/readyChunk] = make([]uint64, readyChunk*sectorsPerLine)
		r = c.readyOf(w)
	}
	for s := 0; s < sectorsPerLine; s++ {
		if mask&(1<<s) != 0 {
			r[s] = t
		}
	}
}

func popcount(b uint8) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

// Options configure a Hierarchy; the zero value is a usable default.
type Options struct {
	// Carveout is the bytes of the unified L1/shared array given to shared
	// memory (see occupancy.PickCarveout); L1 gets the rest. 0 means no shared
	// memory, i.e. the largest L1.
	Carveout int
	// L1Bytes and L2Bytes override the sizes derived from the architecture (0: derive).
	L1Bytes, L2Bytes int
	// L1Ways and L2Ways set the associativity (0: the defaults below).
	L1Ways, L2Ways int
	// L2FetchBytes is the DRAM fetch granularity of an L2 miss: 32, 64 or 128
	// (0: the architecture's arch.Spec.L2FetchBytes, else 32).
	L2FetchBytes int
	// L2InFlight is how many L2 sector lookups a neighbour sector that an L2
	// miss fetched along with the requested ones stays in flight: a lookup of it
	// before then counts as a miss, as Nsight Compute counts it (0:
	// DefaultL2InFlight; < 0: none). Requested sectors are hits at once.
	L2InFlight int
	// Pool, when set, gives the caches their arrays from caches released
	// before (Release), so that successive launches reuse them.
	Pool *CachePool
}

// Default associativities. NVIDIA does not document them; these are modelled values.
const (
	DefaultL1Ways = 4
	DefaultL2Ways = 16
)

// DefaultL2InFlight is the L2 in-flight window of the functional-order model, in
// sector lookups. Calibrated on offset_copy_4M and histogram256_16M (the two
// launches whose neighbouring-sector fetches the H200 counts as misses); see docs/caches.md.
const DefaultL2InFlight = 16

// Outcome is what the caches did for one warp access, in 32-byte sectors.
type Outcome struct {
	Sectors    int // distinct sectors the access touched
	L1Hits     int // sectors found in L1
	L1Misses   int // sectors looked up in L1 and not found
	L2Hits     int // sectors found in L2
	L2Misses   int // sectors looked up in L2 and not found
	DRAMReads  int // sectors read from device memory
	DRAMWrites int // sectors written to device memory (write-through or dirty evictions)
	Wavefronts int // shared memory: wavefronts of the access (Counter.Record only)
	// Lines is the distinct 128-byte lines a global or local access touched: the
	// L1TEX data stage's wavefronts, one a cycle (testdata/measured/l1lines).
	Lines int
	// PartialSectors is the sectors of a store that it did not write whole.
	PartialSectors int
}

// add accumulates o into t.
func (t *Outcome) add(o Outcome) {
	t.Sectors += o.Sectors
	t.L1Hits += o.L1Hits
	t.L1Misses += o.L1Misses
	t.L2Hits += o.L2Hits
	t.L2Misses += o.L2Misses
	t.DRAMReads += o.DRAMReads
	t.DRAMWrites += o.DRAMWrites
	t.Lines += o.Lines
	t.PartialSectors += o.PartialSectors
}

// Hierarchy models one L1 per SM and one shared L2 for global and local memory.
// It is not safe for concurrent use.
//
// Policies (PTX ISA "Cache Operators"; CUDA guide, compute capability 7.x+):
//   - loads: default, .ca, .nc (ld.global.nc/ldu) and .lu/.cs allocate in L1 and
//     L2; .lu and .cs insert evict-first; .cg caches in L2 only; .cv fetches
//     again from memory (L1 bypassed, the L2 line refetched);
//   - stores: L1 is write-through without write-allocate (a store to a line
//     present in L1 is a hit and refreshes it); L2 is write-back with
//     write-allocate and byte masks, so a store never reads DRAM and counts as
//     an L2 hit; .wt also writes DRAM; .cs stores insert evict-first in L2;
//   - an L2 miss reads DRAM in units of the fetch granularity (64 bytes on the
//     H200: arch.Spec.L2FetchBytes), filling the neighbouring sector too;
//   - atomics and reductions run at L2 and invalidate the sectors in L1;
//   - local memory is cached like global memory, addresses interleaved per lane
//     in 4-byte words as the hardware lays out local memory;
//   - shared, const and param accesses do not use this hierarchy.
//
// Checked against the H200 at scale (scale_test.go): DRAM read bytes within 1 %
// and L1/L2 sector hit rates within 3 points on six streaming launches. Known
// limit: the model has no time, so a sector brought in by a neighbour's 64-byte
// fetch is a hit even when the H200 asks for it while that fill is still in
// flight (offset_copy_4M: L2 hit 63 % vs 54 %; histogram256_16M: 53 % vs 18 %).
//
// Modelled, not documented: a single monolithic L2 (the H100/H200 L2 is two
// partitions), LRU in both levels, DefaultL1Ways/DefaultL2Ways associativity.
type Hierarchy struct {
	l1     []*cache // per SM, made on first use
	l1Size int
	l1Ways int
	l2     *cache
	// fetchSectors is the L2 miss fetch granularity in sectors (1, 2 or 4).
	fetchSectors int
	// inFlight is the L2 in-flight window in sector lookups (0: none).
	inFlight uint64
	total    Outcome
	// sectors looked up in each level (for hit rates)
	l1Lookups, l2Lookups int
	buf                  sectorBuf
	cov                  [len(sectorBuf{})]uint32 // bytes written per sector of a store
	pool                 *CachePool               // Options.Pool
}

// NewHierarchy sizes the caches from spec: L1 is the unified L1/shared array
// minus opts.Carveout, L2 the reference part's L2. numSMs is clamped to 1..4096
// and cache sizes to 1 GiB. For the L1 a launch really gets, pass
// Carveout: occupancy.PickCarveout(spec, result).
func NewHierarchy(spec *arch.Spec, numSMs int, opts Options) *Hierarchy {
	h, l2Size, l2Ways := newHierarchy(spec, numSMs, opts)
	h.l2 = newCacheFrom(h.pool, l2Size, l2Ways)
	if h.l2 != nil && h.inFlight > 0 {
		h.l2.readyOn = true
		h.l2.ready = make([][]uint64, (len(h.l2.tags)+readyChunk-1)/readyChunk)
	}
	return h
}

// newHierarchy is NewHierarchy without its L2, and the L2's size and ways.
func newHierarchy(spec *arch.Spec, numSMs int, opts Options) (*Hierarchy, int, int) {
	numSMs = min(max(numSMs, 1), maxSMs)
	h := &Hierarchy{l1: make([]*cache, numSMs), l1Ways: opts.L1Ways, l1Size: opts.L1Bytes, pool: opts.Pool}
	if h.l1Ways <= 0 {
		h.l1Ways = DefaultL1Ways
	}
	l2Size, l2Ways := opts.L2Bytes, opts.L2Ways
	if spec != nil {
		if h.l1Size <= 0 {
			h.l1Size = spec.L1Bytes(opts.Carveout)
		}
		if l2Size <= 0 {
			l2Size = spec.L2Bytes
		}
	}
	if l2Ways <= 0 {
		l2Ways = DefaultL2Ways
	}
	fetch := opts.L2FetchBytes
	if fetch <= 0 && spec != nil {
		fetch = spec.L2FetchBytes
	}
	switch {
	case fetch >= 128:
		h.fetchSectors = 4
	case fetch >= 64:
		h.fetchSectors = 2
	default:
		h.fetchSectors = 1
	}
	h.l1Size = min(h.l1Size, maxCacheBytes)
	switch {
	case opts.L2InFlight == 0:
		h.inFlight = DefaultL2InFlight
	case opts.L2InFlight > 0:
		h.inFlight = uint64(opts.L2InFlight)
	}
	return h, min(l2Size, maxCacheBytes), l2Ways
}

// Release hands the caches to the pool of the Options the hierarchy was made
// with (none: nothing happens); h must not be used after.
func (h *Hierarchy) Release() {
	if h == nil || h.pool == nil {
		return
	}
	for i, c := range h.l1 {
		h.pool.put(c)
		h.l1[i] = nil
	}
	h.pool.put(h.l2)
	h.l2 = nil
}

// Bounds on what NewHierarchy allocates, far above any real GPU.
const (
	maxSMs        = 1 << 12
	maxCacheBytes = 1 << 30
)

// L1Bytes returns the capacity of each SM's L1 data cache.
func (h *Hierarchy) L1Bytes() int { return h.l1Size }

// l1For returns the L1 of an SM (wrapped into range), creating it on first use.
func (h *Hierarchy) l1For(sm int) *cache {
	sm = int(uint(sm) % uint(len(h.l1)))
	if h.l1[sm] == nil {
		h.l1[sm] = newCacheFrom(h.pool, h.l1Size, h.l1Ways)
	}
	return h.l1[sm]
}

// localBase is where local windows are placed, far above any global address.
const localBase = 0xF000_0000_0000_0000

// physical returns the cache address of lane's access: global addresses as
// they are, local offsets interleaved per warp in 4-byte words.
func physical(a *Access, lane int) uint64 {
	addr := a.Addr[lane]
	if a.Space != Local {
		return addr
	}
	warp := uint64(a.Block)<<6 | uint64(a.Warp&63)
	return localBase + warp<<30 + (addr/4)*4*32 + uint64(lane)*4 + addr%4
}

// Access runs one warp access through the caches and returns what happened.
func (h *Hierarchy) Access(a *Access) Outcome {
	if a == nil || a.Mask == 0 || (a.Space != Global && a.Space != Local) {
		return Outcome{}
	}
	src := a
	var la Access
	if a.Space == Local {
		toPhysical(a, &la)
		src = &la
	}
	secs := collectSectors(src, &h.buf)
	if a.Kind == Store {
		h.coverage(src, secs)
	}
	return h.access(a, secs)
}

// coverage records in h.cov, per sector of secs, which of its 32 bytes the store a writes.
func (h *Hierarchy) coverage(a *Access, secs []uint64) { storeCoverage(a, secs, h.cov[:len(secs)]) }

// storeCoverage sets in cov[i], for each sector secs[i], the bytes the store a writes.
// A lane's bytes span at most a few sectors: each is looked up once.
func storeCoverage(a *Access, secs []uint64, cov []uint32) {
	clear(cov)
	w := laneBytes(a)
	hint := 0
	for m := a.Mask; m != 0; m &= m - 1 {
		lo := a.Addr[bits.TrailingZeros32(m)]
		hi := lo + w // exclusive
		if hi < lo {
			continue // wraps: no byte below the end (as a byte-by-byte walk finds)
		}
		for s := lo / SectorBytes; s <= (hi-1)/SectorBytes; s++ {
			from, to := uint64(0), uint64(SectorBytes) // the lane's bytes in sector s: [from, to)
			if s == lo/SectorBytes {
				from = lo % SectorBytes
			}
			if s == (hi-1)/SectorBytes {
				to = (hi-1)%SectorBytes + 1
			}
			// Lanes in address order find their sector at or next to the last one.
			i, ok := hint, hint < len(secs) && secs[hint] == s
			if !ok && hint+1 < len(secs) && secs[hint+1] == s {
				i, ok = hint+1, true
			}
			if !ok {
				i, ok = slices.BinarySearch(secs, s)
			}
			if ok {
				cov[i] |= uint32((uint64(1)<<to - 1) &^ (uint64(1)<<from - 1))
				hint = i
			}
		}
	}
}

// access applies a's policy to its sorted distinct sectors (cache address
// space); for a store, h.cov must hold its coverage (coverage).
func (h *Hierarchy) access(a *Access, secs []uint64) Outcome {
	var o Outcome
	o.Sectors = len(secs)
	l1 := h.l1For(a.SM)
	for i := 0; i < len(secs); {
		line := secs[i] / sectorsPerLine
		o.Lines++
		var mask, full uint8
		for ; i < len(secs) && secs[i]/sectorsPerLine == line; i++ {
			mask |= 1 << (secs[i] % sectorsPerLine)
			if a.Kind == Store && h.cov[i] == ^uint32(0) {
				full |= 1 << (secs[i] % sectorsPerLine)
			}
		}
		if a.Kind == Store {
			o.PartialSectors += bits.OnesCount8(mask &^ full)
		}
		h.line(&o, l1, a, line, mask, full)
	}
	h.total.add(o)
	return o
}

// toPhysical writes into dst the access a with local offsets replaced by
// their interleaved cache addresses.
func toPhysical(a *Access, dst *Access) {
	*dst = *a
	for lane := 0; lane < 32; lane++ {
		if a.Mask&(1<<lane) != 0 {
			dst.Addr[lane] = physical(a, lane)
		}
	}
}

// line applies the policy for the sectors in mask of one line; full marks
// the sectors a store writes completely.
func (h *Hierarchy) line(o *Outcome, l1 *cache, a *Access, line uint64, mask, full uint8) {
	n := popcount(mask)
	switch a.Kind {
	case Load:
		miss := mask
		evictFirst := a.Cache == CS || a.Cache == LU
		// .cg, .cv and .lu (LDG.E.STRONG.GPU / .STRONG.SYS / .LU on sm_90) bypass L1:
		// measured, testdata/measured/caches/micro_ncu.csv.
		useL1 := l1 != nil && a.Cache != CG && a.Cache != CV && a.Cache != LU
		if useL1 {
			hit := l1.lookup(line, mask)
			miss = mask &^ hit
			o.L1Hits += popcount(hit)
			o.L1Misses += popcount(miss)
			h.l1Lookups += n
		}
		if miss != 0 {
			if a.Cache == CV && h.l2 != nil {
				o.DRAMWrites += h.l2.invalidate(line, miss)
			}
			h.l2Read(o, line, miss, evictFirst)
		}
		if useL1 {
			// Allocates on a miss, refreshes LRU on a hit; L1 is never dirty.
			l1.fill(line, miss, false, evictFirst)
		}
	case Store:
		if l1 != nil {
			// Write-through; the sectors a store writes whole are allocated
			// (measured on the H200: a load or store after a whole-sector store
			// hits in L1). Partial-sector stores allocate nothing: on the
			// real-code transposes, whose 4-byte column stores later warps
			// complete, the H200's L1 hit rate stays 0-38% (allocating them gives
			// 78%). A store to a present sector counts as a hit
			// (l1tex__t_sector_hit_rate does).
			hit := l1.lookup(line, mask)
			o.L1Hits += popcount(hit)
			o.L1Misses += n - popcount(hit)
			h.l1Lookups += n
			if full != 0 {
				l1.fill(line, full, false, a.Cache == CS)
			} else {
				l1.update(line)
			}
		}
		h.l2Write(o, line, mask, a.Cache == CS)
		if a.Cache == WT {
			o.DRAMWrites += n
		}
	default: // Atomic, Reduction: performed at L2
		if l1 != nil {
			l1.invalidate(line, mask)
		}
		h.l2Read(o, line, mask, false)
		if h.l2 != nil {
			h.l2.fill(line, mask, true, false)
			h.l2.setReady(line, mask, 0) // the atomic's result is in L2 now
		}
	}
}

// l2Read looks up sectors in L2; the missing ones are fetched from DRAM in
// units of the fetch granularity (so neighbouring sectors may come along) and filled.
func (h *Hierarchy) l2Read(o *Outcome, line uint64, mask uint8, evictFirst bool) {
	n := popcount(mask)
	h.l2Lookups += n
	if h.l2 == nil {
		o.L2Misses += n
		o.DRAMReads += n
		return
	}
	now := uint64(h.l2Lookups)
	present := h.l2.lookup(line, mask)
	// A sector still in flight from DRAM is a miss that reads nothing more.
	hit := present &^ h.l2.pending(line, present, now)
	miss := mask &^ hit
	o.L2Hits += popcount(hit)
	o.L2Misses += popcount(miss)
	fetch := widen(mask&^present, h.fetchSectors)
	fetch &^= h.l2.lookup(line, fetch)
	o.DRAMReads += popcount(fetch)
	o.DRAMWrites += h.l2.fill(line, mask|fetch, false, evictFirst)
	// Only the neighbours a fetch brought along stay in flight: a request for a
	// sector another request is already fetching is an L2 hit on the H200 (8
	// warps loading one line at once: 4 misses, 4 hits), one for a neighbour
	// sector before the fetch returns a miss (offset_copy, histogram256).
	if extra := fetch &^ mask; extra != 0 {
		h.l2.setReady(line, extra, now+h.inFlight)
	}
}

// widen grows a sector mask to whole aligned groups of k sectors (k = 1, 2 or 4).
func widen(mask uint8, k int) uint8 {
	switch k {
	case 2:
		for _, pair := range [...]uint8{0b0011, 0b1100} {
			if mask&pair != 0 {
				mask |= pair
			}
		}
	case 4:
		if mask != 0 {
			mask = 0b1111
		}
	}
	return mask
}

// l2Write writes sectors into L2: write-allocate with byte masks, so a store
// never reads DRAM and, as Nsight Compute counts lts__t_sector_hit_rate, every
// written sector is a hit (the H200's vector_add_16M: 34 % = 64 MB stored / 192 MB).
func (h *Hierarchy) l2Write(o *Outcome, line uint64, mask uint8, evictFirst bool) {
	n := popcount(mask)
	h.l2Lookups += n
	if h.l2 == nil {
		o.L2Hits += n
		o.DRAMWrites += n
		return
	}
	o.L2Hits += n
	o.DRAMWrites += h.l2.fill(line, mask, true, evictFirst)
	h.l2.setReady(line, mask, 0) // written bytes are present at once
}

// Totals returns the sum of every Outcome so far.
func (h *Hierarchy) Totals() Outcome { return h.total }

// L1HitRate is L1 sector hits over L1 sector lookups (loads through L1), 0 when none.
func (h *Hierarchy) L1HitRate() float64 { return ratio(h.total.L1Hits, h.l1Lookups) }

// L2HitRate is L2 sector hits over L2 sector lookups (loads, stores, atomics), 0 when none.
func (h *Hierarchy) L2HitRate() float64 { return ratio(h.total.L2Hits, h.l2Lookups) }

// Flush writes back every dirty L2 sector, returning how many went to DRAM.
func (h *Hierarchy) Flush() int {
	if h.l2 == nil {
		return 0
	}
	n := 0
	for i := range h.l2.dirty {
		n += popcount(h.l2.dirty[i])
		h.l2.dirty[i] = 0
	}
	h.total.DRAMWrites += n
	return n
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// touchLine refreshes the LRU position of a present line (no-op when absent).
func (c *cache) touchLine(line uint64, evictFirst bool) {
	if w, _ := c.find(line); w >= 0 {
		c.touch(w, evictFirst)
	}
}
