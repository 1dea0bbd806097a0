package arith

import (
	"errors"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// mk builds "op.mod.mod d, s1, ..., sn" with register operands.
func mk(name string, nsrc int) *ptx.Inst {
	parts := strings.Split(name, ".")
	in := &ptx.Inst{Op: parts[0], Mods: parts[1:]}
	in.Args = append(in.Args, ptx.Operand{Kind: ptx.OpReg, Name: "%d"})
	for i := 0; i < nsrc; i++ {
		in.Args = append(in.Args, ptx.Operand{Kind: ptx.OpReg, Name: "%s" + string(rune('0'+i))})
	}
	return in
}

func dec(t testing.TB, name string, nsrc int) *Op {
	t.Helper()
	o, err := Decode(mk(name, nsrc))
	if err != nil {
		t.Fatalf("Decode(%s): %v", name, err)
	}
	return o
}

// ev evaluates name on the sources (raw bits).
func ev(t testing.TB, name string, srcs ...uint64) uint64 {
	t.Helper()
	o := dec(t, name, len(srcs))
	var s [4]uint64
	copy(s[:], srcs)
	var cc uint8
	d, _ := o.Eval(&s, &cc)
	return d
}

func f32b(x float32) uint64 { return uint64(math.Float32bits(x)) }

// --- an independent rounding oracle: math/big's own rounding at the
// precision the binary format has at the value's exponent.

type bfmt struct {
	prec int // significand bits incl. the hidden one
	emin int // exponent of the smallest normal (as 2^emin)
	max  float64
}

var (
	bF32 = bfmt{24, -126, math.MaxFloat32}
	bF64 = bfmt{53, -1022, math.MaxFloat64}
)

var bigModes = map[rnd]big.RoundingMode{rnRN: big.ToNearestEven, rnRZ: big.ToZero, rnRM: big.ToNegativeInf, rnRP: big.ToPositiveInf}

// oracleRound rounds an exact value x (or x plus a positive-magnitude sticky
// residual when inexact) to the format with mode r; it returns float64.
func oracleRound(f bfmt, x *big.Float, inexact bool, r rnd) float64 {
	if x.Sign() == 0 && !inexact {
		return 0
	}
	v := new(big.Float).SetPrec(0).Set(x)
	if inexact {
		// Append a sticky bit far below every bit of interest.
		e := v.MantExp(nil)
		tiny := new(big.Float).SetMantExp(big.NewFloat(1), e-int(v.Prec())-8)
		if v.Signbit() {
			tiny.Neg(tiny)
		}
		v.SetPrec(v.Prec()+16).Add(v, tiny)
	}
	e := v.MantExp(nil) - 1 // v in [2^e, 2^(e+1))
	p := f.prec
	if e < f.emin {
		p = f.prec - (f.emin - e)
	}
	neg := v.Signbit()
	var out float64
	if p <= 0 {
		// Below half the smallest subnormal step (or at most at it).
		step := math.Ldexp(1, f.emin-f.prec+1)
		half := new(big.Float).SetMantExp(big.NewFloat(1), f.emin-f.prec) // step/2, exactly
		av := new(big.Float).Abs(v)
		c := av.Cmp(half)
		up := false
		switch r {
		case rnRN:
			up = c > 0
		case rnRP:
			up = !neg
		case rnRM:
			up = neg
		}
		if up {
			out = step
		}
	} else {
		rv := new(big.Float).SetMode(bigModes[r]).SetPrec(uint(p))
		rv.Set(v)
		out, _ = rv.Float64()
		out = math.Abs(out)
	}
	if out > f.max || math.IsInf(out, 0) {
		out = math.Inf(1)
		switch r {
		case rnRZ:
			out = f.max
		case rnRM:
			if !neg {
				out = f.max
			}
		case rnRP:
			if neg {
				out = f.max
			}
		}
	}
	if neg {
		out = -out
	}
	return out
}

// exactBig computes op on x, y, z exactly (add, sub, mul, fma) or with a
// sticky flag (div, sqrt). ok is false for results that are not finite and
// nonzero (those are checked elsewhere).
func exactBig(op string, x, y, z float64) (v *big.Float, inexact, ok bool) {
	for _, a := range []float64{x, y, z} {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return nil, false, false
		}
	}
	bx := new(big.Float).SetPrec(4400).SetFloat64(x)
	by := new(big.Float).SetPrec(4400).SetFloat64(y)
	bz := new(big.Float).SetPrec(4400).SetFloat64(z)
	r := new(big.Float).SetPrec(4400)
	switch op {
	case "add":
		r.Add(bx, by)
	case "sub":
		r.Sub(bx, by)
	case "mul":
		r.Mul(bx, by)
	case "fma":
		r.Mul(bx, by).Add(r, bz)
	case "div":
		if y == 0 {
			return nil, false, false
		}
		r.SetPrec(300).SetMode(big.ToZero).Quo(bx, by)
		chk := new(big.Float).SetPrec(4400).Mul(r, by)
		inexact = chk.Cmp(bx) != 0
	case "sqrt":
		if x <= 0 {
			return nil, false, false
		}
		// Bisection-free: truncated root via big.Float.Sqrt then exact check.
		r.SetPrec(300).SetMode(big.ToZero).Sqrt(bx)
		sq := new(big.Float).SetPrec(4400).Mul(r, r)
		for sq.Cmp(bx) > 0 { // make r a lower bound
			ulp := new(big.Float).SetMantExp(big.NewFloat(1), r.MantExp(nil)-300)
			r.Sub(r, ulp)
			sq.Mul(r, r)
		}
		inexact = sq.Cmp(bx) != 0
	}
	if r.Sign() == 0 {
		return nil, false, false
	}
	return r, inexact, true
}

// randF32 draws f32 values from all classes, weighted toward edge cases.
func randF32(rng *rand.Rand) float32 {
	switch rng.IntN(8) {
	case 0: // subnormal
		return math.Float32frombits(rng.Uint32()&0x807fffff | 0)
	case 1: // near overflow
		return math.Float32frombits(rng.Uint32()&0x80ffffff | 0x7e000000)
	case 2: // small integers and halves: ties
		return float32(rng.IntN(64)-32) / 2
	case 3: // values with few significant bits
		return math.Float32frombits(rng.Uint32() & 0xfef00000) // exponent never all ones
	}
	for {
		b := rng.Uint32()
		if b&0x7f800000 != 0x7f800000 {
			return math.Float32frombits(b)
		}
	}
}

