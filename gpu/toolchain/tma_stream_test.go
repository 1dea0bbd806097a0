package toolchain_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/report"
)

// streamRun runs tma_stream of testdata/measured/tensor4 through the clang path on a
// rows x cols tensor holding 0, 1, 2, ... as f32, with grid blocks of 64 threads.
func streamRun(t *testing.T, rows, cols, grid int) (*report.Report, []byte) {
	t.Helper()
	needClang(t)
	var src []byte
	for _, p := range []string{"../../testdata/measured/tensor3/src/tma_kernels.cuh", "../../testdata/measured/tensor4/src/tma_stream.cuh"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, bytes.ReplaceAll(b, []byte(`#include "tma_kernels.cuh"`), nil)...)
	}
	in := make([]byte, rows*cols*4)
	for i := 0; i < rows*cols; i++ {
		binary.LittleEndian.PutUint32(in[4*i:], math.Float32bits(float32(i)))
	}
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(tmp, "in.bin"), in, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := analysis.Run(context.Background(), analysis.Request{
		Source: src, SourceFile: "tma_stream.cu", Arch: "sm_90a", Compiler: "clang", BaseDir: tmp,
		Launch: &launch.Launch{Kernel: "tma_stream", Args: []launch.Arg{
			{Name: "tin"}, {Name: "tout"},
			{Name: "in", Init: &launch.Init{Func: "file", Path: "in.bin", Type: "f32"}}, {Name: "out", Init: &launch.Init{Func: "zeros", N: rows * cols, Type: "f32"}},
			{Name: "rows", Scalar: strconv.Itoa(rows)}, {Name: "cols", Scalar: strconv.Itoa(cols)}},
			TensorMaps: []launch.TensorMap{
				{Name: "tin", Buffer: "in", Dims: []uint64{uint64(cols), uint64(rows)}, Box: []uint32{32, 64}, Swizzle: 128},
				{Name: "tout", Buffer: "out", Dims: []uint64{uint64(cols), uint64(rows)}, Box: []uint32{32, 64}, Swizzle: 128}}},
		Grid: [3]int{grid, 1, 1}, Block: [3]int{64, 1, 1}, Timing: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	return rep, in
}

// TestTMAStreamH200: scripts/tensor4's tma_stream (a 2048 x 4096 f32 tensor copied through
// shared memory by TMA loads and stores, 4 stages, mbarrier waits) through the clang path:
// the copy is exact (the H200's copy was too: run.txt), and the modelled cycles of the
// 1-, 132- and 264-block launches are within 20% of Nsight Compute's sm__cycles_elapsed.max
// (validation: the bulk-copy constants come from the tma_lat probe, gpu/timing/async.go),
// with long_scoreboard the largest stall, as ncu has it (the mbarrier waits).
func TestTMAStreamH200(t *testing.T) {
	dir := "../../testdata/measured/tensor4/h200/out/"
	run, err := os.ReadFile(dir + "run.txt")
	if err != nil {
		t.Fatal(err)
	}
	h200 := ncuCycles(t, dir+"ncu_stream.csv")
	for _, g := range []int{1, 132, 264} {
		if !strings.Contains(string(run), fmt.Sprintf("tma_stream grid %d x 64: ", g)) || !strings.Contains(string(run), "0 of 8388608 words differ") {
			t.Fatalf("run.txt has no exact copy of grid %d", g)
		}
		rep, in := streamRun(t, 2048, 4096, g)
		found := false
		for _, o := range rep.Outputs {
			if o.Name == "out" {
				found = true
				if !bytes.Equal(o.Bytes, in) {
					t.Errorf("grid %d: out differs from in", g)
				}
			}
		}
		if !found {
			t.Fatal("no output named out")
		}
		want, ok := h200[g]
		if !ok {
			t.Fatalf("ncu_stream.csv has no launch of grid %d", g)
		}
		got := rep.Timing.Cycles
		e := float64(got-want) / float64(want)
		t.Logf("grid %d: model %d cycles (kernel %d + launch %d), H200 %d: %+.1f%%", g, got, rep.Timing.KernelCycles, rep.Timing.LaunchCycles, want, 100*e)
		if e < -0.2 || e > 0.2 {
			t.Errorf("grid %d: model %d cycles, H200 %d (%+.1f%%): more than 20%% off", g, got, want, 100*e)
		}
		top, topV := "", int64(-1)
		for r, v := range rep.Timing.Stalls {
			if r != "selected" && v > topV {
				top, topV = r, v
			}
		}
		if top != "long_scoreboard" {
			t.Errorf("grid %d: largest stall %s (%v), want long_scoreboard", g, top, rep.Timing.Stalls)
		}
	}
}

// ncuCycles reads sm__cycles_elapsed.max per grid size (x) from an ncu --csv file.
func ncuCycles(t *testing.T, path string) map[int]int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[int]int64{}
	var hdr []string
	rd := csv.NewReader(f)
	rd.FieldsPerRecord = -1
	for {
		rec, err := rd.Read()
		if err != nil {
			break
		}
		if len(rec) > 0 && rec[0] == "ID" {
			hdr = rec
			continue
		}
		if hdr == nil || len(rec) != len(hdr) {
			continue
		}
		m := map[string]string{}
		for i, h := range hdr {
			m[h] = rec[i]
		}
		if m["Metric Name"] != "sm__cycles_elapsed.max" {
			continue
		}
		var g int
		fmt.Sscanf(m["Grid Size"], "(%d,", &g)
		v, err := strconv.ParseInt(strings.ReplaceAll(m["Metric Value"], ",", ""), 10, 64)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out[g] = v
	}
	return out
}
