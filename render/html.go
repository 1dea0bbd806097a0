package render

import (
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/render/chart"
	"html"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/hints"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/sass"
)

//go:embed assets/report.css
var reportCSS string

//go:embed assets/report.js
var reportJS string

// newID makes a page-unique id prefix so several reports never interfere.
func newID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "ks" + hex.EncodeToString(b[:])
}

// HTML renders the whole report as one self-contained fragment: the summary
// line, errors, correctness findings, the top hints and the source view open;
// every other section collapsed under one line that states its headline number.
func HTML(rep *report.Report, charts []report.Chart, opt Options) (string, error) {
	if opt.ID == "" {
		opt.ID = newID()
	}
	w := &htmlWriter{id: opt.ID}
	w.printf(`<div class="ks-report" id="%s">`, opt.ID)
	w.printf("<style>%s</style>", strings.ReplaceAll(reportCSS, "#KS", "#"+opt.ID))
	w.printf(`<div class="ks-summary">%s</div>`, summaryHTML(rep))
	if len(rep.Errors) > 0 {
		w.errors(rep)
	}
	if rep.Simulated && (len(rep.Checks) > 0 || len(rep.Expectations) > 0) {
		w.correctness(rep, opt.shown("trace"))
	}
	if opt.shown("hints") && rep.Simulated {
		w.hints(rep)
	}
	if opt.shown("source") || opt.shown("ptx") || opt.shown("sass") {
		w.source(rep, opt)
	}
	if opt.shown("memory") && rep.Simulated {
		w.memory(rep)
	}
	if opt.shown("occupancy") && rep.Occupancy != nil {
		w.occupancy(rep, charts, opt.requested("occupancy") || rep.Occupancy.OccupancyPct < 100)
	}
	if opt.shown("timeline") && rep.Simulated {
		w.timing(rep, charts, opt.requested("timeline"))
	}
	if opt.shown("trace") && rep.Simulated {
		if err := w.trace(rep); err != nil {
			return "", err
		}
	}
	if opt.shown("outputs") && (len(rep.Outputs) > 0 || len(rep.Args) > 0 || rep.Stdout != "" || rep.Stderr != "") {
		w.outputs(rep)
	}
	if len(rep.Notes) > 0 {
		w.section("notes", fmt.Sprintf("Notes · %d: %s", len(rep.Notes), clip(rep.Notes[0], 90)), false)
		w.printf("<ul>")
		for _, n := range rep.Notes {
			w.printf("<li>%s</li>", esc(n))
		}
		w.printf("</ul>")
		w.end()
	}
	w.printf("<script>%s</script>", strings.ReplaceAll(reportJS, "__KSID__", opt.ID))
	w.printf("</div>")
	return w.b.String(), nil
}

// clip shortens s to at most n runes, with an ellipsis when cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

type htmlWriter struct {
	b  strings.Builder
	id string
}

func (w *htmlWriter) printf(format string, a ...any) { fmt.Fprintf(&w.b, format, a...) }

// section opens a collapsible section.
func (w *htmlWriter) section(key, title string, open bool) {
	o := ""
	if open {
		o = " open"
	}
	name, rest, _ := strings.Cut(title, " · ")
	if rest != "" {
		rest = " · " + esc(rest)
	}
	w.printf(`<details class="ks-section ks-%s" data-section="%s"%s><summary style="display:block">%s<b>%s</b>%s</summary><div class="ks-body">`, key, key, o, triangle, esc(name), rest)
}

// triangle marks a section title without styles (an untrusted notebook drops
// the report's CSS, and classic Notebook hides the browser's own marker); the
// report's CSS hides it and draws its own, which turns when the section opens.
// The summaries' inline display:block (kept by JupyterLab's sanitiser, which
// drops the <style>) hides the browser's marker there, so only one shows.
const triangle = `<span class="ks-tri">▸ </span>`

func (w *htmlWriter) end() { w.printf("</div></details>") }

func esc(s string) string { return html.EscapeString(s) }

func summaryHTML(rep *report.Report) string {
	var b strings.Builder
	if rep.Simulated {
		fmt.Fprintf(&b, `<span class="ks-k">%s</span> on <b>%s</b> · grid %s × block %s · %s thread-instr · %s warp-instr`,
			esc(rep.Kernel), esc(rep.Arch), dim(rep.Grid), dim(rep.Block), group(rep.Stats.ThreadInstructions), group(rep.Stats.WarpInstructions))
		if rep.Stats.Cycles > 0 {
			fmt.Fprintf(&b, " · ~%s cycles", group(rep.Stats.Cycles))
			if t := rep.Timing; t != nil && t.KernelCycles > 0 {
				fmt.Fprintf(&b, " (%s)", esc(launchSplit(t)))
			}
		}
		if rep.Occupancy != nil {
			fmt.Fprintf(&b, " · occupancy %.0f%%", rep.Occupancy.OccupancyPct)
		}
		fmt.Fprintf(&b, " · %d regs/thread (%s)", rep.Registers.PerThread, esc(regSourceShort(rep.Registers.Source)))
		if rep.SharedStatic+rep.SharedDynamic > 0 {
			fmt.Fprintf(&b, " · %d B shared/block", rep.SharedStatic+rep.SharedDynamic)
		}
		if n := countSev(rep.Hints); n != "" {
			fmt.Fprintf(&b, " · hints: %s", n)
		}
	} else {
		fmt.Fprintf(&b, "<b>%s</b> · %d kernel(s)", esc(rep.Arch), len(rep.Kernels))
	}
	fmt.Fprintf(&b, ` · <span class="ks-dim">%s</span>`, esc(rep.Toolchain))
	return b.String()
}

func regSourceShort(s string) string {
	if strings.HasPrefix(s, "ptxas") {
		return "ptxas"
	}
	return "estimated"
}

func countSev(h []report.Hint) string {
	c := map[string]int{}
	for _, x := range h {
		c[x.Severity]++
	}
	var parts []string
	for _, s := range []string{"critical", "warning", "info"} {
		if c[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[s], s))
		}
	}
	return strings.Join(parts, ", ")
}

func (w *htmlWriter) errors(rep *report.Report) {
	w.printf(`<div class="ks-errors">`)
	for _, e := range rep.Errors {
		w.printf(`<div class="ks-error"><b>%s</b> %s`, esc(e.Kind), esc(e.Message))
		if e.CUDALine > 0 {
			w.printf(` <a class="ks-link" data-cl="%d">CUDA line %d</a>`, e.CUDALine, e.CUDALine)
		}
		if e.PTXLine > 0 {
			w.printf(` <a class="ks-link" data-pl="%d">PTX line %d</a>`, e.PTXLine, e.PTXLine)
		}
		w.printf("</div>")
	}
	w.printf("</div>")
}

