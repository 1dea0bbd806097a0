// Double math functions of the CUDA Math API the prelude gained last (the double Bessel
// functions and nan; this project's own kernels, shapes in mathsweep.h). jn's and yn's
// order is sw_order(k), nan's tag sw_tag(k).
#include "mathsweep.h"

SWD(jn, jn(sw_order((unsigned int)k), x))
SWD(yn, yn(sw_order((unsigned int)k), x))
SWD(cyl_bessel_i0, cyl_bessel_i0(x))
SWD(cyl_bessel_i1, cyl_bessel_i1(x))
SWD(nan, nan(sw_tag((unsigned int)k)))
