// Package hints turns a Report into advice: rules over the measured counters,
// each pinned to the CUDA and PTX lines that cause it, with its evidence and
// an estimated gain. Rules never guess: a rule whose data is missing is silent.
//
// One hint per cause: the instructions of every line with the same problem
// (all uncoalesced loads, all divergent branches, ...) are one hint that lists
// the lines. Hints are ranked by their estimated gain (gain.go), then by severity.
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
	idleShareFloor      = 0.05 // share of warp-cycles lost to idle lanes under a branch that splits each warp once, below which it is an idiom
	occupancyCritical   = 25.0 // percent
	occupancyWarning    = 50.0
	minRequestsForRules = 1
)

// Analyze runs every rule over the report, one hint per cause, ranked by
// estimated gain (largest first), then severity. spec gives the SM count for
// the grid-size rules; it may be nil.
func Analyze(rep *report.Report, spec *arch.Spec) []report.Hint {
	var out []report.Hint
	out = append(out, memoryRules(rep)...)
	out = append(out, uniformAndAtomicRules(rep)...)
	out = append(out, divergenceRule(rep)...)
	out = append(out, launchRules(rep, spec)...)
	out = append(out, occupancyRule(rep)...)
	out = append(out, stallRules(rep)...)
	Rank(out)
	return out
}

