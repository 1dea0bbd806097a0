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
// register-bank conflicts, dual issue, the SASS-level instruction count
// (the model issues PTX instructions), L1/L2 tag and MSHR limits beyond the
// bandwidth queues, and launch overhead.
package timing

import (
	"errors"
	"fmt"

	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Inst is the static timing information of one instruction (one PC).
type Inst struct {
	Timing latency.Timing // from the architecture's table
	Dst    []int32        // register ids written
	Src    []int32        // register ids read (guard predicate included)
	NoWait bool           // bar.arrive / barrier.arrive: counts nothing and does not wait
	Line   int            // PTX line, for reports
	Loc    ptx.Loc        // CUDA location from .loc, for per-CUDA-line reports
	Text   string         // opcode with modifiers, for reports
}

// Program is the static side of a replay: one Inst per PC. PCs are indices
// into Insts; for a kernel built by NewProgram, the index into Func.Insts.
type Program struct {
	Insts    []Inst
	RegNames []string // register id -> name ("%r5", "%v1.x")
	Table    *latency.Table
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
// instructions concatenated in the order given (gpu/sim numbers PCs the
// kernel first, then its device functions). Register names are kept apart
// per function; a call's argument passing is not modelled as a dependency.
func NewProgramFuncs(tab *latency.Table, funcs ...*ptx.Func) (*Program, error) {
	if tab == nil {
		return nil, errors.New("timing: nil latency table")
	}
	if len(funcs) == 0 {
		return nil, errors.New("timing: no function")
	}
	p := &Program{Table: tab}
	ids := map[string]int32{}
	for fi, f := range funcs {
		if f == nil {
			return nil, fmt.Errorf("timing: function %d is nil", fi)
		}
		prefix := ""
		if fi > 0 {
			prefix = f.Name + ":"
		}
		id := func(name, comp string) int32 {
			k := prefix + name
			if comp != "" {
				k += "." + comp
			}
			if v, ok := ids[k]; ok {
				return v
			}
			v := int32(len(p.RegNames))
			ids[k] = v
			p.RegNames = append(p.RegNames, k)
			return v
		}
		var collect func(o ptx.Operand, out *[]int32)
		collect = func(o ptx.Operand, out *[]int32) {
			switch o.Kind {
			case ptx.OpReg:
				*out = append(*out, id(o.Name, o.Comp))
			case ptx.OpAddr:
				if o.BaseReg && o.Name != "" {
					*out = append(*out, id(o.Name, ""))
				}
			case ptx.OpVec, ptx.OpList, ptx.OpPair:
				for _, e := range o.Elems {
					collect(e, out)
				}
			}
		}
		for _, in := range f.Insts {
			p.Insts = append(p.Insts, Inst{})
			pi := &p.Insts[len(p.Insts)-1]
			if in == nil {
				pi.Timing = tab.Lookup(nil)
				continue
			}
			pi.Timing = wgmmaTiming(tab.Lookup(in), in) // wgmma.go
			pi.Line = int(in.Pos.Line)
			pi.Loc = in.Loc
			pi.Text = in.Op
			for _, m := range in.Mods {
				pi.Text += "." + m
			}
			if pi.Timing.Class == latency.ClassBar && len(in.Mods) > 0 && in.Mods[0] == "arrive" {
				pi.NoWait = true
			}
			args := in.Args
			if in.Defs() && len(args) > 0 {
				if args[0].Kind == ptx.OpAddr { // never a destination
					collect(args[0], &pi.Src)
				} else {
					collect(args[0], &pi.Dst)
				}
				args = args[1:]
			}
			for _, a := range args {
				collect(a, &pi.Src)
			}
			if in.Guard != "" {
				pi.Src = append(pi.Src, id(in.Guard, ""))
			}
		}
	}
	return p, nil
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
