#!/usr/bin/env python3
"""Writes the course notebooks (without outputs) next to this file:
  coalescing.ipynb, bank_conflicts.ipynb, divergence_reductions.ipynb,
  occupancy_tiling.ipynb, perf_writeup.ipynb

  python3 notebooks/make_courses.py            # write the notebooks
  python3 notebooks/make_courses.py --verify   # run them through the kernel twice (as given, and with
                                               # every exercise replaced by its solution) and check each
                                               # number the text promises against the real report
Then store them with outputs:
  /usr/bin/python3 -m jupyter nbconvert --to notebook --execute --inplace \
      --ExecutePreprocessor.kernel_name=kernelscope notebooks/NAME.ipynb
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nbgen import Notebook, per_request, rules, output, occupancy, shared_wavefronts, bank_conflicts, mem
from nbgen import findings, expectation, line_of

HERE = os.path.dirname(os.path.abspath(__file__))
FOCUS = "%hide all\n%show source,memory,hints,outputs"   # what most cells need to show


def fnv(name, value):
    return ("%s FNV-64 is %s" % (name, value), lambda r: output(r, name).get("checksum") == value)

def no_rule(rule):
    return ("no %s hint" % rule, lambda r: rule not in rules(r))

def has_rule(rule):
    return ("a %s hint" % rule, lambda r: rule in rules(r))

def ld_per_req(v):
    return ("global loads at %.1f sectors/request" % v, lambda r: abs(per_request(r, "ld") - v) < 1e-9)

def st_per_req(v):
    return ("global stores at %.1f sectors/request" % v, lambda r: abs(per_request(r, "st") - v) < 1e-9)


# ---------------------------------------------------------------- coalescing
def coalescing():
    nb = Notebook("coalescing", "coal")
    nb.md("""
# Assignment 1 · Global-memory coalescing

**Goal.** Learn to predict how many bytes the memory system moves for one warp-wide load or
store, read it off KernelScope's Memory section, and rewrite kernels so that the number is minimal.

### The rules (Volta and later: sm_70 … sm_120)

* A warp executes a load or store instruction for its 32 lanes at once. For global memory that
  one warp-level instruction is one **request** to the L1/texture unit.
* Memory is moved in **32-byte sectors** (a 128-byte cache line holds 4 sectors). The cost of a
  request is the number of *distinct sectors* its active lanes touch.
* 32 lanes reading consecutive, aligned 4-byte words touch 32 × 4 B = 128 B = **4 sectors**:
  the ideal for 32-bit accesses. For 8-byte elements the ideal is 8 sectors, for 16-byte
  elements (`float4`) 16 — more sectors, but none wasted.
* Anything else wastes bandwidth: a misaligned start touches one sector more; a stride of *s*
  floats touches min(4·*s*, 32) sectors; lanes that read one field of a large struct touch one
  sector each.

KernelScope counts requests and sectors exactly as Nsight Compute does
(`l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum` and `l1tex__t_sectors_…`). The **Memory** section
lists every memory instruction with its *sectors (ideal)*; the **Hints** section flags a line whose
accesses touch at least 1.25× the sectors they need (`uncoalesced-global`).

Each cell below hides the sections it does not need (`%hide all` then `%show …`); delete those two
lines to see the whole report.
""")
    nb.code("%arch sm_80")
    nb.md("""
## 1. Aligned, misaligned

`copy_offset` copies `n` floats starting `offset` elements into the input. With `offset=0`
each warp reads one aligned 128-byte line: 4 sectors per request.
""")
    copy_offset = """
extern "C" __global__ void copy_offset(const float* in, float* out, int offset, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i + offset];
}"""
    nb.code(FOCUS + """
%grid 2
%block 128
%launch copy_offset(in=rand(512), out=zeros(256), offset=0, n=256)""" + copy_offset,
            expect=[ld_per_req(4.0), st_per_req(4.0), no_rule("uncoalesced-global")])
    nb.md("""
With `offset=1` the warp's 128 bytes straddle two lines: **5 sectors per request** for the load
(the store is still aligned: 4). The Memory row of the load shows `sectors (ideal)` of 40 (32)
for the 8 requests, and a *warning* hint points at line 3.
""")
    nb.code(FOCUS + """
%grid 2
%block 128
%launch copy_offset(in=rand(512), out=zeros(256), offset=1, n=256)""" + copy_offset,
            expect=[ld_per_req(5.0), st_per_req(4.0), has_rule("uncoalesced-global")])
    nb.md("""
## 2. Strides

Reading every `stride`-th float: stride 2 touches 8 sectors per request, 4 touches 16, and from
8 on every lane has a sector of its own: 32 sectors per request, 8× the traffic for the same data.
Change `stride=` below (1, 2, 4, 8, 32) and watch the load's row in the Memory section.
""")
    nb.code(FOCUS + """
%grid 2
%block 128
%launch strided_copy(in=rand(8192), out=zeros(256), stride=8, n=256)
%name stride8
extern "C" __global__ void strided_copy(const float* in, float* out, int stride, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i * stride];
}""", expect=[ld_per_req(32.0), has_rule("uncoalesced-global")])
    nb.md("""
## 3. Wider elements are not wasteful

A `double` per lane is 256 bytes per warp: 8 sectors per request, and the ideal is 8 too. A
`float4` per lane (a 128-bit `ld.global.v4.f32`) is 16 sectors per request, ideal 16. The
Memory section shows `bits` 64 and 128 and no excess; there is no coalescing hint.
""")
    nb.code(FOCUS + """
%grid 2
%block 128
%launch scale_f64(a=arange(256):f64, s=2.0, n=256)
extern "C" __global__ void scale_f64(double* a, double s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}""", expect=[ld_per_req(8.0), st_per_req(8.0), no_rule("uncoalesced-global")])
    nb.code(FOCUS + """
%grid 2
%block 128
%launch scale_f4(a=arange(1024):f32, s=2.0f, n=256)
extern "C" __global__ void scale_f4(float4* a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float4 v = a[i]; v.x *= s; v.y *= s; v.z *= s; v.w *= s; a[i] = v; }
}""", expect=[ld_per_req(16.0), st_per_req(16.0), no_rule("uncoalesced-global")])
    nb.md("""
## 4. Array of structures

A 24-byte `Particle` per lane puts consecutive lanes 24 bytes apart: reading only `x` and `vx`
touches **24 sectors per request** (768 bytes spanned) where 4 would do — two *critical* hints.
A structure of arrays (`x[]`, `vx[]`, …) makes every field access consecutive.
""")
    nb.code(FOCUS + """
