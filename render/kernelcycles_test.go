package render

import (
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/report"
)

// TestSummaryShowsKernelCycles: the one-line text and HTML summaries give the
// kernel-only cycles and the launch overhead beside the whole-launch cycles,
// and the overlapped dispatch when there is one.
func TestSummaryShowsKernelCycles(t *testing.T) {
	rep := &report.Report{Simulated: true, Kernel: "k", Arch: "sm_90", Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1},
		Stats:  report.Stats{Cycles: 6100},
		Timing: &report.Timing{Cycles: 6100, KernelCycles: 3600, LaunchCycles: 2500}}
	want := "~" + group(6100) + " cycles (" + group(3600) + " kernel + " + group(2500) + " launch overhead)"
	if s := summaryLine(rep); !strings.Contains(s, want) {
		t.Errorf("text summary %q lacks %q", s, want)
	}
	if s := summaryHTML(rep); !strings.Contains(s, want) {
		t.Errorf("HTML summary %q lacks %q", s, want)
	}
	// a large grid: the dispatch of the later blocks overlapped the kernel, and the
	// split says so, so that the parts add up to the whole
	rep.Stats.Cycles = 90000
	rep.Timing = &report.Timing{Cycles: 90000, KernelCycles: 80000, LaunchCycles: 30000, LaunchHiddenCycles: 20000}
	want = "~" + group(90000) + " cycles (" + group(80000) + " kernel + " + group(30000) + " launch overhead − " + group(20000) + " of block dispatch overlapped with the kernel)"
	if s := summaryLine(rep); !strings.Contains(s, want) {
		t.Errorf("text summary %q lacks %q", s, want)
	}
	if s := summaryHTML(rep); !strings.Contains(s, want) {
		t.Errorf("HTML summary %q lacks %q", s, want)
	}
	rep.Timing = nil // %timing off: no split to show
	if s := summaryLine(rep); strings.Contains(s, "kernel ") {
		t.Errorf("text summary without timing %q shows a kernel split", s)
	}
}
