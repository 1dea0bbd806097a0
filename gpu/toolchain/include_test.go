package toolchain

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles creates files (name -> text) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const useHeader = "// a cell\n#include \"helper.cuh\"\n__global__ void k(float *o) { o[threadIdx.x] = twice(o[threadIdx.x]); }\n"

func TestIncludeBesideSource(t *testing.T) {
	needClang(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"helper.cuh": "#pragma once\n__device__ float twice(float x) { return x * 2.5f; }\n",
		"sub/inner.cuh": "#include \"../helper.cuh\"\n"})
	for _, sandbox := range []bool{false, true} {
		res, err := Compile(context.Background(), Request{Source: useHeader, File: "cell.cu", Arch: "sm_80", Compiler: "clang", IncludeDir: dir, Sandbox: sandbox})
		if err != nil {
			t.Fatalf("sandbox=%v: %v", sandbox, err)
		}
		if !strings.Contains(string(res.PTX), "0f40200000") { // 2.5f
			t.Errorf("sandbox=%v: the header's code is not in the PTX", sandbox)
		}
		// A header in a subdirectory including one above it, still under the directory.
		src := strings.Replace(useHeader, "helper.cuh", "sub/inner.cuh", 1)
		if _, err := Compile(context.Background(), Request{Source: src, Arch: "sm_80", Compiler: "clang", IncludeDir: dir, Sandbox: sandbox}); err != nil {
			t.Errorf("sandbox=%v: sub/inner.cuh: %v", sandbox, err)
		}
	}
	// Without the include directory the header is not found (the source is compiled from a temp dir).
	_, err := Compile(context.Background(), Request{Source: useHeader, Arch: "sm_80", Compiler: "clang"})
	var ce *CompileError
	if !errors.As(err, &ce) || !strings.Contains(ce.Error(), "line 2:10: error: 'helper.cuh' file not found") {
		t.Errorf("no include dir: %v", err)
	}
}

func TestDiagnosticInHeaderNamesTheHeader(t *testing.T) {
	needClang(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"helper.cuh": "#pragma once\n__device__ float twice(float x) {\n  return x * undefined_y;\n}\n",
		"outer.cuh": "// outer\n#include \"helper.cuh\"\n"})
	for _, c := range []struct{ src, include string }{{useHeader, "helper.cuh"}, {strings.Replace(useHeader, "helper.cuh", "outer.cuh", 1), "outer.cuh"}} {
		_, err := Compile(context.Background(), Request{Source: c.src, File: "cell.cu", Arch: "sm_80", Compiler: "clang", IncludeDir: dir})
		var ce *CompileError
		if !errors.As(err, &ce) {
			t.Fatalf("%s: want a compile error, got %v", c.include, err)
		}
		var d *Diagnostic
		for i := range ce.Diags {
			if ce.Diags[i].Severity == "error" {
				d = &ce.Diags[i]
				break
			}
		}
		if d == nil || d.File != "helper.cuh" || d.FileLine != 3 || d.FileCol != 14 || d.Line != 2 {
			t.Fatalf("%s: diagnostic %+v, want helper.cuh:3:14 included from line 2", c.include, d)
		}
		if !strings.Contains(ce.Error(), "line 2: error: in helper.cuh:3:14: use of undeclared identifier 'undefined_y'") {
			t.Errorf("%s: Error() = %q", c.include, ce.Error())
		}
		if strings.Contains(ce.Output, dir) {
			t.Errorf("%s: output names the absolute directory: %s", c.include, ce.Output)
		}
	}
}