%grid 2
%block 128
%launch move_aos(p=ones(1536):f32, n=256, dt=0.5f)
struct Particle { float x, y, z, vx, vy, vz; };
extern "C" __global__ void move_aos(Particle* p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i].x += p[i].vx * dt;
}""", expect=[ld_per_req(24.0), st_per_req(24.0), has_rule("uncoalesced-global")])

    nb.md("""
---
## Exercise 1 · Scale a matrix

`scale_matrix` multiplies a 64 × 64 row-major matrix by `s`. It is launched with blocks of
32 × 8 threads on a 2 × 8 grid, which covers the matrix exactly. As given, `threadIdx.x` walks
down a **column**, so the 32 lanes of a warp are 64 floats (256 bytes) apart.

The first cell runs the kernel as given and names its report `scale_given`. **Edit the second
cell** (`scale_yours`) so that the lanes of a warp access consecutive addresses — do not
change the magics or the result.
""")
    scale_given = """
%grid 2,8
%block 32,8
%launch scale_matrix(a=arange(4096), width=64, height=64, s=2.0f)
extern "C" __global__ void scale_matrix(float* a, int width, int height, float s) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < height && col < width) a[row * width + col] *= s;
}"""
    nb.code(FOCUS + "\n%name scale_given" + scale_given,
            expect=[ld_per_req(32.0), st_per_req(32.0), has_rule("uncoalesced-global"), fnv("a", "4e099e6930b0f0c5")])
    nb.code(FOCUS + "\n%name scale_yours" + scale_given,
            solution=FOCUS + "\n%name scale_yours" + scale_given.replace(
                "int row = blockIdx.x * blockDim.x + threadIdx.x;\n  int col = blockIdx.y * blockDim.y + threadIdx.y;",
                "int col = blockIdx.x * blockDim.x + threadIdx.x;\n  int row = blockIdx.y * blockDim.y + threadIdx.y;"),
            expect_solved=[ld_per_req(4.0), st_per_req(4.0), no_rule("uncoalesced-global"), fnv("a", "4e099e6930b0f0c5")])
    nb.md("""
### Check 1

Run your cell, then the comparison below. You are right when **all** of these hold:

1. your cell's **Memory** table shows **4.00** sectors/request for global loads *and* stores
   (given: 32.00), i.e. the `%compare` rows *global load sectors* and *global store sectors* fall
   from 4,096 to **512** (−87.5%);
2. your **Hints** section has no "Uncoalesced global …" hint (the *info* hint about a grid
   too small for the GPU stays: it is about the launch size, not your code);
3. your **Outputs** section shows `a` with FNV-64 **`4e099e6930b0f0c5`**, the same as the given
   kernel's: the result did not change.

If `%compare` shows no differences, you have not run your edited cell yet.
""")
    nb.code("%compare scale_given scale_yours")
    nb.md("""
<details><summary>Solution (open after trying)</summary>

Swap the roles of x and y: `int col = blockIdx.x * blockDim.x + threadIdx.x;` and
`int row = blockIdx.y * blockDim.y + threadIdx.y;`. The fastest-varying thread index must walk
the fastest-varying (contiguous) dimension of the array.
</details>

---
## Exercise 2 · From array of structures to structure of arrays

Write `move_soa`, the structure-of-arrays version of `move_aos` of section 4: same arithmetic
(`x[i] += vx[i] * dt`), with `x` and `vx` separate arrays. The launch line is given; fill in the
body.
""")
    soa_head = FOCUS + """
