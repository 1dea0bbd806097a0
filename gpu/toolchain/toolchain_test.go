package toolchain

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// needClang skips when no clang is on PATH, except under CI=true where it fails.
func needClang(t *testing.T) {
	t.Helper()
	if _, err := chooseCompiler("clang", exec.LookPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but no clang: %v", err)
		}
		t.Skipf("no clang on PATH: %v", err)
	}
}

var entryRE = regexp.MustCompile(`__global__\s+void\s+([A-Za-z_][A-Za-z0-9_]*)`)

func TestGoldenSourcesCompile(t *testing.T) {
	needClang(t)
	srcs, err := filepath.Glob("../../testdata/golden/src/*.cu")
	if err != nil || len(srcs) == 0 {
		t.Fatalf("no golden sources: %v", err)
	}
	// Each compilation is shared with gpu/analysis's tests of the same run (cachedCompile).
	for _, arch := range []string{"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"} {
		for _, src := range srcs {
			name := filepath.Base(src)
			t.Run(arch+"/"+name, func(t *testing.T) {
				t.Parallel()
				b, err := os.ReadFile(src)
				if err != nil {
					t.Fatal(err)
				}
				res, err := cachedCompile(Request{Source: string(b), File: name, Arch: arch, Compiler: "clang"})
				if err != nil {
					t.Fatalf("%s %s: %v", name, arch, err)
				}
				ptx := string(res.PTX)
				if strings.Contains(ptx, ".extern .func") {
					t.Errorf("%s %s: PTX has an extern function:\n%s", name, arch, grepLines(ptx, ".extern"))
				}
				if !strings.Contains(ptx, ".target "+arch) {
					t.Errorf("%s %s: no .target %s", name, arch, arch)
				}
				if !strings.Contains(ptx, `.file	1 "`+name+`"`) && !regexp.MustCompile(`\.file\s+\d+\s+"`+regexp.QuoteMeta(name)+`"`).MatchString(ptx) {
					t.Errorf("%s %s: .file does not name %s:\n%s", name, arch, name, grepLines(ptx, ".file"))
				}
				if strings.Contains(ptx, os.TempDir()+"/kernelscope-cc-") {
					t.Errorf("%s %s: PTX mentions the temp dir", name, arch)
				}
				for _, m := range entryRE.FindAllStringSubmatch(string(b), -1) {
					if !strings.Contains(ptx, ".entry "+m[1]+"(") {
						t.Errorf("%s %s: no .entry %s", name, arch, m[1])
					}
				}
				if !strings.HasPrefix(res.Compiler, "clang ") || !strings.Contains(res.Command, "--cuda-gpu-arch="+arch) {
					t.Errorf("%s %s: compiler %q command %q", name, arch, res.Compiler, res.Command)
				}
			})
		}
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func TestIntrinsicsCompileWithoutExterns(t *testing.T) {
	needClang(t)
	b, err := os.ReadFile("testdata/intrinsics.cu")
	if err != nil {
		t.Fatal(err)
	}
	for _, arch := range []string{"sm_80", "sm_90"} {
		res, err := Compile(context.Background(), Request{Source: string(b), File: "intrinsics.cu", Arch: arch, Compiler: "clang"})
		if err != nil {
			t.Fatalf("%s: %v", arch, err)
		}
		ptx := string(res.PTX)
		for _, want := range []string{"atom.global.add.f32", "shfl.sync.down", "vote.sync.ballot", "popc.b32", "brev.b32",
			"mul.hi.u32", "prmt.b32", "redux.sync", "match.any.sync", "ex2.approx", "sin.approx", "div.approx", "bar.sync"} {
			if !strings.Contains(ptx, want) {
				t.Errorf("%s: PTX lacks %s", arch, want)
			}
		}
		if strings.Contains(ptx, ".extern") || strings.Contains(ptx, "call") && strings.Contains(ptx, "__nv_") {
			t.Errorf("%s: PTX still calls libdevice:\n%s", arch, grepLines(ptx, "__nv_"))
		}
	}
}

func TestDiagnosticMapsToCellLine(t *testing.T) {
	needClang(t)
	src := "// a cell\n\n%magic line blanked by the caller\n__global__ void k(float *o) {\n  o[0] = undefined_x + 1;\n}\n"
	src = strings.Replace(src, "%magic line blanked by the caller", "", 1)
	_, err := Compile(context.Background(), Request{Source: src, File: "cell.cu", Arch: "sm_80", Compiler: "clang"})
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("want *CompileError, got %T %v", err, err)
	}
	want := "line 5:10: error: use of undeclared identifier 'undefined_x'"
	if ce.Error() != want {
		t.Errorf("Error() = %q, want %q", ce.Error(), want)
	}
	if strings.Contains(ce.Output, "kernelscope-cc-") {
		t.Errorf("output mentions the temp dir: %s", ce.Output)
	}
}

func TestWarningsAreReturned(t *testing.T) {
	needClang(t)
	src := "__global__ void k(int *o) {\n  int unused;\n  o[0] = 1 << 40;\n}\n"
	res, err := Compile(context.Background(), Request{Source: src, File: "w.cu", Arch: "sm_80", Compiler: "clang", Flags: []string{"-Wall"}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range res.Warnings {
		if w.Line == 3 && w.Severity == "warning" {
			found = true
		}
	}
	if !found {
		t.Errorf("no warning on line 3: %+v", res.Warnings)
	}
}

func TestUnprovidedLibdeviceFunctionIsNamed(t *testing.T) {
	needClang(t)
	src := "__global__ void k(double *o) {\n  double x = o[0];\n  o[1] = __nv_rcp64h(x);\n}\n"
	_, err := Compile(context.Background(), Request{Source: src, File: "cell.cu", Arch: "sm_80", Compiler: "clang"})
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("want *CompileError, got %v", err)
	}
	if len(ce.Diags) != 1 || ce.Diags[0].Line != 3 || !strings.Contains(ce.Diags[0].Message, "__nv_rcp64h,") {
		t.Errorf("diags = %+v", ce.Diags)
	}
}

func TestParseClangDiagnostics(t *testing.T) {
	out := `In file included from <built-in>:1:
kernelscope_prelude.h:177:1: error: redefinition of 'min'
cell.cu:7:3: warning: expression result unused [-Wunused-value]
    7 |   x;
      |   ^
cell.cu:9:14: error: no matching function for call to 'atomicAdd'
kernelscope_prelude.h:150:1: note: candidate function not viable
2 errors generated when compiling for sm_80.
clang-19: error: unsupported CUDA gpu architecture: sm_100
`
	ds := ParseClangDiagnostics(out, "cell.cu")
	want := []Diagnostic{
		{0, 0, "error", "in the KernelScope prelude (kernelscope_prelude.h:177): redefinition of 'min'", "", 0, 0},
		{7, 3, "warning", "expression result unused [-Wunused-value]", "", 0, 0},
		{9, 14, "error", "no matching function for call to 'atomicAdd'", "", 0, 0},
		{0, 0, "note", "in the KernelScope prelude (kernelscope_prelude.h:150): candidate function not viable", "", 0, 0},
		{0, 0, "error", "clang-19: unsupported CUDA gpu architecture: sm_100 (this clang is too old for it: install a newer clang, or pick an older %arch)", "", 0, 0},
	}
	if len(ds) != len(want) {
		t.Fatalf("got %d diags %+v", len(ds), ds)
	}
	for i := range want {
		if ds[i] != want[i] {
			t.Errorf("diag %d = %+v, want %+v", i, ds[i], want[i])
		}
	}
	ce := &CompileError{Diags: ds}
	if got := ce.Error(); !strings.HasPrefix(got, "error: in the KernelScope prelude (kernelscope_prelude.h:177): redefinition of 'min'\nline 9:14: error: no matching function for call to 'atomicAdd'\nerror: clang-19: unsupported") {
		t.Errorf("Error() = %q", got)
	}
}

// nvccOutput is nvcc's diagnostic format (EDG front end): file(line): severity: message,
// then, in recent releases, the source line and a caret line. Both an indented and an
// unindented echo are covered, and a macro-expanded echo that cannot be placed.
const nvccOutput = `cell.cu(3): warning #177-D: variable "unused" was declared but never referenced
    int unused;
        ^

Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"

cell.cu(5): error: identifier "undefined_x" is undefined
o[0] = undefined_x + 1;
       ^

cell.cu(6): error: expected a ";"
  o[1] = (256 / 32) 2;
  ^

cell.cu(40): error #20042-D: calling a __host__ function from a __global__ function is not allowed

/usr/local/cuda/include/cub/x.cuh(886): error: expected an identifier

2 errors detected in the compilation of "cell.cu".
`

const nvccSource = "__global__ void k(float *o) {\n  // line 2\n  int unused;\n\n  o[0] = undefined_x + 1;\n  o[1] = N 2;\n}\n"

func TestParseNvccDiagnostics(t *testing.T) {
	ds := ParseNvccDiagnostics(nvccOutput, "cell.cu", nvccSource)
	want := []Diagnostic{
		{3, 7, "warning", `variable "unused" was declared but never referenced`, "", 0, 0},
		{5, 10, "error", `identifier "undefined_x" is undefined`, "", 0, 0},
		{6, 0, "error", `expected a ";"`, "", 0, 0},
		{40, 0, "error", "calling a __host__ function from a __global__ function is not allowed", "", 0, 0},
		{0, 0, "error", "in /usr/local/cuda/include/cub/x.cuh:886: expected an identifier", "/usr/local/cuda/include/cub/x.cuh", 886, 0},
	}
	if len(ds) != len(want) {
		t.Fatalf("got %+v", ds)
	}
	for i := range want {
		if ds[i] != want[i] {
			t.Errorf("diag %d = %+v, want %+v", i, ds[i], want[i])
		}
	}
}

func TestParseVersion(t *testing.T) {
	nv, err := os.ReadFile("../../testdata/golden/nvcc_version.txt")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, text, want string }{
		{"nvcc", string(nv), "nvcc 13.0.88"},
		{"clang", "Debian clang version 19.1.7 (3+b1)\nTarget: x86_64-pc-linux-gnu\n", "clang 19.1.7"},
		{"clang", "Ubuntu clang version 18.1.3 (1ubuntu1)\n", "clang 18.1.3"},
		{"clang", "garbage", "clang"},
	}
	for _, c := range cases {
		if got := ParseVersion(c.name, c.text); got != c.want {
			t.Errorf("ParseVersion(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestCommandConstruction(t *testing.T) {
	got := strings.Join(NvccArgs("ptx", "sm_90", []string{"-use_fast_math"}, "", "cell.cu", "out.ptx"), " ")
	if got != "-ptx -lineinfo -arch=sm_90 -use_fast_math cell.cu -o out.ptx" {
		t.Errorf("nvcc ptx args = %q", got)
	}
	got = strings.Join(NvccArgs("cubin", "sm_80", nil, "", "cell.cu", "out.cubin"), " ")
	if got != "-cubin -lineinfo -arch=sm_80 cell.cu -o out.cubin" {
		t.Errorf("nvcc cubin args = %q", got)
	}
	got = strings.Join(ClangArgs("sm_86", []string{"-use_fast_math", "-DN=4"}, "/d", "", "cell.cu", "out.ptx"), " ")
	for _, want := range []string{"-x cuda --cuda-device-only --cuda-gpu-arch=sm_86 -nocudainc -nocudalib -O3 -gline-tables-only -S",
		"-include " + PreludeName, "-fgpu-approx-transcendentals", "-DN=4", "cell.cu -o out.ptx", "-ffp-contract=fast-honor-pragmas"} {
		if !strings.Contains(got, want) {
			t.Errorf("clang args %q lack %q", got, want)
		}
	}
}

func TestChooseCompiler(t *testing.T) {
	has := func(names ...string) func(string) (string, error) {
		return func(n string) (string, error) {
			for _, x := range names {
				if x == n {
					return "/usr/bin/" + n, nil
				}
			}
			return "", exec.ErrNotFound
		}
	}
	cases := []struct {
		kind  string
		path  []string
		want  string
		noCmp bool
	}{
		{"auto", []string{"nvcc", "clang-19"}, "nvcc", false},
		{"auto", []string{"clang-18", "clang-19", "clang"}, "clang-19", false},
		{"", []string{"clang"}, "clang", false},
		{"clang", []string{"nvcc", "clang-17"}, "clang-17", false},
		{"nvcc", []string{"clang-19"}, "", true},
		{"auto", nil, "", true},
		{"clang", nil, "", true},
	}
	for _, c := range cases {
		got, err := chooseCompiler(c.kind, has(c.path...))
		if c.noCmp {
			if !errors.Is(err, ErrNoCompiler) || !strings.Contains(err.Error(), "apt-get install clang-19") {
				t.Errorf("%s %v: err = %v", c.kind, c.path, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s %v = %q, %v; want %q", c.kind, c.path, got, err, c.want)
		}
	}
	if _, err := chooseCompiler("gcc", has("gcc")); err == nil || !strings.Contains(err.Error(), "auto, clang, nvcc") {
		t.Errorf("unknown compiler: %v", err)
	}
}

func TestRequestValidation(t *testing.T) {
	_, err := Compile(context.Background(), Request{Source: "", Arch: "sm_61"})
	if err == nil || !strings.Contains(err.Error(), "sm_75") {
		t.Errorf("bad arch: %v", err)
	}
	_, err = Compile(context.Background(), Request{Source: "", Arch: "sm_80", Flags: []string{"-o", "/etc/passwd"}})
	if err == nil || !strings.Contains(err.Error(), `"-o"`) {
		t.Errorf("bad flag: %v", err)
	}
	_, err = Compile(context.Background(), Request{Source: "", Arch: "sm_80", Flags: []string{"-fplugin=x.so"}})
	if err == nil {
		t.Errorf("plugin flag accepted")
	}
}

// fakeCompiler puts an executable shell script named name on PATH.
func fakeCompiler(t *testing.T, name, script string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
}

func TestHangingCompilerIsKilled(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	sh, _ := exec.LookPath("sleep")
	if sh == "" {
		t.Skip("no sleep")
	}
	fakeCompiler(t, "clang-19", "exec "+sh+" 30\n")
	start := time.Now()
	_, err := Compile(context.Background(), Request{Source: "x", Arch: "sm_80", Timeout: 300 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "killed after") {
		t.Fatalf("err = %v", err)
	}
	// Not killed, Compile would have waited for the 30 s sleep to end.
	if d := time.Since(start); d >= 30*time.Second {
		t.Errorf("took %v: Compile waited for the compiler instead of killing it", d)
	}
}

func TestOutputIsCapped(t *testing.T) {
	head, _ := exec.LookPath("head")
	tr, _ := exec.LookPath("tr")
	if head == "" || tr == "" {
		t.Skip("no head or tr")
	}
	// Prints 6 MiB of diagnostics, then fails.
	fakeCompiler(t, "clang-19", head+" -c 6291456 /dev/zero | "+tr+" '\\000' 'e' >&2; exit 1\n")
	_, err := Compile(context.Background(), Request{Source: "x", Arch: "sm_80", Timeout: 20 * time.Second})
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v", err)
	}
	if len(ce.Output) > OutputCap+200 || !strings.Contains(ce.Output, "output truncated") {
		t.Errorf("output %d bytes, truncated note present: %v", len(ce.Output), strings.Contains(ce.Output, "output truncated"))
	}
}

func TestAvailableFindsFakeCompilers(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"clang-18", "nvcc", "clang-19"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	got := strings.Join(Available(), ",")
	if got != "nvcc,clang-19,clang-18" {
		t.Errorf("Available() = %s", got)
	}
}

func TestRewriteFileTable(t *testing.T) {
	ptx := []byte("\t.file\t1 \"/tmp/d/cell.cu\"\n\t.file\t2 \"/tmp/d/./kernelscope_prelude.h\"\n\t.file\t3 \"/usr/lib/x.h\"\n")
	got := string(rewriteFileTable(ptx, "/tmp/d", "cell.cu", "my cell.cu"))
	want := "\t.file\t1 \"my cell.cu\"\n\t.file\t2 \"kernelscope_prelude.h\"\n\t.file\t3 \"/usr/lib/x.h\"\n"
	if got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

func TestSanitizeName(t *testing.T) {
	for in, want := range map[string]string{"cell.cu": "cell.cu", "../../etc/passwd": "passwd.cu", "a b.cu": "a_b.cu", "": "cell.cu", "..": "cell.cu"} {
		if got := sanitizeName(in); got != want {
			t.Errorf("sanitizeName(%q) = %q want %q", in, got, want)
		}
	}
}

func TestFastMathUsesApproximations(t *testing.T) {
	needClang(t)
	src := "__global__ void k(float *a) { a[0] = expf(a[1]) + sinf(a[2]) + log10f(a[3]) + powf(a[4], a[5]); }\n"
	// Without the flag, expf and powf are nvcc's libdevice sequences, which use
	// ex2.approx.ftz (expf) and rcp.approx.ftz (powf's logarithm) themselves
	// (testdata/measured/libm/libm0.ptx), but no sin.approx or lg2.approx. With it,
	// all four are the fast intrinsics.
	count := func(flags []string, op string) int {
		res, err := Compile(context.Background(), Request{Source: src, Arch: "sm_80", Compiler: "clang", Flags: flags})
		if err != nil {
			t.Fatalf("%v: %v", flags, err)
		}
		return strings.Count(string(res.PTX), op)
	}
	precise, fast := count(nil, ".approx"), count([]string{"-use_fast_math"}, ".approx")
	if count(nil, "sin.approx") != 0 || count(nil, "lg2.approx") != 0 || precise != 2 || fast < 5 ||
		count([]string{"-use_fast_math"}, "sin.approx.ftz") != 1 {
		t.Errorf(".approx instructions: %d precise, %d with -use_fast_math", precise, fast)
	}
}

// TestFakeNvcc runs Compile against shell scripts standing in for nvcc and
// cuobjdump: the commands they receive, the PTX, SASS and resource usage they
// return, and a failing compile's diagnostics.
func TestFakeNvcc(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "calls.log")
	nvcc := `#!/bin/sh
echo "nvcc $*" >> ` + log + `
case "$1" in
--version) echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0;;
esac
for a; do case "$a" in *.cu) src="$a";; esac; last="$a"; done
if grep -q BROKEN "$src"; then printf 'cell.cu(2): error: identifier "BROKEN" is undefined\n  BROKEN;\n  ^\n\n1 error detected in the compilation of "cell.cu".\n' >&2; exit 2; fi
printf '.version 8.0\n.target sm_80\n\t.file\t1 "%s/%s"\n' "$(pwd)" "$src" > "$last"
`
	cuobjdump := `#!/bin/sh
echo "cuobjdump $*" >> ` + log + `
case "$1" in
-sass) echo "Function : k"; echo "        /*0000*/                   MOV R1, c[0x0][0x28] ;";;
-res-usage) echo 'Function k:'; echo 'REG:8 STACK:0 SHARED:0 LOCAL:0';;
esac
`
	for name, body := range map[string]string{"nvcc": nvcc, "cuobjdump": cuobjdump} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sys, _ := exec.LookPath("grep")
	t.Setenv("PATH", dir+":"+filepath.Dir(sys))
	res, err := Compile(context.Background(), Request{Source: "__global__ void k() {}\n", File: "my.cu", Arch: "sm_80", Flags: []string{"-use_fast_math"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Compiler != "nvcc 13.0.88" || res.Command != "nvcc -ptx -lineinfo -arch=sm_80 -use_fast_math my.cu -o out.ptx" {
		t.Errorf("compiler %q command %q", res.Compiler, res.Command)
	}
	if !strings.Contains(string(res.PTX), `.file	1 "my.cu"`) {
		t.Errorf("PTX %q", res.PTX)
	}
	if !strings.Contains(res.SASS, "MOV R1") || !strings.Contains(res.ResUsage, "REG:8") {
		t.Errorf("SASS %q res %q", res.SASS, res.ResUsage)
	}
	calls, _ := os.ReadFile(log)
	for _, want := range []string{"nvcc -ptx -lineinfo -arch=sm_80 -use_fast_math my.cu -o out.ptx",
		"nvcc -cubin -lineinfo -arch=sm_80 -use_fast_math my.cu -o out.cubin", "cuobjdump -sass out.cubin", "cuobjdump -res-usage out.cubin"} {
		if !strings.Contains(string(calls), want) {
			t.Errorf("no call %q in\n%s", want, calls)
		}
	}
	// With nvdisasm present, the SASS comes from `nvdisasm -c -g`, which keeps CUDA lines.
	nvdisasm := `#!/bin/sh
echo "nvdisasm $*" >> ` + log + `
echo '	//## File "'"$(pwd)"'/my.cu", line 1'
echo "        /*0000*/                   MOV R1, c[0x0][0x28] ;"
`
	if err := os.WriteFile(filepath.Join(dir, "nvdisasm"), []byte(nvdisasm), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err = Compile(context.Background(), Request{Source: "__global__ void k() {}\n", File: "my.cu", Arch: "sm_80"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.SASS, `//## File "my.cu", line 1`) || !strings.Contains(res.SASS, "MOV R1") {
		t.Errorf("nvdisasm SASS %q (want the line comment with the display name, no temp path)", res.SASS)
	}
	if err := os.Remove(filepath.Join(dir, "nvdisasm")); err != nil {
		t.Fatal(err)
	}
	_, err = Compile(context.Background(), Request{Source: "__global__ void k() {\n  BROKEN;\n}\n", Arch: "sm_80"})
	var ce *CompileError
	if !errors.As(err, &ce) || ce.Error() != `line 2:3: error: identifier "BROKEN" is undefined` {
		t.Errorf("err = %v", err)
	}
}

// TestPreludeMathIsNotContracted checks what mathref_test.go relies on: the PTX of
// the prelude's math functions has no fused operation other than its explicit fmas,
// i.e. it is the same whether or not the compiler may contract.
func TestPreludeMathIsNotContracted(t *testing.T) {
	needClang(t)
	src := `__global__ void k(float *a, double *d) {
  float x = a[0], y = a[1];
  a[2] = expf(x) + exp2f(x) + logf(x) + log2f(x) + log10f(x) + sinf(x) + cosf(x) + tanhf(x) + powf(x, y);
  a[3] = tanf(x) + expm1f(x) + log1pf(x) + sinhf(x) + coshf(x) + hypotf(x, y);
  double u = d[0], v = d[1];
  d[2] = exp(u) + exp2(u) + log(u) + log2(u) + log10(u) + sin(u) + cos(u) + tanh(u) + pow(u, v);
}
`
	var ptx [2]string
	for i, flags := range [][]string{nil, {"-ffp-contract=off"}} {
		res, err := Compile(context.Background(), Request{Source: src, File: "m.cu", Arch: "sm_80", Compiler: "clang", Flags: flags})
		if err != nil {
			t.Fatal(err)
		}
		ptx[i] = string(res.PTX)
	}
	if ptx[0] != ptx[1] {
		t.Errorf("the math functions compile differently when contraction is allowed (%d vs %d bytes of PTX)", len(ptx[0]), len(ptx[1]))
	}
	if !strings.Contains(ptx[0], "fma.rn.f64") || !strings.Contains(ptx[0], "fma.rn.f32") {
		t.Errorf("no fma in the math functions' PTX")
	}
}

func TestLibdeviceFunctions(t *testing.T) {
	got := LibdeviceFunctions()
	for _, want := range []string{"__nv_expf", "__nv_sinf", "__nv_pow", "__nv_popc", "__nv_float2int_rn", "__nv_float2int_rd",
		"__nv_fadd_ru", "__nv_fast_expf", "__nv_umulhi", "__nv_brev", "__nv_ffs", "__nv_fmaxf", "__nv_j0", "__nv_yn", "__nv_nan"} {
		if !slices.Contains(got, want) {
			t.Errorf("%s missing from %d functions", want, len(got))
		}
	}
	if !slices.IsSorted(got) || slices.Contains(got, "__nv_rcp64h") || len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Errorf("list %v", got)
	}
}

// TestDevicePrintfCompiles: device printf compiles with the prelude, also after <cstdio>.
func TestDevicePrintfCompiles(t *testing.T) {
	needClang(t)
	for _, src := range []string{
		"__global__ void k(int *a) { printf(\"%d\\n\", a[0]); }\n",
		"#include <cstdio>\n__global__ void k(int *a) { printf(\"%d %f\\n\", a[0], 1.5); }\n",
	} {
		res, err := Compile(context.Background(), Request{Source: src, File: "p.cu", Arch: "sm_80", Compiler: "clang"})
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if !strings.Contains(string(res.PTX), "vprintf") {
			t.Errorf("%q: no vprintf call in the PTX", src)
		}
	}
}
