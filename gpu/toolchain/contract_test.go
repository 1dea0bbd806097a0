package toolchain

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/internal/fpmix"
)

// patternNameRE takes pNN_name out of a pattern kernel's mangled name (_Z8p01_exprPKfPf).
var patternNameRE = regexp.MustCompile(`^_Z\d+(p\d\d_\w+)$`)

// patternName is the pattern of a mangled name: the length prefix says where the name ends.
func patternName(mangled string) string {
	m := patternNameRE.FindStringSubmatch(mangled)
	if m == nil {
		return mangled
	}
	n := 0
	for _, c := range mangled[2:] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	if n > len(m[1]) {
		return mangled
	}
	return m[1][:n]
}

// TestNvccContractionRule: the IR rewrite on hand-written IR, one product per case.
func TestNvccContractionRule(t *testing.T) {
	for _, c := range []struct {
		name, body string
		keep       bool
	}{
		{"one add", "  %3 = fmul contract float %0, %1\n  %4 = fadd contract float %3, %2\n  store float %4, ptr %p", true},
		{"two adds and a subtract", "  %3 = fmul contract float %0, %1\n  %4 = fadd contract float %3, %2\n  %5 = fsub contract float %2, %3\n  %6 = fadd contract float %3, %5", true},
		{"also stored", "  %3 = fmul contract float %0, %1\n  store float %3, ptr %p\n  %4 = fadd contract float %3, %2", false},
		{"also shuffled", "  %3 = fmul contract float %0, %1\n  %4 = tail call contract float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %3, i32 1, i32 31), !dbg !5\n  %5 = fadd contract float %3, %4", false},
		{"also multiplied", "  %3 = fmul contract float %0, %1\n  %4 = fadd contract float %3, %2\n  %5 = fmul contract float %3, %2", false},
		{"adds in two blocks", "  %3 = fmul contract float %0, %1\n  %4 = fadd contract float %3, %2\n  br label %6\n6:\n  %7 = fadd contract float %3, %2", false},
		{"one add in another block", "  %3 = fmul contract float %0, %1\n  br label %6\n6:                               ; preds = %2\n  %7 = fadd contract float %3, %2", true},
		{"negated then added", "  %3 = fmul contract double %0, %1\n  %4 = fneg contract double %3\n  %5 = fadd contract double %4, %2\n  %6 = fadd contract double %3, %2", true},
		{"negated then stored", "  %3 = fmul contract double %0, %1\n  %4 = fneg contract double %3\n  store double %4, ptr %p\n  %6 = fadd contract double %3, %2", false},
		{"double also selected", "  %3 = fmul contract double %0, %1\n  %4 = fadd contract double %3, %2\n  %5 = select i1 %c, double %3, double %2", false},
		{"half2 also selected: clang's own", "  %3 = fmul contract <2 x half> %0, %1\n  %4 = fadd contract <2 x half> %3, %2\n  %5 = select i1 %c, <2 x half> %3, <2 x half> %2", true},
		{"half also stored: clang's own", "  %3 = fmul contract half %0, %1\n  store half %3, ptr %p\n  %4 = fadd contract half %3, %2", true},
		{"a phi", "  %3 = fmul contract float %0, %1\n  %4 = fadd contract float %3, %2\n  br label %6\n6:\n  %7 = phi float [ %3, %5 ], [ %4, %6 ]", false},
		{"minuend of a product difference", "  %3 = fmul contract float %0, %1\n  %4 = fmul contract float %2, %0\n  %5 = fsub contract float %3, %4", false},
		{"subtrahend of a product difference", "  %4 = fmul contract float %0, %1\n  %3 = fmul contract float %2, %0\n  %5 = fsub contract float %4, %3", true},
		{"double minuend of a product difference", "  %3 = fmul contract double %0, %1\n  %4 = fmul contract double %2, %0\n  %5 = fsub contract double %3, %4", false},
		{"product sum: LLVM's choice", "  %3 = fmul contract float %0, %1\n  %4 = fmul contract float %2, %0\n  %5 = fadd contract float %3, %4", true},
		{"minuend also added", "  %3 = fmul contract float %0, %1\n  %4 = fmul contract float %2, %0\n  %5 = fsub contract float %3, %4\n  %6 = fadd contract float %3, %2", true},
		{"difference of one product", "  %3 = fmul contract float %0, %1\n  %5 = fsub contract float %3, %2", true},
	} {
		ir := "define void @k(float %0) {\n" + c.body + "\n  ret void\n}\n"
		got := string(nvccContraction([]byte(ir)))
		kept := strings.Contains(got, "%3 = fmul contract")
		if kept != c.keep {
			t.Errorf("%s: contract kept %v, want %v:\n%s", c.name, kept, c.keep, got)
		}
		if !c.keep && got != strings.Replace(ir, "fmul contract ", "fmul ", 1) {
			t.Errorf("%s: more than the product's flag changed:\n%s", c.name, got)
		}
	}
	// fast (which includes contract) and products without the flag are left alone
	for _, ir := range []string{
		"define void @k() {\n  %3 = fmul fast float %0, %1\n  store float %3, ptr %p\n  %4 = fadd fast float %3, %2\n}\n",
		"define void @k() {\n  %3 = fmul float %0, %1\n  store float %3, ptr %p\n  %4 = fadd contract float %3, %2\n}\n",
	} {
		if got := string(nvccContraction([]byte(ir))); got != ir {
			t.Errorf("changed:\n%s\nto\n%s", ir, got)
		}
	}
}

