package sim

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"unsafe"

	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Checks selects the correctness checks of a launch (all off in the zero value).
type Checks struct {
	Race        bool // shared-memory hazards within a block (and within a warp, sm_70+), global hazards between blocks
	Init        bool // reads of shared, local or undefined global bytes nobody wrote
	Sync        bool // barriers and warp-synchronous operations used unsafely
	MaxFindings int  // distinct findings kept; 0 = DefaultMaxFindings
	noDefer     bool // tests: apply every shared read to the shadow at once
}

// DefaultMaxFindings caps the distinct findings of a launch.
const DefaultMaxFindings = 50

// maxGlobalShadow is the most bytes of shadow state kept for global memory;
// allocations beyond it are not race-checked (Result.CheckNotes says so).
const maxGlobalShadow = 512 << 20

// The kinds of findings (JSON names of DESIGN.md).
const (
	FindRace          = "race"
	FindUninitialized = "uninitialized"
	FindBarrier       = "barrier_divergence"
	FindWarpSync      = "warp_sync"
)

// Finding is one correctness problem, deduplicated per kind and pair of instructions.
type Finding struct {
	Kind         string  // race, uninitialized, barrier_divergence, warp_sync
	Space        string  // shared, global or local for memory findings; "" otherwise
	PC           int     // index into Result.Insts of the access or instruction found
	PTXLine      int     // its PTX line
	Loc          ptx.Loc // its CUDA location
	Access       string  // read, write or atomic ("" for synchronisation findings)
	OtherPC      int     // the other access or instruction; -1 when there is none
	OtherPTXLine int
	OtherLoc     ptx.Loc
	OtherAccess  string
	Block        [3]int // block of the thread found
	Thread       [3]int // the thread found
	HasOther     bool   // OtherBlock and OtherThread are meaningful
	OtherBlock   [3]int
	OtherThread  [3]int
	Addr         uint64 // shared/local: offset in the window; global: virtual address
	Variable     string // shared variable and element ("s[17]") when the PTX declares one there
	Arg          int    // global: index of the buffer argument holding Addr; -1 otherwise
	Offset       int    // global: byte offset of Addr in that buffer
	Size         int    // bytes per lane of the access found
	Count        int    // occurrences (lane-accesses or warp-instructions) merged into this finding
	Detail       string // what happened, in words, naming threads and PTX lines
	Warning      bool   // a warning, not an error: a volatile warp-synchronous race (compute-sanitizer's "Warp Level Programming")
}

// flags of a shadow access record.
const (
	fAtomic   = 1
	fVolatile = 2
)

// per-pc flags the checker derives once from the instruction text.
const (
	pfVolatile = 1 << iota
	pfAligned  // a .aligned barrier (bar.sync, bar.red, barrier.sync.aligned)
)

// srec is one recorded access to a shared word: 16 bytes, so that a reader
// is replaced with two stores and a word's whole shadow fits a cache line.
type srec struct {
	thr  int16  // thread (linear in the block)
	m, f uint8  // bytes accessed; fAtomic, fVolatile
	ep   uint32 // block barrier epoch
	wep  uint32 // warp sync epoch of the accessing warp
	pc   int32
}

// sword is the shadow state of one 4-byte word of shared memory in the running
// block, padded to 64 bytes so that no entry straddles two cache lines.
type sword struct {
	tag      uint32 // block generation; an entry with an older tag is empty
	init     uint8  // bytes written in this block
	wVal     uint32 // word contents after the last write
	w, r, r2 srec   // the last write, the last reader, a previous other reader
	_        uint32
}

// grec is one recorded access to a global word.
type grec struct {
	blk  int32 // linear block + 1; 0 = none
	pc   int32
	thr  uint16
	m, f uint8
}

// gword is the read side of the shadow state of one 4-byte word of a
// global allocation, across blocks: the last reading block and a previous
// other one. It is kept apart from the write side (gwrite) so that the reads
// of a buffer nobody writes touch 24 bytes of shadow per word, not 40.
type gword struct {
	r, r2 grec
}

// gwrite is the write side of a global word's shadow state.
type gwrite struct {
	w   grec
	val uint32 // word contents after the last write
}

// fkey identifies a finding for deduplication.
type fkey struct {
	kind      string
	pc, other int32
}

// checker is the state of racecheck, initcheck and synccheck during a launch.
// It is nil when no check is on: the hot loop then pays one branch per
// memory or synchronisation instruction.
type checker struct {
	l      *launcher
	c      Checks
	tag    uint32   // generation of the running block
	epoch  uint32   // barrier releases in the running block
	wep    []uint32 // per warp: warp-synchronising instructions executed
	sh     []sword
	loc    [][]uint64 // per thread of the block: bitmap of local bytes written
	pcf    []uint8
	fences bool   // the kernel has gpu- or system-scope fences: inter-block communication is deliberate
	global bool   // global cross-block race checks on
	gbytes int    // shadow bytes allocated for global memory
	lastAl *alloc // the allocation of the last global access checked
	found  map[fkey]int
	list   []Finding
	drop   int
	notes  []string

	// Deferred shared reads (see sharedLoad4): reads of an epoch with no
	// shared write yet, whose shadow updates wait for the next write.
	reads      []deferredRead
	wroteEpoch bool // a shared write happened in the current epoch
	initWords  int  // shared words of the running block with every byte written

	// Parallel blocks (parallel.go): a block's global accesses logged for
	// replay in block order, the order of its findings among them, and the
	// words each logged write left while one is replayed.
	glog   *globalLog
	seq    int32
	seqs   []int32
	rvals  []uint32
	rstart [32]int32

	exitPC   int32 // first exit of the running block (-1: none)
	exitThr  int
	barFirst [16]int32 // pc of the first arrival at each barrier's current instance (-1: none)
	barOther [16]int32 // a different pc that arrived at the same instance (-1: none)
	pend     []pendSync
}

