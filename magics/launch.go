package magics

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// MaxElements is the largest buffer an initialiser may ask for.
const MaxElements = 1 << 26

// ElemTypes lists the buffer element type suffixes, e.g. rand(1000):f64.
func ElemTypes() []string {
	return []string{"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "bf16", "f32", "f64"}
}

// InitFuncs lists the buffer initialisers of %launch.
func InitFuncs() []string {
	return []string{"zeros", "ones", "arange", "rand", "fill", "file", "empty"}
}

var scalarRE = regexp.MustCompile(`^[+-]?(?:0[xX][0-9a-fA-F]+|[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)[fFuUlL]*$`)

// launchParser is a small recursive-descent parser over one %launch argument string.
type launchParser struct {
	s   string
	pos int
	off int // bytes trimmed from the start of the text: columns are those of the text as given
}

func (p *launchParser) skip() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

// errf is an error at the parser's position (a 1-based column of the text given).
func (p *launchParser) errf(format string, a ...any) error {
	return &Error{Magic: "%launch", Col: p.off + min(p.pos, len(p.s)) + 1, Msg: fmt.Sprintf(format, a...)}
}

func (p *launchParser) found() string {
	if p.pos >= len(p.s) {
		return "end of line"
	}
	rest := p.s[p.pos:]
	if len(rest) > 20 {
		rest = rest[:20] + "..."
	}
	return strconv.Quote(rest)
}

func (p *launchParser) ident() string {
	p.skip()
	start := p.pos
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c == '_' || isLetter(c) || (p.pos > start && c >= '0' && c <= '9') {
			p.pos++
			continue
		}
		break
	}
	return p.s[start:p.pos]
}

