package render

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/report"
)

// MIME types of a %compare answer besides HTML and text.
const (
	MIMEMarkdown = "text/markdown"
	MIMECompare  = "application/vnd.kernelscope.compare+json"
)

// CompareRow is one metric of a comparison: its value in every report.
type CompareRow struct {
	Metric string    `json:"metric"`
	Unit   string    `json:"unit,omitempty"`
	Values []float64 `json:"values,omitempty"` // numeric rows
	Text   []string  `json:"text,omitempty"`   // rows of words (kernel, grid, block)
	// Better is "lower", "higher" or "" (no direction: the row is information).
	Better string `json:"better,omitempty"`
	format string
}

// Comparison is what %compare answers, also as JSON (MIMECompare).
type Comparison struct {
	Reports []string     `json:"reports"`
	Rows    []CompareRow `json:"rows"`
	// Note says where the figures come from.
	Note string `json:"note"`
}

// clockMHz is the architecture's clock (0 when unknown).
func clockMHz(archName string) int {
	spec, err := arch.Lookup(archName)
	if err != nil {
		return 0
	}
	return spec.ClockMHz
}

// NewComparison builds the rows of a comparison of reports, the first being the baseline.
func NewComparison(reps []*report.Report) Comparison {
	c := Comparison{Note: "kernel cycles are the timing model's time for the instructions, without the launch overhead (an empty kernel's time for the grid, measured on the H200); µs at the architecture's boost clock; speed-up is the first report's kernel cycles over each one's"}
	for _, r := range reps {
		c.Reports = append(c.Reports, compareLabel(r))
	}
	num := func(metric, unit, better, format string, f func(r *report.Report) float64) {
		row := CompareRow{Metric: metric, Unit: unit, Better: better, format: format}
		for _, r := range reps {
			row.Values = append(row.Values, f(r))
		}
		c.Rows = append(c.Rows, row)
	}
	text := func(metric string, f func(r *report.Report) string) {
		row := CompareRow{Metric: metric}
		for _, r := range reps {
			row.Text = append(row.Text, f(r))
		}
		c.Rows = append(c.Rows, row)
	}
	kc := func(r *report.Report) float64 {
		if r.Timing != nil {
			return float64(r.Timing.KernelCycles)
		}
		return 0
	}
	mem := func(r *report.Report) report.Memory {
		if r.Memory != nil {
			return *r.Memory
		}
		return report.Memory{}
	}
	text("kernel", func(r *report.Report) string { return r.Kernel })
	text("architecture", func(r *report.Report) string { return r.Arch })
	text("grid", func(r *report.Report) string { return dim(r.Grid) })
	text("block", func(r *report.Report) string { return dim(r.Block) })
	num("kernel cycles (model)", "cycles", "lower", "%.0f", kc)
	num("kernel time", "µs", "lower", "%.2f", func(r *report.Report) float64 {
		if mhz := clockMHz(r.Arch); mhz > 0 {
			return kc(r) / float64(mhz)
		}
		return 0
	})
	base := kc(reps[0])
	num("speed-up vs "+c.Reports[0], "×", "higher", "%.2f", func(r *report.Report) float64 {
		if k := kc(r); k > 0 && base > 0 {
			return base / k
		}
		return 0
	})
	num("launch overhead", "cycles", "", "%.0f", func(r *report.Report) float64 {
		if r.Timing != nil {
			return float64(r.Timing.LaunchCycles)
		}
		return 0
	})
	num("registers per thread", "", "", "%.0f", func(r *report.Report) float64 { return float64(r.Registers.PerThread) })
	num("occupancy", "%", "higher", "%.1f", func(r *report.Report) float64 {
		if r.Occupancy != nil {
			return r.Occupancy.OccupancyPct
		}
		return 0
	})
	num("thread-instructions", "", "lower", "%.0f", func(r *report.Report) float64 { return float64(r.Stats.ThreadInstructions) })
	num("warp-instructions", "", "lower", "%.0f", func(r *report.Report) float64 { return float64(r.Stats.WarpInstructions) })
	num("global load sectors", "", "lower", "%.0f", func(r *report.Report) float64 { return float64(mem(r).GlobalLoadSectors) })
	num("global load sectors/request", "", "lower", "%.2f", func(r *report.Report) float64 {
		m := mem(r)
		if m.GlobalLoadRequests == 0 {
			return 0
		}
		return float64(m.GlobalLoadSectors) / float64(m.GlobalLoadRequests)
	})
	num("global store sectors", "", "lower", "%.0f", func(r *report.Report) float64 { return float64(mem(r).GlobalStoreSectors) })
	num("shared wavefronts", "", "lower", "%.0f", func(r *report.Report) float64 {
		m := mem(r)
		return float64(m.SharedLoadWavefronts + m.SharedStoreWavefronts)
	})
	num("shared bank conflicts", "", "lower", "%.0f", func(r *report.Report) float64 {
		m := mem(r)
		return float64(m.SharedLoadBankConflicts + m.SharedStoreBankConflicts)
	})
	num("divergent branches", "", "lower", "%.0f", func(r *report.Report) float64 { return float64(r.Stats.DivergentBranches) })
	num("hints", "", "lower", "%.0f", func(r *report.Report) float64 { return float64(len(r.Hints)) })
	return c
}

