package timing

import (
	"fmt"

	"github.com/kernelscope/kernelscope/gpu/isa"
	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Schedule is a modelled ptxas instruction schedule: within each straight-line
// region of a function (no label inside, no control, barrier, fence or
// asynchronous-copy instruction inside), the order a list scheduler issues the
// region's instructions in. ptxas hoists independent loads above the
// arithmetic that waits for earlier ones, so the GPU issues a tile's loads back
// to back and their consumers later; a model that issues PTX order makes every
// load wait for the one before's consumer. The schedule keeps every register
// dependence (read after write, write after read, write after write) and the
// order of memory operations of which one writes (stores, atomics, ordered
// loads); loads may pass loads. Priority: the longest latency path from the
// instruction to the end of the region, then program order.
//
// Only the timing model's issue order changes; the functional simulator runs
// the program as written.
type Schedule struct {
	// start[pc] > 0 marks pc as the first PC of a scheduled region: the region
	// is PCs pc..pc+len(order)-1 and its order is orders[start[pc]-1].
	start  []int32
	orders [][]int32 // per region, the PCs in issue order
	// unrollAt[pc] > 0 marks pc as the head of a loop ptxas unrolls (Unroll): its
	// loop is unrolls[unrollAt[pc]-1]
	unrollAt []int32
	unrolls  []unrolled
}

// unrolled is a loop that ptxas unrolls by copies: the body (head..back edge,
// n PCs) issued copies times as one region, order holding indices into the
// copies (copy c's PC head+j is c*n+j).
type unrolled struct {
	n, copies int
	order     []int32
	pcs       []int32 // the copies' own PCs (appended to the program), copy-major
}

// Regions is the number of regions the schedule reorders (those of two or more
// instructions whose schedule differs from program order).
func (s *Schedule) Regions() int {
	if s == nil {
		return 0
	}
	return len(s.orders)
}

// regionBreak says whether an instruction ends a straight-line region (it is
// issued in place and nothing moves across it).
func regionBreak(in *Inst) bool {
	if in.Dec == nil {
		return true
	}
	if in.async != apNone {
		return true
	}
	switch in.Dec.Op {
	case isa.OpBra, isa.OpBrx, isa.OpCall, isa.OpRet, isa.OpExit, isa.OpTrap, isa.OpBrkpt,
		isa.OpBar, isa.OpBarrier, isa.OpMembar, isa.OpFence, isa.OpMbarrier, isa.OpCp,
		isa.OpNanosleep, isa.OpInvalid, isa.OpAlloca, isa.OpStacksave, isa.OpStackrestore,
		isa.OpGriddepcontrol, isa.OpSetmaxnreg, isa.OpPmevent, isa.OpElect, isa.OpActivemask,
		isa.OpClusterlaunchcontrol, isa.OpTcgen05, isa.OpMma, isa.OpLdmatrix, isa.OpStmatrix, isa.OpMovmatrix:
		return true
	}
	return in.Dec.Op == isa.OpWmma || in.Dec.Op == isa.OpWgmma
}

// memKind classifies an instruction for memory ordering: 0 none, 1 a plain
// load (may pass other loads), 2 a write or ordered access (keeps its order
// with every memory operation).
func memKind(in *Inst) int {
	switch in.Dec.Op {
	case isa.OpLd, isa.OpLdu, isa.OpPrefetch, isa.OpPrefetchu, isa.OpTex, isa.OpTld4, isa.OpSuld, isa.OpSuq, isa.OpTxq:
		if sem := in.Dec.Mods.Sem; sem != isa.SemNone && sem != isa.SemWeak {
			return 2 // volatile, relaxed, acquire...: ordered with the other memory operations
		}
		return 1
	case isa.OpSt, isa.OpAtom, isa.OpRed, isa.OpSust, isa.OpSured, isa.OpMultimem, isa.OpDiscard, isa.OpApplypriority:
		return 2
	}
	return 0
}

// spaceBits is the set of state spaces a memory instruction may touch: two
// memory operations are ordered when one writes and the sets meet. Constant and
// texture reads touch nothing a kernel writes; a generic address may be any.
func spaceBits(in *Inst) uint8 {
	switch in.Dec.Mods.Space {
	case ptx.SpaceConst, ptx.SpaceTex:
		return 0
	case ptx.SpaceShared:
		return 1
	case ptx.SpaceGlobal:
		return 2
	case ptx.SpaceLocal:
		return 4
	case ptx.SpaceParam:
		return 8
	case ptx.SpaceSharedCluster:
		return 1 | 16
	}
	return 0xff
}

// NewSchedule list-schedules the straight-line regions of the PCs [0, n) of p
// (a function's instructions, in order); labels are the PCs that a branch may
// enter (each starts a region).
func NewSchedule(p *Program, n int, labels []int) *Schedule {
	n = min(n, len(p.Insts))
	s := &Schedule{start: make([]int32, len(p.Insts))}
	isLabel := make([]bool, n+1)
	for _, l := range labels {
		if l >= 0 && l <= n {
			isLabel[l] = true
		}
	}
	var sc scheduler
	lo := 0
	for pc := 0; pc <= n; pc++ {
		end := pc == n || isLabel[pc] || regionBreak(&p.Insts[pc])
		if !end {
			continue
		}
		// region [lo, pc): the break instruction itself issues in place
		if pc-lo >= 2 {
			if order := sc.schedule(p, lo, pc); order != nil {
				s.orders = append(s.orders, order)
				s.start[lo] = int32(len(s.orders))
			}
		}
		lo = pc + 1
		if pc < n && isLabel[pc] && !regionBreak(&p.Insts[pc]) {
			lo = pc // a labelled ordinary instruction starts the next region
		}
	}
	return s
}

// Unroll makes each loop [head, back] (PCs; back is its back edge, a branch to
// head, and nothing between breaks a region) issue as ptxas issues it unrolled
// copies times: copies consecutive trips list-scheduled as one region, so that
// the later trips' loads are issued with the first's (nvcc's 4x-unrolled PTX
// loop that ptxas unrolls 4x more keeps 16 trips' loads in flight; gpu/ptxas
// unrollCounted). As ptxas gives each copy registers of its own, every copy is
// appended to p as instructions of its own whose registers are renamed (the
// last copy writes the loop's own registers), and Reorder issues a group of
// trips as those. Call it before the timing model is made over p. The last
// copy's back edge stays last.
func (s *Schedule) Unroll(p *Program, loops [][2]int, copies int) {
	if s == nil || copies < 2 {
		return
	}
	var sc scheduler
	for _, lp := range loops {
		head, back := lp[0], lp[1]
		if head < 0 || back <= head || back >= len(s.start) || back >= len(p.Insts) {
			continue
		}
		ok := true
		for pc := head; pc < back; pc++ {
			if regionBreak(&p.Insts[pc]) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		n := back - head + 1
		cur := map[int32]int32{} // register -> its renamed id in the copies so far
		rn := func(r int32) int32 {
			if x, ok := cur[r]; ok {
				return x
			}
			return r
		}
		seq := make([]int32, 0, n*copies) // the copies' PCs, copy-major
		for c := range copies {
			for j := range n {
				in := p.Insts[head+j]
				in.Src = make([]int32, len(in.Src))
				for k, r := range p.Insts[head+j].Src {
					in.Src[k] = rn(r)
				}
				in.Dst = make([]int32, len(in.Dst))
				for k, r := range p.Insts[head+j].Dst {
					if c == copies-1 {
						in.Dst[k] = r
						delete(cur, r)
						continue
					}
					id := int32(len(p.RegNames))
					p.RegNames = append(p.RegNames, fmt.Sprintf("%s'%d", p.RegNames[r], c))
					in.Dst[k], cur[r] = id, id
				}
				p.Insts = append(p.Insts, in)
				seq = append(seq, int32(len(p.Insts)-1))
			}
		}
		order := sc.scheduleSeq(p, seq[:len(seq)-1])
		if order == nil {
			order = make([]int32, len(seq)-1)
			for i := range order {
				order[i] = int32(i)
			}
		}
		order = append(order, int32(len(seq)-1))
		if s.unrollAt == nil {
			s.unrollAt = make([]int32, len(s.start))
		}
		s.unrolls = append(s.unrolls, unrolled{n: n, copies: copies, order: order, pcs: seq})
		s.unrollAt[head] = int32(len(s.unrolls))
	}
}

// Unrolled is the number of loops the schedule issues unrolled.
func (s *Schedule) Unrolled() int {
	if s == nil {
		return 0
	}
	return len(s.unrolls)
}

// Reorder puts every complete execution of a scheduled region in ws (its PCs
// consecutive, in program order) into the schedule's order, in place; copies
// consecutive trips of an unrolled loop go into the unrolled loop's order.
func (s *Schedule) Reorder(ws WarpStream, tmp []Event) []Event {
	if s == nil || (len(s.orders) == 0 && len(s.unrolls) == 0) {
		return tmp
	}
	for i := 0; i < len(ws); {
		pc := ws[i].PC
		if pc >= 0 && int(pc) < len(s.unrollAt) && s.unrollAt[pc] > 0 {
			u := &s.unrolls[s.unrollAt[pc]-1]
			if k := u.n * u.copies; i+k <= len(ws) && tripsAt(ws[i:i+k], pc, u.n) {
				tmp = append(tmp[:0], ws[i:i+k]...)
				for j, v := range u.order {
					ws[i+j] = tmp[v]
					ws[i+j].PC = u.pcs[v]
				}
				i += k
				continue
			}
		}
		if pc < 0 || int(pc) >= len(s.start) || s.start[pc] == 0 {
			i++
			continue
		}
		order := s.orders[s.start[pc]-1]
		k := len(order)
		if i+k > len(ws) {
			i++
			continue
		}
		whole := true
		for j := 1; j < k; j++ {
			if ws[i+j].PC != pc+int32(j) {
				whole = false
				break
			}
		}
		if !whole {
			i++
			continue
		}
		tmp = append(tmp[:0], ws[i:i+k]...)
		for j, opc := range order {
			ws[i+j] = tmp[opc-pc]
		}
		i += k
	}
	return tmp
}

// tripsAt reports whether ws is whole trips of the n-PC loop body starting at head.
func tripsAt(ws WarpStream, head int32, n int) bool {
	for j := range ws {
		if ws[j].PC != head+int32(j%n) {
			return false
		}
	}
	return true
}

// scheduler holds the scratch space of NewSchedule.
type scheduler struct {
	preds  [][]edge
	height []int64
	ready  []int64
	npred  []int
	done   []bool
}

// edge is a dependence on an earlier instruction of the region (index
// relative to the region's start) and the cycles the later one waits.
type edge struct {
	from int
	lat  int64
}

// schedule returns the region [lo, hi)'s PCs in list-schedule order, or nil
// when that is program order.
func (sc *scheduler) schedule(p *Program, lo, hi int) []int32 {
	pcs := make([]int32, hi-lo)
	for i := range pcs {
		pcs[i] = int32(lo + i)
	}
	order := sc.scheduleSeq(p, pcs)
	if order == nil {
		return nil
	}
	for i := range order {
		order[i] = pcs[order[i]]
	}
	return order
}

// scheduleSeq list-schedules the instruction sequence pcs (PCs, which may repeat: an
// unrolled loop's copies) and returns indices into pcs in issue order, or nil when
// that is the sequence's own order.
func (sc *scheduler) scheduleSeq(p *Program, pcs []int32) []int32 {
	n := len(pcs)
	sc.preds = sc.preds[:0]
	for range n {
		sc.preds = append(sc.preds, nil)
	}
	lastDef := map[int32]int{}
	readers := map[int32][]int{}
	var mems []int             // the region's memory operations so far
	lat := func(i int) int64 { // cycles from issue to a dependant's issue
		in := &p.Insts[pcs[i]]
		if in.Issues == 0 {
			return 0 // folded by ptxas: its results are ready when its sources are
		}
		return int64(max(in.Timing.Latency, 1))
	}
	for i := range n {
		in := &p.Insts[pcs[i]]
		add := func(from int, l int64) { sc.preds[i] = append(sc.preds[i], edge{from, l}) }
		for _, r := range in.Src {
			if d, ok := lastDef[r]; ok {
				add(d, lat(d))
			}
		}
		for _, r := range in.Dst {
			if d, ok := lastDef[r]; ok {
				add(d, 1)
			}
			for _, u := range readers[r] {
				if u != i {
					add(u, 0)
				}
			}
		}
		if k := memKind(in); k > 0 {
			b := spaceBits(in)
			for _, h := range mems {
				if (k == 2 || memKind(&p.Insts[pcs[h]]) == 2) && b&spaceBits(&p.Insts[pcs[h]]) != 0 {
					add(h, 1)
				}
			}
			mems = append(mems, i)
		}
		for _, r := range in.Src {
			readers[r] = append(readers[r], i)
		}
		for _, r := range in.Dst {
			lastDef[r] = i
			readers[r] = readers[r][:0]
		}
	}
	// heights: longest latency path to the region's end
	sc.height = resize(sc.height, n)
	for i := n - 1; i >= 0; i-- {
		sc.height[i] = max(sc.height[i], lat(i))
		for _, e := range sc.preds[i] {
			sc.height[e.from] = max(sc.height[e.from], e.lat+sc.height[i])
		}
	}
	succs := make([][]edge, n)
	sc.npred = sc.npred[:0]
	for i := range n {
		sc.npred = append(sc.npred, len(sc.preds[i]))
		for _, e := range sc.preds[i] {
			succs[e.from] = append(succs[e.from], edge{i, e.lat})
		}
	}
	sc.ready = resize(sc.ready, n)
	sc.done = sc.done[:0]
	for range n {
		sc.done = append(sc.done, false)
	}
	order := make([]int32, 0, n)
	var cycle int64
	var pipeFree [latency.NumPipes]int64 // the cycle each pipe takes an instruction again
	inOrder := true
	for len(order) < n {
		best := -1
		next := int64(-1)
		for i := range n {
			if sc.done[i] || sc.npred[i] > 0 {
				continue
			}
			at := sc.ready[i]
			if in := &p.Insts[pcs[i]]; in.Issues > 0 {
				at = max(at, pipeFree[in.Timing.Pipe])
			}
			if at > cycle {
				if next < 0 || at < next {
					next = at
				}
				continue
			}
			if best < 0 || sc.height[i] > sc.height[best] {
				best = i
			}
		}
		if best < 0 {
			cycle = next
			continue
		}
		sc.done[best] = true
		if best != len(order) {
			inOrder = false
		}
		order = append(order, int32(best))
		for _, e := range succs[best] {
			sc.npred[e.from]--
			sc.ready[e.from] = max(sc.ready[e.from], cycle+e.lat)
		}
		if in := &p.Insts[pcs[best]]; in.Issues > 0 {
			pipeFree[in.Timing.Pipe] = cycle + int64(in.Issues*max(in.Timing.IssueCycles, 1))
			cycle += int64(in.Issues)
		}
	}
	if inOrder {
		return nil
	}
	return order
}

// resize returns s with n zeroed elements.
func resize(s []int64, n int) []int64 {
	s = s[:0]
	for range n {
		s = append(s, 0)
	}
	return s
}
