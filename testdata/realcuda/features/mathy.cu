// Float math functions of the CUDA Math API the prelude gained last (this project's own
// kernels, shapes in mathsweep.h): nanf with the tag sw_tag(k).
#include "mathsweep.h"

SWF(nanf, nanf(sw_tag(k)))
