package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunIncludesAndSandbox: `run FILE` finds a header beside FILE; --sandbox
// refuses flags, the compiler choice and includes outside FILE's directory;
// a grid beyond CUDA's limits says it is too large.
func TestRunIncludesAndSandbox(t *testing.T) {
	if _, err := exec.LookPath("clang-19"); err != nil {
		if os.Getenv("KS_REQUIRE_TOOLS") != "" {
			t.Fatal("clang-19 is required")
		}
		t.Skip("no clang-19")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "src")
	files := map[string]string{
		"src/helper.cuh": "#pragma once\n__device__ float twice(float x) { return 2.0f * x; }\n",
		"src/k.cu":       "#include \"helper.cuh\"\n__global__ void k(float *a) { a[threadIdx.x] = twice(a[threadIdx.x]); }\n",
		"src/escape.cu":  "#include \"../secret.h\"\n__global__ void k(float *a) { a[0] = 1; }\n",
		"secret.h":       "#define S hunter2\n",
	}
	for p, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	k := filepath.Join(dir, "k.cu")
	for _, sandbox := range []string{"", "--sandbox"} {
		args := []string{"run", "--grid", "1", "--block", "32", k}
		if sandbox != "" {
			args = append([]string{"run", sandbox}, args[1:]...)
		}
		if code, _, stderr := runCLI(args...); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--sandbox", "--flags", "-O3", k}, "sandbox mode: compiler flags (-O3) are refused"},
		{[]string{"run", "--sandbox", "--compiler", "clang", k}, "sandbox mode: the compiler choice (clang) is refused"},
		{[]string{"run", "--sandbox", "--budget", "1e11", k}, "sandbox mode: a budget of 100000000000"},
		{[]string{"run", "--sandbox", filepath.Join(dir, "escape.cu")}, `escape.cu:1: error: sandbox mode: #include "../secret.h" reads ` + filepath.Join(root, "secret.h")},
		{[]string{"run", "--flags", "-Wp,-load,/tmp/x.so", k}, `compiler flag "-Wp,-load,/tmp/x.so" is not allowed`},
		{[]string{"run", "--grid", "2147483647,65535,65535", k}, "grid 2147483647x65535x65535 of 256-thread blocks is too large"},
	} {
		code, _, stderr := runCLI(c.args...)
		if code != 1 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "hunter2") {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, stderr, c.want)
		}
	}
}

func TestInstallSandboxFlag(t *testing.T) {
	prefix := t.TempDir()
	code, _, stderr := runCLI("install", "--prefix", prefix, "--sandbox")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(prefix, "share", "jupyter", "kernels", "kernelscope", "kernel.json"))
	if err != nil || !strings.Contains(string(b), `"--sandbox"`) {
		t.Errorf("kernel.json %s (%v): no --sandbox", b, err)
	}
}
