package toolchain

// High-precision references (math/big) for the special functions of
// prelude/kernelscope_libdevice.h, and the polynomial fits their coefficients come
// from. KS_MATHFIT=1 go test -run TestPrintFits ./gpu/toolchain prints the fits again.

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"strings"
	"testing"
)

const bigPrec = 400

func bf(v float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(v) }

func bnew() *big.Float { return new(big.Float).SetPrec(bigPrec) }

func f64(x *big.Float) float64 { v, _ := x.Float64(); return v }

var bigK = newConsts()

// bigExp is e^x.
func bigExp(x *big.Float) *big.Float {
	if x.Sign() == 0 {
		return bf(1)
	}
	q := bnew().Quo(x, bigK.ln2)
	kf, _ := q.Float64()
	k := math.Round(kf)
	r := bnew().Sub(x, bnew().Mul(bf(k), bigK.ln2))
	r.SetMantExp(r, -10)
	sum, term := bf(1), bf(1)
	for n := 1; n < 200; n++ {
		term.Mul(term, r)
		term.Quo(term, bf(float64(n)))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -bigPrec-8 {
			break
		}
	}
	for i := 0; i < 10; i++ {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}

// bigLog is ln x for x > 0.
func bigLog(x *big.Float) *big.Float {
	m := bnew()
	e := x.MantExp(m) // x = m * 2^e, m in [0.5, 1)
	s := bnew().Quo(bnew().Sub(m, bf(1)), bnew().Add(m, bf(1)))
	s2 := bnew().Mul(s, s)
	sum, term := bnew().Set(s), bnew().Set(s)
	for k := 1; k < 2000; k++ {
		term.Mul(term, s2)
		d := bnew().Quo(term, bf(float64(2*k+1)))
		sum.Add(sum, d)
		if d.Sign() == 0 || d.MantExp(nil)-sum.MantExp(nil) < -bigPrec-8 {
			break
		}
	}
	sum.Mul(sum, bf(2))
	return sum.Add(sum, bnew().Mul(bf(float64(e)), bigK.ln2))
}

// bigErfB is erf x, summed at the precision the cancellation needs (|x| <= 30).
func bigErfB(x *big.Float, prec uint) *big.Float {
	xf := math.Abs(f64(x))
	prec += uint(3*xf*xf) + 16
	nf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	bx := new(big.Float).SetPrec(prec).Set(x)
	x2 := new(big.Float).SetPrec(prec).Mul(bx, bx)
	term := new(big.Float).SetPrec(prec).Set(bx) // (-1)^n x^(2n+1)/n!
	sum := new(big.Float).SetPrec(prec).Set(bx)
	for n := 1; n < 100000; n++ {
		term.Mul(term, x2)
		term.Quo(term, nf(float64(-n)))
		d := new(big.Float).SetPrec(prec).Quo(term, nf(float64(2*n+1)))
		sum.Add(sum, d)
		if d.Sign() == 0 || (float64(n) > xf*xf && d.MantExp(nil) < -int(prec)-8) {
			break
		}
	}
	pi := new(big.Float).SetPrec(prec).Set(bigK.pi)
	sum.Mul(sum, nf(2))
	return sum.Quo(sum, new(big.Float).SetPrec(prec).Sqrt(pi))
}

func bigErf(x float64) *big.Float {
	return new(big.Float).SetPrec(bigPrec).Set(bigErfB(bf(x), bigPrec))
}

// bigErfcB is erfc x = 1 - erf x.
func bigErfcB(x *big.Float) *big.Float {
	e := bigErfB(x, bigPrec)
	return new(big.Float).SetPrec(bigPrec).Sub(new(big.Float).SetPrec(e.Prec()).SetFloat64(1), e)
}

func bigErfc(x float64) *big.Float { return bigErfcB(bf(x)) }

// bigErfcxB is e^(x^2) erfc x.
func bigErfcxB(x *big.Float) *big.Float {
	return bnew().Mul(bigErfcB(x), bigExp(bnew().Mul(x, x)))
}

func bigErfcx(x float64) *big.Float { return bigErfcxB(bf(x)) }

// xErfcxOfW is x e^(x^2) erfc x as a function of w = 1/x^2.
func xErfcxOfW(w float64) *big.Float {
	x := bnew().Quo(bf(1), bnew().Sqrt(bf(w)))
	return bnew().Mul(x, bigErfcxB(x))
}

// bernoulli returns B_0 ... B_n (Akiyama-Tanigawa).
func bernoulli(n int) []*big.Rat {
	a := make([]*big.Rat, n+1)
	out := make([]*big.Rat, n+1)
	for m := 0; m <= n; m++ {
		a[m] = big.NewRat(1, int64(m+1))
		for j := m; j >= 1; j-- {
			d := new(big.Rat).Sub(a[j-1], a[j])
			a[j-1] = d.Mul(d, big.NewRat(int64(j), 1))
		}
		out[m] = new(big.Rat).Set(a[0])
	}
	out[1] = big.NewRat(-1, 2)
	return out
}

var bernoulliNumbers = bernoulli(60)

// bigLgamma is ln|Gamma(x)| for x > 0: Stirling's series at x+N >= 40, shifted back.
func bigLgamma(x *big.Float) *big.Float {
	z := bnew().Set(x)
	prod := bf(1)
	for z.Cmp(bf(40)) < 0 {
		prod.Mul(prod, z)
		z.Add(z, bf(1))
	}
	s := bnew().Mul(bnew().Sub(z, bf(0.5)), bigLog(z))
	s.Sub(s, z)
	twoPi := bnew().Mul(bf(2), bigK.pi)
	s.Add(s, bnew().Mul(bf(0.5), bigLog(twoPi)))
	zp := bnew().Set(z) // z^(2k-1)
	z2 := bnew().Mul(z, z)
	for k := 1; k <= 28; k++ {
		b := new(big.Float).SetPrec(bigPrec).SetRat(bernoulliNumbers[2*k])
		d := bnew().Mul(bf(float64(2*k*(2*k-1))), zp)
		s.Add(s, bnew().Quo(b, d))
		zp.Mul(zp, z2)
	}
	return s.Sub(s, bigLog(prod))
}

// bigAtan is atan x (two argument halvings, then the series).
func bigAtan(x *big.Float) *big.Float {
	y := bnew().Set(x)
	for i := 0; i < 3; i++ {
		r := bnew().Sqrt(bnew().Add(bf(1), bnew().Mul(y, y)))
		y.Quo(y, r.Add(r, bf(1)))
	}
	y2 := bnew().Mul(y, y)
	sum, term := bnew().Set(y), bnew().Set(y)
	for k := 1; k < 1000; k++ {
		term.Mul(term, y2)
		term.Neg(term)
		d := bnew().Quo(term, bf(float64(2*k+1)))
		sum.Add(sum, d)
		if d.Sign() == 0 || d.MantExp(nil)-sum.MantExp(nil) < -bigPrec-8 {
			break
		}
	}
	return sum.Mul(sum, bf(8))
}

// split2 rounds a big value to a double-double hi + lo.
func split2(x *big.Float) (float64, float64) {
	h := f64(x)
	return h, f64(bnew().Sub(x, bf(h)))
}

// fit interpolates f at Chebyshev nodes of [a, b] by sum c_k v^(p+k*step), v = x - c,
// k < n, and returns the coefficients rounded to double and the largest relative
// error of the rounded polynomial (evaluated exactly) on a grid.
func fit(f func(x float64) *big.Float, a, b, c float64, n, p, step int) ([]float64, float64) {
	const prec = 600
	nf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	xs := make([]float64, n)
	rows := make([][]*big.Float, n)
	for j := 0; j < n; j++ {
		t := math.Cos(math.Pi * (float64(j) + 0.5) / float64(n))
		xs[j] = (a+b)/2 + (b-a)/2*t
		v := nf(xs[j] - c)
		row := make([]*big.Float, n+1)
		pw := new(big.Float).SetPrec(prec).SetFloat64(1)
		for i := 0; i < p; i++ {
			pw.Mul(pw, v)
		}
		vs := new(big.Float).SetPrec(prec).SetFloat64(1)
		for i := 0; i < step; i++ {
			vs.Mul(vs, v)
		}
		for k := 0; k < n; k++ {
			row[k] = new(big.Float).SetPrec(prec).Set(pw)
			pw.Mul(pw, vs)
		}
		row[n] = new(big.Float).SetPrec(prec).Set(f(xs[j]))
		rows[j] = row
	}
	// Gaussian elimination with partial pivoting.
	for col := 0; col < n; col++ {
		piv := col
		for r := col + 1; r < n; r++ {
			if new(big.Float).Abs(rows[r][col]).Cmp(new(big.Float).Abs(rows[piv][col])) > 0 {
				piv = r
			}
		}
		rows[col], rows[piv] = rows[piv], rows[col]
		for r := 0; r < n; r++ {
			if r == col || rows[r][col].Sign() == 0 {
				continue
			}
			m := new(big.Float).SetPrec(prec).Quo(rows[r][col], rows[col][col])
			for k := col; k <= n; k++ {
				rows[r][k].Sub(rows[r][k], new(big.Float).SetPrec(prec).Mul(m, rows[col][k]))
			}
		}
	}
	coef := make([]float64, n)
	for k := 0; k < n; k++ {
		coef[k], _ = new(big.Float).SetPrec(prec).Quo(rows[k][n], rows[k][k]).Float64()
	}
	worst := 0.0
	for i := 0; i <= 400; i++ {
		x := a + (b-a)*float64(i)/400
		v := nf(x - c)
		pw := new(big.Float).SetPrec(prec).SetFloat64(1)
		for j := 0; j < p; j++ {
			pw.Mul(pw, v)
		}
		vs := new(big.Float).SetPrec(prec).SetFloat64(1)
		for j := 0; j < step; j++ {
			vs.Mul(vs, v)
		}
		sum := new(big.Float).SetPrec(prec)
		for k := 0; k < n; k++ {
			sum.Add(sum, new(big.Float).SetPrec(prec).Mul(nf(coef[k]), pw))
			pw.Mul(pw, vs)
		}
		ref := f(x)
		if ref.Sign() == 0 {
			continue
		}
		d := new(big.Float).SetPrec(prec).Sub(sum, ref)
		d.Quo(d, ref)
		if e := math.Abs(f64(d)); e > worst {
			worst = e
		}
	}
	return coef, worst
}

// fitSpec names one fit whose coefficients the C code and its Go replay use.
type fitSpec struct {
	name          string
	f             func(float64) *big.Float
	a, b, c       float64
	n, p, step    int
	wantRelErrMax float64
}

var fitSpecs = []fitSpec{
	{"erf [0,1]: erf(x) = x*P(x^2)", bigErf, 0, 1, 0, 16, 1, 2, 0x1p-56},
	{"erfcx [0.5,1]", bigErfcx, 0.5, 1, 0.75, 18, 0, 1, 0x1p-56},
	{"erfcx [1,2]", bigErfcx, 1, 2, 1.5, 21, 0, 1, 0x1p-56},
	{"erfcx [2,4]", bigErfcx, 2, 4, 3, 24, 0, 1, 0x1p-56},
	{"x*erfcx(x) in w=1/x^2 [4,8]", xErfcxOfW, 1.0 / 64, 1.0 / 16, 0.0390625, 18, 0, 1, 0x1p-56},
	{"x*erfcx(x) in w=1/x^2 [8,28]", xErfcxOfW, 1.0 / 784, 1.0 / 64, 0.0087890625, 16, 0, 1, 0x1p-56},
	{"lgamma(x)/(x-1) [0.5,1.5]", func(x float64) *big.Float {
		d := bf(x - 1)
		if x == 1 {
			d.SetMantExp(bf(1), -100)
		}
		return bnew().Quo(bigLgamma(bnew().Add(bf(1), d)), d)
	}, 0.5, 1.5, 1, 30, 0, 1, 0x1p-56},
	{"lgamma(x)/(x-2) [1.5,3]", func(x float64) *big.Float {
		d := bf(x - 2)
		if x == 2 {
			d.SetMantExp(bf(1), -100)
		}
		return bnew().Quo(bigLgamma(bnew().Add(bf(2), d)), d)
	}, 1.5, 3, 2.25, 26, 0, 1, 0x1p-56},
}

func TestPrintFits(t *testing.T) {
	if os.Getenv("KS_MATHFIT") == "" {
		t.Skip("set KS_MATHFIT=1 to print the polynomial fits")
	}
	for _, s := range fitSpecs {
		if os.Getenv("KS_MATHFIT") != "1" && !strings.Contains(s.name, os.Getenv("KS_MATHFIT")) {
			continue
		}
		c, e := fit(s.f, s.a, s.b, s.c, s.n, s.p, s.step)
		var b strings.Builder
		for i := len(c) - 1; i >= 0; i-- {
			fmt.Fprintf(&b, "%v, ", c[i])
		}
		t.Logf("%s: n=%d rel err %.3g (2^%.1f)\n{%s}", s.name, s.n, e, math.Log2(e), b.String())
	}
	sqrtPi := bnew().Sqrt(bigK.pi)
	for _, c := range []struct {
		name string
		v    *big.Float
	}{
		{"pi", bigK.pi}, {"pi/2", bnew().Quo(bigK.pi, bf(2))}, {"2/sqrt(pi)", bnew().Quo(bf(2), sqrtPi)},
		{"1/sqrt(2)", bnew().Sqrt(bf(0.5))}, {"sqrt(pi)/2", bnew().Quo(sqrtPi, bf(2))}, {"1/sqrt(pi)", bnew().Quo(bf(1), sqrtPi)},
		{"sqrt(2)", bnew().Sqrt(bf(2))}, {"log(2pi)/2", bnew().Mul(bf(0.5), bigLog(bnew().Mul(bf(2), bigK.pi)))},
	} {
		h, l := split2(c.v)
		t.Logf("%s = %v + %v", c.name, h, l)
	}
	for k := 1; k <= 8; k++ {
		h, l := split2(bigAtan(bf(float64(k) / 8)))
		t.Logf("atan(%d/8) = %v + %v", k, h, l)
	}
}
