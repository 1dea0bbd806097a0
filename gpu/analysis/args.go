package analysis

import (
	"encoding/binary"
	"fmt"
	"github.com/kernelscope/kernelscope/gpu/report"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Launch chooses the kernel and its arguments (the %launch magic).
type Launch struct {
	Kernel string
	Args   []Arg // by name when every Name is set, else by position
}

// Arg is one argument: a buffer initialiser or a scalar literal.
type Arg struct {
	Name   string
	Init   *Init  // buffer; nil for a scalar
	Scalar string // scalar literal ("2.5f", "1000", "0x10")
}

// Init is a buffer initialiser: zeros(n), ones(n), arange(n), rand(n[, lo, hi[, seed]]), fill(n, v), file("path").
type Init struct {
	Func     string
	N        int
	Lo, Hi   float64
	Seed     int64
	HasRange bool
	HasSeed  bool
	Fill     string
	Path     string
	Type     string // element type suffix; "" = inferred from the kernel
}

// TraceSpec selects what the stepping widget records (the %trace magic).
type TraceSpec struct {
	Block          int // linear block index
	WarpLo, WarpHi int // inclusive
	Steps          int // 0 = 5000
}

// elemTypes are the buffer element types of the cell language.
var elemSizes = map[string]int{
	"i8": 1, "u8": 1, "i16": 2, "u16": 2, "i32": 4, "u32": 4, "i64": 8, "u64": 8,
	"f16": 2, "bf16": 2, "f32": 4, "f64": 8,
}

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
			switch untyped[i] {
			case ptx.B8:
				uses[i].elem = "u8"
			case ptx.B16:
				uses[i].elem = "u16"
			case ptx.B32:
				uses[i].elem = "u32"
			case ptx.B64:
				uses[i].elem = "u64"
			}
		}
	}
	return uses
}

// launchArg is one materialised argument.
type launchArg struct {
	info   report.ArgInfo
	buffer []byte // nil for scalars
	scalar uint64
}

// scalarType names a scalar parameter's type in the cell language.
func scalarType(p *ptx.Param) string {
	switch p.Type {
	case ptx.F32:
		return "f32"
	case ptx.F64:
		return "f64"
	case ptx.F16:
		return "f16"
	case ptx.S8:
		return "i8"
	case ptx.U8, ptx.B8:
		return "u8"
	case ptx.S16:
		return "i16"
	case ptx.U16, ptx.B16:
		return "u16"
	case ptx.S32:
		return "i32"
	case ptx.U32, ptx.B32:
		return "u32"
	case ptx.S64:
		return "i64"
	case ptx.U64, ptx.B64:
		return "u64"
	}
	return p.Type.String()
}

// buildArgs materialises the kernel's arguments from a %launch spec, or
// chooses them automatically (one element per thread, integer scalars = total threads).
func buildArgs(f *ptx.Func, cparams []cudaParam, launch *Launch, totalThreads int, baseDir string) ([]launchArg, []string, error) {
	uses := inferParams(f)
	if len(cparams) == len(f.Params) {
		for i, c := range cparams {
			if c.pointer {
				uses[i].pointer = true
				if c.elem != "" {
					uses[i].elem = c.elem
				}
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
	var given []Arg
	if launch != nil {
		given = launch.Args
	}
	if len(given) > len(f.Params) {
		return nil, nil, fmt.Errorf("%%launch %s: %d arguments given, the kernel takes %d (%s)", f.Name, len(given), len(f.Params), paramList(f))
	}
	byName := map[string]int{}
	for i, g := range given {
		if g.Name != "" {
			byName[g.Name] = i
		}
	}
	named := len(byName) > 0
	args := make([]launchArg, len(f.Params))
	for i, p := range f.Params {
		short := shortParamName(i)
		var g *Arg
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
			size, ok := elemSizes[elem]
			if !ok {
				return nil, nil, fmt.Errorf("%s: unknown element type %q (valid: i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64)", short, elem)
			}
			var init Init
			auto := false
			if g != nil && g.Init != nil {
				init = *g.Init
			} else if g != nil {
				return nil, nil, fmt.Errorf("%s is a pointer parameter: give a buffer initialiser like zeros(%d), not %q", short, totalThreads, g.Scalar)
			} else {
				auto = true
				init = Init{Func: "zeros", N: totalThreads}
				if u.loaded {
					if strings.HasPrefix(elem, "f") || elem == "bf16" {
						init = Init{Func: "rand", N: totalThreads}
					} else {
						init = Init{Func: "arange", N: totalThreads}
					}
				}
			}
			buf, desc, err := materialise(init, elem, size, baseDir, int64(i+1))
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", short, err)
			}
			args[i] = launchArg{info: report.ArgInfo{Name: short, Type: elem, Buffer: true, Count: len(buf) / size, Init: desc, Auto: auto}, buffer: buf}
			continue
		}
		st := scalarType(p)
		if cparams != nil {
			// The CUDA declaration knows signedness and floatness better than .u32/.b32.
			if e := cElem(cparams[i].ctype); e != "" && elemSizes[e] == p.Type.Size() {
				st = e
			}
		}
		var text string
		auto := false
		if g != nil {
			text = g.Scalar
		} else {
			auto = true
			if strings.HasPrefix(st, "f") {
				text = "1.0"
			} else {
				text = strconv.Itoa(totalThreads)
			}
		}
		bits, err := parseScalar(text, st)
		if err != nil {
			return nil, nil, fmt.Errorf("%s (%s): %w", short, st, err)
		}
		args[i] = launchArg{info: report.ArgInfo{Name: short, Type: st, Init: text, Auto: auto}, scalar: bits}
	}
	for name := range byName {
		var names []string
		for i := range f.Params {
			names = append(names, shortParamName(i))
		}
		return nil, nil, fmt.Errorf("%%launch %s: no parameter named %q (parameters: %s)", f.Name, name, strings.Join(names, ", "))
	}
	return args, notes, nil
}

func paramList(f *ptx.Func) string {
	var s []string
	for _, p := range f.Params {
		s = append(s, p.Name)
	}
	return strings.Join(s, ", ")
}

// parseScalar turns a literal ("2.5f", "1000", "-3", "0x10") into raw bits of the type.
func parseScalar(text, typ string) (uint64, error) {
	t := strings.TrimSpace(text)
	isFloat := strings.HasPrefix(typ, "f") || typ == "bf16"
	if isFloat {
		t = strings.TrimSuffix(strings.TrimSuffix(t, "f"), "F")
		v, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return 0, fmt.Errorf("expected a number, found %q", text)
		}
		switch typ {
		case "f32":
			return uint64(math.Float32bits(float32(v))), nil
		case "f64":
			return math.Float64bits(v), nil
		case "f16":
			return uint64(f16bits(float32(v))), nil
		case "bf16":
			return uint64(math.Float32bits(float32(v)) >> 16), nil
		}
	}
	t = strings.TrimSuffix(strings.TrimSuffix(t, "u"), "U")
	v, err := strconv.ParseInt(t, 0, 64)
	if err != nil {
		u, uerr := strconv.ParseUint(t, 0, 64)
		if uerr != nil {
			if f, ferr := strconv.ParseFloat(t, 64); ferr == nil && f == math.Trunc(f) {
				return uint64(int64(f)), nil
			}
			return 0, fmt.Errorf("expected an integer, found %q", text)
		}
		return u, nil
	}
	return uint64(v), nil
}

