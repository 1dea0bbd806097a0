// The math sweep's host program (this project's own code): for every line of
// math_domains.txt it launches that function's kernel over N = 65536 samples
// (kstride 1) and writes OUTDIR/full/NAME.bin (all samples) and OUTDIR/sub/NAME.bin
// (samples j*31, j < 2048: what the CI test simulates), plus OUTDIR/params.txt (each
// launch's arguments). Built from sweep_main.cu and the sweep_*.cu units (run_h200.sh
// compiles each with nvcc -O2 -arch=sm_90 -c and links them).
// and run as ./sweep OUTDIR from this folder. With SWEEP_SKIP=1 in the environment a line
// whose kernel was not linked in is skipped rather than counted as a failure (run_h200.sh
// links a subset that way to record only new functions).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <cuda_runtime.h>
#include "sweep_reg.h"

std::vector<SwEntry> &sw_registry()
{
    static std::vector<SwEntry> r;
    return r;
}

#define CHECK(x)                                                                        \
    do {                                                                                \
        cudaError_t e_ = (x);                                                           \
        if (e_ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

static const unsigned N = 65536, SUB = 2048, STRIDE = 31;

static unsigned long long bits(double v, bool dbl)
{
    if (dbl) {
        unsigned long long b;
        memcpy(&b, &v, 8);
        return b;
    }
    float f = (float)v;
    unsigned b;
    memcpy(&b, &f, 4);
    return b;
}

static void put(const std::string &path, const void *p, size_t n)
{
    FILE *f = fopen(path.c_str(), "wb");
    if (!f || fwrite(p, 1, n, f) != n) { fprintf(stderr, "cannot write %s\n", path.c_str()); exit(1); }
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: sweep OUTDIR\n"); return 2; }
    std::string out = argv[1];
    FILE *dom = fopen("math_domains.txt", "r");
    if (!dom) { fprintf(stderr, "cannot open math_domains.txt\n"); return 1; }
    FILE *params = fopen((out + "/params.txt").c_str(), "w");
    void *d;
    CHECK(cudaMalloc(&d, N * 8));
    std::vector<char> h(N * 8), s(SUB * 8);
    char line[512];
    int done = 0, failed = 0;
    while (fgets(line, sizeof line, dom)) {
        char kind, name[64], sxlo[64], sxhi[64], sylo[64], syhi[64];
        int sym;
        if (line[0] == '#' || sscanf(line, " %c %63s %63s %63s %d %63s %63s", &kind, name, sxlo, sxhi, &sym, sylo, syhi) != 7) continue;
        bool dbl = kind == 'd' || kind == 'e' || kind == 'g';
        const void *fn = nullptr;
        for (auto &e : sw_registry())
            if (strcmp(e.name, name) == 0) fn = e.fn;
        if (!fn && getenv("SWEEP_SKIP")) continue;
        if (!fn) { fprintf(stderr, "no kernel for %s\n", name); failed++; continue; }
        unsigned long long xlo = bits(strtod(sxlo, nullptr), dbl), xhi = bits(strtod(sxhi, nullptr), dbl);
        unsigned long long ylo = bits(strtod(sylo, nullptr), dbl), yhi = bits(strtod(syhi, nullptr), dbl);
        if (kind == 'v') { // SIMD: the values are the bits themselves (unused by the kernels)
            xlo = strtoull(sxlo, nullptr, 0), xhi = strtoull(sxhi, nullptr, 0);
            ylo = strtoull(sylo, nullptr, 0), yhi = strtoull(syhi, nullptr, 0);
        }
        unsigned long long step = (xhi - xlo) / N, ystep = (yhi - ylo) / 65536;
        unsigned kstride = 1;
        size_t es = dbl ? 8 : 4;
        CHECK(cudaMemset(d, 0, N * 8));
        if (dbl) {
            void *args[] = {&d, &kstride, &xlo, &step, &ylo, &ystep, &sym};
            CHECK(cudaLaunchKernel(fn, dim3(N / 256), dim3(256), args, 0, 0));
        } else {
            unsigned a = (unsigned)xlo, b = (unsigned)step, c = (unsigned)ylo, e = (unsigned)ystep;
            void *args[] = {&d, &kstride, &a, &b, &c, &e, &sym};
            CHECK(cudaLaunchKernel(fn, dim3(N / 256), dim3(256), args, 0, 0));
        }
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(h.data(), d, N * es, cudaMemcpyDeviceToHost));
        put(out + "/full/" + name + ".bin", h.data(), N * es);
        for (unsigned j = 0; j < SUB; j++) memcpy(&s[j * es], &h[(size_t)j * STRIDE * es], es);
        put(out + "/sub/" + name + ".bin", s.data(), SUB * es);
        fprintf(params, "%c %s lo=0x%llx step=0x%llx ylo=0x%llx ystep=0x%llx sym=%d\n", kind, name, xlo, step, ylo, ystep, sym);
        done++;
    }
    fclose(params);
    printf("sweep: %d functions, %d failed\n", done, failed);
    return failed != 0;
}
