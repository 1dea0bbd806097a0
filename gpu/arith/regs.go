package arith

import (
	"math"
	"math/bits"
)

// EvalRegs evaluates every lane set in exec with sources s0, s1, s2 (a lane's raw bits, as a warp's register file holds them) and writes d0&dm to dst; it equals calling Eval per lane with cc[l] (a lane whose fast path does not apply goes through Eval).
func (o *Op) EvalRegs(exec uint32, s0, s1, s2 *[32]uint64, cc *[32]uint8, dst *[32]uint64, dm uint64) {
	const m32 = 0xffffffff
	switch o.fast {
	case fastFmaF32:
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			x := float64(math.Float32frombits(uint32(s0[l])))
			y := float64(math.Float32frombits(uint32(s1[l])))
			z := float64(math.Float32frombits(uint32(s2[l])))
			hi := math.FMA(x, y, z) // x*y is exact: only an f32 midpoint can double-round
			if ah := math.Abs(hi); ah >= 0x1p-126 && ah <= math.MaxFloat32 && math.Float64bits(hi)&0x1fffffff != 0x10000000 {
				dst[l] = uint64(math.Float32bits(float32(hi))) & dm
				continue
			}
			s := [4]uint64{s0[l], s1[l], s2[l]}
			a, _ := o.Eval(&s, &cc[l])
			dst[l] = a & dm
		}
	case fastAddF32:
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			b := math.Float32bits(math.Float32frombits(uint32(s0[l])) + math.Float32frombits(uint32(s1[l])))
			if b&0x7fffffff > 0x7f800000 {
				b = nan32
			}
			dst[l] = uint64(b) & dm
		}
	case fastMulF32:
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			b := math.Float32bits(math.Float32frombits(uint32(s0[l])) * math.Float32frombits(uint32(s1[l])))
			if b&0x7fffffff > 0x7f800000 {
				b = nan32
			}
			dst[l] = uint64(b) & dm
		}
	case fastAdd32:
		t := o.t
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			dst[l] = out(t, s0[l]+s1[l]) & dm
		}
	case fastSub32:
		t := o.t
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			dst[l] = out(t, s0[l]-s1[l]) & dm
		}
	case fastAdd64:
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			dst[l] = (s0[l] + s1[l]) & dm
		}
	case fastSub64:
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			dst[l] = (s0[l] - s1[l]) & dm
		}
	case fastMadLo32:
		t := o.t
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			dst[l] = out(t, s0[l]*s1[l]+s2[l]) & dm
		}
	case fastMulLo32:
		t := o.t
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			dst[l] = out(t, s0[l]*s1[l]) & dm
		}
	case fastMulWideU32:
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			dst[l] = (s0[l] & m32) * (s1[l] & m32) & dm
		}
	case fastMulWideS32:
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			dst[l] = uint64(int64(int32(s0[l]))*int64(int32(s1[l]))) & dm
		}
	case fastShl32:
		t := o.t
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			var v uint64
			if n := s1[l] & m32; n < 32 {
				v = out(t, s0[l]<<n)
			}
			dst[l] = v & dm
		}
	case fastShrU32:
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			var v uint64
			if n := s1[l] & m32; n < 32 {
				v = (s0[l] & m32) >> n
			}
			dst[l] = v & dm
		}
	case fastAnd:
		mk := mask(width(o.t)) & dm
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			dst[l] = s0[l] & s1[l] & mk
		}
	case fastOr:
		mk := mask(width(o.t)) & dm
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			dst[l] = (s0[l] | s1[l]) & mk
		}
	case fastXor:
		mk := mask(width(o.t)) & dm
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			dst[l] = (s0[l] ^ s1[l]) & mk
		}
	case fastMov:
		t := o.t
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			dst[l] = out(t, s0[l]) & dm
		}
	default:
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & 31
			s := [4]uint64{s0[l], s1[l], s2[l]}
			a, _ := o.Eval(&s, &cc[l])
			dst[l] = a & dm
		}
	}
}
