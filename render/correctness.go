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

// correctness renders the checks' findings and the expectations, each linked
// to its lines and, when the trace widget is shown, to the recorded steps of
// its accesses.
func (w *htmlWriter) correctness(rep *report.Report, traced bool) {
	steps := firstSteps(rep.Trace)
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
		for i, l := range [][2]int{{f.CUDALine, f.PTXLine}, {f.OtherCUDALine, f.OtherPTXLine}} {
			switch {
			case l[0] > 0:
				w.printf(` %s`, lineLink(rep, []string{f.CUDAFile, f.OtherCUDAFile}[i], l[0]))
			case l[1] > 0:
				w.printf(` <a class="ks-link" data-pl="%d">PTX line %d</a>`, l[1], l[1])
			}
		}
		if traced {
			if f.PTXLine > 0 {
				w.stepLink(rep, steps, "go to access", f.Block, f.Thread, f.PTXLine)
			}
			if f.OtherPTXLine > 0 && f.OtherThread != nil {
				w.stepLink(rep, steps, "go to other access", f.OtherBlock, *f.OtherThread, f.OtherPTXLine)
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

// stepKey is a warp and a PTX line of the trace.
type stepKey struct{ warp, line int }

// firstSteps indexes the first recorded step of each warp at each PTX line.
func firstSteps(t *report.Trace) map[stepKey]int {
	m := map[stepKey]int{}
	if t == nil {
		return m
	}
	for i, s := range t.Steps {
		k := stepKey{s.Warp, s.PTXLine}
		if _, ok := m[k]; !ok {
			m[k] = i
		}
	}
	return m
}

// stepLink writes a link that moves the trace widget to the first recorded
// step of a thread's warp at a PTX line (data-step, 0-based), or, when no
// such step was recorded, a link marked missing whose title says why and
// which %trace would record it.
func (w *htmlWriter) stepLink(rep *report.Report, steps map[stepKey]int, label string, block, thread [3]int, line int) {
	g, b := rep.Grid, rep.Block
	lin := block[0] + block[1]*max(g[0], 1) + block[2]*max(g[0], 1)*max(g[1], 1)
	warp := (thread[0] + thread[1]*max(b[0], 1) + thread[2]*max(b[0], 1)*max(b[1], 1)) / 32
	if i, ok := steps[stepKey{warp, line}]; ok && rep.Trace != nil && rep.Trace.Block == lin {
		w.printf(` <a class="ks-step-link" data-step="%d" title="%s">%s</a>`, i,
			esc(fmt.Sprintf("show step %d in the trace widget: warp %d of block %d at PTX line %d (its first recorded step there)", i+1, warp, lin, line)), esc(label))
		return
	}
	fix := fmt.Sprintf("%%trace block=%d warps=%d records it", lin, warp)
	var why string
	switch t := rep.Trace; {
	case t == nil || len(t.Steps) == 0:
		why = "no steps were recorded; " + fix
	case t.Block != lin:
		why = fmt.Sprintf("the trace records block %d, not block %d; %s", t.Block, lin, fix)
	case !containsInt(t.Warps, warp):
		why = fmt.Sprintf("the trace records warps %s of block %d, not warp %d; %s", intsText(t.Warps), lin, warp, fix)
	case t.Truncated:
		why = fmt.Sprintf("recording stopped at the step limit before warp %d reached PTX line %d (raise %%trace steps=)", warp, line)
	default:
		why = fmt.Sprintf("no recorded step of warp %d executes PTX line %d", warp, line)
	}
	w.printf(` <a class="ks-step-link ks-missing" data-step="-1" aria-disabled="true" title="%s">%s</a>`, esc("not in the recorded trace: "+why), esc(label))
}

func containsInt(v []int, x int) bool {
	for _, y := range v {
		if y == x {
			return true
		}
	}
	return false
}

// findingLines are the CUDA and PTX lines the findings name, as the class the Source view gives their rows.
func findingLines(rep *report.Report) (cuda, ptx map[int]string) {
	cuda, ptx = map[int]string{}, map[int]string{}
	for _, f := range rep.Sanitizer {
		if f.CUDALine > 0 && f.CUDAFile == "" { // lines of other sources: sources.go
			cuda[f.CUDALine] = " ks-bug"
		}
		if f.OtherCUDALine > 0 && f.OtherCUDAFile == "" {
			cuda[f.OtherCUDALine] = " ks-bug"
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
