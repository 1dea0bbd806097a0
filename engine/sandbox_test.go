package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/kernel"
)

// TestSandboxEngine runs cells in a sandboxed engine: the compiler magics are
// refused, a header beside the notebook is included, one outside is refused,
// and so is a file() outside the notebook's directory.
func TestSandboxEngine(t *testing.T) {
	needClang(t)
	root := t.TempDir()
	nb := filepath.Join(root, "nb")
	if err := os.MkdirAll(nb, 0o700); err != nil {
		t.Fatal(err)
	}
	for p, text := range map[string]string{"nb/twice.cuh": "#pragma once\n__device__ float twice(float x) { return 2.0f * x; }\n",
		"secret.h": "#define S hunter2\n", "secret.bin": "abcd"} {
		if err := os.WriteFile(filepath.Join(root, p), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	e := New(nb, nil, WithSandbox(), WithProgress(-1, 0))
	kernelSrc := "__global__ void k(float *a) { a[threadIdx.x] = twice(a[threadIdx.x]); }\n"
	cases := []struct{ code, want string }{
		{"%flags -O3", "cell line 1: %flags: refused in sandbox mode"},
		{"%compiler clang", "cell line 1: %compiler: refused in sandbox mode"},
		{"#include \"../secret.h\"\n" + kernelSrc, "cell line 1: error: sandbox mode: #include \"../secret.h\" reads " + filepath.Join(root, "secret.h")},
		{"%launch k(a=file(\"../secret.bin\"))\n#include \"twice.cuh\"\n" + kernelSrc, "sandbox mode: " + filepath.Join(root, "secret.bin") + " is outside the notebook's (or source file's) directory"},
	}
	for _, c := range cases {
		err := e.Execute(context.Background(), kernel.ExecuteRequest{Code: c.code}, &recorder{})
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%q: %v, want %q", c.code, err, c.want)
		}
	}
	r := &recorder{}
	if err := e.Execute(context.Background(), kernel.ExecuteRequest{Code: "%grid 1\n%block 32\n#include \"twice.cuh\"\n" + kernelSrc}, r); err != nil {
		t.Errorf("header beside the notebook: %v", err)
	}
}

// TestSampleWithUnwritableTMPDIR: %sample compiles its source although TMPDIR cannot be written.
func TestSampleWithUnwritableTMPDIR(t *testing.T) {
	needClang(t)
	notDir := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", notDir)
	r := &recorder{}
	if err := New(t.TempDir(), nil, WithProgress(-1, 0)).Execute(context.Background(), kernel.ExecuteRequest{Code: "%sample vector_add"}, r); err != nil {
		t.Fatalf("%%sample with TMPDIR=%s: %v", notDir, err)
	}
	found := false
	for _, s := range r.texts() {
		if strings.Contains(s, "vector_add") {
			found = true
		}
	}
	if !found {
		t.Errorf("no report of vector_add: %q", r.texts())
	}
}
