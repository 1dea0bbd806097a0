package toolchain

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// notProvided are the libdevice functions clang's headers declare that the prelude
// leaves out, each for a reason: none is a CUDA Math API function a cell calls by that
// name. A call still compiles to an error naming the function and the line.
var notProvided = map[string]string{
	"__nv_rcp64h":        "an internal helper of libdevice, not a CUDA function",
	"__nv_float2half_rn": "cuda_fp16.h's conversions are the prelude's own (cvt.rn.f16.f32)",
	"__nv_half2float":    "cuda_fp16.h's conversions are the prelude's own (cvt.f32.f16)",
}

// TestLibdeviceCoverage: every __nv_ function clang-19's CUDA headers declare is
// defined by the prelude, except notProvided; the SIMD intrinsics (__nv_vadd2 ...) are
// defined by macro in kernelscope_simd.h, so LibdeviceFunctions does not list them
// (TestMathSweep runs every one of them against the H200).
func TestLibdeviceCoverage(t *testing.T) {
	exe, err := exec.LookPath("clang-19")
	if err != nil {
		t.Skip("clang-19 not found")
	}
	dir, err := exec.Command(exe, "-print-resource-dir").Output()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(dir)), "include", "__clang_cuda_libdevice_declares.h"))
	if err != nil {
		t.Fatal(err)
	}
	have := LibdeviceFunctions()
	declared := map[string]bool{}
	for _, m := range regexp.MustCompile(`\b(__nv_[a-z0-9_]+)\(`).FindAllStringSubmatch(string(b), -1) {
		declared[m[1]] = true
	}
	if len(declared) < 300 {
		t.Fatalf("only %d functions declared: not the header expected", len(declared))
	}
	for n := range declared {
		_, skip := notProvided[n]
		if skip || regexp.MustCompile(`^__nv_v[a-z]+[24]$`).MatchString(n) {
			continue
		}
		if !slices.Contains(have, n) {
			t.Errorf("%s is declared by clang's CUDA headers and not defined by the prelude", n)
		}
	}
	for n := range notProvided {
		if slices.Contains(have, n) {
			t.Errorf("%s is defined now: remove it from notProvided", n)
		}
	}
}
