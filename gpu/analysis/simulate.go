package analysis

import (
	"context"
	"errors"
	"fmt"
	"github.com/kernelscope/kernelscope/gpu/report"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/hints"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/occupancy"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/sass"
	"github.com/kernelscope/kernelscope/gpu/sim"
)

// defaultBlock is the block size used when the cell gives none.
var defaultBlock = [3]int{256, 1, 1}

func simulate(ctx context.Context, req Request, rep *report.Report, mod *ptx.Module, cuda map[string][]cudaParam,
	fail func(report.Error, []report.Error) (*report.Report, error)) (*report.Report, error) {
	spec, err := arch.Lookup(req.Arch)
	if err != nil {
		return fail(report.Error{Kind: "launch", Message: err.Error()}, nil)
	}
	k, err := pickKernel(mod, req.Launch)
	if err != nil {
		return fail(report.Error{Kind: "launch", Message: err.Error()}, nil)
	}
	rep.Kernel = kernelDisplayName(k.Name)
	grid, block := launchShape(req)
	if block == [3]int{} {
		block = defaultBlock
		if k.ReqNTid[0] > 0 {
			block = k.ReqNTid
		}
		rep.Notes = append(rep.Notes, fmt.Sprintf("block size %d chosen automatically (set it with %%block)", block[0]*max(block[1], 1)*max(block[2], 1)))
	}
	if grid == [3]int{} {
		grid = [3]int{4, 1, 1}
		rep.Notes = append(rep.Notes, "grid of 4 blocks chosen automatically (set it with %grid)")
	}
	for i := range 3 {
		grid[i] = max(grid[i], 1)
		block[i] = max(block[i], 1)
	}
	rep.Grid, rep.Block = grid, block
	if err := checkLaunchSize(grid, block, req.Budget); err != nil {
		return fail(report.Error{Kind: "launch", Message: err.Error()}, nil)
	}
	threadsPerBlock := block[0] * block[1] * block[2]
	if threadsPerBlock > spec.MaxThreadsPerBlock {
		return fail(report.Error{Kind: "launch", Message: fmt.Sprintf("block of %d threads exceeds the %d threads per block that %s allows", threadsPerBlock, spec.MaxThreadsPerBlock, req.Arch)}, nil)
	}
	nblocks := grid[0] * grid[1] * grid[2]
	total := nblocks * threadsPerBlock
	var args []launchArg
	var notes []string
	if req.Program != nil {
		args, err = programArgs(k, cuda[demangle(k.Name)], req.Program.Params)
	} else {
		args, notes, err = buildArgs(ctx, k, cuda[demangle(k.Name)], req.Launch, total, req.BaseDir, req.Sandbox)
	}
	if err != nil {
		return fail(report.Error{Kind: "args", Message: err.Error()}, nil)
	}
	rep.Notes = append(rep.Notes, notes...)
	for _, a := range args {
		rep.Args = append(rep.Args, a.info)
	}
	dynShared, err := dynamicShared(mod, k, req.Launch)
	if err != nil {
		return fail(report.Error{Kind: "launch", Message: err.Error()}, nil)
	}
	cvars := map[string]string{}
	if !req.IsPTX {
		cvars = cudaVars(string(req.Source))
	}
	symArgs, symBytes, err := buildSymbols(ctx, mod, req.Launch, cvars, req.BaseDir, req.Sandbox)
	if err != nil {
		return fail(report.Error{Kind: "args", Message: err.Error()}, nil)
	}
	for _, s := range symArgs {
		rep.Symbols = append(rep.Symbols, s.info)
	}
	if req.Program != nil {
		if symBytes == nil {
			symBytes = map[string][]byte{}
		}
		for name, b := range req.Program.Symbols {
			if _, set := symBytes[name]; !set {
				symBytes[name] = b
			}
		}
	}

	// Resources and occupancy.
	regs := ptx.EstimateRegisters(k)
	rep.Registers = report.RegInfo{PerThread: regs, Source: "estimated from PTX liveness (no ptxas)"}
	// Without ptxas, the local memory is what the PTX declares (clang's __local_depot).
	rep.LocalBytes = staticLocal(mod, k)
	if rep.ResUsage != "" {
		// nvcc and cuobjdump ran: use ptxas's true count.
		if res, err := sass.ParseResUsage(rep.ResUsage); err == nil {
			if r, ok := res[k.Name]; ok && r.Registers > 0 {
				regs = r.Registers
				rep.Registers = report.RegInfo{PerThread: regs, Source: "ptxas (cuobjdump -res-usage)"}
				rep.LocalBytes = r.Local
			}
		}
	}
	rep.SharedStatic = staticShared(mod, k)
	rep.SharedDynamic = dynShared
	if maxShared := spec.SharedPerBlockOptIn; maxShared > 0 && rep.SharedStatic+dynShared > maxShared {
		return fail(report.Error{Kind: "launch", Message: fmt.Sprintf("the block needs %d bytes of shared memory (%d static + %d dynamic); %s allows at most %d per block",
			rep.SharedStatic+dynShared, rep.SharedStatic, dynShared, req.Arch, maxShared)}, nil)
	}
	occIn := occupancy.Input{BlockSize: threadsPerBlock, RegsPerThread: regs, StaticShared: rep.SharedStatic, DynamicShared: rep.SharedDynamic}
	if spec.SharedPerBlock > 0 && rep.SharedStatic+dynShared > spec.SharedPerBlock {
		// A real launch of more than 48 KB per block only runs after the kernel
		// opted in (cudaFuncSetAttribute MaxDynamicSharedMemorySize): occupancy
		// is computed as for that launch, not as zero blocks.
		occIn.OptIn = true
		rep.Notes = append(rep.Notes, fmt.Sprintf("shared memory: the block uses %d bytes, more than the %d a kernel gets without opting in; occupancy assumes the program called cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, %d), which the CUDA runtime requires for this launch",
			rep.SharedStatic+dynShared, spec.SharedPerBlock, dynShared))
	}
	memOpts := mem.Options{Pool: req.CachePool}
	if occ, err := occupancy.Compute(spec, occIn); err == nil {
		rep.Occupancy = occupancyReport(occ, regs, rep.SharedStatic+rep.SharedDynamic)
		// The L1 gets what the shared-memory carveout leaves of the unified array.
		memOpts.Carveout = occupancy.PickCarveout(spec, occ)
	} else {
		rep.Notes = append(rep.Notes, "occupancy: "+err.Error())
	}

	// The launch.
	hier := mem.NewHierarchy(spec, spec.SMs, memOpts)
	defer hier.Release() // to req.CachePool, once the report has what it needs
	counter := mem.NewCounter(hier)
	// ptxas's view: SASS issue counts and merged memory instructions (gpu/ptxas)
	lowering, lowNote := sassLowering(mod, req.Arch, rep.SASS)
	if lowNote != "" {
		rep.Notes = append(rep.Notes, lowNote)
	}
	observe, merge := mergedObserver(lowering, mod, counter)
	simArgs := make([]sim.Arg, len(args))
	for i, a := range args {
		simArgs[i] = sim.Arg{Buffer: a.buffer, Scalar: a.scalar, TensorMap: a.tmap}
	}
	tr := req.Trace
	cfg := sim.Config{
		Grid: grid, Block: block, NumSMs: spec.SMs, Budget: req.Budget,
		Trace:    sim.TraceConfig{Block: tr.Block, WarpLo: tr.WarpLo, WarpHi: tr.WarpHi, MaxSteps: tr.Steps},
		OnMemory: observe,
		Check:    req.Checks.simChecks(),

		DynamicShared: dynShared, Symbols: symBytes, SharedAllocUnit: spec.SharedAllocUnit, MaxWarpsPerSM: spec.MaxWarpsPerSM,
		Shadows: req.ShadowPool,
	}
	if req.Program != nil {
		cfg.Memory = req.Program.Memory
	}
	clusterConfig(&cfg, req, k, rep.Occupancy, spec.SMs, rep)
	// Clusters and cooperative launches run as co-scheduled groups in the
	// functional simulator (cluster.go); the execution-driven path does not
	// step groups, so they keep the replay path.
	grouped, grouping := false, ""
	if n := clusterBlocks(cfg.Cluster, k.ReqNCTAPerCluster); n > 1 {
		grouped, grouping = true, fmt.Sprintf("clusters of %d blocks", n)
	} else if cfg.Cooperative {
		grouped, grouping = true, "a cooperative launch: the whole grid"
	}
	if req.Checks.Order {
		// The order check compares this run with one in reverse block order:
		// both run one block after another, so that a racy kernel's outputs
		// are those of the two serial orders, not of the workers' timing.
		cfg.Workers = 1
	}
	undefinedArgs(simArgs, args)
	// The traced warps' accesses keep their cache outcome for the widget, and
	// the timing model gets every access's outcome.
	traced := map[int][]tracedAccess{}
	limit := tr.Steps
	if limit == 0 {
		limit = sim.DefaultTraceSteps
	}
	var tm *timingRun
	var sample *timingSample
	var apart sim.Checks // checks run in a second, replay launch (driven.go)
	if req.Timing {
		bps := 1
		if rep.Occupancy != nil {
			bps = rep.Occupancy.ActiveBlocksPerSM
		}
		issues, streamSource := sassStream(rep, &req, lowering, k.Name)
		if tm, err = newTimingRun(ctx, req.Arch, mod, k, bps, (threadsPerBlock+31)/32, issues); err == nil {
			tm.streamSource = streamSource
			if req.ProgramOrder {
				tm.sched = nil
			}
			if req.TimedCaches {
				tm.timeCaches(spec, memOpts.Carveout, req.CachePool)
				defer tm.caches.Release()
			}
		}
		if err != nil {
			rep.Notes = append(rep.Notes, "timing model not run: "+err.Error())
			tm = nil
		} else if grouped {
			tm.pathWhy = "the blocks run as co-scheduled groups (" + grouping + "), which the replay path times"
			if !cfg.Cooperative {
				tm.clusters(cfg.Cluster, k.ReqNCTAPerCluster, rep.Grid)
			}
			cfg.Decoded = tm.decoded
			sample = newTimingSample(nblocks, spec.SMs*max(bps, 1), req.TimingWaves)
			cfg.Issues = (&boundedTiming{t: tm, sample: sample}).block
			cfg.Async = tm.asyncRecs
		} else if tm.interleaved, tm.pathWhy = choosePath(req, mod, k, nblocks, spec.SMs*max(bps, 1)); tm.interleaved {
			tm.sched = nil // the simulator runs each instruction when the model issues it: program order
			cfg.Decoded = tm.decoded
			if !req.TimedCaches {
				// same-address atomics serialise at the L2 servers and the SM's shared unit
				tm.model.SetMemory(nil, mem.NewAtomicUnits(spec.SMs, mem.DefaultAtomicCosts))
			}
			sample = newTimingSample(nblocks, spec.SMs*max(bps, 1), -1) // every block: the model runs the launch
			cfg.Driver = tm.driver(ctx)
			apart = checksApart(&cfg)
		} else {
			if !req.TimedCaches {
				// same-address atomics serialise at the L2 servers and the SM's shared unit,
				// as on the interleaved path (the retries of a CAS loop are the simulator's)
				tm.model.SetMemory(nil, mem.NewAtomicUnits(spec.SMs, mem.DefaultAtomicCosts))
				tm.atomics = true
			}
			cfg.Decoded = tm.decoded
			sample = newTimingSample(nblocks, spec.SMs*max(bps, 1), req.TimingWaves)
			cfg.Issues = (&boundedTiming{t: tm, sample: sample}).block
			cfg.Async = tm.asyncRecs
		}
	}
	if tm == nil && !grouped {
		if in, ok := spinSensitive(req, mod, k); ok {
			bps := 1
			if rep.Occupancy != nil {
				bps = max(rep.Occupancy.ActiveBlocksPerSM, 1)
			}
			cfg.Driver = sim.RoundRobin(spec.SMs * bps)
			apart = checksApart(&cfg)
			rep.Notes = append(rep.Notes, fmt.Sprintf("blocks ran interleaved, %d resident at a time, one instruction per warp in turn (the kernel has an ordered global load at PTX line %d, as spin-waits on other blocks use); without the timing model the interleaving is round-robin, not the GPU's", spec.SMs*bps, in.Pos.Line))
		}
	}
	if tr.Steps >= 0 || tm != nil {
		cfg.OnMemory = func(a *mem.Access) {
			isTraced := tr.Steps >= 0 && a.Block == tr.Block && a.Warp >= tr.WarpLo && a.Warp <= tr.WarpHi && len(traced[a.Warp]) < limit
			if !isTraced && tm == nil {
				observe(a)
				return
			}
			o := recordMerged(merge, counter, a)
			if isTraced {
				traced[a.Warp] = append(traced[a.Warp], tracedAccess{line: a.Line, outcome: o})
			}
			if tm != nil && tm.interleaved {
				tm.stepMemory(a, o)
			} else if tm != nil && tm.err == nil && sample.modelled(a.Block) {
				tm.memory(a, o)
				if len(tm.queues) > 0 && a.Warp >= 0 && a.Warp < len(tm.queues) && len(tm.queues[a.Warp]) > sim.MaxBlockIssues {
					abandonTiming(tm, a.Block)
				}
			}
		}
	}
	start := time.Now()
	if req.Progress != nil {
		cfg.Progress = func(p sim.Progress) {
			req.Progress(Progress{BlocksDone: p.BlocksDone, BlocksTotal: p.BlocksTotal, ThreadInstructions: p.ThreadInstructions, Elapsed: time.Since(start)})
		}
	}
	res, simErr := sim.Launch(ctx, mod, k.Name, simArgs, cfg)
	if simErr == nil {
		replayChecks(ctx, rep, mod, k.Name, simArgs, cfg, apart, res)
	}
	rep.Stats.SimMillis = time.Since(start).Milliseconds()
	if req.Program != nil && req.Program.After != nil && res != nil {
		req.Program.After(res)
	}
	rep.Stats.Blocks = nblocks
	rep.Stats.WarpsPerBlock = (threadsPerBlock + 31) / 32
	srcs := newUserSources(req, mod)
	if res != nil {
		rep.Simulated = true
		fillFromResult(rep, mod, k, res, args, counter, srcs, traced)
		fillSASSCounts(rep, lowering, merge, k.Name, res, int64(nblocks)*int64((threadsPerBlock+31)/32))
		rep.Outputs = append(rep.Outputs, variableOutputs(mod, res, symArgs, cvars)...)
		if c := req.Checks; c.Race || c.Init || c.Sync || c.Order {
			addFindings(rep, req, mod, res, args)
			srcs.pinFindings(rep, req.Cell) // also before a failure below
		}
	}
	if simErr != nil {
		e := simFailure(simErr, mod, userFile(req))
		// The simulator names buffers by their PTX parameter; say the CUDA name.
		for i, a := range args {
			if i < len(k.Params) && a.info.Name != k.Params[i].Name {
				e.Message = strings.ReplaceAll(e.Message, "("+k.Params[i].Name+")", "("+a.info.Name+")")
			}
		}
		return fail(e, nil)
	}
	if tm != nil {
		if err := tm.finish(rep); err != nil {
			if ctx.Err() != nil {
				return fail(report.Error{Kind: "interrupted", Message: "interrupted"}, nil)
			}
			rep.Notes = append(rep.Notes, "timing model failed: "+err.Error())
		} else {
			sample.apply(rep, nblocks)
		}
	}
	if req.Checks.Order {
		if err := orderCheck(ctx, rep, mod, k.Name, simArgs, cfg, res, args); err != nil {
			rep.Notes = append(rep.Notes, "order check: "+err.Error())
		}
	}
	if len(req.Expect) > 0 {
		checkExpectations(ctx, rep, req, args, res)
	}
	hints.AttributeInlined(rep) // atomics inlined from compiler headers get their CUDA line
	rep.Hints = hints.Analyze(rep, spec)
	file := userFile(req)
	rep.Hints = append(rep.Hints, unsetSymbolHints(mod, k, req.Launch, func(in *ptx.Inst) (int, int) {
		return cudaLine(mod, in.Loc, file), int(in.Pos.Line)
	})...)
	srcs.pinHints(rep)
	srcs.pinFindings(rep, req.Cell) // the order check's
	return rep, nil
}

