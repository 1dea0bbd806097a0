"""The four kernels of scripts/bench_numba.sh in numba.cuda, run on numba's CUDA
simulator (NUMBA_ENABLE_CUDASIM=1). Prints one JSON line per kernel:
{"kernel", "seconds", "cpu_seconds"} for the launch (argument copies included, as numba's
simulator does them inside the call), after checking the result with numpy."""
import json, sys, time
import numpy as np
from numba import cuda, float32

TILE = 16

@cuda.jit
def vector_add(a, b, c, n):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if i < n:
        c[i] = a[i] + b[i]

@cuda.jit
def matmul(A, B, C, n):
    sA = cuda.shared.array((TILE, TILE), float32)
    sB = cuda.shared.array((TILE, TILE), float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    row = cuda.blockIdx.y * TILE + ty
    col = cuda.blockIdx.x * TILE + tx
    acc = float32(0.0)
    for t in range(n // TILE):
        sA[ty, tx] = A[row * n + t * TILE + tx]
        sB[ty, tx] = B[(t * TILE + ty) * n + col]
        cuda.syncthreads()
        for k in range(TILE):
            acc += sA[ty, k] * sB[k, tx]
        cuda.syncthreads()
    C[row * n + col] = acc

@cuda.jit
def reduce(inp, out, n):
    s = cuda.shared.array(256, float32)
    tid = cuda.threadIdx.x
    i = cuda.blockIdx.x * cuda.blockDim.x + tid
    s[tid] = inp[i] if i < n else float32(0.0)
    cuda.syncthreads()
    k = cuda.blockDim.x // 2
    while k > 0:
        if tid < k:
            s[tid] += s[tid + k]
        cuda.syncthreads()
        k >>= 1
    if tid == 0:
        out[cuda.blockIdx.x] = s[0]

@cuda.jit
def transpose(inp, out, n):
    t = cuda.shared.array((32, 33), float32)
    x = cuda.blockIdx.x * 32 + cuda.threadIdx.x
    y = cuda.blockIdx.y * 32 + cuda.threadIdx.y
    t[cuda.threadIdx.y, cuda.threadIdx.x] = inp[y * n + x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * 32 + cuda.threadIdx.x
    y = cuda.blockIdx.x * 32 + cuda.threadIdx.y
    out[y * n + x] = t[cuda.threadIdx.x, cuda.threadIdx.y]

def timed(name, f):
    t0, c0 = time.perf_counter(), time.process_time()
    f()
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    print(json.dumps({"kernel": name, "seconds": dt, "cpu_seconds": dc}), flush=True)

def main():
    sizes = json.loads(sys.argv[1])
    rng = np.random.default_rng(1)
    n = sizes["vector_add"]
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    c = np.zeros(n, np.float32)
    timed("vector_add", lambda: vector_add[(n + 255) // 256, 256](a, b, c, n))
    assert np.allclose(c, a + b)
    n = sizes["matmul"]
    A, B = rng.random(n * n, dtype=np.float32), rng.random(n * n, dtype=np.float32)
    C = np.zeros(n * n, np.float32)
    timed("matmul", lambda: matmul[(n // TILE, n // TILE), (TILE, TILE)](A, B, C, n))
    assert np.allclose(C.reshape(n, n), A.reshape(n, n) @ B.reshape(n, n), rtol=1e-4)
    n = sizes["reduce"]
    x = rng.random(n, dtype=np.float32)
    out = np.zeros((n + 255) // 256, np.float32)
    timed("reduce", lambda: reduce[(n + 255) // 256, 256](x, out, n))
    assert np.isclose(out.sum(), x.sum(), rtol=1e-4)
    n = sizes["transpose"]
    x = rng.random(n * n, dtype=np.float32)
    y = np.zeros(n * n, np.float32)
    timed("transpose", lambda: transpose[(n // 32, n // 32), (32, 32)](x, y, n))
    assert np.array_equal(y.reshape(n, n), x.reshape(n, n).T)

main()
