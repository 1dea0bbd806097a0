package ptx

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// String prints the module as PTX text that parses back to the same module
// (positions aside).
func (m *Module) String() string {
	var b strings.Builder
	_ = Fprint(&b, m) // a strings.Builder never fails
	return b.String()
}

// Fprint writes the module as PTX text to w.
func Fprint(w io.Writer, m *Module) error {
	bw := bufio.NewWriter(w)
	pr := printer{w: bw}
	pr.module(m)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("ptx: print: %w", err)
	}
	return nil
}

type printer struct {
	w   *bufio.Writer
	buf []byte
}

func (p *printer) str(s string) { p.w.WriteString(s) }

func (p *printer) module(m *Module) {
	if m.Version != "" {
		p.str(".version " + m.Version + "\n")
	}
	if len(m.Target) > 0 {
		p.str(".target " + strings.Join(m.Target, ", ") + "\n")
	}
	p.str(".address_size " + strconv.Itoa(m.AddressSize) + "\n")
	for _, f := range m.Files {
		p.str(".file " + strconv.Itoa(f.Index) + " " + strconv.Quote(f.Name))
		if f.Timestamp != 0 || f.Size != 0 {
			p.str(", " + strconv.FormatInt(f.Timestamp, 10) + ", " + strconv.FormatInt(f.Size, 10))
		}
		p.str("\n")
	}
	if len(m.Pragmas) > 0 {
		p.pragmas(m.Pragmas, "")
	}
	// Globals, functions and aliases in source order: a name must be
	// declared before it is used.
	type item struct {
		pos Pos
		k   int
		i   int
	}
	items := make([]item, 0, len(m.Globals)+len(m.Funcs)+len(m.Aliases))
	for i, v := range m.Globals {
		items = append(items, item{v.Pos, 0, i})
	}
	for i, f := range m.Funcs {
		items = append(items, item{f.Pos, 1, i})
	}
	for i, a := range m.Aliases {
		items = append(items, item{a.Pos, 2, i})
	}
	sort.SliceStable(items, func(a, b int) bool {
		x, y := items[a].pos, items[b].pos
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		return x.Col < y.Col
	})
	for _, it := range items {
		switch it.k {
		case 0:
			p.str("\n")
			p.variable(m.Globals[it.i], "")
		case 1:
			p.str("\n")
			p.fn(m.Funcs[it.i])
		case 2:
			a := m.Aliases[it.i]
			p.str("\n.alias " + a.Name + ", " + a.Target + ";\n")
		}
	}
	if len(m.DebugStr) > 0 {
		p.str("\n.section .debug_str\n{\n")
		for _, d := range m.DebugStr {
			p.str(d.Label + ":\n.b8 ")
			for i := 0; i < len(d.Value); i++ {
				p.str(strconv.Itoa(int(d.Value[i])) + ",")
			}
			p.str("0\n")
		}
		p.str("}\n")
	}
}

// pragmasAt prints, as one statement, the function's pragmas that precede instruction i
// (Func.PragmaIndex; a pragma without an index, as in a hand-built Func, goes first).
func (p *printer) pragmasAt(f *Func, i int) {
	var list []string
	for k, s := range f.Pragmas {
		at := 0
		if k < len(f.PragmaIndex) {
			at = f.PragmaIndex[k]
		}
		if at == i || (i == 0 && at < 0) {
			list = append(list, s)
		}
	}
	if len(list) > 0 {
		p.pragmas(list, "\t")
	}
}

func (p *printer) pragmas(list []string, indent string) {
	p.str(indent + ".pragma ")
	for i, s := range list {
		if i > 0 {
			p.str(", ")
		}
		p.str(strconv.Quote(s))
	}
	p.str(";\n")
}

func linkage(l Linkage) string {
	var s string
	if l&Visible != 0 {
		s += ".visible "
	}
	if l&Extern != 0 {
		s += ".extern "
	}
	if l&Weak != 0 {
		s += ".weak "
	}
	if l&Common != 0 {
		s += ".common "
	}
	return s
}

