package timing

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/sim"
)

type goldenCase struct {
	Name   string `json:"name"`
	Source string `json:"source"`
	Kernel string `json:"kernel"`
	Grid   [3]int `json:"grid"`
	Block  [3]int `json:"block"`
	Shared int    `json:"shared_bytes"`
	Args   []struct {
		Type  string   `json:"type"`
		Value *float64 `json:"value"`
		Input string   `json:"input"`
	} `json:"args"`
	Active map[string]int `json:"sm_90_active_blocks_per_sm"`
}

func scalar(typ string, v float64) uint64 {
	switch typ {
	case "i32":
		return uint64(uint32(int32(v)))
	case "u32":
		return uint64(uint32(v))
	case "u8":
		return uint64(uint8(v))
	case "f32":
		return uint64(math.Float32bits(float32(v)))
	}
	return math.Float64bits(v)
}

var spaces = map[string]mem.Space{"global": mem.Global, "shared": mem.Shared, "local": mem.Local, "const": mem.Const, "param": mem.Param}
var kinds = map[string]mem.Kind{"load": mem.Load, "store": mem.Store, "atomic": mem.Atomic, "reduction": mem.Reduction}

// replayGolden runs a golden case on the functional simulator block by block
// (tracing every warp of the block), derives each memory instruction's
// outcome from gpu/mem (sectors and cache levels for global, wavefronts for
// shared) and replays the streams through the sm_90 timing model.
func replayGolden(t *testing.T, c *goldenCase, spec *arch.Spec, tab *latency.Table) (*Result, error) {
	name := strings.TrimSuffix(filepath.Base(c.Source), ".cu")
	src, err := os.ReadFile(filepath.Join(golden, "ptx", name+".sm_90.ptx"))
	if err != nil {
		return nil, err
	}
	mod, err := ptx.Parse(name, src)
	if err != nil {
		return nil, err
	}
	var fn *ptx.Func
	for _, f := range mod.Funcs {
		if f.Name == c.Kernel && f.HasBody {
			fn = f
		}
	}
	if fn == nil {
		return nil, fmt.Errorf("kernel %s not found", c.Kernel)
	}
	prog, err := NewProgram(fn, tab)
	if err != nil {
		return nil, err
	}
	args := make([]sim.Arg, len(c.Args))
	for i, a := range c.Args {
		if strings.HasSuffix(a.Type, "*") {
			if args[i].Buffer, err = os.ReadFile(filepath.Join(golden, a.Input)); err != nil {
				return nil, err
			}
		} else if a.Value != nil {
			args[i].Scalar = scalar(a.Type, *a.Value)
		}
	}
	threads := c.Block[0] * max(1, c.Block[1]) * max(1, c.Block[2])
	nwarps := (threads + 31) / 32
	nblocks := c.Grid[0] * max(1, c.Grid[1]) * max(1, c.Grid[2])
	per := c.Active[strconv.Itoa(threads)]
	if per < 1 {
		return nil, fmt.Errorf("no occupancy for block size %d", threads)
	}
	h := mem.NewHierarchy(spec, spec.SMs, mem.Options{})
	m, err := New(prog, Config{BlocksPerSM: per})
	if err != nil {
		return nil, err
	}
	for b := 0; b < nblocks; b++ {
		cfg := sim.Config{Grid: c.Grid, Block: c.Block, DynamicShared: c.Shared, NumSMs: spec.SMs,
			Trace: sim.TraceConfig{Block: b, WarpLo: 0, WarpHi: nwarps - 1, MaxSteps: 1 << 22}}
		res, err := sim.Launch(context.Background(), mod, c.Kernel, args, cfg)
		if err != nil {
			return nil, err
		}
		if res.Trace == nil || res.Trace.Truncated {
			return nil, fmt.Errorf("block %d: trace missing or truncated", b)
		}
		streams := make([]WarpStream, nwarps)
		for _, st := range res.Trace.Steps {
			if st.Warp < 0 || st.Warp >= nwarps || st.PC >= len(prog.Insts) {
				return nil, fmt.Errorf("step outside the kernel: warp %d pc %d", st.Warp, st.PC)
			}
			e := Event{PC: int32(st.PC), Active: st.Active}
			for _, r := range st.Mem {
				a := mem.Access{PC: st.PC, SM: b % spec.SMs, Block: b, Warp: st.Warp, Space: spaces[r.Space], Kind: kinds[r.Kind], Bytes: r.Bytes, Mask: r.Mask, Addr: r.Addr}
				switch a.Space {
				case mem.Shared:
					wf, _ := mem.SharedWavefronts(&a)
					e.Mem, e.Sectors = MemShared, uint8(min(255, max(1, wf)))
				case mem.Global, mem.Local:
					o := h.Access(&a)
					e.Sectors = uint8(min(255, max(1, o.Sectors)))
					switch {
					case o.DRAMReads > 0 || o.DRAMWrites > 0:
						e.Mem, e.DRAMSectors = MemDRAM, uint8(min(255, o.DRAMReads+o.DRAMWrites))
					case o.L2Hits > 0 || o.L2Misses > 0 || a.Kind != mem.Load:
						e.Mem = MemL2Hit
					default:
						e.Mem = MemL1Hit
					}
				}
			}
			streams[st.Warp] = append(streams[st.Warp], e)
		}
		if err := m.AddBlock(context.Background(), streams); err != nil {
			return nil, err
		}
	}
	return m.Finish(context.Background())
}

