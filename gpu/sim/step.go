package sim

import (
	"fmt"
	"sort"
	"strings"
)

// Execution-driven stepping (docs/design.md, "Execution-driven timing").
//
// With Config.Driver set, Launch does not schedule blocks itself: it hands a
// Stepper to the driver (a timing model), which makes blocks resident when it
// has a slot for them (Start), asks each warp for the PC of its next
// instruction (Peek) and executes exactly one instruction of a warp when its
// scheduler issues it (Step). Resident blocks therefore interleave as the
// model's schedulers interleave them: a CAS loop retries as often as the
// model's order makes it, and a spin-wait sees another block's store once
// the model has issued it. Barriers stay the simulator's: a warp that
// arrives waits (Waiting) until the last thread arrives, and the driver asks.
// Everything runs on the driver's goroutine, in its order; the launch's
// counters, printf and memory observer (Config.OnMemory, called during Step)
// see that order. Checks (Config.Check) are not supported on this path.

// Driver runs an execution-driven launch: Launch calls it once, with the
// launch's Stepper, in place of its own block scheduler.
type Driver func(st *Stepper) error

// WarpState is what a warp can do next.
type WarpState uint8

// The warp states Peek reports.
const (
	WarpReady   WarpState = iota // its next instruction is at the PC Peek returned
	WarpWaiting                  // it waits at a barrier for other warps of its block
	WarpDone                     // it has exited
)

// SpinLimit is how many spinning instructions (volatile, relaxed or acquire
// loads and CAS) the resident warps may issue, all together, while nothing
// anywhere stores, exits, passes a barrier, starts a block or works (a warp
// issuing more than spinWork instructions since its last spinning one),
// before an execution-driven launch ends in a deadlock error naming the
// spinning blocks.
const SpinLimit = 1 << 20

// spinWork is how many instructions without a spinning one make a warp count
// as working rather than spinning (a spin loop's body is a few instructions).
const spinWork = 64

// Stepper executes an execution-driven launch one warp-instruction at a
// time (Config.Driver). Not safe for concurrent use.
type Stepper struct {
	l       *launcher
	slots   []*block // resident blocks by slot; nil: free
	live    []int    // per slot: warps not done
	booked  []uint32 // per slot: warps whose exit is booked (warps per block <= 32)
	spare   []*block // blocks of finished slots, for reuse
	started int      // blocks started
	done    int      // blocks finished
	kind    []uint8  // per pc: stepSpin, stepProgress or 0
	quiet   int64    // spinning instructions since the last progress
	spinPC  []int32  // per slot: pc of the block's latest spinning instruction (-1: none)
	since   []uint16 // per slot x 32 + warp: instructions since the warp's last spinning one (saturating)
	nctx    int      // steps since the context was last checked
	err     error    // what a finished block's end-of-block check found
	limit   int64    // SpinLimit (tests may lower it)
}

// Per-pc classes of Stepper.kind.
const (
	stepSpin     = 1 // an ordered load or a CAS: what a spin-wait repeats
	stepProgress = 2 // a store, reduction, non-CAS atomic or barrier: what ends one
)

// runDriven runs the launch through cfg.Driver.
func (l *launcher) runDriven() error {
	if c := l.cfg.Check; c.Race || c.Init || c.Sync {
		return launchError(InvalidLaunch, "the checks (racecheck, initcheck, synccheck) run only on the trace-driven path, not with an execution-driven timing model")
	}
	st := &Stepper{l: l, kind: make([]uint8, len(l.prog.info)), limit: SpinLimit}
	if n := l.cfg.sched.spins; n > 0 {
		st.limit = int64(n)
	}
	for pc, in := range l.prog.info {
		t := in.text
		switch {
		case strings.HasPrefix(t, "atom.") && strings.Contains(t, ".cas"):
			st.kind[pc] = stepSpin
		case strings.HasPrefix(t, "ld.") && (strings.Contains(t, ".volatile") || strings.Contains(t, ".relaxed") || strings.Contains(t, ".acquire")):
			st.kind[pc] = stepSpin
		case strings.HasPrefix(t, "st.") || strings.HasPrefix(t, "red.") || strings.HasPrefix(t, "atom.") ||
			strings.HasPrefix(t, "bar") || strings.HasPrefix(t, "cp."):
			st.kind[pc] = stepProgress
		}
	}
	l.driven = true
	err := l.cfg.Driver(st)
	l.progress(st.done, true)
	return err
}

// Blocks is the number of blocks of the launch (started in order 0, 1, ...).
func (s *Stepper) Blocks() int { return s.l.nblocks }

// WarpsPerBlock is the number of warps of every block.
func (s *Stepper) WarpsPerBlock() int { return s.l.nwarps }

// SMs is the launch's SM count (Config.NumSMs): what %nsmid reads.
func (s *Stepper) SMs() int { return s.l.numSMs }

// Started is how many blocks have been started.
func (s *Stepper) Started() int { return s.started }