func TestF32RoundingModesAgainstBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ops := []struct {
		name string
		n    int
	}{{"add", 2}, {"sub", 2}, {"mul", 2}, {"fma", 3}, {"div", 2}, {"sqrt", 1}}
	for _, op := range ops {
		for _, m := range []string{"rn", "rz", "rm", "rp"} {
			name := op.name + "." + m + ".f32"
			o := dec(t, name, op.n)
			checked := 0
			for i := 0; i < 4000; i++ {
				x, y, z := randF32(rng), randF32(rng), randF32(rng)
				if op.name == "sqrt" {
					x = float32(math.Abs(float64(x)))
				}
				if op.name == "fma" && i%2 == 0 {
					z = -x * y // force cancellation (rounded product)
				}
				ex, inexact, ok := exactBig(op.name, float64(x), float64(y), float64(z))
				if !ok {
					continue
				}
				want := float32(oracleRound(bF32, ex, inexact, bigMode(m)))
				src := [4]uint64{f32b(x), f32b(y), f32b(z)}
				got, _ := o.Eval(&src, nil)
				if uint32(got) != math.Float32bits(want) {
					t.Fatalf("%s(%#x, %#x, %#x) = %#x, want %#x", name, f32b(x), f32b(y), f32b(z), got, math.Float32bits(want))
				}
				checked++
			}
			t.Logf("%s: %d cases", name, checked)
			if checked < 1000 {
				t.Errorf("%s: only %d finite cases", name, checked)
			}
		}
	}
}

func bigMode(m string) rnd {
	return map[string]rnd{"rn": rnRN, "rz": rnRZ, "rm": rnRM, "rp": rnRP}[m]
}

func randF64(rng *rand.Rand) float64 {
	switch rng.IntN(6) {
	case 0:
		return math.Float64frombits(rng.Uint64() & 0x800fffffffffffff) // subnormal
	case 1:
		return float64(rng.IntN(64)-32) / 2
	case 2:
		return math.Float64frombits(rng.Uint64()&0x801fffffffffffff | 0x0010000000000000) // tiny normal
	}
	for {
		b := rng.Uint64()
		if b&0x7ff0000000000000 != 0x7ff0000000000000 {
			return math.Float64frombits(b)
		}
	}
}

func TestF64RoundingModesAgainstBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, op := range []struct {
		name string
		n    int
	}{{"add", 2}, {"mul", 2}, {"fma", 3}, {"div", 2}, {"sqrt", 1}} {
		for _, m := range []string{"rn", "rz", "rm", "rp"} {
			name := op.name + "." + m + ".f64"
			o := dec(t, name, op.n)
			for i := 0; i < 600; i++ {
				x, y, z := randF64(rng), randF64(rng), randF64(rng)
				if op.name == "sqrt" {
					x = math.Abs(x)
				}
				if op.name == "mul" && i%3 == 0 { // products near the subnormal range
					y = math.Ldexp(y, -math.Ilogb(y)-math.Ilogb(x)-1030+rng.IntN(60))
				}
				if op.name == "fma" && i%2 == 0 {
					z = -x * y
				}
				ex, inexact, ok := exactBig(op.name, x, y, z)
				if !ok {
					continue
				}
				want := oracleRound(bF64, ex, inexact, bigMode(m))
				src := [4]uint64{math.Float64bits(x), math.Float64bits(y), math.Float64bits(z)}
				got, _ := o.Eval(&src, nil)
				if got != math.Float64bits(want) {
					t.Fatalf("%s(%v, %v, %v) = %#x, want %#x (%v)", name, x, y, z, got, math.Float64bits(want), want)
				}
			}
		}
	}
}

func TestFloatSpecials(t *testing.T) {
	inf := float32(math.Inf(1))
	sub := math.Float32frombits(0x00000005)
	cases := []struct {
		name string
		src  []uint64
		want uint64
	}{
		{"add.rn.f32", []uint64{f32b(inf), f32b(-inf)}, nan32},
		{"add.rn.f32", []uint64{0x7fc00001, f32b(1)}, nan32}, // canonical NaN
		{"mul.rn.f32", []uint64{f32b(0), f32b(inf)}, nan32},
		{"add.rz.f32", []uint64{f32b(1), f32b(-1)}, 0},          // +0
		{"add.rm.f32", []uint64{f32b(1), f32b(-1)}, 0x80000000}, // -0 under rm
		{"add.rn.f32", []uint64{0x80000000, 0x80000000}, 0x80000000},
		{"add.rn.f32", []uint64{f32b(sub), 0}, f32b(sub)}, // subnormals kept
		{"add.rn.ftz.f32", []uint64{f32b(sub), 0}, 0},     // flushed
		{"add.rn.ftz.f32", []uint64{f32b(-sub), 0x80000000}, 0x80000000},
		{"mul.rn.ftz.f32", []uint64{0x00800000, f32b(0.5)}, 0}, // result flushed
		{"mul.rn.f32", []uint64{0x00800000, f32b(0.5)}, 0x00400000},
		{"add.rn.sat.f32", []uint64{f32b(0.75), f32b(0.5)}, f32b(1)},
		{"add.rn.sat.f32", []uint64{f32b(-0.75), f32b(0.5)}, 0},
		{"add.rn.sat.f32", []uint64{0x7fc00000, f32b(0.5)}, 0}, // NaN -> +0
		{"mul.rz.f32", []uint64{f32b(math.MaxFloat32), f32b(2)}, f32b(math.MaxFloat32)},
		{"mul.rp.f32", []uint64{f32b(math.MaxFloat32), f32b(-2)}, f32b(-math.MaxFloat32)},
		{"mul.rm.f32", []uint64{f32b(math.MaxFloat32), f32b(-2)}, f32b(-inf)},
		{"min.f32", []uint64{0x80000000, 0}, 0x80000000},
		{"max.f32", []uint64{0x80000000, 0}, 0},
		{"min.f32", []uint64{0x7fc00000, f32b(3)}, f32b(3)},
		{"min.NaN.f32", []uint64{0x7fc00000, f32b(3)}, nan32},
		{"max.f32", []uint64{0x7fc00000, 0x7fc00000}, nan32},
		{"min.xorsign.abs.f32", []uint64{f32b(-2), f32b(3)}, f32b(-2)},
		{"max.xorsign.abs.f32", []uint64{f32b(-2), f32b(-3)}, f32b(3)},
		{"abs.f32", []uint64{f32b(-2)}, f32b(2)},
		{"min.abs.f32", []uint64{f32b(-2), f32b(3)}, f32b(2)},
		{"min.f32", []uint64{f32b(5), f32b(3), f32b(-1)}, f32b(-1)}, // three inputs
		{"max.abs.f32", []uint64{f32b(5), f32b(3), f32b(-7)}, f32b(7)},
		{"max.NaN.f32", []uint64{f32b(5), f32b(3), 0x7fc00000}, nan32},
		{"max.xorsign.abs.f32", []uint64{0x7fc00000, f32b(-3)}, f32b(-3)}, // the manual: the XOR includes the NaN operand's sign
		{"min.xorsign.abs.f32", []uint64{0x7fc00000, 0xffc00000}, nan32},
		{"neg.ftz.f32", []uint64{f32b(sub)}, 0x80000000},
		{"copysign.f32", []uint64{f32b(-1), f32b(2)}, f32b(-2)},
		{"testp.finite.f32", []uint64{f32b(inf)}, 0},
		{"testp.infinite.f32", []uint64{f32b(-inf)}, 1},
		{"testp.notanumber.f32", []uint64{0x7fc00000}, 1},
		{"testp.number.f32", []uint64{f32b(-inf)}, 1},
		{"testp.normal.f32", []uint64{0}, 1}, // the manual counts zero as normal
		{"testp.subnormal.f32", []uint64{f32b(sub)}, 1},
		{"sqrt.rn.f32", []uint64{0x80000000}, 0x80000000},
		{"sqrt.rn.f32", []uint64{f32b(-1)}, nan32},
		{"div.rn.f32", []uint64{f32b(1), 0x80000000}, f32b(-inf)},
		{"rcp.rn.f32", []uint64{f32b(inf)}, 0},
		{"sqrt.rn.f64", []uint64{math.Float64bits(-1)}, nanGen64},
		{"add.rn.f64", []uint64{0xfff0000000000001, math.Float64bits(1)}, 0xfff8000000000001}, // quieted operand
		{"fma.rn.f64", []uint64{math.Float64bits(1), math.Float64bits(2), 0x7ff0000000000002}, 0x7ff8000000000002},
		{"abs.f64", []uint64{math.Float64bits(-3)}, math.Float64bits(3)},
		{"lg2.approx.f32", []uint64{0}, f32b(-inf)},
		{"ex2.approx.f32", []uint64{f32b(-inf)}, 0},
		{"rsqrt.approx.f32", []uint64{0x80000000}, f32b(-inf)},
		{"sin.approx.f32", []uint64{0x80000000}, 0x80000000},
		{"cos.approx.f32", []uint64{0x80000000}, f32b(1)},
		{"tanh.approx.f32", []uint64{f32b(inf)}, f32b(1)},
		{"div.approx.f32", []uint64{f32b(1), f32b(0x1p127)}, 0}, // the manual's 2^126 < |b| rule
	}
	for _, c := range cases {
		if got := ev(t, c.name, c.src...); got != c.want {
			t.Errorf("%s%x = %#x, want %#x", c.name, c.src, got, c.want)
		}
	}
}

