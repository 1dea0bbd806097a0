package analysis_test

import (
	"context"
	"encoding/csv"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
)

// TestTensorPipeH200: the course GEMMs of testdata/measured/tensor (wmma f16, bf16, f16
// accumulators, mma.sync + ldmatrix) and tensor2 (wgmma) at M = N = K = 512, from nvcc's
// PTX recorded on the H200 (testdata/measured/tensor4): the model's tensor-pipe cycles equal
// Nsight Compute's sm__pipe_tensor_op_hmma_cycles_active.sum (6 cycles per HMMA.16816, two
// per wmma.mma m16n16k16; 32 per warp per wgmma m64n64k16). The launch cycles are logged
// against sm__cycles_elapsed.max (validation; docs/tensor-cores.md has the table).
func TestTensorPipeH200(t *testing.T) {
	dir := "../../testdata/measured/tensor4/h200/out/"
	ptxSrc, err := os.ReadFile(dir + "harness.sm_90a.ptx")
	if err != nil {
		t.Fatal(err)
	}
	pipe, cycles := ncuGemm(t, dir+"ncu_gemm.csv")
	const ab = "rand(262144):f16, rand(262144):f16"
	for _, c := range []struct{ kernel, launch string }{
		{"wmma_gemm", "wmma_gemm<<<dim3(16,16), dim3(64,2)>>>(" + ab + ", zeros(262144):f32, 512, 512, 512)"},
		{"wmma_gemm_bf16", "wmma_gemm_bf16<<<dim3(16,16), dim3(64,2)>>>(rand(262144):bf16, rand(262144):bf16, zeros(262144):f32, 512, 512, 512)"},
		{"wmma_gemm_h", "wmma_gemm_h<<<dim3(16,16), dim3(64,2)>>>(" + ab + ", zeros(262144):f16, 512, 512, 512)"},
		{"mma_gemm", "mma_gemm<<<dim3(16,16), 128>>>(" + ab + ", zeros(262144):f32, 512, 512, 512)"},
		{"wgmma_gemm", "wgmma_gemm<<<dim3(8,8), 128>>>(" + ab + ", zeros(262144):f32, 512, 512, 512)"},
	} {
		req := analysis.Request{Source: ptxSrc, Prebuilt: ptxSrc, SourceFile: "harness.sm_90a.ptx", Arch: "sm_90a", Timing: true, Budget: 4e8}
		req.Launch = parseLaunch(t, c.launch, nil)
		rep, err := analysis.Run(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", c.kernel, err)
		}
		if rep.Timing == nil {
			t.Fatalf("%s: not timed (%v)", c.kernel, rep.Notes)
		}
		got, want := rep.Timing.Pipes["tensor"], pipe[c.kernel]
		if want == 0 {
			t.Fatalf("%s: no tensor-pipe count in ncu_gemm.csv", c.kernel)
		}
		if got != want {
			t.Errorf("%s: tensor pipe %d cycles, Nsight Compute %d", c.kernel, got, want)
		}
		cy, hw := rep.Timing.Cycles, cycles[c.kernel]
		t.Logf("%-15s tensor pipe %d (H200 %d); cycles %d, H200 %d (%+.1f%%); utilisation %.2f%% (H200 %.2f%%)", c.kernel, got, want, cy, hw,
			100*float64(cy-hw)/float64(hw), 100*float64(got)/float64(132*cy), 100*float64(want)/float64(132*hw))
	}
}

// ncuGemm reads the tensor-pipe active cycles and sm__cycles_elapsed.max per kernel.
func ncuGemm(t *testing.T, path string) (pipe, cycles map[string]int64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pipe, cycles = map[string]int64{}, map[string]int64{}
	for _, line := range strings.Split(string(b), "\n") {
		rec, err := csv.NewReader(strings.NewReader(line)).Read()
		if err != nil || len(rec) < 15 || rec[0] == "ID" {
			continue
		}
		k := rec[4]
		if i := strings.Index(k, "("); i >= 0 {
			k = k[:i]
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(rec[14], ",", ""), 64)
		if err != nil {
			continue
		}
		switch rec[12] {
		case "sm__pipe_tensor_op_hmma_cycles_active.sum":
			pipe[k] = int64(v)
		case "sm__cycles_elapsed.max":
			cycles[k] = int64(v)
		}
	}
	return pipe, cycles
}
