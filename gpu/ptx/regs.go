package ptx

import "math/bits"

// noDest lists the opcodes none of whose operands is written to a register.
var noDest = map[string]bool{
	"st": true, "red": true, "bar": true, "barrier": true, "bra": true, "brx": true, "ret": true,
	"exit": true, "trap": true, "brkpt": true, "membar": true, "fence": true, "prefetch": true,
	"prefetchu": true, "cp": true, "sust": true, "sured": true, "stmatrix": true, "nanosleep": true,
	"pmevent": true, "setmaxnreg": true, "griddepcontrol": true, "discard": true,
	"applypriority": true, "stackrestore": true, "tensormap": true, "tcgen05": true,
}

// Defs reports whether the instruction's first operand is a destination
// written by the instruction (false for stores, branches, barriers ...).
func (in *Inst) Defs() bool {
	if noDest[in.Op] || len(in.Args) == 0 {
		return false
	}
	first := ""
	if len(in.Mods) > 0 {
		first = in.Mods[0]
	}
	switch in.Op {
	case "call":
		return in.Args[0].Kind == OpList
	case "mbarrier":
		switch first {
		case "arrive", "arrive_drop", "test_wait", "try_wait", "pending_count":
			return true
		}
		return false
	case "wmma":
		return first != "store"
	case "multimem":
		return first == "ld_reduce"
	case "clusterlaunchcontrol":
		return false
	}
	return true
}

// regWidth returns the number of 32-bit register slots a declaration needs;
// predicates live in their own register file and count 0.
func regWidth(d *RegDecl) int {
	w := 1
	switch d.Type.Size() {
	case 8:
		w = 2
	case 16:
		w = 4
	}
	if d.Type == Pred {
		w = 0
	}
	if d.Vec > 0 {
		w *= d.Vec
	}
	return w
}

// ReservedRegisters is the number of registers ptxas counts beyond the
// highest one a function uses: in every golden SASS listing (sm_75 to sm_90)
// the REG of cuobjdump -res-usage is the highest register index used plus
// one plus two (see gpu/sass TestReservedRegisters).
const ReservedRegisters = 2

// EstimateRegisters estimates the registers per thread that ptxas would
// report for f: the largest total width, in 32-bit slots, of virtual
// registers live at the same time (64-bit registers count 2, predicates 0),
// from a liveness analysis over the control-flow graph, plus
// ReservedRegisters. It does not model ptxas's scheduling (loads hoisted to
// overlap their latency lengthen live ranges), rematerialisation, or the
// ABI registers of calls, so it is an estimate (it tends to be low; the
// error per architecture is logged by TestEstimateRegistersGolden). It
// returns 0 for a function without instructions.
func EstimateRegisters(f *Func) int {
	if f == nil || len(f.Insts) == 0 {
		return 0
	}
	return maxLive(f) + ReservedRegisters
}

// maxLive is the peak register pressure of f in 32-bit slots.
func maxLive(f *Func) int {
	g, err := BuildCFG(f)
	if err != nil {
		// Without control flow, treat the body as one straight line.
		g = &CFG{Func: f, Blocks: []Block{{Start: 0, End: len(f.Insts), Exit: true}}, BlockOf: make([]int, len(f.Insts))}
	}
	exact := make(map[string]*RegDecl, len(f.Regs))
	ranges := make(map[string]*RegDecl, len(f.Regs))
	for _, d := range f.Regs {
		if d.Count > 0 {
			ranges[d.Name] = d
		} else {
			exact[d.Name] = d
		}
	}
	index := make(map[string]int, 64)
	var widths []int
	regOf := func(name string) int {
		if i, ok := index[name]; ok {
			return i
		}
		w := 1
		if d, ok := exact[name]; ok {
			w = regWidth(d)
		} else {
			j := len(name)
			for j > 0 && isDigit(name[j-1]) {
				j--
			}
			if d, ok := ranges[name[:j]]; ok {
				w = regWidth(d)
			}
		}
		for _, par := range f.Params {
			if par.Reg && par.Name == name {
				w = (par.Type.Size() + 3) / 4
				if par.Type == Pred {
					w = 0
				}
			}
		}
		i := len(widths)
		index[name] = i
		widths = append(widths, w)
		return i
	}
	info := make([]du, len(f.Insts))
	var walk func(o Operand, def bool, d *du)
	walk = func(o Operand, def bool, d *du) {
		switch o.Kind {
		case OpReg:
			if def {
				d.defs = append(d.defs, regOf(o.Name))
			} else {
				d.uses = append(d.uses, regOf(o.Name))
			}
		case OpAddr:
			if o.BaseReg {
				d.uses = append(d.uses, regOf(o.Name))
			}
			for _, e := range o.Elems {
				walk(e, false, d)
			}
		case OpVec, OpPair, OpList, OpMask:
			for _, e := range o.Elems {
				walk(e, def, d)
			}
		}
	}
	for i, in := range f.Insts {
		d := &info[i]
		if in.Guard != "" {
			d.uses = append(d.uses, regOf(in.Guard))
		}
		defs := in.Defs()
		for j, a := range in.Args {
			walk(a, defs && j == 0, d)
		}
		if defs && in.Guard != "" {
			// A guarded write may leave the old value: it is also a use.
			d.uses = append(d.uses, d.defs...)
		}
	}
	n := len(widths)
	words := (n + 63) / 64
	nb := len(g.Blocks)
	liveIn := make([][]uint64, nb)
	liveOut := make([][]uint64, nb)
	for b := range liveIn {
		liveIn[b] = make([]uint64, words)
		liveOut[b] = make([]uint64, words)
	}
	tmp := make([]uint64, words)
	for changed := true; changed; {
		changed = false
		for b := nb - 1; b >= 0; b-- {
			blk := &g.Blocks[b]
			out := liveOut[b]
			for _, s := range blk.Succs {
				for w := range out {
					out[w] |= liveIn[s][w]
				}
			}
			copy(tmp, out)
			for i := blk.End - 1; i >= blk.Start; i-- {
				for _, r := range info[i].defs {
					tmp[r/64] &^= 1 << (r % 64)
				}
				for _, r := range info[i].uses {
					tmp[r/64] |= 1 << (r % 64)
				}
			}
			for w := range tmp {
				if tmp[w] != liveIn[b][w] {
					liveIn[b][w] = tmp[w]
					changed = true
				}
			}
		}
	}
	best := 0
	live := make([]uint64, words)
	for b := range g.Blocks {
		blk := &g.Blocks[b]
		copy(live, liveOut[b])
		sum := 0
		for w, x := range live {
			for x != 0 {
				r := w*64 + bits.TrailingZeros64(x)
				x &= x - 1
				sum += widths[r]
			}
		}
		best = max(best, sum)
		for i := blk.End - 1; i >= blk.Start; i-- {
			// At instruction i the registers live after it and the ones it
			// writes occupy registers together.
			point := sum
			for _, r := range info[i].defs {
				if live[r/64]&(1<<(r%64)) == 0 {
					point += widths[r]
				}
			}
			best = max(best, point)
			for _, r := range info[i].defs {
				if live[r/64]&(1<<(r%64)) != 0 {
					live[r/64] &^= 1 << (r % 64)
					sum -= widths[r]
				}
			}
			for _, r := range info[i].uses {
				if live[r/64]&(1<<(r%64)) == 0 {
					live[r/64] |= 1 << (r % 64)
					sum += widths[r]
				}
			}
			best = max(best, sum)
		}
	}
	return best
}

// du holds the registers an instruction writes and reads.
type du struct{ defs, uses []int }
