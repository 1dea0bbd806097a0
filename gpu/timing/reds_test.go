package timing

import (
	"testing"

	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// TestRedsAndUniformAdds: an atom whose result nothing reads is a RED (no
// destination for the scoreboard), one whose result is read is not; an add is
// aggregated only when ptxas can prove its address uniform (a kernel parameter
// plus uniform arithmetic), not when it comes from %tid or a load.
func TestRedsAndUniformAdds(t *testing.T) {
	src := `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p, .param .u64 q)
{
	.reg .b32 %r<10>;
	.reg .b64 %rd<10>;
	ld.param.u64 %rd1, [p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %ctaid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd2, %rd3;
	atom.global.add.u32 %r2, [%rd4], 1;
	mov.u32 %r3, %tid.x;
	mul.wide.u32 %rd5, %r3, 4;
	add.s64 %rd6, %rd2, %rd5;
	atom.global.add.u32 %r4, [%rd6], 1;
	ld.global.u32 %r5, [%rd2];
	mul.wide.u32 %rd7, %r5, 4;
	add.s64 %rd8, %rd2, %rd7;
	atom.global.add.u32 %r6, [%rd8], 1;
	add.s32 %r7, %r6, %r4;
	st.global.u32 [%rd2], %r7;
	ret;
}
`
	m, err := ptx.Parse("k.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := latency.For("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewProgram(m.Funcs[0], tab)
	if err != nil {
		t.Fatal(err)
	}
	var atoms []Inst
	for _, in := range p.Insts {
		if in.Dec != nil && in.Dec.PTX != nil && in.Dec.PTX.Op == "atom" {
			atoms = append(atoms, in)
		}
	}
	if len(atoms) != 3 {
		t.Fatalf("%d atoms, want 3", len(atoms))
	}
	want := []struct{ red, agg bool }{{true, true}, {false, false}, {false, false}}
	for i, w := range want {
		a := atoms[i]
		if a.Red != w.red || (len(a.Dst) == 0) != w.red || a.AggregatedAdd != w.agg {
			t.Errorf("atom %d (line %d): Red %v, Dst %v, AggregatedAdd %v; want Red %v, AggregatedAdd %v", i+1, a.Line, a.Red, a.Dst, a.AggregatedAdd, w.red, w.agg)
		}
	}
}
