// Package chart draws KernelScope's charts with gonum.org/v1/plot: the three
// occupancy charts Nsight Compute shows (occupancy against threads per block,
// registers per thread and shared memory per block, the current configuration
// marked), as self-contained SVG (fonts embedded) and PNG.
package chart

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/occupancy"
)

// Chart is one rendered chart.
type Chart struct {
	ID    string // stable identifier: "occupancy_block_size", "occupancy_registers", "occupancy_shared"
	Title string // human-readable title
	SVG   []byte // SVG document with embedded fonts
	PNG   []byte // PNG image, transparent background (nil when drawn WithoutPNG until EncodePNG)
	plot  *plot.Plot
}

// Option changes how a chart is rendered.
type Option func(*options)

type options struct{ noPNG bool }

// WithoutPNG leaves the PNG out: encoding it is most of a chart's cost, and a
// page that inlines the SVG needs at most one (EncodePNG draws it later).
func WithoutPNG() Option { return func(o *options) { o.noPNG = true } }

// EncodePNG fills c.PNG when the chart was drawn WithoutPNG.
func (c *Chart) EncodePNG() error {
	if len(c.PNG) > 0 {
		return nil
	}
	if c.plot == nil {
		return fmt.Errorf("chart: %s: nothing to encode", c.ID)
	}
	png, err := encodePNG(c.plot)
	if err != nil {
		return fmt.Errorf("chart: %s: %w", c.ID, err)
	}
	c.PNG = png
	return nil
}

// Size and resolution of the charts.
const (
	width  = 5 * vg.Inch
	height = 3.25 * vg.Inch // 720 x 468 pixels at 144 dpi
	dpi    = 144
)

// Colours chosen to read on light and dark notebook themes over a transparent background.
var (
	inkColor     = color.NRGBA{R: 0x80, G: 0x80, B: 0x80, A: 0xff} // text, axes
	gridColor    = color.NRGBA{R: 0x80, G: 0x80, B: 0x80, A: 0x40}
	lineColor    = color.NRGBA{R: 0x3b, G: 0x82, B: 0xf6, A: 0xff} // blue
	currentColor = color.NRGBA{R: 0xf5, G: 0x82, B: 0x31, A: 0xff} // orange
)

// sweepDef describes one of the three charts.
type sweepDef struct {
	id, title, xLabel string
	scale             float64   // divides X for display (bytes -> KB)
	ticks             []float64 // X ticks; nil for automatic
	sweep             func(*arch.Spec, occupancy.Input) ([]occupancy.Point, error)
	current           func(occupancy.Input) float64
	step              plotter.StepKind
}

// OccupancyCharts draws occupancy against block size, registers per thread and
// shared memory per block for in on spec, marking in's own configuration.
func OccupancyCharts(spec *arch.Spec, in occupancy.Input, opts ...Option) ([]Chart, error) {
	if spec == nil {
		return nil, fmt.Errorf("chart: occupancy charts: nil architecture")
	}
	cur, err := occupancy.Compute(spec, in)
	if err != nil {
		return nil, fmt.Errorf("chart: occupancy of the current configuration: %w", err)
	}
	defs := []sweepDef{
		{id: "occupancy_block_size", title: "Occupancy vs threads per block", xLabel: "threads per block", scale: 1,
			ticks: []float64{0, 128, 256, 384, 512, 640, 768, 896, 1024},
			sweep: occupancy.SweepBlockSize, current: func(in occupancy.Input) float64 { return float64(in.BlockSize) }},
		{id: "occupancy_registers", title: "Occupancy vs registers per thread", xLabel: "registers per thread", scale: 1,
			ticks: []float64{0, 32, 64, 96, 128, 160, 192, 224, 255},
			sweep: occupancy.SweepRegisters, current: func(in occupancy.Input) float64 { return float64(in.RegsPerThread) }, step: plotter.PostStep},
		{id: "occupancy_shared", title: "Occupancy vs shared memory per block", xLabel: "shared memory per block (KB)", scale: 1024,
			sweep: occupancy.SweepShared, current: func(in occupancy.Input) float64 { return float64(in.StaticShared + in.DynamicShared) }, step: plotter.PostStep},
	}
	out := make([]Chart, 0, len(defs))
	for _, d := range defs {
		pts, err := d.sweep(spec, in)
		if err != nil {
			return nil, fmt.Errorf("chart: %s: %w", d.id, err)
		}
		p, err := occupancyPlot(spec, d, pts, d.current(in)/d.scale, cur.OccupancyPct)
		if err != nil {
			return nil, fmt.Errorf("chart: %s: %w", d.id, err)
		}
		svg, png, err := render(p, opts)
		if err != nil {
			return nil, fmt.Errorf("chart: %s: %w", d.id, err)
		}
		out = append(out, Chart{ID: d.id, Title: d.title, SVG: svg, PNG: png, plot: p})
	}
	return out, nil
}

