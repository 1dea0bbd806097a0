package sim

import (
	"errors"
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Thread-block clusters, distributed shared memory and cooperative launches.
//
// Blocks that must be resident together run as one co-scheduled group in one
// slot of the parallel scheduler: a cluster's blocks, or every block of a
// cooperative launch. Inside a group the warps of all its blocks run
// round-robin, each until it waits (at a block barrier, a cluster barrier or
// a failed mbarrier wait), exits or has used its quantum, so a spin-wait on
// a value another block of the group writes progresses. Groups are run by the
// workers and committed in group order, as plain launches commit blocks.
//
// A shared::cluster address names a block of the cluster and an offset in
// its shared memory: (rank+1)<<clusterShift | offset. Offsets below
// 1<<clusterShift are the running block's own (a shared::cta address is a
// valid shared::cluster address of the executing block, as the PTX ISA says).
// mapa makes such addresses (generic ones are the same inside the shared
// window), getctarank reads the rank back.

// clusterShift places the block rank of a shared::cluster address.
const clusterShift = 24

// maxGroupShadow bounds the shared-memory shadow state of a co-scheduled
// group's checkers (64 bytes per word per block).
const maxGroupShadow = 512 << 20

// maxClusterSize is the most blocks a cluster may have (16 with
// cudaFuncAttributeNonPortableClusterSizeAllowed on sm_90; 8 is portable).
const maxClusterSize = 16

// clusterCfg is the cluster shape of a launch and its grouping.
type clusterCfg struct {
	dims     [3]int // blocks per cluster
	size     int
	explicit bool // launched with a cluster (a size, or .reqnctapercluster)
	coop     bool // cooperative launch: the whole grid is one group
	per      int  // blocks per group
	ngroups  int
	ncl      [3]int // clusters in the grid
	ws       *alloc // the grid workspace of a cooperative launch (%envreg1:%envreg2)
}

// clusterState is one cluster of a running group.
type clusterState struct {
	blocks  []*block // by rank
	arrived int      // threads arrived at the barrier's current phase
	done    uint32   // phases completed
	waiters []*warp
}

// groupState is a slot's co-scheduled group of blocks.
type groupState struct {
	blocks []*block // group order (cluster by cluster, rank order)
	warps  []*warp  // every warp of the group, block by block
	clus   []*clusterState
	chks   []*checker // per block (checks on)
	csh    []cword    // distributed shared memory shadow (racecheck)
	cshTag uint32
}

// cword is the shadow of one word of a group's shared memory for races
// between the blocks of a cluster.
type cword struct {
	tag  uint32
	w, r crec
}

// crec is one access in the distributed shared memory shadow.
type crec struct {
	blk int16 // block in the group + 1; 0: none
	thr int16
	f   uint8
	pc  int32
	arr uint32 // cluster barrier arrivals of the thread before the access
}

// setupCluster decides the launch's cluster shape and groups.
func (l *launcher) setupCluster(kf *ptx.Func, cfg *Config) error {
	c := &clusterCfg{dims: cfg.Cluster, coop: cfg.Cooperative}
	req := kf.ReqNCTAPerCluster
	if req != [3]int{} {
		for i := range req {
			if req[i] == 0 {
				req[i] = 1
			}
		}
	}
	if c.dims != [3]int{} {
		for i := range c.dims {
			if c.dims[i] == 0 {
				c.dims[i] = 1
			}
			if c.dims[i] < 0 {
				return launchError(InvalidLaunch, "negative cluster dimension: cluster %v", cfg.Cluster)
			}
		}
		if req != [3]int{} && req != c.dims {
			return launchError(InvalidLaunch, "kernel %s requires a cluster of %v (__cluster_dims__ / .reqnctapercluster), launched with a cluster of %v", kf.Name, req, c.dims)
		}
		c.explicit = true
	} else if req != [3]int{} {
		c.dims, c.explicit = req, true
	} else {
		c.dims = [3]int{1, 1, 1}
		c.explicit = kf.ExplicitCluster
	}
	c.size = c.dims[0] * c.dims[1] * c.dims[2]
	if c.size > maxClusterSize {
		return launchError(InvalidLaunch, "a cluster of %v has %d blocks; the limit is %d (8 portable, 16 with cudaFuncAttributeNonPortableClusterSizeAllowed)", c.dims, c.size, maxClusterSize)
	}
	if kf.MaxClusterRank > 0 && c.size > kf.MaxClusterRank {
		return launchError(InvalidLaunch, "kernel %s allows at most %d blocks per cluster (.maxclusterrank), launched with a cluster of %v", kf.Name, kf.MaxClusterRank, c.dims)
	}
	xyz := "xyz"
	for i := 0; i < 3; i++ {
		if l.grid[i]%c.dims[i] != 0 {
			return launchError(InvalidLaunch, "the grid (%d,%d,%d) is not a multiple of the cluster (%d,%d,%d) in %c: a cluster's blocks must all exist",
				l.grid[0], l.grid[1], l.grid[2], c.dims[0], c.dims[1], c.dims[2], xyz[i])
		}
		c.ncl[i] = l.grid[i] / c.dims[i]
	}
	nblocks := l.grid[0] * l.grid[1] * l.grid[2]
	if c.coop {
		if m := cfg.MaxResident; m > 0 && nblocks > m {
			why := cfg.MaxResidentWhy
			if why != "" {
				why = " (" + why + ")"
			}
			return launchError(InvalidLaunch, "cooperative launch of %d blocks needs all %d resident at once; at most %d fit%s", nblocks, nblocks, m, why)
		}
		c.per, c.ngroups = nblocks, 1
		c.ws = l.heap.add(16, nil, "the cooperative launch's grid workspace")
	} else {
		c.per, c.ngroups = c.size, nblocks/c.size
	}
	l.cl = c
	return nil
}

// grouped reports whether blocks run in co-scheduled groups of more than one.
func (c *clusterCfg) grouped() bool { return c != nil && c.per > 1 }

// groupBlock is the linear block index of the i-th block of group g.
func (c *clusterCfg) groupBlock(grid [3]int, g, i int) int {
	cl := g*(c.per/c.size) + i/c.size // linear cluster index
	r := i % c.size
	cx, cy, cz := cl%c.ncl[0], (cl/c.ncl[0])%c.ncl[1], cl/(c.ncl[0]*c.ncl[1])
	rx, ry, rz := r%c.dims[0], (r/c.dims[0])%c.dims[1], r/(c.dims[0]*c.dims[1])
	x, y, z := cx*c.dims[0]+rx, cy*c.dims[1]+ry, cz*c.dims[2]+rz
	return (z*grid[1]+y)*grid[0] + x
}

// newGroup makes a slot's group: its blocks (the first is l.blk), their warps and clusters.
func (l *launcher) newGroup(first *block, mk func() *block) {
	c := l.cl
	g := &groupState{}
	for i := 0; i < c.per; i++ {
		b := first
		if i > 0 {
			b = mk()
		}
		b.gidx, b.rank = i, i%c.size
		if b.rank == 0 {
			g.clus = append(g.clus, &clusterState{})
		}
		cs := g.clus[len(g.clus)-1]
		cs.blocks = append(cs.blocks, b)
		b.clu = cs
		g.blocks = append(g.blocks, b)
		for _, w := range b.warps {
			w.gid = len(g.warps)
			g.warps = append(g.warps, w)
		}
	}
	l.grp = g
}

// single gives a block of an ungrouped launch its own cluster of one.
func (b *block) single() {
	b.clu = &clusterState{blocks: []*block{b}}
}

// reset empties a cluster's barrier.
func (cs *clusterState) reset() {
	cs.arrived, cs.done, cs.waiters = 0, 0, cs.waiters[:0]
}

// setClusterRegs fills the cluster special registers of a warp for its block.
func (l *launcher) setClusterRegs(w *warp) {
	c := l.cl
	b := w.blk
	if b.clu == nil {
		b.single()
	}
	if w.id == 0 && b.rank == 0 {
		b.clu.reset()
	}
	b.over = false
	w.cwait = false
	w.carr, w.cwt = [32]uint32{}, [32]uint32{}
	r := w.regs
	set := func(h int, v uint64) {
		row := r[h*32 : h*32+32]
		for lane := range row {
			row[lane] = v
		}
	}
	for k := 0; k < 3; k++ {
		set(hClusterCtaidX+k, uint64(b.idx[k]%c.dims[k]))
		set(hClusteridX+k, uint64(b.idx[k]/c.dims[k]))
	}
	rx, ry, rz := b.idx[0]%c.dims[0], b.idx[1]%c.dims[1], b.idx[2]%c.dims[2]
	set(hClusterCtarank, uint64(rx+c.dims[0]*(ry+c.dims[1]*rz)))
}

// initClusterRegs fills the cluster special registers that are the same for every block.
func (l *launcher) initClusterRegs(w *warp) {
	c := l.cl
	r := w.regs
	set := func(h int, v uint64) {
		row := r[h*32 : h*32+32]
		for lane := range row {
			row[lane] = v
		}
	}
	for k := 0; k < 3; k++ {
		set(hClusterNctaidX+k, uint64(c.dims[k]))
		set(hNclusteridX+k, uint64(c.ncl[k]))
	}
	set(hClusterNctarank, uint64(c.size))
	set(hIsExplicitCluster, b2u(c.explicit))
	if c.ws != nil {
		set(hEnvreg1, c.ws.base>>32)
		set(hEnvreg2, c.ws.base&0xffffffff)
	} else {
		set(hEnvreg1, 0)
		set(hEnvreg2, 0)
	}
}

// beginBlock prepares block blk to run as linear block b: its index, SM, shared memory,
// barriers, mbarriers and warps reset (runBlock, cluster groups and the Stepper).
func (l *launcher) beginBlock(blk *block, b int) {
	blk.lin = b
	blk.idx = [3]int{b % l.grid[0], (b / l.grid[0]) % l.grid[1], b / (l.grid[0] * l.grid[1])}
	blk.sm = b % l.numSMs
	clear(blk.shared)
	blk.exitedThreads = 0
	for i := range blk.bars {
		blk.bars[i] = barrier{waiters: blk.bars[i].waiters[:0]}
	}
	blk.mbars = blk.mbars[:0]
	kfn := l.prog.kernel
	for _, w := range blk.warps {
		l.resetWarp(w, kfn)
		w.issues = w.issues[:0]
		w.async = w.async[:0]
		w.traced = l.tr != nil && b == l.cfg.Trace.Block && w.id >= l.cfg.Trace.WarpLo && w.id <= l.cfg.Trace.WarpHi
	}
}

// runGroup runs every warp of every block of group g to completion.
func (l *launcher) runGroup(g int) error {
	gs := l.grp
	for i, blk := range gs.blocks {
		l.beginBlock(blk, l.cl.groupBlock(l.grid, g, i))
	}
	for _, cs := range gs.clus {
		cs.reset()
	}
	gs.cshTag++
	if gs.chks != nil {
		for _, k := range gs.chks {
			k.startBlock()
		}
	}
	q := quantum
	if l.cfg.sched.quantum > 0 {
		q = l.cfg.sched.quantum
	}
	rev := l.cfg.sched.reverse || l.cfg.Reverse
	n := len(gs.warps)
	for {
		progressed, remaining := false, 0
		for i := 0; i < n; i++ {
			w := gs.warps[i]
			if rev {
				w = gs.warps[n-1-i]
			}
			if w.done {
				continue
			}
			remaining++
			if w.waiting {
				continue
			}
			l.blk = w.blk
			if gs.chks != nil {
				l.chk = gs.chks[w.blk.gidx]
			}
			if err := l.runWarp(w, q); err != nil {
				return err
			}
			progressed = true
			if err := l.check(w); err != nil {
				return err
			}
			if w.done && !w.blk.over {
				if err := l.endGroupBlock(w.blk); err != nil {
					return err
				}
			}
		}
		if remaining == 0 {
			return nil
		}
		if !progressed {
			return l.groupDeadlock()
		}
	}
}

// endGroupBlock finishes a block of a group once all its warps are done.
func (l *launcher) endGroupBlock(blk *block) error {
	for _, w := range blk.warps {
		if !w.done {
			return nil
		}
	}
	blk.over = true
	if err := l.wgmmaBlockEnd(blk); err != nil {
		return err
	}
	if l.chk != nil {
		l.chk.endBlock(blk)
	}
	if l.cfg.Issues != nil && l.par == nil {
		streams := make([][]Issue, len(blk.warps))
		for i, w := range blk.warps {
			streams[i] = w.issues
		}
		asyncIssues(l.cfg, blk, false)
		l.cfg.Issues(blk.lin, streams)
	}
	return nil
}

// groupDeadlock is the error of a group whose live warps all wait.
func (l *launcher) groupDeadlock() error {
	for _, blk := range l.grp.blocks {
		if e := l.clusterDeadlock(blk); e != nil {
			return e
		}
	}
	for _, blk := range l.grp.blocks {
		for _, w := range blk.warps {
			if w.waiting && !w.cwait {
				return l.deadlock(blk)
			}
		}
	}
	return l.internal(l.grp.warps[0], -1, "group deadlock with no waiting warp")
}

// clusterDeadlock is the error when warps of blk wait at a cluster barrier that
// can never complete (nil when none waits there).
func (l *launcher) clusterDeadlock(blk *block) *Error {
	cs := blk.clu
	if cs == nil {
		return nil
	}
	var first *warp
	var ids []int
	for _, w := range blk.warps {
		if w.waiting && w.cwait {
			if first == nil {
				first = w
			}
			ids = append(ids, w.id)
		}
	}
	if first == nil {
		return nil
	}
	target := l.clusterTarget(cs)
	var parts []string
	for _, b := range cs.blocks {
		var other []string
		for _, w := range b.warps {
			switch {
			case w.done:
			case w.waiting && w.cwait:
			case w.waiting:
				other = append(other, fmt.Sprintf("warp %d waits at barrier %d (PTX line %d)", w.id, w.barID, l.prog.info[w.barPC].line))
			}
		}
		if len(other) > 0 {
			parts = append(parts, fmt.Sprintf("in block (%d,%d,%d) %s", b.idx[0], b.idx[1], b.idx[2], strings.Join(other, ", ")))
		}
	}
	cause := fmt.Sprintf("warps %s of block (%d,%d,%d) wait at barrier.cluster.wait; every thread of the cluster's %d blocks that has not exited must arrive (barrier.cluster.arrive) first",
		warpList(ids), blk.idx[0], blk.idx[1], blk.idx[2], len(cs.blocks))
	if len(parts) > 0 {
		cause += "; " + strings.Join(parts, "; ")
	}
	e := l.laneError(first, first.barPC, firstLane(first.lanes&^first.exited), Deadlock, 0,
		fmt.Sprintf("deadlock: the cluster barrier can never complete (%d of %d threads arrived)", cs.arrived, target), cause)
	e.Warps = ids
	return e
}

// clusterTarget is how many threads a cluster barrier phase waits for: every
// thread of the cluster that has not exited.
func (l *launcher) clusterTarget(cs *clusterState) int {
	n := 0
	for _, b := range cs.blocks {
		n += l.nthreads - b.exitedThreads
	}
	return n
}

// variants of a kCluster op (op.sub).
const (
	clArrive uint8 = iota
	clWait
	clMapa
	clGetRank
)

// clusterBarOp lowers barrier.cluster.arrive{.release,.relaxed}{.aligned} and
// barrier.cluster.wait{.acquire}{.aligned}.
func (fd *fnDecoder) clusterBarOp(in *ptx.Inst) (op, error) {
	o := op{kind: kCluster}
	arrive, wait := false, false
	for _, m := range in.Mods {
		switch m {
		case "cluster", "aligned", "release", "relaxed", "acquire":
		case "arrive":
			arrive = true
		case "wait":
			wait = true
		default:
			return op{}, fmt.Errorf("barrier.cluster modifier .%s is not modelled", m)
		}
	}
	if arrive == wait || len(in.Args) != 0 {
		return op{}, errors.New("expected barrier.cluster.arrive or barrier.cluster.wait, without operands")
	}
	if wait {
		o.sub = clWait
	}
	return o, nil
}

// mapaOp lowers mapa{.shared::cluster}.{u32,u64} d, a, rank and
// getctarank{.shared::cluster}.{u32,u64} d, a.
func (fd *fnDecoder) mapaOp(in *ptx.Inst) (op, error) {
	o := op{kind: kCluster, sub: clMapa, space: spGeneric}
	if in.Op == "getctarank" {
		o.sub = clGetRank
	}
	for _, m := range in.Mods {
		switch m {
		case "shared::cluster":
			o.space = spShared
		case "u32", "u64", "b32", "b64":
		default:
			return op{}, fmt.Errorf("%s modifier .%s is not modelled", in.Op, m)
		}
	}
	want := 3
	if o.sub == clGetRank {
		want = 2
	}
	if len(in.Args) != want {
		return op{}, fmt.Errorf("%s takes %d operands", in.Op, want)
	}
	r, m, err := fd.dstReg(in.Args[0])
	if err != nil {
		return op{}, err
	}
	o.nd, o.dst[0], o.dmask[0] = 1, r, m
	for i := 1; i < want; i++ {
		v, err := fd.value(in.Args[i], ptx.U64)
		if err != nil {
			return op{}, err
		}
		o.src[i-1] = v
	}
	o.ns = uint8(want - 1)
	return o, nil
}

// clusterExec runs a kCluster op; wait reports that the warp must wait at the cluster barrier.
func (l *launcher) clusterExec(w *warp, o *op, pc int32, exec uint32, r []uint64) (wait bool, err error) {
	blk := w.blk
	if blk.clu == nil {
		blk.single()
	}
	cs := blk.clu
	switch o.sub {
	case clArrive:
		l.stats.Barriers++
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			if w.carr[lane] != w.cwt[lane] {
				return false, l.laneError(w, pc, lane, Trap, 0, "barrier.cluster.arrive twice without barrier.cluster.wait",
					"a thread must wait for the cluster barrier's phase it arrived on before it arrives again")
			}
			w.carr[lane]++
		}
		cs.arrived += bits.OnesCount32(exec)
		l.clusterComplete(cs)
		return false, nil
	case clWait:
		need := false
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			if w.carr[lane] == w.cwt[lane] {
				return false, l.laneError(w, pc, lane, Trap, 0, "barrier.cluster.wait without barrier.cluster.arrive",
					"a thread must arrive on the cluster barrier (barrier.cluster.arrive) before it waits")
			}
			if cs.done < w.carr[lane] {
				need = true
			}
		}
		if !need {
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				w.cwt[lane] = w.carr[lane]
			}
			return false, nil
		}
		w.waiting, w.cwait, w.barPC, w.cwaitMask = true, true, pc, exec
		cs.waiters = append(cs.waiters, w)
		return true, nil
	case clMapa, clGetRank:
		d := int(o.dst[0]) * 32
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			a := o.src[0].get(r, lane)
			off := a
			if o.space == spGeneric {
				if sp, x := classify(a); sp == spShared {
					off = x
				} else {
					return false, l.laneError(w, pc, lane, Trap, a, fmt.Sprintf("%s of %#x, which is not a shared-memory address", l.prog.info[pc].text, a),
						"mapa and getctarank take the address of a shared variable (generic, or shared::cluster)")
				}
			} else {
				off = uint64(uint32(a))
			}
			rank, x := uint64(blk.rank), off
			if off >= 1<<clusterShift {
				rank, x = off>>clusterShift-1, off&(1<<clusterShift-1)
			}
			if x >= uint64(len(blk.shared)) {
				return false, l.laneError(w, pc, lane, SharedOutOfRange, a, fmt.Sprintf("%s of shared offset %#x", l.prog.info[pc].text, x),
					fmt.Sprintf("the block has %d bytes of shared memory", len(blk.shared)))
			}
			if o.sub == clGetRank {
				r[d+lane] = rank & o.dmask[0]
				continue
			}
			to := o.src[1].get(r, lane) & 0xffffffff
			if to >= uint64(len(cs.blocks)) {
				return false, l.laneError(w, pc, lane, Trap, a, fmt.Sprintf("mapa to block rank %d", to),
					fmt.Sprintf("the cluster has %d blocks (ranks 0 to %d)", len(cs.blocks), len(cs.blocks)-1))
			}
			v := (to+1)<<clusterShift | x
			if o.space == spGeneric {
				v += sharedWin
			}
			r[d+lane] = v & o.dmask[0]
		}
		return false, nil
	}
	return false, l.internal(w, pc, "unknown cluster op")
}

