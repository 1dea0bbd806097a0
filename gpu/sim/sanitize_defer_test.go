package sim

import (
	"context"
	"encoding/binary"
	"reflect"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/toolchain"
)

// deferKernels exercise the deferred shared reads of the checker: reads of
// an epoch followed by a write of the same epoch (flushed), by the same warp
// with and without __syncwarp, broadcasts, partly initialised and byte-wide
// shared arrays, and more reads in one epoch than the log holds.
const deferKernels = `
extern "C" __global__ void shift_war(float *out) {
	__shared__ float s[256];
	int t = threadIdx.x;
	s[t] = t;
	__syncthreads();
	float v = s[(t + 32) % 256] + s[0];
	s[t] = v; // other warps still read s[t]: write-after-read
	__syncthreads();
	out[t] = s[t];
}
extern "C" __global__ void shift_ok(float *out) {
	__shared__ float s[256];
	int t = threadIdx.x;
	s[t] = t;
	__syncthreads();
	float v = s[(t + 32) % 256] + s[0];
	__syncthreads();
	s[t] = v;
	__syncthreads();
	out[t] = s[t];
}
extern "C" __global__ void warp_swap(float *out, int sync) {
	__shared__ float s[256];
	int t = threadIdx.x;
	s[t] = t;
	__syncthreads();
	float v = s[t ^ 1];
	if (sync) __syncwarp();
	s[t] = v;
	__syncthreads();
	out[t] = s[t];
}
extern "C" __global__ void partial_init(float *out) {
	__shared__ float s[64][33];
	int t = threadIdx.x;
	for (int i = t; i < 64 * 32; i += blockDim.x) s[i / 32][i % 32] = i;
	__syncthreads();
	float v = s[t % 64][t / 64] + s[t % 64][32]; // column 32 is never written
	out[t] = v;
	s[t % 64][(t + 1) % 32] = v;
	__syncthreads();
	out[t] += s[t % 64][0];
}
extern "C" __global__ void bytes(float *out) {
	__shared__ unsigned char b[1024];
	__shared__ int w[256];
	int t = threadIdx.x;
	for (int i = 0; i < 4; i++) b[4 * t + i] = t + i;
	w[t] = t;
	__syncthreads();
	int v = w[(t + 7) % 256] + b[(3 * t) % 1024];
	w[(t + 1) % 256] = v;
	__syncthreads();
	out[t] = v;
}
extern "C" __global__ void many_reads(float *out, int n) {
	__shared__ float s[32];
	int t = threadIdx.x;
	s[t] = t;
	__syncthreads();
	float acc = s[(t + 1) % 32]; // the only read of s[t+1] by another thread
	volatile float *vs = s; // volatile: one load per iteration
	for (int i = 0; i < n; i++) acc += vs[t];
	s[t] = acc; // after more reads than the log holds: races with the first read
	__syncthreads();
	out[t] = s[t];
}
`

// TestDeferredReadsExact: with the shared reads deferred (the default) the
// checks find exactly what they find applying every read at once: the same
// findings, counts, threads and messages, in both schedules.
func TestDeferredReadsExact(t *testing.T) {
	res, err := toolchain.Compile(context.Background(), toolchain.Request{Source: deferKernels, File: "defer.cu", Arch: "sm_80", Compiler: "clang"})
	if err != nil {
		if strings.Contains(err.Error(), "not found") || strings.Contains(err.Error(), "no CUDA compiler") {
			t.Skipf("no clang: %v", err)
		}
		t.Fatal(err)
	}
	m, err := ptx.Parse("defer.ptx", res.PTX)
	if err != nil {
		t.Fatal(err)
	}
	scalar := func(v uint64) Arg { return Arg{Scalar: v} }
	cases := []struct {
		kernel string
		block  int
		args   []Arg
		want   bool // findings expected
	}{
		{"shift_war", 256, nil, true},
		{"shift_ok", 256, nil, false},
		{"warp_swap", 256, []Arg{scalar(0)}, true},
		{"warp_swap", 256, []Arg{scalar(1)}, false},
		{"partial_init", 256, nil, true},
		{"bytes", 256, nil, true},
		{"many_reads", 32, []Arg{scalar(9000)}, true}, // one warp: 9,001 reads before the write
	}
	for _, c := range cases {
		for _, rev := range []bool{false, true} {
			run := func(noDefer bool) *Result {
				args := append([]Arg{{Buffer: make([]byte, 4*c.block)}}, c.args...)
				chk := allChecks
				chk.noDefer = noDefer
				r, err := Launch(context.Background(), m, c.kernel, args, Config{Grid: [3]int{2, 1, 1}, Block: [3]int{c.block, 1, 1},
					Trace: TraceConfig{MaxSteps: -1}, Check: chk, Reverse: rev})
				if err != nil {
					t.Fatalf("%s: %v", c.kernel, err)
				}
				return r
			}
			got, want := run(false), run(true)
			if !reflect.DeepEqual(got.Findings, want.Findings) {
				t.Errorf("%s%v reverse=%v: deferred reads found\n%+v\nat once\n%+v", c.kernel, c.args, rev, got.Findings, want.Findings)
			}
			if (len(want.Findings) > 0) != c.want {
				t.Errorf("%s%v reverse=%v: %d findings, want some: %v", c.kernel, c.args, rev, len(want.Findings), c.want)
			}
			if binary.LittleEndian.Uint32(got.Buffers[0]) != binary.LittleEndian.Uint32(want.Buffers[0]) {
				t.Errorf("%s: outputs differ", c.kernel)
			}
		}
	}
}
