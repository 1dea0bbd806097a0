package hints

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/report"
)

// How a gain is estimated (the report says the same under its hints):
//
//	gain = kernel cycles × (warp-cycles removed) / (all warp-cycles)
//
// where a line's warp-cycles are the timing model's cycles its warps spent
// issuing it (one per warp instruction) or stalled on it, summed over the lines
// of the cause (memory rules: every PTX line of the hinted CUDA lines, since a
// load's latency is charged to the instruction that uses it), and the fix
// removes a fraction of them: 1 − ideal/actual sectors or wavefronts, 1 −
// addresses/lanes for contended atomics, the idle-lane share for divergence.
// It is a first-order estimate from one simulation, not a re-simulation of the
// fixed kernel; rules that name a symptom (latency-bound, occupancy, launch
// shape) carry no estimate. Without the timing model (%timing off) no gain is
// estimated.
const GainMethod = "estimated gain = the timing model's kernel cycles × the share of its warp-cycles (issuing or stalled) spent on the hinted lines × the fraction the fix removes (1 − ideal/actual sectors or wavefronts; the idle-lane share for divergence): a first-order estimate from this run, not a re-simulation"

// warpCycles is one line's issue and stall warp-cycles in the timing model.
func warpCycles(l report.LineStat) float64 { return float64(l.StallCycles + l.WarpExecs) }

// totalWarpCycles sums warpCycles over every line of the launch.
func totalWarpCycles(rep *report.Report) float64 {
	var t float64
	for _, l := range rep.Lines {
		t += warpCycles(l)
	}
	return t
}