// simFailure turns a simulator error into a located report error.
func simFailure(err error, mod *ptx.Module, file string) report.Error {
	var se *sim.Error
	if errors.As(err, &se) {
		e := report.Error{Kind: simKind(se.Kind), Message: se.Error(), PTXLine: se.PTXLine, CUDALine: cudaLine(mod, se.Loc, file)}
		if msg, line, ok := atUserLine(se, mod, file); ok { // a fault in inlined header code: name the cell's line
			e.Message, e.CUDALine = msg, line
		}
		if se.Kind != sim.Deadlock && se.Kind != sim.Budget && se.Kind != sim.Interrupted {
			b, t := se.Block, se.Thread
			e.Block, e.Thread = &b, &t
		}
		return e
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return report.Error{Kind: "interrupted", Message: "interrupted"}
	}
	return report.Error{Kind: "simulation", Message: err.Error()}
}

func simKind(k sim.ErrorKind) string {
	switch k {
	case sim.OutOfBounds:
		return "out_of_bounds"
	case sim.Misaligned:
		return "misaligned"
	case sim.SharedOutOfRange:
		return "shared_out_of_range"
	case sim.Trap:
		return "trap"
	case sim.Deadlock:
		return "deadlock"
	case sim.Budget:
		return "budget"
	case sim.Interrupted:
		return "interrupted"
	case sim.Unsupported:
		return "unsupported"
	}
	return "launch"
}

