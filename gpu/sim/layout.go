package sim

// Memory layout: symbols, module and body variables, kernel parameters,
// per-function register, .param and .local frames. The lowering of
// instructions to ops is in decode.go.

import (
	"fmt"
	"github.com/kernelscope/kernelscope/gpu/isa"
	"math"
	"sort"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// symKind is what a symbol names.
type symKind uint8

const (
	symShared symKind = iota + 1
	symGlobal
	symConst
	symKParam
	symLocal  // frame-relative local offset
	symFParam // frame-relative param offset
	symFunc
	symStaticLocal // module-scope .local: absolute local offset
)

// sym is a resolved symbol.
type sym struct {
	kind symKind
	addr uint64 // address within its space (or function index)
	size int
}

// decoder lowers a module's kernel and device functions into a program.
type decoder struct {
	m         *ptx.Module
	prog      *program
	heap      *heap
	fnByName  map[string]*function
	globals   map[string]sym // module scope and demoted variables
	staticLoc int            // bytes of module-scope .local per thread
	dynAlign  int
	externs   []string

	symbols     map[string][]byte // Config.Symbols
	symbolsUsed map[string]bool   // the ones that named a variable
}

// checkSymbols reports a symbol the launch sets that is no module-scope .global or .const variable.
func (d *decoder) checkSymbols() error {
	var bad []string
	for name := range d.symbols {
		if !d.symbolsUsed[name] {
			bad = append(bad, name)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	var have []string
	for _, v := range d.m.Globals {
		if v.Space == ptx.SpaceGlobal || v.Space == ptx.SpaceConst {
			have = append(have, v.Name)
		}
	}
	list := "none"
	if len(have) > 0 {
		list = strings.Join(have, ", ")
	}
	return launchError(InvalidLaunch, "no __constant__ or __device__ variable named %s in the module (variables: %s)", strings.Join(bad, ", "), list)
}

// align rounds n up to a multiple of a (a <= 1: n).
func align(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

// varAlign is a variable's alignment: .align or its element size.
func varAlign(v *ptx.Var) int {
	if v.Align > 0 {
		return v.Align
	}
	n := v.Type.Size()
	if v.Vec > 0 {
		n *= v.Vec
	}
	if n < 1 {
		n = 1
	}
	return n
}

// paramAlign is a parameter's alignment per the PTX ABI: .align or its size.
func paramAlign(p *ptx.Param) int {
	if p.Align > 0 {
		return p.Align
	}
	if n := p.Type.Size(); n > 0 {
		return n
	}
	return 1
}

// newProgram lowers kernel (and every device function with a body) and lays out memory.
func newProgram(m *ptx.Module, kernel string, args []Arg, cfg *Config, h *heap) (*program, []*alloc, error) {
	d := &decoder{m: m, prog: &program{}, heap: h, fnByName: map[string]*function{}, globals: map[string]sym{}, dynAlign: 16,
		symbols: cfg.Symbols, symbolsUsed: map[string]bool{}}
	var kf *ptx.Func
	var names []string
	for _, f := range m.Funcs {
		if f.Entry && f.HasBody {
			names = append(names, f.Name)
			if f.Name == kernel {
				kf = f
			}
		}
	}
	if kf == nil {
		return nil, nil, launchError(InvalidLaunch, "no kernel %q in the module (kernels: %s)", kernel, strings.Join(names, ", "))
	}
	d.addFunc(kf)
	for _, f := range m.Funcs {
		if !f.Entry && f.HasBody {
			if _, dup := d.fnByName[f.Name]; !dup {
				d.addFunc(f)
			}
		}
	}
	d.prog.kernel = d.prog.fns[0]
	dec := cfg.Decoded
	if dec == nil || !sameFuncs(dec, d.prog.fns) {
		funcs := make([]*ptx.Func, len(d.prog.fns))
		for i, fn := range d.prog.fns {
			funcs[i] = fn.f
		}
		var err error
		if dec, err = isa.Decode(funcs...); err != nil {
			return nil, nil, launchError(InvalidLaunch, "decoding %s: %v", kernel, err)
		}
	}
	d.prog.dec = dec
	// Module-scope variables.
	for _, v := range m.Globals {
		if err := d.addVar(v, nil); err != nil {
			return nil, nil, err
		}
	}
	if err := d.checkSymbols(); err != nil {
		return nil, nil, err
	}
	// Body variables that live outside the frame (shared, global, const).
	for _, fn := range d.prog.fns {
		for _, v := range fn.f.Vars {
			switch v.Space {
			case ptx.SpaceShared, ptx.SpaceSharedCluster, ptx.SpaceGlobal, ptx.SpaceConst:
				if err := d.addVar(v, fn); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	p := d.prog
	p.dynOff = align(p.sharedSize, d.dynAlign)
	for _, name := range d.externs {
		d.globals[name] = sym{kind: symShared, addr: uint64(p.dynOff)}
		p.sharedVars = append(p.sharedVars, sharedVar{name: name, off: p.dynOff})
	}
	if cfg.DynamicShared > 0 || len(d.externs) > 0 {
		p.sharedSize = p.dynOff + cfg.DynamicShared
	}
	// Kernel parameters.
	if len(args) != len(kf.Params) {
		return nil, nil, launchError(InvalidLaunch, "kernel %s takes %d parameters, %d arguments given", kernel, len(kf.Params), len(args))
	}
	off := 0
	kparams := map[string]sym{}
	for _, prm := range kf.Params {
		off = align(off, paramAlign(prm))
		p.paramSlots = append(p.paramSlots, slot{off: off, size: prm.Size(), reg: -1})
		kparams[prm.Name] = sym{kind: symKParam, addr: uint64(off), size: prm.Size()}
		off += prm.Size()
	}
	p.params = make([]byte, off)
	bufs := make([]*alloc, len(args))
	for i, a := range args {
		s := p.paramSlots[i]
		v := a.Scalar
		if a.TensorMap != nil {
			continue // placeTensorMaps, once every buffer has its address
		}
		if s.size != 1 && s.size != 2 && s.size != 4 && s.size != 8 {
			// An aggregate passed by value (.b8 array): its bytes come from
			// Buffer, or from the little-endian bytes of Scalar.
			dst := p.params[s.off : s.off+s.size]
			if a.Buffer != nil {
				copy(dst, a.Buffer)
			} else {
				for j := range dst {
					if j < 8 {
						dst[j] = byte(v >> (8 * j))
					}
				}
			}
			continue
		}
		if a.Buffer != nil {
			if s.size != 8 && s.size != 4 {
				return nil, nil, launchError(InvalidLaunch, "argument %d is a buffer but parameter %s is %d bytes, not a pointer", i, kf.Params[i].Name, s.size)
			}
			bufs[i] = h.add(len(a.Buffer), a.Buffer, fmt.Sprintf("buffer argument %d (%s)", i, kf.Params[i].Name))
			v = bufs[i].base
		}
		storeLE(p.params[s.off:], s.size, v)
	}
	if err := placeTensorMaps(p, args, bufs, h, func(i int) string { return kf.Params[i].Name }); err != nil {
		return nil, nil, err
	}
	// Frames and code.
	for _, fn := range p.fns {
		if err := d.layoutFrame(fn); err != nil {
			return nil, nil, err
		}
	}
	for _, fn := range p.fns {
		fsyms := d.frameSyms(fn, kparams)
		if err := d.lower(fn, fsyms); err != nil {
			return nil, nil, err
		}
	}
	return p, bufs, nil
}

// addFunc registers a function and its registers.
func (d *decoder) addFunc(f *ptx.Func) {
	fn := &function{f: f, index: len(d.prog.fns)}
	d.prog.fns = append(d.prog.fns, fn)
	d.fnByName[f.Name] = fn
}

// addVar places a module-scope or demoted variable.
func (d *decoder) addVar(v *ptx.Var, fn *function) error {
	p := d.prog
	size := v.Size()
	init, err := initBytes(v, size, d)
	if err != nil {
		return fmt.Errorf("variable %s: %w", v.Name, err)
	}
	switch v.Space {
	case ptx.SpaceShared, ptx.SpaceSharedCluster:
		if size == 0 && len(v.Dims) > 0 {
			d.externs = append(d.externs, v.Name)
			if a := varAlign(v); a > d.dynAlign {
				d.dynAlign = a
			}
			return nil
		}
		p.sharedSize = align(p.sharedSize, varAlign(v))
		d.globals[v.Name] = sym{kind: symShared, addr: uint64(p.sharedSize), size: size}
		p.sharedVars = append(p.sharedVars, sharedVar{v: v, off: p.sharedSize})
		p.sharedSize += size
	case ptx.SpaceGlobal:
		if init, err = d.symbolInit(v, fn, size, init); err != nil {
			return err
		}
		a := d.heap.add(size, init, "global variable "+v.Name)
		p.globals = append(p.globals, a)
		d.globals[v.Name] = sym{kind: symGlobal, addr: a.base, size: size}
		if fn == nil {
			p.vars = append(p.vars, progVar{name: v.Name, space: "global", alloc: a, size: size})
		}
	case ptx.SpaceConst:
		if init, err = d.symbolInit(v, fn, size, init); err != nil {
			return err
		}
		o := align(len(p.constMem), varAlign(v))
		buf := make([]byte, o+size)
		copy(buf, p.constMem)
		copy(buf[o:], init)
		p.constMem = buf
		d.globals[v.Name] = sym{kind: symConst, addr: uint64(o), size: size}
		if fn == nil {
			p.vars = append(p.vars, progVar{name: v.Name, space: "const", off: o, size: size})
		}
	case ptx.SpaceLocal:
		d.staticLoc = align(d.staticLoc, varAlign(v))
		d.globals[v.Name] = sym{kind: symStaticLocal, addr: uint64(d.staticLoc), size: size}
		d.staticLoc += size
	}
	return nil
}

// symbolInit gives a module-scope variable the bytes the launch set for it
// (Config.Symbols) over its PTX initialiser; more bytes than it holds is an error.
func (d *decoder) symbolInit(v *ptx.Var, fn *function, size int, init []byte) ([]byte, error) {
	b, ok := d.symbols[v.Name]
	if !ok || fn != nil {
		return init, nil
	}
	d.symbolsUsed[v.Name] = true
	if len(b) > size {
		return nil, launchError(InvalidLaunch, "symbol %s is %d bytes; the launch gives it %d", v.Name, size, len(b))
	}
	out := make([]byte, size)
	copy(out, init)
	copy(out, b)
	return out, nil
}

// initBytes renders a variable's initialiser.
func initBytes(v *ptx.Var, size int, d *decoder) ([]byte, error) {
	if v.Init == nil || size == 0 {
		return nil, nil
	}
	es := v.Type.Size()
	if es == 0 {
		return nil, fmt.Errorf("initialiser of unsized type")
	}
	out := make([]byte, size)
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
	for i, o := range vals {
		if (i+1)*es > size {
			break
		}
		var bits uint64
		switch o.Kind {
		case ptx.OpImm, ptx.OpFloat:
			bits = immBits(o, v.Type)
		case ptx.OpSym:
			s, ok := d.globals[o.Name]
			if !ok {
				return nil, fmt.Errorf("initialiser names unknown symbol %s", o.Name)
			}
			bits = symValue(s, o.Generic)
		default:
			return nil, fmt.Errorf("unsupported initialiser element")
		}
		storeLE(out[i*es:], es, bits)
	}
	return out, nil
}

// symValue is the address a symbol stands for (generic: in the generic address space).
func symValue(s sym, generic bool) uint64 {
	if !generic {
		return s.addr
	}
	switch s.kind {
	case symShared:
		return sharedWin + s.addr
	case symConst:
		return constWin + s.addr
	case symKParam:
		return paramWin + s.addr
	case symLocal, symStaticLocal:
		return localWin + s.addr
	}
	return s.addr
}

// immBits converts an immediate operand to the raw bits of type t.
func immBits(o ptx.Operand, t ptx.Type) uint64 {
	if o.Kind == ptx.OpFloat {
		switch {
		case t == ptx.F32 && o.FloatBits == 64:
			return uint64(math.Float32bits(float32(math.Float64frombits(o.Bits))))
		case t == ptx.F64 && o.FloatBits == 32:
			return math.Float64bits(float64(math.Float32frombits(uint32(o.Bits))))
		}
		return o.Bits
	}
	switch t {
	case ptx.F32:
		return uint64(math.Float32bits(float32(o.Imm)))
	case ptx.F64:
		return math.Float64bits(float64(o.Imm))
	}
	return uint64(o.Imm)
}

// layoutFrame assigns registers, the param frame and the local frame of a function.
func (d *decoder) layoutFrame(fn *function) error {
	f := fn.f
	fn.regNames = make([]string, nHidden)
	fn.regMask = make([]uint64, nHidden)
	for i := range fn.regMask {
		fn.regNames[i] = hiddenNames[i]
		fn.regMask[i] = widthMask(32)
		if hiddenWide(int32(i)) {
			fn.regMask[i] = widthMask(64)
		}
	}
	addReg := func(name string, t ptx.Type) {
		fn.regNames = append(fn.regNames, name)
		w := t.Size() * 8
		if t == ptx.Pred {
			w = 1
		}
		fn.regMask = append(fn.regMask, widthMask(w))
	}
	off := 0
	place := func(p *ptx.Param) slot {
		if p.Reg {
			addReg(p.Name, p.Type)
			return slot{reg: int32(len(fn.regNames) - 1), size: p.Size()}
		}
		off = align(off, paramAlign(p))
		s := slot{off: off, size: p.Size(), reg: -1}
		off += p.Size()
		return s
	}
	if !f.Entry {
		for _, p := range f.Params {
			fn.params = append(fn.params, place(p))
		}
		for _, p := range f.Rets {
			fn.rets = append(fn.rets, place(p))
		}
	}
	for _, v := range f.Vars {
		if v.Space == ptx.SpaceParam {
			off = align(off, varAlign(v))
			off += v.Size()
		}
	}
	fn.paramSize = align(off, 8)
	loc := 0
	if f.Entry {
		loc = d.staticLoc
	}
	for _, v := range f.Vars {
		if v.Space == ptx.SpaceLocal {
			loc = align(loc, varAlign(v))
			loc += v.Size()
		}
	}
	fn.localSize = align(loc, 16)
	for _, r := range f.Regs {
		comps := []string{""}
		if r.Vec > 0 {
			comps = []string{".x", ".y", ".z", ".w"}[:r.Vec]
		}
		if r.Count == 0 {
			for _, c := range comps {
				addReg(r.Name+c, r.Type)
			}
			continue
		}
		if r.Count > 1<<20 {
			return launchError(InvalidLaunch, "function %s declares %d registers %s", f.Name, r.Count, r.Name)
		}
		for i := 0; i < r.Count; i++ {
			for _, c := range comps {
				addReg(fmt.Sprintf("%s%d%s", r.Name, i, c), r.Type)
			}
		}
	}
	fn.nregs = len(fn.regNames)
	return nil
}

// frameSyms is the symbol table seen from inside fn.
func (d *decoder) frameSyms(fn *function, kparams map[string]sym) map[string]sym {
	s := make(map[string]sym, len(d.globals)+8)
	for k, v := range d.globals {
		s[k] = v
	}
	for k, v := range d.fnByName {
		s[k] = sym{kind: symFunc, addr: funcBase + uint64(v.index)*funcStride}
	}
	f := fn.f
	if f.Entry {
		for k, v := range kparams {
			s[k] = v
		}
	} else {
		for i, p := range f.Params {
			if fn.params[i].reg < 0 {
				s[p.Name] = sym{kind: symFParam, addr: uint64(fn.params[i].off), size: p.Size()}
			}
		}
		for i, p := range f.Rets {
			if fn.rets[i].reg < 0 {
				s[p.Name] = sym{kind: symFParam, addr: uint64(fn.rets[i].off), size: p.Size()}
			}
		}
	}
	// Body .param and .local variables, placed in the same order as layoutFrame.
	off := 0
	if !f.Entry {
		for _, sl := range append(append([]slot{}, fn.params...), fn.rets...) {
			if sl.reg < 0 && sl.off+sl.size > off {
				off = sl.off + sl.size
			}
		}
	}
	loc := 0
	if f.Entry {
		loc = d.staticLoc
	}
	for _, v := range f.Vars {
		switch v.Space {
		case ptx.SpaceParam:
			off = align(off, varAlign(v))
			s[v.Name] = sym{kind: symFParam, addr: uint64(off), size: v.Size()}
			off += v.Size()
		case ptx.SpaceLocal:
			loc = align(loc, varAlign(v))
			s[v.Name] = sym{kind: symLocal, addr: uint64(loc), size: v.Size()}
			loc += v.Size()
		}
	}
	return s
}

// InitialBytes is the initial contents of the module-scope variable name before
// any launch (zeros without an initialiser); ok is false when there is no such
// variable. An initialiser that names another symbol (an address) is an error.
func InitialBytes(m *ptx.Module, name string) (b []byte, ok bool, err error) {
	for _, v := range m.Globals {
		if v.Name != name {
			continue
		}
		b, err := initBytes(v, v.Size(), &decoder{m: m, globals: map[string]sym{}})
		if err != nil {
			return nil, true, err
		}
		out := make([]byte, v.Size())
		copy(out, b)
		return out, true, nil
	}
	return nil, false, nil
}

// programFuncs lists the functions a launch of kernel lowers, in PC order:
// the kernel, then every other function with a body (first of a name).
func programFuncs(m *ptx.Module, kernel string) []*ptx.Func {
	var out []*ptx.Func
	for _, f := range m.Funcs {
		if f.Entry && f.HasBody && f.Name == kernel {
			out = append(out, f)
			break
		}
	}
	if len(out) == 0 {
		return nil
	}
	seen := map[string]bool{kernel: true}
	for _, f := range m.Funcs {
		if !f.Entry && f.HasBody && !seen[f.Name] {
			seen[f.Name] = true
			out = append(out, f)
		}
	}
	return out
}

// sameFuncs reports whether dec was decoded from exactly fns, in order.
func sameFuncs(dec *isa.Program, fns []*function) bool {
	if len(dec.Funcs) != len(fns) {
		return false
	}
	for i, f := range dec.Funcs {
		if f.F != fns[i].f {
			return false
		}
	}
	return true
}

// Decode decodes the kernel of m and the device functions a launch of it
// lowers, numbered as the launch's PCs (sim.Issue.PC, Result.Insts). Pass it
// as Config.Decoded so the launch does not decode again.
func Decode(m *ptx.Module, kernel string) (*isa.Program, error) {
	funcs := programFuncs(m, kernel)
	if funcs == nil {
		return nil, launchError(InvalidLaunch, "no kernel %q in the module", kernel)
	}
	return isa.Decode(funcs...)
}