func TestHalfFormats(t *testing.T) {
	h := func(x float64) uint64 { return f64To(&fF16, x, rnRN, false) }
	b := func(x float64) uint64 { return f64To(&fBF16, x, rnRN, false) }
	cases := []struct {
		name string
		src  []uint64
		want uint64
	}{
		{"add.rn.f16", []uint64{h(1), h(0x1p-11)}, h(1)},                    // tie to even
		{"add.rn.f16", []uint64{h(1 + 0x1p-10), h(0x1p-11)}, h(1 + 0x1p-9)}, // tie to even (up)
		{"add.rn.f16", []uint64{h(65504), h(65504)}, 0x7c00},
		{"add.rn.sat.f16", []uint64{h(3), h(-1)}, h(1)},
		{"mul.rn.f16", []uint64{h(0x1p-14), h(0.5)}, 0x0200}, // subnormal result
		{"mul.rn.ftz.f16", []uint64{h(0x1p-14), h(0.5)}, 0},
		{"fma.rn.relu.f16", []uint64{h(2), h(-3), h(1)}, 0},
		{"fma.rn.relu.f16", []uint64{h(2), h(3), h(1)}, h(7)},
		{"fma.rn.f16", []uint64{h(1 + 0x1p-10), h(1 + 0x1p-10), h(-1)}, h(0x1p-9)}, // single rounding
		{"min.f16", []uint64{0x7e00, h(2)}, h(2)},
		{"max.NaN.f16", []uint64{0x7e00, h(2)}, 0x7fff},
		{"neg.f16", []uint64{h(2)}, h(-2)},
		{"abs.bf16", []uint64{b(-2)}, b(2)},
		{"add.rn.bf16", []uint64{b(1), b(0x1p-8)}, b(1)}, // tie to even
		{"add.rn.f16x2", []uint64{h(1)<<16 | h(2), h(3)<<16 | h(4)}, h(4)<<16 | h(6)},
		{"mul.rn.bf16x2", []uint64{b(2)<<16 | b(3), b(5)<<16 | b(-1)}, b(10)<<16 | b(-3)},
		{"ex2.approx.f16", []uint64{h(3)}, h(8)},
	}
	for _, c := range cases {
		if got := ev(t, c.name, c.src...); got != c.want {
			t.Errorf("%s%x = %#x, want %#x", c.name, c.src, got, c.want)
		}
	}
}

