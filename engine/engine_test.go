package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/kernel"
	"github.com/kernelscope/kernelscope/render"
)

// recorder is a kernel.Publisher that keeps what was published. displays is
// what a notebook shows: an update replaces the display with its display_id.
// first holds each display as first published, updates every update in order.
type recorder struct {
	mu       sync.Mutex
	displays []map[string]any
	first    []map[string]any
	ids      []string
	updates  []map[string]any
	streams  []string
}

func (r *recorder) Display(data, _ map[string]any, id string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.displays = append(r.displays, data)
	r.first = append(r.first, data)
	r.ids = append(r.ids, id)
	return nil
}

func (r *recorder) UpdateDisplay(data, _ map[string]any, id string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updates = append(r.updates, data)
	for i, d := range r.ids {
		if d == id && id != "" {
			r.displays[i] = data
		}
	}
	return nil
}

// texts returns the text/plain of every bundle published so far, displays and updates.
func (r *recorder) texts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, b := range append(append([]map[string]any{}, r.first...), r.updates...) {
		if s, ok := b[render.MIMEText].(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func (r *recorder) Stream(_, text string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.streams = append(r.streams, text)
	return nil
}

var _ kernel.Publisher = (*recorder)(nil)

// needClang skips a test without clang unless the environment requires the tools.
func needClang(t *testing.T) {
	t.Helper()
	for _, c := range []string{"clang-19", "clang-18", "clang-17", "clang"} {
		if _, err := exec.LookPath(c); err == nil {
			return
		}
	}
	if os.Getenv("KS_REQUIRE_TOOLS") != "" || os.Getenv("CI") != "" {
		t.Fatal("clang is required here (KS_REQUIRE_TOOLS/CI set) but not installed")
	}
	t.Skip("no clang on PATH")
}

// newEngine returns an engine that never shows a progress display, so that
// what a test reads does not depend on how fast the machine runs the cell.
func newEngine(t *testing.T) *Engine {
	return New(t.TempDir(), nil, WithProgress(-1, 0))
}

func run(t *testing.T, e *Engine, code string) (*recorder, error) {
	t.Helper()
	r := &recorder{}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	err := e.Execute(ctx, kernel.ExecuteRequest{Code: code, StoreHistory: true}, r)
	return r, err
}

const vectorAdd = `%launch vector_add(a=arange(1000), b=ones(1000), c=zeros(1000), n=1000)
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
`

func TestCUDACellAnswersWithReport(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	r, err := run(t, e, vectorAdd)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.displays) != 1 {
		t.Fatalf("expected one display_data, got %d", len(r.displays))
	}
	d := r.displays[0]
	for _, mime := range []string{render.MIMEHTML, render.MIMEText, render.MIMEReport} {
		if d[mime] == nil {
			t.Errorf("bundle lacks %s", mime)
		}
	}
	// No image of its own: jupyter console would open it in a viewer for every cell.
	if d[render.MIMEPNG] != nil || d[render.MIMESVG] != nil {
		t.Error("the bundle carries an image")
	}
	text := d[render.MIMEText].(string)
	// c = a + b with a = 0,1,2,... and b = 1: the first outputs are 1 2 3.
	if !strings.Contains(text, "c[1000] f32: 1 2 3 4") {
		t.Errorf("text summary does not show the computed output:\n%s", text)
	}
}

func TestCompileErrorNamesCellLine(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	_, err := run(t, e, "%grid 1\n__global__ void k(int* a) {\n  a[0] = undefined_thing;\n}\n")
	if err == nil {
		t.Fatal("expected a compile error")
	}
	if !strings.Contains(err.Error(), "cell line 3:") || !strings.Contains(err.Error(), "undefined_thing") {
		t.Errorf("error does not name cell line 3 and the identifier: %v", err)
	}
	var n interface{ ErrorName() string }
	if !errors.As(err, &n) || n.ErrorName() != "CompileError" {
		t.Errorf("ename: %v", err)
	}
}

func TestUnknownMagicListsKnownOnes(t *testing.T) {
	e := newEngine(t)
	_, err := run(t, e, "%frobnicate 3\n")
	if err == nil || !strings.Contains(err.Error(), "frobnicate") || !strings.Contains(err.Error(), "%arch") {
		t.Fatalf("expected an error naming the magic and listing %%arch, got %v", err)
	}
}

func TestPTXCell(t *testing.T) {
	e := newEngine(t)
	ptx, err := os.ReadFile("../testdata/golden/ptx/vector_add.sm_80.ptx")
	if err != nil {
		t.Fatal(err)
	}
	r, err := run(t, e, "%%ptx\n%grid 4\n%block 256\n"+string(ptx))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.displays) != 1 || r.displays[0][render.MIMEHTML] == nil {
		t.Fatalf("expected a report, got %d displays", len(r.displays))
	}
}

