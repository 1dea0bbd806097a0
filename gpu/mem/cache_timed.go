package mem

import (
	"math/bits"

	"github.com/kernelscope/kernelscope/gpu/arch"
)

// TimedOptions configure a TimedHierarchy. Latencies are load-to-use cycles
// of a dependent load that hits in L1, hits in L2, or goes to DRAM; zero
// fields take the H200 values measured by pointer chases
// (testdata/golden/latency_sm90.csv: 41.6, 374.3, 695.0 cycles).
type TimedOptions struct {
	Options
	L1Latency, L2Latency, DRAMLatency int64
	// L1MSHRs bounds the line misses one SM's L1 has outstanding; a miss that
	// finds them all busy waits for the earliest to complete (0: DefaultL1MSHRs).
	L1MSHRs int
	// L2Pending bounds the sector fills from DRAM in flight in the L2 as a
	// whole; further misses wait (0: DefaultL2Pending).
	L2Pending int
	// L2Partitions is the number of L2 partitions: 0 takes the arch.Spec's, 1 is one
	// L2 (every SM near every line), 2 splits it as Partitioning says.
	L2Partitions int
	// Partitioning describes two partitions (nil: DefaultL2Partitioning).
	Partitioning *L2Partitioning
}

// Pending-request limits. NVIDIA does not publish them and they were not
// measured here: modelled values, large enough not to bind on the golden
// and scale launches (each SM keeps ~90 lines in flight at the H200's
// measured 4.3 TB/s and 695-cycle DRAM latency).
const (
	DefaultL1MSHRs   = 256
	DefaultL2Pending = 132 * 1024
)

// TimedOutcome is what a TimedHierarchy did for one warp access.
type TimedOutcome struct {
	Outcome
	L1InFlight int   // L1 hits on sectors whose fill had not returned (counted in L1Hits, as ncu does)
	L2InFlight int   // L2 lookups of sectors still in flight: hits when requested by another miss, misses when a fetch brought them along (as ncu counts)
	Wait       int64 // cycles the access waited for a free MSHR or L2 pending slot
	// FabricHits and FabricMisses are the lookups, in the home partition, of sectors a
	// near partition lacked (ncu's lts__t_sectors_srcunit_ltcfabric); not in L2Hits/L2Misses.
	FabricHits, FabricMisses int
}

// timedCache is a sectored cache whose sectors carry the cycle their data is there.
type timedCache struct {
	c     *cache
	ready []int64 // per way and sector
	along []uint8 // per way: sectors a fetch brought along unrequested
}

func newTimedCache(p *CachePool, bytes, ways int) *timedCache {
	if sets, w := geometry(bytes, ways); sets > 0 {
		if t := p.getTimed(sets, w); t != nil {
			return t
		}
	}
	c := newCache(bytes, ways)
	if c == nil {
		return nil
	}
	if p != nil {
		c.tracked()
	}
	return &timedCache{c: c, ready: make([]int64, len(c.tags)*sectorsPerLine), along: make([]uint8, len(c.tags))}
}

// inFlightAlong returns which of the present sectors in mask of line were
// brought along by a fetch for other sectors and are still in flight at cycle t.
func (tc *timedCache) inFlightAlong(line uint64, mask uint8, t int64) (p uint8) {
	w, _ := tc.c.find(line)
	if w < 0 {
		return 0
	}
	m := mask & tc.c.valid[w] & tc.along[w]
	for s := 0; s < sectorsPerLine; s++ {
		if m&(1<<s) != 0 && tc.ready[w*sectorsPerLine+s] > t {
			p |= 1 << s
		}
	}
	return p
}

// probe returns, for the sectors in mask of line, which are present and the
// latest cycle their data is there (0 when none is present).
func (t *timedCache) probe(line uint64, mask uint8) (present uint8, way int, at int64) {
	w, _ := t.c.find(line)
	if w < 0 {
		return 0, -1, 0
	}
	present = t.c.valid[w] & mask
	for s := 0; s < sectorsPerLine; s++ {
		if present&(1<<s) != 0 {
			at = max(at, t.ready[w*sectorsPerLine+s])
		}
	}
	return present, w, at
}

