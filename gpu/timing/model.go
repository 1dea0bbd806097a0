package timing

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/mem"
)

// Reason is a warp state in Nsight Compute's vocabulary.
type Reason uint8

// The warp states. Selected is the issuing state; the others are stalls.
const (
	Selected         Reason = iota // the warp issued this cycle
	NotSelected                    // eligible, but the scheduler issued another warp
	LongScoreboard                 // waiting for a global/local (L1TEX) result
	ShortScoreboard                // waiting for an MIO result (shared memory, MUFU, shuffle, S2R)
	Wait                           // waiting for a fixed-latency result
	MathPipeThrottle               // the pipe of the sub-partition is busy
	MIOThrottle                    // the SM's shared-memory/MIO queue is full
	LGThrottle                     // the SM's L1TEX (local/global) queue is full
	Barrier                        // waiting at a block barrier
	BranchResolving                // waiting for a branch target
	Membar                         // waiting at a memory fence
	NoInstruction                  // waiting for instructions: only a refill block's start (Config.RefillCycles)
	NumReasons                     // number of warp states
)

var reasonNames = [NumReasons]string{"selected", "not_selected", "long_scoreboard", "short_scoreboard", "wait",
	"math_pipe_throttle", "mio_throttle", "lg_throttle", "barrier", "branch_resolving", "membar", "no_instruction"}

