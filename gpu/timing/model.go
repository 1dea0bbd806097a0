package timing

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/kernelscope/kernelscope/gpu/latency"
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
	NoInstruction                  // waiting for instructions (not modelled: never reported)
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
}

// Errors of the model.
var (
	ErrFinished = errors.New("timing: the model has finished")
	ErrBadBlock = errors.New("timing: bad block")
)

type warp struct {
	stream   WarpStream
	pos      int
	blk      *block
	idx      int // warp index within the block
	age      int64
	ready    []int64 // per register: cycle the value is available
	dep      []latency.Dep
	ctrl     int64  // no issue before this cycle
	ctrlWhy  Reason // reason while now < ctrl
	ctrlPC   int32
	atBar    bool
	memDone  int64
	done     bool
	lastPC   int32
	tl       *WarpTimeline
	state    Reason // current state, held since the cycle since
	statePC  int32  // instruction the current state is charged to
	since    int64
	nst      Reason // state decided by classify
	npc      int32
	wake     int64 // earliest cycle its state can change (for skipping)
	maxIntvl int
}

type block struct {
	id      int
	sm      *sm
	warps   []*warp
	live    int
	arrived int
	lastArr int64
}

type subpart struct {
	wake     int64 // no warp of the sub-partition can change state before this cycle
	warps    []*warp
	last     *warp
	pipeFree [latency.NumPipes]int64
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
	prog    *Program
	tab     *latency.Table
	cfg     Config
	sms     []*sm
	now     int64
	end     int64
	age     int64
	l2Free  float64
	drFree  float64
	res     Result
	tlLeft  int
	pending []*block // resident blocks
	nblocks int
	fin     bool
	retired bool // a block finished since the last retire
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
	if cfg.MaxIntervals <= 0 {
		cfg.MaxIntervals = 4096
	}
	if cfg.QueueCycles <= 0 {
		cfg.QueueCycles = 16
	}
	m := &Model{prog: prog, tab: prog.Table, cfg: cfg, tlLeft: cfg.TimelineWarps}
	// Warps keep pointers into Timelines: its capacity must never grow.
	m.res.Timelines = make([]WarpTimeline, 0, max(cfg.TimelineWarps, 0))
	for i := 0; i < cfg.NumSMs; i++ {
		m.sms = append(m.sms, &sm{id: i})
	}
	m.res.PerPC = make([][NumReasons]int64, len(prog.Insts))
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
	if m.fin {
		return ErrFinished
	}
	if len(warps) == 0 {
		return fmt.Errorf("%w: no warps", ErrBadBlock)
	}
	if err := m.prog.validate(warps); err != nil {
		return err
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

func (m *Model) dispatch(s *sm, warps []WarpStream) {
	b := &block{id: m.nblocks, sm: s}
	m.nblocks++
	s.blocks++
	nr := m.prog.NumRegs()
	for i, st := range warps {
		w := &warp{stream: st, blk: b, idx: i, age: m.age, ready: make([]int64, nr), dep: make([]latency.Dep, nr),
			state: NotSelected, statePC: -1, since: m.now}
		m.age++
		b.warps = append(b.warps, w)
		if len(st) == 0 {
			w.done = true
			continue
		}
		b.live++
		if m.tlLeft > 0 {
			m.tlLeft--
			m.res.Timelines = append(m.res.Timelines, WarpTimeline{Block: b.id, Warp: i, SM: s.id, SubPart: i % 4, First: m.now})
			w.tl = &m.res.Timelines[len(m.res.Timelines)-1]
		}
		sp := &s.sp[i%4]
		sp.warps = append(sp.warps, w)
		sp.wake = min(sp.wake, m.now)
	}
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

// cycle simulates the sub-partitions due at m.now and advances m.now to
// the next cycle at which any of them may change state.
func (m *Model) cycle() {
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
			var pick *warp
			wake := int64(math.MaxInt64)
			for _, w := range sp.warps {
				if w.done {
					continue
				}
				if w.wake > m.now { // nothing it waits for can have changed
					w.nst, w.npc = w.state, w.statePC
					continue
				}
				m.classify(s, sp, w)
				if w.nst == Selected && (pick == nil || w == sp.last || (pick != sp.last && w.age < pick.age)) {
					pick = w
				}
			}
			for _, w := range sp.warps {
				if w.done {
					continue
				}
				st := w.nst
				if st == Selected && w != pick {
					st = NotSelected
				}
				m.setState(w, st, w.npc)
				wake = min(wake, w.wake)
			}
			if pick != nil {
				m.issue(s, sp, pick)
				wake = m.now + 1
			}
			sp.wake = wake
			next = min(next, wake)
		}
	}
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
	if tl := w.tl; tl != nil {
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
	if w.done || w.pos >= len(w.stream) {
		w.wake = math.MaxInt64
		return
	}
	e := w.stream[w.pos]
	in := &m.prog.Insts[e.PC]
	w.npc = e.PC
	if w.atBar {
		w.nst, w.npc, w.wake = Barrier, w.ctrlPC, math.MaxInt64
		return
	}
	if m.now < w.ctrl {
		w.nst, w.npc, w.wake = w.ctrlWhy, w.ctrlPC, w.ctrl
		return
	}
	var ready int64
	var dep latency.Dep
	for _, r := range in.Src {
		if w.ready[r] > ready {
			ready, dep = w.ready[r], w.dep[r]
		}
	}
	for _, r := range in.Dst {
		if w.ready[r] > ready {
			ready, dep = w.ready[r], w.dep[r]
		}
	}
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

// issue issues the warp's next instruction at m.now.
func (m *Model) issue(s *sm, sp *subpart, w *warp) {
	e := w.stream[w.pos]
	in := &m.prog.Insts[e.PC]
	t := in.Timing
	if m.cfg.Probe != nil {
		m.cfg.Probe(w.blk.id, w.idx, w.pos, m.now)
	}
	sp.last = w
	w.pos++
	w.lastPC = e.PC
	m.res.Issued++
	m.res.IssueActive++
	m.res.PipeBusy[t.Pipe] += int64(t.IssueCycles)
	sp.pipeFree[t.Pipe] = m.now + int64(t.IssueCycles)
	done := m.now + int64(t.Latency)
	switch t.Class {
	case latency.ClassBar:
		if !in.NoWait {
			m.arrive(s, w, e.PC)
		}
	case latency.ClassBra, latency.ClassCall:
		w.ctrl, w.ctrlWhy, w.ctrlPC = m.now+int64(t.Latency), BranchResolving, e.PC
	case latency.ClassMembarCTA, latency.ClassMembarGL:
		start := max(m.now, w.memDone)
		w.ctrl, w.ctrlWhy, w.ctrlPC = start+int64(t.Latency), Membar, e.PC
	case latency.ClassLdShared, latency.ClassStShared, latency.ClassAtomShared:
		wf := int64(max(1, int(e.Sectors)))
		start := max(m.now, s.mioFree)
		s.mioFree = start + wf
		done = start + wf - 1 + int64(t.Latency)
		w.memDone = max(w.memDone, done)
	case latency.ClassLdGlobal, latency.ClassStGlobal, latency.ClassAtomGlobal:
		done = m.global(s, w, e, t)
	}
	if done > m.end {
		m.end = done
	}
	for _, r := range in.Dst {
		w.ready[r] = done
		w.dep[r] = t.Dep
	}
	if w.pos >= len(w.stream) {
		m.exit(w)
	}
	if m.now+1 > m.end {
		m.end = m.now + 1
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
	sec := int64(max(1, int(e.Sectors)))
	cost := (sec + 3) / 4 // L1TEX data path: 4 sectors (128 B) per cycle per SM
	start := max(m.now, s.l1Free)
	s.l1Free = start + cost
	at := float64(start + cost)
	lat := int64(m.tab.MemLatency(e.Mem))
	if atomic {
		lat = int64(t.Latency)
	}
	if e.Mem >= MemL2Hit || store || atomic {
		bytes := float64(sec * 32)
		if bw := m.tab.Mem.L2BytesPerCycle; bw > 0 {
			st := math.Max(at, m.l2Free)
			m.l2Free = st + bytes/bw
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
	done := m.now + queue + cost + lat
	if store {
		m.end = max(m.end, done)
		w.memDone = max(w.memDone, done)
		return m.now + 1
	}
	w.memDone = max(w.memDone, done)
	return done
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
	if b.arrived == 0 || b.arrived < b.live {
		return
	}
	rel := b.lastArr + int64(m.tab.Bar.ReleaseCycles)
	for _, w := range b.warps {
		if w.atBar {
			w.atBar = false
			w.ctrl, w.ctrlWhy = rel, Barrier
			w.wake = 0
			sp := &b.sm.sp[w.idx%4]
			sp.wake = min(sp.wake, m.now+1)
		}
	}
	b.arrived, b.lastArr = 0, 0
}

// exit retires a warp whose stream is exhausted.
func (m *Model) exit(w *warp) {
	m.chargeTo(w, m.now+1) // the issuing cycle
	w.done = true
	b := w.blk
	b.live--
	if b.live == 0 {
		m.retired = true
	}
	if w.tl != nil {
		w.tl.Finish = m.now + 1
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
		for i := range s.sp {
			sp := &s.sp[i]
			j := 0
			for _, w := range sp.warps {
				if w.blk != b {
					sp.warps[j] = w
					j++
				}
			}
			clear(sp.warps[j:])
			sp.warps = sp.warps[:j]
			if sp.last != nil && sp.last.blk == b {
				sp.last = nil
			}
		}
	}
	clear(m.pending[k:])
	m.pending = m.pending[:k]
}
