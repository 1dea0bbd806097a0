package toolchain_test

import (
	"context"
	"os/exec"
	"regexp"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/toolchain"
)

// TestHalfArithmeticContracts: cuda_fp16.h's __hadd/__hmul (and the operators) are
// plain f16 arithmetic, so a + b * a on __half and __half2 becomes one fma.rn.f16 /
// fma.rn.f16x2 under the default contraction (what ptxas makes of nvcc's mul.f16 +
// add.f16 on the H200) and two rounded instructions with -ffp-contract=off; the _rn
// forms are never fused.
func TestHalfArithmeticContracts(t *testing.T) {
	if _, err := exec.LookPath("clang-19"); err != nil {
		t.Skip("clang-19 not found")
	}
	const src = `#include <cuda_fp16.h>
__global__ void k(__half *o, __half2 *p, const __half *a, const __half *b) {
  int i = threadIdx.x;
  o[i] = a[i] + b[i] * a[i];
  o[i + 32] = __hadd_rn(a[i], __hmul_rn(b[i], a[i]));
  p[i] = p[i] * p[i + 1] + p[i + 2];
}
`
	count := func(ptx []byte, re string) int { return len(regexp.MustCompile(re).FindAll(ptx, -1)) }
	for _, c := range []struct {
		flags            []string
		fma, fma2, mulRN int
	}{
		{nil, 1, 1, 1},
		{[]string{"-ffp-contract=off"}, 0, 0, 1},
	} {
		res, err := toolchain.Compile(context.Background(), toolchain.Request{Source: src, File: "h.cu", Arch: "sm_90", Compiler: "clang", Flags: c.flags})
		if err != nil {
			t.Fatal(err)
		}
		if n := count(res.PTX, `fma\.rn\.f16\s`); n != c.fma {
			t.Errorf("flags %v: %d fma.rn.f16, want %d", c.flags, n, c.fma)
		}
		if n := count(res.PTX, `fma\.rn\.f16x2\s`); n != c.fma2 {
			t.Errorf("flags %v: %d fma.rn.f16x2, want %d", c.flags, n, c.fma2)
		}
		// __hmul_rn stays one mul.rn.f16, under either setting
		if n := count(res.PTX, `mul\.rn\.f16 `); n < c.mulRN {
			t.Errorf("flags %v: __hmul_rn is not a mul.rn.f16:\n%s", c.flags, res.PTX)
		}
	}
}
