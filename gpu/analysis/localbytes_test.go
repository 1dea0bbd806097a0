package analysis_test

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
)

// A thread-private array indexed by a loaded value: local memory on any compiler.
const indexedLocal = `__global__ void pick(const int *idx, float *o) {
  float t[16];
#pragma unroll
  for (int i = 0; i < 16; i++) t[i] = i * 0.5f;
  o[threadIdx.x] = t[idx[threadIdx.x] & 15];
}
`

var depotRE = regexp.MustCompile(`\.local \.align \d+ \.b8 \t?__local_depot\d+\[(\d+)\]`)

// Without ptxas the report's local bytes are the PTX's __local_depot frame (they were 0).
func TestLocalBytesFromClangPTX(t *testing.T) {
	if _, err := exec.LookPath("clang-19"); err != nil {
		if os.Getenv("KS_REQUIRE_TOOLS") != "" {
			t.Fatal("clang-19 is required")
		}
		t.Skip("no clang-19")
	}
	req := analysis.Request{Source: []byte(indexedLocal), SourceFile: "cell.cu", Cell: true, Arch: "sm_90", Compiler: "clang",
		Launch: parseLaunch(t, "pick<<<1, 32>>>(idx=arange(32):i32, o=zeros(32))", nil), Budget: 1e7}
	rep, err := analysis.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	m := depotRE.FindStringSubmatch(rep.PTX)
	if m == nil {
		t.Fatalf("clang's PTX has no __local_depot:\n%s", rep.PTX)
	}
	want, _ := strconv.Atoi(m[1])
	if rep.LocalBytes != want || want == 0 {
		t.Errorf("LocalBytes = %d, PTX declares __local_depot of %d bytes", rep.LocalBytes, want)
	}
}

// A PTX kernel's local bytes: its own .local variables, aligned, plus the frame of the
// function it calls (stacked above the caller's, as the simulator runs it).
const localPTX = `.version 7.8
.target sm_80
.address_size 64

.func (.param .b32 r) leaf(.param .b32 a)
{
	.local .align 8 .b8 buf[40];
	.reg .b32 %r<3>;
	.reg .b64 %rd<2>;
	ld.param.u32 %r1, [a];
	mov.u64 %rd1, buf;
	st.local.u32 [%rd1], %r1;
	ld.local.u32 %r2, [%rd1];
	st.param.b32 [r], %r2;
	ret;
}

.visible .entry k(.param .u64 out)
{
	.local .align 4 .b8 d0[12];
	.local .align 16 .b8 d1[20];
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	{
	.param .b32 pa;
	.param .b32 pr;
	st.param.b32 [pa], %r1;
	call.uni (pr), leaf, (pa);
	ld.param.b32 %r2, [pr];
	}
	st.global.u32 [%rd2], %r2;
	ret;
}
`

func TestLocalBytesFromPTXFrames(t *testing.T) {
	req := analysis.Request{Source: []byte(localPTX), SourceFile: "k.ptx", IsPTX: true, Arch: "sm_80",
		Launch: parseLaunch(t, "k<<<1, 32>>>(out=zeros(1):u32)", nil), Budget: 1e6}
	rep, err := analysis.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	// 12 bytes, 20 more at offset 16 (36), the callee's 40 at 48: 88.
	if rep.LocalBytes != 88 {
		t.Errorf("LocalBytes = %d, want 88 (kernel 36 aligned to 16, callee 40)", rep.LocalBytes)
	}
}
