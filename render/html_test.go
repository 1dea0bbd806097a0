package render

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/internal/golden"
)

var writeHTML = flag.String("write-html", "", "write the golden reports' HTML pages into this directory")

// goldenReport runs one case of cases.json from its sm_90 PTX through the pipeline.
func goldenReport(t *testing.T, name string) *report.Report {
	t.Helper()
	cases, err := golden.Cases()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Name != name {
			continue
		}
		l := &launch.Launch{Kernel: c.Kernel}
		for _, a := range c.Args {
			if a.IsBuffer() {
				l.Args = append(l.Args, launch.Arg{Init: &launch.Init{Func: "file", Path: a.Input, Type: a.Elem()}})
			} else {
				l.Args = append(l.Args, launch.Arg{Scalar: a.Value.String()})
			}
		}
		base := c.Base()
		src, err := golden.Read("ptx/" + base + ".sm_90.ptx")
		if err != nil {
			t.Fatal(err)
		}
		rep, err := analysis.Run(context.Background(), analysis.Request{
			Source: src, SourceFile: base + ".sm_90.ptx", IsPTX: true, Arch: "sm_90", Launch: l,
			Grid: c.Grid, Block: c.Block, BaseDir: golden.Dir(), Trace: launch.Trace{WarpHi: 1, Steps: 300},
		})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	t.Fatalf("no case %s", name)
	return nil
}

var idRE = regexp.MustCompile(`\sid="([^"]+)"`)

