package analysis_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/internal/golden"
	"github.com/kernelscope/kernelscope/magics"
)

// cpuTime is the CPU time (user + system) this process has used so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchAnalysis runs the full analysis (analysis.Run) of one golden PTX kernel
// b.N times and reports thread-instructions per wall second and per CPU second
// (the machine is shared: CPU time is the fairer figure). With timing, the
// time-aware caches run too, as in the product (%timing on).
func benchAnalysis(b *testing.B, bl benchLaunch, timing bool) {
	b.Helper()
	benchAnalysisCaches(b, bl, timing, timing)
}

// benchAnalysisCaches is benchAnalysis with the time-aware caches chosen apart
// (caches false with timing: %timing on nocaches).
func benchAnalysisCaches(b *testing.B, bl benchLaunch, timing, caches bool) {
	b.Helper()
	benchAnalysisPool(b, bl, timing, caches, nil)
}

// benchAnalysisPool is benchAnalysisCaches with the cache models' arrays lent
// by pool (nil: none), as an engine lends them to its launches.
func benchAnalysisPool(b *testing.B, bl benchLaunch, timing, caches bool, pool *mem.CachePool) {
	b.Helper()
	req := benchRequest(b, bl)
	req.Timing, req.TimedCaches, req.CachePool = timing, caches, pool
	if pool != nil { // a launch before fills the pool, as a cell's earlier cells do
		l := req.Launch
		req.Launch = l.Clone()
		if _, err := analysis.Run(context.Background(), req); err != nil {
			b.Fatal(err)
		}
		req.Launch = l
	}
	total := benchRuns(b, req, nil)
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "thread-inst/s")
}

// benchLaunch is a launch the benchmarks analyse: golden PTX kernel src
// (testdata/golden/ptx/src.sm_90.ptx) launched as text, the cell language.
type benchLaunch struct {
	src, text   string
	grid, block [3]int
}

// The benchmarks' launches.
var (
	benchVectorAdd1M  = benchLaunch{"vector_add", "vector_add(rand(1048576), rand(1048576), zeros(1048576), 1048576)", [3]int{4096, 1, 1}, [3]int{256, 1, 1}}
	benchVectorAdd16K = benchLaunch{"vector_add", "vector_add(rand(16384), rand(16384), zeros(16384), 16384)", [3]int{64, 1, 1}, [3]int{256, 1, 1}}
	benchMatmul256    = benchLaunch{"matmul_tiled", "matmul_tiled(rand(65536), rand(65536), zeros(65536), 256)", [3]int{16, 16, 1}, [3]int{16, 16, 1}}
	benchMatmul64     = benchLaunch{"matmul_tiled", "matmul_tiled(rand(4096), rand(4096), zeros(4096), 64)", [3]int{4, 4, 1}, [3]int{16, 16, 1}}
	benchReduce4M     = benchLaunch{"reduce", "reduce_sequential(rand(4194304), zeros(16384), 4194304)", [3]int{16384, 1, 1}, [3]int{256, 1, 1}}
	benchReduce1M     = benchLaunch{"reduce", "reduce_sequential(rand(1048576), zeros(4096), 1048576)", [3]int{4096, 1, 1}, [3]int{256, 1, 1}}
	benchHistogram1M  = benchLaunch{"histogram", "histogram256(arange(1048576):u8, zeros(256), 1048576)", [3]int{512, 1, 1}, [3]int{256, 1, 1}}
)

// benchRequest is the request of a full analysis of bl, timing off.
func benchRequest(b *testing.B, bl benchLaunch) analysis.Request {
	b.Helper()
	ptxPath := filepath.Join(golden.Dir(), "ptx", bl.src+".sm_90.ptx")
	text, err := os.ReadFile(ptxPath)
	if err != nil {
		b.Fatal(err)
	}
	l, err := magics.ParseLaunch(bl.text)
	if err != nil {
		b.Fatal(err)
	}
	return analysis.Request{Source: text, SourceFile: filepath.Base(ptxPath), IsPTX: true, Arch: "sm_90",
		Launch: l, Grid: bl.grid, Block: bl.block, Budget: 1e11, BaseDir: b.TempDir()}
}

// benchRuns runs req b.N times, each on a clone of req.Launch, checks each
// report with check (nil: none), reports thread-instructions per CPU second
// and CPU seconds per run, and returns the thread-instructions of all runs.
func benchRuns(b *testing.B, req analysis.Request, check func(*report.Report)) int64 {
	b.Helper()
	l := req.Launch
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
		if check != nil {
			check(rep)
		}
		total += rep.Stats.ThreadInstructions
	}
	b.StopTimer()
	cpu := cpuTime(b) - cpu0
	b.ReportMetric(float64(total)/cpu.Seconds(), "thread-inst/cpu-s")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	return total
}

