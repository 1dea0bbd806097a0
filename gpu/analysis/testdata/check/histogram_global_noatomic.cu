%grid 4
%block 256
%launch hist(data=rand(1024, 0, 16):u8, bins=zeros(16):u32, n=1024)
// Global bins incremented with a plain read-modify-write from every block.
extern "C" __global__ void hist(const unsigned char* data, unsigned* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) bins[data[i]] += 1; // BUG race
}
