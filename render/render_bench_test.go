package render

import (
	"context"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/internal/golden"
)

// benchReport analyses the golden matmul_tiled case with timing on, so that
// the report has every chart (three occupancy, warp states, timeline).
func benchReport(b *testing.B) *report.Report {
	b.Helper()
	cases, err := golden.Cases()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cases {
		if c.Name != "matmul_tiled" {
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
			b.Fatal(err)
		}
		rep, err := analysis.Run(context.Background(), analysis.Request{
			Source: src, SourceFile: c.Base() + ".sm_90.ptx", IsPTX: true, Arch: "sm_90", Launch: l,
			Grid: c.Grid, Block: c.Block, BaseDir: golden.Dir(), Timing: true, Trace: launch.Trace{WarpHi: 1, Steps: 300},
		})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Timing == nil {
			b.Fatal("no timing in the report")
		}
		return rep
	}
	b.Fatal("no case matmul_tiled")
	return nil
}

// BenchmarkBundle renders one cell's whole MIME bundle (charts, HTML, JSON, text).
func BenchmarkBundle(b *testing.B) {
	rep := benchReport(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Bundle(rep, Options{ID: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBundleCharts renders the same cell with every chart asked for
// (%show occupancy timeline): the heaviest rendering of a cell. The budget is
// 50 ms per cell (issue 15); BenchmarkBundle is the default sections.
func BenchmarkBundleCharts(b *testing.B) {
	rep := benchReport(b)
	opt := Options{ID: "bench", Requested: map[string]bool{"occupancy": true, "timeline": true}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Bundle(rep, opt); err != nil {
			b.Fatal(err)
		}
	}
}