// clusterComplete ends the cluster barrier's phase when every live thread has
// arrived, and releases the warps whose waits it satisfies.
func (l *launcher) clusterComplete(cs *clusterState) {
	if cs.arrived < l.clusterTarget(cs) || cs.arrived == 0 && len(cs.waiters) == 0 {
		return
	}
	cs.done++
	cs.arrived = 0
	// Every thread of each block arrived: for the block's own checks the phase is
	// a block-wide barrier too (accesses before it are ordered with those after).
	for _, b := range cs.blocks {
		if k := l.checkerOf(b); k != nil {
			k.released(b, -1, 0)
		}
	}
	keep := cs.waiters[:0]
	for _, x := range cs.waiters {
		ok := true
		for m := x.cwaitMask; m != 0; m &= m - 1 {
			if lane := bits.TrailingZeros32(m); cs.done < x.carr[lane] {
				ok = false
			}
		}
		if !ok {
			keep = append(keep, x)
			continue
		}
		for m := x.cwaitMask; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros32(m)
			x.cwt[lane] = x.carr[lane]
		}
		x.waiting, x.cwait = false, false
	}
	cs.waiters = keep
}

// clusterExit accounts for exiting lanes at the cluster barrier: lanes that
// arrived on the current phase no longer count, nor does the phase wait for them.
func (l *launcher) clusterExit(w *warp, lanes uint32) {
	cs := w.blk.clu
	if cs == nil {
		return
	}
	for m := lanes; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		if w.carr[lane] != w.cwt[lane] && w.carr[lane] == cs.done+1 {
			cs.arrived--
		}
	}
	if cs.arrived > 0 || len(cs.waiters) > 0 {
		l.clusterComplete(cs)
	}
}