// TestHTMLStructure checks the sections and the uniqueness of ids on three golden cases,
// and that two reports on one page do not share ids.
func TestHTMLStructure(t *testing.T) {
	page := ""
	for _, name := range []string{"transpose_naive", "reduce_interleaved", "histogram256"} {
		rep := goldenReport(t, name)
		b, err := Bundle(rep, Options{})
		if err != nil {
			t.Fatal(err)
		}
		h := b[MIMEHTML].(string)
		for _, sec := range []string{"hints", "source", "memory", "occupancy", "timeline", "trace", "outputs"} {
			if !strings.Contains(h, `data-section="`+sec+`"`) {
				t.Errorf("%s: section %s missing", name, sec)
			}
		}
		if !strings.Contains(h, `class="ks-summary"`) || strings.Index(h, `class="ks-summary"`) > strings.Index(h, `data-section=`) {
			t.Errorf("%s: the summary line must come first", name)
		}
		if b[MIMEHTML] == nil || b[MIMEReport] == nil || b[MIMEText] == nil {
			t.Errorf("%s: bundle lacks a MIME type", name)
		}
		if b[MIMEPNG] != nil || b[MIMESVG] != nil {
			t.Errorf("%s: the bundle carries an image (front ends without HTML would open it)", name)
		}
		if !strings.Contains(h, "ks-trace-data") {
			t.Errorf("%s: no trace data", name)
		}
		page += h
		if *writeHTML != "" {
			doc := "<!DOCTYPE html><html><head><meta charset=utf-8></head><body>" + h + "</body></html>"
			if err := os.WriteFile(filepath.Join(*writeHTML, name+".html"), []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	seen := map[string]bool{}
	for _, m := range idRE.FindAllStringSubmatch(page, -1) {
		if seen[m[1]] {
			t.Errorf("id %q appears twice on a page of three reports", m[1])
		}
		seen[m[1]] = true
	}
	if len(seen) < 3 {
		t.Errorf("expected at least one id per report, found %d", len(seen))
	}
}

// TestHidingSections: %hide removes a section.
func TestHidingSections(t *testing.T) {
	rep := goldenReport(t, "vector_add")
	h, err := HTML(rep, nil, Options{Show: map[string]bool{"memory": false, "trace": false}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(h, `data-section="memory"`) || strings.Contains(h, `data-section="trace"`) {
		t.Error("hidden sections rendered")
	}
	if !strings.Contains(h, `data-section="source"`) {
		t.Error("shown section missing")
	}
}

// TestSASSLinesCarryCUDALines: nvdisasm's line comments link SASS instructions to CUDA lines.
func TestSASSLinesCarryCUDALines(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(golden.Dir(), "sass", "vector_add.sm_90.nvdisasm"))
	if err != nil {
		t.Fatal(err)
	}
	byLine := map[string]int{}
	for _, l := range sassLines(string(b), "vector_add.cu") {
		if strings.Contains(l.text, "ISETP.GE.AND") || strings.Contains(l.text, "FADD") || strings.Contains(l.text, "S2R R0") {
			byLine[strings.Fields(l.text)[1]] = l.cudaLine
		}
	}
	// The listing's own comments say: S2R at line 3, ISETP and FADD at line 4.
	if byLine["S2R"] != 3 || byLine["ISETP.GE.AND"] != 4 || byLine["FADD"] != 4 {
		t.Fatalf("CUDA lines of SASS instructions: %v", byLine)
	}
	for _, l := range sassLines(string(b), "other.cu") {
		if l.cudaLine != 0 {
			t.Fatalf("a line of another file linked: %+v", l)
		}
	}
	c, err := os.ReadFile(filepath.Join(golden.Dir(), "sass", "vector_add.sm_90.sass"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range sassLines(string(c), "") {
		if strings.Contains(l.text, "/* 0x") {
			t.Fatalf("encoding left in %q", l.text)
		}
	}
}

// TestChartsInlineWithoutFonts: inline charts draw their text as glyph outlines
// (defined once per chart, with page-unique ids) instead of embedding the font.
func TestChartsInlineWithoutFonts(t *testing.T) {
	rep := goldenReport(t, "vector_add")
	charts := Charts(rep)
	if len(charts) != 3 {
		t.Fatalf("%d charts", len(charts))
	}
	for i, c := range charts {
		if !strings.Contains(string(c.SVG), "@font-face") {
			t.Errorf("chart %d: the standalone SVG should embed its font", i)
		}
		s := inlineSVG(c.SVG, "ksX-c"+string(rune('0'+i)))
		if strings.Contains(s, "<text") || strings.Contains(s, "@font-face") || !strings.Contains(s, `id="ksX-c`) || !strings.Contains(s, "<use href=") {
			t.Errorf("chart %d: inline SVG still has text or fonts, or no glyph outlines", i)
		}
		if !strings.Contains(s, "<title>threads per block</title>") && !strings.Contains(s, "<title>registers per thread</title>") && !strings.Contains(s, "<title>shared memory per block (KB)</title>") {
			t.Errorf("chart %d: the axis label survives as a title", i)
		}
		if len(s) > 60000 {
			t.Errorf("chart %d: inline SVG is %d bytes", i, len(s))
		}
	}
}

// TestSASSRequestedWithoutNvcc: %show sass on a report without SASS says why.
func TestSASSRequestedWithoutNvcc(t *testing.T) {
	rep := goldenReport(t, "vector_add")
	rep.SASS = ""
	h, err := HTML(rep, nil, Options{Requested: map[string]bool{"sass": true}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h, "No SASS: it needs nvcc and cuobjdump") {
		t.Errorf("a %%show sass without nvcc does not say why there is no SASS")
	}
	if h, _ := HTML(rep, nil, Options{}); strings.Contains(h, "No SASS") {
		t.Errorf("the note appears without a %%show sass")
	}
}

// TestHintedLinesTinted: the CUDA and PTX lines a hint names are tinted, and
// the hints section shows at most three hints open, ranked by gain.
func TestHintedLinesTinted(t *testing.T) {
	rep := goldenReport(t, "vector_add")
	rep.Source = "a\nb\nc\nd\ne\nf\n"
	rep.Hints = []report.Hint{
		{Severity: "info", Rule: "a", Message: "MSG-SMALL", CUDALine: 3, GainCycles: 1},
		{Severity: "warning", Rule: "b", Message: "MSG-BIG", CUDALine: 4, CUDALines: []int{4, 5}, GainCycles: 90, GainPct: 9},
		{Severity: "info", Rule: "c", Message: "MSG-NONE"},
		{Severity: "info", Rule: "d", Message: "MSG-NONE-EITHER"},
	}
	h, err := HTML(rep, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []int{3, 4, 5} {
		if !strings.Contains(h, fmt.Sprintf(`<div class="ks-ln ks-hinted" data-cl="%d">`, l)) && !strings.Contains(h, fmt.Sprintf(`ks-hinted" data-cl="%d">`, l)) {
			t.Errorf("CUDA line %d not tinted", l)
		}
	}
	if strings.Index(h, "MSG-BIG") > strings.Index(h, "MSG-SMALL") {
		t.Error("the hint with the larger gain is not first")
	}
	more := strings.Index(h, `<details class="ks-more">`)
	if more < 0 || strings.Index(h, "MSG-NONE-EITHER") < more || strings.Index(h, "MSG-SMALL") > more {
		t.Error("the fourth hint is not behind the 'more hints' line")
	}
	if !strings.Contains(h, "saves ≈ 90 cycles (9.0%)") {
		t.Error("the gain is not shown")
	}
}
