package magics

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// at splits a cell written with a | marking the cursor into the code and the code-point cursor.
func at(s string) (string, int) {
	i := strings.IndexByte(s, '|')
	return s[:i] + s[i+1:], utf8.RuneCountInString(s[:i])
}

func TestComplete(t *testing.T) {
	cuda := "__global__ void saxpy(float *x) {}\n__global__ __launch_bounds__(256) void scale_rows(float *y) {}\n"
	cases := []struct {
		cell       string
		want       []string // all must be present
		notWant    []string
		start, end int // code points; -1 = don't check
	}{
		{"%ar|", []string{"%arch"}, []string{"%grid"}, 0, 3},
		{"%|", Names()[1:], nil, 0, 1},
		{"%%p|", []string{"%%ptx"}, nil, 0, 3},
		{"%arch sm_|", arch.Names(), nil, 6, 9},
		{"%arch sm_8|", []string{"sm_80", "sm_86", "sm_89"}, []string{"sm_90"}, 6, 10},
		{"%compiler c|", []string{"clang"}, []string{"nvcc"}, -1, -1},
		{"%timing o|", []string{"on", "off"}, nil, -1, -1},
		{"%show ptx,mem|", []string{"memory"}, []string{"ptx"}, 10, 13},
		{"%hide |", Sections(), nil, -1, -1},
		{"%sample vec|", []string{"vector_add"}, nil, -1, -1},
		{"%trace b|", []string{"block="}, nil, -1, -1},
		{cuda + "%launch s|", []string{"saxpy", "scale_rows"}, nil, -1, -1},
		{cuda + "%launch saxpy(x=ra|", []string{"rand"}, []string{"zeros"}, -1, -1},
		{cuda + "%launch saxpy(x=rand(4):f|", []string{"f16", "f32", "f64"}, []string{"rand"}, -1, -1},
		{cuda + "  __sh|", []string{"__shfl_sync", "__shfl_down_sync", "__shared__"}, nil, -1, -1},
		{cuda + "atomicA|", []string{"atomicAdd", "atomicAnd"}, nil, -1, -1},
		{cuda + "thread|", []string{"threadIdx"}, nil, -1, -1},
		{cuda + "sca|", []string{"scale_rows"}, nil, -1, -1},
		{cuda + "  __syncth|", []string{"__syncthreads", "__syncthreads_count"}, nil, -1, -1},
		{"// é ü\nblockI|", []string{"blockIdx"}, nil, 7, 13},
	}
	for _, c := range cases {
		code, cur := at(c.cell)
		got, start, end := Complete(code, cur)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %v lacks %s", c.cell, got, w)
			}
		}
		for _, w := range c.notWant {
			if slices.Contains(got, w) {
				t.Errorf("%q: %v has %s", c.cell, got, w)
			}
		}
		if c.start >= 0 && (start != c.start || end != c.end) {
			t.Errorf("%q: range [%d,%d), want [%d,%d)", c.cell, start, end, c.start, c.end)
		}
		if end != cur {
			t.Errorf("%q: end %d != cursor %d", c.cell, end, cur)
		}
	}
}

func TestCompletePTXOpcodes(t *testing.T) {
	ops := ptx.Opcodes()
	if len(ops) == 0 {
		t.Skip("gpu/ptx has no opcodes yet")
	}
	code, cur := at("%%ptx\n.visible .entry k() {\n  sh|")
	got, start, _ := Complete(code, cur)
	want := []string{}
	for _, o := range ops {
		if strings.HasPrefix(o, "sh") {
			want = append(want, o)
		}
	}
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("got %v want %v", got, want)
	}
	if start != cur-2 {
		t.Errorf("start %d", start)
	}
	// CUDA words are not offered in a PTX cell.
	code, cur = at("%%ptx\n__sync|")
	if got, _, _ := Complete(code, cur); slices.Contains(got, "__syncthreads") {
		t.Errorf("CUDA word in a PTX cell: %v", got)
	}
}

func TestInspect(t *testing.T) {
	cases := []struct {
		cell string
		want string // in text and HTML
	}{
		{"%gr|id 4", "Grid size in blocks"},
		{"%arch sm|_90", "Target architecture"},
		{"x = __shfl_do|wn_sync(m, v, 1);", "__shfl_down_sync"},
		{"int i = threadI|dx.x;", "index within its block"},
		{"atomic|Add(p, 1);", "Atomically adds"},
		{"  __syncthreads|();", "barrier"},
		{"%%ptx\n%lsmagic\n", ""},
	}
	for _, c := range cases {
		if c.want == "" {
			continue
		}
		code, cur := at(c.cell)
		text, h, ok := Inspect(code, cur)
		if !ok || !strings.Contains(text, c.want) || !strings.Contains(h, c.want) {
			t.Errorf("%q: ok=%v text=%q", c.cell, ok, text)
		}
	}
	for _, cell := range []string{"int fo|o = 1;", "|", "%unknownmagic| 3", "  |  "} {
		code, cur := at(cell)
		if _, _, ok := Inspect(code, cur); ok {
			t.Errorf("%q: documented something", cell)
		}
	}
}

