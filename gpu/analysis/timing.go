package analysis

import (
	"context"
	"fmt"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/isa"
	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/ptxas"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/gpu/sim"
	"github.com/kernelscope/kernelscope/gpu/timing"
)

// timelineWarps is how many warps' timelines the report keeps.
const timelineWarps = 16

// timingRun feeds the simulator's per-block issue log, joined with each
// access's cache outcome, to the cycle-level model while the launch runs.
type timingRun struct {
	ctx      context.Context
	decoded  *isa.Program // the kernel and its device functions, decoded once for the simulator and the model
	prog     *timing.Program
	model    *timing.Model
	npcs     int              // the decoded program's PCs (kernel and device functions): all are timed
	queues   [][]timing.Event // per warp of the running block: its accesses' outcomes in order (Mem, Sectors, DRAMSectors)
	dropped  int64            // issues with a PC outside the program (none expected): not timed
	err      error
	external bool
	// accs holds the running block's global/local/shared accesses when the
	// model times them itself (timeCaches); Event.Acc names them.
	accs   []mem.Access
	timed  bool
	caches *mem.TimedHierarchy

	// interleaved (execution-driven) launches (driven.go)
	interleaved bool
	pathWhy     string
	stepN       int          // accesses of the instruction being stepped
	stepEv      timing.Event // its first access's outcome
	stepAcc     mem.Access   // that access, for the atomic units and timed caches
	stepHasAcc  bool
	driven      *timing.Result      // the model's result once the launch ran
	pool        []timing.WarpStream // streams of retired blocks, for reuse (timing.Config.Release)
	accPool     [][]mem.Access      // accesses of retired blocks, for reuse (timing.Config.ReleaseAccesses)
	lastAccs    int                 // the last block's accesses (the next one's first capacity)

	async [][]sim.AsyncRec // the running block's mbarrier and bulk-copy records (async.go)

	issueStream, streamSource string // report.Timing.Stream and StreamSource
	// predicated[pc], for an if-converted branch of the SASS stream, lists the PCs of its
	// predicated region in order: every warp that issues the branch issues them all (block
	// adds those the warp's trace jumped over, with no lane active); nil for other PCs
	predicated [][]int32
	// sched, when set, is the modelled ptxas schedule the replay path issues each
	// straight-line region in (timing.Schedule); nil issues program order
	// (Request.ProgramOrder, the interleaved path)
	// atomics: the replay path times atomics through the atomic units (same-address
	// atomics serialise) without the time-aware caches; their accesses are kept
	atomics  bool
	sched    *timing.Schedule
	schedTmp []timing.Event
	// clusterDims and gridDims, for a launch in clusters, place each block in its
	// cluster (timing.Model.ClusterBlock); clusterDims is zero otherwise
	clusterDims, gridDims [3]int
}

// clusters makes the model co-dispatch the blocks of each cluster of a launch in
// clusters of the launch's shape (or .reqnctapercluster's) over grid.
func (t *timingRun) clusters(launch, req [3]int, grid [3]int) {
	d := launch
	if d == [3]int{} {
		d = req
	}
	for i := range d {
		d[i] = max(d[i], 1)
		grid[i] = max(grid[i], 1)
	}
	t.clusterDims, t.gridDims = d, grid
}

// clusterOf is the cluster of linear block b and the cluster's size in blocks.
func (t *timingRun) clusterOf(b int) (id, size int) {
	d, g := t.clusterDims, t.gridDims
	x, y, z := b%g[0], b/g[0]%g[1], b/(g[0]*g[1])
	nx, ny := g[0]/d[0], g[1]/d[1]
	return x/d[0] + y/d[1]*nx + z/d[2]*nx*ny, d[0] * d[1] * d[2]
}

// unrollCopies is how many trips of a loop ptxas unrolls more are issued as one
// region (gpu/ptxas unrollCounted: 4).
const unrollCopies = 4

