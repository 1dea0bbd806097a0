// KernelScope: device-side assert, standing in for the C library's <assert.h>.
// On failure in device code it calls the device runtime's __assertfail, as nvcc's
// code does: "file:line: function: block: [..], thread: [..] Assertion `expression`
// failed." goes to stderr and the launch ends with an error at the assert's line. With NDEBUG defined, assert does nothing.
// Like the C header it has no include guard: NDEBUG is looked at on each inclusion.
#pragma clang system_header
#include "kernelscope_prelude.h"
#undef assert
#ifndef KERNELSCOPE_ASSERTFAIL_DECLARED
#define KERNELSCOPE_ASSERTFAIL_DECLARED
// The device runtime's assert entry point, as nvcc's PTX calls it: the simulator
// implements it (the message goes to stderr, as CUDA's driver prints it, and the
// launch ends with a trap at the assert's line), so both compilers' PTX behave alike.
extern "C" __host__ __device__ void __assertfail(const char *expr, const char *file, unsigned int line, const char *func,
                                        size_t charSize);
#endif
#ifdef NDEBUG
#define assert(e) ((void)0)
#elif defined(__CUDA_ARCH__)
#define assert(e) ((e) ? (void)0 : (__assertfail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__, sizeof(char)), __builtin_trap()))
#else
#define assert(e) \
  ((e) ? (void)0 : (__kernelscope_assert_fail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__), __builtin_trap()))
#endif