func (p *launchParser) eat(c byte) bool {
	p.skip()
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// token reads up to the next top-level ',' or ')' and returns it trimmed.
func (p *launchParser) token() string {
	p.skip()
	start := p.pos
	for p.pos < len(p.s) && p.s[p.pos] != ',' && p.s[p.pos] != ')' && p.s[p.pos] != '(' {
		p.pos++
	}
	return strings.TrimSpace(p.s[start:p.pos])
}

// ParseLaunch reads the argument of %launch (and of `kernelscope run --launch`):
// NAME(a=rand(1000), b=zeros(1000):f32, n=1000, alpha=2.5f) or NAME(rand(8), 8),
// optionally with template arguments and a CUDA launch configuration:
// MatrixMul<16><<<dim3(3,2), dim3(16,16), 2048>>>(...).
func ParseLaunch(s string) (*Launch, error) {
	p := &launchParser{s: strings.TrimSpace(s), off: len(s) - len(strings.TrimLeft(s, " \t\r\n\v\f"))}
	name := p.ident()
	if name == "" {
		return nil, p.errf("expected a kernel name like vector_add(a=rand(1000), n=1000), found %s", p.found())
	}
	l := &Launch{Kernel: name}
	p.skip()
	if p.pos < len(p.s) && p.s[p.pos] == '<' && !strings.HasPrefix(p.s[p.pos:], "<<<") {
		t, err := p.templateArgs(name)
		if err != nil {
			return nil, err
		}
		l.TemplateArgs = t
		p.skip()
	}
	if strings.HasPrefix(p.s[p.pos:], "<<<") {
		if err := p.config(l); err != nil {
			return nil, err
		}
	}
	if !p.eat('(') {
		p.skip()
		if p.pos >= len(p.s) {
			return l, nil // NAME alone: automatic arguments
		}
		return nil, p.errf("expected ( after the kernel name %s, found %s", name, p.found())
	}
	if p.eat(')') {
		return l, p.end()
	}
	seen := map[string]bool{}
	named := 0
	for {
		a, err := p.arg()
		if err != nil {
			return nil, err
		}
		if a.Name != "" {
			if seen[a.Name] {
				return nil, p.errf("argument %s is given twice", a.Name)
			}
			seen[a.Name] = true
			named++
		}
		l.Args = append(l.Args, a)
		if p.eat(',') {
			continue
		}
		if p.eat(')') {
			break
		}
		return nil, p.errf("expected , or ) after argument %d, found %s", len(l.Args), p.found())
	}
	if named != 0 && named != len(l.Args) {
		return nil, p.errf("name every argument (a=..., n=...) or none")
	}
	return l, p.end()
}

// templateArgs reads <...> after a kernel name and returns what is inside, blanks normalised.
func (p *launchParser) templateArgs(name string) (string, error) {
	start := p.pos + 1
	depth := 0
	for i := p.pos; i < len(p.s); i++ {
		switch p.s[i] {
		case '<':
			depth++
		case '>':
			depth--
			if depth == 0 {
				inner := strings.Join(strings.Fields(p.s[start:i]), " ")
				if inner == "" {
					return "", p.errf("%s<>: expected template arguments like %s<16>", name, name)
				}
				p.pos = i + 1
				return strings.ReplaceAll(inner, " ,", ","), nil
			}
		case '(', ')':
			i = len(p.s)
		}
	}
	return "", p.errf("%s<...: the template arguments are not closed with >", name)
}

// config reads <<<grid, block[, shared[, stream]][, cluster(x,y,z)][, cooperative]>>>.
func (p *launchParser) config(l *Launch) error {
	p.pos += 3
	end := strings.Index(p.s[p.pos:], ">>>")
	if end < 0 {
		return p.errf("<<<...: expected >>> after the launch configuration")
	}
	inner := p.s[p.pos : p.pos+end]
	p.pos += end + 3
	all := splitConfig(inner)
	var parts []string
	for i, x := range all {
		switch {
		case i < 2:
			parts = append(parts, x)
		case x == "cooperative":
			if l.Cooperative {
				return p.errf("<<<...>>>: cooperative is given twice")
			}
			l.Cooperative = true
		case strings.HasPrefix(x, "cluster"):
			if l.Cluster != [3]int{} {
				return p.errf("<<<...>>>: the cluster is given twice")
			}
			d, err := parseDimExpr(strings.TrimSpace(strings.TrimPrefix(x, "cluster")))
			if err != nil || !strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(x, "cluster")), "(") {
				return p.errf("<<<...>>> cluster: expected cluster(x), cluster(x, y) or cluster(x, y, z), found %q", x)
			}
			for k := range d {
				d[k] = max(d[k], 1)
			}
			if n := d[0] * d[1] * d[2]; n > 16 {
				return p.errf("<<<...>>> cluster: a cluster of %d blocks is more than the 16 an sm_90 GPU allows (8 portable)", n)
			}
			l.Cluster = d
		default:
			if l.Cluster != [3]int{} || l.Cooperative {
				return p.errf("<<<...>>>: %q after cluster(...) or cooperative; write the shared bytes and stream first", x)
			}
			parts = append(parts, x)
		}
	}
	if len(parts) < 2 || len(parts) > 4 {
		return p.errf("<<<%s>>>: expected <<<grid, block>>> or <<<grid, block, shared_bytes>>> (then optionally cluster(x,y,z) and cooperative)", inner)
	}
	var err error
	if l.Grid, err = parseDimExpr(parts[0]); err != nil {
		return p.errf("<<<...>>> grid: %v", err)
	}
	if err := checkGrid(l.Grid); err != nil {
		return p.errf("<<<...>>> grid: %v", err)
	}
	if l.Block, err = parseDimExpr(parts[1]); err != nil {
		return p.errf("<<<...>>> block: %v", err)
	}
	if err := checkBlock(l.Block); err != nil {
		return p.errf("<<<...>>> block: %v", err)
	}
	if len(parts) >= 3 {
		n, err := ParseBytes(parts[2])
		if err != nil {
			return p.errf("<<<...>>> shared memory: %v", err)
		}
		l.Shared, l.SharedSet = n, true
	}
	if len(parts) == 4 {
		if st := strings.TrimSpace(parts[3]); st != "0" && st != "nullptr" && st != "NULL" && st != "stream" {
			return p.errf("<<<...>>> stream: streams are not modelled (one launch is simulated); leave it out or write 0, found %q", st)
		}
	}
	return nil
}

// splitConfig splits a launch configuration at top-level commas.
func splitConfig(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(parts, strings.TrimSpace(s[start:]))
}

// parseDimExpr reads a launch dimension: 4, 4x2, dim3(3, 2) or {3, 2}.
func parseDimExpr(s string) ([3]int, error) {
	t := strings.TrimSpace(s)
	for _, pre := range []string{"dim3(", "("} {
		if strings.HasPrefix(t, pre) && strings.HasSuffix(t, ")") {
			t = t[len(pre) : len(t)-1]
			break
		}
	}
	if strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
		t = t[1 : len(t)-1]
	}
	d, err := ParseDims(strings.ReplaceAll(t, " ", ""))
	if err != nil || d == [3]int{} {
		return d, fmt.Errorf("expected a dimension like 4, dim3(3, 2) or {3, 2}, found %q", s)
	}
	return d, nil
}

// MaxDynamicShared is the largest dynamic shared memory a launch may ask for
// (the opt-in limit of sm_90, 227 KB).
const MaxDynamicShared = 227 * 1024