// remoteShared returns the n bytes at shared::cluster address a (one that names
// a block rank) for a lane, or an error naming the line.
func (l *launcher) remoteShared(w *warp, pc int32, lane int, a uint64, n int, kind mem.Kind) ([]byte, error) {
	rank, off := a>>clusterShift-1, a&(1<<clusterShift-1)
	cs := w.blk.clu
	size := 1
	if cs != nil {
		size = len(cs.blocks)
	}
	if a >= 1<<32 || rank >= uint64(size) {
		return nil, l.laneError(w, pc, lane, SharedOutOfRange, a,
			fmt.Sprintf("distributed shared %s of %d bytes at shared::cluster address %#x (block rank %d)", kindWords[kind], n, a, rank),
			fmt.Sprintf("the cluster has %d block(s) (ranks 0 to %d); mapa makes the address of another block's shared variable", size, size-1))
	}
	var t *block
	if cs == nil {
		t = w.blk
	} else {
		t = cs.blocks[rank]
	}
	if off+uint64(n) > uint64(len(t.shared)) {
		return nil, l.laneError(w, pc, lane, SharedOutOfRange, a,
			fmt.Sprintf("distributed shared %s of %d bytes at offset %#x of block (%d,%d,%d) (cluster rank %d)", kindWords[kind], n, off, t.idx[0], t.idx[1], t.idx[2], rank),
			fmt.Sprintf("the block has %d bytes of shared memory", len(t.shared)))
	}
	if t != w.blk && t.over {
		return nil, l.laneError(w, pc, lane, Trap, a,
			fmt.Sprintf("distributed shared %s of block (%d,%d,%d) (cluster rank %d), which has exited", kindWords[kind], t.idx[0], t.idx[1], t.idx[2], rank),
			"a block's shared memory exists only while it runs: synchronise the cluster (cluster.sync()) before a block that others read exits")
	}
	return t.shared[off : off+uint64(n)], nil
}

