package sim

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"
)

// shfl executes shfl.sync for the lanes in exec (PTX ISA: shfl.sync).
// It returns the lanes whose source lane is not in exec (their result is undefined).
func (l *launcher) shfl(o *op, exec uint32, r []uint64) (bad uint32) {
	var res [32]uint64
	var pv [32]bool
	for m := exec; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		b := uint32(o.src[1].get(r, lane))
		c := uint32(o.src[2].get(r, lane))
		bval := int(b & 31)
		cval := int(c & 31)
		seg := int((c >> 8) & 31)
		maxLane := (lane & seg) | (cval &^ seg)
		minLane := lane & seg
		var j int
		var p bool
		switch o.sub {
		case shflUp:
			j = lane - bval
			p = j >= maxLane
		case shflDown:
			j = lane + bval
			p = j <= maxLane
		case shflBfly:
			j = lane ^ bval
			p = j <= maxLane
		default:
			j = minLane | (bval &^ seg)
			p = j <= maxLane
		}
		if !p {
			j = lane
		}
		if exec&(1<<uint(j&31)) == 0 {
			bad |= 1 << uint(lane)
		}
		res[lane] = o.src[0].get(r, j)
		pv[lane] = p
	}
	for m := exec; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		if d := o.dst[0]; d >= 0 {
			r[int(d)*32+lane] = res[lane] & o.dmask[0]
		}
		if o.nd > 1 && o.dst[1] >= 0 {
			var v uint64
			if pv[lane] {
				v = 1
			}
			r[int(o.dst[1])*32+lane] = v
		}
	}
	return bad
}

// pred reads a predicate source (negation applied).
func pred(v *val, r []uint64, lane int) bool {
	x := v.get(r, lane)
	if v.reg >= 0 && v.not {
		x ^= 1
	}
	return x&1 != 0
}

// sameMask is the lanes of lanes whose member mask (v) is the first one's. The lanes
// of a warp may name different masks in one vote or match (the tiles of cooperative
// groups' thread_block_tile<N>): each mask's lanes then vote or match apart.
func sameMask(v *val, lanes uint32, r []uint64) uint32 {
	if v.reg < 0 {
		return lanes
	}
	mm := v.get(r, firstLane(lanes))
	var g uint32
	for m := lanes; m != 0; m &= m - 1 {
		if lane := bits.TrailingZeros32(m); v.get(r, lane) == mm {
			g |= 1 << uint(lane)
		}
	}
	return g
}

// syncCheck gives the checker a shfl, vote, match or redux once for each member mask
// (mv) the lanes of exec name, so the tiles of a partitioned warp are checked apart.
func (l *launcher) syncCheck(w *warp, pc int32, exec uint32, mv *val, r []uint64, bad uint32, what string) {
	for rest := exec; rest != 0; {
		g := sameMask(mv, rest, r)
		l.chk.warpSync(w, pc, g, uint32(mv.get(r, firstLane(g))), bad&g, what, false)
		rest &^= g
	}
}

// vote executes vote.sync, once for each member mask the lanes of exec name.
func (l *launcher) vote(o *op, exec uint32, r []uint64) {
	for rest := exec; rest != 0; {
		g := sameMask(&o.src[1], rest, r)
		l.vote1(o, g, r)
		rest &^= g
	}
}

