%grid 2
%block 256
%launch scan(in=arange(512):i32, out=zeros(512):i32)
// Hillis-Steele scan done in place: a thread reads s[tid - off] while the
// owner of that slot overwrites it in the same step.
extern "C" __global__ void scan(const int* in, int* out) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (int off = 1; off < 256; off <<= 1) {
    if (tid >= off) s[tid] += s[tid - off]; // BUG race,order_dependence
    __syncthreads();
  }
  out[blockIdx.x * 256 + tid] = s[tid];
}