// cooperativeHint explains a trap in a kernel that reads the cooperative-launch
// workspace when the launch is not cooperative ("" otherwise).
func (l *launcher) cooperativeHint() string {
	if l.cl != nil && l.cl.coop || !l.prog.readsEnvreg {
		return ""
	}
	return "the kernel reads %envreg1/%envreg2, the grid workspace of a cooperative launch, which is 0 in a launch that is not cooperative " +
		"(grid_group::sync() traps then, as on a GPU): launch it with <<<grid, block, shmem, cooperative>>>"
}

// clusterRecord hands a grouped launch's shared access to the checkers: the
// lanes that access the running block's own shared memory go to its checker
// (with plain offsets), writes to another block's mark those bytes written
// for that block's initcheck, and with racecheck every lane goes through the
// distributed shared memory shadow (races between blocks of the cluster).
func (l *launcher) clusterRecord(w *warp, pc int32, mask uint32, addr *[32]uint64, kind mem.Kind, n int) {
	var chks []*checker
	dsmem := false
	if gs := l.grp; gs != nil {
		chks, dsmem = gs.chks, gs.csh != nil
	}
	var own uint32
	var offs [32]uint64
	write, read, atomic := kind != mem.Load, kind != mem.Store, kind == mem.Atomic || kind == mem.Reduction
	for m := mask; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		a := addr[lane]
		t, off := w.blk, a
		if a >= 1<<clusterShift {
			t, off = w.blk.clu.blocks[a>>clusterShift-1], a&(1<<clusterShift-1)
		}
		offs[lane] = off
		if t == w.blk {
			own |= 1 << uint(lane)
		} else if write && chks != nil {
			if k := chks[t.gidx]; k.sh != nil {
				k.asyncFill(off, uint64(n))
			}
		}
		if dsmem {
			l.dsmemCheck(w, pc, lane, t, off, n, read, write, atomic)
		}
	}
	if own != 0 {
		l.chk.access(w, pc, own, &offs, spShared, kind, n)
	}
}

