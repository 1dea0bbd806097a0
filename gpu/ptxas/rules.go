package ptxas

import (
	"fmt"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/isa"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// sassPipe is the pipe of a SASS opcode (without modifiers), as the H200's
// smsp__inst_executed_pipe_* counters attribute it (testdata/measured/ptxas/ncu_h200.json:
// e.g. S2R counts as lsu, LDC and S2UR as adu, I2FP as alu, I2F/F2I/F2F as xu, VIADD as fma,
// HFMA2 as tensor, ULDC/UMOV/BSYNC in none).
func sassPipe(op string) Pipe {
	switch op {
	case "LDC", "S2UR", "BAR":
		return PipeADU
	case "S2R", "LDG", "STG", "LDS", "STS", "LDSM", "ATOMS", "ATOMG", "ATOM", "RED", "REDG", "LDL", "STL",
		"SHFL", "LD", "ST", "MEMBAR", "MATCH", "LDGSTS", "CCTL", "ERRBAR":
		return PipeLSU
	case "ISETP", "FSETP", "IADD3", "LEA", "LOP3", "SHF", "MOV", "SEL", "FSEL", "I2FP", "F2FP", "IABS", "IMNMX",
		"FMNMX", "PRMT", "PLOP3", "P2R", "R2P", "VOTE", "CS2R", "SGXT", "BMSK", "FCHK", "HSETP2", "IADD":
		return PipeALU
	case "FFMA", "FADD", "FMUL", "IMAD", "VIADD", "IMUL", "HADD2", "HMUL2", "FSWZADD", "IDP", "IMNMX3":
		return PipeFMA
	case "HFMA2":
		return PipeTensor
	case "DADD", "DFMA", "DMUL", "DSETP":
		return PipeFP64
	case "MUFU", "I2F", "F2I", "F2F", "POPC", "FLO", "BREV", "FRND":
		return PipeXU
	case "EXIT", "BRA", "BSSY", "CALL", "RET", "WARPSYNC", "BRX", "JMP", "BREAK":
		return PipeCBU
	case "BRA.U":
		// back edges, loop exits and jumps outside a convergence region are in none of the
		// pipe counters (iso_loop_const: 512 back edges, cbu 8; saxpy)
		return PipeOther
	case "IADD3~", "IADD3.X~", "MOV~":
		// an add or move ptxas may issue on either integer pipe (IADD3/IMAD.IADD,
		// IADD3.X/IMAD.X, MOV/IMAD.MOV.U32); counted on alu until balance moves it
		return PipeALU
	case "VIADD.I", "IMAD.SHL", "IMAD.MOV":
		// sm_90 issues an add of an immediate as VIADD and shifts/moves as IMAD.* on the fma pipe
		return PipeFMA
	case "UIADD3", "ULEA", "UIMAD", "ULOP3", "USHF", "UISETP", "UFLO", "VOTEU", "UPRMT", "USEL", "UPOPC", "REDUX":
		return PipeUniform
	}
	return PipeOther
}

// flexOp reports whether a modelled SASS opcode has an equivalent on the other integer pipe
// (ALU: IADD3, IADD3.X, MOV; FMA: IMAD.IADD, IMAD.X, IMAD.MOV.U32, IMAD.SHL, VIADD), which
// ptxas chooses between to balance the two pipes (balance).
func flexOp(op string) bool {
	switch op {
	case "IADD3~", "IADD3.X~", "MOV~", "VIADD.I", "IMAD.SHL", "IMAD.MOV":
		return true
	}
	return false
}

// lowerer applies the rules to one function.
type lowerer struct {
	fn   *ptx.Func
	df   *dataflow
	gen  int // 75, 80, 86, 89, 90
	l    *Lowering
	seen map[string]bool // special registers and params already materialised
	// openUntil is the start of the reconvergence point of the open convergence region,
	// openFrom the branch that opened it
	openUntil, openFrom int
	// inOpen marks the branches that lie inside an open convergence region
	inOpen []bool
	// sunk are parameter loads issued at a later instruction: (pc, pipe)
	sunk [][2]int
	// flex[pc] are the issues of pc that may go to the alu or the fma pipe (flexOp), as
	// counted now on alu ([0]) and fma ([1])
	flex [][2]float64
	// predBy[pc] is the if-converted branch whose predicated region holds pc, or -1
	predBy []int
	// paramAt[pc] is where the LDC of the parameter load at pc is counted (pc, or the
	// instruction it was sunk to), -1 when it costs nothing
	paramAt map[int]int
	// zeros are the zeroings that pair into CS2R (zero)
	zeros []int
	// consts are the fixed-address constant loads that pair into ULDC.64
	consts []int
	// divergent marks the instructions under a divergent branch (dataflow.divergentRanges)
	divergent []bool
	// windows are the shared windows made: (the mov, where its S2R/MOV/LEA are counted)
	windows [][2]int
}

// emit sets instruction pc to the given SASS opcodes.
func (lw *lowerer) emit(pc int, why string, ops ...string) {
	in := &lw.l.Insts[pc]
	in.Issue = float64(len(ops))
	in.Pipes = [NumPipes]float64{}
	for _, op := range ops {
		in.Pipes[sassPipe(op)]++
	}
	in.Slots, in.SlotPipes = in.Issue, in.Pipes
	in.Why = why
	lw.flex[pc] = [2]float64{}
	for _, op := range ops {
		if flexOp(op) {
			lw.flex[pc][boolIdx(sassPipe(op) == PipeFMA)]++
		}
	}
}

// boolIdx is 1 for true, 0 for false.
func boolIdx(b bool) int {
	if b {
		return 1
	}
	return 0
}

// repeat returns n copies of op.
func repeat(op string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = op
	}
	return out
}

func (lw *lowerer) run() error {
	l, fn := lw.l, lw.fn
	for i := range l.Insts {
		l.Insts[i].Group = -1
	}
	global := false
	for pc, in := range lw.df.in {
		if (in.Op == isa.OpLd || in.Op == isa.OpSt || in.Op == isa.OpAtom || in.Op == isa.OpRed) && !has(in, "shared") && !has(in, "param") && !has(in, "local") && !has(in, "const") {
			global = true
		}
		lw.inst(pc, in)
	}
	// every function loads its stack pointer (LDC R1 on sm_90, MOV R1, c[0x28] before);
	// one ULDC.64 of the global memory descriptor (sm_80 and later) where global memory is used
	if fn.Entry {
		if lw.gen >= 90 {
			l.Entry, l.EntryPipes[PipeADU] = 1, 1
		} else {
			l.Entry, l.EntryPipes[PipeALU] = 1, 1
		}
		if global && lw.gen >= 80 {
			l.Entry++
			l.EntryPipes[PipeOther]++
		}
	}
	for _, k := range lw.sunk {
		in := &l.Insts[k[0]]
		in.Issue++
		in.Pipes[k[1]]++
		in.Slots++
		in.SlotPipes[k[1]]++
	}
	lw.pairZeros()
	lw.merge()
	lw.pairHalves()
	lw.ifConvert()
	lw.rematParams()
	lw.pointerCopies()
	lw.uniformPath()
	lw.balance()
	lw.unrollCounted()
	return nil
}

// uniformPath moves onto the uniform datapath (sm_75 and later) what ptxas computes there:
// integer arithmetic whose operands and result are warp-uniform, outside divergent control
// flow and predicated regions, becomes UIADD3/USHF/UIMAD/ULOP3 (Nsight Compute's uniform pipe)
// and a move UMOV (in no pipe): blockDim/2 (USHF), gridDim*blockDim (saxpy's UIMAD), loop
// counters of uniform loops (olcf_row_sums: UIADD3 + UIADD3.X; tt_reduceInterleaved's stride:
// USHF). The sm_90 shared window is S2UR + UMOV + ULEA there (reduce, histogram256 after their
// divergent regions), S2R + MOV + LEA inside them. A uniform value that an ordered compare
// tests against an immediate stays in a vector register (ISETP takes no uniform first
// operand: iso3_loop_i32's trip counter is IADD3, its index UIADD3).
func (lw *lowerer) uniformPath() {
	if lw.gen < 75 {
		return
	}
	l := lw.l
	inDivLoop := lw.divergentLoops()
	ok := func(pc int) bool {
		return lw.predBy[pc] < 0 && !lw.divergent[pc] && !inDivLoop[pc]
	}
	for _, w := range lw.windows {
		if !ok(w[0]) || !ok(w[1]) || !lw.windowUniform(w[0]) {
			continue
		}
		in := &l.Insts[w[1]]
		if in.Pipes[PipeLSU] < 1 || in.Pipes[PipeALU] < 2 {
			continue
		}
		in.Pipes[PipeLSU]--
		in.Pipes[PipeADU]++
		in.Pipes[PipeALU] -= 2
		in.Pipes[PipeOther]++
		in.Pipes[PipeUniform]++
		if in.SlotPipes[PipeLSU] >= 1 && in.SlotPipes[PipeALU] >= 2 {
			in.SlotPipes[PipeLSU]--
			in.SlotPipes[PipeADU]++
			in.SlotPipes[PipeALU] -= 2
			in.SlotPipes[PipeOther]++
			in.SlotPipes[PipeUniform]++
		}
		in.Why += " (uniform datapath: S2UR, UMOV, ULEA)"
	}
	for pc, in := range lw.df.in {
		switch in.Op {
		case isa.OpAdd, isa.OpSub, isa.OpShl, isa.OpShr, isa.OpMul, isa.OpMad, isa.OpAnd, isa.OpOr, isa.OpXor, isa.OpNot, isa.OpMov:
		default:
			continue
		}
		t := typ(in)
		if strings.HasPrefix(t, "f") || t == "pred" || !ok(pc) || !lw.df.instUniform(in) {
			continue
		}
		if in.Op == isa.OpMov && (len(in.Args) < 2 || in.Args[1].Kind == ptx.OpSpecial || lw.df.isSharedSym(in.Args[1])) {
			continue
		}
		d := dests(in)
		if len(d) != 1 || !lw.uniformUse(d[0]) || lw.vectorOnly(d[0]) || !lw.launchDerived(d[0], 0) {
			continue
		}
		e := &l.Insts[pc]
		moved := e.Pipes[PipeALU] + e.Pipes[PipeFMA]
		if moved == 0 {
			continue
		}
		to, name := PipeUniform, "UIADD3/USHF/UIMAD/ULOP3"
		if in.Op == isa.OpMov {
			to, name = PipeOther, "UMOV"
		}
		e.Pipes[PipeALU], e.Pipes[PipeFMA] = 0, 0
		e.Pipes[to] += moved
		sm := e.SlotPipes[PipeALU] + e.SlotPipes[PipeFMA]
		e.SlotPipes[PipeALU], e.SlotPipes[PipeFMA] = 0, 0
		e.SlotPipes[to] += sm
		lw.flex[pc] = [2]float64{}
		e.Why += " (uniform datapath: " + name + ")"
	}
}

