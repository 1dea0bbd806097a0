package timing

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/occupancy"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/sim"
)

type scaleCase struct {
	Source string `json:"source"`
	Kernel string `json:"kernel"`
	Grid   [3]int `json:"grid"`
	Block  [3]int `json:"block"`
	Args   []struct {
		Type  string   `json:"type"`
		Count int      `json:"count"`
		Value *float64 `json:"value"`
	} `json:"args"`
	NCU map[string]string `json:"ncu"`
}

// packed memory outcome of one access: Mem in bits 0-2, sectors in 3-10,
// DRAM sectors in 11-18.
type packed uint32

// replayScale times a large launch: the functional simulator runs the whole
// grid, every global/shared access goes through gpu/mem as it happens, and
// each block's per-warp instruction sequence is taken from block 0's trace
// (the scale kernels' control flow is data-independent, scale_sm90.json),
// with that block's own memory outcomes filled in order.
func replayScale(t *testing.T, c *scaleCase, spec *arch.Spec, tab *latency.Table) (*Result, time.Duration, error) {
	name := strings.TrimSuffix(filepath.Base(c.Source), ".cu")
	src, err := os.ReadFile(filepath.Join(golden, "ptx", name+".sm_90.ptx"))
	if err != nil {
		return nil, 0, err
	}
	mod, err := ptx.Parse(name, src)
	if err != nil {
		return nil, 0, err
	}
	var fn *ptx.Func
	for _, f := range mod.Funcs {
		if f.Name == c.Kernel && f.HasBody {
			fn = f
		}
	}
	prog, err := NewProgram(fn, tab)
	if err != nil {
		return nil, 0, err
	}
	args := make([]sim.Arg, len(c.Args))
	seed := uint32(12345)
	for i, a := range c.Args {
		if strings.HasSuffix(a.Type, "*") {
			size := 4
			if a.Type == "f64*" {
				size = 8
			}
			buf := make([]byte, a.Count*size)
			for j := 0; j+4 <= len(buf); j += 4 { // random floats in [0,1) (buffers were random)
				seed = seed*1664525 + 1013904223
				binary.LittleEndian.PutUint32(buf[j:], math.Float32bits(float32(seed>>8)/float32(1<<24)))
			}
			args[i].Buffer = buf
		} else if a.Value != nil {
			args[i].Scalar = scalar(strings.TrimSuffix(a.Type, "*"), *a.Value)
		}
	}
	threads := c.Block[0] * max(1, c.Block[1]) * max(1, c.Block[2])
	nwarps := (threads + 31) / 32
	nblocks := c.Grid[0] * max(1, c.Grid[1]) * max(1, c.Grid[2])
	regs := ptx.EstimateRegisters(fn)
	if r, err := strconv.Atoi(c.NCU["launch__registers_per_thread"]); err == nil {
		regs = r
	}
	smem := 0
	for _, v := range append(append([]*ptx.Var(nil), mod.Globals...), fn.Vars...) {
		if v.Space == ptx.SpaceShared {
			smem += v.Size()
		}
	}
	occ, err := occupancy.Compute(spec, occupancy.Input{BlockSize: threads, RegsPerThread: regs, StaticShared: smem})
	if err != nil {
		return nil, 0, err
	}
	h := mem.NewHierarchy(spec, spec.SMs, mem.Options{})
	outcomes := make([][]packed, nblocks*nwarps)
	onMem := func(a *mem.Access) {
		k := a.Block*nwarps + a.Warp
		if k < 0 || k >= len(outcomes) {
			return
		}
		var p packed
		switch a.Space {
		case mem.Shared:
			wf, _ := mem.SharedWavefronts(a)
			p = packed(MemShared) | packed(min(255, max(1, wf)))<<3
		case mem.Global, mem.Local:
			o := h.Access(a)
			m := MemL1Hit
			switch {
			case o.DRAMReads > 0 || o.DRAMWrites > 0:
				m = MemDRAM
			case o.L2Hits > 0 || o.L2Misses > 0 || a.Kind != mem.Load:
				m = MemL2Hit
			}
			p = packed(m) | packed(min(255, max(1, o.Sectors)))<<3 | packed(min(255, o.DRAMReads+o.DRAMWrites))<<11
		default:
			return
		}
		outcomes[k] = append(outcomes[k], p)
	}
	start := time.Now()
	cfg := sim.Config{Grid: c.Grid, Block: c.Block, NumSMs: spec.SMs, OnMemory: onMem, Budget: 1 << 36,
		Trace: sim.TraceConfig{Block: 0, WarpLo: 0, WarpHi: nwarps - 1, MaxSteps: 1 << 22}}
	res, err := sim.Launch(context.Background(), mod, c.Kernel, args, cfg)
	if err != nil {
		return nil, 0, err
	}
	args = nil
	base := make([]WarpStream, nwarps)
	for _, st := range res.Trace.Steps {
		if st.Warp >= 0 && st.Warp < nwarps && st.PC < len(prog.Insts) {
			e := Event{PC: int32(st.PC), Active: st.Active}
			if len(st.Mem) > 0 {
				e.Mem = MemL1Hit // placeholder, replaced per block
			}
			base[st.Warp] = append(base[st.Warp], e)
		}
	}
	res = nil
	m, err := New(prog, Config{BlocksPerSM: occ.ActiveBlocks})
	if err != nil {
		return nil, 0, err
	}
	for b := 0; b < nblocks; b++ {
		blk := make([]WarpStream, nwarps)
		for w := range blk {
			s := make(WarpStream, len(base[w]))
			copy(s, base[w])
			outs := outcomes[b*nwarps+w]
			j := 0
			for i := range s {
				if s[i].Mem == MemNone {
					continue
				}
				if j < len(outs) {
					s[i].Mem, s[i].Sectors, s[i].DRAMSectors = MemClass(outs[j]&7), uint8(outs[j]>>3), uint8(outs[j]>>11)
					j++
				}
			}
			blk[w] = s
		}
		outcomes[b*nwarps] = nil
		if err := m.AddBlock(context.Background(), blk); err != nil {
			return nil, 0, err
		}
	}
	r, err := m.Finish(context.Background())
	return r, time.Since(start), err
}