func (p *printer) variable(v *Var, indent string) {
	p.str(indent + linkage(v.Linkage) + "." + v.Space.String())
	if v.Align > 0 {
		p.str(" .align " + strconv.Itoa(v.Align))
	}
	if v.Vec > 0 {
		p.str(" .v" + strconv.Itoa(v.Vec))
	}
	p.str(" ." + v.Type.String() + " " + v.Name)
	for _, d := range v.Dims {
		if d < 0 {
			p.str("[]")
		} else {
			p.str("[" + strconv.Itoa(d) + "]")
		}
	}
	if v.Init != nil {
		p.str(" = ")
		p.init(v.Init)
	}
	p.str(";\n")
}

func (p *printer) init(in *Init) {
	if in.List {
		p.str("{")
		for i, e := range in.Elems {
			if i > 0 {
				p.str(", ")
			}
			p.init(e)
		}
		p.str("}")
		return
	}
	p.w.Write(appendInitValue(p.buf[:0], in.Value))
}

// appendInitValue formats an initial value: numbers, sym+off,
// generic(sym)+off and masks 0xFF00(value).
func appendInitValue(b []byte, v Operand) []byte {
	switch v.Kind {
	case OpSym:
		if v.Generic {
			b = append(b, "generic("...)
			b = append(b, v.Name...)
			b = append(b, ')')
		} else {
			b = append(b, v.Name...)
		}
		if v.Imm != 0 {
			b = append(b, '+')
			b = strconv.AppendInt(b, v.Imm, 10)
		}
		return b
	case OpMask:
		b = append(b, "0x"...)
		b = strconv.AppendUint(b, uint64(v.Imm), 16)
		b = append(b, '(')
		for _, e := range v.Elems {
			b = appendInitValue(b, e)
		}
		return append(b, ')')
	}
	return appendOperand(b, v)
}

func (p *printer) params(list []*Param) {
	p.str("(")
	for i, par := range list {
		if i > 0 {
			p.str(",")
		}
		p.str("\n\t")
		if par.Reg {
			p.str(".reg")
		} else {
			p.str(".param")
		}
		if par.Align > 0 {
			p.str(" .align " + strconv.Itoa(par.Align))
		}
		p.str(" ." + par.Type.String())
		if par.Ptr {
			p.str(" .ptr")
			if par.PtrSpace != SpaceNone {
				p.str(" ." + par.PtrSpace.String())
			}
			if par.PtrAlign > 0 {
				p.str(" .align " + strconv.Itoa(par.PtrAlign))
			}
		}
		p.str(" " + par.Name)
		switch {
		case par.ArrayLen < 0:
			p.str("[]")
		case par.ArrayLen > 0:
			p.str("[" + strconv.Itoa(par.ArrayLen) + "]")
		}
	}
	p.str("\n)")
}

func dims(d [3]int) string {
	n := 3
	for n > 1 && d[n-1] == 0 {
		n--
	}
	s := make([]string, n)
	for i := range s {
		s[i] = strconv.Itoa(d[i])
	}
	return strings.Join(s, ", ")
}