// windowUniform reports whether the shared window made at pc can stay in a uniform register:
// each user takes it where an instruction has room for a uniform operand (an add of two
// registers: LEA R, R, UR; a shared access: LDS [UR]); an IMAD with an immediate multiplier
// (nvb_derivative_x's row offset tid.y*288 + window) wants it in a vector register.
func (lw *lowerer) windowUniform(pc int) bool {
	for _, u := range lw.df.users(pc) {
		in := lw.df.in[u]
		switch {
		case isMemOp(in):
		case in.Op == isa.OpAdd && len(in.Args) > 2 && in.Args[1].Kind == ptx.OpReg && in.Args[2].Kind == ptx.OpReg:
		case in.Op == isa.OpMov:
		default:
			return false
		}
	}
	return true
}

// launchDerived reports whether register r is computed from launch constants (%ntid,
// %nctaid, %ctaid), immediates and itself only, not from parameters: ptxas loads a parameter
// into a vector register when a vector instruction also reads it (olcf_row_sums' n), and what
// it is combined with stays there.
func (lw *lowerer) launchDerived(r string, depth int) bool {
	if depth > 12 {
		return false
	}
	for _, d := range lw.df.defs[r] {
		in := lw.df.in[d]
		if in.Op == isa.OpLd {
			return false
		}
		for k := 1; k < len(in.Args); k++ {
			a := in.Args[k]
			if a.Kind == ptx.OpReg && a.Name != r && !lw.launchDerived(a.Name, depth+1) {
				return false
			}
		}
	}
	return true
}

// vectorOnly reports whether the uniform register r is compared with an immediate by an
// ordered setp (ISETP's first operand is a vector register), so that ptxas keeps it in one.
func (lw *lowerer) vectorOnly(r string) bool {
	for _, u := range lw.df.uses[r] {
		in := lw.df.in[u]
		if in.Op == isa.OpShl && len(in.Args) > 2 && in.Args[2].Kind == ptx.OpImm && lw.usedOnlyBy(u, isAdd32) {
			return true // the shifted operand of LEA/IMAD is a vector register (reduce_sequential's s*4)
		}
		if in.Op != isa.OpSetp || len(in.Args) < 3 {
			continue
		}
		if isImm(in.Args[1]) && !isZero(in.Args[1]) || isImm(in.Args[2]) && !isZero(in.Args[2]) {
			return true
		}
		if !has(in, "eq") && !has(in, "ne") && (isImm(in.Args[1]) || isImm(in.Args[2])) {
			return true
		}
		// against another uniform value (a parameter): ISETP takes one uniform operand, and
		// ptxas moves the counter (iso4_uniform_loop: IADD3 R6 + ISETP R6, UR5)
		for k := 1; k <= 2; k++ {
			if a := in.Args[k]; a.Kind == ptx.OpReg && a.Name != r && lw.df.uniform[a.Name] {
				return true
			}
		}
	}
	return false
}

// divergentLoops marks the instructions of loops whose back edge is taken on a value that is
// not warp-uniform (lanes leave at different trips).
func (lw *lowerer) divergentLoops() []bool {
	fn := lw.fn
	out := make([]bool, len(fn.Insts))
	for j, in := range lw.df.in {
		if in.Op != isa.OpBra || len(in.Args) == 0 || in.Guard == "" || lw.df.uniform[in.Guard] {
			continue
		}
		if t, ok := lw.df.label[in.Args[0].Name]; ok && t <= j {
			for k := t; k <= j; k++ {
				out[k] = true
			}
		}
	}
	return out
}

// pointerCopies models the register copy ptxas adds per trip to a loop whose 64-bit pointer is
// stepped by an immediate and addressed below itself (a negative offset, [p-8]): the next
// pointer is made in another register while the accesses still read the old one, and its low
// half is copied back at the loop head (iso3_loop_u64: IMAD.MOV.U32 R4, RZ, RZ, R8 per trip;
// not iso3_loop_i32, whose offsets are all non-negative and whose pointer steps in place).
func (lw *lowerer) pointerCopies() {
	l := lw.l
	for pc, in := range lw.df.in {
		if in.Op != isa.OpAdd || !is64(typ(in)) || len(in.Args) < 3 || in.Args[2].Kind != ptx.OpImm ||
			in.Args[0].Kind != ptx.OpReg || in.Args[1].Kind != ptx.OpReg || in.Args[0].Name != in.Args[1].Name {
			continue
		}
		h := lw.loopHeader(pc)
		if h < 0 {
			continue
		}
		p := in.Args[0].Name
		// the pointer itself, or a copy of it plus an immediate folded into the addresses
		// (lcp_scan_v1: rd4 = rd17 + 12, loads at [rd4-4] ... [rd4-12])
		bases := map[string]int64{p: 0}
		for _, u := range lw.df.uses[p] {
			if x := lw.df.in[u]; u >= h && u < pc && x.Op == isa.OpAdd && is64(typ(x)) && len(x.Args) > 2 &&
				x.Args[1].Kind == ptx.OpReg && x.Args[1].Name == p && x.Args[2].Kind == ptx.OpImm && x.Args[0].Kind == ptx.OpReg && len(lw.df.defs[x.Args[0].Name]) == 1 {
				bases[x.Args[0].Name] = x.Args[2].Imm
			}
		}
		below := false
		for b, off := range bases {
			for _, u := range lw.df.uses[b] {
				if u < h || u > pc {
					continue
				}
				for _, a := range lw.df.in[u].Args {
					if a.Kind == ptx.OpAddr && a.BaseReg && a.Name == b && a.Imm < 0 && off >= 0 {
						below = true
					}
				}
			}
		}
		if !below {
			continue
		}
		e := &l.Insts[pc]
		e.Issue++
		e.Pipes[PipeFMA]++
		e.Slots++
		e.SlotPipes[PipeFMA]++
		lw.flex[pc][1]++
		e.Why += "; + IMAD.MOV of the next pointer's low half back at the loop head (addressed below itself)"
	}
}

// rematParams models ptxas loading a pointer parameter again inside each predicated region
// that uses it, rather than keeping it in a register: when every use of the parameter (or of
// its cvta.to.global copy) lies in if-converted regions, each region issues its own predicated
// LDC.64 (lcp_reduction_*'s four guarded loads per grid-stride trip: four @!Pn LDC.64; the
// golden reduce kernels' single guarded first load) and the load at its first use goes.
func (lw *lowerer) rematParams() {
	l, df := lw.l, lw.df
	for pc, at := range lw.paramAt {
		regs := map[string]bool{}
		for _, d := range dests(lw.df.in[pc]) {
			regs[d] = true
		}
		var users []int
		ok := true
		for changed := true; changed; {
			changed = false
			for r := range regs {
				for _, u := range df.uses[r] {
					if in := lw.df.in[u]; in.Op == isa.OpCvta || in.Op == isa.OpMov && len(in.Args) > 1 && in.Args[1].Kind == ptx.OpReg {
						for _, d := range dests(in) {
							if !regs[d] {
								regs[d], changed = true, true
							}
						}
					}
				}
			}
		}
		for r := range regs {
			for _, u := range df.uses[r] {
				if in := lw.df.in[u]; in.Op == isa.OpCvta || in.Op == isa.OpMov {
					continue
				}
				users = append(users, u)
				ok = ok && lw.predBy[u] >= 0
			}
		}
		if !ok || len(users) == 0 {
			continue
		}
		from := at
		if lw.predBy[at] >= 0 {
			from = lw.predBy[at]
		}
		if l.Insts[from].Pipes[PipeADU] < 1 {
			continue
		}
		l.Insts[from].Issue--
		l.Insts[from].Pipes[PipeADU]--
		if l.Insts[at].SlotPipes[PipeADU] >= 1 {
			l.Insts[at].Slots--
			l.Insts[at].SlotPipes[PipeADU]--
		}
		done := map[int]bool{}
		for _, u := range users {
			b := lw.predBy[u]
			if done[b] {
				continue
			}
			done[b] = true
			l.Insts[b].Issue++
			l.Insts[b].Pipes[PipeADU]++
			l.Insts[u].Slots++
			l.Insts[u].SlotPipes[PipeADU]++
			l.Insts[u].Why += "; + the pointer parameter loaded again in this predicated region (@P LDC.64)"
		}
	}
}

// balance shares out, per basic block, the integer adds and moves that have both an ALU and
// an FMA-pipe form (flexOp) so that the two pipes carry as equal a load as they can: sm_90
// ptxas issues IMAD.MOV.U32, IMAD.IADD and IMAD.X beside MOV, IADD3 and IADD3.X in the same
// code to that end (the iso, iso2, iso3 and golden calibration listings: 17 IMAD.X against 14
// IADD3.X; collatz's loop moves all on IMAD.MOV where ISETP/SHF/SEL fill the ALU). Executions
// within a block are equal, so the block's static counts stand for its dynamic ones. Only the
// counted pipe mix (Pipes) is balanced: the timing stream (SlotPipes) keeps each instruction's
// default form (balanced there, collatz_steps ran 9.5% fast against the H200, -3.0% without).
func (lw *lowerer) balance() {
	fn, l := lw.fn, lw.l
	if lw.gen < 80 {
		return
	}
	start := 0
	for start < len(fn.Insts) {
		b := lw.df.block(start)
		end := start + 1
		for end < len(fn.Insts) && b >= 0 && lw.df.block(end) == b {
			end++
		}
		var a0, f0, x float64
		for pc := start; pc < end; pc++ {
			fx := lw.flex[pc]
			a0 += l.Insts[pc].Pipes[PipeALU] - fx[0]
			f0 += l.Insts[pc].Pipes[PipeFMA] - fx[1]
			x += fx[0] + fx[1]
		}
		if x > 0 {
			k := min(max((a0+x-f0)/2, 0), x) // flexible issues put on the fma pipe
			for pc := start; pc < end; pc++ {
				fx := lw.flex[pc]
				n := fx[0] + fx[1]
				if n == 0 {
					continue
				}
				in := &l.Insts[pc]
				toF := n * k / x
				in.Pipes[PipeALU] += (n - toF) - fx[0]
				in.Pipes[PipeFMA] += toF - fx[1]
				lw.flex[pc] = [2]float64{n - toF, toF}
			}
		}
		start = end
	}
}

