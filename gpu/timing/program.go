// Package timing is KernelScope's cycle-level timing model. It replays the
// instruction streams the functional simulator produced (trace-driven): per
// warp, the sequence of executed instructions with their active masks and,
// for memory instructions, where each request was served (shared memory, L1
// hit, L2 hit, DRAM) and how many sectors or wavefronts it needed.
//
// The modelled machine: blocks are dispatched to SMs up to an occupancy
// limit, in waves, as slots free up. Each SM has four sub-partition
// schedulers; a warp lives on sub-partition (warp index in block) mod 4.
// Each scheduler issues at most one warp-instruction per cycle, choosing
// greedy-then-oldest (GTO): it keeps issuing the warp it issued last while
// that warp is eligible, else the oldest eligible warp (earliest dispatched;
// lower warp index breaks ties). A warp issues in order; an instruction is
// eligible when the scoreboard says its source (and destination) registers'
// producers completed, its pipe on the sub-partition is free (issue
// interval from package latency), the SM's MIO/L1TEX queues have room, and
// the warp is not waiting at a barrier, a memory fence or a branch. Memory
// latency comes from the per-access outcome, delayed by queueing on the SM's
// shared-memory and L1TEX data paths and on the GPU-wide L2 and DRAM
// bandwidths. Block barriers serialise arrivals through the SM's barrier
// unit and release the block a fixed time after the last arrival.
//
// Every cycle each resident warp is in exactly one state, named after
// Nsight Compute's warp states: selected (issued), not_selected, or a stall
// reason. The totals, the totals per instruction and, for chosen warps, a
// timeline of intervals are reported.
//
// Barriers: every bar.sync/barrier.sync waits for all live warps of the block
// (named barriers and thread counts are not distinguished); bar.arrive does
// not wait. Not modelled: instruction fetch (no_instruction is never reported),
// register-bank conflicts, dual issue, L1/L2 tag and MSHR limits beyond the
// bandwidth queues, and launch overhead. The SASS-level instruction count is
// Inst.Issues: 1 per PTX instruction unless the caller sets it.
//
// The model advances by events (events.go): only the sub-partitions due at
// a cycle are stepped, in SM order.
package timing