func TestIntegerEdgeCases(t *testing.T) {
	const m32 = 0xffffffff
	neg := func(x int64) uint64 { return uint64(x) }
	cases := []struct {
		name string
		src  []uint64
		want uint64
	}{
		{"div.s32", []uint64{0x80000000, m32}, neg(math.MinInt32)}, // INT_MIN / -1 wraps
		{"rem.s32", []uint64{0x80000000, m32}, 0},
		{"div.s64", []uint64{1 << 63, math.MaxUint64}, 1 << 63},
		{"div.s32", []uint64{7, 0}, neg(-1)}, // H200: all ones
		{"rem.u32", []uint64{7, 0}, m32},
		{"div.s32", []uint64{neg(-7), 2}, neg(-3)}, // truncation toward zero
		{"rem.s32", []uint64{neg(-7), 2}, neg(-1)},
		{"shl.b32", []uint64{1, 32}, 0},
		{"shl.b32", []uint64{1, 0xffffffff}, 0},
		{"shl.b32", []uint64{1, 31}, 0x80000000},
		{"shr.s32", []uint64{neg(-8), 40}, neg(-1)},
		{"shr.u32", []uint64{0x80000000, 32}, 0},
		{"shr.b16", []uint64{0x8000, 15}, 1},
		{"shr.s16", []uint64{0x8000, 100}, neg(-1)},
		{"shl.b64", []uint64{1, 64}, 0},
		{"shr.s64", []uint64{1 << 63, 63}, math.MaxUint64},
		{"add.sat.s32", []uint64{0x7fffffff, 1}, 0x7fffffff},
		{"sub.sat.s32", []uint64{0x80000000, 1}, neg(math.MinInt32)},
		{"abs.s32", []uint64{0x80000000}, neg(math.MinInt32)},
		{"neg.s16", []uint64{0x8000}, neg(math.MinInt16)},
		{"min.s32", []uint64{m32, 1}, neg(-1)},
		{"min.u32", []uint64{m32, 1}, 1},
		{"max.relu.s32", []uint64{neg(-5), neg(-3)}, 0},
		{"min.relu.s32", []uint64{7, 3}, 3},
		{"mul.hi.s32", []uint64{0x80000000, 0x80000000}, 0x40000000},
		{"mul.hi.u64", []uint64{math.MaxUint64, math.MaxUint64}, math.MaxUint64 - 1},
		{"mul.hi.s64", []uint64{neg(-1), 5}, math.MaxUint64},
		{"mul.wide.s32", []uint64{m32, m32}, 1},
		{"mul.wide.u32", []uint64{m32, m32}, 0xfffffffe00000001},
		{"mul.wide.s16", []uint64{0x8000, 0x8000}, 0x40000000},
		{"mad.wide.s32", []uint64{m32, 2, neg(-10)}, neg(-12)},
		{"mad.hi.sat.s32", []uint64{0x7fffffff, 0x7fffffff, 0x7fffffff}, 0x7fffffff},
		{"mul24.lo.s32", []uint64{0x00800000, 2}, neg(-0x1000000)}, // 24-bit operands sign-extended
		{"mul24.hi.u32", []uint64{0xffffff, 0xffffff}, 0xfffffe00}, // bits 47..16
		{"sad.u32", []uint64{3, 10, 100}, 107},
		{"sad.s32", []uint64{neg(-3), 10, 100}, 113},
		{"popc.b64", []uint64{math.MaxUint64}, 64},
		{"clz.b32", []uint64{0}, 32},
		{"clz.b64", []uint64{1}, 63},
		{"bfind.u32", []uint64{0}, m32},
		{"bfind.s32", []uint64{m32}, m32},
		{"bfind.s32", []uint64{neg(-2)}, 0},
		{"bfind.shiftamt.u32", []uint64{1}, 31},
		{"brev.b32", []uint64{1}, 0x80000000},
		{"bfe.u32", []uint64{0xf0, 4, 4}, 0xf},
		{"bfe.s32", []uint64{0xf0, 4, 4}, neg(-1)},
		{"bfe.s32", []uint64{0x80000000, 31, 10}, neg(-1)}, // field beyond msb replicates the sign bit
		{"bfe.u32", []uint64{0xabcd, 0, 0}, 0},
		{"bfi.b32", []uint64{0xff, 0, 8, 4}, 0xf00},
		{"bfi.b32", []uint64{0xff, 0, 30, 8}, 0xc0000000},
		{"fns.b32", []uint64{0xaaaaaaaa, 3, 1}, 3}, // the manual's examples
		{"fns.b32", []uint64{0xaaaaaaaa, 3, m32}, 3},
		{"fns.b32", []uint64{0xaaaaaaaa, 2, 1}, 3},
		{"fns.b32", []uint64{0xaaaaaaaa, 2, m32}, 1},
		{"bmsk.wrap.b32", []uint64{1, 2}, 6}, // the manual's example
		{"bmsk.clamp.b32", []uint64{0, 32}, m32},
		{"bmsk.clamp.b32", []uint64{40, 3}, 0},
		{"bmsk.wrap.b32", []uint64{0, 32}, 0}, // width wraps to 0
		{"bmsk.wrap.b32", []uint64{30, 4}, 0xc0000000},
		{"szext.wrap.u32", []uint64{m32, 0}, 0}, // the manual's example
		{"szext.clamp.s32", []uint64{0x80, 8}, neg(-128)},
		{"szext.clamp.u32", []uint64{0x1ff, 8}, 0xff},
		{"szext.clamp.s32", []uint64{0x80000000, 40}, neg(math.MinInt32)},
		{"szext.wrap.s32", []uint64{0x3, 34}, neg(-1)},              // width wraps to 2
		{"add.u16x2", []uint64{0xffff0001, 0x00020003}, 0x00010004}, // each half wraps on its own
		{"sub.s16x2", []uint64{0x00000000, 0x00010001}, 0xffffffff},
		{"min.s16x2", []uint64{0x8000_0005, 0x7fff_fffb}, 0x8000fffb},
		{"max.u16x2", []uint64{0x8000_0005, 0x7fff_fffb}, 0x8000fffb},
		{"max.relu.s16x2", []uint64{0x8000_0005, 0x9000_fffb}, 0x00000005},
		{"cnot.b32", []uint64{0}, 1},
		{"cnot.b32", []uint64{5}, 0},
		{"not.b16", []uint64{0}, 0xffff},
		{"and.pred", []uint64{1, 0}, 0},
		{"xor.pred", []uint64{1, 0}, 1},
		{"shf.l.wrap.b32", []uint64{0x80000000, 1, 33}, 3},
		{"shf.l.clamp.b32", []uint64{0x12345678, 0x9abcdef0, 40}, 0x12345678},
		{"shf.r.clamp.b32", []uint64{0x12345678, 0x9abcdef0, 40}, 0x9abcdef0},
		{"shf.r.wrap.b32", []uint64{0x12345678, 0x9abcdef0, 4}, 0x01234567},
		{"dp4a.s32.s32", []uint64{0xff02_0304, 0x01_01_01_ff, 10}, neg(10 - 1 + 2 + 3 - 4)},
		{"dp4a.u32.u32", []uint64{0xff_00_00_02, 0x02_00_00_03, 1}, 1 + 6 + 510},
		{"dp2a.hi.s32.s32", []uint64{0xffff_0002, 0x03_ff_00_00, 0}, neg(2*-1 - 1*3)},
		{"prmt.b32", []uint64{0x33221100, 0x77665544, 0x7654}, 0x77665544},
		{"prmt.b32", []uint64{0x00000080, 0, 0x8888}, 0xffffffff}, // sign replicate
		{"prmt.b32.ecl", []uint64{0x33221100, 0x77665544, 1}, 0x33221111},
		{"prmt.b32.ecr", []uint64{0x33221100, 0x77665544, 1}, 0x11111100},
		{"prmt.b32.b4e", []uint64{0x33221100, 0x77665544, 0}, 0x55667700},
		{"prmt.b32.rc16", []uint64{0x33221100, 0x77665544, 1}, 0x33223322},
		{"cvt.s8.s32", []uint64{0x1ff}, neg(-1)},
		{"cvt.u8.s32", []uint64{0x1ff}, 0xff},
		{"cvt.sat.u8.s32", []uint64{neg(-1)}, 0},
		{"cvt.sat.s8.s32", []uint64{300}, 127},
		{"cvt.sat.s32.u32", []uint64{m32}, 0x7fffffff},
		{"cvt.sat.u32.s64", []uint64{neg(-5)}, 0},
		{"cvt.sat.u16.u64", []uint64{1 << 40}, 0xffff},
		{"cvt.s64.s32", []uint64{m32}, math.MaxUint64},
		{"cvt.u64.u32", []uint64{m32}, m32},
		{"selp.b32", []uint64{1, 2, 0}, 2},
		{"selp.s32", []uint64{m32, 2, 1}, neg(-1)}, // signed results are sign-extended
		{"selp.u16", []uint64{0x1ffff, 2, 1}, 0xffff},
		{"mov.s16", []uint64{0x8000}, neg(math.MinInt16)},
		{"slct.s32.s32", []uint64{1, 2, neg(-1)}, 2},
		{"slct.f32.f32", []uint64{1, 2, 0x80000000}, 1}, // -0 >= 0
	}
	for _, c := range cases {
		if got := ev(t, c.name, c.src...); got != c.want {
			t.Errorf("%s%x = %#x, want %#x", c.name, c.src, got, c.want)
		}
	}
}

