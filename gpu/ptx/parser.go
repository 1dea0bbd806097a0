package ptx

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Parse parses one PTX text. filename is used in error messages only. On
// errors it returns the partial module together with an ErrorList, sorted,
// with the first error of each line.
func Parse(filename string, src []byte) (*Module, error) {
	p := &parser{file: filename}
	p.mod = &Module{AddressSize: 64}
	p.globals = make(map[string]symKind)
	p.sc.Init(string(src), p.scanError)
	p.next()
	p.next()
	p.parseModule()
	p.errs.RemoveMultiples()
	return p.mod, p.errs.Err()
}

// symKind says what a name declared at some scope is.
type symKind uint8

const (
	symVar symKind = iota + 1
	symParam
	symFunc
	symReg
)

type parser struct {
	file string
	sc   Scanner
	errs ErrorList
	stop bool // too many errors: the token stream is cut off

	// current and next token
	tok  Token
	pos  Pos
	lit  string
	ntok Token
	npos Pos
	nlit string

	mod     *Module
	globals map[string]symKind

	// per function body
	fn       *Func
	locals   map[string]symKind  // params, body variables, exact register names
	ranges   map[string]int      // register range prefixes: "%r" -> 16
	labels   map[string]bool     // labels, target lists and prototypes
	pending  []pendingLabel      // operands that must name a label
	scopes   []map[string]string // per open { } block: a register declared again inside it -> its unique name
	scopeSeq int
	loc      Loc
	debugStr []DebugString
}

type pendingLabel struct {
	pos  Pos
	name string
	inst int // index in fn.Insts, -1 for a target list
	arg  int
}

func (p *parser) scanError(pos Pos, msg string) { p.errorAt(pos, msg) }

func (p *parser) errorAt(pos Pos, msg string) {
	if p.stop {
		return
	}
	if len(p.errs) >= MaxErrors {
		p.errs = append(p.errs, &Error{File: p.file, Pos: pos, Msg: "too many errors"})
		p.stop = true
		p.tok, p.ntok = EOF, EOF
		return
	}
	p.errs = append(p.errs, &Error{File: p.file, Pos: pos, Msg: msg})
}

func (p *parser) errorf(pos Pos, format string, args ...any) {
	p.errorAt(pos, fmt.Sprintf(format, args...))
}

func (p *parser) next() {
	p.tok, p.pos, p.lit = p.ntok, p.npos, p.nlit
	if p.stop {
		p.tok, p.ntok = EOF, EOF
		return
	}
	p.ntok, p.npos, p.nlit = p.sc.Scan()
}

// found describes the current token for "expected X, found Y" messages.
func (p *parser) found() string {
	switch p.tok {
	case EOF:
		return "end of file"
	case Dir:
		return "'." + p.lit + "'"
	case String:
		return p.lit
	}
	return "'" + p.lit + "'"
}

func (p *parser) errorExpected(what string) {
	p.errorf(p.pos, "expected %s, found %s", what, p.found())
}

// expect consumes a token of kind t or reports an error.
func (p *parser) expect(t Token) (Pos, bool) {
	pos := p.pos
	if p.tok != t {
		p.errorExpected(t.String())
		return pos, false
	}
	p.next()
	return pos, true
}

// syncInst skips the rest of a bad instruction: past its ';' (no ';' occurs
// inside an instruction), or up to a '}' on a later line that ends the body.
func (p *parser) syncInst() {
	start := p.pos.Line
	for {
		switch p.tok {
		case EOF:
			return
		case RBrace:
			if p.pos.Line > start {
				return
			}
		case Semi:
			p.next()
			return
		}
		p.next()
	}
}

// sync skips to the end of the current statement: past a ';', or before a
// brace.
func (p *parser) sync() {
	for {
		switch p.tok {
		case EOF, LBrace, RBrace:
			return
		case Semi:
			p.next()
			return
		}
		p.next()
	}
}

func (p *parser) parseModule() {
	for p.tok != EOF {
		switch p.tok {
		case Semi:
			p.next()
		case Dir:
			p.parseModuleDirective()
		case LBrace:
			// A block whose header was not understood: skip it whole.
			p.errorExpected("directive")
			p.skipBlock()
		default:
			p.errorExpected("directive")
			p.sync()
			if p.tok == RBrace {
				p.next()
			}
		}
	}
	p.mod.DebugStr = p.debugStr
}

// skipBlock skips a balanced { ... } block starting at the current '{'.
func (p *parser) skipBlock() {
	depth := 0
	for p.tok != EOF {
		switch p.tok {
		case LBrace:
			depth++
		case RBrace:
			depth--
			if depth == 0 {
				p.next()
				return
			}
		}
		p.next()
	}
}