// materialise builds a buffer from an initialiser; it returns the bytes and a description.
// Without an explicit seed, rand uses defaultSeed (the argument's position),
// so two rand() buffers of one launch differ.
func materialise(in Init, elem string, size int, baseDir string, defaultSeed int64) ([]byte, string, error) {
	const maxBytes = 1 << 30
	if in.Func == "file" {
		path := in.Path
		if !filepath.IsAbs(path) && baseDir != "" {
			path = filepath.Join(baseDir, path)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, "", fmt.Errorf("file(%q): %w", in.Path, err)
		}
		if len(b)%size != 0 {
			b = append(b, make([]byte, size-len(b)%size)...)
		}
		return b, fmt.Sprintf("file(%q):%s", in.Path, elem), nil
	}
	if in.N <= 0 {
		return nil, "", fmt.Errorf("%s: the element count must be positive, found %d", in.Func, in.N)
	}
	if int64(in.N)*int64(size) > maxBytes {
		return nil, "", fmt.Errorf("%s(%d): %d bytes is more than the 1 GiB a buffer may have", in.Func, in.N, int64(in.N)*int64(size))
	}
	buf := make([]byte, in.N*size)
	desc := fmt.Sprintf("%s(%d)", in.Func, in.N)
	isFloat := strings.HasPrefix(elem, "f") || elem == "bf16"
	put := func(i int, v float64) {
		putElem(buf[i*size:], elem, v)
	}
	switch in.Func {
	case "zeros":
	case "ones":
		for i := 0; i < in.N; i++ {
			put(i, 1)
		}
	case "arange":
		for i := 0; i < in.N; i++ {
			put(i, float64(i))
		}
	case "fill":
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(in.Fill), "f"), 64)
		if err != nil {
			iv, ierr := strconv.ParseInt(strings.TrimSpace(in.Fill), 0, 64)
			if ierr != nil {
				return nil, "", fmt.Errorf("fill(%d, %s): expected a number", in.N, in.Fill)
			}
			v = float64(iv)
		}
		for i := 0; i < in.N; i++ {
			put(i, v)
		}
		desc = fmt.Sprintf("fill(%d, %s)", in.N, in.Fill)
	case "rand":
		lo, hi := 0.0, 1.0
		if !isFloat {
			hi = 100
		}
		if in.HasRange {
			lo, hi = in.Lo, in.Hi
		}
		seed := defaultSeed
		if in.HasSeed {
			seed = in.Seed
		}
		if !(hi >= lo) {
			return nil, "", fmt.Errorf("rand(%d, %g, %g): the upper bound is below the lower bound", in.N, lo, hi)
		}
		r := rand.New(rand.NewPCG(uint64(seed), 0x4b53))
		for i := 0; i < in.N; i++ {
			if isFloat {
				put(i, lo+(hi-lo)*r.Float64())
			} else {
				span := int64(hi - lo)
				if span <= 0 {
					put(i, lo)
				} else {
					put(i, lo+float64(r.Int64N(span)))
				}
			}
		}
		desc = fmt.Sprintf("rand(%d, %g, %g, seed=%d)", in.N, lo, hi, seed)
	default:
		return nil, "", fmt.Errorf("unknown initialiser %q (valid: zeros ones arange rand fill file)", in.Func)
	}
	return buf, desc + ":" + elem, nil
}

