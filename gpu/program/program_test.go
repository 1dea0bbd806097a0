package program

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/occupancy"
	"github.com/kernelscope/kernelscope/gpu/toolchain"
	ksrt "github.com/kernelscope/kernelscope/runtime"
)

// runFile builds and runs testdata/programs/NAME with args and stdin.
func runFile(t *testing.T, name string, stdin string, args ...string) (*Result, string, string) {
	t.Helper()
	needClang(t)
	path := filepath.Join("..", "..", "testdata", "programs", name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p, err := Build(ctx, string(src), Options{File: name, BaseDir: filepath.Dir(path)})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	defer p.Close()
	var out, errb bytes.Buffer
	res, err := Run(ctx, p, RunOptions{Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Timing: true})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return res, out.String(), errb.String()
}

func TestVectorAdd(t *testing.T) {
	res, out, errs := runFile(t, "vector_add.cu", "")
	if res.ExitCode != 0 {
		t.Fatalf("exit %d %s; stderr %s", res.ExitCode, res.Message, errs)
	}
	sum := 0.0
	c := make([]float32, 1000)
	for i := range c {
		c[i] = float32(i)*0.5 + (2*float32(i) + 1)
		sum += float64(c[i])
	}
	want := fmt.Sprintf("c[0]=%g c[999]=%g sum=%.1f\n", c[0], c[999], sum)
	if out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	if len(res.Launches) != 1 || res.Launches[0].Report == nil || !res.Launches[0].Report.Simulated {
		t.Fatalf("launches %+v", res.Launches)
	}
	l := res.Launches[0]
	if l.Kernel != "vecAdd" || l.Grid != [3]int{4, 1, 1} || l.Block != [3]int{256, 1, 1} || l.Micros <= 0 {
		t.Errorf("launch %+v", l)
	}
	var args []string
	for _, a := range l.Report.Args {
		args = append(args, a.Name+"="+a.Init)
	}
	if got := strings.Join(args, ", "); got != "a=allocation 1 + 0 (cudaMalloc of 4000 bytes), b=allocation 2 + 0 (cudaMalloc of 4000 bytes), c=allocation 3 + 0 (cudaMalloc of 4000 bytes), n=1000" {
		t.Errorf("arguments %s", got)
	}
}

func TestConstantTwoLaunches(t *testing.T) {
	res, out, errs := runFile(t, "constant.cu", "")
	if res.ExitCode != 0 {
		t.Fatalf("exit %d %s; stderr %s", res.ExitCode, res.Message, errs)
	}
	c := [4]float32{1, -2, 0.5, 3}
	var y5 float32
	sum := 0.0
	for i := 0; i < 300; i++ {
		x := float32(i%17) * 0.25
		y := (c[0] + x*(c[1]+x*(c[2]+x*c[3]))) * c[3]
		if i == 5 {
			y5 = y
		}
		sum += float64(y)
	}
	want := fmt.Sprintf("coef[3]=%g y[5]=%.4f sum=%.3f\n", c[3], y5, sum)
	if out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	if len(res.Launches) != 2 || res.Launches[0].Kernel != "poly" || res.Launches[1].Kernel != "scaleByCoef" {
		t.Fatalf("launches %+v", res.Launches)
	}
}

func TestScanThreeLaunches(t *testing.T) {
	res, out, errs := runFile(t, "scan.cu", "")
	if res.ExitCode != 0 {
		t.Fatalf("exit %d %s; stderr %s", res.ExitCode, res.Message, errs)
	}
	const n = 5000
	// Go's % truncates like C's, so the checksum is computed the same way.
	acc, cc := 0, int64(0)
	for i := 0; i < n; i++ {
		acc += (i*7)%13 - 4
		cc = (cc*31 + int64(acc)) % 1000000007
	}
	want := fmt.Sprintf("cudaSuccess last=%d checksum=%d\n", acc, cc)
	if out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	if len(res.Launches) != 3 {
		t.Fatalf("%d launches", len(res.Launches))
	}
	for _, l := range res.Launches {
		if l.Error != "" || l.Report == nil || !l.Report.Simulated {
			t.Errorf("launch %d: %+v", l.Index, l)
		}
	}
}

func TestOutOfBoundsIsIllegalAddress(t *testing.T) {
	res, out, _ := runFile(t, "oob.cu", "")
	want := "launch: cudaSuccess\nsync: cudaErrorIllegalAddress (700): an illegal memory access was encountered\nafter: cudaErrorIllegalAddress\n"
	if out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	if res.ExitCode != 2 {
		t.Errorf("exit %d", res.ExitCode)
	}
	if len(res.Launches) != 1 {
		t.Fatalf("%d launches", len(res.Launches))
	}
	l := res.Launches[0]
	if l.Code != 700 || !strings.Contains(l.Error, "line 12") {
		t.Errorf("launch error %d %q; want 700 naming line 12", l.Code, l.Error)
	}
}

func TestEventsAndProperties(t *testing.T) {
	res, out, errs := runFile(t, "events.cu", "")
	if res.ExitCode != 0 {
		t.Fatalf("exit %d %s; stderr %s", res.ExitCode, res.Message, errs)
	}
	spec, err := arch.Lookup("sm_80")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Launches) != 1 || res.Launches[0].Report == nil {
		t.Fatalf("launches %+v", res.Launches)
	}
	rep := res.Launches[0].Report
	occ, err := occupancy.Compute(spec, occupancy.Input{BlockSize: 256, RegsPerThread: rep.Registers.PerThread})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	want := []string{
		fmt.Sprintf("devices=1 cc=%d.%d sms=%d warp=%d maxThreads=%d smemBlock=%d", spec.Major, spec.Minor, spec.SMs, spec.WarpSize, spec.MaxThreadsPerBlock, spec.SharedPerBlock),
		fmt.Sprintf("active blocks per SM at 256 threads: %d", occ.ActiveBlocks),
		"y[0]=5 y[n-1]=5 positive_time=1",
		fmt.Sprintf("ELAPSED_MS %.6f", float32(res.Launches[0].Micros/1000)),
	}
	if len(lines) < 4 {
		t.Fatalf("stdout %q", out)
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d: %q, want %q", i+1, lines[i], w)
		}
	}
}