// occupancyPlot builds one chart from its sweep points and the current configuration.
func occupancyPlot(spec *arch.Spec, d sweepDef, pts []occupancy.Point, curX, curY float64) (*plot.Plot, error) {
	xys := make(plotter.XYs, 0, len(pts))
	for _, pt := range pts {
		xys = append(xys, plotter.XY{X: float64(pt.X) / d.scale, Y: pt.OccupancyPct})
	}
	xys = clean(xys)
	if len(xys) == 0 {
		return nil, fmt.Errorf("no finite points")
	}

	p := plot.New()
	p.BackgroundColor = color.Transparent
	p.Title.Text = fmt.Sprintf("%s (%s)", d.title, spec.Name)
	p.Title.Padding = vg.Points(6)
	style(&p.Title.TextStyle, 11)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Color = inkColor
		ax.Tick.Color = inkColor
		style(&ax.Label.TextStyle, 10)
		style(&ax.Tick.Label, 9)
	}
	p.X.Label.Text = d.xLabel
	p.Y.Label.Text = "occupancy (%)"
	p.Y.Min, p.Y.Max = 0, 105
	p.X.Min = 0
	p.X.Max = xys[len(xys)-1].X
	p.Y.Tick.Marker = plot.ConstantTicks(percentTicks())
	if d.ticks != nil {
		ts := make([]plot.Tick, len(d.ticks))
		for i, v := range d.ticks {
			ts[i] = plot.Tick{Value: v, Label: fmt.Sprint(v)}
		}
		p.X.Tick.Marker = plot.ConstantTicks(ts)
	}

	grid := plotter.NewGrid()
	grid.Vertical.Color = gridColor
	grid.Horizontal.Color = gridColor
	grid.Vertical.Width, grid.Horizontal.Width = vg.Points(0.5), vg.Points(0.5)
	p.Add(grid)

	line, err := plotter.NewLine(xys)
	if err != nil {
		return nil, fmt.Errorf("line: %w", err)
	}
	line.Color = lineColor
	line.Width = vg.Points(1.5)
	line.StepStyle = d.step
	p.Add(line)
	if d.step == plotter.NoStep { // few discrete configurations: show each
		dots, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, fmt.Errorf("points: %w", err)
		}
		dots.GlyphStyle = draw.GlyphStyle{Color: lineColor, Radius: vg.Points(1.8), Shape: draw.CircleGlyph{}}
		p.Add(dots)
	}

	if cur := clean(plotter.XYs{{X: curX, Y: curY}}); len(cur) == 1 {
		mark, err := plotter.NewScatter(cur)
		if err != nil {
			return nil, fmt.Errorf("marker: %w", err)
		}
		mark.GlyphStyle = draw.GlyphStyle{Color: currentColor, Radius: vg.Points(4.5), Shape: draw.CircleGlyph{}}
		p.Add(mark)
		p.Legend.Add(fmt.Sprintf("current: %s, %.0f%%", formatX(curX, d.scale), curY), mark)
		style(&p.Legend.TextStyle, 9)
		p.Legend.Top = true
		p.Legend.Left = false
		if curX > p.X.Max {
			p.X.Max = curX
		}
	}
	return p, nil
}

// chartFont is the sans-serif face of the fonts bundled with gonum/plot.
var chartFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// style sets a text style to the chart font at size points in the ink colour.
func style(s *text.Style, size float64) {
	s.Font = chartFont
	s.Font.Size = vg.Points(size)
	s.Color = inkColor
}

// percentTicks are the Y ticks: 0, 25, 50, 75, 100.
func percentTicks() []plot.Tick {
	ts := make([]plot.Tick, 0, 5)
	for v := 0; v <= 100; v += 25 {
		ts = append(ts, plot.Tick{Value: float64(v), Label: fmt.Sprint(v)})
	}
	return ts
}

// formatX formats the current configuration's X for the legend.
func formatX(x, scale float64) string {
	if scale != 1 {
		return fmt.Sprintf("%.1f KB", x)
	}
	return fmt.Sprintf("%.0f", x)
}

// clean drops points with NaN or infinite coordinates.
func clean(xys plotter.XYs) plotter.XYs {
	out := xys[:0:0]
	for _, p := range xys {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// render writes p as SVG (fonts embedded) and, unless opts say WithoutPNG, PNG into memory.
func render(p *plot.Plot, opts []Option) (svg, png []byte, err error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	sc := vgsvg.NewWith(vgsvg.UseWH(width, height), vgsvg.EmbedFonts(true))
	p.Draw(draw.New(sc))
	var sb bytes.Buffer
	if _, err := sc.WriteTo(&sb); err != nil {
		return nil, nil, fmt.Errorf("write svg: %w", err)
	}
	if o.noPNG {
		return sb.Bytes(), nil, nil
	}
	if png, err = encodePNG(p); err != nil {
		return nil, nil, err
	}
	return sb.Bytes(), png, nil
}

// encodePNG draws p as a PNG image with a transparent background.
func encodePNG(p *plot.Plot) ([]byte, error) {
	ic := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.Transparent))
	p.Draw(draw.New(ic))
	var pb bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: ic}).WriteTo(&pb); err != nil {
		return nil, fmt.Errorf("write png: %w", err)
	}
	return pb.Bytes(), nil
}