// unrollCounted models ptxas unrolling a counted loop once more by 4 (iso2_dot_affine,
// iso2_sum_stride, iso2_loop_alu: nvcc's 4x-unrolled loop becomes 16x, with 8/4x and
// remainder paths): an innermost loop whose exit test reads a counter stepped by an
// immediate, with no barrier and no masked (and-with-immediate) value in its body. Loops
// that are not counted stay rolled (grid-stride loops: saxpy, iso2_gridstride_atom; shifts:
// reductions; masked addresses: iso_loop, iso_branch; barriers: matmul_tiled), and so do
// nvcc's remainder loops (counter from an and with 1..7). The counter update, the compare and
// the back edge, and pointer increments by an immediate, are issued once per 4 trips.
func (lw *lowerer) unrollCounted() {
	fn, l, df := lw.fn, lw.l, lw.df
	for j, in := range lw.df.in {
		if in.Op != isa.OpBra || in.Guard == "" || len(in.Args) == 0 {
			continue
		}
		t, ok := df.label[in.Args[0].Name]
		if !ok || t > j {
			continue
		}
		if nounroll(fn, t, j) {
			continue // #pragma unroll 1: ptxas keeps the loop rolled (iso4_uniform_loop)
		}
		body := lw.df.in[t:j]
		ok = true
		for k, b := range body {
			switch {
			case b.Op == isa.OpBra && len(b.Args) > 0:
				if tt, found := df.label[b.Args[0].Name]; found && tt <= t+k {
					ok = false // not innermost
				} else if found && b.Guard != "" && tt <= j {
					ok = false // a conditional region in the body (scan_v1's guarded loads; iso3_loop_guard_ld)
				}
			case b.Op == isa.OpBar || b.Op == isa.OpBarrier || b.Op == isa.OpCall:
				ok = false
			case b.Op == isa.OpAnd && len(b.Args) > 2 && b.Args[2].Kind == ptx.OpImm:
				ok = false
			}
		}
		if !ok {
			continue
		}
		// the exit test: setp on a counter stepped by an immediate inside the loop
		sp := df.def(in.Guard)
		if sp < t || sp >= j || lw.df.in[sp].Op != isa.OpSetp || is64(typ(lw.df.in[sp])) {
			continue // a 64-bit counter stays as nvcc unrolled it (row_sums; iso3_loop_u64)
		}
		counted, remainder := false, false
		var step []int
		for _, a := range lw.df.in[sp].Args[1:] {
			if a.Kind != ptx.OpReg {
				continue
			}
			for _, d := range df.defs[a.Name] {
				di := lw.df.in[d]
				if d >= t && d < j && (di.Op == isa.OpAdd || di.Op == isa.OpSub) && len(di.Args) > 2 && di.Args[2].Kind == ptx.OpImm {
					counted = true
					step = append(step, d)
				}
				if d >= t && d < j && (di.Op == isa.OpAdd || di.Op == isa.OpSub) && len(di.Args) > 2 && di.Args[2].Kind == ptx.OpReg {
					// a counter reached through an add of another stepped register
					for _, d2 := range df.defs[di.Args[2].Name] {
						if x := lw.df.in[d2]; d2 >= t && d2 < j && (x.Op == isa.OpAdd || x.Op == isa.OpSub) && len(x.Args) > 2 && x.Args[2].Kind == ptx.OpImm {
							counted = true
							step = append(step, d, d2)
						}
					}
				}
				if d < t && di.Op == isa.OpAnd && len(di.Args) > 2 && di.Args[2].Kind == ptx.OpImm && di.Args[2].Imm > 0 && di.Args[2].Imm < 8 {
					remainder = true
				}
			}
		}
		if !counted || remainder {
			continue
		}
		quarter := func(k int) {
			l.Insts[k].Issue *= 0.25
			l.Insts[k].Slots *= 0.25
			for p := range l.Insts[k].Pipes {
				l.Insts[k].Pipes[p] *= 0.25
				l.Insts[k].SlotPipes[p] *= 0.25
			}
			l.Insts[k].Why += " (loop unrolled 4x by ptxas: once per 4 trips)"
		}
		l.unrolled = append(l.unrolled, [2]int{t, j})
		quarter(j)
		quarter(sp)
		for _, k := range step {
			quarter(k)
		}
		for k := t; k < j; k++ {
			b := lw.df.in[k]
			if (b.Op == isa.OpAdd || b.Op == isa.OpSub) && is64(typ(b)) && len(b.Args) > 2 && b.Args[2].Kind == ptx.OpImm &&
				b.Args[0].Kind == ptx.OpReg && b.Args[1].Kind == ptx.OpReg && b.Args[0].Name == b.Args[1].Name {
				quarter(k)
			}
		}
	}
}

// nounroll reports whether the loop of instructions [head, back] carries nvcc's
// `.pragma "nounroll";` (CUDA's #pragma unroll 1), which ptxas honours.
func nounroll(fn *ptx.Func, head, back int) bool {
	for k, pr := range fn.Pragmas {
		if pr == "nounroll" && k < len(fn.PragmaIndex) && fn.PragmaIndex[k] >= head && fn.PragmaIndex[k] <= back {
			return true
		}
	}
	return false
}

// maxPredicated is the largest region (SASS instructions) ptxas was seen to predicate
// instead of branching around (branchy's 5-instruction arm, iso_pred).
const maxPredicated = 10

// ifConvert finds forward conditional branches around a small single-entry region (or an
// if/else diamond of two, also in nvcc's form "@p bra A; bra.uni B; A: ...; bra.uni C; B:
// ...; C:") that ptxas turns into predicated code: every warp reaching the branch issues
// the whole region, so the region's cost moves onto the branch.
//
// Regions that load global memory (iso2_guarded_load, iso3_guard_*, iso3_loop_guard_ld,
// iso3_open_guard_ld*, golden reduce*): predicated inside a loop or inside an open
// convergence region; at the top level only when the region is the load and its address
// arithmetic alone and the loaded value goes first to a store or a shuffle (reduce's
// guarded first load into shared memory, iso3_guard_smem; not iso3_guard_ld, warp_vote);
// never when the region also stores to global memory (iso2_reduce_gmem, iso3_guard_copy).
func (lw *lowerer) ifConvert() {
	fn, l := lw.fn, lw.l
	labelAt := map[int]bool{}
	for _, lb := range fn.Labels {
		labelAt[lb.Index] = true
	}
	// scan reports whether [a, b) has no labels inside, no control flow and no barriers,
	// and whether it loads global memory, stores it, or does anything but address
	// arithmetic and the load
	type facts struct{ ok, gload, gstore, other bool }
	scan := func(a, b int) facts {
		var f facts
		f.ok = true
		for i := a; i < b; i++ {
			in := lw.df.in[i]
			if i > a && labelAt[i] {
				f.ok = false
			}
			global := !has(in, "shared") && !has(in, "param") && !has(in, "const") && !has(in, "local")
			switch in.Op {
			case isa.OpBra, isa.OpBrx, isa.OpRet, isa.OpExit, isa.OpBar, isa.OpBarrier, isa.OpCall, isa.OpAtom, isa.OpRed, isa.OpTrap, isa.OpShfl, isa.OpVote, isa.OpMembar, isa.OpFence:
				f.ok = false
			case isa.OpLd, isa.OpLdu:
				if global {
					f.gload = true
				} else {
					f.other = true
				}
			case isa.OpSt:
				if global {
					f.gstore = true
				}
				f.other = true
			case isa.OpCvta, isa.OpMul, isa.OpAdd, isa.OpMov, isa.OpCvt, isa.OpShl:
			default:
				f.other = true
			}
		}
		return f
	}
	cost := func(a, b int) float64 {
		c := 0.0
		for i := a; i < b; i++ {
			c += l.Insts[i].Issue
		}
		return c
	}
	for pc, in := range lw.df.in {
		if in.Op != isa.OpBra || in.Guard == "" || has(in, "uni") || len(in.Args) == 0 {
			continue
		}
		tgt, ok := lw.df.label[in.Args[0].Name]
		if !ok || tgt <= pc+1 || lw.toExit(tgt) {
			continue
		}
		var arms [][2]int // the predicated ranges
		var jumps []int   // unconditional jumps of a diamond (laid out away)
		hi := tgt
		if nx := lw.df.in[pc+1]; tgt == pc+2 && nx.Op == isa.OpBra && nx.Guard == "" && len(nx.Args) > 0 {
			// nvcc's diamond: @p bra A; bra.uni B; A: then; bra.uni C; B: else; C:
			b, ok1 := lw.df.label[nx.Args[0].Name]
			if !ok1 || b <= tgt {
				continue
			}
			last := lw.df.in[b-1]
			if last.Op != isa.OpBra || last.Guard != "" || len(last.Args) == 0 {
				continue
			}
			c, ok2 := lw.df.label[last.Args[0].Name]
			if !ok2 || c < b {
				continue
			}
			arms, jumps, hi = [][2]int{{tgt, b - 1}, {b, c}}, []int{pc + 1, b - 1}, c
		} else if last := lw.df.in[tgt-1]; last.Op == isa.OpBra && last.Guard == "" && len(last.Args) > 0 {
			// if/else: the then-arm ends with a jump over the else-arm
			e, ok := lw.df.label[last.Args[0].Name]
			if !ok || e <= tgt {
				continue
			}
			arms, jumps, hi = [][2]int{{pc + 1, tgt - 1}, {tgt, e}}, []int{tgt - 1}, e
		} else {
			arms = [][2]int{{pc + 1, tgt}}
		}
		var f facts
		f.ok = true
		c := 0.0
		for _, a := range arms {
			g := scan(a[0], a[1])
			f.ok, f.gload, f.gstore, f.other = f.ok && g.ok, f.gload || g.gload, f.gstore || g.gstore, f.other || g.other
			c += cost(a[0], a[1])
		}
		keep := !f.ok || c > maxPredicated
		if !keep && f.gload {
			nested := lw.loopHeader(pc) >= 0 || lw.inOpen[pc]
			// a region that computes more than its loads is predicated only single-armed
			// (lc_dot_prod_f32); nvcc's diamond with an else-arm keeps its branch
			// (iso4_guard_fma_shfl)
			keep = f.gstore || !nested && (f.other && len(arms) > 1 || !lw.feedsStoreOrShuffle(arms, hi))
		}
		if keep {
			for _, j := range jumps {
				lw.emit(j, "if/else arm laid out without a jump (the convergence barrier joins them)")
			}
			continue
		}
		var pipes [NumPipes]float64
		for _, j := range jumps {
			lw.emit(j, "if/else jump: removed by predication")
		}
		fl := lw.flex[pc]
		for _, a := range arms {
			for i := a[0]; i < a[1]; i++ {
				for k, v := range l.Insts[i].Pipes {
					pipes[k] += v
				}
				fl[0] += lw.flex[i][0]
				fl[1] += lw.flex[i][1]
				lw.flex[i] = [2]float64{}
				l.Insts[i].Issue, l.Insts[i].Pipes = 0, [NumPipes]float64{}
				l.Insts[i].Why = fmt.Sprintf("predicated: issued with the if-converted branch at PTX instruction %d", pc)
				lw.predBy[i] = pc
			}
		}
		l.Insts[pc].Issue, l.Insts[pc].Pipes = c, pipes
		lw.flex[pc] = fl
		l.Insts[pc].Slots, l.Insts[pc].SlotPipes = 0, [NumPipes]float64{} // no branch is issued
		l.Insts[pc].Why = fmt.Sprintf("if-converted: the %d instructions up to PTX instruction %d are predicated, no branch", int(c), hi)
	}
}

