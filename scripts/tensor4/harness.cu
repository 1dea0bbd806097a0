// KernelScope issue 21, scripts/tensor4: the TMA stream copy (validation of the bulk-copy
// timing), the TMA latency probe (calibration), the course GEMMs at 512^3 (tensor-pipe
// utilisation), and the cluster probes. nvcc -gencode arch=compute_90a,code=sm_90a -I src
//   ./harness DIR    writes DIR/out/* and prints one line per launch
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <cuda.h>
#include "tma_stream.cuh"
#include "cluster_probe.cuh"
#include "wmma_gemm.cu"
#include "mma_gemm.cu"
#include "wgmma_gemm.cu"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static void encode2d(CUtensorMap* tm, void* base, int rows, int cols, int bw, int bh, CUtensorMapSwizzle sw) {
  cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows}, strides[1] = {(cuuint64_t)cols * 4};
  cuuint32_t box[2] = {(cuuint32_t)bw, (cuuint32_t)bh}, estr[2] = {1, 1};
  CUresult r = cuTensorMapEncodeTiled(tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, dims, strides, box, estr,
                                      CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) { printf("cuTensorMapEncodeTiled failed: %d\n", (int)r); exit(1); }
}

static float evms(cudaEvent_t a, cudaEvent_t b) { float ms; CK(cudaEventElapsedTime(&ms, a, b)); return ms; }