func (p *printer) fn(f *Func) {
	p.str(linkage(f.Linkage))
	if f.Entry {
		p.str(".entry ")
	} else {
		p.str(".func ")
		if f.Rets != nil {
			p.params(f.Rets)
			p.str(" ")
		}
	}
	p.str(f.Name)
	if f.Params != nil || f.Entry {
		p.params(f.Params)
	}
	if f.NoReturn {
		p.str(" .noreturn")
	}
	p.str("\n")
	if f.MaxNTid != [3]int{} {
		p.str(".maxntid " + dims(f.MaxNTid) + "\n")
	}
	if f.ReqNTid != [3]int{} {
		p.str(".reqntid " + dims(f.ReqNTid) + "\n")
	}
	if f.MinNCTAPerSM != 0 {
		p.str(".minnctapersm " + strconv.Itoa(f.MinNCTAPerSM) + "\n")
	}
	if f.MaxNReg != 0 {
		p.str(".maxnreg " + strconv.Itoa(f.MaxNReg) + "\n")
	}
	if f.MaxClusterRank != 0 {
		p.str(".maxclusterrank " + strconv.Itoa(f.MaxClusterRank) + "\n")
	}
	if f.ReqNCTAPerCluster != [3]int{} {
		p.str(".reqnctapercluster " + dims(f.ReqNCTAPerCluster) + "\n")
	}
	if f.ExplicitCluster {
		p.str(".explicitcluster\n")
	}
	if !f.HasBody {
		p.str(";\n")
		return
	}
	p.str("{\n")
	p.pragmasAt(f, 0)
	for _, r := range f.Regs {
		p.str("\t.reg")
		if r.Vec > 0 {
			p.str(" .v" + strconv.Itoa(r.Vec))
		}
		p.str(" ." + r.Type.String() + " " + r.Name)
		if r.Count > 0 {
			p.str("<" + strconv.Itoa(r.Count) + ">")
		}
		p.str(";\n")
	}
	for _, t := range f.Targets {
		p.str(t.Name + ": ")
		if t.Call {
			p.str(".calltargets ")
		} else {
			p.str(".branchtargets ")
		}
		p.str(strings.Join(t.Labels, ", ") + ";\n")
	}
	for _, pr := range f.Protos {
		p.str(pr.Name + ": .callprototype ")
		if pr.Rets != nil {
			p.params(pr.Rets)
			p.str(" ")
		}
		p.str("_ ")
		if pr.Params != nil {
			p.params(pr.Params)
		}
		if pr.NoReturn {
			p.str(" .noreturn")
		}
		p.str(";\n")
	}
	var loc Loc
	li, vi := 0, 0
	for i, in := range f.Insts {
		for vi < len(f.Vars) && f.Vars[vi].Index <= i {
			p.variable(f.Vars[vi], "\t")
			vi++
		}
		for li < len(f.Labels) && f.Labels[li].Index <= i {
			p.str(f.Labels[li].Name + ":\n")
			li++
		}
		if i > 0 {
			p.pragmasAt(f, i)
		}
		if in.Loc != loc {
			p.loc(in.Loc)
			loc = in.Loc
		}
		p.str("\t")
		p.inst(in)
		p.str("\n")
	}
	for ; vi < len(f.Vars); vi++ {
		p.variable(f.Vars[vi], "\t")
	}
	for ; li < len(f.Labels); li++ {
		p.str(f.Labels[li].Name + ":\n")
	}
	if len(f.Insts) > 0 {
		p.pragmasAt(f, len(f.Insts))
	}
	p.str("}\n")
}

func (p *printer) loc(l Loc) {
	p.buf = p.buf[:0]
	p.buf = append(p.buf, "\t.loc "...)
	p.buf = strconv.AppendInt(p.buf, int64(l.File), 10)
	p.buf = append(p.buf, ' ')
	p.buf = strconv.AppendInt(p.buf, int64(l.Line), 10)
	p.buf = append(p.buf, ' ')
	p.buf = strconv.AppendInt(p.buf, int64(l.Col), 10)
	if l.Func != "" {
		p.buf = append(p.buf, ", function_name "...)
		p.buf = append(p.buf, l.Func...)
	}
	if l.InlinedFile != 0 || l.InlinedLine != 0 || l.InlinedCol != 0 {
		p.buf = append(p.buf, ", inlined_at "...)
		p.buf = strconv.AppendInt(p.buf, int64(l.InlinedFile), 10)
		p.buf = append(p.buf, ' ')
		p.buf = strconv.AppendInt(p.buf, int64(l.InlinedLine), 10)
		p.buf = append(p.buf, ' ')
		p.buf = strconv.AppendInt(p.buf, int64(l.InlinedCol), 10)
	}
	p.buf = append(p.buf, '\n')
	p.w.Write(p.buf)
}

