// kernels.h: the fast-math golden cases of scripts/fastgold, one line each:
// K(name, kind) with kind F (float output) or D (double output). Order is the
// layout of the input and output files (kernel-major, NIN elements each).
K(bs_call, F)
K(bs_put, F)
K(gelu, F)
K(softmax, F)
K(layernorm, F)
K(fdiv, F)
K(fsqrt, F)
K(divsqrt, F)
K(sin_big, F)
K(cos_big, F)
K(tan_big, F)
K(powif_k, F)
K(powfi_k, F)
K(powi_k, D)
K(powdi_k, D)
