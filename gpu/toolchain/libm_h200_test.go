package toolchain_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/launch"
)

// The CUDA Math API float functions of scripts/libm (libm.cu, funcs.h) against the
// H200: nvcc 13 built libm.cu three ways (default flags, -use_fast_math,
// -ftz=true) and ran every function on the same 10240 inputs each
// (testdata/measured/libm: in_x/in_y, out0/out1/out2, the PTX of each build).
// The prelude's versions, compiled by clang with the same flags and simulated,
// are compared bit for bit; so is nvcc's own PTX, which checks the simulator.

const libmDir = "../../testdata/measured/libm/"

const libmN = 10240 // inputs per function (libm.cu's NIN)

// libmFlags are the three builds of scripts/libm/run.sh, by output file index.
var libmFlags = [][]string{nil, {"-use_fast_math"}, {"-ftz=true"}}

// libmFuncs lists funcs.h: the function names and whether each takes two arguments.
func libmFuncs(t *testing.T) (names []string, two map[string]bool) {
	t.Helper()
	b, err := os.ReadFile("../../scripts/libm/funcs.h")
	if err != nil {
		t.Fatal(err)
	}
	two = map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^F([12])\((\w+)\)`).FindAllStringSubmatch(string(b), -1) {
		names = append(names, m[2])
		two[m[2]] = m[1] == "2"
	}
	return names, two
}

// gunzipFile reads a gzip-compressed recording of testdata/measured/libm.
func gunzipFile(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(libmDir + name)
	if err != nil {
		t.Fatalf("H200 record: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("H200 record %s: %v", name, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("H200 record %s: %v", name, err)
	}
	return b
}

// libmResult is one function's count on one path.
type libmResult struct {
	exact int
	miss  []string // the first few differing inputs, formatted
}

// libmCount compares got with the H200's hw for function k of names.
func libmCount(names []string, k int, x, y, got, hw []byte) libmResult {
	var r libmResult
	for i := 0; i < libmN; i++ {
		o := 4 * (k*libmN + i)
		g, w := binary.LittleEndian.Uint32(got[o:]), binary.LittleEndian.Uint32(hw[o:])
		if g == w || (g&0x7fffffff > 0x7f800000 && w&0x7fffffff > 0x7f800000) {
			r.exact++
		} else if len(r.miss) < 8 {
			r.miss = append(r.miss, fmt.Sprintf("%s(%#08x, %#08x): %#08x, H200 %#08x", names[k],
				binary.LittleEndian.Uint32(x[o:]), binary.LittleEndian.Uint32(y[o:]), g, w))
		}
	}
	return r
}

// libmClang compiles every function of names into one kernel with clang and flags,
// runs it on the recorded inputs and returns the outputs (function-major).
func libmClang(t *testing.T, names []string, two map[string]bool, flags []string, dir string) []byte {
	t.Helper()
	var src strings.Builder
	src.WriteString("__global__ void lm(const float *x, const float *y, float *o) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n")
	for k, f := range names {
		args := fmt.Sprintf("x[%d + i]", k*libmN)
		if two[f] {
			args += fmt.Sprintf(", y[%d + i]", k*libmN)
		}
		fmt.Fprintf(&src, "  o[%d + i] = %s(%s);\n", k*libmN, f, args)
	}
	src.WriteString("}\n")
	needClang(t)
	nf := len(names) * libmN
	rep, err := analysis.Run(context.Background(), analysis.Request{
		Source: []byte(src.String()), SourceFile: "cell.cu", Arch: "sm_90", Compiler: "clang", BaseDir: dir, Flags: flags,
		Launch: &launch.Launch{Kernel: "lm", Args: []launch.Arg{
			{Init: &launch.Init{Func: "file", Path: "x.bin", Type: "f32"}},
			{Init: &launch.Init{Func: "file", Path: "y.bin", Type: "f32"}},
			buf("zeros", nf, "f32")}},
		Grid: [3]int{libmN / 256, 1, 1}, Block: [3]int{256, 1, 1}, Budget: 1e10,
	})
	if err != nil {
		t.Fatalf("clang %v: %v", flags, err)
	}
	return output(t, rep, 2)
}

// libmNvcc simulates nvcc's PTX (build v) of every function, each kernel on its
// slice of the inputs, and returns the outputs (function-major).
func libmNvcc(t *testing.T, names []string, v int, dir string) []byte {
	t.Helper()
	ptx, err := os.ReadFile(fmt.Sprintf("%slibm%d.ptx", libmDir, v))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]byte, 0, 4*len(names)*libmN)
	for k, f := range names {
		name := "k_" + f
		rep, err := analysis.Run(context.Background(), analysis.Request{
			Source: []byte("// nvcc's PTX of scripts/libm/libm.cu\n"), SourceFile: "libm.cu", Arch: "sm_90", BaseDir: dir,
			Prebuilt: oneEntry(ptx, name), Sandbox: true, Budget: 1e10,
			Launch: &launch.Launch{Kernel: name, Args: []launch.Arg{
				{Init: &launch.Init{Func: "file", Path: fmt.Sprintf("x%d.bin", k), Type: "f32"}},
				{Init: &launch.Init{Func: "file", Path: fmt.Sprintf("y%d.bin", k), Type: "f32"}},
				buf("zeros", libmN, "f32")}},
			Grid: [3]int{libmN / 256, 1, 1}, Block: [3]int{256, 1, 1},
		})
		if err != nil {
			t.Fatalf("nvcc PTX of %s (build %d): %v", f, v, err)
		}
		out = append(out, output(t, rep, 2)...)
	}
	return out
}

// libmInputs writes the recorded inputs into dir: x.bin and y.bin whole, and
// xK.bin, yK.bin per function K.
func libmInputs(t *testing.T, nf int) (x, y []byte, dir string) {
	t.Helper()
	x, y = gunzipFile(t, "in_x.bin.gz"), gunzipFile(t, "in_y.bin.gz")
	if len(x) != 4*nf*libmN || len(y) != len(x) {
		t.Fatalf("inputs: %d and %d bytes for %d functions", len(x), len(y), nf)
	}
	dir = t.TempDir()
	writeFile(t, dir+"/x.bin", x)
	writeFile(t, dir+"/y.bin", y)
	for k := 0; k < nf; k++ {
		writeFile(t, fmt.Sprintf("%s/x%d.bin", dir, k), x[4*k*libmN:4*(k+1)*libmN])
		writeFile(t, fmt.Sprintf("%s/y%d.bin", dir, k), y[4*k*libmN:4*(k+1)*libmN])
	}
	return x, y, dir
}

// libmFloor is, per build (libmFlags' index) and function, the bit-exact count of
// libmN the clang path must reach; a function at libmN logs every miss.
var libmFloor = [3]map[string]int{
	{"expf": 10240, "exp2f": 10240, "exp10f": 10240, "expm1f": 10240, "logf": 10240, "log2f": 10240, "log10f": 10240, "log1pf": 10240, "sinf": 10240, "cosf": 10240, "tanf": 10240, "sinhf": 10240, "coshf": 10240, "tanhf": 10240, "asinf": 10240, "acosf": 10240, "atanf": 10240, "asinhf": 10240, "acoshf": 10240, "atanhf": 10240, "erff": 10240, "erfcf": 10240, "erfinvf": 10240, "erfcinvf": 10240, "erfcxf": 10240, "normcdff": 10240, "normcdfinvf": 10240, "cbrtf": 10240, "rcbrtf": 10240, "sinpif": 10240, "cospif": 10240, "lgammaf": 10240, "tgammaf": 10240, "__expf": 10240, "__logf": 10240, "powf": 10240, "atan2f": 10240, "hypotf": 10240},
	{"expf": 10240, "exp2f": 10240, "exp10f": 10240, "expm1f": 10240, "logf": 10240, "log2f": 10240, "log10f": 10240, "log1pf": 10240, "sinf": 10240, "cosf": 10240, "tanf": 10240, "sinhf": 10240, "coshf": 10240, "tanhf": 10240, "asinf": 10240, "acosf": 10240, "atanf": 10240, "asinhf": 10240, "acoshf": 10240, "atanhf": 10240, "erff": 10240, "erfcf": 10240, "erfinvf": 10240, "erfcinvf": 10240, "erfcxf": 10240, "normcdff": 10240, "normcdfinvf": 10240, "cbrtf": 10240, "rcbrtf": 10240, "sinpif": 10240, "cospif": 10240, "lgammaf": 10240, "tgammaf": 10240, "__expf": 10240, "__logf": 10240, "powf": 10240, "atan2f": 10240, "hypotf": 10240},
	{"expf": 10240, "exp2f": 10240, "exp10f": 10240, "expm1f": 10240, "logf": 10240, "log2f": 10240, "log10f": 10240, "log1pf": 10240, "sinf": 10240, "cosf": 10240, "tanf": 10240, "sinhf": 10240, "coshf": 10240, "tanhf": 10240, "asinf": 10240, "acosf": 10240, "atanf": 10240, "asinhf": 10240, "acoshf": 10240, "atanhf": 10240, "erff": 10240, "erfcf": 10240, "erfinvf": 10240, "erfcinvf": 10240, "erfcxf": 10240, "normcdff": 10240, "normcdfinvf": 10240, "cbrtf": 10240, "rcbrtf": 10240, "sinpif": 10240, "cospif": 10240, "lgammaf": 10240, "tgammaf": 10240, "__expf": 10240, "__logf": 10240, "powf": 10240, "atan2f": 10240, "hypotf": 10240},
}

func TestLibmAgainstH200(t *testing.T) {
	names, two := libmFuncs(t)
	x, y, dir := libmInputs(t, len(names))
	for v, flags := range libmFlags {
		hw := gunzipFile(t, fmt.Sprintf("out%d.bin.gz", v))
		if len(hw) != len(x) {
			t.Fatalf("out%d: %d bytes", v, len(hw))
		}
		got := libmClang(t, names, two, flags, dir)
		var nv []byte
		if os.Getenv("KS_LIBM_NVCC") != "" {
			nv = libmNvcc(t, names, v, dir)
		}
		for k, f := range names {
			r := libmCount(names, k, x, y, got, hw)
			line := fmt.Sprintf("build %d %-16s %-12s clang %5d/%d", v, strings.Join(flags, " "), f, r.exact, libmN)
			if nv != nil {
				n := libmCount(names, k, x, y, nv, hw)
				line += fmt.Sprintf("   nvcc PTX %5d/%d", n.exact, libmN)
				if n.exact < libmN {
					line += "  " + strings.Join(n.miss[:min(2, len(n.miss))], "; ")
				}
			}
			t.Log(line)
			fl := libmFloor[v][f]
			if fl == libmN || os.Getenv("KS_LIBM_V") != "" {
				for _, m := range r.miss {
					t.Logf("  %s", m)
				}
			}
			if r.exact < fl {
				t.Errorf("build %d %s: %d bit-exact, below the recorded %d", v, f, r.exact, fl)
			}
		}
	}
}
