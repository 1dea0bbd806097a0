package ptx

import (
	"math"
	"reflect"
	"testing"
)

const handPTX = `
.version 8.5
.target sm_90a, texmode_independent, debug
.address_size 64
.file 1 "a.cu", 1700000000, 1234
.file 2 "b.h"
.global .align 4 .u32 gtab[4] = {1, 0x10, 017, 0b101};
.const .f32 cval = 0f3F800000;
.extern .shared .align 16 .b8 dyn[];
.global .u64 gp = generic(gtab);
.global .u8 bytes[6] = {0xff(gtab), 0xff00(gtab+4), 0xff(generic(gtab)), 0xff00(generic(gtab)+4), 0xFF(1000 + 546), (1 << 4) * 3 - 2};
.extern .func (.param .b32 r) ext (.param .b32 a, .param .align 8 .b8 blob[16]) .noreturn;

.visible .func (.param .b32 out) helper (.param .b32 in)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [in];
	st.param.b32 [out], %r1;
	ret;
}

.visible .entry k(.param .u64 .ptr .global .align 16 p, .param .u32 n)
.maxntid 256, 1, 1 .minnctapersm 2
{
	.reg .pred %p<3>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<4>;
	.reg .f32 %f<4>;
	.reg .v4 .f32 %v;
	.shared .align 4 .f32 tile[32][33];
	.loc 1 7 3
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %laneid;
	mov.u64 %rd1, %clock64;
	mov.u32 %r3, %envreg3;
	add.s32 %r4, %r1, -7;
	add.u32 %r4, %r4, 4294967295U;
	mov.f32 %f1, 0fBF800000;
	mov.f64 %rd2, 0d3FF0000000000000;
	mov.f32 %f2, 1.5;
	ld.global.nc.v4.f32 {%f0, %f1, %f2, %f3}, [%rd1+8];
	st.shared.v2.f32 [tile+4], {%f1, _};
	ld.shared.f32 %f3, [tile];
	ld.global.u32 %r5, [%rd1+-4];
	.loc 2 12 1, function_name $L__s0, inlined_at 1 9 5
	setp.lt.s32 %p1|%p2, %r1, %r2;
	@!%p1 bra $L_done;
	{
	.reg .b32 t<2>;
	.param .b32 param0;
	.param .b32 retval0;
	st.param.b32 [param0], %r1;
	call.uni (retval0), 
		helper, 
		(param0);
	ld.param.b32 t0, [retval0];
	}
	mov.b32 %r6, %v.x;
	selp.b32 %r7, 1, 0, !%p2;
	neg.f32 %f0, -%f1;
$L_done:
	ret;
}
	.section	.debug_str
	{
$L__s0:
.b8 104,105,0
	}
`

