// Package sim executes a PTX kernel launch functionally, warp by warp: every
// thread's registers and memory are real, so outputs can be compared with a
// GPU byte for byte and every address the analysis reasons about is one the
// program really used.
//
// The kernel and the device functions it calls are lowered once into a flat
// program of ops with registers, immediates, branch targets and
// reconvergence points resolved; each op runs for the 32 lanes of a warp at
// once under an active mask managed by an immediate-post-dominator SIMT
// stack. Lane-local arithmetic is delegated to package arith.
package sim

import (
	"github.com/kernelscope/kernelscope/gpu/isa"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// DefaultBudget is the thread-instruction budget used when Config.Budget is 0.
const DefaultBudget = 2e9

// DefaultTraceSteps is the number of trace steps recorded when TraceConfig.MaxSteps is 0.
const DefaultTraceSteps = 5000

// Config describes one launch: its shape, limits, observers and what to trace.
type Config struct {
	Grid, Block   [3]int            // grid of blocks and block of threads (0 in a dimension counts as 1)
	DynamicShared int               // bytes of extern .shared memory per block
	NumSMs        int               // blocks are distributed round-robin over this many SMs; 0 = 1
	Budget        int64             // most thread-instructions to simulate; 0 = DefaultBudget
	Trace         TraceConfig       // which warps to record step by step
	OnMemory      func(*mem.Access) // called for every warp-level memory access; the Access is reused after the call
	Progress      func(Progress)    // called at most about 10 times a second

	// SharedAllocUnit is the shared-memory allocation unit (%total_smem_size is
	// rounded up to it); 0 = 128. MaxWarpsPerSM is what %nwarpid reads; 0 = 64.
	SharedAllocUnit int
	MaxWarpsPerSM   int
	// Symbols are the initial contents the launch gives module-scope .global
	// and .const variables (cudaMemcpyToSymbol before the launch), by name.
	Symbols map[string][]byte
	// Memory is global memory placed by the caller (a host program's
	// cudaMalloc heap): used in place at the given addresses, not copied, so a
	// kernel's stores land in Data. Regions must not overlap.
	Memory []Region

	// Issues, when set, receives each block's issued warp-instructions when the
	// block completes: one sequence per warp of the block, in issue order (the
	// input of a trace-driven timing model). The slices are reused afterwards.
	// A block that issued more than MaxBlockIssues is passed with nil warps.
	// Calls (and OnMemory's) come from one goroutine at a time, in block order.
	Issues func(block int, warps [][]Issue)
	Check  Checks // racecheck, initcheck, synccheck; findings in Result.Findings
	// Decoded is the launch's program from Decode (shared with a timing
	// model); nil, or one decoded from other functions: Launch decodes.
	Decoded *isa.Program
	// Reverse runs the blocks, and the warps of each block, in reverse order
	// (a second schedule for checking that results do not depend on order).
	Reverse bool
	// Workers is how many blocks run at once: 0 = GOMAXPROCS, 1 = one after
	// another in block order (racy kernels then give the serial outputs).
	Workers int
	// Shadows, when set, lends the race checker its global shadow arrays and
	// takes them back when the launch ends, so successive launches reuse them.
	Shadows *ShadowPool
	// Cluster is the cluster shape in blocks (0 in a dimension counts as 1;
	// all zero: the kernel's .reqnctapercluster, else clusters of one block).
	// A cluster's blocks run together, sharing distributed shared memory.
	Cluster [3]int
	// Cooperative makes a cooperative launch (cudaLaunchCooperativeKernel):
	// every block is co-scheduled and %envreg1:%envreg2 point to a grid workspace.
	Cooperative bool
	// MaxResident is how many blocks fit on the GPU at once (a cooperative
	// launch of more is an error naming MaxResidentWhy); 0 = not checked.
	MaxResident    int
	MaxResidentWhy string
	sched          schedule // alternative warp schedules, for tests of order independence

	// Driver, when set, runs the launch execution-driven (step.go): it makes
	// blocks resident and steps warps one instruction at a time.
	Driver Driver

	// Async, when set with Issues, receives each block's mbarrier and bulk-copy effects
	// (AsyncRec, bulk.go) per warp, just before its Issues call; nil warps with them.
	Async func(block int, warps [][]AsyncRec)
}

// schedule perturbs the order in which a block's warps run (tests only).
type schedule struct {
	reverse bool // run warps from the highest index down
	quantum int  // instructions per turn; 0 = the default
	issues  int  // MaxBlockIssues for tests; 0 = MaxBlockIssues
	spins   int  // SpinLimit for tests; 0 = SpinLimit
}

// TraceConfig selects the warps whose steps are recorded.
type TraceConfig struct {
	Block          int // linear block index
	WarpLo, WarpHi int // inclusive range of warp indices within the block
	MaxSteps       int // 0 = DefaultTraceSteps; -1 = tracing off (the zero TraceConfig traces block 0, warp 0)
}

// Issue is one warp-instruction as issued: its PC (an index into Result.Insts),
// the lanes active when it issued and how many accesses it reported to
// Config.OnMemory (in order, so a consumer joins accesses to issues by
// sequence: cp.async reports two, a load with no active lane none).
type Issue struct {
	PC       int32
	Active   uint32
	Accesses uint16
}

// Progress reports how far a launch has come.
type Progress struct {
	BlocksDone, BlocksTotal int   // blocks finished and in the grid
	ThreadInstructions      int64 // simulated so far
}

// Region is one caller-placed global allocation (Config.Memory).
type Region struct {
	Base uint64 // device address of Data[0]; below the generic windows
	Data []byte // the bytes, aliased
	Name string // what it is, for messages ("cudaMalloc at line 12")
}

// Arg is one kernel argument: a device buffer (Buffer non-nil) or a scalar.
// For a by-value aggregate parameter larger than 8 bytes, Buffer holds its
// bytes (no allocation is made).
type Arg struct {
	Buffer    []byte // initial contents of a pointer parameter's allocation (copied)
	Scalar    uint64 // raw little-endian bits of a scalar parameter
	Undefined bool   // the buffer has no initialiser: initcheck reports reads of bytes the kernel did not write
	// TensorMap, when set, makes this a tensor-map argument: a 128-byte CUtensorMap
	// parameter gets the map's bytes, an 8-byte one the address of a copy in global memory.
	TensorMap *TensorMap
}

// Result is what a launch produced.
type Result struct {
	Buffers         [][]byte    // final contents, index-aligned with the args (nil for scalars)
	Addresses       []uint64    // device address of each buffer (0 for scalars)
	Stats           Stats       // launch totals
	Insts           []InstStats // per op of the program: the kernel's instructions first (index = PC), then device functions
	Trace           *Trace      // recorded steps of the traced warps; nil when tracing is off
	Variables       []Variable  // module-scope .global and .const variables after the launch
	Stdout          string      // device printf output in execution order (at most 1 MiB)
	StdoutTruncated bool        // printf output beyond 1 MiB was dropped
	// Stderr holds what CUDA's driver writes to the program's stderr: a failed
	// device assert's "file:line: function: block: [x,y,z], thread: [x,y,z]
	// Assertion `expr` failed." line.
	Stderr          string
	Findings        []Finding // what the checks of Config.Check found (deduplicated, capped)
	FindingsDropped int       // distinct findings beyond Checks.MaxFindings, not kept
	CheckNotes      []string  // what the checks could not cover, in words
}

// Variable is a module-scope .global or .const variable after the launch.
type Variable struct {
	Name  string // PTX name
	Space string // "global" or "const"
	Data  []byte // its bytes after the launch
}

// Stats are the totals of a launch.
type Stats struct {
	WarpInstructions         int64 // warp-level instructions issued
	ThreadInstructions       int64 // sum of active lanes over issued instructions
	ThreadInstructionsPredOn int64 // the same, counting only lanes whose guard predicate was true
	Branches                 int64 // warp-level branch instructions (bra, brx.idx) executed
	DivergentBranches        int64 // of those, the ones that split the warp
	Barriers                 int64 // warp-level barrier instructions executed
	MemoryInstructions       int64 // warp-level memory instructions executed
	Blocks                   int   // blocks launched
	WarpsPerBlock            int   // warps in each block
	SharedBytesPerBlock      int   // static plus dynamic shared memory per block
	LocalBytesPerThread      int   // .local bytes of the kernel frame per thread
	ParamBytes               int   // size of the kernel parameter space
}

// InstStats are the counters of one instruction of the program.
type InstStats struct {
	Func              string  // function the instruction belongs to
	Index             int     // index in the function's Insts (the mem.Access PC)
	Line              int     // PTX line
	Loc               ptx.Loc // CUDA location from .loc
	Op                string  // opcode with modifiers ("ld.global.f32")
	WarpExecs         int64   // times a warp issued it
	ThreadExecs       int64   // active lanes summed over those issues
	Branches          int64   // warp-level executions of a branch
	DivergentBranches int64   // executions that split the warp
}

// Trace is the step-by-step record of the traced warps.
type Trace struct {
	Block     int    // linear block index traced
	WarpLo    int    // first traced warp
	WarpHi    int    // last traced warp
	Steps     []Step // in execution order
	Truncated bool   // MaxSteps was reached
}

// Step is one warp-instruction of a traced warp.
type Step struct {
	Warp    int           // warp index within the block
	PC      int           // index into Result.Insts
	Line    int           // PTX line
	Loc     ptx.Loc       // CUDA location
	Text    string        // opcode with modifiers
	Active  uint32        // lanes active when issued
	Exec    uint32        // active lanes whose guard predicate was true
	Exited  uint32        // lanes that have exited after the step
	Writes  []RegWrite    // destination registers after the step
	Mem     []MemRecord   // memory accessed by the step
	Stack   []StackEntry  // SIMT stack after the step, bottom first
	Barrier *BarrierEvent // set for barrier instructions
	Event   string        // "diverge", "reconverge", "call", "return", "exit" or ""
	Live    []string      // registers live after the step (read later before being written)
}

// RegWrite is one register written by a step, with every lane's value (raw bits).
type RegWrite struct {
	Reg    string     // register name ("%r5")
	Values [32]uint64 // every lane's value after the step (inactive lanes unchanged)
}

// MemRecord is one memory access of a step, with every lane's address.
type MemRecord struct {
	Space string     // global, shared, local, const, param
	Kind  string     // load, store, atomic, reduction
	Bytes int        // bytes per lane
	Mask  uint32     // lanes that accessed
	Addr  [32]uint64 // per-lane address (global virtual address, or offset in the shared/local window)
}

// StackEntry is one SIMT stack entry: lanes in Mask continue at PC and pop at RPC (-1: no reconvergence point).
type StackEntry struct {
	PC, RPC int    // next pc and reconvergence pc (indices into Result.Insts; -2 = waits for exit)
	Mask    uint32 // lanes of the entry
}

// BarrierEvent describes a barrier instruction as executed.
type BarrierEvent struct {
	ID       int   // barrier number
	Arrived  int   // threads arrived after this step
	Expected int   // threads the barrier waits for
	Waiting  bool  // the warp now waits
	Released []int // warps released by this arrival
}