// dsmemCheck checks one lane's shared access against the accesses of other
// blocks of the cluster to the same word: the two are ordered only when the
// earlier thread arrived on a cluster barrier phase the later one has waited
// for (barrier.cluster.arrive / wait; a race otherwise, unless both are atomic).
func (l *launcher) dsmemCheck(w *warp, pc int32, lane int, t *block, off uint64, n int, read, write, atomic bool) {
	gs := l.grp
	me := int16(w.blk.gidx + 1)
	thr := int16(w.id*32 + lane)
	var f uint8
	if atomic {
		f = fAtomic
	}
	waited := w.cwt[lane]
	for wi := off >> 2; wi <= (off+uint64(n)-1)>>2; wi++ {
		idx := t.gidx*((len(t.shared)+3)/4) + int(wi)
		if idx >= len(gs.csh) {
			return
		}
		e := &gs.csh[idx]
		if e.tag != gs.cshTag {
			*e = cword{tag: gs.cshTag}
		}
		conflict := func(p crec, pw bool) bool {
			return p.blk != 0 && p.blk != me && p.arr >= waited && !(atomic && p.f&fAtomic != 0) && (pw || write)
		}
		if conflict(e.w, true) {
			l.dsmemRace(w, pc, lane, t, wi*4, n, write, atomic, e.w, true)
		} else if write && conflict(e.r, false) {
			l.dsmemRace(w, pc, lane, t, wi*4, n, write, atomic, e.r, false)
		}
		rec := crec{blk: me, thr: thr, f: f, pc: pc, arr: w.carr[lane]}
		if write {
			e.w = rec
		}
		if read && !write {
			e.r = rec
		}
	}
}