// BenchmarkAnalysisVectorAdd1M is the full analysis of vector_add over 2^20 elements, timing off.
func BenchmarkAnalysisVectorAdd1M(b *testing.B) {
	benchAnalysis(b, benchVectorAdd1M, false)
}

// BenchmarkAnalysisMatmul256 is the full analysis of matmul_tiled at 256, timing off.
func BenchmarkAnalysisMatmul256(b *testing.B) {
	benchAnalysis(b, benchMatmul256, false)
}

// BenchmarkAnalysisMatmul256Timing is BenchmarkAnalysisMatmul256 with the timing model on.
func BenchmarkAnalysisMatmul256Timing(b *testing.B) {
	benchAnalysis(b, benchMatmul256, true)
}

// BenchmarkAnalysisReduce4M is the full analysis of reduce_sequential over 2^22 elements, timing off.
func BenchmarkAnalysisReduce4M(b *testing.B) {
	benchAnalysis(b, benchReduce4M, false)
}

// BenchmarkAnalysisReduce1MTiming is the full analysis of reduce_sequential over 2^20 elements, timing on.
func BenchmarkAnalysisReduce1MTiming(b *testing.B) {
	benchAnalysis(b, benchReduce1M, true)
}

// BenchmarkAnalysisSmallMatmul64Timing is the full analysis with timing of
// matmul_tiled at N=64 (16 blocks): the size scripts/bench_numba.sh compares
// with numba's simulator, where the per-launch costs show.
func BenchmarkAnalysisSmallMatmul64Timing(b *testing.B) {
	benchAnalysis(b, benchMatmul64, true)
}

// BenchmarkAnalysisSmallVectorAdd16KTiming is the full analysis with timing of
// vector_add over 16384 elements (bench_numba.sh's size).
func BenchmarkAnalysisSmallVectorAdd16KTiming(b *testing.B) {
	benchAnalysis(b, benchVectorAdd16K, true)
}

// BenchmarkAnalysisSmallVectorAdd16KTimingPooled is
// BenchmarkAnalysisSmallVectorAdd16KTiming with a mem.CachePool across the
// runs, as an engine's cells get: the per-launch cost of the cache models' arrays.
func BenchmarkAnalysisSmallVectorAdd16KTimingPooled(b *testing.B) {
	benchAnalysisPool(b, benchVectorAdd16K, true, true, &mem.CachePool{})
}

// BenchmarkAnalysisSmallMatmul64TimingPooled is BenchmarkAnalysisSmallMatmul64Timing with a mem.CachePool.
func BenchmarkAnalysisSmallMatmul64TimingPooled(b *testing.B) {
	benchAnalysisPool(b, benchMatmul64, true, true, &mem.CachePool{})
}

// BenchmarkAnalysisMatmul256TimingNoCaches is BenchmarkAnalysisMatmul256Timing
// without the time-aware caches (%timing on nocaches): their cost is the difference.
func BenchmarkAnalysisMatmul256TimingNoCaches(b *testing.B) {
	benchAnalysisCaches(b, benchMatmul256, true, false)
}

// BenchmarkAnalysisReduce1MTimingNoCaches is BenchmarkAnalysisReduce1MTiming
// without the time-aware caches.
func BenchmarkAnalysisReduce1MTimingNoCaches(b *testing.B) {
	benchAnalysisCaches(b, benchReduce1M, true, false)
}

// BenchmarkAnalysisReduce16MChecks is issue 16's large reduction in one
// process: reduce_sequential over 2^24 elements (65536 blocks of 256) with the
// race, init and sync checks and the timing model (sampled: 63 waves), as
// `LARGE=1 scripts/bench.sh` runs it through the command line. About 10
// CPU-seconds a run, so it runs only when KS_BENCH_LARGE=1.
func BenchmarkAnalysisReduce16MChecks(b *testing.B) {
	if os.Getenv("KS_BENCH_LARGE") == "" {
		b.Skip("set KS_BENCH_LARGE=1 to run the 16M-element reduction")
	}
	req := benchRequest(b, benchLaunch{"reduce", "reduce_sequential(rand(16777216), zeros(65536), 16777216)", [3]int{65536, 1, 1}, [3]int{256, 1, 1}})
	req.Timing, req.TimedCaches = true, true
	req.Checks = analysis.Checks{Race: true, Init: true, Sync: true}
	benchRuns(b, req, nil)
}