// siteWarpCycles sums the warp-cycles of the PTX lines given and of every PTX
// line of the CUDA line (file, line) when line > 0.
func siteWarpCycles(rep *report.Report, file string, line int, ptxLines []int) float64 {
	var t float64
	for _, l := range rep.Lines {
		if line > 0 && l.CUDALine == line && l.CUDAFile == file || line <= 0 && containsInt(ptxLines, l.PTXLine) {
			t += warpCycles(l)
		}
	}
	return t
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// idleWarpCycles is the warp-cycles lost to idle lanes in the code a branch
// controls, each line weighted by its share of idle lanes. The code a forward
// branch controls runs from the branch to its reconvergence, found in the
// counters: the first later line whose executions have as large a share of
// their lanes active as the branch's (if, if-else and early exits alike); a backward branch controls
// its loop body, from its target label.
func idleWarpCycles(rep *report.Report, branches []int) float64 {
	src := strings.Split(rep.PTX, "\n")
	lines := append([]report.LineStat(nil), rep.Lines...)
	sort.Slice(lines, func(i, j int) bool { return lines[i].PTXLine < lines[j].PTXLine })
	var t float64
	counted := map[int]bool{}
	idle := func(l report.LineStat) {
		if l.WarpExecs == 0 || counted[l.PTXLine] {
			return
		}
		counted[l.PTXLine] = true
		if active := float64(l.ThreadExecs) / float64(32*l.WarpExecs); active < 1 {
			t += warpCycles(l) * (1 - active)
		}
	}
	for _, b := range branches {
		i := sort.Search(len(lines), func(i int) bool { return lines[i].PTXLine >= b })
		if i == len(lines) || lines[i].PTXLine != b {
			continue
		}
		br := lines[i]
		if tl := labelLine(src, braTarget(src, b)); tl > 0 && tl < b {
			for _, l := range lines {
				if l.PTXLine >= tl && l.PTXLine <= b {
					idle(l)
				}
			}
			continue
		}
		full := activeShare(br)
		for _, l := range lines[i+1:] {
			if l.WarpExecs > 0 && activeShare(l) >= full {
				break
			}
			idle(l)
		}
	}
	return t
}

// activeShare is the share of a line's lanes that were active over its executions.
func activeShare(l report.LineStat) float64 {
	if l.WarpExecs == 0 {
		return 0
	}
	return float64(l.ThreadExecs) / float64(32*l.WarpExecs)
}

// braTarget is the label a bra at PTX line n jumps to ("" when the line is no bra).
func braTarget(src []string, n int) string {
	if n < 1 || n > len(src) {
		return ""
	}
	code := strings.SplitN(src[n-1], "//", 2)[0]
	f := strings.Fields(strings.NewReplacer(";", " ", ",", " ").Replace(code))
	for i, w := range f {
		if (w == "bra" || strings.HasPrefix(w, "bra.")) && i+1 < len(f) {
			return f[i+1]
		}
	}
	return ""
}

// labelLine is the 1-based PTX line of label (0 when absent).
func labelLine(src []string, label string) int {
	for n, l := range src {
		if strings.TrimSpace(strings.SplitN(l, "//", 2)[0]) == label+":" {
			return n + 1
		}
	}
	return 0
}

// setGain fills a hint's estimated gain from the warp-cycles its fix removes.
func setGain(rep *report.Report, h *report.Hint, removed float64) {
	t := rep.Timing
	total := totalWarpCycles(rep)
	if t == nil || t.KernelCycles <= 0 || total <= 0 {
		h.Gain = "gain not estimated (the timing model did not run)"
		return
	}
	g := int64(math.Round(float64(t.KernelCycles) * math.Min(removed/total, 1)))
	h.GainCycles = g
	h.GainPct = math.Round(1000*float64(g)/float64(t.KernelCycles)) / 10
	h.Gain = fmt.Sprintf("≈ %s of the kernel's %s cycles (%.1f%%), estimated from the timing model", group(g), group(t.KernelCycles), h.GainPct)
}

// AttributeInlined gives a CUDA line to the memory rows and line counters of
// instructions inlined from a compiler or system header (clang's atomicAdd is
// __clang_cuda_device_functions.h's line 533 and carries no inlined-at line):
// the CUDA line of the nearest earlier instruction of the same basic block.
// Rows that already have a line, or a user source's file, are left alone.
func AttributeInlined(rep *report.Report) {
	if rep.PTX == "" || len(rep.Lines) == 0 {
		return
	}
	src := strings.Split(rep.PTX, "\n")
	system := systemFiles(src)
	if len(system) == 0 {
		return
	}
	lines := append([]report.LineStat(nil), rep.Lines...)
	sort.Slice(lines, func(i, j int) bool { return lines[i].PTXLine < lines[j].PTXLine })
	resolve := func(ptxLine int) int {
		if !system[locFile(src, ptxLine)] {
			return 0
		}
		i := sort.Search(len(lines), func(i int) bool { return lines[i].PTXLine >= ptxLine })
		for j := i - 1; j >= 0; j-- {
			if blockStartBetween(src, lines[j].PTXLine, ptxLine) {
				return 0
			}
			if lines[j].CUDALine > 0 && lines[j].CUDAFile == "" {
				return lines[j].CUDALine
			}
		}
		return 0
	}
	for i := range rep.Lines {
		if l := &rep.Lines[i]; l.CUDALine == 0 && l.CUDAFile == "" {
			l.CUDALine = resolve(l.PTXLine)
		}
	}
	if rep.Memory != nil {
		for i := range rep.Memory.Instructions {
			if m := &rep.Memory.Instructions[i]; m.CUDALine == 0 && m.CUDAFile == "" {
				m.CUDALine = resolve(m.PTXLine)
			}
		}
	}
}

// systemFiles lists the .file indices whose path is a compiler or system
// header: an absolute path with an include directory in it.
func systemFiles(src []string) map[int]bool {
	out := map[int]bool{}
	for _, l := range src {
		f := strings.Fields(l)
		if len(f) < 3 || f[0] != ".file" {
			continue
		}
		n, err := strconv.Atoi(f[1])
		path := strings.Trim(f[len(f)-1], `"`)
		if err == nil && strings.HasPrefix(path, "/") && strings.Contains(path, "/include/") {
			out[n] = true
		}
	}
	return out
}

// locFile is the .file index of the last .loc before PTX line n (0 when none in its function).
func locFile(src []string, n int) int {
	for i := n - 2; i >= 0 && i < len(src); i-- {
		f := strings.Fields(src[i])
		if len(f) >= 3 && f[0] == ".loc" {
			k, _ := strconv.Atoi(f[1])
			return k
		}
		if strings.HasPrefix(strings.TrimSpace(src[i]), "{") {
			return 0
		}
	}
	return 0
}

// blockStartBetween reports whether a basic-block label ($L__BB...) lies between PTX lines a and b.
func blockStartBetween(src []string, a, b int) bool {
	for i := a; i < b-1 && i < len(src); i++ {
		if strings.HasPrefix(strings.TrimSpace(src[i]), "$L__BB") {
			return true
		}
	}
	return false
}