func TestArgvAndStdin(t *testing.T) {
	res, out, errs := runFile(t, "argv_stdin.cu", "1 2 3 -4\n", "3")
	if out != "3 6 9 -12\n" || errs != "scaled 4 numbers by 3\n" || res.ExitCode != 4 {
		t.Errorf("stdout %q stderr %q exit %d", out, errs, res.ExitCode)
	}
	res, _, errs = runFile(t, "argv_stdin.cu", "")
	if res.ExitCode != 64 || !strings.HasPrefix(errs, "usage: ") {
		t.Errorf("without arguments: exit %d stderr %q", res.ExitCode, errs)
	}
}

func TestHostSegfault(t *testing.T) {
	res, out, _ := runFile(t, "segfault.cu", "")
	if out != "before the crash\n" {
		t.Errorf("stdout %q", out)
	}
	if res.ExitCode != 128+11 || !strings.Contains(res.Message, "signal 11") {
		t.Errorf("exit %d message %q", res.ExitCode, res.Message)
	}
	if len(res.Launches) != 1 || res.Launches[0].Error != "" {
		t.Errorf("launches %+v", res.Launches)
	}
}

func TestBuildErrorsNameLines(t *testing.T) {
	needClang(t)
	// A runtime function the program declares itself and KernelScope's runtime lacks.
	src := "#include <cuda_runtime.h>\n__global__ void k(float *a) { a[0] = 1; }\nextern \"C\" cudaError_t cudaGraphCreate(void **, unsigned);\nint main() {\n  void *g;\n  cudaGraphCreate(&g, 0);\n  return 0;\n}\n"
	_, err := Build(context.Background(), src, Options{File: "p.cu"})
	if err == nil || !strings.Contains(err.Error(), "p.cu:3: cudaGraphCreate is not provided by KernelScope's CUDA runtime") {
		t.Errorf("link error %v", err)
	}
	_, err = Build(context.Background(), strings.Replace(src, "return 0;", "return nope;", 1), Options{File: "p.cu", Cell: true})
	if err == nil || !strings.Contains(err.Error(), "cell line 7: error: use of undeclared identifier 'nope'") {
		t.Errorf("compile error %v", err)
	}
	if !IsProgram(src) || IsProgram("__global__ void k() {}\n") || !IsProgram("%program\n__global__ void k() {}\n") {
		t.Error("IsProgram")
	}
}