// install makes the sectors in mask of line present from cycle at, allocating
// the line (LRU victim) if needed; it returns the dirty sectors evicted.
func (t *timedCache) install(line uint64, mask uint8, at int64, write, evictFirst bool) int {
	ev := t.c.fill(line, mask, write, evictFirst)
	w, _ := t.c.find(line)
	if t.along != nil {
		t.along[w] &^= mask
	}
	for s := 0; s < sectorsPerLine; s++ {
		if mask&(1<<s) != 0 {
			t.ready[w*sectorsPerLine+s] = at
		}
	}
	return ev
}

// slots is a bounded set of outstanding completions (MSHRs, pending fills),
// kept as a min-heap of completion cycles.
type slots struct {
	done []int64
	max  int
}

// acquire returns the cycle at or after now when a slot is free and takes it
// until the caller calls finish; completed entries are dropped.
func (s *slots) acquire(now int64) int64 {
	for len(s.done) > 0 && s.done[0] <= now {
		s.pop()
	}
	if len(s.done) < s.max {
		return now
	}
	return s.pop()
}

// finish records that the slot taken is busy until done.
func (s *slots) finish(done int64) {
	s.done = append(s.done, done)
	for i := len(s.done) - 1; i > 0; {
		p := (i - 1) / 2
		if s.done[p] <= s.done[i] {
			break
		}
		s.done[p], s.done[i] = s.done[i], s.done[p]
		i = p
	}
}

// pop removes and returns the earliest completion.
func (s *slots) pop() int64 {
	d := s.done
	top := d[0]
	n := len(d) - 1
	d[0] = d[n]
	d = d[:n]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && d[l] < d[m] {
			m = l
		}
		if r < n && d[r] < d[m] {
			m = r
		}
		if m == i {
			break
		}
		d[i], d[m] = d[m], d[i]
		i = m
	}
	s.done = d
	return top
}

// TimedHierarchy is the L1/L2 hierarchy in time: a sector's fill completes
// after its latency, a lookup of a sector in flight waits for that fill, and
// misses are bounded by L1 MSHRs and L2 pending fills. It follows the same
// policy as Hierarchy (sector fills, 64-byte DRAM fetches on the H200, .cg
// .cv .lu bypass L1, stores write through and allocate the sectors they write
// whole, atomics at L2).
// Accesses should be presented in nondecreasing cycle order per SM (the
// timing model's issue order); it is not safe for concurrent use.
type TimedHierarchy struct {
	l1                  []*timedCache
	l1m                 []slots
	l1Size, l1Ways      int
	l2                  []*timedCache   // one per partition
	part                *L2Partitioning // nil: one L2
	l2Near, drNear      int64           // latencies of the near partition (l2Lat, drLat with one L2)
	l2p                 slots
	fetchSectors        int
	l1Lat, l2Lat, drLat int64
	mshrs               int
	total               TimedOutcome
	l1Lookups           int
	l2Lookups           int
	fabLookups          int
	buf                 sectorBuf
	cov                 [len(sectorBuf{})]uint32 // bytes written per sector of a store
	pool                *CachePool               // Options.Pool
}

// Release hands the caches to the pool of the options the hierarchy was made
// with (none: nothing happens); h must not be used after.
func (h *TimedHierarchy) Release() {
	if h == nil || h.pool == nil {
		return
	}
	for i, t := range h.l1 {
		h.pool.putTimed(t)
		h.l1[i] = nil
	}
	for _, t := range h.l2 {
		h.pool.putTimed(t)
	}
	h.l2 = nil
}

