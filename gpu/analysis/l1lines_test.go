package analysis

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/internal/golden"
	"github.com/kernelscope/kernelscope/magics"
)

// l1linesDir holds the L1TEX line-cost microbenchmarks (README.md there).
var l1linesDir = filepath.Join(golden.Dir(), "..", "measured", "l1lines")

// l1linesCase is one launch of l1lines.cu, in the order main() makes them.
type l1linesCase struct {
	name        string // tput_K, lat_K, st_K (K = 1..32 lines or "sec")
	grid, block int
	calibration bool // the row set a model constant (README.md)
}

func l1linesCases() []l1linesCase {
	calib := map[string]bool{"lat_1": true, "lat_2": true, "lat_4": true, "lat_8": true, "lat_16": true, "lat_32": true,
		"st_2": true, "st_4": true, "st_8": true, "st_sec": true}
	var out []l1linesCase
	for _, k := range []string{"1", "2", "4", "8", "16", "32", "sec"} {
		for _, kind := range []string{"tput", "lat", "st"} {
			c := l1linesCase{name: kind + "_" + k, grid: 132, block: 1024}
			if kind == "lat" {
				c.grid, c.block = 1, 32
			}
			c.calibration = calib[c.name]
			out = append(out, c)
		}
	}
	return out
}

// TestL1LinesH200 times the L1TEX microbenchmarks of testdata/measured/l1lines
// (a global request's cost by the 128-byte lines it touches; stores' by their
// lines and partly written sectors) against the two H200 runs' mean
// sm__cycles_elapsed.max. The lat_K rows calibrated L1LineCycles and st_2, st_4,
// st_8, st_sec the L2 store bounds; the tput_K rows (a line a cycle per SM,
// ncu's l1tex__data_pipe_lsu_wavefronts) and st_1, st_16, st_32 are validation.
// Guard: every row with K >= 4 lines within 15%, the others (issue-bound) within 35%.
func TestL1LinesH200(t *testing.T) {
	if _, err := exec.LookPath("clang-19"); err != nil {
		if os.Getenv("KS_REQUIRE_TOOLS") != "" || os.Getenv("CI") != "" {
			t.Fatal("clang-19 is required here (KS_REQUIRE_TOOLS/CI set) but not installed")
		}
		t.Skip("clang-19 not found (scripts/setup.sh installs it; KS_REQUIRE_TOOLS=1 makes this a failure)")
	}
	cu, err := os.ReadFile(filepath.Join(l1linesDir, "l1lines.cu"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := golden.NCUTar(filepath.Join(l1linesDir, "l1lines_ncu.tar.gz"), "ncu_", "sm__cycles_elapsed.max")
	if err != nil {
		t.Fatal(err)
	}
	cases := l1linesCases()
	if len(rows) != 2*len(cases) {
		t.Fatalf("%d ncu rows, want two runs of %d launches", len(rows), len(cases))
	}
	wavefronts, err := golden.NCUTar(filepath.Join(l1linesDir, "l1lines_ncu.tar.gz"), "ncu_1", "l1tex__data_pipe_lsu_wavefronts.sum")
	if err != nil {
		t.Fatal(err)
	}
	var sumCal, sumVal float64
	var nCal, nVal int
	for i, c := range cases {
		var h200 float64
		for r := 0; r < 2; r++ {
			v, err := ncuNumber(rows[r*len(cases)+i].Value)
			if err != nil {
				t.Fatal(err)
			}
			h200 += float64(v) / 2
		}
		if want := strings.SplitN(c.name, "_", 2)[0]; !strings.Contains(rows[i].Kernel, want+"<") {
			t.Fatalf("row %d is %q, want %s", i, rows[i].Kernel, c.name)
		}
		model := runL1Lines(t, cu, c)
		e := (model - h200) / h200
		wf, _ := ncuNumber(wavefronts[i].Value)
		role := "validation"
		if c.calibration {
			role = "calibration"
			sumCal += math.Abs(e)
			nCal++
		} else {
			sumVal += math.Abs(e)
			nVal++
		}
		// the rule's premise: ncu's L1 data-stage wavefronts are the request's lines
		k := strings.SplitN(c.name, "_", 2)[1]
		lines := 8 // "sec": 8 lines of 4 sectors
		if k != "sec" {
			fmt.Sscan(k, &lines)
		}
		reqs := int64(c.grid * c.block / 32 * 256)
		t.Logf("%-8s %4dx%-4d H200 %9.0f  model %9.0f (%+6.1f%%)  ncu wavefronts per request %5.2f  %s", c.name, c.grid, c.block, h200, model, 100*e, float64(wf)/float64(reqs), role)
		bound := 0.35
		if k != "1" && k != "2" {
			bound = 0.15
		}
		if math.Abs(e) > bound {
			t.Errorf("%s: modelled %.0f cycles vs the H200's %.0f (%+.1f%%, bound %.0f%%)", c.name, model, h200, 100*e, 100*bound)
		}
		if d := float64(wf)/float64(reqs) - float64(lines); c.grid == 132 && math.Abs(d) > 0.05 {
			t.Errorf("%s: ncu's wavefronts per request %.3f, the pattern's lines %d", c.name, float64(wf)/float64(reqs), lines)
		}
	}
	t.Logf("mean |error|: calibration %.1f%% over %d rows, validation %.1f%% over %d", 100*sumCal/float64(nCal), nCal, 100*sumVal/float64(nVal), nVal)
}

// runL1Lines models one launch and returns its cycles.
func runL1Lines(t *testing.T, cu []byte, c l1linesCase) float64 {
	t.Helper()
	kind, k, _ := strings.Cut(c.name, "_")
	if k == "sec" {
		k = "0"
	}
	var args string
	switch kind {
	case "tput", "lat":
		args = "in=zeros(17408):f32, out=zeros(135168):f32, iters=256"
	default:
		args = "out=zeros(2162688):f32, iters=256"
	}
	l, err := magics.ParseLaunch(fmt.Sprintf("%s<%s><<<dim3(%d,1,1), dim3(%d,1,1), 0>>>(%s)", kind, k, c.grid, c.block, args))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Request{Source: cu, SourceFile: "l1lines.cu", Arch: "sm_90", Compiler: "clang",
		Launch: l, Grid: [3]int{c.grid, 1, 1}, Block: [3]int{c.block, 1, 1},
		Timing: true, TimingWaves: -1, TimedCaches: true, SASSIssues: true, Trace: launch.Trace{Steps: -1}, Budget: 4e9})
	if err != nil || rep.Timing == nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return float64(rep.Timing.Cycles)
}
