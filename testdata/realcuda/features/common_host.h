// Host helpers of this folder's harnesses (this project's own code).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x)                                                                        \
    do {                                                                                \
        cudaError_t e_ = (x);                                                           \
        if (e_ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

static std::string outdir;

static std::vector<char> readFile(const char *name, size_t want)
{
    std::string path = std::string("inputs/") + name;
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) { fprintf(stderr, "cannot open %s\n", path.c_str()); exit(1); }
    std::vector<char> b(want);
    size_t got = fread(b.data(), 1, want, f);
    fclose(f);
    if (got != want) { fprintf(stderr, "%s: %zu bytes, want %zu\n", path.c_str(), got, want); exit(1); }
    return b;
}

static void writeFile(const std::string &name, const void *p, size_t n)
{
    std::string path = outdir + "/" + name + ".out.bin";
    FILE *f = fopen(path.c_str(), "wb");
    if (!f || fwrite(p, 1, n, f) != n) { fprintf(stderr, "cannot write %s\n", path.c_str()); exit(1); }
    fclose(f);
}

// dev allocates a device buffer holding host bytes (zeros when h is empty).
static void *dev(const std::vector<char> &h, size_t n)
{
    void *d;
    CHECK(cudaMalloc(&d, n));
    if (h.empty()) CHECK(cudaMemset(d, 0, n));
    else CHECK(cudaMemcpy(d, h.data(), n, cudaMemcpyHostToDevice));
    return d;
}

static void dump(const std::string &name, void *d, size_t n)
{
    std::vector<char> h(n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h.data(), d, n, cudaMemcpyDeviceToHost));
    writeFile(name, h.data(), n);
}
