// Package latency holds per-architecture instruction timing for the PTX the
// simulator runs: for every opcode and type class the dependent-issue latency
// (cycles from an instruction's issue until a dependent instruction may
// issue), the issue interval on one SM sub-partition (cycles between two
// independent warp-instructions of the class) and the execution pipe, plus
// the memory-system latencies and bandwidths the timing model uses.
//
// The tables are PTX-level: a PTX instruction may become several SASS
// instructions (div.rn.f32 is a subroutine call) or ptxas may fuse two PTX
// instructions into one SASS instruction (two add.s32 of the same operand
// become one IMAD/LEA); the sm_90 values are the measured cost of a
// dependent chain of the PTX instruction on an H200
// (testdata/golden/latency_sm90.csv, SASS in lat_sm90.sass), so they include
// such effects. Every value carries its source in tables.go and README.md.
package latency

import (
	"fmt"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Pipe is the execution pipe (functional unit) an instruction occupies.
type Pipe uint8

// The pipes, in Nsight Compute's grouping.
const (
	PipeINT     Pipe = iota // integer and logic ALU (alu, and the integer half of fmaheavy)
	PipeFP32                // single-precision FMA pipe (fma)
	PipeFP64                // double-precision pipe (fp64)
	PipeSFU                 // multi-function unit: MUFU transcendentals, conversions, POPC/FLO/BREV (xu)
	PipeMIO                 // shared-memory load/store unit behind the MIO queue (lsu, shared)
	PipeMemory              // global and local memory through L1TEX (lsu, global)
	PipeControl             // branches, calls, exits, barriers (cbu, adu)
	PipeShuffle             // warp shuffles and warp-wide reductions
	PipeTensor              // tensor cores (mma, wmma, wgmma)
	NumPipes                // number of pipes
)

var pipeNames = [NumPipes]string{"INT", "FP32", "FP64", "SFU", "LDST/MIO", "memory", "control", "shuffle", "tensor"}

// pipeColors are the display colours of the pipes (CSS hex), one hue per
// family: arithmetic in blues and greens, memory in oranges and reds.
var pipeColors = [NumPipes]string{"#4e79a7", "#59a14f", "#76b7b2", "#b07aa1", "#f28e2b", "#e15759", "#9c755f", "#edc948", "#ff9da7"}

// String names the pipe ("FP32").
func (p Pipe) String() string {
	if p < NumPipes {
		return pipeNames[p]
	}
	return fmt.Sprintf("Pipe(%d)", p)
}

// Color is the pipe's display colour as a CSS hex string; grey for an unknown pipe.
func (p Pipe) Color() string {
	if p < NumPipes {
		return pipeColors[p]
	}
	return "#bab0ac"
}

// Dep says how a consumer waits for the result of an instruction, which
// decides the stall reason Nsight Compute reports for the wait.
type Dep uint8

// Dependency kinds.
const (
	DepFixed Dep = iota // fixed latency, resolved by the compiler's stall counts: "wait"
	DepShort            // variable latency through MIO (shared memory, MUFU, shuffles): "short_scoreboard"
	DepLong             // variable latency through L1TEX (global, local): "long_scoreboard"
)

// String names the dependency kind.
func (d Dep) String() string {
	switch d {
	case DepFixed:
		return "fixed"
	case DepShort:
		return "short"
	case DepLong:
		return "long"
	}
	return fmt.Sprintf("Dep(%d)", d)
}

// Timing is the timing of one instruction class on one architecture.
type Timing struct {
	Latency     int   // dependent-issue latency in cycles (0: the instruction produces no register result)
	IssueCycles int   // cycles the pipe of one sub-partition is busy per warp-instruction (1 = one per cycle)
	Pipe        Pipe  // execution pipe
	Dep         Dep   // how a consumer waits for the result
	Class       Class // the instruction class the timing belongs to
}

// Memory holds an architecture's memory-system timing.
type Memory struct {
	Shared int // ld.shared load-to-use latency in cycles
	L1Hit  int // ld.global hitting L1, load-to-use cycles
	L2Hit  int // ld.global missing L1 and hitting L2
	DRAM   int // ld.global missing L2

	// Bandwidths in bytes per SM clock cycle.
	L1BytesPerCycle   int     // per SM: L1TEX data path (also shared-memory wavefront width)
	L2BytesPerCycle   float64 // whole GPU: L2 slices together
	DRAMBytesPerCycle float64 // whole GPU: sustained DRAM bandwidth

	// L1LineCycles is what each 128-byte line of a global load beyond its first
	// adds to the load's latency (a lone warp's request of K lines; its
	// throughput is a line a cycle, L1BytesPerCycle).
	L1LineCycles float64
	// L2StoreLinesPerCycle and L2PartialSectorsPerCycle bound stores at L2
	// (whole GPU): a store request costs its lines over the first plus its
	// sectors not written whole over the second, when that exceeds its bytes
	// over L2BytesPerCycle (0: no such bound).
	L2StoreLinesPerCycle, L2PartialSectorsPerCycle float64
}

// Barrier holds the block-barrier timing of an architecture.
type Barrier struct {
	ArriveCycles  int // cycles the SM's barrier unit spends per arriving warp (arrivals are serialised)
	ReleaseCycles int // cycles from the last arrival until the waiting warps may issue again
}

// Table is the instruction timing of one architecture. Obtain it with For.
type Table struct {
	Arch     string  // canonical architecture name ("sm_90")
	SMs      int     // SMs of the reference part (from gpu/arch)
	ClockMHz int     // SM clock of the reference part (from gpu/arch)
	Mem      Memory  // memory latencies and bandwidths
	Bar      Barrier // block barrier
	ops      [NumClasses]Timing
}

// For returns the timing table of an architecture ("sm_90", "sm_90a", "9.0"
// ...); a fresh copy on every call.
func For(archName string) (*Table, error) {
	spec, err := arch.Lookup(archName)
	if err != nil {
		return nil, fmt.Errorf("latency: %w", err)
	}
	build, ok := builders[spec.Name]
	if !ok {
		return nil, fmt.Errorf("latency: no timing table for %s (have %s)", spec.Name, strings.Join(Archs(), ", "))
	}
	t := &Table{Arch: spec.Name, SMs: spec.SMs, ClockMHz: spec.ClockMHz}
	build(t, spec)
	for c := range t.ops {
		t.ops[c].Class = Class(c)
		if t.ops[c].IssueCycles < 1 {
			t.ops[c].IssueCycles = 1
		}
	}
	return t, nil
}

// Archs lists the architectures that have a table, ascending.
func Archs() []string {
	return []string{"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"}
}

// ClassTiming returns the timing of an instruction class; the zero Timing
// with Class set for an out-of-range class.
func (t *Table) ClassTiming(c Class) Timing {
	if t == nil || c >= NumClasses {
		return Timing{Class: c, IssueCycles: 1, Pipe: PipeINT}
	}
	return t.ops[c]
}

// Lookup returns the timing of a PTX instruction, decoded from its opcode and
// modifiers. Unknown instructions get the integer-ALU timing (ClassOther).
// A nil instruction or table is answered with ClassOther's default.
func (t *Table) Lookup(in *ptx.Inst) Timing {
	if in == nil {
		return t.ClassTiming(ClassOther)
	}
	return t.ClassTiming(Classify(in))
}

// MemLatency returns the load-to-use latency for a memory outcome.
func (t *Table) MemLatency(o Outcome) int {
	switch o {
	case OutShared:
		return t.Mem.Shared
	case OutL1Hit:
		return t.Mem.L1Hit
	case OutL2Hit:
		return t.Mem.L2Hit
	case OutDRAM:
		return t.Mem.DRAM
	}
	return 0
}

// Outcome is where a memory access was served.
type Outcome uint8

// Memory outcomes.
const (
	OutNone   Outcome = iota // not a memory access (or param/const)
	OutShared                // shared memory
	OutL1Hit                 // global/local, hit in L1
	OutL2Hit                 // missed L1, hit in L2
	OutDRAM                  // missed L2
)

// String names the outcome.
func (o Outcome) String() string {
	switch o {
	case OutNone:
		return "none"
	case OutShared:
		return "shared"
	case OutL1Hit:
		return "L1 hit"
	case OutL2Hit:
		return "L2 hit"
	case OutDRAM:
		return "DRAM"
	}
	return fmt.Sprintf("Outcome(%d)", o)
}
