// KernelScope: device-side assert, standing in for the C library's <assert.h>.
// On failure it prints "file:line: function: block: [..], thread: [..] Assertion
// `expression` failed." with device printf and executes trap, which ends the launch
// with an error at the assert's line. With NDEBUG defined, assert does nothing.
// Like the C header it has no include guard: NDEBUG is looked at on each inclusion.
#pragma clang system_header
#include "kernelscope_prelude.h"
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) \
  ((e) ? (void)0 : (__kernelscope_assert_fail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__), __builtin_trap()))
#endif
