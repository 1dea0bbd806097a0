package timing

import (
	"github.com/kernelscope/kernelscope/gpu/isa"
	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Warpgroup MMA timing (docs/tensor-cores.md, "wgmma"). On the H200 one
// wgmma.m64n64k16.f32.f16 keeps the tensor pipe of each of the 4 sub-partitions busy
// for 32 cycles (4 warpgroups: 127.9 cycles per round of 4, testdata/measured/tensor2
// run.txt) and a dependent chain runs at 98 cycles per instruction. The pipe time is
// taken as N/2 cycles for every dense shape (f16/bf16 k16, tf32 k8 and fp8 k32 do the
// same work per cycle at their rates; only N = 64 f16 was measured) and the latency as
// 98 cycles for all (measured at N = 64 only).
const (
	wgmmaLatency = 98 // cycles, dependent wgmma.m64n64k16 chain (measured)
)

// wgmmaTiming returns the timing of a wgmma.mma_async (the table's tensor timing with
// the pipe time and latency of a warpgroup MMA of its N), of a wmma.mma m16n16k16 (two
// HMMA.16816 in SASS, testdata/measured/tensor/gemm_sass.txt; Nsight Compute counts 12
// tensor-pipe cycles per wmma.mma, testdata/measured/tensor4: twice the pipe time, the
// second HMMA's result one pipe interval later, modelled), or t unchanged for others
// : decodedTiming's rules for a bare
// ptx.Inst; the static program applies decodedTiming to the decoded instruction.
func wgmmaTiming(t latency.Timing, in *ptx.Inst) latency.Timing {
	if in == nil {
		return t
	}
	m := isa.ParseMods(in.Mods)
	return decodedTiming(t, isa.Lookup(in.Op), &m) // program.go
}
