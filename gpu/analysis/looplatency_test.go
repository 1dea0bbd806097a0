package analysis

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/launch"
)

// chasePTX is a loop of dependent global loads, idx = buf[idx], unrolled
// `unroll` times inside the loop body; n is the number of loads. The loads
// carry the cache operator op ("" or ".cg").
func chasePTX(unroll int, op string) string {
	var body strings.Builder
	for i := 0; i < unroll; i++ {
		fmt.Fprintf(&body, "\tmul.wide.u32 %%rd3, %%r2, 4;\n\tadd.s64 %%rd4, %%rd2, %%rd3;\n\tld.global%s.u32 %%r2, [%%rd4];\n", op)
	}
	return fmt.Sprintf(`.version 8.0
.target sm_90
.address_size 64

.visible .entry chase(.param .u64 chase_param_0, .param .u32 chase_param_1, .param .u64 chase_param_2)
{
	.reg .pred %%p<2>;
	.reg .b32 %%r<8>;
	.reg .b64 %%rd<8>;
	ld.param.u64 %%rd1, [chase_param_0];
	ld.param.u32 %%r1, [chase_param_1];
	ld.param.u64 %%rd5, [chase_param_2];
	cvta.to.global.u64 %%rd2, %%rd1;
	mov.u32 %%r2, 0;
	mov.u32 %%r3, 0;
$L_loop:
%s	add.s32 %%r3, %%r3, %d;
	setp.lt.u32 %%p1, %%r3, %%r1;
	@%%p1 bra $L_loop;
	cvta.to.global.u64 %%rd6, %%rd5;
	st.global.u32 [%%rd6], %%r2;
	ret;
}
`, body.String(), unroll)
}