// dsmemRace reports a race between blocks of a cluster on a shared word.
func (l *launcher) dsmemRace(w *warp, pc int32, lane int, t *block, off uint64, n int, write, atomic bool, p crec, pw bool) {
	k := l.chk
	if k == nil {
		return
	}
	ob := l.grp.blocks[p.blk-1]
	f := Finding{Kind: FindRace, Space: "shared", PC: int(pc), OtherPC: int(p.pc), Access: accessWord(write, atomic),
		OtherAccess: accessWord(pw, p.f&fAtomic != 0), Block: w.blk.idx, Thread: threadIndex(w.id, lane, l.block),
		HasOther: true, OtherBlock: ob.idx, OtherThread: threadIndex(int(p.thr)/32, int(p.thr)%32, l.block),
		Addr: off, Size: n, Arg: -1, Variable: k.sharedName(off, n)}
	f.Detail = fmt.Sprintf("%s of %s in the shared memory of block (%d,%d,%d) by block (%d,%d,%d) thread (%d,%d,%d) at PTX line %d races with the %s by block (%d,%d,%d) thread (%d,%d,%d) at PTX line %d: no cluster barrier (barrier.cluster.arrive then wait, cluster.sync()) orders them",
		f.Access, orOffset(f.Variable, off), t.idx[0], t.idx[1], t.idx[2], f.Block[0], f.Block[1], f.Block[2], f.Thread[0], f.Thread[1], f.Thread[2],
		l.prog.info[pc].line, f.OtherAccess, ob.idx[0], ob.idx[1], ob.idx[2], f.OtherThread[0], f.OtherThread[1], f.OtherThread[2], l.prog.info[p.pc].line)
	k.add(f)
}