func occupancyReport(o occupancy.Result, regs, smem int) *report.Occupancy {
	return &report.Occupancy{
		ActiveBlocksPerSM: o.ActiveBlocks, OccupancyPct: o.OccupancyPct,
		LimitingFactors: append([]string{}, o.Limiting...), RegistersPerThread: regs, SharedBytesPerBlock: smem,
		Limits: map[string]int{"registers": o.Limits.Registers, "shared_memory": o.Limits.SharedMemory,
			"warps": o.Limits.Warps, "blocks": o.Limits.Blocks, "barriers": o.Limits.Barriers},
	}
}

// fillFromResult copies the simulator's and memory model's numbers into the report.
// Lines of local headers and kept definitions are counted as (file, line) (sources.go).
func fillFromResult(rep *report.Report, mod *ptx.Module, k *ptx.Func, res *sim.Result, args []launchArg, counter *mem.Counter, srcs *userSources, traced map[int][]tracedAccess) {
	file := srcs.main
	rep.Stdout = res.Stdout
	rep.Stderr = res.Stderr
	if res.StdoutTruncated {
		rep.Notes = append(rep.Notes, "device printf output beyond 1 MiB was dropped")
	}
	rep.Stats.WarpInstructions = res.Stats.WarpInstructions
	rep.Stats.ThreadInstructions = res.Stats.ThreadInstructions
	rep.Stats.Branches = res.Stats.Branches
	rep.Stats.DivergentBranches = res.Stats.DivergentBranches
	// Each buffer's summary (checksum, sum, changed elements: a pass over its
	// bytes) is computed on its own goroutine; the outputs keep argument order.
	outs := make([]*report.Output, len(args))
	var wg sync.WaitGroup
	for i, a := range args {
		if a.buffer == nil || i >= len(res.Buffers) || res.Buffers[i] == nil {
			continue
		}
		if i < len(res.Addresses) {
			rep.Args[i].Address = res.Addresses[i]
		}
		wg.Go(func() {
			o := summarise(a.info.Name, a.info.Type, a.buffer, res.Buffers[i])
			outs[i] = &o
		})
	}
	wg.Wait()
	for _, o := range outs {
		if o != nil {
			rep.Outputs = append(rep.Outputs, *o)
		}
	}
	// Per-line counters.
	byLine := map[int]*report.LineStat{}
	for _, is := range res.Insts {
		line := is.Line
		ls := byLine[line]
		if ls == nil {
			ls = &report.LineStat{PTXLine: line}
			ls.CUDAFile, ls.CUDALine = srcs.locate(is.Loc)
			byLine[line] = ls
		}
		ls.WarpExecs += is.WarpExecs
		ls.ThreadExecs += is.ThreadExecs
		ls.Branches += is.Branches
		ls.DivergentBranches += is.DivergentBranches
	}
	m := counter.Totals()
	mr := &report.Memory{
		GlobalLoadRequests: int64(m.GlobalLoadRequests), GlobalLoadSectors: int64(m.GlobalLoadSectors),
		GlobalStoreRequests: int64(m.GlobalStoreRequests), GlobalStoreSectors: int64(m.GlobalStoreSectors),
		SharedLoadWavefronts: int64(m.SharedLoadWavefronts), SharedStoreWavefronts: int64(m.SharedStoreWavefronts),
		SharedLoadBankConflicts: int64(m.SharedLoadBankConflicts), SharedStoreBankConflicts: int64(m.SharedStoreBankConflicts),
		L1HitRate: m.L1HitRate, L2HitRate: m.L2HitRate, Instructions: []report.MemInstruction{},
	}
	instAt := map[int]*ptx.Inst{}
	for _, f := range mod.Funcs {
		for _, in := range f.Insts {
			instAt[int(in.Pos.Line)] = in
		}
	}
	for _, mi := range counter.Instructions() {
		line := mi.PTXLine
		row := report.MemInstruction{
			PTXLine: line, Space: mi.Space, Op: mi.Op, WidthBits: mi.WidthBits,
			Requests: int64(mi.Requests), Sectors: int64(mi.Sectors), IdealSectors: int64(mi.IdealSectors),
			Wavefronts: int64(mi.Wavefronts), IdealWavefronts: int64(mi.IdealWavefronts), L1Hits: int64(mi.L1Hits), L2Hits: int64(mi.L2Hits),
			Executions: int64(mi.Executions), UniformLoads: int64(mi.UniformLoads),
			AtomicLanes: int64(mi.AtomicLanes), AtomicAddresses: int64(mi.AtomicAddresses),
		}
		if in := instAt[line]; in != nil {
			row.CUDAFile, row.CUDALine = srcs.locate(in.Loc)
			row.Text = in.Text()
		}
		mr.Instructions = append(mr.Instructions, row)
		if ls := byLine[line]; ls != nil {
			ls.Requests += row.Requests
			ls.Sectors += row.Sectors
			ls.IdealSectors += row.IdealSectors
			ls.Wavefronts += row.Wavefronts
			ls.IdealWavefronts += row.IdealWavefronts
		}
	}
	sort.SliceStable(mr.Instructions, func(i, j int) bool {
		return waste(mr.Instructions[i]) > waste(mr.Instructions[j])
	})
	rep.Memory = mr
	for _, ls := range byLine {
		rep.Lines = append(rep.Lines, *ls)
	}
	sort.Slice(rep.Lines, func(i, j int) bool { return rep.Lines[i].PTXLine < rep.Lines[j].PTXLine })
	srcs.finish(rep)
	if res.Trace != nil {
		rep.Trace = convertTrace(res.Trace, res, mod, file, traced)
		srcs.pinTrace(rep, res)
	}
}