func TestSandboxRefusesIncludesOutside(t *testing.T) {
	needClang(t)
	root := t.TempDir()
	nb := filepath.Join(root, "nb")
	writeFiles(t, root, map[string]string{"secret.h": "#define SECRET_TOKEN hunter2\n", "nb/ok.cuh": "#pragma once\n",
		"nb/evil.cuh": "// evil\n#include \"../secret.h\"\n"})
	if err := os.Symlink(filepath.Join(root, "secret.h"), filepath.Join(nb, "link.h")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, src string
		line      int
		file      string
		want      string
	}{
		{"absolute", "#include \"ok.cuh\"\n#include \"/etc/passwd\"\n", 2, "", "/etc/passwd"},
		{"dotdot", "\n\n#include \"../secret.h\"\n", 3, "", filepath.Join(root, "secret.h")},
		{"symlink", "#include \"link.h\"\n", 1, "", filepath.Join(root, "secret.h")},
		{"through a header", "// x\n#include \"evil.cuh\"\n", 0, "evil.cuh", filepath.Join(root, "secret.h")},
		{"embed", "const char x[] = {\n#embed \"/etc/hostname\"\n};\n", 2, "", "/etc/hostname"},
		{"macro", "#define P \"/etc/passwd\"\n#include P\n", 0, "", "/etc/passwd"},
	}
	for _, c := range cases {
		_, err := Compile(context.Background(), Request{Source: c.src + "__global__ void k() {}\n", File: "cell.cu", Arch: "sm_80", Compiler: "clang", IncludeDir: nb, Sandbox: true})
		var ce *CompileError
		if !errors.As(err, &ce) || len(ce.Diags) == 0 {
			t.Errorf("%s: want a refusal, got %v", c.name, err)
			continue
		}
		d := ce.Diags[0]
		if d.Line != c.line || d.File != c.file || !strings.Contains(d.Message, "sandbox mode") || !strings.Contains(d.Message, c.want) ||
			!strings.Contains(d.Message, "outside") {
			t.Errorf("%s: diagnostic %+v, want line %d file %q naming %s", c.name, d, c.line, c.file, c.want)
		}
		if strings.Contains(ce.Error()+ce.Output, "hunter2") || strings.Contains(ce.Error()+ce.Output, "root:") {
			t.Errorf("%s: the refusal reveals the file's content: %s", c.name, ce.Error())
		}
		// Outside sandbox mode the same includes are compiled (and fail or not on their own).
		if c.name == "dotdot" {
			if _, err := Compile(context.Background(), Request{Source: c.src + "__global__ void k() {}\n", Arch: "sm_80", Compiler: "clang", IncludeDir: nb}); err != nil {
				t.Errorf("outside sandbox mode: %v", err)
			}
		}
	}
	// System headers stay allowed.
	if _, err := Compile(context.Background(), Request{Source: "#include <stdint.h>\n__global__ void k(uint32_t *p) { p[0] = 1; }\n", Arch: "sm_80", Compiler: "clang", IncludeDir: nb, Sandbox: true}); err != nil {
		t.Errorf("system header in sandbox mode: %v", err)
	}
	// Flags are refused in sandbox mode.
	if _, err := Compile(context.Background(), Request{Source: "__global__ void k() {}\n", Arch: "sm_80", Compiler: "clang", IncludeDir: nb, Sandbox: true, Flags: []string{"-O3"}}); err == nil || !strings.Contains(err.Error(), "sandbox") {
		t.Errorf("flags in sandbox mode: %v", err)
	}
}

func TestCompileWithUnwritableTMPDIR(t *testing.T) {
	needClang(t)
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", notDir) // MkdirTemp there fails even for root
	if _, err := os.MkdirTemp("", "x"); err == nil {
		t.Fatal("the test's TMPDIR is writable")
	}
	if _, err := Compile(context.Background(), Request{Source: "__global__ void k() {}\n", Arch: "sm_80", Compiler: "clang"}); err != nil {
		t.Errorf("compile with TMPDIR=%s: %v", notDir, err)
	}
}

func TestParseDeps(t *testing.T) {
	got := parseDeps("ks-deps: cell.cu kernelscope_prelude.h \\\n  /nb/a\\ b.cuh /x/$$y.h\n")
	want := []string{"cell.cu", "kernelscope_prelude.h", "/nb/a b.cuh", "/x/$y.h"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("parseDeps = %q, want %q", got, want)
	}
}

// TestSandboxWithFakeNvcc: with nvcc, the include list comes from `nvcc -M -MF`;
// a stand-in nvcc reports a dependency outside the directory and one inside.
// (No real nvcc on the development machine: this checks KernelScope's side only.)
func TestSandboxWithFakeNvcc(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	bin := t.TempDir()
	nb := t.TempDir()
	writeFiles(t, nb, map[string]string{"ok.cuh": "\n"})
	nvcc := `#!/bin/sh
case "$1" in
--version) echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0;;
-M) dep="` + filepath.Join(nb, "ok.cuh") + `"; if grep -q passwd cell.cu; then dep="$dep /etc/passwd"; fi
    printf 'ks-deps: cell.cu %s\n' "$dep" > deps.d; exit 0;;
esac
for a; do last="$a"; done
printf '.version 8.0\n.target sm_80\n' > "$last"
`
	if err := os.WriteFile(filepath.Join(bin, "nvcc"), []byte(nvcc), 0o755); err != nil {
		t.Fatal(err)
	}
	sys, _ := exec.LookPath("grep")
	t.Setenv("PATH", bin+":"+filepath.Dir(sys))
	if _, err := Compile(context.Background(), Request{Source: "#include \"ok.cuh\"\n", Arch: "sm_80", IncludeDir: nb, Sandbox: true}); err != nil {
		t.Errorf("allowed include with nvcc: %v", err)
	}
	_, err := Compile(context.Background(), Request{Source: "#include \"ok.cuh\"\n#include \"/etc/passwd\"\n", Arch: "sm_80", IncludeDir: nb, Sandbox: true})
	var ce *CompileError
	if !errors.As(err, &ce) || len(ce.Diags) == 0 || ce.Diags[0].Line != 2 || !strings.Contains(ce.Diags[0].Message, "sandbox mode") {
		t.Errorf("nvcc sandbox refusal: %v", err)
	}
}