// orOffset names a shared word by its variable, else its offset.
func orOffset(v string, off uint64) string {
	if v != "" {
		return v
	}
	return fmt.Sprintf("offset %#x", off)
}

// positions is how many units the scheduler runs: groups, or blocks.
func (l *launcher) positions() int {
	if l.cl.grouped() {
		return l.cl.ngroups
	}
	return l.nblocks
}

// warpAt is the warp with group index gid of the slot.
func (l *launcher) warpAt(gid int) *warp {
	if l.grp != nil {
		return l.grp.warps[gid]
	}
	return l.blk.warps[gid]
}

// groupCheckers gives each block of a slot's group a checker of its own
// (merged at commit, block by block), and the group a distributed shared
// memory shadow when racecheck is on.
func (l *launcher) groupCheckers(s *blockSlot) {
	g := l.grp
	base := l.chk
	ck := base.c
	ck.MaxFindings = 1 << 30
	words := (l.prog.sharedSize + 3) / 4
	if need := len(g.blocks) * words * 64; (ck.Race || ck.Init) && need > maxGroupShadow {
		// One checker per co-scheduled block: bounded like the global shadow.
		ck.Race, ck.Init = false, false
		base.notes = appendOnce(base.notes, fmt.Sprintf("racecheck and initcheck were off: the %d co-scheduled blocks of a group would need %d MB of shadow state for their shared memory (the limit is %d MB)",
			len(g.blocks), need>>20, maxGroupShadow>>20))
	}
	for _, blk := range g.blocks {
		l.blk = blk
		k := newChecker(l, ck)
		if base.c.Init && l.heap.anyUndef() {
			k.glog = &globalLog{}
		}
		g.chks = append(g.chks, k)
	}
	l.blk = g.blocks[0]
	l.chk = g.chks[0]
	s.ownCheck = true
	if ck.Race && l.cl.size > 1 {
		g.csh = make([]cword, len(g.blocks)*words)
	}
}

