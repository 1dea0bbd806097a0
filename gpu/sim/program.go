package sim

import (
	"github.com/kernelscope/kernelscope/gpu/isa"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/arith"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// opKind is what a decoded op does.
type opKind uint8

const (
	kUnsupported opKind = iota // raises an Unsupported error when executed
	kNop                       // membar, fence, prefetch, nanosleep, bar.warp.sync ...
	kArith                     // lane-local computation delegated to arith
	kMovReg                    // dst = src register
	kMovImm                    // dst = immediate
	kAddS32                    // add.{s,u}32 fast path
	kAddS64                    // add.{s,u}64 fast path
	kMadLo32                   // mad.lo.{s,u}32 fast path
	kMulWideU32                // mul.wide.u32 fast path
	kMulWideS32                // mul.wide.s32 fast path
	kShl32                     // shl.b32 fast path
	kSetp32                    // setp.cmp.{s,u}32 without combine, fast path
	kMovLocalSym               // dst = frame local base + imm (address of a .local variable)
	kMovParamSym               // dst = frame param base + imm (address of a frame .param variable)
	kPack                      // mov d, {a, b, ...}
	kUnpack                    // mov {a, b, ...}, s
	kLd
	kLdKParam // ld.param of a kernel parameter at a constant offset: values precomputed
	kSt
	kAtom // atom and red (sub: atomic operation; nd 0 for red)
	kCvta
	kIsspacep
	kBra
	kBrx
	kCall
	kRet
	kExit
	kTrap
	kBar // sub: barSync, barArrive, barRed*
	kShfl
	kVote
	kMatch
	kRedux
	kActivemask
	kElect
	kCpAsync
	kCreatePolicy
	kWarpSync // bar.warp.sync (__syncwarp): src[0] is the member mask; a no-op unless checks are on
	kTensor   // warp-level matrix instructions (mma, ldmatrix, stmatrix, movmatrix, wmma; sub: tc*, mma.go)
	kAsync    // cp.async.bulk and mbarrier (sub: as*, bulk.go)
	kCluster  // barrier.cluster, mapa, getctarank (sub: cl*, cluster.go)
)

// memory spaces of a decoded access.
type space uint8

const (
	spGeneric space = iota
	spGlobal
	spShared
	spLocal
	spConst
	spParamKernel
	spParamFrame
)

var spaceNames = [...]string{"generic", "global", "shared", "local", "const", "param", "param"}

// memSpace maps a resolved space to the memory model's space.
func (s space) memSpace() mem.Space {
	switch s {
	case spShared:
		return mem.Shared
	case spLocal:
		return mem.Local
	case spConst:
		return mem.Const
	case spParamKernel, spParamFrame:
		return mem.Param
	}
	return mem.Global
}

// Generic address windows. Global allocations live at and above heapBase; the
// windows for the other spaces sit below it, each winSize bytes wide.
const (
	heapBase    = 0x7f00_0000_0000
	sharedWin   = 0x7a00_0000_0000
	localWin    = 0x7b00_0000_0000
	constWin    = 0x7c00_0000_0000
	paramWin    = 0x7d00_0000_0000
	winSize     = 1 << 32
	funcBase    = 0x7e00_0000_0000 // "addresses" of functions, for indirect calls
	funcStride  = 16
	windowsLow  = sharedWin
	windowsHigh = paramWin + winSize
)

// val is a source operand: a register (reg >= 0) or an immediate.
type val struct {
	reg int32
	not bool // predicate negation
	imm uint64
}

// addrSpec is a decoded [base+offset] address.
type addrSpec struct {
	reg   int32  // base register, -1 for none
	imm   uint64 // offset, or symbol address plus offset
	frame uint8  // 0 absolute, 1 + frame local base, 2 + frame param base
	wrap  bool   // a 32-bit base register in a state space: the address wraps at 32 bits, as in hardware
}

// variants in op.sub.
const (
	barSync uint8 = iota
	barArrive
	barRedPopc
	barRedAnd
	barRedOr

	shflUp = iota
	shflDown
	shflBfly
	shflIdx

	voteAll = iota
	voteAny
	voteUni
	voteBallot

	matchAny = iota
	matchAll

	atomAdd = iota
	atomMin
	atomMax
	atomInc
	atomDec
	atomCas
	atomExch
	atomAnd
	atomOr
	atomXor

	reduxAdd = iota
	reduxMin
	reduxMax
	reduxAnd
	reduxOr
	reduxXor

	cpAsyncCopy = iota
	cpAsyncCommit
	cpAsyncWait
)

// op is one decoded instruction. Register indices are relative to the
// current frame; lanes of register i are regs[i*32 : i*32+32].
type op struct {
	kind    opKind
	sub     uint8
	space   space
	cache   mem.CacheOp
	size    uint8 // bytes per element of a memory access
	vec     uint8 // elements of a memory access (1, 2, 4)
	signed  bool  // sign-extend loads; signed atomics/redux/compare
	flt     bool  // float atomics
	clock   bool  // refresh the dynamic special registers before executing
	regSrcs bool  // kArith: 1 to 3 sources, all registers without negation
	gneg    bool
	nd, ns  uint8
	guard   int32 // guard predicate register, -1 when unguarded
	dst     [4]int32
	dmask   [4]uint64
	src     [4]val
	addr    addrSpec
	ar      *arith.Op
	target  int32   // branch target (global pc)
	reconv  int32   // reconvergence pc, -1 = only at exit
	targets []int32 // brx.idx targets
	typ     ptx.Type
	call    *callInfo
	kvals   [4]uint64 // kLdKParam values
	msg     string    // kUnsupported: why
	tc      *tensorOp // kTensor
	async   *asyncOp  // kAsync
}

// callInfo is a decoded call.
type callInfo struct {
	callee   *function // nil for builtins and indirect calls
	builtin  uint8
	indirect bool // the callee is the function whose address fnptr holds
	fnptr    val
	rets     []callArg
	args     []callArg
}

// callArg is one argument or return of a call: a caller .param variable
// (frame param offset) or a register / immediate.
type callArg struct {
	param bool
	off   int
	size  int
	v     val
	dmask uint64
}

// slot is a parameter's place in a frame's param space.
type slot struct {
	off, size int
	reg       int32 // register parameters (.reg params of non-ABI functions): the callee register; -1 otherwise
}

// function is one lowered function.
type function struct {
	f         *ptx.Func
	index     int
	base      int32 // pc of its first op
	nregs     int
	regNames  []string
	regMask   []uint64
	paramSize int // bytes of the per-lane param frame (params, rets, body .param vars)
	localSize int // bytes of the per-lane local frame
	params    []slot
	rets      []slot
}

// opInfo says where an op came from; used only for diagnostics and stats.
type opInfo struct {
	fn   int
	idx  int
	line int
	loc  ptx.Loc
	text string
}

// program is a kernel and the device functions it may call, lowered.
type program struct {
	dec        *isa.Program // the decoded form the ops were lowered from (same PCs)
	ops        []op
	info       []opInfo
	fns        []*function
	kernel     *function
	sharedSize int // static shared bytes
	dynOff     int // offset of extern shared memory
	params     []byte
	paramSlots []slot
	constMem   []byte
	globals    []*alloc    // module .global variables
	sharedVars []sharedVar // .shared variables with their offsets, for naming addresses in findings
	hasClock   bool
	// readsEnvreg: the program reads %envreg1/%envreg2 (a cooperative launch's grid workspace)
	readsEnvreg bool

	vars []progVar // module-scope .global and .const variables, for Result.Variables
}

// progVar is a module-scope .global or .const variable.
type progVar struct {
	name, space string
	alloc       *alloc // .global
	off         int    // .const: offset in the constant bank
	size        int
}

// hidden registers hold special registers; they occupy indices 0..nHidden-1 of every frame.
const (
	hTidX = iota
	hTidY
	hTidZ
	hNtidX
	hNtidY
	hNtidZ
	hCtaidX
	hCtaidY
	hCtaidZ
	hNctaidX
	hNctaidY
	hNctaidZ
	hLaneid
	hWarpid
	hNwarpid
	hSmid
	hNsmid
	hGridid
	hLmEq
	hLmLe
	hLmLt
	hLmGe
	hLmGt
	hClock
	hClockHi
	hClock64
	hGtimer
	hGtimerLo
	hGtimerHi
	hDynSmem
	hTotalSmem
	hZero // special registers that read as 0 (%current_graph_exec)
	hClusterCtarank
	hClusterNctarank
	hIsExplicitCluster
	hWarpSz
	hClusterCtaidX // cluster special registers (cluster.go)
	hClusterCtaidY
	hClusterCtaidZ
	hClusterNctaidX
	hClusterNctaidY
	hClusterNctaidZ
	hClusteridX
	hClusteridY
	hClusteridZ
	hNclusteridX
	hNclusteridY
	hNclusteridZ
	hEnvreg1 // the cooperative launch's grid workspace, high 32 bits (0 otherwise)
	hEnvreg2 // and low 32 bits
	nHidden
)

// hiddenReg maps a special register (with component) to its hidden register.
func hiddenReg(name, comp string) (int32, bool) {
	xyz := func(base int32) (int32, bool) {
		switch comp {
		case "x", "":
			return base, true
		case "y":
			return base + 1, true
		case "z":
			return base + 2, true
		}
		return 0, false
	}
	switch name {
	case "%tid":
		return xyz(hTidX)
	case "%ntid":
		return xyz(hNtidX)
	case "%ctaid":
		return xyz(hCtaidX)
	case "%nctaid":
		return xyz(hNctaidX)
	case "%clusterid":
		return xyz(hClusteridX)
	case "%nclusterid":
		return xyz(hNclusteridX)
	case "%cluster_ctaid":
		return xyz(hClusterCtaidX)
	case "%cluster_nctaid":
		return xyz(hClusterNctaidX)
	case "%envreg1":
		return hEnvreg1, true
	case "%envreg2":
		return hEnvreg2, true
	case "%laneid":
		return hLaneid, true
	case "%warpid":
		return hWarpid, true
	case "%nwarpid":
		return hNwarpid, true
	case "%smid":
		return hSmid, true
	case "%nsmid":
		return hNsmid, true
	case "%gridid":
		return hGridid, true
	case "%lanemask_eq":
		return hLmEq, true
	case "%lanemask_le":
		return hLmLe, true
	case "%lanemask_lt":
		return hLmLt, true
	case "%lanemask_ge":
		return hLmGe, true
	case "%lanemask_gt":
		return hLmGt, true
	case "%clock":
		return hClock, true
	case "%clock_hi":
		return hClockHi, true
	case "%clock64":
		return hClock64, true
	case "%globaltimer":
		return hGtimer, true
	case "%globaltimer_lo":
		return hGtimerLo, true
	case "%globaltimer_hi":
		return hGtimerHi, true
	case "%dynamic_smem_size":
		return hDynSmem, true
	case "%total_smem_size":
		return hTotalSmem, true
	case "WARP_SZ":
		return hWarpSz, true
	case "%current_graph_exec":
		return hZero, true
	case "%cluster_ctarank":
		return hClusterCtarank, true
	case "%cluster_nctarank":
		return hClusterNctarank, true
	case "%is_explicit_cluster":
		return hIsExplicitCluster, true
	}
	return 0, false
}

// notSimulated says why a predefined identifier has no value in a simulated
// launch ("" when it has one). Reading one is an error naming the line.
func notSimulated(name string) string {
	switch {
	case strings.HasPrefix(name, "%envreg") && name != "%envreg1" && name != "%envreg2":
		return "a driver-defined environment register; only %envreg1/%envreg2 (a cooperative launch's grid workspace) are modelled"
	case strings.HasPrefix(name, "%pm"):
		return "a performance-monitor counter; not modelled"
	case strings.HasPrefix(name, "%reserved_smem_offset"):
		return "an offset into the driver's reserved shared memory, whose layout is not modelled"
	case name == "%aggr_smem_size":
		return "it includes the driver's reserved shared memory (1 KB for a block without shared memory on the H200), which is not modelled"
	}
	return ""
}

// isClockReg reports whether a hidden register changes while a warp runs.
func isClockReg(h int32) bool { return h >= hClock && h <= hGtimerHi }

// hiddenWide reports whether a hidden register is 64 bits wide.
func hiddenWide(h int32) bool { return h == hClock64 || h == hGtimer }

// hiddenNames are the names of the hidden registers, for traces.
var hiddenNames = [nHidden]string{
	hTidX: "%tid.x", hTidY: "%tid.y", hTidZ: "%tid.z", hNtidX: "%ntid.x", hNtidY: "%ntid.y", hNtidZ: "%ntid.z",
	hCtaidX: "%ctaid.x", hCtaidY: "%ctaid.y", hCtaidZ: "%ctaid.z", hNctaidX: "%nctaid.x", hNctaidY: "%nctaid.y",
	hNctaidZ: "%nctaid.z", hLaneid: "%laneid", hWarpid: "%warpid", hNwarpid: "%nwarpid", hSmid: "%smid",
	hNsmid: "%nsmid", hGridid: "%gridid", hLmEq: "%lanemask_eq", hLmLe: "%lanemask_le", hLmLt: "%lanemask_lt",
	hLmGe: "%lanemask_ge", hLmGt: "%lanemask_gt", hClock: "%clock", hClockHi: "%clock_hi", hClock64: "%clock64",
	hGtimer: "%globaltimer", hGtimerLo: "%globaltimer_lo", hGtimerHi: "%globaltimer_hi",
	hDynSmem: "%dynamic_smem_size", hTotalSmem: "%total_smem_size", hZero: "(zero)",
	hClusterCtarank: "%cluster_ctarank", hClusterNctarank: "%cluster_nctarank", hIsExplicitCluster: "%is_explicit_cluster",
	hWarpSz: "WARP_SZ",

	hClusterCtaidX: "%cluster_ctaid.x", hClusterCtaidY: "%cluster_ctaid.y", hClusterCtaidZ: "%cluster_ctaid.z",
	hClusterNctaidX: "%cluster_nctaid.x", hClusterNctaidY: "%cluster_nctaid.y", hClusterNctaidZ: "%cluster_nctaid.z",
	hClusteridX: "%clusterid.x", hClusteridY: "%clusterid.y", hClusteridZ: "%clusterid.z",
	hNclusteridX: "%nclusterid.x", hNclusteridY: "%nclusterid.y", hNclusteridZ: "%nclusterid.z",
	hEnvreg1: "%envreg1", hEnvreg2: "%envreg2",
}
