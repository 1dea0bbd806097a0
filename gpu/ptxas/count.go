package ptxas

import (
	"fmt"

	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/sim"
)

// Counts are the SASS warp-instructions a launch is modelled to execute.
type Counts struct {
	Total  float64           // warp-level SASS instructions (what smsp__inst_executed.sum counts)
	Pipes  [NumPipes]float64 // the same per pipe
	PTX    int64             // the PTX warp-instructions they come from
	Source Source            // modelled lowering or from SASS
}

// Program is the lowering of every function of a module with a body.
type Program struct {
	Arch   string
	Source Source
	Funcs  map[string]*Lowering
}

// LowerModule models the lowering of every function of mod.
func LowerModule(mod *ptx.Module, arch string) (*Program, error) {
	p := &Program{Arch: arch, Source: Modelled, Funcs: map[string]*Lowering{}}
	for _, fn := range mod.Funcs {
		if !fn.HasBody {
			continue
		}
		l, err := Lower(mod, fn, arch)
		if err != nil {
			return nil, fmt.Errorf("ptxas: %s: %w", fn.Name, err)
		}
		p.Funcs[fn.Name] = l
	}
	return p, nil
}

// Count turns a launch's per-instruction executions (sim.Result.Insts) into SASS counts;
// warps is the number of warps the launch ran (each pays the kernel's entry cost once).
func (p *Program) Count(kernel string, insts []sim.InstStats, warps int64) (Counts, error) {
	c := Counts{Source: p.Source}
	k, ok := p.Funcs[kernel]
	if !ok {
		return c, fmt.Errorf("ptxas: no lowering of kernel %s", kernel)
	}
	c.Total = k.Entry * float64(warps)
	for i := range c.Pipes {
		c.Pipes[i] = k.EntryPipes[i] * float64(warps)
	}
	for _, s := range insts {
		l := p.Funcs[s.Func]
		if l == nil || s.Index < 0 {
			return c, fmt.Errorf("ptxas: instruction %d of %s has no lowering", s.Index, s.Func)
		}
		if s.Index >= len(l.Insts) { // the simulator's implicit exit at the end of the body
			c.Total += float64(s.WarpExecs)
			c.Pipes[PipeCBU] += float64(s.WarpExecs)
			continue
		}
		in := &l.Insts[s.Index]
		n := float64(s.WarpExecs)
		c.PTX += s.WarpExecs
		c.Total += n * in.Issue
		for i, v := range in.Pipes {
			c.Pipes[i] += n * v
		}
	}
	return c, nil
}

// TimingByPC returns kernel's Lowering.TimingIssues (per PTX PC: whole SASS issue slots and
// their pipes), what a per-instruction timing model issues.
func (p *Program) TimingByPC(kernel string) ([]TimingIssue, error) {
	k, ok := p.Funcs[kernel]
	if !ok {
		return nil, fmt.Errorf("ptxas: no lowering of kernel %s", kernel)
	}
	return k.TimingIssues(), nil
}

// MergeFilter sits between the simulator's memory observer and a counter: it hands on one
// access per merged SASS instruction (the group leader's, widened to the merged width) and
// drops the other members, so that requests, sectors and wavefronts are counted the way the
// hardware sees the 64/128-bit instruction. Accesses are matched by PTX line (unique per
// instruction in nvcc and clang output). It does not allocate per access.
type MergeFilter struct {
	act     []int8 // per PTX line: 0 pass, -1 drop, n > 0 widen to n bytes per lane
	next    func(*mem.Access)
	scratch mem.Access
	Merged  int64 // accesses dropped into a merged leader
}

// NewMergeFilter returns a filter for the kernel's lowering (and its device functions').
func NewMergeFilter(p *Program, mod *ptx.Module, next func(*mem.Access)) *MergeFilter {
	f := &MergeFilter{next: next}
	for _, fn := range mod.Funcs {
		l := p.Funcs[fn.Name]
		if l == nil {
			continue
		}
		for _, g := range l.Groups {
			for _, m := range g.Members {
				line := int(fn.Insts[m].Pos.Line)
				if line <= 0 {
					continue
				}
				for len(f.act) <= line {
					f.act = append(f.act, 0)
				}
				if m == g.Leader {
					f.act[line] = int8(g.Bytes)
				} else {
					f.act[line] = -1
				}
			}
		}
	}
	return f
}

// Observe counts one warp-level access through the filter.
func (f *MergeFilter) Observe(a *mem.Access) {
	if ca, keep := f.Filter(a); keep && f.next != nil {
		f.next(ca)
	}
}

// Filter returns the access to count for a (a itself, or the merged leader widened to the
// group's width in a buffer reused by the next call) and false when a merged into its leader.
func (f *MergeFilter) Filter(a *mem.Access) (*mem.Access, bool) {
	if a.Line <= 0 || a.Line >= len(f.act) || f.act[a.Line] == 0 {
		return a, true
	}
	act := f.act[a.Line]
	if act < 0 {
		f.Merged++
		return nil, false
	}
	f.scratch = *a
	f.scratch.Bytes = int(act)
	return &f.scratch, true
}
