package toolchain_test

import "testing"

// TestFastMathAgainstH200UseFastMath is TestFastMathAgainstH200 with
// -use_fast_math, against the H200's results of scripts/mufu/fastmath.cu built
// with -use_fast_math (testdata/measured/mufu/fastmath_out1.bin.gz): the
// .approx forms become .ftz, and tanhf becomes tanh.approx.f32.
func TestFastMathAgainstH200UseFastMath(t *testing.T) {
	n := fastMathN
	// Bit-exact counts of n held as floors (2026-12-02); the MUFU.RCP/RSQ paths
	// are modelled exactly (gpu/arith/mufu_rcp.go), so __fdividef and rsqrtf must
	// give every one of the H200's results.
	floor := map[string]int{"__fdividef": n, "__frsqrt_rn": n, "rsqrtf": n}
	// The prelude's fast intrinsics take the .ftz forms under __CUDA_FTZ as nvcc does
	// (mul.ftz, ex2/lg2/sin/cos.approx.ftz; before 2026-12-02 __expf missed 39 and
	// __logf 2 inputs, all with subnormal arguments or results); tanhf is
	// tanh.approx.f32, whose MUFU.TANH model is exact on every input (gpu/arith/mufu_tanh.go).
	for _, f := range []string{"__expf", "__logf", "__sinf", "__cosf", "erff", "expf", "logf", "tanhf"} {
		floor[f] = n
	}
	fastMathVsH200(t, "fastmath_out1.bin.gz", []string{"-use_fast_math"}, floor)
}
