package sim

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// maxSharedPerBlock is the largest shared allocation of a block (sm_90 opt-in limit).
const maxSharedPerBlock = 227 * 1024

// Launch runs kernel of module m over the grid of cfg with the given
// arguments (in parameter order) and returns the final buffers, counters and
// trace. A failure is returned as *Error; a partial Result with the counters
// so far accompanies errors raised while running.
func Launch(ctx context.Context, m *ptx.Module, kernel string, args []Arg, cfg Config) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res = nil
			err = &Error{Kind: Internal, PC: -1, Msg: "internal simulator error", noWhere: true,
				Cause: fmt.Sprintf("%v (please report this)\n%.2000s", p, debug.Stack())}
		}
	}()
	if ctx == nil {
		ctx = context.Background()
	}
	if m == nil {
		return nil, launchError(InvalidLaunch, "no module")
	}
	for i := 0; i < 3; i++ {
		if cfg.Grid[i] == 0 {
			cfg.Grid[i] = 1
		}
		if cfg.Block[i] == 0 {
			cfg.Block[i] = 1
		}
		if cfg.Grid[i] < 0 || cfg.Block[i] < 0 {
			return nil, launchError(InvalidLaunch, "negative launch dimension: grid %v block %v", cfg.Grid, cfg.Block)
		}
	}
	nthreads := cfg.Block[0] * cfg.Block[1] * cfg.Block[2]
	if nthreads > 1024 || cfg.Block[2] > 64 {
		return nil, launchError(InvalidLaunch, "block (%d,%d,%d) has %d threads; the limit is 1024 (and 64 in z)",
			cfg.Block[0], cfg.Block[1], cfg.Block[2], nthreads)
	}
	if cfg.Grid[0] > 1<<31-1 || cfg.Grid[1] > 65535 || cfg.Grid[2] > 65535 {
		return nil, launchError(InvalidLaunch, "grid (%d,%d,%d) exceeds the limits (2^31-1, 65535, 65535)", cfg.Grid[0], cfg.Grid[1], cfg.Grid[2])
	}
	nblocks := cfg.Grid[0] * cfg.Grid[1] * cfg.Grid[2]
	if cfg.DynamicShared < 0 {
		return nil, launchError(InvalidLaunch, "negative dynamic shared memory size %d", cfg.DynamicShared)
	}
	h := newHeap()
	if err := h.place(cfg.Memory); err != nil {
		return nil, err
	}
	prog, bufs, err := newProgram(m, kernel, args, &cfg, h)
	if err != nil {
		return nil, err
	}
	kf := prog.kernel.f
	if kf.ReqNTid != [3]int{} {
		want := kf.ReqNTid
		for i := range want {
			if want[i] == 0 {
				want[i] = 1
			}
		}
		if want != cfg.Block {
			return nil, launchError(InvalidLaunch, "kernel %s requires a block of %v (.reqntid), launched with %v", kernel, want, cfg.Block)
		}
	}
	if kf.MaxNTid != [3]int{} {
		max := 1
		for _, v := range kf.MaxNTid {
			if v > 0 {
				max *= v
			}
		}
		if nthreads > max {
			return nil, launchError(InvalidLaunch, "kernel %s allows at most %d threads per block (.maxntid), launched with %d", kernel, max, nthreads)
		}
	}
	if prog.sharedSize > maxSharedPerBlock {
		return nil, launchError(InvalidLaunch, "the block needs %d bytes of shared memory; the limit is %d", prog.sharedSize, maxSharedPerBlock)
	}
	l := &launcher{ctx: ctx, cfg: &cfg, prog: prog, heap: h, cnt: make([]counter, len(prog.ops)),
		grid: cfg.Grid, block: cfg.Block, nthreads: nthreads, nwarps: (nthreads + 31) / 32, numSMs: cfg.NumSMs}
	if l.numSMs <= 0 {
		l.numSMs = 1
	}
	if err := l.setupCluster(kf, &cfg); err != nil {
		return nil, err
	}
	l.budget = cfg.Budget
	if l.budget <= 0 {
		l.budget = DefaultBudget
	}
	var trace *Trace
	if cfg.Trace.MaxSteps >= 0 {
		max := cfg.Trace.MaxSteps
		if max == 0 {
			max = DefaultTraceSteps
		}
		trace = &Trace{Block: cfg.Trace.Block, WarpLo: cfg.Trace.WarpLo, WarpHi: cfg.Trace.WarpHi}
		l.tr = &tracer{t: trace, max: max, live: prog.liveness()}
	}
	l.stats.Blocks = nblocks
	l.stats.WarpsPerBlock = l.nwarps
	l.stats.SharedBytesPerBlock = prog.sharedSize
	l.stats.LocalBytesPerThread = prog.kernel.localSize
	l.stats.ParamBytes = len(prog.params)

	for i, b := range bufs {
		if b != nil {
			b.arg = i + 1
			if args[i].Undefined && cfg.Check.Init {
				b.undef = make([]uint64, (len(b.data)+63)/64)
			}
		}
	}
	if c := cfg.Check; c.Race || c.Init || c.Sync {
		l.chk = newChecker(l, c)
	}
	l.nblocks, l.lastProgress = nblocks, time.Now()
	var runErr error
	if cfg.Driver != nil {
		runErr = l.runDriven() // execution-driven: the driver schedules (step.go)
	} else {
		runErr = l.runBlocks()
	}
	res = l.result(args, bufs, trace)
	if l.chk != nil {
		res.Findings, res.FindingsDropped, res.CheckNotes = l.chk.findings(), l.chk.drop, l.chk.notes
	}
	cfg.Shadows.release(h) // every block has run: the shadow is read no more
	if runErr != nil {
		return res, runErr
	}
	return res, nil
}

