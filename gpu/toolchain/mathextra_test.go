package toolchain_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/toolchain"
)

// TestMathExtraKeepsCellContraction: kernelscope_math_extra.h turns contraction off
// inside its own functions only; the cell's a * b + c is still one fma (as nvcc's
// default -fmad=true makes it), and lgammaf's body has the same PTX as with
// -ffp-contract=off for the whole file.
func TestMathExtraKeepsCellContraction(t *testing.T) {
	needClang(t)
	src := "__global__ void k(float *a, const float *b, const float *c) { int i = threadIdx.x; a[i] = a[i] * b[i] + c[i]; }\n" +
		"__global__ void g(float *a) { int i = threadIdx.x; a[i] = lgammaf(a[i]) + j0f(a[i]); }\n"
	body := func(ptx, entry string) string {
		i := strings.Index(ptx, ".entry "+entry)
		if i < 0 {
			t.Fatalf("no %s in the PTX", entry)
		}
		s := ptx[i:]
		if j := strings.Index(s[1:], ".entry "); j >= 0 {
			s = s[:j+1]
		}
		return regexp.MustCompile(`(?m)^\s*(\.loc|//).*\n`).ReplaceAllString(s, "")
	}
	res, err := toolchain.Compile(context.Background(), toolchain.Request{Source: src, File: "c.cu", Arch: "sm_80", Compiler: "clang"})
	if err != nil {
		t.Fatal(err)
	}
	if k := body(string(res.PTX), "_Z1kPfPKfS1_"); !strings.Contains(k, "fma.rn.f32") {
		t.Errorf("the cell's a * b + c is not contracted:\n%s", k)
	}
	off, err := toolchain.Compile(context.Background(), toolchain.Request{Source: src, File: "c.cu", Arch: "sm_80", Compiler: "clang", Flags: []string{"-ffp-contract=off"}})
	if err != nil {
		t.Fatal(err)
	}
	if k := body(string(off.PTX), "_Z1kPfPKfS1_"); strings.Contains(k, "fma.rn.f32") {
		t.Fatalf("-ffp-contract=off did not reach clang:\n%s", k)
	}
	if a, b := body(string(res.PTX), "_Z1gPf"), body(string(off.PTX), "_Z1gPf"); a != b {
		t.Errorf("lgammaf/j0f differ with contraction on and off: the prelude's functions are contracted")
	}
}
