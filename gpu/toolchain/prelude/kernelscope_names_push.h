// Saves and removes the user's macros of these names (common sizes and type names,
// e.g. -DN=1024 or #define T float) while a KernelScope header is read, as the
// toolkit's headers are unaffected by them; kernelscope_names_pop.h restores them.
// No include guard: each header that includes it includes the pop at its end.
#pragma push_macro("N")
#undef N
#pragma push_macro("M")
#undef M
#pragma push_macro("K")
#undef K
#pragma push_macro("T")
#undef T
#pragma push_macro("L")
#undef L
#pragma push_macro("A")
#undef A
#pragma push_macro("G")
#undef G
#pragma push_macro("P")
#undef P
#pragma push_macro("LA")
#undef LA
#pragma push_macro("LB")
#undef LB
#pragma push_macro("Size")
#undef Size
#pragma push_macro("Use")
#undef Use
#pragma push_macro("Layout")
#undef Layout
#pragma push_macro("Parent")
#undef Parent
#pragma push_macro("m")
#undef m
#pragma push_macro("n")
#undef n
#pragma push_macro("k")
#undef k
