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

// TestFastMathAgainstH200UseFastMath is TestFastMathAgainstH200 with
// -use_fast_math, against the H200's results of scripts/mufu/fastmath.cu built
// with -use_fast_math (testdata/measured/mufu/fastmath_out1.bin.gz): the
// .approx forms become .ftz, and tanhf becomes tanh.approx.f32.
func TestFastMathAgainstH200UseFastMath(t *testing.T) {
	const n = 16384
	names := []string{"__expf", "__logf", "__sinf", "__cosf", "__fdividef", "__frsqrt_rn", "rsqrtf", "tanhf", "erff", "expf", "logf"}
	// Bit-exact counts of n held as floors (2026-12-02); the MUFU.RCP/RSQ paths
	// are modelled exactly (gpu/arith/mufu_rcp.go), so __fdividef and rsqrtf must
	// give every one of the H200's results.
	floor := map[string]int{"__fdividef": n, "__frsqrt_rn": n, "rsqrtf": n}
	raw, err := os.ReadFile("../../testdata/measured/mufu/fastmath_out1.bin.gz")
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
	for i := uint32(0); i < n; i++ {
		xb, yb = appendU32(xb, fmInput(0, i)), appendU32(yb, fmInput(1, i))
	}
	dir := t.TempDir()
	writeFile(t, dir+"/x.bin", xb)
	writeFile(t, dir+"/y.bin", yb)
	needClang(t)
	rep, err := analysis.Run(context.Background(), analysis.Request{
		Source: []byte(src), SourceFile: "cell.cu", Arch: "sm_80", Compiler: "clang", BaseDir: dir,
		Flags: []string{"-use_fast_math"},
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
			} else if floor[f] > 0 {
				t.Logf("%s(%#x, %#x): %#x, H200 %#x", f, fmInput(0, uint32(i)), fmInput(1, uint32(i)), g, w)
			}
		}
		t.Logf("%-12s %5d/%d bit-exact with the H200 (%.1f%%)", f, exact, n, 100*float64(exact)/n)
		if exact < floor[f] {
			t.Errorf("%s: %d bit-exact, below the recorded %d", f, exact, floor[f])
		}
	}
}
