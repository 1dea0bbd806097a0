package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/internal/golden"
)

// TestTimingSampling validates the sampled timing model against the full
// one (not against hardware): a launch of 24 waves on sm_75 (40 SMs) is
// timed on 4 waves and extrapolated; the full model's cycles must lie within
// the reported error, and everything but the timing must be identical.
func TestTimingSampling(t *testing.T) {
	t.Run("vector_add", func(t *testing.T) { testSampling(t, readGolden(t, "ptx/vector_add.sm_80.ptx")) })
	t.Run("uneven blocks", func(t *testing.T) { testSampling(t, unevenPTX) })
}

// unevenPTX loops 8*(block%5) times before storing: blocks of uneven length.
const unevenPTX = `.version 7.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	.reg .pred %p<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r4, %r2, %r3, %r1;
	rem.u32 %r6, %r2, 5;
	shl.b32 %r6, %r6, 3;
	mov.u32 %r5, 0;
LOOP:
	add.u32 %r5, %r5, 1;
	setp.lt.u32 %p2, %r5, %r6;
	@%p2 bra LOOP;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mul.wide.u32 %rd2, %r4, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r5;
	ret;
}
`

func testSampling(t *testing.T, src string) {
	run := func(waves int) *report.Report {
		rep, err := Run(context.Background(), Request{Source: []byte(src), SourceFile: "k.ptx", IsPTX: true, Arch: "sm_75",
			Grid: [3]int{24 * 40 * 4, 1, 1}, Block: [3]int{256, 1, 1}, Timing: true, TimingWaves: waves, Trace: launch.Trace{Steps: -1}})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Timing == nil {
			t.Fatalf("no timing: %v", rep.Notes)
		}
		return rep
	}
	full, sampled := run(-1), run(4)
	if bps := full.Occupancy.ActiveBlocksPerSM; bps != 4 {
		t.Fatalf("%d blocks per SM, the test assumes 4", bps)
	}
	if full.Timing.SampledBlocks != 0 {
		t.Errorf("full run sampled %d blocks", full.Timing.SampledBlocks)
	}
	st := sampled.Timing
	if st.SampledBlocks != 4*40*4 || st.TotalBlocks != 24*40*4 || st.SampleErrorPct <= 0 {
		t.Fatalf("sampled %d of %d blocks, error %.1f%%", st.SampledBlocks, st.TotalBlocks, st.SampleErrorPct)
	}
	if !strings.Contains(strings.Join(sampled.Notes, "\n"), "modelled 4 of them") {
		t.Errorf("notes %q", sampled.Notes)
	}
	dev := 100 * math.Abs(float64(st.KernelCycles-full.Timing.KernelCycles)) / float64(full.Timing.KernelCycles)
	t.Logf("full model %d kernel cycles, sampled %d (%.1f%% off, estimated ±%.1f%%)", full.Timing.KernelCycles, st.KernelCycles, dev, st.SampleErrorPct)
	if dev > st.SampleErrorPct {
		t.Errorf("sampled cycles %d are %.1f%% from the full model's %d, beyond the estimated ±%.1f%%", st.KernelCycles, dev, full.Timing.KernelCycles, st.SampleErrorPct)
	}
	if !reflect.DeepEqual(full.Outputs, sampled.Outputs) || !reflect.DeepEqual(full.Memory, sampled.Memory) || full.Stats.ThreadInstructions != sampled.Stats.ThreadInstructions {
		t.Errorf("sampling changed outputs, memory statistics or counters")
	}
}

// TestReportIndependentOfGOMAXPROCS runs full analyses (checks, memory model,
// timing model, trace) of golden launches with GOMAXPROCS 1 and 2 and
// requires the same JSON report but for the simulation's wall time.
func TestReportIndependentOfGOMAXPROCS(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	checks, err := ParseChecks("race,init,sync")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range loadCases(t) {
		switch c.Name {
		case "matmul_tiled", "histogram256", "reduce_sequential", "transpose_padded", "scan_block":
		default:
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			var ref []byte
			for _, p := range []int{1, 2} {
				runtime.GOMAXPROCS(p)
				src := readGolden(t, "ptx/"+strings.TrimSuffix(filepath.Base(c.Source), ".cu")+".sm_90.ptx")
				rep, err := Run(context.Background(), Request{Source: []byte(src), SourceFile: "k.ptx", IsPTX: true, Arch: "sm_90",
					Launch: launchOf(c), Grid: c.Grid, Block: c.Block, BaseDir: golden.Dir(), Timing: true, Checks: checks,
					Trace: launch.Trace{Block: 1, WarpLo: 0, WarpHi: 1, Steps: 200}})
				if err != nil {
					t.Fatal(err)
				}
				if rep.Timing == nil || rep.Trace == nil || rep.Memory == nil {
					t.Fatalf("report without timing, trace or memory: %v", rep.Notes)
				}
				rep.Stats.SimMillis = 0
				b, err := json.Marshal(rep)
				if err != nil {
					t.Fatal(err)
				}
				if p == 1 {
					ref = b
					continue
				}
				if !bytes.Equal(b, ref) {
					t.Errorf("GOMAXPROCS %d: the report differs from GOMAXPROCS 1's (%d vs %d bytes)", p, len(b), len(ref))
				}
			}
		})
	}
	if n == 0 {
		t.Fatal("no golden case ran")
	}
}
