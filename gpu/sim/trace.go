package sim

// tracer records the steps of the traced warps.
type tracer struct {
	t       *Trace
	max     int
	pendMem []MemRecord
	pendBar *BarrierEvent
	depth   map[int]int // SIMT stack depth after the warp's previous step
	live    [][]int32   // per op: registers live after it
}

// on reports whether more steps may be recorded.
func (t *tracer) on() bool { return !t.t.Truncated }

// begin starts a step.
func (t *tracer) begin() {
	t.pendMem = nil
	t.pendBar = nil
}

// mem adds a memory access to the current step.
func (t *tracer) mem(m MemRecord) { t.pendMem = append(t.pendMem, m) }

// barrier adds a barrier event to the current step.
func (t *tracer) barrier(ev *BarrierEvent) { t.pendBar = ev }

// step records one executed warp-instruction.
func (t *tracer) step(l *launcher, w *warp, pc int32, o *op, active, exec uint32, event string) {
	if len(t.t.Steps) >= t.max {
		t.t.Truncated = true
		return
	}
	info := &l.prog.info[pc]
	s := Step{Warp: w.id, PC: int(pc), Line: info.line, Loc: info.loc, Text: info.text,
		Active: active, Exec: exec, Exited: w.exited, Mem: t.pendMem, Barrier: t.pendBar, Event: event}
	switch o.kind {
	case kCall, kRet, kExit, kBra, kBrx, kSt, kNop, kWarpSync, kTrap, kUnsupported:
	default:
		if fn := l.prog.fns[info.fn]; fn == w.fn {
			r := w.regs[w.regBase:]
			for i := 0; i < int(o.nd) && i < 4; i++ {
				d := o.dst[i]
				if d < 0 || int(d) >= fn.nregs {
					continue
				}
				rw := RegWrite{Reg: fn.regNames[d]}
				copy(rw.Values[:], r[int(d)*32:int(d)*32+32])
				s.Writes = append(s.Writes, rw)
			}
		}
	}
	if t.depth == nil {
		t.depth = map[int]int{}
	}
	if d, ok := t.depth[w.id]; ok && s.Event == "" && len(w.stack) < d {
		s.Event = "reconverge"
	}
	t.depth[w.id] = len(w.stack)
	if int(pc) < len(t.live) {
		fn := l.prog.fns[info.fn]
		for _, r := range t.live[pc] {
			s.Live = append(s.Live, fn.regNames[r])
		}
	}
	s.Stack = make([]StackEntry, len(w.stack))
	for i, e := range w.stack {
		s.Stack[i] = StackEntry{PC: int(e.pc), RPC: int(e.rpc), Mask: e.mask}
	}
	t.t.Steps = append(t.t.Steps, s)
	t.pendMem, t.pendBar = nil, nil
}
