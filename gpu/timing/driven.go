package timing

import (
	"context"
	"errors"
	"math"

	"github.com/kernelscope/kernelscope/gpu/mem"
)

// Execution-driven replay (docs/design.md, "Execution-driven timing").
//
// RunDriven times a launch whose instructions a Source executes when the
// model issues them, instead of replaying recorded streams: blocks become
// resident when the model frees a slot (Source.Start), each warp's next PC
// comes from Source.Peek, and the instruction executes, with its memory
// outcome, at issue (Source.Step). So resident blocks interleave as the
// schedulers interleave them: CAS loops retry as often as contention makes
// them and spin-waits see other blocks' stores in model time. Barriers are
// the source's: a warp waits while Source.Waiting says so, and is released
// (after the barrier's release latency) when the source released it.

// WarpState is what a Source warp can do next.
type WarpState uint8

// The states Source.Peek reports.
const (
	WarpReady   WarpState = iota // its next instruction is at the PC returned
	WarpWaiting                  // it waits at a barrier
	WarpDone                     // it has exited
)

// Source executes the warps of an execution-driven replay (gpu/sim's Stepper
// behind an adapter). Calls come from the model's goroutine, in model order.
type Source interface {
	Blocks() int                                             // blocks of the launch, started in order
	Start(sm int) (slot, warps int, err error)               // make the next block resident on SM sm
	Peek(slot, warp int) (pc int32, st WarpState, err error) // the warp's next instruction
	// Step executes the warp's next instruction and returns its event (PC,
	// active lanes, memory outcome of its first access) and that access (nil
	// if none), which the atomic units and time-aware caches time.
	Step(slot, warp int) (Event, *mem.Access, error)
	Waiting(slot, warp int) bool // the warp waits at a barrier
	Deadlock() error             // the error for resident blocks whose live warps all wait at barriers
}

// ErrStuck is returned by RunDriven when the resident warps can never issue
// again and the source gave no error for it.
var ErrStuck = errors.New("timing: every resident warp waits at a barrier")

// RunDriven runs an execution-driven replay of every block of src to the
// end and returns the result. The model must be new (no AddBlock before).
func (m *Model) RunDriven(ctx context.Context, src Source) (*Result, error) {
	if m.fin || m.nblocks > 0 {
		return nil, ErrFinished
	}
	m.src = src
	n := src.Blocks()
	for {
		for m.started < n {
			s := m.freeSM()
			if s == nil {
				break
			}
			m.dispatchDriven(s)
			if m.srcErr != nil {
				return nil, m.srcErr
			}
		}
		if len(m.pending) == 0 && m.started >= n {
			break
		}
		err := m.run(ctx, func() bool { return m.srcErr != nil || m.stuck || (m.started < n && m.freeSM() != nil) })
		if err != nil {
			return nil, err
		}
		if m.srcErr != nil {
			return nil, m.srcErr
		}
		if m.stuck {
			if err := src.Deadlock(); err != nil {
				return nil, err
			}
			return nil, ErrStuck
		}
	}
	return m.Finish(ctx)
}

// dispatchDriven makes the source's next block resident on s.
func (m *Model) dispatchDriven(s *sm) {
	slot, nw, err := m.src.Start(s.id)
	m.started++
	if err != nil {
		m.srcErr = err
		return
	}
	b := &block{id: m.nblocks, sm: s, slot: slot}
	m.nblocks++
	s.blocks++
	nr := m.prog.NumRegs()
	for i := 0; i < nw; i++ {
		w := m.newWarp(nr)
		w.blk, w.idx, w.age, w.state, w.statePC, w.since = b, i, m.age, NotSelected, -1, m.now
		m.age++
		b.warps = append(b.warps, w)
		m.refill(w, -1)
		m.fold(w)
		m.prepare(w)
		if w.pos >= w.n {
			w.done = true
			continue
		}
		m.seat(s, b, i, w)
	}
	m.seated(s, b)
}

