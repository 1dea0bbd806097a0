package hints

import (
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/report"
)

func find(hs []report.Hint, rule string) *report.Hint {
	for i := range hs {
		if hs[i].Rule == rule {
			return &hs[i]
		}
	}
	return nil
}

// clean is a report with nothing wrong: every rule must stay silent on it.
func clean() *report.Report {
	return &report.Report{
		Grid: [3]int{264, 1, 1}, Block: [3]int{256, 1, 1},
		Memory: &report.Memory{Instructions: []report.MemInstruction{
			{PTXLine: 10, CUDALine: 3, Space: "global", Op: "ld", WidthBits: 32, Requests: 8, Sectors: 32, IdealSectors: 32},
			{PTXLine: 12, CUDALine: 4, Space: "shared", Op: "ld", WidthBits: 32, Wavefronts: 8, IdealWavefronts: 8},
		}},
		Lines:     []report.LineStat{{PTXLine: 20, CUDALine: 5, Branches: 10, DivergentBranches: 0}},
		Occupancy: &report.Occupancy{ActiveBlocksPerSM: 8, OccupancyPct: 100, LimitingFactors: []string{"warps"}},
	}
}

func TestRulesSilentOnCleanReport(t *testing.T) {
	spec, err := arch.Lookup("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	if hs := Analyze(clean(), spec); len(hs) != 0 {
		t.Fatalf("expected no hints, got %+v", hs)
	}
}

func TestRules(t *testing.T) {
	spec, err := arch.Lookup("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		mutate   func(r *report.Report)
		rule     string
		severity string
		line     int
		evidence string
	}{
		{"uncoalesced", func(r *report.Report) { r.Memory.Instructions[0].Sectors = 256 }, "uncoalesced-global", Critical, 3, "32.0 sectors per request, ideal 4.0"},
		{"mildly uncoalesced", func(r *report.Report) { r.Memory.Instructions[0].Sectors = 40 }, "uncoalesced-global", Warning, 3, "5.0 sectors per request"},
		{"32-way conflict", func(r *report.Report) { r.Memory.Instructions[1].Wavefronts = 256 }, "shared-bank-conflict", Critical, 4, "256 wavefronts, ideal 8"},
		{"2-way conflict", func(r *report.Report) { r.Memory.Instructions[1].Wavefronts = 16 }, "shared-bank-conflict", Warning, 4, "16 wavefronts"},
		{"divergence", func(r *report.Report) { r.Lines[0].Branches, r.Lines[0].DivergentBranches = 10000, 6000 }, "warp-divergence", Warning, 5, "6,000 of 10,000"},
		{"low occupancy", func(r *report.Report) {
			r.Occupancy = &report.Occupancy{ActiveBlocksPerSM: 1, OccupancyPct: 12.5, LimitingFactors: []string{"registers"}}
		}, "register-pressure", Critical, 0, "block of 256 threads"},
		{"medium occupancy", func(r *report.Report) {
			r.Occupancy = &report.Occupancy{ActiveBlocksPerSM: 3, OccupancyPct: 37.5, LimitingFactors: []string{"shared_memory"}}
		}, "low-occupancy", Warning, 0, ""},
		{"odd block", func(r *report.Report) { r.Block = [3]int{100, 1, 1} }, "block-not-multiple-of-32", Warning, 0, "100 threads in 4 warps"},
		{"small grid", func(r *report.Report) { r.Grid = [3]int{4, 1, 1} }, "grid-too-small", Info, 0, "4 blocks"},
		{"tail wave", func(r *report.Report) { r.Grid = [3]int{132*8 + 10, 1, 1} }, "tail-wave", Info, 0, ""},
		{"local memory", func(r *report.Report) { r.LocalBytes = 64 }, "local-memory", Warning, 0, "64 B"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := clean()
			tc.mutate(r)
			hs := Analyze(r, spec)
			h := find(hs, tc.rule)
			if h == nil {
				t.Fatalf("rule %s did not fire: %+v", tc.rule, hs)
			}
			if h.Severity != tc.severity {
				t.Errorf("severity %s, want %s", h.Severity, tc.severity)
			}
			if h.CUDALine != tc.line {
				t.Errorf("CUDA line %d, want %d", h.CUDALine, tc.line)
			}
			if !strings.Contains(h.Evidence, tc.evidence) {
				t.Errorf("evidence %q does not contain %q", h.Evidence, tc.evidence)
			}
			if len(hs) != 1 {
				t.Errorf("expected only %s, got %d hints: %+v", tc.rule, len(hs), hs)
			}
		})
	}
}