// String is the Nsight Compute name of the state ("long_scoreboard").
func (r Reason) String() string {
	if r < NumReasons {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", r)
}

// Interval is a stretch of cycles [Start, End) a warp spent in one state.
type Interval struct {
	Start, End int64
	State      Reason
}

// WarpTimeline is the recorded timeline of one warp.
type WarpTimeline struct {
	Block, Warp   int // block in AddBlock order, warp index within the block
	SM, SubPart   int // where it ran
	Intervals     []Interval
	Truncated     bool  // MaxIntervals was reached
	First, Finish int64 // cycle of dispatch and the cycle after its last issue
}

// Result is what a replay measured.
type Result struct {
	Cycles      int64                   // from the first dispatch until the last instruction and memory access completed
	Issued      int64                   // warp-instructions issued
	IssueActive int64                   // sub-partition cycles with an issue
	States      [NumReasons]int64       // warp-cycles per state, summed over all resident warps
	PerPC       [][NumReasons]int64     // the same per instruction (stalls are charged to the instruction the warp waits to issue; barrier, membar and branch_resolving to the instruction that caused them)
	PipeBusy    [latency.NumPipes]int64 // issue-interval cycles per pipe, summed over sub-partitions
	Timelines   []WarpTimeline          // the warps chosen by Config.TimelineWarps
	Blocks      int                     // blocks replayed
	Waves       float64                 // blocks / (SMs x blocks per SM)
	DRAMBytes   int64                   // bytes charged to DRAM bandwidth
	L2Bytes     int64                   // bytes charged to L2 bandwidth
	SMs         int                     // SMs modelled
	BlocksPerSM int                     // occupancy limit used

	AsyncForced int64 // mbarrier and cluster barrier waits released because their phase could not complete in the replay (async.go, cluster.go; 0 expected)
}

// PerIssue returns warp-cycles in state r per issued instruction: Nsight
// Compute's smsp__average_warps_issue_stalled_<r>_per_issue_active.ratio
// (up to the difference between issue-active cycles and issues, equal here).
func (r *Result) PerIssue(s Reason) float64 {
	if r == nil || r.Issued == 0 || s >= NumReasons {
		return 0
	}
	return float64(r.States[s]) / float64(r.Issued)
}

// Config configures a replay.
type Config struct {
	NumSMs      int // SMs to model; 0 = the reference part's count from the table
	BlocksPerSM int // occupancy limit: resident blocks per SM (>= 1)
	// TimelineWarps records the timeline of the first this many warps
	// dispatched (0: none); MaxIntervals caps each (0: 4096).
	TimelineWarps int
	MaxIntervals  int
	// Probe, when set, is called for every issued instruction with the block
	// (AddBlock order), warp, position in the warp's stream and cycle.
	Probe func(block, warp, pos int, cycle int64)
	// QueueCycles is the backlog, in cycles of work, the SM's MIO and L1TEX
	// queues accept before issue throttles; 0 = 16 (modelled).
	QueueCycles int
	// Caches, when set, times global/local loads and stores whose Event names
	// an access (Event.Acc, AddBlockAccesses) through the time-aware L1/L2 at
	// issue time, in issue order; Atomics, when set, serialises their atomics
	// (global at the L2 servers, shared at the SM). Nil: the events' outcomes.
	Caches  *mem.TimedHierarchy
	Atomics *mem.AtomicUnits
	// RefillCycles is how long after a block retires the next block dispatched to
	// its slot issues its first instruction, and DispatchMilli the GPU-wide block
	// dispatcher's interval between two such blocks, in thousandths of a cycle;
	// 0 takes the H200's (BlockRefillCycles, BlockDispatchMilli), < 0 none. The
	// first wave's dispatch is the launch overhead's (LaunchFixed), not this.
	RefillCycles  int64
	DispatchMilli int64
	// Release, when set, is given each warp stream of a trace-driven block once
	// the model reads it no more (at dispatch: each warp keeps the stream in a
	// compact encoding of its own, compact.go), so the caller may reuse its memory.
	Release func(WarpStream)
	// ReleaseAccesses, when set, is given the accesses of each block added with
	// AddBlockAccesses once the block retires (the model reads them no more), so
	// the caller may reuse their memory.
	ReleaseAccesses func([]mem.Access)
}

// BlockRefillCycles and BlockDispatchMilli are measured on the H200 (calibration:
// testdata/measured/turnover, clock64 and %smid per block at 1.98 GHz). With one
// block resident per SM, the next block on an SM issues its first instruction a
// median 391-410 cycles after the previous one passed its last barrier, for 32 or
// 256 threads, with or without work; with eight resident, 65,536 near-empty blocks
// of 256 threads take 77,466 cycles per SM (median), 1.18 cycles a block GPU-wide,
// which is the dispatcher's rate (each slot then waits a median 1,023 cycles).
const (
	BlockRefillCycles  = 400
	BlockDispatchMilli = 1180
)

// maxIssues is the most SASS instructions one PTX instruction may issue as.
const maxIssues = 1024

// Errors of the model.
var (
	ErrFinished = errors.New("timing: the model has finished")
	ErrBadBlock = errors.New("timing: bad block")
)

// warp is one resident warp. The fields step and classify read for every
// warp of a due sub-partition come first (64 bytes: one cache line).
type warp struct {
	wake    int64       // earliest cycle its state can change (for skipping)
	nin     *Inst       // the instruction at pos (nil when the stream is exhausted)
	nready  int64       // when the scoreboard lets nin issue: its registers' latest ready time
	ctrl    int64       // no issue before this cycle
	since   int64       // the cycle the current state began
	done    bool        // its stream is exhausted
	atBar   bool        // waiting at a block barrier
	state   Reason      // current state, held since the cycle since
	nst     Reason      // state decided by classify
	ctrlWhy Reason      // reason while now < ctrl
	ndep    latency.Dep // the kind of the latest producer nin waits for
	hasTL   bool        // tl is set (so chargeTo reads tl only then)
	statePC int32       // instruction the current state is charged to
	npc     int32
	ctrlPC  int32
	ninPC   int32 // the pc of nin (the event at pos)

	age      int64     // dispatch order: the scheduler prefers the oldest (sp.warps is kept in this order)
	si       int32     // index in its sub-partition's warps and wk
	pos      int       // index of cur in the warp's stream
	n        int       // events in the stream (driven: 0 or 1, the window the source filled)
	cur      Event     // the event at pos, when pos < n
	enc      []byte    // trace-driven: the stream in the compact encoding (compact.go), kept across reuse
	bp       int32     // offset in enc of the event after cur
	lastAcc  int32     // the last non-zero Acc decoded
	run      uint8     // plain events left in the run of cur's header
	lastMem  memFields // the memory fields of the last event decoded that had any
	blk      *block
	idx      int     // warp index within the block
	reg      []int64 // per register: the cycle its value is available << depBits | the latency.Dep of its producer (one array: one cache miss, not two)
	memDone  int64
	lastPC   int32
	tl       *WarpTimeline
	maxIntvl int

	// asynchronous copies and mbarriers (async.go)
	aops                        []AsyncOp // the warp's ops, by position
	ai                          int       // the next one to apply
	bulkRead, bulkDone, waitLat int64     // its bulk stores read and done; the held wait's latency
	cpOpen                      int64     // cp.async: when the open (uncommitted) group's copies complete
	cpGroups                    []int64   // cp.async: when each committed, not yet waited, group completes
	carr                        int32     // the cluster barrier phase (1-based) it last arrived on; 0: none (cluster.go)

	_ [4]byte // to 320 bytes, a size class whose objects are 64-byte aligned: the hot fields stay in one cache line (TestWarpSize)
}

type block struct {
	id      int
	accs    []mem.Access // the accesses Event.Acc names (AddBlockAccesses)
	sm      *sm
	warps   []*warp
	live    int
	arrived int
	lastArr int64
	slot    int // execution-driven: the source's slot of the block

	async *asyncBlock // its mbarrier phases (async.go)
	clu   *cluster    // its thread-block cluster (cluster.go); nil until it needs one
}

type subpart struct {
	wake     int64 // no warp of the sub-partition can change state before this cycle
	warps    []*warp
	wk       []int64 // per warp of warps: its wake, math.MaxInt64 once done (step scans this, not the warps)
	last     *warp
	pipeFree [latency.NumPipes]int64
	busy     int64 // no issue before this cycle (an instruction of several SASS issue slots)
	sm       *sm
	order    int32 // SM index x 4 + sub-partition: the order sub-partitions due in one cycle are stepped
	filed    int64 // the wake it is filed under in the event queue; -1: not filed
	oi       int32 // index in the queue's far heap; -1 when not there
}

type sm struct {
	id      int
	sp      [4]subpart
	blocks  int
	mioFree int64
	l1Free  int64
	barFree int64
}

// Model is a replay in progress: add blocks in dispatch order, then Finish.
type Model struct {
	prog     *Program
	tab      *latency.Table
	cfg      Config
	sms      []*sm
	now      int64
	end      int64
	age      int64
	l2Free   float64
	drFree   float64
	drLoad   dramLoad // recent DRAM traffic, for the queueing delay under load
	res      Result
	tlLeft   int
	pending  []*block // resident blocks
	nblocks  int
	fin      bool
	retired  bool     // a block finished since the last retire
	dispNext int64    // milli-cycles: when the dispatcher may start the next refill block
	ev       events   // the sub-partitions with warps, by the cycle each can next act (events.go)
	cur      *subpart // the sub-partition being stepped (not filed)
	free     []*warp  // warps of retired blocks, reused with their register arrays
	due      []int32  // scratch of step: the indices of the warps it classified
	scan     bool     // test only: walk every sub-partition every event cycle (the loop the queue replaced)

	nextAccs []mem.Access // the accesses of the block AddBlockAccesses is dispatching

	sassInterval [latency.NumPipes]int64 // Program.SASSInterval per pipe (Inst.SASSPipes)
	atomOp       []mem.AtomicOp          // per pc: the atomic units' class of an atomic
	atomAg       []bool                  // per pc: an integer add that ptxas aggregates per warp when the address is uniform

	// execution-driven replay (driven.go)
	src     Source
	stepAcc *mem.Access // the access of the instruction the source just executed
	srcErr  error
	started int  // blocks started
	stuck   bool // every resident live warp waits at a barrier

	async  asyncModel  // asynchronous copies and mbarrier waits (async.go)
	clHold clusterHold // the blocks of the cluster being collected (cluster.go)
}

// New starts a replay of prog.
func New(prog *Program, cfg Config) (*Model, error) {
	if prog == nil || prog.Table == nil {
		return nil, errors.New("timing: nil program or table")
	}
	nr := int32(prog.NumRegs())
	for pc := range prog.Insts {
		in := &prog.Insts[pc]
		if in.Timing.Pipe >= latency.NumPipes || in.Timing.Latency < 0 || in.Timing.IssueCycles < 0 {
			return nil, fmt.Errorf("timing: pc %d: bad timing %+v", pc, in.Timing)
		}
		if in.Issues < 0 || in.Issues > maxIssues {
			return nil, fmt.Errorf("timing: pc %d: %d SASS issues (want 0..%d)", pc, in.Issues, maxIssues)
		}
		for _, r := range append(in.Src[:len(in.Src):len(in.Src)], in.Dst...) {
			if r < 0 || r >= nr {
				return nil, fmt.Errorf("timing: pc %d: register id %d outside [0,%d)", pc, r, nr)
			}
		}
	}
	if cfg.BlocksPerSM < 1 {
		return nil, fmt.Errorf("timing: blocks per SM must be at least 1, got %d", cfg.BlocksPerSM)
	}
	if cfg.NumSMs <= 0 {
		cfg.NumSMs = prog.Table.SMs
	}
	if cfg.NumSMs <= 0 {
		cfg.NumSMs = 1
	}
	if cfg.RefillCycles == 0 {
		cfg.RefillCycles = BlockRefillCycles
	}
	if cfg.DispatchMilli == 0 {
		cfg.DispatchMilli = BlockDispatchMilli
	}
	if cfg.MaxIntervals <= 0 {
		cfg.MaxIntervals = 4096
	}
	if cfg.QueueCycles <= 0 {
		cfg.QueueCycles = 16
	}
	m := &Model{prog: prog, tab: prog.Table, cfg: cfg, tlLeft: cfg.TimelineWarps}
	for p := range m.sassInterval {
		m.sassInterval[p] = prog.SASSInterval(latency.Pipe(p))
	}
	// Warps keep pointers into Timelines: its capacity must never grow.
	m.res.Timelines = make([]WarpTimeline, 0, max(cfg.TimelineWarps, 0))
	for i := 0; i < cfg.NumSMs; i++ {
		s := &sm{id: i}
		for j := range s.sp {
			s.sp[j].sm, s.sp[j].order, s.sp[j].filed, s.sp[j].oi = s, int32(4*i+j), -1, -1
		}
		m.sms = append(m.sms, s)
	}
	m.ev.init(m.sms)
	m.async.init(prog, cfg.NumSMs)
	m.res.PerPC = make([][NumReasons]int64, len(prog.Insts))
	m.atomOp = make([]mem.AtomicOp, len(prog.Insts))
	m.atomAg = make([]bool, len(prog.Insts))
	for pc := range prog.Insts {
		m.atomOp[pc] = prog.Insts[pc].Atomic
		m.atomAg[pc] = prog.Insts[pc].AggregatedAdd
	}
	m.res.SMs, m.res.BlocksPerSM = cfg.NumSMs, cfg.BlocksPerSM
	return m, nil
}

// Run replays whole blocks at once: New, AddBlock for each, Finish.
func Run(ctx context.Context, prog *Program, cfg Config, blocks [][]WarpStream) (*Result, error) {
	m, err := New(prog, cfg)
	if err != nil {
		return nil, err
	}
	for _, b := range blocks {
		if err := m.AddBlock(ctx, b); err != nil {
			return nil, err
		}
	}
	return m.Finish(ctx)
}

// AddBlock dispatches the next block. When every SM is full it first
// advances the simulation until a block retires, so memory stays bounded by
// the resident blocks. The streams must not be modified afterwards.
func (m *Model) AddBlock(ctx context.Context, warps []WarpStream) error {
	return m.AddBlockAccesses(ctx, warps, nil)
}

// AddBlockAccesses is AddBlock for streams whose events name, by Event.Acc,
// the memory accesses they performed (accs is kept until the block retires).
func (m *Model) AddBlockAccesses(ctx context.Context, warps []WarpStream, accs []mem.Access) error {
	m.nextAccs = accs
	defer func() { m.nextAccs = nil }()
	if m.fin {
		return ErrFinished
	}
	if len(warps) == 0 {
		return fmt.Errorf("%w: no warps", ErrBadBlock)
	}
	if err := m.prog.validate(warps); err != nil {
		return err
	}
	if m.clHold.next {
		return m.addClustered(ctx, warps, accs)
	}
	if len(m.clHold.blocks) > 0 {
		ops := m.async.next
		if err := m.flushCluster(ctx); err != nil {
			return err
		}
		m.nextAccs, m.async.next = accs, ops
	}
	for {
		if s := m.freeSM(); s != nil {
			m.dispatch(s, warps)
			return nil
		}
		if err := m.run(ctx, func() bool { return m.freeSM() != nil }); err != nil {
			return err
		}
	}
}

// Finish runs the resident blocks to completion and returns the result.
func (m *Model) Finish(ctx context.Context) (*Result, error) {
	if m.fin {
		return nil, ErrFinished
	}
	if err := m.flushCluster(ctx); err != nil {
		return nil, err
	}
	if err := m.run(ctx, func() bool { return len(m.pending) == 0 }); err != nil {
		return nil, err
	}
	m.fin = true
	if m.now > m.end {
		m.end = m.now
	}
	m.res.Cycles = m.end
	m.res.Blocks = m.nblocks
	m.res.Waves = float64(m.nblocks) / float64(len(m.sms)*m.cfg.BlocksPerSM)
	return &m.res, nil
}

func (m *Model) freeSM() *sm {
	var best *sm
	for _, s := range m.sms {
		if s.blocks < m.cfg.BlocksPerSM && (best == nil || s.blocks < best.blocks) {
			best = s
		}
	}
	return best
}

func (m *Model) dispatch(s *sm, warps []WarpStream) { m.dispatchIn(s, warps, nil) }

// dispatchIn dispatches a block to SM s as a block of cluster cl (nil: none).
func (m *Model) dispatchIn(s *sm, warps []WarpStream, cl *cluster) {
	b := &block{id: m.nblocks, sm: s, accs: m.nextAccs, clu: cl}
	if cl != nil {
		cl.blocks = append(cl.blocks, b)
	}
	// a block beyond the first wave reuses a slot a block retired from: it starts
	// after the SM's refill latency and when the dispatcher gets to it
	start := m.now
	if m.nblocks >= len(m.sms)*m.cfg.BlocksPerSM {
		if r := m.cfg.RefillCycles; r > 0 {
			start += r
		}
		if d := m.cfg.DispatchMilli; d > 0 {
			at := max(start*1000, m.dispNext)
			m.dispNext = at + d
			start = (at + 999) / 1000
		}
	}
	m.nblocks++
	s.blocks++
	nr := m.prog.NumRegs()
	for i, st := range warps {
		w := m.newWarp(nr)
		w.blk, w.idx, w.age, w.state, w.statePC, w.since = b, i, m.age, NotSelected, -1, m.now
		w.load(st)
		if m.cfg.Release != nil {
			m.cfg.Release(st) // the warp keeps its own compact copy
		}
		m.age++
		b.warps = append(b.warps, w)
		m.fold(w)
		m.prepare(w)
		if w.pos >= w.n {
			w.done = true
			continue
		}
		if start > m.now {
			// the warp is launched but fetches nothing yet (Nsight Compute's no_instruction)
			w.ctrl, w.ctrlWhy, w.ctrlPC = start, NoInstruction, w.ninPC
		}
		m.seat(s, b, i, w)
	}
	m.attachAsync(b)
	m.seated(s, b)
}

// seat makes warp i of block b, which has an instruction to issue, resident on
// its sub-partition of s (with a timeline while timelines are left).
func (m *Model) seat(s *sm, b *block, i int, w *warp) {
	b.live++
	if m.tlLeft > 0 {
		m.tlLeft--
		m.res.Timelines = append(m.res.Timelines, WarpTimeline{Block: b.id, Warp: i, SM: s.id, SubPart: i % 4, First: m.now})
		w.tl, w.hasTL = &m.res.Timelines[len(m.res.Timelines)-1], true
	}
	sp := &s.sp[i%4]
	w.si = int32(len(sp.warps))
	sp.warps = append(sp.warps, w)
	sp.wk = append(sp.wk, w.wake)
	m.wakeBy(sp, m.now)
}

// seated ends a block's dispatch: a block with no live warp frees its slot at
// once, any other waits in pending.
func (m *Model) seated(s *sm, b *block) {
	if b.live == 0 {
		s.blocks--
		return
	}
	m.pending = append(m.pending, b)
}

// run advances the simulation until stop() or no resident block is left.
func (m *Model) run(ctx context.Context, stop func() bool) error {
	for n := 0; !stop(); n++ {
		if len(m.pending) == 0 {
			return nil
		}
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		m.cycle()
	}
	return nil
}

// cycle steps the sub-partitions due at m.now, in SM order, and advances
// m.now to the next cycle at which any sub-partition may change state. Only
// due sub-partitions are touched: the event queue files each by the cycle it
// can next act (events.go), and every filed wake is >= m.now between cycles.
func (m *Model) cycle() {
	if m.scan {
		m.cycleScan()
		return
	}
	due := m.ev.takeDue(m.now)
	for wi, word := range due {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &= word - 1
			sp := m.ev.byOrder[wi*64+b]
			sp.filed = -1
			m.cur = sp
			m.step(sp)
			m.cur = nil
			// A warp that stays eligible keeps wake == m.now: it acts again next cycle.
			sp.wake = max(sp.wake, m.now+1)
			m.ev.file(sp, m.now)
		}
	}
	next := m.ev.next(m.now)
	if next == math.MaxInt64 && (m.unstickAsync() || m.unstickCluster()) {
		next = m.now + 1
	}
	m.checkStuck(next)
	m.advance(next)
}

