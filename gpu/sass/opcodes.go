package sass

import "sort"

// OpDoc is the project's own one-line meaning of a SASS opcode (sm_75 to sm_90).
type OpDoc struct {
	Opcode  string // opcode without modifiers: "IMAD"
	Archs   string // architectures that have it: "sm_75+", "sm_90"
	Summary string // one line written for KernelScope's hover docs
}

// opDocs is KernelScope's table of SASS opcodes, sorted by opcode. The
// meanings are written for this project from what the instructions do; they
// are not taken from NVIDIA's documentation, which lists names only.
var opDocs = []OpDoc{
	{"ACQBULK", "sm_90", "Waits for the bulk asynchronous copies this thread started to be acquired."},
	{"ATOM", "sm_75+", "Atomic read-modify-write on a generic address; the old value comes back in a register."},
	{"ATOMG", "sm_75+", "Atomic read-modify-write on global memory; the old value comes back in a register."},
	{"ATOMS", "sm_75+", "Atomic read-modify-write on shared memory, done in the SM's shared-memory unit."},
	{"B2R", "sm_75+", "Reads the state of a hardware barrier into a register."},
	{"BAR", "sm_75+", "Block-wide barrier (__syncthreads and named barriers): warps wait until all expected threads arrive."},
	{"BMOV", "sm_75+", "Moves a convergence-barrier register (B0..B15) to or from a general register, to save or restore it."},
	{"BMSK", "sm_75+", "Builds a mask of N consecutive one bits starting at a given bit position."},
	{"BPT", "sm_75+", "Breakpoint or trap: stops the warp for a debugger or raises an error."},
	{"BRA", "sm_75+", "Branch to an address, for the lanes whose guard predicate holds; the others fall through."},
	{"BREAK", "sm_75+", "Removes the lanes that leave a loop early from a convergence barrier."},
	{"BREV", "sm_75+", "Reverses the order of the 32 bits of a register."},
	{"BRX", "sm_75+", "Indirect branch to an address held in a register (switch tables)."},
	{"BSSY", "sm_75+", "Opens a convergence region: records in a barrier register where divergent lanes meet again."},
	{"BSYNC", "sm_75+", "Waits at the end of a convergence region until the lanes recorded by BSSY have all arrived."},
	{"CALL", "sm_75+", "Calls a function (absolute or relative address), pushing the return address."},
	{"CCTL", "sm_75+", "Cache control on a generic address: invalidate or write back cache lines."},
	{"CCTLL", "sm_75+", "Cache control on local memory lines."},
	{"CS2R", "sm_75+", "Reads a special register fast (clock counter, or SRZ to zero a register pair)."},
	{"DADD", "sm_75+", "Adds two 64-bit doubles, run on the SM's double-precision unit."},
	{"DEPBAR", "sm_75+", "Waits until a scoreboard's count of outstanding long operations drops to a threshold."},
	{"DFMA", "sm_75+", "Fused multiply-add of 64-bit doubles (a*b+c, one rounding)."},
	{"DMMA", "sm_80+", "Tensor-core matrix multiply-accumulate in double precision."},
	{"DMUL", "sm_75+", "Multiplies two 64-bit doubles."},
	{"DSETP", "sm_75+", "Compares two doubles and writes the result, combined with another predicate, to predicates."},
	{"ELECT", "sm_90", "Elects one active lane of the warp and gives each lane a predicate saying if it is the leader."},
	{"ERRBAR", "sm_75+", "Error barrier: waits until earlier memory operations have reported their errors."},
	{"EXIT", "sm_75+", "Ends the thread for the lanes whose guard predicate holds."},
	{"F2F", "sm_75+", "Converts between floating-point widths (f16, f32, f64), with rounding."},
	{"F2FP", "sm_80+", "Converts two floats and packs them into one register (two f16 or bf16 halves)."},
	{"F2I", "sm_75+", "Converts a float to an integer, with rounding and saturation; runs on the MUFU/conversion unit."},
	{"FADD", "sm_75+", "Adds two 32-bit floats."},
	{"FCHK", "sm_75+", "Checks whether a float division needs the slow exact path (denormals, infinities, NaN)."},
	{"FENCE", "sm_90", "Proxy or memory fence that orders async-proxy (TMA) and generic accesses."},
	{"FFMA", "sm_75+", "Fused multiply-add of 32-bit floats (a*b+c, rounded once)."},
	{"FMNMX", "sm_75+", "Minimum or maximum of two floats, chosen by a predicate operand."},
	{"FMUL", "sm_75+", "Multiplies two 32-bit floats."},
	{"FRND", "sm_75+", "Rounds a float to an integral value (nearest, floor, ceil or truncate), keeping it a float."},
	{"FSEL", "sm_75+", "Selects one of two floats by a predicate."},
	{"FSET", "sm_75+", "Compares two floats and writes all ones or zero (or 1.0/0.0) to a register."},
	{"FSETP", "sm_75+", "Compares two floats and writes the result, combined with another predicate, to predicates."},
	{"FSWZADD", "sm_75+", "Adds floats across the lanes of a quad in a swizzled pattern (derivatives)."},
	{"HADD2", "sm_75+", "Adds two pairs of 16-bit floats packed in registers."},
	{"HFMA2", "sm_75+", "Fused multiply-add on two packed 16-bit floats; with .MMA it is often used only to move a constant."},
	{"HGMMA", "sm_90", "Warpgroup tensor-core matrix multiply-accumulate with f16/bf16/tf32 operands read from shared memory (wgmma)."},
	{"HMMA", "sm_75+", "Tensor-core matrix multiply-accumulate with f16, bf16 or tf32 inputs, issued by a warp."},
	{"HMNMX2", "sm_80+", "Minimum or maximum of two pairs of packed 16-bit floats."},
	{"HMUL2", "sm_75+", "Multiplies two pairs of packed 16-bit floats."},
	{"HSET2", "sm_75+", "Compares two pairs of packed 16-bit floats, writing masks to a register."},
	{"HSETP2", "sm_75+", "Compares two pairs of packed 16-bit floats, writing two predicates."},
	{"I2F", "sm_75+", "Converts an integer to a float (on the conversion unit)."},
	{"I2FP", "sm_86+", "Converts a 32-bit integer to a 32-bit float on the integer/float pipes (faster than I2F)."},
	{"I2I", "sm_75+", "Converts between integer widths with saturation (e.g. s32 to u8)."},
	{"I2IP", "sm_80+", "Converts and packs integers into narrower lanes of one register, with saturation."},
	{"IABS", "sm_75+", "Absolute value of a 32-bit integer."},
	{"IADD3", "sm_75+", "Adds three 32-bit integers (any may be negated), with optional carry in and out."},
	{"IDP", "sm_75+", "Dot product of packed 8- or 16-bit integers, accumulated into a 32-bit integer."},
	{"IGMMA", "sm_90", "Warpgroup tensor-core matrix multiply-accumulate with 8-bit integer operands (wgmma)."},
	{"IMAD", "sm_75+", "Integer multiply-add a*b+c; also the compiler's move (.MOV) and shift (.SHL) on the FMA pipe; .WIDE gives a 64-bit result."},
	{"IMMA", "sm_75+", "Tensor-core matrix multiply-accumulate with 8- or 4-bit integer inputs."},
	{"IMNMX", "sm_75+", "Minimum or maximum of two integers, chosen by a predicate operand."},
	{"IMUL", "sm_75+", "Multiplies two integers (low or high half of the product)."},
	{"ISETP", "sm_75+", "Compares two integers and writes the result, combined with another predicate, to predicates."},
	{"JMP", "sm_75+", "Jump to an absolute address."},
	{"JMX", "sm_75+", "Jump to an absolute address held in a register."},
	{"KILL", "sm_75+", "Ends the lanes whose guard predicate holds (like EXIT, for discarded work)."},
	{"LD", "sm_75+", "Loads from a generic address (resolved at run time to global, shared or local memory)."},
	{"LDC", "sm_75+", "Loads from a constant bank (kernel parameters, __constant__ data) with a register index."},
	{"LDG", "sm_75+", "Loads from global memory through L1 and L2; the result arrives many cycles later (long scoreboard)."},
	{"LDGDEPBAR", "sm_80+", "Marks the end of a group of asynchronous global-to-shared copies (cp.async commit)."},
	{"LDGSTS", "sm_80+", "Asynchronous copy from global to shared memory without passing through registers (cp.async)."},
	{"LDL", "sm_75+", "Loads from the thread's local memory (register spills, stack arrays), cached in L1."},
	{"LDS", "sm_75+", "Loads from shared memory; lanes hitting different addresses in one bank serialise."},
	{"LDSM", "sm_75+", "Loads 8x8 matrices from shared memory into registers spread over the warp, for tensor cores (ldmatrix)."},
	{"LEA", "sm_75+", "Shifts a left and adds b (address arithmetic: base + index << scale); .HI gives the high word."},
	{"LEPC", "sm_75+", "Loads the current program counter into a register."},
	{"LOP3", "sm_75+", "Any bitwise function of three inputs, given as an 8-bit truth table (LUT)."},
	{"MATCH", "sm_75+", "Finds the lanes of the warp that hold the same value (__match_any_sync / __match_all_sync)."},
	{"MEMBAR", "sm_75+", "Memory fence: orders this thread's memory operations at CTA, GPU or system scope."},
	{"MOV", "sm_75+", "Copies a register or immediate into a register."},
	{"MOVM", "sm_75+", "Transposes an 8x8 matrix of 16-bit elements held across the warp's registers."},
	{"MUFU", "sm_75+", "Multi-function unit: fast approximate reciprocal, square root, rsqrt, sin, cos, exp2, log2 (quarter throughput)."},
	{"NANOSLEEP", "sm_75+", "Suspends the warp for about the given number of nanoseconds."},
	{"NOP", "sm_75+", "Does nothing; fills the instruction stream (alignment after EXIT)."},
	{"P2R", "sm_75+", "Packs predicate registers into bits of a general register."},
	{"PLOP3", "sm_75+", "Any logical function of three predicates, given as a truth table."},
	{"POPC", "sm_75+", "Counts the one bits of a register."},
	{"PRMT", "sm_75+", "Permutes bytes: picks four bytes out of two registers by a selector."},
	{"QGMMA", "sm_90", "Warpgroup tensor-core matrix multiply-accumulate with fp8 operands (wgmma)."},
	{"R2B", "sm_75+", "Writes a register into a hardware barrier's state."},
	{"R2P", "sm_75+", "Unpacks bits of a general register into predicate registers."},
	{"R2UR", "sm_75+", "Copies a per-lane register into a uniform register (one value for the warp)."},
	{"RED", "sm_75+", "Atomic reduction on memory without returning the old value (atomicAdd whose result is unused)."},
	{"REDG", "sm_90", "Atomic reduction on global memory without returning the old value (Hopper's form of RED)."},
	{"REDUX", "sm_80+", "Reduces a 32-bit integer across the warp's lanes (and, or, xor, min, max, add) into a uniform register."},
	{"RET", "sm_75+", "Returns from a function call."},
	{"S2R", "sm_75+", "Reads a special register (thread or block index, lane id, clock) into a register; slow, tracked by scoreboard."},
	{"S2UR", "sm_75+", "Reads a special register that is the same for the whole warp (e.g. block index) into a uniform register."},
	{"SEL", "sm_75+", "Selects one of two values by a predicate (a branch-free ?:)."},
	{"SGXT", "sm_75+", "Sign- or zero-extends the low N bits of a register."},
	{"SHF", "sm_75+", "Funnel shift: shifts a 64-bit pair of registers left or right and keeps one 32-bit half (also plain shifts)."},
	{"SHFL", "sm_75+", "Warp shuffle: each lane reads a register of another lane (idx, up, down, xor)."},
	{"ST", "sm_75+", "Stores to a generic address."},
	{"STG", "sm_75+", "Stores to global memory."},
	{"STL", "sm_75+", "Stores to the thread's local memory (register spills, stack arrays)."},
	{"STS", "sm_75+", "Stores to shared memory; lanes hitting different addresses in one bank serialise."},
	{"STSM", "sm_90", "Stores 8x8 matrices from the warp's registers into shared memory (stmatrix)."},
	{"SYNCS", "sm_90", "Hopper memory-barrier (mbarrier) operations: arrive, expect bytes, try-wait on a shared-memory barrier."},
	{"TEX", "sm_75+", "Samples a texture through the texture unit."},
	{"TLD", "sm_75+", "Fetches a texel by integer coordinates, without filtering."},
	{"UBLKCP", "sm_90", "Bulk asynchronous copy between global and shared memory by the TMA unit (cp.async.bulk)."},
	{"UBMSK", "sm_75+", "Uniform-datapath BMSK: builds a bit mask in a uniform register."},
	{"UCGABAR", "sm_90", "Cluster-wide barrier arrive or wait across the CTAs of a thread-block cluster."},
	{"UFLO", "sm_75+", "Uniform-datapath find-leading-one: position of the highest set bit."},
	{"UIADD3", "sm_75+", "Uniform-datapath IADD3: adds three values once for the whole warp."},
	{"UIMAD", "sm_75+", "Uniform-datapath IMAD: integer multiply-add once for the whole warp."},
	{"UISETP", "sm_75+", "Uniform-datapath integer compare into a uniform predicate."},
	{"ULDC", "sm_75+", "Loads a constant-bank value (kernel parameter) into a uniform register."},
	{"ULEA", "sm_75+", "Uniform-datapath LEA: shift-and-add once for the whole warp."},
	{"ULOP3", "sm_75+", "Uniform-datapath LOP3: three-input bitwise function once for the whole warp."},
	{"UMOV", "sm_75+", "Moves a value into a uniform register."},
	{"UPOPC", "sm_75+", "Uniform-datapath population count."},
	{"UPRMT", "sm_75+", "Uniform-datapath byte permute."},
	{"USEL", "sm_75+", "Uniform-datapath select by a uniform predicate."},
	{"USHF", "sm_75+", "Uniform-datapath funnel shift."},
	{"UTMALDG", "sm_90", "Tensor-memory-accelerator load of a tile from global to shared memory, described by a tensor map."},
	{"UTMASTG", "sm_90", "Tensor-memory-accelerator store of a tile from shared to global memory."},
	{"VIADD", "sm_90", "Adds two 32-bit integers (Hopper's simple integer add, often with an immediate)."},
	{"VIMNMX", "sm_90", "Minimum or maximum of two integers (Hopper form)."},
	{"VOTE", "sm_75+", "Warp vote: ballot, all or any of a predicate across the active lanes, into a register or predicate."},
	{"VOTEU", "sm_75+", "Warp vote into a uniform register or predicate (e.g. the active-lane mask)."},
	{"WARPGROUP", "sm_90", "Orders and waits on warpgroup-level operations (wgmma fences and arrive)."},
	{"WARPSYNC", "sm_75+", "Waits until the lanes of a mask reach this point together (__syncwarp)."},
	{"YIELD", "sm_75+", "Hint to the scheduler to let another warp run (placed in loops so divergent lanes make progress)."},
}

