/* KernelScope CUDA runtime: the host side of a CUDA program run by KernelScope.
 *
 * The program runs as a child of kernelscope. Device memory is a shared
 * memory file (fd 3) mapped at KSRT_DEVBASE, where the parent maps it too:
 * device pointers are addresses in that mapping, so cudaMemcpy is a memcpy
 * here and the simulator reads and writes the same bytes. Every other call
 * (allocation, launch, symbols, events, properties) is a request on fd 4
 * answered on fd 5. Protocol (native little-endian): a request is
 * u32 op, u32 length, payload; a reply is i32 status (a cudaError_t),
 * u32 length, payload. See docs/design.md, "Programs". */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define KSRT_DEVBASE 0x200000000000ULL

enum {
  OP_MALLOC = 1, OP_FREE = 2, OP_MEMCPY = 3, OP_MEMSET = 4, OP_LAUNCH = 5, OP_SYMSET = 6, OP_SYMGET = 7,
  OP_TIME = 8, OP_PROPS = 9, OP_OCCUPANCY = 10, OP_FUNCATTR = 11, OP_PARAMS = 12, OP_SYNC = 13, OP_UNSUPPORTED = 14, OP_MEMINFO = 15, OP_FUNCINFO = 16, OP_BLOCKSIZE = 17
};

typedef int cudaError_t;
typedef struct { unsigned x, y, z; } dim3;
typedef void *cudaStream_t;
typedef struct ksrt_event { double ms; int recorded; } *cudaEvent_t;

/* Must match struct cudaDeviceProp in gpu/toolchain/prelude/kernelscope_runtime.h. */
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int maxThreadsPerMultiProcessor;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  size_t sharedMemPerBlockOptin;
  int cooperativeLaunch;
  int concurrentKernels;
  int asyncEngineCount;
  int unifiedAddressing;
  int managedMemory;
};

static int ks_ready;
static uint64_t ks_heap_size;
static cudaError_t ks_last;   /* cudaGetLastError */
static cudaError_t ks_sticky; /* a kernel fault: every later call returns it */
static cudaError_t ks_pending; /* a fault of a launch not yet synchronised with */

/* ks_sync is a synchronising call: a pending kernel fault becomes sticky, as CUDA's asynchronous errors do. */
static cudaError_t ks_sync(void) {
  if (ks_pending) ks_sticky = ks_last = ks_pending, ks_pending = 0;
  return ks_sticky;
}

static void ks_die(const char *msg) {
  fprintf(stderr, "kernelscope runtime: %s\n", msg);
  fflush(stderr);
  _exit(125);
}

static void ks_init(void) {
  if (ks_ready) return;
  ks_ready = 1;
  const char *hs = getenv("KSRT_HEAP_SIZE");
  if (!hs) ks_die("not started by kernelscope (KSRT_HEAP_SIZE unset): run the program with kernelscope run");
  ks_heap_size = strtoull(hs, 0, 10);
  if (getenv("KSRT_LINE_BUFFERED")) setvbuf(stdout, 0, _IOLBF, 0); /* a notebook shows each line as it comes */
  /* Device memory is not host memory: host code that dereferences a cudaMalloc
   pointer faults, as on a GPU. cudaMallocManaged pages are made accessible. */
  void *p = mmap((void *)KSRT_DEVBASE, ks_heap_size, PROT_NONE, MAP_SHARED | MAP_FIXED_NOREPLACE, 3, 0);
  if (p == MAP_FAILED || p != (void *)KSRT_DEVBASE) ks_die("cannot map device memory");
}

__attribute__((constructor(101))) static void ks_ctor(void) { ks_init(); }

static void ks_write(const void *b, size_t n) {
  const char *p = b;
  while (n > 0) {
    ssize_t w = write(4, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) ks_die("lost the connection to kernelscope");
    p += w, n -= (size_t)w;
  }
}

static void ks_read(void *b, size_t n) {
  char *p = b;
  while (n > 0) {
    ssize_t r = read(5, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) ks_die("lost the connection to kernelscope");
    p += r, n -= (size_t)r;
  }
}

