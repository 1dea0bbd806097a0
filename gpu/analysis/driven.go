package analysis

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/gpu/sim"
	"github.com/kernelscope/kernelscope/gpu/timing"
)

// Execution-driven ("interleaved") timing (docs/design.md, "Execution-driven
// timing"): the timing model decides which warp issues and the simulator
// executes that warp's instruction then, so resident blocks interleave as
// the model's schedulers interleave them. The other path ("replay",
// trace-driven) simulates each block to completion, on every core, and
// replays its issue log. Request.TimingPath chooses; by default
// (TimingAuto) a launch runs interleaved when its kernel's outcome or time
// depends on the interleaving: global or generic atomics, or ordered
// (volatile, relaxed, acquire) loads outside shared memory, as spin-waits
// use. The report says which path ran and why (report.Timing.Path, PathReason).

// The values of Request.TimingPath.
const (
	TimingAuto        = ""            // interleaved when the kernel has global atomics or ordered global loads, else replay
	TimingInterleaved = "interleaved" // execution-driven
	TimingReplay      = "replay"      // trace-driven
)

// choosePath decides the timing path of a launch of nblocks blocks, waveSize
// resident at a time, and says why. Automatically, a launch of more than the
// sampling limit's waves (DefaultTimingWaves, unless %timing all) runs replay,
// which samples: interleaved models every block, on one core.
func choosePath(req Request, mod *ptx.Module, k *ptx.Func, nblocks, waveSize int) (interleaved bool, why string) {
	// The order check compares serial orders; a host program's memory is used
	// in place (it cannot be run twice): both need the replay path. The other
	// checks run in a second, replay launch beside an interleaved one.
	c := req.Checks
	replayOnly := c.Order || (req.Program != nil && (c.Race || c.Init || c.Sync))
	switch req.TimingPath {
	case TimingReplay:
		return false, "asked for (%timing on replay)"
	case TimingInterleaved:
		if replayOnly {
			return false, "interleaved was asked for, but the order check (or a host program's checks) needs the replay path"
		}
		return true, "asked for (%timing on interleaved)"
	}
	if replayOnly {
		return false, "the order check (or a host program's checks) needs the replay path"
	}
	if in, what := interleavingSensitive(mod, k); in != nil {
		maxWaves := req.TimingWaves
		if maxWaves == 0 {
			maxWaves = DefaultTimingWaves
		}
		if waves := (nblocks + max(waveSize, 1) - 1) / max(waveSize, 1); maxWaves > 0 && waves > maxWaves {
			return false, fmt.Sprintf("the kernel has %s (PTX line %d), but the launch has %d waves (more than %d): replay samples them, interleaved would model every block (%%timing all interleaved does)", what, in.Pos.Line, waves, maxWaves)
		}
		return true, fmt.Sprintf("the kernel has %s (PTX line %d: %s), whose outcome and time depend on how resident blocks interleave", what, in.Pos.Line, in.Text())
	}
	return false, "no global atomics or ordered global loads: the blocks' order does not matter"
}

// interleavingSensitive returns the first instruction of the kernel or a
// function of the module that makes a launch depend on interleaving.
func interleavingSensitive(mod *ptx.Module, k *ptx.Func) (*ptx.Inst, string) {
	funcs := []*ptx.Func{k}
	for _, f := range mod.Funcs {
		if f != k && !f.Entry {
			funcs = append(funcs, f)
		}
	}
	for _, f := range funcs {
		for _, in := range f.Insts {
			has := func(m string) bool {
				for _, x := range in.Mods {
					if x == m || strings.HasPrefix(x, m+"::") {
						return true
					}
				}
				return false
			}
			if has("shared") || has("local") || has("param") || has("const") {
				continue
			}
			switch {
			case in.Op == "atom":
				return in, "a global atomic"
			case in.Op == "ld" && (has("volatile") || has("relaxed") || has("acquire")):
				return in, "an ordered global load"
			}
		}
	}
	return nil, ""
}