%grid 2
%block 128
%launch move_soa(x=ones(256), vx=ones(256), n=256, dt=0.5f)
extern "C" __global__ void move_soa(float* x, const float* vx, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
"""
    nb.code(soa_head + "  // TODO: if (i < n) ...\n}",
            expect=[("x unchanged (the exercise is not done yet)", lambda r: output(r, "x").get("changed", -1) == 0)],
            solution=soa_head + "  if (i < n) x[i] += vx[i] * dt;\n}",
            expect_solved=[ld_per_req(4.0), st_per_req(4.0), no_rule("uncoalesced-global"),
                           ("x all 1.5 (sum 384)", lambda r: output(r, "x").get("sum") == 384 and output(r, "x").get("changed") == 256)])
    nb.md("""
### Check 2

Your cell is right when its **Memory** section shows **4.00** sectors/request for loads and stores
(the AoS version: 24.00), there is no coalescing hint, and the **Outputs** section shows `x` with
every element `1.5`: **256 changed, sum 384**. As given (the TODO), `x` shows 0 changed.
""")
    return nb


# ---------------------------------------------------------------- bank conflicts
def bank_conflicts_nb():
    nb = Notebook("bank_conflicts", "bank")
    nb.md("""
# Assignment 2 · Shared-memory bank conflicts

**Goal.** Predict the number of shared-memory *wavefronts* a warp instruction needs, read it in
KernelScope's Memory section, and remove bank conflicts by padding or by swizzling the index.

### The rules (Volta and later)

* Shared memory has **32 banks**, each 4 bytes wide: the byte address `addr` lives in bank
  **`(addr / 4) % 32`**. Successive 32-bit words go to successive banks.
* A warp's shared access is served in **wavefronts**. One wavefront serves, per bank, one 32-bit
  word. Lanes reading the **same word** are served together (**broadcast**; for stores one lane
  wins) — that is not a conflict.
* If *n* distinct words of the same bank are needed, the access takes *n* wavefronts: an
  **n-way bank conflict**. Conflicts = wavefronts − ideal.
* 64-bit accesses move 256 bytes per warp: the hardware serves them **per half-warp** (16 lanes ×
  8 B = 128 B), ideal 2 wavefronts; 128-bit accesses **per quarter-warp**, ideal 4. Conflicts are
  counted within each half (quarter).

The **Memory** section shows *wavefronts (ideal)* per shared instruction and the totals of
*shared load/store wavefronts* and *bank conflicts* (Nsight Compute's
`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum` and `…bank_conflicts…`). A hint
`shared-bank-conflict` flags lines at 2-way or worse.
""")
    nb.code("%arch sm_80")
    nb.md("""
## 1. Stride in words

Each lane writes and reads `buf[t * stride]`. Bank of lane *t* = `(t·stride) % 32`.
Stride 1: 32 banks, 1 wavefront. Stride 2: lanes t and t+16 share a bank: 2 wavefronts.
Stride 32: all 32 lanes in bank 0: **32 wavefronts**. Stride 33 (an odd stride): 1 wavefront again.
Try 1, 2, 4, 16, 32, 33.
""")
    nb.code("""%hide all
%show source,memory,hints
%grid 1
%block 32
%launch shared_stride(out=zeros(32), stride=32)
extern "C" __global__ void shared_stride(float* out, int stride) {
  __shared__ float buf[32 * 33];
  unsigned t = threadIdx.x;
  buf[(t * stride) % (32 * 33)] = (float)t;
  __syncwarp();
  out[t] = buf[(t * stride) % (32 * 33)];
}""", expect=[("32 + 32 shared wavefronts", lambda r: shared_wavefronts(r) == 64),
              ("31 + 31 bank conflicts", lambda r: bank_conflicts(r) == 62), has_rule("shared-bank-conflict")])
    nb.md("""
## 2. Broadcast

`buf[0]` read by every lane is one word: one wavefront. `buf[t / 2]` has pairs of lanes on the same
word and 16 distinct words in 16 banks: also one wavefront. No conflicts.
""")
    nb.code("""%hide all
%show source,memory,hints
%grid 1
%block 32
%launch broadcast(out=zeros(32))
extern "C" __global__ void broadcast(float* out) {
  __shared__ float buf[64];
  unsigned t = threadIdx.x;
  buf[t] = (float)t;
  __syncthreads();
  out[t] = buf[0] + buf[t / 2];
}""", expect=[("no bank conflicts", lambda r: bank_conflicts(r) == 0), no_rule("shared-bank-conflict")])
    nb.md("""
## 3. 64-bit words

`double` elements at stride 1 take 2 wavefronts (ideal 2: one per half-warp) — no conflict. At
stride 16 doubles (128 bytes) the 16 lanes of a half-warp all start in bank 0: 16 wavefronts per
half, **32 wavefronts** for ideal 2. Try `stride=1`, `2`, `16`.

(The Occupancy section is hidden here; this launch's 8 KB buffer limits occupancy, which is
assignment 4's subject.)
""")
    nb.code("""%hide all
%show source,memory,hints
%grid 1
%block 32
%launch shared_f64(out=zeros(32):f64, stride=16)
extern "C" __global__ void shared_f64(double* out, int stride) {
  __shared__ double buf[32 * 32];
  unsigned t = threadIdx.x;
  buf[t * stride] = (double)t;
  __syncwarp();
  out[t] = buf[t * stride];
}""", expect=[("32 + 32 shared wavefronts", lambda r: shared_wavefronts(r) == 64), has_rule("shared-bank-conflict")])

    transpose = """
%grid 2,2
%block 32,8
%launch transpose(out=zeros(4096), in=arange(4096), width=64, height=64)
#define TILE 32
#define BLOCK_ROWS 8
extern "C" __global__ void transpose(float* out, const float* in, int width, int height) {
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
}"""
    hide = "%hide all\n%show source,memory,hints,outputs"
    nb.md("""
---
## Exercise 1 · Pad the transpose tile

The classic tiled transpose reads a 32 × 32 tile of the input by rows (coalesced), and writes
the output by reading the tile **by columns**: `tile[threadIdx.x][…]`. Row *r* of a `[32][32]`
float tile starts at word 32·*r*, so a column is 32 words in **one bank**: every read of the tile
is a 32-way conflict (4,096 wavefronts where 128 would do).

The first cell is the given kernel (`tr_given`). **Edit the second cell** (`tr_pad`): change only the
declaration of `tile` so that a column of the tile spans all 32 banks.
""")
    nb.code(hide + "\n%name tr_given" + transpose,
            expect=[("4096 shared load wavefronts", lambda r: mem(r).get("shared_load_wavefronts") == 4096),
                    ("3968 load bank conflicts", lambda r: mem(r).get("shared_load_bank_conflicts") == 3968),
                    has_rule("shared-bank-conflict"), fnv("out", "dc39720a3fe08858")])
    nb.code(hide + "\n%name tr_pad" + transpose,
            solution=hide + "\n%name tr_pad" + transpose.replace("tile[TILE][TILE];", "tile[TILE][TILE + 1];"),
            expect_solved=[("128 shared load wavefronts", lambda r: mem(r).get("shared_load_wavefronts") == 128),
                           ("no bank conflicts", lambda r: bank_conflicts(r) == 0),
                           no_rule("shared-bank-conflict"), fnv("out", "dc39720a3fe08858")])
    nb.md("""
### Check 1

You are right when your cell's **Memory** section shows **128** shared load wavefronts and
**0** bank conflicts (given: 4,096 and 3,968), its **Hints** section has no "Shared-memory bank
conflicts" hint, and its **Outputs** show `out` with FNV-64 **`dc39720a3fe08858`** (the
transpose is still correct). In the comparison, *shared load wavefronts* falls by 96.9% and
*shared bank conflicts* to 0.
""")
    nb.code("%compare tr_given tr_pad")
    nb.md("""
<details><summary>Solution</summary>

`__shared__ float tile[TILE][TILE + 1];` — with 33 words per row, element `[r][c]` is in bank
`(33r + c) % 32 = (r + c) % 32`: a column visits every bank once. The price is 32 unused words.
</details>

---
## Exercise 2 · Swizzle instead of padding

Padding wastes memory and breaks 16-byte alignment of rows. Keep `tile[TILE][TILE]` and instead
**store** element (*r*, *c*) in column `c ^ r` (XOR swizzle), and **read** it back from the same
place. Edit the cell below (`tr_xor`); the two `tile[…][…]` index expressions are the only changes.
""")
    nb.code(hide + "\n%name tr_xor" + transpose,
            solution=hide + "\n%name tr_xor" + transpose
            .replace("tile[threadIdx.y + j][threadIdx.x] =", "tile[threadIdx.y + j][threadIdx.x ^ (threadIdx.y + j)] =")
            .replace("= tile[threadIdx.x][threadIdx.y + j];", "= tile[threadIdx.x][(threadIdx.y + j) ^ threadIdx.x];"),
            expect_solved=[("128 shared load wavefronts", lambda r: mem(r).get("shared_load_wavefronts") == 128),
                           ("no bank conflicts", lambda r: bank_conflicts(r) == 0),
                           ("32 x 32 x 4 = 4096 B of shared memory", lambda r: r.get("shared_static_bytes") == 4096),
                           fnv("out", "dc39720a3fe08858")])
    nb.md("""
### Check 2

Same verdict as check 1 — **128** shared load wavefronts, **0** conflicts, `out` FNV-64
**`dc39720a3fe08858`** — and the summary line still says **4096 B shared/block** (padding said
4224 B).

<details><summary>Solution</summary>

Store `tile[threadIdx.y + j][threadIdx.x ^ (threadIdx.y + j)]`, read
`tile[threadIdx.x][(threadIdx.y + j) ^ threadIdx.x]`. Reading column `c = threadIdx.y + j` of
rows `r = threadIdx.x = 0..31` now touches words `32r + (c ^ r)`: the banks `c ^ r` are all
different because XOR with a fixed `c` is a permutation of 0..31.
</details>
""")
    return nb


# ---------------------------------------------------------------- divergence and reductions
REDUCE_HEAD = """
%grid 4
%block 256
%launch {name}(in=ones(1024), out=zeros(4), n=1024)
extern "C" __global__ void {name}(const float* in, float* out, int n) {{
  __shared__ float s[256];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();"""
INTERLEAVED = """
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (t % (2 * stride) == 0) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}"""
STRIDED = """
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    unsigned k = 2 * stride * t;
    if (k < blockDim.x) s[k] += s[k + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}"""
SEQUENTIAL = """
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}"""
SHUFFLE = """
  for (unsigned stride = blockDim.x / 2; stride >= 32; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t < 32) {
    float v = s[t];
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
    if (t == 0) out[blockIdx.x] = v;
  }
}"""
RED_OUT = fnv("out", "fb008888f799be45")
NOSYNC = """
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
  }
  if (t == 0) out[blockIdx.x] = s[0];
}"""
SUM_EXPECT = "sum(out) == sum(in)"


def reduce_cell(name, body, extra=""):
    return FOCUS + extra + REDUCE_HEAD.format(name=name) + body


def divergence():
    nb = Notebook("divergence_reductions", "div")
    nb.md("""
