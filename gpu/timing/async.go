package timing

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/kernelscope/kernelscope/gpu/isa"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Asynchronous copies and mbarrier waits in the replay (docs/tensor-cores.md, "Timing of
// the asynchronous copies"). The functional simulator performs a bulk copy when it is
// issued; here it takes time: the SM's TMA unit moves its bytes at tmaBytesPerCycle
// (loads and stores share it), the bytes queue on the GPU-wide L2 and DRAM bandwidth like
// other traffic, and a load completes its bytes on its mbarrier phase tmaLatency cycles
// after the transfer. A phase completes when its last contribution (an arrival, expect_tx
// or complete_tx, or a copy's bytes) has completed; a successful try_wait/test_wait
// holds its warp until then (failed waits of the functional run are not replayed: on the
// H200 a try_wait suspends the warp until the phase completes). cp.async.bulk.wait_group
// holds the warp until its bulk stores are read (.read) or done. Nsight Compute reports
// both holds as long_scoreboard (testdata/measured/tensor4: the BRA after
// SYNCS.PHASECHK.TRANS64.TRYWAIT and the instruction after UTMASTG), and so does the model.
const (
	// tmaBytesPerCycle: the rate of one SM's TMA unit in each direction (loads into shared
	// memory and stores out of it are timed apart). From tma_lat (one thread, a cold
	// tensor, 8 loads per box size; median 813 cycles for 1 KB boxes and 1338 for 16 KB):
	// 15360 bytes in 525 cycles. Calibration.
	tmaBytesPerCycle = 29.26
	// tmaLatency: cycles from the end of a load's transfer to its mbarrier completion:
	// 813 - 1024/tmaBytesPerCycle (tma_lat). Calibration.
	tmaLatency = 778
	// tmaStoreRead: cycles after a store's transfer until wait_group.read returns, and
	// tmaStoreDone until wait_group returns (tma_lat: 1 KB stores, 89 and 95 cycles).
	// Calibration.
	tmaStoreRead = 54
	tmaStoreDone = 60
)

// AsyncKind is the kind of an AsyncOp.
type AsyncKind uint8

// The kinds of AsyncOp.
const (
	AsyncArrive AsyncKind = iota + 1 // an arrival (or expect_tx, complete_tx) on a phase: complete when the instruction's result is
	AsyncLoad                        // a bulk copy into shared memory completing its bytes on a phase
	AsyncStore                       // a bulk copy out of shared memory (bulk_group)
	AsyncWait                        // a successful mbarrier wait for a phase
)

// AsyncOp is an mbarrier or bulk-copy effect of one event of a block (AddBlockAsync).
type AsyncOp struct {
	Warp, Pos int32 // the event: warp index in the block and position in its stream
	Kind      AsyncKind
	Bar       int32 // the block's mbarrier (index); < 0: none (a store, or another block's)
	Phase     int32 // the phase of Bar it contributes to or waits for; < 0: none
	Bytes     int64 // copies: bytes moved
	// Peer, when > 0, says Bar is an mbarrier of another block of the cluster (ClusterBlock):
	// the one added Peer-1'th among the cluster's blocks (its rank)
	Peer int32
}

// per-PC classes of asynchronous instructions
const (
	apNone      uint8 = iota
	apAsync           // mbarrier or bulk copy: its AsyncOps, if any, are applied at issue
	apWaitGroup       // cp.async.bulk.wait_group: wait for the warp's bulk stores
	apWaitRead        // cp.async.bulk.wait_group.read: wait until they are read
	apCpAsync         // cp.async (LDGSTS): joins the warp's open group
	apCpCommit        // cp.async.commit_group: closes the open group
	apCpWait          // cp.async.wait_group N / wait_all: waits for all but the N newest groups
)

// cpWaitKeep is the N of cp.async.wait_group N (0 for wait_all or an operand not an immediate).
func cpWaitKeep(di *isa.Inst) int32 {
	if di.PTX == nil || !di.Mods.Has(isa.FlagWaitGroup) {
		return 0
	}
	for _, a := range di.PTX.Args {
		if a.Kind == ptx.OpImm && a.Imm > 0 && a.Imm < math.MaxInt32 {
			return int32(a.Imm)
		}
	}
	return 0
}

