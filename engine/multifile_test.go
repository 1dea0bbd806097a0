package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/render"
)

// lastText is the text/plain of the last display a cell published.
func lastText(t *testing.T, r *recorder) string {
	t.Helper()
	if len(r.displays) == 0 {
		t.Fatal("the cell published nothing")
	}
	s, _ := r.displays[len(r.displays)-1][render.MIMEText].(string)
	return s
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	e := New(dir, nil, WithProgress(-1, 0))
	r, err := run(t, e, "%%writefile vec.cuh\n#pragma once\n#define VEC_N 4")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "vec.cuh"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "#pragma once\n#define VEC_N 4\n" {
		t.Errorf("file holds %q", got)
	}
	if txt := lastText(t, r); txt != "Wrote vec.cuh: 29 bytes" {
		t.Errorf("answer %q", txt)
	}
	r, err = run(t, e, "%%writefile -a vec.cuh\n#define VEC_M 8\n")
	if err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(filepath.Join(dir, "vec.cuh"))
	if string(got) != "#pragma once\n#define VEC_N 4\n#define VEC_M 8\n" {
		t.Errorf("after -a the file holds %q", got)
	}
	if txt := lastText(t, r); txt != "Appended 16 bytes to vec.cuh (45 bytes in all)" {
		t.Errorf("answer %q", txt)
	}
	r, err = run(t, e, "%%writefile vec.cuh\n#define VEC_N 2\n")
	if err != nil {
		t.Fatal(err)
	}
	if txt := lastText(t, r); txt != "Overwrote vec.cuh: 16 bytes" {
		t.Errorf("answer %q", txt)
	}
	// Magic lines in the body are the file's, not magics.
	if _, err := run(t, e, "%%writefile notes.txt\n%grid 4\n"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(got) != "%grid 4\n" {
		t.Errorf("notes.txt holds %q", got)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ cell, want string }{
		{"%%writefile\nx", "cell line 1: %%writefile: expected a file name"},
		{"%%writefile -a\nx", "expected a file name"},
		{"%%writefile a b\nx", "expected one file name"},
		{"%%writefile sub\nx", "cell line 1: %%writefile sub: sub is a directory"},
		{"%%writefile sub/\nx", "a directory"},
		{"%%writefile nodir/x.cuh\nx", "directory nodir does not exist"},
		{"%%writefile notes.txt/x.cuh\nx", "notes.txt is not a directory, so nothing can be written under it"},
		{"// code first\n%%writefile x.cuh\nx", "cell line 2: %%writefile: must be the first line"},
	} {
		_, err := run(t, e, c.cell)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.cell, err, c.want)
		}
	}
	if os.Geteuid() != 0 { // root writes anywhere
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		if _, err := run(t, e, "%%writefile ro/x.cuh\nx"); err == nil || !strings.Contains(err.Error(), "permission denied") {
			t.Errorf("unwritable directory: %v", err)
		}
	}
}

func TestWriteFileSandbox(t *testing.T) {
	base := t.TempDir()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "victim.h"), []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "victim.h"), filepath.Join(base, "out.h")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(base, "outdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "real.h"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.h", filepath.Join(base, "in.h")); err != nil {
		t.Fatal(err)
	}
	e := New(base, nil, WithProgress(-1, 0), WithSandbox())
	for _, name := range []string{"../escape.h", filepath.Join(outside, "abs.h"), "out.h", "outdir/x.h"} {
		_, err := run(t, e, "%%writefile "+name+"\nint x;\n")
		if err == nil || !strings.Contains(err.Error(), "refused in sandbox mode") {
			t.Errorf("%s: error %v, want a sandbox refusal", name, err)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(outside, "victim.h")); string(got) != "keep\n" {
		t.Errorf("the file outside was changed: %q", got)
	}
	for _, f := range []string{"escape.h", "abs.h", "x.h"} {
		if _, err := os.Stat(filepath.Join(outside, f)); err == nil {
			t.Errorf("%s was written outside the notebook's directory", f)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(base), "escape.h")); err == nil {
		t.Error("../escape.h was written")
	}
	// Inside the directory, through a link that stays inside, is allowed.
	if _, err := run(t, e, "%%writefile in.h\nint y;\n"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(base, "real.h")); string(got) != "int y;\n" {
		t.Errorf("real.h holds %q", got)
	}
	// Without the sandbox an absolute path is the user's choice (as in IPython).
	e2 := New(base, nil, WithProgress(-1, 0))
	if _, err := run(t, e2, "%%writefile "+filepath.Join(outside, "abs.h")+"\nint z;\n"); err != nil {
		t.Errorf("without the sandbox: %v", err)
	}
}

