// probe.cu: one kernel per PTX special-function form, compiled for sm_90 so
// that cuobjdump --dump-sass shows the SASS sequence ptxas makes of each.
#define U(name, ins) extern "C" __global__ void name(float *o, const float *x) { float r; asm volatile(ins " %0, %1;" : "=f"(r) : "f"(x[threadIdx.x])); o[threadIdx.x] = r; }
#define B(name, ins) extern "C" __global__ void name(float *o, const float *x) { float r; asm volatile(ins " %0, %1, %2;" : "=f"(r) : "f"(x[threadIdx.x]), "f"(x[threadIdx.x + 32])); o[threadIdx.x] = r; }
#define H(name, ins) extern "C" __global__ void name(unsigned short *o, const unsigned short *x) { unsigned short r; asm volatile(ins " %0, %1;" : "=h"(r) : "h"(x[threadIdx.x])); o[threadIdx.x] = r; }
#define H2(name, ins) extern "C" __global__ void name(unsigned *o, const unsigned *x) { unsigned r; asm volatile(ins " %0, %1;" : "=r"(r) : "r"(x[threadIdx.x])); o[threadIdx.x] = r; }
U(p_rcp, "rcp.approx.f32") U(p_rcp_ftz, "rcp.approx.ftz.f32")
U(p_rsqrt, "rsqrt.approx.f32") U(p_rsqrt_ftz, "rsqrt.approx.ftz.f32")
U(p_sqrt, "sqrt.approx.f32") U(p_sqrt_ftz, "sqrt.approx.ftz.f32")
U(p_ex2, "ex2.approx.f32") U(p_ex2_ftz, "ex2.approx.ftz.f32")
U(p_lg2, "lg2.approx.f32") U(p_lg2_ftz, "lg2.approx.ftz.f32")
U(p_sin, "sin.approx.f32") U(p_sin_ftz, "sin.approx.ftz.f32")
U(p_cos, "cos.approx.f32") U(p_cos_ftz, "cos.approx.ftz.f32")
U(p_tanh, "tanh.approx.f32")
U(p_rcp_rn, "rcp.rn.f32") U(p_rcp_rn_ftz, "rcp.rn.ftz.f32") U(p_sqrt_rn, "sqrt.rn.f32")
B(p_div_approx, "div.approx.f32") B(p_div_approx_ftz, "div.approx.ftz.f32")
B(p_div_full, "div.full.f32") B(p_div_full_ftz, "div.full.ftz.f32")
B(p_div_rn, "div.rn.f32") B(p_div_rn_ftz, "div.rn.ftz.f32")
H(p_ex2_f16, "ex2.approx.f16") H(p_ex2_bf16, "ex2.approx.ftz.bf16")
H(p_tanh_f16, "tanh.approx.f16") H(p_tanh_bf16, "tanh.approx.bf16")
H2(p_ex2_f16x2, "ex2.approx.f16x2") H2(p_ex2_bf16x2, "ex2.approx.ftz.bf16x2")
H2(p_tanh_f16x2, "tanh.approx.f16x2") H2(p_tanh_bf16x2, "tanh.approx.bf16x2")
