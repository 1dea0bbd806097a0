// Host harness for warpsync.cu (this project's own code): ./warpsync_harness OUTDIR
// [volatile|syncwarp] runs one kernel (both without the second argument) <<<4, 256>>> on
// in[i] = i * 7 % 1000 and writes OUTDIR/ws_KERNEL.out.out.bin (4 ints). run_h200.sh runs it
// under compute-sanitizer --tool racecheck, once per kernel.
#include <cstring>
#include "common_host.h"
#include "warpsync.cu"

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: warpsync_harness OUTDIR [volatile|syncwarp]\n"); return 2; }
    outdir = argv[1];
    std::vector<char> in(1024 * 4);
    for (int i = 0; i < 1024; i++) {
        int v = i * 7 % 1000;
        memcpy(&in[i * 4], &v, 4);
    }
    const char *which = argc > 2 ? argv[2] : "";
    void *d = dev(in, in.size());
    if (!*which || !strcmp(which, "volatile")) {
        void *o = dev(std::vector<char>(), 16);
        ws_volatile<<<4, 256>>>((const int *)d, (int *)o);
        CHECK(cudaGetLastError());
        dump("ws_volatile.out", o, 16);
    }
    if (!*which || !strcmp(which, "syncwarp")) {
        void *o = dev(std::vector<char>(), 16);
        ws_syncwarp<<<4, 256>>>((const int *)d, (int *)o);
        CHECK(cudaGetLastError());
        dump("ws_syncwarp.out", o, 16);
    }
    return 0;
}
