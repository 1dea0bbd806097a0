// KernelScope: stands in for the CUDA toolkit's <cuda_occupancy.h>, which Thrust and
// CUB include. They use only the runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessor
// (declared, for host code, in kernelscope_runtime.h); KernelScope's own occupancy
// calculation is in gpu/occupancy. Nothing of the toolkit's file is reproduced here.
#pragma clang system_header
#include "kernelscope_prelude.h"
