package timing

import (
	"fmt"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/latency"
)

// TestSASSPipeSplit: an instruction whose SASS sequence is split over pipes (Inst.SASSPipes)
// takes its Issues slots, busies each pipe for its own SASS instructions only (one SASS
// issue interval each), and independent copies are spaced by the busiest pipe, not by
// Issues intervals of the PTX instruction's pipe.
func TestSASSPipeSplit(t *testing.T) {
	body := make([]string, 10)
	for i := range body {
		body[i] = fmt.Sprintf("ex2.approx.f32 %%f%d, %%f40;", i) // independent, XU
	}
	whole := kernel(t, "sm_90", body...)
	split := kernel(t, "sm_90", body...)
	for i := range whole.Insts {
		whole.Insts[i].Issues = 4
		split.Insts[i].Issues = 4 // FSETP, FMUL, MUFU, FMUL
		split.Insts[i].SASSPipes[latency.PipeINT] = 1
		split.Insts[i].SASSPipes[latency.PipeFP32] = 2
		split.Insts[i].SASSPipes[latency.PipeSFU] = 1
	}
	a, b := runOne(t, whole), runOne(t, split)
	if a.Issued != 40 || b.Issued != 40 {
		t.Fatalf("issued %d and %d, want 40 each", a.Issued, b.Issued)
	}
	sfu := split.SASSInterval(latency.PipeSFU)
	if b.PipeBusy[latency.PipeSFU] != 10*sfu || b.PipeBusy[latency.PipeFP32] != 20*split.SASSInterval(latency.PipeFP32) ||
		b.PipeBusy[latency.PipeINT] != 10*split.SASSInterval(latency.PipeINT) {
		t.Errorf("split pipe busy %v, want SFU %d, FP32 %d, INT %d", b.PipeBusy, 10*sfu, 20*split.SASSInterval(latency.PipeFP32), 10*split.SASSInterval(latency.PipeINT))
	}
	if a.PipeBusy[latency.PipeSFU] != 40*int64(whole.Insts[0].Timing.IssueCycles) {
		t.Errorf("unsplit SFU busy %d, want 4 slots x %d", a.PipeBusy[latency.PipeSFU], whole.Insts[0].Timing.IssueCycles)
	}
	// one warp: the split copies are spaced by max(4 slots, the SFU interval), the unsplit
	// ones by 4 SFU intervals
	if sfu*4 > 4 && b.Cycles >= a.Cycles {
		t.Errorf("split: %d cycles, not fewer than unsplit %d", b.Cycles, a.Cycles)
	}
	if want := 9*max(4, sfu) + 3 + int64(split.Insts[0].Timing.Latency); b.Cycles < want-2 || b.Cycles > want+2 {
		t.Errorf("split: %d cycles, want about %d (9 spacings of %d, 3 more slots, latency %d)", b.Cycles, want, max(4, sfu), split.Insts[0].Timing.Latency)
	}
}