// deferredRead is an aligned 32-bit shared load whose reader records are
// not yet in the shadow.
type deferredRead struct {
	w    *warp
	pc   int32
	mask uint32
	wep  uint32
	fl   uint8
	addr [32]uint64
}

// maxDeferredReads bounds the deferred reads of an epoch (about 2 MB);
// beyond it they are applied to the shadow.
const maxDeferredReads = 8192

// pendSync is a warp-synchronous instruction whose member mask names lanes
// that were on another path: they must execute one before the caller's next.
type pendSync struct {
	owed   uint32 // lanes still to execute a warp-synchronous instruction
	caller uint32 // lanes that executed it
	pc     int32
}

// newChecker prepares the checks of a launch.
func newChecker(l *launcher, c Checks) *checker {
	if c.MaxFindings <= 0 {
		c.MaxFindings = DefaultMaxFindings
	}
	k := &checker{l: l, c: c, wep: make([]uint32, l.nwarps), found: map[fkey]int{},
		pend: make([]pendSync, l.nwarps), loc: make([][]uint64, l.nthreads)}
	k.pcf = make([]uint8, len(l.prog.info))
	for pc, in := range l.prog.info {
		t := in.text
		if strings.Contains(t, ".volatile") {
			k.pcf[pc] |= pfVolatile
		}
		if (strings.HasPrefix(t, "bar.") && !strings.HasPrefix(t, "bar.warp")) || (strings.HasPrefix(t, "barrier.") && strings.Contains(t, ".aligned")) {
			k.pcf[pc] |= pfAligned
		}
		if strings.HasPrefix(t, "membar.gl") || strings.HasPrefix(t, "membar.sys") ||
			(strings.HasPrefix(t, "fence.") && !strings.Contains(t, ".cta") && !strings.Contains(t, ".cluster") && !strings.Contains(t, "proxy")) {
			k.fences = true
		}
	}
	k.global = c.Race && !k.fences
	if c.Race && k.fences {
		k.notes = append(k.notes, "global memory was not race-checked between blocks: the kernel uses gpu-scope fences (__threadfence), so blocks communicate deliberately")
	} else if k.global && l.cl.grouped() {
		k.global = false // cluster.go: cluster and grid barriers order blocks, which the global check does not model
		k.notes = append(k.notes, "global memory was not race-checked between blocks: the launch's blocks run in clusters or cooperatively, and cluster or grid barriers order them")
	}
	if c.Race || c.Init {
		k.sh = make([]sword, (l.prog.sharedSize+3)/4)
	}
	return k
}

// startBlock resets the per-block state.
func (k *checker) startBlock() {
	k.tag++
	k.epoch = 0
	k.reads, k.wroteEpoch, k.initWords = k.reads[:0], false, 0
	clear(k.wep)
	clear(k.pend)
	for i := range k.loc {
		clear(k.loc[i])
	}
	k.exitPC = -1
	for i := range k.barFirst {
		k.barFirst[i], k.barOther[i] = -1, -1
	}
}

// endBlock reports warp-synchronous instructions still waiting for lanes.
func (k *checker) endBlock(blk *block) {
	for _, w := range blk.warps {
		if p := &k.pend[w.id]; p.owed != 0 {
			k.owed(w, p, -1, "the block ended")
		}
	}
}

// add records a finding (deduplicated).
func (k *checker) add(f Finding) {
	key := fkey{f.Kind, int32(f.PC), int32(f.OtherPC)}
	if i, ok := k.found[key]; ok {
		k.list[i].Count++
		return
	}
	if len(k.list) >= k.c.MaxFindings {
		k.drop++
		return
	}
	f.Count = 1
	info := k.l.prog.info
	if f.PC >= 0 && f.PC < len(info) {
		f.PTXLine, f.Loc = info[f.PC].line, info[f.PC].loc
	}
	if f.OtherPC >= 0 && f.OtherPC < len(info) {
		f.OtherPTXLine, f.OtherLoc = info[f.OtherPC].line, info[f.OtherPC].loc
	}
	k.found[key] = len(k.list)
	k.list = append(k.list, f)
	k.seqs = append(k.seqs, k.seq)
}

// thread3 is the 3-D index of a linear thread of the block.
func (k *checker) thread3(t int) [3]int { return threadIndex(t/32, t%32, k.l.block) }

// block3 is the 3-D index of a linear block.
func (k *checker) block3(b int) [3]int {
	g := k.l.grid
	return [3]int{b % g[0], (b / g[0]) % g[1], b / (g[0] * g[1])}
}

// accessWord names an access kind for findings.
func accessWord(write, atomic bool) string {
	switch {
	case atomic:
		return "atomic"
	case write:
		return "write"
	}
	return "read"
}