// topHints is how many hints the report shows open; the rest are one line away.
const topHints = 3

// hints renders the top hints by estimated gain (gpu/hints ranks them), each
// with its evidence, gain and lines. Open: at most topHints of those that have
// an estimated gain or are warnings or worse; the rest (and informational notes
// without a gain, such as a small grid) collapse under one line.
func (w *htmlWriter) hints(rep *report.Report) {
	hs := append([]report.Hint(nil), rep.Hints...)
	hints.Rank(hs)
	var open, rest []report.Hint
	for _, h := range hs {
		if len(open) < topHints && (h.GainCycles > 0 || h.Severity != hints.Info) {
			open = append(open, h)
		} else {
			rest = append(rest, h)
		}
	}
	title := "Hints · none"
	switch {
	case len(open) > 0 && len(rest) > 0:
		title = fmt.Sprintf("Hints · %d by estimated gain, %d more", len(open), len(rest))
	case len(open) > 0:
		title = fmt.Sprintf("Hints · %d", len(open))
	case len(rest) > 0:
		title = fmt.Sprintf("Hints · no problem with an estimated gain · %d note(s)", len(rest))
	}
	if len(open) > 0 && open[0].GainCycles > 0 {
		title += fmt.Sprintf(" · the first saves ≈ %s cycles (%.0f%%)", group(open[0].GainCycles), open[0].GainPct)
	}
	w.section("hints", title, true)
	if len(hs) == 0 {
		w.printf(`<p class="ks-dim">No performance problems found by the rules that ran.</p>`)
	}
	for _, h := range open {
		w.hint(rep, h)
	}
	if len(rest) > 0 {
		w.printf(`<details class="ks-more"><summary style="display:block">%s%d more: %s</summary>`, triangle, len(rest), esc(hintRules(rest)))
		for _, h := range rest {
			w.hint(rep, h)
		}
		w.printf(`</details>`)
	}
	if len(open) > 0 {
		w.printf(`<p class="ks-dim ks-small" title="%s">Gains are estimates from this run's timing model (hover for how).</p>`, esc(hints.GainMethod))
	}
	w.end()
}

// hintRules lists the rules of hints, for the collapsed line of the rest.
func hintRules(hs []report.Hint) string {
	var r []string
	for _, h := range hs {
		r = append(r, h.Rule)
	}
	return strings.Join(r, ", ")
}

func (w *htmlWriter) hint(rep *report.Report, h report.Hint) {
	w.printf(`<div class="ks-hint ks-%s"><span class="ks-sev">%s</span> %s`, esc(h.Severity), esc(h.Severity), esc(h.Message))
	if h.GainCycles > 0 {
		w.printf(` <b class="ks-gain">saves ≈ %s cycles (%.1f%%)</b>`, group(h.GainCycles), h.GainPct)
	}
	if h.Evidence != "" {
		w.printf(` <span class="ks-dim">Evidence: %s.</span>`, esc(h.Evidence))
	}
	lines := h.CUDALines
	if len(lines) == 0 && h.CUDALine > 0 {
		lines = []int{h.CUDALine}
	}
	for _, l := range lines {
		w.printf(` %s`, lineLink(rep, h.CUDAFile, l))
	}
	if len(lines) == 0 && h.PTXLine > 0 {
		w.printf(` <a class="ks-link" data-pl="%d">PTX line %d</a>`, h.PTXLine, h.PTXLine)
	}
	w.printf("</div>")
}

// hintedLines are the CUDA (main source) and PTX lines the hints name.
func hintedLines(rep *report.Report) (cuda, ptxl map[int]bool) {
	cuda, ptxl = map[int]bool{}, map[int]bool{}
	for _, h := range rep.Hints {
		if h.Category == "latency" { // a symptom pinned to the line that stalls most, not a cause
			continue
		}
		if h.CUDAFile == "" {
			if h.CUDALine > 0 {
				cuda[h.CUDALine] = true
			}
			for _, l := range h.CUDALines {
				cuda[l] = true
			}
		}
		if h.PTXLine > 0 {
			ptxl[h.PTXLine] = true
		}
		for _, l := range h.PTXLines {
			ptxl[l] = true
		}
	}
	return cuda, ptxl
}

// lineMetrics are the counters of one line (a PTX line, or a CUDA line summed over its PTX lines).
type lineMetrics struct {
	warpExecs, threadExecs, requests, sectors, idealSectors, wavefronts, idealWaves, stalls, divergent int64
	stallBy                                                                                            map[string]int64
}

func (m *lineMetrics) add(l report.LineStat) {
	m.warpExecs += l.WarpExecs
	m.threadExecs += l.ThreadExecs
	m.requests += l.Requests
	m.sectors += l.Sectors
	m.idealSectors += l.IdealSectors
	m.wavefronts += l.Wavefronts
	m.idealWaves += l.IdealWavefronts
	m.stalls += l.StallCycles
	m.divergent += l.DivergentBranches
	for k, v := range l.Stalls {
		if m.stallBy == nil {
			m.stallBy = map[string]int64{}
		}
		m.stallBy[k] += v
	}
}

// metricCols says which optional metric columns a view shows: those some line has a value in.
type metricCols struct{ sectors, wavefronts, stalls bool }

// colsOf finds the metric columns worth showing for the lines of a launch.
func colsOf(lines []report.LineStat) metricCols {
	var c metricCols
	for _, l := range lines {
		c.sectors = c.sectors || l.Requests > 0
		c.wavefronts = c.wavefronts || l.Wavefronts > 0
		c.stalls = c.stalls || l.StallCycles > 0
	}
	return c
}

// head is the header of the per-line metric columns.
func (c metricCols) head() string {
	h := `<i title="warp-level executions"> exec</i><i title="active lanes per execution"> lanes</i>`
	if c.sectors {
		h += `<i title="global sectors per request (the ideal is in the line number's tooltip)"> sec/rq</i>`
	}
	if c.wavefronts {
		h += `<i title="shared-memory wavefronts"> wavef</i>`
	}
	if c.stalls {
		h += `<i title="stalled warp-cycles (timing model)"> stall</i>`
	}
	return h + `<b class="ks-heathead" title="share of the thread executions"> heat</b>`
}