// feedsStoreOrShuffle reports whether the first instruction after the region (from hi on)
// that reads a value made in one of the arms (loaded, or computed from the loads:
// lc_dot_prod_f32's guarded a[i]*b[i] going to a shuffle) is a store of it or a shuffle.
func (lw *lowerer) feedsStoreOrShuffle(arms [][2]int, hi int) bool {
	loaded := map[string]bool{}
	for _, a := range arms {
		for i := a[0]; i < a[1]; i++ {
			for _, d := range dests(lw.df.in[i]) {
				loaded[d] = true
			}
		}
	}
	for i := hi; i < len(lw.fn.Insts); i++ {
		in := lw.df.in[i]
		for _, r := range srcs(in) {
			if !loaded[r] {
				continue
			}
			if in.Op == isa.OpMov && len(in.Args) > 1 && in.Args[1].Kind == ptx.OpReg {
				for _, d := range dests(in) { // a register move (mov.b32 of a float) is transparent
					loaded[d] = true
				}
				break
			}
			return in.Op == isa.OpSt || in.Op == isa.OpShfl
		}
		if in.Op == isa.OpBra || in.Op == isa.OpRet || in.Op == isa.OpExit {
			return false
		}
	}
	return false
}

// setpOperands reports whether both operands of the predicate and/or at pc are compares
// (setp) used by nothing else.
func (lw *lowerer) setpOperands(pc int) bool {
	in := lw.df.in[pc]
	if len(in.Args) != 3 {
		return false
	}
	for k := 1; k <= 2; k++ {
		d := lw.df.srcDef(in, k)
		if d < 0 || lw.df.in[d].Op != isa.OpSetp || len(lw.df.users(d)) != 1 {
			return false
		}
	}
	return true
}

// maskTest reports whether pc is setp.eq/ne of an and-with-immediate against 0 whose only
// user is this compare: ptxas writes the predicate with the LOP3 itself.
func (lw *lowerer) maskTest(pc int) bool {
	in := lw.df.in[pc]
	if in.Op != isa.OpSetp || len(in.Args) != 3 || (!has(in, "eq") && !has(in, "ne")) || is64(typ(in)) || strings.HasPrefix(typ(in), "f") {
		return false
	}
	if a := in.Args[2]; a.Kind != ptx.OpImm || a.Imm != 0 {
		return false
	}
	d := lw.df.srcDef(in, 1)
	if d < 0 {
		return false
	}
	u := lw.df.in[d]
	return u.Op == isa.OpAnd && !is64(typ(u)) && len(u.Args) > 2 && u.Args[2].Kind == ptx.OpImm && len(lw.df.users(d)) == 1
}

// usedOnlyBy reports whether every user of pc's result satisfies ok (false when unused).
func (lw *lowerer) usedOnlyBy(pc int, ok func(u *inst) bool) bool {
	us := lw.df.users(pc)
	if len(us) == 0 {
		return false
	}
	for _, u := range us {
		if !ok(lw.df.in[u]) {
			return false
		}
	}
	return true
}

func isAdd64(u *inst) bool { return (u.Op == isa.OpAdd || u.Op == isa.OpSub) && is64(typ(u)) }
func isAdd32(u *inst) bool {
	return u.Op == isa.OpAdd && !is64(typ(u)) && !strings.HasPrefix(typ(u), "f")
}
func isMemOp(u *inst) bool {
	return u.Op == isa.OpLd || u.Op == isa.OpSt || u.Op == isa.OpAtom || u.Op == isa.OpRed || u.Op == isa.OpCp || u.Op == isa.OpLdu
}

// addrOnly reports whether register values of pc are used only as load/store addresses.
func (lw *lowerer) addrOnly(pc int) bool {
	dst := dests(lw.df.in[pc])
	if len(dst) != 1 {
		return false
	}
	return lw.usedOnlyBy(pc, func(u *inst) bool {
		if !isMemOp(u) {
			return false
		}
		// the value must be the address, not the data stored
		for _, a := range u.Args {
			if a.Kind == ptx.OpAddr && a.BaseReg && a.Name == dst[0] {
				return true
			}
		}
		return false
	})
}

// first reports whether key is seen for the first time (ptxas materialises a special
// register or parameter once and reuses it).
func (lw *lowerer) first(key string) bool {
	if lw.seen[key] {
		return false
	}
	lw.seen[key] = true
	return true
}

