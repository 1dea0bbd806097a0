package toolchain

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCheckFlagsRefusesBypasses feeds every known way to make a compiler read,
// write or run something through the flag checker.
func TestCheckFlagsRefusesBypasses(t *testing.T) {
	refused := [][]string{
		{"-Wp,-load,/tmp/x.so"}, {"-Wl,-rpath,/tmp"}, {"-Wa,-o,/tmp/x"}, {"-Wp"}, {"-Wl"}, {"-Wa"},
		{"-Xclang", "-load"}, {"-Xclang=-load"}, {"-Xptxas", "-o,/tmp/x"}, {"-Xptxas=--output-file=/tmp/x"},
		{"-Xptxas", "-v,-o"}, {"-Xcompiler", "-fplugin=x.so"}, {"-Xcompiler=-Wl,x"}, {"-Xlinker", "x"},
		{"-Xcuda-ptxas", "-v"}, {"-Xarch_device", "-o"}, {"--compiler-options", "-x"}, {"--linker-options=x"},
		{"-fplugin=x.so"}, {"-fplugin-arg-x-y"}, {"-fpass-plugin=x.so"}, {"-load", "x.so"}, {"-load=x.so"},
		{"-o", "/etc/passwd"}, {"-o/etc/passwd"}, {"-MF", "/tmp/x"}, {"-MF/tmp/x"}, {"-MD"}, {"-MMD"}, {"-M"},
		{"-MT", "x"}, {"-MJ", "x"}, {"-foptimization-record-file=/tmp/x"}, {"-fsave-optimization-record"},
		{"-fprofile-generate=/tmp/x"}, {"-fcrash-diagnostics-dir=/tmp"}, {"-fmodules-cache-path=/tmp"},
		{"@/tmp/args"}, {"@args"}, {"-B/tmp"}, {"-B", "/tmp"}, {"--sysroot=/tmp"}, {"--sysroot", "/tmp"},
		{"-isysroot", "/tmp"}, {"-include", "/etc/passwd"}, {"-include/etc/passwd"}, {"-imacros", "/etc/passwd"},
		{"-isystem", "/tmp"}, {"-isystem/tmp"}, {"-iquote", "/tmp"}, {"-idirafter", "/tmp"}, {"-cxx-isystem", "/tmp"},
		{"--compiler-bindir=/tmp"}, {"--compiler-bindir", "/tmp"}, {"-ccbin", "/tmp/cc"}, {"-ccbin=/tmp/cc"},
		{"--output-directory", "/tmp"}, {"--output-directory=/tmp"}, {"-odir", "/tmp"}, {"--keep"},
		{"--keep-dir=/tmp"}, {"-keep"}, {"-save-temps"}, {"--save-temps=obj"}, {"--cuda-path=/tmp"},
		{"-resource-dir=/tmp"}, {"--options-file", "x"}, {"-optf", "x"}, {"--dependency-output", "x"},
		{"--run"}, {"-run"}, {"-x", "c"}, {"cell.cu"}, {"/etc/passwd"}, {"-"}, {"--"}, {"-###"}, {"-v"},
		{"-E"}, {"-S"}, {"-c"}, {"-emit-llvm"}, {"-DX=$(id)"}, {"-DX='a'"}, {`-DX="a"`}, {"-DX=a,b"}, {"-D"},
		{"-D", "-o"}, {"-U", "1X"}, {"-U"}, {"-std=c++17;x"}, {"-std"}, {"-W"}, {"-Wfoo,bar"}, {"-W,x"},
		{"-I"}, {"-I", "-o"}, {"-I@x"}, {"-I/tmp,x"}, {"-maxrregcount=abc"}, {"--maxrregcount"}, {"-maxrregcount", "-o"},
		{"-ftz=maybe"}, {"-ftz"}, {"-fmad", "x"}, {"-O4"}, {"-Ofast"}, {"-O"}, {"-fno-builtin-x"},
		{"--ptxas-options=-v,-o,x"}, {"-Xptxas"}, {"-fuse-ld=/tmp/ld"}, {"-fproc-stat-report=/tmp/x"},
		{"-ftime-trace=/tmp/x"}, {"-fdebug-prefix-map=/=/tmp"}, {"--config=/tmp/x"}, {"--config", "x"},
		{"-ivfsoverlay", "/tmp/x"}, {"-fembed-offload-object=x"}, {"-mllvm", "-x"}, {"-Xoffload-linker", "x"},
		{"-O3", "-fplugin=x.so"}, // one bad flag in a list refuses the list
	}
	for _, f := range refused {
		err := CheckFlags(f)
		if err == nil {
			t.Errorf("CheckFlags(%q) accepted", f)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, "not allowed") || !strings.Contains(msg, "allowed flags: -O0") {
			t.Errorf("CheckFlags(%q) = %q: want the flag named and the allowed list", f, msg)
		}
		if got := clangFlags(f, ""); len(got) != 0 {
			t.Errorf("clangFlags(%q) = %q: a refused list must give no flags", f, got)
		}
		if got := nvccFlags(f, ""); len(got) != 0 {
			t.Errorf("nvccFlags(%q) = %q: a refused list must give no flags", f, got)
		}
	}
	err := CheckFlags([]string{"-Wp,-load,/tmp/x.so"})
	if err == nil || !strings.Contains(err.Error(), `"-Wp,-load,/tmp/x.so"`) || !strings.Contains(err.Error(), "passes options through") {
		t.Errorf("-Wp: %v", err)
	}
}

