package toolchain_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/launch"
)

// TestTensorMapPipelineClangH200 runs the TMA pipeline of scripts/tensor3 (3 stages of
// 32x32 f32 tiles, 128B swizzle, full/empty mbarriers with parity waits, a producer
// warp and 4 consumer warps) through the whole pipeline with clang and the prelude's
// CUtensorMap, the map given as a %tensormap (launch.TensorMap) over a buffer
// parameter, and compares the output with the H200's (testdata/measured/tensor3,
// out/P_f32_sw128.bin, same input).
func TestTensorMapPipelineClangH200(t *testing.T) {
	needClang(t)
	dir, err := filepath.Abs("../../testdata/measured/tensor3")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "out", "P_f32_sw128.bin"))
	if err != nil {
		t.Fatal(err)
	}
	kern, err := os.ReadFile(filepath.Join(dir, "src", "tma_kernels.cuh"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(kern) + `
extern "C" __global__ void tma_pipe_cell(const __grid_constant__ CUtensorMap tm, const float* in, float* out, int rows, int cols) {
  tma_pipeline_body(tm, out, rows, cols);
}
`
	const rows, cols = 512, 256
	// the harness's input: fillBytes(rows*cols*4, 99, f32) of tma_probe.cu
	in := make([]byte, rows*cols*4)
	for i := 0; i < len(in)/4; i++ {
		seed := uint32(99)
		x := seed*0x9E3779B1 ^ uint32(i)*0x85ebca6b
		x ^= x >> 16
		x *= 0x7feb352d
		x ^= x >> 15
		x *= 0x846ca68b
		x ^= x >> 16
		binary.LittleEndian.PutUint32(in[4*i:], x&0x807fffff|0x3f800000)
	}
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(tmp, "in.bin"), in, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := analysis.Run(context.Background(), analysis.Request{
		Source: []byte(src), SourceFile: "tma_pipe.cu", Arch: "sm_90a", Compiler: "clang", BaseDir: tmp,
		Launch: &launch.Launch{Kernel: "tma_pipe_cell", Args: []launch.Arg{
			{Name: "in", Init: &launch.Init{Func: "file", Path: "in.bin", Type: "f32"}}, {Name: "out", Init: &launch.Init{Func: "zeros", N: rows * cols, Type: "f32"}},
			{Name: "rows", Scalar: "512"}, {Name: "cols", Scalar: "256"}},
			TensorMaps: []launch.TensorMap{{Name: "tm", Buffer: "in", Dims: []uint64{cols, rows}, Box: []uint32{32, 32}, Swizzle: 128}}},
		Grid: [3]int{8, 1, 1}, Block: [3]int{160, 1, 1}, Timing: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range rep.Outputs {
		if o.Name == "out" {
			if !bytes.Equal(o.Bytes, want) {
				t.Errorf("tma_pipe_cell differs from the H200's tma_pipeline")
			}
			return
		}
	}
	t.Fatalf("no output named out")
}

// TestTensorMapCell: a %tensormap reaches the kernel's CUtensorMap parameter by name or by
// a positional %launch argument, and a missing or invalid map is an error naming it.
func TestTensorMapCell(t *testing.T) {
	needClang(t)
	src, err := os.ReadFile("../../testdata/measured/tensor3/src/tma_copy_cell.cu")
	if err != nil {
		t.Fatal(err)
	}
	run := func(l *launch.Launch) ([]byte, error) {
		rep, err := analysis.Run(context.Background(), analysis.Request{Source: src, SourceFile: "tma_copy_cell.cu", Arch: "sm_90a", Compiler: "clang",
			Launch: l, Grid: [3]int{2, 1, 1}, Block: [3]int{128, 1, 1}})
		if err != nil {
			return nil, err
		}
		for _, o := range rep.Outputs {
			if o.Name == "out" {
				return o.Bytes, nil
			}
		}
		t.Fatal("no output out")
		return nil, nil
	}
	tm := launch.TensorMap{Name: "tmA", Buffer: "A", Dims: []uint64{64, 32}, Box: []uint32{32, 32}}
	a := launch.Arg{Init: &launch.Init{Func: "arange", N: 2048, Type: "f32"}}
	z := launch.Arg{Init: &launch.Init{Func: "zeros", N: 2048, Type: "f32"}}
	// block b copies the 32x32 box at column 32b of the 64-wide arange tensor
	want := make([]byte, 8192)
	for b := 0; b < 2; b++ {
		for r := 0; r < 32; r++ {
			for c := 0; c < 32; c++ {
				binary.LittleEndian.PutUint32(want[4*(b*1024+r*32+c):], math.Float32bits(float32(r*64+32*b+c)))
			}
		}
	}
	named := &launch.Launch{Kernel: "copy_tile", Args: []launch.Arg{{Name: "A", Init: a.Init}, {Name: "out", Init: z.Init}}, TensorMaps: []launch.TensorMap{tm}}
	positional := &launch.Launch{Kernel: "copy_tile", Args: []launch.Arg{{Scalar: "tmA"}, a, z}, TensorMaps: []launch.TensorMap{tm}}
	for _, l := range []*launch.Launch{named, positional} {
		got, err := run(l)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%+v: the copied tiles differ", l.Args)
		}
	}
	bad := tm
	bad.Box = []uint32{64, 32}
	bad.Swizzle = 128
	for _, c := range []struct {
		l    *launch.Launch
		want string
	}{
		{&launch.Launch{Kernel: "copy_tile", Args: named.Args}, "tmA is a CUtensorMap parameter: give its map with %tensormap"},
		{&launch.Launch{Kernel: "copy_tile", Args: named.Args, TensorMaps: []launch.TensorMap{bad}}, "tensor map tmA: box[0] x element size = 256 bytes, more than the 128B swizzle span"},
		{&launch.Launch{Kernel: "copy_tile", Args: []launch.Arg{{Scalar: "tmB"}, a, z}, TensorMaps: []launch.TensorMap{tm}}, `"tmB" is neither a number nor a %tensormap name`},
	} {
		if _, err := run(c.l); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
}