// vote1 executes vote.sync over the lanes of exec in the member mask.
func (l *launcher) vote1(o *op, exec uint32, r []uint64) {
	mm := uint32(o.src[1].get(r, firstLane(exec)))
	part := exec & mm
	var ballot uint32
	for m := part; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		if pred(&o.src[0], r, lane) {
			ballot |= 1 << uint(lane)
		}
	}
	var v uint64
	switch o.sub {
	case voteAll:
		v = b2u(ballot == part)
	case voteAny:
		v = b2u(ballot != 0)
	case voteUni:
		v = b2u(ballot == 0 || ballot == part)
	case voteBallot:
		v = uint64(ballot)
	}
	d := int(o.dst[0]) * 32
	if o.dst[0] < 0 {
		return
	}
	for m := exec; m != 0; m &= m - 1 {
		r[d+bits.TrailingZeros32(m)] = v & o.dmask[0]
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// match executes match.any/all.sync, once for each member mask the lanes of exec name.
func (l *launcher) match(o *op, exec uint32, r []uint64) {
	for rest := exec; rest != 0; {
		g := sameMask(&o.src[1], rest, r)
		l.match1(o, g, r)
		rest &^= g
	}
}

// match1 executes match.any/all.sync over the lanes of exec in the member mask.
func (l *launcher) match1(o *op, exec uint32, r []uint64) {
	mm := uint32(o.src[1].get(r, firstLane(exec)))
	part := exec & mm
	vm := widthMask(int(o.size) * 8)
	var res [32]uint64
	var ok [32]bool
	if o.sub == matchAll {
		all := true
		first := o.src[0].get(r, firstLane(part)) & vm
		for m := part; m != 0; m &= m - 1 {
			if o.src[0].get(r, bits.TrailingZeros32(m))&vm != first {
				all = false
			}
		}
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			if all {
				res[lane], ok[lane] = uint64(part), true
			}
		}
	} else {
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			v := o.src[0].get(r, lane) & vm
			var same uint32
			for k := part; k != 0; k &= k - 1 {
				j := bits.TrailingZeros32(k)
				if o.src[0].get(r, j)&vm == v {
					same |= 1 << uint(j)
				}
			}
			res[lane] = uint64(same)
		}
	}
	for m := exec; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		if o.dst[0] >= 0 {
			r[int(o.dst[0])*32+lane] = res[lane] & o.dmask[0]
		}
		if o.nd > 1 && o.dst[1] >= 0 {
			r[int(o.dst[1])*32+lane] = b2u(ok[lane])
		}
	}
}

// redux executes redux.sync on 32-bit integers, once for each member mask the lanes
// of exec name (cooperative groups' coalesced and labeled partitions give the lanes of
// a warp different masks in one redux.sync).
func (l *launcher) redux(o *op, exec uint32, r []uint64) {
	for rest := exec; rest != 0; {
		g := sameMask(&o.src[1], rest, r)
		l.redux1(o, g, r)
		rest &^= g
	}
}

// redux1 executes redux.sync over the lanes of exec in the member mask.
func (l *launcher) redux1(o *op, exec uint32, r []uint64) {
	mm := uint32(o.src[1].get(r, firstLane(exec)))
	part := exec & mm
	var acc uint32
	first := true
	for m := part; m != 0; m &= m - 1 {
		x := uint32(o.src[0].get(r, bits.TrailingZeros32(m)))
		if first {
			acc, first = x, false
			continue
		}
		switch o.sub {
		case reduxAdd:
			acc += x
		case reduxMin:
			if (o.signed && int32(x) < int32(acc)) || (!o.signed && x < acc) {
				acc = x
			}
		case reduxMax:
			if (o.signed && int32(x) > int32(acc)) || (!o.signed && x > acc) {
				acc = x
			}
		case reduxAnd:
			acc &= x
		case reduxOr:
			acc |= x
		case reduxXor:
			acc ^= x
		}
	}
	if o.dst[0] < 0 {
		return
	}
	d := int(o.dst[0]) * 32
	for m := exec; m != 0; m &= m - 1 {
		r[d+bits.TrailingZeros32(m)] = uint64(acc) & o.dmask[0]
	}
}

