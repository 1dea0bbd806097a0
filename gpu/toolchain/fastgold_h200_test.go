package toolchain_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/launch"
)

// The fast-math golden cases of scripts/fastgold (cell.cu: Black-Scholes, GELU,
// softmax, layernorm, '/', sqrtf, sin/cos/tan of large arguments, powif/powi and
// the pow(float, int), pow(double, int) overloads) on the fixed inputs of
// testdata/fastgold (gen_inputs.py), through the clang path with and without
// -use_fast_math. TestFastGoldAgainstH200 compares them, and nvcc's recorded
// PTX, byte for byte with the H200's outputs once scripts/fastgold/run.sh's
// recording is in testdata/fastgold (out0/out1, cell0/cell1.ptx).

const fgDir = "../../testdata/fastgold/"

const fgN = 2048 // elements per kernel (harness.cu's NIN)

// fgBuilds are run.sh's two builds, by output file index.
var fgBuilds = [][]string{nil, {"-use_fast_math"}}

// fgKernel is one line of scripts/fastgold/kernels.h.
type fgKernel struct {
	name   string
	double bool // f64 output
}

// fgKernels parses scripts/fastgold/kernels.h.
func fgKernels(t *testing.T) []fgKernel {
	t.Helper()
	b, err := os.ReadFile("../../scripts/fastgold/kernels.h")
	if err != nil {
		t.Fatal(err)
	}
	var ks []fgKernel
	for _, m := range regexp.MustCompile(`(?m)^K\((\w+), ([FD])\)`).FindAllStringSubmatch(string(b), -1) {
		ks = append(ks, fgKernel{m[1], m[2] == "D"})
	}
	if len(ks) == 0 {
		t.Fatal("kernels.h lists no kernel")
	}
	return ks
}

