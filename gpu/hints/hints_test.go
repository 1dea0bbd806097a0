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
		{"divergence", func(r *report.Report) { r.Lines[0].Branches, r.Lines[0].DivergentBranches = 1000, 600 }, "warp-divergence", Warning, 5, "600 of 1000"},
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
	if len(hs) != 1 || hs[0].CUDALine != 14 || hs[0].Evidence != "4096 wavefronts, ideal 128" || hs[0].Severity != Critical {
		t.Fatalf("want one critical hint on line 14 with summed evidence, got %+v", hs)
	}
}

// TestOneSplitPerBlockIsSilent: a branch that splits one warp once per block (if (t == 0)) is not worth a hint.
func TestOneSplitPerBlockIsSilent(t *testing.T) {
	r := clean()
	r.Lines[0].Branches, r.Lines[0].DivergentBranches = 264, 264
	if hs := Analyze(r, nil); len(hs) != 0 {
		t.Fatalf("expected no hints, got %+v", hs)
	}
	r.Lines[0].DivergentBranches, r.Lines[0].Branches = 265, 265
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