// cells writes the metric columns of one line and its heat bar (maxv: the
// largest thread executions of the view); a line that never ran has none.
// The full counters are the title of the line number.
func (m *lineMetrics) cells(maxv int64, c metricCols) string {
	if m == nil || m.warpExecs == 0 {
		return ""
	}
	act := 100 * float64(m.threadExecs) / float64(32*m.warpExecs)
	pct := 0.0
	if maxv > 0 {
		pct = 100 * float64(m.threadExecs) / float64(maxv)
	}
	// Short tags: a view has thousands of these cells (CSS: .ks-ln > i, .ks-ln > b). The
	// leading space keeps the numbers apart where a sanitiser drops the styles (untrusted notebooks).
	var b strings.Builder
	fmt.Fprintf(&b, `<i> %s</i>`, compact(m.warpExecs))
	if act < 100 {
		fmt.Fprintf(&b, `<i class="p"> %.0f%%</i>`, act)
	} else {
		b.WriteString(`<i> 100%</i>`)
	}
	if c.sectors {
		switch {
		case m.requests == 0:
			b.WriteString(`<i></i>`)
		case m.sectors > m.idealSectors:
			fmt.Fprintf(&b, `<i class="x"> %.1f</i>`, float64(m.sectors)/float64(m.requests))
		default:
			fmt.Fprintf(&b, `<i> %.1f</i>`, float64(m.sectors)/float64(m.requests))
		}
	}
	if c.wavefronts {
		switch {
		case m.wavefronts == 0:
			b.WriteString(`<i></i>`)
		case m.wavefronts > m.idealWaves:
			fmt.Fprintf(&b, `<i class="x"> %s</i>`, compact(m.wavefronts))
		default:
			fmt.Fprintf(&b, `<i> %s</i>`, compact(m.wavefronts))
		}
	}
	if c.stalls {
		if m.stalls > 0 {
			fmt.Fprintf(&b, `<i> %s</i>`, compact(m.stalls))
		} else {
			b.WriteString(`<i></i>`)
		}
	}
	fmt.Fprintf(&b, `<b><b style="width:%.0f%%"></b></b>`, pct)
	return b.String()
}

// title is the full counters of a line, for the tooltip of its number.
func (m *lineMetrics) title() string {
	if m == nil || m.warpExecs == 0 {
		return "0 warp / 0 thread executions"
	}
	t := fmt.Sprintf("%s warp / %s thread executions, %.0f%% lanes active", group(m.warpExecs), group(m.threadExecs), 100*float64(m.threadExecs)/float64(32*m.warpExecs))
	if m.divergent > 0 {
		t += fmt.Sprintf(", %d divergent branches", m.divergent)
	}
	if m.requests > 0 {
		t += fmt.Sprintf(", %.1f sectors/request (ideal %.1f)", float64(m.sectors)/float64(m.requests), float64(m.idealSectors)/float64(m.requests))
	}
	if m.wavefronts > 0 {
		t += fmt.Sprintf(", %d wavefronts (ideal %d)", m.wavefronts, m.idealWaves)
	}
	if m.stalls > 0 {
		t += fmt.Sprintf(", %s stalled warp-cycles (%s)", group(m.stalls), topStalls(m.stallBy, 3))
	}
	return t
}

