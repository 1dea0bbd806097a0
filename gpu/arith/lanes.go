package arith

import (
	"math"
	"math/bits"
)

// EvalLanes evaluates every lane set in mask: src[i][l] is source i of lane l, cc[l] the lane's carry flag (nil when the op has no .cc), and results go to d0[l] and d1[l] (d1 may be nil unless NumDst is 2); it equals calling Eval per lane.
func (o *Op) EvalLanes(mask uint32, src *[4][32]uint64, cc *[32]uint8, d0, d1 *[32]uint64) {
	if mask == 0xffffffff {
		switch o.fast {
		case fastAddF32:
			for l := 0; l < 32; l++ {
				b := math.Float32bits(math.Float32frombits(uint32(src[0][l])) + math.Float32frombits(uint32(src[1][l])))
				if b&0x7fffffff > 0x7f800000 {
					b = nan32
				}
				d0[l] = uint64(b)
			}
			return
		case fastMulF32:
			for l := 0; l < 32; l++ {
				b := math.Float32bits(math.Float32frombits(uint32(src[0][l])) * math.Float32frombits(uint32(src[1][l])))
				if b&0x7fffffff > 0x7f800000 {
					b = nan32
				}
				d0[l] = uint64(b)
			}
			return
		case fastAdd64:
			for l := 0; l < 32; l++ {
				d0[l] = src[0][l] + src[1][l]
			}
			return
		case fastMulWideU32:
			for l := 0; l < 32; l++ {
				d0[l] = (src[0][l] & 0xffffffff) * (src[1][l] & 0xffffffff)
			}
			return
		}
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		s := [4]uint64{src[0][l], src[1][l], src[2][l], src[3][l]}
		var c *uint8
		if cc != nil {
			c = &cc[l]
		}
		a, b := o.Eval(&s, c)
		d0[l] = a
		if d1 != nil {
			d1[l] = b
		}
	}
}
