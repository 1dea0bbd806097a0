package sim

import (
	"errors"

	"github.com/kernelscope/kernelscope/gpu/isa"
)

// lowerKind is how the decoder lowers one opcode (fnDecoder.inst1).
type lowerKind uint8

// The lowerings. lowerNone is no entry: TestEveryOpcodeLowered fails for it.
const (
	lowerNone         lowerKind = iota
	lowerArith                  // lane-local: gpu/arith
	lowerMov                    // mov: pack/unpack and symbol addresses here, the rest gpu/arith
	lowerLd                     // ld, ldu
	lowerSt                     // st
	lowerAtom                   // atom, red
	lowerCvta                   // cvta
	lowerIsspacep               // isspacep
	lowerBra                    // bra
	lowerBrx                    // brx.idx
	lowerCall                   // call
	lowerRet                    // ret (exit in a kernel)
	lowerExit                   // exit
	lowerTrap                   // trap
	lowerBar                    // bar, barrier
	lowerMapa                   // mapa, getctarank (cluster.go)
	lowerNop                    // no effect the simulator models (fences, hints, sleeps)
	lowerCreatePolicy           // createpolicy: a cache-policy register
	lowerShfl                   // shfl
	lowerVote                   // vote
	lowerMatch                  // match
	lowerRedux                  // redux
	lowerActivemask             // activemask
	lowerElect                  // elect
	lowerCp                     // cp.async, cp.async.bulk, cp.reduce.async.bulk.tensor
	lowerTensor                 // mma, ldmatrix, stmatrix, movmatrix, wmma, mbarrier, wgmma (mma.go)
	lowerUnsupported            // not simulated: refused with errNotSimulated at the instruction's line
	numLowerKinds
)

// errNotSimulated is the error of an opcode the simulator does not implement.
var errNotSimulated = errors.New("instruction is not implemented by the simulator")

// lowering is the one table of how each opcode is lowered (read only).
// Adding an opcode to gpu/isa fails TestEveryOpcodeLowered until it has an
// entry here and a latency class (latency.Classifies).
var lowering = [isa.NumOpcodes]lowerKind{
	isa.OpAbs: lowerArith, isa.OpActivemask: lowerActivemask, isa.OpAdd: lowerArith, isa.OpAddc: lowerArith,
	isa.OpAlloca: lowerUnsupported, isa.OpAnd: lowerArith, isa.OpApplypriority: lowerNop, isa.OpAtom: lowerAtom,
	isa.OpBar: lowerBar, isa.OpBarrier: lowerBar, isa.OpBfe: lowerArith, isa.OpBfi: lowerArith,
	isa.OpBfind: lowerArith, isa.OpBmsk: lowerArith, isa.OpBra: lowerBra, isa.OpBrev: lowerArith,
	isa.OpBrkpt: lowerNop, isa.OpBrx: lowerBrx, isa.OpCall: lowerCall, isa.OpClusterlaunchcontrol: lowerUnsupported,
	isa.OpClz: lowerArith, isa.OpCnot: lowerArith, isa.OpCopysign: lowerArith, isa.OpCos: lowerArith,
	isa.OpCp: lowerCp, isa.OpCreatepolicy: lowerCreatePolicy, isa.OpCvt: lowerArith, isa.OpCvta: lowerCvta,
	isa.OpDiscard: lowerNop, isa.OpDiv: lowerArith, isa.OpDp2a: lowerArith, isa.OpDp4a: lowerArith,
	isa.OpElect: lowerElect, isa.OpEx2: lowerArith, isa.OpExit: lowerExit, isa.OpFence: lowerNop,
	isa.OpFma: lowerArith, isa.OpFns: lowerArith, isa.OpGetctarank: lowerMapa, isa.OpGriddepcontrol: lowerNop,
	isa.OpIsspacep: lowerIsspacep, isa.OpIstypep: lowerUnsupported, isa.OpLd: lowerLd, isa.OpLdmatrix: lowerTensor,
	isa.OpLdu: lowerLd, isa.OpLg2: lowerArith, isa.OpLop3: lowerArith, isa.OpMad: lowerArith,
	isa.OpMad24: lowerArith, isa.OpMadc: lowerArith, isa.OpMapa: lowerMapa, isa.OpMatch: lowerMatch,
	isa.OpMax: lowerArith, isa.OpMbarrier: lowerTensor, isa.OpMembar: lowerNop, isa.OpMin: lowerArith,
	isa.OpMma: lowerTensor, isa.OpMov: lowerMov, isa.OpMovmatrix: lowerTensor, isa.OpMul: lowerArith,
	isa.OpMul24: lowerArith, isa.OpMultimem: lowerUnsupported, isa.OpNanosleep: lowerNop, isa.OpNeg: lowerArith,
	isa.OpNot: lowerArith, isa.OpOr: lowerArith, isa.OpPmevent: lowerNop, isa.OpPopc: lowerArith,
	isa.OpPrefetch: lowerNop, isa.OpPrefetchu: lowerNop, isa.OpPrmt: lowerArith, isa.OpRcp: lowerArith,
	isa.OpRed: lowerAtom, isa.OpRedux: lowerRedux, isa.OpRem: lowerArith, isa.OpRet: lowerRet,
	isa.OpRsqrt: lowerArith, isa.OpSad: lowerArith, isa.OpSelp: lowerArith, isa.OpSet: lowerArith,
	isa.OpSetmaxnreg: lowerNop, isa.OpSetp: lowerArith, isa.OpShf: lowerArith, isa.OpShfl: lowerShfl,
	isa.OpShl: lowerArith, isa.OpShr: lowerArith, isa.OpSin: lowerArith, isa.OpSlct: lowerArith,
	isa.OpSqrt: lowerArith, isa.OpSt: lowerSt, isa.OpStackrestore: lowerUnsupported, isa.OpStacksave: lowerUnsupported,
	isa.OpStmatrix: lowerTensor, isa.OpSub: lowerArith, isa.OpSubc: lowerArith, isa.OpSuld: lowerUnsupported,
	isa.OpSuq: lowerUnsupported, isa.OpSured: lowerUnsupported, isa.OpSust: lowerUnsupported, isa.OpSzext: lowerArith,
	isa.OpTanh: lowerArith, isa.OpTcgen05: lowerUnsupported, isa.OpTensormap: lowerUnsupported, isa.OpTestp: lowerArith,
	isa.OpTex: lowerUnsupported, isa.OpTld4: lowerUnsupported, isa.OpTrap: lowerTrap, isa.OpTxq: lowerUnsupported,
	isa.OpVabsdiff: lowerArith, isa.OpVabsdiff2: lowerArith, isa.OpVabsdiff4: lowerArith, isa.OpVadd: lowerArith,
	isa.OpVadd2: lowerArith, isa.OpVadd4: lowerArith, isa.OpVavrg2: lowerArith, isa.OpVavrg4: lowerArith,
	isa.OpVmad: lowerArith, isa.OpVmax: lowerArith, isa.OpVmax2: lowerArith, isa.OpVmax4: lowerArith,
	isa.OpVmin: lowerArith, isa.OpVmin2: lowerArith, isa.OpVmin4: lowerArith, isa.OpVote: lowerVote,
	isa.OpVset: lowerArith, isa.OpVset2: lowerArith, isa.OpVset4: lowerArith, isa.OpVshl: lowerArith,
	isa.OpVshr: lowerArith, isa.OpVsub: lowerArith, isa.OpVsub2: lowerArith, isa.OpVsub4: lowerArith,
	isa.OpWgmma: lowerTensor, isa.OpWmma: lowerTensor, isa.OpXor: lowerArith,
}
