package mem

import "math/bits"

// AtomicCosts are the service times of the atomic units, in SM cycles.
// DefaultAtomicCosts holds the H200's, fitted to testdata/measured/caches/atomics.csv
// and testdata/measured/atomics/atomics.csv (calibration data; see docs/caches.md
// and the README there for which rows set which value).
type AtomicCosts struct {
	// L2Pass is one pass of an L2 atomic unit over one 32-byte sector of a
	// warp request's line: a pass serves one lane of each word of the sector,
	// lanes on one word take one pass each, the line's sectors are served one
	// after another. L2PassF32 is the least time between two float adds on one
	// word, within a request or across requests.
	L2Pass, L2PassF32 float64
	// L2Word is the least a line costs per distinct word.
	L2Word float64
	// L2PassCAS and L2WordCAS replace L2Pass and L2Word for a CAS whose sector
	// holds more than one word (a CAS on one word costs L2Pass a pass).
	L2PassCAS, L2WordCAS float64
	// SMLane is one SM's cost per same-address lane it sends (one block alone is slower than the chip).
	SMLane, SMLaneF32 float64
	// Latency is the round trip of a CAS that finds the unit free; LatencyRMW
	// that of the other atomics (zero: Latency).
	Latency, LatencyRMW float64
	// SharedInstr is the least a shared atomic warp instruction occupies the SM's unit;
	// SharedLane is one lane of a bank conflict or same-word collision (add, exch).
	SharedInstr, SharedLane, SharedLaneCAS, SharedLaneF32 float64
	// Slices is the number of L2 atomic servers; SliceBytes the address interleave between them
	// (AtomicUnits.server: chunks two apart share a server).
	Slices, SliceBytes int
	// Home is the set of SMs (bit s of word s/64) in the L2 partition of the
	// even-numbered servers; the others reach those servers over the fabric (and
	// the odd ones the other way round). All zero: one partition, no priority.
	// A server applies its own partition's waiting lanes before the fabric's.
	Home [4]uint64
	// FarLatency is the extra round trip of an atomic from the other partition.
	FarLatency float64
	// HomeBits, when set, gives a line's partition by address as L2Partitioning.HomeBits
	// does (partition 1 is Home's near one); zero: the even servers are Home's.
	HomeBits uint64
}

// DefaultAtomicCosts are the H200's (SM clock 1.98 GHz during the measurement).
var DefaultAtomicCosts = AtomicCosts{
	L2Pass: 1.456, L2PassF32: 3.488, // 132x1024 threads, one word: 0.687 and 0.287 ops/cycle
	L2Word:    0.163,                   // 32 words of one line: 6.15 ops/cycle
	L2PassCAS: 2.370, L2WordCAS: 0.341, // CAS on 2 words of one line 0.844 ops/cycle, on 32 words 3.13
	SMLane: 2.150, SMLaneF32: 3.639, // one block of 1024 threads, one word
	Latency:     578,                                                             // one warp's dependent CAS on one word: 624 cycles per request, less 32 passes
	LatencyRMW:  274,                                                             // testdata/measured/atomics l_atom 1 x 32, one lane: 296 cycles per dependent atomicAdd, less the model's loop
	SharedInstr: 6.5, SharedLane: 1.18, SharedLaneCAS: 2.16, SharedLaneF32: 43.8, // shared: 32 banks 0.203/op; one word 1.18 (CAS 2.16; f32 add is a CAS loop in SASS)
	Slices: 64, SliceBytes: 256, // words 128 B apart share a server, 512 B apart use two (0.59 and 1.17 ops/cycle); 1-4 KB of histogram bins 2-8 servers (testdata/measured/atomics)
	// testdata/contention/trace.tar.gz lat.csv: one dependent atomicAdd per SM alone
	// (SMs by %smid, which the model's SM numbers stand for), 66 SMs at 263-318 cycles
	// (these, near the word's server), 66 at 470-530; medians 286 and 500.
	Home:       [4]uint64{0x3f033f033f033f03, 0xf33f00fc03f00fc0, 0xf},
	FarLatency: 214,
	// the partition a line's atomics are served in: its home (testdata/measured/l2)
	HomeBits: DefaultL2Partitioning.HomeBits,
}

// AtomicOp says which kind of read-modify-write a request performs.
type AtomicOp uint8

// Atomic operation classes with distinct costs.
const (
	AtomicInt AtomicOp = iota // add, and, or, xor, min, max, inc, dec, exch, cas on integers
	AtomicF32                 // add.f32 (and other float arithmetic)
	AtomicCAS                 // cas (shared memory: twice an add)
)

// AtomicUnits serialise atomics: global ones per L2 server (same-word lanes
// one pass each) and per SM port, shared ones per SM at the banks. The timing
// model calls Global or Shared at issue time in nondecreasing time order and
// gets the cycle the result is back. Not safe for concurrent use.
type AtomicUnits struct {
	c       AtomicCosts
	slice   []float64 // next free cycle of each L2 server for its own partition's lanes
	remote  []float64 // next free cycle of each L2 server for lanes over the fabric
	smPort  []float64 // next free cycle of each SM's global atomic port
	smBank  []float64 // next free cycle of each SM's shared atomic unit
	words   [32]uint64
	count   [32]uint8
	applied float64               // when the last request was applied at the L2 (Applied)
	lookups int64                 // sector passes served (Lookups)
	f32     [2][f32Words]f32Chain // the last float add on each (recent) word, per queue (own partition, fabric)
}