func (lw *lowerer) inst(pc int, in *inst) {
	t := typ(in)
	f := strings.HasPrefix(t, "f")
	wide := is64(t)
	dead := len(dests(in)) > 0 && len(lw.df.users(pc)) == 0 && in.Op != isa.OpAtom && in.Op != isa.OpCall && in.Op != isa.OpMbarrier
	switch in.Op {
	case isa.OpRet, isa.OpExit:
		lw.emit(pc, "EXIT", "EXIT")
		return
	case isa.OpTrap:
		lw.emit(pc, "BPT.TRAP", "BPT")
		return
	case isa.OpBra:
		lw.branch(pc, in)
		return
	case isa.OpBar, isa.OpBarrier:
		if len(in.Mods.Words) > 0 && in.Mods.Words[0] == "warp" {
			lw.emit(pc, "bar.warp.sync: NOP or WARPSYNC, mostly removed")
			return
		}
		lw.emit(pc, "BAR.SYNC", "BAR")
		return
	case isa.OpMembar, isa.OpFence:
		lw.emit(pc, "MEMBAR", "MEMBAR")
		return
	}
	if dead {
		lw.emit(pc, "result unused: removed")
		return
	}
	switch in.Op {
	case isa.OpLd:
		if has(in, "param") {
			key := "param:" + in.Args[1].Name
			if !lw.first(key) {
				lw.emit(pc, "parameter already in a register or constant operand")
				return
			}
			op, why := "ULDC", "parameter: ULDC from the constant bank"
			if wide {
				op, why = "LDC", "parameter: LDC.64 from the constant bank"
			}
			// ptxas places the load just before its first use: past an early predicated
			// EXIT, only the warps that stay load it (iso3_bounds2d, iso3_guard_ld)
			if u := lw.firstUse(pc); u > pc && lw.exitBetween(pc, u) {
				if h := lw.loopHeader(u); h > 0 {
					u = h - 1
				}
				lw.emit(pc, why+" (issued at its first use, PTX instruction "+fmt.Sprint(u)+")")
				lw.sunk = append(lw.sunk, [2]int{u, int(sassPipe(op))})
				if wide {
					lw.paramAt[pc] = u
				}
				return
			}
			lw.emit(pc, why, op)
			if wide {
				lw.paramAt[pc] = pc
			}
			return
		}
		lw.mem(pc, in)
	case isa.OpLdu, isa.OpSt, isa.OpAtom, isa.OpRed, isa.OpCp, isa.OpPrefetch:
		lw.mem(pc, in)
	case isa.OpMov:
		lw.mov(pc, in)
	case isa.OpCvta:
		if has(in, "to") {
			lw.emit(pc, "cvta.to: generic and global addresses coincide: removed")
		} else {
			lw.emit(pc, "cvta: window base added", "IADD3")
		}
	case isa.OpCvt:
		lw.cvt(pc, in)
	case isa.OpMul:
		switch {
		case has(in, "wide") && lw.usedOnlyBy(pc, func(u *inst) bool { return isAdd64(u) || isMemOp(u) }):
			lw.emit(pc, "folded into the IMAD.WIDE of its address add")
		case has(in, "wide") && !is64(t) && len(in.Args) > 2 && in.Args[2].Kind == ptx.OpImm && pow2(in.Args[2].Imm) == int(in.Args[2].Imm) && lw.usedOnlyBy(pc, isAdd32):
			lw.emit(pc, "16-bit widening multiply by a power of two: a shift folded into LEA")
		case has(in, "wide"):
			lw.emit(pc, "IMAD.WIDE", "IMAD")
		case f && wide:
			lw.emit(pc, "DMUL", "DMUL")
		case f:
			lw.emit(pc, "FMUL", "FMUL")
		case wide && !has(in, "hi"):
			lw.emit(pc, "64-bit multiply: IMAD.WIDE.U32 + 2 IMAD", "IMAD", "IMAD", "IMAD")
		case wide:
			lw.emit(pc, "64-bit mul.hi", "IMAD", "IMAD", "IMAD", "IMAD")
		default:
			lw.emit(pc, "IMAD", "IMAD")
		}
	case isa.OpMad, isa.OpFma:
		switch {
		case f && wide:
			lw.emit(pc, "DFMA", "DFMA")
		case f:
			lw.emit(pc, "FFMA", "FFMA")
		case wide || has(in, "wide"):
			lw.emit(pc, "IMAD.WIDE", "IMAD", "IMAD")
		default:
			lw.emit(pc, "IMAD", "IMAD")
		}
	case isa.OpAdd, isa.OpSub:
		lw.add(pc, in, f, wide)
	case isa.OpShl:
		switch {
		case !wide && lw.usedOnlyBy(pc, isAdd32):
			lw.emit(pc, "folded into LEA with its add")
		case wide && lw.usedOnlyBy(pc, isAdd64):
			lw.emit(pc, "folded into LEA/LEA.HI.X with its add")
		case wide:
			lw.emit(pc, "64-bit shift", "SHF", "SHF")
		case lw.gen >= 90 && len(in.Args) > 2 && in.Args[2].Kind == ptx.OpImm:
			lw.emit(pc, "IMAD.SHL (fma pipe)", "IMAD.SHL")
		default:
			lw.emit(pc, "SHF", "SHF")
		}
	case isa.OpShr:
		if !wide && len(in.Args) > 2 && in.Args[2].Kind == ptx.OpImm && lw.usedOnlyBy(pc, isAdd32) {
			// (x >> k) + y is one LEA.HI (iso3_bounds2d's tid/16 + ctaid*8: LEA.HI R7, R0, UR4,
			// RZ, 0x1c; signed x/4's (x>>31>>30) + x: LEA.HI; with .SX32 for the arithmetic shift)
			lw.emit(pc, "folded into LEA.HI with its add")
			return
		}
		if wide {
			lw.emit(pc, "64-bit shift", "SHF", "SHF")
		} else {
			lw.emit(pc, "SHF.R", "SHF")
		}
	case isa.OpAnd, isa.OpOr, isa.OpXor, isa.OpNot, isa.OpCnot, isa.OpLop3:
		if t == "pred" && (in.Op == isa.OpAnd || in.Op == isa.OpOr) && lw.setpOperands(pc) {
			// ISETP takes a predicate to combine with (ISETP.GE.OR P0, ..., P1) and BRA a
			// second predicate: the and/or of two compares costs nothing (tt_copyCol's bounds
			// test, collatz's loop test; iso3_bounds2d, iso3_while2)
			lw.emit(pc, "and/or of two compares: folded into the second ISETP's predicate combine")
		} else if t == "pred" {
			lw.emit(pc, "PLOP3", "PLOP3")
		} else if wide && in.Op == isa.OpAnd && len(in.Args) > 2 && in.Args[2].Kind == ptx.OpImm && in.Args[2].Imm >= 0 && in.Args[2].Imm < 1<<32 {
			lw.emit(pc, "64-bit and with a 32-bit mask: LOP3 on the low half, the high half is RZ", "LOP3")
		} else if wide {
			lw.emit(pc, "LOP3 on both halves", "LOP3", "LOP3")
		} else {
			lw.emit(pc, "LOP3", "LOP3")
		}
	case isa.OpNeg:
		if f && lw.usedOnlyBy(pc, isFloatArith) {
			lw.emit(pc, "negation folded into the user's operand")
		} else if f {
			lw.emit(pc, "FADD -x, -RZ (the value is stored or moved)", "FADD")
		} else {
			lw.emit(pc, "IADD3 -x", "IADD3")
		}
	case isa.OpAbs:
		switch {
		case f && lw.usedOnlyBy(pc, isFloatArith):
			lw.emit(pc, "|x| folded into the user's operand")
		case f:
			lw.emit(pc, "FADD |x|, -RZ", "FADD")
		default:
			lw.emit(pc, "IABS", "IABS")
		}
	case isa.OpMin, isa.OpMax:
		switch {
		case f && wide:
			lw.emit(pc, "DSETP+2 FSEL", "DSETP", "FSEL", "FSEL")
		case f:
			lw.emit(pc, "FMNMX", "FMNMX")
		case wide:
			lw.emit(pc, "ISETP.EX pair + 2 SEL", "ISETP", "ISETP", "SEL", "SEL")
		default:
			lw.emit(pc, "IMNMX", "IMNMX")
		}
	case isa.OpSetp, isa.OpSet:
		switch {
		case lw.maskTest(pc):
			lw.emit(pc, "test of an and with a mask against 0: the LOP3 writes the predicate (LOP3.LUT P0)")
		case f && wide:
			lw.emit(pc, "DSETP", "DSETP")
		case f:
			lw.emit(pc, "FSETP", "FSETP")
		case wide:
			lw.emit(pc, "ISETP + ISETP.EX", "ISETP", "ISETP")
		default:
			lw.emit(pc, "ISETP", "ISETP")
		}
	case isa.OpSelp, isa.OpSlct:
		if len(in.Args) > 2 && isImm(in.Args[1]) && isImm(in.Args[2]) && !isZero(in.Args[1]) && !isZero(in.Args[2]) && !wide {
			// SEL/FSEL take one immediate and RZ: a second non-zero one is materialised first (HFMA2.MMA for a
			// float, MOV for an integer; iso3_selp_imm)
			mov := "MOV"
			if f {
				mov = "HFMA2"
			}
			lw.emit(pc, "select of two immediates: "+mov+" + SEL/FSEL", mov, "SEL")
			return
		}
		if wide {
			lw.emit(pc, "SEL on both halves", "SEL", "SEL")
		} else {
			lw.emit(pc, "SEL/FSEL", "SEL")
		}
	case isa.OpDiv, isa.OpRem:
		lw.div(pc, in, f, wide)
	case isa.OpRcp:
		switch {
		case has(in, "approx") && !wide && has(in, "ftz"):
			lw.emit(pc, "MUFU.RCP", "MUFU")
		case has(in, "approx") && !wide:
			lw.emit(pc, "MUFU.RCP with denormal scaling", "FSETP", "FMUL", "MUFU", "FMUL")
		case wide:
			lw.emit(pc, "f64 reciprocal: MUFU.RCP64H + Newton steps + slow-path test", append([]string{"MUFU", "BSSY", "FSETP", "BRA", "BSYNC"}, repeat("DFMA", 5)...)...)
		default:
			lw.emit(pc, "IEEE reciprocal: MUFU.RCP + Newton steps + slow-path test", "MUFU", "FFMA", "FFMA", "FSETP", "BSSY", "BRA", "BSYNC", "FFMA")
		}
	case isa.OpSqrt:
		switch {
		case has(in, "approx"):
			lw.emit(pc, "MUFU.SQRT", "MUFU")
		case wide:
			lw.emit(pc, "f64 sqrt: MUFU.RSQ64H + Newton steps + slow-path test (iso_f64)", append([]string{"IMAD", "BSSY", "IMAD", "MUFU", "VIADD", "ISETP", "DMUL", "DMUL", "DMUL", "VIADD", "IMAD", "BRA", "BSYNC"}, repeat("DFMA", 5)...)...)
		default:
			lw.emit(pc, "IEEE sqrt: MUFU.RSQ + Newton steps + slow-path test", "MUFU", "IADD3", "ISETP", "BSSY", "BRA", "BSYNC", "FMUL", "FFMA", "FFMA")
		}
	case isa.OpRsqrt:
		switch {
		case wide:
			lw.emit(pc, "MUFU.RSQ64H + refinement", "MUFU", "DMUL", "DFMA", "DFMA")
		case has(in, "ftz"):
			lw.emit(pc, "MUFU.RSQ", "MUFU")
		default:
			lw.emit(pc, "MUFU.RSQ with denormal scaling (iso_fastm)", "FSETP", "FMUL", "MUFU", "FMUL")
		}
	case isa.OpEx2, isa.OpLg2:
		if has(in, "ftz") {
			lw.emit(pc, "MUFU."+strings.ToUpper(in.Op.String()), "MUFU")
		} else {
			lw.emit(pc, "MUFU with denormal scaling (iso_fastm)", "FSETP", "FMUL", "MUFU", "FMUL")
		}
	case isa.OpSin, isa.OpCos:
		lw.emit(pc, "FMUL.RZ + MUFU."+strings.ToUpper(in.Op.String()), "FMUL", "MUFU")
	case isa.OpTanh:
		lw.emit(pc, "MUFU.TANH", "MUFU")
	case isa.OpTestp, isa.OpCopysign:
		lw.emit(pc, "LOP3/ISETP on the bits", "LOP3")
	case isa.OpPopc:
		lw.emit(pc, "POPC", "POPC")
	case isa.OpClz:
		lw.emit(pc, "FLO + IADD3", "FLO", "IADD3")
	case isa.OpBrev:
		lw.emit(pc, "BREV", "BREV")
	case isa.OpBfind:
		lw.emit(pc, "FLO", "FLO")
	case isa.OpBfe:
		lw.emit(pc, "SHF + SGXT/LOP3", "SHF", "SGXT")
	case isa.OpBfi:
		lw.emit(pc, "BMSK + LOP3 + SHF", "BMSK", "SHF", "LOP3")
	case isa.OpPrmt:
		lw.emit(pc, "PRMT", "PRMT")
	case isa.OpShf:
		lw.emit(pc, "SHF", "SHF")
	case isa.OpMul24, isa.OpMad24:
		lw.emit(pc, "IMAD with masked operands", "SGXT", "IMAD")
	case isa.OpSad:
		lw.emit(pc, "IABS + IADD3", "IADD3", "IABS", "IADD3")
	case isa.OpShfl:
		lw.emit(pc, "SHFL", "SHFL")
	case isa.OpVote:
		if has(in, "ballot") {
			lw.emit(pc, "VOTE.ANY R", "VOTE")
		} else {
			lw.emit(pc, "VOTE", "VOTE")
		}
	case isa.OpMatch:
		lw.emit(pc, "MATCH", "MATCH")
	case isa.OpRedux:
		lw.emit(pc, "REDUX", "REDUX")
	case isa.OpActivemask:
		lw.emit(pc, "VOTE.ANY", "VOTE")
	case isa.OpCall:
		lw.emit(pc, "CALL.REL + return", "CALL", "RET")
	case isa.OpNanosleep:
		lw.emit(pc, "NANOSLEEP", "NANOSLEEP")
	default:
		lw.emit(pc, "not modelled: counted as one SASS instruction", "IADD3")
	}
}

func (lw *lowerer) branch(pc int, in *inst) {
	lw.inOpen[pc] = pc < lw.openUntil
	tgt := -1
	if len(in.Args) > 0 && in.Args[0].Kind == ptx.OpLabel {
		if i, ok := lw.df.label[in.Args[0].Name]; ok {
			tgt = i
		}
	}
	if tgt == pc+1 {
		lw.emit(pc, "branch to the next instruction: removed")
		return
	}
	if in.Guard == "" || tgt <= pc || has(in, "uni") || lw.toExit(tgt) {
		if lw.toExit(tgt) && in.Guard != "" {
			lw.emit(pc, "predicated EXIT", "EXIT")
		} else {
			lw.emit(pc, "BRA", "BRA.U")
		}
		return
	}
	if end := lw.loopEnd(pc); end >= 0 && tgt > end {
		lw.emit(pc, "loop exit: BRA (the convergence barrier is outside the loop)", "BRA.U")
		return
	}
	if lw.df.uniform[in.Guard] {
		// the same outcome in every lane: no convergence barrier (reduce_sequential's loop
		// guard on blockDim; iso3_uniform_branch, iso3_loop_if_gmem, iso3_uniform_and_tid)
		lw.emit(pc, "warp-uniform branch: BRA, no convergence barrier", "BRA.U")
		return
	}
	if pc < lw.openUntil && !lw.loopInside(lw.openFrom, pc) {
		lw.emit(pc, "branch inside an open convergence region: BRA to its BSYNC", "BRA.U")
		return
	}
	// a forward conditional branch that can diverge: ptxas opens a convergence barrier
	// (BSSY) before it and closes it (BSYNC) where the paths meet (iso_branch, branchy)
	if pc >= lw.openUntil {
		// a region nested in a loop of an open region has its own barrier, issued per trip
		// (iso3_loop_if_gmem); the outer region stays open
		lw.openFrom, lw.openUntil = pc, tgt
	} else {
		lw.emit(pc, "BSSY + BRA, BSYNC at the reconvergence point (a region in a loop: per trip)", "BSSY", "BRA", "BSYNC")
		return
	}
	if df := lw.df; df.cfg != nil {
		if b := df.block(pc); b >= 0 && df.cfg.IPDom[b] >= 0 {
			lw.openUntil = max(tgt, df.cfg.Blocks[df.cfg.IPDom[b]].Start)
		}
	}
	lw.emit(pc, "BSSY + BRA, BSYNC at the reconvergence point", "BSSY", "BRA", "BSYNC")
}

