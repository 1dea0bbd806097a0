// Launches golden/scale cases from their sm_90 cubins through the CUDA driver API, in the
// order of a case list made by scripts/caches/cases.py, so that ncu can profile each launch.
// Line format: name cubin kernel gx gy gz bx by bz shared nargs arg...
//   arg: b:BYTES:FILE (buffer from a file), b:BYTES:rand-f32|rand-f64|rand-bytes|zero, i:INT, u:UINT, f:FLOAT, d:DOUBLE
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <map>
#include <random>
#include <cuda.h>

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s_ = 0; cuGetErrorString(r_, &s_); \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_ ? s_ : "?"); exit(1); } } while (0)

int main(int argc, char** argv) {
  if (argc < 3) { fprintf(stderr, "usage: golden CASES DATADIR\n"); return 2; }
  FILE* f = fopen(argv[1], "r");
  if (!f) { perror(argv[1]); return 1; }
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  std::map<std::string, CUmodule> mods;
  std::mt19937_64 rng(42);
  char line[8192];
  while (fgets(line, sizeof line, f)) {
    std::vector<std::string> tok; char* save = 0;
    for (char* t = strtok_r(line, " \t\n", &save); t; t = strtok_r(0, " \t\n", &save)) tok.push_back(t);
    if (tok.size() < 11) continue;
    std::string name = tok[0], cubin = tok[1], kern = tok[2];
    unsigned g[3], b[3]; for (int i = 0; i < 3; i++) { g[i] = atoi(tok[3 + i].c_str()); b[i] = atoi(tok[6 + i].c_str()); }
    unsigned shmem = atoi(tok[9].c_str()); int nargs = atoi(tok[10].c_str());
    if (!mods.count(cubin)) { CUmodule m; CK(cuModuleLoad(&m, cubin.c_str())); mods[cubin] = m; }
    CUfunction fn; CK(cuModuleGetFunction(&fn, mods[cubin], kern.c_str()));
    std::vector<std::vector<char>> store(nargs); std::vector<void*> params(nargs); std::vector<CUdeviceptr> bufs;
    for (int a = 0; a < nargs; a++) {
      std::string s = tok[11 + a]; char k = s[0]; std::string v = s.substr(2);
      auto& st = store[a];
      if (k == 'b') {
        size_t colon = v.find(':'); size_t bytes = strtoull(v.substr(0, colon).c_str(), 0, 10); std::string src = v.substr(colon + 1);
        std::vector<char> host(bytes, 0);
        if (src == "rand-f32") { std::uniform_real_distribution<float> d(0, 1); for (size_t i = 0; i + 4 <= bytes; i += 4) { float x = d(rng); memcpy(&host[i], &x, 4); } }
        else if (src == "rand-f64") { std::uniform_real_distribution<double> d(0, 1); for (size_t i = 0; i + 8 <= bytes; i += 8) { double x = d(rng); memcpy(&host[i], &x, 8); } }
        else if (src == "rand-bytes") { for (size_t i = 0; i < bytes; i++) host[i] = (char)(rng() & 0xff); }
        else if (src != "zero") {
          std::string path = std::string(argv[2]) + "/" + src; FILE* in = fopen(path.c_str(), "rb");
          if (!in) { perror(path.c_str()); return 1; }
          size_t got = fread(host.data(), 1, bytes, in); fclose(in);
          if (got != bytes) { fprintf(stderr, "%s: %zu of %zu bytes\n", path.c_str(), got, bytes); return 1; }
        }
        CUdeviceptr d; CK(cuMemAlloc(&d, bytes < 256 ? 256 : bytes)); CK(cuMemcpyHtoD(d, host.data(), bytes)); bufs.push_back(d);
        st.resize(8); memcpy(st.data(), &d, 8);
      } else if (k == 'i') { int x = atoi(v.c_str()); st.resize(4); memcpy(st.data(), &x, 4); }
      else if (k == 'u') { unsigned x = strtoul(v.c_str(), 0, 10); st.resize(4); memcpy(st.data(), &x, 4); }
      else if (k == 'c') { unsigned char x = atoi(v.c_str()); st.resize(1); memcpy(st.data(), &x, 1); }
      else if (k == 'f') { float x = strtof(v.c_str(), 0); st.resize(4); memcpy(st.data(), &x, 4); }
      else if (k == 'd') { double x = strtod(v.c_str(), 0); st.resize(8); memcpy(st.data(), &x, 8); }
      else { fprintf(stderr, "%s: bad arg %s\n", name.c_str(), s.c_str()); return 1; }
      params[a] = store[a].data();
    }
    CK(cuLaunchKernel(fn, g[0], g[1], g[2], b[0], b[1], b[2], shmem, 0, params.data(), 0));
    CK(cuCtxSynchronize());
    printf("launched %s\n", name.c_str()); fflush(stdout);
    for (auto d : bufs) CK(cuMemFree(d));
  }
  return 0;
}
