package ptxas

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/sass"
)

// LowerFromSASS builds fn's lowering from the real listing of the same build (nvdisasm -c -g,
// with source lines): the SASS instructions of each CUDA source line are shared out over the
// PTX instructions of that line in proportion to the modelled issue counts (evenly where the
// model gives the line nothing), with their real pipes. SASS on lines without PTX goes to the
// entry cost. Merge groups are the modelled ones that the listing confirms (a 64/128-bit
// LDS/STS/LDG/STG on the leader's line). Exact per line; within a line whose PTX instructions
// run different numbers of times (a for statement's init and increment) it is approximate.
func LowerFromSASS(mod *ptx.Module, fn *ptx.Func, arch string, f *sass.Func) (*Lowering, error) {
	if f == nil {
		return nil, fmt.Errorf("ptxas: no SASS listing of %s", fn.Name)
	}
	model, err := Lower(mod, fn, arch)
	if err != nil {
		return nil, err
	}
	hasLines := false
	for _, in := range f.Insts {
		if in.Line > 0 {
			hasLines = true
			break
		}
	}
	if !hasLines {
		return nil, fmt.Errorf("ptxas: the SASS listing of %s has no source lines (nvdisasm -g)", fn.Name)
	}
	l := &Lowering{Func: fn.Name, Arch: arch, Source: FromSASS, Insts: make([]Inst, len(fn.Insts))}
	fileName := func(idx int32) string {
		if mod != nil {
			for _, fl := range mod.Files {
				if int32(fl.Index) == idx {
					return filepath.Base(fl.Name)
				}
			}
		}
		return ""
	}
	key := func(file string, line int) string { return file + ":" + fmt.Sprint(line) }
	ptxOf := map[string][]int{}
	for i, in := range fn.Insts {
		l.Insts[i].Group = -1
		if in.Loc.Line > 0 {
			k := key(fileName(in.Loc.File), int(in.Loc.Line))
			ptxOf[k] = append(ptxOf[k], i)
		}
	}
	type lineSASS struct {
		n     float64
		pipes [NumPipes]float64
		ops   map[string]bool
	}
	byLine := map[string]*lineSASS{}
	for _, in := range executable(f) {
		k := key(filepath.Base(in.File), in.Line)
		if in.Line == 0 || len(ptxOf[k]) == 0 {
			l.Entry++
			l.EntryPipes[sassPipe(in.Op)]++
			continue
		}
		ls := byLine[k]
		if ls == nil {
			ls = &lineSASS{ops: map[string]bool{}}
			byLine[k] = ls
		}
		ls.n++
		ls.pipes[sassPipe(in.Op)]++
		ls.ops[strings.Join(append([]string{in.Op}, in.Mods...), ".")] = true
	}
	for k, pcs := range ptxOf {
		ls := byLine[k]
		if ls == nil {
			for _, pc := range pcs {
				l.Insts[pc].Why = "no SASS on this source line"
			}
			continue
		}
		w, sum := make([]float64, len(pcs)), 0.0
		for j, pc := range pcs {
			w[j] = model.Insts[pc].Issue
			sum += w[j]
		}
		if sum == 0 {
			for j := range w {
				w[j] = 1
			}
			sum = float64(len(w))
		}
		for j, pc := range pcs {
			share := w[j] / sum
			in := &l.Insts[pc]
			in.Issue = ls.n * share
			for p := range in.Pipes {
				in.Pipes[p] = ls.pipes[p] * share
			}
			in.Slots, in.SlotPipes = in.Issue, in.Pipes
			in.Why = fmt.Sprintf("%.2f of the %d SASS instructions of CUDA line %s", in.Issue, int(ls.n), k)
		}
	}
	for _, g := range model.Groups {
		in := fn.Insts[g.Leader]
		ls := byLine[key(fileName(in.Loc.File), int(in.Loc.Line))]
		if ls == nil {
			continue
		}
		confirmed := false
		for op := range ls.ops {
			if strings.HasSuffix(op, fmt.Sprintf(".%d", g.Bytes*8)) && (strings.HasPrefix(op, "LDS") || strings.HasPrefix(op, "STS") || strings.HasPrefix(op, "LDG") || strings.HasPrefix(op, "STG")) {
				confirmed = true
			}
		}
		if !confirmed {
			continue
		}
		gi := len(l.Groups)
		l.Groups = append(l.Groups, g)
		for _, m := range g.Members {
			l.Insts[m].Group = gi
		}
	}
	return l, nil
}

// executable returns the instructions up to the last EXIT (up to the last RET in a device
// function), without NOPs: the self-branch and padding after it never run, nor do the
// slow-path subroutines ptxas places after the kernel's EXIT (reached by CALL only on rare
// operands: IEEE division and square root, iso_libm and iso_f64).
func executable(f *sass.Func) []sass.Inst {
	last := -1
	for i, in := range f.Insts {
		if in.Op == "EXIT" {
			last = i
		}
	}
	if last < 0 {
		for i, in := range f.Insts {
			if in.Op == "RET" {
				last = i
			}
		}
	}
	out := make([]sass.Inst, 0, last+1)
	for _, in := range f.Insts[:last+1] {
		if in.Op != "NOP" {
			out = append(out, in)
		}
	}
	return out
}

// LowerModuleFromSASS builds the lowering of every function of mod that the listing has
// (from SASS), modelling those it lacks.
func LowerModuleFromSASS(mod *ptx.Module, arch string, lst *sass.Listing) (*Program, error) {
	p := &Program{Arch: arch, Source: FromSASS, Funcs: map[string]*Lowering{}}
	for _, fn := range mod.Funcs {
		if !fn.HasBody {
			continue
		}
		var l *Lowering
		var err error
		if sf := lst.Func(fn.Name); sf != nil {
			l, err = LowerFromSASS(mod, fn, arch, sf)
		} else {
			l, err = Lower(mod, fn, arch)
		}
		if err != nil {
			return nil, fmt.Errorf("ptxas: %s: %w", fn.Name, err)
		}
		p.Funcs[fn.Name] = l
	}
	return p, nil
}