// cycleScan is the loop the event queue replaced: every sub-partition of
// every SM at every event cycle. Tests run both and compare.
func (m *Model) cycleScan() {
	next := int64(math.MaxInt64)
	for _, s := range m.sms {
		for spi := range s.sp {
			sp := &s.sp[spi]
			if len(sp.warps) == 0 {
				continue
			}
			if sp.wake > m.now {
				next = min(next, sp.wake)
				continue
			}
			m.step(sp)
			next = min(next, sp.wake)
		}
	}
	m.advance(next)
}

// step decides the state of every warp of a due sub-partition, issues the
// chosen one and sets the sub-partition's next wake.
func (m *Model) step(sp *subpart) {
	s := sp.sm
	var pick *warp
	wake := int64(math.MaxInt64)
	// Only warps whose wake has come can change state (sp.wk mirrors each
	// warp's wake, math.MaxInt64 once done): the others keep their state, and
	// setState would be a no-op for them (a waiting warp in state Selected is
	// sp.last issuing its SASS slots while busy).
	due, now := m.due[:0], m.now // m.now does not change before issue
	for i, t := range sp.wk {
		if t > now {
			wake = min(wake, t)
			continue
		}
		w := sp.warps[i]
		if w.done {
			sp.wk[i] = math.MaxInt64
			continue
		}
		m.classify(s, sp, w)
		sp.wk[i] = w.wake
		due = append(due, int32(i))
		// GTO: the last issuer while eligible, else the oldest eligible warp.
		// sp.warps is in age order (seated in dispatch order, compacted in
		// order), so the first eligible one found is the oldest: a later w is
		// never older than pick.
		if w.nst == Selected && (pick == nil || w == sp.last) {
			pick = w
		}
	}
	m.due = due
	busy := now < sp.busy // still issuing the SASS slots of sp.last's instruction
	if busy {
		pick = nil
	}
	for _, i := range due {
		w := sp.warps[i]
		st := w.nst
		if st == Selected && w != pick && !(busy && w == sp.last) {
			st = NotSelected
		}
		m.setState(w, st, w.npc)
		wake = min(wake, w.wake)
	}
	if busy {
		wake = min(wake, sp.busy)
	}
	if pick != nil {
		n := m.issue(s, sp, pick)
		wake = m.now + n
	}
	sp.wake = wake
}

