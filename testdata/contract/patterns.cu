// KernelScope's own floating-point contraction patterns (testdata/contract/README.md):
// each kernel is one pattern of fmul feeding fadd/fsub; nvcc 13's PTX for them is recorded in
// nvcc_sm90.ptx and the clang path's fma/mul/add counts are compared with it (contract_test.go).
#include <cuda_fp16.h>
#define FULL 0xffffffffu

// single expression a*b+c
__global__ void p01_expr(const float* x, float* o) { o[0] = x[0] * x[1] + x[2]; }
// across statements
__global__ void p02_stmt(const float* x, float* o) { float t = x[0] * x[1]; o[0] = t + x[2]; }
// one mul, two adds
__global__ void p03_two_adds(const float* x, float* o) { float t = x[0] * x[1]; o[0] = t + x[2]; o[1] = t + x[3]; }
// mul also stored
__global__ void p04_store(const float* x, float* o) { float t = x[0] * x[1]; o[0] = t; o[1] = t + x[2]; }
// mul also shuffled, shuffle added to it (the warp sum-of-squares shape)
__global__ void p05_shfl(const float* x, float* o) {
  float t = x[threadIdx.x] * x[threadIdx.x];
  t += __shfl_xor_sync(FULL, t, 1);
  o[threadIdx.x] = t;
}
// mul also compared
__global__ void p06_cmp(const float* x, float* o) { float t = x[0] * x[1]; o[0] = t + x[2]; if (t > x[3]) o[1] = 1.0f; }
// a*b - c
__global__ void p07_sub(const float* x, float* o) { o[0] = x[0] * x[1] - x[2]; }
// c - a*b
__global__ void p08_rsub(const float* x, float* o) { o[0] = x[2] - x[0] * x[1]; }
// -(a*b) - c
__global__ void p09_negsub(const float* x, float* o) { o[0] = -(x[0] * x[1]) - x[2]; }
// a*b + c*d
__global__ void p10_two_muls(const float* x, float* o) { o[0] = x[0] * x[1] + x[2] * x[3]; }
// a*b + c*d + e*f
__global__ void p11_three_muls(const float* x, float* o) { o[0] = x[0] * x[1] + x[2] * x[3] + x[4] * x[5]; }
// mul in one block, add in another
__global__ void p12_blocks(const float* x, float* o, int f) { float t = x[0] * x[1]; if (f) o[0] = t + x[2]; else o[1] = x[3]; }
// dot-product loop
__global__ void p13_loop(const float* x, const float* y, float* o, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += x[i] * y[i];
  o[0] = s;
}
// one mul, four adds
__global__ void p14_four_adds(const float* x, float* o) {
  float t = x[0] * x[1]; o[0] = t + x[2]; o[1] = t + x[3]; o[2] = t + x[4]; o[3] = t + x[5];
}
// one mul, five adds
__global__ void p15_five_adds(const float* x, float* o) {
  float t = x[0] * x[1]; o[0] = t + x[2]; o[1] = t + x[3]; o[2] = t + x[4]; o[3] = t + x[5]; o[4] = t + x[6];
}
// double, single and two uses
__global__ void p16_double(const double* x, double* o) { o[0] = x[0] * x[1] + x[2]; double t = x[3] * x[4]; o[1] = t + x[5]; o[2] = t; }
// half intrinsics and operators
__global__ void p17_half(const __half* x, __half* o) {
  o[0] = __hadd(__hmul(x[0], x[1]), x[2]);
  o[1] = x[0] * x[1] + x[3];
  __half t = x[4] * x[5]; o[2] = t + x[6]; o[3] = t;
}
// half2 intrinsics and operators
__global__ void p18_half2(const __half2* x, __half2* o) {
  o[0] = __hadd2(__hmul2(x[0], x[1]), x[2]);
  o[1] = x[0] * x[1] + x[3];
}
// mul feeding fsub and fadd
__global__ void p19_add_sub(const float* x, float* o) { float t = x[0] * x[1]; o[0] = t + x[2]; o[1] = t - x[3]; }
// mul feeding two fsubs
__global__ void p20_two_subs(const float* x, float* o) { float t = x[0] * x[1]; o[0] = t - x[2]; o[1] = x[3] - t; }
// chain: (a*b+c)*d+e
__global__ void p21_chain(const float* x, float* o) { float u = x[0] * x[1] + x[2]; o[0] = u * x[3] + x[4]; }
// warp sum of squares with a full butterfly
__global__ void p22_warp_sumsq(const float* x, float* o) {
  float v = x[threadIdx.x];
  float s = v * v;
  for (int m = 16; m > 0; m >>= 1) s += __shfl_xor_sync(FULL, s, m);
  o[threadIdx.x] = s;
}
// mul feeding an add and another mul
__global__ void p23_add_mul(const float* x, float* o) { float t = x[0] * x[1]; o[0] = t + x[2]; o[1] = t * x[3]; }
// mul feeding an add and a conversion
__global__ void p24_add_cvt(const float* x, float* o, int* k) { float t = x[0] * x[1]; o[0] = t + x[2]; k[0] = (int)t; }
// t + t
__global__ void p25_self(const float* x, float* o) { float t = x[0] * x[1]; o[0] = t + t; }
// mul used by an add in its block and an add in another block
__global__ void p26_add_and_block(const float* x, float* o, int f) { float t = x[0] * x[1]; o[0] = t + x[2]; if (f) o[1] = t + x[3]; }
// loop-carried mul used after the loop
__global__ void p27_after_loop(const float* x, float* o, int n) {
  float t = x[0] * x[1];
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += x[i + 2];
  o[0] = t + s;
}
// mul feeding an add and a call-like intrinsic (fabsf)
__global__ void p28_add_abs(const float* x, float* o) { float t = x[0] * x[1]; o[0] = t + x[2]; o[1] = fabsf(t); }
// mul feeding an add and a select
__global__ void p29_add_select(const float* x, float* o, int f) { float t = x[0] * x[1]; o[0] = t + x[2]; o[1] = f ? t : x[3]; }
// double mul feeding a shuffle-like store and an add (double, multi-use, non-add)
__global__ void p30_double_store(const double* x, double* o) { double t = x[0] * x[1]; o[0] = t + x[2]; o[1] = t; }
// layer-norm shape: mean and variance from one pass
__global__ void p31_meanvar(const float* x, float* o) {
  float v = x[threadIdx.x];
  float s = v, q = v * v;
  for (int m = 16; m > 0; m >>= 1) { s += __shfl_xor_sync(FULL, s, m); q += __shfl_xor_sync(FULL, q, m); }
  float mean = s / 32.0f;
  o[threadIdx.x] = q / 32.0f - mean * mean;
}
// x*y - z with the product also added
__global__ void p32_sub_multi(const float* x, float* o) { float t = x[0] * x[1]; o[0] = t - x[2]; o[1] = t + x[3]; o[2] = t + x[4]; }
// products of a product: a*b*c + d
__global__ void p33_mul3(const float* x, float* o) { o[0] = x[0] * x[1] * x[2] + x[3]; }
// an fneg of the product added
__global__ void p34_neg_add(const float* x, float* o) { float t = -(x[0] * x[1]); o[0] = t + x[2]; }
// mul feeding an add whose result is also the other operand's producer (accumulate two products into one)
__global__ void p35_acc2(const float* x, float* o) { float s = x[4]; s += x[0] * x[1]; s += x[2] * x[3]; o[0] = s; }
// mul feeding an add, and the same mul feeding a shuffle only (no add on the shuffle)
__global__ void p36_shfl_only(const float* x, float* o) {
  float t = x[threadIdx.x] * x[threadIdx.x + 32];
  o[threadIdx.x] = t + x[threadIdx.x + 64];
  o[threadIdx.x + 32] = __shfl_down_sync(FULL, t, 1);
}
// mul used by adds in two different blocks only
__global__ void p37_two_blocks(const float* x, float* o, int f) { float t = x[0] * x[1]; if (f) o[0] = t + x[2]; else o[1] = t + x[3]; }
// stencil-like weighted sum, constant weights
__global__ void p38_stencil(const float* x, float* o) {
  int i = threadIdx.x + 1;
  o[i] = 0.25f * x[i - 1] + 0.5f * x[i] + 0.25f * x[i + 1];
}
// double two adds
__global__ void p39_double_two_adds(const double* x, double* o) { double t = x[0] * x[1]; o[0] = t + x[2]; o[1] = t + x[3]; }
// fmul used by fadd and by an fmul that feeds an add
__global__ void p40_square_chain(const float* x, float* o) { float t = x[0] * x[1]; o[0] = t + x[2]; o[1] = t * t + x[3]; }
// mul also stored, its add ~600 IR instructions later (NVPTX's distance heuristic)
__global__ void p41_far(const float* x, float* o, unsigned* k) {
  float t = x[0] * x[1];
  o[0] = t;
  unsigned h = k[0];
#pragma unroll
  for (int i = 0; i < 300; i++) h = (h * 2654435761u) ^ (unsigned)i;
  k[1] = h;
  o[1] = t + x[2];
}
// as p41 with the mul's operand used again after the add
__global__ void p42_far_live(const float* x, float* o, unsigned* k) {
  float a = x[0];
  float t = a * x[1];
  o[0] = t;
  unsigned h = k[0];
#pragma unroll
  for (int i = 0; i < 300; i++) h = (h * 2654435761u) ^ (unsigned)i;
  k[1] = h;
  o[1] = t + x[2];
  o[2] = a;
}
// fmul feeding an add and a shuffle, in a loop (rms-norm: square once, reduce across the warp)
__global__ void p43_rms(const float* x, float* o, int n) {
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += 32) { float v = x[i]; s += v * v; }
  for (int m = 16; m > 0; m >>= 1) s += __shfl_xor_sync(FULL, s, m);
  o[threadIdx.x] = s;
}
// half mul feeding a half add and a float conversion
__global__ void p44_half_cvt(const __half* x, __half* o, float* f) { __half t = __hmul(x[0], x[1]); o[0] = __hadd(t, x[2]); f[0] = __half2float(t); }