# Assignment 3 · Divergence and reductions

**Goal.** See what a warp does when its lanes disagree at a branch, and make a parallel reduction
fast by choosing which threads do the work.

### The rules

* A warp issues **one instruction for all its lanes** (SIMT). Lanes that should not execute it
  are masked off; the **active mask** says which run.
* At a conditional branch where lanes disagree the warp **diverges**: it runs one path with some
  lanes, then the other path with the rest. Both paths cost issue slots, each with idle lanes.
* The lanes **reconverge** at the branch's **immediate post-dominator** — the first instruction
  every path from the branch must pass through (usually the end of the `if`/`else`). KernelScope
  keeps a SIMT stack per warp: at a divergent branch it pushes the reconvergence point and the
  lanes waiting for it; at that point they rejoin.
* Volta and later give each thread its own program counter (*independent thread scheduling*)
  and the compiler marks reconvergence explicitly, but the cost is the same: divergent paths are
  serialised. A branch whose condition is **uniform across each warp** (e.g. on `threadIdx.x / 32`)
  costs nothing extra.

KernelScope counts, per branch line, executions and **divergent** executions (Source view,
hover the heat bar); a hint `warp-divergence` flags a branch that splits its warp in more than 40%
of its executions. The **Trace** widget shows the active mask and the SIMT stack step by step.
""")
    nb.code("%arch sm_80")
    nb.md("""
## 1. Divergent and uniform branches

`odd_even` takes a different path for even and odd lanes: every warp diverges at the `if`.
`by_warp` decides on the warp number: each warp takes one path, no divergence. Both do the same
work per thread (half the threads take each path), but in `%compare` the *warp-instructions* row
— issue slots — falls from **172** to **108** (−37%): every warp of `odd_even` issues both loops,
each with half of its lanes idle. *Divergent branches* falls from 4 (one per warp) to 0.

(The paths are eight operations long on purpose: when both sides of an `if` are one or two
instructions, the compiler usually replaces the branch by predication or a `selp` select — no
branch, no divergence. Shorten them and look at the PTX to see it happen.)
""")
    nb.code(FOCUS + """
%grid 1
%block 128
%launch odd_even(a=arange(128), n=128)
%name odd_even
extern "C" __global__ void odd_even(float* a, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i];
  if (i % 2 == 0) {
    for (int k = 0; k < 8; ++k) x = 0.5f * x + 1.0f;
  } else {
    for (int k = 0; k < 8; ++k) x = sqrtf(x + 1.0f);
  }
  a[i] = x;
}""", expect=[has_rule("warp-divergence"), ("4 divergent branches", lambda r: r["stats"]["divergent_branches"] == 4),
              ("172 warp-instructions", lambda r: r["stats"]["warp_instructions"] == 172)])
    nb.code(FOCUS + """
%grid 1
%block 128
%launch by_warp(a=arange(128), n=128)
%name by_warp
extern "C" __global__ void by_warp(float* a, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i];
  if ((i / 32) % 2 == 0) {
    for (int k = 0; k < 8; ++k) x = 0.5f * x + 1.0f;
  } else {
    for (int k = 0; k < 8; ++k) x = sqrtf(x + 1.0f);
  }
  a[i] = x;
}""", expect=[no_rule("warp-divergence"), ("0 divergent branches", lambda r: r["stats"]["divergent_branches"] == 0),
              ("108 warp-instructions", lambda r: r["stats"]["warp_instructions"] == 108)])
    nb.code("%compare odd_even by_warp")
    nb.md("""
## 2. Watch a warp diverge

The Trace section is open in the next cell. Press **▶|** (or focus the widget and press →) to
step through warp 0: at the `if`, half of the 32 lane cells turn grey, the **SIMT stack** line
shows where the warp reconverges, and the highlighted line in the Source view follows the warp
through one path, then the other, then the join.
""")
    nb.code("""%hide all
%show source,ptx,trace
%grid 1
%block 32
%trace block=0 warps=0 steps=200
%launch odd_even(a=arange(32), n=32)
extern "C" __global__ void odd_even(float* a, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i];
  if (i % 2 == 0) {
    for (int k = 0; k < 8; ++k) x = 0.5f * x + 1.0f;
  } else {
    for (int k = 0; k < 8; ++k) x = sqrtf(x + 1.0f);
  }
  a[i] = x;
}""")
    nb.md("""
## 3. Reductions