/* ks_call sends a request and reads the reply into out (at most cap bytes; the rest is dropped). */
static cudaError_t ks_call(uint32_t op, const void *req, uint32_t len, void *out, uint32_t cap, uint32_t *outLen) {
  ks_init();
  uint32_t h[2] = {op, len};
  ks_write(h, sizeof h);
  if (len) ks_write(req, len);
  int32_t st;
  uint32_t n;
  ks_read(&st, 4);
  ks_read(&n, 4);
  uint32_t keep = n < cap ? n : cap;
  if (keep) ks_read(out, keep);
  for (uint32_t left = n - keep; left > 0;) {
    char junk[4096];
    uint32_t k = left < sizeof junk ? left : sizeof junk;
    ks_read(junk, k);
    left -= k;
  }
  if (outLen) *outLen = keep;
  return st;
}

/* A small growable request buffer. */
typedef struct { char *b; uint32_t n, cap; } ks_buf;
static void kb_put(ks_buf *k, const void *p, uint32_t n) {
  if (k->n + n > k->cap) {
    k->cap = (k->n + n) * 2 + 64;
    k->b = realloc(k->b, k->cap);
    if (!k->b) ks_die("out of host memory");
  }
  memcpy(k->b + k->n, p, n);
  k->n += n;
}
static void kb_u32(ks_buf *k, uint32_t v) { kb_put(k, &v, 4); }
static void kb_u64(ks_buf *k, uint64_t v) { kb_put(k, &v, 8); }
static void kb_str(ks_buf *k, const char *s) {
  uint32_t n = (uint32_t)strlen(s);
  kb_u32(k, n);
  kb_put(k, s, n);
}

static cudaError_t ks_ret(cudaError_t e) {
  if (e != 0) ks_last = e;
  return e;
}

/* ---- registration: clang's module constructor names each kernel stub and variable. ---- */
typedef struct { const void *key; const char *name; size_t size; } ks_entry;
static ks_entry ks_funcs[4096], ks_vars[4096];
static int ks_nfuncs, ks_nvars;

static const char *ks_lookup(ks_entry *t, int n, const void *key, size_t *size) {
  for (int i = 0; i < n; i++)
    if (t[i].key == key) {
      if (size) *size = t[i].size;
      return t[i].name;
    }
  return 0;
}

void **__cudaRegisterFatBinary(void *fatbin) { (void)fatbin; ks_init(); static void *h; return &h; }
void __cudaRegisterFatBinaryEnd(void **h) { (void)h; }
void __cudaUnregisterFatBinary(void **h) { (void)h; }
int __cudaRegisterFunction(void **h, const void *stub, char *devFun, const char *devName, int limit, void *tid, void *bid,
                           void *bdim, void *gdim, int *wsize) {
  (void)h, (void)devName, (void)limit, (void)tid, (void)bid, (void)bdim, (void)gdim, (void)wsize;
  if (ks_nfuncs < 4096) ks_funcs[ks_nfuncs++] = (ks_entry){stub, devFun, 0};
  return 0;
}
void __cudaRegisterVar(void **h, char *hostVar, char *devAddr, const char *devName, int ext, size_t size, int constant, int global) {
  (void)h, (void)devName, (void)ext, (void)constant, (void)global;
  if (ks_nvars < 4096) ks_vars[ks_nvars++] = (ks_entry){hostVar, devAddr, size};
}
void __cudaRegisterManagedVar(void **h, void **hostVarPtr, char *devAddr, const char *devName, int ext, size_t size, int constant, int global) {
  (void)h, (void)hostVarPtr, (void)devAddr, (void)devName, (void)ext, (void)size, (void)constant, (void)global;
  ks_die("__managed__ variables are not supported yet (use cudaMallocManaged)");
}
char __cudaInitModule(void **h) { (void)h; return 1; }

/* ---- memory ---- */
static cudaError_t ks_malloc(void **p, size_t n, uint32_t managed) {
  if (ks_sticky) return ks_sticky;
  if (!p) return ks_ret(1);
  ks_buf k = {0};
  kb_u64(&k, n);
  kb_u32(&k, managed);
  uint64_t addr = 0;
  cudaError_t e = ks_call(OP_MALLOC, k.b, k.n, &addr, 8, 0);
  free(k.b);
  *p = e == 0 ? (void *)(uintptr_t)addr : 0;
  if (e == 0 && managed && n > 0 && mprotect(*p, (n + 4095) & ~(size_t)4095, PROT_READ | PROT_WRITE) != 0) ks_die("cannot map managed memory");
  return ks_ret(e);
}
cudaError_t cudaMalloc(void **p, size_t n) { return ks_malloc(p, n, 0); }
cudaError_t cudaMallocManaged(void **p, size_t n, unsigned int flags) { (void)flags; return ks_malloc(p, n, 1); }
/* Pinned host memory lives in the shared file too, open to the host: as under
   unified addressing, a kernel can read and write it through the same pointer. */