// compact writes a count in at most five characters (999, 12.3k, 4.5M).
func compact(n int64) string {
	switch {
	case n < 10000:
		return fmt.Sprint(n)
	case n < 1000000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	case n < 1000000000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1fG", float64(n)/1e9)
}

// skipped is a run of PTX lines of a function other than the launched kernel.
type skipped struct {
	n    int
	name string
}

// otherFunctions finds the functions of a PTX module other than kernel (and
// the functions it calls: any .func stays): their first line (1-based) and
// length, from the .entry line to the closing brace at the start of a line.
func otherFunctions(lines []string, kernel string) map[int]skipped {
	out := map[int]skipped{}
	if kernel == "" {
		return out
	}
	for i := 0; i < len(lines); i++ {
		code := strings.TrimSpace(strings.SplitN(lines[i], "//", 2)[0])
		j := strings.Index(code, ".entry ")
		if j < 0 {
			continue
		}
		name := strings.TrimSpace(code[j+len(".entry "):])
		if k := strings.IndexAny(name, "( \t"); k >= 0 {
			name = name[:k]
		}
		end := i
		for end < len(lines) && !strings.HasPrefix(lines[end], "}") {
			end++
		}
		if name != "" && end < len(lines) {
			out[i+1] = skipped{n: end - i + 1, name: name}
		}
		i = end
	}
	// Hide the others only when the launched kernel is found by its PTX name
	// (a C++ kernel's report may name it demangled: then nothing is hidden).
	found := false
	for k, v := range out {
		disp := ptx.FuncName(v.name)
		if targs, ok := ptx.TemplateArgs(v.name); ok {
			disp += "<" + targs + ">"
		}
		if v.name == kernel || disp == kernel {
			found = true
			delete(out, k)
		}
	}
	if !found {
		return map[int]skipped{}
	}
	return out
}

// isNoisePTX reports whether a PTX line says nothing to a reader: .loc and
// .file directives, comment-only lines, blank lines and clang's $L__tmp labels.
func isNoisePTX(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || strings.HasPrefix(t, "//") || strings.HasPrefix(t, ".loc") || strings.HasPrefix(t, ".file") ||
		strings.HasPrefix(t, "$L__tmp") || strings.HasPrefix(t, "$L__func_end") || strings.HasPrefix(t, "$L__func_begin")
}

// source renders CUDA, PTX and SASS side by side, each line with its metric
// columns (executions, active lanes, sectors per request, wavefronts, stall
// cycles, a heat bar); long lines wrap; PTX noise (.loc, comments) is hidden
// until the toggle shows it; hinted and faulting lines are tinted.
func (w *htmlWriter) source(rep *report.Report, opt Options) {
	stat := map[int]report.LineStat{}
	cudaOf := map[int]int{}
	var maxExec int64
	cudaM := map[int]*lineMetrics{}
	for _, l := range rep.Lines {
		stat[l.PTXLine] = l
		if l.ThreadExecs > maxExec {
			maxExec = l.ThreadExecs
		}
		if l.CUDALine > 0 && l.CUDAFile == "" {
			m := cudaM[l.CUDALine]
			if m == nil {
				m = &lineMetrics{}
				cudaM[l.CUDALine] = m
			}
			m.add(l)
		}
	}
	for pl, cl := range ptxToCUDA(rep) {
		cudaOf[pl] = cl
	}
	otherCUDA := otherCUDAKeys(rep) // PTX lines of included headers and kept definitions (sources.go)
	var maxCUDA int64
	for _, v := range cudaM {
		maxCUDA = max(maxCUDA, v.threadExecs)
	}
	bugCUDA, bugPTX := findingLines(rep)
	for _, e := range rep.Errors {
		if e.CUDALine > 0 {
			bugCUDA[e.CUDALine] = " ks-bug"
		}
		if e.PTXLine > 0 {
			bugPTX[e.PTXLine] = " ks-bug"
		}
	}
	hintC, hintP := hintedLines(rep)
	mc := colsOf(rep.Lines)
	title := "Source · PTX"
	if rep.SASS != "" && opt.shown("sass") {
		title += " · SASS"
	}
	if len(hintC) > 0 {
		title += fmt.Sprintf(" · %d hinted line(s) tinted", len(hintC))
	}
	w.section("source", title, true)
	w.printf(`<div class="ks-cols">`)
	docs := map[string]string{} // PTX (lower case) and SASS (upper case) opcodes met, for the hover titles
	if rep.Source != "" && opt.shown("source") {
		w.printf(`<div class="ks-col ks-cuda"><div class="ks-colhead"><span class="ks-src">CUDA · %s</span>%s</div><pre class="ks-code">`, esc(rep.SourceFile), mc.head())
		for i, line := range strings.Split(strings.TrimRight(rep.Source, "\n"), "\n") {
			n := i + 1
			cls := bugCUDA[n]
			if hintC[n] {
				cls += " ks-hinted"
			}
			w.printf(`<div class="ks-ln%s" data-cl="%d"><span class="ks-no" title="%s">%d </span><span class="ks-src">%s</span>%s</div>`,
				cls, n, esc(cudaM[n].title()), n, esc(line), cudaM[n].cells(maxCUDA, mc))
		}
		w.printf(`</pre>`)
		w.includedSources(rep, maxCUDA)
		w.printf(`</div>`)
	}
	if opt.shown("ptx") {
		w.printf(`<div class="ks-col ks-ptx"><div class="ks-colhead"><span class="ks-src">PTX <label class="ks-dim ks-small"><input type="checkbox" class="ks-noisetoggle"> .loc, comments</label></span>%s</div><pre class="ks-code">`, mc.head())
		lines := strings.Split(strings.TrimRight(rep.PTX, "\n"), "\n")
		others, skipTo := otherFunctions(lines, rep.Kernel), 0
		for i, line := range lines {
			n := i + 1
			if strings.HasPrefix(strings.TrimSpace(line), ".section") && strings.Contains(line, ".debug") {
				// DWARF sections are long and say nothing to a reader; the JSON report keeps the full PTX.
				w.printf(`<div class="ks-ln ks-dim ks-noise" hidden style="display:none"><span class="ks-no">%d</span><span class="ks-src">… %d lines of debug sections not shown</span></div>`, n, len(lines)-i)
				break
			}
			if r, ok := others[n]; ok {
				w.printf(`<div class="ks-ln ks-dim"><span class="ks-no">%d</span><span class="ks-src">… %d lines of %s (not launched) not shown</span></div>`, n, r.n, esc(r.name))
				skipTo = n + r.n
			}
			if n < skipTo {
				continue
			}
			s, ok := stat[n]
			// Noise lines are hidden for readers without the report's CSS: the hidden
			// attribute (classic Notebook's sanitiser keeps it) and an inline display
			// (JupyterLab's keeps that); the CSS's checkbox rule overrides both.
			if !ok && isNoisePTX(line) {
				w.printf(`<div class="ks-ln ks-noise" data-pl="%d" hidden style="display:none"><span class="ks-no">%d </span><span class="ks-src">%s</span></div>`, n, n, esc(line))
				continue
			}
			var m *lineMetrics
			if ok {
				m = &lineMetrics{}
				m.add(s)
			}
			cl := strconv.Itoa(cudaOf[n])
			if k, ok := otherCUDA[n]; ok {
				cl = k
			}
			cls := "ks-ln"
			if !ok && isNoisePTX(line) {
				cls += " ks-noise"
			}
			if ok && (s.DivergentBranches > 0 || s.Sectors > s.IdealSectors || s.Wavefronts > s.IdealWavefronts) {
				cls += " ks-warn"
			}
			if hintP[n] {
				cls += " ks-hinted"
			}
			cls += bugPTX[n]
			nt := ""
			if ok {
				nt = fmt.Sprintf(` title="%s"`, esc(m.title()))
			}
			w.printf(`<div class="%s" data-pl="%d" data-cl="%s"><span class="ks-no"%s>%d </span><span class="ks-src">%s</span>%s</div>`,
				cls, n, esc(cl), nt, n, highlightPTX(line, docs), m.cells(maxExec, mc))
		}
		w.printf(`</pre></div>`)
	}
	if rep.SASS != "" && opt.shown("sass") {
		w.printf(`<div class="ks-col ks-sass"><div class="ks-colhead">SASS</div><pre class="ks-code">`)
		for _, l := range sassLines(rep.SASS, rep.SourceFile) {
			w.printf(`<div class="ks-ln" data-cl="%d"><span class="ks-src">%s</span></div>`, l.cudaLine, highlightSASS(l.text, docs))
		}
		w.printf(`</pre></div>`)
	}
	w.printf(`</div>`)
	w.opDocs(docs)
	if rep.SASS == "" && opt.requested("sass") {
		w.printf(`<p class="ks-dim ks-small">No SASS: it needs nvcc and cuobjdump (CUDA toolkit), which this machine does not have; the PTX came from %s.</p>`, esc(rep.Toolchain))
	}
	w.printf(`<p class="ks-dim ks-small">Click a line to light its partner lines (and, with the trace open, to offer the next step there); hover an opcode for what it does, a bar for the line's counters.</p>`)
	w.end()
}

// ptxToCUDA maps PTX lines to CUDA lines from the per-line table and memory rows.
func ptxToCUDA(rep *report.Report) map[int]int {
	m := map[int]int{}
	for _, l := range rep.Lines {
		if l.CUDALine > 0 && l.CUDAFile == "" {
			m[l.PTXLine] = l.CUDALine
		}
	}
	return m
}

// heat draws the small bar of a line's share of the work.
func heat(v, maxv int64, title string) string {
	pct := 0.0
	if maxv > 0 {
		pct = 100 * float64(v) / float64(maxv)
	}
	return fmt.Sprintf(`<span class="ks-heat" title="%s"><span style="width:%.0f%%"></span></span>`, esc(title), pct)
}

// highlightPTX colours one PTX line: directives, opcodes, registers, numbers,
// comments (short class names: a report has thousands of them). docs collects
// the manual summary of each opcode met, written once per report (opDocs) and
// shown on hover by the script.
func highlightPTX(line string, docs map[string]string) string {
	code, comment := line, ""
	if i := strings.Index(line, "//"); i >= 0 {
		code, comment = line[:i], line[i:]
	}
	var b strings.Builder
	trim := strings.TrimLeft(code, " \t")
	indent := code[:len(code)-len(trim)]
	b.WriteString(esc(indent))
	first := true
	for _, tok := range splitTokens(trim) {
		switch {
		case strings.TrimSpace(tok) == "" || len(tok) == 1 && strings.ContainsAny(tok, ",;[]{}()+|"):
			b.WriteString(esc(tok))
			continue
		case strings.HasPrefix(tok, "."):
			fmt.Fprintf(&b, `<span class="d">%s</span>`, esc(tok))
		case strings.HasSuffix(tok, ":"):
			fmt.Fprintf(&b, `<span class="l">%s</span>`, esc(tok))
		case strings.HasPrefix(tok, "@"):
			fmt.Fprintf(&b, `<span class="r">%s</span>`, esc(tok))
			continue
		case first:
			op := tok
			if i := strings.IndexByte(op, '.'); i >= 0 {
				op = op[:i]
			}
			if d, ok := ptx.OpcodeDoc(op); ok && docs != nil {
				docs[op] = d.Summary
			}
			fmt.Fprintf(&b, `<span class="ks-op" data-op="%s">%s</span>`, esc(op), esc(tok))
		case strings.HasPrefix(tok, "%"):
			fmt.Fprintf(&b, `<span class="r">%s</span>`, esc(tok))
		case tok[0] >= '0' && tok[0] <= '9' || tok[0] == '-':
			fmt.Fprintf(&b, `<span class="n">%s</span>`, esc(tok))
		default:
			b.WriteString(esc(tok))
		}
		first = false
	}
	if comment != "" {
		fmt.Fprintf(&b, `<span class="c">%s</span>`, esc(comment))
	}
	return b.String()
}

// sassOpRE finds the opcode of a SASS instruction line: address, optional guard, opcode.
var sassOpRE = regexp.MustCompile(`^(\s*/\*[0-9a-f]{4,}\*/\s*(?:@!?U?P[T0-9]+\s+)?)([A-Z][A-Z0-9_]*)`)

// highlightSASS marks the opcode of a SASS instruction line for the hover
// docs (gpu/sass's table, collected into docs); other lines stay plain text.
func highlightSASS(line string, docs map[string]string) string {
	m := sassOpRE.FindStringSubmatchIndex(line)
	if m == nil {
		return esc(line)
	}
	op := line[m[4]:m[5]]
	if d, ok := sass.OpcodeDoc(op); ok && docs != nil {
		docs[op] = d.Summary
	}
	end := m[5]
	for end < len(line) && line[end] != ' ' && line[end] != '\t' {
		end++
	}
	return esc(line[:m[4]]) + `<span class="ks-op" data-op="` + esc(op) + `">` + esc(line[m[4]:end]) + `</span>` + esc(line[end:])
}

// opDocs writes the opcode summaries a report's PTX uses, as JSON for the script's hover titles.
func (w *htmlWriter) opDocs(docs map[string]string) {
	if len(docs) == 0 {
		return
	}
	data, err := json.Marshal(docs)
	if err != nil {
		return
	}
	w.printf(`<script type="application/json" class="ks-opdocs">%s</script>`, strings.ReplaceAll(string(data), "</", `<\/`))
}

// splitTokens splits PTX code into words and single punctuation characters, keeping whitespace.
func splitTokens(s string) []string {
	var out []string
	start := -1
	flush := func(i int) {
		if start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || strings.IndexByte(",;[]{}()+|", c) >= 0 {
			flush(i)
			out = append(out, s[i:i+1])
			continue
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(s))
	return out
}

func (w *htmlWriter) memory(rep *report.Report) {
	m := rep.Memory
	if m == nil {
		return
	}
	aw, ai := sharedAtomicWavefronts(m)
	w.section("memory", memoryHeadline(m, aw, ai), false)
	w.printf(`<table class="ks-table"><tr><th></th><th>requests</th><th>sectors</th><th>sectors/request</th></tr>`)
	w.printf(`<tr><td>global loads</td><td>%s</td><td>%s</td><td>%s</td></tr>`, group(m.GlobalLoadRequests), group(m.GlobalLoadSectors), ratio(m.GlobalLoadSectors, m.GlobalLoadRequests))
	w.printf(`<tr><td>global stores</td><td>%s</td><td>%s</td><td>%s</td></tr></table>`, group(m.GlobalStoreRequests), group(m.GlobalStoreSectors), ratio(m.GlobalStoreSectors, m.GlobalStoreRequests))
	w.printf(`<table class="ks-table"><tr><th></th><th>wavefronts</th><th>bank conflicts</th></tr>`)
	w.printf(`<tr><td>shared loads</td><td>%s</td><td>%s</td></tr>`, group(m.SharedLoadWavefronts), group(m.SharedLoadBankConflicts))
	w.printf(`<tr><td>shared stores</td><td>%s</td><td>%s</td></tr>`, group(m.SharedStoreWavefronts), group(m.SharedStoreBankConflicts))
	if aw > 0 {
		// Nsight Compute counts shared atomics apart from loads and stores; their extra
		// wavefronts are same-address serialisation as well as bank conflicts.
		w.printf(`<tr class="ks-atomrow%s"><td>shared atomics</td><td>%s (ideal %s)</td><td>%s extra</td></tr>`, warnIf(aw > ai), group(aw), group(ai), group(aw-ai))
	}
	w.printf(`</table>`)
	w.printf(`<p>L1 hit rate %.1f%% · L2 hit rate %.1f%% <span class="ks-dim">(sectors, modelled caches)</span></p>`, 100*m.L1HitRate, 100*m.L2HitRate)
	if len(m.Instructions) > 0 {
		w.printf(`<table class="ks-table ks-memrows"><tr><th>CUDA</th><th>PTX</th><th>instruction</th><th>space</th><th>bits</th><th>requests</th><th>sectors (ideal)</th><th>wavefronts (ideal)</th><th>L1 hits</th><th>L2 hits</th></tr>`)
		for _, r := range m.Instructions {
			bad := r.Sectors > r.IdealSectors || r.Wavefronts > r.IdealWavefronts
			cls := ""
			if bad {
				cls = ` class="ks-warn"`
			}
			cudaCell := fmt.Sprintf(`<a class="ks-link" data-cl="%d">%s</a>`, r.CUDALine, lineOrDash(r.CUDALine))
			if r.CUDAFile != "" && r.CUDALine > 0 {
				cudaCell = lineLink(rep, r.CUDAFile, r.CUDALine)
			}
			w.printf(`<tr%s><td>%s</td><td><a class="ks-link" data-pl="%d">%d</a></td><td><code>%s</code></td><td>%s</td><td>%d</td><td>%s</td><td>%s (%s)</td><td>%s (%s)</td><td>%s</td><td>%s</td></tr>`,
				cls, cudaCell, r.PTXLine, r.PTXLine, esc(r.Text), esc(r.Space), r.WidthBits, dashIfZero(r.Requests),
				group(r.Sectors), group(r.IdealSectors), group(r.Wavefronts), group(r.IdealWavefronts), group(r.L1Hits), group(r.L2Hits))
		}
		w.printf(`</table>`)
	}
	w.end()
}

// sharedAtomicWavefronts sums the wavefronts (and ideal wavefronts) of the shared-memory atomics.
func sharedAtomicWavefronts(m *report.Memory) (wf, ideal int64) {
	for _, r := range m.Instructions {
		if r.Space == "shared" && (r.Op == "atom" || r.Op == "red") {
			wf += r.Wavefronts
			ideal += r.IdealWavefronts
		}
	}
	return wf, ideal
}

// memoryHeadline is the Memory section's one line: sectors per request and bank conflicts.
func memoryHeadline(m *report.Memory, atomWF, atomIdeal int64) string {
	parts := []string{"Memory"}
	if m.GlobalLoadRequests > 0 {
		parts = append(parts, fmt.Sprintf("loads %s sectors/request", ratio(m.GlobalLoadSectors, m.GlobalLoadRequests)))
	}
	if m.GlobalStoreRequests > 0 {
		parts = append(parts, fmt.Sprintf("stores %s sectors/request", ratio(m.GlobalStoreSectors, m.GlobalStoreRequests)))
	}
	if m.SharedLoadWavefronts+m.SharedStoreWavefronts+atomWF > 0 {
		parts = append(parts, fmt.Sprintf("%s shared bank conflicts", group(m.SharedLoadBankConflicts+m.SharedStoreBankConflicts)))
	}
	if atomWF > atomIdeal {
		parts = append(parts, fmt.Sprintf("%s extra shared-atomic wavefronts", group(atomWF-atomIdeal)))
	}
	var bad int
	for _, r := range m.Instructions {
		if r.Sectors > r.IdealSectors || r.Wavefronts > r.IdealWavefronts {
			bad++
		}
	}
	parts = append(parts, fmt.Sprintf("%d of %d instructions above ideal", bad, len(m.Instructions)))
	return strings.Join(parts, " · ")
}

func warnIf(b bool) string {
	if b {
		return " ks-warn"
	}
	return ""
}

func dashIfZero(n int64) string {
	if n == 0 {
		return "–"
	}
	return group(n)
}

func lineOrDash(n int) string {
	if n <= 0 {
		return "–"
	}
	return fmt.Sprint(n)
}

func ratio(a, b int64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// occupancy renders the occupancy table; its charts only when drawCharts is
// set (occupancy under 100%, or %show occupancy): at 100% they say nothing new.
func (w *htmlWriter) occupancy(rep *report.Report, charts []report.Chart, drawCharts bool) {
	o := rep.Occupancy
	w.section("occupancy", fmt.Sprintf("Occupancy · %.1f%% · %d blocks/SM, limited by %s", o.OccupancyPct, o.ActiveBlocksPerSM, strings.Join(o.LimitingFactors, ", ")), false)
	w.printf(`<table class="ks-table"><tr><th>limit</th><th>blocks per SM</th></tr>`)
	keys := make([]string, 0, len(o.Limits))
	for k := range o.Limits {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	lim := map[string]bool{}
	for _, f := range o.LimitingFactors {
		lim[f] = true
	}
	for _, k := range keys {
		v := o.Limits[k]
		cls := ""
		if lim[k] {
			cls = ` class="ks-warn"`
		}
		val := fmt.Sprint(v)
		if v >= math.MaxInt32 {
			val = "no limit"
		}
		w.printf(`<tr%s><td>%s</td><td>%s</td></tr>`, cls, esc(strings.ReplaceAll(k, "_", " ")), val)
	}
	w.printf(`</table><p>%d active blocks per SM, %.1f%% of the SM's warps; limited by %s. %d registers per thread, %d bytes of shared memory per block.</p>`,
		o.ActiveBlocksPerSM, o.OccupancyPct, esc(strings.Join(o.LimitingFactors, ", ")), o.RegistersPerThread, o.SharedBytesPerBlock)
	var occ []report.Chart
	for _, c := range charts {
		if drawCharts && strings.HasPrefix(c.ID, "occupancy") {
			occ = append(occ, c)
		}
	}
	if len(occ) > 0 {
		w.printf(`<div class="ks-charts">`)
		for i, c := range occ {
			w.printf(`<figure class="ks-chart">%s<figcaption>%s</figcaption></figure>`, inlineSVG(c.SVG, fmt.Sprintf("%s-c%d", w.id, i)), esc(c.Title))
		}
		w.printf(`</div>`)
	}
	w.end()
}

// stripFontFaces removes each <style> element that starts with an @font-face
// rule (the embedded font, base64), scanning with strings.Index: no regexp
// runs over the font data.
func stripFontFaces(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "<style>")
		if i < 0 {
			break
		}
		body := strings.TrimLeft(s[i+len("<style>"):], " \t\n\r\f")
		end := strings.Index(body, "</style>")
		if !strings.HasPrefix(body, "@font-face{") || end < 0 {
			b.WriteString(s[:i+len("<style>")])
			s = s[i+len("<style>"):]
			continue
		}
		b.WriteString(s[:i])
		s = body[end+len("</style>"):]
	}
	if b.Len() == 0 {
		return s
	}
	b.WriteString(s)
	return b.String()
}

// inlineSVG prepares a chart for inline use in the report: the XML header
// goes, and so does the embedded font (560 KB per chart): the text is drawn as
// glyph outlines of the same face instead. Should that fail, the text stays
// text, with a family list that starts with the same face and falls back to the
// metric-compatible Arial and Helvetica.
func inlineSVG(svg []byte, idPrefix string) string {
	s := string(svg)
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:]
	}
	s = stripFontFaces(s)
	if o, err := outlineText(s, idPrefix); err == nil {
		return o
	}
	return strings.ReplaceAll(s, `font-family:Liberation Sans;`, `font-family:'Liberation Sans',Arial,Helvetica,sans-serif;`)
}