func TestParseHand(t *testing.T) {
	m, err := Parse("hand.ptx", []byte(handPTX))
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != "8.5" || !reflect.DeepEqual(m.Target, []string{"sm_90a", "texmode_independent", "debug"}) || m.AddressSize != 64 {
		t.Errorf("header: %q %q %d", m.Version, m.Target, m.AddressSize)
	}
	if len(m.Files) != 2 || m.Files[0].Timestamp != 1700000000 || m.Files[0].Size != 1234 || m.Files[1].Name != "b.h" {
		t.Errorf("files: %+v", m.Files)
	}
	if len(m.Globals) != 5 {
		t.Fatalf("globals: %d", len(m.Globals))
	}
	g := m.Globals[0]
	var ints []int64
	for _, e := range g.Init.Elems {
		ints = append(ints, e.Value.Imm)
	}
	if !reflect.DeepEqual(ints, []int64{1, 16, 15, 5}) || g.Size() != 16 || g.Align != 4 {
		t.Errorf("gtab init %v size %d", ints, g.Size())
	}
	if m.Globals[1].Init.Value.Bits != 0x3F800000 || m.Globals[1].Init.Value.FloatBits != 32 {
		t.Errorf("cval: %+v", m.Globals[1].Init.Value)
	}
	if d := m.Globals[2]; d.Linkage != Extern || d.Dims[0] != -1 || d.Size() != 0 || d.Space != SpaceShared {
		t.Errorf("dyn: %+v", d)
	}
	if v := m.Globals[3].Init.Value; v.Kind != OpSym || !v.Generic || v.Name != "gtab" {
		t.Errorf("generic init: %+v", v)
	}
	b := m.Globals[4].Init.Elems
	if v := b[1].Value; v.Kind != OpMask || v.Imm != 0xff00 || v.Elems[0].Name != "gtab" || v.Elems[0].Imm != 4 || v.Elems[0].Generic {
		t.Errorf("mask of sym+4: %+v", v)
	}
	if v := b[3].Value; v.Kind != OpMask || !v.Elems[0].Generic || v.Elems[0].Imm != 4 {
		t.Errorf("mask of generic+4: %+v", v)
	}
	if v := b[4].Value; v.Kind != OpMask || v.Imm != 0xff || v.Elems[0].Kind != OpImm || v.Elems[0].Imm != 1546 {
		t.Errorf("mask of expression: %+v", v)
	}
	if v := b[5].Value; v.Kind != OpImm || v.Imm != 46 {
		t.Errorf("constant expression: %+v", v)
	}
	ext := m.Func("ext")
	if ext == nil || ext.HasBody || !ext.NoReturn || ext.Linkage != Extern || ext.Params[1].ArrayLen != 16 || ext.Params[1].Align != 8 || ext.Params[1].Size() != 16 {
		t.Errorf("ext: %+v", ext)
	}
	ks := m.Kernels()
	if len(ks) != 1 || ks[0].Name != "k" {
		t.Fatalf("kernels: %v", ks)
	}
	k := ks[0]
	if p := k.Params[0]; !p.Ptr || p.PtrSpace != SpaceGlobal || p.PtrAlign != 16 || p.Type != U64 {
		t.Errorf("ptr param: %+v", p)
	}
	if k.MaxNTid != [3]int{256, 1, 1} || k.MinNCTAPerSM != 2 {
		t.Errorf("perf: %v %d", k.MaxNTid, k.MinNCTAPerSM)
	}
	if len(k.Vars) != 3 || k.Vars[0].Size() != 32*33*4 {
		t.Errorf("vars: %d", len(k.Vars))
	}
	in := func(i int) *Inst { return k.Insts[i] }
	arg := func(i, j int) Operand { return k.Insts[i].Args[j] }
	if a := arg(0, 1); a.Kind != OpSpecial || a.Name != "%tid" || a.Comp != "x" {
		t.Errorf("tid: %+v", a)
	}
	if in(0).Loc.File != 1 || in(0).Loc.Line != 7 || in(0).Loc.Col != 3 {
		t.Errorf("loc: %+v", in(0).Loc)
	}
	if a := arg(1, 1); a.Kind != OpSpecial || a.Name != "%laneid" || a.Comp != "" {
		t.Errorf("laneid: %+v", a)
	}
	if a := arg(3, 1); a.Kind != OpSpecial || a.Name != "%envreg3" {
		t.Errorf("envreg: %+v", a)
	}
	if a := arg(4, 2); a.Kind != OpImm || a.Imm != -7 {
		t.Errorf("neg imm: %+v", a)
	}
	if a := arg(5, 2); a.Kind != OpImm || a.Imm != math.MaxUint32 {
		t.Errorf("U imm: %+v", a)
	}
	if a := arg(6, 1); a.Kind != OpFloat || a.Bits != 0xBF800000 || a.FloatBits != 32 {
		t.Errorf("0f: %+v", a)
	}
	if a := arg(7, 1); a.Kind != OpFloat || a.Bits != math.Float64bits(1) || a.FloatBits != 64 {
		t.Errorf("0d: %+v", a)
	}
	if a := arg(8, 1); a.Kind != OpFloat || a.Bits != math.Float64bits(1.5) || a.FloatBits != 64 {
		t.Errorf("decimal: %+v", a)
	}
	if i := in(9); i.Op != "ld" || !reflect.DeepEqual(i.Mods, []string{"global", "nc", "v4", "f32"}) ||
		i.Args[0].Kind != OpVec || len(i.Args[0].Elems) != 4 || i.Args[1].Kind != OpAddr || !i.Args[1].BaseReg || i.Args[1].Imm != 8 {
		t.Errorf("ld.v4: %+v", i)
	}
	if a := arg(10, 0); a.Kind != OpAddr || a.BaseReg || a.Name != "tile" || a.Imm != 4 {
		t.Errorf("[tile+4]: %+v", a)
	}
	if a := arg(10, 1); a.Elems[1].Kind != OpSink {
		t.Errorf("sink: %+v", a)
	}
	if a := arg(12, 1); a.Imm != -4 {
		t.Errorf("[+-4]: %+v", a)
	}
	if i := in(13); i.Args[0].Kind != OpPair || i.Args[0].Elems[1].Name != "%p2" || i.Loc.Func != "$L__s0" || i.Loc.InlinedLine != 9 || i.Loc.Line != 12 {
		t.Errorf("setp pair/loc: %+v", i)
	}
	if i := in(14); i.Guard != "%p1" || !i.GuardNeg || i.Args[0].Kind != OpLabel || i.Args[0].Name != "$L_done" {
		t.Errorf("guarded bra: %+v", i)
	}
	if i := in(16); i.Op != "call" || len(i.Args) != 3 || i.Args[0].Kind != OpList || i.Args[1].Kind != OpSym || i.Args[1].Name != "helper" || i.Args[2].Elems[0].Name != "param0" {
		t.Errorf("call: %+v", i)
	}
	if a := arg(17, 0); a.Kind != OpReg || a.Name != "t0" {
		t.Errorf("plain reg: %+v", a)
	}
	if a := arg(18, 1); a.Kind != OpReg || a.Name != "%v" || a.Comp != "x" {
		t.Errorf("vector comp: %+v", a)
	}
	if a := arg(19, 3); !a.Not || a.Kind != OpReg {
		t.Errorf("!p: %+v", a)
	}
	if a := arg(20, 1); !a.Neg || a.Kind != OpReg {
		t.Errorf("-f: %+v", a)
	}
	if len(k.Labels) != 1 || k.Labels[0].Index != 21 || len(k.Insts) != 22 {
		t.Errorf("labels %+v, %d insts", k.Labels, len(k.Insts))
	}
	if s, ok := m.DebugString("$L__s0"); !ok || s != "hi" {
		t.Errorf("debug string %q %v", s, ok)
	}
}