// ParseBytes reads a shared-memory size: 1024, 0x400, 4K, 256*4 or 256*sizeof(float).
func ParseBytes(s string) (int, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("expected a number of bytes like 1024 or 256*sizeof(float), found nothing")
	}
	total := 1
	for _, f := range strings.Split(t, "*") {
		f = strings.TrimSpace(f)
		v := 0
		if strings.HasPrefix(f, "sizeof(") && strings.HasSuffix(f, ")") {
			ty := strings.Join(strings.Fields(f[len("sizeof("):len(f)-1]), " ")
			n, ok := sizeofTypes[ty]
			if !ok {
				return 0, fmt.Errorf("sizeof(%s): only builtin and CUDA vector types are known here (write the bytes)", ty)
			}
			v = n
		} else {
			mul := 1
			switch {
			case strings.HasSuffix(f, "K") || strings.HasSuffix(f, "k"):
				mul, f = 1024, f[:len(f)-1]
			case strings.HasSuffix(f, "KB"):
				mul, f = 1024, f[:len(f)-2]
			}
			n, err := strconv.ParseInt(strings.TrimRight(f, "uUlL"), 0, 64)
			if err != nil || n < 0 {
				return 0, fmt.Errorf("expected a number of bytes like 1024, 4K or 256*sizeof(float), found %q", s)
			}
			if n > MaxDynamicShared {
				n = MaxDynamicShared + 1
			}
			v = int(n) * mul
		}
		total *= v
		if total > MaxDynamicShared {
			return 0, fmt.Errorf("%s is more than the %d bytes (227 KB) of dynamic shared memory a block may have", t, MaxDynamicShared)
		}
	}
	return total, nil
}

// sizeofTypes are the sizes ParseBytes knows.
var sizeofTypes = map[string]int{
	"char": 1, "unsigned char": 1, "signed char": 1, "bool": 1, "short": 2, "unsigned short": 2, "__half": 2, "half": 2,
	"__nv_bfloat16": 2, "int": 4, "unsigned": 4, "unsigned int": 4, "float": 4, "uint": 4, "long": 8, "long long": 8,
	"unsigned long": 8, "unsigned long long": 8, "double": 8, "size_t": 8, "int8_t": 1, "uint8_t": 1, "int16_t": 2,
	"uint16_t": 2, "int32_t": 4, "uint32_t": 4, "int64_t": 8, "uint64_t": 8,
	"float2": 8, "float3": 12, "float4": 16, "int2": 8, "int3": 12, "int4": 16, "uint2": 8, "uint4": 16,
	"double2": 16, "double4": 32, "char4": 4, "uchar4": 4, "short2": 4, "ushort2": 4, "__half2": 4, "half2": 4,
}

// ParseSymbol reads the argument of %symbol (and of `kernelscope run --symbol`):
// NAME = initialiser, e.g. c_Kernel = rand(17), table = file("t.bin"):i32, d_gain = 2.5f.
// A number is a one-element fill.
func ParseSymbol(s string) (Symbol, error) {
	p := &launchParser{s: strings.TrimSpace(s)}
	name := p.ident()
	if name == "" || !p.eat('=') {
		return Symbol{}, &Error{Magic: "%symbol", Msg: fmt.Sprintf("expected NAME = initialiser like c_Kernel = rand(17) or d_gain = 2.5f, found %q", s)}
	}
	p.pos = 0
	a, err := p.arg()
	if err != nil {
		if me, ok := err.(*Error); ok {
			me.Magic = "%symbol"
		}
		return Symbol{}, err
	}
	p.skip()
	if p.pos < len(p.s) {
		return Symbol{}, &Error{Magic: "%symbol", Msg: fmt.Sprintf("unexpected %s after the initialiser", p.found())}
	}
	in := a.Init
	if in == nil {
		in = &Init{Func: "fill", N: 1, Fill: a.Scalar}
	}
	return Symbol{Name: name, Init: *in}, nil
}

func (p *launchParser) end() error {
	p.skip()
	if p.pos < len(p.s) {
		return p.errf("unexpected %s after the closing )", p.found())
	}
	return nil
}

// arg reads [name =] (init | scalar).
func (p *launchParser) arg() (Arg, error) {
	var a Arg
	save := p.pos
	id := p.ident()
	if id != "" && p.eat('=') {
		a.Name = id
		save = p.pos
		id = p.ident()
	}
	if id != "" && p.eat('(') {
		in, err := p.init(id)
		if err != nil {
			return a, err
		}
		a.Init = in
		return a, nil
	}
	p.pos = save
	tok := p.token()
	if a.Name == "" && identRE.MatchString(tok) {
		a.Scalar = tok // a positional %tensormap name (checked against the launch's tensor maps)
		return a, nil
	}
	if !scalarRE.MatchString(tok) {
		what := "argument"
		if a.Name != "" {
			what = a.Name
		}
		return a, p.errf("%s: expected a buffer initialiser (%s) or a number like 1000, -3, 0x10 or 2.5f, found %q",
			what, strings.Join(InitFuncs(), ", "), tok)
	}
	a.Scalar = tok
	return a, nil
}

