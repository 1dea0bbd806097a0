// Package hints turns a Report into advice: rules over the measured counters,
// each pinned to the CUDA and PTX line that causes it, with its evidence and
// an estimated gain. Rules never guess: a rule whose data is missing is silent.
package hints

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/report"
)

// Severities, most severe first.
const (
	Critical = "critical"
	Warning  = "warning"
	Info     = "info"
)

// Thresholds of the rules (the seed design's floor).
const (
	conflictCritical    = 8.0  // wavefronts per ideal wavefront
	conflictWarning     = 2.0  //
	sectorsCritical     = 4.0  // sectors per ideal sector: efficiency below 25%
	sectorsWarning      = 1.25 // efficiency below 80%
	divergenceWarning   = 0.40 // fraction of a branch's executions that split the warp
	occupancyCritical   = 25.0 // percent
	occupancyWarning    = 50.0
	minRequestsForRules = 1
)

// Analyze runs every rule over the report. spec gives the SM count for the
// grid-size rules; it may be nil.
func Analyze(rep *report.Report, spec *arch.Spec) []report.Hint {
	var out []report.Hint
	out = append(out, memoryRules(rep)...)
	out = append(out, uniformAndAtomicRules(rep)...)
	out = append(out, divergenceRule(rep)...)
	out = append(out, launchRules(rep, spec)...)
	out = append(out, occupancyRule(rep)...)
	out = append(out, stallRules(rep)...)
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i].Severity) < rank(out[j].Severity) })
	return out
}

func rank(s string) int {
	switch s {
	case Critical:
		return 0
	case Warning:
		return 1
	}
	return 2
}

// memoryRules flags uncoalesced global accesses and shared-memory bank
// conflicts. Instructions of one CUDA line (an unrolled loop, say) are summed
// into one hint on that line.
func memoryRules(rep *report.Report) []report.Hint {
	if rep.Memory == nil {
		return nil
	}
	type group struct {
		row        report.MemInstruction // the first (worst-ordered) instruction
		n          int
		requests   int64
		sectors    int64
		ideal      int64
		wavefronts int64
		idealWaves int64
	}
	var order []string
	groups := map[string]*group{}
	for _, m := range rep.Memory.Instructions {
		if m.Space != "global" && m.Space != "shared" {
			continue
		}
		key := fmt.Sprintf("%s/%s/c%s:%d", m.Space, opWord(m.Op), m.CUDAFile, m.CUDALine) // a header's line 3 is not the cell's
		if m.CUDALine == 0 {
			key = fmt.Sprintf("%s/%s/p%d", m.Space, opWord(m.Op), m.PTXLine)
		}
		g := groups[key]
		if g == nil {
			g = &group{row: m}
			groups[key] = g
			order = append(order, key)
		}
		g.n++
		g.requests += m.Requests
		g.sectors += m.Sectors
		g.ideal += m.IdealSectors
		g.wavefronts += m.Wavefronts
		g.idealWaves += m.IdealWavefronts
	}
	var out []report.Hint
	for _, key := range order {
		g := groups[key]
		m := g.row
		if m.Space == "global" && g.ideal > 0 && g.requests >= minRequestsForRules {
			r := float64(g.sectors) / float64(g.ideal)
			sev := ""
			switch {
			case r >= sectorsCritical:
				sev = Critical
			case r >= sectorsWarning:
				sev = Warning
			}
			if sev != "" {
				out = append(out, report.Hint{
					Severity: sev, Category: "memory", Rule: "uncoalesced-global",
					Message:  fmt.Sprintf("Uncoalesced global %s: each warp request touches %s× the sectors it needs (%.0f%% efficiency). Make consecutive threads access consecutive addresses.", opWord(m.Op), times(r), 100/r),
					Evidence: fmt.Sprintf("%.1f sectors per request, ideal %.1f", float64(g.sectors)/float64(g.requests), float64(g.ideal)/float64(g.requests)),
					Gain:     fmt.Sprintf("up to %s× less memory traffic on this line", times(r)),
					CUDALine: m.CUDALine, PTXLine: m.PTXLine,
				})
			}
		}
		if m.Space == "shared" && g.idealWaves > 0 {
			r := float64(g.wavefronts) / float64(g.idealWaves)
			sev := ""
			switch {
			case r >= conflictCritical:
				sev = Critical
			case r >= conflictWarning:
				sev = Warning
			}
			if sev != "" {
				out = append(out, report.Hint{
					Severity: sev, Category: "memory", Rule: "shared-bank-conflict",
					Message:  fmt.Sprintf("Shared-memory bank conflicts on this %s: %s-way on average. Pad the array (e.g. [32][33]) or change the index so lanes of a warp use different banks.", opWord(m.Op), times(r)),
					Evidence: fmt.Sprintf("%d wavefronts, ideal %d", g.wavefronts, g.idealWaves),
					Gain:     fmt.Sprintf("up to %s× fewer shared-memory wavefronts on this line", times(r)),
					CUDALine: m.CUDALine, PTXLine: m.PTXLine,
				})
			}
		}
	}
	return out
}

