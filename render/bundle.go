// Package render turns an report.Report into what a notebook or a browser
// shows: a self-contained HTML report (inline CSS and JS, no network), charts
// as SVG and PNG, the JSON report and a plain-text summary. It knows nothing
// of sockets or Jupyter messages: a Bundle is just a MIME map.
package render

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/hints"
	"github.com/kernelscope/kernelscope/gpu/report"

	"github.com/kernelscope/kernelscope/render/chart"
)

// MIME types of a bundle.
const (
	MIMEHTML   = "text/html"
	MIMEText   = "text/plain"
	MIMESVG    = "image/svg+xml"
	MIMEPNG    = "image/png"
	MIMEReport = "application/vnd.kernelscope.report+json"
)

// Sections in the order the report shows them.
var Sections = []string{"summary", "hints", "source", "ptx", "sass", "memory", "occupancy", "timeline", "trace", "outputs"}

// Options control what a rendering shows.
type Options struct {
	// Show maps a section name to whether it is shown; absent sections are shown.
	Show map[string]bool
	// ID makes element ids unique on a page holding several reports.
	ID string
	// Requested marks the sections a %show named: their charts are drawn even
	// when they say little (occupancy charts at 100% occupancy, the timeline).
	Requested map[string]bool
}

func (o Options) requested(section string) bool { return o.Requested[section] }

func (o Options) shown(section string) bool {
	if o.Show == nil {
		return true
	}
	v, ok := o.Show[section]
	return !ok || v
}

// shownCharts draws only the charts the HTML shows (drawing is most of a
// report's rendering time): occupancy charts below 100% occupancy or on
// %show occupancy, timing charts on %show timeline; no PNG.
func shownCharts(rep *report.Report, opt Options) []report.Chart {
	want := chartSet{
		occupancy: opt.shown("occupancy") && rep.Occupancy != nil && (opt.requested("occupancy") || rep.Occupancy.OccupancyPct < 100),
		timing:    opt.shown("timeline") && opt.requested("timeline"),
	}
	return reportCharts(drawSelected(rep, want, chart.WithoutPNG()))
}

// ShownHTML is HTML with only the charts it shows drawn (what Bundle and
// `kernelscope run --html` use).
func ShownHTML(rep *report.Report, opt Options) (string, error) {
	return HTML(rep, shownCharts(rep, opt), opt)
}

// Bundle renders a report into a Jupyter MIME bundle: HTML, plain text and
// the JSON report. No image goes in the bundle itself: a front end that cannot
// show HTML (jupyter console) would open it in an image viewer for every cell;
// the charts that say something are inline SVG inside the HTML.
func Bundle(rep *report.Report, opt Options) (map[string]any, error) {
	if opt.ID == "" {
		opt.ID = newID()
	}
	html, err := ShownHTML(rep, opt)
	if err != nil {
		return nil, err
	}
	// The notebook copy of the JSON report leaves out the bulky trace (the
	// widget in the HTML carries it) and per-warp timelines (the chart shows
	// them): together they are most of a report's size. `kernelscope run --json`
	// keeps both.
	cp := *rep
	cp.Trace = nil
	if rep.Timing != nil {
		t := *rep.Timing
		t.Timelines = nil
		cp.Timing = &t
	}
	jrep := &cp
	js, err := json.Marshal(jrep)
	if err != nil {
		return nil, fmt.Errorf("encoding the report: %w", err)
	}
	var raw map[string]any
	if err := json.Unmarshal(js, &raw); err != nil {
		return nil, fmt.Errorf("encoding the report: %w", err)
	}
	return map[string]any{
		MIMEHTML:   html,
		MIMEText:   Text(rep),
		MIMEReport: raw,
	}, nil
}