// timing renders the timing model's figures; its charts (warp states, per-warp
// timeline) only on %show timeline: the table says what the bar chart does.
func (w *htmlWriter) timing(rep *report.Report, charts []report.Chart, drawCharts bool) {
	t := rep.Timing
	if t == nil {
		w.section("timeline", "Timing", false)
		w.printf(`<p>The timing model did not run (%%timing off). The counts above are exact functional counts.</p>`)
		w.end()
		return
	}
	w.section("timeline", fmt.Sprintf("Timing · ~%s cycles: %s%s", group(t.Cycles), launchSplit(t), microseconds(rep.Arch, t.KernelCycles)), false)
	hidden := ""
	if t.LaunchHiddenCycles > 0 {
		hidden = fmt.Sprintf(" − %s: the dispatch of the blocks beyond the first ones runs while earlier blocks work", group(t.LaunchHiddenCycles))
	}
	w.printf(`<p>~%s cycles: %s for the instructions (cycle-level model) + %s of launch overhead (an empty kernel of this grid, measured on the H200)%s. <span class="ks-dim">%s. An estimate: on the golden launches the model is within the error the README gives.</span></p>`,
		group(t.Cycles), group(t.KernelCycles), group(t.LaunchCycles), esc(hidden), esc(t.Modelled))
	type kv struct {
		k string
		v float64
	}
	var states []kv
	for k, v := range t.PerIssue {
		states = append(states, kv{k, v})
	}
	sort.Slice(states, func(i, j int) bool {
		return states[i].v > states[j].v || states[i].v == states[j].v && states[i].k < states[j].k
	})
	w.printf(`<table class="ks-table"><tr><th>warp state</th><th>cycles per issued instruction</th><th>warp-cycles</th></tr>`)
	for _, st := range states {
		c := chart.StateColors[st.k]
		w.printf(`<tr><td><span class="ks-swatch" style="background:#%02x%02x%02x"></span>%s</td><td>%.2f</td><td>%s</td></tr>`, c.R, c.G, c.B, esc(st.k), st.v, group(t.Stalls[st.k]))
	}
	w.printf(`</table>`)
	if len(t.Pipes) > 0 {
		var pipes []kv
		var total int64
		for k, v := range t.Pipes {
			pipes = append(pipes, kv{k, float64(v)})
			total += v
		}
		sort.Slice(pipes, func(i, j int) bool {
			return pipes[i].v > pipes[j].v || pipes[i].v == pipes[j].v && pipes[i].k < pipes[j].k
		})
		w.printf(`<table class="ks-table"><tr><th>pipe</th><th>busy cycles (all sub-partitions)</th><th>share</th></tr>`)
		for _, p := range pipes {
			w.printf(`<tr><td><span class="ks-swatch" style="background:%s"></span>%s</td><td>%s</td><td>%.0f%%</td></tr>`,
				esc(t.PipeColors[p.k]), esc(p.k), group(int64(p.v)), 100*p.v/float64(max(total, 1)))
		}
		w.printf(`</table>`)
	}
	var tc []report.Chart
	for _, c := range charts {
		if drawCharts && (c.ID == "stalls" || c.ID == "timeline") {
			tc = append(tc, c)
		}
	}
	if len(tc) > 0 {
		w.printf(`<div class="ks-charts">`)
		for i, c := range tc {
			w.printf(`<figure class="ks-chart ks-wide">%s<figcaption>%s</figcaption></figure>`, inlineSVG(c.SVG, fmt.Sprintf("%s-t%d", w.id, i)), esc(c.Title))
		}
		w.printf(`</div><div class="ks-legend ks-dim">`)
		var names []string
		for k := range chart.StateColors {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			c := chart.StateColors[k]
			w.printf(`<span style="background:#%02x%02x%02x"></span>%s `, c.R, c.G, c.B, esc(k))
		}
		w.printf(`</div>`)
	}
	w.end()
}

