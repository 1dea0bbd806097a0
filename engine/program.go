package engine

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"strings"
	"sync"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/program"
	"github.com/kernelscope/kernelscope/kernel"
	"github.com/kernelscope/kernelscope/magics"
	"github.com/kernelscope/kernelscope/render"
)

// isProgramCell reports whether a CUDA cell is a whole program: it has %program, or
// it defines main and has no %launch (with one, a kernel of the cell is analysed on its own).
func isProgramCell(spec *magics.Spec) bool {
	return spec.Kind == magics.CUDA && spec.Sample == "" && (spec.Program || spec.Launch == nil && program.IsProgram(spec.Source))
}

// streamWriter sends what a program writes to the cell's stream output as it comes.
type streamWriter struct {
	mu   *sync.Mutex
	out  kernel.Publisher
	name string
	skip bool
}

func (w streamWriter) Write(p []byte) (int, error) {
	if w.skip {
		return len(p), nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_ = w.out.Stream(w.name, string(p))
	return len(p), nil
}

// maxProgramReports is the most launch reports a program cell shows (each is a
// whole report; a loop of a thousand launches would otherwise publish a thousand).
const maxProgramReports = 16

// runProgram builds and runs a program cell: its output streams while it runs, then
// one collapsed report per launch and a summary of the device timeline.
func (e *Engine) runProgram(ctx context.Context, spec *magics.Spec, req kernel.ExecuteRequest, out kernel.Publisher, pub publisher) error {
	if e.state.Sandbox() {
		return &cellError{name: "ProgramError", msg: "sandbox mode does not run host programs (a cell with main() runs native code)"}
	}
	p, err := program.Build(ctx, spec.Source, program.Options{File: "cell.cu", Arch: spec.Arch, Flags: spec.Flags, BaseDir: e.baseDir, Cell: true})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &cellError{name: "CompileError", msg: err.Error()}
	}
	defer p.Close()
	checks, err := analysis.ParseChecks(strings.Join(append([]string{"off"}, spec.Checks...), ","))
	if err != nil {
		return &cellError{name: "MagicError", msg: "%check: " + err.Error()}
	}
	var mu sync.Mutex
	res, err := program.Run(ctx, p, program.RunOptions{Checks: checks, LineBuffered: true, Trace: spec.Trace, TraceLaunches: maxProgramReports,
		Stdout: streamWriter{mu: &mu, out: out, name: "stdout", skip: req.Silent},
		Stderr: streamWriter{mu: &mu, out: out, name: "stderr", skip: req.Silent},
		Timing: spec.Timing, NoCaches: !spec.TimingCaches, Budget: spec.Budget, CachePool: e.caches, ShadowPool: e.shadows,
	})
	if err != nil {
		return &cellError{name: "ProgramError", msg: err.Error()}
	}
	for i, l := range res.Launches {
		if i == maxProgramReports {
			_ = pub.display(map[string]any{render.MIMEText: fmt.Sprintf("launches %d to %d: reports not shown (the summary below lists every launch; kernelscope run --json keeps every report)", i+1, len(res.Launches))}, "")
			break
		}
		title := fmt.Sprintf("launch %d: %s<<<%s, %s>>>", l.Index+1, l.Kernel, dims(l.Grid), dims(l.Block))
		if l.Micros > 0 {
			title += fmt.Sprintf(" · %.2f µs modelled", l.Micros)
		}
		if l.Error != "" {
			title += " · " + cudaErrorName(l.Code)
		}
		if l.Report == nil {
			_ = pub.display(map[string]any{render.MIMEText: title + ": " + l.Error}, "")
			continue
		}
		rep := l.Report
		rep.Source = req.Code
		capSource(rep)
		b, err := render.Bundle(rep, render.Options{Show: spec.Show, Requested: spec.Requested})
		if err != nil {
			return fmt.Errorf("rendering launch %d: %w", l.Index+1, err)
		}
		if h, ok := b[render.MIMEHTML].(string); ok {
			b[render.MIMEHTML] = "<details class=\"ks-launch\"><summary>" + template.HTMLEscapeString(title) + "</summary>" + h + "</details>"
		}
		b[render.MIMEText] = title
		if l.Error != "" {
			b[render.MIMEText] = title + "\n" + l.Error
		}
		_ = pub.display(b, "")
	}
	var html bytes.Buffer
	if err := summaryTmpl.Execute(&html, summaryOf(res)); err != nil {
		return fmt.Errorf("rendering the program summary: %w", err)
	}
	_ = pub.display(map[string]any{render.MIMEHTML: html.String(), render.MIMEText: summaryText(res)}, "")
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if res.Message != "" || res.ExitCode != 0 {
		msg := fmt.Sprintf("the program exited with status %d", res.ExitCode)
		if res.Message != "" {
			msg = res.Message + fmt.Sprintf(" (exit status %d)", res.ExitCode)
		}
		return &cellError{name: "ProgramExit", msg: msg}
	}
	return nil
}

