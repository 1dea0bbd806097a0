package toolchain_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/toolchain"
)

// specialInputs are arguments across the functions' domains: [-1, 1], [0, 2],
// [-40, 40], any magnitude, and the special values.
func specialInputs(n int, double bool) []float64 {
	r := rand.New(rand.NewPCG(11, 12))
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, 1e-300, math.Inf(1), math.Inf(-1), math.NaN(), 3.5, -7, 0.75}
	for len(xs) < n {
		var v float64
		switch len(xs) % 4 {
		case 0:
			v = 2*r.Float64() - 1
		case 1:
			v = 2 * r.Float64()
		case 2:
			v = 80*r.Float64() - 40
		default:
			v = math.Exp2(200*r.Float64() - 100)
			if double {
				v = math.Exp2(2000*r.Float64() - 1000)
			}
			if r.IntN(2) == 0 {
				v = -v
			}
		}
		xs = append(xs, v)
	}
	if !double {
		for i := range xs {
			xs[i] = float64(float32(xs[i]))
		}
	}
	return xs[:n]
}

// nvSequenceF32 are the float versions that follow nvcc's operation sequences
// (prelude/kernelscope_nvmathf.h), no longer the double algorithm rounded to float
// that the Go replay computes.
var nvSequenceF32 = map[string]bool{"atan": true, "asin": true, "acos": true, "cbrt": true, "rcbrt": true,
	"sinpi": true, "cospi": true, "erf": true, "erfc": true, "erfcx": true, "erfinv": true, "erfcinv": true,
	"normcdf": true, "normcdfinv": true, "atan2": true, "rhypot": true, "norm3d": true, "rnorm3d": true}

// TestSpecialFunctionsSimulated: every special function of the prelude, float and
// double, compiled by clang and simulated, returns the bits of its Go replay (whose
// accuracy TestSpecialAccuracy measures).
func TestSpecialFunctionsSimulated(t *testing.T) {
	one := make([]string, 0, len(toolchain.SpecialReplay1))
	for k := range toolchain.SpecialReplay1 {
		one = append(one, k)
	}
	two := make([]string, 0, len(toolchain.SpecialReplay2))
	for k := range toolchain.SpecialReplay2 {
		two = append(two, k)
	}
	slices.Sort(one)
	slices.Sort(two)
	nf := len(one) + len(two)
	var src strings.Builder
	for _, double := range []bool{false, true} {
		T, suf, kern := "float", "f", "sf"
		if double {
			T, suf, kern = "double", "", "sd"
		}
		src.WriteString("__global__ void " + kern + "(const " + T + " *x, const " + T + " *y, " + T + " *o) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  " + T + " a = x[i], b = y[i];\n")
		for k, f := range one {
			src.WriteString("  o[" + itoa(nf) + " * i + " + itoa(k) + "] = " + f + suf + "(a);\n")
		}
		for k, f := range two {
			args := "a, b"
			switch f {
			case "norm3d", "rnorm3d":
				args = "a, b, b * 0.5"
			case "norm4d", "rnorm4d":
				args = "a, b, b * 0.5, 3"
			}
			name := f + suf
			if f == "hypot" && !double {
				name = "hypotf" // the older float hypot, replayed elsewhere
			}
			src.WriteString("  o[" + itoa(nf) + " * i + " + itoa(len(one)+k) + "] = " + name + "(" + args + ");\n")
		}
		src.WriteString("}\n")
	}
	const n = 256
	for _, double := range []bool{false, true} {
		xs := specialInputs(n, double)
		ys := specialInputs(n+7, double)[7:]
		elem, kernel := "f32", "sf"
		if double {
			elem, kernel = "f64", "sd"
		}
		var xb, yb []byte
		for i := range xs {
			if double {
				xb, yb = appendU64(xb, math.Float64bits(xs[i])), appendU64(yb, math.Float64bits(ys[i]))
			} else {
				xb, yb = appendU32(xb, math.Float32bits(float32(xs[i]))), appendU32(yb, math.Float32bits(float32(ys[i])))
			}
		}
		dir := t.TempDir()
		writeFile(t, dir+"/x.bin", xb)
		writeFile(t, dir+"/y.bin", yb)
		rep := mustRunDir(t, src.String(), kernel, dir, n/64, 64,
			launch.Arg{Init: &launch.Init{Func: "file", Path: "x.bin", Type: elem}},
			launch.Arg{Init: &launch.Init{Func: "file", Path: "y.bin", Type: elem}},
			buf("zeros", nf*n, elem))
		var o []float64
		if double {
			o = f64s(output(t, rep, 2))
		} else {
			for _, v := range f32s(output(t, rep, 2)) {
				o = append(o, float64(v))
			}
		}
		bad := 0
		for i := 0; i < n; i++ {
			for k := 0; k < nf; k++ {
				var want float64
				name := ""
				if k < len(one) {
					name = one[k]
					want = toolchain.SpecialReplay1[name](xs[i])
				} else {
					name = two[k-len(one)]
					if name == "hypot" && !double {
						continue
					}
					want = toolchain.SpecialReplay2[name](xs[i], ys[i])
				}
				if !double {
					if nvSequenceF32[name] {
						continue // follows nvcc's sequence now: TestLibmAgainstH200 checks it against the H200
					}
					want = float64(float32(want))
				}
				if got := o[nf*i+k]; !sameFloat(got, want) && bad < 20 {
					bad++
					t.Errorf("%s (%s) at x=%g y=%g: simulated %g (%#x), Go replay %g", name, elem, xs[i], ys[i], got, math.Float64bits(got), want)
				}
			}
		}
	}
}
