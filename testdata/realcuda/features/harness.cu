// Host harness for the feature kernels (this project's own code): runs each case once
// and writes every output buffer to OUTDIR/CASE.NAME.out.bin. Built with
//   nvcc -O2 -arch=sm_90 -o harness harness.cu
// and run as ./harness OUTDIR from this folder (run_h200.sh does both). With -DONLY_CG,
// -DONLY_FP16, -DONLY_HINTS or -DONLY_CUB it holds one feature's cases only (run_h200.sh
// builds the four in parallel, so one that fails to build costs only its own cases).
#include "common_host.h"
#if !defined(ONLY_CG) && !defined(ONLY_FP16) && !defined(ONLY_HINTS) && !defined(ONLY_CUB)
#define ONLY_CG
#define ONLY_FP16
#define ONLY_HINTS
#define ONLY_CUB
#endif
#ifdef ONLY_CG
#include "cg.cu"
#endif
#ifdef ONLY_FP16
#include "fp16.cu"
#endif
#ifdef ONLY_HINTS
#include "cachehints.cu"
#endif
#ifdef ONLY_CUB
#include "cub.cu"
#endif

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: harness OUTDIR\n"); return 2; }
    outdir = argv[1];
    std::vector<char> none;
#ifdef ONLY_CG
    { // cg_tiles<<<2, 128>>>
        void *o = dev(none, 256 * CG_INTS * 4), *f = dev(none, 256 * 4 * 4);
        cg_tiles<<<2, 128>>>((int *)o, (float *)f);
        CHECK(cudaGetLastError());
        dump("cg_tiles.out", o, 256 * CG_INTS * 4);
        dump("cg_tiles.fout", f, 256 * 4 * 4);
    }
    { // cg_memcpy<<<2, 64>>>
        void *in = dev(readFile("cg_in.bin", 2048), 2048), *o = dev(none, 128 * 4);
        cg_memcpy<<<2, 64>>>((const int *)in, (int *)o);
        CHECK(cudaGetLastError());
        dump("cg_memcpy.out", o, 128 * 4);
    }
#endif
#ifdef ONLY_FP16
    { // fp16_ops<<<4, 256>>>
        void *ho = dev(none, 1024 * H_OUT * 2), *bo = dev(none, 1024 * B_OUT * 2), *fo = dev(none, 1024 * F_OUT * 4),
             *io = dev(none, 1024 * F_OUT * 4);
        fp16_ops<<<4, 256>>>((unsigned short *)ho, (unsigned short *)bo, (float *)fo, (int *)io);
        CHECK(cudaGetLastError());
        dump("fp16_ops.ho", ho, 1024 * H_OUT * 2);
        dump("fp16_ops.bo", bo, 1024 * B_OUT * 2);
        dump("fp16_ops.fo", fo, 1024 * F_OUT * 4);
        dump("fp16_ops.io", io, 1024 * F_OUT * 4);
    }
#endif
#ifdef ONLY_HINTS
    { // hints<<<2, 128>>>
        void *in = dev(readFile("hints_in.bin", 16384), 16384), *o = dev(none, 16384);
        hints<<<2, 128>>>((const unsigned char *)in, (unsigned char *)o);
        CHECK(cudaGetLastError());
        dump("hints.out", o, 16384);
    }
#endif
#ifdef ONLY_CUB
    void *cin = dev(readFile("cub_in.bin", 8192), 8192), *cfin = dev(readFile("cub_fin.bin", 2048), 2048);
    { // cub_reduce<<<4, 128>>>
        void *o = dev(none, 8 * 4), *f = dev(none, 4 * 4);
        cub_reduce<<<4, CB>>>((const int *)cin, (const float *)cfin, (int *)o, (float *)f);
        CHECK(cudaGetLastError());
        dump("cub_reduce.out", o, 8 * 4);
        dump("cub_reduce.fout", f, 4 * 4);
    }
    { // cub_scan<<<4, 128>>>
        void *inc = dev(none, 512 * 4), *exc = dev(none, 516 * 4), *finc = dev(none, 512 * 4);
        cub_scan<<<4, CB>>>((const int *)cin, (const float *)cfin, (int *)inc, (int *)exc, (float *)finc);
        CHECK(cudaGetLastError());
        dump("cub_scan.inc", inc, 512 * 4);
        dump("cub_scan.exc", exc, 516 * 4);
        dump("cub_scan.finc", finc, 512 * 4);
    }
    { // cub_warp<<<4, 128>>>
        void *o = dev(none, 80 * 4), *f = dev(none, 16 * 4);
        cub_warp<<<4, CB>>>((const int *)cin, (const float *)cfin, (int *)o, (float *)f);
        CHECK(cudaGetLastError());
        dump("cub_warp.out", o, 80 * 4);
        dump("cub_warp.fout", f, 16 * 4);
    }
    { // cub_loadstore<<<4, 128>>>
        void *o1 = dev(none, 8192), *o2 = dev(none, 8192);
        cub_loadstore<<<4, CB>>>((const int *)cin, (int *)o1, (int *)o2);
        CHECK(cudaGetLastError());
        dump("cub_loadstore.out1", o1, 8192);
        dump("cub_loadstore.out2", o2, 8192);
    }
    { // cub_sort<<<4, 128>>>
        void *k = dev(none, 8192), *pk = dev(none, 8192), *pv = dev(none, 8192);
        cub_sort<<<4, CB>>>((const int *)cin, (int *)k, (int *)pk, (int *)pv);
        CHECK(cudaGetLastError());
        dump("cub_sort.keys", k, 8192);
        dump("cub_sort.pk", pk, 8192);
        dump("cub_sort.pv", pv, 8192);
    }
#endif
    printf("harness: done\n");
    return 0;
}
