package render

import (
	"fmt"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/report"
)

// kindTitles name the sanitizer's finding kinds for readers.
var kindTitles = map[string]string{
	"race": "race", "uninitialized": "uninitialised read", "barrier_divergence": "barrier",
	"warp_sync": "warp sync", "order_dependence": "order-dependent result",
}

// correctness renders the checks' findings and the expectations, each linked to its lines.
func (w *htmlWriter) correctness(rep *report.Report) {
	failed := 0
	for _, e := range rep.Expectations {
		if !e.Passed {
			failed++
		}
	}
	title := "Correctness"
	if n := len(rep.Sanitizer) + failed; n > 0 {
		title = fmt.Sprintf("Correctness (%d)", n)
	}
	w.section("correctness", title, true)
	if len(rep.Sanitizer) == 0 && len(rep.Checks) > 0 {
		w.printf(`<p class="ks-dim">No problem found by the checks that ran (%s).</p>`, esc(strings.Join(rep.Checks, ", ")))
	}
	for _, f := range rep.Sanitizer {
		name := kindTitles[f.Kind]
		if name == "" {
			name = f.Kind
		}
		w.printf(`<div class="ks-hint ks-critical ks-finding"><span class="ks-sev">%s</span> %s`, esc(name), esc(f.Message))
		for _, l := range [][2]int{{f.CUDALine, f.PTXLine}, {f.OtherCUDALine, f.OtherPTXLine}} {
			switch {
			case l[0] > 0:
				w.printf(` <a class="ks-link" data-cl="%d">line %d</a>`, l[0], l[0])
			case l[1] > 0:
				w.printf(` <a class="ks-link" data-pl="%d">PTX line %d</a>`, l[1], l[1])
			}
		}
		w.printf("</div>")
	}
	for _, e := range rep.Expectations {
		sev, cls := "passed", "ks-info"
		if !e.Passed {
			sev, cls = "failed", "ks-critical"
		}
		w.printf(`<div class="ks-hint %s ks-expect"><span class="ks-sev">expect %s</span> <code>%s</code>: %s</div>`, cls, sev, esc(e.Text), esc(e.Message))
	}
	w.end()
}

// findingLines are the CUDA and PTX lines the findings name, as the class the Source view gives their rows.
func findingLines(rep *report.Report) (cuda, ptx map[int]string) {
	cuda, ptx = map[int]string{}, map[int]string{}
	for _, f := range rep.Sanitizer {
		for _, l := range []int{f.CUDALine, f.OtherCUDALine} {
			if l > 0 {
				cuda[l] = " ks-bug"
			}
		}
		for _, l := range []int{f.PTXLine, f.OtherPTXLine} {
			if l > 0 {
				ptx[l] = " ks-bug"
			}
		}
	}
	return cuda, ptx
}

// correctnessText is the Correctness part of the plain-text summary.
func correctnessText(rep *report.Report) string {
	if !rep.Simulated || (len(rep.Checks) == 0 && len(rep.Expectations) == 0) {
		return ""
	}
	var b strings.Builder
	if len(rep.Sanitizer) == 0 && len(rep.Checks) > 0 {
		fmt.Fprintf(&b, "correctness: no problem found by the checks that ran (%s)\n", strings.Join(rep.Checks, ", "))
	}
	for _, f := range rep.Sanitizer {
		fmt.Fprintf(&b, "[%s] %s\n", f.Kind, f.Message)
	}
	for _, e := range rep.Expectations {
		verdict := "passed"
		if !e.Passed {
			verdict = "FAILED"
		}
		fmt.Fprintf(&b, "[expect %s] %s: %s\n", verdict, e.Text, e.Message)
	}
	return b.String()
}