func TestParseTexture(t *testing.T) {
	src := `.version 8.0
.target sm_80
.address_size 64
.global .texref tex0;
.entry k(.param .u64 p, .param .samplerref smp)
{
	.reg .f32 %f<8>;
	.reg .b64 %rd<2>;
	tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [tex0, {%f4, %f5}];
	ret;
}
`
	m, err := Parse("tex.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if m.Globals[0].Type != TexRef || m.Func("k").Params[1].Type != SamplerRef {
		t.Errorf("handle types: %v %v", m.Globals[0].Type, m.Func("k").Params[1].Type)
	}
	a := m.Func("k").Insts[0].Args[1]
	if a.Kind != OpAddr || a.Name != "tex0" || len(a.Elems) != 1 || a.Elems[0].Kind != OpVec || len(a.Elems[0].Elems) != 2 {
		t.Errorf("tex address: %+v", a)
	}
	roundTrip(t, "tex.ptx", []byte(src))
}

func TestSymbolOffsetOperand(t *testing.T) {
	m, err := Parse("off.ptx", []byte(wrapBody("\t.shared .b8 arr[64];\n\tmov.u32 %r1, arr+8;\n\tmov.u32 %r2, arr-4;")))
	if err != nil {
		t.Fatal(err)
	}
	a, b := m.Func("k").Insts[0].Args[1], m.Func("k").Insts[1].Args[1]
	if a.Kind != OpSym || a.Imm != 8 || b.Imm != -4 {
		t.Errorf("%+v %+v", a, b)
	}
	roundTrip(t, "off.ptx", []byte(wrapBody("\t.shared .b8 arr[64];\n\tmov.u32 %r1, arr+8;\n\tmov.u32 %r2, arr-4;")))
}

