package latency

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

func TestEveryArchHasASaneTable(t *testing.T) {
	for _, a := range Archs() {
		tab, err := For(a)
		if err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		if tab.Arch != a || tab.SMs <= 0 || tab.ClockMHz <= 0 {
			t.Errorf("%s: header %+v", a, tab)
		}
		m := tab.Mem
		if !(m.Shared > 0 && m.Shared < m.L1Hit && m.L1Hit < m.L2Hit && m.L2Hit < m.DRAM) {
			t.Errorf("%s: memory latencies not ordered shared < L1 < L2 < DRAM: %+v", a, m)
		}
		if !(m.DRAMBytesPerCycle > 0 && m.L2BytesPerCycle > m.DRAMBytesPerCycle && m.L1BytesPerCycle > 0) {
			t.Errorf("%s: bandwidths %+v", a, m)
		}
		if tab.Bar.ArriveCycles <= 0 || tab.Bar.ReleaseCycles <= 0 {
			t.Errorf("%s: barrier %+v", a, tab.Bar)
		}
		for c := Class(0); c < NumClasses; c++ {
			tm := tab.ClassTiming(c)
			if tm.Class != c || tm.IssueCycles < 1 || tm.Latency < 0 || tm.Pipe >= NumPipes {
				t.Errorf("%s %s: %+v", a, c, tm)
			}
			if c.String() == "" || strings.HasPrefix(c.String(), "Class(") {
				t.Errorf("class %d has no name", c)
			}
		}
		if tab.ClassTiming(ClassLdGlobal).Latency != m.L1Hit || tab.ClassTiming(ClassLdShared).Latency != m.Shared {
			t.Errorf("%s: load classes disagree with the memory table", a)
		}
	}
	if _, err := For("sm_87"); err == nil {
		t.Error("sm_87 has no table but For accepted it")
	}
	if _, err := For("bogus"); err == nil {
		t.Error("bogus architecture accepted")
	}
	if tab, err := For("sm_90a"); err != nil || tab.Arch != "sm_90" {
		t.Errorf("sm_90a: %v %v", tab, err)
	}
}

// The architectures differ where the hardware does: FP32 rate on sm_75/80,
// FP64 rate on the consumer parts.
func TestArchDifferences(t *testing.T) {
	issue := func(a string, c Class) int {
		tab, err := For(a)
		if err != nil {
			t.Fatal(err)
		}
		return tab.ClassTiming(c).IssueCycles
	}
	if issue("sm_90", ClassFAdd) != 1 || issue("sm_80", ClassFAdd) != 2 || issue("sm_75", ClassFAdd) != 2 || issue("sm_86", ClassFAdd) != 1 {
		t.Error("FP32 issue intervals do not follow the CPG rates (128 vs 64 per SM per clock)")
	}
	if issue("sm_90", ClassFAdd64) != 2 || issue("sm_80", ClassFAdd64) != 4 || issue("sm_86", ClassFAdd64) != 64 || issue("sm_120", ClassFAdd64) != 64 {
		t.Error("FP64 issue intervals do not follow the CPG rates (64, 32, 2 per SM per clock)")
	}
}

func inst(t *testing.T, line string) *ptx.Inst {
	t.Helper()
	src := ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<8>;\n.reg .f64 %fd<8>;\n.reg .b16 %h<4>;\n" + line + "\n}\n"
	m, err := ptx.Parse("t.ptx", []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	if len(m.Funcs) != 1 || len(m.Funcs[0].Insts) != 1 {
		t.Fatalf("%s: no instruction", line)
	}
	return m.Funcs[0].Insts[0]
}