func (p *parser) parseModuleDirective() {
	pos := p.pos
	var link Linkage
	for p.tok == Dir {
		switch p.lit {
		case "visible":
			link |= Visible
		case "extern":
			link |= Extern
		case "weak":
			link |= Weak
		case "common":
			link |= Common
		default:
			goto decl
		}
		p.next()
	}
	p.errorExpected("declaration after linkage directive")
	p.sync()
	return
decl:
	d := p.lit
	if link != 0 {
		switch d {
		case "entry", "func", "global", "const", "shared", "local", "tex", "shared::cta":
		default:
			p.errorf(p.pos, "expected .entry, .func or a variable after linkage directive, found '.%s'", d)
			p.sync()
			return
		}
	}
	switch d {
	case "version":
		p.next()
		if p.tok != Float && p.tok != Int {
			p.errorExpected("version number")
			p.sync()
			return
		}
		p.mod.Version = p.lit
		p.next()
	case "target":
		p.next()
		for {
			if p.tok != Ident {
				p.errorExpected("target name")
				p.sync()
				return
			}
			p.mod.Target = append(p.mod.Target, p.lit)
			p.next()
			if p.tok != Comma {
				break
			}
			p.next()
		}
	case "address_size":
		p.next()
		n, ok := p.parseInt()
		if ok && n != 32 && n != 64 {
			p.errorf(pos, "address size must be 32 or 64, found %d", n)
		}
		if ok {
			p.mod.AddressSize = int(n)
		}
	case "file":
		p.parseFile()
	case "pragma":
		p.mod.Pragmas = append(p.mod.Pragmas, p.parsePragma()...)
	case "section":
		p.parseSection()
	case "entry", "func":
		p.parseFunc(link)
	case "global", "const", "shared", "local", "tex", "shared::cta":
		vars := p.parseVarDecl(link)
		for _, v := range vars {
			p.mod.Globals = append(p.mod.Globals, v)
			p.globals[v.Name] = symVar
		}
	case "alias":
		// .alias alias, aliasee;
		p.next()
		a := p.lit
		if _, ok := p.expect(Ident); !ok {
			p.sync()
			return
		}
		p.expect(Comma)
		target := p.lit
		if p.tok == Ident {
			if p.globals[p.lit] != symFunc {
				p.errorf(p.pos, "undefined: %s", p.lit)
			}
		}
		p.expect(Ident)
		p.expect(Semi)
		p.globals[a] = symFunc
		p.mod.Aliases = append(p.mod.Aliases, Alias{Pos: pos, Name: a, Target: target})
	case "loc":
		p.parseLoc()
	default:
		p.errorf(pos, "unexpected directive '.%s' at module scope", d)
		p.next()
		p.sync()
	}
}

// parseInt parses an optionally negative integer literal.
func (p *parser) parseInt() (int64, bool) {
	neg := false
	if p.tok == Minus {
		neg = true
		p.next()
	}
	if p.tok != Int {
		p.errorExpected("integer")
		return 0, false
	}
	v, err := parseIntLit(p.lit)
	if err != nil {
		p.errorf(p.pos, "%v", err)
		p.next()
		return 0, false
	}
	p.next()
	if neg {
		v = -v
	}
	return v, true
}

// parseIntLit converts an integer literal (decimal, 0x hex, 0b binary, 0
// octal, optional U suffix) to its 64-bit value; values above MaxInt64 wrap.
func parseIntLit(s string) (int64, error) {
	t := strings.TrimSuffix(s, "U")
	base := 10
	switch {
	case len(t) > 2 && (t[1] == 'x' || t[1] == 'X') && t[0] == '0':
		base, t = 16, t[2:]
	case len(t) > 2 && (t[1] == 'b' || t[1] == 'B') && t[0] == '0':
		base, t = 2, t[2:]
	case len(t) > 1 && t[0] == '0':
		base, t = 8, t[1:]
	}
	u, err := strconv.ParseUint(t, base, 64)
	if err != nil {
		return 0, fmt.Errorf("invalid integer literal %q", s)
	}
	return int64(u), nil
}

// parseFloatLit converts 0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX or a decimal literal.
func parseFloatLit(s string) (bits uint64, width int, err error) {
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'f', 'F':
			if len(s) != 10 {
				return 0, 0, fmt.Errorf("float literal %q must have 8 hex digits", s)
			}
			u, err := strconv.ParseUint(s[2:], 16, 32)
			if err != nil {
				return 0, 0, fmt.Errorf("invalid float literal %q", s)
			}
			return u, 32, nil
		case 'd', 'D':
			if len(s) != 18 {
				return 0, 0, fmt.Errorf("double literal %q must have 16 hex digits", s)
			}
			u, err := strconv.ParseUint(s[2:], 16, 64)
			if err != nil {
				return 0, 0, fmt.Errorf("invalid double literal %q", s)
			}
			return u, 64, nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("invalid float literal %q", s)
	}
	return math.Float64bits(f), 64, nil
}

func (p *parser) parseFile() {
	f := File{Pos: p.pos}
	p.next()
	n, ok := p.parseInt()
	if !ok {
		p.sync()
		return
	}
	f.Index = int(n)
	if p.tok != String {
		p.errorExpected("file name string")
		p.sync()
		return
	}
	f.Name = unquote(p.lit)
	p.next()
	if p.tok == Comma {
		p.next()
		if f.Timestamp, ok = p.parseInt(); !ok {
			p.sync()
			return
		}
		if p.tok == Comma {
			p.next()
			if f.Size, ok = p.parseInt(); !ok {
				p.sync()
				return
			}
		}
	}
	p.mod.Files = append(p.mod.Files, f)
}

func unquote(s string) string {
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return strings.Trim(s, `"`)
}

// parsePragma parses `.pragma "a", "b";`.
func (p *parser) parsePragma() []string {
	p.next()
	var out []string
	for {
		if p.tok != String {
			p.errorExpected("pragma string")
			p.sync()
			return out
		}
		out = append(out, unquote(p.lit))
		p.next()
		if p.tok != Comma {
			break
		}
		p.next()
	}
	if _, ok := p.expect(Semi); !ok {
		p.sync()
	}
	return out
}