// f32Words is the size of the direct-mapped table of recent float-add words:
// only a word served within L2PassF32 of the next request can hold it back, so
// losing an old entry to a collision loses nothing that matters.
const f32Words = 1024

// f32Chain is when the last float add on a word was applied.
type f32Chain struct {
	word uint64
	done float64
}

// f32Chains serves the float lanes of a line whose server pass starts at st
// (in the queue q: 0 the server's own partition, 1 the fabric's): the lanes on
// one word are applied L2PassF32 apart (the first one L2Pass after st), after
// the word's previous float add in that queue. It returns when the last is applied.
func (u *AtomicUnits) f32Chains(n, q int, st float64) float64 {
	end := st
	for i := 0; i < n; i++ {
		w := u.words[i]
		e := &u.f32[q][(w^w>>10)%f32Words]
		first := st + u.c.L2Pass
		if e.word == w {
			first = max(first, e.done+u.c.L2PassF32)
		}
		done := first + float64(u.count[i]-1)*u.c.L2PassF32
		*e = f32Chain{word: w, done: done}
		end = max(end, done)
	}
	return end
}

// NewAtomicUnits makes the units of numSMs SMs (clamped to 1..4096) with costs c
// (zero Slices or SliceBytes: the defaults').
func NewAtomicUnits(numSMs int, c AtomicCosts) *AtomicUnits {
	numSMs = min(max(numSMs, 1), maxSMs)
	if c.Slices <= 0 {
		c.Slices = DefaultAtomicCosts.Slices
	}
	if c.SliceBytes <= 0 {
		c.SliceBytes = DefaultAtomicCosts.SliceBytes
	}
	return &AtomicUnits{c: c, slice: make([]float64, c.Slices), remote: make([]float64, c.Slices), smPort: make([]float64, numSMs), smBank: make([]float64, numSMs)}
}

// server is the L2 atomic server of byte address addr: SliceBytes-sized chunks,
// where the chunk index's bit 1 does not take part (chunks 2 apart share a
// server: 1 KB of words uses 2 servers, 4 KB 8; testdata/measured/atomics,
// histograms of 256-1024 bins and atomics.csv's words 128 B apart).
func (u *AtomicUnits) server(addr uint64) int {
	c := addr / uint64(u.c.SliceBytes)
	return int(((c & 1) | (c>>2)<<1) % uint64(len(u.slice)))
}

// partitioned reports whether the costs name a home partition.
func (c *AtomicCosts) partitioned() bool {
	return c.Home != [4]uint64{}
}

// far reports whether SM sm reaches server s, serving byte address addr, over the fabric.
func (c *AtomicCosts) far(sm, s int, addr uint64) bool {
	if !c.partitioned() {
		return false
	}
	home := sm < 256 && c.Home[sm/64]&(1<<(sm%64)) != 0
	if c.HomeBits != 0 {
		return home != (bits.OnesCount64(addr/LineBytes*LineBytes&c.HomeBits)&1 == 1)
	}
	return home != (s%2 == 0)
}

// sectorPasses is the L2's service of one line of a request (call passes for
// the line first): a pass serves one lane per word of one 32-byte sector, so a
// sector takes as many passes as its busiest word has lanes and the line's
// sectors are served one after another (ncu's lts__t_sectors_srcunit_tex_op_
// {atom,red}_lookup counts these passes: testdata/measured/atomics). It returns
// the sum over sectors of passes times their cost (pass for a sector of one
// word, multi for one of several) and the line's distinct words.
func (u *AtomicUnits) sectorPasses(n int, pass, multi float64) float64 {
	var most [sectorsPerLine]uint8
	var words [sectorsPerLine]uint8
	for i := 0; i < n; i++ {
		s := (u.words[i] * 4 % LineBytes) / SectorBytes
		most[s] = max(most[s], u.count[i])
		words[s]++
	}
	t := 0.0
	for s := range most {
		u.lookups += int64(most[s])
		switch {
		case words[s] == 1:
			t += float64(most[s]) * pass
		case words[s] > 1:
			t += float64(most[s]) * multi
		}
	}
	return t
}

// passes groups the active lanes' words of a (per line, the words in order of first
// appearance): it returns the distinct words and the most lanes on one word.
func (u *AtomicUnits) passes(a *Access, lo, hi uint64) (distinct, most int) {
	n := 0
	for lane := 0; lane < 32; lane++ {
		if a.Mask&(1<<lane) == 0 {
			continue
		}
		w := a.Addr[lane] / 4
		if w*4 < lo || w*4 >= hi {
			continue
		}
		i := 0
		for i < n && u.words[i] != w {
			i++
		}
		if i == n {
			u.words[n], u.count[n] = w, 0
			n++
		}
		u.count[i]++
		most = max(most, int(u.count[i]))
	}
	return n, most
}

