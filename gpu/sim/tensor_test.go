package sim

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Tensor-core instructions against the H200 (testdata/measured/tensor, recorded with
// scripts/tensor/device_run.sh): nvcc's PTX of the probe kernels and of the course
// GEMMs, and clang's PTX of the GEMMs through the prelude's <mma.h>, simulated here
// and compared byte for byte with what the device wrote.

const tensorDir = "../../testdata/measured/tensor/"

func readTensor(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(tensorDir + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// kernelNamed finds the kernel whose (mangled) name contains name.
func kernelNamed(t *testing.T, m *ptx.Module, name string) string {
	t.Helper()
	for _, f := range m.Funcs {
		if f.Entry && (f.Name == name || strings.Contains(f.Name, fmt.Sprintf("%d%s", len(name), name))) {
			return f.Name
		}
	}
	t.Fatalf("no kernel %s", name)
	return ""
}

func diffBytes(got, want []byte, elem int) string {
	if bytes.Equal(got, want) {
		return ""
	}
	if len(got) != len(want) {
		return fmt.Sprintf("length %d, want %d", len(got), len(want))
	}
	n, first := 0, -1
	for i := 0; i < len(got); i += elem {
		if !bytes.Equal(got[i:i+elem], want[i:i+elem]) {
			n++
			if first < 0 {
				first = i
			}
		}
	}
	return fmt.Sprintf("%d of %d elements differ; first at byte %d: % x, want % x", n, len(got)/elem, first, got[first:first+elem], want[first:first+elem])
}

// TestTensorProbeH200 runs nvcc's PTX of every mma probe kernel on the recorded cases.
func TestTensorProbeH200(t *testing.T) {
	m := parsePTXFile(t, tensorDir+"ptx/probe.nvcc.sm_90.ptx")
	forms := []string{"f16_f32_k16", "bf16_f32_k16", "f16_f16_k16", "f16_f32_k8", "bf16_f32_k8", "f16_f16_k8", "tf32_k8", "tf32_k4",
		"f64_k4", "s8_k32", "s8_k32_sat", "u8_k32", "u8s8_k32_sat", "s8_k16", "s8_m8n8k16"}
	for _, f := range forms {
		in := readTensor(t, "cases/"+f+".in")
		want := readTensor(t, "out/"+f+".out")
		n := int(binary.LittleEndian.Uint32(in))
		out := bytes.Repeat([]byte{0xff}, len(want))
		res, err := Launch(context.Background(), m, kernelNamed(t, m, "k_"+f), []Arg{{Buffer: in}, {Buffer: out}},
			Config{Grid: [3]int{n, 1, 1}, Block: [3]int{32, 1, 1}})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if msg := diffBytes(res.Buffers[1], want, 4); msg != "" {
			t.Errorf("%s: %s", f, msg)
		}
	}
}

// TestTensorMatrixProbesH200: ldmatrix (x1/x2/x4, .trans), stmatrix (x4, .trans),
// movmatrix and the wmma fragment layouts (loads of every fragment kind, stores).
func TestTensorMatrixProbesH200(t *testing.T) {
	m := parsePTXFile(t, tensorDir+"ptx/probe.nvcc.sm_90.ptx")
	cfg := Config{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}}
	run := func(name string, args ...Arg) *Result {
		res, err := Launch(context.Background(), m, kernelNamed(t, m, name), args, cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	res := run("k_ldmatrix", Arg{Buffer: make([]byte, 32*14*4)})
	if msg := diffBytes(res.Buffers[0], readTensor(t, "out/ldmatrix.out"), 4); msg != "" {
		t.Errorf("ldmatrix: %s", msg)
	}
	for tr, file := range []string{"out/stmatrix.out", "out/stmatrix_trans.out"} {
		want := readTensor(t, file)
		res := run("k_stmatrix", Arg{Buffer: make([]byte, len(want))}, Arg{Scalar: uint64(tr)})
		if msg := diffBytes(res.Buffers[0], want, 2); msg != "" {
			t.Errorf("%s: %s", file, msg)
		}
	}
	res = run("k_movmatrix", Arg{Buffer: make([]byte, 128)})
	if msg := diffBytes(res.Buffers[0], readTensor(t, "out/movmatrix.out"), 4); msg != "" {
		t.Errorf("movmatrix: %s", msg)
	}
	h, bf, fl := make([]byte, 512), make([]byte, 512), make([]byte, 1024)
	for i := 0; i < 256; i++ {
		binary.LittleEndian.PutUint16(h[2*i:], halfBits(i))
		binary.LittleEndian.PutUint16(bf[2*i:], uint16(math.Float32bits(float32(i))>>16))
		binary.LittleEndian.PutUint32(fl[4*i:], math.Float32bits(float32(i)))
	}
	layout := readTensor(t, "out/wmma_layout.out")
	store := readTensor(t, "out/wmma_store.out")
	res = run("k_wmma_layout", Arg{Buffer: h}, Arg{Buffer: bf}, Arg{Buffer: fl}, Arg{Buffer: make([]byte, len(layout))},
		Arg{Buffer: bytes.Repeat([]byte{0xff}, 4096)})
	if msg := diffBytes(res.Buffers[3], layout, 4); msg != "" {
		t.Errorf("wmma fragment layouts: %s", msg)
	}
	if msg := diffBytes(res.Buffers[4][:len(store)], store, 2); msg != "" {
		t.Errorf("wmma stores: %s", msg)
	}
}

// halfBits is the binary16 encoding of a small non-negative integer.
func halfBits(v int) uint16 {
	if v == 0 {
		return 0
	}
	e := 0
	for 1<<(e+1) <= v {
		e++
	}
	return uint16((e+15)<<10 | (v<<(10-e))&0x3ff)
}

// TestTensorGemmH200 runs the course GEMMs (wmma f16, bf16 and f16-accumulator,
// ldmatrix + mma.sync) from nvcc's and clang's PTX for sm_80 and sm_90.
func TestTensorGemmH200(t *testing.T) {
	const n = 64
	a16, b16 := readTensor(t, "gemm/a_f16.bin"), readTensor(t, "gemm/b_f16.bin")
	abf, bbf := readTensor(t, "gemm/a_bf16.bin"), readTensor(t, "gemm/b_bf16.bin")
	c0 := readTensor(t, "gemm/c_f32.bin")
	wmmaCfg := Config{Grid: [3]int{2, 2, 1}, Block: [3]int{64, 2, 1}}
	launches := []struct {
		file, kernel string
		a, b, c      []byte
		cfg          Config
		outBytes     int
	}{
		{"wmma_gemm", "wmma_gemm", a16, b16, c0, wmmaCfg, n * n * 4},
		{"wmma_gemm", "wmma_gemm_bf16", abf, bbf, nil, wmmaCfg, n * n * 4},
		{"wmma_gemm", "wmma_gemm_h", a16, b16, nil, wmmaCfg, n * n * 2},
		{"mma_gemm", "mma_gemm", a16, b16, nil, Config{Grid: [3]int{2, 2, 1}, Block: [3]int{128, 1, 1}}, n * n * 4},
	}
	for _, comp := range []string{"nvcc", "clang"} {
		for _, arch := range []string{"sm_80", "sm_90"} {
			for _, l := range launches {
				m := parsePTXFile(t, tensorDir+"ptx/"+l.file+"."+comp+"."+arch+".ptx")
				c := make([]byte, n*n*4)
				copy(c, l.c)
				args := []Arg{{Buffer: l.a}, {Buffer: l.b}, {Buffer: c}, {Scalar: n}, {Scalar: n}, {Scalar: n}}
				res, err := Launch(context.Background(), m, l.kernel, args, l.cfg)
				if err != nil {
					t.Errorf("%s %s %s: %v", comp, arch, l.kernel, err)
					continue
				}
				want := readTensor(t, "out/"+l.kernel+".out")
				if msg := diffBytes(res.Buffers[2][:l.outBytes], want, l.outBytes/(n*n)); msg != "" {
					t.Errorf("%s %s %s: %s", comp, arch, l.kernel, msg)
				}
			}
		}
	}
}

// TestTensorErrors: unmodelled forms and misuse are errors naming the PTX line and the cause.
func TestTensorErrors(t *testing.T) {
	head := header + `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<20>;
	.reg .f32 %f<20>;
	.reg .b64 %rd<6>;
	.shared .align 16 .b8 sm[512];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
	mov.u32 %r3, sm;
	mul.lo.u32 %r4, %r1, 16;
	add.u32 %r5, %r3, %r4;
`
	tail := `
	ret;
}
`
	cases := []struct {
		name, body string
		block      int
		kind       ErrorKind
		msg        string
	}{
		{"unmodelled shape", `mma.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f1,%f2,%f3,%f4}; // BAD`,
			32, Unsupported, "not modelled"},
		{"fp8 mma", `mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f1,%f2,%f3,%f4}; // BAD`,
			32, Unsupported, ".e4m3 is not modelled"},
		{"partial warp", `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f1,%f2,%f3,%f4}; // BAD`,
			16, Unsupported, "16 of 32 lanes"},
		{"ldmatrix out of shared", `add.u32 %r6, %r5, 4096;
	ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r7,%r8,%r9,%r10}, [%r6]; // BAD`, 32, SharedOutOfRange, "shared"},
		{"ldmatrix misaligned", `add.u32 %r6, %r5, 8;
	ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r7}, [%r6]; // BAD`, 32, Misaligned, "multiple of 16"},
		{"ldmatrix b8", `ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r7,%r8}, [%r5]; // BAD`, 32, Unsupported, "not modelled"},
		{"wmma shape", `cvta.shared.u64 %rd1, %rd2;
	wmma.load.a.sync.aligned.row.m32n8k16.f16 {%r7,%r8,%r9,%r10,%r11,%r12,%r13,%r14}, [%rd1], %r2; // BAD`, 32, Unsupported, "m32n8k16 is not modelled"},
	}
	for _, c := range cases {
		src := head + "\t" + c.body + tail
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

// BenchmarkTensorGemm simulates the course GEMMs (nvcc sm_90 PTX, 64x64x64): the cost
// of the tensor-core ops (gather, the arithmetic model, scatter) per launch.
func BenchmarkTensorGemm(b *testing.B) {
	a16, err := os.ReadFile(tensorDir + "gemm/a_f16.bin")
	if err != nil {
		b.Fatal(err)
	}
	b16, _ := os.ReadFile(tensorDir + "gemm/b_f16.bin")
	for _, k := range []struct {
		file, kernel string
		block        [3]int
	}{{"mma_gemm", "mma_gemm", [3]int{128, 1, 1}}, {"wmma_gemm", "wmma_gemm_h", [3]int{64, 2, 1}}} {
		b.Run(k.kernel, func(b *testing.B) {
			m := parsePTXFile(b, tensorDir+"ptx/"+k.file+".nvcc.sm_90.ptx")
			args := []Arg{{Buffer: a16}, {Buffer: b16}, {Buffer: make([]byte, 64*64*4)}, {Scalar: 64}, {Scalar: 64}, {Scalar: 64}}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Launch(context.Background(), m, k.kernel, args, Config{Grid: [3]int{2, 2, 1}, Block: k.block}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestTensorNoAllocPerInstruction: the allocations of a GEMM launch do not grow with
// the number of tensor-core instructions it executes (K=16 against K=64: 240 more
// ldmatrix/mma, 96 more wmma.load/mma).
func TestTensorNoAllocPerInstruction(t *testing.T) {
	a16, b16 := readTensor(t, "gemm/a_f16.bin"), readTensor(t, "gemm/b_f16.bin")
	for _, f := range []struct {
		file, kernel string
		block        [3]int
	}{{"mma_gemm", "mma_gemm", [3]int{128, 1, 1}}, {"wmma_gemm", "wmma_gemm_h", [3]int{64, 2, 1}}} {
		m := parsePTXFile(t, tensorDir+"ptx/"+f.file+".nvcc.sm_90.ptx")
		allocs := func(k uint64) float64 {
			args := []Arg{{Buffer: a16}, {Buffer: b16}, {Buffer: make([]byte, 64*64*4)}, {Scalar: 64}, {Scalar: 64}, {Scalar: k}}
			return testing.AllocsPerRun(2, func() {
				if _, err := Launch(context.Background(), m, f.kernel, args,
					Config{Grid: [3]int{2, 2, 1}, Block: f.block, Trace: TraceConfig{MaxSteps: -1}}); err != nil {
					t.Fatal(err)
				}
			})
		}
		if lo, hi := allocs(16), allocs(64); hi-lo > 64 {
			t.Errorf("%s: %.0f allocations with K=16, %.0f with K=64", f.kernel, lo, hi)
		}
	}
}
