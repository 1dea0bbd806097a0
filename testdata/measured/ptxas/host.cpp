// Launches every line of a manifest through the CUDA driver API (one process, so one ncu session
// covers all launches). Line: ID CUBIN KERNEL GX GY GZ BX BY BZ SHMEM NARGS ARG...
// ARG: D:PATH:BYTES (buffer from file) R:BYTES:f|b|i (random floats [0,1), bytes, ints [0,1000))
//      Z:BYTES (zeros) I4:V I8:V F4:V F8:V (scalars). Made for KernelScope gpu/ptxas ground truth.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#define CK(x) do { CUresult e_ = (x); if (e_ != CUDA_SUCCESS) { const char *s_ = 0; cuGetErrorString(e_, &s_); \
  fprintf(stderr, "%s: %s: %s\n", id.c_str(), #x, s_ ? s_ : "?"); ok = false; } } while (0)
static unsigned long long rng = 88172645463325252ull;
static unsigned nxt() { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (unsigned)(rng >> 11); }
int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: host MANIFEST [ONLY_PREFIX]\n"); return 2; }
  const char *only = argc > 2 ? argv[2] : "";
  cuInit(0);
  CUdevice dev; cuDeviceGet(&dev, 0);
  CUcontext ctx; cuDevicePrimaryCtxRetain(&ctx, dev); cuCtxSetCurrent(ctx);
  FILE *m = fopen(argv[1], "r");
  if (!m) { perror(argv[1]); return 2; }
  char line[8192];
  while (fgets(line, sizeof line, m)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    std::vector<std::string> tok;
    for (char *p = strtok(line, " \t\n"); p; p = strtok(0, " \t\n")) tok.push_back(p);
    if (tok.size() < 11) continue;
    std::string id = tok[0];
    if (strncmp(id.c_str(), only, strlen(only)) != 0) continue;
    bool ok = true;
    CUmodule mod; CUfunction fn;
    CK(cuModuleLoad(&mod, tok[1].c_str()));
    if (!ok) continue;
    CK(cuModuleGetFunction(&fn, mod, tok[2].c_str()));
    if (!ok) { cuModuleUnload(mod); continue; }
    unsigned g[3], b[3]; for (int k = 0; k < 3; ++k) { g[k] = atoi(tok[3 + k].c_str()); b[k] = atoi(tok[6 + k].c_str()); }
    unsigned shm = atoi(tok[9].c_str()); int na = atoi(tok[10].c_str());
    std::vector<unsigned long long> store(na); std::vector<void *> params(na); std::vector<CUdeviceptr> bufs;
    for (int k = 0; k < na && ok; ++k) {
      std::string a = tok[11 + k];
      char kind = a[0];
      if (kind == 'D' || kind == 'R' || kind == 'Z') {
        size_t bytes; std::string path, how;
        if (kind == 'D') { size_t c1 = a.find(':', 2); path = a.substr(2, c1 - 2); bytes = strtoull(a.c_str() + c1 + 1, 0, 10); }
        else { bytes = strtoull(a.c_str() + 2, 0, 10); size_t c1 = a.find(':', 2); how = c1 == std::string::npos ? "z" : a.substr(c1 + 1); }
        std::vector<unsigned char> h(bytes + 16, 0);
        if (kind == 'D') { FILE *f = fopen(path.c_str(), "rb"); if (!f || fread(h.data(), 1, bytes, f) != bytes) { fprintf(stderr, "%s: cannot read %s\n", id.c_str(), path.c_str()); ok = false; } if (f) fclose(f); }
        else if (how == "f") { float *fp = (float *)h.data(); for (size_t i = 0; i < bytes / 4; ++i) fp[i] = (nxt() & 0xffffff) / 16777216.0f; }
        else if (how == "b") { for (size_t i = 0; i < bytes; ++i) h[i] = nxt() & 0xff; }
        else if (how == "i") { int *ip = (int *)h.data(); for (size_t i = 0; i < bytes / 4; ++i) ip[i] = nxt() % 1000; }
        CUdeviceptr d = 0; CK(cuMemAlloc(&d, bytes + 16)); if (!ok) break;
        CK(cuMemcpyHtoD(d, h.data(), bytes + 16));
        bufs.push_back(d); store[k] = d;
      } else if (a[0] == 'I' && a[1] == '4') { int v = atoi(a.c_str() + 3); memcpy(&store[k], &v, 4); }
      else if (a[0] == 'I' && a[1] == '8') { long long v = atoll(a.c_str() + 3); memcpy(&store[k], &v, 8); }
      else if (a[0] == 'F' && a[1] == '4') { float v = strtof(a.c_str() + 3, 0); memcpy(&store[k], &v, 4); }
      else if (a[0] == 'F' && a[1] == '8') { double v = strtod(a.c_str() + 3, 0); memcpy(&store[k], &v, 8); }
      params[k] = &store[k];
    }
    if (ok) {
      CK(cuLaunchKernel(fn, g[0], g[1], g[2], b[0], b[1], b[2], shm, 0, params.data(), 0));
      CK(cuCtxSynchronize());
      printf("%s %s\n", id.c_str(), ok ? "ok" : "FAILED");
    }
    for (CUdeviceptr d : bufs) cuMemFree(d);
    cuModuleUnload(mod);
    fflush(stdout);
  }
  return 0;
}
