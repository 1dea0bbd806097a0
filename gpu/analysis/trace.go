package analysis

import (
	"fmt"
	"github.com/kernelscope/kernelscope/gpu/report"
	"math"
	"strconv"

	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/sim"
)

// regTypes maps every register name of a function to its declared type.
func regTypes(fns ...*ptx.Func) map[string]ptx.Type {
	m := map[string]ptx.Type{}
	for _, f := range fns {
		for _, r := range f.Regs {
			if r.Count == 0 {
				m[r.Name] = r.Type
				continue
			}
			for i := 0; i < r.Count; i++ {
				m[r.Name+strconv.Itoa(i)] = r.Type
			}
		}
	}
	return m
}

// formatReg formats a lane's register bits for its type.
func formatReg(bits uint64, t ptx.Type) string {
	switch t {
	case ptx.Pred:
		if bits&1 != 0 {
			return "1"
		}
		return "0"
	case ptx.F32:
		return strconv.FormatFloat(float64(math.Float32frombits(uint32(bits))), 'g', 6, 32)
	case ptx.F64:
		return strconv.FormatFloat(math.Float64frombits(bits), 'g', 8, 64)
	case ptx.S8, ptx.S16, ptx.S32:
		return strconv.FormatInt(int64(int32(uint32(bits))), 10)
	case ptx.S64:
		return strconv.FormatInt(int64(bits), 10)
	case ptx.B64, ptx.U64:
		if bits > 1<<32 {
			return fmt.Sprintf("0x%x", bits)
		}
		return strconv.FormatUint(bits, 10)
	}
	return strconv.FormatUint(bits&0xffffffff, 10)
}

// tracedAccess is the cache outcome of one memory access of a traced warp.
type tracedAccess struct {
	line    int
	outcome mem.Outcome
}

// convertTrace turns the simulator's record into the widget's compact form.
// traced holds, per warp and in execution order, the cache outcome of each of
// its memory accesses; they are matched to the steps by PTX line.
func convertTrace(t *sim.Trace, res *sim.Result, mod *ptx.Module, file string, traced map[int][]tracedAccess) *report.Trace {
	types := regTypes(mod.Funcs...)
	out := &report.Trace{Block: t.Block, Truncated: t.Truncated, Steps: make([]report.TraceStep, 0, len(t.Steps))}
	for w := t.WarpLo; w <= t.WarpHi; w++ {
		out.Warps = append(out.Warps, w)
	}
	lineOf := func(pc int) int {
		if pc >= 0 && pc < len(res.Insts) {
			return res.Insts[pc].Line
		}
		return 0
	}
	for _, s := range t.Steps {
		ts := report.TraceStep{Warp: s.Warp, PC: s.PC, PTXLine: s.Line, CUDALine: cudaLine(mod, s.Loc, file),
			Active: s.Active, Exited: s.Exited, Text: s.Text, Event: s.Event}
		for _, wr := range s.Writes {
			tw := report.TraceWrite{Reg: wr.Reg, Values: make([]string, 32)}
			typ := types[wr.Reg]
			for l := 0; l < 32; l++ {
				tw.Values[l] = formatReg(wr.Values[l], typ)
			}
			ts.Writes = append(ts.Writes, tw)
		}
		var outcome *mem.Outcome
		for q := traced[s.Warp]; len(q) > 0 && q[0].line == s.Line; q = traced[s.Warp] {
			if outcome == nil {
				o := q[0].outcome
				outcome = &o
			}
			traced[s.Warp] = q[1:]
		}
		if len(s.Mem) > 0 {
			ts.Mem = traceMem(&s.Mem[0])
			if outcome != nil && (s.Mem[0].Space == "global" || s.Mem[0].Space == "local") {
				ts.Mem.L1Hits, ts.Mem.L1Misses = outcome.L1Hits, outcome.L1Misses
				ts.Mem.L2Hits, ts.Mem.L2Misses = outcome.L2Hits, outcome.L2Misses
				ts.Mem.Cached = true
			}
		}
		for _, e := range s.Stack {
			rpc := e.RPC
			if rpc < 0 {
				rpc = -1
			}
			ts.Stack = append(ts.Stack, report.StackEntry{PC: e.PC, Line: lineOf(e.PC), Reconv: rpc, ReconvLine: lineOf(rpc), Mask: e.Mask})
		}
		if s.Barrier != nil {
			ev := fmt.Sprintf("barrier %d: %d of %d threads arrived", s.Barrier.ID, s.Barrier.Arrived, s.Barrier.Expected)
			if s.Barrier.Waiting {
				ev += ", warp waits"
			}
			if len(s.Barrier.Released) > 0 {
				ev += fmt.Sprintf(", releases warps %v", s.Barrier.Released)
			}
			if ts.Event != "" {
				ev = ts.Event + "; " + ev
			}
			ts.Event = ev
		}
		out.Steps = append(out.Steps, ts)
	}
	return out
}

// traceMem describes one memory record: addresses, banks or sectors, and the counts.
func traceMem(r *sim.MemRecord) *report.TraceMem {
	tm := &report.TraceMem{Space: r.Space, Bytes: r.Bytes, Addr: make([]string, 32), Unit: make([]int, 32)}
	acc := mem.Access{Bytes: r.Bytes, Mask: r.Mask, Addr: r.Addr}
	var minSector uint64 = math.MaxUint64
	for l := 0; l < 32; l++ {
		if r.Mask&(1<<l) != 0 && r.Addr[l]/32 < minSector {
			minSector = r.Addr[l] / 32
		}
	}
	for l := 0; l < 32; l++ {
		tm.Unit[l] = -1
		if r.Mask&(1<<l) == 0 {
			continue
		}
		tm.Addr[l] = fmt.Sprintf("0x%x", r.Addr[l])
		if r.Space == "shared" {
			tm.Unit[l] = int(r.Addr[l]/4) % 32
		} else {
			tm.Unit[l] = int(r.Addr[l]/32 - minSector)
		}
	}
	switch r.Space {
	case "shared":
		acc.Space = mem.Shared
		tm.Wavefronts, tm.Ideal = mem.SharedWavefronts(&acc)
	case "global":
		acc.Space = mem.Global
		_, tm.Sectors, tm.Ideal = mem.GlobalSectors(&acc)
	}
	return tm
}
