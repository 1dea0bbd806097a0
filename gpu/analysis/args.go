package analysis

import (
	"context"
	"fmt"
	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/report"
	"hash/fnv"
	"strconv"
	"strings"
	"sync"

	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/sim"
)

// paramUse is what the kernel's code says about one parameter.
type paramUse struct {
	pointer bool   // used as the base of an address
	elem    string // element type of the accesses through it ("" when unknown)
	loaded  bool   // read through
	stored  bool   // written through
}

// ptxTypeToElem maps an access type to the cell language's element type.
func ptxTypeToElem(t ptx.Type) string {
	switch t {
	case ptx.U8, ptx.B8:
		return "u8"
	case ptx.S8:
		return "i8"
	case ptx.U16, ptx.B16:
		return "u16"
	case ptx.S16:
		return "i16"
	case ptx.U32:
		return "u32"
	case ptx.S32:
		return "i32"
	case ptx.B32:
		return "" // untyped: keep looking
	case ptx.U64:
		return "u64"
	case ptx.S64:
		return "i64"
	case ptx.B64:
		return ""
	case ptx.F16:
		return "f16"
	case ptx.BF16:
		return "bf16"
	case ptx.F32:
		return "f32"
	case ptx.F64:
		return "f64"
	}
	return ""
}

// instType is the last type modifier of an instruction.
func instType(in *ptx.Inst) ptx.Type {
	for i := len(in.Mods) - 1; i >= 0; i-- {
		if t, ok := ptx.TypeByName(in.Mods[i]); ok {
			return t
		}
	}
	return ptx.TypeNone
}

// inferParams follows each parameter's value through moves, conversions and
// address arithmetic to the loads and stores that use it, and so learns which
// parameters are pointers and what they point to.
func inferParams(f *ptx.Func) []paramUse {
	uses := make([]paramUse, len(f.Params))
	index := make(map[string]int, len(f.Params))
	for i, p := range f.Params {
		index[p.Name] = i
		if p.Ptr {
			uses[i].pointer = true
		}
	}
	taint := map[string]int{}
	untyped := make([]ptx.Type, len(f.Params))
	// Two passes so values carried around loops are seen.
	for pass := 0; pass < 2; pass++ {
		for _, in := range f.Insts {
			if len(in.Args) == 0 {
				continue
			}
			switch in.Op {
			case "ld", "ldu", "st", "atom", "red":
				isParam := false
				for _, m := range in.Mods {
					if m == "param" {
						isParam = true
					}
				}
				addrArg := 1
				if in.Op == "st" || in.Op == "red" {
					addrArg = 0
				}
				if addrArg >= len(in.Args) {
					continue
				}
				a := in.Args[addrArg]
				if isParam {
					if a.Kind == ptx.OpAddr && !a.BaseReg {
						if pi, ok := index[a.Name]; ok && in.Op == "ld" && in.Args[0].Kind == ptx.OpReg {
							taint[in.Args[0].Name] = pi
						}
					}
					continue
				}
				if a.Kind != ptx.OpAddr || !a.BaseReg {
					continue
				}
				pi, ok := taint[a.Name]
				if !ok {
					continue
				}
				u := &uses[pi]
				u.pointer = true
				if in.Op == "st" {
					u.stored = true
				} else {
					u.loaded = true
					if in.Op != "ld" && in.Op != "ldu" {
						u.stored = true
					}
				}
				t := instType(in)
				if e := ptxTypeToElem(t); e != "" {
					if u.elem == "" {
						u.elem = e
					}
				} else if t != ptx.TypeNone && untyped[pi] == ptx.TypeNone {
					untyped[pi] = t
				}
			default:
				d := in.Args[0]
				if d.Kind != ptx.OpReg {
					continue
				}
				switch in.Op {
				case "mov", "cvta", "add", "sub", "cvt", "mad", "and":
				default:
					continue
				}
				src := -1
				for _, a := range in.Args[1:] {
					if a.Kind == ptx.OpReg {
						if pi, ok := taint[a.Name]; ok {
							if src >= 0 && src != pi {
								src = -2
							} else if src != -2 {
								src = pi
							}
						}
					}
				}
				if src >= 0 {
					taint[d.Name] = src
				}
			}
		}
	}
	for i := range uses {
		if uses[i].pointer && uses[i].elem == "" {
			uses[i].elem = untypedElem(untyped[i])
		}
	}
	return uses
}

// launchArg is one materialised argument.
type launchArg struct {
	info   report.ArgInfo
	buffer []byte // nil for scalars
	scalar uint64
	lmap   *launch.TensorMap // a tensor-map argument (tensormap.go)
	tmap   *sim.TensorMap
}

