package ptxas

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/isa"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// dataflow holds the def-use facts the rules need: which instructions define and use each
// register, the known power-of-two alignment of each register's value, and the CFG.
type dataflow struct {
	mod   *ptx.Module // may be nil
	fn    *ptx.Func
	defs  map[string][]int
	uses  map[string][]int
	align map[string]int // bytes; 1 = unknown
	// uniform holds the registers known to be equal in all lanes of a warp
	uniform map[string]bool
	cfg     *ptx.CFG
	label   map[string]int // label -> instruction index
	in      []*inst        // fn.Insts as gpu/isa decodes them
}

// noDest lists the opcodes whose first operand is not a destination.
var noDest = map[isa.Opcode]bool{
	isa.OpSt: true, isa.OpRed: true, isa.OpBar: true, isa.OpBarrier: true, isa.OpBra: true, isa.OpBrx: true, isa.OpRet: true,
	isa.OpExit: true, isa.OpMembar: true, isa.OpFence: true, isa.OpPrefetch: true, isa.OpPrefetchu: true, isa.OpTrap: true,
	isa.OpBrkpt: true, isa.OpCp: true, isa.OpStmatrix: true, isa.OpCall: true, isa.OpNanosleep: true, isa.OpPmevent: true,
	isa.OpGriddepcontrol: true, isa.OpDiscard: true, isa.OpApplypriority: true, isa.OpSetmaxnreg: true,
}

// inst is one PTX instruction as the rules read it: gpu/isa's decoded opcode and parsed
// modifiers (which shadow the ptx.Inst's text), and the parsed operands (Args, Guard,
// GuardNeg) of the instruction it was decoded from.
type inst struct {
	*ptx.Inst
	Op   isa.Opcode // isa.Inst.Op
	Mods isa.Mods   // isa.Inst.Mods
}

// decode returns fn's instructions as gpu/isa decodes them, indexed like fn.Insts.
func decode(fn *ptx.Func) ([]*inst, error) {
	p, err := isa.Decode(fn)
	if err != nil {
		return nil, fmt.Errorf("ptxas: %s: %w", fn.Name, err)
	}
	out := make([]*inst, len(fn.Insts))
	for i := range out {
		d := &p.Insts[i]
		out[i] = &inst{Inst: fn.Insts[i], Op: d.Op, Mods: d.Mods}
	}
	return out, nil
}

// regsOf appends the register names an operand reads (for an address, its base register).
func regsOf(o ptx.Operand, out []string) []string {
	switch o.Kind {
	case ptx.OpReg:
		out = append(out, o.Name)
	case ptx.OpAddr:
		if o.BaseReg {
			out = append(out, o.Name)
		}
	case ptx.OpVec, ptx.OpList, ptx.OpPair:
		for _, e := range o.Elems {
			out = regsOf(e, out)
		}
	}
	return out
}

// dests returns the registers an instruction writes.
func dests(in *inst) []string {
	if len(in.Args) == 0 || noDest[in.Op] {
		return nil
	}
	a := in.Args[0]
	if a.Kind == ptx.OpAddr {
		return nil
	}
	return regsOf(a, nil)
}

// srcs returns the registers an instruction reads (guard included).
func srcs(in *inst) []string {
	var out []string
	if in.Guard != "" {
		out = append(out, in.Guard)
	}
	start := 1
	if len(in.Args) > 0 && (noDest[in.Op] || in.Args[0].Kind == ptx.OpAddr) {
		start = 0
	}
	for i := start; i < len(in.Args); i++ {
		out = regsOf(in.Args[i], out)
	}
	return out
}

func newDataflow(mod *ptx.Module, fn *ptx.Func) (*dataflow, error) {
	in, err := decode(fn)
	if err != nil {
		return nil, err
	}
	df := &dataflow{mod: mod, fn: fn, defs: map[string][]int{}, uses: map[string][]int{}, align: map[string]int{}, label: map[string]int{}, in: in}
	for _, lb := range fn.Labels {
		df.label[lb.Name] = lb.Index
	}
	for i, in := range df.in {
		for _, r := range dests(in) {
			df.defs[r] = append(df.defs[r], i)
		}
		for _, r := range srcs(in) {
			df.uses[r] = append(df.uses[r], i)
		}
	}
	if g, err := ptx.BuildCFG(fn); err == nil {
		df.cfg = g
	}
	df.computeAlign()
	df.computeUniform()
	return df, nil
}