// asyncModel is the model's state for asynchronous copies.
type asyncModel struct {
	pc      []uint8 // per pc: apNone...
	tmaFree []int64 // per SM and direction (2s: loads, 2s+1: stores): the TMA unit's next free cycle
	bar     []int64 // per pc: a barrier's release latency beyond a block barrier's (barrier.cluster.wait)
	keep    []int32 // per pc: cp.async.wait_group's N
	next    []AsyncOp
}

// mbPhase is one phase of one mbarrier of a resident block.
type mbPhase struct {
	left    int32   // contributions not yet issued
	done    int64   // the latest contribution's completion
	waiters []*warp // warps held until it completes
}

// asyncBlock is a resident block's mbarrier phases.
type asyncBlock struct {
	phases [][]mbPhase // per mbarrier, per phase
}

func (a *asyncModel) init(p *Program, sms int) {
	a.pc = make([]uint8, len(p.Insts))
	a.bar = make([]int64, len(p.Insts))
	a.keep = make([]int32, len(p.Insts))
	for i := range p.Insts {
		a.pc[i], a.bar[i], a.keep[i] = p.Insts[i].async, p.Insts[i].barRelease, p.Insts[i].cpKeep // program.go, decodedInst
	}
	a.tmaFree = make([]int64, 2*sms)
}

// AddBlockAsync is AddBlockAccesses for a block whose events had mbarrier or bulk-copy
// effects (ops, in any order): the copies are timed and the waits wait for their phases.
func (m *Model) AddBlockAsync(ctx context.Context, warps []WarpStream, accs []mem.Access, ops []AsyncOp) error {
	for i := range ops {
		o := &ops[i]
		if o.Warp < 0 || int(o.Warp) >= len(warps) || o.Pos < 0 || int(o.Pos) >= len(warps[o.Warp]) {
			return fmt.Errorf("%w: async op %d at warp %d position %d: no such event", ErrBadBlock, i, o.Warp, o.Pos)
		}
	}
	m.async.next = ops
	defer func() { m.async.next = nil }()
	return m.AddBlockAccesses(ctx, warps, accs)
}

// attachAsync gives a block being dispatched its ops (AddBlockAsync) and mbarrier phases.
func (m *Model) attachAsync(b *block) {
	ops := m.async.next
	if len(ops) == 0 {
		return
	}
	sort.SliceStable(ops, func(i, j int) bool {
		return ops[i].Warp < ops[j].Warp || ops[i].Warp == ops[j].Warp && ops[i].Pos < ops[j].Pos
	})
	ab := &asyncBlock{}
	for i := 0; i < len(ops); {
		j := i
		for j < len(ops) && ops[j].Warp == ops[i].Warp {
			j++
		}
		if w := int(ops[i].Warp); w < len(b.warps) {
			b.warps[w].aops = ops[i:j:j]
		}
		i = j
	}
	for _, o := range ops {
		if o.Peer == 0 {
			ab.expect(&o)
		}
	}
	b.async = ab
	for _, w := range b.warps {
		if w.done {
			m.flushAsync(w) // a warp with no event to issue contributes at once
		}
	}
}

// expect allocates the phase an op contributes to or waits for, and counts a contribution.
func (ab *asyncBlock) expect(o *AsyncOp) {
	if o.Bar < 0 || o.Phase < 0 {
		return
	}
	for int(o.Bar) >= len(ab.phases) {
		ab.phases = append(ab.phases, nil)
	}
	ps := ab.phases[o.Bar]
	for int(o.Phase) >= len(ps) {
		ps = append(ps, mbPhase{})
	}
	ab.phases[o.Bar] = ps
	if o.Kind == AsyncArrive || o.Kind == AsyncLoad {
		ps[o.Phase].left++
	}
}

// peerOf is the block of w's cluster an op on another block's mbarrier completes on (nil:
// not dispatched with w's block, or not an op of that kind).
func peerOf(w *warp, o *AsyncOp) *block {
	if o.Peer <= 0 || w.blk.clu == nil || int(o.Peer) > len(w.blk.clu.blocks) {
		return nil
	}
	return w.blk.clu.blocks[o.Peer-1]
}

// expectPeers counts the contributions the blocks of a cluster just dispatched make to
// each other's mbarriers (a bulk copy into a peer's shared memory, an arrival on its
// mbarrier), before any of them issues.
func (m *Model) expectPeers(cl *cluster) {
	for _, b := range cl.blocks {
		for _, w := range b.warps {
			for i := range w.aops {
				o := &w.aops[i]
				if o.Kind != AsyncArrive && o.Kind != AsyncLoad {
					continue
				}
				if t := peerOf(w, o); t != nil {
					if t.async == nil {
						t.async = &asyncBlock{}
					}
					t.async.expect(o)
				}
			}
		}
	}
}