// sharedName names a shared offset by the .shared variable holding it ("s[17]").
func (k *checker) sharedName(off uint64, size int) string {
	var best *sharedVar
	for i := range k.l.prog.sharedVars {
		v := &k.l.prog.sharedVars[i]
		if uint64(v.off) <= off && (best == nil || v.off >= best.off) {
			if v.v != nil && off >= uint64(v.off+v.v.Size()) {
				continue
			}
			best = v
		}
	}
	if best == nil {
		return ""
	}
	name := best.name
	elem := size
	if best.v != nil {
		name = best.v.Name
		if es := best.v.Type.Size(); es > 1 {
			elem = es
		}
	}
	name = cudaVarName(name)
	if elem <= 0 {
		elem = 1
	}
	rel := int(off) - best.off
	// Multi-dimensional arrays declared with their shape: s[i][j].
	if best.v != nil && len(best.v.Dims) > 1 && best.v.Type.Size() > 1 {
		idx := rel / elem
		var parts []string
		for d := len(best.v.Dims) - 1; d >= 0; d-- {
			n := best.v.Dims[d]
			parts = append([]string{strconv.Itoa(idx % n)}, parts...)
			idx /= n
		}
		return name + "[" + strings.Join(parts, "][") + "]"
	}
	return fmt.Sprintf("%s[%d]", name, rel/elem)
}

// cudaVarName turns the mangled name of a function-local static (_ZZ6kernelE3red) into "red".
func cudaVarName(s string) string {
	if !strings.HasPrefix(s, "_ZZ") {
		return s
	}
	i := strings.LastIndexByte(s, 'E')
	if i < 0 {
		return s
	}
	r := s[i+1:]
	n := 0
	for n < len(r) && r[n] >= '0' && r[n] <= '9' {
		n++
	}
	if l, err := strconv.Atoi(r[:n]); err == nil && n+l <= len(r) && l > 0 {
		return r[n : n+l]
	}
	return s
}

// access checks one warp-level access of the lanes in mask, after it executed.
func (k *checker) access(w *warp, pc int32, mask uint32, addr *[32]uint64, sp space, kind mem.Kind, n int) {
	write := kind != mem.Load
	atomic := kind == mem.Atomic || kind == mem.Reduction
	read := kind != mem.Store
	switch sp {
	case spShared:
		k.shared(w, pc, mask, addr, n, read, write, atomic)
	case spGlobal:
		if k.glog != nil {
			k.logGlobal(w, pc, mask, addr, n, kind)
			return
		}
		k.globalAccess(w, pc, mask, addr, n, read, write, atomic)
	case spLocal:
		if k.c.Init {
			k.local(w, pc, mask, addr, n, read, write)
		}
	}
}

// byteMasks returns, for an access of n bytes at a, the first word and the byte mask in it.
func wordMask(a uint64, n int) (uint64, uint8) {
	off := a & 3
	return a >> 2, uint8((1<<uint(min(n, 4)))-1) << off
}

// shared checks the lanes' accesses to the block's shared memory.
func (k *checker) shared(w *warp, pc int32, mask uint32, addr *[32]uint64, n int, read, write, atomic bool) {
	var fl uint8
	if atomic {
		fl |= fAtomic
	}
	if k.pcf[pc]&pfVolatile != 0 {
		fl |= fVolatile
	}
	if n == 4 && !atomic && !write {
		k.sharedLoad4(w, pc, mask, addr, fl)
		return
	}
	k.flush()
	if write {
		k.wroteEpoch = true
	}
	if n == 4 && !atomic {
		k.sharedStore4(w, pc, mask, addr, fl)
		return
	}
	k.sharedSlow(w, pc, mask, addr, n, read, write, atomic, fl, k.wep[w.id])
}

// sharedLoad4 checks an aligned 32-bit shared load. While the current epoch
// has seen no shared write, a load that reads only initialised words can
// find nothing: no write of this epoch to race with, nothing uninitialised.
// Its only effect is on the reader records, which matter only to a later
// write of the same epoch; so it is logged, applied to the shadow when such
// a write comes (flush), and dropped at the barrier that ends the epoch.
// The tiled pattern (write, barrier, many reads, barrier) then costs one
// copy per warp-instruction instead of the per-lane shadow updates.
func (k *checker) sharedLoad4(w *warp, pc int32, mask uint32, addr *[32]uint64, fl uint8) {
	if k.c.Race && !k.wroteEpoch && !k.c.noDefer && (!k.c.Init || k.initWords == len(k.sh) || k.initialised(mask, addr)) {
		if len(k.reads) == maxDeferredReads {
			k.flush()
		}
		k.reads = append(k.reads, deferredRead{w: w, pc: pc, mask: mask, wep: k.wep[w.id], fl: fl, addr: *addr})
		return
	}
	k.flush()
	k.sharedLoad4Now(w, pc, mask, addr, fl, k.wep[w.id])
}

// initialised reports whether every lane reads an aligned word of the
// window that the running block has written completely.
func (k *checker) initialised(mask uint32, addr *[32]uint64) bool {
	sh, tag := k.sh, k.tag
	for m := mask; m != 0; m &= m - 1 {
		a := addr[bits.TrailingZeros32(m)&31]
		if a&3 != 0 || a>>2 >= uint64(len(sh)) {
			return false
		}
		if e := &sh[a>>2]; e.tag != tag || e.init != 0xf {
			return false
		}
	}
	return true
}

// flush applies the deferred reads to the shadow, in the order they ran.
func (k *checker) flush() {
	for i := range k.reads {
		d := &k.reads[i]
		k.sharedLoad4Now(d.w, d.pc, d.mask, &d.addr, d.fl, d.wep)
	}
	k.reads = k.reads[:0]
}