// setWake sets a seated warp's wake and its mirror in the sub-partition
// (which stays math.MaxInt64 for a done warp: a warp that ended at a
// barrier is released with the others).
func (m *Model) setWake(w *warp, t int64) {
	w.wake = t
	if !w.done {
		m.spOf(w).wk[w.si] = t
	}
}

// spOf is the sub-partition a warp is seated on.
func (m *Model) spOf(w *warp) *subpart { return &w.blk.sm.sp[w.idx%4] }

// advance moves m.now to the next event cycle and retires finished blocks.
func (m *Model) advance(next int64) {
	if next <= m.now {
		next = m.now + 1
	}
	if next == math.MaxInt64 {
		next = m.now + 1 // nothing can change: only possible without live warps
	}
	m.now = next
	if m.retired {
		m.retire()
	}
}

// setState moves a warp into state st at m.now, charging the time spent in
// the previous state.
func (m *Model) setState(w *warp, st Reason, pc int32) {
	if st == w.state && pc == w.statePC {
		return
	}
	m.charge(w)
	w.state, w.statePC = st, pc
}

// charge books the cycles [w.since, m.now) of the warp's current state.
func (m *Model) charge(w *warp) { m.chargeTo(w, m.now) }

// chargeTo books the cycles [w.since, end) of the warp's current state.
func (m *Model) chargeTo(w *warp, end int64) {
	n := end - w.since
	if n <= 0 {
		w.since = end
		return
	}
	m.res.States[w.state] += n
	if w.statePC >= 0 && int(w.statePC) < len(m.res.PerPC) {
		m.res.PerPC[w.statePC][w.state] += n
	}
	if tl := w.tl; w.hasTL && tl != nil {
		if k := len(tl.Intervals); k > 0 && tl.Intervals[k-1].State == w.state && tl.Intervals[k-1].End == w.since {
			tl.Intervals[k-1].End = end
		} else if len(tl.Intervals) >= m.cfg.MaxIntervals {
			tl.Truncated = true
		} else {
			tl.Intervals = append(tl.Intervals, Interval{Start: w.since, End: end, State: w.state})
		}
	}
	w.since = end
}

