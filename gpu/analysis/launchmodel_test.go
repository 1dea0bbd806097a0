package analysis_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/magics"
)

// realDir holds the launch-model kernels, their inputs, and what an H200 gave
// for them (testdata/realcuda/launch/run_h200.sh made h200/).
const realDir = "../../testdata/realcuda/launch"

// realCase is one launch of harness.cu, written in the cell language.
type realCase struct {
	name, src, launch string
	symbols           []string          // %symbol arguments
	outputs           map[string]string // output name -> h200/out file
	prefix            map[string]int    // compare only the first N bytes (buffers the harness reused)
}

var realCases = []realCase{
	{name: "reverse_dyn", src: "dynsmem",
		launch:  `reverse_dyn<<<4, 256, 256*sizeof(float)>>>(in=file("inputs/rev_in.bin"), out=zeros(1024), info=zeros(4), n=1024)`,
		outputs: map[string]string{"out": "reverse_dyn.out", "info": "reverse_dyn.info"}},
	{name: "specials", src: "specials",
		launch:  `specials<<<2, 64, 100>>>(lane_regs=zeros(512), block_regs=zeros(24))`,
		outputs: map[string]string{"lane_regs": "specials.lane_regs", "block_regs": "specials.block_regs"}},
	{name: "specials_0", src: "specials",
		launch:  `specials<<<1, 32, 0>>>(lane_regs=zeros(512), block_regs=zeros(24))`,
		outputs: map[string]string{"block_regs": "specials0.block_regs"}, prefix: map[string]int{"block_regs": 48}},
	{name: "specials_5000", src: "specials",
		launch:  `specials<<<1, 32, 5000>>>(lane_regs=zeros(512), block_regs=zeros(24))`,
		outputs: map[string]string{"block_regs": "specials5000.block_regs"}, prefix: map[string]int{"block_regs": 48}},
	{name: "conv_row", src: "symbols",
		launch:  `conv_row<<<4, 256>>>(in=file("inputs/conv_in.bin"), out=zeros(1000), n=1000)`,
		symbols: []string{`c_Kernel = file("inputs/c_Kernel.bin")`},
		outputs: map[string]string{"out": "conv_row.out", "d_count": "conv_row.d_count", "d_last": "conv_row.d_last", "c_Kernel": "../../inputs/c_Kernel"}},
	{name: "matrixmul16", src: "signatures",
		launch:  `MatrixMul<16><<<dim3(3, 2), dim3(16, 16)>>>(C=zeros(1536), A=file("inputs/mm_A.bin"), B=file("inputs/mm_B.bin"), wA=32, wB=48, alpha=0.5f)`,
		outputs: map[string]string{"C": "matrixmul16.C"}},
	{name: "matrixmul8_default_alpha", src: "signatures",
		launch:  `MatrixMul<8><<<dim3(6, 4), dim3(8, 8)>>>(C=zeros(1536), A=file("inputs/mm_A.bin"), B=file("inputs/mm_B.bin"), wA=32, wB=48)`,
		outputs: map[string]string{"C": "matrixmul8.C"}},
	{name: "saxpy_attr", src: "signatures",
		launch:  `saxpy_attr<<<4, 256>>>(n=1000, a=2.5f, x=file("inputs/saxpy_x.bin"), y=file("inputs/saxpy_y.bin"))`,
		outputs: map[string]string{"y": "saxpy_attr.y"}},
	{name: "vec_types", src: "vectypes",
		launch:  `vec_types<<<2, 256>>>(a=file("inputs/vec_a.bin"), b=zeros(2048), c=file("inputs/vec_c.bin"), d=zeros(1024), p=file("inputs/vec_p.bin"), q=zeros(8192), n=512)`,
		outputs: map[string]string{"b": "vec_types.b", "d": "vec_types.d", "q": "vec_types.q"}},
}