// TestCheckFlagsAccepts covers what notebooks, tests and users rely on, and the
// argv each list becomes for clang and nvcc.
func TestCheckFlagsAccepts(t *testing.T) {
	cases := []struct {
		in          []string
		clang, nvcc []string
	}{
		{[]string{"-O3", "-use_fast_math"}, []string{"-O3", "-fgpu-approx-transcendentals", "-fgpu-flush-denormals-to-zero", "-mllvm", "-nvptx-prec-divf32=0"}, []string{"-O3", "-use_fast_math"}},
		{[]string{"--use_fast_math"}, []string{"-fgpu-approx-transcendentals", "-fgpu-flush-denormals-to-zero", "-mllvm", "-nvptx-prec-divf32=0"}, []string{"--use_fast_math"}},
		{[]string{"-ffast-math"}, []string{"-ffast-math"}, []string{"-use_fast_math"}},
		{[]string{"-Wall", "-Wextra", "-Wno-unused-variable", "-Werror", "-Werror=shadow", "-w"}, []string{"-Wall", "-Wextra", "-Wno-unused-variable", "-Werror", "-Werror=shadow", "-w"},
			[]string{"-Wall", "-Wextra", "-Wno-unused-variable", "-Werror", "-Werror=shadow", "-w"}},
		{[]string{"-DN=4", "-D", "TILE=16", "-DDEBUG", "-UNDEBUG", "-U", "X", "-DV=-1.5e+3"}, []string{"-DN=4", "-DTILE=16", "-DDEBUG", "-UNDEBUG", "-UX", "-DV=-1.5e+3"},
			[]string{"-DN=4", "-DTILE=16", "-DDEBUG", "-UNDEBUG", "-UX", "-DV=-1.5e+3"}},
		{[]string{"-O0", "-O1", "-O2", "-Os"}, []string{"-O0", "-O1", "-O2", "-Os"}, []string{"-O0", "-O1", "-O2", "-Os"}},
		{[]string{"-std=c++17", "--std=c++20", "-std", "gnu++14"}, []string{"-std=c++17", "-std=c++20", "-std=gnu++14"}, []string{"-std=c++17", "-std=c++20", "-std=gnu++14"}},
		{[]string{"-ftz=true", "--ftz=false", "-prec-div=false", "--prec-sqrt", "true", "-fmad=false", "--fmad", "true"},
			[]string{"-fgpu-flush-denormals-to-zero", "-fno-gpu-flush-denormals-to-zero", "-ffp-contract=off", "-ffp-contract=fast-honor-pragmas"},
			[]string{"-ftz=true", "--ftz=false", "-prec-div=false", "--prec-sqrt=true", "-fmad=false", "--fmad=true"}},
		{[]string{"-ffp-contract=off"}, []string{"-ffp-contract=off"}, []string{"-fmad=false"}},
		{[]string{"-lineinfo", "-G", "-g", "-maxrregcount=32", "--maxrregcount", "64", "-Xptxas", "-v", "-Xptxas=-O2"}, nil,
			[]string{"-lineinfo", "-G", "-g", "-maxrregcount=32", "--maxrregcount=64", "--ptxas-options=-v", "--ptxas-options=-O2"}},
		{[]string{"-fno-signed-zeros", "-funroll-loops", "-fgpu-approx-transcendentals"}, []string{"-fno-signed-zeros", "-funroll-loops", "-fgpu-approx-transcendentals"}, []string{}},
		{[]string{"--expt-relaxed-constexpr", "--extended-lambda", "-restrict"}, nil, []string{"--expt-relaxed-constexpr", "--extended-lambda", "-restrict"}},
		{[]string{"-I/usr/include/x", "-I", "/opt/inc"}, []string{"-I/usr/include/x", "-I/opt/inc"}, []string{"-I/usr/include/x", "-I/opt/inc"}},
	}
	for _, c := range cases {
		if err := CheckFlags(c.in); err != nil {
			t.Errorf("CheckFlags(%q): %v", c.in, err)
			continue
		}
		if got := clangFlags(c.in, "/nb"); !slices.Equal(got, c.clang) {
			t.Errorf("clangFlags(%q) = %q, want %q", c.in, got, c.clang)
		}
		if got := nvccFlags(c.in, "/nb"); !slices.Equal(got, c.nvcc) {
			t.Errorf("nvccFlags(%q) = %q, want %q", c.in, got, c.nvcc)
		}
	}
	// A relative -I is made absolute against the include directory (the compiler runs in a temp dir).
	got := ClangArgs("sm_80", []string{"-Iinc", "-I", "../up"}, "/tmp/ks", "/nb/dir", "cell.cu", "out.ptx")
	if !slices.Contains(got, "-I/nb/dir/inc") || !slices.Contains(got, "-I/nb/up") || !slices.Contains(got, "/nb/dir") {
		t.Errorf("ClangArgs with -I and an include dir: %q", got)
	}
}

