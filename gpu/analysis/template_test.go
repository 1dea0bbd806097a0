package analysis_test

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
)

// A template kernel that nothing in the cell instantiates: the launch's template
// arguments instantiate it (as the host code's launch would), on both lines.
const templateOnly = `template <int BLOCK, typename T>
__global__ void scale(T *out, const T *in, T s, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] = in[i] * s;
}
`

func TestTemplateKernelInstantiatedByTheLaunch(t *testing.T) {
	if _, err := exec.LookPath("clang-19"); err != nil {
		if os.Getenv("KS_REQUIRE_TOOLS") != "" {
			t.Fatal("clang-19 is required")
		}
		t.Skip("no clang-19")
	}
	req := analysis.Request{Source: []byte(templateOnly), SourceFile: "cell.cu", Cell: true, Arch: "sm_80", Compiler: "clang",
		Launch: parseLaunch(t, "scale<64, float><<<2, 64>>>(out=zeros(100), in=arange(100), s=0.5f, n=100)", nil), Budget: 1e7}
	rep, err := analysis.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	o := output(rep, "out")
	if o == nil {
		t.Fatalf("no output out (outputs: %v)", outputNames(rep))
	}
	for i := 0; i < 100; i++ {
		got := math.Float32frombits(binary.LittleEndian.Uint32(o.Bytes[4*i:]))
		if got != float32(i)*0.5 {
			t.Fatalf("out[%d] = %v, want %v", i, got, float32(i)*0.5)
		}
	}
	if strings.Contains(rep.Source, "__kernelscope_instance_") {
		t.Error("the report's source shows the appended instantiation")
	}

	// Arguments the template cannot take: a launch error naming them, not a compile
	// error at a line the user never wrote.
	req.Launch = parseLaunch(t, "scale<float, 64><<<2, 64>>>(out=zeros(100), in=arange(100), s=0.5f, n=100)", nil)
	_, err = analysis.Run(context.Background(), req)
	var f *analysis.Failure
	if !errors.As(err, &f) {
		t.Fatalf("want a failure, got %v", err)
	}
	if f.Err.Kind != "launch" || !strings.Contains(f.Err.Message, "scale<float, 64>") || f.Err.CUDALine > 5 {
		t.Errorf("got %s at line %d: %s", f.Err.Kind, f.Err.CUDALine, f.Err.Message)
	}
}
