package toolchain_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/launch"
)

// TestWgmmaGemmClang compiles the wgmma GEMM tile (testdata/measured/tensor2/src) for
// sm_90a with clang through the whole pipeline (simulation and timing) and compares the
// output with the H200's output of the mma.sync GEMM on the same inputs (equal by the
// measured wgmma == mma.sync arithmetic; docs/tensor-cores.md).
func TestWgmmaGemmClang(t *testing.T) {
	needClang(t)
	dir, err := filepath.Abs("../../testdata/measured")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "tensor2", "src", "wgmma_gemm.cu"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "tensor", "out", "mma_gemm.out"))
	if err != nil {
		t.Fatal(err)
	}
	file := func(name, typ string) launch.Arg {
		return launch.Arg{Init: &launch.Init{Func: "file", Path: filepath.Join(dir, "tensor", "gemm", name), Type: typ}}
	}
	rep, err := analysis.Run(context.Background(), analysis.Request{
		Source: src, SourceFile: "wgmma_gemm.cu", Arch: "sm_90a", Compiler: "clang", BaseDir: dir,
		Launch: &launch.Launch{Kernel: "wgmma_gemm", Args: []launch.Arg{file("a_f16.bin", "f16"), file("b_f16.bin", "f16"), buf("zeros", 4096, "f32"),
			scalar("64"), scalar("64"), scalar("64")}},
		Grid: [3]int{1, 1, 1}, Block: [3]int{128, 1, 1}, Timing: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := output(t, rep, 2); !bytes.Equal(got[:len(want)], want) {
		t.Errorf("wgmma_gemm differs from the H200's mma.sync GEMM")
	}
	// the timing model: 4 wgmma.m64n64k16 per warp on 4 sub-partitions, 32 tensor-pipe cycles each
	if rep.Timing == nil || rep.Timing.Pipes["tensor"] != 4*4*32 {
		t.Errorf("tensor pipe busy %v, want %d cycles", rep.Timing, 4*4*32)
	}
}