// NewTimedHierarchy sizes the caches as NewHierarchy does.
func NewTimedHierarchy(spec *arch.Spec, numSMs int, opts TimedOptions) *TimedHierarchy {
	base, l2Size, l2Ways := newHierarchy(spec, numSMs, Options{Carveout: opts.Carveout, L1Bytes: opts.L1Bytes, L2Bytes: opts.L2Bytes,
		L1Ways: opts.L1Ways, L2Ways: opts.L2Ways, L2FetchBytes: opts.L2FetchBytes, L2InFlight: -1})
	h := &TimedHierarchy{l1: make([]*timedCache, len(base.l1)), l1m: make([]slots, len(base.l1)),
		l1Size: base.l1Size, l1Ways: base.l1Ways, fetchSectors: base.fetchSectors,
		l1Lat: opts.L1Latency, l2Lat: opts.L2Latency, drLat: opts.DRAMLatency, mshrs: opts.L1MSHRs, pool: opts.Pool}
	nPart := opts.L2Partitions
	if nPart <= 0 && spec != nil {
		nPart = spec.L2Partitions
	}
	if sets, w := geometry(l2Size, l2Ways); sets > 0 && nPart == 2 {
		h.part = opts.Partitioning
		if h.part == nil {
			h.part = &DefaultL2Partitioning
		}
		bytes := sets * w * LineBytes / 2
		h.l2 = []*timedCache{newTimedCache(h.pool, bytes, w), newTimedCache(h.pool, bytes, w)}
		if h.l2[0] == nil {
			h.pool.putTimed(h.l2[1])
			h.l2, h.part = nil, nil
		}
	} else if t := newTimedCache(h.pool, l2Size, l2Ways); t != nil {
		h.l2 = []*timedCache{t}
	}
	if h.l1Lat <= 0 {
		h.l1Lat = 42
	}
	if h.l2Lat <= 0 {
		h.l2Lat = 374
	}
	if h.drLat <= 0 {
		h.drLat = 695
	}
	h.l2Lat, h.drLat = max(h.l2Lat, h.l1Lat), max(h.drLat, h.l2Lat, h.l1Lat)
	h.l2Near, h.drNear = h.l2Lat, h.drLat
	if h.part != nil {
		// the latency table's L2 and DRAM values are means over lines of both homes
		// (chase_global_l2_hit 374.3 = the mean of 284 near and 461 far, 372.5)
		f := h.part.Fabric
		h.l2Near, h.drNear = max(h.l2Lat-f/2, h.l1Lat), max(h.drLat-f/2, h.l1Lat)
	}
	if h.mshrs <= 0 {
		h.mshrs = DefaultL1MSHRs
	}
	h.l2p.max = opts.L2Pending
	if h.l2p.max <= 0 {
		h.l2p.max = DefaultL2Pending
	}
	return h
}

// l1For returns the timed L1 of an SM (wrapped into range), made on first use.
func (h *TimedHierarchy) l1For(sm int) (*timedCache, *slots) {
	sm = int(uint(sm) % uint(len(h.l1)))
	if h.l1[sm] == nil {
		h.l1[sm] = newTimedCache(h.pool, h.l1Size, h.l1Ways)
		h.l1m[sm].max = h.mshrs
	}
	return h.l1[sm], &h.l1m[sm]
}

// Access runs one warp access issued at cycle now through the caches and
// returns the cycle its data is there (loads, atomics) or L2 has it (stores),
// and what happened.
func (h *TimedHierarchy) Access(a *Access, now int64) (ready int64, o TimedOutcome) {
	if a == nil || a.Mask == 0 || (a.Space != Global && a.Space != Local) {
		return now, o
	}
	src := a
	var la Access
	if a.Space == Local {
		toPhysical(a, &la)
		src = &la
	}
	secs := collectSectors(src, &h.buf)
	if a.Kind == Store {
		storeCoverage(src, secs, h.cov[:len(secs)])
	}
	o.Sectors = len(secs)
	l1, mshr := h.l1For(a.SM)
	ready = now
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
		ready = max(ready, h.line(&o, l1, mshr, a, line, mask, full, now))
	}
	h.total.Outcome.add(o.Outcome)
	h.total.L1InFlight += o.L1InFlight
	h.total.L2InFlight += o.L2InFlight
	h.total.Wait += o.Wait
	h.total.FabricHits += o.FabricHits
	h.total.FabricMisses += o.FabricMisses
	return ready, o
}