func opWord(op string) string {
	switch op {
	case "ld", "load", "ldu":
		return "load"
	case "st", "store":
		return "store"
	case "atom", "red", "atomic", "reduction":
		return "atomic"
	}
	return "access"
}

// divergenceRule flags branches that split their warps often.
func divergenceRule(rep *report.Report) []report.Hint {
	var out []report.Hint
	for _, l := range rep.Lines {
		if l.Branches == 0 || l.DivergentBranches == 0 {
			continue
		}
		f := float64(l.DivergentBranches) / float64(l.Branches)
		if f <= divergenceWarning {
			continue
		}
		// A branch that splits a warp about once per block (if (t == 0) ...)
		// costs next to nothing; flag only branches that keep splitting warps.
		if blocks := rep.Grid[0] * rep.Grid[1] * rep.Grid[2]; blocks > 0 && l.DivergentBranches <= int64(blocks) {
			continue
		}
		out = append(out, report.Hint{
			Severity: Warning, Category: "divergence", Rule: "warp-divergence",
			Message:  fmt.Sprintf("Warp divergence: %.0f%% of this branch's executions split the warp, so both paths run one after the other with lanes idle. Make the condition uniform across a warp (e.g. index by warp, not by thread).", 100*f),
			Evidence: fmt.Sprintf("%d of %d warp-level executions divergent", l.DivergentBranches, l.Branches),
			CUDALine: l.CUDALine, PTXLine: l.PTXLine,
		})
	}
	return out
}

// launchRules check the launch shape against the hardware.
func launchRules(rep *report.Report, spec *arch.Spec) []report.Hint {
	var out []report.Hint
	threads := rep.Block[0] * rep.Block[1] * rep.Block[2]
	if threads > 0 && threads%32 != 0 {
		warps := (threads + 31) / 32
		out = append(out, report.Hint{
			Severity: Warning, Category: "launch", Rule: "block-not-multiple-of-32",
			Message:  fmt.Sprintf("The block has %d threads, not a multiple of 32: its last warp runs with %d of 32 lanes.", threads, threads-(warps-1)*32),
			Evidence: fmt.Sprintf("%d threads in %d warps", threads, warps),
		})
	}
	blocks := rep.Grid[0] * rep.Grid[1] * rep.Grid[2]
	if spec != nil && blocks > 0 && spec.SMs > 0 {
		if blocks < spec.SMs {
			out = append(out, report.Hint{
				Severity: Info, Category: "launch", Rule: "grid-too-small",
				Message:  fmt.Sprintf("The grid has %s for the %d SMs of the reference part (%s): %d SMs stay idle. Real workloads want many blocks per SM.", plural(blocks, "block"), spec.SMs, spec.Part, spec.SMs-blocks),
				Evidence: fmt.Sprintf("%s, %d SMs", plural(blocks, "block"), spec.SMs),
			})
		} else if rep.Occupancy != nil && rep.Occupancy.ActiveBlocksPerSM > 0 {
			wave := spec.SMs * rep.Occupancy.ActiveBlocksPerSM
			waves := float64(blocks) / float64(wave)
			tail := blocks % wave
			if waves > 1 && tail > 0 && float64(tail)/float64(wave) < 0.5 {
				out = append(out, report.Hint{
					Severity: Info, Category: "launch", Rule: "tail-wave",
					Message:  fmt.Sprintf("The grid runs in %.2f waves of %d blocks; the last wave fills only %.0f%% of the GPU.", waves, wave, 100*float64(tail)/float64(wave)),
					Evidence: fmt.Sprintf("%d blocks, %d per wave", blocks, wave),
				})
			}
		}
	}
	if rep.LocalBytes > 0 {
		out = append(out, report.Hint{
			Severity: Warning, Category: "memory", Rule: "local-memory",
			Message:  fmt.Sprintf("The kernel uses %d bytes of local memory per thread (register spills or indexed arrays), which lives in slow off-chip memory.", rep.LocalBytes),
			Evidence: fmt.Sprintf("%d B local per thread", rep.LocalBytes),
		})
	}
	return out
}

// occupancyRule flags low theoretical occupancy with its limiter.
func occupancyRule(rep *report.Report) []report.Hint {
	o := rep.Occupancy
	if o == nil {
		return nil
	}
	sev := ""
	switch {
	case o.OccupancyPct < occupancyCritical:
		sev = Critical
	case o.OccupancyPct < occupancyWarning:
		sev = Warning
	default:
		return nil
	}
	h := report.Hint{
		Severity: sev, Category: "occupancy", Rule: "low-occupancy",
		Message:  fmt.Sprintf("Theoretical occupancy is %.0f%% (%d blocks per SM), limited by %s.", o.OccupancyPct, o.ActiveBlocksPerSM, joinOr(o.LimitingFactors)),
		Evidence: fmt.Sprintf("%d registers/thread, %d B shared/block, block of %d threads", o.RegistersPerThread, o.SharedBytesPerBlock, rep.Block[0]*rep.Block[1]*rep.Block[2]),
	}
	for _, f := range o.LimitingFactors {
		switch f {
		case "registers":
			h.Message += " Fewer registers per thread (__launch_bounds__, simpler code) would let more warps stay resident."
			h.Rule = "register-pressure"
		case "shared_memory":
			h.Message += " Less shared memory per block would let more blocks stay resident."
		case "blocks":
			h.Message += " Small blocks hit the blocks-per-SM limit: use larger blocks."
		}
	}
	return []report.Hint{h}
}

