package timing

import (
	"testing"

	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// TestWgmmaTiming: wgmma.mma_async occupies the tensor pipe N/2 cycles; the other wgmma
// instructions and mma keep the table's timing.
func TestWgmmaTiming(t *testing.T) {
	tab, err := latency.For("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	mk := func(op string, mods ...string) *ptx.Inst { return &ptx.Inst{Op: op, Mods: mods} }
	cases := []struct {
		in          *ptx.Inst
		issue, late int
	}{
		{mk("wgmma", "mma_async", "sync", "aligned", "m64n64k16", "f32", "f16", "f16"), 32, wgmmaLatency},
		{mk("wgmma", "mma_async", "sync", "aligned", "m64n256k16", "f32", "bf16", "bf16"), 128, wgmmaLatency},
		{mk("wgmma", "mma_async", "sync", "aligned", "m64n8k8", "f32", "tf32", "tf32"), 4, wgmmaLatency},
	}
	for _, c := range cases {
		got := wgmmaTiming(tab.Lookup(c.in), c.in)
		if got.IssueCycles != c.issue || got.Latency != c.late || got.Pipe != latency.PipeTensor {
			t.Errorf("%v: %+v, want issue %d latency %d on the tensor pipe", c.in.Mods, got, c.issue, c.late)
		}
	}
	for _, in := range []*ptx.Inst{mk("wgmma", "fence", "sync", "aligned"), mk("mma", "sync", "aligned", "m16n8k16", "row", "col", "f32", "f16", "f16", "f32")} {
		if got, want := wgmmaTiming(tab.Lookup(in), in), tab.Lookup(in); got != want {
			t.Errorf("%s: %+v, want the table's %+v", in.Op, got, want)
		}
	}
}
