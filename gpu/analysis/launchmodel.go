package analysis

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/gpu/sim"
)

// launchShape is the grid and block of the request: %grid/%block (or
// --grid/--block) first, then the <<<grid, block>>> of the launch.
func launchShape(req Request) (grid, block [3]int) {
	grid, block = req.Grid, req.Block
	if l := req.Launch; l != nil {
		if grid == [3]int{} {
			grid = l.Grid
		}
		if block == [3]int{} {
			block = l.Block
		}
	}
	return grid, block
}

// externShared lists the extern .shared arrays of unknown size the kernel
// names (its own and module-scope ones): its dynamic shared memory.
func externShared(m *ptx.Module, f *ptx.Func) []string {
	used := referencedNames(f)
	var out []string
	isDyn := func(v *ptx.Var) bool {
		return (v.Space == ptx.SpaceShared || v.Space == ptx.SpaceSharedCluster) && v.Size() == 0 && len(v.Dims) > 0
	}
	for _, v := range f.Vars {
		if isDyn(v) {
			out = append(out, v.Name)
		}
	}
	for _, v := range m.Globals {
		if isDyn(v) && used[v.Name] {
			out = append(out, v.Name)
		}
	}
	return out
}

// referencedNames are the symbols a function's instructions name.
func referencedNames(f *ptx.Func) map[string]bool {
	used := map[string]bool{}
	for _, in := range f.Insts {
		for _, a := range in.Args {
			if a.Kind == ptx.OpSym || (a.Kind == ptx.OpAddr && !a.BaseReg) {
				used[a.Name] = true
			}
		}
	}
	return used
}

// dynamicShared is the dynamic shared memory of the launch. A kernel with
// extern __shared__ arrays and no size given is an error naming them: on a GPU
// it would get 0 bytes and fault at its first access.
func dynamicShared(m *ptx.Module, f *ptx.Func, l *launch.Launch) (int, error) {
	if l != nil && l.SharedSet {
		return l.Shared, nil
	}
	ext := externShared(m, f)
	if len(ext) == 0 {
		return 0, nil
	}
	return 0, fmt.Errorf("kernel %s uses dynamic shared memory (extern __shared__ %s) but the launch gives it no size: "+
		"write %%launch %s<<<grid, block, BYTES>>>(...) or %%shared BYTES (--dynamic-smem BYTES on the command line)",
		kernelDisplayName(f.Name), strings.Join(ext, ", "), kernelDisplayName(f.Name))
}

// symbolArg is one symbol set by the launch, materialised.
type symbolArg struct {
	info  report.ArgInfo
	bytes []byte
}

// buildSymbols materialises the launch's %symbol values. The element type is
// the initialiser's suffix, else the CUDA declaration's, else the PTX
// variable's (an untyped .b8 array needs one of the first two).
// file() is read as buildArgs reads it (confined and capped in sandbox mode).
func buildSymbols(ctx context.Context, m *ptx.Module, l *launch.Launch, cvars map[string]string, baseDir string, sandbox bool) ([]symbolArg, map[string][]byte, error) {
	if l == nil || len(l.Symbols) == 0 {
		return nil, nil, nil
	}
	vars := map[string]*ptx.Var{}
	var names []string
	for _, v := range m.Globals {
		if v.Space == ptx.SpaceGlobal || v.Space == ptx.SpaceConst {
			vars[v.Name] = v
			names = append(names, v.Name)
		}
	}
	sort.Strings(names)
	out := map[string][]byte{}
	var infos []symbolArg
	for i, s := range l.Symbols {
		v, ok := vars[s.Name]
		if !ok {
			list := strings.Join(names, ", ")
			if list == "" {
				list = "none"
			}
			return nil, nil, fmt.Errorf("%%symbol %s: the module has no __constant__ or __device__ variable of that name (variables: %s)", s.Name, list)
		}
		elem := s.Init.Type
		if elem == "" {
			elem = cElem(cvars[s.Name])
		}
		if elem == "" && v.Type != ptx.B8 {
			elem = ptxTypeToElem(v.Type)
		}
		if elem == "" {
			return nil, nil, fmt.Errorf("%%symbol %s: its element type is unknown (the PTX says .%s, the CUDA source is not known): give a suffix like rand(17):f32", s.Name, v.Type)
		}
		size := launch.ElemSizes[elem]
		var b []byte
		var desc string
		if s.Init.Func == "file" {
			raw, err := readInitFile(ctx, s.Init.Path, baseDir, sandbox, int64(v.Size())+1)
			if err != nil {
				return nil, nil, fmt.Errorf("%%symbol %s: %w", s.Name, err)
			}
			b, desc = raw, fmt.Sprintf("file(%q):%s", s.Init.Path, elem)
		} else {
			if s.Init.N > v.Size() {
				return nil, nil, fmt.Errorf("%%symbol %s: the variable has %d bytes (%d %s elements), the initialiser gives %d elements",
					s.Name, v.Size(), v.Size()/size, elem, s.Init.N)
			}
			var err error
			b, desc, err = launch.Materialise(s.Init, elem, size, baseDir, int64(1000+i))
			if err != nil {
				return nil, nil, fmt.Errorf("%%symbol %s: %w", s.Name, err)
			}
		}
		if len(b) > v.Size() {
			return nil, nil, fmt.Errorf("%%symbol %s: the variable has %d bytes (%d %s elements), the initialiser gives %d",
				s.Name, v.Size(), v.Size()/size, elem, len(b))
		}
		out[s.Name] = b
		infos = append(infos, symbolArg{info: report.ArgInfo{Name: s.Name, Type: elem, Buffer: true, Count: len(b) / size, Init: desc}, bytes: b})
	}
	return infos, out, nil
}

