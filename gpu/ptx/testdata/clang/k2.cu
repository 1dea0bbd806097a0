#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __noinline__ __attribute__((noinline))
#define __constant__ __attribute__((constant))
__constant__ float ctab[4] = {1.0f, 2.0f, 3.5f, -1.0f};
__device__ int gcount = 7;
__device__ __noinline__ float helper(float x, int k) { return x * ctab[k & 3] + (float)gcount; }
struct S { float a; double b; int c[3]; };
__device__ __noinline__ S mk(float x) { S s; s.a = x; s.b = x * 2; s.c[0] = 1; s.c[1]=2; s.c[2]=(int)x; return s; }
extern "C" __global__ void kern(float *out, const float *in, int n) {
  __shared__ float tile[256];
  extern __shared__ float dyn[];
  int i = __nvvm_read_ptx_sreg_tid_x() + __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x();
  if (i >= n) return;
  tile[__nvvm_read_ptx_sreg_tid_x()] = in[i];
  dyn[__nvvm_read_ptx_sreg_tid_x()] = in[i] * 2;
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < n; k++) {
    if (k % 7 == 3) continue;
    if (acc > 1000.f) break;
    acc += helper(tile[k & 255], k);
  }
  switch (i & 7) {
  case 0: acc += 1; break;
  case 1: acc *= 3; break;
  case 2: acc -= 5; break;
  case 3: acc = acc / 7; break;
  case 4: acc = __builtin_sqrtf(acc); break;
  default: acc = -acc;
  }
  S s = mk(acc);
  out[i] = acc + s.b + s.c[2] + dyn[0];
  atomicAdd: ;
}