cudaError_t cudaMallocHost(void **p, size_t n) { return ks_malloc(p, n, 2); }
cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int flags) { (void)flags; return ks_malloc(p, n, 2); }
cudaError_t cudaFree(void *p);
cudaError_t cudaFreeHost(void *p) { return cudaFree(p); }
cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned int flags) {
  (void)flags;
  *d = h;
  return 0;
}
cudaError_t cudaFree(void *p) {
  if (ks_sync()) return ks_sticky;
  if (!p) return 0;
  uint64_t a = (uint64_t)(uintptr_t)p;
  return ks_ret(ks_call(OP_FREE, &a, 8, 0, 0, 0));
}

static int ks_is_dev(const void *p) {
  uint64_t a = (uint64_t)(uintptr_t)p;
  return a >= KSRT_DEVBASE && a < KSRT_DEVBASE + ks_heap_size;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind) {
  if (ks_sync()) return ks_sticky;
  if (n == 0) return 0;
  if (!dst || !src) return ks_ret(1);
  uint64_t r[4] = {(uint64_t)(uintptr_t)dst, (uint64_t)(uintptr_t)src, n, (uint64_t)kind};
  cudaError_t e = ks_call(OP_MEMCPY, r, sizeof r, 0, 0, 0);
  if (e) return ks_ret(e);
  /* The parent checked the device ranges and made device-to-device copies itself. */
  int dd = ks_is_dev(dst), sd = ks_is_dev(src);
  if (dd && sd) return 0;
  if (!dd && !sd) {
    memmove(dst, src, n);
    return 0;
  }
  char *h = (char *)(dd ? src : dst);
  off_t off = (off_t)((uint64_t)(uintptr_t)(dd ? dst : src) - KSRT_DEVBASE);
  while (n > 0) {
    ssize_t k = dd ? pwrite(3, h, n, off) : pread(3, h, n, off);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return ks_ret(1); /* an invalid host pointer */
    h += k, off += k, n -= (size_t)k;
  }
  return 0;
}
cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h) {
  if (!pitch) return ks_ret(1);
  *pitch = (w + 511) & ~(size_t)511; /* rows aligned to 512 bytes */
  return ks_malloc(p, *pitch * h, 0);
}
/* cudaMemcpy2D copies row by row (one checked copy per row). */
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t w, size_t h, int kind) {
  if (w > dpitch || w > spitch) return ks_ret(1);
  for (size_t r = 0; r < h; r++) {
    cudaError_t e = cudaMemcpy((char *)dst + r * dpitch, (const char *)src + r * spitch, w, kind);
    if (e) return e;
  }
  return 0;
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, cudaStream_t s) { (void)s; return cudaMemcpy(dst, src, n, kind); }
cudaError_t cudaMemset(void *p, int v, size_t n) {
  if (ks_sync()) return ks_sticky;
  if (n == 0) return 0;
  uint64_t r[3] = {(uint64_t)(uintptr_t)p, (uint64_t)(unsigned char)v, n};
  cudaError_t e = ks_call(OP_MEMSET, r, sizeof r, 0, 0, 0);
  return ks_ret(e); /* the parent filled the bytes */
}
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s) { (void)s; return cudaMemset(p, v, n); }
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, cudaStream_t s) { (void)p, (void)n, (void)device, (void)s; return ks_sticky; }