// TestScaleCases replays the large launches of scale_sm90.json (slow:
// several seconds each; run with KS_TIMING_SCALE=all or a comma list of
// names) and checks that the H200's order of the reduction variants holds.
func TestScaleCases(t *testing.T) {
	which := os.Getenv("KS_TIMING_SCALE")
	if which == "" {
		t.Skip("set KS_TIMING_SCALE=all (or names) to replay the large launches")
	}
	data, err := os.ReadFile(filepath.Join(golden, "scale_sm90.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases map[string]*scaleCase
	if err := json.Unmarshal(data, &cases); err != nil {
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
	model, meas := map[string]float64{}, map[string]float64{}
	var sum float64
	for _, name := range sortedKeys(cases) {
		if which != "all" && !strings.Contains(","+which+",", ","+name+",") {
			continue
		}
		c := cases[name]
		r, took, err := replayScale(t, c, spec, tab)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		mv, _ := strconv.ParseFloat(strings.ReplaceAll(c.NCU["sm__cycles_elapsed.max"], ",", ""), 64)
		model[name], meas[name] = float64(r.Cycles), mv
		rel := (float64(r.Cycles) - mv) / mv
		sum += math.Abs(rel)
		t.Logf("%-26s measured %8.0f  modelled %8d  error %+6.1f%%  issued %9d  DRAM %6.1f MB  (%.1fs)",
			name, mv, r.Cycles, 100*rel, r.Issued, float64(r.DRAMBytes)/1e6, took.Seconds())
	}
	if len(model) > 0 {
		t.Logf("mean absolute error over %d launches: %.1f%%", len(model), 100*sum/float64(len(model)))
	}
	order := []string{"reduce_interleaved_16M", "reduce_sequential_16M", "reduce_warp_shfl_16M"}
	for i := 0; i+1 < len(order); i++ {
		a, b := order[i], order[i+1]
		if _, ok := model[a]; !ok {
			continue
		}
		if _, ok := model[b]; !ok {
			continue
		}
		if (meas[a] > meas[b]) != (model[a] > model[b]) {
			t.Errorf("H200 order of %s and %s not reproduced: modelled %.0f, %.0f", a, b, model[a], model[b])
		}
	}
}

func sortedKeys(m map[string]*scaleCase) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}