// Global serves a warp's global atomic or reduction issued at cycle now on
// SM a.SM; aggregated says the compiler reduced the warp to one lane (REDUX +
// RED for a warp-uniform address, as ptxas does). It returns the cycle the
// results are back and the cycles spent waiting for busy units.
func (u *AtomicUnits) Global(a *Access, op AtomicOp, aggregated bool, now float64) (ready, wait float64) {
	if a == nil || a.Mask == 0 {
		return now, 0
	}
	pass, lane := u.c.L2Pass, u.c.SMLane
	if op == AtomicF32 {
		pass, lane = u.c.L2PassF32, u.c.SMLaneF32
	}
	sm := int(uint(a.SM) % uint(len(u.smPort)))
	// The SM port sends the request; same-word lanes cost SMLane each.
	_, most := u.passes(a, 0, ^uint64(0))
	if aggregated {
		most = 1
	}
	start := max(now, u.smPort[sm])
	u.smPort[sm] = start + float64(most)*lane
	wait = start - now
	ready = start
	// Each line goes to its L2 server.
	var done [32]uint64
	nd, far := 0, false
	for l := 0; l < 32; l++ {
		if a.Mask&(1<<l) == 0 {
			continue
		}
		line := a.Addr[l] / LineBytes
		seen := false
		for i := 0; i < nd; i++ {
			if done[i] == line {
				seen = true
				break
			}
		}
		if seen {
			continue
		}
		done[nd] = line
		nd++
		distinct, _ := u.passes(a, line*LineBytes, (line+1)*LineBytes)
		// a sector's same-word lanes take one pass each, the line's sectors one
		// after another; a line costs at least its words
		var per float64
		switch {
		case aggregated:
			per = pass
			u.lookups++
		case op == AtomicCAS:
			per = u.sectorPasses(distinct, u.c.L2Pass, u.c.L2PassCAS)
			if distinct > 1 {
				per = max(per, float64(distinct)*u.c.L2WordCAS)
			}
		default:
			per = max(u.sectorPasses(distinct, u.c.L2Pass, u.c.L2Pass), float64(distinct)*u.c.L2Word)
		}
		s := u.server(a.Addr[l])
		farS := u.c.far(sm, s, a.Addr[l])
		// over the fabric: after every lane of the server's own partition
		// booked so far and the fabric's earlier lanes
		st := max(start, u.slice[s])
		if farS {
			st = max(st, u.remote[s])
		}
		if op == AtomicF32 && !aggregated {
			// float adds on one word are applied L2PassF32 apart, within the
			// request and after the word's previous ones
			q := 0
			if farS {
				q = 1
			}
			per = max(per, u.f32Chains(distinct, q, st)-st)
		}
		if farS {
			u.remote[s] = st + per
			far = true
		} else {
			// the own partition's lanes go first: they push back the fabric's backlog
			u.slice[s] = st + per
			if u.remote[s] > st {
				u.remote[s] += per
			}
		}
		wait += st - start
		ready = max(ready, st+per)
	}
	lat := u.c.Latency
	if op != AtomicCAS && u.c.LatencyRMW > 0 {
		lat = u.c.LatencyRMW
	}
	if far {
		lat += u.c.FarLatency
	}
	u.applied = ready + lat/2
	return ready + lat, wait
}

// Lookups is the number of sector passes the L2 servers made for global
// atomics so far: what Nsight Compute counts as lts__t_sectors_srcunit_tex_op_
// {atom,red}_lookup_{hit,miss} (testdata/measured/atomics, TestAtomicLookupsMatchNCU).
func (u *AtomicUnits) Lookups() int64 {
	return u.lookups
}

// Applied is when the request of the last Global call was applied at the L2:
// its service there ended and half the round trip (the way there) passed.
// A reduction (a RED: nothing waits for its result) keeps the launch going until then.
func (u *AtomicUnits) Applied() float64 {
	return u.applied
}

// Shared serves a warp's shared-memory atomic issued at cycle now on SM a.SM
// (a.Addr are byte offsets in the block's window): lanes on one bank, or on one
// word, are served one after another. It returns when the results are back and the wait.
func (u *AtomicUnits) Shared(a *Access, op AtomicOp, aggregated bool, now float64) (ready, wait float64) {
	if a == nil || a.Mask == 0 {
		return now, 0
	}
	lane := u.c.SharedLane
	switch op {
	case AtomicCAS:
		lane = u.c.SharedLaneCAS
	case AtomicF32:
		lane = u.c.SharedLaneF32
	}
	var bank [32]uint8
	most := 0
	for l := 0; l < 32; l++ {
		if a.Mask&(1<<l) != 0 {
			b := (a.Addr[l] / 4) % 32
			bank[b]++
			most = max(most, int(bank[b]))
		}
	}
	if aggregated {
		most = 1
	}
	sm := int(uint(a.SM) % uint(len(u.smBank)))
	start := max(now, u.smBank[sm])
	busy := max(u.c.SharedInstr, float64(most)*lane)
	u.smBank[sm] = start + busy
	return start + busy, start - now
}