// asyncIssue applies what the warp's instruction just issued at pc does to the copies and
// mbarriers; done is when its result is ready.
func (m *Model) asyncIssue(s *sm, w *warp, pc int32, done int64, lat int64) {
	switch m.async.pc[pc] {
	case apWaitGroup:
		m.hold(w, pc, w.bulkDone)
	case apWaitRead:
		m.hold(w, pc, w.bulkRead)
	case apCpAsync:
		w.cpOpen = max(w.cpOpen, done)
	case apCpCommit:
		w.cpGroups = append(w.cpGroups, w.cpOpen) // amortised: the slice is reused after each wait
		w.cpOpen = 0
	case apCpWait:
		// the groups older than the N newest complete; a wait_all also waits for the open
		// group's copies (cp.async.wait_all is commit_group + wait_group 0).
		n := len(w.cpGroups) - int(m.async.keep[pc])
		t := int64(0)
		if m.async.keep[pc] == 0 {
			t = w.cpOpen
			w.cpOpen = 0
		}
		if n > 0 {
			for _, g := range w.cpGroups[:n] {
				t = max(t, g)
			}
			w.cpGroups = w.cpGroups[:copy(w.cpGroups, w.cpGroups[n:])]
		}
		m.hold(w, pc, t)
	}
	pos := int32(w.pos - 1)
	for w.ai < len(w.aops) && w.aops[w.ai].Pos <= pos {
		o := &w.aops[w.ai]
		w.ai++
		m.applyAsync(s, w, o, pc, done, lat, o.Pos == pos)
	}
}

// applyAsync applies one op; at says it belongs to the instruction being issued (else it
// is one of an instruction that issued no slot, or of a warp that exited).
func (m *Model) applyAsync(s *sm, w *warp, o *AsyncOp, pc int32, done, lat int64, at bool) {
	to := w.blk
	if o.Peer > 0 {
		if to = peerOf(w, o); to == nil {
			if o.Kind == AsyncLoad {
				m.bulkLoad(s, o.Bytes) // the copy still moves its bytes
			}
			return
		}
	}
	switch o.Kind {
	case AsyncArrive:
		m.contribute(to, o, done)
	case AsyncLoad:
		m.contribute(to, o, m.bulkLoad(s, o.Bytes))
	case AsyncStore:
		r, d := m.bulkStore(s, o.Bytes)
		w.bulkRead, w.bulkDone = max(w.bulkRead, r), max(w.bulkDone, d)
		m.end = max(m.end, d)
	case AsyncWait:
		if !at || o.Peer > 0 || o.Bar < 0 || o.Phase < 0 || w.blk.async == nil {
			return
		}
		p := &w.blk.async.phases[o.Bar][o.Phase]
		if p.left <= 0 {
			m.hold(w, pc, max(done, p.done+lat))
			return
		}
		w.ctrl, w.ctrlWhy, w.ctrlPC, w.waitLat = math.MaxInt64, LongScoreboard, pc, lat
		p.waiters = append(p.waiters, w)
	}
}

// hold keeps the warp from issuing before cycle t, stalled on long_scoreboard at pc.
func (m *Model) hold(w *warp, pc int32, t int64) {
	if t > m.now && t > w.ctrl {
		w.ctrl, w.ctrlWhy, w.ctrlPC = t, LongScoreboard, pc
	}
}

// contribute completes one contribution to a phase at cycle t; the last releases its waiters.
func (m *Model) contribute(b *block, o *AsyncOp, t int64) {
	if o.Bar < 0 || o.Phase < 0 || b.async == nil || int(o.Bar) >= len(b.async.phases) || int(o.Phase) >= len(b.async.phases[o.Bar]) {
		return
	}
	p := &b.async.phases[o.Bar][o.Phase]
	p.done = max(p.done, t)
	if p.left--; p.left > 0 {
		return
	}
	for _, x := range p.waiters {
		x.ctrl = max(p.done+x.waitLat, m.now+1)
		m.setWake(x, m.now)
		m.wakeBy(&b.sm.sp[x.idx%4], m.now+1)
	}
	p.waiters = nil
}

