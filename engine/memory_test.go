package engine

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/render"
)

// TestLargeCellQuotedOnceCapped: a 10 MB cell (a kernel and 10 MB of comments) gives
// a report message of a few hundred KB, not 60 MB: the source is quoted up to
// maxReportSource, with a note saying so.
func TestLargeCellQuotedOnceCapped(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	code := "%grid 1\n%block 32\n__global__ void k(float *a) {\n  a[threadIdx.x] = 1.0f;\n}\n" +
		strings.Repeat("// padding padding padding padding padding padding padding padding padding\n", 10<<20/76)
	r, err := run(t, e, code)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.displays) != 1 {
		t.Fatalf("%d displays", len(r.displays))
	}
	b, err := json.Marshal(r.displays[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 4<<20 {
		t.Errorf("the report of a %d-byte cell is a %d-byte message", len(code), len(b))
	}
	rep, _ := r.displays[0][render.MIMEReport].(map[string]any)
	src, _ := rep["source"].(string)
	if len(src) > maxReportSource || !strings.HasPrefix(src, "%grid 1\n") {
		t.Errorf("report source: %d bytes", len(src))
	}
	notes, _ := json.Marshal(rep["notes"])
	if !strings.Contains(string(notes), "the report quotes its first") {
		t.Errorf("no note about the cut source: %s", notes)
	}
}

// TestKeptReportsAreSummaries: what %compare keeps after a cell holds no trace,
// timelines, buffers, source or PTX, and %compare still answers.
func TestKeptReportsAreSummaries(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	for range 2 {
		if _, err := run(t, e, vectorAdd); err != nil {
			t.Fatal(err)
		}
	}
	e.mu.Lock()
	kept := append(e.reports[:0:0], e.reports...)
	e.mu.Unlock()
	if len(kept) != 2 {
		t.Fatalf("%d reports kept", len(kept))
	}
	for _, k := range kept {
		if k.Trace != nil || k.Source != "" || k.PTX != "" || k.Outputs != nil || k.Lines != nil ||
			(k.Timing != nil && k.Timing.Timelines != nil) || (k.Memory != nil && k.Memory.Instructions != nil) {
			t.Errorf("kept report holds more than the summary: %+v", k)
		}
		if k.Stats.ThreadInstructions == 0 || k.Memory == nil || k.Occupancy == nil {
			t.Errorf("kept report lost what %%compare shows: %+v", k)
		}
	}
	r, err := run(t, e, "%compare")
	if err != nil {
		t.Fatal(err)
	}
	if txt, _ := r.displays[0][render.MIMEText].(string); !strings.Contains(txt, "thread-instructions") {
		t.Errorf("%%compare: %q", txt)
	}
}
