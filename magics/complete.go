package magics

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// cursorContext locates a code-point cursor: the line it is on, the cursor's
// byte offset within that line, and the line's byte offset in code.
type cursorContext struct {
	code      string
	line      string
	lineStart int // byte offset of the line in code
	col       int // byte offset of the cursor in line
	isPTX     bool
}

func locate(code string, cursor int) cursorContext {
	if cursor < 0 {
		cursor = 0
	}
	// code points -> bytes
	b, n := 0, 0
	for b < len(code) && n < cursor {
		_, size := utf8.DecodeRuneInString(code[b:])
		b += size
		n++
	}
	start := strings.LastIndexByte(code[:b], '\n') + 1
	end := strings.IndexByte(code[b:], '\n')
	if end < 0 {
		end = len(code)
	} else {
		end += b
	}
	return cursorContext{code: code, line: code[start:end], lineStart: start, col: b - start, isPTX: isPTXCell(code)}
}

// runeCount converts a byte offset in s to code points.
func runeCount(s string, byteOff int) int {
	if byteOff > len(s) {
		byteOff = len(s)
	}
	return utf8.RuneCountInString(s[:byteOff])
}

func isPTXCell(code string) bool {
	for _, l := range splitLines(code) {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		return strings.HasPrefix(t, "%%ptx")
	}
	return false
}

func isWordByte(c byte, dots bool) bool {
	return c == '_' || isLetter(c) || c >= '0' && c <= '9' || dots && c == '.' || c >= 0x80
}

var kernelRE = regexp.MustCompile(`__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_][A-Za-z0-9_]*)`)
var ptxEntryRE = regexp.MustCompile(`\.entry\s+([A-Za-z_$%][A-Za-z0-9_$]*)`)