// TestNvccContractionFlags: the flags that keep the nvcc rule and those that choose clang's own.
func TestNvccContractionFlags(t *testing.T) {
	for _, c := range []struct {
		flags []string
		want  bool
	}{
		{nil, true},
		{[]string{"-O2", "-DN=4", "-use_fast_math", "-fmad=true", "-fgpu-flush-denormals-to-zero", "-lineinfo"}, true},
		{[]string{"-ffp-contract=fast-honor-pragmas"}, false},
		{[]string{"-ffp-contract=on"}, false},
		{[]string{"-ffp-contract=off"}, false},
		{[]string{"-fmad=false"}, false},
		{[]string{"-ffast-math"}, false},
		{[]string{"-fno-signed-zeros"}, false},
		{[]string{"-Xclang"}, false},
	} {
		if got := NvccContraction(c.flags); got != c.want {
			t.Errorf("NvccContraction(%q) = %v, want %v", c.flags, got, c.want)
		}
	}
}

// contractKnown are the patterns whose clang-path counts are known to differ from the
// H200's machine code, and why (testdata/contract/README.md).
var contractKnown = map[string]string{
	"p13_loop":       "a loop: ptxas unrolls it further than the PTX",
	"p27_after_loop": "a loop: ptxas unrolls it further than the PTX",
	"p43_rms":        "a loop: nvcc unrolls a stride-32 loop by 4, clang leaves it rolled",
	"p42_far_live":   "nvcc's distance heuristic (an add 500+ IR instructions after a product with another use) is not modelled",
	"p25_self":       "t + t of a product: nvcc makes fma(a, b, t), clang keeps mul and add",
	"p17_half":       "a half product also stored: half keeps clang's own contraction (contract.go)",
	"p44_half_cvt":   "a half product also converted: half keeps clang's own contraction (contract.go)",
}

// TestContractionMatchesH200: the clang path's fma/mul/add counts of every pattern of
// testdata/contract/patterns.cu equal those of nvcc's machine code for the H200
// (recorded SASS), except the named known differences; with clang's own contraction
// (-ffp-contract=fast-honor-pragmas) the products with other uses are fused, so the same
// comparison fails for them (the rule is what makes the difference).
func TestContractionMatchesH200(t *testing.T) {
	if _, err := exec.LookPath("clang-19"); err != nil {
		t.Skip("clang-19 not found")
	}
	src, err := os.ReadFile("../../testdata/contract/patterns.cu")
	if err != nil {
		t.Fatal(err)
	}
	sass, err := os.ReadFile("../../testdata/contract/nvcc_sm90.sass")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]fpmix.Counts{}
	for name, c := range fpmix.SASS(string(sass)) {
		want[patternName(name)] = c
	}
	if len(want) != 44 {
		t.Fatalf("%d kernels in the recorded SASS, want 44", len(want))
	}
	compile := func(flags []string) map[string]fpmix.Counts {
		res, err := Compile(context.Background(), Request{Source: string(src), File: "patterns.cu", Arch: "sm_90", Compiler: "clang", Flags: flags})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]fpmix.Counts{}
		for name, c := range fpmix.PTX(string(res.PTX)) {
			out[patternName(name)] = c
		}
		return out
	}
	got := compile(nil)
	clangOwn := compile([]string{"-ffp-contract=fast-honor-pragmas"})
	same, ownSame := 0, 0
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			t.Errorf("%s: not in clang's PTX", k)
			continue
		}
		if fpmix.Equal(g, w) {
			same++
		}
		if fpmix.Equal(clangOwn[k], w) {
			ownSame++
		}
		if why, known := contractKnown[k]; known {
			t.Logf("%s: clang %s, H200 %s (known: %s)", k, g, w, why)
			continue
		}
		if !fpmix.Equal(g, w) {
			t.Errorf("%s: clang path %s, nvcc's SASS %s", k, g, w)
		}
	}
	t.Logf("same fma/mul/add counts as the H200's code: %d of %d patterns (clang's own contraction: %d)", same, len(want), ownSame)
	if ownSame >= same {
		t.Errorf("clang's own contraction matches %d patterns, the nvcc rule %d", ownSame, same)
	}
	for _, k := range []string{"p04_store", "p05_shfl", "p22_warp_sumsq", "p30_double_store", "p36_shfl_only"} {
		if fpmix.Equal(clangOwn[k], want[k]) {
			t.Errorf("%s: -ffp-contract=fast-honor-pragmas no longer gives clang's own contraction (%s)", k, clangOwn[k])
		}
	}
}

