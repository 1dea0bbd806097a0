package render

import (
	"fmt"
	"github.com/kernelscope/kernelscope/gpu/report"
	"strings"
)

// Compare renders two reports side by side with the differences highlighted.
func Compare(a, b *report.Report) map[string]any {
	type row struct {
		name   string
		va, vb float64
		lower  bool // lower is better
		format string
	}
	mem := func(r *report.Report) report.Memory {
		if r.Memory != nil {
			return *r.Memory
		}
		return report.Memory{}
	}
	occ := func(r *report.Report) float64 {
		if r.Occupancy != nil {
			return r.Occupancy.OccupancyPct
		}
		return 0
	}
	div := func(r *report.Report) float64 { return float64(r.Stats.DivergentBranches) }
	ma, mb := mem(a), mem(b)
	rows := []row{
		{"thread-instructions", float64(a.Stats.ThreadInstructions), float64(b.Stats.ThreadInstructions), true, "%.0f"},
		{"warp-instructions", float64(a.Stats.WarpInstructions), float64(b.Stats.WarpInstructions), true, "%.0f"},
		{"cycles (model)", float64(a.Stats.Cycles), float64(b.Stats.Cycles), true, "%.0f"},
		{"occupancy %", occ(a), occ(b), false, "%.1f"},
		{"global load requests", float64(ma.GlobalLoadRequests), float64(mb.GlobalLoadRequests), true, "%.0f"},
		{"global load sectors", float64(ma.GlobalLoadSectors), float64(mb.GlobalLoadSectors), true, "%.0f"},
		{"global store sectors", float64(ma.GlobalStoreSectors), float64(mb.GlobalStoreSectors), true, "%.0f"},
		{"shared load wavefronts", float64(ma.SharedLoadWavefronts), float64(mb.SharedLoadWavefronts), true, "%.0f"},
		{"shared bank conflicts", float64(ma.SharedLoadBankConflicts + ma.SharedStoreBankConflicts), float64(mb.SharedLoadBankConflicts + mb.SharedStoreBankConflicts), true, "%.0f"},
		{"divergent branches", div(a), div(b), true, "%.0f"},
		{"hints", float64(len(a.Hints)), float64(len(b.Hints)), true, "%.0f"},
	}
	label := func(r *report.Report) string {
		if r.Name != "" {
			return r.Name
		}
		return r.Kernel
	}
	var h, t strings.Builder
	id := newID()
	fmt.Fprintf(&h, `<div class="ks-report" id="%s"><style>%s</style><table class="ks-table"><tr><th>metric</th><th>%s</th><th>%s</th><th>change</th></tr>`,
		id, strings.ReplaceAll(reportCSS, "#KS", "#"+id), esc(label(a)), esc(label(b)))
	fmt.Fprintf(&t, "%-24s %16s %16s %10s\n", "metric", label(a), label(b), "change")
	for _, r := range rows {
		change := ""
		cls := ""
		if r.va != r.vb {
			if r.va != 0 {
				change = fmt.Sprintf("%+.1f%%", 100*(r.vb-r.va)/r.va)
			} else {
				change = "new"
			}
			better := (r.vb < r.va) == r.lower
			if better {
				cls = ` style="background:rgba(22,163,74,.15)"`
			} else {
				cls = ` style="background:rgba(220,38,38,.15)"`
			}
		}
		fmt.Fprintf(&h, `<tr%s><td>%s</td><td>`+r.format+`</td><td>`+r.format+`</td><td>%s</td></tr>`, cls, esc(r.name), r.va, r.vb, change)
		fmt.Fprintf(&t, "%-24s %16s %16s %10s\n", r.name, fmt.Sprintf(r.format, r.va), fmt.Sprintf(r.format, r.vb), change)
	}
	h.WriteString("</table></div>")
	return map[string]any{MIMEHTML: h.String(), MIMEText: t.String()}
}
