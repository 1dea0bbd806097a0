package ptxas

import (
	"fmt"
	"github.com/kernelscope/kernelscope/gpu/isa"
	"sort"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// The merging rule, as the nvcc 13 listings show it (testdata/measured/ptxas/sass/iso.*,
// golden matmul_tiled and transpose): ptxas turns scalar loads (or stores) of one basic block
// that use the same base register with consecutive immediate offsets into one 64- or 128-bit
// LDS/STS (LDG/STG) when the merged access is provably aligned: the base register's value is a
// known multiple of the merged width and so is the first offset. ptxas lays out .shared
// variables itself and places arrays of 16 bytes or more on 16-byte boundaries, so a shared
// array's address counts as 16-aligned whatever its .align says; a pointer parameter's
// alignment is unknown, so global accesses through one never merge (iso_ldg_adj, iso_stg_adj:
// a[2i], a[2i+1] stay two LDG.E). A barrier, and for loads a store to the same space (for stores
// a load), ends the run of candidates.

// memCand is one mergeable access.
type memCand struct {
	pc     int
	off    int64
	width  int // bytes
	base   string
	key    string // what must be equal: op, space, base, guard, type, block
	shared bool
}

// merge finds the merge groups of the function and updates the issue counts.
func (lw *lowerer) merge() {
	df := lw.df
	var run []memCand
	// take removes the candidates for which drop holds and merges what they can form
	take := func(drop func(c memCand) bool) {
		keep, gone := run[:0:0], []memCand(nil)
		for _, c := range run {
			if drop(c) {
				gone = append(gone, c)
			} else {
				keep = append(keep, c)
			}
		}
		run = keep
		lw.mergeRun(gone)
	}
	all := func(memCand) bool { return true }
	lastBlock := -1
	for pc, in := range lw.df.in {
		if b := df.block(pc); b != lastBlock {
			take(all)
			lastBlock = b
		}
		switch in.Op {
		case isa.OpBar, isa.OpBarrier, isa.OpMembar, isa.OpFence, isa.OpAtom, isa.OpRed, isa.OpCall:
			take(all)
			continue
		}
		if in.Op == isa.OpLd || in.Op == isa.OpSt {
			// a store ends the runs of loads from its space and a load those of stores
			sp := space(in)
			take(func(c memCand) bool { return spaceOf(c) == sp && lw.df.in[c.pc].Op != in.Op })
			if c, ok := lw.candidate(pc, in, lastBlock); ok {
				run = append(run, c)
			}
		}
		// a redefinition of a candidate's base register ends its run
		for _, d := range dests(in) {
			take(func(c memCand) bool { return c.base == d })
		}
	}
	take(all)
}

func spaceOf(c memCand) string {
	if c.shared {
		return "shared"
	}
	return "global"
}

func space(in *inst) string {
	if has(in, "shared") {
		return "shared"
	}
	return "global"
}

// candidate reports whether in is a scalar shared/global load or store through [reg+imm].
func (lw *lowerer) candidate(pc int, in *inst, block int) (memCand, bool) {
	if in.Op != isa.OpLd && in.Op != isa.OpSt {
		return memCand{}, false
	}
	if has(in, "volatile") || has(in, "v2") || has(in, "v4") || has(in, "v8") || has(in, "param") || has(in, "local") || has(in, "const") {
		return memCand{}, false
	}
	shared := has(in, "shared")
	if !shared && !has(in, "global") {
		return memCand{}, false
	}
	var addr ptx.Operand
	found := false
	for _, a := range in.Args {
		if a.Kind == ptx.OpAddr {
			addr, found = a, true
			break
		}
	}
	if !found || !addr.BaseReg {
		return memCand{}, false
	}
	t := typ(in)
	tt, ok := ptx.TypeByName(t)
	if !ok {
		return memCand{}, false
	}
	w := tt.Size()
	if w != 4 && w != 8 {
		return memCand{}, false
	}
	key := fmt.Sprintf("%s|%s|%s|%s|%v|%d|%d", in.Op, space(in), addr.Name, in.Guard, in.GuardNeg, w, block)
	return memCand{pc: pc, off: addr.Imm, width: w, base: addr.Name, key: key, shared: shared}, true
}

// baseAlign is the known alignment of a candidate's base register.
func (lw *lowerer) baseAlign(c memCand) int {
	a := lw.df.align[c.base]
	if a == 0 {
		a = 1
	}
	return a
}

// mergeRun forms groups among candidates that share a key.
func (lw *lowerer) mergeRun(run []memCand) {
	if len(run) < 2 {
		return
	}
	byKey := map[string][]memCand{}
	var keys []string
	for _, c := range run {
		if lw.l.Insts[c.pc].Group >= 0 {
			continue
		}
		if _, ok := byKey[c.key]; !ok {
			keys = append(keys, c.key)
		}
		byKey[c.key] = append(byKey[c.key], c)
	}
	for _, k := range keys {
		cs := byKey[k]
		if len(cs) < 2 {
			continue
		}
		sort.Slice(cs, func(i, j int) bool { return cs[i].off < cs[j].off })
		at := map[int64]memCand{}
		for _, c := range cs {
			if _, dup := at[c.off]; !dup {
				at[c.off] = c
			}
		}
		used := map[int64]bool{}
		align := lw.baseAlign(cs[0])
		for _, c := range cs {
			if used[c.off] {
				continue
			}
			w := int64(c.width)
			for _, n := range []int64{4, 2} {
				bytes := n * w
				if bytes > 16 || int64(align) < bytes || c.off%bytes != 0 {
					continue
				}
				ok := true
				for i := int64(0); i < n; i++ {
					if m, has := at[c.off+i*w]; !has || used[c.off+i*w] || m.pc < 0 {
						ok = false
						break
					}
				}
				if !ok {
					continue
				}
				g := Group{Leader: c.pc, Bytes: int(bytes), Space: spaceOf(c), Op: lw.df.in[c.pc].Op.String()}
				for i := int64(0); i < n; i++ {
					m := at[c.off+i*w]
					used[c.off+i*w] = true
					g.Members = append(g.Members, m.pc)
				}
				g.SASS = sassName(g)
				gi := len(lw.l.Groups)
				lw.l.Groups = append(lw.l.Groups, g)
				for _, m := range g.Members {
					lw.l.Insts[m].Group = gi
					if m != g.Leader {
						lw.emit(m, fmt.Sprintf("merged into the %s of PTX instruction %d", g.SASS, g.Leader))
					}
				}
				lw.l.Insts[g.Leader].Why = fmt.Sprintf("%s: %d adjacent accesses merged", g.SASS, n)
				break
			}
		}
	}
}

// sassName is the SASS mnemonic of a merged access.
func sassName(g Group) string {
	op := map[string]string{"ld|shared": "LDS", "st|shared": "STS", "ld|global": "LDG.E", "st|global": "STG.E"}[g.Op+"|"+g.Space]
	return fmt.Sprintf("%s.%d", op, g.Bytes*8)
}