func TestOutOfBoundsIsAnErrorNamingTheLine(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	_, err := run(t, e, "%grid 1\n%block 64\n%launch oob(a=zeros(32))\nextern \"C\" __global__ void oob(float* a) {\n  a[threadIdx.x * 1024] = 1.0f;\n}\n")
	if err == nil {
		t.Fatal("expected an out-of-bounds error")
	}
	if !strings.Contains(err.Error(), "line 5") {
		t.Errorf("error does not name CUDA line 5: %v", err)
	}
}

func TestInterruptStopsEndlessLoop(t *testing.T) {
	needClang(t)
	// The progress display comes at once and is refreshed every 10 ms: the test sees the
	// simulation running from what was published, not by waiting a fixed time.
	e := New(t.TempDir(), nil, WithProgress(0, 10*time.Millisecond))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	rec := &recorder{}
	go func() {
		done <- e.Execute(ctx, kernel.ExecuteRequest{Code: "%grid 1\n%block 32\n%budget 1e15\nextern \"C\" __global__ void spin(volatile int* a) {\n  while (a[0] == 0) { a[1]++; }\n}\n"}, rec)
	}()
	// " of blocks (" is in the progress text once the simulator has reported progress:
	// the launch is past compilation and simulating.
	simulating := func() bool {
		for _, s := range rec.texts() {
			if strings.HasPrefix(s, "simulating: ") && strings.Contains(s, " of blocks (") {
				return true
			}
		}
		return false
	}
	safety := time.After(time.Minute)
	for !simulating() {
		select {
		case err := <-done:
			t.Fatalf("the endless loop ended before the interrupt: %v", err)
		case <-safety:
			t.Fatalf("no progress display from the simulator after a minute: %q", rec.texts())
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("expected context.Canceled, got %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the cell did not stop after the interrupt")
	}
	// The engine still works.
	if _, err := run(t, e, vectorAdd); err != nil {
		t.Fatalf("engine broken after interrupt: %v", err)
	}
}

// TestProgressDisplayIsReplacedByReport: with the progress display shown at once, the
// report replaces it (the same display_id), so the notebook ends with one output: the report.
func TestProgressDisplayIsReplacedByReport(t *testing.T) {
	needClang(t)
	e := New(t.TempDir(), nil, WithProgress(0, time.Hour))
	r, err := run(t, e, vectorAdd)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.first) != 1 || !strings.HasPrefix(r.first[0][render.MIMEText].(string), "simulating") {
		t.Fatalf("expected the progress display first, got %d displays: %v", len(r.first), r.first)
	}
	if len(r.updates) == 0 || r.displays[0][render.MIMEReport] == nil {
		t.Fatalf("the report did not replace the progress display (%d updates)", len(r.updates))
	}
	if text := r.displays[0][render.MIMEText].(string); !strings.Contains(text, "c[1000] f32: 1 2 3 4") {
		t.Errorf("final display is not the report:\n%s", text)
	}
	// Never: no progress display, the report is the first and only display.
	e = New(t.TempDir(), nil, WithProgress(-1, 0))
	if r, err = run(t, e, vectorAdd); err != nil {
		t.Fatal(err)
	}
	if len(r.first) != 1 || len(r.updates) != 0 || r.first[0][render.MIMEReport] == nil {
		t.Errorf("progress off: %d displays, %d updates", len(r.first), len(r.updates))
	}
}

func TestCompareNeedsTwoReports(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	if _, err := run(t, e, "%compare"); err == nil {
		t.Fatal("expected an error with no reports")
	}
	for _, name := range []string{"one", "two"} {
		if _, err := run(t, e, "%name "+name+"\n"+vectorAdd); err != nil {
			t.Fatal(err)
		}
	}
	r, err := run(t, e, "%compare one two")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.displays) != 1 || !strings.Contains(r.displays[0][render.MIMEText].(string), "thread-instructions") {
		t.Fatalf("compare output: %+v", r.displays)
	}
	if _, err := run(t, e, "%compare one nobody"); err == nil || !strings.Contains(err.Error(), `"nobody"`) {
		t.Errorf("an unknown name: %v", err)
	}
}

// TestCompareThreeMarkdown: %compare of three named reports, as a Markdown
// table with kernel-only cycles, µs and speed-up, and as JSON.
func TestCompareThreeMarkdown(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	for _, c := range []struct{ name, block string }{{"b256", "256"}, {"b128", "128"}, {"b64", "64"}} {
		if _, err := run(t, e, "%name "+c.name+"\n%block "+c.block+"\n"+vectorAdd); err != nil {
			t.Fatal(err)
		}
	}
	r, err := run(t, e, "%compare --markdown b256 b128 b64")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.displays) != 1 {
		t.Fatalf("%d displays", len(r.displays))
	}
	md, _ := r.displays[0][render.MIMEMarkdown].(string)
	for _, want := range []string{"| metric | b256 | b128 | b64 |", "| kernel cycles (model) (cycles) |", "| kernel time (µs) |", "| speed-up vs b256 |", "| block | 256 | **128** | **64** |", "| occupancy (%) |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	js, ok := r.displays[0][render.MIMECompare].(map[string]any)
	if !ok || len(js["reports"].([]any)) != 3 {
		t.Fatalf("compare JSON: %#v", r.displays[0][render.MIMECompare])
	}
	if r.displays[0][render.MIMEHTML] != nil {
		t.Error("--markdown shows the Markdown table, not the HTML one")
	}
}

