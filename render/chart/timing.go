package chart

import (
	"fmt"
	"image/color"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// StateColors are the colours of the warp states (Nsight Compute's names) in
// the timing charts, chosen to read on light and dark backgrounds.
var StateColors = map[string]color.NRGBA{
	"selected":           {0x16, 0xa3, 0x4a, 0xff},
	"not_selected":       {0x9c, 0xa3, 0xaf, 0xff},
	"long_scoreboard":    {0xdc, 0x26, 0x26, 0xff},
	"short_scoreboard":   {0xf9, 0x73, 0x16, 0xff},
	"wait":               {0x60, 0xa5, 0xfa, 0xff},
	"math_pipe_throttle": {0xea, 0xb3, 0x08, 0xff},
	"mio_throttle":       {0xa1, 0x62, 0x07, 0xff},
	"lg_throttle":        {0xec, 0x48, 0x99, 0xff},
	"barrier":            {0x8b, 0x5c, 0xf6, 0xff},
	"branch_resolving":   {0x06, 0xb6, 0xd4, 0xff},
	"membar":             {0x47, 0x55, 0x69, 0xff},
	"no_instruction":     {0x78, 0x71, 0x6c, 0xff},
}

func stateColor(s string) color.Color {
	if c, ok := StateColors[s]; ok {
		return c
	}
	return inkColor
}

// StallChart draws warp-cycles per issued instruction for each state, largest
// first, as Nsight Compute's "Warp State Statistics" does.
func StallChart(perIssue map[string]float64, opts ...Option) (Chart, error) {
	type kv struct {
		k string
		v float64
	}
	var rows []kv
	for k, v := range perIssue {
		if v > 0 && k != "selected" {
			rows = append(rows, kv{k, v})
		}
	}
	if len(rows) == 0 {
		return Chart{}, fmt.Errorf("chart: no stalls to draw")
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].v < rows[j].v || rows[i].v == rows[j].v && rows[i].k > rows[j].k })
	p := plot.New()
	p.BackgroundColor = color.Transparent
	p.Title.Text = "Warp states (cycles per issued instruction)"
	p.Title.Padding = vg.Points(6)
	style(&p.Title.TextStyle, 11)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Color = inkColor
		ax.Tick.Color = inkColor
		style(&ax.Label.TextStyle, 10)
		style(&ax.Tick.Label, 9)
	}
	p.X.Label.Text = "cycles per issued instruction"
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.k
		vals := make(plotter.Values, len(rows))
		vals[i] = r.v
		bars, err := plotter.NewBarChart(vals, vg.Points(12))
		if err != nil {
			return Chart{}, fmt.Errorf("chart: stall bars: %w", err)
		}
		bars.Horizontal = true
		bars.Color = stateColor(r.k)
		bars.LineStyle.Width = 0
		p.Add(bars)
	}
	p.NominalY(names...)
	p.X.Min = 0
	grid := plotter.NewGrid()
	grid.Horizontal.Width = 0
	grid.Vertical.Color = gridColor
	grid.Vertical.Width = vg.Points(0.5)
	p.Add(grid)
	svg, png, err := render(p, opts)
	if err != nil {
		return Chart{}, err
	}
	return Chart{ID: "stalls", Title: "Warp states per issued instruction", SVG: svg, PNG: png, plot: p}, nil
}

// Interval is a stretch of cycles a warp spent in one state.
type Interval struct {
	Start, End int64
	State      string
}

// TimelineRow is one warp of the timeline chart.
type TimelineRow struct {
	Label     string
	Intervals []Interval
}

// timelinePlotter draws each row's intervals as coloured bars.
type timelinePlotter struct{ rows []TimelineRow }

func (t timelinePlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i, r := range t.rows {
		y0, y1 := trY(float64(i)-0.4), trY(float64(i)+0.4)
		for _, iv := range r.Intervals {
			if iv.End <= iv.Start {
				continue
			}
			x0, x1 := trX(float64(iv.Start)), trX(float64(iv.End))
			if x1-x0 < vg.Points(0.3) {
				x1 = x0 + vg.Points(0.3)
			}
			c.FillPolygon(stateColor(iv.State), []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
		}
	}
}

// DataRange implements plot.DataRanger.
func (t timelinePlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	for _, r := range t.rows {
		for _, iv := range r.Intervals {
			xmax = max(xmax, float64(iv.End))
		}
	}
	return 0, xmax, -0.5, float64(len(t.rows)) - 0.5
}

// timelineBuckets is how many time slices a timeline row is drawn with: each
// slice shows the state that held most of its cycles, so a chart stays a few
// tens of kilobytes however many intervals the model recorded.
const timelineBuckets = 240

// downsample reduces a row to at most timelineBuckets intervals over [0, span).
func downsample(r TimelineRow, span int64) TimelineRow {
	if span <= 0 {
		return r
	}
	width := float64(span) / timelineBuckets
	out := TimelineRow{Label: r.Label}
	i := 0
	for b := 0; b < timelineBuckets; b++ {
		lo, hi := int64(float64(b)*width), int64(float64(b+1)*width)
		if b == timelineBuckets-1 {
			hi = span
		}
		share := map[string]int64{}
		for i < len(r.Intervals) && r.Intervals[i].End <= lo {
			i++
		}
		for j := i; j < len(r.Intervals) && r.Intervals[j].Start < hi; j++ {
			iv := r.Intervals[j]
			share[iv.State] += min(iv.End, hi) - max(iv.Start, lo)
		}
		best, bestN := "", int64(0)
		for st, n := range share {
			if n > bestN || n == bestN && st < best {
				best, bestN = st, n
			}
		}
		if best == "" {
			continue
		}
		if k := len(out.Intervals); k > 0 && out.Intervals[k-1].State == best && out.Intervals[k-1].End == lo {
			out.Intervals[k-1].End = hi
		} else {
			out.Intervals = append(out.Intervals, Interval{Start: lo, End: hi, State: best})
		}
	}
	return out
}

// TimelineChart draws a per-warp timeline: one row per warp, coloured by the
// state that held most of each time slice.
func TimelineChart(rows []TimelineRow, opts ...Option) (Chart, error) {
	if len(rows) == 0 {
		return Chart{}, fmt.Errorf("chart: no timeline to draw")
	}
	var span int64
	for _, r := range rows {
		for _, iv := range r.Intervals {
			span = max(span, iv.End)
		}
	}
	small := make([]TimelineRow, len(rows))
	for i, r := range rows {
		small[i] = downsample(r, span)
	}
	rows = small
	p := plot.New()
	p.BackgroundColor = color.Transparent
	p.Title.Text = "Per-warp timeline"
	p.Title.Padding = vg.Points(6)
	style(&p.Title.TextStyle, 11)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Color = inkColor
		ax.Tick.Color = inkColor
		style(&ax.Label.TextStyle, 10)
		style(&ax.Tick.Label, 9)
	}
	p.X.Label.Text = "cycle"
	tp := timelinePlotter{rows: rows}
	p.Add(tp)
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.Label
	}
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.5, float64(len(rows))-0.5
	svg, png, err := render(p, opts)
	if err != nil {
		return Chart{}, err
	}
	return Chart{ID: "timeline", Title: "Per-warp timeline", SVG: svg, PNG: png, plot: p}, nil
}