// Rank orders hints by estimated gain (largest first), then by severity; the order is stable.
func Rank(hs []report.Hint) {
	sort.SliceStable(hs, func(i, j int) bool {
		if hs[i].GainCycles != hs[j].GainCycles {
			return hs[i].GainCycles > hs[j].GainCycles
		}
		return rank(hs[i].Severity) < rank(hs[j].Severity)
	})
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

// site is one CUDA line (or, without one, one PTX line) with the counters of its instructions summed.
type site struct {
	row        report.MemInstruction // the first instruction of the site
	ptxLines   []int
	requests   int64
	sectors    int64
	ideal      int64
	wavefronts int64
	idealWaves int64
	lanes      int64 // atomic lanes
	addresses  int64 // distinct atomic addresses
}

// sites groups the memory instructions that pass keep by CUDA line (a header's
// line 3 is not the cell's), in the order of the memory table.
func sites(rep *report.Report, keep func(m report.MemInstruction) bool) []*site {
	var order []*site
	bykey := map[string]*site{}
	for _, m := range rep.Memory.Instructions {
		if !keep(m) {
			continue
		}
		key := fmt.Sprintf("%s/%s/c%s:%d", m.Space, opWord(m.Op), m.CUDAFile, m.CUDALine)
		if m.CUDALine == 0 {
			key = fmt.Sprintf("%s/%s/p%d", m.Space, opWord(m.Op), m.PTXLine)
		}
		s := bykey[key]
		if s == nil {
			s = &site{row: m}
			bykey[key] = s
			order = append(order, s)
		}
		s.ptxLines = append(s.ptxLines, m.PTXLine)
		s.requests += m.Requests
		s.sectors += m.Sectors
		s.ideal += m.IdealSectors
		s.wavefronts += m.Wavefronts
		s.idealWaves += m.IdealWavefronts
		s.lanes += m.AtomicLanes
		s.addresses += m.AtomicAddresses
	}
	return order
}

// cause collects the sites of one problem into one hint.
type cause struct {
	sev      string
	evidence []string
	lines    []lineRef
	removed  float64 // warp-cycles the fix removes, summed over sites (gain.go)
}

type lineRef struct {
	cuda int
	file string
	ptx  []int
}

func (c *cause) add(sev string, s *site, evidence string, removable float64, rep *report.Report) {
	if rank(sev) < rank(c.sev) || c.sev == "" {
		c.sev = sev
	}
	c.lines = append(c.lines, lineRef{cuda: s.row.CUDALine, file: s.row.CUDAFile, ptx: s.ptxLines})
	c.evidence = append(c.evidence, evidence)
	c.removed += removable * siteWarpCycles(rep, s.row.CUDAFile, s.row.CUDALine, s.ptxLines)
}

// hint makes the cause's one hint; message gets the lines' label ("line 5", "lines 5, 9").
func (c *cause) hint(rep *report.Report, category, rule string, message func(where string) string) report.Hint {
	h := report.Hint{Severity: c.sev, Category: category, Rule: rule}
	var ptxAll []int
	for _, l := range c.lines {
		if l.cuda > 0 {
			h.CUDALines = append(h.CUDALines, l.cuda)
		}
		ptxAll = append(ptxAll, l.ptx...)
	}
	h.PTXLines = ptxAll
	first := c.lines[0]
	h.CUDALine, h.CUDAFile, h.PTXLine = first.cuda, first.file, first.ptx[0]
	h.Message = message(whereText(c.lines))
	h.Evidence = strings.Join(c.evidence, "; ")
	setGain(rep, &h, c.removed)
	if len(h.CUDALines) <= 1 {
		h.CUDALines = nil
	}
	if len(h.PTXLines) <= 1 {
		h.PTXLines = nil
	}
	return h
}

// whereText names the lines of a cause: "CUDA line 12", "CUDA lines 5, 9", "PTX line 80".
func whereText(ls []lineRef) string {
	var cuda, other, ptxs []string
	seen := map[string]bool{}
	for _, l := range ls {
		if l.cuda > 0 {
			k := report.SourceLabel(l.file, l.cuda)
			switch {
			case seen[k]:
			case l.file == "":
				cuda = append(cuda, fmt.Sprint(l.cuda))
			default:
				other = append(other, k) // strided.cuh:4, definition helpers line 3
			}
			seen[k] = true
		} else {
			ptxs = append(ptxs, fmt.Sprint(l.ptx[0]))
		}
	}
	var parts []string
	parts = append(parts, other...)
	if len(cuda) == 1 {
		parts = append(parts, "line "+cuda[0])
	} else if len(cuda) > 1 {
		parts = append(parts, "lines "+strings.Join(cuda, ", "))
	}
	if len(ptxs) == 1 {
		parts = append(parts, "PTX line "+ptxs[0])
	} else if len(ptxs) > 1 {
		parts = append(parts, "PTX lines "+strings.Join(ptxs, ", "))
	}
	return strings.Join(parts, " and ")
}

// at prefixes evidence with its line when the cause has several.
func at(s *site, text string) string {
	if s.row.CUDALine > 0 {
		return report.SourceLabel(s.row.CUDAFile, s.row.CUDALine) + ": " + text
	}
	return fmt.Sprintf("PTX line %d: %s", s.row.PTXLine, text)
}

// memoryRules flag uncoalesced global accesses (one hint for loads, one for
// stores) and shared-memory bank conflicts of loads and stores (atomics: see
// uniformAndAtomicRules; padding does not help lanes that hit one address).
func memoryRules(rep *report.Report) []report.Hint {
	if rep.Memory == nil {
		return nil
	}
	var out []report.Hint
	for _, op := range []string{"load", "store", "atomic"} {
		c := &cause{}
		for _, s := range sites(rep, func(m report.MemInstruction) bool { return m.Space == "global" && opWord(m.Op) == op }) {
			if s.ideal == 0 || s.requests < minRequestsForRules {
				continue
			}
			r := float64(s.sectors) / float64(s.ideal)
			sev := ""
			switch {
			case r >= sectorsCritical:
				sev = Critical
			case r >= sectorsWarning:
				sev = Warning
			}
			if sev == "" {
				continue
			}
			c.add(sev, s, at(s, fmt.Sprintf("%s sectors in %s requests, ideal %s: %.1f sectors per request, ideal %.1f (%s×)",
				group(s.sectors), group(s.requests), group(s.ideal), float64(s.sectors)/float64(s.requests), float64(s.ideal)/float64(s.requests), times(r))), 1-1/r, rep)
		}
		if len(c.lines) == 0 {
			continue
		}
		out = append(out, c.hint(rep, "memory", "uncoalesced-global", func(where string) string {
			return fmt.Sprintf("Uncoalesced global %ss on %s: warp requests touch more 32-byte sectors than the bytes they use need. Make consecutive threads access consecutive addresses (or stage the access through shared memory).", op, where)
		}))
	}
	for _, op := range []string{"load", "store"} {
		c := &cause{}
		for _, s := range sites(rep, func(m report.MemInstruction) bool { return m.Space == "shared" && opWord(m.Op) == op }) {
			if s.idealWaves == 0 {
				continue
			}
			r := float64(s.wavefronts) / float64(s.idealWaves)
			sev := ""
			switch {
			case r >= conflictCritical:
				sev = Critical
			case r >= conflictWarning:
				sev = Warning
			}
			if sev == "" {
				continue
			}
			c.add(sev, s, at(s, fmt.Sprintf("%s wavefronts, ideal %s (%s-way)", group(s.wavefronts), group(s.idealWaves), times(r))), 1-1/r, rep)
		}
		if len(c.lines) == 0 {
			continue
		}
		out = append(out, c.hint(rep, "memory", "shared-bank-conflict", func(where string) string {
			return fmt.Sprintf("Shared-memory bank conflicts on the %ss of %s: lanes of a warp hit different addresses in the same bank, so each request takes several wavefronts. Pad the array's rows (e.g. [32][33] for a 32×32 tile read by columns) or change the index so a warp's lanes use different banks.", op, where)
		}))
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

// divergenceRule flags branches that keep splitting warps: one hint for all of
// them. A branch is grouped with the others of its CUDA line (an unrolled loop
// is one line). Silent on the idioms that cost next to nothing: warp-uniform
// branches (never split), tail guards and single-lane work such as
// `if (lane == 31)` or `if (tid == 0)`: at most one split per warp launched,
// over code whose idle lanes cost under 5% of the warp-cycles (issue slots
// when the timing model is off). A branch that splits each warp once around
// long paths (odd and even lanes doing different loops) is flagged.
func divergenceRule(rep *report.Report) []report.Hint {
	type br struct {
		cuda, branches, divergent int64
		file                      string
		ptx                       []int
	}
	var order []*br
	by := map[string]*br{}
	for _, l := range rep.Lines {
		if l.Branches == 0 || l.DivergentBranches == 0 {
			continue
		}
		key := fmt.Sprintf("c%s:%d", l.CUDAFile, l.CUDALine)
		if l.CUDALine == 0 {
			key = fmt.Sprintf("p%d", l.PTXLine)
		}
		b := by[key]
		if b == nil {
			b = &br{cuda: int64(l.CUDALine), file: l.CUDAFile}
			by[key] = b
			order = append(order, b)
		}
		b.branches += l.Branches
		b.divergent += l.DivergentBranches
		b.ptx = append(b.ptx, l.PTXLine)
	}
	warps := int64(rep.Grid[0]*rep.Grid[1]*rep.Grid[2]) * int64((rep.Block[0]*rep.Block[1]*rep.Block[2]+31)/32)
	total := totalWarpCycles(rep)
	c := &cause{}
	for _, b := range order {
		f := float64(b.divergent) / float64(b.branches)
		if f <= divergenceWarning {
			continue
		}
		idle := idleWarpCycles(rep, b.ptx)
		if warps > 0 && b.divergent <= warps && (total == 0 || idle < idleShareFloor*total) {
			continue // at most one split per warp over little code: a guard or single-lane work
		}
		s := &site{row: report.MemInstruction{CUDALine: int(b.cuda), CUDAFile: b.file, PTXLine: b.ptx[0]}, ptxLines: b.ptx}
		c.lines = append(c.lines, lineRef{cuda: s.row.CUDALine, file: b.file, ptx: b.ptx})
		c.sev = Warning
		c.evidence = append(c.evidence, at(s, fmt.Sprintf("%s of %s warp-level branch executions divergent (%.0f%%), %.1f splits per warp",
			group(b.divergent), group(b.branches), 100*f, float64(b.divergent)/float64(max(warps, 1)))))
		c.removed += idle
	}
	if len(c.lines) == 0 {
		return nil
	}
	return []report.Hint{c.hint(rep, "divergence", "warp-divergence", func(where string) string {
		return fmt.Sprintf("Warp divergence at %s: the branch keeps splitting warps, so lanes sit idle while the other path runs. Make the condition uniform across each warp (e.g. let whole warps take the same side: index by warp, or use sequential addressing in a reduction).", where)
	})}
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

// group formats an integer with thousands separators (as the report's tables do).
func group(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// Shares of the stalled warp-cycles above which a cause dominates.
const (
	memoryStallShare  = 0.5
	barrierStallShare = 0.3
)

// stallRules flag launches whose warps mostly wait on memory or at barriers
// (from the timing model), pinned to the line that stalls most. They name a
// symptom, not a fix, so they carry no estimated gain.
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
// warp's atomics serialise enough to matter (shared atomics: also
// conflictWarning times the ideal wavefronts, same-address or same-bank).
const contendedAtomic = 4.0

// uniformAndAtomicRules flag global loads in which every lane reads one
// address (constant memory or a value loaded once serves them better) and
// atomics where many lanes of a warp update the same address (one hint per
// memory space). A shared atomic's evidence is its wavefronts, the numbers of
// the Memory table's shared-atomics row.
func uniformAndAtomicRules(rep *report.Report) []report.Hint {
	if rep.Memory == nil {
		return nil
	}
	var out []report.Hint
	u := &cause{}
	for _, s := range sites(rep, func(m report.MemInstruction) bool {
		return m.Space == "global" && opWord(m.Op) == "load" && m.Executions >= 2 && m.UniformLoads == m.Executions
	}) {
		u.sev = Info
		u.lines = append(u.lines, lineRef{cuda: s.row.CUDALine, file: s.row.CUDAFile, ptx: s.ptxLines})
		u.evidence = append(u.evidence, at(s, fmt.Sprintf("%d of %d executions read a single address", s.row.UniformLoads, s.row.Executions)))
	}
	if len(u.lines) > 0 {
		out = append(out, u.hint(rep, "memory", "uniform-load", func(where string) string {
			return fmt.Sprintf("Every lane of the warp loads the same global address on %s. A __constant__ variable (served by the constant cache as a broadcast), or loading the value once per block into shared memory or a kernel parameter, frees the load path.", where)
		}))
	}
	for _, space := range []string{"shared", "global"} {
		c := &cause{}
		for _, s := range sites(rep, func(m report.MemInstruction) bool { return m.Space == space && opWord(m.Op) == "atomic" }) {
			if s.addresses == 0 {
				continue
			}
			r := float64(s.lanes) / float64(s.addresses)
			ev := fmt.Sprintf("%s lane updates on %s addresses counted per warp instruction (%s lanes of a warp per address)", group(s.lanes), group(s.addresses), times(r))
			removable := 1 - 1/r
			waves := 0.0
			if space == "shared" && s.idealWaves > 0 {
				// Shared atomics also serialise on addresses in one bank: their wavefronts say it all.
				waves = float64(s.wavefronts) / float64(s.idealWaves)
				ev += fmt.Sprintf(", %s wavefronts, ideal %s (%s×)", group(s.wavefronts), group(s.idealWaves), times(waves))
				removable = 1 - 1/max(waves, 1)
			}
			if r < contendedAtomic && waves < conflictWarning {
				continue
			}
			c.add(Warning, s, at(s, ev), removable, rep)
		}
		if len(c.lines) == 0 {
			continue
		}
		out = append(out, c.hint(rep, "memory", "contended-atomic", func(where string) string {
			if space == "shared" {
				return fmt.Sprintf("Serialised shared atomics on %s: a warp's updates take several wavefronts, because its lanes update the same address or addresses in the same bank (padding does not help lanes that share an address). Aggregate within the warp first (__match_any_sync, __reduce_add_sync) or give each warp its own copy of the counters, then combine once per block.", where)
			}
			return fmt.Sprintf("Contended global atomics on %s: several lanes of a warp update the same address and their updates are serialised. Aggregate within the warp or block first (__reduce_add_sync, a shared-memory copy), then update once per warp or block.", where)
		}))
	}
	return out
}