// barrier executes bar.sync / bar.arrive / bar.red for the lanes in exec and
// reports whether the warp must wait.
func (l *launcher) barrier(w *warp, o *op, pc int32, exec uint32, r []uint64) (bool, error) {
	l.stats.Barriers++
	lane0 := firstLane(exec)
	id := o.src[0].get(r, lane0)
	if id >= uint64(len(w.blk.bars)) {
		return false, l.laneError(w, pc, lane0, Trap, 0, fmt.Sprintf("barrier number %d is out of range 0..15", id), "")
	}
	expected := 0
	if o.ns > 1 {
		cnt := o.src[1].get(r, lane0)
		if cnt == 0 || cnt%32 != 0 || cnt > uint64(l.nthreads+31)/32*32 {
			return false, l.laneError(w, pc, lane0, Trap, 0,
				fmt.Sprintf("barrier thread count %d is not a positive multiple of 32 up to the block size", cnt), "")
		}
		expected = int(cnt)
	}
	blk := w.blk
	b := &blk.bars[id]
	if b.arrived == 0 {
		b.expected = expected
		b.popc, b.all, b.any = 0, true, false
	}
	n := bits.OnesCount32(exec)
	if l.chk != nil {
		l.chk.arrive(w, pc, exec, int(id))
	}
	if o.sub >= barRedPopc {
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			p := pred(&o.src[2], r, lane)
			if p {
				b.popc++
				b.any = true
			} else {
				b.all = false
			}
		}
	}
	b.arrived += n
	var ev *BarrierEvent
	if w.traced && l.tr != nil && l.tr.on() {
		ev = &BarrierEvent{ID: int(id), Arrived: b.arrived, Expected: l.target(blk, b)}
		l.tr.barrier(ev)
	}
	if o.sub >= barRedPopc {
		lanes := exec
		if w.red.active {
			lanes |= w.red.lanes // another path of the warp arrived earlier
		}
		w.red = pendingRed{active: true, dst: o.dst[0], dmask: o.dmask[0], lanes: lanes, kind: o.sub}
	}
	if b.arrived >= l.target(blk, b) {
		released := l.release(blk, uint8(id))
		if ev != nil {
			ev.Released = released
		}
		l.writeRed(w, b)
		return false, nil
	}
	if o.sub == barArrive {
		return false, nil
	}
	if ev != nil {
		ev.Waiting = true
	}
	w.barPC, w.barID, w.barMask = pc, int(id), w.barMask|exec
	// sm_70+ barriers are per thread: while these lanes wait, another path
	// of the same warp (a sibling entry with the same reconvergence point)
	// may still run and arrive, e.g. at the barrier of the other branch.
	t := len(w.stack) - 1
	base := 0
	if nf := len(w.frames); nf > 0 {
		base = w.frames[nf-1].base
	}
	w.stack[t].park = uint8(id) + 1
	if l.runOtherPath(w, base) {
		return false, nil
	}
	w.stack[t].park = 0
	w.waiting = true
	b.waiters = append(b.waiters, w)
	return true, nil
}

// runOtherPath is called when the lanes of the top entry (parked at a
// barrier) must wait: like independent thread scheduling, it lets other lanes
// of the warp run instead. First choice is a sibling path (an entry with the
// same reconvergence point); otherwise the lanes waiting at that
// reconvergence point which are not parked go on alone, and the parked paths
// reconverge with them one level further out. It reports whether the top of
// the stack changed to runnable lanes.
func (l *launcher) runOtherPath(w *warp, base int) bool {
	t := len(w.stack) - 1
	x := w.stack[t].rpc
	k := t - 1
	for ; k >= base && w.stack[k].rpc == x; k-- {
		if e := w.stack[k]; e.park == 0 && e.mask != 0 && e.pc >= 0 && e.pc != e.rpc {
			copy(w.stack[k:], w.stack[k+1:])
			w.stack[t] = e
			return true
		}
	}
	if k < base || x < 0 || w.stack[k].pc != x {
		return false
	}
	var parked uint32
	for j := k + 1; j <= t; j++ {
		parked |= w.stack[j].mask
	}
	e := w.stack[k]
	free := e.mask &^ parked
	if free == 0 {
		return false
	}
	for j := k + 1; j <= t; j++ {
		w.stack[j].rpc = e.rpc
	}
	copy(w.stack[k:], w.stack[k+1:])
	w.stack[t] = entry{pc: x, rpc: e.rpc, mask: free}
	return true
}

// parkWait makes a warp whose top entry is parked at a barrier wait for it.
func (l *launcher) parkWait(w *warp) {
	id := int(w.stack[len(w.stack)-1].park) - 1
	w.waiting, w.barID = true, id
	w.blk.bars[id].waiters = append(w.blk.bars[id].waiters, w)
}

// target is the number of threads barrier b waits for: its explicit count,
// or every thread of the block that has not exited.
func (l *launcher) target(blk *block, b *barrier) int {
	if b.expected > 0 {
		return b.expected
	}
	return l.nthreads - blk.exitedThreads
}

// exitRelease releases the all-threads barriers that only exited threads
// were holding up (PTX ISA: exit).
func (l *launcher) exitRelease(blk *block) {
	for i := range blk.bars {
		b := &blk.bars[i]
		if b.arrived > 0 && b.expected == 0 && b.arrived >= l.target(blk, b) {
			l.release(blk, uint8(i))
		}
	}
}