func (w *htmlWriter) trace(rep *report.Report) error {
	if rep.Trace == nil || len(rep.Trace.Steps) == 0 {
		w.section("trace", "Trace · no steps recorded", false)
		w.printf(`<p class="ks-dim">No steps were recorded (see %%trace).</p>`)
		w.end()
		return nil
	}
	w.section("trace", fmt.Sprintf("Trace · %s recorded steps of block %d, warps %s: step through them beside the code", group(int64(len(rep.Trace.Steps))), rep.Trace.Block, intsText(rep.Trace.Warps)), false)
	tr, cut := embeddedTrace(rep.Trace)
	data, err := json.Marshal(tr)
	if err != nil {
		return fmt.Errorf("encoding the trace: %w", err)
	}
	if cut {
		w.printf(`<p class="ks-dim">The first %s of the %s recorded steps are embedded (a cell's output stays under its size budget); %%trace warps=N (one warp) or a smaller %%trace steps=N records fewer.</p>`,
			group(int64(len(tr.Steps))), group(int64(len(rep.Trace.Steps))))
	}
	w.printf(`<div class="ks-widget" data-steps="%d">`, len(tr.Steps))
	w.printf(`<div class="ks-controls"><button class="ks-first" title="first step (Home)">|&lt;</button><button class="ks-prev" title="step back (←)">&lt;</button><button class="ks-play" title="play / pause (space)">play</button><button class="ks-next" title="step forward (→)">&gt;</button><button class="ks-last" title="last step (End)">&gt;|</button> step <input class="ks-step" type="number" min="1" value="1"> of %d · next at PTX line <input class="ks-goline" type="number" min="1" placeholder="line"> <span class="ks-dim">· block %d, warps %s</span>`,
		len(tr.Steps), rep.Trace.Block, esc(intsText(rep.Trace.Warps)))
	if rep.Trace.Truncated {
		w.printf(` <span class="ks-dim">(recording stopped at the step limit)</span>`)
	}
	w.printf(` <button class="ks-atline" disabled title="click a CUDA or PTX line in the Source section, then jump to the next recorded step at it">next step at a clicked line</button></div><div class="ks-stepview"><p class="ks-dim">The steps are drawn by the report's script, which runs once the notebook is trusted (File ▸ Trust Notebook in classic Notebook; JupyterLab asks when the notebook opens) and in an HTML export.</p></div></div>`)
	// JSON inside a script element: escape "</" so the data cannot close it.
	w.printf(`<script type="application/json" class="ks-trace-data">%s</script>`, strings.ReplaceAll(string(data), "</", `<\/`))
	w.end()
	return nil
}

