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

	"github.com/kernelscope/kernelscope/gpu/ptx"
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

// HTML renders the whole report as one self-contained fragment.
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
		w.occupancy(rep, charts)
	}
	if opt.shown("timeline") && rep.Simulated {
		w.timing(rep, charts)
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
		w.section("notes", "Notes", true)
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
	w.printf(`<details class="ks-section ks-%s" data-section="%s"%s><summary>%s</summary><div class="ks-body">`, key, key, o, esc(title))
}

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
				fmt.Fprintf(&b, " (kernel %s + launch %s)", group(t.KernelCycles), group(t.LaunchCycles))
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

func (w *htmlWriter) hints(rep *report.Report) {
	w.section("hints", fmt.Sprintf("Hints (%d)", len(rep.Hints)), true)
	if len(rep.Hints) == 0 {
		w.printf(`<p class="ks-dim">No performance problems found by the rules that ran.</p>`)
	}
	for _, h := range rep.Hints {
		w.printf(`<div class="ks-hint ks-%s"><span class="ks-sev">%s</span> %s`, esc(h.Severity), esc(h.Severity), esc(h.Message))
		if h.Evidence != "" {
			w.printf(` <span class="ks-dim">(%s)</span>`, esc(h.Evidence))
		}
		if h.CUDALine > 0 {
			w.printf(` %s`, lineLink(rep, h.CUDAFile, h.CUDALine))
		} else if h.PTXLine > 0 {
			w.printf(` <a class="ks-link" data-pl="%d">PTX line %d</a>`, h.PTXLine, h.PTXLine)
		}
		w.printf("</div>")
	}
	w.end()
}