// TestUnrolledLineGivesOneHint: the instructions of one CUDA line are summed into one hint.
func TestUnrolledLineGivesOneHint(t *testing.T) {
	r := clean()
	r.Memory.Instructions = nil
	for i := 0; i < 4; i++ {
		r.Memory.Instructions = append(r.Memory.Instructions, report.MemInstruction{
			PTXLine: 80 + i, CUDALine: 14, Space: "shared", Op: "ld", WidthBits: 32, Wavefronts: 1024, IdealWavefronts: 32})
	}
	hs := Analyze(r, nil)
	if len(hs) != 1 || hs[0].CUDALine != 14 || hs[0].Evidence != "line 14: 4,096 wavefronts, ideal 128 (32-way)" || hs[0].Severity != Critical {
		t.Fatalf("want one critical hint on line 14 with summed evidence, got %+v", hs)
	}
}

// TestOneSplitPerWarpIsSilent: a branch that splits each warp at most once
// (a tail guard, if (lane == 31), if (t == 0)) is not worth a hint; one that
// keeps splitting warps is.
func TestOneSplitPerWarpIsSilent(t *testing.T) {
	r := clean() // 264 blocks of 8 warps: 2,112 warps
	r.Lines[0].Branches, r.Lines[0].DivergentBranches = 2112, 2112
	if hs := Analyze(r, nil); len(hs) != 0 {
		t.Fatalf("expected no hints, got %+v", hs)
	}
	r.Lines[0].DivergentBranches, r.Lines[0].Branches = 2113, 2113
	if hs := Analyze(r, nil); len(hs) != 1 {
		t.Fatalf("expected a divergence hint, got %+v", hs)
	}
}

// TestStallRules: memory- and barrier-dominated stalls are named; balanced ones are not.
func TestStallRules(t *testing.T) {
	r := clean()
	r.Lines[0].StallCycles = 900
	r.Timing = &report.Timing{Stalls: map[string]int64{"selected": 100, "long_scoreboard": 700, "wait": 100, "barrier": 100},
		PerIssue: map[string]float64{"long_scoreboard": 7}}
	hs := Analyze(r, nil)
	if len(hs) != 1 || hs[0].Rule != "memory-latency-bound" || hs[0].CUDALine != 5 {
		t.Fatalf("want one memory-latency hint on line 5, got %+v", hs)
	}
	r.Timing.Stalls = map[string]int64{"selected": 100, "long_scoreboard": 300, "wait": 200, "barrier": 500}
	hs = Analyze(r, nil)
	if len(hs) != 1 || hs[0].Rule != "barrier-bound" {
		t.Fatalf("want one barrier hint, got %+v", hs)
	}
	r.Timing.Stalls = map[string]int64{"selected": 100, "long_scoreboard": 300, "wait": 300, "short_scoreboard": 300, "barrier": 100}
	if hs = Analyze(r, nil); len(hs) != 0 {
		t.Fatalf("balanced stalls gave hints: %+v", hs)
	}
}