func TestSilentPublishesNothing(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	r := &recorder{}
	if err := e.Execute(context.Background(), kernel.ExecuteRequest{Code: vectorAdd, Silent: true}, r); err != nil {
		t.Fatal(err)
	}
	if len(r.displays)+len(r.updates)+len(r.streams) != 0 {
		t.Fatal("a silent cell published output")
	}
}

// TestCompleteByteOffsets: the kernel gives and takes byte offsets; non-ASCII text before the cursor must not shift the range.
func TestCompleteByteOffsets(t *testing.T) {
	e := newEngine(t)
	code := "__sync"
	m, s, end := e.Complete(code, len(code))
	pre := "/* héllo ✓ */ "
	m2, s2, end2 := e.Complete(pre+code, len(pre)+len(code))
	if len(m) == 0 || len(m2) != len(m) || s2 != s+len(pre) || end2 != end+len(pre) {
		t.Fatalf("ranges %d..%d and %d..%d (prefix %d bytes), matches %d/%d", s, end, s2, end2, len(pre), len(m), len(m2))
	}
}

// TestSampleWithoutCompiler: %sample works where no compiler is installed, from the bundled PTX.
func TestSampleWithoutCompiler(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no clang, no nvcc
	e := newEngine(t)
	r, err := run(t, e, "%sample vector_add")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.displays) != 1 {
		t.Fatalf("expected one report, got %d displays", len(r.displays))
	}
	text := r.displays[0][render.MIMEText].(string)
	if !strings.Contains(text, "vector_add") || !strings.Contains(text, "thread-instructions") {
		t.Fatalf("report text: %s", text)
	}
	rep := r.displays[0][render.MIMEReport].(map[string]any)
	if tc, _ := rep["toolchain"].(string); !strings.Contains(tc, "pre-built") {
		t.Errorf("toolchain %q: the report must say the PTX was pre-built", tc)
	}
	// A CUDA cell without a compiler is a clear error saying what to install.
	_, err = run(t, e, "__global__ void k(int* a) { a[0] = 1; }")
	if err == nil || !strings.Contains(err.Error(), "clang") {
		t.Errorf("expected an error naming the compiler to install, got %v", err)
	}
}

// TestPrintfGoesToStdout: device printf output is published as a stdout stream.
func TestPrintfGoesToStdout(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	r, err := run(t, e, "%grid 1\n%block 2\n__global__ void k() { printf(\"lane %d\\n\", (int)threadIdx.x); }\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.streams) != 1 || r.streams[0] != "lane 0\nlane 1\n" {
		t.Fatalf("streams %q", r.streams)
	}
}

// TestHistogramHintAgreesWithMemoryTable: the 1-D shared histogram's atomics
// get one contended-atomic hint (no padding advice) on their CUDA line, and its
// wavefronts are the numbers the Memory table's shared-atomics row shows.
func TestHistogramHintAgreesWithMemoryTable(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	r, err := run(t, e, "%sample histogram_atomics")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.displays) != 1 {
		t.Fatalf("%d displays", len(r.displays))
	}
	js, _ := json.Marshal(r.displays[0][render.MIMEReport])
	var rep report.Report
	if err := json.Unmarshal(js, &rep); err != nil {
		t.Fatal(err)
	}
	var atom *report.MemInstruction
	for i, m := range rep.Memory.Instructions {
		if m.Space == "shared" && m.Op == "atom" {
			atom = &rep.Memory.Instructions[i]
		}
	}
	if atom == nil || atom.CUDALine != 12 {
		t.Fatalf("the shared atomic's memory row has no CUDA line 12: %+v", atom)
	}
	var hs []report.Hint
	for _, h := range rep.Hints {
		if h.Category == "memory" {
			hs = append(hs, h)
		}
		if strings.Contains(h.Message, "[32][33]") {
			t.Errorf("padding advice for a 1-D histogram: %s", h.Message)
		}
	}
	if len(hs) != 1 || hs[0].Rule != "contended-atomic" || hs[0].CUDALine != 12 || hs[0].GainCycles <= 0 {
		t.Fatalf("want one contended-atomic hint on line 12 with a gain, got %+v", hs)
	}
	want := fmt.Sprintf("%s wavefronts, ideal %s", groupInt(atom.Wavefronts), groupInt(atom.IdealWavefronts))
	if !strings.Contains(hs[0].Evidence, want) {
		t.Errorf("hint evidence %q lacks the memory row's %q", hs[0].Evidence, want)
	}
	h := r.displays[0][render.MIMEHTML].(string)
	row := fmt.Sprintf("<td>shared atomics</td><td>%s (ideal %s)</td>", groupInt(atom.Wavefronts), groupInt(atom.IdealWavefronts))
	if !strings.Contains(h, row) {
		t.Errorf("the Memory table lacks %q", row)
	}
}

// groupInt writes n with thousands separators, as the report does.
func groupInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
