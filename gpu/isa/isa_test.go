package isa

import (
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// TestOpcodesMatchParser: the enum names exactly the opcodes the parser accepts.
func TestOpcodesMatchParser(t *testing.T) {
	ops := ptx.Opcodes()
	if len(ops) != int(NumOpcodes)-1 {
		t.Fatalf("%d parser opcodes, %d in the enum", len(ops), NumOpcodes-1)
	}
	for _, name := range ops {
		o := Lookup(name)
		if o == OpInvalid || o.String() != name {
			t.Errorf("opcode %q: Lookup gives %v (%q)", name, o, o.String())
		}
	}
	if Lookup("nosuchop") != OpInvalid {
		t.Error("an unknown name has an opcode")
	}
}

const src = `.version 8.0
.target sm_90
.address_size 64

.func (.param .b32 r) helper(.param .b32 a)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [a];
	add.s32 %r2, %r1, 1;
	st.param.b32 [r], %r2;
	ret;
}

.visible .entry k(.param .u64 p)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [p];
	ld.global.cg.v2.u32 {%r1, %r2}, [%rd1+8];
	setp.lt.u32 %p1, %r1, %r2;
	@!%p1 st.shared::cluster.u32 [%rd1], %r1;
	bar.arrive 1, 64;
	ret;
}
`

// TestDecode checks the fields of a small program: PCs (implicit returns
// included), parsed modifiers, register ids shared within a function and
// kept apart between functions, guards and classes.
func TestDecode(t *testing.T) {
	m, err := ptx.Parse("t.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var k, h *ptx.Func
	for _, f := range m.Funcs {
		switch f.Name {
		case "k":
			k = f
		case "helper":
			h = f
		}
	}
	p, err := Decode(k, h)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Insts) != len(k.Insts)+1+len(h.Insts)+1 || len(p.Funcs) != 2 || p.Funcs[1].Base != int32(len(k.Insts)+1) {
		t.Fatalf("%d insts, funcs %+v", len(p.Insts), p.Funcs)
	}
	ld := p.Insts[1]
	if ld.Op != OpLd || ld.Mods.Space != ptx.SpaceGlobal || ld.Mods.Cache != mem.CG || ld.Mods.Vec != 2 || ld.Mods.Type != ptx.U32 ||
		ld.Width() != 8 || ld.Class != latency.ClassLdGlobal || len(ld.Dst) != 2 || len(ld.Src) != 1 || ld.Text != "ld.global.cg.v2.u32" {
		t.Errorf("ld decoded as %+v", ld)
	}
	if ld.Src[0] != p.Insts[0].Dst[0] {
		t.Errorf("%%rd1 has ids %d and %d", p.Insts[0].Dst[0], ld.Src[0])
	}
	st := p.Insts[3]
	if st.Op != OpSt || st.Mods.Space != ptx.SpaceSharedCluster || st.Guard < 0 || !st.GuardNeg || st.Guard != p.Insts[2].Dst[0] || len(st.Dst) != 0 {
		t.Errorf("guarded st decoded as %+v", st)
	}
	if b := p.Insts[4]; b.Op != OpBar || !b.NoWait {
		t.Errorf("bar.arrive decoded as %+v", b)
	}
	if e := p.Insts[len(k.Insts)]; !e.Implicit || e.Op != OpExit || e.Func != 0 {
		t.Errorf("kernel's implicit end %+v", e)
	}
	if e := p.Insts[len(p.Insts)-1]; !e.Implicit || e.Op != OpRet || e.Func != 1 {
		t.Errorf("helper's implicit end %+v", e)
	}
	// %r1 of the kernel and %r1 of helper are different registers.
	hr1 := p.Insts[p.Funcs[1].Base].Dst[0]
	if hr1 == ld.Dst[0] || p.RegNames[hr1] != "helper:%r1" {
		t.Errorf("helper's %%r1 is id %d (%s), the kernel's %d", hr1, p.RegNames[hr1], ld.Dst[0])
	}
	if m := p.Insts[p.Funcs[1].Base+1].Mods; len(m.Words) != 0 || len(m.Types) != 1 || m.Types[0] != ptx.S32 {
		t.Errorf("add.s32 parsed as %+v", m)
	}
	if w := ld.Mods.Words; strings.Join(w, ".") != "global.cg.v2" {
		t.Errorf("ld words %v", w)
	}
	if _, err := Decode(); err == nil {
		t.Error("Decode of nothing did not fail")
	}
}
