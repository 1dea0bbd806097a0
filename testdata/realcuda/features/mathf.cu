// Float math functions the prelude had before this sweep (this project's own kernels;
// shapes in mathsweep.h, domains in math_domains.txt).
#include "mathsweep.h"

__device__ __forceinline__ float sw_remquo_q(float x, float y)
{
    int q;
    remquof(x, y, &q);
    return (float)q;
}
__device__ __forceinline__ float sw_remquo_r(float x, float y)
{
    int q;
    return remquof(x, y, &q);
}
__device__ __forceinline__ float sw_sincos(float x, int c)
{
    float s, co;
    sincosf(x, &s, &co);
    return c ? co : s;
}
__device__ __forceinline__ float sw_sincospi(float x, int c)
{
    float s, co;
    sincospif(x, &s, &co);
    return c ? co : s;
}

SWF(sinf, sinf(x))
SWF(cosf, cosf(x))
SWF(tanf, tanf(x))
SWF(sincosf_s, sw_sincos(x, 0))
SWF(sincosf_c, sw_sincos(x, 1))
SWF(asinf, asinf(x))
SWF(acosf, acosf(x))
SWF(atanf, atanf(x))
SWF(sinhf, sinhf(x))
SWF(coshf, coshf(x))
SWF(tanhf, tanhf(x))
SWF(expf, expf(x))
SWF(exp2f, exp2f(x))
SWF(exp10f, exp10f(x))
SWF(expm1f, expm1f(x))
SWF(logf, logf(x))
SWF(log2f, log2f(x))
SWF(log10f, log10f(x))
SWF(log1pf, log1pf(x))
SWF(cbrtf, cbrtf(x))
SWF(rcbrtf, rcbrtf(x))
SWF(erff, erff(x))
SWF(erfcf, erfcf(x))
SWF(erfinvf, erfinvf(x))
SWF(erfcinvf, erfcinvf(x))
SWF(erfcxf, erfcxf(x))
SWF(normcdff, normcdff(x))
SWF(normcdfinvf, normcdfinvf(x))
SWF(sinpif, sinpif(x))
SWF(cospif, cospif(x))
SWF(sincospif_s, sw_sincospi(x, 0))
SWF(sincospif_c, sw_sincospi(x, 1))
SWF(sqrtf, sqrtf(x))
SWF(rsqrtf, rsqrtf(x))
SWF(atan2f, atan2f(y, x))
SWF(powf, powf(x, y))
SWF(fmodf, fmodf(x, y))
SWF(remainderf, remainderf(x, y))
SWF(remquof_r, sw_remquo_r(x, y))
SWF(remquof_q, sw_remquo_q(x, y))
SWF(hypotf, hypotf(x, y))
SWF(rhypotf, rhypotf(x, y))
SWF(norm3df, norm3df(x, y, z))
SWF(rnorm3df, rnorm3df(x, y, z))