func (p *printer) inst(in *Inst) {
	p.str(in.Text())
}

// Text formats the instruction as one PTX statement ("@%p1 bra $L1;").
func (in *Inst) Text() string {
	b := make([]byte, 0, 64)
	if in.Guard != "" {
		b = append(b, '@')
		if in.GuardNeg {
			b = append(b, '!')
		}
		b = append(b, in.Guard...)
		b = append(b, ' ')
	}
	b = append(b, in.Op...)
	for _, m := range in.Mods {
		b = append(b, '.')
		b = append(b, m...)
	}
	for i, a := range in.Args {
		if i == 0 {
			b = append(b, ' ')
		} else {
			b = append(b, ", "...)
		}
		b = appendOperand(b, a)
	}
	b = append(b, ';')
	return string(b)
}

func (p *printer) operand(o Operand) {
	p.buf = appendOperand(p.buf[:0], o)
	p.w.Write(p.buf)
}

// String formats the operand as PTX.
func (o Operand) String() string { return string(appendOperand(nil, o)) }

func appendList(b []byte, elems []Operand, open, close byte) []byte {
	b = append(b, open)
	for i, e := range elems {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendOperand(b, e)
	}
	return append(b, close)
}

func appendOperand(b []byte, o Operand) []byte {
	if o.Not {
		b = append(b, '!')
	}
	if o.Neg {
		b = append(b, '-')
	}
	switch o.Kind {
	case OpReg, OpSpecial:
		b = append(b, o.Name...)
		if o.Comp != "" {
			b = append(b, '.')
			b = append(b, o.Comp...)
		}
		if o.Sel != "" {
			b = append(b, '.')
			b = append(b, o.Sel...)
		}
	case OpImm:
		b = strconv.AppendInt(b, o.Imm, 10)
	case OpFloat:
		if o.FloatBits == 32 {
			b = append(b, "0f"...)
			b = appendHex(b, o.Bits, 8)
		} else {
			b = append(b, "0d"...)
			b = appendHex(b, o.Bits, 16)
		}
	case OpSym, OpLabel:
		if o.Generic {
			b = append(b, "generic("...)
			b = append(b, o.Name...)
			b = append(b, ')')
		} else {
			b = append(b, o.Name...)
		}
		if o.Kind == OpSym && o.Imm != 0 {
			b = append(b, '+')
			b = strconv.AppendInt(b, o.Imm, 10)
		}
	case OpAddr:
		b = append(b, '[')
		if o.Name != "" {
			b = append(b, o.Name...)
			if o.Imm != 0 {
				b = append(b, '+')
				b = strconv.AppendInt(b, o.Imm, 10)
			}
		} else {
			b = strconv.AppendInt(b, o.Imm, 10)
		}
		for _, e := range o.Elems {
			b = append(b, ", "...)
			b = appendOperand(b, e)
		}
		b = append(b, ']')
	case OpVec:
		b = appendList(b, o.Elems, '{', '}')
	case OpList:
		b = appendList(b, o.Elems, '(', ')')
	case OpSink:
		b = append(b, '_')
	case OpPair:
		for i, e := range o.Elems {
			if i > 0 {
				b = append(b, '|')
			}
			b = appendOperand(b, e)
		}
	case OpMask:
		b = append(b, "mask"...)
		b = appendList(b, o.Elems, '(', ')')
	default:
		b = append(b, "<?>"...)
	}
	return b
}

func appendHex(b []byte, v uint64, digits int) []byte {
	const hex = "0123456789ABCDEF"
	for i := digits - 1; i >= 0; i-- {
		b = append(b, hex[(v>>(4*uint(i)))&15])
	}
	return b
}
