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

// TestTensorGemmsClangH200 compiles the course tensor-core GEMMs (testdata/measured/
// tensor/src: wmma through the prelude's <mma.h>, and ldmatrix + mma.sync) with clang
// through the whole pipeline and compares the outputs with the H200's byte for byte,
// and the memory counters with Nsight Compute's (ncu.csv beside them).
func TestTensorGemmsClangH200(t *testing.T) {
	needClang(t)
	dir, err := filepath.Abs("../../testdata/measured/tensor")
	if err != nil {
		t.Fatal(err)
	}
	file := func(name, typ string) launch.Arg {
		return launch.Arg{Init: &launch.Init{Func: "file", Path: filepath.Join(dir, "gemm", name), Type: typ}}
	}
	const n = 4096
	cases := []struct {
		src, kernel string
		a, b, c     launch.Arg
		block       [3]int
		outBytes    int
		// ncu on the H200 (ncu.csv): shared load wavefronts, shared load bank conflicts,
		// shared store wavefronts, global load requests and sectors
		shLd, shConf, shSt, glReq, glSec int64
	}{
		{"wmma_gemm.cu", "wmma_gemm", file("a_f16.bin", "f16"), file("b_f16.bin", "f16"), file("c_f32.bin", "f32"), [3]int{64, 2, 1}, 4 * n, 0, 0, 0, 576, 4608},
		{"wmma_gemm.cu", "wmma_gemm_bf16", file("a_bf16.bin", "bf16"), file("b_bf16.bin", "bf16"), buf("zeros", n, "f32"), [3]int{64, 2, 1}, 4 * n, 0, 0, 0, 512, 4096},
		{"wmma_gemm.cu", "wmma_gemm_h", file("a_f16.bin", "f16"), file("b_f16.bin", "f16"), buf("zeros", n, "f16"), [3]int{64, 2, 1}, 2 * n, 0, 0, 0, 512, 4096},
		{"mma_gemm.cu", "mma_gemm", file("a_f16.bin", "f16"), file("b_f16.bin", "f16"), buf("zeros", n, "f32"), [3]int{128, 1, 1}, 4 * n, 512, 0, 512, 512, 1024},
	}
	for _, c := range cases {
		src, err := os.ReadFile(filepath.Join(dir, "src", c.src))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(dir, "out", c.kernel+".out"))
		if err != nil {
			t.Fatal(err)
		}
		for _, arch := range []string{"sm_80", "sm_90"} {
			rep, err := analysis.Run(context.Background(), analysis.Request{
				Source: src, SourceFile: c.src, Arch: arch, Compiler: "clang", BaseDir: dir,
				Launch: &launch.Launch{Kernel: c.kernel, Args: []launch.Arg{c.a, c.b, c.c, scalar("64"), scalar("64"), scalar("64")}},
				Grid:   [3]int{2, 2, 1}, Block: c.block, Timing: true,
			})
			if err != nil {
				t.Errorf("%s %s: %v", c.kernel, arch, err)
				continue
			}
			got := output(t, rep, 2)
			if !bytes.Equal(got[:c.outBytes], want) {
				diff := 0
				for i := range want {
					if got[i] != want[i] {
						diff++
					}
				}
				t.Errorf("%s %s: %d of %d bytes differ from the H200", c.kernel, arch, diff, len(want))
			}
			if m := rep.Memory; m == nil {
				t.Errorf("%s %s: no memory counters", c.kernel, arch)
			} else if m.SharedLoadWavefronts != c.shLd || m.SharedLoadBankConflicts != c.shConf || m.SharedStoreWavefronts != c.shSt {
				t.Errorf("%s %s: shared load wavefronts %d, bank conflicts %d, store wavefronts %d; ncu %d, %d, %d", c.kernel, arch,
					m.SharedLoadWavefronts, m.SharedLoadBankConflicts, m.SharedStoreWavefronts, c.shLd, c.shConf, c.shSt)
			} else if m.GlobalLoadRequests != c.glReq || m.GlobalLoadSectors != c.glSec {
				t.Errorf("%s %s: global load requests %d, sectors %d; ncu %d, %d", c.kernel, arch, m.GlobalLoadRequests, m.GlobalLoadSectors, c.glReq, c.glSec)
			}
		}
	}
}