// TestUniformLoadAndContendedAtomic: both rules fire on their evidence and stay silent otherwise.
func TestUniformLoadAndContendedAtomic(t *testing.T) {
	r := clean()
	r.Memory.Instructions = append(r.Memory.Instructions,
		report.MemInstruction{PTXLine: 30, CUDALine: 8, Space: "global", Op: "ld", Requests: 8, Sectors: 8, IdealSectors: 8, Executions: 8, UniformLoads: 8},
		report.MemInstruction{PTXLine: 31, CUDALine: 9, Space: "global", Op: "red", Requests: 8, Sectors: 8, IdealSectors: 8, Executions: 8, AtomicLanes: 256, AtomicAddresses: 16})
	hs := Analyze(r, nil)
	if len(hs) != 2 || find(hs, "uniform-load") == nil || find(hs, "contended-atomic") == nil || find(hs, "contended-atomic").CUDALine != 9 {
		t.Fatalf("want a uniform-load and a contended-atomic hint, got %+v", hs)
	}
	r.Memory.Instructions[2].UniformLoads = 7 // one execution read different addresses
	r.Memory.Instructions[3].AtomicAddresses = 128
	if hs := Analyze(r, nil); len(hs) != 0 {
		t.Fatalf("want no hints, got %+v", hs)
	}
}

// timed gives the clean report a timing model's figures: 10,000 kernel cycles
// and, for every line it names, warp-cycles (stalls balanced, so the stall rules stay silent).
func timed(r *report.Report, lines ...report.LineStat) *report.Report {
	r.Timing = &report.Timing{KernelCycles: 10000, LaunchCycles: 2000, Cycles: 12000,
		Stalls: map[string]int64{"selected": 1000, "wait": 1000, "short_scoreboard": 1000, "long_scoreboard": 1000}}
	r.Lines = append(r.Lines, lines...)
	return r
}

// TestIdiomsStaySilent: code that is fine gets no hint.
func TestIdiomsStaySilent(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(r *report.Report)
	}{
		// if (lane == 31) sums[warp] = v;  every warp splits once.
		{"single-lane write", func(r *report.Report) { r.Lines[0].Branches, r.Lines[0].DivergentBranches = 2112, 2112 }},
		// if (i < n): only the last warp of the grid splits.
		{"tail guard", func(r *report.Report) { r.Lines[0].Branches, r.Lines[0].DivergentBranches = 2112, 1 }},
		// if (warp == 0): whole warps take one side.
		{"warp-uniform branch", func(r *report.Report) { r.Lines[0].Branches, r.Lines[0].DivergentBranches = 2112, 0 }},
		// A shared histogram whose atomics mostly hit different banks: 1.25 wavefronts per request.
		{"spread histogram atomics", func(r *report.Report) {
			r.Memory.Instructions = append(r.Memory.Instructions, report.MemInstruction{PTXLine: 84, CUDALine: 12, Space: "shared", Op: "atom",
				WidthBits: 32, Wavefronts: 40, IdealWavefronts: 32, Executions: 32, AtomicLanes: 1024, AtomicAddresses: 900})
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := timed(clean())
			tc.mutate(r)
			if hs := Analyze(r, nil); len(hs) != 0 {
				t.Fatalf("expected no hints, got %+v", hs)
			}
		})
	}
}