// setInit marks bytes bm of word e written, counting words that become complete.
func (k *checker) setInit(e *sword, bm uint8) {
	if e.init != 0xf && e.init|bm == 0xf {
		k.initWords++
	}
	e.init |= bm
}

// sharedLoad4Now is the fast path of aligned 32-bit loads (wep: the warp's
// sync epoch when the load ran): one word per lane, and the common outcome
// (nothing to report) decided in a few compares.
func (k *checker) sharedLoad4Now(w *warp, pc int32, mask uint32, addr *[32]uint64, fl uint8, wep uint32) {
	sh := k.sh
	tag, ep := k.tag, k.epoch
	race, ini := k.c.Race, k.c.Init
	wt := int16(w.id * 32)
	rec := srec{m: 0xf, f: fl, ep: ep, wep: wep, pc: pc}
	prev, same := ^uint64(0), 0
	for m := mask; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m) & 31
		a := addr[lane]
		wi := a >> 2
		// A broadcast read: after two lanes of this warp have read the word
		// in this instruction, the others add nothing the shadow can hold
		// (it keeps two readers).
		if wi == prev {
			if same++; same >= 2 {
				continue
			}
		} else {
			prev, same = wi, 0
		}
		if a&3 != 0 || wi >= uint64(len(sh)) {
			k.sharedSlow(w, pc, 1<<uint(lane), addr, 4, true, false, false, fl, wep)
			continue
		}
		t := wt + int16(lane)
		e := &sh[wi]
		if e.tag != tag {
			*e = sword{tag: tag}
		}
		if ini && e.init != 0xf {
			k.uninit(w, pc, lane, "shared", wi*4+uint64(bits.TrailingZeros8(^e.init&0xf)), 4)
		}
		if !race {
			continue
		}
		if e.w.ep == ep && e.w.m != 0 && e.w.thr != t && !ordered(t, &e.w, fl, ep, wep) {
			k.race(w, pc, lane, "shared", wi*4, 4, "read", e.w.pc, int(e.w.thr), accessWord(true, e.w.f&fAtomic != 0), -1)
		}
		// Keep the last reader and a previous other one; when both are
		// already of this epoch only the last is replaced.
		if e.r.m != 0 && e.r.thr != t && !(e.r2.m != 0 && e.r2.ep == ep && e.r.ep == ep) {
			e.r2 = e.r
		}
		// rec itself is never written in the loop: a narrow store to it
		// followed by the wide copy would stall store forwarding.
		e.r = rec
		e.r.thr = t
	}
}

// sharedStore4 is the fast path of aligned 32-bit stores: a store to a word
// nothing touched in this epoch is recorded in place; anything else goes
// through the general path.
func (k *checker) sharedStore4(w *warp, pc int32, mask uint32, addr *[32]uint64, fl uint8) {
	sh := k.sh
	mem := w.blk.shared
	tag, ep, wep := k.tag, k.epoch, k.wep[w.id]
	race := k.c.Race
	wt := int16(w.id * 32)
	rec := srec{m: 0xf, f: fl, ep: ep, wep: wep, pc: pc}
	for m := mask; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m) & 31
		a := addr[lane]
		wi := a >> 2
		if a&3 != 0 || wi >= uint64(len(sh)) {
			k.sharedSlow(w, pc, 1<<uint(lane), addr, 4, false, true, false, fl, wep)
			continue
		}
		t := wt + int16(lane)
		e := &sh[wi]
		if e.tag != tag {
			*e = sword{tag: tag}
		}
		if race && ((e.w.m != 0 && e.w.thr != t && e.w.ep == ep) || (e.r.m != 0 && e.r.ep == ep) || (e.r2.m != 0 && e.r2.ep == ep)) {
			// Something in this epoch: the general path decides.
			k.sharedSlow(w, pc, 1<<uint(lane), addr, 4, false, true, false, fl, wep)
			continue
		}
		e.w, e.wVal = rec, wordAt(mem, wi)
		e.w.thr = t
		k.setInit(e, 0xf)
	}
}

