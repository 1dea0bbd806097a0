package arith

import (
	"math"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

var fuzzOps = []string{"mov", "add", "sub", "mul", "mad", "fma", "div", "rem", "abs", "neg", "min", "max", "addc", "subc",
	"madc", "mul24", "mad24", "sad", "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh", "copysign", "testp",
	"popc", "clz", "bfind", "fns", "brev", "bfe", "bfi", "prmt", "dp4a", "dp2a", "shl", "shr", "shf", "and", "or",
	"xor", "not", "cnot", "lop3", "bmsk", "szext", "setp", "set", "selp", "slct", "cvt", "ld", "bra", "frob"}

var fuzzMods = []string{"rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi", "ftz", "sat", "satfinite", "relu",
	"NaN", "xorsign", "abs", "approx", "full", "cc", "lo", "hi", "wide", "shiftamt", "l", "r", "wrap", "clamp",
	"eq", "ne", "lt", "le", "gt", "ge", "ls", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
	"and", "or", "xor", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16", "finite", "infinite", "number", "notanumber",
	"normal", "subnormal", "pack", "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
	"f16", "f16x2", "bf16", "bf16x2", "tf32", "f32", "f64", "pred", "e4m3x2", "e5m2x2", "b128", "u16x2", "s16x2", "bogus"}

var fuzzKinds = []ptx.OperandKind{ptx.OpReg, ptx.OpReg, ptx.OpImm, ptx.OpFloat, ptx.OpPair, ptx.OpSpecial, ptx.OpSym, ptx.OpVec, ptx.OpSink, ptx.OpNone}

// FuzzDecodeEval builds instructions from the fuzzer's bytes and checks that
// Decode and Eval never panic.
func FuzzDecodeEval(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8}, uint64(1), uint64(2), uint64(3))
	f.Add([]byte{10, 0, 70, 3, 0, 0, 0, 0}, uint64(0x7fc00000), uint64(0), uint64(math.MaxUint64))
	f.Add([]byte{51, 2, 70, 78, 3, 0, 2, 0, 0}, uint64(0x80000000), uint64(0xffffffff), uint64(5))
	f.Fuzz(func(t *testing.T, b []byte, x, y, z uint64) {
		if len(b) < 2 {
			return
		}
		in := &ptx.Inst{Op: fuzzOps[int(b[0])%len(fuzzOps)]}
		nm := int(b[1]) % 5
		i := 2
		for ; i < len(b) && nm > 0; i, nm = i+1, nm-1 {
			in.Mods = append(in.Mods, fuzzMods[int(b[i])%len(fuzzMods)])
		}
		for ; i < len(b) && len(in.Args) < 7; i++ {
			k := fuzzKinds[int(b[i])%len(fuzzKinds)]
			op := ptx.Operand{Kind: k, Name: "%r", Imm: int64(x), Bits: y, FloatBits: 32 << (b[i] & 1), Neg: b[i]&64 != 0, Not: b[i]&128 != 0}
			if k == ptx.OpPair {
				op.Elems = []ptx.Operand{{Kind: ptx.OpReg, Name: "%p"}, {Kind: ptx.OpReg, Name: "%q"}}
			}
			in.Args = append(in.Args, op)
		}
		o, err := Decode(in)
		if err != nil {
			return
		}
		var src [4]uint64
		vals := [4]uint64{x, y, z, x ^ y}
		for k := 0; k < o.NumSrc(); k++ {
			if c, ok := o.Const(k); ok {
				src[k] = c
			} else {
				src[k] = vals[k]
			}
			if a := o.SrcArg(k); a < 0 || a >= len(in.Args) {
				t.Fatalf("%v: SrcArg(%d) = %d out of range", o, k, a)
			}
		}
		var cc uint8
		o.Eval(&src, &cc)
		o.Eval(&src, nil)
	})
}

func BenchmarkEvalAddF32(b *testing.B) {
	o := dec(b, "add.f32", 2)
	src := [4]uint64{f32b(1.5), f32b(2.25)}
	var sink uint64
	for b.Loop() {
		d, _ := o.Eval(&src, nil)
		sink += d
		src[0] = d & 0x3fffffff
	}
	_ = sink
}

func BenchmarkEvalFmaRnF32(b *testing.B) {
	o := dec(b, "fma.rn.f32", 3)
	src := [4]uint64{f32b(1.5), f32b(2.25), f32b(-0.125)}
	var sink uint64
	for b.Loop() {
		d, _ := o.Eval(&src, nil)
		sink += d
		src[2] = d & 0x3fffffff
	}
	_ = sink
}

func BenchmarkEvalMadLoS32(b *testing.B) {
	o := dec(b, "mad.lo.s32", 3)
	src := [4]uint64{3, 5, 7}
	for b.Loop() {
		d, _ := o.Eval(&src, nil)
		src[2] = d
	}
}

func TestEvalLanesMatchesEval(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
	}{{"add.f32", 2}, {"mul.rn.f32", 2}, {"add.s64", 2}, {"mul.wide.u32", 2}, {"fma.rn.f32", 3}, {"add.cc.u32", 2}, {"setp.lt.s32", 2}} {
		o := dec(t, c.name, c.n)
		var src [4][32]uint64
		for i := range src {
			for l := range src[i] {
				src[i][l] = uint64(l*0x9e3779b9+i*0x7f4a7c15) * 0x2545F4914F6CDD1D
			}
		}
		src[0][3] = 0x7fc00000
		for _, mask := range []uint32{0xffffffff, 0x0f0f00f1, 0} {
			var d0, d1 [32]uint64
			var cc [32]uint8
			o.EvalLanes(mask, &src, &cc, &d0, &d1)
			for l := 0; l < 32; l++ {
				if mask>>l&1 == 0 {
					if d0[l] != 0 {
						t.Errorf("%s: inactive lane %d written", c.name, l)
					}
					continue
				}
				var ccl uint8
				s := [4]uint64{src[0][l], src[1][l], src[2][l], src[3][l]}
				w0, w1 := o.Eval(&s, &ccl)
				if d0[l] != w0 || (o.NumDst() == 2 && d1[l] != w1) || cc[l] != ccl {
					t.Errorf("%s lane %d: EvalLanes %#x,%#x cc %d; Eval %#x,%#x cc %d", c.name, l, d0[l], d1[l], cc[l], w0, w1, ccl)
				}
			}
		}
	}
}

func BenchmarkEvalLanesAddF32(b *testing.B) {
	o := dec(b, "add.f32", 2)
	var src [4][32]uint64
	for l := range src[0] {
		src[0][l], src[1][l] = f32b(float32(l)), f32b(1.5)
	}
	var d0 [32]uint64
	for b.Loop() {
		o.EvalLanes(0xffffffff, &src, nil, &d0, nil)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/32, "ns/lane")
}
