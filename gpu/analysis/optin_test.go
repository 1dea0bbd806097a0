package analysis_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/launch"
)

// dramDir holds testdata/measured/dram (our own kernels, measured on the H200).
const dramDir = "../../testdata/measured/dram"

// A launch of more than 48 KB of shared memory per block (which the CUDA runtime
// runs only after cudaFuncSetAttribute opted the kernel in) gets the opted-in
// occupancy, and the report says what it assumed; it used to be zero blocks.
func TestSharedOptInOccupancy(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(dramDir, "latency.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ smem, resident int }{{48 * 1024, 4}, {51200, 4}, {102400, 2}, {204800, 1}} {
		const n = 1 << 12
		l := &launch.Launch{Kernel: "_Z9lat_triadPKfS0_PfiPj", Shared: c.smem, SharedSet: true}
		for _, f := range []string{"rand", "rand", "zeros"} {
			l.Args = append(l.Args, launch.Arg{Init: &launch.Init{Func: f, N: n, Type: "f32"}})
		}
		l.Args = append(l.Args, launch.Arg{Scalar: "4096"}, launch.Arg{Init: &launch.Init{Func: "zeros", N: n / 32, Type: "u32"}})
		rep, err := analysis.Run(context.Background(), analysis.Request{Source: src, SourceFile: "latency.ptx", IsPTX: true, Arch: "sm_90",
			Launch: l, Grid: [3]int{n / 256, 1, 1}, Block: [3]int{256, 1, 1}, Timing: true})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Occupancy == nil || rep.Occupancy.ActiveBlocksPerSM != c.resident {
			t.Errorf("%d bytes: occupancy %+v, want %d blocks per SM", c.smem, rep.Occupancy, c.resident)
		}
		noted := false
		for _, s := range rep.Notes {
			noted = noted || strings.Contains(s, "cudaFuncAttributeMaxDynamicSharedMemorySize")
		}
		if want := c.smem > 48*1024; noted != want {
			t.Errorf("%d bytes: opt-in note %v, want %v (notes %q)", c.smem, noted, want, rep.Notes)
		}
	}
}