// TestHistogramAtomicsAreNotBankConflicts: contended shared atomics get one
// contended-atomic hint with the wavefronts of the memory row, never "pad the array".
func TestHistogramAtomicsAreNotBankConflicts(t *testing.T) {
	r := timed(clean(), report.LineStat{PTXLine: 84, CUDALine: 12, WarpExecs: 32, ThreadExecs: 1024, StallCycles: 3000},
		report.LineStat{PTXLine: 90, CUDALine: 14, WarpExecs: 1000, ThreadExecs: 32000, StallCycles: 4000})
	r.Memory.Instructions = append(r.Memory.Instructions, report.MemInstruction{PTXLine: 84, CUDALine: 12, Space: "shared", Op: "atom",
		WidthBits: 32, Wavefronts: 128, IdealWavefronts: 32, Executions: 32, AtomicLanes: 1024, AtomicAddresses: 256})
	hs := Analyze(r, nil)
	if len(hs) != 1 || hs[0].Rule != "contended-atomic" || hs[0].CUDALine != 12 {
		t.Fatalf("want one contended-atomic hint on line 12, got %+v", hs)
	}
	if strings.Contains(hs[0].Message, "[32][33]") || strings.Contains(hs[0].Message, "Pad") {
		t.Errorf("padding advice for atomics: %s", hs[0].Message)
	}
	if !strings.Contains(hs[0].Evidence, "128 wavefronts, ideal 32 (4×)") {
		t.Errorf("evidence %q does not carry the memory row's wavefronts", hs[0].Evidence)
	}
	// 3,032 of 8,032 warp-cycles are on line 12, and 3/4 of its wavefronts go: 10,000 × 3032/8032 × 0.75.
	if hs[0].GainCycles != 2831 {
		t.Errorf("gain %d cycles, want 2831 (%s)", hs[0].GainCycles, hs[0].Gain)
	}
}

// TestPlantedProblemsGiveOneHintWithGain: each planted problem gives exactly
// one hint, with a positive estimated gain that follows the method GainMethod states.
func TestPlantedProblemsGiveOneHintWithGain(t *testing.T) {
	hot := func(ptx, cuda int) report.LineStat {
		return report.LineStat{PTXLine: ptx, CUDALine: cuda, WarpExecs: 100, ThreadExecs: 3200, StallCycles: 1900}
	}
	tests := []struct {
		name   string
		mutate func(r *report.Report)
		rule   string
		want   int64 // expected gain in cycles
	}{
		// line 3: 2,000 of 4,000 warp-cycles (clean line 5 has none), 32 sectors where 4 would do: 10,000 × 0.5 × 7/8.
		{"strided load", func(r *report.Report) { r.Memory.Instructions[0].Sectors = 256 }, "uncoalesced-global", 4375},
		// 32-way conflict on line 4: 10,000 × 0.5 × 31/32.
		{"bank conflict", func(r *report.Report) { r.Memory.Instructions[1].Wavefronts = 256 }, "shared-bank-conflict", 4844},
		// global atomics, 16 lanes per address on line 3: 10,000 × 0.5 × 15/16.
		{"contended global atomic", func(r *report.Report) {
			r.Memory.Instructions[0] = report.MemInstruction{PTXLine: 10, CUDALine: 3, Space: "global", Op: "red", Requests: 8, Sectors: 8, IdealSectors: 8, Executions: 8, AtomicLanes: 256, AtomicAddresses: 16}
		}, "contended-atomic", 4688},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := timed(clean(), hot(10, 3), hot(12, 4))
			tc.mutate(r)
			hs := Analyze(r, nil)
			if len(hs) != 1 || hs[0].Rule != tc.rule {
				t.Fatalf("want exactly one %s hint, got %+v", tc.rule, hs)
			}
			if hs[0].GainCycles != tc.want || !strings.Contains(hs[0].Gain, group(tc.want)) {
				t.Errorf("gain %d (%q), want %d", hs[0].GainCycles, hs[0].Gain, tc.want)
			}
		})
	}
}