// opIndex maps an opcode to its entry in opDocs.
func opIndex() map[string]int {
	m := make(map[string]int, len(opDocs))
	for i, d := range opDocs {
		m[d.Opcode] = i
	}
	return m
}

var opByName = opIndex()

// OpcodeDoc returns the one-line meaning of a SASS opcode; op may carry
// modifiers and a guard ("@!P0 IMAD.WIDE.U32" finds "IMAD").
func OpcodeDoc(op string) (OpDoc, bool) {
	op = baseOpcode(op)
	i, ok := opByName[op]
	if !ok {
		return OpDoc{}, false
	}
	return opDocs[i], true
}

// Opcodes returns the documented SASS opcodes, sorted.
func Opcodes() []string {
	out := make([]string, len(opDocs))
	for i, d := range opDocs {
		out[i] = d.Opcode
	}
	sort.Strings(out)
	return out
}

// baseOpcode strips a guard predicate and dotted modifiers from an opcode.
func baseOpcode(op string) string {
	for len(op) > 0 && (op[0] == ' ' || op[0] == '\t') {
		op = op[1:]
	}
	if len(op) > 0 && op[0] == '@' {
		i := 0
		for i < len(op) && op[i] != ' ' && op[i] != '\t' {
			i++
		}
		op = op[i:]
		for len(op) > 0 && (op[0] == ' ' || op[0] == '\t') {
			op = op[1:]
		}
	}
	for i := 0; i < len(op); i++ {
		if op[i] == '.' || op[i] == ' ' || op[i] == '\t' {
			return op[:i]
		}
	}
	return op
}