// parseSection skips a .section block, keeping the strings of .debug_str.
func (p *parser) parseSection() {
	p.next()
	name := ""
	if p.tok == Dir {
		name = p.lit
		p.next()
	} else if p.tok == Ident {
		name = p.lit
		p.next()
	}
	if name == "" {
		p.errorExpected("section name")
	}
	if p.tok != LBrace {
		p.errorExpected("'{'")
		p.sync()
		return
	}
	p.next()
	depth := 0
	cur := -1
	var buf []byte
	flush := func() {
		if cur >= 0 {
			s := buf
			if i := strings.IndexByte(string(s), 0); i >= 0 {
				s = s[:i]
			}
			p.debugStr[cur].Value = string(s)
		}
		buf = buf[:0]
		cur = -1
	}
	for p.tok != EOF {
		switch {
		case p.tok == LBrace:
			depth++
		case p.tok == RBrace:
			if depth == 0 {
				if name == "debug_str" {
					flush()
				}
				p.next()
				return
			}
			depth--
		case name == "debug_str" && p.tok == Ident && p.ntok == Colon:
			flush()
			p.debugStr = append(p.debugStr, DebugString{Label: p.lit})
			cur = len(p.debugStr) - 1
			p.next()
		case name == "debug_str" && p.tok == Dir && p.lit == "b8" && cur >= 0:
			p.next()
			for p.tok == Int {
				v, err := parseIntLit(p.lit)
				if err != nil || v < 0 || v > 255 {
					p.errorf(p.pos, "invalid byte %s", p.lit)
				}
				buf = append(buf, byte(v))
				p.next()
				if p.tok != Comma {
					break
				}
				p.next()
			}
			continue
		}
		p.next()
	}
	p.errorf(p.pos, "expected '}' to close .section, found end of file")
}

// parseLocInt parses a .loc number: a non-negative 32-bit integer.
func (p *parser) parseLocInt() (int64, bool) {
	pos := p.pos
	v, ok := p.parseInt()
	if ok && (v < 0 || v > math.MaxInt32) {
		p.errorf(pos, ".loc value %d out of range", v)
		return 0, false
	}
	return v, ok
}

func (p *parser) parseLoc() {
	p.next()
	var l Loc
	v, ok := p.parseLocInt()
	if !ok {
		p.sync()
		return
	}
	l.File = int32(v)
	if v, ok = p.parseLocInt(); !ok {
		p.sync()
		return
	}
	l.Line = int32(v)
	if p.tok == Int {
		if v, ok = p.parseLocInt(); !ok {
			p.sync()
			return
		}
		l.Col = int32(v)
	}
	for p.tok == Comma {
		p.next()
		if p.tok != Ident {
			p.errorExpected("function_name or inlined_at")
			p.sync()
			return
		}
		switch p.lit {
		case "function_name":
			p.next()
			if p.tok != Ident {
				p.errorExpected("label")
				p.sync()
				return
			}
			l.Func = p.lit
			p.next()
		case "inlined_at":
			p.next()
			var a [3]int64
			for i := range a {
				if i == 2 && p.tok != Int {
					break
				}
				if a[i], ok = p.parseLocInt(); !ok {
					p.sync()
					return
				}
			}
			l.InlinedFile, l.InlinedLine, l.InlinedCol = int32(a[0]), int32(a[1]), int32(a[2])
		default:
			p.errorf(p.pos, "unknown .loc attribute %s", p.lit)
			p.next()
		}
	}
	p.loc = l
}

// parseParamList parses "( .param .u32 a, ... )".
func (p *parser) parseParamList(entry bool) []*Param {
	p.next() // (
	var out []*Param
	if p.tok == RParen {
		p.next()
		return out
	}
	for {
		par := p.parseParam()
		if par == nil {
			// skip to ')'
			for p.tok != RParen && p.tok != EOF && p.tok != LBrace && p.tok != Semi {
				p.next()
			}
			if p.tok == RParen {
				p.next()
			}
			return out
		}
		out = append(out, par)
		if p.tok != Comma {
			break
		}
		p.next()
	}
	if _, ok := p.expect(RParen); !ok {
		for p.tok != RParen && p.tok != EOF && p.tok != LBrace && p.tok != Semi {
			p.next()
		}
		if p.tok == RParen {
			p.next()
		}
	}
	return out
}

func (p *parser) parseParam() *Param {
	par := &Param{Pos: p.pos}
	if p.tok != Dir || (p.lit != "param" && p.lit != "reg") {
		p.errorExpected(".param")
		return nil
	}
	par.Reg = p.lit == "reg"
	p.next()
	for p.tok == Dir {
		switch p.lit {
		case "ptr":
			par.Ptr = true
		case "align":
			p.next()
			n, ok := p.parseInt()
			if !ok {
				return nil
			}
			if par.Type == TypeNone || !par.Ptr {
				par.Align = int(n)
			} else {
				par.PtrAlign = int(n)
			}
			continue
		case "global":
			par.PtrSpace = SpaceGlobal
		case "shared", "shared::cta":
			par.PtrSpace = SpaceShared
		case "shared::cluster":
			par.PtrSpace = SpaceSharedCluster
		case "const":
			par.PtrSpace = SpaceConst
		case "local":
			par.PtrSpace = SpaceLocal
		default:
			t, ok := TypeByName(p.lit)
			if !ok {
				p.errorf(p.pos, "expected parameter type, found '.%s'", p.lit)
				return nil
			}
			par.Type = t
		}
		p.next()
	}
	if par.Type == TypeNone {
		p.errorExpected("parameter type")
		return nil
	}
	if p.tok != Ident {
		p.errorExpected("parameter name")
		return nil
	}
	par.Name = p.lit
	p.next()
	if p.tok == LBrack {
		p.next()
		if p.tok == RBrack {
			par.ArrayLen = -1
		} else {
			n, ok := p.parseInt()
			if !ok {
				return nil
			}
			if n <= 0 {
				p.errorf(p.pos, "array size must be positive")
			}
			par.ArrayLen = int(n)
		}
		if _, ok := p.expect(RBrack); !ok {
			return nil
		}
	}
	return par
}

