// Double math functions added in gpu/toolchain/prelude/kernelscope_math_extra.h
// (this project's own kernels).
#include "mathsweep.h"

SWD(tan, tan(x))
SWD(sinh, sinh(x))
SWD(cosh, cosh(x))
SWD(expm1, expm1(x))
SWD(log1p, log1p(x))
SWD(exp10, exp10(x))
SWD(asinh, asinh(x))
SWD(acosh, acosh(x))
SWD(atanh, atanh(x))
SWD(lgamma, lgamma(x))
SWD(tgamma, tgamma(x))
SWD(j0, j0(x))
SWD(j1, j1(x))
SWD(y0, y0(x))
SWD(y1, y1(x))