// spinSensitive reports an ordered global load (what a spin-wait on another
// block's flag uses): without a timing model such a launch still runs its
// resident blocks interleaved (sim.RoundRobin), so a block waiting for a later
// one terminates as on the GPU.
func spinSensitive(req Request, mod *ptx.Module, k *ptx.Func) (*ptx.Inst, bool) {
	if c := req.Checks; c.Order || (req.Program != nil && (c.Race || c.Init || c.Sync)) || req.TimingPath == TimingReplay {
		return nil, false
	}
	in, what := interleavingSensitive(mod, k)
	if in == nil {
		return nil, false
	}
	if what == "an ordered global load" || req.TimingPath == TimingInterleaved {
		return in, true
	}
	// an atomic came first: look for an ordered load after it
	for _, f := range append([]*ptx.Func{k}, mod.Funcs...) {
		for _, x := range f.Insts {
			if x.Op == "ld" {
				for _, m := range x.Mods {
					if m == "volatile" || m == "relaxed" || m == "acquire" {
						if !hasSpace(x, "shared", "local", "param", "const") {
							return x, true
						}
					}
				}
			}
		}
	}
	return nil, false
}

// hasSpace reports whether in names one of the state spaces.
func hasSpace(in *ptx.Inst, spaces ...string) bool {
	for _, x := range in.Mods {
		for _, s := range spaces {
			if x == s || strings.HasPrefix(x, s+"::") {
				return true
			}
		}
	}
	return false
}

// checksApart takes the checks out of an interleaved launch's configuration
// (the simulator runs them only on the replay path) and returns them.
func checksApart(cfg *sim.Config) sim.Checks {
	c := cfg.Check
	cfg.Check = sim.Checks{}
	return c
}

// replayChecks runs the launch again on the replay path with the checks and
// puts their findings into res (the interleaved launch's result).
func replayChecks(ctx context.Context, rep *report.Report, mod *ptx.Module, kernel string, simArgs []sim.Arg, cfg sim.Config, checks sim.Checks, res *sim.Result) {
	if checks == (sim.Checks{}) || res == nil {
		return
	}
	// A launch whose blocks wait for each other spins on the replay path: a
	// few times the interleaved launch's work is enough for any other.
	budget := 4*res.Stats.ThreadInstructions + 1<<20
	if cfg.Budget > 0 {
		budget = min(budget, cfg.Budget)
	}
	cfg2 := sim.Config{Grid: cfg.Grid, Block: cfg.Block, DynamicShared: cfg.DynamicShared, NumSMs: cfg.NumSMs, Budget: budget,
		SharedAllocUnit: cfg.SharedAllocUnit, MaxWarpsPerSM: cfg.MaxWarpsPerSM, Symbols: cfg.Symbols,
		Trace: sim.TraceConfig{MaxSteps: -1}, Check: checks, Shadows: cfg.Shadows}
	res2, err := sim.Launch(ctx, mod, kernel, simArgs, cfg2)
	var se *sim.Error
	switch {
	case errors.As(err, &se) && se.Kind == sim.Budget:
		rep.Notes = append(rep.Notes, fmt.Sprintf("the checks did not run: they need the replay path (blocks one after another), where this launch's blocks wait for each other (it ran past %d thread-instructions, 4x the interleaved launch)", budget))
		return
	case err != nil:
		rep.Notes = append(rep.Notes, "the checks ran in a second launch on the replay path, which failed: "+err.Error())
	default:
		rep.Notes = append(rep.Notes, "the checks ran in a second launch on the replay path (blocks one after another); the outputs, counters and timing are the interleaved launch's")
	}
	if res2 != nil {
		res.Findings, res.FindingsDropped, res.CheckNotes = res2.Findings, res2.FindingsDropped, res2.CheckNotes
	}
}

// stepSource is the simulator's Stepper as the timing model's Source: it
// turns each executed instruction's accesses (reported to OnMemory during
// Step) into the event the model times.
type stepSource struct {
	st *sim.Stepper
	t  *timingRun
	// pred[slot][warp] is the warp's walk through an if-converted region of the SASS stream
	// (timingRun.predicated) after its branch: the members its lanes skip issue with no
	// lane active, as in the replay path's block
	pred [][]predWalk
}

// predWalk is a warp's place in an if-converted region: the next member of region branch's
// list (timingRun.predicated[branch][k]); branch < 0 when the warp is in none.
type predWalk struct{ branch, k int32 }

