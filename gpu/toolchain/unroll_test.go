package toolchain

import (
	"context"
	"strings"
	"testing"
)

// A register tile without #pragma unroll: constant-trip loops indexing thread-private
// arrays. nvcc 13 unrolls them and keeps the arrays in registers (scripts/parity/kernels,
// tile_nopragma); the clang path must too, not spill them to a __local_depot.
const registerTile = `template <int WM, int WN, int TM, int TN, int BK>
__global__ void tile(int N, float alpha, float beta, const float *As, const float *Bs, float *C) {
  float acc[WM * TM * WN * TN] = {0.0f};
  float rm[WM * TM] = {0.0f};
  float rn[WN * TN] = {0.0f};
  for (int d = 0; d < BK; ++d) {
    for (int a = 0; a < WM; ++a)
      for (int i = 0; i < TM; ++i) rm[a * TM + i] = As[d * 128 + a * 32 + threadIdx.x % 4 * TM + i];
    for (int b = 0; b < WN; ++b)
      for (int i = 0; i < TN; ++i) rn[b * TN + i] = Bs[d * 128 + b * 32 + threadIdx.x / 4 * TN + i];
    for (int a = 0; a < WM; ++a)
      for (int b = 0; b < WN; ++b)
        for (int m = 0; m < TM; ++m)
          for (int n = 0; n < TN; ++n)
            acc[(a * TM + m) * (WN * TN) + b * TN + n] += rm[a * TM + m] * rn[b * TN + n];
  }
  for (int a = 0; a < WM; ++a)
    for (int b = 0; b < WN; ++b)
      for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; n += 4) {
          float4 *p = reinterpret_cast<float4 *>(C + (a * 32 + m) * N + b * 32 + n);
          float4 t = *p;
          const int i = (a * TM + m) * (WN * TN) + b * TN + n;
          t.x = alpha * acc[i] + beta * t.x; t.y = alpha * acc[i + 1] + beta * t.y;
          t.z = alpha * acc[i + 2] + beta * t.z; t.w = alpha * acc[i + 3] + beta * t.w;
          *p = t;
        }
}
template __global__ void tile<2, 2, 8, 4, 16>(int, float, float, const float *, const float *, float *);

// 64 iterations: nvcc unrolls it fully; 256: nvcc does not (it unrolls by 16).
__global__ void sum64(const float *a, float *o, int s) {
  float acc = 0;
  for (int i = 0; i < 64; i++) acc += a[i * s + threadIdx.x];
  o[threadIdx.x] = acc;
}
__global__ void sum256(const float *a, float *o, int s) {
  float acc = 0;
  for (int i = 0; i < 256; i++) acc += a[i * s + threadIdx.x];
  o[threadIdx.x] = acc;
}
`

func TestClangUnrollsLikeNvcc(t *testing.T) {
	needClang(t)
	res, err := Compile(context.Background(), Request{Source: registerTile, File: "tile.cu", Arch: "sm_90", Compiler: "clang"})
	if err != nil {
		t.Fatal(err)
	}
	bodies := map[string]string{}
	for _, part := range strings.Split(string(res.PTX), ".entry ")[1:] {
		name := part[:strings.IndexByte(part, '(')]
		bodies[name] = part
	}
	var tile, s64, s256 string
	for name, b := range bodies {
		switch {
		case strings.Contains(name, "tile"):
			tile = b
		case strings.Contains(name, "sum64"):
			s64 = b
		case strings.Contains(name, "sum256"):
			s256 = b
		}
	}
	if tile == "" || s64 == "" || s256 == "" {
		t.Fatalf("kernels missing from the PTX: %v", len(bodies))
	}
	if strings.Contains(tile, "__local_depot") || strings.Contains(tile, "ld.local") || strings.Contains(tile, "st.local") {
		t.Errorf("the register tile uses local memory (loops left rolled); nvcc keeps it in registers")
	}
	if n := strings.Count(s64, "ld.global"); n != 64 {
		t.Errorf("sum64 has %d global loads, want 64 (fully unrolled, as nvcc does)", n)
	}
	if n := strings.Count(s256, "ld.global"); n >= 256 {
		t.Errorf("sum256 has %d global loads: fully unrolled, which nvcc does not do", n)
	}
}