A block sums 256 values in shared memory in log₂256 = 8 steps. The classic first version is
**interleaved addressing**: in step *k* the threads whose index is a multiple of 2^(k+1) add
their neighbour. It is correct (each block's output is 256 for `in=ones`), but `t % (2 * stride)`
keeps a scattered set of lanes in every warp busy: the branch diverges in 188 of its 256 warp
executions.
""")
    nb.code(reduce_cell("reduce_interleaved", INTERLEAVED, "\n%name interleaved"),
            expect=[has_rule("warp-divergence"), ("192 divergent branches", lambda r: r["stats"]["divergent_branches"] == 192), RED_OUT])
    nb.md("""
Making the *index* strided (`k = 2 * stride * t`) keeps the busy threads contiguous, so whole
warps drop out and divergence falls to 24 — but lanes now touch words `2·stride` apart in shared
memory: **bank conflicts** (see assignment 2) replace divergence.
""")
    nb.code(reduce_cell("reduce_strided", STRIDED, "\n%name strided"),
            expect=[no_rule("warp-divergence"), has_rule("shared-bank-conflict"), RED_OUT])
    nb.code("%compare interleaved strided")

    nb.md("""
---
## Exercise 1 · Sequential addressing

Rewrite the loop of `reduce_yours` (below, a copy of the interleaved version) so that in each
step the **first half** of the still-active threads adds the **second half**:
`stride` runs from `blockDim.x / 2` down to 1 and thread `t < stride` adds `s[t + stride]` to `s[t]`.
Keep the rest of the kernel.
""")
    nb.code(reduce_cell("reduce_yours", INTERLEAVED, "\n%name yours"),
            solution=reduce_cell("reduce_yours", SEQUENTIAL, "\n%name yours"),
            expect_solved=[no_rule("warp-divergence"), no_rule("shared-bank-conflict"),
                           ("24 divergent branches", lambda r: r["stats"]["divergent_branches"] == 24),
                           ("no bank conflicts", lambda r: bank_conflicts(r) == 0),
                           ("180 shared wavefronts", lambda r: shared_wavefronts(r) == 180), RED_OUT])
    nb.md("""
### Check 1

You are right when your cell shows:

1. **Hints**: neither "Warp divergence" nor "Shared-memory bank conflicts" (only the *info* hint on
   the grid size);
2. **Memory**: **0** bank conflicts and **100 + 80** shared wavefronts (interleaved: 380 + 220);
3. **Outputs**: `out` = `256 256 256 256`, FNV-64 **`fb008888f799be45`**.

In the comparison with the interleaved version, *divergent branches* falls from 192 to **24**: the
only divergence left is inside warp 0 once fewer than 32 threads are active (`stride` 16 … 1, five
steps) plus the final `if (t == 0)`, in each of the 4 blocks.
""")
    nb.code("%compare interleaved yours")
    nb.md("""
<details><summary>Solution</summary>

```cuda
for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
  if (t < stride) s[t] += s[t + stride];
  __syncthreads();
}
```
</details>

---
## Exercise 2 · Finish in registers with warp shuffles

Once `stride` < 32 only warp 0 works, and it still goes through shared memory and
`__syncthreads()` five times. Change your loop to stop at `stride >= 32`, then let warp 0 finish
with `__shfl_down_sync(0xffffffff, v, off)` for `off` = 16, 8, 4, 2, 1 and lane 0 write the result.
Edit `reduce_shfl` below (a copy of the sequential solution).
""")
    nb.code(reduce_cell("reduce_shfl", SEQUENTIAL, "\n%name shfl"),
            solution=reduce_cell("reduce_shfl", SHUFFLE, "\n%name shfl"),
            expect_solved=[("120 shared wavefronts", lambda r: shared_wavefronts(r) == 120),
                           ("fewer than 60,000 thread-instructions", lambda r: r["stats"]["thread_instructions"] < 60000),
                           RED_OUT])
    nb.md("""
### Check 2

Your cell shows **60 + 60** shared wavefronts (sequential: 100 + 80), the summary line fewer
than **60,000** thread-instructions (sequential: 90,104), and `out` FNV-64 **`fb008888f799be45`**.

Note: `if (t == 0)` inside `if (t < 32)` still splits warp 0 (1 lane of 32), once per block. The
divergence rule stays silent on a branch that splits a warp only about once per block: one lane
writing the block's result costs next to nothing. Read hints as evidence to weigh, not as verdicts.

<details><summary>Solution</summary>

```cuda
for (unsigned stride = blockDim.x / 2; stride >= 32; stride >>= 1) {
  if (t < stride) s[t] += s[t + stride];
  __syncthreads();
}
if (t < 32) {
  float v = s[t];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
  if (t == 0) out[blockIdx.x] = v;
}
```
</details>
""")
    correctness_part(nb)
    return nb


def correctness_part(nb):
    """Part 4: the sequential reduction without its barrier, found by the checks and by %expect, then fixed."""
    buggy = reduce_cell("reduce_nosync", NOSYNC, "\n%show trace\n%expect " + SUM_EXPECT)
    fixed = reduce_cell("reduce_fixed", SEQUENTIAL, "\n%expect " + SUM_EXPECT)
    line = line_of(buggy, "s[t] += s[t + stride]")
    nb.md("""
---
## 4. Is it correct? A missing barrier

Before asking whether a kernel is fast, ask whether it is right. Below, the sequential reduction
has lost the `__syncthreads()` inside its loop. In each step thread `t` reads `s[t + stride]`,
which another thread wrote in the step before, and nothing makes that write happen first: a
**data race**. On a GPU the result depends on how the warps happen to be scheduled, and can
change from one run to the next.

KernelScope checks every launch (`%check`; *race*, *init* and *sync* are on by default): it sees
every shared-memory access of every thread and every barrier, and reports two accesses of one
word by different threads, at least one a write, with no barrier between them. A `%expect` line
adds your own check of the result; here, that the four block sums add up to the sum of the input:
`%expect @EXPECT@`.

In the next cell the **Correctness** section, first in the report, shows two races, both on
line @LINE@ (`s[t] += s[t + stride]`), each naming the two threads and both accesses: a
write-after-read between warps with no `__syncthreads()` between, and a read-after-write inside
one warp with no `__syncwarp()` between (since Volta the lanes of a warp are not in lockstep).
Click a line link to see it in the Source view, or *go to access* to move the Trace widget to the
step. The expectation fails, **`sum(out)` is 512**, not 1024: in KernelScope's schedule every
block returns 128 instead of 256.
""".replace("@EXPECT@", SUM_EXPECT).replace("@LINE@", str(line)))
    nb.code(buggy, tags=["planted-bug"], expect=[
        ("a race found on line %d, both accesses there" % line,
         lambda r: any(f["cuda_line"] == line and f["other_cuda_line"] == line for f in findings(r, "race"))),
        ("a race between warps: no __syncthreads() between",
         lambda r: any("no __syncthreads()" in f["message"] for f in findings(r, "race"))),
        ("a race within a warp: no __syncwarp() between",
         lambda r: any("no __syncwarp()" in f["message"] for f in findings(r, "race"))),
        ("only races, two of them", lambda r: len(findings(r)) == 2 and len(findings(r, "race")) == 2),
        ("%s fails: sum(out) is 512" % SUM_EXPECT,
         lambda r: expectation(r, SUM_EXPECT).get("passed") is False and "sum(out) is 512" in expectation(r, SUM_EXPECT)["message"]),
        ("out is 128 128 128 128", lambda r: output(r, "out").get("sum") == 512)])
    nb.md("""
Put the barrier back (after the `if`, inside the loop, where every thread of the block reaches
it). The Correctness section now says *No problem found by the checks that ran (race, init,
sync)*, the expectation holds, and `out` is `256 256 256 256` again.

`%check all` also reruns the launch with blocks and warps in the reverse order and reports any
output byte that changes: the plain signal that a result depends on scheduling; `%check off`
turns the checks off.
""")
    nb.code(fixed, expect=[
        ("no finding", lambda r: findings(r) == []),
        ("race, init and sync ran", lambda r: r.get("checks") == ["race", "init", "sync"]),
        ("%s holds" % SUM_EXPECT, lambda r: expectation(r, SUM_EXPECT).get("passed") is True),
        RED_OUT])


# ---------------------------------------------------------------- occupancy and tiling
STENCIL = """
#define RADIUS 3
#define BUF {buf}
extern "C" __global__ void stencil_1d(const float* in, float* out, int n) {{
  __shared__ float buf[BUF];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  buf[l] = in[g];
  if (threadIdx.x < RADIUS) {{
    buf[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0.0f;
    buf[l + blockDim.x] = g + blockDim.x < n ? in[g + blockDim.x] : 0.0f;
  }}
  __syncthreads();
  float s = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k) s += buf[l + k];
  out[g] = s;
}}"""
STENCIL_OUT = fnv("out", "922692c635e86d81")


def occ_pct(v):
    return ("occupancy %.1f%%" % v, lambda r: abs(occupancy(r) - v) < 0.05)

def limited_by(f):
    return ("limited by %s" % f, lambda r: f in (r.get("occupancy") or {}).get("limiting_factors", []))


def occupancy_nb():
    nb = Notebook("occupancy_tiling", "occ")
    nb.md("""
# Assignment 4 · Occupancy and tiling

**Goal.** Compute how many warps an SM can keep resident for a given kernel and launch, find
what limits it, and choose block and tile sizes that keep the SM full.

### The rules

An SM holds a block only if **all** of its resources fit. For sm_80 (A100), per SM:

| resource | limit | allocated per |
|---|---|---|
| warps | 64 (2,048 threads) | block: ⌈threads/32⌉ warps |
| blocks | 32 | block |
| registers | 65,536 | warp: registers/thread × 32, rounded up to 256 |
| shared memory | up to 164 KB | block: its shared bytes + 1 KB reserved by the system |

*Active blocks per SM* is the smallest of these quotients; **occupancy** = active warps / 64.
The resource that gives the minimum is the **limiter**. Other architectures differ (sm_86 and
sm_89: 48 warps; sm_90: 228 KB of shared memory) — `%arch` changes them all.

Occupancy is not speed: it is the latency-hiding *capacity* of the SM. Below ~50% a
memory-bound kernel usually has too few warps to hide memory latency, which is why KernelScope
warns below 50% (`low-occupancy`). KernelScope computes it exactly as `cuda_occupancy.h` does; the
**Occupancy** section shows the limit table and three charts — occupancy against block size,
registers per thread and shared memory per block, with the current launch marked.

Registers come from `ptxas` when nvcc is installed, otherwise from a liveness estimate over the
PTX (the summary says which); this notebook's exercises depend on block size and shared memory
only.
""")
    nb.code("%arch sm_80")
    nb.md("""
## 1. Blocks too small

A 1D stencil (each output is the sum of 7 neighbours, staged through shared memory) launched with
blocks of **32 threads**: one warp per block, and at most 32 blocks per SM = 32 warps = **50%**,
*limited by blocks*. Look at the Occupancy section's first chart: the marked point sits on the
rising part of the curve.
""")
    occ_focus = "%hide all\n%show occupancy,hints,outputs"
    nb.code(occ_focus + """
%name small_given
%grid 32
%block 32
%launch stencil_1d(in=arange(1024), out=zeros(1024), n=1024)""" + STENCIL.format(buf="(256 + 2 * RADIUS)"),
            expect=[occ_pct(50.0), limited_by("blocks"), STENCIL_OUT])
    nb.md("""
## 2. Shared memory as the limiter

Tiles make kernels fast (assignment 2, and the write-up) but each block pays for its tile. The
same stencil with a **48 KB** buffer per block: (48 + 1) KB per block, ⌊164 / 49⌋ = 3 blocks of
8 warps = 24 warps = **37.5%**, *limited by shared_memory*, and a *warning* hint.
""")
    nb.code(occ_focus + """
%name big_given
%grid 4
%block 256
%launch stencil_1d(in=arange(1024), out=zeros(1024), n=1024)""" + STENCIL.format(buf="12288"),
            expect=[occ_pct(37.5), limited_by("shared_memory"), has_rule("low-occupancy"), STENCIL_OUT])
    nb.md("""
The same kernel on an H200 (`sm_90`: 228 KB per SM) fits 4 such blocks: 50%. Occupancy
depends on the GPU as much as on the kernel.
""")
    nb.code("%arch sm_90\n" + occ_focus + """
%grid 4
%block 256
%launch stencil_1d(in=arange(1024), out=zeros(1024), n=1024)""" + STENCIL.format(buf="12288"),
            expect=[occ_pct(50.0), limited_by("shared_memory")])

    nb.md("""
---
## Exercise 1 · Choose the block size

The cell below is section 1's launch (`occ_small`): 1,024 elements in 32 blocks of 32 threads.
**Change only `%grid` and `%block`** so that occupancy reaches **100%** while the kernel still
covers exactly the 1,024 elements (grid × block = 1,024).
""")
    small = occ_focus + """
%name occ_small
%grid 32
%block 32
%launch stencil_1d(in=arange(1024), out=zeros(1024), n=1024)""" + STENCIL.format(buf="(256 + 2 * RADIUS)")
    nb.code(small, expect=[occ_pct(50.0), limited_by("blocks")],
            solution=small.replace("%grid 32\n%block 32", "%grid 4\n%block 256"),
            expect_solved=[occ_pct(100.0), limited_by("warps"), no_rule("low-occupancy"), STENCIL_OUT])
    nb.md("""
### Check 1

Your cell's **Occupancy** section reads **100.0%**, *limited by warps* (every warp slot of the SM
is usable), and the **Outputs** show `out` with FNV-64 **`922692c635e86d81`** — the same result
as before. In the comparison, *occupancy %* goes from 50.0 to **100.0** and the other rows do not
change (the same work, the same memory traffic). Block sizes of 64, 128 or 256 all reach 100% on
sm_80; 512 and 1,024 do not work here — why? (Hint: `BUF`.)
""")
    nb.code("%compare small_given occ_small")
    nb.md("""
