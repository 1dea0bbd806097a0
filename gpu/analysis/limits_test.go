package analysis

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/launch"
)

func needClangHere(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("clang-19"); err != nil {
		if os.Getenv("KS_REQUIRE_TOOLS") != "" {
			t.Fatal("clang-19 is required")
		}
		t.Skip("no clang-19")
	}
}

func TestReadInitFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.bin")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileBytes + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	cases := []struct{ name, want string }{
		{"fifo", "is a FIFO (named pipe), not a regular file"},
		{"sock", "is a socket, not a regular file"},
		{"sub", "is a directory, not a regular file"},
		{"/dev/zero", "/dev/zero is a character device, not a regular file"},
		{"big.bin", "1073741825 bytes is more than the 1 GiB a file() initialiser may read"},
		{"missing.bin", "no such file or directory"},
	}
	for _, c := range cases {
		_, err := readInitFile(context.Background(), c.name, dir, false, MaxFileBytes)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), `file("`+c.name+`")`) {
			t.Errorf("file(%q): %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := readInitFile(context.Background(), "big.bin", dir, true, SandboxMaxFileBytes); err == nil || !strings.Contains(err.Error(), "64 MiB") {
		t.Errorf("sandbox cap: %v", err)
	}
	// A regular file is read, and a cancelled context stops the read.
	if err := os.WriteFile(filepath.Join(dir, "ok.bin"), []byte{1, 2, 3, 4}, 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := readInitFile(context.Background(), "ok.bin", dir, false, MaxFileBytes)
	if err != nil || len(b) != 4 {
		t.Errorf("ok.bin: %v %v", b, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := readInitFile(ctx, "ok.bin", dir, false, MaxFileBytes); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("cancelled: %v", err)
	}
}

func TestReadInitFileSandbox(t *testing.T) {
	root := t.TempDir()
	nb := filepath.Join(root, "nb")
	if err := os.MkdirAll(filepath.Join(nb, "data"), 0o700); err != nil {
		t.Fatal(err)
	}
	for p, b := range map[string]string{"secret.bin": "xxxx", "nb/data/in.bin": "abcd"} {
		if err := os.WriteFile(filepath.Join(root, p), []byte(b), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "secret.bin"), filepath.Join(nb, "link.bin")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"data/in.bin", filepath.Join(nb, "data/in.bin"), "data/../data/in.bin"} {
		if b, err := readInitFile(context.Background(), name, nb, true, SandboxMaxFileBytes); err != nil || string(b) != "abcd" {
			t.Errorf("%s: %q %v", name, b, err)
		}
	}
	// A relative base directory (kernelscope run dir/k.cu) works the same.
	t.Chdir(root)
	if b, err := readInitFile(context.Background(), "data/in.bin", "nb", true, SandboxMaxFileBytes); err != nil || string(b) != "abcd" {
		t.Errorf("relative base: %q %v", b, err)
	}
	if _, err := readInitFile(context.Background(), "../secret.bin", "nb", true, SandboxMaxFileBytes); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("relative base, ../secret.bin: %v", err)
	}
	for _, name := range []string{"../secret.bin", filepath.Join(root, "secret.bin"), "link.bin", "/etc/hostname"} {
		_, err := readInitFile(context.Background(), name, nb, true, SandboxMaxFileBytes)
		if err == nil || !strings.Contains(err.Error(), "sandbox mode") || !strings.Contains(err.Error(), "outside the notebook's (or source file's) directory") {
			t.Errorf("%s: %v, want a sandbox refusal", name, err)
		}
		// Outside sandbox mode the same names are read (when they exist).
		if name != "/etc/hostname" {
			if _, err := readInitFile(context.Background(), name, nb, false, MaxFileBytes); err != nil {
				t.Errorf("%s outside sandbox mode: %v", name, err)
			}
		}
	}
}

func TestCheckLaunchSize(t *testing.T) {
	cases := []struct {
		grid, block [3]int
		budget      int64
		want        string
	}{
		{[3]int{2147483647, 65535, 65535}, [3]int{256, 1, 1}, 0, "too large: 2.361e+21 threads"},
		{[3]int{2147483648, 1, 1}, [3]int{1, 1, 1}, 0, "CUDA allows x up to 2147483647"},
		{[3]int{1, 65536, 1}, [3]int{1, 1, 1}, 0, "y, z up to 65535"},
		{[3]int{1, 1, 1}, [3]int{2147483647, 2147483647, 2}, 0, "block 2147483647x2147483647x2 is too large"},
		{[3]int{1, 1, 1}, [3]int{64, 32, 1}, 0, "at most 1024 threads"},
		{[3]int{100000, 1, 1}, [3]int{1024, 1, 1}, 1e6, "102400000 threads"},
	}
	for _, c := range cases {
		err := checkLaunchSize(c.grid, c.block, c.budget)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "-") && !strings.Contains(err.Error(), "thread-instructions") {
			t.Errorf("%v %v: %v, want %q", c.grid, c.block, err, c.want)
		}
	}
	if err := checkLaunchSize([3]int{7812500, 1, 1}, [3]int{256, 1, 1}, 0); err != nil {
		t.Errorf("2e9 threads within the default budget: %v", err)
	}
}