// line serves the sectors in mask of one line; it returns when they are done.
func (h *TimedHierarchy) line(o *TimedOutcome, l1 *timedCache, mshr *slots, a *Access, line uint64, mask, full uint8, now int64) int64 {
	n := popcount(mask)
	switch a.Kind {
	case Load:
		evictFirst := a.Cache == CS || a.Cache == LU
		if l1 == nil || a.Cache == CG || a.Cache == CV || a.Cache == LU {
			return h.l2Read(o, a.SM, line, mask, now, evictFirst)
		}
		h.l1Lookups += n
		present, _, at := l1.probe(line, mask)
		o.L1Hits += popcount(present)
		miss := mask &^ present
		o.L1Misses += popcount(miss)
		done := now + h.l1Lat
		if present != 0 {
			if at > now+h.l1Lat {
				o.L1InFlight += popcount(present) // counted as hits, as ncu does
			}
			done = max(done, at)
			l1.c.touchLine(line, evictFirst)
		}
		if miss != 0 {
			start := mshr.acquire(now)
			o.Wait += start - now
			fill := h.l2Read(o, a.SM, line, miss, start, evictFirst)
			mshr.finish(fill)
			l1.install(line, miss, fill, false, evictFirst)
			done = max(done, fill)
		}
		return done
	case Store:
		if l1 != nil {
			h.l1Lookups += n
			present, _, _ := l1.probe(line, mask)
			o.L1Hits += popcount(present)
			o.L1Misses += n - popcount(present)
			if full != 0 { // whole-sector stores allocate (as Hierarchy)
				l1.install(line, full, now+h.l1Lat, false, a.Cache == CS)
			} else {
				l1.c.touchLine(line, false)
			}
		}
		h.l2Lookups += n
		o.L2Hits += n
		done := now + h.l2Lat // write-through: done when L2 has it
		if len(h.l2) > 0 {
			home, near := h.where(a.SM, line)
			o.DRAMWrites += h.l2[home].install(line, mask, now+h.l2Near, true, a.Cache == CS)
			if h.part != nil {
				done = now + h.l2Near
				if near != home {
					// the near partition forwards the store over the fabric and keeps
					// the sectors it has whole (afterStoreA_A: a near copy after a store)
					done += h.part.Fabric
					o.FabricHits += n
					h.fabLookups += n
					if full != 0 {
						o.DRAMWrites += h.l2[near].install(line, full, now+h.l2Near, false, a.Cache == CS)
					}
				} else {
					// the other partition's copy is stale (afterStoreB_A)
					h.l2[1-home].c.invalidate(line, mask)
				}
			}
		}
		if a.Cache == WT {
			o.DRAMWrites += n
		}
		return done
	default: // Atomic, Reduction: at L2; the L1 copy is dropped
		if l1 != nil {
			l1.c.invalidate(line, mask)
		}
		if len(h.l2) == 0 {
			return h.l2Read(o, a.SM, line, mask, now, false)
		}
		// at the home partition, the point of coherence, where the H200 counts each
		// sector's lookup once whichever side sends it (histogram256: 224 of 256 red
		// sectors hit, 32 miss, its 8 lines' sectors); a copy in the other is stale
		home, near := h.where(a.SM, line)
		var extra int64
		if h.part != nil {
			h.l2[1-home].c.invalidate(line, mask)
			if near != home {
				extra = h.part.Fabric
			}
		}
		h.l2Lookups += popcount(mask)
		done := h.serve(o, home, line, mask, now, false, extra, &o.L2Hits, &o.L2Misses)
		h.l2[home].install(line, mask, done-extra, true, false)
		return done
	}
}

// where returns the home partition of line and the near partition of SM sm
// (both 0 with one L2).
func (h *TimedHierarchy) where(sm int, line uint64) (home, near int) {
	if h.part == nil {
		return 0, 0
	}
	return h.part.home(line), h.part.side(sm)
}