## Exercise 2 · Size the tile to the block

`occ_big` stages its block in a 48 KB buffer, of which it uses 256 + 2·3 floats. **Change `BUF`**
so that the buffer is exactly what a block of 256 threads needs, and check the occupancy.
""")
    big = occ_focus + """
%name occ_big
%grid 4
%block 256
%launch stencil_1d(in=arange(1024), out=zeros(1024), n=1024)""" + STENCIL.format(buf="12288")
    nb.code(big, expect=[occ_pct(37.5)],
            solution=big.replace("#define BUF 12288", "#define BUF (256 + 2 * RADIUS)"),
            expect_solved=[occ_pct(100.0), no_rule("low-occupancy"),
                           ("1048 B shared per block", lambda r: r.get("shared_static_bytes") == 1048), STENCIL_OUT])
    nb.md("""
### Check 2

The summary line of your cell says **1048 B shared/block** (262 floats), the **Occupancy** section
**100.0%** limited by warps, the *low-occupancy* hint is gone, and `out`'s FNV-64 is still
**`922692c635e86d81`**. The comparison shows *occupancy %* going from 37.5 to **100.0** and one
hint fewer.
""")
    nb.code("%compare big_given occ_big")
    nb.md("""
<details><summary>Solutions</summary>

1. `%grid 4` and `%block 256` (or 8 × 128, 16 × 64).
2. `#define BUF (256 + 2 * RADIUS)`. With `BUF` tied to a block size, the block size must be a
   compile-time constant too: a block of 512 would write past the buffer, and KernelScope stops
   it with an out-of-bounds error naming the thread and the line.