func joinOr(s []string) string {
	switch len(s) {
	case 0:
		return "nothing"
	case 1:
		return s[0]
	}
	out := s[0]
	for _, x := range s[1:] {
		out += " and " + x
	}
	return out
}

// plural formats a count with its noun ("1 block", "4 blocks").
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// times formats a ratio with up to two decimals and no trailing zeros (1.25, 8, 2.5).
func times(r float64) string {
	s := fmt.Sprintf("%.2f", r)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// Shares of the stalled warp-cycles above which a cause dominates.
const (
	memoryStallShare  = 0.5
	barrierStallShare = 0.3
)

// stallRules flag launches whose warps mostly wait on memory or at barriers
// (from the timing model), pinned to the line that stalls most.
func stallRules(rep *report.Report) []report.Hint {
	t := rep.Timing
	if t == nil {
		return nil
	}
	var stalled int64
	for k, v := range t.Stalls {
		if k != "selected" && k != "not_selected" {
			stalled += v
		}
	}
	if stalled == 0 {
		return nil
	}
	worst := report.LineStat{}
	for _, l := range rep.Lines {
		if l.StallCycles > worst.StallCycles {
			worst = l
		}
	}
	var out []report.Hint
	if f := float64(t.Stalls["long_scoreboard"]) / float64(stalled); f > memoryStallShare {
		out = append(out, report.Hint{
			Severity: Info, Category: "latency", Rule: "memory-latency-bound",
			Message:  fmt.Sprintf("Warps spend %.0f%% of their stalled cycles waiting for global or local memory. More independent work per thread (several loads in flight), more resident warps, or fewer bytes per result would hide or cut the latency.", 100*f),
			Evidence: fmt.Sprintf("long_scoreboard %.1f cycles per issued instruction", t.PerIssue["long_scoreboard"]),
			CUDALine: worst.CUDALine, PTXLine: worst.PTXLine,
		})
	}
	if f := float64(t.Stalls["barrier"]) / float64(stalled); f > barrierStallShare {
		out = append(out, report.Hint{
			Severity: Warning, Category: "latency", Rule: "barrier-bound",
			Message:  fmt.Sprintf("Warps spend %.0f%% of their stalled cycles waiting at barriers: the work between __syncthreads() is unbalanced or too short. Fewer barriers (warp-level primitives for the last steps) or more work between them help.", 100*f),
			Evidence: fmt.Sprintf("barrier %.1f cycles per issued instruction", t.PerIssue["barrier"]),
			CUDALine: worst.CUDALine, PTXLine: worst.PTXLine,
		})
	}
	return out
}

// contendedAtomic is the average number of lanes per address above which a
// warp's atomics serialise enough to matter.
const contendedAtomic = 4.0

// uniformAndAtomicRules flag global loads in which every lane reads one
// address (constant memory or a value loaded once serves them better) and
// atomics where many lanes of a warp update the same address.
func uniformAndAtomicRules(rep *report.Report) []report.Hint {
	if rep.Memory == nil {
		return nil
	}
	var out []report.Hint
	for _, m := range rep.Memory.Instructions {
		if m.Space == "global" && opWord(m.Op) == "load" && m.Executions > 0 && m.UniformLoads == m.Executions && m.Executions >= 2 {
			out = append(out, report.Hint{
				Severity: Info, Category: "memory", Rule: "uniform-load",
				Message:  "Every lane of the warp loads the same global address here. A __constant__ variable (served by the constant cache as a broadcast), or loading the value once per block into shared memory or a kernel parameter, frees the load path.",
				Evidence: fmt.Sprintf("%d of %d executions read a single address", m.UniformLoads, m.Executions),
				CUDALine: m.CUDALine, PTXLine: m.PTXLine,
			})
		}
		if opWord(m.Op) == "atomic" && m.AtomicAddresses > 0 {
			r := float64(m.AtomicLanes) / float64(m.AtomicAddresses)
			if r >= contendedAtomic {
				out = append(out, report.Hint{
					Severity: Warning, Category: "memory", Rule: "contended-atomic",
					Message:  fmt.Sprintf("Contended atomics: on average %s lanes of a warp update the same %s address, and their updates are serialised. Aggregate within the warp first (e.g. __reduce_add_sync or a shared-memory histogram), then update once per warp or block.", times(r), m.Space),
					Evidence: fmt.Sprintf("%d lane updates on %d distinct addresses", m.AtomicLanes, m.AtomicAddresses),
					CUDALine: m.CUDALine, PTXLine: m.PTXLine,
				})
			}
		}
	}
	return out
}