// computeUniform finds the registers whose value is the same in every lane of a warp:
// computed only from parameters, %ctaid/%ntid/%nctaid, immediates and symbols.
func (df *dataflow) computeUniform() {
	df.uniform = map[string]bool{}
	for r := range df.defs {
		df.uniform[r] = true
	}
	for iter := 0; iter < 20; iter++ {
		changed := false
		div := df.divergentRanges()
		for pc, in := range df.in {
			u := df.instUniform(in)
			for _, d := range dests(in) {
				// a register also written under a divergent branch differs between the lanes
				// that took it and those that did not, once the paths meet
				if !u || (len(df.defs[d]) > 1 && div[pc]) {
					if df.uniform[d] {
						df.uniform[d], changed = false, true
					}
				}
			}
		}
		if !changed {
			return
		}
	}
}

// divergentRanges marks the instructions that a forward conditional branch on a value that is
// not (yet known to be) warp-uniform jumps over, and the else-arm of such an if/else.
func (df *dataflow) divergentRanges() []bool {
	fn := df.fn
	out := make([]bool, len(fn.Insts))
	for pc, in := range df.in {
		if in.Op != isa.OpBra || in.Guard == "" || df.uniform[in.Guard] || len(in.Args) == 0 {
			continue
		}
		tgt, ok := df.label[in.Args[0].Name]
		if !ok || tgt <= pc || tgt >= len(fn.Insts) || df.in[tgt].Op == isa.OpRet || df.in[tgt].Op == isa.OpExit {
			continue // lanes that leave do not meet the others again
		}
		end := tgt
		if last := df.in[tgt-1]; last.Op == isa.OpBra && last.Guard == "" && len(last.Args) > 0 {
			if e, ok := df.label[last.Args[0].Name]; ok && e > tgt {
				end = e
			}
		}
		for i := pc + 1; i < end && i < len(out); i++ {
			out[i] = true
		}
	}
	return out
}

func (df *dataflow) instUniform(in *inst) bool {
	if in.Guard != "" && !df.uniform[in.Guard] {
		return false
	}
	switch in.Op {
	case isa.OpLd:
		if !has(in, "param") {
			return false
		}
	case isa.OpMov, isa.OpCvta, isa.OpCvt, isa.OpAdd, isa.OpSub, isa.OpMul, isa.OpMad, isa.OpShl, isa.OpShr, isa.OpAnd, isa.OpOr, isa.OpXor, isa.OpNot, isa.OpSetp, isa.OpSelp, isa.OpMin, isa.OpMax:
	default:
		return false
	}
	start := 1
	for i := start; i < len(in.Args); i++ {
		a := in.Args[i]
		switch a.Kind {
		case ptx.OpSpecial:
			switch a.Name {
			case "%ctaid", "%ntid", "%nctaid", "%nsmid", "%clusterid", "%nclusterid":
			default:
				return false
			}
		case ptx.OpReg:
			if !df.uniform[a.Name] {
				return false
			}
		case ptx.OpAddr:
			if a.BaseReg && !df.uniform[a.Name] {
				return false
			}
		}
	}
	return true
}

// users returns the instructions that read the value defined by instruction pc.
func (df *dataflow) users(pc int) []int {
	var out []int
	for _, r := range dests(df.in[pc]) {
		out = append(out, df.uses[r]...)
	}
	return out
}

// def returns the single instruction defining register r, or -1.
func (df *dataflow) def(r string) int {
	if d := df.defs[r]; len(d) == 1 {
		return d[0]
	}
	return -1
}

// srcDef returns the single defining instruction of operand k of in, or -1.
func (df *dataflow) srcDef(in *inst, k int) int {
	if k >= len(in.Args) || in.Args[k].Kind != ptx.OpReg {
		return -1
	}
	return df.def(in.Args[k].Name)
}

// block returns the basic block of pc (-1 without a CFG).
func (df *dataflow) block(pc int) int {
	if df.cfg == nil || pc >= len(df.cfg.BlockOf) {
		return -1
	}
	return df.cfg.BlockOf[pc]
}

const alignTop = 1 << 30

// pow2 is the largest power of two dividing v (alignTop for 0).
func pow2(v int64) int {
	if v == 0 {
		return alignTop
	}
	if v < 0 {
		v = -v
	}
	return 1 << min(30, bits.TrailingZeros64(uint64(v)))
}