// parseDims parses up to three integers "a, b, c".
func (p *parser) parseDims(max int) [3]int {
	var d [3]int
	for i := 0; i < max; i++ {
		n, ok := p.parseInt()
		if !ok {
			return d
		}
		d[i] = int(n)
		if p.tok != Comma {
			break
		}
		p.next()
	}
	return d
}

func (p *parser) parseFunc(link Linkage) {
	f := &Func{Pos: p.pos, Entry: p.lit == "entry", Linkage: link}
	p.next()
	if !f.Entry && p.tok == LParen {
		f.Rets = p.parseParamList(false)
	}
	if p.tok != Ident {
		p.errorExpected("function name")
		p.skipDecl()
		return
	}
	f.Name = p.lit
	p.next()
	if p.tok == LParen {
		f.Params = p.parseParamList(f.Entry)
	}
	for p.tok == Dir {
		pos := p.pos
		switch p.lit {
		case "noreturn":
			f.NoReturn = true
			p.next()
		case "maxntid":
			p.next()
			f.MaxNTid = p.parseDims(3)
		case "reqntid":
			p.next()
			f.ReqNTid = p.parseDims(3)
		case "minnctapersm", "maxnctapersm":
			p.next()
			n, _ := p.parseInt()
			f.MinNCTAPerSM = int(n)
		case "maxnreg":
			p.next()
			n, _ := p.parseInt()
			f.MaxNReg = int(n)
		case "maxclusterrank":
			p.next()
			n, _ := p.parseInt()
			f.MaxClusterRank = int(n)
		case "reqnctapercluster":
			p.next()
			f.ReqNCTAPerCluster = p.parseDims(3)
		case "explicitcluster":
			f.ExplicitCluster = true
			p.next()
		case "pragma":
			for _, pr := range p.parsePragma() {
				f.Pragmas, f.PragmaIndex = append(f.Pragmas, pr), append(f.PragmaIndex, 0)
			}
		default:
			p.errorf(pos, "unexpected directive '.%s' in function header", p.lit)
			p.next()
		}
	}
	if prev := p.globals[f.Name]; prev != 0 && prev != symFunc {
		p.errorf(f.Pos, "%s redeclared", f.Name)
	}
	p.globals[f.Name] = symFunc
	// A definition replaces an earlier prototype of the same name.
	p.mod.Funcs = append(p.mod.Funcs, f)
	switch p.tok {
	case Semi:
		p.next()
	case LBrace:
		f.HasBody = true
		p.parseBody(f)
	default:
		p.errorExpected("'{' or ';'")
		p.skipDecl()
	}
}

// skipDecl skips the rest of a declaration: past its ';' or its { } body.
func (p *parser) skipDecl() {
	for p.tok != EOF {
		switch p.tok {
		case Semi:
			p.next()
			return
		case LBrace:
			p.skipBlock()
			return
		}
		p.next()
	}
}

func (p *parser) parseBody(f *Func) {
	p.fn = f
	p.locals = make(map[string]symKind, len(f.Params)+len(f.Rets)+8)
	p.ranges = make(map[string]int, 8)
	p.labels = make(map[string]bool, 8)
	p.pending = p.pending[:0]
	p.loc = Loc{}
	for _, par := range f.Params {
		p.declareParam(par)
	}
	for _, par := range f.Rets {
		p.declareParam(par)
	}
	p.next() // {
	depth := 0
	p.scopes = p.scopes[:0]
	for {
		switch p.tok {
		case EOF:
			p.errorf(p.pos, "expected '}' to close body of %s, found end of file", f.Name)
			p.finishBody()
			return
		case RBrace:
			if depth == 0 {
				f.EndPos = p.pos
				p.next()
				p.finishBody()
				return
			}
			depth--
			p.scopes = p.scopes[:len(p.scopes)-1]
			p.next()
		case LBrace:
			depth++
			p.scopes = append(p.scopes, nil)
			p.next()
		case Semi:
			p.next()
		case Dir:
			p.parseBodyDirective()
		case At:
			p.parseInst()
		case Ident:
			if p.ntok == Colon {
				p.parseLabel()
			} else {
				p.parseInst()
			}
		default:
			p.errorExpected("instruction or directive")
			p.sync()
		}
	}
}

func (p *parser) declareParam(par *Param) {
	if par.Reg {
		p.locals[par.Name] = symReg
	} else {
		p.locals[par.Name] = symParam
	}
}

// finishBody checks the label operands of the body.
func (p *parser) finishBody() {
	for _, pl := range p.pending {
		if !p.labels[pl.name] {
			p.errorf(pl.pos, "undefined: %s", pl.name)
		}
	}
	p.fn = nil
}

func (p *parser) parseBodyDirective() {
	pos := p.pos
	switch p.lit {
	case "reg":
		p.parseRegDecl()
	case "local", "shared", "const", "param", "global", "shared::cta":
		for _, v := range p.parseVarDecl(0) {
			v.Index = len(p.fn.Insts)
			p.fn.Vars = append(p.fn.Vars, v)
			p.locals[v.Name] = symVar
		}
	case "loc":
		p.parseLoc()
	case "pragma":
		for _, pr := range p.parsePragma() {
			p.fn.Pragmas, p.fn.PragmaIndex = append(p.fn.Pragmas, pr), append(p.fn.PragmaIndex, len(p.fn.Insts))
		}
	default:
		p.errorf(pos, "unexpected directive '.%s' in function body", p.lit)
		p.next()
		p.sync()
	}
}

