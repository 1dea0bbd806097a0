package analysis

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

func needClangAST(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("clang-19"); err != nil {
		t.Skip("clang-19 not found")
	}
}

// TestClangSignaturesAgree: on this project's kernels (the launch-model and feature
// kernels: __launch_bounds__, __restrict__, default arguments, macros in the signature,
// templates, vector and struct pointers) the light scan and clang's AST give the same
// parameter names, pointer-ness, element types, pointee sizes and default arguments.
func TestClangSignaturesAgree(t *testing.T) {
	needClangAST(t)
	for _, f := range []string{"launch/signatures.cu", "launch/vectypes.cu", "launch/dynsmem.cu", "launch/symbols.cu",
		"features/cg.cu", "features/fp16.cu", "features/cachehints.cu", "features/assert.cu", "features/grid.cu"} {
		src, err := os.ReadFile(filepath.Join("../../testdata/realcuda", f))
		if err != nil {
			t.Fatal(err)
		}
		light := cudaKernels(string(src))
		var names []string
		for n := range light {
			names = append(names, n)
		}
		ast, err := clangKernelSignatures(context.Background(), src, filepath.Dir(filepath.Join("../../testdata/realcuda", f)), names)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, n := range names {
			a, b := light[n], ast[n]
			if len(a) != len(b) {
				t.Errorf("%s %s: %d parameters by the scan, %d by clang (%+v / %+v)", f, n, len(a), len(b), a, b)
				continue
			}
			for i := range a {
				x, y := a[i], b[i]
				if x.name != y.name || x.pointer != y.pointer || x.elem != y.elem || x.pointeeSize != y.pointeeSize || x.def != y.def {
					t.Errorf("%s %s parameter %d: scan %+v, clang %+v", f, n, i, x, y)
				}
			}
		}
	}
}

// TestClangSignaturesThroughMacros: kernels made by a function-like macro (the math
// sweep's SWF) have no names for the light scan; clang's AST gives them, and
// fillFromClang puts them where the scan found none.
func TestClangSignaturesThroughMacros(t *testing.T) {
	needClangAST(t)
	dir := "../../testdata/realcuda/features"
	src, err := os.ReadFile(filepath.Join(dir, "mathx.cu"))
	if err != nil {
		t.Fatal(err)
	}
	if got := cudaKernels(string(src)); len(got["mf_lgammaf"]) != 0 {
		t.Fatalf("the scan now reads macro kernels (%+v): this test needs a new case", got["mf_lgammaf"])
	}
	nv, err := os.ReadFile(filepath.Join(dir, "h200", "ptx", "mathx.sm_90.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := ptx.Parse("mathx.ptx", nv)
	if err != nil {
		t.Fatal(err)
	}
	cuda := fillFromClang(context.Background(), src, dir, false, mod, cudaKernels(string(src)))
	var names []string
	for _, p := range cuda["mf_lgammaf"] {
		names = append(names, p.name+":"+p.ctype)
	}
	want := "o:float *,kstride:unsigned int,lo:unsigned int,step:unsigned int,ylo:unsigned int,ystep:unsigned int,sym:int"
	if strings.Join(names, ",") != want {
		t.Errorf("mf_lgammaf: %s, want %s", strings.Join(names, ","), want)
	}
}
