// Host harness for the launch-model kernels (this project's own code): reads the
// inputs from inputs/, runs each case once on the GPU and writes every buffer and
// symbol after the launch to OUTDIR/CASE.NAME.out.bin. Built with
//   nvcc -O2 -arch=sm_90 -o harness harness.cu
// and run as ./harness OUTDIR from this folder (run_h200.sh does both).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#include "dynsmem.cu"
#include "signatures.cu"
#include "specials.cu"
#include "symbols.cu"
#include "vectypes.cu"

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

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: harness OUTDIR\n"); return 2; }
    outdir = argv[1];
    std::vector<char> none;

    { // reverse_dyn<<<4, 256, 1024>>>
        const int n = 1024;
        void *in = dev(readFile("rev_in.bin", n * 4), n * 4), *out = dev(none, n * 4), *info = dev(none, 16);
        reverse_dyn<<<4, 256, 256 * sizeof(float)>>>((const float *)in, (float *)out, (unsigned *)info, n);
        CHECK(cudaGetLastError());
        dump("reverse_dyn.out", out, n * 4);
        dump("reverse_dyn.info", info, 16);
    }
    { // specials<<<2, 64, 100>>>, specials_hw<<<1, 32>>>
        void *lane = dev(none, 64 * 8 * 4), *blk = dev(none, 2 * 12 * 4), *hw = dev(none, 8 * 4);
        specials<<<2, 64, 100>>>((unsigned *)lane, (unsigned *)blk);
        CHECK(cudaGetLastError());
        dump("specials.lane_regs", lane, 64 * 8 * 4);
        dump("specials.block_regs", blk, 2 * 12 * 4);
        // The same with no and with 5000 bytes of dynamic shared memory (how %total_smem_size rounds).
        specials<<<1, 32, 0>>>((unsigned *)lane, (unsigned *)blk);
        CHECK(cudaGetLastError());
        dump("specials0.block_regs", blk, 12 * 4);
        specials<<<1, 32, 5000>>>((unsigned *)lane, (unsigned *)blk);
        CHECK(cudaGetLastError());
        dump("specials5000.block_regs", blk, 12 * 4);
#ifndef NO_HW
        specials_hw<<<1, 32>>>((unsigned *)hw);
        CHECK(cudaGetLastError());
        dump("specials_hw.out", hw, 8 * 4);
#endif
    }
    { // conv_row<<<4, 256>>> with c_Kernel copied in
        const int n = 1000;
        std::vector<char> k = readFile("c_Kernel.bin", KW * 4);
        CHECK(cudaMemcpyToSymbol(c_Kernel, k.data(), KW * 4));
        void *in = dev(readFile("conv_in.bin", n * 4), n * 4), *out = dev(none, n * 4);
        conv_row<<<4, 256>>>((const float *)in, (float *)out, n);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        dump("conv_row.out", out, n * 4);
        unsigned count;
        float last[4], gain;
        CHECK(cudaMemcpyFromSymbol(&count, d_count, 4));
        CHECK(cudaMemcpyFromSymbol(last, d_last, 16));
        CHECK(cudaMemcpyFromSymbol(&gain, d_gain, 4));
        writeFile("conv_row.d_count", &count, 4);
        writeFile("conv_row.d_last", last, 16);
        writeFile("conv_row.d_gain", &gain, 4);
    }
    { // MatrixMul<16> and MatrixMul<8>: C[32x48] = alpha * A[32x32] B[32x48]
        const int wA = 32, wB = 48, hA = 32;
        std::vector<char> a = readFile("mm_A.bin", hA * wA * 4), b = readFile("mm_B.bin", wA * wB * 4);
        void *A = dev(a, a.size()), *B = dev(b, b.size()), *C16 = dev(none, hA * wB * 4), *C8 = dev(none, hA * wB * 4);
        MatrixMul<16><<<dim3(3, 2), dim3(16, 16)>>>((float *)C16, (const float *)A, (const float *)B, wA, wB, 0.5f);
        CHECK(cudaGetLastError());
        MatrixMul<8><<<dim3(6, 4), dim3(8, 8)>>>((float *)C8, (const float *)A, (const float *)B, wA, wB);
        CHECK(cudaGetLastError());
        dump("matrixmul16.C", C16, hA * wB * 4);
        dump("matrixmul8.C", C8, hA * wB * 4);
    }
    { // saxpy_attr<<<4, 256>>>
        const int n = 1000;
        void *x = dev(readFile("saxpy_x.bin", n * 4), n * 4), *y = dev(readFile("saxpy_y.bin", n * 4), n * 4);
        saxpy_attr<<<4, 256>>>(n, 2.5f, (const float *)x, (float *)y);
        CHECK(cudaGetLastError());
        dump("saxpy_attr.y", y, n * 4);
    }
    { // vec_types<<<2, 256>>>
        const int n = 512;
        void *a = dev(readFile("vec_a.bin", n * 16), n * 16), *b = dev(none, n * 16);
        void *c = dev(readFile("vec_c.bin", n * 8), n * 8), *d = dev(none, n * 8);
        void *p = dev(readFile("vec_p.bin", n * 16), n * 16), *q = dev(none, n * 16);
        vec_types<<<2, 256>>>((const float4 *)a, (float4 *)b, (const int2 *)c, (int2 *)d,
                              (const Particle *)p, (Particle *)q, n);
        CHECK(cudaGetLastError());
        dump("vec_types.b", b, n * 16);
        dump("vec_types.d", d, n * 8);
        dump("vec_types.q", q, n * 16);
    }
    CHECK(cudaDeviceSynchronize());
    printf("ok\n");
    return 0;
}
