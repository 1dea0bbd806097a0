package arith

import (
	"math"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// ordered32 maps f32 bits to integers whose order is the float order.
func ordered32(x uint32) int64 {
	if x&sgn32 != 0 {
		return -int64(x &^ sgn32)
	}
	return int64(x)
}

// ulps32 is the distance in units in the last place between two f32 values.
func ulps32(a, b uint32) int64 {
	d := ordered32(a) - ordered32(b)
	if d < 0 {
		d = -d
	}
	return d
}

// rowInput returns raw input k of row i.
func rowInput(l *lane, v isaVariant, k, i int) uint64 {
	ty, _ := ptx.TypeByName(v.Srcs[k])
	sz := ty.Size()
	var x uint64
	for j := 0; j < sz && i*sz+j < len(l.inputs[k]); j++ {
		x |= uint64(l.inputs[k][i*sz+j]) << (8 * j)
	}
	return x
}

// relOK reports whether got is within relative error rel of the exact value,
// treating NaN, infinities and zeros as exact-match cases.
func relOK(got, exact float64, rel float64) bool {
	switch {
	case math.IsNaN(exact):
		return math.IsNaN(got)
	case math.IsInf(exact, 0) || exact == 0:
		return got == exact
	}
	return math.Abs(got-exact) <= rel*math.Abs(exact)
}

// withinBound checks an approximate result against the error bound the PTX
// manual states for the instruction (section 9.7.3 and 9.7.4):
// div.approx.f32 2 ulp for |b| in [2^-126, 2^126] (0 or NaN outside),
// div.full.f32 2 ulp, sqrt.approx.f32 relative 2^-23, rsqrt.approx.f32
// relative 2^-22.9 (applied to f64 as well, where the manual gives none),
// sin/cos.approx absolute 2^-20.5 in [-2pi, 2pi] and 2^-14.7 in
// [-100pi, 100pi] (best effort beyond), lg2.approx absolute 2^-22 in
// (0.5, 2) else relative 2^-22, ex2.approx.f32 2 ulp, ex2.approx.f16
// relative 2^-9.9 per half. Values the manual lists in its special-case
// tables (NaN, Inf, zeros) must match exactly.
func withinBound(v isaVariant, l *lane, i int, got, want uint64) bool {
	name := v.Name
	a := rowInput(l, v, 0, i)
	ftz := strings.Contains(name, ".ftz")
	f32in := func(x uint64) float64 {
		b := uint32(x)
		if ftz {
			b = ftz32(b)
		}
		return float64(math.Float32frombits(b))
	}
	g32 := float64(math.Float32frombits(uint32(got)))
	flushOK := func(exact float64) bool { // ftz: results below the normal range may be zero
		return ftz && math.Abs(exact) < 0x1p-126 && g32 == 0
	}
	switch {
	case strings.HasPrefix(name, "div.approx"), strings.HasPrefix(name, "div.full"):
		x, y := f32in(a), f32in(rowInput(l, v, 1, i))
		exact := x / y
		if strings.HasPrefix(name, "div.approx") && (math.Abs(y) > 0x1p126 || math.Abs(y) < 0x1p-126) {
			return math.IsNaN(exact) == math.IsNaN(g32) && (g32 == 0 || math.IsNaN(g32) || math.IsInf(g32, 0) || relOK(g32, exact, 0x1p-21))
		}
		if math.IsNaN(exact) || math.IsInf(exact, 0) || exact == 0 {
			return math.IsNaN(g32) == math.IsNaN(exact) && (math.IsNaN(exact) || g32 == exact)
		}
		if flushOK(exact) {
			return true
		}
		return ulps32(uint32(got), math.Float32bits(float32(exact))) <= 2
	case strings.HasPrefix(name, "sqrt.approx"):
		exact := math.Sqrt(f32in(a))
		return flushOK(exact) || relOK(g32, exact, 0x1p-23)
	case strings.HasPrefix(name, "rsqrt.approx.f64"):
		x := math.Float64frombits(a)
		return relOK(math.Float64frombits(got), 1/math.Sqrt(x), math.Exp2(-22.9))
	case strings.HasPrefix(name, "rsqrt.approx"):
		exact := 1 / math.Sqrt(f32in(a))
		return flushOK(exact) || relOK(g32, exact, math.Exp2(-22.9))
	case strings.HasPrefix(name, "sin.approx"), strings.HasPrefix(name, "cos.approx"):
		x := f32in(a)
		exact := math.Sin(x)
		if strings.HasPrefix(name, "cos") {
			exact = math.Cos(x)
		}
		if math.IsNaN(exact) || math.IsNaN(g32) {
			return math.IsNaN(exact) && math.IsNaN(g32)
		}
		if flushOK(exact) {
			return true
		}
		switch ax := math.Abs(x); {
		case ax <= 2*math.Pi:
			return math.Abs(g32-exact) <= math.Exp2(-20.5)
		case ax <= 100*math.Pi:
			return math.Abs(g32-exact) <= math.Exp2(-14.7)
		}
		return math.Abs(g32) <= 1
	case strings.HasPrefix(name, "lg2.approx"):
		x := f32in(a)
		exact := math.Log2(x)
		if x < 0 {
			exact = math.NaN()
		}
		if x > 0.5 && x < 2 {
			return math.Abs(g32-exact) <= 0x1p-22
		}
		return relOK(g32, exact, 0x1p-22)
	case strings.HasPrefix(name, "ex2.approx.f16"):
		for sh := uint(0); sh < 32; sh += 16 {
			if v.Srcs[0] == "f16" && sh > 0 {
				break
			}
			x := decodeSmall(&fF16, a>>sh&0xffff)
			g := decodeSmall(&fF16, got>>sh&0xffff)
			exact := math.Exp2(x)
			r := decodeSmall(&fF16, f64To(&fF16, exact, rnRN, false)) // overflow to Inf, NaN
			switch {
			case math.IsNaN(r) || math.IsInf(r, 0):
				if math.IsNaN(g) != math.IsNaN(r) || (!math.IsNaN(r) && g != r) {
					return false
				}
			case exact < 0x1p-14: // subnormal f16 results: one subnormal step
				if math.Abs(g-exact) > 0x1p-24 {
					return false
				}
			case !relOK(g, exact, math.Exp2(-9.9)):
				return false
			}
		}
		return true
	case strings.HasPrefix(name, "ex2.approx"):
		exact := math.Exp2(f32in(a))
		if math.IsInf(exact, 0) || exact == 0 {
			return g32 == exact || (exact == 0 && g32 == 0)
		}
		if flushOK(exact) {
			return true
		}
		return ulps32(uint32(got), math.Float32bits(float32(exact))) <= 2
	}
	return false
}
