// The contention kernels of micro.cu (v_atom11, v_counter, v_casloop), alone, for
// KernelScope to simulate: TestContentionTimed (gpu/analysis) compares its cycles with
// the H200's in testdata/measured/caches/micro_ncu.csv. PTX made with
//   scripts/caches/contention.sh
extern "C" __global__ void v_atom11(unsigned* p, unsigned* sink) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, r = 0;
  for (int k = 0; k < 11; k++) r += atomicAdd(p + (t + k) % 4, 1u);
  if (r == 0xdeadbeef) sink[t] = r;
}
extern "C" __global__ void v_counter(unsigned* p) { atomicAdd(p, threadIdx.x + 1); }
extern "C" __global__ void v_casloop(unsigned* p) {
  unsigned old = *(volatile unsigned*)p, assumed;
  do { assumed = old; old = atomicCAS(p, assumed, assumed + 1); } while (old != assumed);
}
