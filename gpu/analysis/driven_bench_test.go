package analysis_test

import (
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/report"
)

// benchPath is benchAnalysis with timing on and the timing path chosen
// (analysis.TimingReplay or analysis.TimingInterleaved), so the two paths'
// speeds compare on one launch.
func benchPath(b *testing.B, bl benchLaunch, path string) {
	b.Helper()
	req := benchRequest(b, bl)
	req.Timing, req.TimingPath = true, path
	total := benchRuns(b, req, func(rep *report.Report) {
		if rep.Timing == nil || rep.Timing.Path != path {
			b.Fatalf("timing path %v, want %s", rep.Timing, path)
		}
	})
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "thread-inst/s")
}

// The same launches on the replay (trace-driven) and interleaved (execution-driven) paths.
func BenchmarkAnalysisReplayMatmul256(b *testing.B) {
	benchPath(b, benchMatmul256, analysis.TimingReplay)
}
func BenchmarkAnalysisInterleavedMatmul256(b *testing.B) {
	benchPath(b, benchMatmul256, analysis.TimingInterleaved)
}
func BenchmarkAnalysisReplayReduce1M(b *testing.B) {
	benchPath(b, benchReduce1M, analysis.TimingReplay)
}
func BenchmarkAnalysisInterleavedReduce1M(b *testing.B) {
	benchPath(b, benchReduce1M, analysis.TimingInterleaved)
}
func BenchmarkAnalysisReplayHistogram1M(b *testing.B) {
	benchPath(b, benchHistogram1M, analysis.TimingReplay)
}
func BenchmarkAnalysisInterleavedHistogram1M(b *testing.B) {
	benchPath(b, benchHistogram1M, analysis.TimingInterleaved)
}