func (p *parser) parseRegDecl() {
	pos := p.pos
	p.next()
	var typ Type
	vec := 0
	for p.tok == Dir {
		switch p.lit {
		case "v2":
			vec = 2
		case "v4":
			vec = 4
		case "v8":
			vec = 8
		default:
			t, ok := TypeByName(p.lit)
			if !ok {
				p.errorf(p.pos, "expected register type, found '.%s'", p.lit)
				p.sync()
				return
			}
			typ = t
		}
		p.next()
	}
	if typ == TypeNone {
		p.errorExpected("register type")
		p.sync()
		return
	}
	for {
		if p.tok != Ident {
			p.errorExpected("register name")
			p.sync()
			return
		}
		d := &RegDecl{Pos: pos, Type: typ, Vec: vec, Name: p.lit}
		p.next()
		if n := len(p.scopes); n > 0 && p.tok != Less && p.isReg(d.Name) {
			// A register declared again in a { } block (nvcc's inline-asm blocks
			// "{ .reg .u32 %r1, ...; }") is another register until the block closes.
			if p.scopes[n-1] == nil {
				p.scopes[n-1] = map[string]string{}
			}
			p.scopeSeq++
			u := d.Name + "$s" + strconv.Itoa(p.scopeSeq)
			p.scopes[n-1][d.Name] = u
			d.Name = u
		}
		if p.tok == Less {
			p.next()
			n, ok := p.parseInt()
			if !ok {
				p.sync()
				return
			}
			if n <= 0 || n > 1<<24 {
				p.errorf(pos, "register count must be between 1 and %d", 1<<24)
				n = 1
			}
			d.Count = int(n)
			if _, ok := p.expect(Greater); !ok {
				p.sync()
				return
			}
			if old := p.ranges[d.Name]; old < d.Count {
				p.ranges[d.Name] = d.Count
			}
		} else {
			p.locals[d.Name] = symReg
		}
		p.fn.Regs = append(p.fn.Regs, d)
		if p.tok != Comma {
			break
		}
		p.next()
	}
	if _, ok := p.expect(Semi); !ok {
		p.sync()
	}
}

var spaceByDir = map[string]Space{
	"global": SpaceGlobal, "const": SpaceConst, "shared": SpaceShared, "shared::cta": SpaceShared,
	"shared::cluster": SpaceSharedCluster, "local": SpaceLocal, "param": SpaceParam, "tex": SpaceTex,
}

// parseVarDecl parses a variable declaration starting at its state space.
func (p *parser) parseVarDecl(link Linkage) []*Var {
	pos := p.pos
	base := Var{Pos: pos, Space: spaceByDir[p.lit], Linkage: link}
	p.next()
	for p.tok == Dir {
		switch p.lit {
		case "align":
			p.next()
			n, ok := p.parseInt()
			if !ok {
				p.sync()
				return nil
			}
			if n <= 0 || n&(n-1) != 0 {
				p.errorf(pos, "alignment must be a power of two, found %d", n)
			}
			base.Align = int(n)
			continue
		case "v2":
			base.Vec = 2
		case "v4":
			base.Vec = 4
		case "v8":
			base.Vec = 8
		case "ptr":
		case "attribute":
			p.next()
			if p.tok == LParen {
				for p.tok != RParen && p.tok != EOF && p.tok != Semi {
					p.next()
				}
				p.expect(RParen)
			}
			continue
		default:
			t, ok := TypeByName(p.lit)
			if !ok {
				p.errorf(p.pos, "expected variable type, found '.%s'", p.lit)
				p.sync()
				return nil
			}
			base.Type = t
		}
		p.next()
	}
	if base.Type == TypeNone {
		p.errorExpected("variable type")
		p.sync()
		return nil
	}
	var out []*Var
	for {
		if p.tok != Ident {
			p.errorExpected("variable name")
			p.sync()
			return out
		}
		v := base
		v.Pos = p.pos
		v.Name = p.lit
		p.next()
		for p.tok == LBrack {
			p.next()
			if p.tok == RBrack {
				v.Dims = append(v.Dims, -1)
			} else {
				n, ok := p.parseInt()
				if !ok {
					p.sync()
					return out
				}
				if n < 0 {
					p.errorf(v.Pos, "negative array size")
					n = 0
				}
				v.Dims = append(v.Dims, int(n))
			}
			if _, ok := p.expect(RBrack); !ok {
				p.sync()
				return out
			}
		}
		if p.tok == Assign {
			p.next()
			v.Init = p.parseInit(0)
			if v.Init == nil {
				p.sync()
				return out
			}
		}
		vv := v
		out = append(out, &vv)
		if p.tok != Comma {
			break
		}
		p.next()
	}
	if _, ok := p.expect(Semi); !ok {
		p.sync()
	}
	return out
}

func (p *parser) parseInit(depth int) *Init {
	if depth > 16 {
		p.errorf(p.pos, "initialiser nested too deeply")
		return nil
	}
	if p.tok == LBrace {
		p.next()
		in := &Init{List: true}
		if p.tok == RBrace {
			p.next()
			return in
		}
		for {
			e := p.parseInit(depth + 1)
			if e == nil {
				return nil
			}
			in.Elems = append(in.Elems, e)
			if p.tok != Comma {
				break
			}
			p.next()
		}
		if _, ok := p.expect(RBrace); !ok {
			return nil
		}
		return in
	}
	op, ok := p.parseInitValue(true)
	if !ok {
		return nil
	}
	return &Init{Value: op}
}