// source renders CUDA, PTX and SASS side by side with per-line counters.
func (w *htmlWriter) source(rep *report.Report, opt Options) {
	w.section("source", "Source · PTX", true)
	stat := map[int]report.LineStat{}
	cudaOf := map[int]int{}
	var maxExec int64
	for _, l := range rep.Lines {
		stat[l.PTXLine] = l
		if l.ThreadExecs > maxExec {
			maxExec = l.ThreadExecs
		}
	}
	for pl, cl := range ptxToCUDA(rep) {
		cudaOf[pl] = cl
	}
	cudaExec := map[int]int64{}
	for _, l := range rep.Lines {
		if l.CUDALine > 0 && l.CUDAFile == "" {
			cudaExec[l.CUDALine] += l.ThreadExecs
		}
	}
	otherCUDA := otherCUDAKeys(rep) // PTX lines of included headers and kept definitions (sources.go)
	var maxCUDA int64
	for _, v := range cudaExec {
		maxCUDA = max(maxCUDA, v)
	}
	bugCUDA, bugPTX := findingLines(rep)
	w.printf(`<div class="ks-cols">`)
	if rep.Source != "" && opt.shown("source") {
		w.printf(`<div class="ks-col ks-cuda"><div class="ks-colhead">CUDA · %s</div><pre class="ks-code">`, esc(rep.SourceFile))
		for i, line := range strings.Split(strings.TrimRight(rep.Source, "\n"), "\n") {
			n := i + 1
			w.printf(`<div class="ks-ln%s" data-cl="%d"><span class="ks-no">%d</span>%s<span class="ks-src">%s</span></div>`,
				bugCUDA[n], n, n, heat(cudaExec[n], maxCUDA, fmt.Sprintf("%s thread executions", group(cudaExec[n]))), esc(line))
		}
		w.printf(`</pre>`)
		w.includedSources(rep, maxCUDA)
		w.printf(`</div>`)
	}
	if opt.shown("ptx") {
		w.printf(`<div class="ks-col ks-ptx"><div class="ks-colhead">PTX</div><pre class="ks-code">`)
		lines := strings.Split(strings.TrimRight(rep.PTX, "\n"), "\n")
		for i, line := range lines {
			n := i + 1
			if strings.HasPrefix(strings.TrimSpace(line), ".section") && strings.Contains(line, ".debug") {
				// DWARF sections are long and say nothing to a reader; the JSON report keeps the full PTX.
				w.printf(`<div class="ks-ln ks-dim"><span class="ks-no">%d</span><span class="ks-src">… %d lines of debug sections not shown</span></div>`, n, len(lines)-i)
				break
			}
			s, ok := stat[n]
			title := ""
			var h string
			if ok {
				title = fmt.Sprintf("%s warp / %s thread executions", group(s.WarpExecs), group(s.ThreadExecs))
				if s.WarpExecs > 0 {
					title += fmt.Sprintf(", %.0f%% lanes active", 100*float64(s.ThreadExecs)/float64(32*s.WarpExecs))
				}
				if s.DivergentBranches > 0 {
					title += fmt.Sprintf(", %d divergent branches", s.DivergentBranches)
				}
				if s.Requests > 0 {
					title += fmt.Sprintf(", %.1f sectors/request (ideal %.1f)", float64(s.Sectors)/float64(s.Requests), float64(s.IdealSectors)/float64(s.Requests))
				}
				if s.Wavefronts > 0 {
					title += fmt.Sprintf(", %d wavefronts (ideal %d)", s.Wavefronts, s.IdealWavefronts)
				}
				if s.StallCycles > 0 {
					title += fmt.Sprintf(", %s stalled warp-cycles (%s)", group(s.StallCycles), topStalls(s.Stalls, 3))
				}
				h = heat(s.ThreadExecs, maxExec, title)
			} else {
				h = heat(0, 0, "")
			}
			cl := strconv.Itoa(cudaOf[n])
			if k, ok := otherCUDA[n]; ok {
				cl = k
			}
			cls := "ks-ln"
			if ok && (s.DivergentBranches > 0 || s.Sectors > s.IdealSectors || s.Wavefronts > s.IdealWavefronts) {
				cls += " ks-warn"
			}
			cls += bugPTX[n]
			w.printf(`<div class="%s" data-pl="%d" data-cl="%s"><span class="ks-no">%d</span>%s<span class="ks-src">%s</span></div>`,
				cls, n, esc(cl), n, h, highlightPTX(line))
		}
		w.printf(`</pre></div>`)
	}
	if rep.SASS != "" && opt.shown("sass") {
		w.printf(`<div class="ks-col ks-sass"><div class="ks-colhead">SASS</div><pre class="ks-code">`)
		for _, l := range sassLines(rep.SASS, rep.SourceFile) {
			w.printf(`<div class="ks-ln" data-cl="%d"><span class="ks-src">%s</span></div>`, l.cudaLine, esc(l.text))
		}
		w.printf(`</pre></div>`)
	}
	w.printf(`</div><p class="ks-dim ks-small">Hover or click a line to see its partners. The bar before each line is its share of thread executions; hover it for the counters.</p>`)
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

// highlightPTX colours one PTX line: directives, opcodes (with their manual summary), registers, numbers, comments.
func highlightPTX(line string) string {
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
			fmt.Fprintf(&b, `<span class="ks-dir">%s</span>`, esc(tok))
		case strings.HasSuffix(tok, ":"):
			fmt.Fprintf(&b, `<span class="ks-lbl">%s</span>`, esc(tok))
		case strings.HasPrefix(tok, "@"):
			fmt.Fprintf(&b, `<span class="ks-reg">%s</span>`, esc(tok))
			continue
		case first:
			op := tok
			if i := strings.IndexByte(op, '.'); i >= 0 {
				op = op[:i]
			}
			title := ""
			if d, ok := ptx.OpcodeDoc(op); ok {
				title = d.Summary
			}
			fmt.Fprintf(&b, `<span class="ks-op" title="%s">%s</span>`, esc(title), esc(tok))
		case strings.HasPrefix(tok, "%"):
			fmt.Fprintf(&b, `<span class="ks-reg">%s</span>`, esc(tok))
		case tok[0] >= '0' && tok[0] <= '9' || tok[0] == '-':
			fmt.Fprintf(&b, `<span class="ks-num">%s</span>`, esc(tok))
		default:
			b.WriteString(esc(tok))
		}
		first = false
	}
	if comment != "" {
		fmt.Fprintf(&b, `<span class="ks-com">%s</span>`, esc(comment))
	}
	return b.String()
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
	w.section("memory", "Memory", true)
	w.printf(`<table class="ks-table"><tr><th></th><th>requests</th><th>sectors</th><th>sectors/request</th></tr>`)
	w.printf(`<tr><td>global loads</td><td>%s</td><td>%s</td><td>%s</td></tr>`, group(m.GlobalLoadRequests), group(m.GlobalLoadSectors), ratio(m.GlobalLoadSectors, m.GlobalLoadRequests))
	w.printf(`<tr><td>global stores</td><td>%s</td><td>%s</td><td>%s</td></tr></table>`, group(m.GlobalStoreRequests), group(m.GlobalStoreSectors), ratio(m.GlobalStoreSectors, m.GlobalStoreRequests))
	w.printf(`<table class="ks-table"><tr><th></th><th>wavefronts</th><th>bank conflicts</th></tr>`)
	w.printf(`<tr><td>shared loads</td><td>%s</td><td>%s</td></tr>`, group(m.SharedLoadWavefronts), group(m.SharedLoadBankConflicts))
	w.printf(`<tr><td>shared stores</td><td>%s</td><td>%s</td></tr></table>`, group(m.SharedStoreWavefronts), group(m.SharedStoreBankConflicts))
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