// The argv grammar the fuzz target checks: written apart from the checker, so a
// translation that lets anything else through fails it.
var (
	argvGrammar = []*regexp.Regexp{
		regexp.MustCompile(`^-O[0-3s]$`),
		regexp.MustCompile(`^-D[A-Za-z_][A-Za-z0-9_]*(=[A-Za-z0-9_.+-]*)?$`),
		regexp.MustCompile(`^-U[A-Za-z_][A-Za-z0-9_]*$`),
		regexp.MustCompile(`^-std=(c|gnu)\+\+[0-9a-z]{2}$`),
		regexp.MustCompile(`^-W(no-)?(error=)?[a-z][a-z0-9+-]*(=[a-z0-9+-]+)?$`),
		regexp.MustCompile(`^-w$`),
		regexp.MustCompile(`^-f(no-)?(fast-math|finite-math-only|unsafe-math-optimizations|reciprocal-math|associative-math|signed-zeros|honor-nans|honor-infinities|(gpu|cuda)-approx-transcendentals|(gpu|cuda)-flush-denormals-to-zero|unroll-loops)$`),
		regexp.MustCompile(`^-ffp-contract=(off|on|fast|fast-honor-pragmas)$`),
		regexp.MustCompile(`^-I/[A-Za-z0-9_./+-]*$`),
	}
	nvccGrammar = []*regexp.Regexp{
		regexp.MustCompile(`^--?(use_fast_math|lineinfo|generate-line-info|restrict|expt-relaxed-constexpr|extended-lambda|expt-extended-lambda|extra-device-vectorization)$`),
		regexp.MustCompile(`^-[Gg]$`),
		regexp.MustCompile(`^--?(ftz|prec-div|prec-sqrt|fmad)=(true|false)$`),
		regexp.MustCompile(`^--?maxrregcount=[0-9]{1,3}$`),
		regexp.MustCompile(`^--ptxas-options=(-v|--verbose|-O[0-3]|-warn-spills|--warn-on-spills|-warn-lmem-usage|--warn-on-local-memory-usage)$`),
	}
)

func inGrammar(a string, gs ...[]*regexp.Regexp) bool {
	if a == "-Wp" || a == "-Wl" || a == "-Wa" {
		return false
	}
	for _, g := range gs {
		for _, re := range g {
			if re.MatchString(a) {
				return true
			}
		}
	}
	return false
}

// FuzzCheckFlags: whatever the flag list, the argv clang and nvcc are given holds
// only the fixed arguments and elements of the allow-list grammar; an accepted
// list is one whose translation is not empty unless it only held dropped flags.
func FuzzCheckFlags(f *testing.F) {
	for _, s := range []string{"-O3 -use_fast_math", "-Wp,-load,x.so", "-D N=4 -Wall", "-Xclang -load -Xclang x.so",
		"-I inc -I/abs", "--maxrregcount 32 -Xptxas -v", "@file", "-DX=1,Y=2", "-ftz true -fmad=false", "-Wl", "-Iinc -o x"} {
		f.Add(s)
	}
	base := ClangArgs("sm_80", nil, "/tmp/ks", "/nb", "cell.cu", "out.ptx")
	nvBase := NvccArgs("ptx", "sm_80", nil, "/nb", "cell.cu", "out.ptx")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 512 {
			return
		}
		flags := strings.Fields(s)
		err := CheckFlags(flags)
		args := ClangArgs("sm_80", flags, "/tmp/ks", "/nb", "cell.cu", "out.ptx")
		if len(args) < len(base) || !slices.Equal(args[:len(base)-3], base[:len(base)-3]) || !slices.Equal(args[len(args)-3:], base[len(base)-3:]) {
			t.Fatalf("flags %q changed the fixed clang arguments: %q", flags, args)
		}
		user := args[len(base)-3 : len(args)-3]
		if err != nil && len(user) > 0 {
			t.Fatalf("refused flags %q (%v) reached clang: %q", flags, err, user)
		}
		for i := 0; i < len(user); i++ {
			// the one LLVM option a flag may give: -use_fast_math's div.approx
			if user[i] == "-mllvm" && i+1 < len(user) && user[i+1] == "-nvptx-prec-divf32=0" {
				i++
				continue
			}
			if !inGrammar(user[i], argvGrammar) {
				t.Fatalf("flags %q gave clang argument %q outside the grammar", flags, user[i])
			}
		}
		nv := NvccArgs("ptx", "sm_80", flags, "/nb", "cell.cu", "out.ptx")
		nvUser := nv[len(nvBase)-3 : len(nv)-3]
		if err != nil && len(nvUser) > 0 {
			t.Fatalf("refused flags %q reached nvcc: %q", flags, nvUser)
		}
		for _, a := range nvUser {
			if !inGrammar(a, argvGrammar, nvccGrammar) || argvGrammar[6].MatchString(a) || argvGrammar[7].MatchString(a) {
				t.Fatalf("flags %q gave nvcc argument %q outside the grammar", flags, a)
			}
		}
	})
}