// Text is the plain-text summary for terminals (jupyter console) and logs.
func Text(rep *report.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", summaryLine(rep))
	if len(rep.Errors) > 0 {
		for _, e := range rep.Errors {
			fmt.Fprintf(&b, "error: %s\n", e.Message)
		}
	}
	if rep.Occupancy != nil {
		o := rep.Occupancy
		fmt.Fprintf(&b, "occupancy: %.1f%% (%d blocks/SM, limited by %s), %d registers/thread, %d B shared/block\n",
			o.OccupancyPct, o.ActiveBlocksPerSM, strings.Join(o.LimitingFactors, ", "), o.RegistersPerThread, o.SharedBytesPerBlock)
	}
	if m := rep.Memory; m != nil {
		fmt.Fprintf(&b, "global: %d load requests / %d sectors, %d store requests / %d sectors; shared: %d+%d wavefronts, %d+%d bank conflicts\n",
			m.GlobalLoadRequests, m.GlobalLoadSectors, m.GlobalStoreRequests, m.GlobalStoreSectors,
			m.SharedLoadWavefronts, m.SharedStoreWavefronts, m.SharedLoadBankConflicts, m.SharedStoreBankConflicts)
	}
	if t := rep.Timing; t != nil {
		fmt.Fprintf(&b, "timing: ~%s cycles = %s%s\n", group(t.Cycles), launchSplit(t), microseconds(rep.Arch, t.KernelCycles))
	}
	b.WriteString(correctnessText(rep))
	hs := append([]report.Hint(nil), rep.Hints...)
	hints.Rank(hs)
	for _, h := range hs {
		fmt.Fprintf(&b, "[%s] %s", h.Severity, h.Message)
		if h.CUDALine > 0 {
			fmt.Fprintf(&b, " (%s)", report.SourceLabel(h.CUDAFile, h.CUDALine))
		}
		if h.GainCycles > 0 {
			fmt.Fprintf(&b, " Saves ~%s cycles (%.1f%%, estimated).", group(h.GainCycles), h.GainPct)
		}
		if h.Evidence != "" {
			fmt.Fprintf(&b, " Evidence: %s.", h.Evidence)
		}
		b.WriteByte('\n')
	}
	for _, s := range []string{rep.Stdout, rep.Stderr} {
		if s != "" {
			b.WriteString(s)
			if !strings.HasSuffix(s, "\n") {
				b.WriteByte('\n')
			}
		}
	}
	for _, o := range rep.Outputs {
		fmt.Fprintf(&b, "%s[%d] %s: %s", o.Name, o.Count, o.Type, strings.Join(o.First[:min(8, len(o.First))], " "))
		if o.Count > 8 {
			b.WriteString(" ...")
		}
		fmt.Fprintf(&b, "  (sum %g, fnv64 %s)\n", o.Sum, o.Checksum)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	return b.String()
}

// summaryLine is the one-line summary at the top of every rendering.
func summaryLine(rep *report.Report) string {
	if !rep.Simulated {
		names := make([]string, 0, len(rep.Kernels))
		for _, k := range rep.Kernels {
			names = append(names, k.Name)
		}
		return fmt.Sprintf("%s: %d kernel(s) [%s] compiled by %s", rep.Arch, len(rep.Kernels), strings.Join(names, ", "), rep.Toolchain)
	}
	s := fmt.Sprintf("%s on %s: grid %s x block %s, %s thread-instructions, %s warp-instructions",
		rep.Kernel, rep.Arch, dim(rep.Grid), dim(rep.Block), group(rep.Stats.ThreadInstructions), group(rep.Stats.WarpInstructions))
	if rep.Stats.Cycles > 0 {
		s += fmt.Sprintf(", ~%s cycles", group(rep.Stats.Cycles))
		if t := rep.Timing; t != nil && t.KernelCycles > 0 {
			s += " (" + launchSplit(t) + ")"
		}
	}
	if rep.Occupancy != nil {
		s += fmt.Sprintf(", occupancy %.0f%%", rep.Occupancy.OccupancyPct)
	}
	return s
}

func dim(d [3]int) string {
	switch {
	case d[2] > 1:
		return fmt.Sprintf("(%d,%d,%d)", d[0], d[1], d[2])
	case d[1] > 1:
		return fmt.Sprintf("(%d,%d)", d[0], d[1])
	}
	return fmt.Sprint(d[0])
}

// group formats an integer with thousands separators.
func group(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// launchSplit says how a launch's modelled cycles add up: the kernel, the launch
// overhead (an empty kernel of the grid, measured) and, for grids whose block
// dispatch overlaps the running blocks, the overlapped part taken off.
func launchSplit(t *report.Timing) string {
	s := group(t.KernelCycles) + " kernel + " + group(t.LaunchCycles) + " launch overhead"
	if t.LaunchHiddenCycles > 0 {
		s += " − " + group(t.LaunchHiddenCycles) + " of block dispatch overlapped with the kernel"
	}
	return s
}