/* ---- symbols ---- */
cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t off, int kind) {
  (void)kind;
  if (ks_sticky) return ks_sticky;
  size_t size = 0;
  const char *name = ks_lookup(ks_vars, ks_nvars, sym, &size);
  if (!name) return ks_ret(13); /* cudaErrorInvalidSymbol */
  if (off + n > size) return ks_ret(1);
  ks_buf k = {0};
  kb_str(&k, name);
  kb_u64(&k, off);
  kb_u64(&k, size);
  kb_put(&k, src, (uint32_t)n);
  cudaError_t e = ks_call(OP_SYMSET, k.b, k.n, 0, 0, 0);
  free(k.b);
  return ks_ret(e);
}
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t off, int kind) {
  (void)kind;
  if (ks_sync()) return ks_sticky;
  size_t size = 0;
  const char *name = ks_lookup(ks_vars, ks_nvars, sym, &size);
  if (!name) return ks_ret(13);
  if (off + n > size) return ks_ret(1);
  ks_buf k = {0};
  kb_str(&k, name);
  kb_u64(&k, off);
  kb_u64(&k, n);
  kb_u64(&k, size);
  uint32_t got = 0;
  cudaError_t e = ks_call(OP_SYMGET, k.b, k.n, dst, (uint32_t)n, &got);
  free(k.b);
  return ks_ret(e);
}
static cudaError_t ks_unsupported(const char *what) {
  ks_buf k = {0};
  kb_str(&k, what);
  ks_call(OP_UNSUPPORTED, k.b, k.n, 0, 0, 0);
  free(k.b);
  fprintf(stderr, "kernelscope runtime: %s is not supported yet; it returns cudaErrorNotSupported\n", what);
  return ks_ret(801);
}
cudaError_t cudaGetSymbolAddress(void **p, const void *sym) { (void)p, (void)sym; return ks_unsupported("cudaGetSymbolAddress"); }
cudaError_t cudaCreateTextureObject(unsigned long long *t, const void *r, const void *d, const void *v) {
  (void)t, (void)r, (void)d, (void)v;
  return ks_unsupported("cudaCreateTextureObject (texture objects)");
}
cudaError_t cudaDestroyTextureObject(unsigned long long t) { (void)t; return ks_unsupported("cudaDestroyTextureObject (texture objects)"); }

/* ---- launches ---- */
typedef struct { dim3 grid, block; size_t shmem; cudaStream_t stream; } ks_config;
static ks_config ks_cfg[64];
static int ks_ncfg;
static char ks_args[8192];
static uint32_t ks_argoff[256], ks_argsize[256];
static int ks_nargs;

int cudaConfigureCall(dim3 grid, dim3 block, size_t shmem, cudaStream_t s) {
  if (ks_ncfg < 64) ks_cfg[ks_ncfg++] = (ks_config){grid, block, shmem, s};
  ks_nargs = 0;
  return 0;
}
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem, cudaStream_t s) { return (unsigned)cudaConfigureCall(grid, block, shmem, s); }
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem, cudaStream_t *s) {
  if (ks_ncfg == 0) return 52; /* cudaErrorMissingConfiguration */
  ks_config c = ks_cfg[--ks_ncfg];
  *grid = c.grid, *block = c.block, *shmem = c.shmem, *s = c.stream;
  return 0;
}
cudaError_t cudaSetupArgument(const void *arg, size_t size, size_t off) {
  if (ks_nargs >= 256 || off + size > sizeof ks_args) return ks_ret(1);
  memcpy(ks_args + off, arg, size);
  ks_argoff[ks_nargs] = (uint32_t)off, ks_argsize[ks_nargs] = (uint32_t)size;
  ks_nargs++;
  return 0;
}

static cudaError_t ks_launch(const char *name, dim3 g, dim3 b, size_t shmem, void **argv, int nargv) {
  ks_buf k = {0};
  kb_str(&k, name);
  kb_u32(&k, g.x), kb_u32(&k, g.y), kb_u32(&k, g.z);
  kb_u32(&k, b.x), kb_u32(&k, b.y), kb_u32(&k, b.z);
  kb_u64(&k, shmem);
  if (argv) {
    /* cudaLaunchKernel: the parameter sizes come from the kernel's PTX. */
    uint32_t sizes[256], got = 0;
    ks_buf q = {0};
    kb_str(&q, name);
    cudaError_t e = ks_call(OP_PARAMS, q.b, q.n, sizes, sizeof sizes, &got);
    free(q.b);
    if (e) { free(k.b); return ks_ret(e); }
    uint32_t n = got / 4;
    kb_u32(&k, n);
    for (uint32_t i = 0; i < n; i++) {
      kb_u32(&k, sizes[i]);
      kb_put(&k, argv[i], sizes[i]);
    }
  } else {
    kb_u32(&k, (uint32_t)nargv);
    for (int i = 0; i < nargv; i++) {
      kb_u32(&k, ks_argsize[i]);
      kb_put(&k, ks_args + ks_argoff[i], ks_argsize[i]);
    }
  }
  static char out[1 << 20];
  uint32_t got = 0;
  cudaError_t e = ks_call(OP_LAUNCH, k.b, k.n, out, sizeof out, &got);
  free(k.b);
  if (got >= 4) {
    /* fault, then device printf output (stdout) and failed device asserts (stderr), each
       after its length */
    int32_t fault;
    memcpy(&fault, out, 4);
    uint32_t at = 4;
    for (int stream = 0; stream < 2 && at + 4 <= got; stream++) {
      uint32_t n;
      memcpy(&n, out + at, 4);
      at += 4;
      if (n > got - at) n = got - at;
      if (n) {
        if (stream == 1) fflush(stdout);
        fwrite(out + at, 1, n, stream == 0 ? stdout : stderr);
      }
      at += n;
    }
    if (fault && !ks_pending) ks_pending = fault;
  }
  return ks_ret(e);
}