// newTimingRun decodes the kernel once (the simulator reuses the decoded
// program: Config.Decoded) and builds the timing model over it. issues, when
// not nil, is the SASS of each of the kernel's PTX instructions (gpu/ptxas):
// the model issues that many slots for it, each on its SASS instruction's pipe.
func newTimingRun(ctx context.Context, archName string, mod *ptx.Module, k *ptx.Func, blocksPerSM, warpsPerBlock int, issues []ptxas.TimingIssue) (*timingRun, error) {
	tab, err := latency.For(archName)
	if err != nil {
		return nil, err
	}
	dec, err := sim.Decode(mod, k.Name)
	if err != nil {
		return nil, err
	}
	prog, err := timing.NewProgramDecoded(tab, dec)
	if err != nil {
		return nil, err
	}
	// The kernel's PCs come first and are its instructions in order.
	for pc := 0; pc < len(issues) && pc < len(k.Insts) && pc < len(prog.Insts); pc++ {
		in := &prog.Insts[pc]
		in.Issues = issues[pc].Slots
		in.SASSPipes = sassPipes(issues[pc], in.Timing.Pipe)
		if in.Issues > 0 {
			in.Timing.Latency = max(in.Timing.Latency, sassLatencyFloor(tab, in.Timing))
		}
	}
	t := &timingRun{ctx: ctx, decoded: dec, prog: prog, queues: make([][]timing.Event, warpsPerBlock), issueStream: StreamPTX}
	if issues != nil {
		t.issueStream = StreamSASS
		t.predicated = predicatedRegions(issues, len(prog.Insts))
	}
	// every function's first PC and its labels start regions (device functions are
	// scheduled as the kernel is)
	var labels []int
	for _, f := range dec.Funcs {
		labels = append(labels, int(f.Base))
		for _, l := range f.F.Labels {
			labels = append(labels, int(f.Base)+l.Index)
		}
	}
	t.sched = timing.NewSchedule(prog, len(prog.Insts), labels)
	// loops ptxas unrolls 4x more issue four trips as one region (their loads
	// together), as copies of their own appended to prog: before the model is made
	var loops [][2]int
	for pc, is := range issues {
		if is.UnrollHead >= 0 && pc < len(k.Insts) {
			loops = append(loops, [2]int{is.UnrollHead, pc})
		}
	}
	t.sched.Unroll(prog, loops, unrollCopies)
	m, err := timing.New(prog, timing.Config{BlocksPerSM: max(blocksPerSM, 1), TimelineWarps: timelineWarps,
		Release:         func(s timing.WarpStream) { t.pool = append(t.pool, s[:0]) },
		ReleaseAccesses: func(a []mem.Access) { t.accPool = append(t.accPool, a[:0]) }})
	if err != nil {
		return nil, err
	}
	t.model = m
	t.npcs = len(prog.Insts)
	return t, nil
}

// timeCaches makes the model time global and local accesses through the
// time-aware caches and atomics through the atomic units (Request.TimedCaches).
func (t *timingRun) timeCaches(spec *arch.Spec, carveout int, pool *mem.CachePool) {
	t.timed = true
	t.caches = mem.NewTimedHierarchy(spec, spec.SMs, mem.TimedOptions{Options: mem.Options{Carveout: carveout, Pool: pool},
		L1Latency: int64(t.prog.Table.Mem.L1Hit), L2Latency: int64(t.prog.Table.Mem.L2Hit), DRAMLatency: int64(t.prog.Table.Mem.DRAM)})
	t.model.SetMemory(t.caches, mem.NewAtomicUnits(spec.SMs, mem.DefaultAtomicCosts))
}

// memory records the outcome of one access of the running block.
func (t *timingRun) memory(a *mem.Access, o mem.Outcome) {
	if a.Warp < 0 || a.Warp >= len(t.queues) {
		return
	}
	e := eventOf(a, o)
	if t.timed && (a.Space == mem.Global || a.Space == mem.Local || (a.Space == mem.Shared && a.Kind >= mem.Atomic)) ||
		t.atomics && a.Kind >= mem.Atomic && (a.Space == mem.Global || a.Space == mem.Shared) {
		if t.accs == nil {
			if k := len(t.accPool); k > 0 {
				t.accs, t.accPool[k-1] = t.accPool[k-1], nil
				t.accPool = t.accPool[:k-1]
			} else {
				t.accs = make([]mem.Access, 0, max(t.lastAccs, 1)) // blocks are mostly alike: no regrowing
			}
		}
		t.accs = append(t.accs, *a)
		e.Acc = int32(len(t.accs))
	}
	t.queues[a.Warp] = append(t.queues[a.Warp], e)
}

