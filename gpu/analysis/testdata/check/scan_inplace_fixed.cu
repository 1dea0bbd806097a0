%grid 2
%block 256
%launch scan(in=arange(512):i32, out=zeros(512):i32)
// Hillis-Steele scan: read, barrier, write, barrier.
extern "C" __global__ void scan(const int* in, int* out) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (int off = 1; off < 256; off <<= 1) {
    int v = tid >= off ? s[tid - off] : 0;
    __syncthreads();
    s[tid] += v;
    __syncthreads();
  }
  out[blockIdx.x * 256 + tid] = s[tid];
}
