package toolchain_test

// Tests of the headers standing in for the CUDA toolkit's (prelude/): each kernel
// is compiled with clang through the whole pipeline (analysis.Run), simulated, and
// its outputs compared with values computed here in Go.

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/report"
)

// needClang skips when no clang-19 (or newer) is on PATH, except under CI=true.
func needClang(t *testing.T) {
	t.Helper()
	for v := 25; v >= 14; v-- {
		if _, err := exec.LookPath("clang-" + itoa(v)); err == nil {
			return
		}
	}
	if _, err := exec.LookPath("clang"); err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true but no clang on PATH")
	}
	t.Skip("no clang on PATH")
}

func itoa(v int) string {
	if v < 10 {
		return string(rune('0' + v))
	}
	return itoa(v/10) + string(rune('0'+v%10))
}

// buf is a buffer argument: an initialiser and its element type.
func buf(fn string, n int, typ string) launch.Arg {
	return launch.Arg{Init: &launch.Init{Func: fn, N: n, Type: typ}}
}

func scalar(s string) launch.Arg { return launch.Arg{Scalar: s} }

// runKernel compiles src with clang for sm_80 and simulates kernel on grid x block.
func runKernel(t *testing.T, src, kernel string, grid, block int, args ...launch.Arg) (*report.Report, error) {
	t.Helper()
	return runKernelArch(t, src, kernel, "sm_80", grid, block, args...)
}

// mustRunArch is mustRun for the architecture arch.
func mustRunArch(t *testing.T, src, kernel, arch string, grid, block int, args ...launch.Arg) *report.Report {
	t.Helper()
	rep, err := runKernelArch(t, src, kernel, arch, grid, block, args...)
	if err != nil {
		t.Fatalf("%s on %s: %v", kernel, arch, err)
	}
	return rep
}

// randBuf is a buffer of n floats drawn uniformly from [lo, hi) with the given seed.
func randBuf(n int, lo, hi float64, seed int64) launch.Arg {
	return launch.Arg{Init: &launch.Init{Func: "rand", N: n, Lo: lo, Hi: hi, HasRange: true, Seed: seed, HasSeed: true, Type: "f32"}}
}

func runKernelArch(t *testing.T, src, kernel, arch string, grid, block int, args ...launch.Arg) (*report.Report, error) {
	t.Helper()
	return runKernelIn(t, src, kernel, arch, "", grid, block, args...)
}

// runKernelIn is runKernelArch with file("...") initialisers read from baseDir.
func runKernelIn(t *testing.T, src, kernel, arch, baseDir string, grid, block int, args ...launch.Arg) (*report.Report, error) {
	t.Helper()
	needClang(t)
	return analysis.Run(context.Background(), analysis.Request{
		Source: []byte(src), SourceFile: "cell.cu", Arch: arch, Compiler: "clang", BaseDir: baseDir,
		Launch: &launch.Launch{Kernel: kernel, Args: args}, Grid: [3]int{grid, 1, 1}, Block: [3]int{block, 1, 1},
	})
}

// mustRunDir is mustRun (sm_80) with file("...") initialisers read from dir.
func mustRunDir(t *testing.T, src, kernel, dir string, grid, block int, args ...launch.Arg) *report.Report {
	t.Helper()
	rep, err := runKernelIn(t, src, kernel, "sm_80", dir, grid, block, args...)
	if err != nil {
		t.Fatalf("%s: %v", kernel, err)
	}
	return rep
}

func appendU32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }
func appendU64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// mustRun is runKernel that fails the test on any error.
func mustRun(t *testing.T, src, kernel string, grid, block int, args ...launch.Arg) *report.Report {
	t.Helper()
	rep, err := runKernel(t, src, kernel, grid, block, args...)
	if err != nil {
		t.Fatalf("%s: %v", kernel, err)
	}
	return rep
}

func output(t *testing.T, rep *report.Report, i int) []byte {
	t.Helper()
	if i >= len(rep.Outputs) {
		t.Fatalf("output %d missing (have %d)", i, len(rep.Outputs))
	}
	return rep.Outputs[i].Bytes
}