// parseInitValue parses one initial value: a float, an integer constant
// expression, a symbol or generic(symbol) with an optional offset, or (when
// mask is true) a byte mask of one of those, "0xff00(generic(foo)+4)".
func (p *parser) parseInitValue(mask bool) (Operand, bool) {
	switch {
	case p.tok == Ident && p.lit == "generic" && p.ntok == LParen:
		p.next()
		p.next()
		op, ok := p.parseSymValue()
		if !ok {
			return op, false
		}
		if _, ok := p.expect(RParen); !ok {
			return op, false
		}
		op.Generic = true
		return op, p.parseOffset(&op)
	case p.tok == Ident:
		op, ok := p.parseSymValue()
		if !ok {
			return op, false
		}
		return op, p.parseOffset(&op)
	case p.tok == Float || p.tok == Minus && p.ntok == Float:
		return p.parseNumber()
	case mask && p.tok == Int && p.ntok == LParen:
		m, err := parseIntLit(p.lit)
		if err != nil {
			p.errorf(p.pos, "%v", err)
			return Operand{}, false
		}
		p.next()
		p.next()
		inner, ok := p.parseInitValue(false)
		if !ok {
			return inner, false
		}
		if _, ok := p.expect(RParen); !ok {
			return inner, false
		}
		return Operand{Kind: OpMask, Imm: m, Elems: []Operand{inner}}, true
	}
	v, ok := p.parseConstExpr(0, 0)
	return Operand{Kind: OpImm, Imm: v}, ok
}

// parseSymValue parses a variable or function name in an initialiser.
func (p *parser) parseSymValue() (Operand, bool) {
	if p.tok != Ident {
		p.errorExpected("variable name")
		return Operand{}, false
	}
	name := p.lit
	if p.globals[name] == 0 && (p.fn == nil || p.locals[name] == 0) {
		p.errorf(p.pos, "undefined: %s", name)
	}
	p.next()
	return Operand{Kind: OpSym, Name: name}, true
}

// parseOffset parses an optional "+ expr" or "- expr" after a symbol.
func (p *parser) parseOffset(op *Operand) bool {
	if p.tok != Plus && p.tok != Minus {
		return true
	}
	neg := p.tok == Minus
	p.next()
	v, ok := p.parseConstExpr(binaryPrec["+"]+1, 0)
	if neg {
		v = -v
	}
	op.Imm += v
	return ok
}

// binaryPrec gives the precedence of the binary operators of constant
// expressions (higher binds tighter), as in C.
var binaryPrec = map[string]int{
	"|": 1, "^": 2, "&": 3, "<<": 4, ">>": 4, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6,
}

// binaryOp returns the operator at the current token, if any.
func (p *parser) binaryOp() string {
	switch p.tok {
	case Plus:
		return "+"
	case Minus:
		return "-"
	case Pipe:
		return "|"
	case Less:
		if p.ntok == Less {
			return "<<"
		}
	case Greater:
		if p.ntok == Greater {
			return ">>"
		}
	case Other:
		switch p.lit {
		case "*", "/", "%", "&", "^":
			return p.lit
		}
	}
	return ""
}

// parseConstExpr parses an integer constant expression with operators of
// precedence at least min (64-bit two's complement arithmetic).
func (p *parser) parseConstExpr(min, depth int) (int64, bool) {
	x, ok := p.parseConstUnary(depth + 1)
	if !ok {
		return 0, false
	}
	for {
		op := p.binaryOp()
		prec := binaryPrec[op]
		if op == "" || prec < min {
			return x, true
		}
		pos := p.pos
		p.next()
		if op == "<<" || op == ">>" {
			p.next()
		}
		y, ok := p.parseConstExpr(prec+1, depth+1)
		if !ok {
			return 0, false
		}
		switch op {
		case "+":
			x += y
		case "-":
			x -= y
		case "*":
			x *= y
		case "/", "%":
			if y == 0 {
				p.errorf(pos, "division by zero in constant expression")
				return 0, false
			}
			if op == "/" {
				x /= y
			} else {
				x %= y
			}
		case "&":
			x &= y
		case "|":
			x |= y
		case "^":
			x ^= y
		case "<<":
			x <<= uint64(y) & 63
		case ">>":
			x >>= uint64(y) & 63
		}
	}
}

func (p *parser) parseConstUnary(depth int) (int64, bool) {
	if depth > 64 {
		p.errorf(p.pos, "constant expression nested too deeply")
		return 0, false
	}
	switch {
	case p.tok == Minus:
		p.next()
		v, ok := p.parseConstUnary(depth + 1)
		return -v, ok
	case p.tok == Other && p.lit == "~":
		p.next()
		v, ok := p.parseConstUnary(depth + 1)
		return ^v, ok
	case p.tok == Bang:
		p.next()
		v, ok := p.parseConstUnary(depth + 1)
		if v == 0 {
			return 1, ok
		}
		return 0, ok
	case p.tok == LParen:
		p.next()
		v, ok := p.parseConstExpr(0, depth+1)
		if !ok {
			return 0, false
		}
		_, ok = p.expect(RParen)
		return v, ok
	case p.tok == Int:
		v, err := parseIntLit(p.lit)
		if err != nil {
			p.errorf(p.pos, "%v", err)
			return 0, false
		}
		p.next()
		return v, true
	}
	p.errorExpected("initial value")
	return 0, false
}

// parseNumber parses an optionally negated integer or float immediate.
func (p *parser) parseNumber() (Operand, bool) {
	neg := false
	if p.tok == Minus {
		neg = true
		p.next()
	}
	switch p.tok {
	case Int:
		v, err := parseIntLit(p.lit)
		if err != nil {
			p.errorf(p.pos, "%v", err)
			p.next()
			return Operand{}, false
		}
		p.next()
		if neg {
			v = -v
		}
		return Operand{Kind: OpImm, Imm: v}, true
	case Float:
		bits, w, err := parseFloatLit(p.lit)
		if err != nil {
			p.errorf(p.pos, "%v", err)
			p.next()
			return Operand{}, false
		}
		p.next()
		if neg {
			bits ^= 1 << (w - 1)
		}
		return Operand{Kind: OpFloat, Bits: bits, FloatBits: w}, true
	}
	p.errorExpected("number")
	return Operand{}, false
}