// refill asks the source for the warp's next instruction: a one-event
// stream, an empty one when the warp exited, or (waiting at a barrier) a
// placeholder at the barrier's pc with the warp parked.
func (m *Model) refill(w *warp, barPC int32) {
	w.pos = 0
	pc, st, err := m.src.Peek(w.blk.slot, w.idx)
	if err != nil {
		m.srcErr = err
		w.n = 0
		return
	}
	switch st {
	case WarpReady:
		w.cur, w.n = Event{PC: pc}, 1
	case WarpWaiting:
		if barPC < 0 {
			barPC = max(w.lastPC, 0)
		}
		w.cur, w.n = Event{PC: barPC}, 1
		if !w.atBar {
			w.atBar, w.ctrlPC = true, barPC
			w.blk.arrived++
		}
	default:
		w.n = 0
	}
}

// execute runs the warp's next instruction in the source and returns its event.
func (m *Model) execute(w *warp, e Event) Event {
	if m.srcErr != nil {
		return e
	}
	ev, acc, err := m.src.Step(w.blk.slot, w.idx)
	m.stepAcc = acc
	if err != nil {
		m.srcErr = err
		return e
	}
	if ev.PC < 0 || int(ev.PC) >= len(m.prog.Insts) {
		return e // nothing issued: time the peeked instruction
	}
	return ev
}

// afterIssueDriven files what the source says after the warp's instruction
// at pc executed: its next instruction, or its wait at a barrier, and
// releases the warps of its block the source released.
func (m *Model) afterIssueDriven(w *warp, pc int32, bar bool) {
	b := w.blk
	rel := b.lastArr + int64(m.tab.Bar.ReleaseCycles)
	m.refill(w, pc)
	if bar && !w.atBar {
		// the last arrival: it too waits for the release
		w.ctrl, w.ctrlWhy, w.ctrlPC = max(w.ctrl, rel), Barrier, pc
	}
	m.syncBar(b)
}

// syncBar releases the block's parked warps that the source no longer holds
// at a barrier, a release latency after the latest arrival.
func (m *Model) syncBar(b *block) {
	if b.arrived == 0 || m.src == nil {
		return
	}
	rel := b.lastArr + int64(m.tab.Bar.ReleaseCycles)
	for _, x := range b.warps {
		if !x.atBar || x.done || m.src.Waiting(b.slot, x.idx) {
			continue
		}
		x.atBar = false
		b.arrived--
		x.ctrl, x.ctrlWhy = max(x.ctrl, rel), Barrier
		m.refill(x, x.ctrlPC)
		m.fold(x)
		m.prepare(x)
		m.setWake(x, 0)
		if x.pos >= x.n && !x.atBar {
			m.exitAfter(x, 0)
			continue
		}
		m.wakeBy(&b.sm.sp[x.idx%4], m.now+1)
	}
	if b.arrived == 0 {
		b.lastArr = 0
	}
}

// foldDriven executes instructions that issue as no SASS instruction
// (Inst.Issues == 0) at once: their results are ready when their sources are.
func (m *Model) foldDriven(w *warp) {
	for n := 0; w.pos < w.n && !w.atBar && m.srcErr == nil; n++ {
		pc := w.cur.PC
		in := &m.prog.Insts[pc]
		if in.Issues != 0 {
			return
		}
		foldRegs(w, in)
		m.execute(w, w.cur)
		m.refill(w, pc)
		m.syncBar(w.blk)
	}
}

// checkStuck notes a driven replay whose resident live warps can never issue.
func (m *Model) checkStuck(next int64) {
	if m.src == nil || next != math.MaxInt64 {
		return
	}
	for _, b := range m.pending {
		if b.live > 0 {
			m.stuck = true
			return
		}
	}
}

// uniformAddr reports whether every active lane of a accesses one address
// (the run-time stand-in for ptxas's compile-time uniformity).
func uniformAddr(a *mem.Access) bool {
	first := true
	var x uint64
	for l := 0; l < 32; l++ {
		if a.Mask&(1<<l) == 0 {
			continue
		}
		if first {
			x, first = a.Addr[l], false
		} else if a.Addr[l] != x {
			return false
		}
	}
	return !first
}