// walk returns the warp's region walk, nil when it is in no region.
func (s *stepSource) walk(slot, w int) *predWalk {
	if slot < 0 || slot >= len(s.pred) || w < 0 || w >= len(s.pred[slot]) {
		return nil
	}
	if p := &s.pred[slot][w]; p.branch >= 0 {
		return p
	}
	return nil
}

// synthetic returns the region member the warp issues next without executing it (its lanes
// skipped it), or -1 when the next instruction is the simulator's.
func (s *stepSource) synthetic(slot, w int) int32 {
	p := s.walk(slot, w)
	if p == nil {
		return -1
	}
	members := s.t.predicated[p.branch]
	if int(p.k) >= len(members) {
		p.branch = -1
		return -1
	}
	m := members[p.k]
	if pc, st, err := s.st.Peek(slot, w); err == nil && st == sim.WarpReady && pc == m {
		return -1 // the lanes run it: the simulator executes it
	}
	return m
}

func (s *stepSource) Blocks() int { return s.st.Blocks() }

func (s *stepSource) Start(sm int) (int, int, error) {
	slot, err := s.st.Start(sm)
	if err == nil && s.t.predicated != nil && slot >= 0 {
		for len(s.pred) <= slot {
			s.pred = append(s.pred, nil)
		}
		n := s.st.WarpsPerBlock()
		if cap(s.pred[slot]) < n {
			s.pred[slot] = make([]predWalk, n)
		}
		s.pred[slot] = s.pred[slot][:n]
		for i := range s.pred[slot] {
			s.pred[slot][i] = predWalk{branch: -1}
		}
	}
	return slot, s.st.WarpsPerBlock(), err
}

func (s *stepSource) Peek(slot, w int) (int32, timing.WarpState, error) {
	if m := s.synthetic(slot, w); m >= 0 {
		return m, timing.WarpReady, nil
	}
	pc, st, err := s.st.Peek(slot, w)
	return pc, timing.WarpState(st), err
}

func (s *stepSource) Step(slot, w int) (timing.Event, *mem.Access, error) {
	t := s.t
	if m := s.synthetic(slot, w); m >= 0 {
		s.walk(slot, w).k++
		return timing.Event{PC: m}, nil, nil
	}
	if p := s.walk(slot, w); p != nil {
		p.k++ // the member the lanes run
	}
	t.stepN, t.stepHasAcc, t.stepEv = 0, false, timing.Event{}
	is, err := s.st.Step(slot, w)
	if err == nil && is.PC >= 0 && int(is.PC) < len(t.predicated) && t.predicated[is.PC] != nil && slot < len(s.pred) && w < len(s.pred[slot]) {
		s.pred[slot][w] = predWalk{branch: is.PC}
	}
	e := t.stepEv
	e.PC, e.Active = is.PC, is.Active
	if int(e.PC) >= t.npcs {
		t.dropped++
		e.PC = -1
	}
	var acc *mem.Access
	if t.stepHasAcc {
		acc = &t.stepAcc
	}
	return e, acc, err
}

func (s *stepSource) Waiting(slot, w int) bool {
	return s.synthetic(slot, w) < 0 && s.st.Waiting(slot, w)
}

func (s *stepSource) Deadlock() error { return s.st.Deadlock() }

// stepMemory records an access of the instruction being stepped: the first
// one times the instruction (as the replay path times an issue by its first).
func (t *timingRun) stepMemory(a *mem.Access, o mem.Outcome) {
	t.stepN++
	if t.stepN > 1 {
		return
	}
	t.stepEv = eventOf(a, o)
	if a.Space == mem.Global || a.Space == mem.Local || (a.Space == mem.Shared && a.Kind >= mem.Atomic) {
		if t.timed || a.Kind >= mem.Atomic {
			t.stepAcc, t.stepHasAcc = *a, true
		}
	}
}

// driver is the sim.Driver of an interleaved launch: the model runs the
// launch through the Stepper and keeps its result for finish.
func (t *timingRun) driver(ctx context.Context) sim.Driver {
	return func(st *sim.Stepper) error {
		res, err := t.model.RunDriven(ctx, &stepSource{st: st, t: t})
		if err != nil {
			return err
		}
		t.driven = res
		return st.Finish()
	}
}