// sharedSlow is the general shared-memory check: any size, alignment or atomic.
func (k *checker) sharedSlow(w *warp, pc int32, mask uint32, addr *[32]uint64, n int, read, write, atomic bool, fl uint8, wep uint32) {
	sh := k.sh
	mem := w.blk.shared
	tag, ep := k.tag, k.epoch
	race, ini := k.c.Race, k.c.Init
	for m := mask; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		t := int16(w.id*32 + lane)
		a := addr[lane]
		for left := n; left > 0; {
			wi, bm := wordMask(a, left)
			step := bits.OnesCount8(bm)
			left -= step
			a += uint64(step)
			if int(wi) >= len(sh) {
				break
			}
			e := &sh[wi]
			if e.tag != tag {
				*e = sword{tag: tag}
			}
			if read {
				if ini && bm&^e.init != 0 {
					k.uninit(w, pc, lane, "shared", wi*4+uint64(bits.TrailingZeros8(bm&^e.init)), n)
				}
				if race && e.w.m&bm != 0 && !(atomic && e.w.f&fAtomic != 0) && !ordered(t, &e.w, fl, ep, wep) {
					k.race(w, pc, lane, "shared", wi*4, n, accessWord(write, atomic), e.w.pc, int(e.w.thr), accessWord(true, e.w.f&fAtomic != 0), -1)
				}
			}
			if write {
				if race {
					if e.w.m&bm != 0 && !(atomic && e.w.f&fAtomic != 0) && !ordered(t, &e.w, fl, ep, wep) &&
						(atomic || e.w.f&fAtomic != 0 || differs(e.wVal, wordAt(mem, wi), bm&e.w.m)) {
						k.race(w, pc, lane, "shared", wi*4, n, accessWord(true, atomic), e.w.pc, int(e.w.thr), accessWord(true, e.w.f&fAtomic != 0), -1)
					}
					if e.r.m&bm != 0 && e.r.thr != t && !(atomic && e.r.f&fAtomic != 0) && !ordered(t, &e.r, fl, ep, wep) {
						k.race(w, pc, lane, "shared", wi*4, n, accessWord(true, atomic), e.r.pc, int(e.r.thr), accessWord(false, e.r.f&fAtomic != 0), -1)
					} else if e.r2.m&bm != 0 && e.r2.thr != t && !(atomic && e.r2.f&fAtomic != 0) && !ordered(t, &e.r2, fl, ep, wep) {
						k.race(w, pc, lane, "shared", wi*4, n, accessWord(true, atomic), e.r2.pc, int(e.r2.thr), accessWord(false, e.r2.f&fAtomic != 0), -1)
					}
				}
				e.w = srec{thr: t, m: bm, f: fl, ep: ep, wep: wep, pc: pc}
				e.wVal = wordAt(mem, wi)
				k.setInit(e, bm)
			}
			if read && race {
				if e.r.thr != t || e.r.m == 0 {
					if e.r.m != 0 {
						e.r2 = e.r
					}
					e.r.m = 0
				}
				e.r = srec{thr: t, m: e.r.m | bm, f: fl, ep: ep, wep: wep, pc: pc}
			}
		}
	}
}

// ordered reports whether an earlier access p happens before the current
// access of thread t (epochs ep and wep; cf, the current access's flags, is
// not needed): same thread, a barrier of the block between, or, in the same
// warp, a warp-synchronising instruction between. Two volatile accesses of
// one warp with nothing between (the pre-Volta warp-synchronous idiom) are
// not ordered: race reports them as a warning, as compute-sanitizer's
// racecheck does ("Warp Level Programming" hazards).
func ordered(t int16, p *srec, cf uint8, ep, wep uint32) bool {
	_ = cf
	if t == p.thr || p.ep != ep {
		return true
	}
	return t/32 == p.thr/32 && p.wep != wep
}

// wordAt reads word wi of b (a partial last word is zero-extended).
func wordAt(b []byte, wi uint64) uint32 {
	o := int(wi * 4)
	var v uint32
	for i := 0; i < 4 && o+i < len(b); i++ {
		v |= uint32(b[o+i]) << (8 * uint(i))
	}
	return v
}

// differs compares the bytes of mask bm of two words.
func differs(a, b uint32, bm uint8) bool {
	var m uint32
	for i := 0; i < 4; i++ {
		if bm&(1<<uint(i)) != 0 {
			m |= 0xff << (8 * uint(i))
		}
	}
	return a&m != b&m
}

// race records a hazard between the current access and an earlier one.
func (k *checker) race(w *warp, pc int32, lane int, space string, a uint64, n int, acc string, opc int32, othr int, oacc string, oblk int) {
	f := Finding{Kind: FindRace, Space: space, PC: int(pc), OtherPC: int(opc), Access: acc, OtherAccess: oacc,
		Block: w.blk.idx, Thread: threadIndex(w.id, lane, k.l.block), HasOther: true, Addr: a, Size: n, Arg: -1}
	f.OtherThread = k.thread3(othr)
	f.OtherBlock = w.blk.idx
	if oblk >= 0 {
		f.OtherBlock = k.block3(oblk)
	}
	sameWarp := w.id == othr/32 && oblk < 0
	// Both accesses volatile, in one warp: warp-synchronous code that relies on
	// the lanes running in lockstep; a warning, as compute-sanitizer gives it.
	f.Warning = space == "shared" && sameWarp && k.pcf[pc]&pfVolatile != 0 && opc >= 0 && k.pcf[opc]&pfVolatile != 0
	if _, ok := k.found[fkey{f.Kind, int32(f.PC), int32(f.OtherPC)}]; !ok {
		if space == "shared" {
			f.Variable = k.sharedName(a, n)
		}
		k.describeRace(&f, sameWarp)
		if space == "global" {
			k.globalArg(&f)
		}
	}
	k.add(f)
}

