package sim

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Warpgroup MMA against the H200 (testdata/measured/tensor2, recorded with
// scripts/tensor2/device_run.sh): the probe kernels of scripts/tensor2/gen, from
// nvcc's PTX (sm_90a) and from the project's clang path, simulated and compared
// word for word with what the device wrote.

const wgmmaDir = "../../testdata/measured/tensor2/"

// wgmmaArith lists the arithmetic kernels: name, the mma.sync case file they read, D registers per thread.
var wgmmaArith = []struct {
	name, cases string
	nd          int
}{{"f16_f32", "f16_f32_k16", 4}, {"bf16_f32", "bf16_f32_k16", 4}, {"f16_f16", "f16_f16_k16", 2}, {"tf32", "tf32_k8", 4}}

// wgmmaLayout lists the layout kernels and their D registers per thread.
var wgmmaLayout = []struct {
	name string
	nd   int
}{{"L_f16_n16_t00", 8}, {"L_f16_n16_t11", 8}, {"L_bf16_n256_t01", 128}, {"L_tf32_n16", 8}, {"L_f16acc_n32_t10", 8}, {"L_e4m3_n16", 8}, {"L_e5m2_n16", 8}}

func readFileT(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runWgmmaProbes simulates every probe kernel of m and returns the outputs by file stem.
func runWgmmaProbes(t *testing.T, m *ptx.Module) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, v := range wgmmaArith {
		in := readTensor(t, "cases/"+v.cases+".in")
		n := int(binary.LittleEndian.Uint32(in))
		per := len(in)/4 - 2
		per /= n * 32
		buf := bytes.Repeat([]byte{0xff}, n*128*2*v.nd*4)
		res, err := Launch(context.Background(), m, kernelNamed(t, m, "k_A_"+v.name), []Arg{{Buffer: in}, {Buffer: buf}, {Scalar: uint64(per)}},
			Config{Grid: [3]int{n, 1, 1}, Block: [3]int{128, 1, 1}})
		if err != nil {
			t.Fatalf("A_%s: %v", v.name, err)
		}
		out["A_"+v.name] = res.Buffers[1]
	}
	for _, v := range wgmmaLayout {
		in := readFileT(t, wgmmaDir+"cases/"+v.name+".in")
		n := int(binary.LittleEndian.Uint32(in))
		buf := bytes.Repeat([]byte{0xff}, n*128*v.nd*4)
		res, err := Launch(context.Background(), m, kernelNamed(t, m, "k_"+v.name), []Arg{{Buffer: in}, {Buffer: buf}},
			Config{Grid: [3]int{n, 1, 1}, Block: [3]int{128, 1, 1}})
		if err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		out[v.name] = res.Buffers[1]
	}
	return out
}

// TestWgmmaH200 compares the simulated probes with the device's outputs.
func TestWgmmaH200(t *testing.T) {
	for _, src := range []string{"ptx/wgmma_probe.nvcc.sm_90a.ptx", "ptx/wgmma_kernels.clang.sm_90a.ptx"} {
		m := parsePTXFile(t, wgmmaDir+src)
		got := runWgmmaProbes(t, m)
		for name, g := range got {
			if msg := diffBytes(g, readFileT(t, wgmmaDir+"out/"+name+".out"), 4); msg != "" {
				t.Errorf("%s %s: %s", src, name, msg)
			}
		}
	}
}

// TestWgmmaSameAsMMA checks the recorded outputs against each other: on the H200, a
// wgmma m64n8 fed with an mma.sync m16n8 case in each warp (A from registers and from
// shared memory) gives, in every warp, the D that mma.sync gave for that case.
func TestWgmmaSameAsMMA(t *testing.T) {
	for _, v := range wgmmaArith {
		wg := readFileT(t, wgmmaDir+"out/A_"+v.name+".out")
		mma := readTensor(t, "out/"+v.cases+".out")
		n := len(mma) / (32 * v.nd * 4)
		if len(wg) != n*128*2*v.nd*4 {
			t.Fatalf("%s: %d bytes, want %d", v.name, len(wg), n*128*2*v.nd*4)
		}
		diff := 0
		for c := 0; c < n; c++ {
			for tid := 0; tid < 128; tid++ {
				lane := tid % 32
				want := mma[(c*32+lane)*v.nd*4 : (c*32+lane+1)*v.nd*4]
				o := wg[(c*128+tid)*2*v.nd*4:]
				for form := 0; form < 2; form++ {
					if !bytes.Equal(o[form*v.nd*4:(form+1)*v.nd*4], want) {
						diff++
					}
				}
			}
		}
		if diff != 0 {
			t.Errorf("%s: %d of %d fragments differ from mma.sync", v.name, diff, n*128*2)
		}
	}
}

// TestWgmmaErrors: unsupported forms and misuse are errors naming the PTX line.
func TestWgmmaErrors(t *testing.T) {
	head := strings.Replace(header, "sm_90\n", "sm_90a\n", 1) + `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<20>;
	.reg .f32 %f<20>;
	.reg .b64 %rd<6>;
	.reg .pred %p<2>;
	.shared .align 1024 .b8 sm[1024];
	mov.u32 %r1, %tid.x;
	mov.u32 %r3, sm;
	shr.u32 %r4, %r3, 4;
	cvt.u64.u32 %rd1, %r4;
	or.b64 %rd2, %rd1, 0x0002000000000000;
	or.b64 %rd3, %rd1, 0x0000001000080000;
	setp.eq.u32 %p1, %r1, %r1;
`
	tail := `
	ret;
}
`
	d4 := "{%f1,%f2,%f3,%f4}"
	cases := []struct {
		name, body string
		block      int
		kind       ErrorKind
		msg        string
	}{
		{"target", `wgmma.fence.sync.aligned; // BAD`, 128, Unsupported, "sm_90a"},
		{"integer", `wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 ` + d4 + `, %rd1, %rd1, %p1, 1, 1; // BAD`, 128, Unsupported, "not modelled"},
		{"bad n", `wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16 ` + d4 + `, %rd1, %rd1, %p1, 1, 1, 0, 0; // BAD`, 128, Unsupported, "not modelled"},
		{"operands", `wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 ` + d4 + `, %rd1, %rd1, %p1, 1, 1; // BAD`, 128, Unsupported, "immediates"},
		{"scale", `wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 ` + d4 + `, %rd1, %rd1, %p1, 2, 1, 0, 0; // BAD`, 128, Unsupported, "1 or -1"},
		{"incomplete warpgroup", `wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 ` + d4 + `, %rd3, %rd3, %p1, 1, 1, 0, 0; // BAD`, 64, Unsupported, "warpgroup"},
		{"base offset", `wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 ` + d4 + `, %rd2, %rd3, %p1, 1, 1, 0, 0; // BAD`, 128, Unsupported, "base offset"},
		{"one warp", `setp.lt.u32 %p1, %r1, 32;
	@!%p1 bra SKIP;
	wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 ` + d4 + `, %rd3, %rd3, 1, 1, 1, 0, 0; // BAD
SKIP:`, 128, Trap, "same warpgroup"},
		{"out of shared", `or.b64 %rd4, %rd3, 0x0000010000000000;
	wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 ` + d4 + `, %rd4, %rd3, %p1, 1, 1, 0, 0; // BAD`, 128, SharedOutOfRange, "shared"},
	}
	for _, c := range cases {
		src := head + "\t" + c.body + tail
		if c.name == "target" {
			src = strings.Replace(src, "sm_90a\n", "sm_90\n", 1)
		}
		_, _, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{c.block, 1, 1}, 32, Config{})
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		e := wantError(t, err, c.kind, lineOf(t, src, "BAD"))
		if !strings.Contains(e.Error(), c.msg) {
			t.Errorf("%s: message %q does not say %q", c.name, e.Error(), c.msg)
		}
	}
}