func f32s(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func f64s(b []byte) []float64 {
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}

func i32s(b []byte) []int32 {
	out := make([]int32, len(b)/4)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func u32s(b []byte) []uint32 {
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

// lineOf is the 1-based line of the first line of src containing marker.
func lineOf(t *testing.T, src, marker string) int {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, marker) {
			return i + 1
		}
	}
	t.Fatalf("marker %q not in source", marker)
	return 0
}

const headersSrc = `#include <cuda_runtime.h>
#include <device_launch_parameters.h>
#include <cuda.h>
#include <math_constants.h>
#include <vector_types.h>
#include <device_functions.h>
#include <cstdio>
#include <stdio.h>
#include <cstdint>
#include <cmath>
#include <math.h>
#include <assert.h>
#include <cassert>
#include <float.h>
#include <climits>
__global__ void consts(float *f, double *d, uint n, ushort s, ulong l, uchar c) {
  uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i != 0) return;
  f[0] = CUDART_PI_F; f[1] = CUDART_INF_F; f[2] = CUDART_L2E_F; f[3] = CUDART_SQRT_HALF_F;
  f[4] = FLT_MAX; f[5] = (float)INT_MAX; f[6] = (float)(n + s + l + c); f[7] = CUDART_NAN_F;
  d[0] = CUDART_PI; d[1] = CUDART_LN2; d[2] = CUDART_SQRT_2PI; d[3] = (double)UINT32_MAX;
}
int main() {
  float *f; double *d;
  assert(sizeof(float) == 4);
  cudaMalloc(&f, 8 * sizeof(float));
  cudaMalloc((void **)&d, 4 * sizeof(double));
  consts<<<1, 32>>>(f, d, 1, 2, 3, 4);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return 0;
}
`

// TestToolkitHeadersResolve: a whole program including the toolkit's headers, host
// code and a <<<>>> launch compiles, and the constants have their values.
func TestToolkitHeadersResolve(t *testing.T) {
	rep := mustRun(t, headersSrc, "consts", 1, 32, buf("zeros", 8, "f32"), buf("zeros", 4, "f64"),
		scalar("1"), scalar("2"), scalar("3"), scalar("4"))
	f := f32s(output(t, rep, 0))
	wantF := []float32{math.Pi, float32(math.Inf(1)), math.Log2E, math.Sqrt2 / 2, math.MaxFloat32, float32(math.MaxInt32), 10}
	for i, w := range wantF {
		if f[i] != w {
			t.Errorf("f[%d] = %v, want %v", i, f[i], w)
		}
	}
	if !math.IsNaN(float64(f[7])) {
		t.Errorf("CUDART_NAN_F = %v", f[7])
	}
	d := f64s(output(t, rep, 1))
	wantD := []float64{math.Pi, math.Ln2, sqrt2Pi(), math.MaxUint32}
	for i, w := range wantD {
		if d[i] != w {
			t.Errorf("d[%d] = %v, want %v", i, d[i], w)
		}
	}
}

// sqrt2Pi is sqrt(2*pi) correctly rounded (math.Sqrt(2*math.Pi) rounds twice).
func sqrt2Pi() float64 {
	pi, _, _ := big.ParseFloat("3.14159265358979323846264338327950288419716939937510582097494459", 10, 300, big.ToNearestEven)
	v, _ := new(big.Float).SetPrec(300).Sqrt(new(big.Float).SetPrec(300).Mul(pi, big.NewFloat(2))).Float64()
	return v
}

const assertSrc = `#include <cassert>
__global__ void checked(int *a, int n) {
  int i = threadIdx.x;
  a[i] = i;
  assert(a[i] < n);  // ASSERT
  a[i] = 2 * i;
}
`

// TestAssertTraps: a failing assert prints the file, line, function and expression
// and ends the launch with a trap at the assert's line; a passing one does nothing.
func TestAssertTraps(t *testing.T) {
	rep := mustRun(t, assertSrc, "checked", 1, 32, buf("zeros", 32, "i32"), scalar("32"))
	for i, v := range i32s(output(t, rep, 0)) {
		if v != int32(2*i) {
			t.Fatalf("a[%d] = %d, want %d", i, v, 2*i)
		}
	}
	rep, err := runKernel(t, assertSrc, "checked", 1, 32, buf("zeros", 32, "i32"), scalar("7"))
	var f *analysis.Failure
	if !errors.As(err, &f) || f.Err.Kind != "trap" {
		t.Fatalf("want a trap failure, got %v", err)
	}
	line := lineOf(t, assertSrc, "// ASSERT")
	want := "cell.cu:" + itoa(line) + ": void checked(int *, int): block: [0,0,0], thread: [7,0,0] Assertion `a[i] < n` failed."
	// As CUDA's driver prints it: on stderr, not among the printf output.
	if rep.Stderr != want+"\n" {
		t.Errorf("stderr %q, want %q", rep.Stderr, want+"\n")
	}
	if strings.Contains(rep.Stdout, "Assertion") {
		t.Errorf("assertion message in the printf output: %q", rep.Stdout)
	}
	if f.Err.CUDALine != line {
		t.Errorf("trap reported at CUDA line %d, the assert is at line %d", f.Err.CUDALine, line)
	}
}

const cacheHintSrc = `
__global__ void hints(const float *in, float *out, const float4 *in4, float4 *out4, const int2 *i2, int2 *o2,
                      const double *din, double *dout, const char *cin, char *cout, const short4 *s4, short4 *so4) {
  int i = threadIdx.x;
  float a = __ldg(in + i) + __ldca(in + i) * 2.0f + __ldcg(in + i) * 4.0f + __ldcs(in + i) * 8.0f + __ldlu(in + i) * 16.0f + __ldcv(in + i) * 32.0f;
  switch (i % 4) {
  case 0: __stwb(out + i, a); break;
  case 1: __stcg(out + i, a); break;
  case 2: __stcs(out + i, a); break;
  default: __stwt(out + i, a); break;
  }
  float4 v = __ldcs(in4 + i);
  v.x += 1.0f; v.y += 2.0f; v.z += 3.0f; v.w += 4.0f;
  __stcs(out4 + i, v);
  int2 w = __ldcg(i2 + i);
  w.x *= 3; w.y -= 5;
  __stwt(o2 + i, w);
  __stcg(dout + i, __ldca(din + i) * 0.5 + __ldlu(din + i));
  __stwb(cout + i, (char)(__ldcv(cin + i) + 1));
  short4 s = __ldlu(s4 + i);
  s.x += 1; s.w -= 1;
  __stcs(so4 + i, s);
}
`

// TestCacheHintLoadsStores: every cache operator, scalar and vector, reads and writes
// the right bytes, and the PTX carries the operator.
func TestCacheHintLoadsStores(t *testing.T) {
	const n = 64
	rep := mustRun(t, cacheHintSrc, "hints", 1, n,
		buf("arange", n, "f32"), buf("zeros", n, "f32"), buf("arange", 4*n, "f32"), buf("zeros", 4*n, "f32"),
		buf("arange", 2*n, "i32"), buf("zeros", 2*n, "i32"), buf("arange", n, "f64"), buf("zeros", n, "f64"),
		buf("arange", n, "i8"), buf("zeros", n, "i8"), buf("arange", 4*n, "i16"), buf("zeros", 4*n, "i16"))
	for _, op := range []string{"ld.global.nc.f32", "ld.global.ca.f32", "ld.global.cg.f32", "ld.global.cs.f32", "ld.global.lu.f32",
		"ld.global.cv.f32", "st.global.wb.f32", "st.global.cg.f32", "st.global.cs.f32", "st.global.wt.f32",
		"ld.global.cs.v4.f32", "st.global.cs.v4.f32", "ld.global.cg.v2.s32", "st.global.wt.v2.s32", "ld.global.ca.f64",
		"st.global.cg.f64", "ld.global.cv.s8", "st.global.wb.s8", "ld.global.lu.v4.s16", "st.global.cs.v4.s16"} {
		if !strings.Contains(rep.PTX, op) {
			t.Errorf("PTX has no %s", op)
		}
	}
	for i, v := range f32s(output(t, rep, 1)) {
		if want := float32(i) * 63; v != want {
			t.Errorf("out[%d] = %v, want %v", i, v, want)
		}
	}
	for i, v := range f32s(output(t, rep, 3)) {
		if want := float32(i + i%4 + 1); v != want {
			t.Errorf("out4[%d] = %v, want %v", i, v, want)
		}
	}
	for i, v := range i32s(output(t, rep, 5)) {
		want := int32(i) * 3
		if i%2 == 1 {
			want = int32(i) - 5
		}
		if v != want {
			t.Errorf("o2[%d] = %d, want %d", i, v, want)
		}
	}
	for i, v := range f64s(output(t, rep, 7)) {
		if want := float64(i) * 1.5; v != want {
			t.Errorf("dout[%d] = %v, want %v", i, v, want)
		}
	}
	for i, v := range output(t, rep, 9) {
		if want := byte(i + 1); v != want {
			t.Errorf("cout[%d] = %d, want %d", i, v, want)
		}
	}
	s := output(t, rep, 11)
	for i := 0; i < 4*n; i++ {
		v := int16(binary.LittleEndian.Uint16(s[2*i:]))
		want := int16(i)
		switch i % 4 {
		case 0:
			want++
		case 3:
			want--
		}
		if v != want {
			t.Errorf("so4[%d] = %d, want %d", i, v, want)
		}
	}
}