// TestDivergenceGain: a reduction's if (tid % (2*s) == 0) keeps splitting
// warps; the gain is the idle-lane share of the code the branch skips.
func TestDivergenceGain(t *testing.T) {
	r := timed(clean())
	r.Grid, r.Block = [3]int{4, 1, 1}, [3]int{256, 1, 1} // 32 warps
	r.PTX = "\n\n\n\n\n\n\n\n\n" +                       // lines 1-9
		"\t@%p1 bra \t$L__BB0_3;\n" + // 10
		"\tld.shared.f32 \t%f1, [%rd1];\n" + // 11
		"\tst.shared.f32 \t[%rd1], %f1;\n" + // 12
		"$L__BB0_3:\n" // 13
	r.Lines = []report.LineStat{
		{PTXLine: 10, CUDALine: 12, WarpExecs: 192, ThreadExecs: 6144, Branches: 192, DivergentBranches: 160, StallCycles: 808},
		{PTXLine: 11, CUDALine: 12, WarpExecs: 192, ThreadExecs: 1536, StallCycles: 808}, // a quarter of the lanes
		{PTXLine: 12, CUDALine: 12, WarpExecs: 192, ThreadExecs: 1536, StallCycles: 808},
	}
	r.Memory = nil
	hs := Analyze(r, nil)
	if len(hs) != 1 || hs[0].Rule != "warp-divergence" {
		t.Fatalf("want one divergence hint, got %+v", hs)
	}
	// lines 11-12: 2,000 of 3,000 warp-cycles, 3/4 of their lanes idle: 10,000 × 2/3 × 3/4.
	if hs[0].GainCycles != 5000 {
		t.Errorf("gain %d, want 5000 (%s)", hs[0].GainCycles, hs[0].Gain)
	}
}

// TestOneHintPerCause: uncoalesced loads on two lines are one hint listing both lines.
func TestOneHintPerCause(t *testing.T) {
	r := clean()
	r.Memory.Instructions[0].Sectors = 256
	r.Memory.Instructions = append(r.Memory.Instructions,
		report.MemInstruction{PTXLine: 14, CUDALine: 7, Space: "global", Op: "ld", WidthBits: 32, Requests: 8, Sectors: 128, IdealSectors: 32})
	hs := Analyze(r, nil)
	if len(hs) != 1 || len(hs[0].CUDALines) != 2 || hs[0].CUDALines[0] != 3 || hs[0].CUDALines[1] != 7 {
		t.Fatalf("want one hint on lines 3 and 7, got %+v", hs)
	}
	if !strings.Contains(hs[0].Message, "lines 3, 7") || !strings.Contains(hs[0].Evidence, "line 7: 128 sectors") {
		t.Errorf("message/evidence do not name both lines: %q / %q", hs[0].Message, hs[0].Evidence)
	}
	if hs[0].GainCycles != 0 || !strings.Contains(hs[0].Gain, "not estimated") {
		t.Errorf("without timing the gain must say it is not estimated: %d %q", hs[0].GainCycles, hs[0].Gain)
	}
}

// TestRankByGain: the hint that saves more cycles comes first, whatever its severity.
func TestRankByGain(t *testing.T) {
	hs := []report.Hint{{Rule: "a", Severity: Critical, GainCycles: 10}, {Rule: "b", Severity: Info}, {Rule: "c", Severity: Warning, GainCycles: 500}}
	Rank(hs)
	if hs[0].Rule != "c" || hs[1].Rule != "a" || hs[2].Rule != "b" {
		t.Fatalf("order %s %s %s, want c a b", hs[0].Rule, hs[1].Rule, hs[2].Rule)
	}
}

// TestAttributeInlined: an atomic inlined from clang's header gets the CUDA line of the instruction before it.
func TestAttributeInlined(t *testing.T) {
	r := &report.Report{PTX: ".file 1 \"h.cu\"\n" + // 1
		".file 3 \"/usr/lib/llvm-19/lib/clang/19/include/__clang_cuda_device_functions.h\"\n" + // 2
		".loc 1 12 16\n" + // 3
		"add.s64 %rd24, %rd29, %rd22;\n" + // 4
		"$L__tmp4:\n" + // 5
		".loc 3 533 10\n" + // 6
		"atom.shared.add.u32 %r16, [%rd24], 1;\n" + // 7
		"$L__BB0_6:\n" + // 8
		".loc 3 533 10\n" + // 9
		"atom.shared.add.u32 %r17, [%rd24], 1;\n", // 10
		Lines:  []report.LineStat{{PTXLine: 4, CUDALine: 12}, {PTXLine: 7}, {PTXLine: 10}},
		Memory: &report.Memory{Instructions: []report.MemInstruction{{PTXLine: 7, Space: "shared", Op: "atom"}, {PTXLine: 10, Space: "shared", Op: "atom"}}}}
	AttributeInlined(r)
	if r.Memory.Instructions[0].CUDALine != 12 || r.Lines[1].CUDALine != 12 {
		t.Errorf("inlined atomic not attributed to line 12: %+v %+v", r.Memory.Instructions[0], r.Lines[1])
	}
	if r.Memory.Instructions[1].CUDALine != 0 || r.Lines[2].CUDALine != 0 {
		t.Errorf("attributed across a basic block: %+v", r.Memory.Instructions[1])
	}
}