// result assembles the Result.
func (l *launcher) result(args []Arg, bufs []*alloc, trace *Trace) *Result {
	res := &Result{Buffers: make([][]byte, len(args)), Addresses: make([]uint64, len(args)), Trace: trace,
		Stdout: l.stdout.String(), StdoutTruncated: l.stdoutTruncated, Stderr: l.stderr.String()}
	for i, b := range bufs {
		if b != nil {
			res.Buffers[i] = b.data
			res.Addresses[i] = b.base
		}
	}
	for _, v := range l.prog.vars {
		d := make([]byte, v.size)
		if v.alloc != nil {
			copy(d, v.alloc.data)
		} else {
			copy(d, l.prog.constMem[v.off:])
		}
		res.Variables = append(res.Variables, Variable{Name: v.name, Space: v.space, Data: d})
	}
	st := l.stats
	st.ThreadInstructions = l.threads
	st.ThreadInstructionsPredOn = l.predOn
	for _, c := range l.cnt {
		st.WarpInstructions += c.warp
	}
	res.Stats = st
	res.Insts = make([]InstStats, len(l.prog.ops))
	for i, in := range l.prog.info {
		c := l.cnt[i]
		res.Insts[i] = InstStats{Func: l.prog.fns[in.fn].f.Name, Index: in.idx, Line: in.line, Loc: in.loc, Op: in.text,
			WarpExecs: c.warp, ThreadExecs: c.thread, Branches: c.br, DivergentBranches: c.div}
	}
	return res
}

// runBlock runs every warp of block b to completion.
func (l *launcher) runBlock(b int) error {
	blk := l.blk
	l.beginBlock(blk, b)
	if l.chk != nil {
		l.chk.startBlock()
	}
	q := quantum
	if l.cfg.sched.quantum > 0 {
		q = l.cfg.sched.quantum
	}
	for {
		progressed, remaining := false, 0
		for i := range blk.warps {
			w := blk.warps[i]
			if l.cfg.sched.reverse || l.cfg.Reverse {
				w = blk.warps[len(blk.warps)-1-i]
			}
			if w.done {
				continue
			}
			remaining++
			if w.waiting {
				continue
			}
			if err := l.runWarp(w, q); err != nil {
				return err
			}
			progressed = true
			if err := l.check(w); err != nil {
				return err
			}
		}
		if remaining == 0 {
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
				l.cfg.Issues(b, streams)
			}
			return nil
		}
		if !progressed {
			return l.deadlock(blk)
		}
	}
}

// progress reports progress at most every 100 ms (and always when final).
func (l *launcher) progress(done int, final bool) {
	l.doneBlocks = done
	if l.cfg.Progress == nil {
		return
	}
	if now := time.Now(); final || now.Sub(l.lastProgress) >= 100*time.Millisecond {
		l.lastProgress = now
		l.cfg.Progress(Progress{BlocksDone: done, BlocksTotal: l.nblocks, ThreadInstructions: l.threads})
	}
}

// check enforces the budget and the context. The budget counts the
// thread-instructions of the blocks before this one (exact at the head) and
// of this block so far.
func (l *launcher) check(w *warp) error {
	pc := int32(-1)
	if len(w.stack) > 0 {
		pc = w.stack[len(w.stack)-1].pc
	}
	if s := l.par; s != nil {
		c := s.c
		if c.stop.Load() {
			return errStopped
		}
		if l.cfg.Issues != nil {
			s.boundIssues()
		}
		if !s.head && c.next.Load() == int64(s.pos) {
			s.head = true
		}
		if !s.head {
			s.ckpts = append(s.ckpts, checkpoint{threads: l.threads, warp: w.gid, pc: pc})
			if c.committed.Load()+l.threads > l.budget || len(s.ckpts) >= maxCheckpoints {
				if !s.becomeHead() {
					return errStopped
				}
			}
		}
		if s.head {
			if err := s.settle(); err != nil {
				return err
			}
			if c.committed.Load()+l.threads > l.budget {
				return l.budgetError(w, pc)
			}
			c.base.progressHead(l.threads)
		}
	} else if l.threads > l.budget {
		return l.budgetError(w, pc)
	}
	if err := l.ctx.Err(); err != nil {
		e := l.laneError(w, pc, 0, Interrupted, 0, "interrupted", err.Error())
		return e
	}
	return nil
}