// waitScope is the set of warps an mbarrier deadlock must consider for w (its
// group's, or its block's) and an identifier of that set.
func (l *launcher) waitScope(w *warp) ([]*warp, int) {
	if l.grp != nil {
		return l.grp.warps, l.grp.blocks[0].lin
	}
	return w.blk.warps, w.blk.lin
}

// sharedFill marks n shared bytes at a (a shared::cluster address of another
// block of the cluster, or the block's own offset) written by a bulk copy, for initcheck.
func (l *launcher) sharedFill(w *warp, a, n uint64) {
	if a < 1<<clusterShift {
		l.chk.asyncFill(a, n)
		return
	}
	if l.grp == nil || l.grp.chks == nil || w.blk.clu == nil {
		return
	}
	rank := a>>clusterShift - 1
	if rank >= uint64(len(w.blk.clu.blocks)) {
		return
	}
	if k := l.grp.chks[w.blk.clu.blocks[rank].gidx]; k.sh != nil {
		k.asyncFill(a&(1<<clusterShift-1), n)
	}
}

// remoteLanes returns the lanes of mask whose shared address is another block's shared
// memory (a shared::cluster address naming a rank other than the running block's).
func remoteLanes(w *warp, mask uint32, addr *[32]uint64) uint32 {
	cs := w.blk.clu
	if cs == nil {
		return 0
	}
	var out uint32
	for m := mask; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		if a := addr[lane]; a >= 1<<clusterShift {
			if r := a>>clusterShift - 1; r < uint64(len(cs.blocks)) && cs.blocks[r] != w.blk {
				out |= 1 << uint(lane)
			}
		}
	}
	return out
}

// anyCluster reports whether some lane's shared address names a cluster block rank.
func anyCluster(mask uint32, addr *[32]uint64) bool {
	for m := mask; m != 0; m &= m - 1 {
		if addr[bits.TrailingZeros32(m)] >= 1<<clusterShift {
			return true
		}
	}
	return false
}

// sortGroupLog orders a group's logged accesses block by block (group order),
// keeping each block's own order, so that a consumer that joins accesses to the
// blocks' issue streams, which follow block by block, finds each block's together.
func (s *blockSlot) sortGroupLog() {
	g := s.l.grp
	at := make(map[int]int, len(g.blocks))
	for i, b := range g.blocks {
		at[b.lin] = i
	}
	if s.log == nil {
		return
	}
	e := s.log.ents
	sort.SliceStable(e, func(i, j int) bool { return at[e[i].block] < at[e[j].block] })
}

// cutGroup drops a group's issue streams: its access log is handed over before
// the group ends, interleaved between its blocks, so the streams could not be
// joined to their accesses (the timing model is then skipped with a note).
func (s *blockSlot) cutGroup() {
	s.cut = true
	for _, w := range s.l.grp.warps {
		w.issues = nil
	}
}

// checkerOf is the checker of block b (nil when no check is on).
func (l *launcher) checkerOf(b *block) *checker {
	if l.grp != nil {
		if l.grp.chks == nil {
			return nil
		}
		return l.grp.chks[b.gidx]
	}
	return l.chk
}

// appendOnce appends s to list unless it is there already.
func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
