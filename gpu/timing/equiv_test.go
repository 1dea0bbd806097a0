package timing_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/sim"
	"github.com/kernelscope/kernelscope/gpu/timing"
	"github.com/kernelscope/kernelscope/internal/golden"
)

var equivScale = flag.Bool("equiv-scale", false, "also compare the event queue with the scan loop on the large launches of scale_sm90.json (minutes)")

// launchCase is one launch to replay: the kernel of a PTX file with its arguments.
type launchCase struct {
	name, ptxFile, kernel string
	grid, block           [3]int
	args                  []sim.Arg
}

// outcome turns a memory outcome into the model's event fields (the rule
// gpu/analysis uses).
func outcome(a *mem.Access, o mem.Outcome) timing.Event {
	e := timing.Event{}
	switch a.Space {
	case mem.Shared:
		e.Mem, e.Sectors = timing.MemShared, uint8(min(255, max(1, o.Wavefronts)))
	case mem.Global, mem.Local:
		e.Sectors = uint8(min(255, max(1, o.Sectors)))
		switch {
		case o.DRAMReads > 0 || o.DRAMWrites > 0:
			e.Mem, e.DRAMSectors = timing.MemDRAM, uint8(min(255, o.DRAMReads+o.DRAMWrites))
		case o.L2Hits > 0 || o.L2Misses > 0 || a.Kind != mem.Load:
			e.Mem = timing.MemL2Hit
		default:
			e.Mem = timing.MemL1Hit
		}
	}
	return e
}