// init reads the parameters of an initialiser after "func(" and an optional :type.
func (p *launchParser) init(fn string) (*Init, error) {
	in := &Init{Func: fn}
	var params []string
	if fn == "file" {
		p.skip()
		if p.pos >= len(p.s) || p.s[p.pos] != '"' {
			return nil, p.errf(`file() expects a quoted path like file("data.bin"), found %s`, p.found())
		}
		end := p.pos + 1
		for end < len(p.s) && p.s[end] != '"' {
			if p.s[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(p.s) {
			return nil, p.errf("file(): unterminated string")
		}
		path, err := strconv.Unquote(p.s[p.pos : end+1])
		if err != nil || path == "" {
			return nil, p.errf("file(): bad path %s", p.s[p.pos:end+1])
		}
		in.Path = path
		p.pos = end + 1
		if !p.eat(')') {
			return nil, p.errf("file() takes one path, found %s", p.found())
		}
	} else {
		if !p.eat(')') {
			for {
				tok := p.token()
				if tok == "" {
					return nil, p.errf("%s(): expected a number, found %s", fn, p.found())
				}
				params = append(params, tok)
				if p.eat(',') {
					continue
				}
				if p.eat(')') {
					break
				}
				return nil, p.errf("%s(): expected , or ), found %s", fn, p.found())
			}
		}
		if err := p.initParams(in, params); err != nil {
			return nil, err
		}
	}
	if p.eat(':') {
		t := p.ident()
		ok := false
		for _, v := range ElemTypes() {
			if v == t {
				ok = true
			}
		}
		if !ok {
			return nil, p.errf("unknown element type %q; valid choices: %s", t, strings.Join(ElemTypes(), " "))
		}
		in.Type = t
	}
	return in, nil
}

func (p *launchParser) initParams(in *Init, params []string) error {
	usage := map[string]string{
		"zeros": "zeros(n)", "ones": "ones(n)", "arange": "arange(n)",
		"rand": "rand(n[, lo, hi[, seed]])", "fill": "fill(n, v)", "empty": "empty(n)",
	}
	u, ok := usage[in.Func]
	if !ok {
		return p.errf("unknown initialiser %s(); valid choices: %s", in.Func, strings.Join(InitFuncs(), ", "))
	}
	want := map[string][]int{"zeros": {1}, "ones": {1}, "arange": {1}, "rand": {1, 3, 4}, "fill": {2}, "empty": {1}}[in.Func]
	okCount := false
	for _, w := range want {
		if len(params) == w {
			okCount = true
		}
	}
	if !okCount {
		return p.errf("%s: expected %s, found %d parameters", in.Func, u, len(params))
	}
	n, err := parseCount(params[0])
	if err != nil {
		return p.errf("%s: %v", u, err)
	}
	in.N = n
	switch in.Func {
	case "rand":
		if len(params) >= 3 {
			lo, err1 := parseNumber(params[1])
			hi, err2 := parseNumber(params[2])
			if err1 != nil || err2 != nil || lo > hi {
				return p.errf("%s: lo and hi must be numbers with lo <= hi, found %s, %s", u, params[1], params[2])
			}
			in.Lo, in.Hi, in.HasRange = lo, hi, true
		}
		if len(params) == 4 {
			seed, err := strconv.ParseInt(params[3], 0, 64)
			if err != nil {
				return p.errf("%s: seed must be an integer, found %q", u, params[3])
			}
			in.Seed, in.HasSeed = seed, true
		}
	case "fill":
		if !scalarRE.MatchString(params[1]) {
			return p.errf("%s: v must be a number, found %q", u, params[1])
		}
		in.Fill = params[1]
	}
	return nil
}

func parseCount(s string) (int, error) {
	v, err := parseNumber(s)
	if err != nil || v < 1 || v != math.Trunc(v) || v > MaxElements {
		return 0, fmt.Errorf("n must be a whole number from 1 to %d, found %q", MaxElements, s)
	}
	return int(v), nil
}

func parseNumber(s string) (float64, error) {
	t := strings.TrimRight(s, "fF")
	if strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X") || strings.HasPrefix(t, "-0x") {
		v, err := strconv.ParseInt(t, 0, 64)
		return float64(v), err
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("not a finite number: %q", s)
	}
	return v, nil
}