func TestByteOrderMarkAndCRLF(t *testing.T) {
	src := "\xEF\xBB\xBF.version 8.0\r\n.target sm_80\r\n.entry k()\r\n{\r\n\tret;\r\n}\r\n"
	m, err := Parse("bom.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != "8.0" || m.Func("k").Insts[0].Pos != (Pos{5, 2}) {
		t.Errorf("version %q, ret at %v", m.Version, m.Func("k").Insts[0].Pos)
	}
}

func TestIndirectCall(t *testing.T) {
	src := `.version 8.0
.target sm_80
.address_size 64
.func (.param .b32 r) f1 (.param .b32 a) { ret; }
.func (.param .b32 r) f2 (.param .b32 a) { ret; }
.entry k(.param .u64 p)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	proto: .callprototype (.param .b32 _) _ (.param .b32 _);
	fl: .calltargets f1, f2;
	mov.u64 %rd1, f2;
	{
	.param .b32 param0;
	.param .b32 retval0;
	st.param.b32 [param0], %r1;
	call (retval0), %rd1, (param0), fl;
	call (retval0), %rd1, (param0), proto;
	ld.param.b32 %r2, [retval0];
	}
	ret;
}
`
	m, err := Parse("icall.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	k := m.Func("k")
	if len(k.Protos) != 1 || len(k.Protos[0].Params) != 1 || len(k.Protos[0].Rets) != 1 || k.Protos[0].Name != "proto" {
		t.Errorf("prototype: %+v", k.Protos)
	}
	if len(k.Targets) != 1 || !k.Targets[0].Call || len(k.Targets[0].Labels) != 2 {
		t.Errorf("calltargets: %+v", k.Targets)
	}
	if a := k.Insts[0].Args[1]; a.Kind != OpSym || a.Name != "f2" {
		t.Errorf("function address: %+v", a)
	}
	c := k.Insts[2]
	if c.Args[1].Kind != OpReg || c.Args[3].Kind != OpLabel || c.Args[3].Name != "fl" || k.Insts[3].Args[3].Name != "proto" {
		t.Errorf("indirect call: %+v", c)
	}
	if v := k.LookupVar("retval0", 4); v == nil || v.Space != SpaceParam {
		t.Errorf("LookupVar: %+v", v)
	}
	roundTrip(t, "icall.ptx", []byte(src))
}

func TestLookupVarScopes(t *testing.T) {
	m, err := Parse("scopes.ptx", []byte(wrapBody(`	{
	.param .b32 retval0;
	ld.param.b32 %r1, [retval0];
	}
	{
	.param .align 8 .b8 retval0[16];
	ld.param.b32 %r2, [retval0+8];
	}`)))
	if err != nil {
		t.Fatal(err)
	}
	k := m.Func("k")
	if v := k.LookupVar("retval0", 0); v == nil || v.Size() != 4 {
		t.Errorf("first scope: %+v", v)
	}
	if v := k.LookupVar("retval0", 1); v == nil || v.Size() != 16 {
		t.Errorf("second scope: %+v", v)
	}
	if v := k.LookupVar("nothing", 1); v != nil {
		t.Errorf("unknown name: %+v", v)
	}
}