// classify decides a warp's state at m.now (Selected meaning eligible) and
// the earliest cycle it may change.
func (m *Model) classify(s *sm, sp *subpart, w *warp) {
	in := w.nin // prepare keeps it (and ninPC) for the event at pos: nil when exhausted
	if w.done || in == nil {
		w.wake = math.MaxInt64
		return
	}
	w.npc = w.ninPC
	if w.atBar {
		w.nst, w.npc, w.wake = Barrier, w.ctrlPC, math.MaxInt64
		return
	}
	if m.now < w.ctrl {
		w.nst, w.npc, w.wake = w.ctrlWhy, w.ctrlPC, w.ctrl
		return
	}
	ready, dep := w.nready, w.ndep
	if m.now < ready {
		switch dep {
		case latency.DepLong:
			w.nst = LongScoreboard
		case latency.DepShort:
			w.nst = ShortScoreboard
		default:
			w.nst = Wait
		}
		w.wake = ready
		return
	}
	t := in.Timing
	if in.SASSPipes != ([latency.NumPipes]uint8{}) {
		// a split SASS sequence waits for the busiest of its pipes
		for p, k := range in.SASSPipes {
			if f := sp.pipeFree[p]; k > 0 && f > sp.pipeFree[t.Pipe] {
				t.Pipe = latency.Pipe(p)
			}
		}
	}
	if f := sp.pipeFree[t.Pipe]; m.now < f {
		w.nst, w.wake = MathPipeThrottle, f
		switch t.Pipe {
		case latency.PipeMIO, latency.PipeShuffle, latency.PipeSFU:
			w.nst = MIOThrottle
		case latency.PipeMemory:
			w.nst = LGThrottle
		}
		return
	}
	q := int64(m.cfg.QueueCycles)
	switch t.Pipe {
	case latency.PipeMIO:
		if s.mioFree-m.now > q {
			w.nst, w.wake = MIOThrottle, s.mioFree-q
			return
		}
	case latency.PipeMemory:
		if s.l1Free-m.now > q {
			w.nst, w.wake = LGThrottle, s.l1Free-q
			return
		}
	}
	w.nst, w.wake = Selected, m.now
}