func dims(d [3]int) string {
	if d[1] <= 1 && d[2] <= 1 {
		return fmt.Sprint(d[0])
	}
	return fmt.Sprintf("(%d,%d,%d)", d[0], d[1], d[2])
}

// cudaErrorName names the CUDA errors a launch can leave.
func cudaErrorName(code int) string {
	switch code {
	case 700:
		return "cudaErrorIllegalAddress"
	case 716:
		return "cudaErrorMisalignedAddress"
	case 719:
		return "cudaErrorLaunchFailure"
	case 701:
		return "cudaErrorLaunchOutOfResources"
	case 9:
		return "cudaErrorInvalidConfiguration"
	case 1:
		return "cudaErrorInvalidValue"
	}
	return fmt.Sprintf("CUDA error %d", code)
}

type summaryRow struct {
	N                              int
	Kind, Detail, Bytes, Start, Us string
}

type summary struct {
	Rows             []summaryRow
	Launches, Copies int
	KernelUs, CopyUs string
	CopyBytes        int64
	ExitCode         int
	Message          string
}

func summaryOf(res *program.Result) summary {
	s := summary{ExitCode: res.ExitCode, Message: res.Message}
	var us, copyUs float64
	n := 0
	for _, ev := range res.Events {
		if ev.Kind == "malloc" || ev.Kind == "free" {
			continue
		}
		n++
		row := summaryRow{N: n, Kind: ev.Kind, Detail: ev.Detail, Start: fmt.Sprintf("%.2f", ev.StartUs)}
		if ev.Bytes > 0 {
			row.Bytes = fmt.Sprint(ev.Bytes)
		}
		switch ev.Kind {
		case "launch":
			s.Launches++
			us += ev.Micros
			row.Us = fmt.Sprintf("%.2f", ev.Micros)
		case "memcpy", "memset", "symbol":
			s.Copies++
			s.CopyBytes += ev.Bytes
			copyUs += ev.Micros
			row.Us = fmt.Sprintf("%.2f", ev.Micros)
		}
		s.Rows = append(s.Rows, row)
	}
	s.KernelUs = fmt.Sprintf("%.2f", us)
	s.CopyUs = fmt.Sprintf("%.2f", copyUs)
	return s
}

func summaryText(res *program.Result) string {
	s := summaryOf(res)
	var b strings.Builder
	fmt.Fprintf(&b, "program: %d launches (%s µs modelled), %d copies (%d bytes, %s µs modelled from H200 measurements), exit status %d\n", s.Launches, s.KernelUs, s.Copies, s.CopyBytes, s.CopyUs, s.ExitCode)
	for _, r := range s.Rows {
		fmt.Fprintf(&b, "%3d  %-7s %-40s %10s  %s\n", r.N, r.Kind, r.Detail, r.Bytes, r.Us)
	}
	if s.Message != "" {
		b.WriteString(s.Message + "\n")
	}
	return b.String()
}

var summaryTmpl = template.Must(template.New("summary").Parse(`<div class="ks-program"><b>Program</b>: {{.Launches}} launches ({{.KernelUs}} µs modelled kernel time), {{.Copies}} copies ({{.CopyBytes}} bytes, {{.CopyUs}} µs modelled from H200 measurements), exit status {{.ExitCode}}{{if .Message}} — {{.Message}}{{end}}
<table><thead><tr><th>#</th><th>kind</th><th>what</th><th>bytes</th><th>start (µs)</th><th>modelled (µs)</th></tr></thead><tbody>
{{range .Rows}}<tr><td>{{.N}}</td><td>{{.Kind}}</td><td><code>{{.Detail}}</code></td><td>{{.Bytes}}</td><td>{{.Start}}</td><td>{{.Us}}</td></tr>
{{end}}</tbody></table></div>`))