// computeAlign finds the power-of-two alignment every register's value is known to have,
// as the greatest fixed point over all definitions (loop-carried values take the gcd).
func (df *dataflow) computeAlign() {
	for r := range df.defs {
		df.align[r] = alignTop
	}
	for iter := 0; iter < 20; iter++ {
		changed := false
		for _, in := range df.in {
			ds := dests(in)
			if len(ds) != 1 {
				for _, d := range ds {
					if df.align[d] != 1 {
						df.align[d], changed = 1, true
					}
				}
				continue
			}
			a := df.instAlign(in)
			if a < df.align[ds[0]] {
				df.align[ds[0]], changed = a, true
			}
		}
		if !changed {
			return
		}
	}
}

// opAlign is the known alignment of an operand's value.
func (df *dataflow) opAlign(o ptx.Operand) int {
	switch o.Kind {
	case ptx.OpImm:
		return pow2(o.Imm)
	case ptx.OpReg:
		if a, ok := df.align[o.Name]; ok {
			return a
		}
		return 1
	case ptx.OpSym:
		if v := df.lookupVar(o.Name); v != nil {
			a := v.Align
			if a == 0 {
				a = max(1, v.Type.Size())
			}
			// ptxas places shared arrays itself, on 16-byte boundaries
			if v.Space == ptx.SpaceShared && (v.Size() >= 16 || v.Size() == 0) {
				a = max(a, 16)
			}
			return min(a, pow2(o.Imm))
		}
		return 1
	}
	return 1
}

// instAlign is the alignment of the value one instruction computes.
func (df *dataflow) instAlign(in *inst) int {
	arg := func(k int) int {
		if k < len(in.Args) {
			return df.opAlign(in.Args[k])
		}
		return 1
	}
	switch in.Op {
	case isa.OpLd:
		// a kernel pointer parameter declared .ptr .align N points to N-aligned memory
		if has(in, "param") && len(in.Args) > 1 && in.Args[1].Kind == ptx.OpAddr {
			for _, p := range df.fn.Params {
				if p.Name == in.Args[1].Name && p.Ptr && p.PtrAlign > 0 {
					return p.PtrAlign
				}
			}
		}
		return 1
	case isa.OpMov, isa.OpCvta, isa.OpCvt:
		if in.Op == isa.OpMov && len(in.Args) > 1 && in.Args[1].Kind == ptx.OpSpecial {
			return 1
		}
		return arg(1)
	case isa.OpAdd, isa.OpSub:
		return min(arg(1), arg(2))
	case isa.OpMul:
		return min(alignTop, arg(1)*arg(2))
	case isa.OpMad:
		return min(min(alignTop, arg(1)*arg(2)), arg(3))
	case isa.OpShl:
		if len(in.Args) > 2 && in.Args[2].Kind == ptx.OpImm {
			return min(alignTop, arg(1)<<uint(min(30, in.Args[2].Imm)))
		}
		return 1
	case isa.OpAnd:
		// x & mask keeps at least the mask's alignment; a low-bit clearing mask gives more
		a := max(arg(1), arg(2))
		return a
	case isa.OpOr, isa.OpXor:
		return min(arg(1), arg(2))
	}
	return 1
}

// isSharedSym reports whether o names a .shared variable.
func (df *dataflow) isSharedSym(o ptx.Operand) bool {
	if o.Kind != ptx.OpSym {
		return false
	}
	v := df.lookupVar(o.Name)
	return v != nil && v.Space == ptx.SpaceShared
}

// lookupVar finds a variable of the body or, failing that, of the module.
func (df *dataflow) lookupVar(name string) *ptx.Var {
	if v := df.fn.LookupVar(name, len(df.fn.Insts)); v != nil {
		return v
	}
	if df.mod != nil {
		for _, v := range df.mod.Globals {
			if v.Name == name {
				return v
			}
		}
	}
	return nil
}

// has reports whether in carries modifier m (a word of gpu/isa's parsed Mods, "shared"
// matching "shared::cta" too, or a type name).
func has(in *inst, m string) bool {
	for _, x := range in.Mods.Words {
		if x == m || strings.HasPrefix(x, m+"::") {
			return true
		}
	}
	for _, t := range in.Mods.Types {
		if t.String() == m {
			return true
		}
	}
	return false
}

// typ returns the instruction's type (gpu/isa's Mods.Type: the last type modifier) by name
// ("f32", "u64", ...), "" if none.
func typ(in *inst) string { return in.Mods.Type.String() }

// is64 reports whether t is a 64-bit type name.
func is64(t string) bool { return strings.HasSuffix(t, "64") }