// l2Read looks up sectors in the near L2 partition of SM sm at cycle now and
// returns when their data is back at the SM; a far line's sectors the near
// partition lacks are read from the home partition over the fabric and kept
// near too; misses at home fetch the DRAM granule and wait for a pending slot.
func (h *TimedHierarchy) l2Read(o *TimedOutcome, sm int, line uint64, mask uint8, now int64, evictFirst bool) int64 {
	n := popcount(mask)
	h.l2Lookups += n
	if len(h.l2) == 0 {
		o.L2Misses += n
		o.DRAMReads += n
		return now + h.drLat
	}
	home, near := h.where(sm, line)
	if near == home { // with one L2 always, at the latency table's means
		return h.serve(o, home, line, mask, now, evictFirst, 0, &o.L2Hits, &o.L2Misses)
	}
	// a far line: the near partition's copy first (counted as the SM's L2 lookup)
	c := h.l2[near]
	present, _, at := c.probe(line, mask)
	done := now + h.l2Near
	if present != 0 {
		hitAt := now + h.l2Near
		if at > hitAt {
			o.L2InFlight += popcount(present)
		}
		along := c.inFlightAlong(line, present, hitAt)
		o.L2Misses += popcount(along)
		o.L2Hits += popcount(present &^ along)
		done = max(hitAt, at)
		c.c.touchLine(line, evictFirst)
	}
	miss := mask &^ present
	if miss == 0 {
		return done
	}
	o.L2Misses += popcount(miss)
	h.fabLookups += popcount(miss)
	fill := h.serve(o, home, line, miss, now, evictFirst, h.part.Fabric, &o.FabricHits, &o.FabricMisses)
	o.DRAMWrites += c.install(line, miss, fill, false, evictFirst)
	return max(done, fill)
}

// serve looks up the sectors in mask of line in partition p for a request
// issued at cycle now that pays extra cycles on top of the near latencies,
// counting into hits and misses; it returns when the data is back at the SM.
// Ready stamps in p are those of a near requester.
func (h *TimedHierarchy) serve(o *TimedOutcome, p int, line uint64, mask uint8, now int64, evictFirst bool, extra int64, hits, misses *int) int64 {
	c := h.l2[p]
	l2Lat, drLat := h.l2Near, h.drNear
	present, _, at := c.probe(line, mask)
	done := now + l2Lat + extra
	if present != 0 {
		// ready stamps hold the cycle a requester issuing at the fill's own issue
		// time would see the data; a later requester sees it no earlier than its
		// own L2 latency. A sector another request is fetching is a hit that
		// waits (as the H200 counts it); a neighbour the fetch brings along
		// unrequested is a miss until it is there (offset_copy, histogram256).
		hitAt := now + l2Lat
		if at > hitAt && extra == 0 {
			o.L2InFlight += popcount(present)
		}
		along := c.inFlightAlong(line, present, hitAt)
		*misses += popcount(along)
		*hits += popcount(present &^ along)
		done = max(hitAt, at) + extra
		c.c.touchLine(line, evictFirst)
	}
	miss := mask &^ present
	if miss == 0 {
		return done
	}
	*misses += popcount(miss)
	fetch := widen(miss, h.fetchSectors)
	have, _, _ := c.probe(line, fetch)
	fetch &^= have
	o.DRAMReads += popcount(fetch)
	start := h.l2p.acquire(now)
	o.Wait += start - now
	fill := start + drLat
	h.l2p.finish(fill + extra)
	o.DRAMWrites += c.install(line, fetch, fill, false, evictFirst)
	if w, _ := c.c.find(line); w >= 0 {
		c.along[w] |= fetch &^ miss
	}
	return max(done, fill+extra)
}

// Totals returns the sum of every outcome so far.
func (h *TimedHierarchy) Totals() TimedOutcome { return h.total }

// L1HitRate is L1 sector hits (in-flight ones included) over L1 lookups, 0 when none.
func (h *TimedHierarchy) L1HitRate() float64 { return ratio(h.total.L1Hits, h.l1Lookups) }

// L2HitRate is L2 sector hits over L2 lookups (a sector in flight is a miss), 0 when none.
func (h *TimedHierarchy) L2HitRate() float64 { return ratio(h.total.L2Hits, h.l2Lookups) }
