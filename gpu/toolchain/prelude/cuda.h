// KernelScope: stands in for the CUDA toolkit's <cuda.h>; what it declares for device
// code is in kernelscope_prelude.h, which clang includes before the cell.
#pragma clang system_header
#include "kernelscope_prelude.h"
#include "kernelscope_tma.h"