// TestTwoStepCompileIsExact: compiling through LLVM IR with the identity rewrite gives
// byte for byte the PTX of one clang run (so the rule is the only change), for the
// patterns (at -O0..-O3), every golden source, and two feature kernels with inline asm
// (whose use-list order directives LLVM cannot read back: dropped).
func TestTwoStepCompileIsExact(t *testing.T) {
	exe, err := chooseCompiler("clang", exec.LookPath)
	if err != nil {
		t.Skip("clang-19 not found")
	}
	files, _ := filepath.Glob("../../testdata/golden/src/*.cu")
	files = append(files, "../../testdata/contract/patterns.cu", "../../testdata/realcuda/features/fp16.cu", "../../testdata/realcuda/features/cub.cu")
	if len(files) < 10 {
		t.Fatalf("only %d sources", len(files))
	}
	type job struct {
		file string
		opt  []string
	}
	var jobs []job
	for _, f := range files {
		jobs = append(jobs, job{f, nil})
	}
	for _, o := range []string{"-O0", "-O1", "-O2"} {
		jobs = append(jobs, job{"../../testdata/contract/patterns.cu", []string{o, "-DKS_TEST_MACRO=4"}})
	}
	for _, j := range jobs {
		f := j.file
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		incDir, err := filepath.Abs(filepath.Dir(f))
		if err != nil {
			t.Fatal(err)
		}
		// one directory for both (-O0 PTX carries the compile directory in .debug_info)
		dir := t.TempDir()
		if err := writePrelude(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "k.cu"), src, 0o600); err != nil {
			t.Fatal(err)
		}
		var ptx [2][]byte
		for i, flags := range [][]string{j.opt, append(j.opt[:len(j.opt):len(j.opt)], "-ffp-contract=fast-honor-pragmas")} {
			req := Request{Source: string(src), File: "k.cu", Arch: "sm_90", Compiler: "clang", Flags: flags, Timeout: DefaultTimeout, IncludeDir: incDir}
			res, err := compileClangRewrite(context.Background(), req, exe, dir, "k.cu", func(b []byte) []byte { return b })
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if strings.Contains(res.Command, "-x ir") != (i == 0) {
				t.Fatalf("%s flags %v: command %q", f, flags, res.Command)
			}
			ptx[i] = res.PTX
		}
		if string(ptx[0]) != string(ptx[1]) {
			t.Errorf("%s %v: the two-step compile differs from one clang run", f, j.opt)
		}
	}
}

// BenchmarkCompileContraction: the cost of the nvcc-contraction compile (clang to IR, the
// rewrite, IR to PTX) against one clang run (-ffp-contract=fast-honor-pragmas), on a golden
// source; report the difference of ns/op.
func BenchmarkCompileContraction(b *testing.B) {
	if _, err := exec.LookPath("clang-19"); err != nil {
		b.Skip("clang-19 not found")
	}
	src, err := os.ReadFile("../../testdata/golden/src/matmul_tiled.cu")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		flags []string
	}{{"nvcc-rule", nil}, {"one-clang-run", []string{"-ffp-contract=fast-honor-pragmas"}}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Compile(context.Background(), Request{Source: string(src), File: "m.cu", Arch: "sm_90", Compiler: "clang", Flags: c.flags}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkNvccContractionRewrite: the IR rewrite alone, on the patterns' IR.
func BenchmarkNvccContractionRewrite(b *testing.B) {
	exe, err := chooseCompiler("clang", exec.LookPath)
	if err != nil {
		b.Skip("clang-19 not found")
	}
	dir := b.TempDir()
	if err := writePrelude(dir); err != nil {
		b.Fatal(err)
	}
	src, err := os.ReadFile("../../testdata/contract/patterns.cu")
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.cu"), src, 0o600); err != nil {
		b.Fatal(err)
	}
	args := ClangArgs("sm_90", nil, dir, "", "p.cu", "out.ptx")
	args = append(args[:len(args)-2:len(args)-2], "-emit-llvm", "-o", "out.ll")
	if out, err := run(context.Background(), dir, exe, args...); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	ir, err := os.ReadFile(filepath.Join(dir, "out.ll"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(ir)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		nvccContraction(ir)
	}
}

// TestIRStepFailureIsNamed: should the IR-to-PTX step fail, the error says which step,
// that it is KernelScope's, and the flag that avoids it.
func TestIRStepFailureIsNamed(t *testing.T) {
	exe, err := chooseCompiler("clang", exec.LookPath)
	if err != nil {
		t.Skip("clang-19 not found")
	}
	dir := t.TempDir()
	if err := writePrelude(dir); err != nil {
		t.Fatal(err)
	}
	src := "__global__ void k(float *o) { o[0] = o[1] * o[2] + o[3]; }\n"
	if err := os.WriteFile(filepath.Join(dir, "k.cu"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	req := Request{Source: src, File: "k.cu", Arch: "sm_90", Compiler: "clang", Timeout: DefaultTimeout}
	_, err = compileClangRewrite(context.Background(), req, exe, dir, "k.cu", func(b []byte) []byte {
		return append([]byte("this is not IR\n"), b...)
	})
	if err == nil || !strings.Contains(err.Error(), "nvcc-contraction step") || !strings.Contains(err.Error(), "-ffp-contract=fast-honor-pragmas") {
		t.Errorf("error %v", err)
	}
}