// issue issues the warp's next instruction at m.now and returns the issue
// slots it takes (its SASS instruction count, at least 1).
func (m *Model) issue(s *sm, sp *subpart, w *warp) int64 {
	e := w.cur
	if m.src != nil {
		e = m.execute(w, e)
	}
	in := &m.prog.Insts[e.PC]
	t := in.Timing
	if m.cfg.Probe != nil {
		m.cfg.Probe(w.blk.id, w.idx, w.pos, m.now)
	}
	n := int64(max(in.Issues, 1)) // 0 never gets here: fold skips it
	sp.last = w
	sp.busy = m.now + n
	w.step()
	w.lastPC = e.PC
	m.res.Issued += n
	m.res.IssueActive += n
	if in.SASSPipes != ([latency.NumPipes]uint8{}) {
		for p, k := range in.SASSPipes {
			if k > 0 {
				busy := int64(k) * m.sassInterval[p]
				m.res.PipeBusy[p] += busy
				sp.pipeFree[p] = m.now + busy
			}
		}
	} else {
		m.res.PipeBusy[t.Pipe] += n * int64(t.IssueCycles)
		sp.pipeFree[t.Pipe] = m.now + n*int64(t.IssueCycles)
	}
	if n > 1 {
		w.wake = m.now + n // the warp stays selected while its slots issue
		sp.wk[w.si] = w.wake
	}
	done := m.now + int64(t.Latency)
	switch t.Class {
	case latency.ClassBar:
		if in.cluBar != cluNone && m.src == nil {
			m.clusterBar(s, w, e.PC, in.cluBar)
		} else if m.src != nil && !in.NoWait { // the source holds the warp (afterIssueDriven)
			at := max(m.now, s.barFree) + int64(m.tab.Bar.ArriveCycles)
			s.barFree = at
			w.blk.lastArr = max(w.blk.lastArr, at)
		} else if !in.NoWait {
			m.arrive(s, w, e.PC)
		}
	case latency.ClassBra, latency.ClassCall:
		w.ctrl, w.ctrlWhy, w.ctrlPC = m.now+int64(t.Latency), BranchResolving, e.PC
	case latency.ClassMembarCTA, latency.ClassMembarGL:
		start := max(m.now, w.memDone)
		w.ctrl, w.ctrlWhy, w.ctrlPC = start+int64(t.Latency), Membar, e.PC
	case latency.ClassLdShared, latency.ClassStShared, latency.ClassAtomShared:
		if e.Mem == MemDSMEM {
			done = m.dsmem(s, w, e, t)
			break
		}
		wf := int64(max(1, int(e.Sectors)))
		start := max(m.now, s.mioFree)
		s.mioFree = start + wf
		done = start + wf - 1 + int64(t.Latency)
		if a := m.access(s, w, e); a != nil && t.Class == latency.ClassAtomShared && m.cfg.Atomics != nil {
			r, _ := m.cfg.Atomics.Shared(a, m.atomOp[e.PC], false, float64(m.now))
			done = max(done, int64(math.Ceil(r))+int64(t.Latency))
		}
		w.memDone = max(w.memDone, done)
	case latency.ClassLdGlobal, latency.ClassStGlobal, latency.ClassAtomGlobal:
		if e.Mem == MemDSMEM { // a generic address in another block's shared memory
			done = m.dsmem(s, w, e, t)
			break
		}
		done = m.global(s, w, e, t)
	}
	done += n - 1 // the last SASS instruction issues n-1 cycles later
	if done > m.end {
		m.end = done
	}
	for _, r := range in.Dst {
		w.reg[r] = done<<depBits | int64(t.Dep)
	}
	if w.ai < len(w.aops) || m.async.pc[e.PC] > apAsync {
		m.asyncIssue(s, w, e.PC, done, int64(t.Latency))
	}
	if m.src != nil {
		m.afterIssueDriven(w, e.PC, t.Class == latency.ClassBar && !in.NoWait)
	}
	m.fold(w)
	m.prepare(w)
	if w.pos >= w.n {
		m.exitAfter(w, n)
	}
	if m.now+n > m.end {
		m.end = m.now + n
	}
	return n
}

// newWarp returns a zeroed warp with ready and dep arrays of nr registers,
// reusing one of a retired block.
func (m *Model) newWarp(nr int) *warp {
	if n := len(m.free); n > 0 {
		w := m.free[n-1]
		m.free[n-1] = nil
		m.free = m.free[:n-1]
		reg, enc, cpg := w.reg, w.enc, w.cpGroups
		clear(reg)
		*w = warp{reg: reg, enc: enc[:0], cpGroups: cpg[:0]}
		return w
	}
	return &warp{reg: make([]int64, nr)}
}

// prepare caches what classify needs of the warp's next instruction: only
// the warp's own issues change its registers' ready times, so the
// scoreboard answer holds until it issues again.
func (m *Model) prepare(w *warp) {
	w.nin, w.nready, w.ndep = nil, 0, 0
	if w.pos >= w.n {
		return
	}
	pc := w.cur.PC
	in := &m.prog.Insts[pc]
	w.nin, w.ninPC = in, pc
	var best int64 // the first register with the latest ready time, packed
	for _, r := range in.Src {
		if x := w.reg[r]; x>>depBits > best>>depBits {
			best = x
		}
	}
	for _, r := range in.Dst {
		if x := w.reg[r]; x>>depBits > best>>depBits {
			best = x
		}
	}
	w.nready, w.ndep = best>>depBits, latency.Dep(best&depMask)
}

// The packing of warp.reg: a ready cycle (>= 0) shifted left, its Dep below.
const (
	depBits = 2
	depMask = 1<<depBits - 1
)

