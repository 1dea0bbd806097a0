package sim

// liveness computes, for every op of the program, the registers live after
// it (read later on some path before being written), by the usual backward
// dataflow over each function's control flow. Hidden (special) registers are
// left out. It is only computed when a trace is recorded.
func (p *program) liveness() [][]int32 {
	live := make([][]int32, len(p.ops))
	for _, fn := range p.fns {
		n := len(fn.f.Insts) + 1 // with the implicit end op
		words := (fn.nregs + 63) / 64
		in := make([][]uint64, n)
		out := make([][]uint64, n)
		use := make([][]uint64, n)
		def := make([][]uint64, n)
		for i := 0; i < n; i++ {
			in[i] = make([]uint64, words)
			out[i] = make([]uint64, words)
			use[i] = make([]uint64, words)
			def[i] = make([]uint64, words)
			o := &p.ops[int(fn.base)+i]
			set := func(b []uint64, r int32) {
				if r >= nHidden && int(r) < fn.nregs {
					b[r/64] |= 1 << uint(r%64)
				}
			}
			set(use[i], o.guard)
			for k := 0; k < int(o.ns) && k < 4; k++ {
				set(use[i], o.src[k].reg)
			}
			if o.kind == kBar && o.sub >= barRedPopc {
				set(use[i], o.src[2].reg)
			}
			if o.kind == kCvta || o.kind == kLd || o.kind == kSt || o.kind == kAtom || o.kind == kCpAsync {
				set(use[i], o.addr.reg)
			}
			if o.kind == kCall {
				for _, a := range o.call.args {
					if !a.param {
						set(use[i], a.v.reg)
					}
				}
			}
			if o.guard < 0 {
				for k := 0; k < int(o.nd) && k < 4; k++ {
					set(def[i], o.dst[k])
				}
				if o.kind == kCall {
					for _, a := range o.call.rets {
						if !a.param {
							set(def[i], a.v.reg)
						}
					}
				}
			}
		}
		succ := func(i int) []int {
			o := &p.ops[int(fn.base)+i]
			var s []int
			guarded := o.guard >= 0
			switch o.kind {
			case kBra:
				s = append(s, int(o.target-fn.base))
				if guarded {
					s = append(s, i+1)
				}
			case kBrx:
				for _, t := range o.targets {
					s = append(s, int(t-fn.base))
				}
				if guarded {
					s = append(s, i+1)
				}
			case kRet, kExit, kTrap:
				if guarded {
					s = append(s, i+1)
				}
			default:
				s = append(s, i+1)
			}
			return s
		}
		for changed := true; changed; {
			changed = false
			for i := n - 1; i >= 0; i-- {
				for _, j := range succ(i) {
					if j < 0 || j >= n {
						continue
					}
					for w := range out[i] {
						if v := out[i][w] | in[j][w]; v != out[i][w] {
							out[i][w] = v
							changed = true
						}
					}
				}
				for w := range in[i] {
					v := use[i][w] | out[i][w]&^def[i][w]
					if v != in[i][w] {
						in[i][w] = v
						changed = true
					}
				}
			}
		}
		for i := 0; i < n; i++ {
			var regs []int32
			for w, bitsW := range out[i] {
				for b := 0; b < 64; b++ {
					if bitsW&(1<<uint(b)) != 0 {
						regs = append(regs, int32(w*64+b))
					}
				}
			}
			live[int(fn.base)+i] = regs
		}
	}
	return live
}