// putElem stores v as one element of the given type (integers wrap like a C cast of an integral value).
func putElem(b []byte, elem string, v float64) {
	switch elem {
	case "i8", "u8":
		b[0] = byte(int64(v))
	case "i16", "u16":
		binary.LittleEndian.PutUint16(b, uint16(int64(v)))
	case "i32", "u32":
		binary.LittleEndian.PutUint32(b, uint32(int64(v)))
	case "i64":
		binary.LittleEndian.PutUint64(b, uint64(int64(v)))
	case "u64":
		binary.LittleEndian.PutUint64(b, uint64(v))
	case "f16":
		binary.LittleEndian.PutUint16(b, f16bits(float32(v)))
	case "bf16":
		binary.LittleEndian.PutUint16(b, uint16(math.Float32bits(float32(v))>>16))
	case "f32":
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
	case "f64":
		binary.LittleEndian.PutUint64(b, math.Float64bits(v))
	}
}

// f16bits converts to IEEE half precision, rounding to nearest even.
func f16bits(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int((b >> 23) & 0xff)
	man := b & 0x7fffff
	switch {
	case exp == 0xff:
		if man != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp-127+15 >= 0x1f:
		return sign | 0x7c00
	case exp-127+15 <= 0:
		shift := uint(14 - (exp - 127 + 15) + 1)
		if shift > 24 {
			return sign
		}
		m := man | 0x800000
		half := uint32(1) << (shift - 1)
		r := m >> shift
		rem := m & (1<<shift - 1)
		if rem > half || (rem == half && r&1 == 1) {
			r++
		}
		return sign | uint16(r)
	}
	e := uint16(exp - 127 + 15)
	r := man >> 13
	rem := man & 0x1fff
	v := uint32(e)<<10 | r
	if rem > 0x1000 || (rem == 0x1000 && r&1 == 1) {
		v++
	}
	return sign | uint16(v)
}

// formatElem formats element i of a buffer.
func formatElem(b []byte, elem string) string {
	switch elem {
	case "i8":
		return strconv.Itoa(int(int8(b[0])))
	case "u8":
		return strconv.Itoa(int(b[0]))
	case "i16":
		return strconv.Itoa(int(int16(binary.LittleEndian.Uint16(b))))
	case "u16":
		return strconv.Itoa(int(binary.LittleEndian.Uint16(b)))
	case "i32":
		return strconv.Itoa(int(int32(binary.LittleEndian.Uint32(b))))
	case "u32":
		return strconv.FormatUint(uint64(binary.LittleEndian.Uint32(b)), 10)
	case "i64":
		return strconv.FormatInt(int64(binary.LittleEndian.Uint64(b)), 10)
	case "u64":
		return strconv.FormatUint(binary.LittleEndian.Uint64(b), 10)
	case "f16":
		return strconv.FormatFloat(float64(f16toF32(binary.LittleEndian.Uint16(b))), 'g', 5, 32)
	case "bf16":
		return strconv.FormatFloat(float64(math.Float32frombits(uint32(binary.LittleEndian.Uint16(b))<<16)), 'g', 4, 32)
	case "f32":
		return strconv.FormatFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), 'g', 7, 32)
	case "f64":
		return strconv.FormatFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)), 'g', 10, 64)
	}
	return "?"
}

// elemValue reads element bytes as a float64 for sums.
func elemValue(b []byte, elem string) float64 {
	v, _ := strconv.ParseFloat(formatElem(b, elem), 64)
	return v
}

func f16toF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp == 0:
		if man == 0 {
			return math.Float32frombits(sign)
		}
		f := float32(man) / 1024 / 16384
		if sign != 0 {
			return -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | man<<13)
}

// summarise describes a buffer after the launch.
func summarise(name, elem string, before, after []byte) report.Output {
	size := elemSizes[elem]
	n := len(after) / size
	out := report.Output{Name: name, Type: elem, Count: n, Bytes: after}
	for i := 0; i < n && i < 16; i++ {
		out.First = append(out.First, formatElem(after[i*size:], elem))
	}
	h := fnv.New64a()
	h.Write(after)
	out.Checksum = fmt.Sprintf("%016x", h.Sum64())
	for i := 0; i < n; i++ {
		e := after[i*size : (i+1)*size]
		out.Sum += elemValue(e, elem)
		if i*size+size <= len(before) && string(before[i*size:(i+1)*size]) != string(e) {
			out.Changed++
		}
	}
	return out
}
