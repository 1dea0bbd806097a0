package sim

import (
	"context"
	"testing"
)

// TestDecodedPCsAreLaunchPCs: the decoded program (sim.Decode) numbers its
// instructions as the launch does, device functions and implicit returns
// included, so an issue log's PCs index it directly; a launch given it
// gives the same results as one that decodes by itself.
func TestDecodedPCsAreLaunchPCs(t *testing.T) {
	src := header + `
.func (.param .b32 ret) twice(.param .b32 n)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [n];
	add.u32 %r2, %r1, %r1;
	st.param.b32 [ret], %r2;
	ret;
}
` + kernelHead + `
	{
	.param .b32 a0;
	.param .b32 r0;
	st.param.b32 [a0], %r1;
	call.uni (r0), twice, (a0);
	ld.param.b32 %r2, [r0];
	}
` + storeTail
	m := parseSrc(t, src)
	dec, err := Decode(m, "k")
	if err != nil {
		t.Fatal(err)
	}
	var pcs []int32
	cfg := Config{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Decoded: dec, Issues: func(_ int, warps [][]Issue) {
		for _, is := range warps[0] {
			pcs = append(pcs, is.PC)
		}
	}}
	res, err := Launch(context.Background(), m, "k", []Arg{{Buffer: make([]byte, 128)}}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Insts) != len(dec.Insts) {
		t.Fatalf("launch has %d PCs, the decoded program %d", len(res.Insts), len(dec.Insts))
	}
	for pc, st := range res.Insts {
		d := dec.Insts[pc]
		if st.Line != d.Line || st.Index != int(d.Index) || st.Func != dec.Funcs[d.Func].F.Name {
			t.Errorf("pc %d: launch %s:%d line %d, decoded %s:%d line %d", pc, st.Func, st.Index, st.Line, dec.Funcs[d.Func].F.Name, d.Index, d.Line)
		}
	}
	inHelper := false
	for _, pc := range pcs {
		if dec.Insts[pc].Func == 1 {
			inHelper = true
		}
	}
	if !inHelper {
		t.Errorf("no issue in the device function: %v", pcs)
	}
	res2, err := Launch(context.Background(), m, "k", []Arg{{Buffer: make([]byte, 128)}}, Config{Grid: cfg.Grid, Block: cfg.Block})
	if err != nil {
		t.Fatal(err)
	}
	if string(res2.Buffers[0]) != string(res.Buffers[0]) || res2.Stats != res.Stats {
		t.Error("a launch given the decoded program differs from one that decoded by itself")
	}
	if _, err := Decode(m, "nosuch"); err == nil {
		t.Error("Decode of a missing kernel did not fail")
	}
}
