package ptxas

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/internal/golden"
)

func lowerSrc(t *testing.T, src, arch string) (*ptx.Func, *Lowering) {
	t.Helper()
	m, err := ptx.Parse("t.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	fn := m.Funcs[len(m.Funcs)-1]
	l, err := Lower(m, fn, arch)
	if err != nil {
		t.Fatal(err)
	}
	return fn, l
}

const mergeSrc = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p, .param .u64 .ptr .global .align 16 q)
{
	.reg .b32 %r<20>;
	.reg .f32 %f<20>;
	.reg .b64 %rd<10>;
	.shared .align 4 .b8 s[1024];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 4;
	mov.u32 %r3, s;
	add.s32 %r4, %r3, %r2;
	ld.shared.f32 %f1, [%r4];
	ld.shared.f32 %f2, [%r4+4];
	ld.shared.f32 %f3, [%r4+8];
	ld.shared.f32 %f4, [%r4+12];
	ld.shared.f32 %f5, [%r4+24];
	ld.shared.f32 %f6, [%r4+28];
	ld.shared.f32 %f7, [%r4+36];
	ld.shared.f32 %f8, [%r4+40];
	ld.param.u64 %rd1, [p];
	cvta.to.global.u64 %rd2, %rd1;
	ld.global.f32 %f9, [%rd2];
	ld.global.f32 %f10, [%rd2+4];
	ld.param.u64 %rd3, [q];
	cvta.to.global.u64 %rd4, %rd3;
	ld.global.f32 %f11, [%rd4];
	ld.global.f32 %f12, [%rd4+4];
	add.f32 %f13, %f1, %f2;
	add.f32 %f13, %f13, %f3;
	add.f32 %f13, %f13, %f4;
	add.f32 %f13, %f13, %f5;
	add.f32 %f13, %f13, %f6;
	add.f32 %f13, %f13, %f7;
	add.f32 %f13, %f13, %f8;
	add.f32 %f13, %f13, %f9;
	add.f32 %f13, %f13, %f10;
	add.f32 %f13, %f13, %f11;
	add.f32 %f13, %f13, %f12;
	st.global.f32 [%rd2], %f13;
	ret;
}
`

// TestMergeRules checks the merging rule on accesses whose alignment is known and unknown.
func TestMergeRules(t *testing.T) {
	fn, l := lowerSrc(t, mergeSrc, "sm_90")
	groups := map[string]bool{}
	for _, g := range l.Groups {
		var offs []string
		for _, m := range g.Members {
			for _, a := range fn.Insts[m].Args {
				if a.Kind == ptx.OpAddr {
					offs = append(offs, a.Name+"+"+strings.TrimSpace(string(rune('0'+a.Imm/4))))
				}
			}
		}
		groups[g.SASS+" "+strings.Join(offs, ",")] = true
	}
	want := []string{
		"LDS.128 %r4+0,%r4+1,%r4+2,%r4+3", // 16-aligned base (shared array + tid*16), offsets 0..12
		"LDS.64 %r4+6,%r4+7",              // 24, 28: an 8-aligned pair
		"LDG.E.64 %rd4+0,%rd4+1",          // q is .ptr .align 16
	}
	for _, w := range want {
		if !groups[w] {
			t.Errorf("missing merge group %q; have %v", w, groups)
		}
	}
	if len(l.Groups) != len(want) {
		t.Errorf("%d groups, want %d: %v (36, 40: 36 is not 8-aligned; p has no known alignment)", len(l.Groups), len(want), groups)
	}
	// merged members issue nothing; leaders one instruction
	for _, g := range l.Groups {
		for _, m := range g.Members {
			want := 0.0
			if m == g.Leader {
				want = 1
			}
			if l.Insts[m].Issue != want {
				t.Errorf("%s member %d issues %v, want %v", g.SASS, m, l.Insts[m].Issue, want)
			}
		}
	}
}

// TestFolding checks the zero-cost forms and the sm_90 shared window.
func TestFolding(t *testing.T) {
	src := `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p, .param .u32 n)
{
	.reg .b32 %r<10>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<10>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [p];
	ld.param.u32 %r1, [n];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r2, %tid.x;
	mov.u32 %r9, %tid.x;
	setp.ge.s32 %p1, %r2, %r1;
	@%p1 bra $L_end;
	mul.wide.s32 %rd3, %r9, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.f32 %f1, [%rd4];
	neg.f32 %f2, %f1;
	mul.f32 %f3, %f2, %f1;
	st.global.f32 [%rd4], %f3;
$L_end:
	ret;
}
`
	_, l := lowerSrc(t, src, "sm_90")
	want := []float64{1, 1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 1}
	for i, w := range want {
		if l.Insts[i].Issue != w {
			t.Errorf("instruction %d: issue %v, want %v (%s)", i, l.Insts[i].Issue, w, l.Insts[i].Why)
		}
	}
	if l.Entry != 2 {
		t.Errorf("entry cost %v, want 2 (LDC R1 and the global descriptor ULDC.64)", l.Entry)
	}
	counts := l.IssueCounts()
	sum := 0
	for _, c := range counts {
		sum += c
	}
	if float64(sum) != l.Static() {
		t.Errorf("IssueCounts sums to %d, Static is %v", sum, l.Static())
	}
}

// TestUnknownArch names the cause.
func TestUnknownArch(t *testing.T) {
	m, _ := ptx.Parse("t.ptx", []byte(mergeSrc))
	if _, err := Lower(m, m.Funcs[0], "gfx90a"); err == nil || !strings.Contains(err.Error(), "gfx90a") {
		t.Errorf("got %v, want an error naming the architecture", err)
	}
}

// TestNounrollPragma: ptxas unrolls a counted loop 4x again (the back edge issues once per 4
// trips), but not one nvcc marked `.pragma "nounroll";` (#pragma unroll 1; held-out
// iso4_uniform_loop).
func TestNounrollPragma(t *testing.T) {
	loop := func(pragma string) string {
		return `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p, .param .u32 n)
{
	.reg .b32 %r<8>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<4>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [p];
	ld.param.u32 %r1, [n];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r2, 0;
	mov.f32 %f1, 0f00000000;
$L__BB0_1:
` + pragma + `
	ld.global.f32 %f2, [%rd2];
	add.f32 %f1, %f1, %f2;
	add.s64 %rd2, %rd2, 4;
	add.s32 %r2, %r2, 1;
	setp.lt.s32 %p1, %r2, %r1;
	@%p1 bra $L__BB0_1;
	st.global.f32 [%rd2], %f1;
	ret;
}
`
	}
	back := func(fn *ptx.Func, l *Lowering) float64 {
		for i, in := range fn.Insts {
			if in.Op == "bra" && in.Guard != "" {
				return l.Insts[i].Issue
			}
		}
		t.Fatal("no back edge")
		return 0
	}
	if fn, l := lowerSrc(t, loop(""), "sm_90"); back(fn, l) != 0.25 {
		t.Errorf("counted loop: back edge issues %v per trip, want 0.25 (re-unrolled 4x)", back(fn, l))
	}
	if fn, l := lowerSrc(t, loop(`	.pragma "nounroll";`), "sm_90"); back(fn, l) != 1 {
		t.Errorf("nounroll loop: back edge issues %v per trip, want 1", back(fn, l))
	}
}

// TestFromSASSTimingKeepsTotal: built from a listing, the timing stream's whole slots add up
// to the listing's SASS count (the fractions a line's SASS is shared out in are carried).
func TestFromSASSTimingKeepsTotal(t *testing.T) {
	n := 0
	for _, base := range []string{"vector_add", "saxpy", "transpose", "reduce", "matmul_tiled", "histogram", "divergence", "scan"} {
		p := filepath.Join(golden.Dir(), "ptx", base+".sm_90.ptx")
		lst := listingFor(t, p)
		if lst == nil {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ptx.Parse(p, b)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := LowerModuleFromSASS(m, "sm_90", lst)
		if err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		for name, l := range prog.Funcs {
			sum := 0
			for _, ti := range l.TimingIssues() {
				sum += ti.Slots
			}
			if want := int(math.Round(l.Static())); sum != want {
				t.Errorf("%s %s: timing slots add up to %d, the listing's count is %d", base, name, sum, want)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no golden listing found")
	}
}

// TestPairHalves: two f16 adds of the halves of the same vector loads issue as one HFMA2
// when their results are stored together, and as HFMA2 + PRMT when stored apart
// (iso5_h2_add_split).
func TestPairHalves(t *testing.T) {
	src := func(store string) string {
		return `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b16 %rs<12>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	cvta.to.global.u64 %rd2, %rd1;
	ld.global.v2.u16 {%rs1, %rs2}, [%rd2];
	ld.global.v2.u16 {%rs3, %rs4}, [%rd2+4];
	add.f16 %rs5, %rs2, %rs4;
	add.f16 %rs6, %rs1, %rs3;
` + store + `
	ret;
}
`
	}
	issue := func(fn *ptx.Func, l *Lowering) (out []float64) {
		for i, in := range fn.Insts {
			if in.Op == "add" {
				out = append(out, l.Insts[i].Issue)
			}
		}
		return out
	}
	if fn, l := lowerSrc(t, src("\tst.global.v2.u16 [%rd2+8], {%rs6, %rs5};"), "sm_90"); !equalF(issue(fn, l), []float64{1, 0}) {
		t.Errorf("paired halves stored together: issues %v, want [1 0]", issue(fn, l))
	}
	if fn, l := lowerSrc(t, src("\tst.global.u16 [%rd2+8], %rs6;\n\tst.global.u16 [%rd2+12], %rs5;"), "sm_90"); !equalF(issue(fn, l), []float64{2, 0}) {
		t.Errorf("halves stored apart: issues %v, want [2 0]", issue(fn, l))
	}
}

func equalF(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
