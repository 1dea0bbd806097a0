package toolchain

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// Whole assignments of 16-byte vector types: nvcc 13 emits one 16-byte load and store
// for each (scripts/parity/kernels/h200, vec_copies); clang's memcpy lowering gave two
// 8-byte halves until the prelude's 16-byte types got a vector assignment.
const vectorAssign = `
__global__ void copies(const float *in, float *out, const int4 *c, int4 *d, const double2 *e, double2 *f,
                       const uint4 *g, uint4 *h, const long2 *k, long2 *l, const float4 *m, float4 *n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  reinterpret_cast<float4 *>(out)[i] = reinterpret_cast<const float4 *>(in)[i];
  d[i] = c[i];
  f[i] = e[i];
  h[i] = g[i];
  l[i] = k[i];
  float4 a = {1.0f, 2.0f, 3.0f, 4.0f};
  float4 b = m[i];
  b.x += a.y;
  n[i] = b;
  n[i + 1] = n[i + 2] = a;
}
`

func TestVectorAssignmentIs16Bytes(t *testing.T) {
	needClang(t)
	res, err := Compile(context.Background(), Request{Source: vectorAssign, File: "copies.cu", Arch: "sm_90", Compiler: "clang"})
	if err != nil {
		t.Fatal(err)
	}
	ptx := string(res.PTX)
	if n := len(regexp.MustCompile(`\bld\.global\.(u64|b64|s64)\b`).FindAllString(ptx, -1)); n > 0 {
		t.Errorf("%d 8-byte global loads: a 16-byte assignment was split in halves\n%s", n, ptx)
	}
	wide := regexp.MustCompile(`\b(ld|st)\.global\.(v4\.(f32|u32|b32|s32)|v2\.(f64|u64|b64|s64))\b`)
	loads, stores := 0, 0
	for _, m := range wide.FindAllStringSubmatch(ptx, -1) {
		if m[1] == "ld" {
			loads++
		} else {
			stores++
		}
	}
	// Loads: in, c, e, g, k, m; stores: out, d, f, h, l and n three times.
	if loads != 6 || stores != 8 {
		t.Errorf("16-byte global loads %d (want 6), stores %d (want 8)", loads, stores)
	}
	if strings.Contains(ptx, "__local_depot") {
		t.Error("vector assignment went through local memory")
	}
}
