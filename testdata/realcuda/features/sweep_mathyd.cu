// One translation unit of the math sweep (this project's own code).
#include "sweep_reg.h"
#include "mathyd.cu"
