package arith

import (
	"math"
	"math/big"
)

// exactPrec holds any sum of two float64 products exactly.
const exactPrec = 4400

// bigOp64 computes an f64 operation with a directed (or any) rounding mode by
// exact arithmetic in math/big followed by one rounding to binary64.
func bigOp64(k kind, x, y, z float64, r rnd) uint64 {
	if r == rnNone {
		r = rnRN
	}
	// Specials and exact zeros are exact in native arithmetic.
	switch k {
	case kFAdd, kFSub:
		if k == kFSub {
			y = -y
		}
		s := x + y
		if math.IsNaN(s) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			return canon64(s)
		}
		if x == -y {
			return math.Float64bits(zeroSum(x, y, r))
		}
		var bx, by, sum big.Float
		bx.SetPrec(exactPrec).SetFloat64(x)
		by.SetPrec(exactPrec).SetFloat64(y)
		sum.SetPrec(exactPrec).Add(&bx, &by)
		return roundBig(&fF64, &sum, 0, r, false)
	case kFMul:
		p := x * y
		if math.IsNaN(p) || math.IsInf(x, 0) || math.IsInf(y, 0) || x == 0 || y == 0 {
			return canon64(p)
		}
		var bx, by, prod big.Float
		bx.SetPrec(exactPrec).SetFloat64(x)
		by.SetPrec(exactPrec).SetFloat64(y)
		prod.SetPrec(exactPrec).Mul(&bx, &by)
		return roundBig(&fF64, &prod, 0, r, false)
	case kFFma:
		if math.IsNaN(x) || math.IsNaN(y) || math.IsNaN(z) || math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsInf(z, 0) {
			return canon64(math.FMA(x, y, z))
		}
		var bx, by, bz, acc big.Float
		bx.SetPrec(exactPrec).SetFloat64(x)
		by.SetPrec(exactPrec).SetFloat64(y)
		bz.SetPrec(exactPrec).SetFloat64(z)
		acc.SetPrec(exactPrec).Mul(&bx, &by)
		pzero := acc.Sign() == 0
		acc.Add(&acc, &bz)
		if acc.Sign() == 0 {
			p := x * y
			if pzero {
				return math.Float64bits(zeroSum(p, z, r))
			}
			return math.Float64bits(zeroSum(1, -1, r))
		}
		return roundBig(&fF64, &acc, 0, r, false)
	case kFDiv, kFRcp:
		if k == kFRcp {
			x, y = 1, x
		}
		q := x / y
		if math.IsNaN(q) || math.IsInf(x, 0) || math.IsInf(y, 0) || x == 0 || y == 0 {
			return canon64(q)
		}
		var bx, by, bq, chk big.Float
		bx.SetPrec(exactPrec).SetFloat64(x)
		by.SetPrec(exactPrec).SetFloat64(y)
		bq.SetPrec(160).SetMode(big.ToZero).Quo(&bx, &by)
		chk.SetPrec(exactPrec).Mul(&bq, &by)
		sticky := 0
		if chk.Cmp(&bx) != 0 {
			sticky = 1
		}
		return roundBig(&fF64, &bq, sticky, r, false)
	case kFSqrt:
		s := math.Sqrt(x)
		if math.IsNaN(s) || math.IsInf(x, 0) || x == 0 {
			return canon64(s)
		}
		var bx, bs, sq, ulp big.Float
		bx.SetPrec(exactPrec).SetFloat64(x)
		bs.SetPrec(160).SetMode(big.ToZero).Sqrt(&bx)
		// Make bs the truncation of the true root: bs² <= x < (bs+ulp)².
		mexp := bs.MantExp(nil)
		ulp.SetPrec(160).SetMantExp(big.NewFloat(1), mexp-160)
		for i := 0; i < 4; i++ {
			sq.SetPrec(exactPrec).Mul(&bs, &bs)
			if sq.Cmp(&bx) <= 0 {
				break
			}
			bs.Sub(&bs, &ulp)
		}
		for i := 0; i < 4; i++ {
			var nx big.Float
			nx.SetPrec(160).Add(&bs, &ulp)
			sq.SetPrec(exactPrec).Mul(&nx, &nx)
			if sq.Cmp(&bx) > 0 {
				break
			}
			bs.Set(&nx)
		}
		sq.SetPrec(exactPrec).Mul(&bs, &bs)
		sticky := 0
		if sq.Cmp(&bx) != 0 {
			sticky = 1
		}
		return roundBig(&fF64, &bs, sticky, r, false)
	}
	return fF64.nan
}

// canon64 returns the bits of x with NaN made canonical.
func canon64(x float64) uint64 {
	if math.IsNaN(x) {
		return fF64.nan
	}
	return math.Float64bits(x)
}