// eventOf is the timing event of one access's outcome (Mem, Sectors, DRAMSectors).
func eventOf(a *mem.Access, o mem.Outcome) timing.Event {
	e := timing.Event{}
	switch a.Space {
	case mem.Shared:
		// o comes from Counter.Record, which counted the wavefronts already.
		e.Mem, e.Sectors = timing.MemShared, uint8(min(255, max(1, o.Wavefronts)))
		if a.DSMEM != 0 {
			e.Mem = timing.MemDSMEM // another block's shared memory
		}
	case mem.Global, mem.Local:
		e.Sectors = uint8(min(255, max(1, o.Sectors)))
		e.Lines = uint8(min(255, o.Lines))
		switch {
		case o.DRAMReads > 0 || o.DRAMWrites > 0:
			e.Mem, e.DRAMSectors = timing.MemDRAM, uint8(min(255, o.DRAMReads+o.DRAMWrites))
		case o.L2Hits > 0 || o.L2Misses > 0 || a.Kind != mem.Load:
			e.Mem = timing.MemL2Hit
		default:
			e.Mem = timing.MemL1Hit
		}
	default: // const/param: no outcome the model times, but the slot keeps the join in step
	}
	return e
}

// block hands a finished block's issue log to the model. Accesses are joined
// to issues by sequence: each issue says how many accesses it reported, and the
// warp's queue holds their outcomes in the same order, so every execution of a
// memory instruction (every loop iteration) gets its own outcome. An issue with
// several accesses is timed by those of its first's kind together (mergeEvents).
func (t *timingRun) block(b int, warps [][]sim.Issue) {
	if t.err != nil {
		return
	}
	if t.clusterDims != [3]int{} {
		t.model.ClusterBlock(t.clusterOf(b))
	}
	streams := make([]timing.WarpStream, len(warps))
	j := t.joinAsync(len(warps))
	for w, issues := range warps {
		var q []timing.Event
		if w < len(t.queues) {
			q = t.queues[w]
		}
		s := t.stream(len(issues))
		add := func(i int) {
			is := issues[i]
			n := min(int(is.Accesses), len(q))
			var first timing.Event
			if n > 0 {
				first = mergeEvents(q[:n])
			}
			q = q[n:]
			if int(is.PC) >= t.npcs || is.PC < 0 {
				t.dropped++
				return
			}
			if !j.issue(w, i, int32(len(s))) {
				return // a failed mbarrier wait's retry (async.go)
			}
			s = append(s, timing.Event{PC: is.PC, Active: is.Active, Mem: first.Mem, Sectors: first.Sectors, DRAMSectors: first.DRAMSectors, Lines: first.Lines, Acc: first.Acc})
		}
		for i := 0; i < len(issues); i++ {
			add(i)
			pc := issues[i].PC
			if pc < 0 || int(pc) >= len(t.predicated) || t.predicated[pc] == nil {
				continue
			}
			// an if-converted branch: the region issues whole, in order; the members the
			// warp's lanes skipped issue with no lane active
			for _, m := range t.predicated[pc] {
				if i+1 < len(issues) && issues[i+1].PC == m {
					i++
					add(i)
					continue
				}
				s = append(s, timing.Event{PC: m})
			}
		}
		streams[w] = s
	}
	for i := range t.queues {
		t.queues[i] = t.queues[i][:0]
	}
	if t.sched != nil && (j == nil || len(j.ops) == 0) {
		for _, s := range streams {
			t.schedTmp = t.sched.Reorder(s, t.schedTmp)
		}
	}
	if j != nil && len(j.ops) > 0 {
		t.err = t.model.AddBlockAsync(t.ctx, streams, t.accs, j.ops)
		t.accs = nil
		return
	}
	t.lastAccs = len(t.accs)
	if t.timed || t.atomics {
		// the model keeps the block's accesses until it retires: hand over this slice
		t.err = t.model.AddBlockAccesses(t.ctx, streams, t.accs)
		t.accs = nil
		return
	}
	t.err = t.model.AddBlock(t.ctx, streams)
}

// mergeEvents is the event of an issue that made several accesses: those of the first's
// kind (global/local, or shared) together, as separate requests would be (wmma.load and
// ldmatrix record one access per register or matrix): their sectors or wavefronts summed,
// the slowest outcome, the DRAM sectors summed. Accesses of the other kind (cp.async's
// shared store after its global load) are left out; Acc stays the first's.
func mergeEvents(q []timing.Event) timing.Event {
	e := q[0]
	family := func(m timing.MemClass) int {
		switch m {
		case timing.MemShared, timing.MemDSMEM:
			return 1
		case timing.MemL1Hit, timing.MemL2Hit, timing.MemDRAM:
			return 2
		}
		return 0
	}
	dram := func(x timing.Event) int {
		if x.Mem != timing.MemDRAM {
			return 0
		}
		if x.DRAMSectors > 0 {
			return int(x.DRAMSectors)
		}
		return int(max(x.Sectors, 1))
	}
	f := family(e.Mem)
	if f == 0 || len(q) == 1 {
		return e
	}
	sec, ds, lines := int(max(e.Sectors, 1)), dram(e), int(e.Lines)
	for _, x := range q[1:] {
		if family(x.Mem) != f {
			continue
		}
		sec += int(max(x.Sectors, 1))
		lines += int(x.Lines)
		ds += dram(x)
		e.Mem = max(e.Mem, x.Mem) // the slowest: DSMEM after shared, DRAM after L2 after L1
	}
	e.Sectors = uint8(min(sec, 255))
	e.Lines = uint8(min(lines, 255))
	e.DRAMSectors = 0
	if e.Mem == timing.MemDRAM {
		e.DRAMSectors = uint8(min(ds, 255))
	}
	return e
}