static void launchCluster(const void* fn, dim3 grid, dim3 block, dim3 cl, void** args) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid; cfg.blockDim = block;
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = cl.x; at[0].val.clusterDim.y = cl.y; at[0].val.clusterDim.z = cl.z;
  cfg.attrs = at; cfg.numAttrs = 1;
  CK(cudaLaunchKernelExC(&cfg, fn, args));
  CK(cudaGetLastError());
}

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  std::string what = argc > 2 ? argv[2] : "all";
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  const int rows = 2048, cols = 4096;
  size_t nbytes = (size_t)rows * cols * 4;
  std::vector<float> h(rows * (size_t)cols);
  for (size_t i = 0; i < h.size(); i++) h[i] = (float)i;
  float *din, *dout, *dflush;
  CK(cudaMalloc(&din, nbytes)); CK(cudaMalloc(&dout, nbytes)); CK(cudaMalloc(&dflush, 256u << 20));
  CK(cudaMemcpy(din, h.data(), nbytes, cudaMemcpyHostToDevice));
  if (what == "all" || what == "tma") {
    CUtensorMap tin, tout;
    encode2d(&tin, din, rows, cols, TS_BW, TS_BH, CU_TENSOR_MAP_SWIZZLE_128B);
    encode2d(&tout, dout, rows, cols, TS_BW, TS_BH, CU_TENSOR_MAP_SWIZZLE_128B);
    int grids[3] = {1, 132, 264};
    for (int g : grids) {
      CK(cudaMemset(dout, 0, nbytes));
      CK(cudaMemset(dflush, g, 256u << 20));  // evict the tensors from L2
      CK(cudaEventRecord(e0));
      tma_stream<<<g, 64>>>(tin, tout, din, dout, rows, cols);
      CK(cudaEventRecord(e1));
      CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
      std::vector<float> o(h.size());
      CK(cudaMemcpy(o.data(), dout, nbytes, cudaMemcpyDeviceToHost));
      size_t bad = 0;
      for (size_t i = 0; i < o.size(); i++) bad += memcmp(&o[i], &h[i], 4) != 0;
      printf("tma_stream grid %d x 64: %.3f us (cold L2, CUDA events), %zu of %zu words differ from the input\n", g, 1000 * evms(e0, e1), bad, o.size());
    }
    CUtensorMap lm[4], lo;
    int bh[4] = {8, 32, 64, 128};
    for (int i = 0; i < 4; i++) encode2d(&lm[i], din, rows, cols, 32, bh[i], CU_TENSOR_MAP_SWIZZLE_128B);
    encode2d(&lo, dout, rows, cols, 32, 8, CU_TENSOR_MAP_SWIZZLE_128B);
    long long* dt;
    CK(cudaMalloc(&dt, 96 * 8));
    CK(cudaMemset(dflush, 7, 256u << 20));
    tma_lat<<<1, 32>>>(lm[0], lm[1], lm[2], lm[3], lo, dt);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    long long ht[96];
    CK(cudaMemcpy(ht, dt, sizeof ht, cudaMemcpyDeviceToHost));
    for (int m = 0; m < 4; m++) {
      printf("tma_lat box 32x%d (%d B): load", bh[m], 32 * bh[m] * 4);
      for (int r = 0; r < 8; r++) printf(" %lld", ht[(m * 8 + r) * 3]);
      printf(" | store.read(1 KB box)");
      for (int r = 0; r < 8; r++) printf(" %lld", ht[(m * 8 + r) * 3 + 1]);
      printf(" | store.done");
      for (int r = 0; r < 8; r++) printf(" %lld", ht[(m * 8 + r) * 3 + 2]);
      printf("\n");
    }
  }
  if (what == "all" || what == "gemm") {
    const int M = 512, N = 512, K = 512;
    std::vector<__half> ha((size_t)M * K), hb((size_t)K * N);
    std::vector<__nv_bfloat16> hab((size_t)M * K), hbb((size_t)K * N);
    for (size_t i = 0; i < ha.size(); i++) { float v = (float)((i * 37) % 17) / 16 - 0.5f; ha[i] = __float2half(v); hab[i] = __float2bfloat16(v); }
    for (size_t i = 0; i < hb.size(); i++) { float v = (float)((i * 11) % 13) / 16 - 0.4f; hb[i] = __float2half(v); hbb[i] = __float2bfloat16(v); }
    void *a, *b, *ab, *bb, *c;
    CK(cudaMalloc(&a, M * K * 2)); CK(cudaMalloc(&b, K * N * 2)); CK(cudaMalloc(&ab, M * K * 2)); CK(cudaMalloc(&bb, K * N * 2)); CK(cudaMalloc(&c, M * N * 4));
    CK(cudaMemcpy(a, ha.data(), M * K * 2, cudaMemcpyHostToDevice)); CK(cudaMemcpy(b, hb.data(), K * N * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(ab, hab.data(), M * K * 2, cudaMemcpyHostToDevice)); CK(cudaMemcpy(bb, hbb.data(), K * N * 2, cudaMemcpyHostToDevice));
    dim3 wb(64, 2), wg(M / 32, N / 32);
    for (int k = 0; k < 5; k++) {
      CK(cudaEventRecord(e0));
      const char* name = "";
      switch (k) {
      case 0: name = "wmma_gemm"; wmma_gemm<<<wg, wb>>>((const half*)a, (const half*)b, (float*)c, M, N, K); break;
      case 1: name = "wmma_gemm_bf16"; wmma_gemm_bf16<<<wg, wb>>>((const __nv_bfloat16*)ab, (const __nv_bfloat16*)bb, (float*)c, M, N, K); break;
      case 2: name = "wmma_gemm_h"; wmma_gemm_h<<<wg, wb>>>((const half*)a, (const half*)b, (half*)c, M, N, K); break;
      case 3: name = "mma_gemm"; mma_gemm<<<dim3(N / 32, M / 32), 128>>>((const half*)a, (const half*)b, (float*)c, M, N, K); break;
      case 4: name = "wgmma_gemm"; wgmma_gemm<<<dim3(N / 64, M / 64), 128>>>((const half*)a, (const half*)b, (float*)c, M, N, K); break;
      }
      CK(cudaEventRecord(e1));
      CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
      std::vector<float> o(M * N);
      CK(cudaMemcpy(o.data(), c, M * N * 4, cudaMemcpyDeviceToHost));
      double s = 0;
      if (k == 2) { for (int i = 0; i < M * N / 2; i++) { __half2 v; memcpy(&v, &o[i], 4); s += __half2float(v.x) + __half2float(v.y); } }
      else for (float v : o) s += v;
      printf("%s 512^3: %.3f us, checksum %.6f\n", name, 1000 * evms(e0, e1), s);
    }
  }
  if (what == "all" || what == "cluster") {
    long long* d;
    CK(cudaMalloc(&d, 4096 * 8));
    dim3 g8(8), b128(128), g44(4, 4), b64(64);
    int cls[4] = {1, 2, 4, 8};
    for (int c : cls) { launchCluster((const void*)cl_empty, g8, b128, dim3(c, 1, 1), nullptr); }
    launchCluster((const void*)cl_empty, g44, b64, dim3(1, 1, 1), nullptr);
    launchCluster((const void*)cl_empty, g44, b64, dim3(2, 2, 1), nullptr);
    CK(cudaDeviceSynchronize());
    printf("cl_empty: 8x128 clusters 1,2,4,8; (4,4)x64 clusters 1 and (2,2) (ncu measures them)\n");
    for (int owner = 0; owner < 2; owner++) {
      int steps = 4096;
      void* args[] = {&d, &steps, &owner};
      launchCluster((const void*)cl_chase, dim3(2), b128, dim3(2, 1, 1), args);
      CK(cudaDeviceSynchronize());
      long long v;
      CK(cudaMemcpy(&v, d, 8, cudaMemcpyDeviceToHost));
      printf("cl_chase owner %d: %.3f cycles per dependent ld.shared::cluster\n", owner, v / 1000.0);
    }
    for (int mode = 0; mode < 2; mode++)
      for (int c : {2, 4}) {
        int iters = 1000;
        void* args[] = {&d, &iters, &mode};
        launchCluster((const void*)cl_bar, g8, b128, dim3(c, 1, 1), args);
        CK(cudaDeviceSynchronize());
        long long v[8];
        CK(cudaMemcpy(v, d, 64, cudaMemcpyDeviceToHost));
        printf("cl_bar %s cluster %d, 8x128: cycles per barrier", mode ? "__syncthreads" : "barrier.cluster", c);
        for (int i = 0; i < 8; i++) printf(" %.2f", v[i] / 1000.0);
        printf("\n");
      }
  }
  return 0;
}