// progressHead reports progress from the head block: the committed blocks
// and the head's thread-instructions so far.
func (l *launcher) progressHead(running int64) {
	if l.cfg.Progress == nil {
		return
	}
	if now := time.Now(); now.Sub(l.lastProgress) >= 100*time.Millisecond {
		l.lastProgress = now
		l.cfg.Progress(Progress{BlocksDone: l.doneBlocks, BlocksTotal: l.nblocks, ThreadInstructions: l.threads + running})
	}
}

// resetWarp prepares a warp for a new block.
func (l *launcher) resetWarp(w *warp, kfn *function) {
	w.fn, w.regBase, w.localBase, w.paramBase = kfn, 0, 0, 0
	w.regs = w.regs[:cap(w.regs)]
	r := w.regs[:kfn.nregs*32]
	clear(r[nHidden*32:])
	w.stack = append(w.stack[:0], entry{pc: kfn.base, rpc: -1, mask: w.lanes})
	w.frames = w.frames[:0]
	w.exited, w.waiting, w.done = 0, false, false
	w.red = pendingRed{}
	w.cc = [32]uint8{}
	w.issued = 0
	w.barMask = 0
	for lane := 0; lane < 32; lane++ {
		clear(w.local[lane])
		clear(w.params[lane])
	}
	set := func(h int, v uint64) {
		row := r[h*32 : h*32+32]
		for lane := range row {
			row[lane] = v
		}
	}
	for k := 0; k < 3; k++ {
		set(hCtaidX+k, uint64(w.blk.idx[k]))
	}
	set(hSmid, uint64(w.blk.sm))
	for h := hClock; h <= hGtimerHi; h++ {
		set(h, 0)
	}
	l.setClusterRegs(w)
}

// initWarp fills the hidden registers that stay the same for a warp in every block.
func (l *launcher) initWarp(w *warp, kfn *function) {
	r := w.regs[:kfn.nregs*32]
	clear(r)
	perLane := func(h int, f func(lane int) uint64) {
		for lane := 0; lane < 32; lane++ {
			r[h*32+lane] = f(lane)
		}
	}
	set := func(h int, v uint64) { perLane(h, func(int) uint64 { return v }) }
	bd, gd := l.block, l.grid
	perLane(hTidX, func(lane int) uint64 { return uint64(threadIndex(w.id, lane, bd)[0]) })
	perLane(hTidY, func(lane int) uint64 { return uint64(threadIndex(w.id, lane, bd)[1]) })
	perLane(hTidZ, func(lane int) uint64 { return uint64(threadIndex(w.id, lane, bd)[2]) })
	for k := 0; k < 3; k++ {
		set(hNtidX+k, uint64(bd[k]))
		set(hNctaidX+k, uint64(gd[k]))
	}
	perLane(hLaneid, func(lane int) uint64 { return uint64(lane) })
	set(hWarpid, uint64(w.id))
	nwarpid := l.cfg.MaxWarpsPerSM
	if nwarpid <= 0 {
		nwarpid = 64
	}
	set(hNwarpid, uint64(nwarpid))
	set(hWarpSz, 32)
	set(hNsmid, uint64(l.numSMs))
	set(hGridid, 1)
	perLane(hLmEq, func(lane int) uint64 { return 1 << uint(lane) })
	perLane(hLmLe, func(lane int) uint64 { return uint64(uint32(2<<uint(lane)) - 1) })
	perLane(hLmLt, func(lane int) uint64 { return 1<<uint(lane) - 1 })
	perLane(hLmGe, func(lane int) uint64 { return uint64(^uint32(1<<uint(lane) - 1)) })
	perLane(hLmGt, func(lane int) uint64 { return uint64(^uint32(2<<uint(lane) - 1)) })
	set(hDynSmem, uint64(l.cfg.DynamicShared))
	// %total_smem_size is static plus dynamic shared memory rounded up to the
	// allocation unit, without the driver's reserved part (measured on the H200:
	// 128+1024 -> 1152, 100 -> 128, 5000 -> 5120, 0 -> 0).
	unit := l.cfg.SharedAllocUnit
	if unit <= 0 {
		unit = 128
	}
	set(hTotalSmem, uint64(align(l.prog.sharedSize, unit)))
	l.initClusterRegs(w)
}