// replayBoth simulates a launch once and feeds every block to two models,
// one on the event queue and one on the scan loop, per blocks-per-SM value.
func replayBoth(t *testing.T, c launchCase, cfgs []timing.Config) {
	t.Helper()
	m, err := ptx.Parse(c.ptxFile, mustRead(t, c.ptxFile))
	if err != nil {
		t.Fatal(err)
	}
	dec, err := sim.Decode(m, c.kernel)
	if err != nil {
		t.Fatal(err)
	}
	tab, _ := latency.For("sm_90")
	spec, err := arch.Lookup("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := timing.NewProgramDecoded(tab, dec)
	if err != nil {
		t.Fatal(err)
	}
	var event, scan []*timing.Model
	for _, mc := range cfgs {
		mc.TimelineWarps = 16
		a, _ := timing.New(prog, mc)
		b, _ := timing.New(prog, mc)
		timing.UseScanLoop(b)
		event, scan = append(event, a), append(scan, b)
	}
	counter := mem.NewCounter(mem.NewHierarchy(spec, spec.SMs, mem.Options{}))
	nw := (c.block[0]*max(c.block[1], 1)*max(c.block[2], 1) + 31) / 32
	queues := make([][]timing.Event, nw)
	ctx := context.Background()
	var addErr error
	cfg := sim.Config{Grid: c.grid, Block: c.block, NumSMs: spec.SMs, Budget: 1e10, Decoded: dec, Trace: sim.TraceConfig{MaxSteps: -1},
		OnMemory: func(a *mem.Access) { queues[a.Warp] = append(queues[a.Warp], outcome(a, counter.Record(a))) },
		Issues: func(_ int, warps [][]sim.Issue) {
			streams := make([]timing.WarpStream, len(warps))
			for w, issues := range warps {
				q := queues[w]
				s := make(timing.WarpStream, 0, len(issues))
				for _, is := range issues {
					n := min(int(is.Accesses), len(q))
					e := timing.Event{PC: is.PC, Active: is.Active}
					if n > 0 {
						e.Mem, e.Sectors, e.DRAMSectors = q[0].Mem, q[0].Sectors, q[0].DRAMSectors
					}
					q = q[n:]
					s = append(s, e)
				}
				streams[w] = s
				queues[w] = queues[w][:0]
			}
			for i := range event {
				if err := event[i].AddBlock(ctx, streams); err != nil && addErr == nil {
					addErr = err
				}
				if err := scan[i].AddBlock(ctx, streams); err != nil && addErr == nil {
					addErr = err
				}
			}
		}}
	if _, err := sim.Launch(ctx, m, c.kernel, c.args, cfg); err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	if addErr != nil {
		t.Fatalf("%s: %v", c.name, addErr)
	}
	for i, mc := range cfgs {
		a, err1 := event[i].Finish(ctx)
		b, err2 := scan[i].Finish(ctx)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v, %v", c.name, err1, err2)
		}
		if a.Issued == 0 {
			t.Fatalf("%s: nothing issued", c.name)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s, %d SMs x %d blocks: event queue %d cycles, %d issued, states %v; scan loop %d cycles, %d issued, states %v",
				c.name, a.SMs, mc.BlocksPerSM, a.Cycles, a.Issued, a.States, b.Cycles, b.Issued, b.States)
		} else {
			t.Logf("%s, %d SMs x %d blocks: %d cycles, %d warp-instructions: identical", c.name, a.SMs, mc.BlocksPerSM, a.Cycles, a.Issued)
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// scalar is the raw bits of a scalar literal of type typ.
func scalar(t *testing.T, typ, lit string) uint64 {
	t.Helper()
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		t.Fatalf("scalar %q: %v", lit, err)
	}
	switch typ {
	case "f32":
		return uint64(math.Float32bits(float32(f)))
	case "f64":
		return math.Float64bits(f)
	}
	return uint64(int64(f))
}

// TestEventQueueMatchesScanLoop: the event-driven model gives results
// identical to the loop it replaced (every sub-partition at every event
// cycle) on the golden launches, on 132 SMs and on 2 and 3 SMs (waves,
// several blocks interleaved per SM); with
// -equiv-scale on the large launches too.
func TestEventQueueMatchesScanLoop(t *testing.T) {
	cs, err := golden.Cases()
	if err != nil {
		t.Fatal(err)
	}
	dir := golden.Dir()
	for _, c := range cs {
		lc := launchCase{name: c.Name, ptxFile: filepath.Join(dir, "ptx", c.Base()+".sm_90.ptx"), kernel: c.Kernel, grid: c.Grid, block: c.Block}
		for _, a := range c.Args {
			if a.IsBuffer() {
				lc.args = append(lc.args, sim.Arg{Buffer: mustRead(t, filepath.Join(dir, a.Input))})
			} else {
				lc.args = append(lc.args, sim.Arg{Scalar: scalar(t, a.Type, string(a.Value))})
			}
		}
		// The golden grids fit on 132 SMs; 2 and 3 SMs make waves and interleave blocks on an SM.
		replayBoth(t, lc, []timing.Config{{BlocksPerSM: 1}, {NumSMs: 2, BlocksPerSM: 1}, {NumSMs: 3, BlocksPerSM: 4}})
	}
	if !*equivScale {
		return
	}
	b := mustRead(t, filepath.Join(dir, "scale_sm90.json"))
	var scale map[string]struct {
		Source, Kernel string
		Grid, Block    [3]int
		Args           []struct {
			Name, Type string
			Count      int
			Value      json.RawMessage
		}
	}
	if err := json.Unmarshal(b, &scale); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(scale))
	for n := range scale {
		names = append(names, n)
	}
	sort.Strings(names)
	rnd := rand.New(rand.NewSource(1))
	for _, name := range names {
		c := scale[name]
		base := strings.TrimSuffix(filepath.Base(c.Source), ".cu")
		lc := launchCase{name: name, ptxFile: filepath.Join(dir, "ptx", base+".sm_90.ptx"), kernel: c.Kernel, grid: c.Grid, block: c.Block}
		for _, a := range c.Args {
			if strings.HasSuffix(a.Type, "*") {
				// Random values in [0,1) of the element type (the kernels' control flow does not depend on them).
				et := strings.TrimSuffix(a.Type, "*")
				size := map[string]int{"f64": 8, "i64": 8, "u64": 8, "u8": 1, "i8": 1}[et]
				if size == 0 {
					size = 4
				}
				buf := make([]byte, size*a.Count)
				for i := 0; i < a.Count; i++ {
					switch et {
					case "f32":
						binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(rnd.Float32()))
					case "f64":
						binary.LittleEndian.PutUint64(buf[8*i:], math.Float64bits(rnd.Float64()))
					}
				}
				lc.args = append(lc.args, sim.Arg{Buffer: buf})
			} else {
				lc.args = append(lc.args, sim.Arg{Scalar: scalar(t, a.Type, strings.Trim(string(a.Value), `"`))})
			}
		}
		replayBoth(t, lc, []timing.Config{{BlocksPerSM: 2}})
	}
}