// describeRace writes a race's Detail.
func (k *checker) describeRace(f *Finding, sameWarp bool) {
	kind := hazard(f.OtherAccess, f.Access)
	where := fmt.Sprintf("%s memory", f.Space)
	if f.Variable != "" {
		where += " " + f.Variable
	}
	if f.Space == "global" {
		f.Detail = fmt.Sprintf("%s hazard on %s: %s by block %v thread %v, %s by block %v thread %v, and nothing orders them (blocks run in any order, no atomics)",
			kind, where, f.OtherAccess, f.OtherBlock, f.OtherThread, f.Access, f.Block, f.Thread)
		return
	}
	between := "no __syncthreads() between them"
	if sameWarp {
		between = "no __syncwarp() between them (lanes of a warp are not in lockstep on sm_70+)"
	}
	if f.Warning {
		f.Detail = fmt.Sprintf("warning: warp-synchronous code: %s hazard on %s: volatile %s by thread %v, then volatile %s by thread %v of the same warp (block %v), "+
			"with no __syncwarp() between them. volatile makes each access go to shared memory but does not order the lanes: on sm_70+ they are not in lockstep "+
			"(compute-sanitizer's racecheck reports this as a Warp Level Programming hazard). Fix: __syncwarp() between each step's reads and its writes "+
			"(int v = s[t] + s[t + 16]; __syncwarp(); s[t] = v; __syncwarp(); ...), or a __shfl_down_sync reduction",
			kind, where, f.OtherAccess, f.OtherThread, f.Access, f.Thread, f.Block)
		return
	}
	f.Detail = fmt.Sprintf("%s hazard on %s: %s by thread %v, then %s by thread %v of block %v, %s",
		kind, where, f.OtherAccess, f.OtherThread, f.Access, f.Thread, f.Block, between)
}

// hazard names the hazard between an earlier and a later access.
func hazard(earlier, later string) string {
	e, l := "R", "R"
	if earlier != "read" {
		e = "W"
	}
	if later != "read" {
		l = "W"
	}
	switch e + l {
	case "WR":
		return "read-after-write"
	case "RW":
		return "write-after-read"
	}
	return "write-after-write"
}

// uninit records a read of bytes nobody wrote.
func (k *checker) uninit(w *warp, pc int32, lane int, space string, a uint64, n int) {
	f := Finding{Kind: FindUninitialized, Space: space, PC: int(pc), OtherPC: -1, Access: "read",
		Block: w.blk.idx, Thread: threadIndex(w.id, lane, k.l.block), Addr: a, Size: n, Arg: -1}
	if _, ok := k.found[fkey{f.Kind, int32(f.PC), -1}]; !ok {
		switch space {
		case "shared":
			f.Variable = k.sharedName(a, n)
			f.Detail = fmt.Sprintf("thread %v of block %v reads shared memory %s that no thread of the block has written", f.Thread, f.Block, orAddr(f.Variable, a))
		case "local":
			f.Detail = fmt.Sprintf("thread %v of block %v reads local memory at offset %#x that it never wrote (an uninitialised local variable or array)", f.Thread, f.Block, a)
		default:
			k.globalArg(&f)
			f.Detail = fmt.Sprintf("thread %v of block %v reads global memory at %#x that was never written (the buffer was created without an initialiser)", f.Thread, f.Block, a)
		}
	}
	k.add(f)
}

func orAddr(v string, a uint64) string {
	if v != "" {
		return v
	}
	return fmt.Sprintf("at offset %#x", a)
}

// globalArg fills the buffer argument and offset of a global address.
func (k *checker) globalArg(f *Finding) {
	if al, _ := k.l.heap.find(f.Addr, 1); al != nil {
		f.Arg = al.arg - 1
		f.Offset = int(f.Addr - al.base)
		if f.Arg < 0 {
			f.Variable = strings.TrimPrefix(al.name, "global variable ")
		}
	}
}

// local checks local-memory reads against the bytes each thread wrote.
func (k *checker) local(w *warp, pc int32, mask uint32, addr *[32]uint64, n int, read, write bool) {
	for m := mask; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		t := w.id*32 + lane
		a := addr[lane]
		bm := k.loc[t]
		if need := int((a + uint64(n) + 63) / 64); need > len(bm) {
			nb := make([]uint64, need+need/2)
			copy(nb, bm)
			bm = nb
			k.loc[t] = nb
		}
		for i := a; i < a+uint64(n); i++ {
			bit := uint64(1) << (i % 64)
			if read && bm[i/64]&bit == 0 {
				k.uninit(w, pc, lane, "local", i, n)
				break
			}
		}
		if write {
			for i := a; i < a+uint64(n); i++ {
				bm[i/64] |= 1 << (i % 64)
			}
		}
	}
}

