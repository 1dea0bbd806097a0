package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/toolchain"
)

// TestRunChecksAndExpect: kernelscope run reports a planted race with --check
// (on by default) and exits with status 3 when an --expect fails, 0 when all hold.
func TestRunChecksAndExpect(t *testing.T) {
	if _, err := toolchain.Compile(context.Background(), toolchain.Request{Source: "extern \"C\" __global__ void k() {}", File: "k.cu", Arch: "sm_80", Compiler: "clang"}); err != nil {
		t.Skipf("no clang: %v", err)
	}
	dir := t.TempDir()
	src := `extern "C" __global__ void reduce(const float* in, float* out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (unsigned st = 128; st > 0; st >>= 1) {
    if (tid < st) s[tid] += s[tid + st];
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}
`
	path := filepath.Join(dir, "r.cu")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"run", "--timing", "off", "--compiler", "clang", "--grid", "2", "--block", "256", "--launch", "reduce(in=ones(512), out=zeros(2))"}
	var out, errb bytes.Buffer
	code := run(append(append([]string{}, base...), "--expect", "out == 256", "--expect", "len(out) == 2", path), &out, &errb)
	if code != 3 || !strings.Contains(errb.String(), "expectation failed: out == 256: fails at index 0: out[0] is") || strings.Contains(errb.String(), "len(out)") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	if !strings.Contains(out.String(), "[race]") || !strings.Contains(out.String(), "[expect FAILED] out == 256") || !strings.Contains(out.String(), "[expect passed] len(out) == 2") {
		t.Errorf("text output lacks the findings or expectations:\n%s", out.String())
	}
	out.Reset()
	errb.Reset()
	if code := run(append(append([]string{}, base...), "--check", "off", "--expect", "len(out) == 2", path), &out, &errb); code != 0 || strings.Contains(out.String(), "[race]") {
		t.Errorf("--check off: exit %d, output %q %q", code, out.String(), errb.String())
	}
	if code := run(append(append([]string{}, base...), "--check", "bogus", path), &out, &errb); code != 2 {
		t.Errorf("--check bogus: exit %d, want 2", code)
	}
}