func (w *htmlWriter) occupancy(rep *report.Report, charts []report.Chart) {
	o := rep.Occupancy
	w.section("occupancy", fmt.Sprintf("Occupancy · %.1f%%", o.OccupancyPct), true)
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
		if strings.HasPrefix(c.ID, "occupancy") {
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

func (w *htmlWriter) timing(rep *report.Report, charts []report.Chart) {
	t := rep.Timing
	if t == nil {
		w.section("timeline", "Timing", false)
		w.printf(`<p>The timing model did not run (%%timing off). The counts above are exact functional counts.</p>`)
		w.end()
		return
	}
	w.section("timeline", fmt.Sprintf("Timing · ~%s cycles", group(t.Cycles)), true)
	w.printf(`<p>~%s cycles: %s for the instructions (cycle-level model) + %s of launch overhead (an empty kernel of this grid, measured on the H200). <span class="ks-dim">%s. An estimate: on the golden launches the model is within the error the README gives.</span></p>`,
		group(t.Cycles), group(t.KernelCycles), group(t.LaunchCycles), esc(t.Modelled))
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
		if c.ID == "stalls" || c.ID == "timeline" {
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
	w.section("trace", "Trace", false)
	if rep.Trace == nil || len(rep.Trace.Steps) == 0 {
		w.printf(`<p class="ks-dim">No steps were recorded (see %%trace).</p>`)
		w.end()
		return nil
	}
	data, err := json.Marshal(rep.Trace)
	if err != nil {
		return fmt.Errorf("encoding the trace: %w", err)
	}
	w.printf(`<div class="ks-widget" data-steps="%d">`, len(rep.Trace.Steps))
	w.printf(`<div class="ks-controls"><button class="ks-first" title="first step (Home)">|&lt;</button><button class="ks-prev" title="step back (←)">&lt;</button><button class="ks-play" title="play / pause (space)">play</button><button class="ks-next" title="step forward (→)">&gt;</button><button class="ks-last" title="last step (End)">&gt;|</button> step <input class="ks-step" type="number" min="1" value="1"> of %d · next at PTX line <input class="ks-goline" type="number" min="1" placeholder="line"> <span class="ks-dim">· block %d, warps %s</span>`,
		len(rep.Trace.Steps), rep.Trace.Block, esc(intsText(rep.Trace.Warps)))
	if rep.Trace.Truncated {
		w.printf(` <span class="ks-dim">(recording stopped at the step limit)</span>`)
	}
	w.printf(`</div><div class="ks-stepview"></div></div>`)
	// JSON inside a script element: escape "</" so the data cannot close it.
	w.printf(`<script type="application/json" class="ks-trace-data">%s</script>`, strings.ReplaceAll(string(data), "</", `<\/`))
	w.end()
	return nil
}

func intsText(v []int) string {
	var s []string
	for _, x := range v {
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, ",")
}

func (w *htmlWriter) outputs(rep *report.Report) {
	w.section("outputs", "Arguments and outputs", true)
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