func TestInspectPTX(t *testing.T) {
	if _, ok := ptx.OpcodeDoc("ld"); !ok {
		t.Skip("gpu/ptx has no opcode docs yet")
	}
	code, cur := at("%%ptx\n  ld.glo|bal.f32 %f1, [%rd1];")
	text, h, ok := Inspect(code, cur)
	d, _ := ptx.OpcodeDoc("ld")
	if !ok || !strings.Contains(text, d.Summary) || !strings.Contains(h, "ld") {
		t.Errorf("ok=%v text=%q", ok, text)
	}
	code, cur = at("%%ptx\n  @%p1 br|a $L1;")
	if text, _, ok := Inspect(code, cur); !ok || !strings.Contains(text, "bra") {
		t.Errorf("bra: ok=%v %q", ok, text)
	}
}

func TestIsComplete(t *testing.T) {
	cases := []struct{ code, status, indent string }{
		{"__global__ void k() {}", "complete", ""},
		{"__global__ void k() {", "incomplete", "    "},
		{"__global__ void k() {\n  if (x) {\n", "incomplete", "        "},
		{"f(a, (b", "incomplete", "        "},
		{"int a[3] = {1, 2, 3};", "complete", ""},
		{"}", "invalid", ""},
		{"f(]", "invalid", ""},
		{`const char *s = "{";`, "complete", ""},
		{`char c = '{';`, "complete", ""},
		{"// {\nint x;", "complete", ""},
		{"/* { */ int x;", "complete", ""},
		{"/* {\n", "incomplete", ""},
		{`const char *s = "abc`, "invalid", ""},
		{"%launch k(a=zeros(3)\nint x;", "complete", ""},
		{"", "complete", ""},
		{"%%ptx\n.entry k() {\n", "incomplete", "    "},
	}
	for _, c := range cases {
		st, ind := IsComplete(c.code)
		if st != c.status || ind != c.indent {
			t.Errorf("%q: %q %q, want %q %q", c.code, st, ind, c.status, c.indent)
		}
	}
}

func TestCUDADocsAreWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range cudaDocs {
		if seen[d.Name] {
			t.Errorf("duplicate %s", d.Name)
		}
		seen[d.Name] = true
		if d.Syntax == "" || len(d.Summary) < 10 || !strings.HasSuffix(d.Summary, ".") {
			t.Errorf("%s: syntax %q summary %q", d.Name, d.Syntax, d.Summary)
		}
	}
	// The words the prelude promises are documented.
	for _, w := range []string{"__syncthreads", "__syncwarp", "__threadfence", "atomicAdd", "atomicCAS", "__shfl_sync",
		"__ballot_sync", "__any_sync", "__all_sync", "__activemask", "__popc", "__clz", "__ffs", "__brev", "__umulhi",
		"__mulhi", "__float2int_rn", "sqrtf", "expf", "__expf", "__sinf", "__fdividef", "threadIdx", "blockIdx",
		"blockDim", "gridDim", "warpSize"} {
		if !seen[w] {
			t.Errorf("%s not documented", w)
		}
	}
}

// FuzzCellLanguage checks that no input makes the parser, completion, inspection or
// IsComplete panic, and that Complete's range is within the code.
func FuzzCellLanguage(f *testing.F) {
	for _, s := range []string{"%arch sm_90\n" + kernel, "%%ptx\nadd.s32 %r1, %r2;", "%launch k(a=rand(4, 0, 1, 3):f32, n=4)",
		"%launch k(a=file(\"x\\\"\"))", "é%gr", "{(/*", "%trace warps=1-", "\r\n%block 1x", "%launch k(a=zeros(4)):"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, code string, cursor int) {
		_, _ = NewState().Parse(code)
		_, _ = ParseLaunch(code)
		n := utf8.RuneCountInString(code)
		m, start, end := Complete(code, cursor)
		if start < 0 || start > end || end > n || len(m) > 0 && end != min(max(cursor, 0), n) {
			t.Errorf("range [%d,%d) for %d code points", start, end, n)
		}
		_, _, _ = Inspect(code, cursor)
		_, _ = IsComplete(code)
	})
}