// fgGunzip reads a gzip-compressed file of testdata/fastgold.
func fgGunzip(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(fgDir + name)
	if err != nil {
		t.Fatalf("fastgold: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("fastgold %s: %v", name, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("fastgold %s: %v", name, err)
	}
	return b
}

// fgInput is the inputs of every kernel, kernel-major, as gen_inputs.py wrote them.
type fgInput struct {
	x, y, z, e, d []byte
	dir           string // per-kernel slices xK.bin ... dK.bin
}

// fgInputs reads the recorded inputs and writes each kernel's slices into a temp dir.
func fgInputs(t *testing.T, nk int) fgInput {
	t.Helper()
	in := fgInput{x: fgGunzip(t, "in_x.bin.gz"), y: fgGunzip(t, "in_y.bin.gz"), z: fgGunzip(t, "in_z.bin.gz"),
		e: fgGunzip(t, "in_e.bin.gz"), d: fgGunzip(t, "in_d.bin.gz"), dir: t.TempDir()}
	for _, a := range []struct {
		b    []byte
		size int
	}{{in.x, 4}, {in.y, 4}, {in.z, 4}, {in.e, 4}, {in.d, 8}} {
		if len(a.b) != a.size*nk*fgN {
			t.Fatalf("inputs: %d bytes, want %d", len(a.b), a.size*nk*fgN)
		}
	}
	for k := 0; k < nk; k++ {
		for _, a := range []struct {
			n    string
			b    []byte
			size int
		}{{"x", in.x, 4}, {"y", in.y, 4}, {"z", in.z, 4}, {"e", in.e, 4}, {"d", in.d, 8}} {
			writeFile(t, fmt.Sprintf("%s/%s%d.bin", in.dir, a.n, k), a.b[a.size*k*fgN:a.size*(k+1)*fgN])
		}
	}
	return in
}

// fgRun simulates kernel k of ks (clang with flags when prebuilt is nil, else
// nvcc's PTX prebuilt) on the inputs of kernel s and returns its 8*fgN output bytes.
func fgRun(t *testing.T, ks []fgKernel, k, s int, in fgInput, flags []string, prebuilt []byte) []byte {
	t.Helper()
	file := func(n, typ string) launch.Arg {
		return launch.Arg{Init: &launch.Init{Func: "file", Path: fmt.Sprintf("%s%d.bin", n, s), Type: typ}}
	}
	req := analysis.Request{
		SourceFile: "cell.cu", Arch: "sm_90", BaseDir: in.dir, Budget: 1e10,
		Launch: &launch.Launch{Kernel: ks[k].name, Args: []launch.Arg{
			file("x", "f32"), file("y", "f32"), file("z", "f32"), file("e", "i32"), file("d", "f64"),
			buf("zeros", 2*fgN, "f32")}},
		Grid: [3]int{fgN / 256, 1, 1}, Block: [3]int{256, 1, 1},
	}
	if prebuilt == nil {
		src, err := os.ReadFile("../../scripts/fastgold/cell.cu")
		if err != nil {
			t.Fatal(err)
		}
		req.Source, req.Compiler, req.Flags = src, "clang", flags
	} else {
		req.Source = []byte("// nvcc's PTX of scripts/fastgold/cell.cu\n")
		req.Prebuilt, req.Sandbox = oneEntry(prebuilt, ks[k].name), true
	}
	rep, err := analysis.Run(context.Background(), req)
	if err != nil {
		t.Fatalf("%s %v (prebuilt %v): %v", ks[k].name, flags, prebuilt != nil, err)
	}
	out := output(t, rep, 5)
	if len(out) != 8*fgN {
		t.Fatalf("%s: %d output bytes", ks[k].name, len(out))
	}
	return out
}

// fgSame compares element i of got and hw (f32 or f64), any NaN equal to any NaN.
func fgSame(double bool, got, hw []byte, i int) bool {
	if double {
		g, w := binary.LittleEndian.Uint64(got[8*i:]), binary.LittleEndian.Uint64(hw[8*i:])
		return g == w || (math.IsNaN(math.Float64frombits(g)) && math.IsNaN(math.Float64frombits(w)))
	}
	g, w := binary.LittleEndian.Uint32(got[4*i:]), binary.LittleEndian.Uint32(hw[4*i:])
	return g == w || (g&0x7fffffff > 0x7f800000 && w&0x7fffffff > 0x7f800000)
}

// fgNotOnNvcc are the kernels nvcc 13 does not compile: powif and powi are declared
// only for libc++ builds in crt/math_functions.h ("identifier powif is undefined",
// testdata/fastgold/build0.txt), so run.sh's logged fallback made them write 0.
var fgNotOnNvcc = map[string]bool{"powif_k": true, "powi_k": true}

// fgClangFloor are the clang-path counts (of fgN) below 2048 measured on
// 2026-12-02, per build and kernel: the differences still open, each a floor the
// clang path must keep (every other kernel and nvcc's PTX on all kernels: 2048).
//   - powdi_k: pow(double, int) is the double pow of the promoted arguments, as with
//     nvcc, but the prelude's pow(double, double) is its own algorithm, not nvcc's
//     __internal_accurate_pow (cell0.ptx).
//
// Closed: -use_fast_math softmax, fdiv, divsqrt (1421, 1622, 1823 before): nvcc makes
// a float '/' div.approx.ftz.f32 (-prec-div=false) and so does the clang path now
// (-mllvm -nvptx-prec-divf32=0; the prelude's own divisions are explicit div.rn).
// Closed: bs_call, bs_put (853, 807; 823, 759 with -use_fast_math): in S*cnd(d1) -
// K*disc*cnd(d2) nvcc fuses the subtracted product, LLVM the first (nvccContraction).
// Closed: powfi_k (2005): pow(float, int) is now C++11's double pow of the promoted
// arguments, as nvcc compiles it, not powif.
var fgClangFloor = [2]map[string]int{
	{"powdi_k": 1969},
	{"powdi_k": 1969},
}

// TestFastGoldAgainstH200: every golden kernel, clang path and nvcc's PTX, each
// build, against the H200: byte-exact on every element but the named floors.
func TestFastGoldAgainstH200(t *testing.T) {
	// The recording: testdata/fastgold once it is committed, or run.sh's rec/
	// unpacked elsewhere, named by KS_FASTGOLD_DIR.
	rec := fgDir
	if d := os.Getenv("KS_FASTGOLD_DIR"); d != "" {
		rec = d + "/"
	}
	if _, err := os.Stat(rec + "out0.bin.gz"); err != nil {
		t.Skip("no H200 recording in testdata/fastgold yet (scripts/fastgold/README.md); KS_FASTGOLD_DIR=DIR runs against run.sh's rec/ unpacked in DIR")
	}
	needClang(t)
	ks := fgKernels(t)
	in := fgInputs(t, len(ks))
	readRec := func(name string) []byte {
		t.Helper()
		raw, err := os.ReadFile(rec + name)
		if err != nil {
			t.Fatalf("recording: %v", err)
		}
		if !strings.HasSuffix(name, ".gz") {
			return raw
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("recording %s: %v", name, err)
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("recording %s: %v", name, err)
		}
		return b
	}
	// run.sh made its own inputs with gen_inputs.py: they must be the committed ones.
	for _, a := range []struct {
		n string
		b []byte
	}{{"x", in.x}, {"y", in.y}, {"z", in.z}, {"e", in.e}, {"d", in.d}} {
		if _, err := os.Stat(rec + "in_" + a.n + ".bin.gz"); err == nil && !bytes.Equal(readRec("in_"+a.n+".bin.gz"), a.b) {
			t.Fatalf("the recording's in_%s.bin differs from testdata/fastgold's", a.n)
		}
	}
	for v, flags := range fgBuilds {
		hw := readRec(fmt.Sprintf("out%d.bin.gz", v))
		if len(hw) != 8*len(ks)*fgN {
			t.Fatalf("out%d: %d bytes", v, len(hw))
		}
		ptx := readRec(fmt.Sprintf("cell%d.ptx", v))
		for k, kn := range ks {
			if fgNotOnNvcc[kn.name] {
				continue
			}
			want := hw[8*k*fgN : 8*(k+1)*fgN]
			for _, path := range []string{"clang", "nvcc PTX"} {
				var got []byte
				if path == "clang" {
					got = fgRun(t, ks, k, k, in, flags, nil)
				} else {
					got = fgRun(t, ks, k, k, in, nil, ptx)
				}
				exact, miss := 0, []string{}
				for i := 0; i < fgN; i++ {
					if fgSame(kn.double, got, want, i) {
						exact++
					} else if len(miss) < 4 {
						miss = append(miss, fmt.Sprintf("[%d] x=%#08x e=%d", i, binary.LittleEndian.Uint32(in.x[4*(k*fgN+i):]),
							int32(binary.LittleEndian.Uint32(in.e[4*(k*fgN+i):]))))
					}
				}
				t.Logf("build %d %-14s %-9s %-8s %4d/%d byte-exact", v, strings.Join(flags, " "), kn.name, path, exact, fgN)
				floor := fgN
				if f, ok := fgClangFloor[v][kn.name]; ok && path == "clang" {
					floor = f
				}
				if exact < floor {
					t.Errorf("build %d %s %s: %d/%d byte-exact (floor %d); first misses %s", v, kn.name, path, exact, fgN, floor, strings.Join(miss, "; "))
				}
			}
		}
	}
}

// fgIndex is the index of kernel name in ks.
func fgIndex(t *testing.T, ks []fgKernel, name string) int {
	t.Helper()
	for k, kn := range ks {
		if kn.name == name {
			return k
		}
	}
	t.Fatalf("kernels.h has no %s", name)
	return -1
}

// fgPowRef is x^n rounded to the f32 (prec 24) or f64 (prec 53) format's
// normal range, or ok=false where n*log2|x| lies near or beyond the range's ends
// (est says which: +1 overflow, -1 underflow, 0 normal).
func fgPowRef(x float64, n int64, double bool) (r float64, est int, ok bool) {
	lo, hi, zero := -125.0, 127.0, -160.0 // zero: below it x^n rounds to 0
	if double {
		lo, hi, zero = -1021, 1023, -1085
	}
	l := float64(n) * math.Log2(math.Abs(x))
	switch {
	case l > hi+8:
		return 0, 1, false
	case l < zero:
		return 0, -1, false
	case l > hi-1 || l < lo+1:
		return 0, 0, false
	}
	b := new(big.Float).SetPrec(400).SetFloat64(x)
	acc := new(big.Float).SetPrec(400).SetFloat64(1)
	m := n
	if m < 0 {
		m = -m
	}
	for ; m > 0; m >>= 1 {
		if m&1 == 1 {
			acc.Mul(acc, b)
		}
		b.Mul(b, b)
	}
	if n < 0 {
		acc.Quo(new(big.Float).SetPrec(400).SetFloat64(1), acc)
	}
	if double {
		r, _ = acc.Float64()
	} else {
		f, _ := acc.Float32()
		r = float64(f)
	}
	return r, 0, true
}

// fgUlps is the distance in units in the last place of the format between a and b.
func fgUlps(a, b float64, double bool) int64 {
	if double {
		ia, ib := int64(math.Float64bits(a)), int64(math.Float64bits(b))
		if (ia < 0) != (ib < 0) {
			return math.MaxInt64
		}
		if ia > ib {
			return ia - ib
		}
		return ib - ia
	}
	ia, ib := int64(int32(math.Float32bits(float32(a)))), int64(int32(math.Float32bits(float32(b))))
	if (ia < 0) != (ib < 0) {
		return math.MaxInt64
	}
	if ia > ib {
		return ia - ib
	}
	return ib - ia
}

// TestPowiClang: the prelude's powif/powi and pow(float, int), pow(double, int) (the
// double pow of the promoted arguments, as nvcc: pow(double, int) must give powi's
// bits, pow(float, int) is checked as a float result) on the fastgold inputs, both builds: the special
// cases CUDA documents for pow with an integer exponent, and the accuracy bound
// it documents (powf 4 ulp, pow 2 ulp) against x^n computed exactly, where x^n
// is a normal number. Not a comparison with the H200 (TestFastGoldAgainstH200).
func TestPowiClang(t *testing.T) {
	needClang(t)
	ks := fgKernels(t)
	in := fgInputs(t, len(ks))
	for _, flags := range fgBuilds {
		for _, pair := range [][2]string{{"powif_k", "powfi_k"}, {"powi_k", "powdi_k"}} {
			k := fgIndex(t, ks, pair[0])
			double := ks[k].double
			got := fgRun(t, ks, k, k, in, flags, nil)
			other := fgRun(t, ks, fgIndex(t, ks, pair[1]), k, in, flags, nil)
			if double && !bytes.Equal(got, other) {
				t.Errorf("%v: %s and %s differ on the same inputs", flags, pair[0], pair[1])
			}
			for which, got := range [][]byte{got, other} {
				checked, worst := 0, int64(0)
				for i := 0; i < fgN; i++ {
					n := int64(int32(binary.LittleEndian.Uint32(in.e[4*(k*fgN+i):])))
					var x, r float64
					if double {
						x = math.Float64frombits(binary.LittleEndian.Uint64(in.d[8*(k*fgN+i):]))
						r = math.Float64frombits(binary.LittleEndian.Uint64(got[8*i:]))
					} else {
						x = float64(math.Float32frombits(binary.LittleEndian.Uint32(in.x[4*(k*fgN+i):])))
						r = float64(math.Float32frombits(binary.LittleEndian.Uint32(got[4*i:])))
					}
					where := fmt.Sprintf("%v %s(%v, %d) = %v", flags, pair[which], x, n, r)
					odd := n%2 != 0
					switch {
					case n == 0 || x == 1:
						if r != 1 {
							t.Errorf("%s, want 1", where)
						}
					case math.IsNaN(x):
						if !math.IsNaN(r) {
							t.Errorf("%s, want NaN", where)
						}
					case !double && (n > 1<<24 || n < -(1<<24)):
						// the exponent is rounded to float (see the prelude), which may make
						// an odd one even; the H200 recording decides (TestFastGoldAgainstH200)
					case x == 0 || math.IsInf(x, 0):
						// 0^n: +-0 for n > 0, +-Inf for n < 0; Inf^n the reverse; the sign is
						// x's for odd n, else +.
						wantInf := (x == 0) == (n < 0)
						neg := odd && math.Signbit(x)
						if math.IsInf(r, 0) != wantInf || (!wantInf && r != 0) || math.Signbit(r) != neg {
							t.Errorf("%s, want %s", where, map[bool]string{true: "+-Inf", false: "+-0"}[wantInf])
						}
					default:
						ref, est, ok := fgPowRef(x, n, double)
						if !ok {
							if est == 1 && !math.IsInf(r, 0) || est == -1 && r != 0 {
								t.Errorf("%s, want %s", where, map[int]string{1: "+-Inf", -1: "+-0"}[est])
							}
							if est != 0 && math.Signbit(r) != (odd && x < 0) {
								t.Errorf("%s: sign", where)
							}
							continue
						}
						checked++
						u := fgUlps(r, ref, double)
						worst = max(worst, u)
						if bound := map[bool]int64{false: 4, true: 2}[double]; u > bound {
							t.Errorf("%s, exact %v: %d ulp (CUDA documents %d)", where, ref, u, bound)
						}
					}
				}
				t.Logf("%v %s: %d inputs with a normal result, worst %d ulp", flags, pair[which], checked, worst)
				if checked < fgN/4 {
					t.Errorf("%s: only %d inputs checked for accuracy", pair[which], checked)
				}
			}
		}
	}
}

// TestFastGoldClang: every golden kernel compiles and runs through the clang
// path in both builds, and the finance and normalisation kernels satisfy their
// identities to within float rounding: put-call parity C - P = S - K e^{-rT},
// softmax rows summing to 1, layernorm rows (gamma 1, beta 0 removed) of mean 0.
// Not a comparison with the H200 (TestFastGoldAgainstH200).
func TestFastGoldClang(t *testing.T) {
	needClang(t)
	ks := fgKernels(t)
	in := fgInputs(t, len(ks))
	f := func(b []byte, i int) float64 {
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
	}
	for _, flags := range fgBuilds {
		out := make([][]byte, len(ks))
		for k := range ks {
			out[k] = fgRun(t, ks, k, k, in, flags, nil)
		}
		kb := fgIndex(t, ks, "bs_call")
		call, put := out[kb], fgRun(t, ks, fgIndex(t, ks, "bs_put"), kb, in, flags, nil) // put on the call's inputs
		worst := 0.0
		for i := 0; i < fgN; i++ {
			o := kb*fgN + i
			S, K, T := f(in.x, o), f(in.y, o), f(in.z, o)
			d := math.Abs((f(call, i) - f(put, i)) - (S - K*math.Exp(-0.02*T)))
			worst = max(worst, d/max(S, K))
			if d > 1e-4*max(S, K) {
				t.Errorf("%v Black-Scholes [%d] S=%v K=%v T=%v: parity off by %g", flags, i, S, K, T, d)
			}
		}
		sm := out[fgIndex(t, ks, "softmax")]
		for r := 0; r < fgN/64; r++ {
			s := 0.0
			for j := 0; j < 64; j++ {
				s += f(sm, 64*r+j)
			}
			if math.Abs(s-1) > 1e-5 {
				t.Errorf("%v softmax row %d sums to %v", flags, r, s)
			}
		}
		kl := fgIndex(t, ks, "layernorm")
		ln := out[kl]
		for r := 0; r < fgN/64; r++ {
			m, v := 0.0, 0.0
			for j := 0; j < 64; j++ {
				o := kl*fgN + 64*r + j
				n := (f(ln, 64*r+j) - f(in.z, o)) / f(in.y, o)
				m += n / 64
				v += n * n / 64
			}
			// var + 1e-5 in rsqrtf: rows of tiny variance have a norm below 1
			if math.Abs(m) > 1e-3 || v > 1+1e-3 {
				t.Errorf("%v layernorm row %d: mean %v, mean square %v", flags, r, m, v)
			}
		}
		t.Logf("%v: %d kernels ran; Black-Scholes parity worst %.2g of max(S, K)", flags, len(ks), worst)
	}
}