// globalAccess checks global accesses: initialisation of undefined buffers
// and hazards between blocks.
func (k *checker) globalAccess(w *warp, pc int32, mask uint32, addr *[32]uint64, n int, read, write, atomic bool) {
	b1 := int32(w.blk.lin + 1)
	var fl uint8
	if atomic {
		fl = fAtomic
	}
	al := k.lastAl
	for m := mask; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		a := addr[lane]
		if al == nil || a < al.base || a-al.base+uint64(n) > uint64(len(al.data)) {
			var ok bool
			if al, ok = k.l.heap.find(a, n); !ok {
				al = nil
				continue
			}
			k.lastAl = al
		}
		off := a - al.base
		if al.undef != nil && k.c.Init {
			for i := off; i < off+uint64(n); i++ {
				bit := uint64(1) << (i % 64)
				if read && al.undef[i/64]&bit == 0 {
					k.uninit(w, pc, lane, "global", al.base+i, n)
					break
				}
			}
			if write {
				for i := off; i < off+uint64(n); i++ {
					al.undef[i/64] |= 1 << (i % 64)
				}
			}
		}
		if !k.global {
			continue
		}
		if al.noShadow {
			continue
		}
		// The two sides of the shadow are made on first use: the read side
		// when a block first reads the buffer, the write side on its first
		// write (a side never made has recorded nothing).
		if (read && al.shadow == nil) || (write && al.wshadow == nil) {
			if !k.makeShadow(al, read, write) {
				continue
			}
		}
		t := uint16(w.id*32 + lane)
		nw := uint64((len(al.data) + 3) / 4)
		for left, x := n, off; left > 0; {
			wi, bm := uint64(0), uint8(0xf)
			if left == 4 && x&3 == 0 {
				wi, left = x>>2, 0
			} else {
				wi, bm = wordMask(x, left)
				step := bits.OnesCount8(bm)
				left -= step
				x += uint64(step)
			}
			if wi >= nw {
				break
			}
			var e *gword
			if al.shadow != nil {
				e = &al.shadow[wi]
			}
			if read && al.wshadow != nil {
				if g := &al.wshadow[wi]; g.w.blk != 0 && g.w.blk != b1 && g.w.m&bm != 0 && !(atomic && g.w.f&fAtomic != 0) {
					k.race(w, pc, lane, "global", al.base+wi*4, n, accessWord(write, atomic), g.w.pc, int(g.w.thr), accessWord(true, g.w.f&fAtomic != 0), int(g.w.blk-1))
				}
			}
			if write {
				g := &al.wshadow[wi]
				if g.w.blk != 0 && g.w.blk != b1 && g.w.m&bm != 0 && !(atomic && g.w.f&fAtomic != 0) &&
					(atomic || g.w.f&fAtomic != 0 || differs(g.val, k.wordNow(al, wi, lane, off), bm&g.w.m)) {
					k.race(w, pc, lane, "global", al.base+wi*4, n, accessWord(true, atomic), g.w.pc, int(g.w.thr), accessWord(true, g.w.f&fAtomic != 0), int(g.w.blk-1))
				}
				if e != nil {
					if e.r.blk != 0 && e.r.blk != b1 && e.r.m&bm != 0 && !(atomic && e.r.f&fAtomic != 0) {
						k.race(w, pc, lane, "global", al.base+wi*4, n, accessWord(true, atomic), e.r.pc, int(e.r.thr), accessWord(false, e.r.f&fAtomic != 0), int(e.r.blk-1))
					} else if e.r2.blk != 0 && e.r2.blk != b1 && e.r2.m&bm != 0 && !(atomic && e.r2.f&fAtomic != 0) {
						k.race(w, pc, lane, "global", al.base+wi*4, n, accessWord(true, atomic), e.r2.pc, int(e.r2.thr), accessWord(false, e.r2.f&fAtomic != 0), int(e.r2.blk-1))
					}
				}
				g.w, g.val = grec{blk: b1, pc: pc, thr: t, m: bm, f: fl}, k.wordNow(al, wi, lane, off)
			}
			if !read {
				continue
			}
			if read && e.r.blk == b1 && e.r.f == fl {
				e.r.m |= bm
			} else if read {
				if e.r.blk != b1 {
					if e.r.blk != 0 {
						e.r2 = e.r
					}
					e.r.blk, e.r.m = b1, 0
				}
				e.r.pc, e.r.thr, e.r.f = pc, t, fl
				e.r.m |= bm
			}
		}
	}
}

// makeShadow makes the missing sides of al's shadow that an access needs
// (read: the read side, write: the write side). The buffer's first access
// reserves both sides' bytes against maxGlobalShadow (the same buffers are
// checked whichever sides they come to need); past it the buffer is not
// race-checked (a note says so) and false is returned.
func (k *checker) makeShadow(al *alloc, read, write bool) bool {
	nw := (len(al.data) + 3) / 4
	if al.shadow == nil && al.wshadow == nil {
		sz := nw * int(unsafe.Sizeof(gword{})+unsafe.Sizeof(gwrite{}))
		if k.gbytes+sz > maxGlobalShadow {
			al.noShadow = true
			k.notes = append(k.notes, fmt.Sprintf("%s (%d bytes) was not race-checked between blocks: its shadow state would pass the checker's memory limit", al.name, len(al.data)))
			return false
		}
		k.gbytes += sz
	}
	if read && al.shadow == nil {
		al.shadow = k.l.cfg.Shadows.readSide(nw)
	}
	if write && al.wshadow == nil {
		al.wshadow = k.l.cfg.Shadows.writeSide(nw)
	}
	return true
}

// arrive checks a warp's arrival at a block barrier.
func (k *checker) arrive(w *warp, pc int32, exec uint32, id int) {
	if !k.c.Sync || id < 0 || id >= len(k.barFirst) {
		return
	}
	live := w.lanes &^ w.exited
	if k.pcf[pc]&pfAligned != 0 && exec != live {
		lane := firstLane(exec)
		k.add(Finding{Kind: FindBarrier, PC: int(pc), OtherPC: -1, Block: w.blk.idx, Thread: threadIndex(w.id, lane, k.l.block), Arg: -1,
			Detail: fmt.Sprintf("__syncthreads() in divergent code: threads %s of warp %d reach the barrier while threads %s of the same warp are on another path (bar.sync is .aligned: the whole warp must execute it together)",
				laneList(exec), w.id, laneList(live&^exec))})
	}
	switch {
	case k.barFirst[id] < 0:
		k.barFirst[id] = pc
	case k.barFirst[id] != pc && k.barOther[id] < 0:
		k.barOther[id] = pc
	}
}