// TestOneSplitPerWarpOverLongPaths: odd and even lanes running different loops
// split each warp only once, but half the lanes idle through long code: a hint.
func TestOneSplitPerWarpOverLongPaths(t *testing.T) {
	r := clean()
	r.Grid, r.Block = [3]int{1, 1, 1}, [3]int{128, 1, 1} // 4 warps
	r.Memory = nil
	r.PTX = "\n\n\n\n\n\n\n\n\n" + // lines 1-9
		"\t@%p1 bra \t$L__BB0_2;\n" + // 10
		"\tfma.rn.f32 \t%f1, %f1, 0f3F000000, 0f3F800000;\n" + // 11
		"$L__BB0_2:\n" + // 12
		"\tst.global.f32 \t[%rd1], %f1;\n" // 13
	r.Lines = []report.LineStat{
		{PTXLine: 10, CUDALine: 4, WarpExecs: 4, ThreadExecs: 128, Branches: 4, DivergentBranches: 4},
		{PTXLine: 11, CUDALine: 5, WarpExecs: 32, ThreadExecs: 512}, // 8 iterations at half the lanes
		{PTXLine: 13, CUDALine: 9, WarpExecs: 4, ThreadExecs: 128},
	}
	hs := Analyze(r, nil)
	if len(hs) != 1 || hs[0].Rule != "warp-divergence" || hs[0].CUDALine != 4 {
		t.Fatalf("want one divergence hint on line 4, got %+v", hs)
	}
	// The same split around one single-lane store is an idiom.
	r.Lines[1] = report.LineStat{PTXLine: 11, CUDALine: 5, WarpExecs: 4, ThreadExecs: 4}
	r.Lines = append(r.Lines, report.LineStat{PTXLine: 14, CUDALine: 10, WarpExecs: 400, ThreadExecs: 12800})
	if hs := Analyze(r, nil); len(hs) != 0 {
		t.Fatalf("single-lane store: want no hint, got %+v", hs)
	}
}

// TestSharedAtomicsConflictingBanks: a 64-bin shared histogram whose lanes hit
// mostly different bins still serialises on banks (3.6× the ideal wavefronts):
// one hint, with the memory row's numbers and no padding advice.
func TestSharedAtomicsConflictingBanks(t *testing.T) {
	r := clean()
	r.Memory.Instructions = append(r.Memory.Instructions, report.MemInstruction{PTXLine: 84, CUDALine: 12, Space: "shared", Op: "atom",
		WidthBits: 32, Wavefronts: 1836, IdealWavefronts: 512, Executions: 512, AtomicLanes: 16384, AtomicAddresses: 12945})
	hs := Analyze(r, nil)
	if len(hs) != 1 || hs[0].Rule != "contended-atomic" || !strings.Contains(hs[0].Evidence, "1,836 wavefronts, ideal 512 (3.59×)") {
		t.Fatalf("want one contended-atomic hint with the row's wavefronts, got %+v", hs)
	}
	if strings.Contains(hs[0].Message, "[32][33]") {
		t.Errorf("padding advice: %s", hs[0].Message)
	}
}