const helpersDef = "%%cuda_define helpers\n" +
	"#define SCALE 3.0f\n" +
	"__device__ float sq(float x) {\n" +
	"  return x * x;\n" +
	"}\n" +
	"struct Pair { float a, b; };\n"

func TestDefinitionsUsedByLaterCells(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	r, err := run(t, e, helpersDef)
	if err != nil {
		t.Fatal(err)
	}
	txt := lastText(t, r)
	for _, w := range []string{"kept definition helpers", "macro SCALE", "function sq", "struct Pair"} {
		if !strings.Contains(txt, w) {
			t.Errorf("definition answer lacks %q: %s", w, txt)
		}
	}
	if r.displays[0][render.MIMEReport] != nil {
		t.Error("a definition cell answered with a report")
	}
	// Two later cells use the helper.
	for _, c := range []struct{ cell, out string }{
		{"%launch k(a=arange(8), out=zeros(8), n=8)\n__global__ void k(const float *a, float *out, int n) {\n  int i = threadIdx.x;\n  if (i < n) out[i] = sq(a[i]);\n}\n", "out[8] f32: 0 1 4 9 16"},
		{"%launch k2(a=arange(8), out=zeros(8), n=8)\n__global__ void k2(const float *a, float *out, int n) {\n  int i = threadIdx.x;\n  Pair p{a[i], SCALE};\n  if (i < n) out[i] = sq(p.a) * p.b;\n}\n", "out[8] f32: 0 3 12 27 48"},
	} {
		r, err := run(t, e, c.cell)
		if err != nil {
			t.Fatal(err)
		}
		txt := lastText(t, r)
		if !strings.Contains(txt, c.out) {
			t.Errorf("outputs not computed with the kept helper:\n%s", txt)
		}
		rep := r.displays[0][render.MIMEReport].(map[string]any)
		notes, _ := rep["notes"].([]any)
		found := false
		for _, n := range notes {
			if strings.Contains(n.(string), "uses the kept definitions helpers") {
				found = true
			}
		}
		if !found {
			t.Errorf("report notes do not say the cell used helpers: %v", notes)
		}
		if src, _ := rep["source"].(string); strings.Contains(src, "define:") || strings.Contains(src, "SCALE 3.0f") {
			t.Errorf("the report's source is not the cell as written: %q", src)
		}
		// The Source view's lines are the cell's: every .loc of the cell's file is within it.
		lines := strings.Count(c.cell, "\n") + 1
		for _, in := range rep["memory"].(map[string]any)["instructions"].([]any) {
			if l := int(in.(map[string]any)["cuda_line"].(float64)); l < 0 || l > lines {
				t.Errorf("memory instruction at cuda_line %d, past the cell's %d lines", l, lines)
			}
		}
	}
}

func TestDefinitionsInSandbox(t *testing.T) {
	needClang(t)
	dir := t.TempDir()
	e := New(dir, nil, WithProgress(-1, 0), WithSandbox())
	if _, err := run(t, e, "%%writefile h.cuh\n#define OFFSET 10.0f\n"); err != nil {
		t.Fatal(err)
	}
	r, err := run(t, e, "%%cuda_define helpers\n#include \"h.cuh\"\n__device__ float shift(float x) { return x + OFFSET; }\n")
	if err != nil {
		t.Fatal(err)
	}
	if txt := lastText(t, r); !strings.Contains(txt, "function shift; from the headers it includes: macro OFFSET") {
		t.Errorf("definition answer: %s", txt)
	}
	// A cell that uses only a name of the definition's header uses the definition.
	r, err = run(t, e, "%grid 1\n%block 1\n%launch k(a=zeros(1))\n__global__ void k(float *a) { a[0] = OFFSET; }\n")
	if err != nil {
		t.Fatal(err)
	}
	if txt := lastText(t, r); !strings.Contains(txt, "a[1] f32: 10") || !strings.Contains(txt, "uses the kept definitions helpers") {
		t.Errorf("cell using the definition's header:\n%s", txt)
	}
	r, err = run(t, e, "%grid 1\n%block 4\n%launch k(a=arange(4))\n__global__ void k(float *a) {\n  a[threadIdx.x] = shift(a[threadIdx.x]);\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	if txt := lastText(t, r); !strings.Contains(txt, "a[4] f32: 10 11 12 13") {
		t.Errorf("sandboxed cell with a kept definition:\n%s", txt)
	}
	// The sandbox still refuses an include outside the directory in a definition.
	_, err = run(t, e, "%%cuda_define leak\n\n#include \"/etc/hostname\"\n")
	if err == nil || !strings.Contains(err.Error(), "cell line 3: error: sandbox mode: #include \"/etc/hostname\"") {
		t.Errorf("include outside in a sandboxed definition: %v", err)
	}
	// ... and in a cell below the kept definitions, at the cell's line.
	_, err = run(t, e, "%grid 1\n#include \"/etc/hostname\"\n__global__ void k(float *a) { a[0] = shift(1); }\n")
	if err == nil || !strings.Contains(err.Error(), "cell line 2: error: sandbox mode:") {
		t.Errorf("include outside in a sandboxed cell below definitions: %v", err)
	}
}