// chaseCycles runs the chase kernel for one warp and returns the modelled
// kernel cycles (launch overhead excluded) and the report's L1 hit rate.
func chaseCycles(t *testing.T, unroll int, op string, loads int) (int64, float64) {
	t.Helper()
	l := &launch.Launch{Kernel: "chase", Args: []launch.Arg{
		{Init: &launch.Init{Func: "zeros", N: 64, Type: "u32"}},
		{Scalar: fmt.Sprint(loads)},
		{Init: &launch.Init{Func: "zeros", N: 1, Type: "u32"}},
	}}
	rep, err := Run(context.Background(), Request{Source: []byte(chasePTX(unroll, op)), SourceFile: "chase.ptx", IsPTX: true, Arch: "sm_90",
		Launch: l, Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Timing: true, Trace: launch.Trace{Steps: -1}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Timing == nil || rep.Memory == nil {
		t.Fatalf("no timing or memory in the report (notes %v)", rep.Notes)
	}
	return rep.Timing.KernelCycles, rep.Memory.L1HitRate
}

// TestLoopLoadLatencyPerIteration is issue 14's reproduction: a loop whose
// body has one memory instruction must pay that instruction's latency on
// every iteration, so the rolled loop and the loop unrolled ×2 cost the same
// per dependent load, and at least the model's load-to-use latency for where
// the loads were served. The per-load cost is the difference between 512
// and 256 loads over 256, which cancels the launch's ramp-up and drain.
func TestLoopLoadLatencyPerIteration(t *testing.T) {
	tab, err := latency.For("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		op    string
		where string
		lat   int
	}{{"", "L1", tab.Mem.L1Hit}, {".cg", "L2", tab.Mem.L2Hit}} {
		var per [2]float64
		for i, unroll := range []int{1, 2} {
			c256, hit := chaseCycles(t, unroll, c.op, 256)
			c512, _ := chaseCycles(t, unroll, c.op, 512)
			per[i] = float64(c512-c256) / 256
			t.Logf("ld.global%s unrolled x%d: %d cycles for 256 loads, %d for 512: %.2f cycles per load (L1 hit rate %.1f%%)", c.op, unroll, c256, c512, per[i], 100*hit)
			if c.where == "L1" && hit < 0.9 {
				t.Errorf("ld.global%s: L1 hit rate %.3f; the loads of one address should hit L1", c.op, hit)
			}
			if c.where == "L2" && hit > 0.01 {
				t.Errorf("ld.global%s: L1 hit rate %.3f; .cg loads should not hit L1", c.op, hit)
			}
			if per[i] < float64(c.lat) {
				t.Errorf("ld.global%s unrolled x%d: %.2f cycles per dependent load, below the model's %s hit latency %d", c.op, unroll, per[i], c.where, c.lat)
			}
		}
		// Tolerance: both loops run the same dependent chain per load
		// (mul.wide, add, ld); the rolled loop issues its three loop-control
		// instructions once per load, the unrolled one once per two, and
		// those only overlap the load's latency. 2% is well inside the
		// difference the bug made (a factor of 2).
		if d := math.Abs(per[0]-per[1]) / per[1]; d > 0.02 {
			t.Errorf("ld.global%s: %.2f cycles per load rolled, %.2f unrolled x2 (%.1f%% apart)", c.op, per[0], per[1], 100*d)
		}
	}
}

// chaseFuncPTX is chasePTX's rolled loop inside a device function the kernel calls.
const chaseFuncPTX = `.version 8.0
.target sm_90
.address_size 64

.func (.param .b32 r) walk(.param .b64 base, .param .b32 n)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd2, [base];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, 0;
	mov.u32 %r3, 0;
$L_loop:
	mul.wide.u32 %rd3, %r2, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u32 %r2, [%rd4];
	add.s32 %r3, %r3, 1;
	setp.lt.u32 %p1, %r3, %r1;
	@%p1 bra $L_loop;
	st.param.b32 [r], %r2;
	ret;
}

.visible .entry chase(.param .u64 chase_param_0, .param .u32 chase_param_1, .param .u64 chase_param_2)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [chase_param_0];
	ld.param.u32 %r1, [chase_param_1];
	ld.param.u64 %rd5, [chase_param_2];
	cvta.to.global.u64 %rd2, %rd1;
	{
	.param .b64 a0;
	.param .b32 a1;
	.param .b32 r0;
	st.param.b64 [a0], %rd2;
	st.param.b32 [a1], %r1;
	call.uni (r0), walk, (a0, a1);
	ld.param.b32 %r2, [r0];
	}
	cvta.to.global.u64 %rd6, %rd5;
	st.global.u32 [%rd6], %r2;
	ret;
}
`

// TestDeviceFunctionsTimed: with one decoded program the model times the
// instructions of device functions too (PCs are the simulator's): every
// issued warp-instruction is timed, and a dependent-load loop in a device
// function costs per load what the same loop costs in the kernel.
func TestDeviceFunctionsTimed(t *testing.T) {
	run := func(loads int) (int64, int64, int64, []string) {
		l := &launch.Launch{Kernel: "chase", Args: []launch.Arg{
			{Init: &launch.Init{Func: "zeros", N: 64, Type: "u32"}},
			{Scalar: fmt.Sprint(loads)},
			{Init: &launch.Init{Func: "zeros", N: 1, Type: "u32"}},
		}}
		rep, err := Run(context.Background(), Request{Source: []byte(chaseFuncPTX), SourceFile: "chase.ptx", IsPTX: true, Arch: "sm_90",
			Launch: l, Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Timing: true, Trace: launch.Trace{Steps: -1}})
		if err != nil {
			t.Fatal(err)
		}
		return rep.Timing.KernelCycles, rep.Timing.Issued, rep.Stats.WarpInstructions, rep.Notes
	}
	c256, issued, warpInsts, notes := run(256)
	c512, _, _, _ := run(512)
	if issued != warpInsts {
		t.Errorf("the model issued %d warp-instructions, the simulator executed %d (notes %v)", issued, warpInsts, notes)
	}
	per := float64(c512-c256) / 256
	k256, _ := chaseCycles(t, 1, "", 256)
	k512, _ := chaseCycles(t, 1, "", 512)
	inKernel := float64(k512-k256) / 256
	if math.Abs(per-inKernel) > 0.02*inKernel {
		t.Errorf("%.2f cycles per dependent load in a device function, %.2f in the kernel", per, inKernel)
	}
	t.Logf("per dependent load: %.2f cycles in a device function, %.2f in the kernel", per, inKernel)
}
