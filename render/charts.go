package render

import (
	"fmt"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/occupancy"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/render/chart"
)

// Charts draws the report's charts: the three occupancy charts when the
// report has occupancy, the warp-state and timeline charts when it has
// timing. A chart that cannot be drawn is left out.
func Charts(rep *report.Report) []report.Chart {
	return reportCharts(drawCharts(rep))
}

// drawCharts draws the report's charts (as Charts says) with opts.
func drawCharts(rep *report.Report, opts ...chart.Option) []chart.Chart {
	return drawSelected(rep, chartSet{occupancy: true, timing: true}, opts...)
}

// chartSet selects the charts to draw.
type chartSet struct{ occupancy, timing bool }

// drawSelected draws the charts of the set with opts.
func drawSelected(rep *report.Report, set chartSet, opts ...chart.Option) []chart.Chart {
	var out []chart.Chart
	if set.occupancy {
		out = occupancyCharts(rep, opts)
	}
	if t := rep.Timing; t != nil && set.timing {
		if c, err := chart.StallChart(t.PerIssue, opts...); err == nil {
			out = append(out, c)
		}
		var rows []chart.TimelineRow
		for _, tl := range t.Timelines {
			row := chart.TimelineRow{Label: fmt.Sprintf("b%d w%d", tl.Block, tl.Warp)}
			for _, iv := range tl.Intervals {
				row.Intervals = append(row.Intervals, chart.Interval{Start: iv.Start, End: iv.End, State: iv.State})
			}
			rows = append(rows, row)
		}
		if c, err := chart.TimelineChart(rows, opts...); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// reportCharts converts drawn charts into the report's form.
func reportCharts(cs []chart.Chart) []report.Chart {
	out := make([]report.Chart, 0, len(cs))
	for _, c := range cs {
		out = append(out, report.Chart{ID: c.ID, Title: c.Title, SVG: c.SVG, PNG: c.PNG})
	}
	return out
}

func occupancyCharts(rep *report.Report, opts []chart.Option) []chart.Chart {
	if rep.Occupancy == nil {
		return nil
	}
	spec, err := arch.Lookup(rep.Arch)
	if err != nil {
		return nil
	}
	in := occupancy.Input{
		BlockSize:     rep.Block[0] * rep.Block[1] * rep.Block[2],
		RegsPerThread: rep.Occupancy.RegistersPerThread,
		StaticShared:  rep.SharedStatic,
		DynamicShared: rep.SharedDynamic,
	}
	cs, err := chart.OccupancyCharts(spec, in, opts...)
	if err != nil {
		return nil
	}
	return cs
}
