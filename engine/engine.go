// Package engine runs notebook cells: it parses the cell language, runs the
// analysis pipeline and renders the answer. It implements kernel.Engine and
// is the only place where the Jupyter kernel meets the GPU model.
package engine

import (
	"context"
	"errors"
	"fmt"
	"github.com/kernelscope/kernelscope/gpu/report"
	"html"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/sim"
	"github.com/kernelscope/kernelscope/gpu/toolchain"
	"github.com/kernelscope/kernelscope/kernel"
	"github.com/kernelscope/kernelscope/magics"
	"github.com/kernelscope/kernelscope/render"
	"github.com/kernelscope/kernelscope/samples"
)

// Engine holds one notebook session's state: the cell-language defaults and
// the reports kept for %compare.
type Engine struct {
	mu      sync.Mutex
	state   *magics.State
	reports []*report.Report          // most recent last
	named   map[string]*report.Report // %name
	defs    []definition              // %%cuda_define, in order (multifile.go)
	log     *slog.Logger
	baseDir string

	progressAfter time.Duration    // how long a launch runs before its progress display; 0 at once, <0 never
	progressEvery time.Duration    // how often that display is refreshed
	compiled      *toolchain.Cache // recent compilations: a cell run again is not compiled again
	caches        *mem.CachePool   // the cache models' arrays, reused by the next launch
	shadows       *sim.ShadowPool  // the race checker's global shadow, reused by the next launch
}

// Option changes one of an Engine's defaults.
type Option func(*Engine)

// WithProgress sets how long a launch runs before it gets a progress display (0: at once,
// negative: never) and how often the display is refreshed; the defaults are 500 ms and 250 ms.
func WithProgress(after, every time.Duration) Option {
	return func(e *Engine) {
		e.progressAfter = after
		if every > 0 {
			e.progressEvery = every
		}
	}
}

// New returns an engine; baseDir is where file("x.bin") initialisers are read.
func New(baseDir string, log *slog.Logger, opts ...Option) *Engine {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	e := &Engine{state: magics.NewState(), named: map[string]*report.Report{}, log: log, baseDir: baseDir,
		progressAfter: 500 * time.Millisecond, progressEvery: 250 * time.Millisecond, compiled: toolchain.NewCache(0), caches: &mem.CachePool{}, shadows: &sim.ShadowPool{}}
	for _, o := range opts {
		o(e)
	}
	return e
}

// cellError is a failed cell as Jupyter shows it.
type cellError struct {
	name string
	msg  string
}

func (e *cellError) Error() string     { return e.msg }
func (e *cellError) ErrorName() string { return e.name }

