package analysis

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/internal/golden"
)

// TestSASSTimingExplore prints, per launch, the modelled cycles with the PTX issue stream
// and with the SASS stream (KS_SASS_TIMING=1: the golden set; =scale: the scale set, slow),
// the comparison behind the default of %timing. KS_SASS_STREAMS=ptx or =sass times only one
// stream (the scale set takes most of an hour per stream on a shared 2-core machine).
func TestSASSTimingExplore(t *testing.T) {
	set := os.Getenv("KS_SASS_TIMING")
	if set == "" {
		t.Skip("KS_SASS_TIMING=1 (golden) or =scale to print the PTX and SASS issue streams' cycles per launch")
	}
	streams := os.Getenv("KS_SASS_STREAMS")
	if streams == "" {
		streams = "ptx,sass"
	}
	for _, stream := range strings.Split(streams, ",") {
		sass := stream == "sass"
		var rows []timingRow
		if set == "scale" {
			rows = timeScaleCasesWith(t, sass)
		} else {
			rows = timeGoldenCasesWith(t, sass)
		}
		var whole, kern, nk float64
		for _, r := range rows {
			ke, ok := r.kernelErrPct()
			t.Logf("%s %-26s H200 %8d  model %8d (%+6.1f%%, kernel %+6.1f%%) %.0f s", stream, r.name, r.measured, r.model, r.errPct(), ke, r.simSeconds)
			whole += math.Abs(r.errPct())
			if ok {
				kern, nk = kern+math.Abs(ke), nk+1
			}
		}
		t.Logf("%s stream: mean absolute error %.1f%% whole launch, %.1f%% kernel only (%d launches, %d with a kernel part)",
			stream, whole/float64(max(len(rows), 1)), kern/math.Max(nk, 1), len(rows), int(nk))
	}
}

// TestSASSStreamIssuesTheCount: on every golden launch, on both timing paths, the SASS stream
// issues exactly the SASS warp-instructions the lowering counts (stats.sass_instructions,
// within 5% of the H200's smsp__inst_executed.sum on all 17): a warp that jumps over an
// if-converted region still issues its predicated instructions; and the report names the
// stream.
func TestSASSStreamIssuesTheCount(t *testing.T) {
	for _, path := range []string{TimingReplay, TimingInterleaved} {
		for _, c := range loadCases(t) {
			base := strings.TrimSuffix(filepath.Base(c.Source), ".cu")
			src := readGolden(t, "ptx/"+base+".sm_90.ptx")
			rep, err := Run(context.Background(), Request{Source: []byte(src), SourceFile: base + ".ptx", IsPTX: true, Arch: "sm_90",
				Launch: launchOf(c), Grid: c.Grid, Block: c.Block, BaseDir: golden.Dir(), Timing: true, SASSIssues: true, TimingPath: path, Trace: launch.Trace{Steps: -1}})
			if err != nil {
				t.Fatalf("%s %s: %v", path, c.Name, err)
			}
			if rep.Timing == nil || rep.Timing.Stream != StreamSASS || rep.Timing.StreamSource != "modelled ptxas lowering" || rep.Timing.Path != path {
				t.Fatalf("%s %s: timing %+v", path, c.Name, rep.Timing)
			}
			if rep.Timing.Issued != rep.Stats.SASSInstructions {
				t.Errorf("%s %s: the SASS stream issued %d, the lowering counts %d SASS instructions", path, c.Name, rep.Timing.Issued, rep.Stats.SASSInstructions)
			}
		}
	}
}