// stream returns an empty warp stream of capacity n or more: the last one the
// model released (retired blocks' streams), or a new one when that is too small
// (then the released one is dropped, so the pool never holds more streams than
// the resident blocks had).
func (t *timingRun) stream(n int) timing.WarpStream {
	if k := len(t.pool); k > 0 {
		s := t.pool[k-1]
		t.pool[k-1] = nil
		t.pool = t.pool[:k-1]
		if cap(s) >= n {
			return s
		}
	}
	return make(timing.WarpStream, 0, n)
}

// finish completes the model and puts its answer in the report.
func (t *timingRun) finish(rep *report.Report) error {
	if t.err != nil {
		return t.err
	}
	res := t.driven
	if !t.interleaved {
		var err error
		if res, err = t.model.Finish(t.ctx); err != nil {
			return err
		}
	} else if res == nil {
		return fmt.Errorf("the interleaved launch gave no timing result")
	}
	if t.caches != nil {
		o := t.caches.Totals()
		rep.Notes = append(rep.Notes, fmt.Sprintf("timed caches (in issue order): L1 hit rate %.1f%%, L2 hit rate %.1f%%; "+
			"%d L1 hits waited for a fill in flight, %d L2 lookups found their sector in flight (hits when another request fetches it, misses when a fetch brought it along, as Nsight Compute counts them); "+
			"%d cycles waited for MSHRs or L2 pending slots",
			100*t.caches.L1HitRate(), 100*t.caches.L2HitRate(), o.L1InFlight, o.L2InFlight, o.Wait))
		if rep.Memory != nil {
			rep.Memory.HitRates = &report.HitRates{L1: t.caches.L1HitRate(), L2: t.caches.L2HitRate(),
				Source: "modelled: time-aware caches, issue order"}
		}
	}
	blocks := rep.Grid[0] * rep.Grid[1] * rep.Grid[2]
	overhead := timing.LaunchOverhead(blocks, rep.Block[0]*rep.Block[1]*rep.Block[2])
	hidden := timing.LaunchHidden(res.Cycles, blocks, rep.Block[0]*rep.Block[1]*rep.Block[2])
	tm := &report.Timing{Cycles: res.Cycles + overhead - hidden, KernelCycles: res.Cycles, LaunchCycles: overhead, LaunchHiddenCycles: hidden, Stalls: map[string]int64{}, PerIssue: map[string]float64{},
		Modelled: fmt.Sprintf("cycle-level model of %d SMs, %d resident blocks per SM, %.2f waves; sm_90 latencies calibrated on the H200, other architectures modelled", res.SMs, res.BlocksPerSM, res.Waves),
		Issued:   res.Issued, Pipes: map[string]int64{}, PipeColors: map[string]string{}}
	tm.Path, tm.PathReason = TimingReplay, t.pathWhy
	tm.Stream, tm.StreamSource = t.issueStream, t.streamSource
	if t.issueStream == StreamSASS {
		tm.Modelled += "; issue stream: SASS (" + t.streamSource + ")"
	} else {
		tm.Modelled += "; issue stream: PTX (one issue per PTX instruction)"
	}
	if t.interleaved {
		tm.Path = TimingInterleaved
		tm.Modelled += "; execution-driven: the simulator executed each instruction when the model issued it"
	}
	for r := timing.Reason(0); r < timing.NumReasons; r++ {
		if res.States[r] > 0 {
			tm.Stalls[r.String()] = res.States[r]
			tm.PerIssue[r.String()] = res.PerIssue(r)
		}
	}
	for p := latency.Pipe(0); p < latency.NumPipes; p++ {
		if res.PipeBusy[p] > 0 {
			tm.Pipes[p.String()] = res.PipeBusy[p]
			tm.PipeColors[p.String()] = p.Color()
		}
	}
	for _, wt := range res.Timelines {
		tl := report.WarpTimeline{Block: wt.Block, Warp: wt.Warp, SM: wt.SM, SubPartition: wt.SubPart, Truncated: wt.Truncated}
		for _, iv := range wt.Intervals {
			tl.Intervals = append(tl.Intervals, report.Interval{Start: iv.Start, End: iv.End, State: iv.State.String()})
		}
		tm.Timelines = append(tm.Timelines, tl)
	}
	if t.dropped > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("timing: %d warp-instructions had a PC outside the decoded program and were not timed (an internal inconsistency: please report it)", t.dropped))
	}
	// Stall cycles per PTX line for the Source view.
	byLine := map[int]int{}
	for i := range rep.Lines {
		byLine[rep.Lines[i].PTXLine] = i
	}
	for line, st := range timing.LineStalls(t.prog, res, false) {
		i, ok := byLine[line]
		if !ok {
			continue
		}
		l := &rep.Lines[i]
		for r := timing.Reason(0); r < timing.NumReasons; r++ {
			if r != timing.Selected && st[r] > 0 {
				l.StallCycles += st[r]
				if l.Stalls == nil {
					l.Stalls = map[string]int64{}
				}
				l.Stalls[r.String()] = st[r]
			}
		}
	}
	rep.Timing = tm
	rep.Stats.Cycles = tm.Cycles
	return nil
}

