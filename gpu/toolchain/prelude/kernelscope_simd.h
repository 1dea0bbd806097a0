// KernelScope: the CUDA Math API's SIMD intrinsics (__vadd2 ... __vsubus4), written for
// KernelScope from the CUDA Math API's descriptions: lane by lane on the 16-bit (…2) or
// 8-bit (…4) lanes of a 32-bit word, in plain integer arithmetic. Measured bit for bit
// against the H200 (testdata/realcuda/features/mathv.cu, gpu/toolchain/mathsweep_test.go).
// Included by the prelude after clang's __clang_cuda_device_functions.h (see
// kernelscope_simd_rename.h).
#pragma clang system_header
#ifndef KERNELSCOPE_SIMD_H
#define KERNELSCOPE_SIMD_H

#define KS_NV extern "C" __device__ inline __attribute__((always_inline))

// KS_VOP(NAME, W, E) defines __nv_NAME(a, b): lane by lane (width W bits), the low W bits
// of E, an expression of the lanes' unsigned values ua, ub and signed values sa, sb
// (as long long, so no lane arithmetic overflows). KS_VSAD sums E over the lanes instead.
#define KS_VLANES(W, BODY)                                                                   \
  unsigned int r = 0;                                                                        \
  for (int i = 0; i < 32; i += (W)) {                                                        \
    const unsigned int m = (W) == 16 ? 0xffffu : 0xffu;                                      \
    long long ua = (a >> i) & m, ub = (b >> i) & m;                                          \
    long long sa = ua > m / 2 ? ua - (long long)m - 1 : ua, sb = ub > m / 2 ? ub - (long long)m - 1 : ub; \
    (void)sa, (void)sb, (void)ua, (void)ub;                                                  \
    BODY                                                                                     \
  }                                                                                          \
  return r;
#define KS_VOP(NAME, W, E)                                                                   \
  KS_NV unsigned int __nv_##NAME(unsigned int a, unsigned int b) {                           \
    KS_VLANES(W, r |= ((unsigned int)(E) & m) << i;)                                         \
  }
#define KS_VOP1(NAME, W, E)                                                                  \
  KS_NV unsigned int __nv_##NAME(unsigned int a) {                                           \
    unsigned int b = 0;                                                                      \
    KS_VLANES(W, r |= ((unsigned int)(E) & m) << i;)                                         \
  }
#define KS_VSAD(NAME, W, E)                                                                  \
  KS_NV unsigned int __nv_##NAME(unsigned int a, unsigned int b) { KS_VLANES(W, r += (unsigned int)(E);) }