// foldRegs gives an instruction that issues no SASS instruction its result:
// each destination is ready when the latest source is (with that source's Dep).
func foldRegs(w *warp, in *Inst) {
	var best int64
	for _, r := range in.Src {
		if x := w.reg[r]; x>>depBits > best>>depBits {
			best = x
		}
	}
	for _, r := range in.Dst {
		w.reg[r] = best
	}
}

// fold moves a warp past instructions that issue as no SASS instruction
// (Inst.Issues == 0): their results are ready when their sources are.
func (m *Model) fold(w *warp) {
	if m.src != nil {
		m.foldDriven(w)
		return
	}
	for w.pos < w.n {
		in := &m.prog.Insts[w.cur.PC]
		if in.Issues != 0 {
			return
		}
		foldRegs(w, in)
		w.step()
	}
}

// global times a global/local memory instruction and returns when its result is available.
func (m *Model) global(s *sm, w *warp, e Event, t latency.Timing) int64 {
	store := t.Class == latency.ClassStGlobal
	atomic := t.Class == latency.ClassAtomGlobal
	if e.Mem == MemNone && !atomic {
		if store {
			return m.now + 1
		}
		return m.now + 1 // no lane accessed memory
	}
	timed := int64(-1)    // when the time-aware caches or atomic units say the data is there
	lines := 0            // distinct 128-byte lines: the L1TEX data stage's wavefronts
	partial := 0          // a store's sectors not written whole (with the caches)
	drWrites := int64(-1) // DRAM sectors this access wrote (write-backs), when the caches say
	if a := m.access(s, w, e); a != nil {
		switch {
		case atomic && m.cfg.Atomics != nil:
			r, _ := m.cfg.Atomics.Global(a, m.atomOp[e.PC], m.atomAg[e.PC] && uniformAddr(a), float64(m.now))
			if m.prog.Insts[e.PC].Red {
				r = m.cfg.Atomics.Applied() // nothing waits for the result
			}
			timed = int64(math.Ceil(r))
			if m.cfg.Caches != nil {
				m.cfg.Caches.Access(a, m.now) // the caches' state and counts; the time is the atomic units'
			}
		case !atomic && m.cfg.Caches != nil:
			r, o := m.cfg.Caches.Access(a, m.now)
			timed, lines, partial, drWrites = r, o.Lines, o.PartialSectors, int64(o.DRAMWrites)
			e.Mem, e.DRAMSectors = MemL1Hit, 0
			switch {
			case o.DRAMReads > 0 || o.DRAMWrites > 0:
				e.Mem, e.DRAMSectors = MemDRAM, uint8(min(255, o.DRAMReads+o.DRAMWrites))
			case o.L2Hits > 0 || o.L2Misses > 0 || store:
				e.Mem = MemL2Hit
			}
		}
	}
	sec := int64(max(1, int(e.Sectors)))
	if lines == 0 && !atomic {
		lines = int(e.Lines)
		if a := m.access(s, w, e); lines == 0 && a != nil {
			lines = mem.GlobalLines(a)
		}
	}
	// L1TEX data stage: one wavefront a cycle per SM, a wavefront per distinct
	// 128-byte line of the request (at most 4 sectors); without the lanes'
	// addresses, the fewest lines the sectors fill
	cost := max(int64(lines), (sec+3)/4)
	start := max(m.now, s.l1Free)
	s.l1Free = start + cost
	at := float64(start + cost)
	lat := int64(m.tab.MemLatency(e.Mem))
	if atomic {
		lat = int64(t.Latency)
	}
	var loaded int64 // DRAM queueing delay under load (dramLoad)
	if e.Mem >= MemL2Hit || store || atomic {
		bytes := float64(sec * 32)
		if bw := m.tab.Mem.L2BytesPerCycle; bw > 0 {
			d := bytes / bw
			if mt := m.tab.Mem; store && lines > 0 && mt.L2StoreLinesPerCycle > 0 && mt.L2PartialSectorsPerCycle > 0 {
				d = max(d, float64(lines)/mt.L2StoreLinesPerCycle+float64(partial)/mt.L2PartialSectorsPerCycle)
			}
			st := math.Max(at, m.l2Free)
			m.l2Free = st + d
			at = m.l2Free
		}
		m.res.L2Bytes += sec * 32
		if e.Mem == MemDRAM {
			ds := sec
			if e.DRAMSectors > 0 {
				ds = int64(e.DRAMSectors)
			}
			db := float64(ds * 32)
			if bw := m.tab.Mem.DRAMBytesPerCycle; bw > 0 {
				st := math.Max(at, m.drFree)
				m.drFree = st + db/bw
				at = m.drFree
				if drWrites < 0 && store {
					drWrites = ds // without the caches a store's DRAM sectors are writes
				}
				m.drLoad.add(m.now, db, float64(max(0, drWrites)*32))
				if !store && !atomic {
					loaded = m.drLoad.extra(bw)
				}
			}
			m.res.DRAMBytes += ds * 32
		}
	}
	if e.Mem == MemNone {
		lat = int64(t.Latency)
	}
	queue := int64(math.Ceil(at)) - m.now - cost
	if queue < 0 {
		queue = 0
	}
	// a load's lines beyond its first lengthen its latency (L1LineCycles each)
	var extra int64
	if lines > 1 && !store && !atomic {
		extra = int64(float64(lines-1) * m.tab.Mem.L1LineCycles)
	}
	done := m.now + queue + max(cost, 1+extra) + lat + loaded
	if timed >= 0 {
		// the caches' time already holds the latency (and in-flight waits);
		// the bandwidth queues above and the load-dependent term still delay it
		done = max(timed+queue+extra+loaded, m.now+queue+cost)
	}
	if store {
		m.end = max(m.end, done)
		w.memDone = max(w.memDone, done)
		return m.now + 1
	}
	w.memDone = max(w.memDone, done)
	return done
}