cudaError_t cudaLaunch(const void *stub) {
  int n = ks_nargs;
  ks_nargs = 0;
  if (ks_sticky) { ks_ncfg = ks_ncfg > 0 ? ks_ncfg - 1 : 0; return ks_sticky; }
  const char *name = ks_lookup(ks_funcs, ks_nfuncs, stub, 0);
  if (ks_ncfg == 0) return ks_ret(52);
  ks_config c = ks_cfg[--ks_ncfg];
  if (!name) return ks_ret(98); /* cudaErrorInvalidDeviceFunction */
  return ks_launch(name, c.grid, c.block, c.shmem, 0, n);
}
cudaError_t cudaLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shmem, cudaStream_t s);
/* Blocks run one after another in the simulator, so a grid-wide sync is what the
   simulator makes of it (see the README's known limits). */
cudaError_t cudaLaunchCooperativeKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shmem, cudaStream_t s) {
  return cudaLaunchKernel(f, grid, block, args, shmem, s);
}
cudaError_t cudaLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shmem, cudaStream_t s) {
  (void)s;
  if (ks_sticky) return ks_sticky;
  const char *name = ks_lookup(ks_funcs, ks_nfuncs, f, 0);
  if (!name) return ks_ret(98);
  return ks_launch(name, grid, block, shmem, args, 0);
}

/* ---- synchronisation, errors ---- */
cudaError_t cudaDeviceSynchronize(void) { return ks_sync(); }
cudaError_t cudaThreadSynchronize(void) { return ks_sync(); }
cudaError_t cudaDeviceReset(void) { return 0; }
cudaError_t cudaGetLastError(void) {
  cudaError_t e = ks_last;
  ks_last = ks_sticky;
  return e;
}
cudaError_t cudaPeekAtLastError(void) { return ks_last; }

