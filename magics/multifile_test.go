package magics

import (
	"strings"
	"testing"
)

func TestParseWriteFile(t *testing.T) {
	s, err := NewState().Parse("%%writefile -a \"my file.cuh\"\n%grid 4\n#define X 1")
	if err != nil {
		t.Fatal(err)
	}
	w := s.WriteFile
	if w == nil || w.Name != "my file.cuh" || !w.Append || w.Body != "%grid 4\n#define X 1\n" || w.Line != 1 {
		t.Fatalf("got %+v", w)
	}
	st := NewState()
	if s, err = st.Parse("\n%%writefile k.cuh\n"); err != nil || s.WriteFile.Name != "k.cuh" || s.WriteFile.Append || s.WriteFile.Body != "" || s.WriteFile.Line != 2 {
		t.Fatalf("got %+v, %v", s.WriteFile, err)
	}
	if st.d.grid != ([3]int{}) {
		t.Error("a %%writefile body changed the defaults")
	}
	for _, c := range []struct{ cell, want string }{
		{"%%writefile", "cell line 1: %%writefile: expected a file name"},
		{"%%writefile --bogus x", "unknown option"},
		{"%%writefile a b", "expected one file name"},
		{"%%writefile \"a", "bad quoted file name"},
		{"int x;\n%%writefile a", "cell line 2: %%writefile: must be the first line"},
	} {
		if _, err := NewState().Parse(c.cell); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.cell, err, c.want)
		}
	}
}

func TestParseDefine(t *testing.T) {
	s, err := NewState().Parse("%%cuda_define helpers\n__device__ float sq(float x) { return x * x; }\n")
	if err != nil {
		t.Fatal(err)
	}
	if s.Define != "helpers" || s.Kind != CUDA || !strings.HasPrefix(s.Source, "\n__device__") {
		t.Fatalf("got define %q kind %v source %q", s.Define, s.Kind, s.Source)
	}
	for _, c := range []struct{ cell, want string }{
		{"%%cuda_define\nint x;", "expected one definition name"},
		{"%%cuda_define a b\nint x;", "expected one definition name"},
		{"%%cuda_define 1x\nint x;", "not a definition name"},
		{"%%cuda_define h\n", "holds no code"},
		{"%%cuda_define h\n%arch sm_90\nint x;", "cell line 2: %arch: a %%cuda_define cell holds code only"},
		{"%%cuda_define h\n// a kernel\n\n__global__ void k(int *a) {}\n", "cell line 4: %%cuda_define: a kept definition holds device functions, types, variables and macros, not kernels: __global__ k"},
		{"__device__ int x;\n%%cuda_define h", "must be the first line"},
		{"%%cuda_def h\nint x;", "the cell magics are %%ptx, %%writefile, %%cuda_define"},
		{"%undefine", "expected the names"},
		{"%defines\nint x;", "cell line 1: %defines: belongs in a cell of magics"},
		{"%undefine a\n__device__ int x;", "belongs in a cell of magics"},
	} {
		if _, err := NewState().Parse(c.cell); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.cell, err, c.want)
		}
	}
	s, err = NewState().Parse("%undefine a b\n%undefine c")
	if err != nil || strings.Join(s.Undefine, ",") != "a,b,c" || s.Kind != Config {
		t.Errorf("%%undefine: %v %v", s.Undefine, err)
	}
}

func TestScanDecls(t *testing.T) {
	src := `#pragma once
#define TILE 16
#define MAX(a, b) ((a) > (b) ? (a) : (b))
// __device__ float commented_out(float x) { return x; }
namespace util {
struct __align__(16) Vec4 { float x, y, z, w; };
template <typename T>
__device__ __forceinline__ T clampv(T v, T lo, T hi) {
  int inner_local = 0;
  return v < lo ? lo : (v > hi ? hi : v);
}
}
typedef unsigned int u32;
using real = float;
enum class Mode { A, B };
__constant__ float c_weights[TILE];
__device__ int d_counter = 0;
constexpr int kWarp = 32;
__global__ void kern(float *p) { }
const char *s = "struct Fake {";
`
	ds := ScanDecls(src, "x.cuh")
	got := map[string]Decl{}
	for _, d := range ds {
		got[d.Name] = d
	}
	want := map[string]string{"TILE": "macro", "MAX": "macro", "Vec4": "struct", "clampv": "function", "u32": "type", "real": "type",
		"Mode": "enum", "c_weights": "variable", "d_counter": "variable", "kWarp": "variable", "kern": "kernel"}
	for n, k := range want {
		if got[n].Kind != k {
			t.Errorf("%s: kind %q, want %q (all: %v)", n, got[n].Kind, k, ds)
		}
	}
	for _, n := range []string{"commented_out", "inner_local", "Fake", "x", "util"} {
		if _, ok := got[n]; ok {
			t.Errorf("%s should not be declared: %+v", n, got[n])
		}
	}
	if d := got["clampv"]; d.Line != 7 || d.Where != "x.cuh" || !strings.Contains(d.Text, "__device__ __forceinline__ T clampv(T v, T lo, T hi)") {
		t.Errorf("clampv: %+v", d)
	}
	if d := got["MAX"]; d.Line != 3 || d.Text != "#define MAX(a, b) ((a) > (b) ? (a) : (b))" {
		t.Errorf("MAX: %+v", d)
	}
}

func TestCompleteEnv(t *testing.T) {
	env := Env{Decls: []Decl{{Name: "vec_dot", Kind: "function", Text: "__device__ float vec_dot(float3 a, float3 b)", Where: "vec.cuh", Line: 4}}, Defines: []string{"helpers"}}
	code, cur := at("__global__ void k() {\n  float d = vec_|")
	if m, _, _ := CompleteEnv(code, cur, env); len(m) != 1 || m[0] != "vec_dot" {
		t.Errorf("got %v", m)
	}
	if m, _, _ := Complete(code, cur); len(m) != 0 {
		t.Errorf("without the env: %v", m)
	}
	code, cur = at("%undefine h|")
	if m, _, _ := CompleteEnv(code, cur, env); len(m) != 1 || m[0] != "helpers" {
		t.Errorf("%%undefine: %v", m)
	}
	code, cur = at("%%wr|")
	if m, _, _ := Complete(code, cur); len(m) != 1 || m[0] != "%%writefile" {
		t.Errorf("%%%%wr: %v", m)
	}
	code = "float d = vec_dot(a, b);"
	text, _, ok := InspectEnv(code, 12, env)
	if !ok || !strings.Contains(text, "function, declared in vec.cuh line 4") {
		t.Errorf("inspect: %v %q", ok, text)
	}
}

func TestIsCompleteWriteFile(t *testing.T) {
	if st, _ := IsComplete("%%writefile part.cuh\nstruct S {\n"); st != "complete" {
		t.Errorf("a %%%%writefile cell with an open brace: %s", st)
	}
	if st, _ := IsComplete("%%cuda_define h\nstruct S {\n"); st != "incomplete" {
		t.Errorf("a %%%%cuda_define cell with an open brace: %s", st)
	}
}
