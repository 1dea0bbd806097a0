package sim

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/internal/golden"
)

// goldenDir is testdata/golden.
var goldenDir = golden.Dir()

var goldenArchs = []string{"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"}

// goldenCase is one entry of cases.json.
type goldenCase = golden.Case

func loadGoldenCases(t testing.TB) []goldenCase {
	t.Helper()
	cs, err := golden.Cases()
	if err != nil {
		t.Fatalf("reading cases.json: %v", err)
	}
	return cs
}

func parsePTXFile(t testing.TB, path string) *ptx.Module {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	m, err := ptx.Parse(filepath.Base(path), src)
	if err != nil {
		t.Fatalf("parsing %s: %v", path, err)
	}
	return m
}

// scalarBits converts a cases.json scalar to raw parameter bits.
func scalarBits(typ string, v float64) (uint64, error) {
	switch typ {
	case "i32":
		return uint64(uint32(int32(v))), nil
	case "u32":
		return uint64(uint32(v)), nil
	case "u8":
		return uint64(uint8(v)), nil
	case "f32":
		return uint64(math.Float32bits(float32(v))), nil
	case "f64":
		return math.Float64bits(v), nil
	}
	return 0, fmt.Errorf("unknown scalar type %q", typ)
}

// goldenArgs builds the launch arguments of a case from its input files.
func goldenArgs(t testing.TB, c *goldenCase) []Arg {
	t.Helper()
	args := make([]Arg, len(c.Args))
	for i, a := range c.Args {
		if strings.HasSuffix(a.Type, "*") {
			b, err := os.ReadFile(filepath.Join(goldenDir, a.Input))
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			args[i].Buffer = b
			continue
		}
		f, err := a.Float()
		if err != nil {
			t.Fatalf("%s: scalar %s: %v", c.Name, a.Name, err)
		}
		v, err := scalarBits(a.Type, f)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		args[i].Scalar = v
	}
	return args
}

// runGolden runs a golden case from the PTX of arch.
func runGolden(t testing.TB, c *goldenCase, arch string, cfg Config) (*Result, error) {
	t.Helper()
	name := strings.TrimSuffix(filepath.Base(c.Source), ".cu")
	m := parsePTXFile(t, filepath.Join(goldenDir, "ptx", name+"."+arch+".ptx"))
	cfg.Grid, cfg.Block, cfg.DynamicShared = c.Grid, c.Block, c.SharedBytes
	if cfg.NumSMs == 0 {
		cfg.NumSMs = 132
	}
	return Launch(context.Background(), m, c.Kernel, goldenArgs(t, c), cfg)
}

// compareOutput compares a buffer with the H200's, within tol (relative) for float types.
func compareOutput(got, want []byte, typ string, tol float64) string {
	if tol == 0 || (typ != "f32*" && typ != "f64*") {
		if bytes.Equal(got, want) {
			return ""
		}
		if len(got) != len(want) {
			return fmt.Sprintf("length %d, want %d", len(got), len(want))
		}
		n := 0
		first := -1
		for i := range got {
			if got[i] != want[i] {
				n++
				if first < 0 {
					first = i
				}
			}
		}
		return fmt.Sprintf("%d bytes differ, first at byte %d (got %#x want %#x)", n, first, got[first], want[first])
	}
	es := 4
	if typ == "f64*" {
		es = 8
	}
	for i := 0; i+es <= len(want) && i+es <= len(got); i += es {
		var g, w float64
		if es == 4 {
			g = float64(math.Float32frombits(binary.LittleEndian.Uint32(got[i:])))
			w = float64(math.Float32frombits(binary.LittleEndian.Uint32(want[i:])))
		} else {
			g = math.Float64frombits(binary.LittleEndian.Uint64(got[i:]))
			w = math.Float64frombits(binary.LittleEndian.Uint64(want[i:]))
		}
		if math.Abs(g-w) > tol*math.Abs(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
			return fmt.Sprintf("element %d: got %v want %v (tolerance %g)", i/es, g, w, tol)
		}
	}
	return ""
}

