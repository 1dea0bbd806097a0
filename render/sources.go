package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/report"
)

// The Source view shows, below the cell's code, each other user source whose
// device code ran (rep.Sources: local headers, kept definitions), with the same
// per-line counters. Lines are linked by their data-cl value: the line number for
// the main source, "sN:L" for line L of rep.Sources[N-1] (report.js matches values
// as strings, so the two never meet).

// cudaKey is the data-cl value of line of file ("" for the main source); "0"
// (nothing to link) for a file the report does not show.
func cudaKey(rep *report.Report, file string, line int) string {
	if file == "" {
		return strconv.Itoa(line)
	}
	i := rep.SourceIndex(file)
	if i < 0 || line <= 0 {
		return "0"
	}
	return "s" + strconv.Itoa(i+1) + ":" + strconv.Itoa(line)
}

// otherCUDAKeys maps PTX lines whose CUDA line is in another source to its data-cl value.
func otherCUDAKeys(rep *report.Report) map[int]string {
	m := map[int]string{}
	for _, l := range rep.Lines {
		if l.CUDAFile != "" && l.CUDALine > 0 {
			m[l.PTXLine] = cudaKey(rep, l.CUDAFile, l.CUDALine)
		}
	}
	return m
}

// lineLink is a link to a CUDA line named as the user knows it ("line 12",
// "vec.cuh:12", "definition helpers line 3").
func lineLink(rep *report.Report, file string, line int) string {
	return fmt.Sprintf(`<a class="ks-link" data-cl="%s">%s</a>`, esc(cudaKey(rep, file, line)), esc(report.SourceLabel(file, line)))
}

// sourceLineStat sums the counters of one CUDA line over its PTX lines.
type sourceLineStat struct {
	threadExecs, divergent, requests, sectors, idealSectors, wavefronts, idealWaves, stalls int64
}

func (s sourceLineStat) title() string {
	t := group(s.threadExecs) + " thread executions"
	if s.divergent > 0 {
		t += fmt.Sprintf(", %d divergent branches", s.divergent)
	}
	if s.requests > 0 {
		t += fmt.Sprintf(", %.1f sectors/request (ideal %.1f)", float64(s.sectors)/float64(s.requests), float64(s.idealSectors)/float64(s.requests))
	}
	if s.wavefronts > 0 {
		t += fmt.Sprintf(", %d wavefronts (ideal %d)", s.wavefronts, s.idealWaves)
	}
	if s.stalls > 0 {
		t += fmt.Sprintf(", %s stalled warp-cycles", group(s.stalls))
	}
	return t
}

// includedSources writes each other source that ran as a collapsible block
// headed by its name, its lines with their counters and links to the PTX lines.
// mainMax is the largest execution count of a line of the cell, so the bars of
// all sources share one scale.
func (w *htmlWriter) includedSources(rep *report.Report, mainMax int64) {
	if len(rep.Sources) == 0 {
		return
	}
	stats := make([]map[int]*sourceLineStat, len(rep.Sources))
	maxExec := mainMax
	for _, l := range rep.Lines {
		i := rep.SourceIndex(l.CUDAFile)
		if l.CUDAFile == "" || i < 0 || l.CUDALine <= 0 {
			continue
		}
		if stats[i] == nil {
			stats[i] = map[int]*sourceLineStat{}
		}
		s := stats[i][l.CUDALine]
		if s == nil {
			s = &sourceLineStat{}
			stats[i][l.CUDALine] = s
		}
		s.threadExecs += l.ThreadExecs
		s.divergent += l.DivergentBranches
		s.requests += l.Requests
		s.sectors += l.Sectors
		s.idealSectors += l.IdealSectors
		s.wavefronts += l.Wavefronts
		s.idealWaves += l.IdealWavefronts
		s.stalls += l.StallCycles
		maxExec = max(maxExec, s.threadExecs)
	}
	bug := map[string]bool{} // lines the correctness findings name
	for _, f := range rep.Sanitizer {
		if f.CUDAFile != "" {
			bug[cudaKey(rep, f.CUDAFile, f.CUDALine)] = true
		}
		if f.OtherCUDAFile != "" {
			bug[cudaKey(rep, f.OtherCUDAFile, f.OtherCUDALine)] = true
		}
	}
	for i, src := range rep.Sources {
		var total int64
		for _, s := range stats[i] {
			total += s.threadExecs
		}
		what := "included header"
		name := src.File
		if strings.HasPrefix(src.File, report.DefinitionPrefix) {
			what, name = "kept definition (%%cuda_define)", strings.TrimPrefix(src.File, report.DefinitionPrefix)
		}
		w.printf(`<details class="ks-incl" data-file="%s" open><summary class="ks-inclhead">%s <span class="ks-dim">· %s · %s thread executions</span></summary><pre class="ks-code">`,
			esc(src.File), esc(name), esc(what), group(total))
		for j, line := range strings.Split(strings.TrimRight(src.Text, "\n"), "\n") {
			n := j + 1
			cls := "ks-ln"
			var s sourceLineStat
			if p := stats[i][n]; p != nil {
				s = *p
				if s.divergent > 0 || s.sectors > s.idealSectors || s.wavefronts > s.idealWaves {
					cls += " ks-warn"
				}
			}
			if bug["s"+strconv.Itoa(i+1)+":"+strconv.Itoa(n)] {
				cls += " ks-bug"
			}
			title := ""
			if s.threadExecs > 0 || stats[i][n] != nil {
				title = s.title()
			}
			w.printf(`<div class="%s" data-cl="s%d:%d"><span class="ks-no">%d</span>%s<span class="ks-src">%s</span></div>`,
				cls, i+1, n, n, heat(s.threadExecs, maxExec, title), esc(line))
		}
		w.printf(`</pre></details>`)
	}
}