// flushAsync applies the ops left after a warp's last issue (instructions that issued no slot).
func (m *Model) flushAsync(w *warp) {
	for w.ai < len(w.aops) {
		o := &w.aops[w.ai]
		w.ai++
		m.applyAsync(w.blk.sm, w, o, -1, m.now, 0, false)
	}
}

// bulkLoad times a bulk copy of n bytes from global memory into the shared memory of SM s
// issued now, and returns when its bytes are complete on the mbarrier.
func (m *Model) bulkLoad(s *sm, n int64) int64 {
	at, _ := m.bulkMove(s, n, 0)
	return at + tmaLatency
}

// bulkStore times a bulk copy of n bytes from shared to global memory issued now: when
// its source is read and when it is done.
func (m *Model) bulkStore(s *sm, n int64) (read, done int64) {
	at, xfer := m.bulkMove(s, n, 1)
	return xfer + tmaStoreRead, max(at, xfer) + tmaStoreDone
}

// bulkMove moves n bytes through the SM's TMA unit (dir 0: loads, 1: stores) and the
// GPU's L2 and DRAM bandwidth: when the last byte has passed all of them, and when it has
// left the TMA unit.
func (m *Model) bulkMove(s *sm, n int64, dir int) (at, xfer int64) {
	n = max(n, 16)
	free := &m.async.tmaFree[2*s.id+dir]
	start := max(m.now, *free)
	x := float64(start) + float64(n)/tmaBytesPerCycle
	*free = int64(math.Ceil(x))
	t := x
	if bw := m.tab.Mem.L2BytesPerCycle; bw > 0 {
		st := math.Max(float64(start), m.l2Free)
		m.l2Free = st + float64(n)/bw
		t = math.Max(t, m.l2Free)
	}
	if bw := m.tab.Mem.DRAMBytesPerCycle; bw > 0 {
		st := math.Max(float64(start), m.drFree)
		m.drFree = st + float64(n)/bw
		t = math.Max(t, m.drFree)
	}
	m.res.L2Bytes += n
	m.res.DRAMBytes += n
	return int64(math.Ceil(t)), *free
}

// unstickAsync releases every warp held on an mbarrier phase when nothing else can
// happen (a phase whose contributions the replay never issues), counting them in
// Result.AsyncForced; it reports whether it released any.
func (m *Model) unstickAsync() bool {
	any := false
	for _, b := range m.pending {
		if b.async == nil {
			continue
		}
		for _, ps := range b.async.phases {
			for i := range ps {
				for _, x := range ps[i].waiters {
					x.ctrl = m.now + 1
					m.setWake(x, m.now)
					m.wakeBy(&b.sm.sp[x.idx%4], m.now+1)
					m.res.AsyncForced++
					any = true
				}
				ps[i].waiters = nil
				ps[i].left = 0
			}
		}
	}
	return any
}

// Clusters (docs/clusters.md, "Timing"). The replay times each block of a cluster on its
// own; what a cluster adds is measured by scripts/tensor4's probes (testdata/measured/tensor4):
const (
	// clusterBarRelease: cycles a barrier.cluster.wait releases its warps after the block's
	// last arrival, beyond a block barrier's release. cl_bar: 389 to 406 cycles per
	// barrier.cluster.arrive + wait with 4 warps per block (clusters of 2 and 4), against the
	// block barrier's 4 x 2 + 12 = 20 in the model (__syncthreads() measured 33.2). Calibration.
	clusterBarRelease = 380
	// dsmemLatency: a dependent ld.shared::cluster of another block's shared memory (cl_chase:
	// 196.1 cycles per load). Calibration; every access that reaches another block's shared
	// memory (Event.Mem == MemDSMEM: ld, st, atom, red, through shared::cluster or generic
	// addresses) is given it (modelled for all but ld.shared::cluster).
	dsmemLatency = 196
	// dsmemOwnLatency: ld.shared::cluster of the block's own shared memory (cl_chase owner 0:
	// 37.3 cycles, against 23 for ld.shared). Calibration.
	dsmemOwnLatency = 37
)

// barExtra is the release latency a barrier at pc adds to a block barrier's.
func (a *asyncModel) barExtra(pc int32) int64 {
	if pc >= 0 && int(pc) < len(a.bar) {
		return a.bar[pc]
	}
	return 0
}
