package toolchain

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// userMacroNames are names users commonly give to macros (sizes, tile shapes,
// types) that a header could use as template parameters or locals.
var userMacroNames = []string{"N", "M", "K", "T", "L", "A", "G", "P", "LA", "LB", "Size", "Use", "Layout", "Parent", "m", "n", "k"}

// TestUserMacrosDoNotBreakHeaders defines each of userMacroNames both with -D
// and with #define before the toolkit headers a cell includes: the prelude and
// the headers must compile as nvcc's do (they use reserved names or guard them).
func TestUserMacrosDoNotBreakHeaders(t *testing.T) {
	if _, err := exec.LookPath("clang-19"); err != nil {
		t.Skip("clang-19 not found")
	}
	var defs, flags []string
	for i, n := range userMacroNames {
		defs = append(defs, "#define "+n+" "+strconv.Itoa(i+2))
		flags = append(flags, "-D"+n+"="+strconv.Itoa(i+2))
	}
	body := `
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
namespace cg = cooperative_groups;
__global__ void kern(float *out, int len) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
	float v = i < len ? expf((float)i) + __half2float(__float2half(1.5f)) : 0.f;
	v = cg::reduce(tile, v, cg::plus<float>());
	if (i < len) out[i] = v + (float)N * 0 + jnf(3, 1.f) + lgammaf(2.5f);
}
`
	for _, tc := range []struct {
		name  string
		src   string
		flags []string
	}{
		{"#define before the includes", strings.Join(defs, "\n") + body, nil},
		{"-D flags", body, flags},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(context.Background(), Request{Source: tc.src, File: "cell.cu", Arch: "sm_90", Compiler: "clang", Flags: tc.flags})
			if err != nil {
				t.Fatalf("compile with user macros %v: %v", userMacroNames, err)
			}
		})
	}
}

// TestPowOverloads: pow of mixed arithmetic types is C++11's (the double pow of the
// promoted arguments, returning double) as with nvcc; pow(float, float) stays float.
func TestPowOverloads(t *testing.T) {
	if _, err := exec.LookPath("clang-19"); err != nil {
		t.Skip("clang-19 not found")
	}
	src := `
__global__ void kern(float *o, const float *x, const int *e) {
	int i = threadIdx.x;
	static_assert(__is_same(decltype(pow(2, 3)), double), "pow(int, int)");
	static_assert(__is_same(decltype(pow(x[i], 2.0)), double), "pow(float, double)");
	static_assert(__is_same(decltype(pow(2.0, x[i])), double), "pow(double, float)");
	static_assert(__is_same(decltype(pow(x[i], e[i])), double), "pow(float, int)");
	static_assert(__is_same(decltype(pow(e[i], 2u)), double), "pow(int, unsigned)");
	static_assert(__is_same(decltype(pow(x[i], 2.0f)), float), "pow(float, float)");
	static_assert(__is_same(decltype(pow(1.0, 2.0)), double), "pow(double, double)");
	o[i] = pow(2, 3) + pow(x[i], 2.0) + pow(2.0, x[i]) + pow(x[i], e[i]) + pow(e[i], 2) + pow(x[i], 2.0f);
}
`
	if _, err := Compile(context.Background(), Request{Source: src, File: "cell.cu", Arch: "sm_90", Compiler: "clang"}); err != nil {
		t.Fatalf("pow overloads: %v", err)
	}
}