// variableOutputs are the module variables to show after the launch: the ones
// the launch set and the __device__ variables the kernel changed.
func variableOutputs(m *ptx.Module, res *sim.Result, set []symbolArg, cvars map[string]string) []report.Output {
	given := map[string]symbolArg{}
	for _, s := range set {
		given[s.info.Name] = s
	}
	decl := map[string]*ptx.Var{}
	for _, v := range m.Globals {
		decl[v.Name] = v
	}
	var out []report.Output
	for _, v := range res.Variables {
		s, isSet := given[v.Name]
		before := s.bytes
		if !isSet {
			pv := decl[v.Name]
			if pv == nil || v.Space != "global" || strings.HasPrefix(v.Name, "$") || strings.HasPrefix(v.Name, "__") {
				continue
			}
			before = initialBytes(pv)
			if string(padTo(before, len(v.Data))) == string(v.Data) {
				continue
			}
		}
		elem := ""
		if isSet {
			elem = s.info.Type
		} else if e := cElem(cvars[v.Name]); e != "" {
			elem = e
		} else if e := ptxTypeToElem(decl[v.Name].Type); e != "" {
			elem = e
		} else {
			elem = "u8"
		}
		size := launch.ElemSizes[elem]
		data := v.Data[:len(v.Data)/size*size]
		o := summarise(v.Name, elem, padTo(before, len(data)), data)
		o.Symbol = v.Space
		out = append(out, o)
	}
	return out
}

// padTo extends b with zeros to n bytes.
func padTo(b []byte, n int) []byte {
	if len(b) >= n {
		return b[:n]
	}
	return append(append([]byte(nil), b...), make([]byte, n-len(b))...)
}

// initialBytes is a variable's PTX initialiser as bytes (nil without one);
// only plain numeric lists are rendered, which is what a comparison needs.
func initialBytes(v *ptx.Var) []byte {
	if v.Init == nil {
		return nil
	}
	es := v.Type.Size()
	if es == 0 || es > 8 {
		return nil
	}
	var vals []ptx.Operand
	var flat func(in *ptx.Init)
	flat = func(in *ptx.Init) {
		if in.List {
			for _, e := range in.Elems {
				flat(e)
			}
			return
		}
		vals = append(vals, in.Value)
	}
	flat(v.Init)
	out := make([]byte, v.Size())
	for i, o := range vals {
		if (i+1)*es > len(out) {
			break
		}
		var bits uint64
		switch o.Kind {
		case ptx.OpImm:
			bits = uint64(o.Imm)
			switch v.Type {
			case ptx.F32, ptx.F64:
				return nil
			}
		case ptx.OpFloat:
			bits = o.Bits
			if (v.Type == ptx.F32) != (o.FloatBits == 32) {
				return nil
			}
		default:
			return nil
		}
		for k := 0; k < es; k++ {
			out[i*es+k] = byte(bits >> (8 * k))
		}
	}
	return out
}

// unsetSymbolHints warns about __constant__ / __device__ variables the kernel
// reads that have no PTX initialiser and that the launch did not set: they
// hold zeros, which is rarely what a convolution or lookup table wants. A
// __device__ variable the module also writes (a counter, a result), or whose
// address it only takes, is left out.
func unsetSymbolHints(m *ptx.Module, f *ptx.Func, l *launch.Launch, loc func(*ptx.Inst) (int, int)) []report.Hint {
	set := map[string]bool{}
	if l != nil {
		for _, s := range l.Symbols {
			set[s.Name] = true
		}
	}
	cand := map[string]*ptx.Var{}
	for _, v := range m.Globals {
		if (v.Space == ptx.SpaceConst || v.Space == ptx.SpaceGlobal) && v.Init == nil && v.Linkage&ptx.Extern == 0 && !set[v.Name] && v.Size() > 0 {
			cand[v.Name] = v
		}
	}
	if len(cand) == 0 {
		return nil
	}
	written := map[string]bool{}
	firstRead := map[string]*ptx.Inst{}
	for _, fn := range m.Funcs {
		for _, in := range fn.Insts {
			for ai, a := range in.Args {
				if cand[a.Name] == nil || !(a.Kind == ptx.OpSym || (a.Kind == ptx.OpAddr && !a.BaseReg)) {
					continue
				}
				isLoad := in.Op == "ld" || in.Op == "ldu"
				switch {
				case (in.Op == "st" && ai == 0) || in.Op == "red" || in.Op == "atom":
					written[a.Name] = true
				case isLoad || cand[a.Name].Space == ptx.SpaceConst:
					// A load; for __constant__ also the address taken (mov, cvta),
					// since the kernel cannot write it. A __device__ variable whose
					// address is only taken may be written through it: no warning.
					if _, ok := firstRead[a.Name]; !ok && (fn == f || !fn.Entry) {
						firstRead[a.Name] = in
					}
				}
			}
		}
	}
	var names []string
	for n := range firstRead {
		if !(cand[n].Space == ptx.SpaceGlobal && written[n]) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var hints []report.Hint
	for _, n := range names {
		v := cand[n]
		kind := "__constant__"
		if v.Space == ptx.SpaceGlobal {
			kind = "__device__"
		}
		in := firstRead[n]
		cl, pl := loc(in)
		hints = append(hints, report.Hint{
			Severity: "warning", Category: "correctness", Rule: "unset_symbol",
			Message: fmt.Sprintf("the kernel reads %s %s, which has no initialiser and which this launch never set: it holds zeros. "+
				"Set it as cudaMemcpyToSymbol would with %%symbol %s = file(\"values.bin\") (or rand(n), fill(n, v), ...)", kind, n, n),
			Evidence: fmt.Sprintf("%s: %d bytes, first read at PTX line %d", n, v.Size(), pl),
			CUDALine: cl, PTXLine: pl,
		})
	}
	return hints
}
