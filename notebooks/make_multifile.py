#!/usr/bin/env python3
"""Writes notebooks/multifile.ipynb (without outputs): a header written with
%%writefile and included, a device helper kept with %%cuda_define and used by
two later cells. Run it, then execute the notebook through the kernel to store
its outputs:
  /usr/bin/python3 notebooks/make_multifile.py
  /usr/bin/python3 -m jupyter nbconvert --to notebook --execute --inplace \\
      --ExecutePreprocessor.kernel_name=kernelscope notebooks/multifile.ipynb
The notebook writes notebooks/ks_multifile_range.cuh when it runs (ignored by git).
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nbgen import Notebook

nb = Notebook("multifile", "mf")
nb.md("""
# CUDA in several pieces: headers, and cells that build on earlier ones

Real CUDA is rarely one cell: helpers live in `.cuh` headers beside the `.cu`, and in a notebook
you write a helper once and use it in later cells. This notebook shows the three pieces:

1. `%%writefile NAME` writes the rest of the cell to a file beside the notebook (as in IPython);
2. `#include "NAME"` finds it there;
3. `%%cuda_define NAME` keeps a cell of device functions, types and macros in the session: every
   later CUDA cell is compiled as if it were written above its own code, and its line numbers
   stay those of the cell you wrote.
""")
nb.md("""
## 1. A header, written from the notebook

The answer says what was written. The file lands in the notebook's directory (the kernel's
working directory); a kernel started with `--sandbox` refuses any place outside it.
""")
nb.code("""
%%writefile ks_multifile_range.cuh
#pragma once
// A closed interval and clamping into it, shared by the kernels below.
struct Range {
  float lo, hi;
};

__device__ inline float clamp_to(float x, Range r) {
  return fminf(fmaxf(x, r.lo), r.hi);
}
""")
nb.md("""
## 2. A device helper kept for later cells

This cell is compiled at once (so its errors show here), then kept. It includes the header, so
the cells below see `Range`, `clamp_to` and `smoothstep` without including anything.
""")
nb.code("""
%%cuda_define shading
#include "ks_multifile_range.cuh"

// 0 below r.lo, 1 above r.hi, a smooth cubic in between.
__device__ float smoothstep(float x, Range r) {
  float t = clamp_to((x - r.lo) / (r.hi - r.lo), Range{0.0f, 1.0f});
  return t * t * (3.0f - 2.0f * t);
}
""")
nb.md("""
## 3. Two cells that use it

Each report notes the kept definitions the cell used. The Source view shows the cell as written,
with its own line numbers.
""")
nb.code("""
%grid 4
%block 256
%launch shade(x=arange(1024), out=zeros(1024), n=1024)
__global__ void shade(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = smoothstep(x[i], Range{256.0f, 768.0f});
}
""")
nb.code("""
%grid 4
%block 256
%launch band(x=rand(1024, 0, 1, 7), out=zeros(1024), n=1024)
// A band-pass: rises around 0.25, falls around 0.75.
__global__ void band(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = clamp_to(x[i], Range{0.0f, 1.0f});
  out[i] = smoothstep(v, Range{0.15f, 0.35f}) * (1.0f - smoothstep(v, Range{0.65f, 0.85f}));
}
""")
nb.md("""
`%defines` lists what is kept. A compiler error in a later cell is at that cell's own line (here
line 4, the call with a missing argument), not shifted by the definitions compiled above it.
""")
nb.code("%defines")
nb.code("""
%grid 1
%block 32
__global__ void broken(float *out) {
  out[threadIdx.x] = smoothstep(1.0f);
}
""", tags=["raises-exception"])
nb.md("""
`%undefine shading` drops the definition; restarting the kernel drops them all.
""")
nb.code("%undefine shading")

if __name__ == "__main__":
    print(nb.write(os.path.dirname(os.path.abspath(__file__))))