func (p *parser) parseLabel() {
	pos, name := p.pos, p.lit
	p.next() // name
	p.next() // :
	if p.labels[name] {
		p.errorf(pos, "label %s redefined", name)
	}
	p.labels[name] = true
	if p.tok == Dir {
		switch p.lit {
		case "branchtargets", "calltargets":
			t := &Targets{Pos: pos, Name: name, Call: p.lit == "calltargets"}
			p.next()
			for {
				if p.tok != Ident {
					p.errorExpected("label")
					p.sync()
					return
				}
				if t.Call {
					if p.globals[p.lit] != symFunc {
						p.errorf(p.pos, "undefined: %s", p.lit)
					}
				} else {
					p.pending = append(p.pending, pendingLabel{pos: p.pos, name: p.lit, inst: -1})
				}
				t.Labels = append(t.Labels, p.lit)
				p.next()
				if p.tok != Comma {
					break
				}
				p.next()
			}
			if _, ok := p.expect(Semi); !ok {
				p.sync()
			}
			p.fn.Targets = append(p.fn.Targets, t)
			return
		case "callprototype":
			proto := &Func{Pos: pos, Name: name}
			p.next()
			if p.tok == LParen {
				proto.Rets = p.parseParamList(false)
			}
			if p.tok != Ident || p.lit != "_" {
				p.errorExpected("'_'")
				p.sync()
				return
			}
			p.next()
			if p.tok == LParen {
				proto.Params = p.parseParamList(false)
			}
			if p.tok == Dir && p.lit == "noreturn" {
				proto.NoReturn = true
				p.next()
			}
			if _, ok := p.expect(Semi); !ok {
				p.sync()
			}
			p.fn.Protos = append(p.fn.Protos, proto)
			return
		}
	}
	p.fn.Labels = append(p.fn.Labels, Label{Pos: pos, Name: name, Index: len(p.fn.Insts)})
}

func (p *parser) parseInst() {
	in := &Inst{Pos: p.pos, Loc: p.loc}
	if p.tok == At {
		p.next()
		if p.tok == Bang {
			in.GuardNeg = true
			p.next()
		}
		if p.tok != Ident {
			p.errorExpected("guard predicate")
			p.syncInst()
			return
		}
		if !p.isReg(p.lit) {
			p.errorf(p.pos, "undefined: %s", p.lit)
		}
		in.Guard = p.scoped(p.lit)
		p.next()
	}
	if p.tok != Ident {
		p.errorExpected("opcode")
		p.syncInst()
		return
	}
	opPos := p.pos
	in.Op = p.lit
	if !IsOpcode(in.Op) {
		p.errorf(opPos, "unknown opcode %s", in.Op)
		p.syncInst()
		return
	}
	if in.Guard == "" {
		in.Pos = opPos
	}
	p.next()
	for p.tok == Dir {
		in.Mods = append(in.Mods, p.lit)
		p.next()
	}
	idx := len(p.fn.Insts)
	if p.tok != Semi {
		for {
			op, ok := p.parseOperand(idx, len(in.Args), 0)
			if !ok {
				p.syncInst()
				return
			}
			in.Args = append(in.Args, op)
			if p.tok != Comma {
				break
			}
			p.next()
		}
	}
	if p.tok != Semi {
		p.errorExpected("',' or ';'")
		p.syncInst()
		return
	}
	p.next()
	p.fn.Insts = append(p.fn.Insts, in)
}

// isReg reports whether name is a declared register.
// scoped is the register a name means in the open { } blocks (its unique name where a
// block declared it again), or the name itself.
func (p *parser) scoped(name string) string {
	for i := len(p.scopes) - 1; i >= 0; i-- {
		if u, ok := p.scopes[i][name]; ok {
			return u
		}
	}
	return name
}

func (p *parser) isReg(name string) bool {
	if p.locals[name] == symReg {
		return true
	}
	// split trailing digits: "%rd12" -> "%rd", 12
	i := len(name)
	for i > 0 && isDigit(name[i-1]) {
		i--
	}
	if i == len(name) || i == 0 {
		return false
	}
	digits := name[i:]
	if len(digits) > 1 && digits[0] == '0' {
		return false
	}
	n, ok := p.ranges[name[:i]]
	if !ok || len(digits) > 9 {
		return false
	}
	v, _ := strconv.Atoi(digits)
	return v < n
}

func isComp(s string) bool {
	switch s {
	case "x", "y", "z", "w", "r", "g", "b", "a":
		return true
	}
	return false
}

// isVideoSel reports whether s is a video instruction's byte or half-word
// selector or mask (b0..b7 up to four digits, h0..h3 up to two).
func isVideoSel(s string) bool {
	if len(s) < 2 || (s[0] != 'b' && s[0] != 'h') {
		return false
	}
	max, n := byte('7'), 4
	if s[0] == 'h' {
		max, n = '3', 2
	}
	if len(s)-1 > n {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > max {
			return false
		}
	}
	return true
}

// parseOperand parses one operand, including p|q pairs.
func (p *parser) parseOperand(inst, arg, depth int) (Operand, bool) {
	op, ok := p.parseUnary(inst, arg, depth)
	if !ok {
		return op, false
	}
	if p.tok == Pipe {
		p.next()
		q, ok := p.parseUnary(inst, arg, depth)
		if !ok {
			return op, false
		}
		return Operand{Kind: OpPair, Elems: []Operand{op, q}}, true
	}
	return op, true
}

