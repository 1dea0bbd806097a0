package sim

import (
	"context"
	"encoding/binary"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/kernelscope/kernelscope/gpu/mem"
)

// matmulArgs builds matmul_tiled arguments for N x N matrices.
func matmulArgs(n int) []Arg {
	a := make([]byte, 4*n*n)
	b := make([]byte, 4*n*n)
	for i := 0; i < n*n; i++ {
		binary.LittleEndian.PutUint32(a[4*i:], math.Float32bits(float32(i%7)-3))
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(i%5)*0.5))
	}
	return []Arg{{Buffer: a}, {Buffer: b}, {Buffer: make([]byte, 4*n*n)}, {Scalar: uint64(n)}}
}

// BenchmarkMatmulTiled simulates the golden matmul_tiled kernel at N=256
// (grid 16x16, block 16x16) and reports thread-instructions per second.
func BenchmarkMatmulTiled(b *testing.B) {
	m := parsePTXFile(b, filepath.Join(goldenDir, "ptx", "matmul_tiled.sm_90.ptx"))
	const n = 256
	cfg := Config{Grid: [3]int{n / 16, n / 16, 1}, Block: [3]int{16, 16, 1}, NumSMs: 132, Trace: TraceConfig{MaxSteps: -1}}
	var total int64
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		res, err := Launch(context.Background(), m, "matmul_tiled", matmulArgs(n), cfg)
		if err != nil {
			b.Fatal(err)
		}
		total += res.Stats.ThreadInstructions
	}
	reportCPU(b, total, processCPU()-cpu0)
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "thread-inst/s")
	b.ReportMetric(float64(total)/float64(b.N), "thread-inst/op")
}

// reportCPU adds thread-instructions per CPU-second and CPU-seconds per op
// (the figures to trust on a loaded machine; 0 where CPU time is unknown).
func reportCPU(b *testing.B, total int64, cpu time.Duration) {
	if cpu > 0 {
		b.ReportMetric(float64(total)/cpu.Seconds(), "thread-inst/cpu-s")
		b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	}
}

// BenchmarkVectorAdd1M simulates the golden vector_add kernel over 2^20
// elements (4096 blocks of 256 threads), where per-block setup matters.
func BenchmarkVectorAdd1M(b *testing.B) {
	m := parsePTXFile(b, filepath.Join(goldenDir, "ptx", "vector_add.sm_90.ptx"))
	const n = 1 << 20
	cfg := Config{Grid: [3]int{n / 256, 1, 1}, Block: [3]int{256, 1, 1}, NumSMs: 132, Trace: TraceConfig{MaxSteps: -1}}
	args := []Arg{{Buffer: make([]byte, 4*n)}, {Buffer: make([]byte, 4*n)}, {Buffer: make([]byte, 4*n)}, {Scalar: n}}
	var total int64
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		res, err := Launch(context.Background(), m, "vector_add", args, cfg)
		if err != nil {
			b.Fatal(err)
		}
		total += res.Stats.ThreadInstructions
	}
	reportCPU(b, total, processCPU()-cpu0)
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "thread-inst/s")
}

// BenchmarkMatmulTiledObserved is BenchmarkMatmulTiled with a memory observer
// attached, as the analysis pipeline runs it (the observer only counts).
func BenchmarkMatmulTiledObserved(b *testing.B) {
	m := parsePTXFile(b, filepath.Join(goldenDir, "ptx", "matmul_tiled.sm_90.ptx"))
	const n = 256
	var accesses int
	cfg := Config{Grid: [3]int{n / 16, n / 16, 1}, Block: [3]int{16, 16, 1}, NumSMs: 132, Trace: TraceConfig{MaxSteps: -1},
		OnMemory: func(*mem.Access) { accesses++ }}
	var total int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Launch(context.Background(), m, "matmul_tiled", matmulArgs(n), cfg)
		if err != nil {
			b.Fatal(err)
		}
		total += res.Stats.ThreadInstructions
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "thread-inst/s")
}