// TestErrorTablesAgree checks that the runtime's error names and numbers are the prelude header's.
func TestErrorTablesAgree(t *testing.T) {
	hdr, err := os.ReadFile(filepath.Join("..", "toolchain", "prelude", "kernelscope_runtime.h"))
	if err != nil {
		t.Fatal(err)
	}
	enum := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^\s*(cuda(?:Success|Error\w+)) = (\d+),`).FindAllStringSubmatch(string(hdr), -1) {
		enum[m[1]] = m[2]
	}
	rows := regexp.MustCompile(`\{(\d+), "(cuda\w+)", "`).FindAllStringSubmatch(ksrt.Source, -1)
	if len(rows) < 15 {
		t.Fatalf("found %d rows in ksrt.c's error table", len(rows))
	}
	for _, r := range rows {
		if enum[r[2]] != r[1] {
			t.Errorf("%s is %s in ksrt.c, %q in kernelscope_runtime.h", r[2], r[1], enum[r[2]])
		}
	}
	for name, code := range map[string]string{"cudaErrorIllegalAddress": "700", "cudaErrorInvalidValue": "1", "cudaErrorMemoryAllocation": "2", "cudaErrorNotPermitted": "800", "cudaErrorLaunchMaxDepthExceeded": "65"} {
		if enum[name] != code {
			t.Errorf("%s = %s in the header, CUDA's value is %s", name, enum[name], code)
		}
	}
}

func TestLaunchAPIAndMemory(t *testing.T) {
	res, out, errs := runFile(t, "launch_api.cu", "")
	want := "without the attribute: cudaErrorInvalidValue\nblock of 128 reversed\nwith it: cudaSuccess m[0]=381 m[127]=0\nmemset: -1\ncopied: 381 0\nhost reads a device pointer next\n"
	if out != want {
		t.Errorf("stdout %q, want %q (stderr %q)", out, want, errs)
	}
	// Host code dereferencing a cudaMalloc pointer faults, as on a GPU.
	if res.ExitCode != 128+11 {
		t.Errorf("exit %d %s", res.ExitCode, res.Message)
	}
	if len(res.Launches) != 2 || res.Launches[0].Code != 1 || res.Launches[1].Error != "" || res.Launches[1].Shared != 64*1024 {
		t.Errorf("launches %+v", res.Launches)
	}
}

func TestChecksOnProgramLaunches(t *testing.T) {
	run := func(name string) *Result {
		t.Helper()
		path := filepath.Join("..", "..", "testdata", "programs", name)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Build(context.Background(), string(src), Options{File: name})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		res, err := Run(context.Background(), p, RunOptions{Stdout: io.Discard, Stderr: io.Discard, Checks: analysis.DefaultChecks})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	needClang(t)
	res := run("race.cu")
	if len(res.Launches) != 1 || res.Launches[0].Report == nil {
		t.Fatalf("launches %+v", res.Launches)
	}
	found := false
	for _, f := range res.Launches[0].Report.Sanitizer {
		if f.Kind == "race" && f.CUDALine == 8 {
			found = true
		}
	}
	if !found {
		t.Errorf("no race reported at line 8: %+v", res.Launches[0].Report.Sanitizer)
	}
	for _, l := range run("scan.cu").Launches {
		if len(l.Report.Sanitizer) != 0 {
			t.Errorf("scan launch %d: findings %+v", l.Index, l.Report.Sanitizer)
		}
	}
}

func TestAllocationBeyondHeapFails(t *testing.T) {
	needClang(t)
	src := "#include <cstdio>\nint main() {\n  void *a, *b;\n  cudaError_t e1 = cudaMalloc(&a, 1 << 20);\n  cudaError_t e2 = cudaMalloc(&b, 8 << 20);\n  size_t fr, total;\n  cudaMemGetInfo(&fr, &total);\n  printf(\"%s %s %d %zu %zu\\n\", cudaGetErrorName(e1), cudaGetErrorName(e2), b == nullptr, fr, total);\n  return 0;\n}\n"
	p, err := Build(context.Background(), src, Options{File: "big.cu"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var out bytes.Buffer
	if _, err := Run(context.Background(), p, RunOptions{Stdout: &out, Stderr: io.Discard, HeapSize: 4 << 20}); err != nil {
		t.Fatal(err)
	}
	if out.String() != fmt.Sprintf("cudaSuccess cudaErrorMemoryAllocation 1 %d %d\n", 3<<20, 4<<20) {
		t.Errorf("stdout %q", out.String())
	}
}

// needClang skips a test without clang unless the environment requires the tools (CI, KS_REQUIRE_TOOLS).
func needClang(t testing.TB) {
	t.Helper()
	if _, err := toolchain.FindClang(); err == nil {
		return
	}
	if os.Getenv("KS_REQUIRE_TOOLS") != "" || os.Getenv("CI") != "" {
		t.Fatal("clang is required here (KS_REQUIRE_TOOLS/CI set) but not installed")
	}
	t.Skip("no clang on PATH")
}

func TestPartialSymbolCopyKeepsInitialiser(t *testing.T) {
	res, out, errs := runFile(t, "symbol_init.cu", "")
	// table = {10, 1, 2, 40} after the copy at offset 1.
	want := fmt.Sprintf("%d 10 1 2 40\n", 10+1+2+40)
	if out != want || res.ExitCode != 0 {
		t.Errorf("stdout %q (want %q) exit %d stderr %q", out, want, res.ExitCode, errs)
	}
}

func TestHeaderBesideProgram(t *testing.T) {
	res, out, errs := runFile(t, "with_header.cu", "")
	// y[9] = 2*9 + 1; the program runs in its source's directory.
	if out != fmt.Sprintf("y[9]=%g header_readable=1\n", float32(2*9+1)) || res.ExitCode != 0 || len(res.Launches) != 1 || res.Launches[0].Grid[0] != 3 {
		t.Errorf("stdout %q exit %d stderr %q launches %d", out, res.ExitCode, errs, len(res.Launches))
	}
}

func TestPinnedHostMemory(t *testing.T) {
	res, out, errs := runFile(t, "pinned.cu", "")
	if out != fmt.Sprintf("cudaSuccess sum=%d back[99]=100\n", 100*101/2) || res.ExitCode != 0 {
		t.Errorf("stdout %q exit %d stderr %q", out, res.ExitCode, errs)
	}
}

// TestRuntimeCompilesCleanly builds ksrt.c with every warning an error.
func TestRuntimeCompilesCleanly(t *testing.T) {
	needClang(t)
	clang, _ := toolchain.FindClang()
	dir := t.TempDir()
	src := filepath.Join(dir, "ksrt.c")
	if err := os.WriteFile(src, []byte(ksrt.Source), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(clang, "-x", "c", "-std=c11", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-Werror", "-c", src, "-o", filepath.Join(dir, "ksrt.o")).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

func TestFuncAttributesAndPotentialBlockSize(t *testing.T) {
	res, out, errs := runFile(t, "func_attrs.cu", "")
	if res.ExitCode != 0 {
		t.Fatalf("exit %d stderr %q", res.ExitCode, errs)
	}
	var shared, maxThreads, regs, binary, grid, block int
	if _, err := fmt.Sscanf(out, "shared=%d maxThreads=%d regs=%d binary=%d\ngrid=%d block=%d\n", &shared, &maxThreads, &regs, &binary, &grid, &block); err != nil {
		t.Fatalf("stdout %q: %v", out, err)
	}
	spec, _ := arch.Lookup("sm_80")
	if shared != 4096 || maxThreads != spec.MaxThreadsPerBlock || binary != 80 || regs <= 0 {
		t.Errorf("attributes %q", out)
	}
	// The answer is a warp multiple with the most resident threads per SM of any block size,
	// and its grid fills every SM.
	occ := func(b int) int {
		r, err := occupancy.Compute(spec, occupancy.Input{BlockSize: b, RegsPerThread: regs, StaticShared: 4096})
		if err != nil {
			return 0
		}
		return r.ActiveBlocks
	}
	if block%32 != 0 || grid != occ(block)*spec.SMs {
		t.Errorf("grid %d block %d", grid, block)
	}
	for b := 32; b <= spec.MaxThreadsPerBlock; b += 32 {
		if b*occ(b) > block*occ(block) || b*occ(b) == block*occ(block) && b > block {
			t.Errorf("block %d has %d resident threads, more than (or as many as and larger than) block %d's %d", b, b*occ(b), block, block*occ(block))
		}
	}
}

func TestPitchAndUnsupported(t *testing.T) {
	res, out, errs := runFile(t, "pitch.cu", "")
	// Row y gains y: host[0][4] = 4, host[1][4] = 4 + 1, host[2][0] = 0 + 2.
	if out != "pitch=512 4 5 2\ncudaErrorNotSupported\n" || res.ExitCode != 0 ||
		!strings.Contains(errs, "cudaCreateTextureObject (texture objects) is not supported yet") {
		t.Errorf("stdout %q stderr %q exit %d", out, errs, res.ExitCode)
	}
}

func TestDeviceAssertIsCudaErrorAssert(t *testing.T) {
	res, out, errs := runFile(t, "assert.cu", "")
	// As on the H200 (testdata/programs/h200/assert.*): the message on stderr, the
	// error at the next synchronising call.
	want := "first: cudaSuccess\nsecond: cudaErrorAssert (710)\n"
	if out != want || res.ExitCode != 0 || len(res.Launches) != 2 || res.Launches[1].Code != 710 {
		t.Errorf("stdout %q (want %q) exit %d", out, want, res.ExitCode)
	}
	msg := "assert.cu:6: void check(const int *): block: [0,0,0], thread: [0,0,0] Assertion `a[threadIdx.x] == 0` failed.\n"
	if !strings.HasPrefix(errs, msg) {
		t.Errorf("stderr %q does not start with %q", errs, msg)
	}
}

// TestRuntimeStructsAgree: the structs the host program and KernelScope's runtime
// exchange by pointer (cudaGetDeviceProperties, cudaFuncGetAttributes) are declared
// twice, in the prelude that user code sees and in ksrt.c; their layouts must be the same.
func TestRuntimeStructsAgree(t *testing.T) {
	hdr, err := os.ReadFile(filepath.Join("..", "toolchain", "prelude", "kernelscope_runtime.h"))
	if err != nil {
		t.Fatal(err)
	}
	body := func(src, name string) string {
		m := regexp.MustCompile(`(?s)\nstruct ` + name + ` \{(.*?)\n\};`).FindStringSubmatch(src)
		if m == nil {
			t.Fatalf("no struct %s", name)
		}
		return strings.Join(strings.Fields(regexp.MustCompile(`/\*.*?\*/|//[^\n]*`).ReplaceAllString(m[1], "")), " ")
	}
	for _, name := range []string{"cudaDeviceProp", "cudaFuncAttributes"} {
		if a, b := body(string(hdr), name), body(ksrt.Source, name); a != b {
			t.Errorf("struct %s differs:\nprelude: %s\nksrt.c:  %s", name, a, b)
		}
	}
}