// TestGoldenCases runs every case of cases.json from the nvcc PTX of every
// architecture and compares the buffers with the H200's output.
func TestGoldenCases(t *testing.T) {
	cases := loadGoldenCases(t)
	pass := map[string]int{}
	for i := range cases {
		c := &cases[i]
		for _, arch := range goldenArchs {
			ok := t.Run(c.Name+"/"+arch, func(t *testing.T) {
				res, err := runGolden(t, c, arch, Config{Trace: TraceConfig{MaxSteps: -1}})
				if err != nil {
					t.Fatalf("launch: %v", err)
				}
				for j, a := range c.Args {
					if a.Output == "" {
						continue
					}
					want, err := os.ReadFile(filepath.Join(goldenDir, a.Output))
					if err != nil {
						t.Fatal(err)
					}
					if msg := compareOutput(res.Buffers[j], want, a.Type, c.ToleranceRel); msg != "" {
						t.Errorf("%s: %s", a.Name, msg)
					}
				}
			})
			if ok {
				pass[arch]++
			}
		}
	}
	for _, arch := range goldenArchs {
		t.Logf("%s: %d of %d golden cases byte-identical", arch, pass[arch], len(cases))
	}
}

// TestGoldenScheduleIndependence reruns the golden cases with the warps of
// each block scheduled in reverse order and switched every 3 instructions,
// with warps 0-1 of block 0 traced: race-free kernels must give the same bytes.
func TestGoldenScheduleIndependence(t *testing.T) {
	cases := loadGoldenCases(t)
	for i := range cases {
		c := &cases[i]
		// Tracing on as well: recording must not change the results.
		res, err := runGolden(t, c, "sm_90", Config{Trace: TraceConfig{WarpHi: 1}, sched: schedule{reverse: true, quantum: 3}})
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		for j, a := range c.Args {
			if a.Output == "" {
				continue
			}
			want, err := os.ReadFile(filepath.Join(goldenDir, a.Output))
			if err != nil {
				t.Fatal(err)
			}
			if msg := compareOutput(res.Buffers[j], want, a.Type, c.ToleranceRel); msg != "" {
				t.Errorf("%s: %s: %s", c.Name, a.Name, msg)
			}
		}
		if res.Trace == nil || len(res.Trace.Steps) == 0 {
			t.Errorf("%s: no trace recorded", c.Name)
		}
	}
}

// TestIssueLog: the per-block issue log holds every warp-instruction once, in
// the order the trace saw them for the traced warps.
func TestIssueLog(t *testing.T) {
	for _, c := range loadGoldenCases(t) {
		if c.Name != "reduce_interleaved" {
			continue
		}
		m := parsePTXFile(t, filepath.Join(goldenDir, "ptx", "reduce.sm_90.ptx"))
		args := make([]Arg, len(c.Args))
		for i, a := range c.Args {
			if strings.HasSuffix(a.Type, "*") {
				b, err := os.ReadFile(filepath.Join(goldenDir, a.Input))
				if err != nil {
					t.Fatal(err)
				}
				args[i].Buffer = b
			} else if f, err := a.Float(); err == nil {
				args[i].Scalar = uint64(int64(f))
			}
		}
		var total int64
		var warp0 []Issue
		blocks := 0
		cfg := Config{Grid: c.Grid, Block: c.Block, Trace: TraceConfig{Block: 1, WarpLo: 0, WarpHi: 0, MaxSteps: 1 << 20},
			Issues: func(b int, ws [][]Issue) {
				blocks++
				for w, s := range ws {
					total += int64(len(s))
					if b == 1 && w == 0 {
						warp0 = append([]Issue(nil), s...)
					}
				}
			}}
		res, err := Launch(context.Background(), m, c.Kernel, args, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if blocks != c.Grid[0] || total != res.Stats.WarpInstructions {
			t.Fatalf("%d blocks logged (want %d), %d issues (want %d)", blocks, c.Grid[0], total, res.Stats.WarpInstructions)
		}
		if len(warp0) != len(res.Trace.Steps) {
			t.Fatalf("warp 0 of block 1: %d issues, %d trace steps", len(warp0), len(res.Trace.Steps))
		}
		for i, s := range res.Trace.Steps {
			if int(warp0[i].PC) != s.PC || warp0[i].Active != s.Active {
				t.Fatalf("issue %d: pc %d active %#x, trace pc %d active %#x", i, warp0[i].PC, warp0[i].Active, s.PC, s.Active)
			}
		}
	}
}
