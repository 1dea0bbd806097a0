// Host harness for grid.cu (this project's own code): cg_grid launched cooperatively
// with 1 block and with 4 blocks of 64 threads. Built with
//   nvcc -O2 -arch=sm_90 -rdc=true -o grid_harness grid_harness.cu
#include "common_host.h"
#include "grid.cu"

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: grid_harness OUTDIR\n"); return 2; }
    outdir = argv[1];
    std::vector<char> none;
    for (int blocks : {1, 4}) {
        void *buf = dev(none, blocks * 64 * 4), *o = dev(none, blocks * 64 * 4);
        void *args[] = {&buf, &o};
        CHECK(cudaLaunchCooperativeKernel((const void *)cg_grid, dim3(blocks), dim3(64), args, 0, 0));
        CHECK(cudaGetLastError());
        dump("cg_grid" + std::to_string(blocks) + ".out", o, blocks * 64 * 4);
    }
    printf("grid_harness: done\n");
    return 0;
}