static const struct { int code; const char *name, *text; } ks_errors[] = {
  {0, "cudaSuccess", "no error"},
  {1, "cudaErrorInvalidValue", "invalid argument"},
  {2, "cudaErrorMemoryAllocation", "out of memory"},
  {9, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
  {13, "cudaErrorInvalidSymbol", "invalid device symbol"},
  {17, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
  {21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
  {52, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
  {98, "cudaErrorInvalidDeviceFunction", "invalid device function"},
  {101, "cudaErrorInvalidDevice", "invalid device ordinal"},
  {400, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
  {600, "cudaErrorNotReady", "device not ready"},
  {700, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
  {701, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
  {702, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
  {710, "cudaErrorAssert", "device-side assert triggered"},
  {716, "cudaErrorMisalignedAddress", "misaligned address"},
  {719, "cudaErrorLaunchFailure", "unspecified launch failure"},
  {801, "cudaErrorNotSupported", "operation not supported"},
  {999, "cudaErrorUnknown", "unknown error"},
};
const char *cudaGetErrorName(cudaError_t e) {
  for (size_t i = 0; i < sizeof ks_errors / sizeof ks_errors[0]; i++)
    if (ks_errors[i].code == e) return ks_errors[i].name;
  return "cudaErrorUnknown";
}
const char *cudaGetErrorString(cudaError_t e) {
  for (size_t i = 0; i < sizeof ks_errors / sizeof ks_errors[0]; i++)
    if (ks_errors[i].code == e) return ks_errors[i].text;
  return "unrecognized error code";
}

/* ---- device ---- */
cudaError_t cudaGetDeviceCount(int *n) { *n = 1; return 0; }
cudaError_t cudaGetDevice(int *d) { *d = 0; return 0; }
cudaError_t cudaSetDevice(int d) { return d == 0 ? 0 : ks_ret(101); }

/* OP_PROPS reply: a name of 64 bytes, then int64 figures in this order. */
enum { P_SMS, P_WARP, P_MAXTPB, P_MAXTPSM, P_MAXBPSM, P_REGSSM, P_REGSBLOCK, P_SHBLOCK, P_SHOPTIN, P_SHSM, P_CLOCKKHZ,
       P_MAJOR, P_MINOR, P_L2, P_TOTALMEM, P_MEMCLOCKKHZ, P_BUSWIDTH, P_N };
static int64_t ks_props[P_N];
static char ks_name[64];
static int ks_have_props;
static void ks_get_props(void) {
  if (ks_have_props) return;
  char buf[64 + 8 * P_N];
  uint32_t got = 0;
  memset(buf, 0, sizeof buf);
  ks_call(OP_PROPS, 0, 0, buf, sizeof buf, &got);
  memcpy(ks_name, buf, 64);
  ks_name[63] = 0;
  memcpy(ks_props, buf + 64, 8 * P_N);
  ks_have_props = 1;
}
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d) {
  if (d != 0) return ks_ret(101);
  ks_get_props();
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s", ks_name);
  p->totalGlobalMem = (size_t)ks_props[P_TOTALMEM];
  p->sharedMemPerBlock = (size_t)ks_props[P_SHBLOCK];
  p->regsPerBlock = (int)ks_props[P_REGSBLOCK];
  p->warpSize = (int)ks_props[P_WARP];
  p->memPitch = 2147483647;
  p->maxThreadsPerBlock = (int)ks_props[P_MAXTPB];
  p->maxThreadsDim[0] = 1024, p->maxThreadsDim[1] = 1024, p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647, p->maxGridSize[1] = 65535, p->maxGridSize[2] = 65535;
  p->clockRate = (int)ks_props[P_CLOCKKHZ];
  p->totalConstMem = 65536;
  p->major = (int)ks_props[P_MAJOR];
  p->minor = (int)ks_props[P_MINOR];
  p->multiProcessorCount = (int)ks_props[P_SMS];
  p->maxThreadsPerMultiProcessor = (int)ks_props[P_MAXTPSM];
  p->memoryClockRate = (int)ks_props[P_MEMCLOCKKHZ];
  p->memoryBusWidth = (int)ks_props[P_BUSWIDTH];
  p->l2CacheSize = (int)ks_props[P_L2];
  p->sharedMemPerMultiprocessor = (size_t)ks_props[P_SHSM];
  p->regsPerMultiprocessor = (int)ks_props[P_REGSSM];
  p->sharedMemPerBlockOptin = (size_t)ks_props[P_SHOPTIN];
  p->cooperativeLaunch = 1;
  p->concurrentKernels = 0; /* launches are serialised */
  p->asyncEngineCount = 0;
  p->unifiedAddressing = 1;
  p->managedMemory = 1;
  return 0;
}
cudaError_t cudaDeviceGetAttribute(int *v, int a, int d) {
  if (d != 0) return ks_ret(101);
  ks_get_props();
  switch (a) {
  case 1: *v = (int)ks_props[P_MAXTPB]; return 0;
  case 2: case 3: *v = 1024; return 0;
  case 4: *v = 64; return 0;
  case 5: *v = 2147483647; return 0;
  case 6: case 7: *v = 65535; return 0;
  case 8: *v = (int)ks_props[P_SHBLOCK]; return 0;
  case 10: *v = (int)ks_props[P_WARP]; return 0;
  case 16: *v = (int)ks_props[P_SMS]; return 0;
  case 75: *v = (int)ks_props[P_MAJOR]; return 0;
  case 76: *v = (int)ks_props[P_MINOR]; return 0;
  case 97: *v = (int)ks_props[P_SHOPTIN]; return 0;
  }
  return ks_unsupported("cudaDeviceGetAttribute with this attribute");
}
cudaError_t cudaDeviceSetCacheConfig(int c) { (void)c; return 0; }
cudaError_t cudaDeviceSetSharedMemConfig(int c) { (void)c; return 0; }
cudaError_t cudaFuncSetCacheConfig(const void *f, int c) { (void)f, (void)c; return 0; }

cudaError_t cudaFuncSetAttribute(const void *f, int attr, int v) {
  const char *name = ks_lookup(ks_funcs, ks_nfuncs, f, 0);
  if (!name) return ks_ret(98);
  ks_buf k = {0};
  kb_str(&k, name);
  kb_u32(&k, (uint32_t)attr);
  kb_u32(&k, (uint32_t)v);
  cudaError_t e = ks_call(OP_FUNCATTR, k.b, k.n, 0, 0, 0);
  free(k.b);
  return ks_ret(e);
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *f, int block, size_t smem) {
  const char *name = ks_lookup(ks_funcs, ks_nfuncs, f, 0);
  if (!name) return ks_ret(98);
  ks_buf k = {0};
  kb_str(&k, name);
  kb_u32(&k, (uint32_t)block);
  kb_u64(&k, smem);
  int32_t r = 0;
  cudaError_t e = ks_call(OP_OCCUPANCY, k.b, k.n, &r, 4, 0);
  free(k.b);
  *n = r;
  return ks_ret(e);
}

/* Must match struct cudaFuncAttributes in kernelscope_runtime.h. */
struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int maxDynamicSharedSizeBytes;
};
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *f) {
  const char *name = ks_lookup(ks_funcs, ks_nfuncs, f, 0);
  if (!name) return ks_ret(98);
  ks_buf k = {0};
  kb_str(&k, name);
  int64_t v[8] = {0};
  cudaError_t e = ks_call(OP_FUNCINFO, k.b, k.n, v, sizeof v, 0);
  free(k.b);
  if (e) return ks_ret(e);
  a->sharedSizeBytes = (size_t)v[0], a->constSizeBytes = (size_t)v[1], a->localSizeBytes = (size_t)v[2];
  a->maxThreadsPerBlock = (int)v[3], a->numRegs = (int)v[4], a->ptxVersion = (int)v[5], a->binaryVersion = (int)v[6];
  a->maxDynamicSharedSizeBytes = (int)v[7];
  return 0;
}
cudaError_t cudaOccupancyMaxPotentialBlockSize(int *grid, int *block, const void *f, size_t smem, int limit) {
  const char *name = ks_lookup(ks_funcs, ks_nfuncs, f, 0);
  if (!name) return ks_ret(98);
  ks_buf k = {0};
  kb_str(&k, name);
  kb_u64(&k, smem);
  kb_u32(&k, (uint32_t)limit);
  int32_t r[2] = {0, 0};
  cudaError_t e = ks_call(OP_BLOCKSIZE, k.b, k.n, r, sizeof r, 0);
  free(k.b);
  if (e) return ks_ret(e);
  *grid = r[0], *block = r[1];
  return 0;
}

/* ---- streams and events: launches run in order, one at a time ---- */
cudaError_t cudaStreamCreate(cudaStream_t *s) { *s = malloc(1); return 0; }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags) { (void)flags; return cudaStreamCreate(s); }
cudaError_t cudaStreamDestroy(cudaStream_t s) { free(s); return 0; }
cudaError_t cudaStreamSynchronize(cudaStream_t s) { (void)s; return ks_sync(); }
cudaError_t cudaStreamQuery(cudaStream_t s) { (void)s; return ks_sticky; }
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int flags) { (void)s, (void)e, (void)flags; return 0; }
cudaError_t cudaEventCreate(cudaEvent_t *e) {
  *e = calloc(1, sizeof **e);
  return *e ? 0 : ks_ret(2);
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags) { (void)flags; return cudaEventCreate(e); }
cudaError_t cudaEventDestroy(cudaEvent_t e) { free(e); return 0; }
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  (void)s;
  if (!e) return ks_ret(400);
  double ms = 0;
  cudaError_t r = ks_call(OP_TIME, 0, 0, &ms, 8, 0);
  e->ms = ms, e->recorded = 1;
  return ks_ret(r);
}
cudaError_t cudaEventSynchronize(cudaEvent_t e) { (void)e; return ks_sync(); }
cudaError_t cudaEventQuery(cudaEvent_t e) { (void)e; return ks_sticky; }
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  if (!a || !b || !ms) return ks_ret(400);
  if (!a->recorded || !b->recorded) return ks_ret(400);
  *ms = (float)(b->ms - a->ms);
  return 0;
}
cudaError_t cudaProfilerStart(void) { return 0; }
cudaError_t cudaProfilerStop(void) { return 0; }
cudaError_t cudaMemGetInfo(size_t *fr, size_t *total) {
  uint64_t r[2] = {0, 0};
  cudaError_t e = ks_call(OP_MEMINFO, 0, 0, r, sizeof r, 0);
  *fr = (size_t)r[0], *total = (size_t)r[1];
  return ks_ret(e);
}