</details>
""")
    return nb


# ---------------------------------------------------------------- performance write-up
MM_LAUNCH = """
%launch {name}(A=rand(4096, 0, 1, 11), B=rand(4096, 0, 1, 12), C=zeros(4096), n=64)"""
MM_OUT = fnv("C", "6c8de82d33192eaf")


def perf_writeup():
    nb = Notebook("perf_writeup", "perf")
    nb.md("""
# Performance write-up · Matrix multiplication, step by step

This write-up takes one kernel, C = A·B for 64 × 64 `float` matrices, from a naive version to a
shared-memory-tiled one, and measures each step with KernelScope: what the memory system moves
(requests, 32-byte sectors, shared-memory wavefronts), how much work the SMs issue
(thread-instructions) and how full they are (occupancy). Each version is named with `%name`;
`%compare` sets two side by side with the differences highlighted (green: better, red: worse).

**What is measured, and what is not.** The counts are *exact functional counts* of the simulated
launch, computed the way Nsight Compute counts them. The kernel cycles and µs that `%compare`
shows come from KernelScope's timing model: an estimate, not a measurement, so the argument here
is made with traffic and instruction counts, which for this kernel is where the time goes. Every version writes the same
`C` (same FNV-64 checksum, shown in each report's Outputs section) — an optimisation that changes
the answer is a bug.

The matrices are small (64 × 64, 16 blocks) so that the whole notebook simulates in seconds;
the ratios between the versions are what carries over to large sizes.
""")
    nb.code("%arch sm_80")
    nb.md("""
## v0 · One thread per element, rows across the warp

The textbook loop, with the thread's x index choosing the **row**. The 16 × 16 block puts 16
different rows in one half-warp: every `A[row * n + k]` touches 16 sectors for 16 useful floats,
and the store does the same.
""")
    focus = "%hide all\n%show source,memory,occupancy,hints,outputs"
    nb.code(focus + """
%name v0_rows
%grid 4,4
%block 16,16""" + MM_LAUNCH.format(name="matmul_rows") + """
extern "C" __global__ void matmul_rows(const float* A, const float* B, float* C, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
  }
}""", expect=[("139,264 global load sectors", lambda r: mem(r)["global_load_sectors"] == 139264), has_rule("uncoalesced-global"), MM_OUT])
    nb.md("""
## v1 · Columns across the warp

Swapping x and y makes consecutive lanes compute consecutive columns: `B[k * n + col]` is now
one contiguous row segment per half-warp, and `A[row * n + k]` is the same word for all 16 lanes
of a half-warp (2 sectors per request: one per half-warp row). Global load sectors fall 4.25×.
The remaining *warning* sums the A and B loads of the loop line: 2.0 sectors per request
against an ideal of 1.5. B's loads are ideal (both half-warps read the same 64-byte piece of a row of B: 2 sectors); A's take
2 sectors (one per half-warp, which read different rows) where the 8 bytes they use would fit
in 1. Tiling removes the question.
""")
    nb.code(focus + """
%name v1_cols
%grid 4,4
%block 16,16""" + MM_LAUNCH.format(name="matmul_cols") + """
extern "C" __global__ void matmul_cols(const float* A, const float* B, float* C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
  }
}""", expect=[("32,768 global load sectors", lambda r: mem(r)["global_load_sectors"] == 32768), MM_OUT])
    nb.code("%compare v0_rows v1_cols")
    nb.md("""
## v2 · Shared-memory tiles of 16 × 16

Each element of A and B is still read from global memory 64 times (once per output in its row or
column). Tiling loads a 16 × 16 tile of A and one of B into shared memory once per block and step,
then every thread reads its 16 products from shared memory. Global load requests fall from
16,384 to 1,024 — 16×, the tile width — and every global access is ideal. The inner loop reads
`As[ty][k]` (one word per half-warp: broadcast) and `Bs[k][tx]` (16 consecutive words):
**no bank conflicts**. Fewer address computations also cut thread-instructions by 43%.
""")
    nb.code(focus + """
%name v2_tiled16
%grid 4,4
%block 16,16""" + MM_LAUNCH.format(name="matmul_tiled") + """
#define T 16
extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0.0f;
  for (int t = 0; t < n; t += T) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}""", expect=[("1,024 global load requests", lambda r: mem(r)["global_load_requests"] == 1024),
              ("4,096 global load sectors", lambda r: mem(r)["global_load_sectors"] == 4096),
              ("no bank conflicts", lambda r: bank_conflicts(r) == 0), no_rule("uncoalesced-global"), MM_OUT])
    nb.code("%compare v1_cols v2_tiled16")
    nb.md("""
