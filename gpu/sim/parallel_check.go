package sim

import (
	"math/bits"
	"sort"

	"github.com/kernelscope/kernelscope/gpu/mem"
)

// The checks that keep state across blocks (the global race check and the
// init check of empty() buffers) with parallel blocks: each block's checker
// logs its global accesses (with the words each write left) instead of
// checking them; the launch's checker replays the log in block order (at
// commit, or earlier when the block is the head and its log is full), so the
// shadow state sees the serial order. Findings are ordered within a block by
// the number of global accesses before them, which interleaves the block's
// own findings with the replayed ones as a serial run finds them.

// maxGlobalLog bounds a block's logged global accesses (about 2.5 MB).
const maxGlobalLog = 8192

// globalEntry is one logged warp-level global access.
type globalEntry struct {
	addr  [32]uint64
	pc    int32
	warp  int32
	mask  uint32
	n     int32
	vbase int32 // index in globalLog.vals of the first lane's words (writes)
	kind  mem.Kind
}

// globalLog is a block's logged global accesses.
type globalLog struct {
	entries []globalEntry
	vals    []uint32
	before  int32 // entries of the block already replayed
}

// findings is one block's findings with their order keys.
type findings struct {
	list  []Finding
	seqs  []int32
	found map[fkey]int
}

// accessWords calls f for each word index of an access of n bytes at byte
// offset off of an allocation of nw words, as globalAccess walks them.
func accessWords(off uint64, n, nw int, f func(wi uint64)) {
	for left, x := n, off; left > 0; {
		wi := uint64(0)
		if left == 4 && x&3 == 0 {
			wi, left = x>>2, 0
		} else {
			var bm uint8
			wi, bm = wordMask(x, left)
			step := bits.OnesCount8(bm)
			left -= step
			x += uint64(step)
		}
		if int(wi) >= nw {
			return
		}
		f(wi)
	}
}

// logGlobal logs a global access of a block for replay in block order.
func (k *checker) logGlobal(w *warp, pc int32, mask uint32, addr *[32]uint64, n int, kind mem.Kind) {
	g := k.glog
	e := globalEntry{addr: *addr, pc: pc, warp: int32(w.id), mask: mask, n: int32(n), kind: kind, vbase: int32(len(g.vals))}
	if kind != mem.Load {
		for m := mask; m != 0; m &= m - 1 {
			a := addr[bits.TrailingZeros32(m)]
			al, ok := k.l.heap.find(a, n)
			if !ok {
				continue
			}
			accessWords(a-al.base, n, (len(al.data)+3)/4, func(wi uint64) { g.vals = append(g.vals, wordAt(al.data, wi)) })
		}
	}
	g.entries = append(g.entries, e)
	k.seq = g.before + int32(len(g.entries))
	if len(g.entries) >= maxGlobalLog {
		s := k.l.par
		if s.becomeHead() {
			s.replayGlobal()
		} else {
			g.before += int32(len(g.entries))
			g.entries, g.vals = g.entries[:0], g.vals[:0]
		}
	}
}

// wordNow is the word wi of al after the access being checked: memory, or,
// in a replay, the word the logged write left.
func (k *checker) wordNow(al *alloc, wi uint64, lane int, off uint64) uint32 {
	if k.rvals == nil {
		return wordAt(al.data, wi)
	}
	return k.rvals[int(k.rstart[lane])+int(wi-off>>2)]
}

// replayGlobal checks the block's logged global accesses on the launch's
// checker; their findings join the block's (s.gfind).
func (s *blockSlot) replayGlobal() {
	b, g := s.c.base.chk, s.l.chk.glog
	if s.gfind.found == nil {
		s.gfind.found = map[fkey]int{}
	}
	saved := findings{b.list, b.seqs, b.found}
	b.list, b.seqs, b.found = s.gfind.list, s.gfind.seqs, s.gfind.found
	max := b.c.MaxFindings
	b.c.MaxFindings = 1 << 30
	for i := range g.entries {
		e := &g.entries[i]
		b.seq = g.before + int32(i)
		w := s.l.blk.warps[e.warp]
		n := int(e.n)
		b.rvals = nil
		if e.kind != mem.Load {
			b.rvals = g.vals
			cur := e.vbase
			for m := e.mask; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				b.rstart[lane] = cur
				if al, ok := b.l.heap.find(e.addr[lane], n); ok {
					accessWords(e.addr[lane]-al.base, n, (len(al.data)+3)/4, func(uint64) { cur++ })
				}
			}
		}
		b.globalAccess(w, e.pc, e.mask, &e.addr, n, e.kind != mem.Store, e.kind != mem.Load, e.kind == mem.Atomic || e.kind == mem.Reduction)
	}
	b.rvals = nil
	b.c.MaxFindings = max
	s.gfind.list, s.gfind.seqs = b.list, b.seqs
	b.list, b.seqs, b.found = saved.list, saved.seqs, saved.found
	g.before += int32(len(g.entries))
	g.entries, g.vals = g.entries[:0], g.vals[:0]
}

// mergeBlock adds a block's findings (its checker's and the replayed ones),
// in the order a serial run finds them, to the launch's, applying the cap.
func (k *checker) mergeBlock(o *checker, r *findings) {
	type item struct {
		f      *Finding
		seq    int32
		replay bool
	}
	items := make([]item, 0, len(o.list)+len(r.list))
	for i := range o.list {
		items = append(items, item{&o.list[i], o.seqs[i], false})
	}
	for i := range r.list {
		items = append(items, item{&r.list[i], r.seqs[i], true})
	}
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].seq != items[j].seq {
			return items[i].seq < items[j].seq
		}
		return !items[i].replay && items[j].replay
	})
	for _, it := range items {
		f := *it.f
		key := fkey{f.Kind, int32(f.PC), int32(f.OtherPC)}
		if i, ok := k.found[key]; ok {
			k.list[i].Count += f.Count
			continue
		}
		if len(k.list) >= k.c.MaxFindings {
			k.drop += f.Count
			continue
		}
		k.found[key] = len(k.list)
		k.list = append(k.list, f)
		k.seqs = append(k.seqs, 0)
	}
	resetBlockCheck(o, r)
}

// resetBlockCheck empties a block's checker findings and log for the next block.
func resetBlockCheck(o *checker, r *findings) {
	o.list, o.seqs = o.list[:0], o.seqs[:0]
	clear(o.found)
	o.drop, o.seq = 0, 0
	r.list, r.seqs = r.list[:0], r.seqs[:0]
	clear(r.found)
	if g := o.glog; g != nil {
		g.entries, g.vals, g.before = g.entries[:0], g.vals[:0], 0
	}
}
