package analysis

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestTrapReportedAtUserLine: __trap() is reported at the cell's line that calls it,
// never at a line of clang's or the prelude's headers (clang's own __trap wrapper
// lives at __clang_cuda_device_functions.h:531).
func TestTrapReportedAtUserLine(t *testing.T) {
	if _, err := exec.LookPath("clang-19"); err != nil {
		if os.Getenv("KS_REQUIRE_TOOLS") != "" {
			t.Fatal("clang-19 is required")
		}
		t.Skip("no clang-19")
	}
	cases := []struct {
		src  string
		line int
	}{
		{"__global__ void k(float *a) {\n  a[threadIdx.x] = 1.0f;\n  if (threadIdx.x == 3) __trap();\n}\n", 3},
		// On a line of its own: that line, not the condition's.
		{"__global__ void k(float *a) {\n  a[threadIdx.x] = 1.0f;\n  if (threadIdx.x == 3)\n    __trap();\n}\n", 4},
	}
	for _, c := range cases {
		_, err := Run(context.Background(), Request{Source: []byte(c.src), SourceFile: "cell.cu", Cell: true, Arch: "sm_80",
			Compiler: "clang", Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Budget: 1e6})
		var f *Failure
		if !errors.As(err, &f) {
			t.Fatalf("want a trap failure, got %v", err)
		}
		if f.Err.Kind != "trap" || f.Err.CUDALine != c.line {
			t.Errorf("%q: kind %s at CUDA line %d, want trap at %d (%s)", c.src, f.Err.Kind, f.Err.CUDALine, c.line, f.Err.Message)
		}
		if strings.Contains(f.Err.Message, "531") {
			t.Errorf("message %q", f.Err.Message)
		}
	}
}
