// Uses every intrinsic, atomic and math function the prelude promises.
__global__ void k(float *a, double *d, int *ip, unsigned *up) {
  int i = threadIdx.x;
  float x = a[i];
  a[i] = expf(x) + exp2f(x) + logf(x) + log2f(x) + log10f(x) + sinf(x) + cosf(x) + tanhf(x) + powf(x, a[1]) + sqrtf(x) + rsqrtf(x) + fabsf(x) + fminf(x,1.f) + fmaxf(x,2.f) + floorf(x) + ceilf(x) + fmaf(x,x,x);
  a[i+1] = __expf(x) + __sinf(x) + __cosf(x) + __logf(x) + __fdividef(x, 3.f) + sqrt(x) + exp(x) + max(x, 1.0f);
  double y = d[i];
  d[i] = exp(y) + exp2(y) + log(y) + log2(y) + log10(y) + sin(y) + cos(y) + tanh(y) + pow(y, d[1]) + sqrt(y) + rsqrt(y) + fabs(y) + fmin(y,1.) + fmax(y,2.) + floor(y) + ceil(y) + fma(y,y,y);
  ip[i] = __popc(up[i]) + __popcll(up[i]) + __clz(ip[i]) + __ffs(ip[i]) + __brev(up[i]) + __umulhi(up[i], 7u) + __mulhi(ip[i], 3) + __byte_perm(up[i], 1, 2) + __funnelshift_l(1u,2u,up[i]) + __float2int_rn(x) + __float2int_rd(x) + __float2uint_rz(x) + min(ip[0], 3) + max(up[0], 2u);
  atomicAdd(ip, 1); atomicAdd(up, 1u); atomicAdd(a, 1.f); atomicAdd(d, 1.0); atomicAdd((unsigned long long*)d, 1ull);
  atomicSub(ip, 1); atomicMin(ip, 2); atomicMax(up, 3u); atomicInc(up, 5u); atomicDec(up, 5u); atomicCAS(ip, 1, 2); atomicExch(a, 1.f);
  atomicAnd(ip, 1); atomicOr(up, 1u); atomicXor((unsigned long long*)d, 1ull); atomicMin((long long*)d, 1ll);
  float s = __shfl_sync(0xffffffff, x, 0) + __shfl_up_sync(0xffffffff, x, 1) + __shfl_down_sync(0xffffffff, x, 1) + __shfl_xor_sync(0xffffffff, x, 1);
  unsigned b = __ballot_sync(0xffffffff, x > 0) + __any_sync(0xffffffff, x > 0) + __all_sync(0xffffffff, x > 0) + __activemask();
  __syncwarp(); __syncthreads(); __threadfence(); __threadfence_block();
  int4 v4 = make_int4(1,2,3,4); float4 f4 = reinterpret_cast<float4*>(a)[i];
  dim3 g = gridDim; uint3 t = threadIdx;
  a[i+2] = s + b + v4.w + f4.z + g.x + t.y + __reduce_add_sync(0xffffffff, b) + __match_any_sync(0xffffffff, b) + warpSize;
}
__global__ void k2(float *a, double *d, int *ip, unsigned *up, long long *lp, unsigned long long *ulp) {
  int i = threadIdx.x;
  float x = a[i];
  double y = d[i];
  float s, c;
  sincosf(x, &s, &c);
  double sd, cd;
  sincos(y, &sd, &cd);
  a[i] = s + c + roundf(x) + truncf(x) + copysignf(x, -1.f) + ldexpf(x, 3) + __saturatef(x) + __fadd_rn(x, 1.f) +
         __fmul_rz(x, 3.f) + __fdiv_rd(x, 3.f) + __frcp_ru(x) + __fsqrt_rn(x) + __fmaf_rn(x, x, 1.f) + __powf(x, 2.f) +
         __exp10f(x) + __tanf(x) + __log2f(x) + __log10f(x) + __int_as_float(ip[i]) + __int2float_rn(ip[i]) +
         __uint2float_rz(up[i]) + __double2float_rn(y) + __ldg(a + 1) + sqrt(x) + pow(x, 2.0f) + fabs(x);
  d[i] = sd + cd + __dadd_rn(y, 1.0) + __ddiv_ru(y, 3.0) + __fma_rz(y, y, y) + round(y) + trunc(y) + rint(y) +
         __longlong_as_double(lp[i]) + __ll2double_rn(lp[i]) + __int2double_rn(ip[i]);
  ip[i] = __float_as_int(x) + __float2ll_rn(x) + __double2int_rz(y) + __sad(ip[0], ip[1], 3) + __usad(up[0], up[1], 2u) +
          __hadd(ip[0], ip[1]) + __rhadd(ip[0], ip[1]) + __uhadd(up[0], up[1]) + __mul24(ip[0], 3) + __umul24(up[0], 3u) +
          __popcll(ulp[0]) + __clzll(lp[0]) + __ffsll(lp[0]) + __syncthreads_count(x > 0) + __syncthreads_and(x > 0) +
          __syncthreads_or(x > 0) + __shfl_sync(0xffffffffu, ip[0], 3) + __shfl_down_sync(0xffffffffu, up[0], 1, 16) +
          __reduce_min_sync(0xffffffffu, up[0]) + __reduce_max_sync(0xffffffffu, ip[0]) + __funnelshift_r(up[0], up[1], 3) +
          __funnelshift_lc(up[0], up[1], 40) + (int)__isnanf(x) + (int)__isinff(x) + __signbitd(y) + (int)clock64();
  int pred;
  up[i] = __match_all_sync(0xffffffffu, up[0], &pred) + pred + __match_any_sync(0xffffffffu, x) + __brevll(ulp[0]) +
          __mul64hi(lp[0], lp[1]) + __umul64hi(ulp[0], ulp[1]) + __double2hiint(y) + __double2loint(y) + __fns(up[0], 0, 1);
  lp[i] = llrintf(x) + llroundf(x) + llmin(lp[0], lp[1]) + max(lp[0], lp[1]) + min(ulp[0], ulp[1]) + min(3u, ip[2]);
  atomicAdd_block(ip, 1);
  atomicAdd_system(a, 1.0f);
  atomicMax(ulp, 7ull);
  atomicCAS_block(ulp, 1ull, 2ull);
  __threadfence_system();
}