func TestCarryChains(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	addLo, addHi := dec(t, "add.cc.u32", 2), dec(t, "addc.u32", 2)
	subLo, subHi := dec(t, "sub.cc.u32", 2), dec(t, "subc.u32", 2)
	madLo, madHi := dec(t, "mad.lo.cc.u32", 3), dec(t, "madc.hi.u32", 3)
	add64 := dec(t, "add.cc.u64", 2)
	for i := 0; i < 2000; i++ {
		x, y := rng.Uint64(), rng.Uint64()
		if i%4 == 0 {
			x |= 0xffffffff
		}
		var cc uint8
		lo, _ := addLo.Eval(&[4]uint64{x & 0xffffffff, y & 0xffffffff}, &cc)
		hi, _ := addHi.Eval(&[4]uint64{x >> 32, y >> 32}, &cc)
		if got, want := hi<<32|lo, x+y; got != want {
			t.Fatalf("add.cc/addc %#x+%#x = %#x want %#x", x, y, got, want)
		}
		cc = 0
		lo, _ = subLo.Eval(&[4]uint64{x & 0xffffffff, y & 0xffffffff}, &cc)
		hi, _ = subHi.Eval(&[4]uint64{x >> 32, y >> 32}, &cc)
		if got, want := hi<<32|lo, x-y; got != want {
			t.Fatalf("sub.cc/subc %#x-%#x = %#x want %#x", x, y, got, want)
		}
		a, b, c := uint32(x), uint32(y), uint32(x>>32)
		cc = 0
		lo, _ = madLo.Eval(&[4]uint64{uint64(a), uint64(b), uint64(c)}, &cc)
		hi, _ = madHi.Eval(&[4]uint64{uint64(a), uint64(b), uint64(c)}, &cc)
		p := uint64(a)*uint64(b) + uint64(c) // lo half plus c, carry into the hi half plus c
		wantHi := uint32(p>>32) + c
		if uint32(lo) != uint32(p) || uint32(hi) != wantHi {
			t.Fatalf("mad.lo.cc/madc.hi(%#x,%#x,%#x) = %#x,%#x want %#x,%#x", a, b, c, lo, hi, uint32(p), wantHi)
		}
		cc = 0
		add64.Eval(&[4]uint64{x, y}, &cc)
		_, co := bits.Add64(x, y, 0)
		if uint64(cc) != co {
			t.Fatalf("add.cc.u64 carry %d want %d", cc, co)
		}
	}
}

func TestMulHiAgainstBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	o := dec(t, "mul.hi.s64", 2)
	for i := 0; i < 3000; i++ {
		x, y := int64(rng.Uint64()), int64(rng.Uint64())
		if i%5 == 0 {
			x = math.MinInt64
		}
		p := new(big.Int).Mul(big.NewInt(x), big.NewInt(y))
		p.Rsh(p, 64) // floor division: arithmetic shift
		got, _ := o.Eval(&[4]uint64{uint64(x), uint64(y)}, nil)
		if int64(got) != p.Int64() {
			t.Fatalf("mul.hi.s64(%d,%d) = %d want %d", x, y, int64(got), p.Int64())
		}
	}
}

func TestLop3AllTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for lut := 0; lut < 256; lut++ {
		in := mk("lop3.b32", 3)
		in.Args = append(in.Args, ptx.Operand{Kind: ptx.OpImm, Imm: int64(lut)})
		o, err := Decode(in)
		if err != nil {
			t.Fatal(err)
		}
		a, b, c := rng.Uint32(), rng.Uint32(), rng.Uint32()
		got, _ := o.Eval(&[4]uint64{uint64(a), uint64(b), uint64(c)}, nil)
		var want uint32
		for bit := 0; bit < 32; bit++ {
			idx := (a>>bit&1)<<2 | (b>>bit&1)<<1 | c>>bit&1 // F(a,b,c) = LUT[a b c]
			want |= (uint32(lut) >> idx & 1) << bit
		}
		if uint32(got) != want {
			t.Fatalf("lop3 %#x: got %#x want %#x", lut, got, want)
		}
	}
}

func TestSetpComparisons(t *testing.T) {
	nan := uint64(0x7fc00000)
	one, two := f32b(1), f32b(2)
	cases := []struct {
		name string
		a, b uint64
		want uint64
	}{
		{"setp.lt.f32", nan, one, 0}, {"setp.ltu.f32", nan, one, 1}, {"setp.ne.f32", nan, one, 0},
		{"setp.neu.f32", nan, one, 1}, {"setp.equ.f32", one, one, 1}, {"setp.eq.f32", 0x80000000, 0, 1},
		{"setp.num.f32", one, nan, 0}, {"setp.nan.f32", one, nan, 1}, {"setp.geu.f32", one, two, 0},
		{"setp.gt.f32", two, one, 1}, {"setp.lt.s32", 0xffffffff, 1, 1}, {"setp.lo.u32", 0xffffffff, 1, 0},
		{"setp.hs.u32", 0xffffffff, 1, 1}, {"setp.lt.u32", 0xffffffff, 1, 0}, {"setp.le.s16", 0x8000, 0x7fff, 1},
		{"setp.eq.ftz.f32", 1, 0, 1}, {"setp.eq.f32", 1, 0, 0}, {"setp.lt.f16", 0xbc00, 0x3c00, 1},
	}
	for _, c := range cases {
		if got := ev(t, c.name, c.a, c.b); got != c.want {
			t.Errorf("%s(%#x,%#x) = %d want %d", c.name, c.a, c.b, got, c.want)
		}
	}
	// p|q with a combining predicate.
	in := mk("setp.lt.and.s32", 3)
	in.Args[0] = ptx.Operand{Kind: ptx.OpPair, Elems: []ptx.Operand{{Kind: ptx.OpReg, Name: "%p"}, {Kind: ptx.OpReg, Name: "%q"}}}
	o, err := Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	if o.NumDst() != 2 || o.NumSrc() != 3 || o.SrcArg(2) != 3 {
		t.Fatalf("setp p|q: NumDst %d NumSrc %d SrcArg(2) %d", o.NumDst(), o.NumSrc(), o.SrcArg(2))
	}
	for _, c := range []struct{ a, b, c, p, q uint64 }{{1, 2, 1, 1, 0}, {3, 2, 1, 0, 1}, {1, 2, 0, 0, 0}} {
		p, q := o.Eval(&[4]uint64{c.a, c.b, c.c}, nil)
		if p != c.p || q != c.q {
			t.Errorf("setp.lt.and(%d,%d,%d) = %d|%d want %d|%d", c.a, c.b, c.c, p, q, c.p, c.q)
		}
	}
	if got := ev(t, "set.lt.u32.s32", 0xffffffff, 0); got != 0xffffffff {
		t.Errorf("set.lt.u32.s32 = %#x", got)
	}
	if got := ev(t, "set.lt.f32.f32", one, two); got != one {
		t.Errorf("set.lt.f32.f32 = %#x", got)
	}
	if got := ev(t, "set.gt.s32.u32", 1, 2); got != 0 {
		t.Errorf("set.gt.s32.u32 = %#x", got)
	}
}

