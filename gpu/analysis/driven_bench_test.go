package analysis_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/internal/golden"
	"github.com/kernelscope/kernelscope/magics"
)

// benchPath is benchAnalysis with timing on and the timing path chosen
// (analysis.TimingReplay or analysis.TimingInterleaved), so the two paths'
// speeds compare on one launch.
func benchPath(b *testing.B, src, launchText string, grid, block [3]int, path string) {
	b.Helper()
	ptxPath := filepath.Join(golden.Dir(), "ptx", src+".sm_90.ptx")
	text, err := os.ReadFile(ptxPath)
	if err != nil {
		b.Fatal(err)
	}
	l, err := magics.ParseLaunch(launchText)
	if err != nil {
		b.Fatal(err)
	}
	req := analysis.Request{Source: text, SourceFile: filepath.Base(ptxPath), IsPTX: true, Arch: "sm_90",
		Launch: l, Grid: grid, Block: block, Timing: true, TimingPath: path, Budget: 1e11, BaseDir: b.TempDir()}
	var total int64
	cpu0 := cpuTime(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req.Launch = l.Clone()
		rep, err := analysis.Run(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		if rep.Timing == nil || rep.Timing.Path != path {
			b.Fatalf("timing path %v, want %s", rep.Timing, path)
		}
		total += rep.Stats.ThreadInstructions
	}
	b.StopTimer()
	cpu := cpuTime(b) - cpu0
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "thread-inst/s")
	b.ReportMetric(float64(total)/cpu.Seconds(), "thread-inst/cpu-s")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}

const (
	benchMatmul256 = "matmul_tiled(rand(65536), rand(65536), zeros(65536), 256)"
	benchReduce1M  = "reduce_sequential(rand(1048576), zeros(4096), 1048576)"
	benchHist1M    = "histogram256(arange(1048576):u8, zeros(256), 1048576)"
)

// The same launches on the replay (trace-driven) and interleaved (execution-driven) paths.
func BenchmarkAnalysisReplayMatmul256(b *testing.B) {
	benchPath(b, "matmul_tiled", benchMatmul256, [3]int{16, 16, 1}, [3]int{16, 16, 1}, analysis.TimingReplay)
}
func BenchmarkAnalysisInterleavedMatmul256(b *testing.B) {
	benchPath(b, "matmul_tiled", benchMatmul256, [3]int{16, 16, 1}, [3]int{16, 16, 1}, analysis.TimingInterleaved)
}
func BenchmarkAnalysisReplayReduce1M(b *testing.B) {
	benchPath(b, "reduce", benchReduce1M, [3]int{4096, 1, 1}, [3]int{256, 1, 1}, analysis.TimingReplay)
}
func BenchmarkAnalysisInterleavedReduce1M(b *testing.B) {
	benchPath(b, "reduce", benchReduce1M, [3]int{4096, 1, 1}, [3]int{256, 1, 1}, analysis.TimingInterleaved)
}
func BenchmarkAnalysisReplayHistogram1M(b *testing.B) {
	benchPath(b, "histogram", benchHist1M, [3]int{512, 1, 1}, [3]int{256, 1, 1}, analysis.TimingReplay)
}
func BenchmarkAnalysisInterleavedHistogram1M(b *testing.B) {
	benchPath(b, "histogram", benchHist1M, [3]int{512, 1, 1}, [3]int{256, 1, 1}, analysis.TimingInterleaved)
}
