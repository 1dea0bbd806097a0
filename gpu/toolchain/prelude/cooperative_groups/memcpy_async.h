// KernelScope: <cooperative_groups/memcpy_async.h>: memcpy_async and wait are in
// cooperative_groups.h (a plain copy by the group's threads; wait is the group's barrier).
#pragma clang system_header
#include "../cooperative_groups.h"