// TestPipelineLimits runs the refusals through Run: a FIFO and an oversized grid
// give clear errors, not a hang or a negative count.
func TestPipelineLimits(t *testing.T) {
	needClangHere(t)
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "in.fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	src := []byte("__global__ void k(float *a) { a[threadIdx.x] += 1.0f; }\n")
	_, err := Run(context.Background(), Request{Source: src, SourceFile: "k.cu", Arch: "sm_80", Compiler: "clang", BaseDir: dir,
		Launch: &launch.Launch{Kernel: "k", Args: []launch.Arg{{Name: "a", Init: &launch.Init{Func: "file", Path: "in.fifo"}}}},
		Grid:   [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}})
	var f *Failure
	if !errors.As(err, &f) || f.Err.Kind != "args" || !strings.Contains(f.Error(), `a: file("in.fifo"):`) || !strings.Contains(f.Error(), "FIFO") {
		t.Errorf("FIFO: %v", err)
	}
	_, err = Run(context.Background(), Request{Source: src, SourceFile: "k.cu", Arch: "sm_80", Compiler: "clang",
		Grid: [3]int{2147483647, 65535, 65535}, Block: [3]int{256, 1, 1}})
	if !errors.As(err, &f) || f.Err.Kind != "launch" || !strings.Contains(f.Error(), "too large") {
		t.Errorf("huge grid: %v", err)
	}
}

// TestIncludesThroughThePipeline: a header beside the source is found for a
// file and for a cell, an error inside it names header:line and the including
// line, and sandbox mode refuses an include outside the directory.
func TestIncludesThroughThePipeline(t *testing.T) {
	needClangHere(t)
	root := t.TempDir()
	dir := filepath.Join(root, "nb")
	files := map[string]string{
		"nb/good.cuh":  "#pragma once\n__device__ float twice(float x) { return 2.0f * x; }\n",
		"nb/bad.cuh":   "#pragma once\n__device__ float twice(float x) {\n  return x * not_declared;\n}\n",
		"secret.h":     "#define TOKEN hunter2\n",
		"nb/data/a.in": "",
	}
	for p, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	kernel := "__global__ void k(float *a) { a[threadIdx.x] = twice(a[threadIdx.x]); }\n"
	run := func(src string, cell, sandbox bool) error {
		_, err := Run(context.Background(), Request{Source: []byte(src), SourceFile: "k.cu", Cell: cell, Arch: "sm_80", Compiler: "auto",
			BaseDir: dir, Sandbox: sandbox, Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}})
		return err
	}
	for _, cell := range []bool{false, true} {
		if err := run("// x\n#include \"good.cuh\"\n"+kernel, cell, false); err != nil {
			t.Errorf("cell=%v: include beside the source: %v", cell, err)
		}
		want := "k.cu:2: error: in bad.cuh:3:14: use of undeclared identifier 'not_declared'"
		if cell {
			want = "cell line 2: error: in bad.cuh:3:14: use of undeclared identifier 'not_declared'"
		}
		if err := run("// x\n#include \"bad.cuh\"\n"+kernel, cell, false); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("cell=%v: error in a header: %v, want %q", cell, err, want)
		}
	}
	if err := run("#include \"good.cuh\"\n"+kernel, true, true); err != nil {
		t.Errorf("sandbox, header beside: %v", err)
	}
	for src, want := range map[string]string{
		"#include \"/etc/passwd\"\n":   `cell line 1: error: sandbox mode: #include "/etc/passwd" reads /etc/passwd, which is outside`,
		"\n#include \"../secret.h\"\n": `cell line 2: error: sandbox mode: #include "../secret.h" reads ` + filepath.Join(root, "secret.h"),
	} {
		err := run(src+kernel, true, true)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "root:") {
			t.Errorf("sandbox %q: %v, want %q", src, err, want)
		}
	}
	for name, req := range map[string]Request{
		"flags":    {Flags: []string{"-O3"}},
		"compiler": {Compiler: "clang"},
		"budget":   {Budget: SandboxMaxBudget + 1},
		"trace":    {Trace: launch.Trace{Steps: SandboxMaxTraceSteps + 1}},
		"source":   {Source: make([]byte, SandboxMaxSourceBytes+1)},
	} {
		req.Sandbox, req.BaseDir, req.Arch = true, dir, "sm_80"
		if req.Source == nil {
			req.Source = []byte(kernel)
		}
		if _, err := Run(context.Background(), req); err == nil || !strings.Contains(err.Error(), "sandbox mode") {
			t.Errorf("sandbox %s: %v", name, err)
		}
	}
	// Sandbox buffer caps: one buffer above 64 MiB, and several above 256 MiB together.
	_, err := Run(context.Background(), Request{Source: []byte("#include \"good.cuh\"\n" + kernel), Arch: "sm_80", BaseDir: dir, Sandbox: true,
		Launch: &launch.Launch{Kernel: "k", Args: []launch.Arg{{Init: &launch.Init{Func: "zeros", N: 1<<24 + 1}}}}})
	if err == nil || !strings.Contains(err.Error(), "more than the 64 MiB a buffer may have in sandbox mode") {
		t.Errorf("sandbox buffer cap: %v", err)
	}
}
