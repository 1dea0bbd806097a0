package analysis_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/internal/golden"
	"github.com/kernelscope/kernelscope/magics"
)

// Peak memory (issue 16: at most 2x the launch's buffers + 200 MB), measured
// with runtime/metrics: the live heap objects and the heap the runtime holds,
// sampled every millisecond while the analysis runs (a sampled peak, so a
// lower bound of the true one), after a GC before the run. Reported per run
// as peak-heap-MB and peak-held-MB beside bound-MB = 2 x buffers + 200 MB.

// heapSampler records the largest heap seen while running.
type heapSampler struct {
	stop     chan struct{}
	done     sync.WaitGroup
	peakLive uint64
	peakHeld uint64
	baseLive uint64
	samples  []metrics.Sample
	mu       sync.Mutex
}

func startHeapSampler() *heapSampler {
	runtime.GC()
	h := &heapSampler{stop: make(chan struct{}), samples: []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/total:bytes"},
	}}
	h.read()
	h.baseLive = h.peakLive
	h.done.Add(1)
	go func() {
		defer h.done.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
				h.read()
			}
		}
	}()
	return h
}

func (h *heapSampler) read() {
	h.mu.Lock()
	defer h.mu.Unlock()
	metrics.Read(h.samples)
	h.peakLive = max(h.peakLive, h.samples[0].Value.Uint64())
	h.peakHeld = max(h.peakHeld, h.samples[1].Value.Uint64())
}

func (h *heapSampler) finish() (live, held uint64) {
	h.read()
	close(h.stop)
	h.done.Wait()
	return h.peakLive, h.peakHeld
}

// benchPeak runs one full analysis per iteration and reports its peak heap.
func benchPeak(b *testing.B, req analysis.Request, bufferBytes int64) {
	b.Helper()
	l := req.Launch
	var worstLive, worstHeld uint64
	for i := 0; i < b.N; i++ {
		if l != nil {
			req.Launch = l.Clone()
		}
		h := startHeapSampler()
		rep, err := analysis.Run(context.Background(), req)
		live, held := h.finish()
		if err != nil {
			b.Fatal(err)
		}
		if rep.Stats.ThreadInstructions == 0 {
			b.Fatal("nothing simulated")
		}
		worstLive, worstHeld = max(worstLive, live), max(worstHeld, held)
	}
	bound := float64(2*bufferBytes+200<<20) / (1 << 20)
	b.ReportMetric(float64(worstLive)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(worstHeld)/(1<<20), "peak-held-MB")
	b.ReportMetric(bound, "bound-MB")
	if float64(worstLive)/(1<<20) > bound {
		b.Logf("peak heap %.0f MB is over the bound %.0f MB", float64(worstLive)/(1<<20), bound)
	}
}

// BenchmarkPeakHeapVectorAdd4M: vector_add over 2^22 floats (48 MB of
// buffers), full analysis with the timing model.
func BenchmarkPeakHeapVectorAdd4M(b *testing.B) {
	text, err := os.ReadFile(filepath.Join(golden.Dir(), "ptx", "vector_add.sm_90.ptx"))
	if err != nil {
		b.Fatal(err)
	}
	const n = 1 << 22
	l, err := magics.ParseLaunch("vector_add(rand(4194304), rand(4194304), zeros(4194304), 4194304)")
	if err != nil {
		b.Fatal(err)
	}
	benchPeak(b, analysis.Request{Source: text, SourceFile: "vector_add.ptx", IsPTX: true, Arch: "sm_90", Launch: l,
		Grid: [3]int{n / 256, 1, 1}, Block: [3]int{256, 1, 1}, Timing: true, Budget: 1e11, BaseDir: b.TempDir()}, 3*4*n)
}

// spinPTX is one block of one warp looping 3 million times: a long block
// whose issue log once grew with the launch.
const spinPTX = `.version 7.0
.target sm_80
.address_size 64
.visible .entry spin(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.reg .pred %p<2>;
	mov.u32 %r1, 0;
LOOP:
	add.u32 %r1, %r1, 1;
	setp.lt.u32 %p1, %r1, 3000000;
	@%p1 bra LOOP;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	st.global.u32 [%rd1], %r1;
	ret;
}
`

// BenchmarkPeakHeapSpin: the spinning block, full analysis with timing (its
// issue log passes sim.MaxBlockIssues, so the timing model is skipped with a
// note and the log is not kept).
func BenchmarkPeakHeapSpin(b *testing.B) {
	l, err := magics.ParseLaunch("spin(zeros(32))")
	if err != nil {
		b.Fatal(err)
	}
	benchPeak(b, analysis.Request{Source: []byte(spinPTX), SourceFile: "spin.ptx", IsPTX: true, Arch: "sm_90", Launch: l,
		Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Timing: true, Budget: 1e10, BaseDir: b.TempDir()}, 128)
}

// BenchmarkPeakHeapMatmul512: matmul_tiled N=512 (3 MB of buffers), full
// analysis with the timing model and the default checks (race,init,sync):
// one wave, so the timing model holds the streams of every block at once
// (1024 blocks of 8 warps, 16.9M warp-instructions).
func BenchmarkPeakHeapMatmul512(b *testing.B) {
	text, err := os.ReadFile(filepath.Join(golden.Dir(), "ptx", "matmul_tiled.sm_90.ptx"))
	if err != nil {
		b.Fatal(err)
	}
	const n = 512
	l, err := magics.ParseLaunch("matmul_tiled(rand(262144), rand(262144), zeros(262144), 512)")
	if err != nil {
		b.Fatal(err)
	}
	checks, err := analysis.ParseChecks("race,init,sync")
	if err != nil {
		b.Fatal(err)
	}
	benchPeak(b, analysis.Request{Source: text, SourceFile: "matmul_tiled.ptx", IsPTX: true, Arch: "sm_90", Launch: l,
		Grid: [3]int{n / 16, n / 16, 1}, Block: [3]int{16, 16, 1}, Timing: true, Checks: checks, Budget: 1e10, BaseDir: b.TempDir()}, 3*4*n*n)
}