// Start makes the next block resident on SM sm (what %smid reads) and
// returns its slot, the handle Peek, Step and Waiting take.
func (s *Stepper) Start(sm int) (slot int, err error) {
	l := s.l
	if s.started >= l.nblocks {
		return -1, fmt.Errorf("sim: every block of the launch has been started")
	}
	b := s.started
	s.started++
	var blk *block
	if n := len(s.spare); n > 0 {
		blk = s.spare[n-1]
		s.spare = s.spare[:n-1]
	} else {
		blk = s.newBlock()
	}
	l.beginBlock(blk, b)
	blk.sm = ((sm % l.numSMs) + l.numSMs) % l.numSMs // the timing model's SM (%smid < %nsmid)
	slot = -1
	for i, x := range s.slots {
		if x == nil {
			slot = i
			break
		}
	}
	if slot < 0 {
		slot = len(s.slots)
		s.slots = append(s.slots, nil)
		s.live = append(s.live, 0)
		s.booked = append(s.booked, 0)
		s.spinPC = append(s.spinPC, -1)
		s.since = append(s.since, make([]uint16, 32)...)
	}
	clear(s.since[slot*32 : slot*32+32])
	s.slots[slot], s.live[slot], s.booked[slot], s.spinPC[slot] = blk, len(blk.warps), 0, -1
	s.quiet = 0
	return slot, nil
}

// newBlock allocates a block with its warps (as the parallel scheduler's slots do).
func (s *Stepper) newBlock() *block { return s.l.allocBlock() }

// Block is the linear index of the block resident in slot.
func (s *Stepper) Block(slot int) int { return s.slots[slot].lin }

// Peek returns what warp w of the block in slot does next: WarpReady and the
// PC of its next instruction, WarpWaiting, or WarpDone.
func (s *Stepper) Peek(slot, w int) (pc int32, st WarpState, err error) {
	blk := s.slots[slot]
	if blk == nil {
		return -1, WarpDone, nil
	}
	x := blk.warps[w]
	if x.done {
		return -1, WarpDone, nil
	}
	if x.waiting {
		return -1, WarpWaiting, nil
	}
	if len(x.stack) == 0 {
		s.warpDone(slot, x)
		return -1, WarpDone, s.err
	}
	pc, rpc, active := x.top()
	if pc == rpc || active == 0 || pc < 0 {
		ok, err := s.l.settle(x)
		if err != nil {
			return -1, WarpDone, err
		}
		if !ok {
			if x.done {
				s.warpDone(slot, x)
				return -1, WarpDone, s.err
			}
			return -1, WarpWaiting, nil // parked at a barrier
		}
		pc, _, _ = x.top()
	}
	return pc, WarpReady, nil
}

// Waiting reports whether warp w of the block in slot waits at a barrier.
func (s *Stepper) Waiting(slot, w int) bool {
	blk := s.slots[slot]
	return blk != nil && blk.warps[w].waiting
}

// Step executes the next instruction of warp w of the block in slot (which
// Peek said is ready) and returns its issue record; its memory accesses went
// to Config.OnMemory, in order, during the call. The budget, the context and
// the spin limit are checked after it.
func (s *Stepper) Step(slot, w int) (Issue, error) {
	l := s.l
	blk := s.slots[slot]
	if blk == nil {
		return Issue{PC: -1}, fmt.Errorf("sim: step of a finished block's warp")
	}
	x := blk.warps[w]
	l.blk = blk
	x.issues = x.issues[:0]
	if err := l.runWarp(x, 1); err != nil {
		return Issue{PC: -1}, err
	}
	is := Issue{PC: -1}
	if len(x.issues) > 0 {
		is = x.issues[len(x.issues)-1]
		x.issues = x.issues[:0]
	}
	if is.PC >= 0 {
		since := &s.since[slot*32+w]
		switch s.kind[is.PC] {
		case stepSpin:
			s.quiet++
			s.spinPC[slot] = is.PC
			*since = 0
		case stepProgress:
			s.quiet = 0
		default:
			if *since < spinWork {
				*since++
			} else {
				s.quiet = 0 // this warp works: the others may be waiting for it
			}
		}
	}
	if x.done || len(x.stack) == 0 {
		s.warpDone(slot, x)
		if s.err != nil {
			return is, s.err
		}
	}
	if l.threads > l.budget {
		return is, l.budgetError(x, is.PC)
	}
	if s.nctx++; s.nctx >= 1024 {
		s.nctx = 0
		if err := l.ctx.Err(); err != nil {
			return is, l.laneError(x, is.PC, 0, Interrupted, 0, "interrupted", err.Error())
		}
		l.progressHead(0)
	}
	if s.quiet > s.limit {
		return is, s.spinDeadlock()
	}
	return is, nil
}

// warpDone books a warp that has exited and frees its block's slot when it was the last.
func (s *Stepper) warpDone(slot int, x *warp) {
	if s.booked[slot]&(1<<uint(x.id)) != 0 {
		return
	}
	x.done = true
	s.booked[slot] |= 1 << uint(x.id)
	s.quiet = 0
	s.live[slot]--
	if s.live[slot] > 0 {
		return
	}
	blk := s.slots[slot]
	if err := s.l.wgmmaBlockEnd(blk); err != nil && s.err == nil {
		s.err = err
	}
	s.slots[slot] = nil
	s.spare = append(s.spare, blk)
	s.done++
	s.l.doneBlocks = s.done
}

