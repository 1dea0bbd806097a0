package timing

import (
	"context"
	"math"

	"github.com/kernelscope/kernelscope/gpu/mem"
)

// Thread-block clusters in the replay (docs/clusters.md, "Timing"). The blocks of a
// cluster are co-dispatched: the model holds each block added after ClusterBlock until
// every block of its cluster has been added, then dispatches them all in the same cycle
// (waiting for as many free slots first). barrier.cluster.arrive counts the warp on the
// cluster's pending phase and does not wait (a release arrival, the default, first waits
// for the warp's outstanding memory accesses: ptxas puts MEMBAR.ALL.GPU before UCGABAR_ARV,
// testdata/measured/cluster/h200/cluster.sass; .relaxed is UCGABAR_ARV alone);
// barrier.cluster.wait holds the warp until every live warp of every block of the cluster
// has arrived on the phase it arrived on, then releases it clusterBarRelease cycles after a block barrier would (the last
// arrival's barrier-unit slot plus the block barrier's release). A warp that exits after
// arriving and before the phase completes is taken back from the count, as in the
// functional simulator. A launch without clusters is one of clusters of one block.
// Not modelled: which SMs (GPC) a cluster may use: its blocks take the least loaded SMs.

// Cluster barrier kinds of an instruction (Inst.cluBar).
const (
	cluNone          uint8 = iota
	cluArrive              // barrier.cluster.arrive (.release, the default): a fence first
	cluArriveRelaxed       // barrier.cluster.arrive.relaxed
	cluWait                // barrier.cluster.wait
)

// cluster is one thread-block cluster of the replay.
type cluster struct {
	blocks  []*block // dispatched, in the order added (rank order)
	arrived int      // warps arrived on the pending phase
	lastArr int64    // the latest of their arrivals at the barrier unit
	done    int32    // phases completed
	relAt   int64    // when the last completed phase released its warps
	waiters []*warp  // warps held at barrier.cluster.wait on the pending phase
}

// heldBlock is a block added to a cluster whose other blocks have not all been added.
type heldBlock struct {
	warps []WarpStream
	accs  []mem.Access
	ops   []AsyncOp
}

// clusterHold is the cluster whose blocks the model is collecting.
type clusterHold struct {
	next         bool // ClusterBlock was called for the next block
	id, size     int  // of the next block
	heldID, want int  // the held blocks' cluster and its size
	blocks       []heldBlock
}

// ClusterBlock says that the next block added (AddBlock, AddBlockAccesses, AddBlockAsync)
// belongs to cluster id of size blocks: the model holds the blocks of a cluster until
// size of them have been added (or a block of another cluster, or Finish, comes), then
// dispatches them together, and barrier.cluster completes over all of them.
func (m *Model) ClusterBlock(id, size int) {
	m.clHold.next, m.clHold.id, m.clHold.size = size > 1, id, size
}

// addClustered takes a block of a cluster (ClusterBlock): held until its cluster is
// complete, then dispatched with the others.
func (m *Model) addClustered(ctx context.Context, warps []WarpStream, accs []mem.Access) error {
	h := &m.clHold
	h.next = false
	if len(h.blocks) > 0 && h.heldID != h.id {
		if err := m.flushCluster(ctx); err != nil {
			return err
		}
	}
	h.heldID, h.want = h.id, h.size
	h.blocks = append(h.blocks, heldBlock{warps: warps, accs: accs, ops: m.async.next})
	if len(h.blocks) >= h.want {
		return m.flushCluster(ctx)
	}
	return nil
}

// flushCluster dispatches the held blocks of a cluster together once enough slots are
// free (as many as fit, when the cluster is larger than the GPU's slots: the rest follow
// as slots free, and their barrier waits may then be forced, Result.AsyncForced).
func (m *Model) flushCluster(ctx context.Context) error {
	h := &m.clHold
	held := h.blocks
	h.blocks = nil
	if len(held) == 0 {
		return nil
	}
	cl := &cluster{}
	for i := 0; i < len(held); {
		need := min(len(held)-i, len(m.sms)*m.cfg.BlocksPerSM)
		if err := m.run(ctx, func() bool { return m.freeSlots() >= need }); err != nil {
			return err
		}
		for ; i < len(held) && m.freeSM() != nil; i++ {
			hb := &held[i]
			m.nextAccs, m.async.next = hb.accs, hb.ops
			m.dispatchIn(m.freeSM(), hb.warps, cl)
			m.nextAccs, m.async.next = nil, nil
		}
		m.expectPeers(cl)
	}
	return nil
}

