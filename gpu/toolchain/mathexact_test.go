package toolchain_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/launch"
)

const exactMathSrc = `
__global__ void exactf(const float *x, const float *y, float *o, int *q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = x[i], b = y[i];
  int e, qq;
  float ip;
  o[8 * i + 0] = fmodf(a, b);
  o[8 * i + 1] = remainderf(a, b);
  o[8 * i + 2] = remquof(a, b, &qq);
  o[8 * i + 3] = frexpf(a, &e);
  o[8 * i + 4] = modff(a, &ip);
  o[8 * i + 5] = ip;
  o[8 * i + 6] = logbf(a);
  o[8 * i + 7] = nextafterf(a, b);
  q[4 * i] = qq; q[4 * i + 1] = e; q[4 * i + 2] = ilogbf(a); q[4 * i + 3] = 0;
}
__global__ void exactd(const double *x, const double *y, double *o, int *q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double a = x[i], b = y[i];
  int e, qq;
  double ip;
  o[8 * i + 0] = fmod(a, b);
  o[8 * i + 1] = remainder(a, b);
  o[8 * i + 2] = remquo(a, b, &qq);
  o[8 * i + 3] = frexp(a, &e);
  o[8 * i + 4] = modf(a, &ip);
  o[8 * i + 5] = ip;
  o[8 * i + 6] = logb(a);
  o[8 * i + 7] = nextafter(a, b);
  q[4 * i] = qq; q[4 * i + 1] = e; q[4 * i + 2] = ilogb(a); q[4 * i + 3] = 0;
}
`

// exactInputs are pairs of any magnitude and sign, subnormals, zeros, infinities and
// NaN included, and pairs of nearby magnitudes where remainder's ties occur.
func exactInputs(n int, double bool) (xs, ys []float64) {
	r := rand.New(rand.NewPCG(7, 8))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, 3, 2.5, 0.5}
	any := func() float64 {
		if double {
			return math.Float64frombits(r.Uint64())
		}
		return float64(math.Float32frombits(r.Uint32()))
	}
	for i := 0; i < n; i++ {
		x, y := any(), any()
		switch i % 4 {
		case 1: // nearby exponents
			y = x * (0.01 + 100*r.Float64())
			if !double {
				y = float64(float32(y))
			}
		case 2: // small integers and halves: ties of remainder
			x, y = float64(r.IntN(200)-100)/2, float64(r.IntN(20)-10)/2
		case 3:
			if i < 4*len(special) {
				x, y = special[i/4%len(special)], special[(i/4+3)%len(special)]
			}
		}
		xs, ys = append(xs, x), append(ys, y)
	}
	return xs, ys
}

// remquoBits is the sign of x/y and the low 3 bits of round-half-even(x/y), exactly.
func remquoBits(x, y, rem float64) int {
	if math.IsNaN(rem) || math.IsInf(y, 0) {
		return 0
	}
	n := new(big.Rat).Quo(new(big.Rat).Sub(new(big.Rat).SetFloat64(x), new(big.Rat).SetFloat64(rem)), new(big.Rat).SetFloat64(y))
	q := new(big.Int).Abs(n.Num())
	v := int(new(big.Int).And(q, big.NewInt(7)).Int64())
	if math.Signbit(x) != math.Signbit(y) {
		v = -v
	}
	return v
}

func sameFloat(a, b float64) bool {
	return a == b && math.Signbit(a) == math.Signbit(b) || math.IsNaN(a) && math.IsNaN(b)
}

// TestExactMathFunctions: fmod, remainder, remquo, frexp, modf, logb, ilogb and
// nextafter (float and double), simulated, equal to Go's exact results.
func TestExactMathFunctions(t *testing.T) {
	const n = 512
	for _, double := range []bool{false, true} {
		xs, ys := exactInputs(n, double)
		elem, kernel := "f32", "exactf"
		if double {
			elem, kernel = "f64", "exactd"
		}
		xb, yb := make([]byte, 0), make([]byte, 0)
		for i := range xs {
			if double {
				xb = appendU64(xb, math.Float64bits(xs[i]))
				yb = appendU64(yb, math.Float64bits(ys[i]))
			} else {
				xb = appendU32(xb, math.Float32bits(float32(xs[i])))
				yb = appendU32(yb, math.Float32bits(float32(ys[i])))
			}
		}
		dir := t.TempDir()
		writeFile(t, dir+"/x.bin", xb)
		writeFile(t, dir+"/y.bin", yb)
		rep := mustRunDir(t, exactMathSrc, kernel, dir, n/128, 128,
			launch.Arg{Init: &launch.Init{Func: "file", Path: "x.bin", Type: elem}},
			launch.Arg{Init: &launch.Init{Func: "file", Path: "y.bin", Type: elem}},
			buf("zeros", 8*n, elem), buf("zeros", 4*n, "i32"))
		var o []float64
		if double {
			o = f64s(output(t, rep, 2))
		} else {
			for _, v := range f32s(output(t, rep, 2)) {
				o = append(o, float64(v))
			}
		}
		q := i32s(output(t, rep, 3))
		for i := 0; i < n; i++ {
			x, y := xs[i], ys[i]
			fr, e := math.Frexp(x)
			ip, fp := math.Modf(x)
			if math.IsInf(x, 0) {
				fp = math.Copysign(0, x)
			}
			next := math.Nextafter(x, y)
			if !double {
				next = float64(math.Nextafter32(float32(x), float32(y)))
			}
			rem := math.Remainder(x, y)
			want := []float64{math.Mod(x, y), rem, rem, fr, fp, ip, math.Logb(x), next}
			if math.IsInf(x, 0) || math.IsNaN(x) {
				e = 0
			}
			for k, w := range want {
				if !sameFloat(o[8*i+k], w) {
					t.Errorf("%s(%g, %g) field %d = %g, want %g", kernel, x, y, k, o[8*i+k], w)
				}
			}
			if got, w := int(q[4*i]), remquoBits(x, y, rem); got != w && !math.IsNaN(rem) {
				t.Errorf("%s remquo(%g, %g) quotient bits %d, want %d", kernel, x, y, got, w)
			}
			if int(q[4*i+1]) != e {
				t.Errorf("%s frexp(%g) exponent %d, want %d", kernel, x, q[4*i+1], e)
			}
			wantIlogb := math.Ilogb(x)
			switch {
			case x == 0 || math.IsNaN(x):
				wantIlogb = math.MinInt32
			case math.IsInf(x, 0):
				wantIlogb = math.MaxInt32
			}
			if int(q[4*i+2]) != wantIlogb {
				t.Errorf("%s ilogb(%g) = %d, want %d", kernel, x, q[4*i+2], wantIlogb)
			}
		}
	}
}