// loopInside reports whether pc lies in a loop whose header comes after from (a loop nested
// inside the region that the branch at from opened).
func (lw *lowerer) loopInside(from, pc int) bool {
	for j := pc; j < len(lw.fn.Insts); j++ {
		in := lw.df.in[j]
		if in.Op != isa.OpBra || len(in.Args) == 0 {
			continue
		}
		if t, ok := lw.df.label[in.Args[0].Name]; ok && t <= pc && t > from {
			return true
		}
	}
	return false
}

// loopEnd returns the index of the last back-edge branch of the innermost loop containing
// pc (a branch at or after pc whose target is at or before pc), or -1.
func (lw *lowerer) loopEnd(pc int) int {
	best := -1
	for j := pc; j < len(lw.fn.Insts); j++ {
		in := lw.df.in[j]
		if in.Op != isa.OpBra || len(in.Args) == 0 {
			continue
		}
		if t, ok := lw.df.label[in.Args[0].Name]; ok && t <= pc {
			return j
		}
	}
	return best
}

// toExit reports whether the instruction at tgt is a ret/exit (ptxas branches there with
// a predicated EXIT and no convergence barrier).
func (lw *lowerer) toExit(tgt int) bool {
	if tgt < 0 || tgt >= len(lw.fn.Insts) {
		return true
	}
	op := lw.df.in[tgt].Op
	return op == isa.OpRet || op == isa.OpExit
}

func (lw *lowerer) mov(pc int, in *inst) {
	if len(in.Args) < 2 {
		lw.emit(pc, "mov")
		return
	}
	src := in.Args[1]
	switch {
	case src.Kind == ptx.OpSpecial && src.Name == "WARP_SZ":
		lw.emit(pc, "WARP_SZ is the immediate 32 (iso3_divrem: no S2R)")
	case src.Kind == ptx.OpSpecial:
		name := src.Name + "." + src.Comp
		if !lw.first(name) {
			lw.emit(pc, "special register already read")
			return
		}
		switch src.Name {
		case "%ntid", "%nctaid", "%nclusterid", "%cluster_nctaid":
			lw.emit(pc, "LDC/ULDC of the launch constant", "LDC")
		case "%ctaid":
			if lw.gen >= 90 {
				lw.emit(pc, "S2UR", "S2UR")
			} else {
				lw.emit(pc, "S2R", "S2R")
			}
		case "%clock", "%clock64", "%globaltimer", "%globaltimer_lo":
			lw.emit(pc, "CS2R/S2UR of the clock", "CS2R")
		default:
			lw.emit(pc, "S2R", "S2R")
		}
	case lw.df.isSharedSym(src):
		if lw.gen >= 90 {
			lw.window(pc)
		} else {
			lw.emit(pc, "shared address is an immediate")
		}
	case src.Kind == ptx.OpSym && src.Name == "WARP_SZ":
		lw.emit(pc, "WARP_SZ is the immediate 32 (iso3_divrem: no S2R)")
	case src.Kind == ptx.OpSym:
		lw.emit(pc, "address of a variable: MOV or constant operand", "MOV~")
	case src.Kind == ptx.OpImm || src.Kind == ptx.OpFloat:
		// an immediate is an operand of its user, unless it starts a loop-carried value
		// (a register with several definitions) or is stored (iso_sts_merge, iso_branch)
		d := dests(in)
		stored := lw.usedOnlyBy(pc, func(u *inst) bool { return true }) && len(d) == 1 && lw.storedValue(d[0])
		if len(d) == 1 && len(lw.df.defs[d[0]]) == 1 && stored && isZero(src) {
			lw.emit(pc, "zero stored: RZ (histogram256: STS [R2], RZ)")
		} else if len(d) == 1 && len(lw.df.defs[d[0]]) > 1 && isZero(src) {
			lw.zero(pc)
		} else if len(d) == 1 && (len(lw.df.defs[d[0]]) > 1 || stored) {
			lw.emit(pc, "immediate materialised: MOV/IMAD.MOV/HFMA2.MMA", "IMAD.MOV")
		} else {
			lw.emit(pc, "immediate folded into its user")
		}
	default:
		if imm, ok := lw.immValue(in.Args[1].Name, 0); ok && len(lw.df.defs[in.Args[0].Name]) > 1 {
			// a copy of a constant into a register that is also written elsewhere (a
			// loop-carried accumulator, a default a predicated load may overwrite) gets the
			// constant itself (lcp_reduction_*: the zeroed accumulators and load defaults)
			if isZero(imm) {
				lw.zero(pc)
			} else {
				lw.emit(pc, "constant copied into a register written elsewhere too: MOV/IMAD.MOV", "IMAD.MOV")
			}
			return
		}
		if lw.liveCopy(pc) {
			lw.emit(pc, "loop-carried copy whose old value is still read after the new one is made: a MOV", "IMAD.MOV")
			return
		}
		lw.emit(pc, "register move: coalesced away")
	}
}

// zero lowers a move of 0 into a register that is written elsewhere too: ptxas zeroes two
// such registers with one CS2R Rn, SRZ (lcp_reduction_wrp_atmc: four accumulators, two CS2R),
// so each costs half an instruction.
func (lw *lowerer) zero(pc int) {
	if d := dests(lw.df.in[pc]); len(d) == 1 && lw.uniformUse(d[0]) {
		// a warp-uniform counter starts in a uniform register (iso3_loop_i32: UMOV UR4, URZ)
		lw.emit(pc, "zero into a uniform register: UMOV URn, URZ", "UMOV")
		return
	}
	lw.emit(pc, "zero into a register written elsewhere too: CS2R Rn, SRZ zeroes two such registers of a block", "CS2R")
	lw.zeros = append(lw.zeros, pc)
}

// uniformUse reports whether register r is warp-uniform and every definition of it lies
// outside divergent control flow, so that ptxas can keep it in a uniform register.
func (lw *lowerer) uniformUse(r string) bool {
	if !lw.df.uniform[r] || lw.gen < 75 {
		return false
	}
	for _, d := range lw.df.defs[r] {
		if lw.divergent[d] {
			return false
		}
	}
	return true
}

// pairZeros makes the n zeroings of a basic block cost ceil(n/2) CS2R in all (a lone one
// costs a whole instruction).
func (lw *lowerer) pairZeros() {
	pairUp(lw, lw.zeros, PipeALU)
	pairUp(lw, lw.consts, PipeOther)
}

// pairUp makes the n instructions of pcs in one basic block cost ceil(n/2) in all, on pipe p.
func pairUp(lw *lowerer, pcs []int, p Pipe) {
	n := map[int]int{}
	for _, pc := range pcs {
		n[lw.df.block(pc)]++
	}
	for _, pc := range pcs {
		k := n[lw.df.block(pc)]
		c := float64((k+1)/2) / float64(k)
		in := &lw.l.Insts[pc]
		in.Issue, in.Slots = c, c
		in.Pipes, in.SlotPipes = [NumPipes]float64{}, [NumPipes]float64{}
		in.Pipes[p], in.SlotPipes[p] = c, c
	}
}

// symbolAddr reports whether the memory operand of in is a fixed address (a symbol, with
// or without an offset), not a register.
func (lw *lowerer) symbolAddr(in *inst) bool {
	for _, a := range in.Args {
		if a.Kind == ptx.OpAddr {
			return !a.BaseReg
		}
	}
	return false
}

// immValue returns the immediate that register r holds when its only definition is a mov of
// an immediate or a copy of such a register.
func (lw *lowerer) immValue(r string, depth int) (ptx.Operand, bool) {
	d := lw.df.def(r)
	if d < 0 || depth > 8 {
		return ptx.Operand{}, false
	}
	in := lw.df.in[d]
	if in.Op != isa.OpMov || len(in.Args) < 2 || in.Guard != "" {
		return ptx.Operand{}, false
	}
	if isImm(in.Args[1]) {
		return in.Args[1], true
	}
	if in.Args[1].Kind == ptx.OpReg {
		return lw.immValue(in.Args[1].Name, depth+1)
	}
	return ptx.Operand{}, false
}

// liveCopy reports whether the register move d = s at pc must stay a MOV: d is a loop-carried
// register (several definitions), s is computed once from d, and d is read again after s
// is made, so that the two live at once and cannot share a register (reduce_interleaved's
// stride: stride*2 computed, then the old stride used; iso3_loop_if_gmem).
func (lw *lowerer) liveCopy(pc int) bool {
	in := lw.df.in[pc]
	if len(in.Args) < 2 || in.Args[0].Kind != ptx.OpReg || in.Args[1].Kind != ptx.OpReg {
		return false
	}
	d, s := in.Args[0].Name, in.Args[1].Name
	ds := lw.df.def(s)
	if len(lw.df.defs[d]) < 2 || ds < 0 || ds >= pc {
		return false
	}
	readsD := false
	for _, r := range srcs(lw.df.in[ds]) {
		readsD = readsD || r == d
	}
	if !readsD {
		return false
	}
	for _, u := range lw.df.uses[d] {
		if u > ds && u < pc {
			return true
		}
	}
	return false
}

// window lowers a mov of a shared variable's address on sm_90: ptxas materialises the
// shared window (S2R SR_CgaCtaId, MOV, LEA) again in each basic block that needs it rather
// than keeping it live (histogram256: three times; reduce_warp_shfl: twice), once per block;
// inside a loop it is hoisted to the loop's entry (histogram256's grid-stride loop), so the
// cost goes on the instruction before the loop header.
func (lw *lowerer) window(pc int) {
	b := lw.df.block(pc)
	if b >= 0 && lw.first(fmt.Sprintf("smem:window:%d", b)) || b < 0 && lw.first("smem:window") {
		if h := lw.loopHeader(pc); h > 0 && lw.first(fmt.Sprintf("smem:window:loop:%d", h)) {
			lw.emit(pc, "shared window: hoisted out of the loop (issued at the loop entry)")
			lw.windows = append(lw.windows, [2]int{pc, h - 1})
			in := &lw.l.Insts[h-1]
			for _, op := range []string{"S2R", "MOV", "LEA"} {
				in.Issue++
				in.Pipes[sassPipe(op)]++
			}
			in.Slots, in.SlotPipes = in.Issue, in.Pipes
			in.Why += "; + the shared window hoisted out of the loop below (S2R SR_CgaCtaId, MOV, LEA)"
			return
		} else if h > 0 {
			lw.emit(pc, "shared window already hoisted out of this loop")
			return
		}
		lw.emit(pc, "sm_90 shared window: S2R SR_CgaCtaId, MOV, LEA (once per basic block)", "S2R", "MOV", "LEA")
		lw.windows = append(lw.windows, [2]int{pc, pc})
		return
	}
	lw.emit(pc, "shared window base already in a register (same basic block)")
}

