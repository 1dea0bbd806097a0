// Float math functions added in gpu/toolchain/prelude/kernelscope_math_extra.h (this
// project's own kernels; shapes in mathsweep.h, domains in math_domains.txt).
#include "mathsweep.h"

SWF(lgammaf, lgammaf(x))
SWF(tgammaf, tgammaf(x))
SWF(j0f, j0f(x))
SWF(j1f, j1f(x))
SWF(y0f, y0f(x))
SWF(y1f, y1f(x))
SWF(jnf, jnf((int)(k % 6u), x))
SWF(ynf, ynf((int)(k % 6u), x))
SWF(asinhf, asinhf(x))
SWF(acoshf, acoshf(x))
SWF(atanhf, atanhf(x))
SWF(cyl_bessel_i0f, cyl_bessel_i0f(x))
SWF(cyl_bessel_i1f, cyl_bessel_i1f(x))