func TestClassify(t *testing.T) {
	cases := []struct {
		line string
		want Class
	}{
		{"add.f32 %f1, %f2, %f3;", ClassFAdd},
		{"fma.rn.ftz.f32 %f1, %f2, %f3, %f4;", ClassFAdd},
		{"add.f64 %fd1, %fd2, %fd3;", ClassFAdd64},
		{"add.s32 %r1, %r2, %r3;", ClassIAdd},
		{"add.s64 %rd1, %rd2, %rd3;", ClassIAdd64},
		{"mul.wide.s32 %rd1, %r2, %r3;", ClassIMul},
		{"mul.lo.s64 %rd1, %rd2, %rd3;", ClassIMul64},
		{"mad.lo.s32 %r1, %r2, %r3, %r4;", ClassIMul},
		{"min.s32 %r1, %r2, %r3;", ClassIMinMax},
		{"max.f32 %f1, %f2, %f3;", ClassFMinMax},
		{"and.b32 %r1, %r2, %r3;", ClassLogic},
		{"shl.b32 %r1, %r2, 3;", ClassShift},
		{"popc.b32 %r1, %r2;", ClassBitCount},
		{"clz.b32 %r1, %r2;", ClassClz},
		{"rem.u32 %r1, %r2, %r3;", ClassIDiv},
		{"div.rn.f32 %f1, %f2, %f3;", ClassDivRN},
		{"div.full.f32 %f1, %f2, %f3;", ClassDivFull},
		{"div.rn.f64 %fd1, %fd2, %fd3;", ClassDivRN64},
		{"sqrt.rn.f32 %f1, %f2;", ClassSqrtRN},
		{"sqrt.approx.f32 %f1, %f2;", ClassRsqrtApprox},
		{"sqrt.approx.ftz.f32 %f1, %f2;", ClassMufu},
		{"rcp.approx.f32 %f1, %f2;", ClassRcpApprox},
		{"ex2.approx.ftz.f32 %f1, %f2;", ClassMufu},
		{"sin.approx.f32 %f1, %f2;", ClassSinCos},
		{"setp.lt.s32 %p1, %r1, %r2;", ClassSetp},
		{"selp.u32 %r1, %r2, %r3, %p1;", ClassSelp},
		{"cvt.rn.f32.s32 %f1, %r1;", ClassCvt},
		{"cvt.s64.s32 %rd1, %r1;", ClassCvtInt},
		{"mov.u32 %r1, %tid.x;", ClassSReg},
		{"mov.u64 %rd1, %clock64;", ClassClock},
		{"mov.u32 %r1, %r2;", ClassMov},
		{"ld.param.u64 %rd1, [%rd2];", ClassLdParam},
		{"ld.shared.f32 %f1, [%r1];", ClassLdShared},
		{"st.shared.f32 [%r1], %f1;", ClassStShared},
		{"ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];", ClassLdGlobal},
		{"ld.u32 %r1, [%rd1];", ClassLdGlobal},
		{"st.global.f32 [%rd1], %f1;", ClassStGlobal},
		{"atom.shared.add.u32 %r1, [%r2], 1;", ClassAtomShared},
		{"atom.global.add.u32 %r1, [%rd2], 1;", ClassAtomGlobal},
		{"red.global.add.u32 [%rd2], 1;", ClassAtomGlobal},
		{"shfl.sync.down.b32 %r1, %r2, 1, 31, -1;", ClassShfl},
		{"vote.sync.ballot.b32 %r1, %p1, -1;", ClassVote},
		{"bar.sync 0;", ClassBar},
		{"membar.gl;", ClassMembarGL},
		{"fence.acq_rel.cta;", ClassMembarCTA},
		{"ret;", ClassCall},
		{"exit;", ClassExit},
		{"wgmma.fence.sync.aligned;", ClassNop},
		{"wgmma.commit_group.sync.aligned;", ClassNop},
		{"wgmma.wait_group.sync.aligned 0;", ClassNop},
		{"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1, 0, 0;", ClassTensor},
	}
	tab, err := For("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		in := inst(t, c.line)
		if got := Classify(in); got != c.want {
			t.Errorf("%s: class %s, want %s", c.line, got, c.want)
		}
		if got := tab.Lookup(in); got.Class != c.want {
			t.Errorf("%s: Lookup class %s", c.line, got.Class)
		}
	}
	if Classify(nil) != ClassOther || tab.Lookup(nil).Class != ClassOther {
		t.Error("nil instruction")
	}
	var nt *Table
	if nt.ClassTiming(ClassFAdd).IssueCycles != 1 || tab.ClassTiming(NumClasses+3).IssueCycles != 1 {
		t.Error("nil table or bad class must answer a default")
	}
	if Classify(&ptx.Inst{Op: "mov"}) != ClassMov || Classify(&ptx.Inst{Op: "cvt"}) != ClassCvtInt {
		t.Error("instructions without operands or types")
	}
}

// Every instruction of the golden PTX has a class other than the fallback.
func TestGoldenPTXClassified(t *testing.T) {
	files, err := filepath.Glob("../../testdata/golden/ptx/*.ptx")
	if err != nil || len(files) == 0 {
		t.Fatalf("golden PTX: %v (%d files)", err, len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ptx.Parse(f, src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, fn := range m.Funcs {
			for _, in := range fn.Insts {
				if Classify(in) == ClassOther {
					t.Errorf("%s:%d: %s.%s has no timing class", filepath.Base(f), in.Pos.Line, in.Op, strings.Join(in.Mods, "."))
				}
			}
		}
	}
}

func TestPipeNamesAndColors(t *testing.T) {
	seen := map[string]bool{}
	for p := Pipe(0); p < NumPipes; p++ {
		c := p.Color()
		if len(c) != 7 || c[0] != '#' || seen[c] {
			t.Errorf("%s: colour %q (duplicate or malformed)", p, c)
		}
		seen[c] = true
		if p.String() == "" || strings.HasPrefix(p.String(), "Pipe(") {
			t.Errorf("pipe %d unnamed", p)
		}
	}
	if NumPipes.String() != "Pipe(9)" || NumPipes.Color() == "" {
		t.Error("out-of-range pipe")
	}
	for _, d := range []Dep{DepFixed, DepShort, DepLong, 9} {
		if d.String() == "" {
			t.Error("dep name")
		}
	}
	for o := OutNone; o <= OutDRAM+1; o++ {
		if o.String() == "" {
			t.Error("outcome name")
		}
	}
}
