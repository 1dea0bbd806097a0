// KernelScope: <cooperative_groups/memcpy_async.h>. cooperative_groups.h already
// defines memcpy_async, wait and wait_prior (a copy by the group's threads with the
// group's barrier at wait); CUDA code includes this header to get them.
#pragma clang system_header
#ifndef KERNELSCOPE_CG_MEMCPY_ASYNC_H
#define KERNELSCOPE_CG_MEMCPY_ASYNC_H
#include "../cooperative_groups.h"
#endif // KERNELSCOPE_CG_MEMCPY_ASYNC_H