// sassPipes maps gpu/ptxas's per-pipe SASS counts (Nsight Compute's pipes) onto the timing
// model's pipes: lsu goes to the PTX instruction's own memory pipe (shared, global,
// shuffle) or else the MIO queue (S2R), adu and cbu to control, HFMA2.MMA moves ("tensor"
// for Nsight Compute) to FP32 unless the instruction is a tensor op; uniform-datapath and
// pipe-less instructions (ULDC, a uniform branch) take an issue slot and no vector pipe.
func sassPipes(ti ptxas.TimingIssue, own latency.Pipe) [latency.NumPipes]uint8 {
	var out [latency.NumPipes]uint8
	add := func(p latency.Pipe, n int) { out[p] = uint8(min(int(out[p])+n, 255)) }
	for p, n := range ti.Pipes {
		if n == 0 {
			continue
		}
		switch ptxas.Pipe(p) {
		case ptxas.PipeALU:
			add(latency.PipeINT, n)
		case ptxas.PipeFMA:
			add(latency.PipeFP32, n)
		case ptxas.PipeFP64:
			add(latency.PipeFP64, n)
		case ptxas.PipeXU:
			add(latency.PipeSFU, n)
		case ptxas.PipeLSU:
			if own == latency.PipeMIO || own == latency.PipeMemory || own == latency.PipeShuffle {
				add(own, n)
			} else {
				add(latency.PipeMIO, n)
			}
		case ptxas.PipeADU, ptxas.PipeCBU:
			add(latency.PipeControl, n)
		case ptxas.PipeTensor:
			if own == latency.PipeTensor {
				add(latency.PipeTensor, n)
			} else {
				add(latency.PipeFP32, n)
			}
		}
	}
	return out
}

// sassLatencyFloor is the least dependent latency of a PTX instruction that issues as SASS
// in the SASS stream. The table's integer adds, moves and min/max were measured on PTX
// chains that ptxas fused two to a SASS instruction (b_add_s32 2.99 cycles a PTX add, one
// IMAD/LEA per pair): their half latency stands for the fusion. In the SASS stream the
// fused partner issues no slot and passes its sources on, so the instruction that does
// issue is one whole fixed-latency ALU instruction: the table's SHF/IMAD latency
// (b_shl_b32 4.50, b_mul_lo_s32 4.52).
func sassLatencyFloor(tab *latency.Table, t latency.Timing) int {
	if t.Dep != latency.DepFixed || t.Pipe != latency.PipeINT {
		return 0
	}
	switch t.Class {
	case latency.ClassIAdd, latency.ClassMov, latency.ClassIMinMax:
		return tab.ClassTiming(latency.ClassShift).Latency
	}
	return 0
}

// predicatedRegions returns, per PC, the members of the if-converted region whose branch is
// at that PC (ptxas.TimingIssue.Pred), in order; nil where none.
func predicatedRegions(issues []ptxas.TimingIssue, npcs int) [][]int32 {
	var out [][]int32
	for pc, ti := range issues {
		if ti.Pred < 0 || ti.Pred >= npcs || pc >= npcs {
			continue
		}
		if out == nil {
			out = make([][]int32, npcs)
		}
		out[ti.Pred] = append(out[ti.Pred], int32(pc))
	}
	return out
}
