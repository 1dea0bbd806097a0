%grid 4
%block 64
%launch k(x=rand(256), best=zeros(1):i32)
// Every block stores its candidate into one global word: the last block wins.
extern "C" __global__ void k(const float* x, int* best) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) *best = i + (x[i] > 0.5f ? 1 : 0); // BUG race,order_dependence
}