// firstUse returns the lowest-numbered instruction reading the value pc defines, or -1.
func (lw *lowerer) firstUse(pc int) int {
	best := -1
	for _, u := range lw.df.users(pc) {
		if best < 0 || u < best {
			best = u
		}
	}
	return best
}

// exitBetween reports whether a conditional branch to a ret/exit lies in (a, b).
func (lw *lowerer) exitBetween(a, b int) bool {
	for i := a + 1; i < b; i++ {
		in := lw.df.in[i]
		if in.Op == isa.OpBra && in.Guard != "" && len(in.Args) > 0 {
			if t, ok := lw.df.label[in.Args[0].Name]; ok && t > i && lw.toExit(t) {
				return true
			}
		}
	}
	return false
}

// loopHeader returns the first instruction of the innermost loop containing pc (the target
// of a back edge at or after pc), or -1.
func (lw *lowerer) loopHeader(pc int) int {
	for j := pc; j < len(lw.fn.Insts); j++ {
		in := lw.df.in[j]
		if in.Op != isa.OpBra || len(in.Args) == 0 {
			continue
		}
		if t, ok := lw.df.label[in.Args[0].Name]; ok && t <= pc {
			return t
		}
	}
	return -1
}

// storedValue reports whether register r is the data operand of a store or atomic.
func (lw *lowerer) storedValue(r string) bool {
	for _, u := range lw.df.uses[r] {
		in := lw.df.in[u]
		if in.Op != isa.OpSt && in.Op != isa.OpAtom && in.Op != isa.OpRed {
			continue
		}
		for _, a := range in.Args {
			if a.Kind == ptx.OpReg && a.Name == r {
				return true
			}
		}
	}
	return false
}

// isFloatArith reports whether u is floating-point arithmetic that takes -x and |x| operands.
func isFloatArith(u *inst) bool {
	switch u.Op {
	case isa.OpAdd, isa.OpSub, isa.OpMul, isa.OpFma, isa.OpMad, isa.OpSetp, isa.OpMin, isa.OpMax, isa.OpDiv, isa.OpRcp, isa.OpSqrt, isa.OpRsqrt, isa.OpEx2, isa.OpLg2, isa.OpSin, isa.OpCos:
		return strings.HasPrefix(typ(u), "f")
	}
	return false
}

func (lw *lowerer) cvt(pc int, in *inst) {
	// destination and source types from gpu/isa's parsed Mods (cvt.f32.s32: F32, S32)
	md := in.Mods
	var dt, st string
	var dbits, sbits int
	if n := len(md.Types); n > 0 {
		dt, dbits = md.Types[0].String(), md.Types[0].Size()*8
		if n > 1 {
			st, sbits = md.Types[n-1].String(), md.Types[n-1].Size()*8
		}
	}
	df, sf := strings.HasPrefix(dt, "f") || strings.HasPrefix(dt, "bf"), strings.HasPrefix(st, "f") || strings.HasPrefix(st, "bf")
	bits := func(t string) int {
		v := sbits
		if t == dt {
			v = dbits
		}
		if v == 0 {
			return 32
		}
		return v
	}
	switch {
	case df && sf:
		if dt == st {
			lw.emit(pc, "FRND", "FRND")
		} else if (dt == "f16" || dt == "bf16") && st == "f32" {
			lw.emit(pc, "F2FP", "F2FP")
		} else if dt == "f32" && (st == "f16" || st == "bf16") {
			lw.emit(pc, "HADD2.F32 / shift", "HADD2")
		} else {
			lw.emit(pc, "F2F", "F2F")
		}
	case df && !sf:
		if lw.gen >= 86 && dt == "f32" && bits(st) <= 32 && !has(in, "rz") && !has(in, "rm") && !has(in, "rp") {
			lw.emit(pc, "I2FP", "I2FP")
		} else {
			lw.emit(pc, "I2F", "I2F")
		}
	case !df && sf:
		lw.emit(pc, "F2I", "F2I")
	default:
		db, sb := bits(dt), bits(st)
		switch {
		case db <= sb && db >= 32:
			lw.emit(pc, "narrowing: the low register is used")
		case db == 64 && sb == 32 && strings.HasPrefix(st, "s"):
			if lw.usedOnlyBy(pc, func(u *inst) bool { return u.Op == isa.OpMul && has(u, "wide") || u.Op == isa.OpAdd && is64(typ(u)) }) {
				// into mul.wide.s32, or into the add as IADD3 + LEA.HI.X.SX32 (histogram256)
				lw.emit(pc, "sign extension folded")

			} else {
				lw.emit(pc, "sign extension: SHF.R.S32.HI", "SHF")
			}
		case db == 64 && sb == 32:
			lw.emit(pc, "zero extension: the high register is RZ")
		default:
			lw.emit(pc, "sub-word conversion: LOP3/SGXT/PRMT", "LOP3")
		}
	}
}

func (lw *lowerer) add(pc int, in *inst, f, wide bool) {
	switch {
	case f && wide:
		lw.emit(pc, "DADD", "DADD")
		return
	case f:
		lw.emit(pc, "FADD", "FADD")
		return
	case !wide && len(in.Args) > 2 && in.Args[2].Kind == ptx.OpImm && lw.gen >= 90:
		lw.emit(pc, "VIADD (add of an immediate, fma pipe on sm_90)", "VIADD.I")
		return
	case !wide:
		lw.emit(pc, "IADD3 (or LEA with a folded shift; IMAD.IADD/IMAD on the fma pipe)", "IADD3~")
		return
	}
	// 64-bit integer add: IMAD.WIDE when one operand is a folded mul.wide, LEA+LEA.HI.X with
	// a folded shift, an immediate offset of the load when it only feeds addresses
	for k := 1; k <= 2; k++ {
		d := lw.df.srcDef(in, k)
		if d < 0 {
			continue
		}
		u := lw.df.in[d]
		if u.Op == isa.OpMul && has(u, "wide") {
			lw.emit(pc, "IMAD.WIDE (the mul.wide folded in)", "IMAD")
			return
		}
	}
	if len(in.Args) > 2 && in.Args[2].Kind == ptx.OpImm && lw.addrOnly(pc) {
		lw.emit(pc, "constant offset folded into the address")
		return
	}
	for k := 1; k <= 2; k++ {
		d := lw.df.srcDef(in, k)
		if d >= 0 && lw.df.in[d].Op == isa.OpShl {
			lw.emit(pc, "LEA + LEA.HI.X (the shift folded in)", "LEA", "LEA")
			return
		}
	}
	lw.emit(pc, "IADD3 + IADD3.X (or IMAD.X)", "IADD3", "IADD3.X~")
}

func (lw *lowerer) div(pc int, in *inst, f, wide bool) {
	t := typ(in)
	switch {
	case f && wide:
		lw.emit(pc, "f64 division: MUFU.RCP64H + Newton steps + slow-path test (iso_f64)", append([]string{"IMAD", "BSSY", "FSETP", "MUFU", "DMUL", "FFMA", "FSETP", "BRA", "BSYNC"}, repeat("DFMA", 7)...)...)
		return
	case f && (has(in, "approx") || has(in, "full")) && has(in, "ftz"):
		lw.emit(pc, "MUFU.RCP + FMUL", "MUFU", "FMUL")
		return
	case f && (has(in, "approx") || has(in, "full")):
		lw.emit(pc, "MUFU.RCP + FFMA with denormal scaling of both operands (iso_fastm)", "FMUL", "FSETP", "FSEL", "FMUL", "MUFU", "FFMA")
		return
	case f:
		lw.emit(pc, "IEEE f32 division: MUFU.RCP + FFMA steps + FCHK slow-path test", "MUFU", "FFMA", "FFMA", "FFMA", "FFMA", "FFMA", "FCHK", "BSSY", "BRA", "BSYNC")
		return
	}
	imm := len(in.Args) > 2 && in.Args[2].Kind == ptx.OpImm
	signed := strings.HasPrefix(t, "s")
	if !imm && lw.divPartner(pc) {
		// x/d and x%d share one division: the second is x - q*d or q = (x - r)/d folded
		// (reduce_ws's lane and warp index; iso3_divrem)
		lw.emit(pc, "quotient/remainder of a division already made: IMAD + IADD3", "IMAD", "IADD3")
		return
	}
	if !imm && lw.warpSize(in.Args[2]) {
		// by WARP_SZ: ptxas knows the divisor is 32 but keeps the reciprocal algorithm, with
		// the divisor's conversion and sign handling folded (iso3_divrem's u32: 14; s32: 18)
		if !lw.first("div:warpsize") {
			// the reciprocal of 32 is made once per function (iso4_sdiv_warp: the second
			// division is IABS, IMAD.HI, IMAD and the corrections)
			if signed {
				lw.emit(pc, "signed division by WARP_SZ, reciprocal already made: IABS + IMAD.HI + IMAD + corrections", "IABS", "LOP3", "ISETP", "IMAD", "IMAD", "ISETP", "IADD3", "IADD3", "ISETP", "IADD3", "IADD3")
			} else {
				lw.emit(pc, "unsigned division by WARP_SZ, reciprocal already made: IMAD.HI + IMAD + corrections", "IMAD", "IMAD", "ISETP", "VIADD", "IADD3", "ISETP", "IADD3")
			}
			return
		}
		if signed {
			lw.emit(pc, "signed division by WARP_SZ (32): I2F.RP of 32 + MUFU.RCP + F2I + IMAD.HI refinement", append([]string{"I2F", "MUFU", "VIADD", "F2I", "IABS", "HFMA2", "ISETP", "ISETP", "LOP3", "ISETP", "VIADD", "IADD3", "VIADD", "IADD3"}, repeat("IMAD", 4)...)...)
		} else {
			lw.emit(pc, "unsigned division by WARP_SZ (32): I2F.RP of 32 + MUFU.RCP + F2I + IMAD.HI refinement", append([]string{"I2F", "MUFU", "IADD3", "F2I", "HFMA2", "ISETP", "VIADD", "IADD3", "ISETP", "IADD3"}, repeat("IMAD", 4)...)...)
		}
		return
	}
	switch {
	case imm && pow2(in.Args[2].Imm) == int(in.Args[2].Imm) && !signed:
		lw.emit(pc, "unsigned division by a power of two: SHF/LOP3", "SHF")
	case imm && pow2(in.Args[2].Imm) == int(in.Args[2].Imm):
		lw.emit(pc, "signed division by a power of two: SHF + LEA.HI + SHF/LOP3", "SHF", "LEA", "SHF")
	case imm && signed:
		lw.emit(pc, "signed division by a constant: IMAD.HI + SHF + LEA.HI (+IMAD for rem)", "IMAD", "SHF", "LEA", "IMAD")
	case imm:
		lw.emit(pc, "unsigned division by a constant: IMAD.HI + SHF (+IMAD for rem)", "IMAD", "SHF", "IMAD")
	case wide:
		lw.emit(pc, "64-bit division: a call to the division routine (about 60 instructions)", append([]string{"CALL", "RET"}, repeat("IMAD", 58)...)...)
	case signed:
		lw.emit(pc, "signed 32-bit division: I2F + MUFU.RCP + F2I + IMAD refinement", append([]string{"IABS", "IABS", "I2F", "MUFU", "VIADD", "F2I", "IABS", "ISETP", "ISETP", "LOP3", "IADD3", "ISETP", "SEL", "LOP3"}, repeat("IMAD", 8)...)...)
	default:
		lw.emit(pc, "unsigned 32-bit division: I2F + MUFU.RCP + F2I + IMAD refinement", append([]string{"I2F", "MUFU", "VIADD", "F2I", "ISETP", "ISETP", "IADD3", "SEL", "LOP3"}, repeat("IMAD", 7)...)...)
	}
}