// Execute runs one cell.
func (e *Engine) Execute(ctx context.Context, req kernel.ExecuteRequest, out kernel.Publisher) error {
	e.mu.Lock()
	spec, err := e.state.Parse(req.Code)
	e.mu.Unlock()
	if err != nil {
		return &cellError{name: "MagicError", msg: err.Error()}
	}
	pub := publisher{out: out, silent: req.Silent}
	switch {
	case spec.Help:
		return pub.display(map[string]any{render.MIMEHTML: magics.HelpHTML(), render.MIMEText: magics.HelpText()}, "")
	case spec.LsMagic:
		names := magics.Names()
		return pub.display(map[string]any{render.MIMEText: "Available magics: " + strings.Join(names, " ")}, "")
	case spec.ListSamples:
		return pub.display(samplesBundle(), "")
	case spec.Compared:
		return e.compare(spec, pub)
	case spec.WriteFile != nil:
		return e.writeFile(spec.WriteFile, pub)
	case spec.Define != "":
		return e.define(ctx, spec, pub)
	case len(spec.Undefine) > 0:
		return e.undefine(spec.Undefine, pub)
	case spec.ListDefines:
		return e.listDefines(pub)
	}
	if spec.Kind == magics.Config && spec.Sample == "" {
		return pub.display(map[string]any{render.MIMEText: "defaults updated: " + describeDefaults(spec)}, "")
	}
	if isProgramCell(spec) { // a whole program (program.go)
		return e.runProgram(ctx, spec, req, out, pub)
	}
	areq := analysis.Request{
		Source: []byte(spec.Source), SourceFile: "cell.cu", IsPTX: spec.Kind == magics.PTX, Cell: true,
		Arch: spec.Arch, Compiler: spec.Compiler, Flags: spec.Flags, Launch: spec.Launch,
		Grid: spec.Grid, Block: spec.Block, Budget: spec.Budget, Timing: spec.Timing, TimingWaves: analysis.TimingWaves(spec.TimingAll), TimedCaches: spec.TimingCaches, SASSIssues: !spec.TimingPTX, TimingPath: spec.TimingPath, Trace: spec.Trace,
		BaseDir: e.baseDir, Name: spec.Name, Sandbox: e.state.Sandbox(),
		Expect: spec.Expect,
	}
	if c, err := analysis.ParseChecks(strings.Join(append([]string{"off"}, spec.Checks...), ",")); err == nil {
		areq.Checks = c
	}
	if areq.IsPTX {
		areq.SourceFile = "cell.ptx"
	}
	areq.CompileCache = e.compiled
	areq.CachePool = e.caches
	areq.ShadowPool = e.shadows
	var defsNote string
	if !areq.IsPTX && spec.Sample == "" {
		e.mu.Lock()
		src, used, unused := withDefinitions(e.defs, spec.Source, areq.SourceFile)
		areq.ExtraSources = definitionTexts(e.defs)
		e.mu.Unlock()
		if len(used)+len(unused) > 0 {
			defsNote = definitionsNote(used, unused)
			if areq.Launch != nil && areq.Launch.TemplateArgs != "" {
				// The pipeline tells the instantiation line it appends by its line
				// number being past the source's lines; number it so with the
				// definitions above.
				src += "\n#line 2000000000 " + strconv.Quote(areq.SourceFile) + "\n"
			}
		}
		areq.Source = []byte(src)
	}
	if spec.Sample != "" {
		s, ok := samples.Get(spec.Sample)
		if !ok {
			return &cellError{name: "MagicError", msg: fmt.Sprintf("%%sample: no sample named %q (samples: %s)", spec.Sample, strings.Join(sampleNames(), ", "))}
		}
		areq.Source = []byte(s.CUDA)
		areq.SourceFile = s.Name + ".cu"
		areq.IsPTX = false
		if len(toolchain.Available()) == 0 {
			areq.Prebuilt = s.PTX
		}
		if areq.Launch == nil && s.Launch != "" {
			l, err := magics.ParseLaunch(s.Launch)
			if err != nil {
				return &cellError{name: "MagicError", msg: fmt.Sprintf("sample %s: %v", s.Name, err)}
			}
			areq.Launch = l
		}
		if areq.Grid == [3]int{} {
			areq.Grid = s.Grid
		}
		if areq.Block == [3]int{} {
			areq.Block = s.Block
		}
	}

	// Progress: a launch still running after progressAfter (half a second) gets a
	// progress display, refreshed every progressEvery (a quarter second) and
	// replaced by the report.
	displayID := uuid.NewString()
	var (
		progMu sync.Mutex
		latest analysis.Progress
	)
	start := time.Now()
	areq.Progress = func(p analysis.Progress) {
		progMu.Lock()
		latest = p
		progMu.Unlock()
	}
	done := make(chan struct{})
	shownCh := make(chan bool, 1)
	go func() {
		shown := false
		defer func() { shownCh <- shown }()
		if e.progressAfter < 0 {
			return
		}
		if e.progressAfter > 0 {
			wait := time.NewTimer(e.progressAfter)
			defer wait.Stop()
			select {
			case <-done:
				return
			case <-wait.C:
			}
		}
		tick := time.NewTicker(e.progressEvery)
		defer tick.Stop()
		for {
			progMu.Lock()
			p := latest
			progMu.Unlock()
			p.Elapsed = time.Since(start)
			if !shown {
				shown = pub.display(progressBundle(p), displayID) == nil
			} else {
				_ = pub.update(progressBundle(p), displayID)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	rep, runErr := analysis.Run(ctx, areq)
	close(done)
	if defsNote != "" {
		renameDefinitions(rep, runErr)
	}
	wasShown := <-shownCh
	if rep != nil && rep.Stdout != "" && !req.Silent {
		// Device printf output goes where a program's output goes in Jupyter.
		_ = out.Stream("stdout", rep.Stdout)
	}
	if rep != nil && rep.Stderr != "" && !req.Silent {
		_ = out.Stream("stderr", rep.Stderr) // a failed device assert, where CUDA prints it
	}
	if rep != nil && (runErr == nil || rep.PTX != "") {
		rep.Name = spec.Name
		if defsNote != "" {
			rep.Notes = append(rep.Notes, defsNote)
		}
		if spec.Sample == "" && rep.Source != "" {
			// Show the cell as written, magics included (line numbers are the same).
			rep.Source = req.Code
		}
		capSource(rep)
		bundle, err := render.Bundle(rep, render.Options{Show: spec.Show, Requested: spec.Requested})
		if err != nil {
			return fmt.Errorf("rendering the report: %w", err)
		}
		if wasShown {
			err = pub.update(bundle, displayID)
		} else {
			err = pub.display(bundle, displayID)
		}
		if err != nil {
			e.log.Warn("publishing the report", "err", err)
		}
		if runErr == nil {
			e.keep(compareSummary(rep))
		}
	} else if wasShown {
		_ = pub.update(map[string]any{render.MIMEText: "the launch did not complete (see the error below)"}, displayID)
	}
	if runErr != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var f *analysis.Failure
		if errors.As(runErr, &f) {
			return f
		}
		return runErr
	}
	return nil
}

// maxReportSource is the most bytes of a cell's source the report quotes: a 10 MB
// cell would otherwise be quoted in the JSON report and again, marked up, in the HTML
// Source view (about 60 MB in one message).
const maxReportSource = 256 << 10

// capSource cuts rep.Source to the whole lines that fit in maxReportSource and says so
// in the report's notes.
func capSource(rep *report.Report) {
	src := rep.Source
	if len(src) <= maxReportSource {
		return
	}
	cut := strings.LastIndexByte(src[:maxReportSource], '\n') + 1
	if cut == 0 { // one enormous line
		cut = maxReportSource
		for cut > 0 && !utf8.RuneStart(src[cut]) {
			cut--
		}
	}
	lines := strings.Count(src[:cut], "\n")
	rep.Source = src[:cut]
	rep.Notes = append(rep.Notes, fmt.Sprintf("the cell is %d bytes (%d lines); the report quotes its first %d lines (%d KiB)",
		len(src), strings.Count(src, "\n")+1, lines, cut>>10))
}

// compareSummary is the part of a report %compare reads (render.Compare: name,
// kernel, stats, memory counters, occupancy, hints), so the kept reports do not hold
// traces, timelines, buffers, sources or PTX after their cell.
func compareSummary(rep *report.Report) *report.Report {
	s := &report.Report{
		Kernel: rep.Kernel, Arch: rep.Arch, Grid: rep.Grid, Block: rep.Block, Toolchain: rep.Toolchain,
		Stats: rep.Stats, Hints: append([]report.Hint(nil), rep.Hints...), Errors: append([]report.Error(nil), rep.Errors...),
		Name: rep.Name, SourceFile: rep.SourceFile, Registers: rep.Registers, SharedStatic: rep.SharedStatic,
		SharedDynamic: rep.SharedDynamic, LocalBytes: rep.LocalBytes, Simulated: rep.Simulated,
	}
	if rep.Memory != nil {
		m := *rep.Memory
		m.Instructions = nil
		s.Memory = &m
	}
	if rep.Occupancy != nil {
		o := *rep.Occupancy
		o.Charts = nil
		s.Occupancy = &o
	}
	if rep.Timing != nil {
		t := *rep.Timing
		t.Timelines = nil
		s.Timing = &t
	}
	return s
}

// keep remembers a report for %compare.
func (e *Engine) keep(rep *report.Report) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reports = append(e.reports, rep)
	if len(e.reports) > 8 {
		e.reports = e.reports[len(e.reports)-8:]
	}
	if rep.Name != "" {
		e.named[rep.Name] = rep
	}
}

// publisher drops everything for silent cells.
type publisher struct {
	out    kernel.Publisher
	silent bool
}

func (p publisher) display(b map[string]any, id string) error {
	if p.silent {
		return nil
	}
	return p.out.Display(b, map[string]any{}, id)
}

func (p publisher) update(b map[string]any, id string) error {
	if p.silent {
		return nil
	}
	return p.out.UpdateDisplay(b, map[string]any{}, id)
}

func progressBundle(p analysis.Progress) map[string]any {
	pct := 0.0
	if p.BlocksTotal > 0 {
		pct = 100 * float64(p.BlocksDone) / float64(p.BlocksTotal)
	}
	text := fmt.Sprintf("simulating: %.0f%% of blocks (%d/%d), %d thread-instructions, %.1fs",
		pct, p.BlocksDone, p.BlocksTotal, p.ThreadInstructions, p.Elapsed.Seconds())
	if p.BlocksTotal == 0 {
		text = fmt.Sprintf("simulating: %.1fs (no block has finished yet)", p.Elapsed.Seconds())
	}
	h := fmt.Sprintf(`<div style="font-family:sans-serif;font-size:13px"><progress max="100" value="%.0f" style="width:240px"></progress> %s</div>`, pct, html.EscapeString(text))
	return map[string]any{render.MIMEText: text, render.MIMEHTML: h}
}

func describeDefaults(s *magics.Spec) string {
	parts := []string{"arch " + s.Arch}
	if s.Grid != [3]int{} {
		parts = append(parts, fmt.Sprintf("grid %v", s.Grid))
	}
	if s.Block != [3]int{} {
		parts = append(parts, fmt.Sprintf("block %v", s.Block))
	}
	if s.Compiler != "" {
		parts = append(parts, "compiler "+s.Compiler)
	}
	return strings.Join(parts, ", ")
}

func sampleNames() []string {
	var n []string
	for _, s := range samples.List() {
		n = append(n, s.Name)
	}
	return n
}

func samplesBundle() map[string]any {
	var t, h strings.Builder
	h.WriteString(`<table><tr><th>sample</th><th>what it shows</th></tr>`)
	for _, s := range samples.List() {
		fmt.Fprintf(&t, "%-22s %s\n", s.Name, s.Title)
		fmt.Fprintf(&h, "<tr><td><code>%%sample %s</code></td><td>%s</td></tr>", html.EscapeString(s.Name), html.EscapeString(s.Title))
	}
	h.WriteString("</table>")
	return map[string]any{render.MIMEText: t.String(), render.MIMEHTML: h.String()}
}

// The kernel speaks byte offsets; the magics package counts code points.

// codePoints converts a byte offset in code to a code-point offset.
func codePoints(code string, b int) int {
	b = min(max(b, 0), len(code))
	return utf8.RuneCountInString(code[:b])
}

// byteOffset converts a code-point offset in code to a byte offset.
func byteOffset(code string, cp int) int {
	n := 0
	for i := range code {
		if n == cp {
			return i
		}
		n++
	}
	return len(code)
}

// Complete completes magics, arch names, kernel names, CUDA words and PTX opcodes;
// cursor and the returned range are byte offsets.
func (e *Engine) Complete(code string, cursor int) ([]string, int, int) {
	m, start, end := magics.CompleteEnv(code, codePoints(code, cursor), e.env(code))
	return m, byteOffset(code, start), byteOffset(code, end)
}

// Inspect documents the word at the cursor (a byte offset).
func (e *Engine) Inspect(code string, cursor, detail int) (map[string]any, bool) {
	text, h, ok := magics.InspectEnv(code, codePoints(code, cursor), e.env(code))
	if !ok {
		return nil, false
	}
	return map[string]any{render.MIMEText: text, render.MIMEHTML: h}, true
}

// IsComplete reports whether braces and parentheses are balanced.
func (e *Engine) IsComplete(code string) (string, string) { return magics.IsComplete(code) }

// compare renders %compare: the last two reports, or the named ones in the order given.
func (e *Engine) compare(spec *magics.Spec, pub publisher) error {
	e.mu.Lock()
	var reps []*report.Report
	var missing []string
	switch len(spec.Compare) {
	case 0:
		if len(e.reports) >= 2 {
			reps = []*report.Report{e.reports[len(e.reports)-2], e.reports[len(e.reports)-1]}
		}
	default:
		for _, n := range spec.Compare {
			if r := e.named[n]; r != nil {
				reps = append(reps, r)
			} else {
				missing = append(missing, strconv.Quote(n))
			}
		}
	}
	names := make([]string, 0, len(e.named))
	for n := range e.named {
		names = append(names, n)
	}
	e.mu.Unlock()
	sort.Strings(names)
	if len(missing) > 0 {
		known := strings.Join(names, ", ")
		if known == "" {
			known = "none yet: name a report with %name NAME in its cell"
		}
		return &cellError{name: "MagicError", msg: fmt.Sprintf("%%compare: no report named %s (named reports: %s)", strings.Join(missing, ", "), known)}
	}
	if len(reps) < 2 {
		return &cellError{name: "MagicError", msg: "%compare needs two earlier reports: run two kernels first (or name them with %name and give the names)"}
	}
	if spec.CompareMarkdown {
		return pub.display(render.CompareMarkdown(reps), "")
	}
	return pub.display(render.CompareN(reps), "")
}