// scalarType names a scalar parameter's type in the cell language; untyped
// .bN parameters read as unsigned.
func scalarType(p *ptx.Param) string {
	if e := ptxTypeToElem(p.Type); e != "" {
		return e
	}
	if u := untypedElem(p.Type); u != "" {
		return u
	}
	return p.Type.String()
}

// untypedElem maps .b8 ... .b64 to the unsigned type of the same size.
func untypedElem(t ptx.Type) string {
	switch t {
	case ptx.B8:
		return "u8"
	case ptx.B16:
		return "u16"
	case ptx.B32:
		return "u32"
	case ptx.B64:
		return "u64"
	}
	return ""
}

// buildArgs materialises the kernel's arguments from a %launch spec, or
// chooses them automatically (one element per thread, integer scalars = total threads).
// file() initialisers are read from baseDir through ctx; sandbox applies its caps.
func buildArgs(ctx context.Context, f *ptx.Func, cparams []cudaParam, spec *launch.Launch, totalThreads int, baseDir string, sandbox bool) ([]launchArg, []string, error) {
	uses := inferParams(f)
	perThread := make([]int, len(f.Params)) // elements of a pointee: float4* -> 4
	if len(cparams) == len(f.Params) {
		for i, c := range cparams {
			if c.pointer {
				uses[i].pointer = true
				if c.elem != "" {
					uses[i].elem = c.elem
				}
				perThread[i] = c.pointeeElems
			}
		}
	} else {
		cparams = nil
	}
	shortParamName := func(i int) string {
		if cparams != nil && cparams[i].name != "" {
			return cparams[i].name
		}
		return f.Params[i].Name
	}
	var notes []string
	var given []launch.Arg
	if spec != nil {
		given = spec.Args
	}
	names := make([]string, len(f.Params))
	for i := range f.Params {
		names[i] = shortParamName(i)
	}
	if len(given) > len(f.Params) {
		return nil, nil, fmt.Errorf("%%launch %s: %d arguments given, the kernel takes %d (%s)", demangle(f.Name), len(given), len(f.Params), strings.Join(names, ", "))
	}
	byName := map[string]int{}
	for i, g := range given {
		if g.Name != "" {
			byName[g.Name] = i
		}
	}
	named := len(byName) > 0
	args := make([]launchArg, len(f.Params))
	var totalBytes int64
	for i, p := range f.Params {
		short := shortParamName(i)
		var g *launch.Arg
		if named {
			if gi, ok := byName[short]; ok {
				g = &given[gi]
				delete(byName, short)
			} else if gi, ok := byName[p.Name]; ok {
				g = &given[gi]
				delete(byName, p.Name)
			}
		} else if i < len(given) {
			g = &given[i]
		}
		if m, ok, err := tensorMapArg(spec, f, cparams, i, short, g); err != nil {
			return nil, nil, err
		} else if ok {
			args[i] = launchArg{info: report.ArgInfo{Name: short, Type: "CUtensorMap"}, lmap: m}
			continue
		}
		u := uses[i]
		if u.pointer || (g != nil && g.Init != nil) {
			elem := u.elem
			if g != nil && g.Init != nil && g.Init.Type != "" {
				elem = g.Init.Type
			}
			if elem == "" {
				elem = "f32"
				notes = append(notes, fmt.Sprintf("%s: the element type could not be inferred from the kernel; f32 assumed (give a suffix like rand(n):i32)", short))
			}
			size, ok := launch.ElemSizes[elem]
			if !ok {
				return nil, nil, fmt.Errorf("%s: unknown element type %q (valid: i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64)", short, elem)
			}
			var init launch.Init
			auto := false
			if g != nil && g.Init != nil {
				init = *g.Init
			} else if g != nil {
				return nil, nil, fmt.Errorf("%s is a pointer parameter: give a buffer initialiser like zeros(%d), not %q", short, totalThreads, g.Scalar)
			} else {
				auto = true
				// One pointee per thread: a float4* gets 4 floats per thread, a struct its bytes.
				n := totalThreads
				if k := perThread[i]; k > 1 && (g == nil || g.Init == nil || g.Init.Type == "") && elem == cparams[i].elem {
					n = totalThreads * k
					notes = append(notes, fmt.Sprintf("%s: one %s (%d bytes) per thread: %d %s elements", short, cparams[i].pointee, cparams[i].pointeeSize, n, elem))
				}
				init = launch.Init{Func: "zeros", N: n}
				if u.loaded {
					if strings.HasPrefix(elem, "f") || elem == "bf16" {
						init = launch.Init{Func: "rand", N: n}
					} else {
						init = launch.Init{Func: "arange", N: n}
					}
				}
			}
			var buf []byte
			var desc string
			if init.Func == "file" {
				limit := int64(MaxFileBytes)
				if sandbox {
					limit = SandboxMaxFileBytes
				}
				b, err := readInitFile(ctx, init.Path, baseDir, sandbox, limit)
				if err != nil {
					return nil, nil, fmt.Errorf("%s: %w", short, err)
				}
				if len(b)%size != 0 {
					b = append(b, make([]byte, size-len(b)%size)...)
				}
				buf, desc = b, fmt.Sprintf("file(%q):%s", init.Path, elem)
			} else {
				if sandbox && int64(init.N)*int64(size) > SandboxMaxBufferBytes {
					return nil, nil, fmt.Errorf("%s: %s(%d) of %s is %d bytes, more than the %s a buffer may have in sandbox mode",
						short, init.Func, init.N, elem, int64(init.N)*int64(size), byteSize(SandboxMaxBufferBytes))
				}
				var err error
				buf, desc, err = launch.Materialise(init, elem, size, baseDir, int64(i+1))
				if err != nil {
					return nil, nil, fmt.Errorf("%s: %w", short, err)
				}
			}
			totalBytes += int64(len(buf))
			if sandbox && totalBytes > SandboxMaxTotalBytes {
				return nil, nil, fmt.Errorf("%s: the buffers take %d bytes together, more than the %s a launch may have in sandbox mode",
					short, totalBytes, byteSize(SandboxMaxTotalBytes))
			}
			args[i] = launchArg{info: report.ArgInfo{Name: short, Type: elem, Buffer: true, Count: len(buf) / size, Init: desc, Auto: auto}, buffer: buf}
			continue
		}
		st := scalarType(p)
		if cparams != nil {
			// The CUDA declaration knows signedness and floatness better than .u32/.b32.
			if e := cElem(cparams[i].ctype); e != "" && launch.ElemSizes[e] == p.Type.Size() {
				st = e
			}
		}
		var text string
		auto := false
		if g != nil {
			text = g.Scalar
		} else if cparams != nil && cparams[i].def != "" && scalarLiteral(cparams[i].def) {
			// The CUDA default argument, as a launch that leaves it out gets it.
			text = strings.TrimSpace(cparams[i].def)
			notes = append(notes, fmt.Sprintf("%s: its default argument %s", short, text))
		} else {
			auto = true
			if strings.HasPrefix(st, "f") {
				text = "1.0"
			} else {
				text = strconv.Itoa(totalThreads)
			}
		}
		bits, err := launch.ParseScalar(text, st)
		if err != nil {
			return nil, nil, fmt.Errorf("%s (%s): %w", short, st, err)
		}
		args[i] = launchArg{info: report.ArgInfo{Name: short, Type: st, Init: text, Auto: auto}, scalar: bits}
	}
	for name := range byName {
		return nil, nil, fmt.Errorf("%%launch %s: no parameter named %q (parameters: %s)", demangle(f.Name), name, strings.Join(names, ", "))
	}
	if err := bindTensorMaps(args, names, f); err != nil {
		return nil, nil, err
	}
	return args, notes, nil
}

// scalarLiteral reports whether a default argument is a plain number ParseScalar reads.
func scalarLiteral(s string) bool {
	t := strings.TrimSpace(s)
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E' || c == 'f' || c == 'F' || c == 'x' || c == 'X' || c == 'u' || c == 'U' || c == 'l' || c == 'L' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// summarise describes a buffer after the launch.
func summarise(name, elem string, before, after []byte) report.Output {
	size := launch.ElemSizes[elem]
	n := len(after) / size
	out := report.Output{Name: name, Type: elem, Count: n, Bytes: after}
	for i := 0; i < n && i < 16; i++ {
		out.First = append(out.First, launch.FormatElem(after[i*size:], elem))
	}
	// Three passes over the bytes, side by side (each writes its own field).
	var wg sync.WaitGroup
	wg.Go(func() {
		h := fnv.New64a()
		h.Write(after)
		out.Checksum = fmt.Sprintf("%016x", h.Sum64())
	})
	wg.Go(func() { out.Changed = changedElems(before, after, size, n) })
	// From the raw bytes (summary.go): no per-element strings.
	out.Sum = sumElems(after[:n*size], elem)
	wg.Wait()
	return out
}
