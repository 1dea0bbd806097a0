package arith

import (
	"fmt"
	"strings"
)

// WGMMA is a decoded wgmma.mma_async shape and type combination (sm_90a). One warp
// of the warpgroup computes 16 of the 64 rows; the arithmetic is the tensor-core
// model of mma.sync (FloatModel), measured to be the same (docs/tensor-cores.md).
type WGMMA struct {
	N, K       int
	A, B, C, D MMAElem
	mma        MMA  // the per-warp 16 x N x K product with the same types and model
	fp8        bool // fp8 inputs: 13 bits kept in the alignment and in the f32 result (fitted, docs/tensor-cores.md)
}

// MaxWGMMAN is the largest N of a wgmma shape.
const MaxWGMMAN = 256

// ParseWGMMA decodes the modifiers of wgmma.mma_async (without "sync", "aligned").
func ParseWGMMA(mods []string) (*WGMMA, error) {
	m := &WGMMA{}
	var types []string
	shape := ""
	for _, s := range mods {
		switch {
		case s == "mma_async" || s == "sync" || s == "aligned":
		case s == "sp":
			return nil, fmt.Errorf("sparse wgmma (.sp) is not modelled")
		case s == "satfinite":
			return nil, fmt.Errorf("integer wgmma (.satfinite, .s8/.u8) is not modelled")
		case strings.HasPrefix(s, "m64n"):
			shape = s
			if _, err := fmt.Sscanf(s, "m64n%dk%d", &m.N, &m.K); err != nil {
				return nil, fmt.Errorf("bad wgmma shape .%s", s)
			}
		default:
			types = append(types, s)
		}
	}
	if shape == "" {
		return nil, fmt.Errorf("wgmma.mma_async needs a shape .m64nNkK")
	}
	if len(types) != 3 {
		return nil, fmt.Errorf("wgmma.mma_async needs .dtype.atype.btype, got .%s", strings.Join(types, "."))
	}
	d, a, b := elemByName(types[0]), elemByName(types[1]), elemByName(types[2])
	ok := a == b && m.N >= 8 && m.N <= MaxWGMMAN && m.N%8 == 0
	switch a {
	case ElemF16:
		ok = ok && m.K == 16 && (d == ElemF32 || d == ElemF16)
	case ElemBF16:
		ok = ok && m.K == 16 && d == ElemF32
	case ElemTF32:
		ok = ok && m.K == 8 && d == ElemF32
	case ElemE4M3, ElemE5M2:
		ok = m.N >= 8 && m.N <= MaxWGMMAN && m.N%8 == 0 && (b == ElemE4M3 || b == ElemE5M2) && m.K == 32 && (d == ElemF32 || d == ElemF16)
	default:
		ok = false
	}
	if !ok {
		return nil, fmt.Errorf("wgmma.mma_async.%s.%s is not modelled (supported: m64nNk16 .f32/.f16 with .f16, m64nNk16 .f32 with .bf16, m64nNk8 .f32 with .tf32, m64nNk32 .f32/.f16 with .e4m3/.e5m2, N = 8, 16, ... 256; integer and binary forms are not)",
			shape, strings.Join(types, "."))
	}
	m.A, m.B, m.C, m.D = a, b, d, d
	m.mma = MMA{M: 16, N: m.N, K: m.K, A: a, B: b, C: d, D: d, Model: DefaultModel(a, m.K)}
	if a == ElemE4M3 || a == ElemE5M2 {
		// fitted to the recorded fp8 cases (testdata/measured/tensor2): all 32 products and
		// the accumulator in one step, aligned with 13 bits kept, the f32 sum cut to 13
		// mantissa bits (toward zero)
		m.fp8, m.mma.Model.F = true, 13
	}
	return m, nil
}

// Transposable reports whether the form takes the imm-trans-a/imm-trans-b operands (f16, bf16).
func (m *WGMMA) Transposable() bool { return m.A == ElemF16 || m.A == ElemBF16 }

// DRegs is the number of accumulator registers per thread.
func (m *WGMMA) DRegs() int { return m.N * 16 / 32 / m.D.PerReg() }

// DLoc is the (row, col) within the warp's 16 rows of accumulator element e of a lane.
func DLoc(lane, e int) (row, col int) {
	g, t, i := lane>>2, lane&3, e&3
	return g + 8*(i>>1), 8*(e>>2) + 2*t + i&1
}

// ALoc is the (row, col) of element i of a lane's register A fragment (the mma m16n8kK A layout).
func (m *WGMMA) ALoc(lane, i int) (row, col int) { return m.mma.ALoc(lane, i) }

// ElemBytes is the size of an A or B element in shared memory.
func (m *WGMMA) ElemBytes() int { return m.A.Bits() / 8 }

// Rows sets d (16 x N, row-major element bits of D) to ±a·±b + c for one warp: a is
// 16 x K, b is K x N (row-major element bits), c is 16 x N or, with noC (scale-d
// false), ignored. negA/negB are imm-scale-a/b of -1.
func (m *WGMMA) Rows(a, b, c, d []uint64, negA, negB, noC bool) {
	var ta [16 * 32]term
	var tb [32]term
	k := m.K
	for i := 0; i < 16*k; i++ {
		ta[i] = m.mma.input(m.A, flipSign(m.A, a[i], negA))
	}
	for j := 0; j < m.N; j++ {
		for kk := 0; kk < k; kk++ {
			tb[kk] = m.mma.input(m.B, flipSign(m.B, b[kk*m.N+j], negB))
		}
		for i := 0; i < 16; i++ {
			var cb uint64
			if !noC {
				cb = c[i*m.N+j]
			}
			v := m.mma.dot(ta[i*k:(i+1)*k], tb[:k], cb)
			if m.fp8 && m.D == ElemF32 && v>>23&0xff != 0xff {
				v &^= 1<<10 - 1
			}
			d[i*m.N+j] = v
		}
	}
}

func flipSign(e MMAElem, x uint64, neg bool) uint64 {
	if !neg {
		return x
	}
	return x ^ 1<<uint(e.Bits()-1)
}

// fE4M3fin is e4m3 decoded as a plain binary format: its exponent field 15 holds
// normal numbers (up to 448), and only S.1111.111 is NaN (handled by the caller).
var fE4M3fin = fmtSpec{mant: 3, bias: 7, expMask: 0x1f, width: 8}
