#!/usr/bin/env python3
"""Writes notebooks/tour.ipynb (without outputs). Run it, then execute the
notebook through the kernel to store its outputs:
  /usr/bin/python3 -m jupyter nbconvert --to notebook --execute --inplace notebooks/tour.ipynb
"""
import json, os

cells = []
def md(s): cells.append({"cell_type": "markdown", "metadata": {}, "source": s.strip("\n")})
def code(s, tags=None):
    c = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": s.strip("\n")}
    if tags: c["metadata"]["tags"] = tags
    cells.append(c)

md("""
# A tour of KernelScope

KernelScope is a Jupyter kernel for CUDA. Each cell is compiled to PTX and the launch is
**simulated warp by warp** on a modelled NVIDIA GPU, so you can see what the kernel does —
memory coalescing, shared-memory bank conflicts, divergence, occupancy — without a GPU.
Type `%help` in a cell for the whole cell language.
""")
code("%help")
md("""
## 1. A first kernel

A cell of CUDA is compiled (clang or nvcc) and the first kernel is launched. Without `%launch`
KernelScope chooses the arguments itself (one element per thread, integer scalars = the number
of threads) and says what it chose. Hover a CUDA line to see the PTX it became.
""")
code("""
%arch sm_90
%grid 4
%block 256
%launch vector_add(a=rand(1000), b=rand(1000), c=zeros(1000), n=1000)
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
""")
md("""
## 2. Coalescing: the stride of a warp's accesses

Each warp-level load is one *request*; the hardware moves 32-byte *sectors*. Consecutive floats
need 4 sectors per request; a stride of 32 floats needs 32. Look at the Memory section.
""")
code("""
%grid 4
%block 256
%launch strided_copy(in=rand(32768), out=zeros(1024), stride=32, n=1024)
%name strided
extern "C" __global__ void strided_copy(const float* in, float* out, int stride, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i * stride];
}
""")
code("""
%grid 4
%block 256
%launch strided_copy(in=rand(32768), out=zeros(1024), stride=1, n=1024)
%name coalesced
extern "C" __global__ void strided_copy(const float* in, float* out, int stride, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i * stride];
}
""")
md("`%compare` puts the last two reports (or two named ones) side by side.")
code("%compare strided coalesced")
md("""
## 3. Shared memory bank conflicts

Reading a 32×32 tile by columns puts every lane of a warp in the same bank: 32 wavefronts
instead of 1. One column of padding fixes it.
""")
code("""
%grid 2,2
%block 32,8
%launch transpose_naive(out=zeros(4096), in=arange(4096), width=64, height=64)
#define TILE 32
#define BLOCK_ROWS 8
extern "C" __global__ void transpose_naive(float* out, const float* in, int width, int height) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += BLOCK_ROWS)
    out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
""")
md("""
## 4. Divergence, step by step

Open the **Trace** section: step through warp 0 and watch the active mask shrink at the `if`
and the SIMT stack record where the lanes reconverge.
""")
code("""
%grid 1
%block 64
%trace block=0 warps=0-1 steps=400
%launch reduce_interleaved(in=ones(64), out=zeros(1), n=64)
extern "C" __global__ void reduce_interleaved(const float* in, float* out, int n) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = t < n ? in[t] : 0.0f;
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (t % (2 * stride) == 0) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
""")
md("""
## 5. PTX cells

A cell that starts with `%%ptx` is PTX, parsed and simulated as written.
""")
code("""
%%ptx
.version 7.0
.target sm_80
.address_size 64
.visible .entry scale(.param .u64 p, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<5>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  ld.param.u32 %r5, [n];
  setp.ge.u32 %p1, %r4, %r5;
  @%p1 bra DONE;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  mul.f32 %f2, %f1, 0f40000000;
  st.global.f32 [%rd4], %f2;
DONE:
  ret;
}
""")
md("""
## 6. Errors are answers

An out-of-bounds access ends the cell with an error naming the thread, the address and the
line; the kernel stays alive.
""")
code("""
%grid 1
%block 64
%launch oob(a=zeros(32))
extern "C" __global__ void oob(float* a) {
  a[threadIdx.x * 1024] = 1.0f;
}
""", tags=["raises-exception"])
md("""
## 7. Bundled samples

`%samples` lists kernels that ship with KernelScope (with pre-built PTX, so they run even
where no compiler is installed); `%sample NAME` runs one.
""")
code("%samples")
code("%sample histogram_atomics")

nb = {
    "cells": cells,
    "metadata": {
        "kernelspec": {"display_name": "KernelScope (CUDA)", "language": "cuda", "name": "kernelscope"},
        "language_info": {"name": "cuda", "mimetype": "text/x-cuda-src", "file_extension": ".cu",
                          "pygments_lexer": "cuda", "codemirror_mode": "text/x-c++src"},
    },
    "nbformat": 4, "nbformat_minor": 5,
}
for i, c in enumerate(nb["cells"]):
    c["id"] = "tour-%02d" % i
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "tour.ipynb"), "w") as f:
    json.dump(nb, f, indent=1)
    f.write("\n")
