package engine

import (
	"context"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/kernelscope/kernelscope/kernel"
)

// vectorAdd1M is a notebook cell: vector_add over 2^20 elements with the
// kernel's defaults (timing as a cell gets it).
const vectorAdd1M = `%launch vector_add(a=rand(1048576), b=rand(1048576), c=zeros(1048576), n=1048576)
%grid 4096
%block 256
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
`

// benchCPU is the CPU time (user + system) this process has used so far.
func benchCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// haveClangBench reports whether a clang is on PATH.
func haveClangBench() bool {
	for _, c := range []string{"clang-19", "clang-18", "clang-17", "clang"} {
		if _, err := exec.LookPath(c); err == nil {
			return true
		}
	}
	return false
}

// BenchmarkEngineVectorAdd1M runs a vector_add cell of 2^20 elements through
// Engine.Execute end to end: cell language, clang, simulation, analysis and
// the rendered bundle (HTML, PNG, JSON, text).
func BenchmarkEngineVectorAdd1M(b *testing.B) {
	if !haveClangBench() {
		b.Skip("no clang on PATH")
	}
	e := New(b.TempDir(), nil, WithProgress(-1, 0))
	cpu0 := benchCPU(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := &recorder{}
		if err := e.Execute(context.Background(), kernel.ExecuteRequest{Code: vectorAdd1M, StoreHistory: true}, r); err != nil {
			b.Fatal(err)
		}
		if len(r.displays) != 1 {
			b.Fatalf("expected one display, got %d", len(r.displays))
		}
	}
	b.StopTimer()
	b.ReportMetric((benchCPU(b)-cpu0).Seconds()/float64(b.N), "cpu-s/op")
}

// childCPU is the CPU time (user + system) of this process's waited-for
// children so far: the compiler runs.
func childCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkEngineVectorAdd1MCold is BenchmarkEngineVectorAdd1M with a new
// engine per run, so every run compiles (a cell's first execution: the
// engine's compile cache is empty); cpu-s/op counts the compiler's CPU too.
func BenchmarkEngineVectorAdd1MCold(b *testing.B) {
	if !haveClangBench() {
		b.Skip("no clang on PATH")
	}
	dir := b.TempDir()
	cpu0, child0 := benchCPU(b), childCPU(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e := New(dir, nil, WithProgress(-1, 0))
		r := &recorder{}
		if err := e.Execute(context.Background(), kernel.ExecuteRequest{Code: vectorAdd1M, StoreHistory: true}, r); err != nil {
			b.Fatal(err)
		}
		if len(r.displays) != 1 {
			b.Fatalf("expected one display, got %d", len(r.displays))
		}
	}
	b.StopTimer()
	b.ReportMetric((benchCPU(b)-cpu0+childCPU(b)-child0).Seconds()/float64(b.N), "cpu-s/op")
}