// kernelNames lists the kernels defined in a cell, in order.
func kernelNames(code string) []string {
	var out []string
	seen := map[string]bool{}
	re := kernelRE
	if isPTXCell(code) {
		re = ptxEntryRE
	}
	for _, m := range re.FindAllStringSubmatch(code, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	return out
}

// magicValues are the words offered after a magic's name.
func magicValues(name, code string) []string {
	switch name {
	case "%arch":
		return arch.Names()
	case "%compiler":
		return []string{"auto", "clang", "nvcc"}
	case "%timing":
		return []string{"on", "off", "all"}
	case "%show", "%hide":
		return append(Sections(), "all")
	case "%sample":
		return sampleNames()
	case "%launch":
		return append(kernelNames(code), InitFuncs()...)
	case "%trace":
		return []string{"block=", "warps=", "steps="}
	case "%flags":
		return []string{"-O0", "-O1", "-O2", "-O3", "-use_fast_math", "-ffast-math", "-DNAME=VALUE", "-Wall", "-std=c++17"}
	case "%grid", "%block":
		return []string{"auto"}
	}
	return nil
}

// Complete returns completions for the word before the cursor (a code-point
// offset), and the code-point range [start, end) they replace: magic names and
// values, architecture names, kernel names, CUDA words, and PTX opcodes in %%ptx cells.
func Complete(code string, cursor int) (matches []string, start, end int) {
	return CompleteEnv(code, cursor, Env{})
}

// CompleteEnv is Complete knowing env's names too: those declared in kept
// definitions and included headers, and the kept definitions' names (%undefine).
func CompleteEnv(code string, cursor int, env Env) (matches []string, start, end int) {
	cursor = min(max(cursor, 0), utf8.RuneCountInString(code))
	cc := locate(code, cursor)
	left := cc.line[:cc.col]
	trimmed := strings.TrimLeft(left, " \t")
	var cands []string
	wordStart := cc.col
	switch {
	case strings.HasPrefix(trimmed, "%") && !strings.ContainsAny(trimmed, " \t"):
		// completing the magic's name
		wordStart = cc.col - len(trimmed)
		cands = Names()
	case strings.HasPrefix(trimmed, "%"):
		name := strings.Fields(trimmed)[0]
		for wordStart > 0 && !strings.ContainsRune(" \t,(=:", rune(left[wordStart-1])) {
			wordStart--
		}
		cands = magicValues(name, code)
		if name == "%undefine" {
			cands = env.Defines
		}
		if name == "%launch" {
			if strings.Contains(trimmed, "(") {
				cands = InitFuncs()
				if i := strings.LastIndexByte(left, ':'); i >= 0 && i+1 >= wordStart-1 && left[wordStart-1] == ':' {
					cands = ElemTypes()
				}
			} else {
				cands = kernelNames(code)
			}
		}
	default:
		for wordStart > 0 && isWordByte(left[wordStart-1], cc.isPTX) {
			wordStart--
		}
		if wordStart == cc.col && cc.col > 0 && !cc.isPTX {
			return nil, cursor, cursor
		}
		if cc.isPTX {
			cands = ptx.Opcodes()
		} else {
			cands = codeWords(code)
			for _, d := range ScanDecls(code, "") {
				cands = append(cands, d.Name)
			}
			for _, d := range env.Decls {
				cands = append(cands, d.Name)
			}
		}
	}
	prefix := left[wordStart:]
	seen := map[string]bool{}
	for _, c := range cands {
		if strings.HasPrefix(c, prefix) && c != prefix && !seen[c] {
			seen[c] = true
			matches = append(matches, c)
		}
	}
	startCP := runeCount(code, cc.lineStart+wordStart)
	return matches, startCP, cursor
}

// codeWords are the words offered in CUDA code: kernels of the cell, the documented
// built-ins and intrinsics, and C++ keywords.
func codeWords(code string) []string {
	out := kernelNames(code)
	for _, d := range cudaDocs {
		out = append(out, d.Name)
	}
	return append(out, cppKeywords...)
}

// wordAt returns the word around byte offset col in line.
func wordAt(line string, col int, dots bool) (string, int) {
	if col > len(line) {
		col = len(line)
	}
	s, e := col, col
	for s > 0 && (isWordByte(line[s-1], dots) || line[s-1] == '%') {
		s--
		if line[s] == '%' {
			break
		}
	}
	for e < len(line) && isWordByte(line[e], dots) {
		e++
	}
	return line[s:e], s
}

// Inspect documents the magic, CUDA built-in or intrinsic, or PTX opcode at the
// cursor (a code-point offset), as plain text and HTML.
func Inspect(code string, cursor int) (text, htmlText string, ok bool) {
	return InspectEnv(code, cursor, Env{})
}

// InspectEnv is Inspect knowing env's declarations too: a name declared in the
// cell, a kept definition or an included header shows its declaration and where.
func InspectEnv(code string, cursor int, env Env) (text, htmlText string, ok bool) {
	cc := locate(code, cursor)
	trimmed := strings.TrimLeft(cc.line, " \t")
	if strings.HasPrefix(trimmed, "%") {
		name := strings.Fields(trimmed)[0]
		if m, found := lookupMagic(name); found {
			return m.Name + "\n" + m.Syntax + "\n\n" + m.Summary,
				docHTML(m.Name, m.Syntax, m.Summary), true
		}
		return "", "", false
	}
	if cc.isPTX {
		w, _ := wordAt(cc.line, cc.col, true)
		w = strings.TrimLeft(w, "%")
		if w == "" {
			return "", "", false
		}
		d, found := ptx.OpcodeDoc(w)
		if !found {
			return "", "", false
		}
		return d.Opcode + "\n" + d.Syntax + "\n\n" + d.Summary + "\n\n(PTX ISA)", docHTML(d.Opcode, d.Syntax, d.Summary+" (PTX ISA)"), true
	}
	w, _ := wordAt(cc.line, cc.col, false)
	if w != "" {
		for _, d := range append(ScanDecls(code, "this cell"), env.Decls...) {
			if d.Name == w {
				where := fmt.Sprintf("%s, declared in %s line %d", d.Kind, d.Where, d.Line)
				return d.Name + "\n" + d.Text + "\n\n" + where, docHTML(d.Name, d.Text, where), true
			}
		}
	}
	d, found := lookupCUDA(strings.TrimLeft(w, "%"))
	if !found {
		return "", "", false
	}
	return d.Name + "\n" + d.Syntax + "\n\n" + d.Summary, docHTML(d.Name, d.Syntax, d.Summary), true
}

func docHTML(name, syntax, summary string) string {
	return `<div style="font-family:sans-serif;font-size:13px"><b><code>` + html.EscapeString(name) +
		`</code></b><pre style="margin:4px 0">` + html.EscapeString(syntax) + `</pre><p style="margin:4px 0">` +
		html.EscapeString(summary) + `</p></div>`
}

// IsComplete reports "complete", "incomplete" (with the indent for the next line)
// or "invalid" for a cell, from its braces, brackets and parentheses outside
// comments, strings and character literals. Magic lines are ignored.
func IsComplete(code string) (status, indent string) {
	if first := firstLine(code); strings.HasPrefix(first, "%%writefile") {
		return "complete", "" // the body is a file's text, whatever its braces
	}
	var stack []byte
	inBlock := false
	for _, line := range splitLines(code) {
		if !inBlock && magicLine(line) {
			continue
		}
		for i := 0; i < len(line); i++ {
			c := line[i]
			if inBlock {
				if c == '*' && i+1 < len(line) && line[i+1] == '/' {
					inBlock = false
					i++
				}
				continue
			}
			switch c {
			case '/':
				if i+1 < len(line) && line[i+1] == '/' {
					i = len(line)
					continue
				}
				if i+1 < len(line) && line[i+1] == '*' {
					inBlock = true
					i++
				}
			case '"', '\'':
				j := i + 1
				for j < len(line) && line[j] != c {
					if line[j] == '\\' {
						j++
					}
					j++
				}
				if j >= len(line) {
					return "invalid", ""
				}
				i = j
			case '(', '[', '{':
				stack = append(stack, c)
			case ')', ']', '}':
				open := map[byte]byte{')': '(', ']': '[', '}': '{'}[c]
				if len(stack) == 0 || stack[len(stack)-1] != open {
					return "invalid", ""
				}
				stack = stack[:len(stack)-1]
			}
		}
	}
	if inBlock {
		return "incomplete", ""
	}
	if len(stack) > 0 {
		return "incomplete", strings.Repeat("    ", len(stack))
	}
	return "complete", ""
}

// firstLine is the cell's first non-blank line, trimmed.
func firstLine(code string) string {
	for _, l := range splitLines(code) {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}
