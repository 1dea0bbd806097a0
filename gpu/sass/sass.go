// Package sass reads NVIDIA machine-code listings: `cuobjdump -sass`,
// `nvdisasm -c -g` (with `//## File "...", line N` source lines) and the
// resource table of `cuobjdump -res-usage`.
package sass

import (
	"fmt"
	"strconv"
	"strings"
)

// Listing is one disassembled cubin.
type Listing struct {
	Arch  string // "sm_90" from "code for sm_90" or ".target sm_90"; "" when absent
	Funcs []Func
}

// Func is the machine code of one function.
type Func struct {
	Name  string
	Insts []Inst
}

// Inst is one machine instruction.
type Inst struct {
	Addr     int      // byte offset in the function
	Pred     string   // guard predicate ("P0", "PT", "UP1"); "" when unguarded
	PredNeg  bool     // @!P0
	Op       string   // opcode without modifiers: "IMAD"
	Mods     []string // dotted modifiers: "IMAD.WIDE.U32" -> ["WIDE", "U32"]
	Operands []string // operand texts as printed: "R2", "c[0x0][0x28]", "desc[UR4][R2.64]"
	File     string   // source file from nvdisasm -g; "" when unknown
	Line     int      // source line from nvdisasm -g; 0 when unknown
	// InlinedFile and InlinedLine are the call site for inlined code
	// (`//## File "a.h", line 10 inlined at "k.cu", line 20`); "" and 0 otherwise.
	InlinedFile string
	InlinedLine int
}

// String formats the instruction as the tools print it, without address:
// "@!P0 IMAD.WIDE R2, R9, 0x4, R2 ;".
func (in Inst) String() string {
	var b strings.Builder
	if in.Pred != "" {
		b.WriteByte('@')
		if in.PredNeg {
			b.WriteByte('!')
		}
		b.WriteString(in.Pred)
		b.WriteByte(' ')
	}
	b.WriteString(in.Op)
	for _, m := range in.Mods {
		b.WriteByte('.')
		b.WriteString(m)
	}
	for i, o := range in.Operands {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		b.WriteString(o)
	}
	b.WriteString(" ;")
	return b.String()
}

// String formats the listing in the style of cuobjdump -sass, with
// nvdisasm's `//## File "...", line N` markers where the source line
// changes; Parse reads it back to the same listing.
func (l *Listing) String() string {
	var b strings.Builder
	if l.Arch != "" {
		fmt.Fprintf(&b, "\tcode for %s\n", l.Arch)
	}
	for _, f := range l.Funcs {
		fmt.Fprintf(&b, "\t\tFunction : %s\n", f.Name)
		var last Inst
		for _, in := range f.Insts {
			if (in.File != last.File || in.Line != last.Line || in.InlinedFile != last.InlinedFile || in.InlinedLine != last.InlinedLine) && in.Line > 0 {
				fmt.Fprintf(&b, "\t//## File \"%s\", line %d", in.File, in.Line)
				if in.InlinedLine > 0 {
					fmt.Fprintf(&b, " inlined at \"%s\", line %d", in.InlinedFile, in.InlinedLine)
				}
				b.WriteByte('\n')
				last = in
			}
			fmt.Fprintf(&b, "        /*%04x*/ %s\n", in.Addr, in.String())
		}
	}
	return b.String()
}

// Func returns the function called name, or nil.
func (l *Listing) Func(name string) *Func {
	for i := range l.Funcs {
		if l.Funcs[i].Name == name {
			return &l.Funcs[i]
		}
	}
	return nil
}

// ParseError is an error in a listing, with its 1-based line.
type ParseError struct {
	Line int
	Msg  string
}

// Error formats the error as "line N: msg".
func (e *ParseError) Error() string { return fmt.Sprintf("sass: line %d: %s", e.Line, e.Msg) }

