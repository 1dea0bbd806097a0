package render

import (
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/report"
)

// TestCorrectnessSection: findings come first, name and link their lines, and tint them in the Source view.
func TestCorrectnessSection(t *testing.T) {
	rep := &report.Report{Simulated: true, Source: "a\nb\nc\n", SourceFile: "cell.cu", PTX: "x\ny\n",
		Checks: []string{"race", "init", "sync"}, Hints: []report.Hint{{Severity: "info", Message: "a hint"}},
		Sanitizer:    []report.Finding{{Kind: "race", CUDALine: 2, PTXLine: 1, OtherCUDALine: 3, OtherPTXLine: 2, Message: "line 2 and line 3: a race", Count: 1}},
		Expectations: []report.Expectation{{Text: "out == a + b", Passed: false, Message: "fails at index 3"}}}
	h, err := HTML(rep, nil, Options{ID: "t"})
	if err != nil {
		t.Fatal(err)
	}
	c, hint := strings.Index(h, `data-section="correctness"`), strings.Index(h, `data-section="hints"`)
	if c < 0 || hint < 0 || c > hint {
		t.Fatalf("Correctness section missing or not before Hints (%d, %d)", c, hint)
	}
	for _, want := range []string{"Correctness (2)", "a race", `data-cl="2">line 2</a>`, `data-cl="3">line 3</a>`,
		`<div class="ks-ln ks-bug" data-cl="2">`, `<div class="ks-ln ks-bug" data-cl="3">`, "expect failed", "fails at index 3"} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if strings.Contains(h, `<div class="ks-ln ks-bug" data-cl="1">`) {
		t.Errorf("line 1 tinted but named by no finding")
	}
	rep.Sanitizer, rep.Expectations = nil, nil
	if h, _ = HTML(rep, nil, Options{ID: "t"}); !strings.Contains(h, "No problem found by the checks that ran (race, init, sync).") {
		t.Errorf("clean report lacks its one line")
	}
	if txt := Text(rep); !strings.Contains(txt, "correctness: no problem found") {
		t.Errorf("text summary lacks the correctness line: %s", txt)
	}
}

// TestCorrectnessStepLinks: each access of a finding links to the first
// recorded step of its warp at its PTX line; an access the trace did not
// record gets a link marked missing whose title says why and which %trace
// records it; with the trace hidden there are no step links.
func TestCorrectnessStepLinks(t *testing.T) {
	other := [3]int{40, 0, 0} // warp 1
	far := [3]int{100, 0, 0}  // warp 3
	rep := &report.Report{Simulated: true, Source: "a\nb\nc\n", SourceFile: "cell.cu", PTX: "x\ny\nz\n",
		Grid: [3]int{4, 1, 1}, Block: [3]int{128, 1, 1}, Checks: []string{"race"},
		Trace: &report.Trace{Block: 1, Warps: []int{0, 1}, Steps: []report.TraceStep{
			{Warp: 0, PTXLine: 2}, {Warp: 1, PTXLine: 2}, {Warp: 0, PTXLine: 3}, {Warp: 1, PTXLine: 3}, {Warp: 1, PTXLine: 3}}},
		Sanitizer: []report.Finding{
			{Kind: "race", PTXLine: 3, CUDALine: 2, Block: [3]int{1, 0, 0}, Thread: [3]int{5, 0, 0},
				OtherPTXLine: 3, OtherCUDALine: 2, OtherBlock: [3]int{1, 0, 0}, OtherThread: &other, Message: "recorded", Count: 1},
			{Kind: "race", PTXLine: 2, CUDALine: 1, Block: [3]int{1, 0, 0}, Thread: [3]int{33, 0, 0},
				OtherPTXLine: 3, OtherBlock: [3]int{1, 0, 0}, OtherThread: &far, Message: "other warp not traced", Count: 1},
			{Kind: "uninitialized", PTXLine: 2, Block: [3]int{2, 0, 0}, Thread: [3]int{0, 0, 0}, Message: "block not traced", Count: 1},
		}}
	h, err := HTML(rep, nil, Options{ID: "t"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		// finding 1: warp 0 at PTX line 3 is step index 2; thread 40 is warp 1, first at line 3 in step 3.
		`<a class="ks-step-link" data-step="2" title="show step 3 in the trace widget: warp 0 of block 1 at PTX line 3 (its first recorded step there)">go to access</a>`,
		`<a class="ks-step-link" data-step="3" title="show step 4 in the trace widget: warp 1 of block 1 at PTX line 3 (its first recorded step there)">go to other access</a>`,
		// finding 2: thread 33 is warp 1 (step 1 at line 2); thread 100 is warp 3, not traced.
		`<a class="ks-step-link" data-step="1" title="show step 2`,
		`data-step="-1" aria-disabled="true" title="not in the recorded trace: the trace records warps 0,1 of block 1, not warp 3; %trace block=1 warps=3 records it">go to other access</a>`,
		// finding 3: block 2 is not the traced block.
		`title="not in the recorded trace: the trace records block 1, not block 2; %trace block=2 warps=0 records it">go to access</a>`,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if n := strings.Count(h, `class="ks-step-link`); n != 5 {
		t.Errorf("%d step links, want 5 (no other access for the uninitialised read)", n)
	}
	if !strings.Contains(h, `all("a.ks-step-link")`) {
		t.Errorf("the widget script does not handle the step links")
	}
	rep.Trace.Truncated = true
	rep.Sanitizer = rep.Sanitizer[:1]
	rep.Sanitizer[0].PTXLine = 1 // never reached by warp 0 in the recorded steps
	if h, _ = HTML(rep, nil, Options{ID: "t"}); !strings.Contains(h, "recording stopped at the step limit before warp 0 reached PTX line 1") {
		t.Errorf("a truncated trace's missing step does not say so")
	}
	rep.Trace = nil
	if h, _ = HTML(rep, nil, Options{ID: "t"}); !strings.Contains(h, "not in the recorded trace: no steps were recorded; %trace block=1 warps=0 records it") {
		t.Errorf("a report without a trace does not say so in the link")
	}
	if h, _ = HTML(rep, nil, Options{ID: "t", Show: map[string]bool{"trace": false}}); strings.Contains(h, `class="ks-step-link`) {
		t.Errorf("step links with the trace hidden")
	}
}