func TestDefinitionErrorLines(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	// A definition is compiled when it is defined: its errors are at its cell's lines.
	_, err := run(t, e, "%%cuda_define bad\n\n__device__ int f() {\n  return missing_name;\n}\n")
	if err == nil || !strings.Contains(err.Error(), "cell line 4:10: error:") || !strings.Contains(err.Error(), "missing_name") {
		t.Errorf("definition error: %v", err)
	}
	if r, _ := run(t, e, "%defines"); !strings.Contains(lastText(t, r), "no kept definitions") {
		t.Errorf("a definition that failed to compile was kept: %s", lastText(t, r))
	}
	if _, err := run(t, e, helpersDef); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, e, "%%cuda_define more\n__device__ float quad(float x) {\n  return sq(sq(x));\n}\n"); err != nil {
		t.Fatal(err)
	}
	// An error in a later cell is at that cell's line, not shifted by the definitions.
	_, err = run(t, e, "%grid 1\n__global__ void k(float *a) {\n  a[0] = quad(a[0]) + undefined_thing;\n}\n")
	if err == nil || !strings.Contains(err.Error(), "cell line 3:23: error:") {
		t.Errorf("later cell's error: %v", err)
	}
	// With helpers dropped, the error is inside the kept definition "more", at its line.
	if _, err := run(t, e, "%undefine helpers"); err != nil {
		t.Fatal(err)
	}
	_, err = run(t, e, "%grid 1\n__global__ void k(float *a) {\n  a[0] = quad(a[0]);\n}\n")
	if err == nil || !strings.Contains(err.Error(), "in definition more line 3:") || !strings.Contains(err.Error(), "'sq'") {
		t.Errorf("error inside a kept definition: %v", err)
	}
	// Redefining in place fixes it.
	if _, err := run(t, e, "%%cuda_define more\n__device__ float quad(float x) {\n  return x * x * x * x;\n}\n"); err != nil {
		t.Fatal(err)
	}
	r, err := run(t, e, "%grid 1\n%block 1\n%launch k(a=fill(1, 2))\n__global__ void k(float *a) {\n  a[0] = quad(a[0]);\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	if txt := lastText(t, r); !strings.Contains(txt, "a[1] f32: 16") {
		t.Errorf("redefined quad not used:\n%s", txt)
	}
}

func TestRuntimeErrorInsideDefinition(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	if _, err := run(t, e, "%%cuda_define h\n__device__ void put(float *a, int i) {\n  a[i * 1000000] = 1.0f;\n}\n"); err != nil {
		t.Fatal(err)
	}
	_, err := run(t, e, "%grid 1\n%block 32\n%launch k(a=zeros(32))\n__global__ void k(float *a) {\n  put(a, threadIdx.x);\n}\n")
	if err == nil || !strings.Contains(err.Error(), "out-of-bounds") || !strings.Contains(err.Error(), "definition h line 3") || strings.Contains(err.Error(), "define:") {
		t.Errorf("out-of-bounds store inside a kept definition: %v", err)
	}
}