// release wakes the warps waiting at b and resets it.
func (l *launcher) release(blk *block, id uint8) []int {
	b := &blk.bars[id]
	if l.chk != nil {
		l.chk.released(blk, int(id), b.expected)
	}
	var ids []int
	for _, x := range b.waiters {
		x.waiting = false
		l.writeRed(x, b)
		ids = append(ids, x.id)
	}
	for _, x := range blk.warps {
		if x.barID == int(id) {
			x.barMask = 0
		}
		for i := range x.stack {
			if x.stack[i].park == id+1 {
				x.stack[i].park = 0
			}
		}
	}
	b.waiters = b.waiters[:0]
	b.arrived = 0
	return ids
}

// writeRed delivers a bar.red result to a warp.
func (l *launcher) writeRed(w *warp, b *barrier) {
	p := &w.red
	if !p.active {
		return
	}
	p.active = false
	var v uint64
	switch p.kind {
	case barRedPopc:
		v = uint64(b.popc)
	case barRedAnd:
		v = b2u(b.all)
	case barRedOr:
		v = b2u(b.any)
	}
	if p.dst < 0 {
		return
	}
	r := w.regs[w.regBase:]
	for m := p.lanes; m != 0; m &= m - 1 {
		r[int(p.dst)*32+bits.TrailingZeros32(m)] = v & p.dmask
	}
}

// deadlock builds the error for a block whose remaining warps all wait at barriers.
func (l *launcher) deadlock(blk *block) *Error {
	if e := l.clusterDeadlock(blk); e != nil {
		return e
	}
	var waiting, exited []int
	var first *warp
	for _, w := range blk.warps {
		switch {
		case w.waiting:
			waiting = append(waiting, w.id)
			if first == nil {
				first = w
			}
		case w.done:
			exited = append(exited, w.id)
		}
	}
	sort.Ints(waiting)
	b := &blk.bars[first.barID]
	e := l.laneError(first, first.barPC, firstLane(first.lanes&^first.exited), Deadlock, 0,
		fmt.Sprintf("deadlock: barrier %d can never complete (%d of %d threads arrived)", first.barID, b.arrived, l.target(blk, b)), "")
	e.Warps = waiting
	// Group the waiting warps by where they wait.
	type spot struct {
		id   int
		line int
	}
	var order []spot
	group := map[spot][]int{}
	for _, w := range blk.warps {
		if w.waiting {
			k := spot{w.barID, l.prog.info[w.barPC].line}
			if _, ok := group[k]; !ok {
				order = append(order, k)
			}
			group[k] = append(group[k], w.id)
		}
	}
	var parts []string
	for _, k := range order {
		verb := " waits"
		if len(group[k]) > 1 {
			verb = " wait"
		}
		parts = append(parts, fmt.Sprintf("%s%s at barrier %d (PTX line %d)", warpsNoun(group[k]), verb, k.id, k.line))
	}
	for _, w := range blk.warps {
		if rest := w.lanes &^ w.exited &^ w.barMask; w.waiting && rest != 0 {
			parts = append(parts, fmt.Sprintf("threads %s of warp %d took another path and cannot arrive while their warp waits", laneList(rest), w.id))
		}
	}
	cause := strings.Join(parts, "; ")
	if len(exited) == 1 {
		cause += fmt.Sprintf("; warp %d has exited", exited[0])
	} else if len(exited) > 1 {
		cause += fmt.Sprintf("; warps %s have exited", warpList(exited))
	}
	var partial []string
	for _, w := range blk.warps {
		if w.exited != 0 && !w.done {
			partial = append(partial, fmt.Sprintf("%d", w.id))
		}
	}
	if len(partial) > 0 {
		cause += fmt.Sprintf("; some threads of warps %v have exited", partial)
	}
	if b.expected > 0 {
		cause += fmt.Sprintf("; the barrier's thread count is %d, and exited threads still count towards it", b.expected)
	} else {
		cause += "; every thread of the block that has not exited must reach a barrier with this number (sm_70+ counts threads)"
	}
	e.Cause = cause
	return e
}

// laneList formats a lane mask as "0-15,20".
func laneList(m uint32) string {
	var ls []int
	for ; m != 0; m &= m - 1 {
		ls = append(ls, bits.TrailingZeros32(m))
	}
	return warpList(ls)
}
