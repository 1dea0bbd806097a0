package render

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/magics"
)

// A header whose inlined load is strided (uncoalesced): its line 4 gets the hint.
const stridedHeader = `#pragma once
// strided on purpose
__device__ inline float load_strided(const float *p, int i) {
    float v = p[i * 8];
    return v + 1.0f;
}
`

const stridedCell = `#include "strided.cuh"
__global__ void gather(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = load_strided(in, i);
}
`

func needClangRender(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("clang-19"); err != nil {
		if os.Getenv("KS_REQUIRE_TOOLS") != "" {
			t.Fatal("clang-19 is required")
		}
		t.Skip("no clang-19")
	}
}

func runSources(t *testing.T, req analysis.Request, launchText string) *report.Report {
	t.Helper()
	l, err := magics.ParseLaunch(launchText)
	if err != nil {
		t.Fatal(err)
	}
	req.Launch, req.SourceFile, req.Cell, req.Arch, req.Compiler = l, "cell.cu", true, "sm_80", "auto"
	req.Grid, req.Block, req.Budget = [3]int{4, 1, 1}, [3]int{64, 1, 1}, 1e7
	rep, err := analysis.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// execsOf sums the thread executions of a source line over its PTX lines, as the
// Source view does; it fails unless some ran.
func execsOf(rep *report.Report, file string, line int) string {
	var n int64
	for _, l := range rep.Lines {
		if l.CUDAFile == file && l.CUDALine == line {
			n += l.ThreadExecs
		}
	}
	if n == 0 {
		return "(none ran)"
	}
	return group(n)
}

var lineTitleRE = regexp.MustCompile(`<div class="ks-ln[^"]*" data-cl="(\d+)"><span class="ks-no" title="[\d,]+ warp / ([\d,]+) thread executions`)

func TestSourceViewShowsIncludedHeader(t *testing.T) {
	needClangRender(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "strided.cuh"), []byte(stridedHeader), 0o600); err != nil {
		t.Fatal(err)
	}
	rep := runSources(t, analysis.Request{Source: []byte(stridedCell), BaseDir: dir}, "gather(in=arange(2048), out=zeros(256), n=256)")
	if len(rep.Sources) != 1 || rep.Sources[0].File != "strided.cuh" {
		t.Fatalf("sources %+v", rep.Sources)
	}
	page, err := HTML(rep, nil, Options{ID: "kstest"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<details class="ks-incl" data-file="strided.cuh" open><summary class="ks-inclhead">strided.cuh <span class="ks-dim">· included header · `,
		`<div class="ks-ln ks-warn" data-cl="s1:4"><span class="ks-no">4</span><span class="ks-heat" title="` + execsOf(rep, "strided.cuh", 4) + ` thread executions, 32.0 sectors/request (ideal 4.0)`,
		`<span class="ks-src">    float v = p[i * 8];</span>`,
		`data-cl="s1:4">strided.cuh:4</a>`, // the hint and the memory row
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the HTML lacks %q", want)
		}
	}
	// The PTX line of the load links to the header's line.
	if !regexp.MustCompile(`data-pl="\d+" data-cl="s1:4"><span class="ks-no"[^>]*>\d+ </span><span class="ks-src">\s*<span class="ks-op"[^>]*>ld\.global`).MatchString(page) {
		t.Error("no PTX ld.global line links to s1:4")
	}
	// The cell's lines count only the cell's instructions, not the header's.
	want := map[int]int64{}
	for _, l := range rep.Lines {
		if l.CUDAFile == "" && l.CUDALine > 0 {
			want[l.CUDALine] += l.ThreadExecs
		}
	}
	cellCol := page[strings.Index(page, `<div class="ks-col ks-cuda">`):strings.Index(page, `<details class="ks-incl"`)]
	seen := 0
	for _, m := range lineTitleRE.FindAllStringSubmatch(cellCol, -1) {
		n, _ := strconv.Atoi(m[1])
		got, _ := strconv.ParseInt(strings.ReplaceAll(m[2], ",", ""), 10, 64)
		if got != want[n] {
			t.Errorf("cell line %d shows %d thread executions, its own rows have %d", n, got, want[n])
		}
		seen++
	}
	if seen != strings.Count(stridedCell, "\n") {
		t.Errorf("read %d cell lines' counters, want %d", seen, strings.Count(stridedCell, "\n"))
	}
	found := false
	for _, h := range rep.Hints {
		if h.Rule == "uncoalesced-global" && h.CUDAFile == "strided.cuh" && h.CUDALine == 4 {
			found = true
		}
	}
	if !found {
		t.Errorf("no uncoalesced-global hint at strided.cuh:4: %+v", rep.Hints)
	}
	if txt := Text(rep); !strings.Contains(txt, "(strided.cuh:4)") {
		t.Errorf("the text report does not name strided.cuh:4:\n%s", txt)
	}
}

func TestSourceViewShowsKeptDefinition(t *testing.T) {
	needClangRender(t)
	def := "\n__device__ float twice_at(const float *p, int i) {\n    return p[i] * 2.0f;\n}\n"
	cell := "__global__ void scale(const float *in, float *out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) out[i] = twice_at(in, i);\n}\n"
	src := "#line 1 \"define:helpers\"\n" + def + "\n#line 1 \"cell.cu\"\n" + cell
	rep := runSources(t, analysis.Request{Source: []byte(src), BaseDir: t.TempDir(), ExtraSources: map[string]string{"define:helpers": def}},
		"scale(in=arange(256), out=zeros(256), n=256)")
	page, err := HTML(rep, nil, Options{ID: "kstest"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<details class="ks-incl" data-file="define:helpers" open><summary class="ks-inclhead">helpers <span class="ks-dim">· kept definition (%%cuda_define) · `,
		`data-cl="s1:3"><span class="ks-no">3</span><span class="ks-heat" title="` + execsOf(rep, "define:helpers", 3) + ` thread executions, 4.0 sectors/request (ideal 4.0)`,
		`data-cl="s1:3">definition helpers line 3</a>`, // the memory row
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the HTML lacks %q", want)
		}
	}
}

// A race in a header: the Correctness section links the header's line, which the
// Source view marks.
func TestFindingInHeaderLinked(t *testing.T) {
	needClangRender(t)
	dir := t.TempDir()
	hdr := "#pragma once\n__device__ inline void racy_store(int *s, int v) {\n    s[0] = v;\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "racy.cuh"), []byte(hdr), 0o600); err != nil {
		t.Fatal(err)
	}
	cell := "#include \"racy.cuh\"\n__global__ void racy(int *out) {\n    __shared__ int s[1];\n    racy_store(s, threadIdx.x);\n    __syncthreads();\n    out[threadIdx.x] = s[0];\n}\n"
	checks, err := analysis.ParseChecks("race")
	if err != nil {
		t.Fatal(err)
	}
	rep := runSources(t, analysis.Request{Source: []byte(cell), BaseDir: dir, Checks: checks}, "racy(out=zeros(256))")
	page, err := HTML(rep, nil, Options{ID: "kstest"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`racy.cuh:3 (PTX line `,
		`<a class="ks-link" data-cl="s1:3">racy.cuh:3</a>`,
		`<div class="ks-ln ks-bug" data-cl="s1:3"><span class="ks-no">3</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the HTML lacks %q", want)
		}
	}
	if strings.Contains(page, `<div class="ks-ln ks-bug" data-cl="3">`) {
		t.Error("the cell's line 3 is marked for the header's race")
	}
}