## v3 · Tiles of 32 × 32

A 32-wide tile halves the global traffic again (each loaded element now serves 32 outputs) and
makes every warp a full row of the tile. The price is 8 KB of shared memory and 1,024 threads
per block; on sm_80 the Occupancy section still reads 100% (2 blocks of 32 warps). With n = 64
the grid is only 2 × 2 blocks — on a real problem size this is the version to keep.
""")
    nb.code(focus + """
%name v3_tiled32
%grid 2,2
%block 32,32""" + MM_LAUNCH.format(name="matmul_tiled32") + """
#define T 32
extern "C" __global__ void matmul_tiled32(const float* A, const float* B, float* C, int n) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0.0f;
  for (int t = 0; t < n; t += T) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}""", expect=[("2,048 global load sectors", lambda r: mem(r)["global_load_sectors"] == 2048),
              occ_pct(100.0), ("no bank conflicts", lambda r: bank_conflicts(r) == 0), MM_OUT])
    nb.code("%compare v2_tiled16 v3_tiled32")
    nb.md("""
## Summary

The summary table is made by KernelScope, not typed: `%compare --markdown` of the four named
reports answers with a Markdown table (the first report is the baseline of the speed-up row) that
can be pasted into a write-up as it is; the same comparison is in the cell's JSON
(`application/vnd.kernelscope.compare+json`).
""")
    nb.code("%compare --markdown v0_rows v1_cols v2_tiled16 v3_tiled32")
    nb.md("""
From v0 to v3 the global-memory traffic falls **68×** (139,264 → 2,048 sectors of 32 bytes), at
the cost of shared-memory traffic that is conflict-free. The end-to-end comparison:
""")
    nb.code("%compare v0_rows v3_tiled32")
    nb.md("""
**Next steps** (not measured here): each thread computing 2–4 outputs (register tiling) to reuse
each shared-memory load several times; `float4` loads of the tiles; and, once KernelScope's timing
model lands, the stall breakdown of v3 to see whether it is limited by shared-memory bandwidth or by
the FMA pipe.
""")
    return nb


SUMMARY_CLAIMS = {  # numbers in the perf write-up's summary table (shared wavefronts count the LDS.64/128 ptxas merges the tiles into as one access, as Nsight Compute does)
    "v0_rows": (16384, 139264, 0, 2027520), "v1_cols": (16384, 32768, 0, 2076672),
    "v2_tiled16": (1024, 4096, 13312, 1187840), "v3_tiled32": (512, 2048, 12800, 1064960),
}


def notebooks():
    return [coalescing(), bank_conflicts_nb(), divergence(), occupancy_nb(), perf_writeup()]


def verify(names):
    """Execute each notebook as given and solved; check every claim against the real reports."""
    import nbformat
    from nbclient import NotebookClient
    ok = bad = 0
    def check(label, claims, rep):
        nonlocal ok, bad
        for text, fn in claims:
            try:
                good = rep is not None and bool(fn(rep))
            except Exception as e:  # a missing field is a failed claim
                good = False
                text += " (%s)" % e
            print("  %s %s: %s" % ("ok  " if good else "FAIL", label, text))
            ok, bad = ok + good, bad + (not good)
    for nb in notebooks():
        if names and nb.name not in names:
            continue
        for solved in (False, True):
            doc = nbformat.from_dict(nb.build(solved=solved))
            print("%s (%s)" % (nb.name, "solved" if solved else "as given"))
            NotebookClient(doc, timeout=300, kernel_name="kernelscope", allow_errors=True).execute()
            for i, c in enumerate(doc.cells):
                if c.cell_type != "code":
                    continue
                errs = [o for o in c.outputs if o.get("output_type") == "error"]
                raises = "raises-exception" in c.metadata.get("tags", [])
                if errs and not raises:
                    print("  FAIL cell %s raised %s: %s" % (c.id, errs[0].get("ename"), errs[0].get("evalue")))
                    bad += 1
                rep = None
                for o in c.outputs:
                    if o.get("output_type") in ("display_data", "execute_result") and "application/vnd.kernelscope.report+json" in o.get("data", {}):
                        rep = o["data"]["application/vnd.kernelscope.report+json"]
                if i in nb.claims:
                    expect, _, expect_solved = nb.claims[i]
                    check(c.id, expect_solved if solved and expect_solved else expect, rep)
                if nb.name == "perf_writeup" and rep and rep.get("name") in SUMMARY_CLAIMS:
                    want = SUMMARY_CLAIMS[rep["name"]]
                    m = rep.get("memory") or {}
                    got = (m.get("global_load_requests"), m.get("global_load_sectors"),
                           m.get("shared_load_wavefronts", 0) + m.get("shared_store_wavefronts", 0),
                           rep["stats"]["thread_instructions"])
                    check(c.id, [("summary row %s = %s (got %s)" % (rep["name"], want, got), lambda r: got == want)], rep)
                if nb.name == "perf_writeup" and c.source.startswith("%compare --markdown"):
                    check(c.id, summary_table_claims(c.outputs), {})
    print("%d passed, %d failed" % (ok, bad))
    return bad == 0


COMPARE = "application/vnd.kernelscope.compare+json"


def summary_table_claims(outputs):
    """Claims on the write-up's %compare --markdown cell: a Markdown table, and in its JSON the
    summary numbers of every version (global load sectors, shared wavefronts, thread-instructions)."""
    data = {}
    for o in outputs:
        if o.get("output_type") in ("display_data", "execute_result"):
            data.update(o.get("data", {}))
    md = "".join(data.get("text/markdown", ""))
    cmp = data.get(COMPARE) or {}
    rows = {r.get("metric"): r for r in cmp.get("rows", [])}
    names = list(SUMMARY_CLAIMS)
    claims = [("a Markdown table with a column per version",
               lambda r: md.startswith("| metric | " + " | ".join(names) + " |") and cmp.get("reports") == names and "text/html" not in data)]
    for i, (metric, key) in enumerate([("global load sectors", 1), ("shared wavefronts", 2), ("thread-instructions", 3)]):
        want = [SUMMARY_CLAIMS[n][key] for n in names]
        got = rows.get(metric, {}).get("values")
        claims.append(("summary row %s = %s (got %s)" % (metric, want, got), lambda r, w=want, g=got: g == w))
    return claims


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "--verify":
        sys.exit(0 if verify(set(args[1:])) else 1)
    for nb in notebooks():
        print(nb.write(HERE))