func TestDefinesAndUndefine(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	if _, err := run(t, e, helpersDef); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, e, "%%cuda_define consts\n__constant__ float c_gain[4];\n"); err != nil {
		t.Fatal(err)
	}
	r, err := run(t, e, "%defines")
	if err != nil {
		t.Fatal(err)
	}
	txt := lastText(t, r)
	if !strings.Contains(txt, "2 kept definitions") || !strings.Contains(txt, "helpers (5 lines)") || !strings.Contains(txt, "consts (1 line): variable c_gain") {
		t.Errorf("%%defines: %s", txt)
	}
	if strings.Index(txt, "helpers") > strings.Index(txt, "consts") {
		t.Errorf("%%defines not in definition order: %s", txt)
	}
	if _, err := run(t, e, "%undefine nosuch"); err == nil || !strings.Contains(err.Error(), `no kept definition named "nosuch" (kept: helpers, consts)`) {
		t.Errorf("%%undefine nosuch: %v", err)
	}
	if _, err := run(t, e, "%undefine helpers"); err != nil {
		t.Fatal(err)
	}
	r, _ = run(t, e, "%defines")
	if txt := lastText(t, r); strings.Contains(txt, "helpers") || !strings.Contains(txt, "consts") {
		t.Errorf("after %%undefine helpers: %s", txt)
	}
	_, err = run(t, e, "%grid 1\n__global__ void k(float *a) {\n  a[0] = sq(a[0]);\n}\n")
	if err == nil || !strings.Contains(err.Error(), "cell line 3:") || !strings.Contains(err.Error(), "'sq'") {
		t.Errorf("a dropped definition is still seen: %v", err)
	}
	// A new engine (a restarted kernel) has none.
	if r, _ := run(t, newEngine(t), "%defines"); !strings.Contains(lastText(t, r), "no kept definitions") {
		t.Error("a new engine has kept definitions")
	}
}

func TestCompletionKnowsDefinitionsAndHeaders(t *testing.T) {
	needClang(t)
	dir := t.TempDir()
	e := New(dir, nil, WithProgress(-1, 0))
	if _, err := run(t, e, "%%writefile vec.cuh\n#pragma once\nstruct Vec3 { float x, y, z; };\n__device__ inline float vec_dot(Vec3 a, Vec3 b) { return a.x*b.x + a.y*b.y + a.z*b.z; }\n#define VEC_WIDTH 3\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, e, helpersDef); err != nil {
		t.Fatal(err)
	}
	complete := func(code string) []string {
		i := strings.IndexByte(code, '|')
		m, _, _ := e.Complete(code[:i]+code[i+1:], i)
		return m
	}
	if m := complete("__global__ void k(float *a) {\n  a[0] = s|"); !slices.Contains(m, "sq") {
		t.Errorf("kept function not completed: %v", m)
	}
	if m := complete("__global__ void k(float *a) {\n  a[0] = SC|"); !slices.Contains(m, "SCALE") {
		t.Errorf("kept macro not completed: %v", m)
	}
	if m := complete("__global__ void k(float *a) {\n  P|"); !slices.Contains(m, "Pair") {
		t.Errorf("kept struct not completed: %v", m)
	}
	if m := complete("%undefine he|"); !slices.Contains(m, "helpers") {
		t.Errorf("%%undefine does not complete definition names: %v", m)
	}
	inc := "#include \"vec.cuh\"\n__global__ void k(float *a) {\n  a[0] = vec_|"
	if m := complete(inc); !slices.Contains(m, "vec_dot") {
		t.Errorf("names of the included header not completed: %v", m)
	}
	if m := complete("#include \"vec.cuh\"\n__global__ void k(float *a) {\n  V|"); !slices.Contains(m, "Vec3") || !slices.Contains(m, "VEC_WIDTH") {
		t.Errorf("struct and macro of the header not completed: %v", m)
	}
	if m := complete("__global__ void k(float *a) {\n  vec_|"); slices.Contains(m, "vec_dot") {
		t.Errorf("a header the cell does not include is completed: %v", m)
	}
	code := "#include \"vec.cuh\"\n__global__ void k(float *a) { a[0] = sq(vec_dot(Vec3{}, Vec3{})); }"
	b, ok := e.Inspect(code, strings.Index(code, "sq(")+1, 0)
	if !ok || !strings.Contains(b[render.MIMEText].(string), "declared in definition helpers line 3") {
		t.Errorf("inspect sq: %v %v", ok, b)
	}
	b, ok = e.Inspect(code, strings.Index(code, "vec_dot")+2, 0)
	if !ok || !strings.Contains(b[render.MIMEText].(string), "__device__ inline float vec_dot(Vec3 a, Vec3 b)") || !strings.Contains(b[render.MIMEText].(string), "vec.cuh line 3") {
		t.Errorf("inspect vec_dot: %v %v", ok, b)
	}
}