// traceBudget is the most bytes of trace JSON one report embeds.
const traceBudget = 40 << 10

// embeddedTrace is the trace as the widget embeds it: its first steps, up to
// traceBudget bytes of JSON; cut says whether steps were left out.
func embeddedTrace(t *report.Trace) (*report.Trace, bool) {
	size := 0
	for i := range t.Steps {
		b, err := json.Marshal(&t.Steps[i])
		if err != nil {
			break
		}
		size += len(b) + 1
		if size > traceBudget {
			c := *t
			c.Steps = t.Steps[:i]
			return &c, true
		}
	}
	return t, false
}

func intsText(v []int) string {
	var s []string
	for _, x := range v {
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, ",")
}

func (w *htmlWriter) outputs(rep *report.Report) {
	w.section("outputs", outputsHeadline(rep), false)
	if rep.Stdout != "" {
		w.printf(`<div class="ks-colhead">printf output</div><pre class="ks-code ks-stdout">%s</pre>`, esc(rep.Stdout))
	}
	if rep.Stderr != "" {
		w.printf(`<div class="ks-colhead">failed device assert (CUDA prints this to stderr)</div><pre class="ks-code ks-stdout">%s</pre>`, esc(rep.Stderr))
	}
	if len(rep.Args) > 0 {
		w.printf(`<table class="ks-table"><tr><th>parameter</th><th>type</th><th>value</th><th></th></tr>`)
		for _, a := range rep.Args {
			t := a.Type
			if a.Buffer {
				t += "*"
			}
			auto := ""
			if a.Auto {
				auto = "chosen automatically"
			}
			w.printf(`<tr><td>%s</td><td>%s</td><td><code>%s</code></td><td class="ks-dim">%s</td></tr>`, esc(a.Name), esc(t), esc(a.Init), auto)
		}
		w.printf(`</table>`)
	}
	if len(rep.Outputs) > 0 {
		w.printf(`<table class="ks-table ks-outs"><tr><th>buffer after the launch</th><th>elements</th><th>first elements</th><th>changed</th><th>sum</th><th>FNV-64</th></tr>`)
		for _, o := range rep.Outputs {
			first := o.First
			more := ""
			if len(first) > 8 {
				first, more = first[:8], " …"
			}
			w.printf(`<tr><td>%s</td><td>%s</td><td><code>%s%s</code></td><td>%s</td><td>%g</td><td><code>%s</code></td></tr>`,
				esc(o.Name), group(int64(o.Count)), esc(strings.Join(first, " ")), more, group(int64(o.Changed)), o.Sum, esc(o.Checksum))
		}
		w.printf(`</table>`)
	}
	w.end()
}

