package arith

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestEvalRegsMatchesEval checks the warp-wide EvalRegs against Eval lane by
// lane, for every op with a fast path and a few without (carry, setp, cvt),
// on random bits, floats with special values and exact fma midpoints, under
// several execution masks and destination masks.
func TestEvalRegsMatchesEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, c := range []struct {
		name string
		n    int
	}{{"add.s32", 2}, {"add.u32", 2}, {"sub.s32", 2}, {"add.s64", 2}, {"sub.u64", 2}, {"mad.lo.s32", 3}, {"mad.lo.u32", 3},
		{"mul.lo.s32", 2}, {"mul.wide.u32", 2}, {"mul.wide.s32", 2}, {"shl.b32", 2}, {"shr.u32", 2}, {"shr.b32", 2},
		{"and.b32", 2}, {"or.b64", 2}, {"xor.pred", 2}, {"xor.b16", 2}, {"add.f32", 2}, {"add.rn.f32", 2}, {"mul.rn.f32", 2},
		{"fma.rn.f32", 3}, {"selp.b32", 3}, {"setp.lt.s32", 2}, {"setp.lt.f32", 2}, {"mov.b32", 1}, {"mov.s16", 1},
		{"add.cc.u32", 2}, {"addc.u32", 2}, {"cvt.rn.f32.s32", 1}, {"max.f32", 2}} {
		o := dec(t, c.name, c.n)
		for round := 0; round < 300; round++ {
			var src [3][32]uint64
			for i := range src {
				for l := range src[i] {
					switch rng.IntN(5) {
					case 0, 1:
						src[i][l] = uint64(math.Float32bits(randF32(rng)))
					case 2:
						src[i][l] = uint64(rng.IntN(70))
					default:
						src[i][l] = rng.Uint64()
					}
				}
			}
			if c.name == "fma.rn.f32" {
				for l := 0; l < 32; l += 3 { // exact f32 midpoints and cancellations
					x, y := randF32(rng), randF32(rng)
					src[0][l], src[1][l], src[2][l] = uint64(math.Float32bits(x)), uint64(math.Float32bits(y)), uint64(math.Float32bits(-x*y))
				}
			}
			exec := []uint32{0xffffffff, rng.Uint32(), 1 << 31, 0}[round%4]
			dm := []uint64{math.MaxUint64, 0xffffffff, 0xffff}[round%3]
			var cc, want [32]uint8
			for l := range cc {
				cc[l] = uint8(rng.IntN(2))
			}
			want = cc
			dst := [32]uint64{}
			for l := range dst {
				dst[l] = 0x5a5a
			}
			o.EvalRegs(exec, &src[0], &src[1], &src[2], &cc, &dst, dm)
			for l := 0; l < 32; l++ {
				if exec>>l&1 == 0 {
					if dst[l] != 0x5a5a || cc[l] != want[l] {
						t.Fatalf("%s: inactive lane %d written", c.name, l)
					}
					continue
				}
				s := [4]uint64{src[0][l], src[1][l], src[2][l]}
				w0, _ := o.Eval(&s, &want[l])
				if dst[l] != w0&dm || cc[l] != want[l] {
					t.Fatalf("%s%x lane %d: EvalRegs %#x cc %d; Eval %#x cc %d", c.name, s, l, dst[l], cc[l], w0&dm, want[l])
				}
			}
		}
	}
}
