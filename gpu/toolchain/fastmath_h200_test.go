package toolchain_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"io"
	"os"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/launch"
)

// The CUDA math functions whose H200 results (nvcc 13, no -use_fast_math)
// scripts/mufu/fastmath.cu recorded in testdata/measured/mufu: the prelude's
// versions, compiled by clang and simulated, are compared bit for bit.

// fmMix64 is splitmix64's finaliser (scripts/mufu/fastmath.cu's mix64).
func fmMix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// fmInput is input i of stream s of fastmath.cu: 16 specials, then random
// signs and mantissas with exponents uniform over [2^-24, 2^24).
func fmInput(s, i uint32) uint32 {
	sp := [16]uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 1, 0x807fffff, 0x00800000,
		0x3f800000, 0xbf800000, 0x7f7fffff, 0x42b17218, 0xc2aeac50, 0x3f000000, 0x40490fdb, 0x4b800000}
	if i < 16 {
		return sp[i]
	}
	u := fmMix64(uint64(s)<<32 | uint64(i))
	e := 103 + uint32((u>>32)%48)
	return uint32(u>>63)<<31 | e<<23 | uint32(u&0x7fffff)
}

// fastMathNames are the functions of scripts/mufu/fastmath.cu, in its output order.
var fastMathNames = []string{"__expf", "__logf", "__sinf", "__cosf", "__fdividef", "__frsqrt_rn", "rsqrtf", "tanhf", "erff", "expf", "logf"}

const fastMathN = 16384 // inputs per function in the recordings

func TestFastMathAgainstH200(t *testing.T) {
	n := fastMathN
	// Bit-exact counts of n (2026-12-01), held as floors: the .approx-based
	// functions are limited by the MUFU model (gpu/arith), the others by the
	// prelude's own algorithms, which are not nvcc's libdevice.
	floor := map[string]int{"__expf": 12738, "__logf": 15516, "__sinf": 2435, "__cosf": 5883, "__fdividef": 14413,
		"__frsqrt_rn": 16384, "rsqrtf": 14669, "tanhf": 12961, "erff": 14787, "expf": 13244, "logf": 16126}
	floor["__fdividef"], floor["rsqrtf"] = n, n // MUFU.RCP/RSQ modelled exactly (gpu/arith/mufu_rcp.go, 2026-12-02)
	// MUFU.EX2/LG2/SIN/COS recovered bit for bit (gpu/arith mufu_exp.go, 2026-12-02).
	floor["__expf"], floor["__logf"], floor["__sinf"], floor["__cosf"] = n, n, n, n
	// tanhf, erff, expf and logf follow nvcc's libdevice sequences (prelude/kernelscope_nvmathf.h, 2026-12-02).
	floor["tanhf"], floor["erff"], floor["expf"], floor["logf"] = n, n, n, n
	fastMathVsH200(t, "fastmath_out0.bin.gz", nil, floor)
}

// fastMathVsH200 compiles fastMathNames with clang and flags, runs them on the
// recorded inputs and counts, per function, the results bit-identical to the
// H200's record (testdata/measured/mufu/RECORD; NaNs of any payload count as
// equal); a count below floor[f] fails, and with a floor every miss is logged.
func fastMathVsH200(t *testing.T, record string, flags []string, floor map[string]int) {
	t.Helper()
	n, names := fastMathN, fastMathNames
	raw, err := os.ReadFile("../../testdata/measured/mufu/" + record)
	if err != nil {
		t.Fatalf("H200 record: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("H200 record: %v", err)
	}
	hw, err := io.ReadAll(zr)
	if err != nil || len(hw) != 4*n*len(names) {
		t.Fatalf("H200 record: %d bytes, %v", len(hw), err)
	}
	src := "__global__ void fm(const float *x, const float *y, float *o) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  float a = x[i], b = y[i];\n"
	for k, f := range names {
		args := "a"
		if f == "__fdividef" {
			args = "a, b"
		}
		src += "  o[" + itoa(k) + " * " + itoa(n) + " + i] = " + f + "(" + args + ");\n"
	}
	src += "}\n"
	var xb, yb []byte
	for i := uint32(0); i < uint32(n); i++ {
		xb, yb = appendU32(xb, fmInput(0, i)), appendU32(yb, fmInput(1, i))
	}
	dir := t.TempDir()
	writeFile(t, dir+"/x.bin", xb)
	writeFile(t, dir+"/y.bin", yb)
	needClang(t)
	rep, err := analysis.Run(context.Background(), analysis.Request{
		Source: []byte(src), SourceFile: "cell.cu", Arch: "sm_80", Compiler: "clang", BaseDir: dir, Flags: flags,
		Launch: &launch.Launch{Kernel: "fm", Args: []launch.Arg{
			{Init: &launch.Init{Func: "file", Path: "x.bin", Type: "f32"}},
			{Init: &launch.Init{Func: "file", Path: "y.bin", Type: "f32"}},
			buf("zeros", len(names)*n, "f32")}},
		Grid: [3]int{n / 256, 1, 1}, Block: [3]int{256, 1, 1},
	})
	if err != nil {
		t.Fatalf("fm: %v", err)
	}
	got := output(t, rep, 2)
	for k, f := range names {
		exact := 0
		for i := 0; i < n; i++ {
			o := 4 * (k*n + i)
			g, w := binary.LittleEndian.Uint32(got[o:]), binary.LittleEndian.Uint32(hw[o:])
			if g == w || (g&0x7fffffff > 0x7f800000 && w&0x7fffffff > 0x7f800000) {
				exact++
			} else if floor[f] == n {
				t.Logf("%s(%#x, %#x): %#x, H200 %#x", f, fmInput(0, uint32(i)), fmInput(1, uint32(i)), g, w)
			}
		}
		t.Logf("%-12s %5d/%d bit-exact with the H200 (%.1f%%)", f, exact, n, 100*float64(exact)/float64(n))
		if exact < floor[f] {
			t.Errorf("%s: %d bit-exact, below the recorded %d", f, exact, floor[f])
		}
	}
}