// outputsHeadline is the Outputs section's one line: the buffers and what changed.
func outputsHeadline(rep *report.Report) string {
	parts := []string{"Arguments and outputs"}
	for i, o := range rep.Outputs {
		if i == 3 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("%s: %s of %s changed", o.Name, group(int64(o.Changed)), group(int64(o.Count))))
	}
	if rep.Stdout != "" {
		parts = append(parts, fmt.Sprintf("printf: %d line(s)", strings.Count(strings.TrimRight(rep.Stdout, "\n"), "\n")+1))
	}
	if rep.Stderr != "" {
		parts = append(parts, "a failed device assert")
	}
	return strings.Join(parts, " · ")
}

// microseconds writes " (X µs at the architecture's clock)" for kernel cycles, or "" when the clock is unknown.
func microseconds(archName string, cycles int64) string {
	spec, err := arch.Lookup(archName)
	if err != nil || spec.ClockMHz <= 0 {
		return ""
	}
	return fmt.Sprintf(" (kernel %.2f µs at %d MHz)", float64(cycles)/float64(spec.ClockMHz), spec.ClockMHz)
}

// sassLine is one line of a SASS listing with the CUDA line it came from (0 when unknown).
type sassLine struct {
	text     string
	cudaLine int
}

var (
	sassFileLineRE = regexp.MustCompile(`^\s*//## File "([^"]*)", line (\d+)`)
	sassEncodingRE = regexp.MustCompile(`^\s*/\* 0x[0-9a-f]+ \*/\s*$`)
	sassInstRE     = regexp.MustCompile(`^\s*/\*[0-9a-f]{4,}\*/`)
)

// sassLines prepares a listing for the SASS column: nvdisasm's `//## File ..., line N`
// comments give the CUDA line of the instructions after them (and are dropped);
// cuobjdump's encoding-only lines are dropped, and so are the encodings at line ends.
// Lines of other files (headers inlined into the kernel) link to nothing;
// file "" accepts every file.
func sassLines(listing, file string) []sassLine {
	var out []sassLine
	cur := 0
	for _, l := range strings.Split(strings.TrimRight(listing, "\n"), "\n") {
		if m := sassFileLineRE.FindStringSubmatch(l); m != nil {
			cur = 0
			if file == "" || m[1] == file || strings.HasSuffix(m[1], "/"+file) {
				cur, _ = strconv.Atoi(m[2])
			}
			continue
		}
		if sassEncodingRE.MatchString(l) {
			continue
		}
		cl := 0
		if sassInstRE.MatchString(l) {
			cl = cur
			if i := strings.LastIndex(l, "/* 0x"); i > 0 {
				l = strings.TrimRight(l[:i], " ")
			}
		} else if strings.TrimSpace(l) == "" {
			continue
		} else {
			cur = 0
		}
		out = append(out, sassLine{text: l, cudaLine: cl})
	}
	return out
}

// topStalls names the n largest stall reasons of a line ("long_scoreboard 80%, wait 12%").
func topStalls(st map[string]int64, n int) string {
	type kv struct {
		k string
		v int64
	}
	var all []kv
	var total int64
	for k, v := range st {
		all = append(all, kv{k, v})
		total += v
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v > all[j].v || all[i].v == all[j].v && all[i].k < all[j].k })
	var parts []string
	for i := 0; i < len(all) && i < n; i++ {
		parts = append(parts, fmt.Sprintf("%s %.0f%%", all[i].k, 100*float64(all[i].v)/float64(max(total, 1))))
	}
	return strings.Join(parts, ", ")
}