func TestCvt(t *testing.T) {
	inf := math.Inf(1)
	h := func(x float64) uint64 { return f64To(&fF16, x, rnRN, false) }
	d := math.Float64bits
	neg := func(x int64) uint64 { return uint64(x) }
	cases := []struct {
		name string
		src  []uint64
		want uint64
	}{
		{"cvt.rni.s32.f32", []uint64{f32b(2.5)}, 2},
		{"cvt.rni.s32.f32", []uint64{f32b(3.5)}, 4},
		{"cvt.rni.s32.f32", []uint64{f32b(-2.5)}, neg(-2)},
		{"cvt.rzi.s32.f32", []uint64{f32b(-2.7)}, neg(-2)},
		{"cvt.rmi.s32.f32", []uint64{f32b(-2.2)}, neg(-3)},
		{"cvt.rpi.s32.f32", []uint64{f32b(2.2)}, 3},
		{"cvt.rzi.s32.f32", []uint64{f32b(3e9)}, 0x7fffffff}, // saturation
		{"cvt.rzi.s32.f32", []uint64{f32b(-3e9)}, neg(math.MinInt32)},
		{"cvt.rzi.u32.f32", []uint64{f32b(-1)}, 0},
		{"cvt.rzi.u8.f32", []uint64{f32b(300)}, 255},
		{"cvt.rzi.s32.f32", []uint64{0x7fc00000}, 0},
		{"cvt.rzi.s64.f32", []uint64{0x7fc00000}, 1 << 63},
		{"cvt.rzi.u64.f64", []uint64{d(1e30)}, math.MaxUint64},
		{"cvt.rzi.s64.f64", []uint64{d(-inf)}, 1 << 63},
		{"cvt.rn.f32.s32", []uint64{0x7fffffff}, f32b(0x1p31)},
		{"cvt.rz.f32.s32", []uint64{0x7fffffff}, f32b(0x1p31 - 128)},
		{"cvt.rm.f32.s32", []uint64{neg(-0x7fffffff)}, f32b(-0x1p31)},
		{"cvt.rn.f32.u64", []uint64{math.MaxUint64}, f32b(0x1p64)},
		{"cvt.rn.f64.s64", []uint64{neg(math.MinInt64)}, d(-0x1p63)},
		{"cvt.rn.f16.f32", []uint64{f32b(1 + 0x1p-11)}, h(1)},           // tie to even
		{"cvt.rp.f16.f32", []uint64{f32b(1 + 0x1p-20)}, h(1 + 0x1p-10)}, // directed
		{"cvt.rn.f16.f32", []uint64{f32b(70000)}, 0x7c00},               // overflow to Inf
		{"cvt.rz.f16.f32", []uint64{f32b(70000)}, 0x7bff},               // to max
		{"cvt.rn.satfinite.f16.f32", []uint64{f32b(70000)}, 0x7bff},
		{"cvt.rn.relu.f16.f32", []uint64{f32b(-3)}, 0},
		{"cvt.rn.f16.f32", []uint64{f32b(0x1p-25)}, 0},   // tie below the smallest subnormal -> even (0)
		{"cvt.rn.f16.f32", []uint64{f32b(0x1.8p-25)}, 1}, // above the tie
		{"cvt.f32.f16", []uint64{1}, f32b(0x1p-24)},
		{"cvt.rn.bf16.f32", []uint64{0x3f808000}, 0x3f80}, // tie to even
		{"cvt.rn.bf16.f32", []uint64{0x3f818000}, 0x3f82},
		{"cvt.rz.f32.f64", []uint64{d(1 + 0x1p-30)}, f32b(1)},
		{"cvt.rp.f32.f64", []uint64{d(1 + 0x1p-30)}, f32b(1 + 0x1p-23)},
		{"cvt.rn.f32.f64", []uint64{d(1e-50)}, 0},
		{"cvt.rp.f32.f64", []uint64{d(1e-50)}, 1},
		{"cvt.rn.ftz.f32.f64", []uint64{d(1e-40)}, 0},
		{"cvt.rn.sat.f32.f64", []uint64{d(7)}, f32b(1)},
		{"cvt.sat.f32.f32", []uint64{f32b(-7)}, 0},
		{"cvt.rni.f32.f32", []uint64{f32b(2.5)}, f32b(2)},
		{"cvt.rmi.f64.f64", []uint64{d(-0.5)}, d(-1)},
		{"cvt.rzi.f64.f64", []uint64{d(-0.5)}, 0x8000000000000000},
		{"cvt.f64.f32", []uint64{0x00000001}, d(0x1p-149)},
		{"cvt.ftz.f64.f32", []uint64{0x00000001}, 0},
		{"cvt.rna.tf32.f32", []uint64{0x3f801000}, 0x3f802000}, // tie away from zero
		{"cvt.rn.f16x2.f32", []uint64{f32b(1), f32b(2)}, h(1)<<16 | h(2)},
		{"cvt.rn.satfinite.e4m3x2.f32", []uint64{f32b(1), f32b(1000)}, 0x38<<8 | 0x7e},
		{"cvt.rn.satfinite.e5m2x2.f32", []uint64{f32b(-2), f32b(1e6)}, 0xc0<<8 | 0x7b},
		{"cvt.rn.satfinite.e4m3x2.f32", []uint64{0x7fc00000, f32b(-1e9)}, 0x7f<<8 | 0xfe}, // NaN stays NaN, -MAX_NORM
		{"cvt.rn.satfinite.relu.e4m3x2.f32", []uint64{f32b(-3), f32b(0.5)}, 0x00<<8 | 0x30},
		{"cvt.rn.satfinite.e4m3x2.f16x2", []uint64{h(2)<<16 | h(0x1p-9)}, 0x40<<8 | 0x01}, // smallest e4m3 subnormal
		{"cvt.rn.satfinite.e5m2x2.bf16x2", []uint64{0x3f80<<16 | 0xc000}, 0x3c<<8 | 0xc0},
		{"cvt.rn.f16x2.e4m3x2", []uint64{0x38<<8 | 0xfe}, h(1)<<16 | h(-448)},
		{"cvt.rn.f16x2.e5m2x2", []uint64{0x7c<<8 | 0x01}, 0x7c00<<16 | h(0x1p-16)},
		{"cvt.rz.satfinite.tf32.f32", []uint64{0x3f801fff}, 0x3f800000},
		{"cvt.rn.f32.f16", []uint64{0x7c00}, f32b(float32(inf))},
		{"cvt.rzi.s8.bf16", []uint64{0xc300}, neg(-128)}, // -128 fits
		{"cvt.rzi.s8.bf16", []uint64{0xc310}, neg(-128)}, // -144 saturates
		{"cvt.rn.bf16.u64", []uint64{math.MaxUint64}, 0x5f80},
		{"cvt.pack.sat.u8.s32.b32", []uint64{300, neg(-5), 0x1234}, 0x1234<<16 | 0xff<<8 | 0x00},
		{"cvt.pack.sat.s16.s32", []uint64{neg(-40000), 7}, 0x8000<<16 | 7},
	}
	for _, c := range cases {
		if got := ev(t, c.name, c.src...); got != c.want {
			t.Errorf("%s%x = %#x, want %#x", c.name, c.src, got, c.want)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct {
		in      *ptx.Inst
		notAr   bool
		mention string
	}{
		{mk("ld.global.f32", 1), true, "ld"},
		{mk("shfl.sync.down.b32", 3), true, "shfl"},
		{&ptx.Inst{Op: "mov", Mods: []string{"u32"}, Args: []ptx.Operand{{Kind: ptx.OpReg, Name: "%r"}, {Kind: ptx.OpSpecial, Name: "%tid", Comp: "x"}}}, true, "special"},
		{&ptx.Inst{Op: "mov", Mods: []string{"u64"}, Args: []ptx.Operand{{Kind: ptx.OpReg, Name: "%r"}, {Kind: ptx.OpSym, Name: "buf"}}}, true, "symbol"},
		{mk("frobnicate.u32", 2), false, "frobnicate"},
		{mk("add.foo.f32", 2), false, ".foo"},
		{mk("add.f32", 3), false, "operands"},
		{mk("mul.u32", 2), false, ".lo"},
		{mk("div.f32", 2), false, "div"},
		{mk("sin.f32", 1), false, "sin"},
		{mk("add.rs.f32", 2), false, "stochastic"},
		{mk("cvt.f32.f16x2", 1), false, "cvt"},
	} {
		_, err := Decode(c.in)
		if err == nil {
			t.Errorf("Decode(%s %v): no error", c.in.Op, c.in.Mods)
			continue
		}
		if errors.Is(err, ErrNotArith) != c.notAr || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("Decode(%s %v) = %v; want ErrNotArith=%v mentioning %q", c.in.Op, c.in.Mods, err, c.notAr, c.mention)
		}
	}
}

func TestImmediates(t *testing.T) {
	in := mk("add.f32", 2)
	in.Args[2] = ptx.Operand{Kind: ptx.OpFloat, Bits: math.Float64bits(0.1), FloatBits: 64}
	o, err := Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := o.Const(1); !ok || v != f32b(0.1) {
		t.Errorf("Const(1) = %#x,%v want %#x", v, ok, f32b(0.1))
	}
	if _, ok := o.Const(0); ok {
		t.Errorf("Const(0) reported an immediate")
	}
	in = mk("add.s16", 2)
	in.Args[2] = ptx.Operand{Kind: ptx.OpImm, Imm: -1}
	o, err = Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := o.Const(1); v != 0xffff {
		t.Errorf("s16 immediate -1 = %#x want 0xffff", v)
	}
	in = mk("mov.f64", 1)
	in.Args[1] = ptx.Operand{Kind: ptx.OpFloat, Bits: uint64(math.Float32bits(1.5)), FloatBits: 32}
	o, err = Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := o.Const(0); v != math.Float64bits(1.5) {
		t.Errorf("mov.f64 0f immediate = %#x", v)
	}
	var s [4]uint64
	s[0], _ = o.Const(0)
	if d, _ := o.Eval(&s, nil); d != math.Float64bits(1.5) {
		t.Errorf("mov.f64 = %#x", d)
	}
}

func TestFastPathsMatchGeneral(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	names := []struct {
		name string
		n    int
	}{{"add.s32", 2}, {"add.u32", 2}, {"sub.s32", 2}, {"add.s64", 2}, {"sub.u64", 2}, {"mad.lo.s32", 3}, {"mad.lo.u32", 3},
		{"mul.lo.s32", 2}, {"mul.wide.u32", 2}, {"mul.wide.s32", 2}, {"shl.b32", 2}, {"shr.u32", 2}, {"shr.b32", 2},
		{"and.b32", 2}, {"or.b64", 2}, {"xor.pred", 2}, {"add.f32", 2}, {"add.rn.f32", 2}, {"mul.rn.f32", 2},
		{"fma.rn.f32", 3}, {"selp.b32", 3}, {"selp.f64", 3}, {"setp.lt.s32", 2}, {"setp.ge.u32", 2}, {"setp.hi.u32", 2},
		{"setp.ne.b32", 2}, {"setp.lt.f32", 2}, {"mov.b32", 1}, {"mov.f64", 1}}
	for _, c := range names {
		o := dec(t, c.name, c.n)
		if o.fast == fastNone {
			t.Errorf("%s: no fast path", c.name)
			continue
		}
		slow := *o
		slow.fast = fastNone
		for i := 0; i < 20000; i++ {
			var s [4]uint64
			for k := range s {
				switch rng.IntN(4) {
				case 0:
					s[k] = uint64(math.Float32bits(randF32(rng)))
				case 1:
					s[k] = uint64(rng.IntN(70))
				default:
					s[k] = rng.Uint64()
				}
			}
			if c.name == "fma.rn.f32" && i%3 == 0 { // exact f32 midpoints and cancellations
				x, y := randF32(rng), randF32(rng)
				s[0], s[1] = uint64(math.Float32bits(x)), uint64(math.Float32bits(y))
				s[2] = uint64(math.Float32bits(-x * y))
			}
			f0, f1 := o.Eval(&s, nil)
			g0, g1 := slow.Eval(&s, nil)
			if f0 != g0 || (o.NumDst() == 2 && f1 != g1) {
				t.Fatalf("%s%x: fast %#x, general %#x", c.name, s, f0, g0)
			}
		}
	}
}

func TestPackedCompareAndApproxF64(t *testing.T) {
	h := func(x float64) uint64 { return f64To(&fF16, x, rnRN, false) }
	in := mk("setp.lt.f16x2", 2)
	in.Args[0] = ptx.Operand{Kind: ptx.OpPair, Elems: []ptx.Operand{{Kind: ptx.OpReg, Name: "%p"}, {Kind: ptx.OpReg, Name: "%q"}}}
	o, err := Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	p, q := o.Eval(&[4]uint64{h(1)<<16 | h(3), h(2)<<16 | h(2)}, nil)
	if p != 0 || q != 1 {
		t.Errorf("setp.lt.f16x2 = %d|%d want 0|1", p, q)
	}
	if got := ev(t, "set.lt.f16x2.f16x2", h(1)<<16|h(3), h(2)<<16|h(2)); got != 0x3c00<<16 {
		t.Errorf("set.lt.f16x2.f16x2 = %#x", got)
	}
	if got := ev(t, "set.gt.u32.f16x2", h(1)<<16|h(3), h(2)<<16|h(2)); got != 0xffff {
		t.Errorf("set.gt.u32.f16x2 = %#x", got)
	}
	if got := ev(t, "rcp.approx.ftz.f64", math.Float64bits(4)); got != math.Float64bits(0.25) {
		t.Errorf("rcp.approx.ftz.f64(4) = %#x", got)
	}
	if got := ev(t, "rsqrt.approx.ftz.f64", math.Float64bits(-0x1p-1030)); got != math.Float64bits(math.Inf(-1)) {
		t.Errorf("rsqrt.approx.ftz.f64(-subnormal) = %#x", got)
	}
	if got := ev(t, "rsqrt.approx.ftz.f64", 0x7ff8000000000000); got != 0x7fffffff00000000 {
		t.Errorf("rsqrt.approx.ftz.f64(NaN) = %#x", got)
	}
	if got := ev(t, "rcp.approx.ftz.f64", math.Float64bits(3)); got&0xffffffff != 0 {
		t.Errorf("rcp.approx.ftz.f64(3) low word %#x", got&0xffffffff)
	}
}

var (
	bF16  = bfmt{11, -14, 65504}
	bBF16 = bfmt{8, -126, 0x1.fep127}
)

// bitsOf encodes an oracle float64 result (exactly representable) in format f.
func bitsOf(f *fmtSpec, x float64) uint64 {
	if f == &fF32 {
		return uint64(math.Float32bits(float32(x)))
	}
	if f == &fF64 {
		return math.Float64bits(x)
	}
	return f64To(f, x, rnRZ, false) // exact values: the mode does not matter
}

func TestNarrowFormatsAgainstBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	modes := []string{"rn", "rz", "rm", "rp"}
	// Half-precision arithmetic (rn is the only rounding the ISA defines; all
	// modes are exercised since the code path is shared).
	for _, tc := range []struct {
		typ string
		f   *fmtSpec
		b   bfmt
	}{{"f16", &fF16, bF16}, {"bf16", &fBF16, bBF16}} {
		for _, op := range []struct {
			name string
			n    int
		}{{"add", 2}, {"sub", 2}, {"mul", 2}, {"fma", 3}} {
			for _, m := range modes {
				name := op.name + "." + m + "." + tc.typ
				o := dec(t, name, op.n)
				for i := 0; i < 3000; i++ {
					var s [4]uint64
					var v [3]float64
					for k := 0; k < 3; k++ {
						s[k] = rng.Uint64() & 0xffff
						if rng.IntN(3) == 0 {
							s[k] &= 0x83ff // subnormals and small values
						}
						v[k] = decodeSmall(tc.f, s[k])
					}
					ex, inexact, ok := exactBig(op.name, v[0], v[1], v[2])
					if !ok {
						continue
					}
					want := bitsOf(tc.f, oracleRound(tc.b, ex, inexact, bigMode(m)))
					if got, _ := o.Eval(&s, nil); got != want {
						t.Fatalf("%s(%#x,%#x,%#x) = %#x want %#x", name, s[0], s[1], s[2], got, want)
					}
				}
			}
		}
	}
	// Conversions: f32 -> f16/bf16, f64 -> f32, s64/u64 -> f32/f64.
	for _, m := range modes {
		for _, tc := range []struct {
			name string
			dst  *fmtSpec
			b    bfmt
			src  func() (uint64, float64, *big.Float)
		}{
			{"cvt." + m + ".f16.f32", &fF16, bF16, func() (uint64, float64, *big.Float) {
				x := randF32(rng) * float32(math.Ldexp(1, -rng.IntN(40)))
				return uint64(math.Float32bits(x)), float64(x), new(big.Float).SetFloat64(float64(x))
			}},
			{"cvt." + m + ".bf16.f32", &fBF16, bBF16, func() (uint64, float64, *big.Float) {
				x := randF32(rng)
				return uint64(math.Float32bits(x)), float64(x), new(big.Float).SetFloat64(float64(x))
			}},
			{"cvt." + m + ".f32.f64", &fF32, bF32, func() (uint64, float64, *big.Float) {
				x := math.Ldexp(rng.Float64()+0.5, rng.IntN(320)-170)
				if rng.IntN(2) == 0 {
					x = -x
				}
				return math.Float64bits(x), x, new(big.Float).SetFloat64(x)
			}},
			{"cvt." + m + ".f32.s64", &fF32, bF32, func() (uint64, float64, *big.Float) {
				x := int64(rng.Uint64()) >> uint(rng.IntN(63))
				return uint64(x), 1, new(big.Float).SetInt64(x)
			}},
			{"cvt." + m + ".f64.u64", &fF64, bF64, func() (uint64, float64, *big.Float) {
				x := rng.Uint64() >> uint(rng.IntN(63))
				return x, 1, new(big.Float).SetUint64(x)
			}},
		} {
			o := dec(t, tc.name, 1)
			for i := 0; i < 3000; i++ {
				bitsIn, fv, exact := tc.src()
				if fv == 0 || exact.Sign() == 0 {
					continue
				}
				want := bitsOf(tc.dst, oracleRound(tc.b, exact, false, bigMode(m)))
				if got, _ := o.Eval(&[4]uint64{bitsIn}, nil); got != want {
					t.Fatalf("%s(%#x) = %#x want %#x", tc.name, bitsIn, got, want)
				}
			}
		}
	}
}
