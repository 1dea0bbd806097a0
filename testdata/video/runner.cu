// runner: loads a cubin made by ptxas and launches kernels of the form
// k(.param .u64 out, .param .u64 in) over N threads (blocks of 128), writing each
// kernel's output buffer to OUTDIR/NAME.bin. Used by run_h200.sh (testdata/video and
// testdata/ptxas_contract). Build: nvcc -O2 -o runner runner.cu -lcuda
//   runner CUBIN IN.bin N OUTBYTES OUTDIR KERNEL...
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x) do { CUresult e_ = (x); if (e_ != CUDA_SUCCESS) { const char *s_; cuGetErrorString(e_, &s_); \
    fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_); exit(1); } } while (0)

int main(int argc, char **argv) {
    if (argc < 7) { fprintf(stderr, "usage: runner CUBIN IN.bin N OUTBYTES OUTDIR KERNEL...\n"); return 2; }
    const char *cubin = argv[1], *inPath = argv[2], *outDir = argv[5];
    int n = atoi(argv[3]);
    size_t outBytes = (size_t)atoll(argv[4]);
    FILE *f = fopen(inPath, "rb");
    if (!f) { perror(inPath); return 1; }
    fseek(f, 0, SEEK_END); long inBytes = ftell(f); fseek(f, 0, SEEK_SET);
    char *in = (char *)malloc(inBytes);
    if (fread(in, 1, inBytes, f) != (size_t)inBytes) { perror("read"); return 1; }
    fclose(f);
    CK(cuInit(0));
    CUdevice dev; CK(cuDeviceGet(&dev, 0));
    CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CUmodule mod; CK(cuModuleLoad(&mod, cubin));
    CUdeviceptr dIn, dOut;
    CK(cuMemAlloc(&dIn, inBytes));
    CK(cuMemcpyHtoD(dIn, in, inBytes));
    CK(cuMemAlloc(&dOut, outBytes));
    char *out = (char *)malloc(outBytes);
    for (int k = 6; k < argc; k++) {
        CUfunction fn;
        if (cuModuleGetFunction(&fn, mod, argv[k]) != CUDA_SUCCESS) {
            printf("no kernel %s (dropped by ptxas?)\n", argv[k]);
            continue;
        }
        CK(cuMemsetD8(dOut, 0, outBytes));
        void *args[] = {&dOut, &dIn};
        CK(cuLaunchKernel(fn, n / 128, 1, 1, 128, 1, 1, 0, 0, args, 0));
        CK(cuCtxSynchronize());
        CK(cuMemcpyDtoH(out, dOut, outBytes));
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.bin", outDir, argv[k]);
        FILE *o = fopen(path, "wb");
        if (!o) { perror(path); return 1; }
        fwrite(out, 1, outBytes, o);
        fclose(o);
    }
    printf("ran %d kernels of %s\n", argc - 6, cubin);
    return 0;
}