// warpSize reports whether operand o is a register holding WARP_SZ.
func (lw *lowerer) warpSize(o ptx.Operand) bool {
	if o.Kind == ptx.OpSpecial && o.Name == "WARP_SZ" {
		return true
	}
	if o.Kind != ptx.OpReg {
		return false
	}
	d := lw.df.def(o.Name)
	if d < 0 {
		return false
	}
	in := lw.df.in[d]
	return in.Op == isa.OpMov && len(in.Args) > 1 && in.Args[1].Kind == ptx.OpSpecial && in.Args[1].Name == "WARP_SZ"
}

// divPartner reports whether an earlier div/rem of the same type divides the same registers
// (each defined once) as the integer div/rem at pc.
func (lw *lowerer) divPartner(pc int) bool {
	in := lw.df.in[pc]
	if len(in.Args) < 3 || in.Args[1].Kind != ptx.OpReg || in.Args[2].Kind != ptx.OpReg ||
		len(lw.df.defs[in.Args[1].Name]) > 1 || len(lw.df.defs[in.Args[2].Name]) > 1 {
		return false
	}
	for k := 0; k < pc; k++ {
		o := lw.df.in[k]
		if (o.Op == isa.OpDiv || o.Op == isa.OpRem) && o.Op != in.Op && typ(o) == typ(in) && len(o.Args) >= 3 &&
			o.Args[1].Kind == ptx.OpReg && o.Args[2].Kind == ptx.OpReg &&
			o.Args[1].Name == in.Args[1].Name && o.Args[2].Name == in.Args[2].Name {
			return true
		}
	}
	return false
}

// aggregated reports whether in is an integer atomic add on global memory whose address is
// the same for the whole warp and whose old value is unused.
func (lw *lowerer) aggregated(in *inst) bool {
	if !has(in, "add") || strings.HasPrefix(typ(in), "f") || has(in, "shared") {
		return false
	}
	for _, a := range in.Args {
		if a.Kind == ptx.OpAddr {
			return a.BaseReg && lw.df.uniform[a.Name]
		}
	}
	return false
}

// mem lowers one load/store/atomic; merging is decided afterwards (merge).
func (lw *lowerer) mem(pc int, in *inst) {
	shared, local := has(in, "shared"), has(in, "local")
	defer lw.immData(pc, in)
	switch in.Op {
	case isa.OpLd, isa.OpLdu:
		switch {
		case shared:
			lw.emit(pc, "LDS", "LDS")
		case local:
			lw.emit(pc, "LDL", "LDL")
		case has(in, "const") && lw.symbolAddr(in):
			// a constant at a fixed address is a uniform load, two adjacent in one ULDC.64
			// (nvb_derivative_x's four coefficients: two ULDC.64 c[0x3][...])
			lw.emit(pc, "ULDC of a __constant__ at a fixed address (two per ULDC.64 in a block)", "ULDC")
			lw.consts = append(lw.consts, pc)
		case has(in, "const"):
			lw.emit(pc, "LDC", "LDC")
		default:
			lw.emit(pc, "LDG", "LDG")
		}
	case isa.OpSt:
		switch {
		case shared:
			lw.emit(pc, "STS", "STS")
		case local:
			lw.emit(pc, "STL", "STL")
		default:
			lw.emit(pc, "STG", "STG")
		}
	case isa.OpAtom, isa.OpRed:
		switch {
		case shared:
			lw.emit(pc, "ATOMS", "ATOMS")
		case lw.aggregated(in):
			// an integer add to one address for the whole warp: ptxas sums the lanes with
			// REDUX and lets one elected lane issue the RED (iso_atom_shfl)
			lw.emit(pc, "warp-aggregated atomic: S2R LANEID, REDUX.SUM, VOTEU.ANY, UFLO, IMAD.U32, ISETP, one REDG", "S2R", "REDUX", "VOTEU", "UFLO", "IMAD", "ISETP", "REDG")
		case in.Op == isa.OpAtom && len(lw.df.users(pc)) > 0:
			lw.emit(pc, "ATOMG", "ATOMG")
		default:
			lw.emit(pc, "REDG", "REDG")
		}
	case isa.OpCp:
		lw.emit(pc, "LDGSTS/commit/wait", "LDGSTS")
	default:
		lw.emit(pc, "prefetch: CCTL", "CCTL")
	}
}

// immData adds the register move of a non-zero immediate that a store or atomic takes as its
// data (STG/STS/REDG/ATOMG read registers only; 0 is RZ): once per value and basic block,
// the later ones reuse the register (lc_histogram_i32x4: one HFMA2.MMA R17 = 1 for four REDG;
// ptxas moves small constants with HFMA2.MMA, on the tensor pipe by ncu's attribution).
func (lw *lowerer) immData(pc int, in *inst) {
	if in.Op != isa.OpSt && in.Op != isa.OpAtom && in.Op != isa.OpRed {
		return
	}
	if in.Op != isa.OpSt && (has(in, "shared") || lw.aggregated(in)) {
		return // ATOMS.POPC.INC takes no data register (histogram256); REDUX sums a register
	}
	for k := 1; k < len(in.Args); k++ {
		a := in.Args[k]
		if !isImm(a) || isZero(a) {
			continue
		}
		if !lw.first(fmt.Sprintf("imm:%d:%d:%d", lw.df.block(pc), a.Imm, a.Bits)) {
			continue
		}
		e := &lw.l.Insts[pc]
		e.Issue++
		e.Pipes[PipeTensor]++
		e.Slots++
		e.SlotPipes[PipeTensor]++
		e.Why += "; + HFMA2.MMA/MOV of the immediate data into a register"
	}
}

// isImm reports whether o is an integer or floating-point immediate.
func isImm(o ptx.Operand) bool { return o.Kind == ptx.OpImm || o.Kind == ptx.OpFloat }

// isZero reports whether o is the immediate 0 (RZ in SASS).
func isZero(o ptx.Operand) bool {
	return o.Kind == ptx.OpImm && o.Imm == 0 || o.Kind == ptx.OpFloat && o.Bits&^(uint64(1)<<(o.FloatBits-1)) == 0
}

// pairHalves models ptxas packing two scalar f16 operations on the two halves of the same
// 32-bit registers into one paired HFMA2 (lc_elementwise_add_f16x2: two add.f16 of the halves
// of two ld.v2.u16, one HFMA2 per warp; iso5_h2_add/_mul/_fma: add, mul and fma alike, all
// HFMA2.MMA): same opcode, modifiers and guard, in one basic block; each source pair the two
// elements of one vector destination (a vector load or an unpacking mov) or the same register
// or immediate. The first issues the HFMA2, the second nothing; when no one instruction takes
// both results (the packing st.v2 or mov.b32), a PRMT extracts the high half
// (iso5_h2_add_split: HFMA2.MMA + PRMT, two STG.U16).
func (lw *lowerer) pairHalves() {
	df := lw.df
	done := make([]bool, len(df.in))
	for i, a := range df.in {
		if done[i] || !halfOp(a) {
			continue
		}
		for j := i + 1; j < len(df.in) && df.block(j) == df.block(i); j++ {
			b := df.in[j]
			if done[j] || !halfOp(b) || b.Op != a.Op || b.Guard != a.Guard || b.GuardNeg != a.GuardNeg ||
				strings.Join(a.Mods.Words, ".") != strings.Join(b.Mods.Words, ".") || !lw.halves(a, b) {
				continue
			}
			if lw.usedTogether(i, j) {
				lw.emit(i, fmt.Sprintf("HFMA2: paired with PTX instruction %d (the two halves of the same registers)", j), "HFMA2")
			} else {
				lw.emit(i, fmt.Sprintf("HFMA2 + PRMT: paired with PTX instruction %d, the high half extracted for its own use", j), "HFMA2", "PRMT")
			}
			lw.emit(j, fmt.Sprintf("paired into the HFMA2 of PTX instruction %d", i))
			done[i], done[j] = true, true
			break
		}
	}
}

// halfOp reports whether in is a scalar f16 add, sub, mul or fma of registers or immediates.
func halfOp(in *inst) bool {
	switch in.Op {
	case isa.OpAdd, isa.OpSub, isa.OpMul, isa.OpFma:
	default:
		return false
	}
	return in.Mods.Type == ptx.F16 && len(in.Mods.Types) == 1 && len(in.Args) >= 3 && in.Args[0].Kind == ptx.OpReg
}

// halves reports whether each source of a and b is the same register or immediate, or the two
// elements of one vector destination.
func (lw *lowerer) halves(a, b *inst) bool {
	if len(a.Args) != len(b.Args) {
		return false
	}
	for k := 1; k < len(a.Args); k++ {
		x, y := a.Args[k], b.Args[k]
		switch {
		case x.Kind == ptx.OpImm && y.Kind == ptx.OpImm && x.Imm == y.Imm && x.Bits == y.Bits && x.FloatBits == y.FloatBits:
		case x.Kind == ptx.OpReg && y.Kind == ptx.OpReg && x.Name == y.Name:
		case x.Kind == ptx.OpReg && y.Kind == ptx.OpReg:
			d := lw.df.def(x.Name)
			if d < 0 || d != lw.df.def(y.Name) || len(lw.df.in[d].Args) == 0 || lw.df.in[d].Args[0].Kind != ptx.OpVec {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// usedTogether reports whether the results of i and j are read by one same instruction.
func (lw *lowerer) usedTogether(i, j int) bool {
	for _, u := range lw.df.users(i) {
		for _, v := range lw.df.users(j) {
			if u == v {
				return true
			}
		}
	}
	return false
}
