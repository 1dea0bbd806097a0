// Package ptxas models what NVIDIA's assembler (ptxas) makes of a PTX function: how many SASS
// instructions each PTX instruction becomes (0 when folded away, 1, or an expansion), which
// pipe each issues to, and which adjacent shared/global accesses merge into one 64- or 128-bit
// instruction. The rules are derived from cuobjdump listings of nvcc 13 builds (testdata/golden/sass,
// testdata/measured/ptxas); with a real listing at hand FromSASS builds the same answer from it.
package ptxas

import (
	"fmt"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Pipe is the SM functional unit a SASS instruction issues to, as Nsight Compute names its
// smsp__inst_executed_pipe_* counters.
type Pipe uint8

// Pipes. PipeOther counts instructions in none of Nsight Compute's pipe counters (ULDC, UMOV,
// BSYNC, uniform-predicate branches).
const (
	PipeOther Pipe = iota
	PipeALU
	PipeFMA
	PipeFP64
	PipeLSU
	PipeADU
	PipeCBU
	PipeUniform
	PipeXU
	PipeTensor
	NumPipes
)

var pipeNames = [NumPipes]string{"other", "alu", "fma", "fp64", "lsu", "adu", "cbu", "uniform", "xu", "tensor"}

// String is the pipe's Nsight Compute name ("alu", "fma", ...).
func (p Pipe) String() string {
	if p < NumPipes {
		return pipeNames[p]
	}
	return "pipe?"
}

// Source says where a Lowering came from.
type Source string

// Lowering sources.
const (
	Modelled Source = "modelled ptxas lowering" // the rules of this package
	FromSASS Source = "from SASS"               // a cuobjdump/nvdisasm listing of the real build
)

// Inst is what one PTX instruction becomes.
type Inst struct {
	// Issue is the SASS warp-instructions one execution of the PTX instruction issues
	// (0: folded away; may be fractional when built from a listing by line).
	Issue float64
	// Pipes are the issues per pipe (sums to Issue).
	Pipes [NumPipes]float64
	// Group is the merge group of a shared/global access (index into Lowering.Groups), -1 if none.
	Group int
	// Why says in a few words what ptxas does with it ("folded into IMAD.WIDE", "LDS.128 with 3 more").
	Why string
	// Slots and SlotPipes are the SASS instructions of this PTX instruction itself, for a
	// per-instruction timing model: an if-converted region's members keep theirs (they
	// issue predicated, with their own latencies) where Issue moved them onto the branch,
	// and the if-converted branch has none.
	Slots     float64
	SlotPipes [NumPipes]float64
}

// TimingIssue is what one PTX instruction issues as, in whole SASS instructions, for a
// timing model: Slots issue slots, Pipes of them per pipe (the rest, e.g. ULDC or a
// uniform branch, in no pipe).
type TimingIssue struct {
	Slots int
	Pipes [NumPipes]int
	// Pred is, for a member of an if-converted region, the PTX instruction index of the
	// converted branch (every warp that reaches it issues the whole region, predicated);
	// -1 otherwise.
	Pred int
	// UnrollHead is, for the back edge of a loop that ptxas is modelled to unroll 4x
	// more (unrollCounted), the loop's first PTX instruction index; -1 otherwise.
	UnrollHead int
}

// Group is a set of adjacent PTX memory accesses that ptxas merges into one SASS instruction.
type Group struct {
	Members []int // PTX instruction indices, lowest address first
	Leader  int   // the member at the lowest address: its access, Bytes wide, stands for the group
	Bytes   int   // bytes per lane of the merged instruction (8 or 16)
	Space   string
	Op      string // "ld" or "st"
	SASS    string // "LDS.128", "STS.64", "LDG.E.64", ...
}

// Lowering is the model of one function's SASS, indexed like Func.Insts.
type Lowering struct {
	Func   string
	Arch   string
	Source Source
	Insts  []Inst
	Groups []Group
	// Entry is the SASS instructions every warp issues once on entry beyond its PTX (the
	// stack-pointer load LDC R1, c[0x28]; the global memory descriptor ULDC.64).
	Entry      float64
	EntryPipes [NumPipes]float64
	// pred[i] is the if-converted branch whose predicated region holds instruction i, -1 if
	// none (nil when the lowering comes from a listing)
	pred []int
	// unrolled are the loops unrollCounted unrolls 4x more: first and back-edge indices
	unrolled [][2]int
}

// IssueCounts returns the SASS issue count of each PTX instruction, rounded to whole
// instructions (what a per-PC timing model issues), with the entry cost added to PC 0.
func (l *Lowering) IssueCounts() []int {
	out := make([]int, len(l.Insts))
	acc := 0.0
	for i, in := range l.Insts {
		// carry the rounding error forward so that the sum is kept
		acc += in.Issue
		if i == 0 {
			acc += l.Entry
		}
		n := int(acc + 0.5)
		out[i] = n
		acc -= float64(n)
	}
	return out
}

// TimingIssues returns, per PTX instruction, its own SASS instructions rounded to whole ones
// (an instruction issued once per 4 trips of a loop ptxas unrolled counts 0), with the entry
// cost on PC 0. From a listing, where a line's SASS is shared out in fractions over its PTX
// instructions, the rounding is carried from one instruction to the next so that the
// function's total is kept.
func (l *Lowering) TimingIssues() []TimingIssue {
	out := make([]TimingIssue, len(l.Insts))
	carry := 0.0
	for i, in := range l.Insts {
		slots, pipes := in.Slots, in.SlotPipes
		if i == 0 {
			slots += l.Entry
			for p, v := range l.EntryPipes {
				pipes[p] += v
			}
		}
		n := int(slots + 0.5)
		if l.Source == FromSASS {
			n = max(int(slots+carry+0.5), 0)
			carry += slots - float64(n)
		}
		out[i].Slots, out[i].Pred, out[i].UnrollHead = n, -1, -1
		if i < len(l.pred) {
			out[i].Pred = l.pred[i]
		}
		left := n
		for p, v := range pipes {
			k := min(int(v*float64(n)/max(slots, 1e-9)+0.5), left)
			out[i].Pipes[p] = k
			left -= k
		}
	}
	for _, u := range l.unrolled {
		if u[1] < len(out) {
			out[u[1]].UnrollHead = u[0]
		}
	}
	return out
}

// Static is the SASS instruction count of the function if each PTX instruction ran once.
func (l *Lowering) Static() float64 {
	s := l.Entry
	for _, in := range l.Insts {
		s += in.Issue
	}
	return s
}

// Lower models ptxas's lowering of fn (a function of mod; mod may be nil when fn uses no
// module-scope variables) for arch ("sm_75" ... "sm_90"; later ones follow sm_90's rules).
func Lower(mod *ptx.Module, fn *ptx.Func, arch string) (*Lowering, error) {
	if fn == nil || !fn.HasBody {
		return nil, fmt.Errorf("ptxas: no function body to lower")
	}
	gen, err := generation(arch)
	if err != nil {
		return nil, err
	}
	l := &Lowering{Func: fn.Name, Arch: arch, Source: Modelled, Insts: make([]Inst, len(fn.Insts))}
	df, err := newDataflow(mod, fn)
	if err != nil {
		return nil, err
	}
	rules := &lowerer{fn: fn, df: df, gen: gen, l: l, seen: map[string]bool{}, inOpen: make([]bool, len(fn.Insts)), flex: make([][2]float64, len(fn.Insts)), predBy: make([]int, len(fn.Insts)), paramAt: map[int]int{}, divergent: df.divergentRanges()}
	for i := range rules.predBy {
		rules.predBy[i] = -1
	}
	if err := rules.run(); err != nil {
		return nil, err
	}
	l.pred = rules.predBy
	return l, nil
}

// generation maps an architecture name to the listing generation the rules follow.
func generation(arch string) (int, error) {
	a := strings.TrimPrefix(strings.TrimPrefix(arch, "sm_"), "compute_")
	var n int
	if _, err := fmt.Sscanf(a, "%d", &n); err != nil || n < 50 {
		return 0, fmt.Errorf("ptxas: unknown architecture %q (want sm_75 ... sm_90)", arch)
	}
	return n, nil
}