// released is called when barrier id of the running block completes.
func (k *checker) released(blk *block, id int, expected int) {
	k.epoch++
	// Reads deferred in the epoch that ends could have raced only with a
	// write of the same epoch; there was none, so they are dropped.
	k.reads, k.wroteEpoch = k.reads[:0], false
	if !k.c.Sync || id < 0 || id >= len(k.barFirst) {
		return
	}
	first, other := k.barFirst[id], k.barOther[id]
	k.barFirst[id], k.barOther[id] = -1, -1
	if first < 0 || expected > 0 {
		return
	}
	if other >= 0 {
		k.add(Finding{Kind: FindBarrier, PC: int(first), OtherPC: int(other), Block: blk.idx, Arg: -1,
			Detail: fmt.Sprintf("threads of block %v met at different __syncthreads() (PTX lines %d and %d) for the same barrier %d: the barrier is in divergent code",
				blk.idx, k.l.prog.info[first].line, k.l.prog.info[other].line, id)})
	}
	if blk.exitedThreads > 0 && k.exitPC >= 0 {
		k.add(Finding{Kind: FindBarrier, PC: int(first), OtherPC: int(k.exitPC), Block: blk.idx, Arg: -1,
			HasOther: true, OtherBlock: blk.idx, OtherThread: k.thread3(k.exitThr),
			Detail: fmt.Sprintf("__syncthreads() (PTX line %d) was reached by %d of the %d threads of block %v: the others exited (PTX line %d, e.g. thread %v) without reaching it; a barrier in conditional code must be reached by the whole block",
				k.l.prog.info[first].line, k.l.nthreads-blk.exitedThreads, k.l.nthreads, blk.idx, k.l.prog.info[k.exitPC].line, k.thread3(k.exitThr))})
	}
}

// exit notes lanes leaving the kernel.
func (k *checker) exit(w *warp, pc int32, exec uint32) {
	if k.exitPC < 0 {
		k.exitPC, k.exitThr = pc, w.id*32+firstLane(exec)
	}
	if p := &k.pend[w.id]; k.c.Sync && p.owed&exec != 0 {
		k.owed(w, p, pc, "they exited")
	}
}

// warpSync checks a warp-synchronous instruction (bar.warp.sync, shfl.sync,
// vote.sync, match.sync, redux.sync) executed by the lanes in exec with member
// mask mm; bad are lanes whose shfl source lane is not active.
func (k *checker) warpSync(w *warp, pc int32, exec, mm, bad uint32, what string, syncwarp bool) {
	k.wep[w.id]++
	if !k.c.Sync {
		return
	}
	live := w.lanes &^ w.exited
	p := &k.pend[w.id]
	if p.owed != 0 {
		p.owed &^= exec
		if p.owed != 0 && exec&p.caller != 0 {
			k.owed(w, p, pc, "the calling lanes reached this instruction first")
		}
	}
	if out := exec &^ mm; out != 0 {
		k.add(Finding{Kind: FindWarpSync, PC: int(pc), OtherPC: -1, Block: w.blk.idx, Thread: threadIndex(w.id, firstLane(out), k.l.block), Arg: -1,
			Detail: fmt.Sprintf("%s with member mask %#08x is executed by threads %s of warp %d, which the mask excludes (undefined behaviour)", k.syncLabel(what, pc), mm, laneList(out), w.id)})
	}
	missing := mm &^ exec
	if syncwarp {
		if gone := missing &^ live; gone != 0 {
			k.add(Finding{Kind: FindWarpSync, PC: int(pc), OtherPC: -1, Block: w.blk.idx, Thread: threadIndex(w.id, firstLane(exec), k.l.block), Arg: -1,
				Detail: fmt.Sprintf("%s with member mask %#08x names lanes %s of warp %d that have exited or do not exist: they can never arrive", k.syncLabel(what, pc), mm, laneList(gone), w.id)})
		}
	}
	if owe := missing & live; owe != 0 && p.owed == 0 {
		*p = pendSync{owed: owe, caller: exec, pc: pc}
	}
	if bad != 0 {
		k.add(Finding{Kind: FindWarpSync, PC: int(pc), OtherPC: -1, Block: w.blk.idx, Thread: threadIndex(w.id, firstLane(bad), k.l.block), Arg: -1,
			Detail: fmt.Sprintf("%s: threads %s of warp %d read a value from a lane that is not active at this instruction (the result is undefined)", k.syncLabel(what, pc), laneList(bad), w.id)})
	}
}

// owed reports lanes named in a member mask that did not join.
func (k *checker) owed(w *warp, p *pendSync, pc int32, why string) {
	k.add(Finding{Kind: FindWarpSync, PC: int(p.pc), OtherPC: int(pc), Block: w.blk.idx, Thread: threadIndex(w.id, firstLane(p.caller), k.l.block), Arg: -1,
		Detail: fmt.Sprintf("the member mask of %s names threads %s of warp %d, which did not execute a matching warp-synchronous instruction before %s",
			k.l.prog.info[p.pc].text, laneList(p.owed), w.id, why)})
	*p = pendSync{}
}

// syncLabel names a warp-synchronous instruction in a message; a vote also
// shows its PTX (all, any, uni or ballot). Built only when a finding is made,
// never per executed instruction.
func (k *checker) syncLabel(what string, pc int32) string {
	if what == "__vote_sync" {
		return what + " (" + k.l.prog.info[pc].text + ")"
	}
	return what
}

// findings returns the findings in the order found.
func (k *checker) findings() []Finding { return k.list }

// sharedVar is a .shared variable at its offset (v nil for extern arrays, named by name).
type sharedVar struct {
	v    *ptx.Var
	name string
	off  int
}