// waste orders memory rows worst first: extra sectors or wavefronts over ideal.
func waste(m report.MemInstruction) float64 {
	w := float64(m.Sectors-m.IdealSectors) + float64(m.Wavefronts-m.IdealWavefronts)
	return w
}

// userFile is the source file whose lines are CUDA lines: the cell's, or any for PTX input.
func userFile(req Request) string {
	if req.IsPTX {
		return ""
	}
	return req.SourceFile
}

// programArgs turns a host program's raw parameter bytes into launch arguments:
// parameters of at most 8 bytes are scalars (a pointer is its device address),
// larger by-value aggregates are passed as their bytes.
func programArgs(k *ptx.Func, cparams []cudaParam, params [][]byte) ([]launchArg, error) {
	if len(params) != len(k.Params) {
		return nil, fmt.Errorf("kernel %s takes %d parameters; the host passed %d", kernelDisplayName(k.Name), len(k.Params), len(params))
	}
	args := make([]launchArg, len(params))
	for i, b := range params {
		p := k.Params[i]
		info := report.ArgInfo{Name: p.Name, Type: p.Type.String()}
		if len(cparams) == len(k.Params) {
			info.Name, info.Type = cparams[i].name, cparams[i].ctype
		}
		if len(b) > 8 {
			info.Init = fmt.Sprintf("%d bytes from the host", len(b))
			args[i] = launchArg{info: info, buffer: append([]byte(nil), b...)}
			continue
		}
		var v uint64
		for j := len(b) - 1; j >= 0; j-- {
			v = v<<8 | uint64(b[j])
		}
		info.Init = fmt.Sprintf("%#x", v)
		args[i] = launchArg{info: info, scalar: v}
	}
	return args, nil
}

// clusterBlocks is the number of blocks per cluster of a launch: the launch's
// cluster shape, else the kernel's .reqnctapercluster (0 in a dimension counts as 1).
func clusterBlocks(launch, req [3]int) int {
	d := launch
	if d == [3]int{} {
		d = req
	}
	return max(d[0], 1) * max(d[1], 1) * max(d[2], 1)
}
