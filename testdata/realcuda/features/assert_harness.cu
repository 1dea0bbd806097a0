// Host harness for assert.cu (this project's own code): check_positive<<<2, 64>>> on
// inputs/assert_in.bin (no negative element: writes OUTDIR/check_positive.out.out.bin),
// then on inputs/assert_bad.bin (element 70 is -7: the assert fires in block 1,
// thread 6); it prints the error the launch ends with. run_h200.sh keeps its stdout
// and stderr (the device's assert message) in assert.txt.
#include "common_host.h"
#include "assert.cu"

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: assert_harness OUTDIR\n"); return 2; }
    outdir = argv[1];
    std::vector<char> none;
    void *in = dev(readFile("assert_in.bin", 512), 512), *o = dev(none, 512);
    check_positive<<<2, 64>>>((const int *)in, (int *)o, 128);
    CHECK(cudaGetLastError());
    dump("check_positive.out", o, 512);
    void *bad = dev(readFile("assert_bad.bin", 512), 512);
    check_positive<<<2, 64>>>((const int *)bad, (int *)o, 128);
    cudaError_t e = cudaDeviceSynchronize();
    fflush(stdout);
    printf("assert launch: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    return 0;
}
