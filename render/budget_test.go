package render

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/internal/golden"
)

// Budgets of one cell's answer (issue 15): the whole MIME bundle as the kernel
// sends it, and its HTML.
const (
	bundleBudget = 250 << 10
	htmlBudget   = 150 << 10
)

// notebookReport runs a golden case as a notebook cell does by default: timing
// on, the trace of warps 0-1 of block 0 up to 5,000 steps (magics.NewState).
func notebookReport(tb testing.TB, name string) *report.Report {
	tb.Helper()
	cases, err := golden.Cases()
	if err != nil {
		tb.Fatal(err)
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
		src, err := golden.Read("ptx/" + c.Base() + ".sm_90.ptx")
		if err != nil {
			tb.Fatal(err)
		}
		rep, err := analysis.Run(context.Background(), analysis.Request{
			Source: src, SourceFile: c.Base() + ".sm_90.ptx", IsPTX: true, Arch: "sm_90", Launch: l,
			Grid: c.Grid, Block: c.Block, BaseDir: golden.Dir(), Timing: true, Trace: launch.Trace{WarpHi: 1, Steps: 5000},
		})
		if err != nil {
			tb.Fatal(err)
		}
		return rep
	}
	tb.Fatalf("no case %s", name)
	return nil
}

// TestBundleBudget: a typical cell's bundle stays within 250 KB and its HTML
// within 150 KB with the default sections, on the teaching kernels of the golden corpus.
func TestBundleBudget(t *testing.T) {
	for _, name := range []string{"vector_add", "reduce_interleaved", "histogram256", "transpose_naive", "matmul_tiled"} {
		rep := notebookReport(t, name)
		b, err := Bundle(rep, Options{})
		if err != nil {
			t.Fatal(err)
		}
		whole, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		html := len(b[MIMEHTML].(string))
		t.Logf("%s: bundle %d B, HTML %d B, %d trace steps", name, len(whole), html, len(rep.Trace.Steps))
		if len(whole) > bundleBudget {
			t.Errorf("%s: bundle %d B over the %d B budget", name, len(whole), bundleBudget)
		}
		if html > htmlBudget {
			t.Errorf("%s: HTML %d B over the %d B budget", name, html, htmlBudget)
		}
	}
}

// TestShownChartsOnly: only the charts the HTML shows are drawn: none for a
// report at 100% occupancy, the three occupancy charts on %show occupancy,
// none for a hidden occupancy section.
func TestShownChartsOnly(t *testing.T) {
	rep := goldenReport(t, "vector_add")
	if rep.Occupancy == nil || rep.Occupancy.OccupancyPct < 100 {
		t.Fatalf("vector_add: occupancy %+v, want 100%%", rep.Occupancy)
	}
	if n := len(shownCharts(rep, Options{})); n != 0 {
		t.Errorf("%d charts drawn at 100%% occupancy", n)
	}
	if n := len(shownCharts(rep, Options{Requested: map[string]bool{"occupancy": true}})); n != 3 {
		t.Errorf("%%show occupancy: %d charts drawn, want 3", n)
	}
	if n := len(shownCharts(rep, Options{Requested: map[string]bool{"occupancy": true}, Show: map[string]bool{"occupancy": false}})); n != 0 {
		t.Errorf("hidden occupancy section: %d charts drawn", n)
	}
	h, err := ShownHTML(rep, Options{Requested: map[string]bool{"occupancy": true}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(h, "<svg") != 3 {
		t.Errorf("%%show occupancy: %d inline charts in the HTML, want 3", strings.Count(h, "<svg"))
	}
}
