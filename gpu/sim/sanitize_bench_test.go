package sim

import (
	"context"
	"encoding/binary"
	"math"
	"path/filepath"
	"testing"
)

// benchLaunch runs one launch b.N times, with and without the checks (sub-benchmarks "off" and "checks");
// cpu-ns/op is the process's CPU time per launch, the figure to compare on a loaded machine.
func benchLaunch(b *testing.B, ptxFile, kernel string, cfg Config, args func() []Arg) {
	m := parsePTXFile(b, filepath.Join(goldenDir, "ptx", ptxFile))
	for _, mode := range []struct {
		name string
		c    Checks
	}{{"off", Checks{}}, {"checks", allChecks}} {
		b.Run(mode.name, func(b *testing.B) {
			c := cfg
			c.Check = mode.c
			var total int64
			cpu0 := processCPU()
			for i := 0; i < b.N; i++ {
				res, err := Launch(context.Background(), m, kernel, args(), c)
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Findings) != 0 {
					b.Fatalf("findings in a race-free kernel: %+v", res.Findings[0])
				}
				total += res.Stats.ThreadInstructions
			}
			b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "thread-inst/s")
			if cpu := processCPU() - cpu0; cpu > 0 {
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// BenchmarkChecksMatmulTiled compares matmul_tiled at N=256 with and without race/init/sync checks.
func BenchmarkChecksMatmulTiled(b *testing.B) {
	const n = 256
	cfg := Config{Grid: [3]int{n / 16, n / 16, 1}, Block: [3]int{16, 16, 1}, NumSMs: 132, Trace: TraceConfig{MaxSteps: -1}}
	benchLaunch(b, "matmul_tiled.sm_90.ptx", "matmul_tiled", cfg, func() []Arg { return matmulArgs(n) })
}

// BenchmarkChecksReduce compares reduce_sequential over 2^18 floats (1024 blocks of 256) with and without checks.
func BenchmarkChecksReduce(b *testing.B) {
	const n = 1 << 18
	in := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(in[4*i:], math.Float32bits(float32(i%13)*0.25))
	}
	cfg := Config{Grid: [3]int{n / 256, 1, 1}, Block: [3]int{256, 1, 1}, NumSMs: 132, Trace: TraceConfig{MaxSteps: -1}}
	benchLaunch(b, "reduce.sm_90.ptx", "reduce_sequential", cfg, func() []Arg {
		return []Arg{{Buffer: in}, {Buffer: make([]byte, 4*(n/256))}, {Scalar: n}}
	})
}
