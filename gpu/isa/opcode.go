package isa

// Code written from ptx.Opcodes(): one constant per base opcode the parser accepts
// (TestOpcodesMatchParser keeps the two lists equal).

// Opcode is a PTX base opcode (without modifiers).
type Opcode uint8

// The opcodes, in ptx.Opcodes() order.
const (
	OpInvalid              Opcode = iota // not a known opcode
	OpAbs                                // abs
	OpActivemask                         // activemask
	OpAdd                                // add
	OpAddc                               // addc
	OpAlloca                             // alloca
	OpAnd                                // and
	OpApplypriority                      // applypriority
	OpAtom                               // atom
	OpBar                                // bar
	OpBarrier                            // barrier
	OpBfe                                // bfe
	OpBfi                                // bfi
	OpBfind                              // bfind
	OpBmsk                               // bmsk
	OpBra                                // bra
	OpBrev                               // brev
	OpBrkpt                              // brkpt
	OpBrx                                // brx
	OpCall                               // call
	OpClusterlaunchcontrol               // clusterlaunchcontrol
	OpClz                                // clz
	OpCnot                               // cnot
	OpCopysign                           // copysign
	OpCos                                // cos
	OpCp                                 // cp
	OpCreatepolicy                       // createpolicy
	OpCvt                                // cvt
	OpCvta                               // cvta
	OpDiscard                            // discard
	OpDiv                                // div
	OpDp2a                               // dp2a
	OpDp4a                               // dp4a
	OpElect                              // elect
	OpEx2                                // ex2
	OpExit                               // exit
	OpFence                              // fence
	OpFma                                // fma
	OpFns                                // fns
	OpGetctarank                         // getctarank
	OpGriddepcontrol                     // griddepcontrol
	OpIsspacep                           // isspacep
	OpIstypep                            // istypep
	OpLd                                 // ld
	OpLdmatrix                           // ldmatrix
	OpLdu                                // ldu
	OpLg2                                // lg2
	OpLop3                               // lop3
	OpMad                                // mad
	OpMad24                              // mad24
	OpMadc                               // madc
	OpMapa                               // mapa
	OpMatch                              // match
	OpMax                                // max
	OpMbarrier                           // mbarrier
	OpMembar                             // membar
	OpMin                                // min
	OpMma                                // mma
	OpMov                                // mov
	OpMovmatrix                          // movmatrix
	OpMul                                // mul
	OpMul24                              // mul24
	OpMultimem                           // multimem
	OpNanosleep                          // nanosleep
	OpNeg                                // neg
	OpNot                                // not
	OpOr                                 // or
	OpPmevent                            // pmevent
	OpPopc                               // popc
	OpPrefetch                           // prefetch
	OpPrefetchu                          // prefetchu
	OpPrmt                               // prmt
	OpRcp                                // rcp
	OpRed                                // red
	OpRedux                              // redux
	OpRem                                // rem
	OpRet                                // ret
	OpRsqrt                              // rsqrt
	OpSad                                // sad
	OpSelp                               // selp
	OpSet                                // set
	OpSetmaxnreg                         // setmaxnreg
	OpSetp                               // setp
	OpShf                                // shf
	OpShfl                               // shfl
	OpShl                                // shl
	OpShr                                // shr
	OpSin                                // sin
	OpSlct                               // slct
	OpSqrt                               // sqrt
	OpSt                                 // st
	OpStackrestore                       // stackrestore
	OpStacksave                          // stacksave
	OpStmatrix                           // stmatrix
	OpSub                                // sub
	OpSubc                               // subc
	OpSuld                               // suld
	OpSuq                                // suq
	OpSured                              // sured
	OpSust                               // sust
	OpSzext                              // szext
	OpTanh                               // tanh
	OpTcgen05                            // tcgen05
	OpTensormap                          // tensormap
	OpTestp                              // testp
	OpTex                                // tex
	OpTld4                               // tld4
	OpTrap                               // trap
	OpTxq                                // txq
	OpVabsdiff                           // vabsdiff
	OpVabsdiff2                          // vabsdiff2
	OpVabsdiff4                          // vabsdiff4
	OpVadd                               // vadd
	OpVadd2                              // vadd2
	OpVadd4                              // vadd4
	OpVavrg2                             // vavrg2
	OpVavrg4                             // vavrg4
	OpVmad                               // vmad
	OpVmax                               // vmax
	OpVmax2                              // vmax2
	OpVmax4                              // vmax4
	OpVmin                               // vmin
	OpVmin2                              // vmin2
	OpVmin4                              // vmin4
	OpVote                               // vote
	OpVset                               // vset
	OpVset2                              // vset2
	OpVset4                              // vset4
	OpVshl                               // vshl
	OpVshr                               // vshr
	OpVsub                               // vsub
	OpVsub2                              // vsub2
	OpVsub4                              // vsub4
	OpWgmma                              // wgmma
	OpWmma                               // wmma
	OpXor                                // xor
	NumOpcodes                           // number of opcodes, OpInvalid included
)

var opNames = [NumOpcodes]string{"", "abs", "activemask", "add", "addc", "alloca", "and", "applypriority", "atom", "bar", "barrier", "bfe", "bfi", "bfind", "bmsk", "bra", "brev", "brkpt", "brx", "call", "clusterlaunchcontrol", "clz", "cnot", "copysign", "cos", "cp", "createpolicy", "cvt", "cvta", "discard", "div", "dp2a", "dp4a", "elect", "ex2", "exit", "fence", "fma", "fns", "getctarank", "griddepcontrol", "isspacep", "istypep", "ld", "ldmatrix", "ldu", "lg2", "lop3", "mad", "mad24", "madc", "mapa", "match", "max", "mbarrier", "membar", "min", "mma", "mov", "movmatrix", "mul", "mul24", "multimem", "nanosleep", "neg", "not", "or", "pmevent", "popc", "prefetch", "prefetchu", "prmt", "rcp", "red", "redux", "rem", "ret", "rsqrt", "sad", "selp", "set", "setmaxnreg", "setp", "shf", "shfl", "shl", "shr", "sin", "slct", "sqrt", "st", "stackrestore", "stacksave", "stmatrix", "sub", "subc", "suld", "suq", "sured", "sust", "szext", "tanh", "tcgen05", "tensormap", "testp", "tex", "tld4", "trap", "txq", "vabsdiff", "vabsdiff2", "vabsdiff4", "vadd", "vadd2", "vadd4", "vavrg2", "vavrg4", "vmad", "vmax", "vmax2", "vmax4", "vmin", "vmin2", "vmin4", "vote", "vset", "vset2", "vset4", "vshl", "vshr", "vsub", "vsub2", "vsub4", "wgmma", "wmma", "xor"}

// String is the PTX name of the opcode ("ld"); "" for OpInvalid.
func (o Opcode) String() string {
	if o < NumOpcodes {
		return opNames[o]
	}
	return "Opcode(?)"
}

// opByName maps PTX names to opcodes.
var opByName = func() map[string]Opcode {
	m := make(map[string]Opcode, NumOpcodes)
	for i, n := range opNames {
		if i > 0 {
			m[n] = Opcode(i)
		}
	}
	return m
}()

// Lookup returns the opcode named op ("ld"), OpInvalid if there is none.
func Lookup(op string) Opcode { return opByName[op] }