import (
	"errors"
	"fmt"

	"github.com/kernelscope/kernelscope/gpu/isa"
	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Inst is the static timing information of one instruction (one PC).
type Inst struct {
	Timing latency.Timing // from the architecture's table
	Dst    []int32        // register ids written
	Src    []int32        // register ids read (guard predicate included)
	NoWait bool           // bar.arrive / barrier.arrive: counts nothing and does not wait
	// Issues is how many SASS instructions the PTX instruction issues as: 1
	// from the program builders; 0 issues no slot (ptxas folded it: its
	// results are ready when its sources are, and it has no timing effect of
	// its own), n > 1 takes n consecutive issue slots of the sub-partition and
	// n issue intervals of its pipe (gpu/ptxas supplies the numbers).
	Issues int
	Line   int     // PTX line, for reports
	Loc    ptx.Loc // CUDA location from .loc, for per-CUDA-line reports
	Text   string  // opcode with modifiers, for reports

	// SASSPipes, when not all zero, splits the Issues slots over the pipes the SASS
	// instructions issue to (gpu/ptxas: IEEE division = MUFU + FFMAs + ALU checks): each
	// slot occupies its own pipe for one SASS-level issue interval (Program.SASSInterval)
	// instead of Issues intervals of Timing.Pipe, whose IssueCycles already time the whole
	// PTX-level expansion. The dependent latency stays Timing.Latency.
	SASSPipes [latency.NumPipes]uint8

	// Atomic is, for atom/red, the class the atomic units time it as (CAS,
	// float add, other integer); AggregatedAdd marks an integer atom/red.add,
	// which ptxas turns into one request per warp when the address is uniform
	// (testdata/measured/contention/sass.txt, c_add; testdata/measured/caches/
	// micro_sass.txt, v_counter). From the decoded modifiers (decodedInst).
	Atomic        mem.AtomicOp
	AggregatedAdd bool
	// Red marks a red, or an atom whose destination no instruction of the
	// program reads (ptxas makes it a RED): nothing waits for its result, and
	// the launch ends once the L2 has applied it (AtomicUnits.Applied). Its
	// Dst is dropped, so a later write of the register does not wait for it.
	Red bool

	// Dec is the decoded instruction the Inst was built from (its opcode and
	// typed modifiers, for rules that need more than the fields above); nil in
	// programs built by hand.
	Dec *isa.Inst

	async      uint8 // apNone...: mbarrier, bulk copy or bulk wait (async.go)
	barRelease int64 // a barrier's release latency beyond a block barrier's (barrier.cluster.wait)
	cluBar     uint8 // cluArrive, cluWait: barrier.cluster.arrive or .wait (cluster.go)
	cpKeep     int32 // cp.async.wait_group N: the N newest groups it does not wait for
}

// Program is the static side of a replay: one Inst per PC. PCs are indices
// into Insts; for a kernel built by NewProgram, the index into Func.Insts.
type Program struct {
	Insts    []Inst
	RegNames []string // register id -> name ("%r5", "%v1.x")
	Table    *latency.Table
}

// SASSInterval is the issue interval (cycles a sub-partition's pipe is busy) of one SASS
// instruction on pipe p: that of the table's single-instruction class of the pipe (IADD3,
// FADD, DADD, MUFU, LDS, LDG, BRA, SHFL, HMMA).
func (p *Program) SASSInterval(pipe latency.Pipe) int64 {
	if p.Table == nil {
		return 1
	}
	c := latency.ClassIAdd
	switch pipe {
	case latency.PipeFP32:
		c = latency.ClassFAdd
	case latency.PipeFP64:
		c = latency.ClassFAdd64
	case latency.PipeSFU:
		c = latency.ClassMufu
	case latency.PipeMIO:
		c = latency.ClassLdShared
	case latency.PipeMemory:
		c = latency.ClassLdGlobal
	case latency.PipeControl:
		c = latency.ClassBra
	case latency.PipeShuffle:
		c = latency.ClassShfl
	case latency.PipeTensor:
		c = latency.ClassTensor
	}
	return int64(max(p.Table.ClassTiming(c).IssueCycles, 1))
}

// NumRegs is the number of distinct registers the program names.
func (p *Program) NumRegs() int { return len(p.RegNames) }

// NewProgram builds the static program of a function: the timing of each
// instruction from tab and the register ids of its operands (OpReg operands,
// OpAddr base registers, OpVec/OpList/OpPair elements, guard predicates).
// The first operand is a destination when Inst.Defs says so.
func NewProgram(f *ptx.Func, tab *latency.Table) (*Program, error) {
	if f == nil {
		return nil, errors.New("timing: nil function")
	}
	return NewProgramFuncs(tab, f)
}

// NewProgramFuncs builds one program over several functions, their
// instructions concatenated in the order given: PCs index the functions'
// Insts back to back (no implicit end-of-body returns; NewProgramDecoded
// numbers PCs as gpu/sim does). Register names are kept apart per function;
// a call's argument passing is not modelled as a dependency.
func NewProgramFuncs(tab *latency.Table, funcs ...*ptx.Func) (*Program, error) {
	if tab == nil {
		return nil, errors.New("timing: nil latency table")
	}
	if len(funcs) == 0 {
		return nil, errors.New("timing: no function")
	}
	for fi, f := range funcs {
		if f == nil {
			return nil, fmt.Errorf("timing: function %d is nil", fi)
		}
	}
	dp, err := isa.Decode(funcs...)
	if err != nil {
		return nil, fmt.Errorf("timing: %w", err)
	}
	return fromDecoded(tab, dp, false), nil
}

// NewProgramDecoded builds the static program of a decoded program: one
// Inst per isa PC (the implicit end-of-body returns included), so the PCs
// of gpu/sim's issue log index it directly.
func NewProgramDecoded(tab *latency.Table, dp *isa.Program) (*Program, error) {
	if tab == nil {
		return nil, errors.New("timing: nil latency table")
	}
	if dp == nil {
		return nil, errors.New("timing: nil decoded program")
	}
	return fromDecoded(tab, dp, true), nil
}

// fromDecoded takes each instruction's timing from tab by its class and its
// register ids from the decoded form; implicit says whether the implicit
// end-of-body returns get PCs.
func fromDecoded(tab *latency.Table, dp *isa.Program, implicit bool) *Program {
	p := &Program{Table: tab, RegNames: dp.RegNames, Insts: make([]Inst, 0, len(dp.Insts))}
	for i := range dp.Insts {
		di := &dp.Insts[i]
		if di.Implicit && !implicit {
			continue
		}
		p.Insts = append(p.Insts, decodedInst(tab, di))
	}
	markReds(p)
	markUniformAtoms(p)
	return p
}

// markUniformAtoms keeps AggregatedAdd only on the adds whose address ptxas can
// prove warp-uniform (it aggregates those alone: testdata/measured/atomics,
// h_red with one bin and l_red, whose one address comes from a loaded or
// thread-dependent value, get one L2 pass per lane on the H200). A register is
// uniform when it has one definition, unguarded or under a uniform guard, by a
// kernel-parameter load or plain arithmetic on uniform registers, immediates,
// symbols and %ctaid/%ntid/%nctaid.
func markUniformAtoms(p *Program) {
	defs := make(map[int32]int)
	for i := range p.Insts {
		for _, r := range p.Insts[i].Dst {
			defs[r]++
		}
	}
	uniform := make(map[int32]bool)
	for changed := true; changed; {
		changed = false
		for i := range p.Insts {
			in := &p.Insts[i]
			if in.Dec == nil || len(in.Dst) != 1 || uniform[in.Dst[0]] || defs[in.Dst[0]] != 1 || !uniformInst(in.Dec, uniform) {
				continue
			}
			uniform[in.Dst[0]], changed = true, true
		}
	}
	for i := range p.Insts {
		in := &p.Insts[i]
		if !in.AggregatedAdd || in.Dec == nil || in.Dec.PTX == nil {
			continue
		}
		for _, a := range in.Dec.PTX.Args {
			if a.Kind == ptx.OpAddr {
				if a.BaseReg && len(in.Dec.Src) > 0 && !uniform[in.Dec.Src[0]] {
					in.AggregatedAdd = false
				}
				break
			}
		}
	}
}

// uniformInst reports whether the instruction computes a warp-uniform value
// from registers the map says are uniform.
func uniformInst(di *isa.Inst, uniform map[int32]bool) bool {
	switch di.Op {
	case isa.OpLd:
		if di.Mods.Space != ptx.SpaceParam || di.Func != 0 {
			return false // a device function's parameters may differ between lanes
		}
	case isa.OpMov, isa.OpCvta, isa.OpCvt, isa.OpAdd, isa.OpSub, isa.OpMul, isa.OpMad, isa.OpShl, isa.OpShr, isa.OpAnd, isa.OpOr, isa.OpXor, isa.OpNot, isa.OpMin, isa.OpMax:
	default:
		return false
	}
	for _, r := range di.Src {
		if !uniform[r] {
			return false
		}
	}
	if di.PTX == nil {
		return false
	}
	for _, a := range di.PTX.Args {
		if a.Kind == ptx.OpSpecial {
			switch a.Name {
			case "%ctaid", "%ntid", "%nctaid", "%nsmid":
			default:
				return false
			}
		}
	}
	return true
}

// markReds sets Inst.Red on the reds and on the atoms whose destinations no
// instruction reads, and drops those destinations.
func markReds(p *Program) {
	read := make(map[int32]bool)
	for i := range p.Insts {
		for _, r := range p.Insts[i].Src {
			read[r] = true
		}
	}
	for i := range p.Insts {
		in := &p.Insts[i]
		if in.Dec == nil || (in.Dec.Op != isa.OpAtom && in.Dec.Op != isa.OpRed) {
			continue
		}
		used := false
		for _, r := range in.Dst {
			used = used || read[r]
		}
		if !used {
			in.Red, in.Dst = true, nil
		}
	}
}

// decodedInst is the static timing of one decoded instruction: its class's
// timing adjusted by opcode and modifiers (decodedTiming), its registers, and
// what the atomic units and the asynchronous-copy model need to know of it.
// Every test of an opcode or modifier the timing model makes is here.
func decodedInst(tab *latency.Table, di *isa.Inst) Inst {
	m := &di.Mods
	in := Inst{Timing: decodedTiming(tab.ClassTiming(di.Class), di.Op, m), Dst: di.Dst, Src: di.Src, Issues: 1,
		Line: di.Line, Loc: di.Loc, Text: di.Text, Dec: di}
	// barrier.cluster.arrive counts an arrival and does not wait (the wait is barrier.cluster.wait's).
	in.NoWait = di.NoWait || di.Op == isa.OpBarrier && m.Has(isa.FlagCluster|isa.FlagArrive)
	switch di.Op {
	case isa.OpAtom, isa.OpRed:
		float := false
		for _, t := range m.Types {
			switch t {
			case ptx.F32, ptx.F64, ptx.F16, ptx.F16x2, ptx.BF16, ptx.BF16x2:
				float = true
			}
		}
		switch {
		case m.HasAtom(isa.AtomCas):
			in.Atomic = mem.AtomicCAS
		case m.HasAtom(isa.AtomAdd) && float:
			in.Atomic = mem.AtomicF32
		}
		if m.HasAtom(isa.AtomAdd) {
			for _, t := range m.Types {
				if t == ptx.U32 || t == ptx.S32 || t == ptx.U64 {
					in.AggregatedAdd = true
				}
			}
		}
	case isa.OpBarrier:
		if m.Has(isa.FlagCluster | isa.FlagWait) {
			in.barRelease = clusterBarRelease
			in.cluBar = cluWait
		} else if m.Has(isa.FlagCluster | isa.FlagArrive) {
			in.cluBar = cluArrive
			if m.Sem == isa.SemRelaxed {
				in.cluBar = cluArriveRelaxed
			}
		}
	case isa.OpMbarrier:
		if len(m.Words)+len(m.Types) > 0 {
			in.async = apAsync
		}
	case isa.OpCp:
		switch {
		case m.Has(isa.FlagAsync|isa.FlagBulk|isa.FlagWaitGroup) && !m.Has(isa.FlagReduce):
			in.async = apWaitGroup
			if m.Has(isa.FlagRead) {
				in.async = apWaitRead
			}
		case m.Has(isa.FlagAsync | isa.FlagBulk):
			in.async = apAsync
		case m.Has(isa.FlagAsync | isa.FlagCommitGroup):
			in.async = apCpCommit
		case m.Has(isa.FlagAsync|isa.FlagWaitGroup) || m.Has(isa.FlagAsync|isa.FlagWaitAll):
			in.async, in.cpKeep = apCpWait, cpWaitKeep(di)
		case m.Has(isa.FlagAsync):
			// cp.async is LDGSTS: its copy completes with an L2 hit's latency (modelled: the
			// event's memory level is not used); it writes no register, cp.async.wait_group
			// waits for it (async.go).
			in.async = apCpAsync
			in.Timing.Latency = max(in.Timing.Latency, tab.Mem.L2Hit)
		}
	}
	return in
}

// decodedTiming is t adjusted for the instructions whose timing is not their
// class's: ld.shared::cluster takes dsmemOwnLatency when it reads the block's own shared
// memory (async.go); a wmma.mma m16n16k16 is
// two HMMA.16816 and a wgmma.mma_async takes the pipe time and latency of a
// warpgroup MMA of its N (wgmma.go).
func decodedTiming(t latency.Timing, op isa.Opcode, m *isa.Mods) latency.Timing {
	// (A load, store or atomic that reaches another block's shared memory, through a
	// shared::cluster or a generic address, is timed by its event: MemDSMEM, model.go.)
	switch op {
	case isa.OpLd:
		if m.Space == ptx.SpaceSharedCluster {
			t.Latency = max(t.Latency, dsmemOwnLatency) // the block's own shared memory
		}
	case isa.OpWmma:
		if m.Has(isa.FlagMMA) && t.Pipe == latency.PipeTensor && m.Shape == (isa.Shape{M: 16, N: 16, K: 16}) {
			t.Latency += t.IssueCycles
			t.IssueCycles *= 2
		}
	case isa.OpWgmma:
		if m.Has(isa.FlagMMAAsync) && m.Shape.M == 64 && m.Shape.N >= 8 {
			t.IssueCycles = int(m.Shape.N) / 2
			t.Latency = wgmmaLatency
		}
	}
	return t
}

// MemClass is where a memory instruction's request was served.
type MemClass = latency.Outcome

// The memory classes of an Event.
const (
	MemNone   = latency.OutNone   // not a memory instruction, or no lane accessed memory
	MemShared = latency.OutShared // shared memory
	MemL1Hit  = latency.OutL1Hit  // global/local, hit in L1
	MemL2Hit  = latency.OutL2Hit  // missed L1, hit in L2
	MemDRAM   = latency.OutDRAM   // missed L2
	// MemDSMEM: a shared access (through a shared::cluster or a generic address) that
	// reached another block's shared memory, a cluster peer's: distributed shared memory,
	// timed with dsmemLatency (Model.dsmem)
	MemDSMEM MemClass = latency.OutDRAM + 1
)

// Event is one executed warp-instruction of a warp's dynamic stream.
type Event struct {
	PC     int32    // index into Program.Insts
	Active uint32   // lanes active when issued
	Mem    MemClass // for memory instructions: the slowest outcome among the request's sectors
	// Sectors is the number of 32-byte sectors of a global/local request, or
	// of shared-memory wavefronts for a shared access; 0 counts as 1.
	Sectors uint8
	// DRAMSectors is, for Mem == MemDRAM, how many sectors the access moved
	// to or from DRAM: reads, the neighbours an L2 miss fetched with them, and
	// dirty write-backs it caused (0: Sectors). A store that caused
	// write-backs is given Mem == MemDRAM too. Sectors beyond L1 all count
	// against L2 bandwidth.
	DRAMSectors uint8
	// Lines is the distinct 128-byte lines of a global/local request: the
	// L1TEX data stage's wavefronts (0: unknown, the fewest its sectors fill).
	Lines uint8
	// Acc, when > 0, names the access this event performed: index+1 into the
	// block's accesses given to AddBlockAccesses (Config.Caches, Config.Atomics).
	Acc int32
}

// WarpStream is one warp's executed instructions in order.
type WarpStream []Event

// validate checks a block's streams against the program.
func (p *Program) validate(warps []WarpStream) error {
	for w, s := range warps {
		for i, e := range s {
			if e.PC < 0 || int(e.PC) >= len(p.Insts) {
				return fmt.Errorf("timing: warp %d event %d: pc %d out of range [0,%d)", w, i, e.PC, len(p.Insts))
			}
		}
	}
	return nil
}

// LineStalls sums a result's per-instruction states by source line: the PTX
// line, or with cuda set the CUDA line of the instruction's .loc (0 for
// instructions without one).
func LineStalls(p *Program, r *Result, cuda bool) map[int][NumReasons]int64 {
	out := map[int][NumReasons]int64{}
	if p == nil || r == nil {
		return out
	}
	for pc, s := range r.PerPC {
		if pc >= len(p.Insts) {
			break
		}
		line := p.Insts[pc].Line
		if cuda {
			line = int(p.Insts[pc].Loc.Line)
		}
		acc := out[line]
		for i, v := range s {
			acc[i] += v
		}
		out[line] = acc
	}
	return out
}