// Finish returns what the end-of-block checks (wgmma warpgroups, as on the
// trace-driven path) found in the finished blocks, if the driver has not yet.
func (s *Stepper) Finish() error { return s.err }

// Deadlock is the error for resident blocks none of whose warps can run:
// every live warp waits at a barrier. It names the first such block's waiting
// warps and barrier lines, and the other blocks.
func (s *Stepper) Deadlock() error {
	var first *block
	var others []int
	for _, b := range s.slots {
		if b == nil {
			continue
		}
		if first == nil && anyWaiting(b) {
			first = b
			continue
		}
		others = append(others, b.lin)
	}
	if first == nil {
		return launchError(Internal, "deadlock reported with no resident block")
	}
	e := s.l.deadlock(first)
	if len(others) > 0 {
		sort.Ints(others)
		e.Cause += fmt.Sprintf("; block%s %s, resident beside it, cannot finish either", plural(len(others)), intList(others))
	}
	return e
}

// spinDeadlock is the error for resident blocks that spin (ordered loads or
// CAS at the same places) while nothing anywhere makes progress.
func (s *Stepper) spinDeadlock() error {
	l := s.l
	var spinning []int
	where := map[int32][]int{}
	var pcs []int32
	var first *warp
	var firstPC int32 = -1
	for i, b := range s.slots {
		if b == nil || s.spinPC[i] < 0 {
			continue
		}
		spinning = append(spinning, b.lin)
		pc := s.spinPC[i]
		if _, ok := where[pc]; !ok {
			pcs = append(pcs, pc)
		}
		where[pc] = append(where[pc], b.lin)
		if first == nil {
			for _, w := range b.warps {
				if !w.done {
					first, firstPC = w, pc
					break
				}
			}
		}
	}
	if first == nil {
		return launchError(Internal, "spin deadlock with no spinning block")
	}
	var parts []string
	for _, pc := range pcs {
		bl := where[pc]
		sort.Ints(bl)
		parts = append(parts, fmt.Sprintf("block%s %s spin at PTX line %d (%s)", plural(len(bl)), intList(bl), l.prog.info[pc].line, l.prog.info[pc].text))
	}
	cause := strings.Join(parts, "; ") + fmt.Sprintf(": %d spinning instructions with no store, exit, barrier, new block or working warp anywhere", s.limit)
	if left := l.nblocks - s.started; left > 0 {
		cause += fmt.Sprintf("; %d later block%s (from block %d) cannot become resident while they spin (%d resident at a time)",
			left, plural(left), s.started, len(s.slots))
	} else {
		cause += "; every block of the launch is resident or done, so the value they wait for is never written"
	}
	sort.Ints(spinning)
	e := l.laneError(first, firstPC, firstLane(first.lanes&^first.exited), Deadlock, 0,
		fmt.Sprintf("deadlock: block%s %s wait for a value no running thread will write", plural(len(spinning)), intList(spinning)), cause)
	e.Warps = nil
	return e
}

func anyWaiting(b *block) bool {
	for _, w := range b.warps {
		if w.waiting {
			return true
		}
	}
	return false
}

// RoundRobin is a Driver for launches without a timing model: it keeps up to
// resident blocks resident (started in order as others finish) and steps
// their ready warps one instruction each in turn, so that blocks waiting on
// each other (spin-waits on flags) make progress as on a GPU where they are
// resident together. Block b runs on SM b mod SMs (%smid), as on the block scheduler.
func RoundRobin(resident int) Driver {
	resident = max(resident, 1)
	return func(st *Stepper) error {
		var slots []int
		nw := st.WarpsPerBlock()
		for {
			for len(slots) < resident && st.Started() < st.Blocks() {
				s, err := st.Start(st.Started() % st.SMs())
				if err != nil {
					return err
				}
				slots = append(slots, s)
			}
			if len(slots) == 0 {
				return st.Finish()
			}
			progressed := false
			k := 0
			for _, slot := range slots {
				live := 0
				for w := 0; w < nw; w++ {
					_, ws, err := st.Peek(slot, w)
					if err != nil {
						return err
					}
					if ws == WarpDone {
						continue
					}
					live++
					if ws != WarpReady {
						continue
					}
					if _, err := st.Step(slot, w); err != nil {
						return err
					}
					progressed = true
				}
				if live > 0 {
					slots[k] = slot
					k++
				}
			}
			slots = slots[:k]
			if !progressed && len(slots) > 0 {
				return st.Deadlock()
			}
		}
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// intList writes 0, 1, 2 (at most 8, then "and N more").
func intList(v []int) string {
	var b strings.Builder
	for i, x := range v {
		if i == 8 {
			fmt.Fprintf(&b, " and %d more", len(v)-8)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d", x)
	}
	return b.String()
}
