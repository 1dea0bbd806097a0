// Device assert (this project's own kernel): check_positive<<<2, 64>>> doubles each
// element and asserts it is not negative.
#include <cassert>

__global__ void check_positive(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        assert(in[i] >= 0);
        out[i] = in[i] * 2;
    }
}