// TestWgmmaGemmH200 runs the course-style wgmma GEMM tile (src/wgmma_gemm.cu through the
// project's clang path: 128B-swizzled K-major A and MN-major B, 4 k16 steps per 64-wide
// slice) on the inputs of the recorded mma.sync GEMM and compares it with what the H200's
// mma.sync GEMM wrote for them (testdata/measured/tensor/out/mma_gemm.out). Both sum each
// element over k16 blocks in k order from zero, and wgmma's arithmetic was measured to be
// mma.sync's (TestWgmmaSameAsMMA), so the H200 output is the expected one. This kernel
// itself was not run on the device.
func TestWgmmaGemmH200(t *testing.T) {
	const n = 64
	m := parsePTXFile(t, wgmmaDir+"ptx/wgmma_gemm.clang.sm_90a.ptx")
	c := make([]byte, n*n*4)
	args := []Arg{{Buffer: readTensor(t, "gemm/a_f16.bin")}, {Buffer: readTensor(t, "gemm/b_f16.bin")}, {Buffer: c}, {Scalar: n}, {Scalar: n}, {Scalar: n}}
	res, err := Launch(context.Background(), m, "wgmma_gemm", args, Config{Grid: [3]int{1, 1, 1}, Block: [3]int{128, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if msg := diffBytes(res.Buffers[2], readTensor(t, "out/mma_gemm.out"), 4); msg != "" {
		t.Errorf("wgmma_gemm: %s", msg)
	}
}

// BenchmarkWgmmaGemm simulates the wgmma GEMM tile (64x64x64, 16 wgmma.m64n64k16 per warp).
func BenchmarkWgmmaGemm(b *testing.B) {
	m := parsePTXFile(b, wgmmaDir+"ptx/wgmma_gemm.clang.sm_90a.ptx")
	a, bb := make([]byte, 64*64*2), make([]byte, 64*64*2)
	for i := range a {
		a[i], bb[i] = byte(i*7), byte(i*13)
	}
	c := make([]byte, 64*64*4)
	args := []Arg{{Buffer: a}, {Buffer: bb}, {Buffer: c}, {Scalar: 64}, {Scalar: 64}, {Scalar: 64}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Launch(context.Background(), m, "wgmma_gemm", args, Config{Grid: [3]int{1, 1, 1}, Block: [3]int{128, 1, 1}}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWgmmaNoAllocPerInstruction: the wgmma GEMM's allocations do not grow with K.
func TestWgmmaNoAllocPerInstruction(t *testing.T) {
	m := parsePTXFile(t, wgmmaDir+"ptx/wgmma_gemm.clang.sm_90a.ptx")
	allocs := func(k int) float64 {
		args := []Arg{{Buffer: make([]byte, 64*k*2)}, {Buffer: make([]byte, k*64*2)}, {Buffer: make([]byte, 64*64*4)}, {Scalar: 64}, {Scalar: 64}, {Scalar: uint64(k)}}
		return testing.AllocsPerRun(2, func() {
			if _, err := Launch(context.Background(), m, "wgmma_gemm", args,
				Config{Grid: [3]int{1, 1, 1}, Block: [3]int{128, 1, 1}, Trace: TraceConfig{MaxSteps: -1}}); err != nil {
				t.Fatal(err)
			}
		})
	}
	lo, hi := allocs(64), allocs(256)
	t.Logf("%.0f allocations with K=64, %.0f with K=256", lo, hi)
	if hi-lo > 64 {
		t.Errorf("%.0f allocations with K=64, %.0f with K=256", lo, hi)
	}
}

// TestWgmmaChecks: the checks see wgmma's shared-memory reads: the GEMM tile is clean,
// and a wgmma reading shared memory nobody wrote is an uninitialized read at its line.
func TestWgmmaChecks(t *testing.T) {
	m := parsePTXFile(t, wgmmaDir+"ptx/wgmma_gemm.clang.sm_90a.ptx")
	args := []Arg{{Buffer: readTensor(t, "gemm/a_f16.bin")}, {Buffer: readTensor(t, "gemm/b_f16.bin")}, {Buffer: make([]byte, 64*64*4)}, {Scalar: 64}, {Scalar: 64}, {Scalar: 64}}
	res, err := Launch(context.Background(), m, "wgmma_gemm", args, Config{Grid: [3]int{1, 1, 1}, Block: [3]int{128, 1, 1}, Check: allChecks})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 0 {
		t.Errorf("GEMM tile: %d findings, first %+v", len(res.Findings), res.Findings[0])
	}
	src := strings.Replace(header, "sm_90\n", "sm_90a\n", 1) + `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .f32 %f<8>;
	.reg .b64 %rd<6>;
	.shared .align 1024 .b8 sm[4096];
	mov.u32 %r3, sm;
	shr.u32 %r4, %r3, 4;
	cvt.u64.u32 %rd1, %r4;
	or.b64 %rd3, %rd1, 0x0000001000080000;
	wgmma.fence.sync.aligned;
	wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1,%f2,%f3,%f4}, %rd3, %rd3, 0, 1, 1, 0, 0; // BAD
	ret;
}
`
	pm, err := ptx.Parse("k.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err = Launch(context.Background(), pm, "k", []Arg{{Buffer: make([]byte, 8)}}, Config{Grid: [3]int{1, 1, 1}, Block: [3]int{128, 1, 1}, Check: allChecks})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) == 0 || res.Findings[0].Kind != "uninitialized" || res.Findings[0].PTXLine != lineOf(t, src, "BAD") {
		t.Errorf("findings %+v, want an uninitialized shared read at line %d", res.Findings, lineOf(t, src, "BAD"))
	}
}
