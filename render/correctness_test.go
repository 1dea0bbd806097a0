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