// Parse reads a `cuobjdump -sass` or `nvdisasm [-c] [-g]` listing. Lines it
// does not know (headers, section and symbol directives, encodings) are
// skipped; a malformed instruction line is an error.
func Parse(text string) (*Listing, error) {
	l := &Listing{}
	var cur *Func
	file, line := "", 0
	ifile, iline := "", 0
	lines := strings.Split(text, "\n")
	for n, raw := range lines {
		s := strings.TrimSpace(raw)
		if s == "" {
			continue
		}
		switch {
		case strings.HasPrefix(s, "code for "):
			l.Arch = strings.TrimSpace(strings.TrimPrefix(s, "code for "))
			continue
		case strings.HasPrefix(s, ".target") && l.Arch == "":
			l.Arch = strings.TrimSpace(strings.TrimPrefix(s, ".target"))
			continue
		case strings.HasPrefix(s, "Function :"):
			l.Funcs = append(l.Funcs, Func{Name: strings.TrimSpace(strings.TrimPrefix(s, "Function :"))})
			cur = &l.Funcs[len(l.Funcs)-1]
			file, line, ifile, iline = "", 0, "", 0
			continue
		case strings.HasPrefix(s, "//## File "):
			f, ln, rest, err := parseFileLine(strings.TrimPrefix(s, "//## File "))
			if err != nil {
				return l, &ParseError{n + 1, err.Error()}
			}
			file, line = f, ln
			ifile, iline = "", 0
			if r := strings.TrimSpace(rest); strings.HasPrefix(r, "inlined at ") {
				if ifile, iline, _, err = parseFileLine(strings.TrimPrefix(r, "inlined at ")); err != nil {
					return l, &ParseError{n + 1, err.Error()}
				}
			}
			continue
		case strings.HasPrefix(s, ".section") && strings.Contains(s, ".text."):
			// nvdisasm: `.section .text.NAME,"ax",@progbits` starts a function.
			name := strings.TrimSpace(strings.TrimPrefix(s, ".section"))
			if i := strings.IndexAny(name, ", \t"); i >= 0 {
				name = name[:i]
			}
			if !strings.HasPrefix(name, ".text.") || name == ".text." {
				continue
			}
			name = strings.TrimPrefix(name, ".text.")
			l.Funcs = append(l.Funcs, Func{Name: name})
			cur = &l.Funcs[len(l.Funcs)-1]
			file, line, ifile, iline = "", 0, "", 0
			continue
		case !strings.HasPrefix(s, "/*"):
			continue
		}
		// "/*0040*/ IMAD R9, R9, UR4, R0 ; /* 0x... */" or an encoding line "/* 0x... */".
		end := strings.Index(s[2:], "*/") + 2
		if end < 2 {
			return l, &ParseError{n + 1, "unterminated comment"}
		}
		addrText := strings.TrimSpace(s[2:end])
		if strings.HasPrefix(addrText, "0x") {
			continue // encoding word
		}
		addr, err := strconv.ParseUint(addrText, 16, 32)
		if err != nil {
			return l, &ParseError{n + 1, fmt.Sprintf("bad address %q", addrText)}
		}
		if cur == nil {
			return l, &ParseError{n + 1, "instruction outside a function"}
		}
		body := s[end+2:]
		if i := strings.Index(body, "/*"); i >= 0 {
			body = body[:i]
		}
		in, err := ParseInst(body)
		if err != nil {
			return l, &ParseError{n + 1, err.Error()}
		}
		in.Addr = int(addr)
		in.File, in.Line = file, line
		in.InlinedFile, in.InlinedLine = ifile, iline
		cur.Insts = append(cur.Insts, in)
	}
	return l, nil
}

// parseFileLine reads `"name", line N` and returns the text after the number.
func parseFileLine(s string) (name string, line int, rest string, err error) {
	if !strings.HasPrefix(s, `"`) {
		return "", 0, "", fmt.Errorf("expected file name in %q", s)
	}
	q := strings.IndexByte(s[1:], '"')
	if q < 0 {
		return "", 0, "", fmt.Errorf("unterminated file name in %q", s)
	}
	name = s[1 : q+1]
	r := strings.TrimSpace(s[q+2:])
	r = strings.TrimSpace(strings.TrimPrefix(r, ","))
	if !strings.HasPrefix(r, "line ") {
		return "", 0, "", fmt.Errorf("expected line number in %q", s)
	}
	num := strings.TrimPrefix(r, "line ")
	end := strings.IndexFunc(num, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(num)
	}
	line, err = strconv.Atoi(num[:end])
	if err != nil {
		return "", 0, "", fmt.Errorf("bad line number in %q", s)
	}
	return name, line, num[end:], nil
}

// ParseInst parses one instruction text such as "@!P0 IMAD.WIDE R2, R9, 0x4, R2 ;".
func ParseInst(text string) (Inst, error) {
	var in Inst
	s := strings.TrimSpace(text)
	s = strings.TrimSpace(strings.TrimSuffix(s, ";"))
	if s == "" {
		return in, fmt.Errorf("empty instruction")
	}
	if s[0] == '@' {
		sp := strings.IndexAny(s, " \t")
		if sp < 0 {
			return in, fmt.Errorf("predicate without opcode in %q", text)
		}
		p := s[1:sp]
		if strings.HasPrefix(p, "!") {
			in.PredNeg = true
			p = p[1:]
		}
		if p == "" {
			return in, fmt.Errorf("empty predicate in %q", text)
		}
		in.Pred = p
		s = strings.TrimSpace(s[sp:])
	}
	opEnd := strings.IndexAny(s, " \t")
	opText := s
	if opEnd >= 0 {
		opText = s[:opEnd]
		s = strings.TrimSpace(s[opEnd:])
	} else {
		s = ""
	}
	parts := strings.Split(opText, ".")
	in.Op = parts[0]
	if in.Op == "" {
		return in, fmt.Errorf("missing opcode in %q", text)
	}
	if len(parts) > 1 {
		in.Mods = parts[1:]
	}
	if s != "" {
		ops, err := splitOperands(s)
		if err != nil {
			return in, fmt.Errorf("%v in %q", err, text)
		}
		in.Operands = ops
	}
	return in, nil
}

// splitOperands splits at the commas outside brackets, braces and parentheses.
func splitOperands(s string) ([]string, error) {
	var out []string
	depth := 0
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '{', '(':
			depth++
		case ']', '}', ')':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced %q", s[i])
			}
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced brackets")
	}
	out = append(out, strings.TrimSpace(s[start:]))
	for _, o := range out {
		if o == "" {
			return nil, fmt.Errorf("empty operand")
		}
	}
	return out, nil
}

// AtLine returns the indices of the instructions of f that nvdisasm -g
// attributes to line of file, directly or as the call site of inlined code.
// file matches the listing's path exactly or by its last element
// ("vector_add.cu"); "" matches any file.
func (f *Func) AtLine(file string, line int) []int {
	var out []int
	match := func(f string, l int) bool {
		return l == line && l > 0 && (file == "" || f == file || baseName(f) == baseName(file))
	}
	for i, in := range f.Insts {
		if match(in.File, in.Line) || match(in.InlinedFile, in.InlinedLine) {
			out = append(out, i)
		}
	}
	return out
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