func (p *parser) parseUnary(inst, arg, depth int) (Operand, bool) {
	if depth > 8 {
		p.errorf(p.pos, "operand nested too deeply")
		return Operand{}, false
	}
	switch p.tok {
	case Bang:
		p.next()
		op, ok := p.parseUnary(inst, arg, depth+1)
		if ok && op.Kind != OpReg {
			p.errorf(p.pos, "'!' applies to predicate registers only")
		}
		op.Not = true
		return op, ok
	case Minus:
		if p.ntok == Int || p.ntok == Float {
			return p.parseNumber()
		}
		p.next()
		op, ok := p.parseUnary(inst, arg, depth+1)
		if ok && op.Kind != OpReg {
			p.errorf(p.pos, "'-' applies to registers and numbers only")
		}
		op.Neg = true
		return op, ok
	case Int, Float:
		return p.parseNumber()
	case Ident:
		return p.parseName(inst, arg)
	case LBrace:
		p.next()
		v := Operand{Kind: OpVec}
		for {
			e, ok := p.parseUnary(inst, arg, depth+1)
			if !ok {
				return v, false
			}
			v.Elems = append(v.Elems, e)
			if p.tok != Comma {
				break
			}
			p.next()
		}
		_, ok := p.expect(RBrace)
		return v, ok
	case LParen:
		p.next()
		l := Operand{Kind: OpList}
		if p.tok != RParen {
			for {
				e, ok := p.parseOperand(inst, arg, depth+1)
				if !ok {
					return l, false
				}
				l.Elems = append(l.Elems, e)
				if p.tok != Comma {
					break
				}
				p.next()
			}
		}
		_, ok := p.expect(RParen)
		return l, ok
	case LBrack:
		return p.parseAddr(inst, arg, depth)
	}
	p.errorExpected("operand")
	return Operand{}, false
}

// parseName resolves an identifier operand.
func (p *parser) parseName(inst, arg int) (Operand, bool) {
	pos, name := p.pos, p.scoped(p.lit)
	p.next()
	if name == "_" {
		return Operand{Kind: OpSink}, true
	}
	var op Operand
	switch {
	case p.isReg(name):
		op = Operand{Kind: OpReg, Name: name}
	case p.locals[name] == symVar || p.locals[name] == symParam:
		op = Operand{Kind: OpSym, Name: name}
	case name == "WARP_SZ":
		// The warp size, a predefined identifier used like a special register.
		op = Operand{Kind: OpSpecial, Name: name}
	case name[0] == '%':
		if !isSpecial(name) {
			p.errorf(pos, "undefined: %s", name)
			return Operand{}, false
		}
		op = Operand{Kind: OpSpecial, Name: name}
	case p.globals[name] != 0:
		op = Operand{Kind: OpSym, Name: name}
	default:
		p.pending = append(p.pending, pendingLabel{pos: pos, name: name, inst: inst, arg: arg})
		return Operand{Kind: OpLabel, Name: name}, true
	}
	if op.Kind == OpSym && (p.tok == Plus || p.tok == Minus) && (p.ntok == Int || p.ntok == Minus) {
		// "mov.u64 %rd1, arr+8": the address of a variable plus an offset.
		if !p.parseOffset(&op) {
			return op, false
		}
		return op, true
	}
	if p.tok == Dir && op.Kind == OpReg && isVideoSel(p.lit) {
		op.Sel = p.lit
		p.next()
		return op, true
	}
	if p.tok == Dir {
		if op.Kind == OpReg && !isComp(p.lit) {
			p.errorf(p.pos, "invalid vector component '.%s'", p.lit)
			return op, false
		}
		if op.Kind == OpReg || op.Kind == OpSpecial {
			op.Comp = p.lit
			p.next()
		}
	}
	if op.Kind == OpSpecial && !specialCompOK(op.Name, op.Comp) {
		if op.Comp == "" {
			p.errorf(pos, "special register %s needs a component (.x, .y or .z)", name)
		} else {
			p.errorf(pos, "special register %s has no component .%s", name, op.Comp)
		}
	}
	return op, true
}

// parseAddr parses [base], [base+off], [base+-off], [imm] and [tex, coords].
func (p *parser) parseAddr(inst, arg, depth int) (Operand, bool) {
	p.next() // [
	a := Operand{Kind: OpAddr}
	switch p.tok {
	case Ident:
		pos, name := p.pos, p.scoped(p.lit)
		switch {
		case p.isReg(name):
			a.BaseReg = true
		case p.locals[name] != 0 || p.globals[name] != 0:
		default:
			p.errorf(pos, "undefined: %s", name)
			return a, false
		}
		a.Name = name
		p.next()
		if p.tok == Plus || p.tok == Minus {
			neg := p.tok == Minus
			p.next()
			if p.tok == Minus {
				neg = !neg
				p.next()
			} else if p.tok == Plus {
				p.next()
			}
			if p.tok != Int {
				p.errorExpected("integer offset")
				return a, false
			}
			v, err := parseIntLit(p.lit)
			if err != nil {
				p.errorf(p.pos, "%v", err)
				return a, false
			}
			p.next()
			if neg {
				v = -v
			}
			a.Imm = v
		}
	case Int, Minus:
		n, ok := p.parseInt()
		if !ok {
			return a, false
		}
		a.Imm = n
	default:
		p.errorExpected("address")
		return a, false
	}
	for p.tok == Comma {
		p.next()
		e, ok := p.parseUnary(inst, arg, depth+1)
		if !ok {
			return a, false
		}
		a.Elems = append(a.Elems, e)
	}
	_, ok := p.expect(RBrack)
	return a, ok
}
