package analysis

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/magics"
)

// A header beside the cell whose device function the kernel inlines: its load is
// on the header's line 4.
const scaleHeader = `#pragma once
// a helper the kernel inlines
__device__ inline float load_scaled(const float *p, int i, float s) {
    float v = p[i];
    return v * s;
}
`

const scaleCell = `#include "vec.cuh"
__global__ void scale(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = load_scaled(in, i, 2.0f);
}
`

func sourcesLaunch(t *testing.T, s string) *launch.Launch {
	t.Helper()
	l, err := magics.ParseLaunch(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// checkScaled checks out[i] == 2*i for 100 elements.
func checkScaled(t *testing.T, rep *report.Report) {
	t.Helper()
	for _, o := range rep.Outputs {
		if o.Name != "out" {
			continue
		}
		for i := 0; i < 100; i++ {
			if got := math.Float32frombits(binary.LittleEndian.Uint32(o.Bytes[4*i:])); got != 2*float32(i) {
				t.Fatalf("out[%d] = %v, want %v", i, got, 2*float32(i))
			}
		}
		return
	}
	t.Fatal("no output out")
}

// mainLinesWithin checks that every row of the main source has a line of it.
func mainLinesWithin(t *testing.T, rep *report.Report, src string) {
	t.Helper()
	n := strings.Count(src, "\n") + 1
	for _, l := range rep.Lines {
		if l.CUDAFile == "" && l.CUDALine > n {
			t.Errorf("PTX line %d: cuda_line %d past the main source's %d lines", l.PTXLine, l.CUDALine, n)
		}
	}
	for _, m := range rep.Memory.Instructions {
		if m.CUDAFile == "" && m.CUDALine > n {
			t.Errorf("memory row at PTX line %d: cuda_line %d past the main source's %d lines", m.PTXLine, m.CUDALine, n)
		}
	}
}

func TestIncludedHeaderLinesCounted(t *testing.T) {
	needClangHere(t)
	dir := t.TempDir()
	// The compilation's scratch directory (with the prelude) under the notebook's
	// directory: it still must not count as the user's.
	t.Setenv("TMPDIR", dir)
	if err := os.WriteFile(filepath.Join(dir, "vec.cuh"), []byte(scaleHeader), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, sandbox := range []bool{false, true} {
		req := Request{Source: []byte(scaleCell), SourceFile: "cell.cu", Cell: true, Arch: "sm_80", Compiler: "auto",
			BaseDir: dir, Sandbox: sandbox, Grid: [3]int{2, 1, 1}, Block: [3]int{64, 1, 1}, Budget: 1e7,
			Launch: sourcesLaunch(t, "scale(in=arange(100), out=zeros(100), n=100)")}
		rep, err := Run(context.Background(), req)
		if err != nil {
			t.Fatalf("sandbox=%v: %v", sandbox, err)
		}
		checkScaled(t, rep)
		if len(rep.Sources) != 1 || rep.Sources[0].File != "vec.cuh" || rep.Sources[0].Text != scaleHeader {
			t.Fatalf("sandbox=%v: sources %+v, want vec.cuh alone (no compiler, prelude or system header)", sandbox, rep.Sources)
		}
		var load *report.LineStat
		for i, l := range rep.Lines {
			if l.CUDAFile == "vec.cuh" && l.CUDALine == 4 && l.Requests > 0 {
				load = &rep.Lines[i]
			}
			if l.CUDAFile != "" && l.CUDAFile != "vec.cuh" {
				t.Errorf("PTX line %d attributed to %q", l.PTXLine, l.CUDAFile)
			}
		}
		if load == nil || load.ThreadExecs != 100 || load.WarpExecs != 4 {
			t.Fatalf("sandbox=%v: no line vec.cuh:4 with the load's 100 thread executions in 4 warp executions: %+v", sandbox, load)
		}
		var hdrLoad, cellStore bool
		for _, m := range rep.Memory.Instructions {
			if m.Space == "global" && m.Op == "ld" && m.CUDAFile == "vec.cuh" && m.CUDALine == 4 && m.Executions == 4 {
				hdrLoad = true
			}
			if m.Space == "global" && m.Op == "st" && m.CUDAFile == "" && m.CUDALine == 5 {
				cellStore = true
			}
		}
		if !hdrLoad || !cellStore {
			t.Errorf("sandbox=%v: memory rows %+v: want the load at vec.cuh:4 and the store at the cell's line 5", sandbox, rep.Memory.Instructions)
		}
		mainLinesWithin(t, rep, scaleCell)
		stepped := false
		for _, st := range rep.Trace.Steps {
			if st.CUDAFile == "vec.cuh" && st.CUDALine == 4 && strings.HasPrefix(st.Text, "ld.global") {
				stepped = true
			}
			if st.CUDAFile != "" && st.CUDAFile != "vec.cuh" {
				t.Errorf("trace step at PTX line %d attributed to %q", st.PTXLine, st.CUDAFile)
			}
		}
		if !stepped {
			t.Errorf("sandbox=%v: no trace step of the load at vec.cuh:4", sandbox)
		}
	}
}

// A kept definition is compiled above the cell under #line directives, as the
// engine does for %%cuda_define; its text comes with the request.
const keptDef = "\n__device__ float twice_at(const float *p, int i) {\n    return p[i] * 2.0f;\n}\n"

const defCell = `__global__ void scale(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = twice_at(in, i);
}
`

func TestDefinitionLinesCounted(t *testing.T) {
	needClangHere(t)
	src := "#line 1 \"define:helpers\"\n" + keptDef + "\n#line 1 \"cell.cu\"\n" + defCell
	for _, withText := range []bool{true, false} {
		req := Request{Source: []byte(src), SourceFile: "cell.cu", Cell: true, Arch: "sm_80", Compiler: "auto",
			BaseDir: t.TempDir(), Grid: [3]int{2, 1, 1}, Block: [3]int{64, 1, 1}, Budget: 1e7,
			Launch: sourcesLaunch(t, "scale(in=arange(100), out=zeros(100), n=100)")}
		if withText {
			req.ExtraSources = map[string]string{"define:helpers": keptDef, "define:unused": "__device__ int nothing;\n"}
		}
		rep, err := Run(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		checkScaled(t, rep)
		if !withText {
			// Without the text nothing is attributed to the definition: the rows are as before.
			if len(rep.Sources) != 0 {
				t.Errorf("sources without the definitions' text: %+v", rep.Sources)
			}
			for _, l := range rep.Lines {
				if l.CUDAFile != "" {
					t.Errorf("PTX line %d attributed to %q", l.PTXLine, l.CUDAFile)
				}
			}
			continue
		}
		if len(rep.Sources) != 1 || rep.Sources[0].File != "define:helpers" || rep.Sources[0].Text != keptDef {
			t.Fatalf("sources %+v, want define:helpers alone", rep.Sources)
		}
		found := false
		for _, l := range rep.Lines {
			if l.CUDAFile == "define:helpers" && l.CUDALine == 3 && l.Requests > 0 && l.ThreadExecs == 100 {
				found = true
			}
		}
		if !found {
			t.Errorf("no line 3 of definition helpers with the load's 100 thread executions: %+v", rep.Lines)
		}
		mainLinesWithin(t, rep, defCell)
	}
}

// The sources kept from a module's .file table: in sandbox mode only files under
// the directory (no link out, no -I elsewhere); never the prelude, relative
// (scratch-directory) names or system and compiler headers.
func TestUserSourcesConfined(t *testing.T) {
	root := t.TempDir()
	dir, outside := filepath.Join(root, "nb"), filepath.Join(root, "outside")
	write := func(p, text string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write(filepath.Join(dir, "ok.cuh"), "__device__ int ok;\n")
	sub := write(filepath.Join(dir, "sub", "deep.cuh"), "__device__ int deep;\n")
	secret := write(filepath.Join(outside, "secret.cuh"), "#define TOKEN hunter2\n")
	prelude := write(filepath.Join(dir, "kernelscope-cc-123", "kernelscope_prelude.h"), "prelude\n")
	scratch := write(filepath.Join(dir, "kernelscope-cc-123", "other.h"), "scratch\n")
	big := write(filepath.Join(dir, "big.cuh"), strings.Repeat("x", maxUserSourceBytes+1))
	link := filepath.Join(dir, "link.cuh")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	files := []string{"cell.cu", ok, secret, link, prelude, scratch, "kernelscope_prelude.h", "define:helpers", "define:other",
		filepath.Join(dir, "sub", "..", "ok.cuh"), sub, big, "/usr/include/stdio.h", "/usr/lib/llvm-19/lib/clang/19/include/__clang_cuda_builtin_vars.h"}
	mod := &ptx.Module{}
	for i, f := range files {
		mod.Files = append(mod.Files, ptx.File{Index: i + 1, Name: f})
	}
	extra := map[string]string{"define:helpers": "__device__ int h;\n"}
	names := func(req Request) []string {
		var out []string
		for _, s := range newUserSources(req, mod).list {
			if strings.Contains(s.src.Text, "hunter2") && req.Sandbox {
				t.Errorf("sandbox: read %s", s.src.File)
			}
			if s.skip != "" {
				out = append(out, s.src.File+" (skipped)")
				continue
			}
			out = append(out, s.src.File)
		}
		return out
	}
	base := Request{SourceFile: "cell.cu", BaseDir: dir, ExtraSources: extra}
	sandboxed := base
	sandboxed.Sandbox = true
	sandboxed.Flags = []string{"-I", outside}
	want := []string{"ok.cuh", "define:helpers", "sub/deep.cuh", "big.cuh (skipped)"}
	if got := names(sandboxed); !slices.Equal(got, want) {
		t.Errorf("sandbox: %q, want %q", got, want)
	}
	if got := names(base); !slices.Equal(got, want) {
		t.Errorf("no -I: %q, want %q", got, want)
	}
	withI := base
	withI.Flags = []string{"-I" + outside}
	// The header under -I and the link to it are one source, named relative to its root.
	wantI := []string{"ok.cuh", "secret.cuh", "define:helpers", "sub/deep.cuh", "big.cuh (skipped)"}
	if got := names(withI); !slices.Equal(got, wantI) {
		t.Errorf("-I outside: %q, want %q", got, wantI)
	}
	everything := Request{SourceFile: "cell.cu", BaseDir: "/"}
	for _, n := range names(everything) {
		if strings.HasPrefix(n, "usr/") || strings.Contains(n, "kernelscope_prelude") || strings.Contains(n, "kernelscope-cc-") {
			t.Errorf("BaseDir /: %s counted as the user's", n)
		}
	}
	if got := names(Request{IsPTX: true, SourceFile: "k.ptx", BaseDir: dir}); len(got) != 0 {
		t.Errorf("PTX input: %q", got)
	}

	// A notebook directory that itself lies under a directory named like the
	// scratch directory keeps its headers; a header named like a definition is
	// named by its path.
	odd := filepath.Join(root, "kernelscope-cc-mine", "nb")
	h := write(filepath.Join(odd, "h.cuh"), "__device__ int h;\n")
	d := write(filepath.Join(odd, "define:x"), "__device__ int x;\n")
	mod = &ptx.Module{Files: []ptx.File{{Index: 1, Name: "cell.cu"}, {Index: 2, Name: h}, {Index: 3, Name: d}}}
	if got := names(Request{SourceFile: "cell.cu", BaseDir: odd, Sandbox: true}); !slices.Equal(got, []string{"h.cuh", d}) {
		t.Errorf("odd names: %q, want %q", got, []string{"h.cuh", d})
	}
}

// A race inside a header's inlined function: the finding names the header's line.
func TestFindingInHeaderNamesIt(t *testing.T) {
	needClangHere(t)
	dir := t.TempDir()
	hdr := "#pragma once\n__device__ inline void racy_store(int *s, int v) {\n    s[0] = v;\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "racy.cuh"), []byte(hdr), 0o600); err != nil {
		t.Fatal(err)
	}
	cell := "#include \"racy.cuh\"\n__global__ void racy(int *out) {\n    __shared__ int s[1];\n    racy_store(s, threadIdx.x);\n    __syncthreads();\n    out[threadIdx.x] = s[0];\n}\n"
	checks, err := ParseChecks("race")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Request{Source: []byte(cell), SourceFile: "cell.cu", Cell: true, Arch: "sm_80", Compiler: "auto",
		BaseDir: dir, Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1}, Budget: 1e7, Checks: checks})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sanitizer) == 0 {
		t.Fatal("no race found")
	}
	for _, f := range rep.Sanitizer {
		if f.Kind != "race" || f.CUDAFile != "racy.cuh" || f.CUDALine != 3 || f.OtherCUDAFile != "racy.cuh" || f.OtherCUDALine != 3 ||
			!strings.HasPrefix(f.Message, "racy.cuh:3 (PTX line ") || !strings.Contains(f.Message, " and racy.cuh:3 (PTX line ") {
			t.Errorf("finding %+v: want the race at racy.cuh:3 on both sides, named so in its message", f)
		}
	}
}

// A header too large to quote: its lines are not attributed, and a note says so.
func TestLargeHeaderNoted(t *testing.T) {
	needClangHere(t)
	dir := t.TempDir()
	big := strings.Repeat("// padding padding padding padding padding padding padding padding\n", maxUserSourceBytes/60) + scaleHeader
	if err := os.WriteFile(filepath.Join(dir, "vec.cuh"), []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Request{Source: []byte(scaleCell), SourceFile: "cell.cu", Cell: true, Arch: "sm_80", Compiler: "auto",
		BaseDir: dir, Grid: [3]int{2, 1, 1}, Block: [3]int{64, 1, 1}, Budget: 1e7,
		Launch: sourcesLaunch(t, "scale(in=arange(100), out=zeros(100), n=100)")})
	if err != nil {
		t.Fatal(err)
	}
	checkScaled(t, rep)
	if len(rep.Sources) != 0 {
		t.Errorf("sources %d, want none", len(rep.Sources))
	}
	for _, l := range rep.Lines {
		if l.CUDAFile != "" {
			t.Errorf("PTX line %d attributed to %q", l.PTXLine, l.CUDAFile)
		}
	}
	want := "vec.cuh: the kernel has device code from it, but the Source view does not show it (larger than 256 KiB)"
	if !slices.Contains(rep.Notes, want) {
		t.Errorf("notes %q lack %q", rep.Notes, want)
	}
}
