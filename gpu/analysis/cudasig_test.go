package analysis

import (
	"os"
	"testing"
)

// TestCUDASignatures reads the signatures public code writes: templates with
// __launch_bounds__ between void and the name, macros, __restrict__, default
// arguments; pointee layouts of vector types and structs.
func TestCUDASignatures(t *testing.T) {
	src, err := os.ReadFile("../../testdata/realcuda/launch/signatures.cu")
	if err != nil {
		t.Fatal(err)
	}
	ks := cudaKernels(string(src))
	mm := ks["MatrixMul"]
	if len(mm) != 6 || mm[0].name != "C" || !mm[0].pointer || mm[0].elem != "f32" || mm[1].ctype != "const float * __restrict__ A" && mm[1].name != "A" ||
		mm[3].name != "wA" || mm[5].name != "alpha" || mm[5].def != "0.75f" {
		t.Errorf("MatrixMul: %+v", mm)
	}
	sx := ks["saxpy_attr"]
	if len(sx) != 4 || sx[0].name != "n" || sx[1].name != "a" || sx[2].name != "x" || sx[3].name != "y" || !sx[3].pointer {
		t.Errorf("saxpy_attr: %+v", sx)
	}
	vt := cudaKernels(`struct __align__(16) P { float x, y, z; int id; };
struct Q { char c; double d; short s[3]; };
typedef struct { float2 a; float b; } R;
extern "C" __global__ void __launch_bounds__(128) k(const float4 *__restrict__ a, int2 *b, P *p, Q *q, R *r, double3 *d, uchar4 *u, int n = 5) {}`)["k"]
	want := []struct {
		elem        string
		size, elems int
	}{{"f32", 16, 4}, {"i32", 8, 2}, {"u8", 16, 16}, {"u8", 24, 24}, {"f32", 16, 4}, {"f64", 24, 3}, {"u8", 4, 4}}
	if len(vt) != 8 || vt[7].def != "5" {
		t.Fatalf("k: %+v", vt)
	}
	for i, w := range want {
		if vt[i].elem != w.elem || vt[i].pointeeSize != w.size || vt[i].pointeeElems != w.elems {
			t.Errorf("param %d (%s): elem %s, %d bytes, %d elements; want %s, %d, %d", i, vt[i].ctype, vt[i].elem, vt[i].pointeeSize, vt[i].pointeeElems, w.elem, w.size, w.elems)
		}
	}
	vars := cudaVars("#define KW (2 * 8 + 1)\n__constant__ float c_Kernel[KW];\n__device__ unsigned int d_count;\n__device__ float f(float x) { return x; }")
	if vars["c_Kernel"] != "float" || vars["d_count"] != "unsigned int" || vars["f"] != "" {
		t.Errorf("cudaVars: %v", vars)
	}
}