#define KS_VSMAX(W) ((1ll << ((W) - 1)) - 1)
#define KS_VSMIN(W) (-(1ll << ((W) - 1)))
#define KS_VCLAMP(v, lo, hi) ((v) < (lo) ? (lo) : (v) > (hi) ? (hi) : (v))
#define KS_VABS(v) ((v) < 0 ? -(v) : (v))
#define KS_VEACH(W, S)                                                                       \
  KS_VOP1(vabs##S, W, KS_VABS(sa))                                                           \
  KS_VOP1(vabsss##S, W, KS_VCLAMP(KS_VABS(sa), 0, KS_VSMAX(W)))                              \
  KS_VOP1(vneg##S, W, -sa)                                                                   \
  KS_VOP1(vnegss##S, W, KS_VCLAMP(-sa, KS_VSMIN(W), KS_VSMAX(W)))                           \
  KS_VOP(vabsdiffs##S, W, KS_VABS(sa - sb))                                                  \
  KS_VOP(vabsdiffu##S, W, KS_VABS(ua - ub))                                                  \
  KS_VOP(vadd##S, W, ua + ub)                                                                \
  KS_VOP(vaddss##S, W, KS_VCLAMP(sa + sb, KS_VSMIN(W), KS_VSMAX(W)))                         \
  KS_VOP(vaddus##S, W, KS_VCLAMP(ua + ub, 0, (long long)m))                                  \
  KS_VOP(vsub##S, W, ua - ub)                                                                \
  KS_VOP(vsubss##S, W, KS_VCLAMP(sa - sb, KS_VSMIN(W), KS_VSMAX(W)))                         \
  KS_VOP(vsubus##S, W, KS_VCLAMP(ua - ub, 0, (long long)m))                                  \
  KS_VOP(vavgs##S, W, (sa + sb + ((sa + sb) >= 0 ? 1 : 0)) >> 1)                              \
  KS_VOP(vavgu##S, W, (ua + ub + 1) >> 1)                                                    \
  KS_VOP(vhaddu##S, W, (ua + ub) >> 1)                                                       \
  KS_VOP(vmaxs##S, W, sa > sb ? sa : sb)                                                     \
  KS_VOP(vmaxu##S, W, ua > ub ? ua : ub)                                                     \
  KS_VOP(vmins##S, W, sa < sb ? sa : sb)                                                     \
  KS_VOP(vminu##S, W, ua < ub ? ua : ub)                                                     \
  KS_VOP(vcmpeq##S, W, ua == ub ? -1 : 0)                                                    \
  KS_VOP(vcmpne##S, W, ua != ub ? -1 : 0)                                                    \
  KS_VOP(vcmpges##S, W, sa >= sb ? -1 : 0)                                                   \
  KS_VOP(vcmpgeu##S, W, ua >= ub ? -1 : 0)                                                   \
  KS_VOP(vcmpgts##S, W, sa > sb ? -1 : 0)                                                    \
  KS_VOP(vcmpgtu##S, W, ua > ub ? -1 : 0)                                                    \
  KS_VOP(vcmples##S, W, sa <= sb ? -1 : 0)                                                   \
  KS_VOP(vcmpleu##S, W, ua <= ub ? -1 : 0)                                                   \
  KS_VOP(vcmplts##S, W, sa < sb ? -1 : 0)                                                    \
  KS_VOP(vcmpltu##S, W, ua < ub ? -1 : 0)                                                    \
  KS_VOP(vseteq##S, W, ua == ub)                                                             \
  KS_VOP(vsetne##S, W, ua != ub)                                                             \
  KS_VOP(vsetges##S, W, sa >= sb)                                                            \
  KS_VOP(vsetgeu##S, W, ua >= ub)                                                            \
  KS_VOP(vsetgts##S, W, sa > sb)                                                             \
  KS_VOP(vsetgtu##S, W, ua > ub)                                                             \
  KS_VOP(vsetles##S, W, sa <= sb)                                                            \
  KS_VOP(vsetleu##S, W, ua <= ub)                                                            \
  KS_VOP(vsetlts##S, W, sa < sb)                                                             \
  KS_VOP(vsetltu##S, W, ua < ub)                                                             \
  KS_VSAD(vsads##S, W, KS_VABS(sa - sb))                                                     \
  KS_VSAD(vsadu##S, W, KS_VABS(ua - ub))
// The __nv_ functions, by lane width: __nv_vabs2 ... (16-bit lanes), __nv_vabs4 ... (8-bit lanes).
KS_VEACH(16, 2)
KS_VEACH(8, 4)
#undef KS_VEACH
#undef KS_VLANES
#undef KS_VOP
#undef KS_VOP1
#undef KS_VSAD
#undef KS_VSMAX
#undef KS_VSMIN
#undef KS_VCLAMP
#undef KS_VABS
#undef KS_NV

// The CUDA names (clang's versions were renamed by kernelscope_simd_rename.h).
#undef __vabs2
#undef __vabs4
#undef __vabsdiffs2
#undef __vabsdiffs4
#undef __vabsdiffu2
#undef __vabsdiffu4
#undef __vabsss2
#undef __vabsss4
#undef __vadd2
#undef __vadd4
#undef __vaddss2
#undef __vaddss4
#undef __vaddus2
#undef __vaddus4
#undef __vavgs2
#undef __vavgs4
#undef __vavgu2
#undef __vavgu4
#undef __vcmpeq2
#undef __vcmpeq4
#undef __vcmpges2
#undef __vcmpges4
#undef __vcmpgeu2
#undef __vcmpgeu4
#undef __vcmpgts2
#undef __vcmpgts4
#undef __vcmpgtu2
#undef __vcmpgtu4
#undef __vcmples2
#undef __vcmples4
#undef __vcmpleu2
#undef __vcmpleu4
#undef __vcmplts2
#undef __vcmplts4
#undef __vcmpltu2
#undef __vcmpltu4
#undef __vcmpne2
#undef __vcmpne4
#undef __vhaddu2
#undef __vhaddu4
#undef __vmaxs2
#undef __vmaxs4
#undef __vmaxu2
#undef __vmaxu4
#undef __vmins2
#undef __vmins4
#undef __vminu2
#undef __vminu4
#undef __vneg2
#undef __vneg4
#undef __vnegss2
#undef __vnegss4
#undef __vsads2
#undef __vsads4
#undef __vsadu2
#undef __vsadu4
#undef __vseteq2
#undef __vseteq4
#undef __vsetges2
#undef __vsetges4
#undef __vsetgeu2
#undef __vsetgeu4
#undef __vsetgts2
#undef __vsetgts4
#undef __vsetgtu2
#undef __vsetgtu4
#undef __vsetles2
#undef __vsetles4
#undef __vsetleu2
#undef __vsetleu4
#undef __vsetlts2
#undef __vsetlts4
#undef __vsetltu2
#undef __vsetltu4
#undef __vsetne2
#undef __vsetne4
#undef __vsub2
#undef __vsub4
#undef __vsubss2
#undef __vsubss4
#undef __vsubus2
#undef __vsubus4
static __device__ __forceinline__ unsigned int __vabs2(unsigned int a) { return __nv_vabs2(a); }
static __device__ __forceinline__ unsigned int __vabs4(unsigned int a) { return __nv_vabs4(a); }
static __device__ __forceinline__ unsigned int __vabsdiffs2(unsigned int a, unsigned int b) { return __nv_vabsdiffs2(a, b); }
static __device__ __forceinline__ unsigned int __vabsdiffs4(unsigned int a, unsigned int b) { return __nv_vabsdiffs4(a, b); }
static __device__ __forceinline__ unsigned int __vabsdiffu2(unsigned int a, unsigned int b) { return __nv_vabsdiffu2(a, b); }
static __device__ __forceinline__ unsigned int __vabsdiffu4(unsigned int a, unsigned int b) { return __nv_vabsdiffu4(a, b); }
static __device__ __forceinline__ unsigned int __vabsss2(unsigned int a) { return __nv_vabsss2(a); }
static __device__ __forceinline__ unsigned int __vabsss4(unsigned int a) { return __nv_vabsss4(a); }
static __device__ __forceinline__ unsigned int __vadd2(unsigned int a, unsigned int b) { return __nv_vadd2(a, b); }
static __device__ __forceinline__ unsigned int __vadd4(unsigned int a, unsigned int b) { return __nv_vadd4(a, b); }
static __device__ __forceinline__ unsigned int __vaddss2(unsigned int a, unsigned int b) { return __nv_vaddss2(a, b); }
static __device__ __forceinline__ unsigned int __vaddss4(unsigned int a, unsigned int b) { return __nv_vaddss4(a, b); }
static __device__ __forceinline__ unsigned int __vaddus2(unsigned int a, unsigned int b) { return __nv_vaddus2(a, b); }
static __device__ __forceinline__ unsigned int __vaddus4(unsigned int a, unsigned int b) { return __nv_vaddus4(a, b); }
static __device__ __forceinline__ unsigned int __vavgs2(unsigned int a, unsigned int b) { return __nv_vavgs2(a, b); }
static __device__ __forceinline__ unsigned int __vavgs4(unsigned int a, unsigned int b) { return __nv_vavgs4(a, b); }
static __device__ __forceinline__ unsigned int __vavgu2(unsigned int a, unsigned int b) { return __nv_vavgu2(a, b); }
static __device__ __forceinline__ unsigned int __vavgu4(unsigned int a, unsigned int b) { return __nv_vavgu4(a, b); }
static __device__ __forceinline__ unsigned int __vcmpeq2(unsigned int a, unsigned int b) { return __nv_vcmpeq2(a, b); }
static __device__ __forceinline__ unsigned int __vcmpeq4(unsigned int a, unsigned int b) { return __nv_vcmpeq4(a, b); }
static __device__ __forceinline__ unsigned int __vcmpges2(unsigned int a, unsigned int b) { return __nv_vcmpges2(a, b); }
static __device__ __forceinline__ unsigned int __vcmpges4(unsigned int a, unsigned int b) { return __nv_vcmpges4(a, b); }
static __device__ __forceinline__ unsigned int __vcmpgeu2(unsigned int a, unsigned int b) { return __nv_vcmpgeu2(a, b); }
static __device__ __forceinline__ unsigned int __vcmpgeu4(unsigned int a, unsigned int b) { return __nv_vcmpgeu4(a, b); }
static __device__ __forceinline__ unsigned int __vcmpgts2(unsigned int a, unsigned int b) { return __nv_vcmpgts2(a, b); }
static __device__ __forceinline__ unsigned int __vcmpgts4(unsigned int a, unsigned int b) { return __nv_vcmpgts4(a, b); }
static __device__ __forceinline__ unsigned int __vcmpgtu2(unsigned int a, unsigned int b) { return __nv_vcmpgtu2(a, b); }
static __device__ __forceinline__ unsigned int __vcmpgtu4(unsigned int a, unsigned int b) { return __nv_vcmpgtu4(a, b); }
static __device__ __forceinline__ unsigned int __vcmples2(unsigned int a, unsigned int b) { return __nv_vcmples2(a, b); }
static __device__ __forceinline__ unsigned int __vcmples4(unsigned int a, unsigned int b) { return __nv_vcmples4(a, b); }
static __device__ __forceinline__ unsigned int __vcmpleu2(unsigned int a, unsigned int b) { return __nv_vcmpleu2(a, b); }
static __device__ __forceinline__ unsigned int __vcmpleu4(unsigned int a, unsigned int b) { return __nv_vcmpleu4(a, b); }
static __device__ __forceinline__ unsigned int __vcmplts2(unsigned int a, unsigned int b) { return __nv_vcmplts2(a, b); }
static __device__ __forceinline__ unsigned int __vcmplts4(unsigned int a, unsigned int b) { return __nv_vcmplts4(a, b); }
static __device__ __forceinline__ unsigned int __vcmpltu2(unsigned int a, unsigned int b) { return __nv_vcmpltu2(a, b); }
static __device__ __forceinline__ unsigned int __vcmpltu4(unsigned int a, unsigned int b) { return __nv_vcmpltu4(a, b); }
static __device__ __forceinline__ unsigned int __vcmpne2(unsigned int a, unsigned int b) { return __nv_vcmpne2(a, b); }
static __device__ __forceinline__ unsigned int __vcmpne4(unsigned int a, unsigned int b) { return __nv_vcmpne4(a, b); }
static __device__ __forceinline__ unsigned int __vhaddu2(unsigned int a, unsigned int b) { return __nv_vhaddu2(a, b); }
static __device__ __forceinline__ unsigned int __vhaddu4(unsigned int a, unsigned int b) { return __nv_vhaddu4(a, b); }
static __device__ __forceinline__ unsigned int __vmaxs2(unsigned int a, unsigned int b) { return __nv_vmaxs2(a, b); }
static __device__ __forceinline__ unsigned int __vmaxs4(unsigned int a, unsigned int b) { return __nv_vmaxs4(a, b); }
static __device__ __forceinline__ unsigned int __vmaxu2(unsigned int a, unsigned int b) { return __nv_vmaxu2(a, b); }
static __device__ __forceinline__ unsigned int __vmaxu4(unsigned int a, unsigned int b) { return __nv_vmaxu4(a, b); }
static __device__ __forceinline__ unsigned int __vmins2(unsigned int a, unsigned int b) { return __nv_vmins2(a, b); }
static __device__ __forceinline__ unsigned int __vmins4(unsigned int a, unsigned int b) { return __nv_vmins4(a, b); }
static __device__ __forceinline__ unsigned int __vminu2(unsigned int a, unsigned int b) { return __nv_vminu2(a, b); }
static __device__ __forceinline__ unsigned int __vminu4(unsigned int a, unsigned int b) { return __nv_vminu4(a, b); }
static __device__ __forceinline__ unsigned int __vneg2(unsigned int a) { return __nv_vneg2(a); }
static __device__ __forceinline__ unsigned int __vneg4(unsigned int a) { return __nv_vneg4(a); }
static __device__ __forceinline__ unsigned int __vnegss2(unsigned int a) { return __nv_vnegss2(a); }
static __device__ __forceinline__ unsigned int __vnegss4(unsigned int a) { return __nv_vnegss4(a); }
static __device__ __forceinline__ unsigned int __vsads2(unsigned int a, unsigned int b) { return __nv_vsads2(a, b); }
static __device__ __forceinline__ unsigned int __vsads4(unsigned int a, unsigned int b) { return __nv_vsads4(a, b); }
static __device__ __forceinline__ unsigned int __vsadu2(unsigned int a, unsigned int b) { return __nv_vsadu2(a, b); }
static __device__ __forceinline__ unsigned int __vsadu4(unsigned int a, unsigned int b) { return __nv_vsadu4(a, b); }
static __device__ __forceinline__ unsigned int __vseteq2(unsigned int a, unsigned int b) { return __nv_vseteq2(a, b); }
static __device__ __forceinline__ unsigned int __vseteq4(unsigned int a, unsigned int b) { return __nv_vseteq4(a, b); }
static __device__ __forceinline__ unsigned int __vsetges2(unsigned int a, unsigned int b) { return __nv_vsetges2(a, b); }
static __device__ __forceinline__ unsigned int __vsetges4(unsigned int a, unsigned int b) { return __nv_vsetges4(a, b); }
static __device__ __forceinline__ unsigned int __vsetgeu2(unsigned int a, unsigned int b) { return __nv_vsetgeu2(a, b); }
static __device__ __forceinline__ unsigned int __vsetgeu4(unsigned int a, unsigned int b) { return __nv_vsetgeu4(a, b); }
static __device__ __forceinline__ unsigned int __vsetgts2(unsigned int a, unsigned int b) { return __nv_vsetgts2(a, b); }
static __device__ __forceinline__ unsigned int __vsetgts4(unsigned int a, unsigned int b) { return __nv_vsetgts4(a, b); }
static __device__ __forceinline__ unsigned int __vsetgtu2(unsigned int a, unsigned int b) { return __nv_vsetgtu2(a, b); }
static __device__ __forceinline__ unsigned int __vsetgtu4(unsigned int a, unsigned int b) { return __nv_vsetgtu4(a, b); }
static __device__ __forceinline__ unsigned int __vsetles2(unsigned int a, unsigned int b) { return __nv_vsetles2(a, b); }
static __device__ __forceinline__ unsigned int __vsetles4(unsigned int a, unsigned int b) { return __nv_vsetles4(a, b); }
static __device__ __forceinline__ unsigned int __vsetleu2(unsigned int a, unsigned int b) { return __nv_vsetleu2(a, b); }
static __device__ __forceinline__ unsigned int __vsetleu4(unsigned int a, unsigned int b) { return __nv_vsetleu4(a, b); }
static __device__ __forceinline__ unsigned int __vsetlts2(unsigned int a, unsigned int b) { return __nv_vsetlts2(a, b); }
static __device__ __forceinline__ unsigned int __vsetlts4(unsigned int a, unsigned int b) { return __nv_vsetlts4(a, b); }
static __device__ __forceinline__ unsigned int __vsetltu2(unsigned int a, unsigned int b) { return __nv_vsetltu2(a, b); }
static __device__ __forceinline__ unsigned int __vsetltu4(unsigned int a, unsigned int b) { return __nv_vsetltu4(a, b); }
static __device__ __forceinline__ unsigned int __vsetne2(unsigned int a, unsigned int b) { return __nv_vsetne2(a, b); }
static __device__ __forceinline__ unsigned int __vsetne4(unsigned int a, unsigned int b) { return __nv_vsetne4(a, b); }
static __device__ __forceinline__ unsigned int __vsub2(unsigned int a, unsigned int b) { return __nv_vsub2(a, b); }
static __device__ __forceinline__ unsigned int __vsub4(unsigned int a, unsigned int b) { return __nv_vsub4(a, b); }
static __device__ __forceinline__ unsigned int __vsubss2(unsigned int a, unsigned int b) { return __nv_vsubss2(a, b); }
static __device__ __forceinline__ unsigned int __vsubss4(unsigned int a, unsigned int b) { return __nv_vsubss4(a, b); }
static __device__ __forceinline__ unsigned int __vsubus2(unsigned int a, unsigned int b) { return __nv_vsubus2(a, b); }
static __device__ __forceinline__ unsigned int __vsubus4(unsigned int a, unsigned int b) { return __nv_vsubus4(a, b); }
#endif // KERNELSCOPE_SIMD_H