// TestGoldenCases replays the golden launches and compares the modelled
// cycles with Nsight Compute's sm__cycles_elapsed.max on the H200. The
// error is reported, not asserted (the model has no launch overhead, which
// dominates these tiny launches); asserted is that the model orders the
// planted pairs as the H200 did.
func TestGoldenCases(t *testing.T) {
	if testing.Short() {
		t.Skip("replays every golden case through the functional simulator")
	}
	data, err := os.ReadFile(filepath.Join(golden, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	ndata, err := os.ReadFile(filepath.Join(golden, "ncu_sm90.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ncu map[string]map[string]string
	if err := json.Unmarshal(ndata, &ncu); err != nil {
		t.Fatal(err)
	}
	spec, err := arch.Lookup("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := latency.For("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	model := map[string]float64{}
	measured := map[string]float64{}
	var sum float64
	for i := range cases {
		c := &cases[i]
		r, err := replayGolden(t, c, spec, tab)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		meas, err := strconv.ParseFloat(strings.ReplaceAll(ncu[c.Name]["sm__cycles_elapsed.max"], ",", ""), 64)
		if err != nil {
			t.Errorf("%s: ncu cycles: %v", c.Name, err)
			continue
		}
		model[c.Name], measured[c.Name] = float64(r.Cycles), meas
		rel := (float64(r.Cycles) - meas) / meas
		sum += math.Abs(rel)
		top, topN := "", int64(0)
		for s := LongScoreboard; s < NumReasons; s++ {
			if r.States[s] > topN {
				top, topN = s.String(), r.States[s]
			}
		}
		t.Logf("%-22s measured %7.0f  modelled %7d  error %+6.1f%%  issued %6d  top stall %s (%.1f/issue)",
			c.Name, meas, r.Cycles, 100*rel, r.Issued, top, float64(topN)/float64(max(1, r.Issued)))
	}
	if len(model) > 0 {
		t.Logf("mean absolute error over %d cases: %.1f%%", len(model), 100*sum/float64(len(model)))
	}
	for _, pair := range [][2]string{{"transpose_naive", "transpose_padded"}, {"reduce_interleaved", "reduce_sequential"}, {"strided_copy_stride32", "strided_copy_stride1"}} {
		a, b := pair[0], pair[1]
		ma, okA := measured[a]
		mb, okB := measured[b]
		if !okA || !okB {
			continue
		}
		if (ma > mb) != (model[a] > model[b]) {
			t.Errorf("order of %s (%.0f) and %s (%.0f) on the H200 not reproduced: modelled %.0f and %.0f", a, ma, b, mb, model[a], model[b])
		}
	}
}