func compareLabel(r *report.Report) string {
	if r.Name != "" {
		return r.Name
	}
	return r.Kernel
}

// cell formats one value of a row, with its change against the first report
// ("1,234 (−35.2%)"); better says whether the change is an improvement (0: no
// change or no direction, 1 better, -1 worse).
func (row CompareRow) cell(i int) (text string, better int) {
	if row.Values == nil {
		t := row.Text[i]
		if i > 0 && t != row.Text[0] {
			return t, 2 // differs, no direction
		}
		return t, 0
	}
	v := row.Values[i]
	s := fmt.Sprintf(row.format, v)
	if row.format == "%.0f" {
		s = group(int64(v))
	}
	if i == 0 || v == row.Values[0] || row.Unit == "×" {
		return s, 0
	}
	b := 2
	if row.Better != "" {
		if (v < row.Values[0]) == (row.Better == "lower") {
			b = 1
		} else {
			b = -1
		}
	}
	if row.Values[0] != 0 {
		s += fmt.Sprintf(" (%+.1f%%)", 100*(v-row.Values[0])/row.Values[0])
	}
	return s, b
}

// CompareN renders reports side by side, the first as the baseline: HTML with
// the differences highlighted (green better, red worse, bold a difference with
// no direction), a plain-text table, the same table as Markdown (for a
// write-up) and the comparison as JSON.
func CompareN(reps []*report.Report) map[string]any {
	c := NewComparison(reps)
	var h, t, md strings.Builder
	id := newID()
	fmt.Fprintf(&h, `<div class="ks-report" id="%s"><style>%s</style><table class="ks-table ks-compare"><tr><th>metric</th>`,
		id, strings.ReplaceAll(reportCSS, "#KS", "#"+id))
	fmt.Fprintf(&t, "%-30s", "metric")
	md.WriteString("| metric |")
	for _, n := range c.Reports {
		fmt.Fprintf(&h, `<th>%s</th>`, esc(n))
		fmt.Fprintf(&t, " %20s", n)
		fmt.Fprintf(&md, " %s |", mdEsc(n))
	}
	h.WriteString("</tr>")
	t.WriteByte('\n')
	md.WriteString("\n|---|")
	for range c.Reports {
		md.WriteString("---:|")
	}
	md.WriteByte('\n')
	for _, row := range c.Rows {
		name := row.Metric
		if row.Unit != "" && row.Unit != "×" {
			name += " (" + row.Unit + ")"
		}
		fmt.Fprintf(&h, `<tr><td>%s</td>`, esc(name))
		fmt.Fprintf(&t, "%-30s", name)
		fmt.Fprintf(&md, "| %s |", mdEsc(name))
		for i := range c.Reports {
			s, b := row.cell(i)
			style := ""
			switch b {
			case 1:
				style = ` class="ks-better"`
			case -1:
				style = ` class="ks-worse"`
			case 2:
				style = ` class="ks-differs"`
			}
			fmt.Fprintf(&h, `<td%s>%s</td>`, style, esc(s))
			fmt.Fprintf(&t, " %20s", s)
			if b != 0 {
				s = "**" + s + "**"
			}
			fmt.Fprintf(&md, " %s |", mdEsc(s))
		}
		h.WriteString("</tr>")
		t.WriteByte('\n')
		md.WriteByte('\n')
	}
	fmt.Fprintf(&h, `</table><p class="ks-dim ks-small">%s. Green: better than %s; red: worse; bold: different.</p></div>`, esc(c.Note), esc(c.Reports[0]))
	fmt.Fprintf(&md, "\n*%s (KernelScope model).*\n", c.Note)
	var js any = c
	if data, err := json.Marshal(c); err == nil {
		var raw map[string]any
		if json.Unmarshal(data, &raw) == nil {
			js = raw
		}
	}
	return map[string]any{MIMEHTML: h.String(), MIMEText: t.String(), MIMEMarkdown: md.String(), MIMECompare: js}
}

// CompareMarkdown is CompareN for a write-up: the Markdown table is what the
// notebook shows (and the plain text, to copy), beside the JSON.
func CompareMarkdown(reps []*report.Report) map[string]any {
	b := CompareN(reps)
	return map[string]any{MIMEMarkdown: b[MIMEMarkdown], MIMEText: b[MIMEMarkdown], MIMECompare: b[MIMECompare]}
}

// mdEsc escapes the characters that would break a Markdown table cell.
func mdEsc(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