// dsmem times a load, store or atomic that reached another block's shared memory
// (Event.Mem == MemDSMEM, through a shared::cluster or a generic address) and returns when
// its result is available: its wavefronts pass the SM's MIO queue as a shared access's do,
// and it completes dsmemLatency cycles later (cl_chase, for loads; stores, for fences, and
// atomics are given the same, modelled). With Config.Atomics an atomic is also serialised
// by the issuing SM's shared atomic unit (modelled: the owner SM's is where it executes).
func (m *Model) dsmem(s *sm, w *warp, e Event, t latency.Timing) int64 {
	wf := int64(max(1, int(e.Sectors)))
	start := max(m.now, s.mioFree)
	s.mioFree = start + wf
	done := start + wf - 1 + dsmemLatency
	atomic := t.Class == latency.ClassAtomShared || t.Class == latency.ClassAtomGlobal
	if a := m.access(s, w, e); a != nil && atomic && m.cfg.Atomics != nil {
		r, _ := m.cfg.Atomics.Shared(a, m.atomOp[e.PC], false, float64(m.now))
		done = max(done, int64(math.Ceil(r))+dsmemLatency)
	}
	w.memDone = max(w.memDone, done)
	if t.Class == latency.ClassStShared || t.Class == latency.ClassStGlobal {
		m.end = max(m.end, done)
		return m.now + 1
	}
	return done
}

// SetMemory sets Config.Caches and Config.Atomics (call before the first block).
func (m *Model) SetMemory(c *mem.TimedHierarchy, a *mem.AtomicUnits) {
	m.cfg.Caches, m.cfg.Atomics = c, a
}

// access returns the memory access an event names (Event.Acc), placed on the
// SM the model runs its block on, or nil.
func (m *Model) access(s *sm, w *warp, e Event) *mem.Access {
	if m.src != nil {
		if a := m.stepAcc; a != nil {
			a.SM = s.id
			return a
		}
		return nil
	}
	if e.Acc <= 0 || int(e.Acc) > len(w.blk.accs) {
		return nil
	}
	a := &w.blk.accs[e.Acc-1]
	a.SM = s.id
	return a
}

// arrive records a warp's arrival at its block's barrier.
func (m *Model) arrive(s *sm, w *warp, pc int32) {
	b := w.blk
	at := max(m.now, s.barFree) + int64(m.tab.Bar.ArriveCycles)
	s.barFree = at
	b.lastArr = max(b.lastArr, at)
	b.arrived++
	w.atBar, w.ctrlPC = true, pc
	m.tryRelease(b)
}

// tryRelease releases a block's barrier once every live warp arrived.
func (m *Model) tryRelease(b *block) {
	if m.src != nil {
		m.syncBar(b)
		return
	}
	if b.arrived == 0 || b.arrived < b.live {
		return
	}
	rel := b.lastArr + int64(m.tab.Bar.ReleaseCycles)
	for _, w := range b.warps {
		if w.atBar {
			w.atBar = false
			w.ctrl, w.ctrlWhy = rel+m.async.barExtra(w.ctrlPC), Barrier
			m.setWake(w, 0)
			m.wakeBy(&b.sm.sp[w.idx%4], m.now+1)
		}
	}
	b.arrived, b.lastArr = 0, 0
}

// exitAfter retires a warp whose stream is exhausted by an instruction of n issue slots.
func (m *Model) exitAfter(w *warp, n int64) {
	m.chargeTo(w, m.now+n) // the issuing cycles
	if w.ai < len(w.aops) {
		m.flushAsync(w)
	}
	w.done = true
	m.spOf(w).wk[w.si] = math.MaxInt64
	b := w.blk
	b.live--
	if b.live == 0 {
		m.retired = true
	}
	if b.clu != nil {
		m.clusterExit(w)
	}
	if w.tl != nil {
		w.tl.Finish = m.now + n
	}
	m.tryRelease(b)
}

// retire frees the slots of finished blocks and drops finished warps.
func (m *Model) retire() {
	m.retired = false
	k := 0
	for _, b := range m.pending {
		if b.live > 0 {
			m.pending[k] = b
			k++
			continue
		}
		s := b.sm
		s.blocks--
		if b.accs != nil && m.cfg.ReleaseAccesses != nil {
			m.cfg.ReleaseAccesses(b.accs)
			b.accs = nil
		}
		for _, w := range b.warps {
			w.blk, w.tl = nil, nil
		}
		m.free = append(m.free, b.warps...)
		for i := range s.sp {
			sp := &s.sp[i]
			j := 0
			for i, w := range sp.warps {
				if w.blk != nil {
					sp.warps[j], sp.wk[j] = w, sp.wk[i]
					w.si = int32(j)
					j++
				}
			}
			clear(sp.warps[j:])
			sp.warps, sp.wk = sp.warps[:j], sp.wk[:j]
			if j == 0 {
				m.ev.unfile(sp)
			}
			if sp.last != nil && sp.last.blk == nil {
				sp.last = nil
			}
		}
	}
	clear(m.pending[k:])
	m.pending = m.pending[:k]
}

// wakeBy makes a sub-partition due no later than cycle t, filing it if it
// was not (the sub-partition being stepped is not: cycle files it after its
// step). A wake in the past counts as m.now, which keeps every filed wake
// >= m.now between cycles; a sub-partition due now stays due now.
func (m *Model) wakeBy(sp *subpart, t int64) {
	if m.scan {
		sp.wake = min(sp.wake, t)
		return
	}
	sp.wake = max(min(sp.wake, t), min(m.now, t))
	if sp == m.cur || sp.filed == sp.wake {
		return
	}
	m.ev.unfile(sp)
	m.ev.file(sp, m.now)
}
