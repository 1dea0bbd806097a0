package render

import (
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/report"
)

func compareRep(name string, kernelCycles int64, block int, occ float64) *report.Report {
	return &report.Report{Name: name, Kernel: "k", Arch: "sm_90", Grid: [3]int{8, 1, 1}, Block: [3]int{block, 1, 1},
		Timing:    &report.Timing{KernelCycles: kernelCycles, LaunchCycles: 2481, Cycles: kernelCycles + 2481},
		Occupancy: &report.Occupancy{OccupancyPct: occ}, Stats: report.Stats{ThreadInstructions: 1000}}
}

// TestCompareN: kernel-only cycles, µs at the clock, speed-up against the
// first, launch overhead apart, better and worse marked, in HTML, Markdown and JSON.
func TestCompareN(t *testing.T) {
	reps := []*report.Report{compareRep("base", 2000, 256, 100), compareRep("fast", 1000, 128, 50), compareRep("slow", 4000, 256, 100)}
	c := NewComparison(reps)
	row := func(metric string) CompareRow {
		for _, r := range c.Rows {
			if strings.HasPrefix(r.Metric, metric) {
				return r
			}
		}
		t.Fatalf("no row %s", metric)
		return CompareRow{}
	}
	if v := row("kernel cycles").Values; v[0] != 2000 || v[1] != 1000 || v[2] != 4000 {
		t.Errorf("kernel cycles %v: the launch overhead must not be in them", v)
	}
	if v := row("speed-up").Values; v[0] != 1 || v[1] != 2 || v[2] != 0.5 {
		t.Errorf("speed-up %v, want 1 2 0.5", v)
	}
	if v := row("kernel time").Values; v[0] != 2000/1980.0 { // sm_90's reference clock
		t.Errorf("kernel time %v µs", v)
	}
	if v := row("launch overhead").Values; v[1] != 2481 {
		t.Errorf("launch overhead %v", v)
	}
	b := CompareN(reps)
	h := b[MIMEHTML].(string)
	if !strings.Contains(h, `<td class="ks-better">1,000 (-50.0%)</td>`) || !strings.Contains(h, `<td class="ks-worse">4,000 (+100.0%)</td>`) {
		t.Errorf("better/worse cells not marked:\n%s", h)
	}
	if !strings.Contains(h, `<td class="ks-differs">128</td>`) {
		t.Error("a different block is not marked")
	}
	md := b[MIMEMarkdown].(string)
	if !strings.Contains(md, "| metric | base | fast | slow |") || !strings.Contains(md, "| **1,000 (-50.0%)** |") {
		t.Errorf("markdown:\n%s", md)
	}
	if js := b[MIMECompare].(map[string]any); len(js["rows"].([]any)) != len(c.Rows) {
		t.Errorf("JSON rows %d, want %d", len(js["rows"].([]any)), len(c.Rows))
	}
}
