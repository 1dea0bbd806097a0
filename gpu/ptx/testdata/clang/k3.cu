#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
extern "C" __global__ void __launch_bounds__(128, 2) warp(unsigned *out, const float *in, double *d, int n) {
  unsigned t = __nvvm_read_ptx_sreg_tid_x();
  unsigned v = __nvvm_shfl_sync_down_i32(0xffffffff, t * 3, 1, 0x1f);
  unsigned b = __nvvm_vote_ballot_sync(0xffffffff, t & 1);
  unsigned c = __nvvm_atom_add_gen_i((int*)out, (int)v);
  float f = in[t];
  #pragma unroll 1
  for (int k = 0; k < n; k++) f = f * 1.5f + __builtin_sqrtf(f);
  d[t] = (double)f / 3.0 + __builtin_fma(d[t], 2.0, 1e-300);
  unsigned long long clk = __nvvm_read_ptx_sreg_clock64();
  out[t + 1] = v + b + c + (unsigned)clk + __nvvm_read_ptx_sreg_laneid() + __builtin_popcount(b) + __builtin_clz(t);
  short s = (short)t; out[t+2] = (unsigned)(s * s) + __nvvm_read_ptx_sreg_lanemask_lt();
  __nvvm_bar_sync(0);
  if (t == 5) __builtin_trap();
}