// paths are the two ways a kernel reaches the simulator.
func paths(t *testing.T, src string) map[string]analysis.Request {
	cu, err := os.ReadFile(filepath.Join(realDir, src+".cu"))
	if err != nil {
		t.Fatal(err)
	}
	nv, err := os.ReadFile(filepath.Join(realDir, "h200", "ptx", src+".sm_90.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	base := analysis.Request{Source: cu, SourceFile: src + ".cu", Arch: "sm_90", BaseDir: realDir}
	out := map[string]analysis.Request{}
	n := base
	n.Prebuilt = nv // nvcc's PTX of the same source, recorded on the H200's machine
	out["nvcc"] = n
	if _, err := exec.LookPath("clang-19"); err == nil {
		c := base
		c.Compiler = "clang"
		out["clang"] = c
	} else {
		t.Log("clang-19 not found: the clang path is not tested")
	}
	return out
}

func parseLaunch(t *testing.T, l string, symbols []string) *launch.Launch {
	t.Helper()
	spec, err := magics.ParseLaunch(l)
	if err != nil {
		t.Fatalf("%s: %v", l, err)
	}
	for _, s := range symbols {
		sym, err := magics.ParseSymbol(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		spec.Symbols = append(spec.Symbols, sym)
	}
	return spec
}

func output(rep *report.Report, name string) *report.Output {
	for i := range rep.Outputs {
		if rep.Outputs[i].Name == name {
			return &rep.Outputs[i]
		}
	}
	return nil
}

// TestRealCUDALaunchModel runs each case of harness.cu through nvcc's PTX and
// clang's and compares every output byte for byte with the H200's.
func TestRealCUDALaunchModel(t *testing.T) {
	for _, c := range realCases {
		for path, req := range paths(t, c.src) {
			t.Run(c.name+"/"+path, func(t *testing.T) {
				req.Launch = parseLaunch(t, c.launch, c.symbols)
				req.Budget = 1e8
				// Every check, the order check included: these kernels are race-free, and
				// the second schedule must see the same symbols and shared memory.
				req.Checks = analysis.Checks{Race: true, Init: true, Sync: true, Order: true}
				rep, err := analysis.Run(context.Background(), req)
				if err != nil {
					t.Fatalf("%v", err)
				}
				for _, f := range rep.Sanitizer {
					t.Errorf("unexpected %s finding: %s", f.Kind, f.Message)
				}
				for name, file := range c.outputs {
					want, err := os.ReadFile(filepath.Join(realDir, "h200", "out", file+".out.bin"))
					if strings.HasPrefix(file, "../") {
						want, err = os.ReadFile(filepath.Join(realDir, "h200", "out", file+".bin"))
					}
					if err != nil {
						t.Fatal(err)
					}
					o := output(rep, name)
					if o == nil {
						t.Fatalf("no output %s (outputs: %v)", name, outputNames(rep))
					}
					got := o.Bytes
					if n, ok := c.prefix[name]; ok {
						got, want = got[:n], want[:n]
					}
					if !bytes.Equal(got, want) {
						t.Errorf("%s: %d of %d bytes differ from the H200 (first elements %v)", name, diffBytes(got, want), len(want), o.First)
					}
				}
			})
		}
	}
}

func outputNames(rep *report.Report) []string {
	var n []string
	for _, o := range rep.Outputs {
		n = append(n, o.Name)
	}
	return n
}

func diffBytes(a, b []byte) int {
	n := 0
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			n++
		}
	}
	return n
}

// TestLaunchModelErrors: a missing shared size, a wrong symbol, an oversized
// symbol and an ambiguous template name are errors naming them; a kernel
// reading a __constant__ array nobody set gets a warning naming it.
func TestLaunchModelErrors(t *testing.T) {
	cases := []struct {
		src, launch string
		symbols     []string
		wantErr     string
		wantHint    string
	}{
		{"dynsmem", `reverse_dyn<<<4, 256>>>(in=zeros(1024), out=zeros(1024), info=zeros(4), n=1024)`, nil,
			"uses dynamic shared memory (extern __shared__ tile) but the launch gives it no size", ""},
		{"symbols", `conv_row<<<4, 256>>>(in=rand(1000), out=zeros(1000), n=1000)`, []string{"c_Kernl = rand(17)"},
			"no __constant__ or __device__ variable of that name (variables: c_Kernel, c_offsets, d_count, d_gain, d_last)", ""},
		{"symbols", `conv_row<<<4, 256>>>(in=rand(1000), out=zeros(1000), n=1000)`, []string{"c_Kernel = rand(18)"},
			"%symbol c_Kernel: the variable has 68 bytes (17 f32 elements), the initialiser gives 72", ""},
		{"symbols", `conv_row<<<4, 256>>>(in=rand(1000), out=zeros(1000), n=1000)`, nil,
			"", "reads __constant__ c_Kernel, which has no initialiser and which this launch never set"},
		{"signatures", `MatrixMul<<<dim3(3, 2), dim3(16, 16)>>>(C=zeros(1536), A=rand(1024), B=rand(1536), wA=32, wB=48)`, nil,
			"MatrixMul is a template with 2 instances (MatrixMul<16>, MatrixMul<8>): name one", ""},
		// An instance the PTX lacks: from nvcc's PTX an error naming it; from the CUDA
		// source the launch instantiates it (TestTemplateKernelInstantiatedByTheLaunch).
		{"signatures", `MatrixMul<32>(C=zeros(1536))`, nil, `no kernel named "MatrixMul<32>"`, ""},
	}
	for _, c := range cases {
		for path, req := range paths(t, c.src) {
			t.Run(c.src+"/"+path, func(t *testing.T) {
				req.Launch = parseLaunch(t, c.launch, c.symbols)
				req.Budget = 1e8
				if path == "clang" && strings.HasPrefix(c.wantErr, "no kernel named") {
					req.ParseOnly = true
					rep, err := analysis.Run(context.Background(), req)
					if err != nil {
						t.Fatalf("the launch should instantiate %s: %v", c.launch, err)
					}
					for _, k := range rep.Kernels {
						if strings.Contains(k.Name, "MatrixMul") && strings.Contains(k.Name, "32") {
							return
						}
					}
					t.Fatalf("no instance of %s in %+v", c.launch, rep.Kernels)
				}
				rep, err := analysis.Run(context.Background(), req)
				if c.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), c.wantErr) {
						t.Fatalf("error %v, want one containing %q", err, c.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, h := range rep.Hints {
					if strings.Contains(h.Message, c.wantHint) {
						found = true
						if h.PTXLine == 0 {
							t.Errorf("hint without a PTX line: %+v", h)
						}
					}
				}
				if !found {
					t.Errorf("no hint containing %q in %+v", c.wantHint, rep.Hints)
				}
			})
		}
	}
}

// TestAutoArgsByPointee: without %launch, pointers to float4, int2 and a
// 16-byte struct get one pointee per thread, so the first launch is in bounds.
func TestAutoArgsByPointee(t *testing.T) {
	for path, req := range paths(t, "vectypes") {
		t.Run(path, func(t *testing.T) {
			req.Grid, req.Block = [3]int{2, 1, 1}, [3]int{128, 1, 1}
			rep, err := analysis.Run(context.Background(), req)
			if err != nil {
				t.Fatalf("automatic launch failed: %v", err)
			}
			want := map[string]struct {
				typ   string
				count int
			}{"a": {"f32", 1024}, "b": {"f32", 1024}, "c": {"i32", 512}, "d": {"i32", 512}, "p": {"u8", 4096}, "q": {"u8", 4096}}
			for _, a := range rep.Args {
				if w, ok := want[a.Name]; ok && (a.Type != w.typ || a.Count != w.count) {
					t.Errorf("%s: %d %s, want %d %s", a.Name, a.Count, a.Type, w.count, w.typ)
				}
			}
		})
	}
}

// dramDir holds testdata/measured/dram (our own kernels, measured on the H200).
const dramDir = "../../testdata/measured/dram"

// A launch of more than 48 KB of shared memory per block (which the CUDA runtime
// runs only after cudaFuncSetAttribute opted the kernel in) gets the opted-in
// occupancy, and the report says what it assumed; it used to be zero blocks.
func TestSharedOptInOccupancy(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(dramDir, "latency.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ smem, resident int }{{48 * 1024, 4}, {51200, 4}, {102400, 2}, {204800, 1}} {
		const n = 1 << 12
		l := &launch.Launch{Kernel: "_Z9lat_triadPKfS0_PfiPj", Shared: c.smem, SharedSet: true}
		for _, f := range []string{"rand", "rand", "zeros"} {
			l.Args = append(l.Args, launch.Arg{Init: &launch.Init{Func: f, N: n, Type: "f32"}})
		}
		l.Args = append(l.Args, launch.Arg{Scalar: "4096"}, launch.Arg{Init: &launch.Init{Func: "zeros", N: n / 32, Type: "u32"}})
		rep, err := analysis.Run(context.Background(), analysis.Request{Source: src, SourceFile: "latency.ptx", IsPTX: true, Arch: "sm_90",
			Launch: l, Grid: [3]int{n / 256, 1, 1}, Block: [3]int{256, 1, 1}, Timing: true})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Occupancy == nil || rep.Occupancy.ActiveBlocksPerSM != c.resident {
			t.Errorf("%d bytes: occupancy %+v, want %d blocks per SM", c.smem, rep.Occupancy, c.resident)
		}
		noted := false
		for _, s := range rep.Notes {
			noted = noted || strings.Contains(s, "cudaFuncAttributeMaxDynamicSharedMemorySize")
		}
		if want := c.smem > 48*1024; noted != want {
			t.Errorf("%d bytes: opt-in note %v, want %v (notes %q)", c.smem, noted, want, rep.Notes)
		}
	}
}