// freeSlots is how many more blocks the SMs can take now.
func (m *Model) freeSlots() int {
	n := 0
	for _, s := range m.sms {
		n += max(m.cfg.BlocksPerSM-s.blocks, 0)
	}
	return n
}

// clusterBar times barrier.cluster.arrive (kind cluArrive) or barrier.cluster.wait
// (cluWait) issued by warp w at pc on SM s.
func (m *Model) clusterBar(s *sm, w *warp, pc int32, kind uint8) {
	b := w.blk
	cl := b.clu
	if cl == nil {
		cl = &cluster{blocks: []*block{b}} // a launch without clusters: the block alone
		b.clu = cl
	}
	switch kind {
	case cluArrive, cluArriveRelaxed:
		if w.carr == cl.done+1 {
			return // arrived twice without a wait (the simulator reports it)
		}
		start := m.now
		if kind == cluArrive && w.memDone > start {
			// a release arrival is MEMBAR.ALL.GPU + UCGABAR_ARV in SASS: it waits for the
			// warp's outstanding accesses first, the warp stalled on membar
			start = w.memDone
			if start > w.ctrl {
				w.ctrl, w.ctrlWhy, w.ctrlPC = start, Membar, pc
			}
		}
		at := max(start, s.barFree) + int64(m.tab.Bar.ArriveCycles)
		if start == m.now {
			s.barFree = at
		}
		cl.lastArr = max(cl.lastArr, at)
		w.carr = cl.done + 1
		cl.arrived++
		m.tryCluster(cl)
	case cluWait:
		switch {
		case w.carr == 0:
			// waiting with no arrival (the simulator reports it): nothing to wait for
		case w.carr <= cl.done:
			if cl.relAt > m.now && cl.relAt > w.ctrl {
				w.ctrl, w.ctrlWhy, w.ctrlPC = cl.relAt, Barrier, pc
			}
		default:
			w.ctrl, w.ctrlWhy, w.ctrlPC = math.MaxInt64, Barrier, pc
			cl.waiters = append(cl.waiters, w)
		}
	}
}

// clusterExit takes an exiting warp of a cluster out of its barrier's count.
func (m *Model) clusterExit(w *warp) {
	cl := w.blk.clu
	if cl == nil {
		return
	}
	if w.carr == cl.done+1 {
		cl.arrived-- // arrived and exits before the phase completed: taken back
	}
	m.tryCluster(cl)
}

// tryCluster completes the cluster's pending phase once every live warp of its blocks
// has arrived on it, releasing the waiters clusterBarRelease cycles after a block
// barrier's release.
func (m *Model) tryCluster(cl *cluster) {
	if cl.arrived <= 0 {
		return
	}
	live := 0
	for _, b := range cl.blocks {
		live += b.live
	}
	if cl.arrived < live {
		return
	}
	cl.done++
	cl.relAt = cl.lastArr + int64(m.tab.Bar.ReleaseCycles) + clusterBarRelease
	for _, x := range cl.waiters {
		x.ctrl = max(cl.relAt, m.now+1)
		m.setWake(x, m.now)
		m.wakeBy(m.spOf(x), m.now+1)
	}
	clear(cl.waiters)
	cl.waiters, cl.arrived, cl.lastArr = cl.waiters[:0], 0, 0
}

// unstickCluster releases the warps held at a cluster barrier when nothing else can
// happen (a cluster whose blocks were not all replayed together), counting them in
// Result.AsyncForced; it reports whether it released any.
func (m *Model) unstickCluster() bool {
	any := false
	for _, b := range m.pending {
		cl := b.clu
		if cl == nil || len(cl.waiters) == 0 {
			continue
		}
		for _, x := range cl.waiters {
			x.ctrl = m.now + 1
			m.setWake(x, m.now)
			m.wakeBy(m.spOf(x), m.now+1)
			m.res.AsyncForced++
		}
		any = true
		cl.done++
		cl.relAt = m.now + 1
		clear(cl.waiters)
		cl.waiters, cl.arrived, cl.lastArr = cl.waiters[:0], 0, 0
	}
	return any
}
