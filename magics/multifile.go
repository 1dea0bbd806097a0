package magics

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Cells that write files and cells that build on earlier ones:
//
//	%%writefile [-a] NAME   the rest of the cell is written to NAME (beside the notebook)
//	%%cuda_define NAME      the cell's device code is kept in the session: later CUDA
//	                        cells are compiled as if it were written above them
//	%defines                lists the kept definitions
//	%undefine NAME...       drops kept definitions

// WriteFile is a %%writefile cell: the file to write and the cell's body.
type WriteFile struct {
	Name   string // as written in the cell, relative to the notebook's directory unless absolute
	Append bool   // -a / --append
	Body   string // every line after the %%writefile line, ending with a newline when not empty
	Line   int    // the %%writefile line
}

// parseWriteFile reads `%%writefile [-a|--append] NAME` (NAME may be quoted) and
// takes the lines after it, unparsed, as the file's contents.
func (s *State) parseWriteFile(n int, line string, rest []string) (*Spec, error) {
	fail := func(format string, a ...any) error {
		return &Error{Line: n, Magic: "%%writefile", Msg: fmt.Sprintf(format, a...)}
	}
	arg := strings.TrimSpace(strings.TrimPrefix(line, "%%writefile"))
	wf := &WriteFile{Line: n}
	for {
		switch {
		case arg == "-a" || arg == "--append":
			arg = ""
		case strings.HasPrefix(arg, "-a ") || strings.HasPrefix(arg, "-a\t"):
			arg = strings.TrimSpace(arg[2:])
		case strings.HasPrefix(arg, "--append ") || strings.HasPrefix(arg, "--append\t"):
			arg = strings.TrimSpace(arg[len("--append"):])
		default:
			goto name
		}
		wf.Append = true
	}
name:
	if arg == "" {
		return nil, fail("expected a file name: %%%%writefile NAME (or %%%%writefile -a NAME to append)")
	}
	if arg[0] == '"' || arg[0] == '\'' {
		q, err := strconv.Unquote(`"` + strings.Trim(arg, `"'`) + `"`)
		if err != nil || len(arg) < 2 || arg[len(arg)-1] != arg[0] {
			return nil, fail("bad quoted file name %s", arg)
		}
		arg = q
	} else if strings.HasPrefix(arg, "-") {
		return nil, fail("unknown option %q; the only option is -a (append)", strings.Fields(arg)[0])
	} else if strings.ContainsAny(arg, " \t") {
		return nil, fail("expected one file name, found %q (quote a name with blanks)", arg)
	}
	if strings.ContainsRune(arg, 0) {
		return nil, fail("the file name contains a NUL byte")
	}
	wf.Name = arg
	wf.Body = strings.Join(rest, "\n")
	if wf.Body != "" && !strings.HasSuffix(wf.Body, "\n") {
		wf.Body += "\n"
	}
	return &Spec{Kind: Config, WriteFile: wf}, nil
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// parseDefine reads `%%cuda_define NAME`.
func parseDefine(n int, line string, spec *Spec) error {
	f := strings.Fields(line)
	switch {
	case len(f) != 2:
		return &Error{Line: n, Magic: "%%cuda_define", Msg: fmt.Sprintf("expected one definition name, e.g. %%%%cuda_define helpers, found %q", strings.Join(f[1:], " "))}
	case !identRE.MatchString(f[1]) || len(f[1]) > 64:
		return &Error{Line: n, Magic: "%%cuda_define", Msg: fmt.Sprintf("%q is not a definition name (a C identifier of at most 64 characters)", f[1])}
	}
	spec.Define = f[1]
	return nil
}

// checkDefinitionCell checks the whole of a %%cuda_define cell (it holds code, and
// no kernel) and that %defines and %undefine stand in cells of magics.
func checkDefinitionCell(spec *Spec, lines []string, hasCode bool) error {
	if (spec.ListDefines || len(spec.Undefine) > 0) && hasCode {
		n, name := lastMagicLine(lines, "%defines", "%undefine")
		return &Error{Line: n, Magic: name, Msg: "belongs in a cell of magics, not in a cell of code"}
	}
	if spec.Define == "" {
		return nil
	}
	if !hasCode {
		return &Error{Line: 1, Magic: "%%cuda_define", Msg: "the cell holds no code to keep"}
	}
	if loc := kernelRE.FindStringIndex(stripComments(spec.Source)); loc != nil {
		m := kernelRE.FindStringSubmatch(stripComments(spec.Source)[loc[0]:])
		line := strings.Count(spec.Source[:loc[0]], "\n") + 1
		return &Error{Line: line, Magic: "%%cuda_define", Msg: fmt.Sprintf("a kept definition holds device functions, types, variables and macros, not kernels: "+
			"__global__ %s belongs in the cell that launches it", m[1])}
	}
	return nil
}

// Decl is a name declared in a kept definition or an included header, for
// completion and inspection.
type Decl struct {
	Name  string // the identifier
	Kind  string // function, kernel, struct, class, union, enum, type, macro, variable
	Text  string // the declaration as written (up to its body)
	Where string // where it comes from, e.g. "definition helpers" or "vec.cuh"
	Line  int    // its line there (1-based)
}

// Env is what completion and inspection know beyond the cell: names from kept
// definitions and included headers, and the kept definitions' names.
type Env struct {
	Decls   []Decl
	Defines []string
}

var (
	declMacroRE  = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*)(\([^)\n]*\))?[^\n]*`)
	declTypeRE   = regexp.MustCompile(`\b(struct|class|union|enum(?:[ \t]+class)?)[ \t\n]+(?:__align__\s*\([^)]*\)\s*|alignas\s*\([^)]*\)\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:final\s*)?[{:]`)
	declUsingRE  = regexp.MustCompile(`\busing\s+([A-Za-z_][A-Za-z0-9_]*)\s*=`)
	declTypedef  = regexp.MustCompile(`\btypedef\b[^;{}]*?([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\]\s*)*;`)
	declFuncRE   = regexp.MustCompile(`(?m)^[ \t]*((?:template\s*<[^>{};]*>\s*)?(?:[A-Za-z_][A-Za-z0-9_:<>,]*[ \t\n*&]+)+?\**&?([A-Za-z_][A-Za-z0-9_]*)\s*\([^;{}]*\)[^;{}()]*)\{`)
	declVarRE    = regexp.MustCompile(`(?m)^[ \t]*((?:static\s+|extern\s+)?(?:__constant__|__device__|__managed__|constexpr|const)\b[^;(){}=]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\]\s*)*)(?:=[^;]*)?;`)
	notFuncNames = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "return": true, "sizeof": true,
		"__launch_bounds__": true, "__align__": true, "alignas": true, "decltype": true, "catch": true}
)

// ScanDecls lists the names declared at the top level of CUDA source: functions,
// structs, classes, unions, enums, typedefs and usings, macros, and variables
// (__constant__, __device__, const and constexpr). It is a scan for completion,
// not a parser: it skips comments, strings and everything inside braces.
func ScanDecls(src, where string) []Decl {
	top := topLevel(stripComments(src))
	var out []Decl
	seen := map[string]bool{}
	add := func(name, kind string, start, end int) {
		if name == "" || seen[name] || notFuncNames[name] {
			return
		}
		seen[name] = true
		text := strings.Join(strings.Fields(src[start:end]), " ")
		if len(text) > 200 {
			text = text[:200] + "..."
		}
		out = append(out, Decl{Name: name, Kind: kind, Text: text, Where: where, Line: strings.Count(src[:start], "\n") + 1})
	}
	for _, m := range declMacroRE.FindAllStringSubmatchIndex(top, -1) {
		add(top[m[2]:m[3]], "macro", m[0], m[1])
	}
	for _, m := range declTypeRE.FindAllStringSubmatchIndex(top, -1) {
		add(top[m[4]:m[5]], strings.Fields(top[m[2]:m[3]])[0], m[0], m[1]-1)
	}
	for _, m := range declUsingRE.FindAllStringSubmatchIndex(top, -1) {
		add(top[m[2]:m[3]], "type", m[0], m[1])
	}
	for _, m := range declTypedef.FindAllStringSubmatchIndex(top, -1) {
		add(top[m[2]:m[3]], "type", m[0], m[1])
	}
	for _, m := range declFuncRE.FindAllStringSubmatchIndex(top, -1) {
		kind := "function"
		if strings.Contains(top[m[2]:m[3]], "__global__") {
			kind = "kernel"
		}
		add(top[m[4]:m[5]], kind, m[2], m[3])
	}
	for _, m := range declVarRE.FindAllStringSubmatchIndex(top, -1) {
		add(top[m[4]:m[5]], "variable", m[2], m[3])
	}
	return out
}

// stripComments blanks comments, string and character literals, keeping every
// byte offset and newline where it was.
func stripComments(src string) string {
	b := []byte(src)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				b[i] = ' '
				i++
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			b[i], b[i+1] = ' ', ' '
			i += 2
			for i < len(b) && !(b[i] == '*' && i+1 < len(b) && b[i+1] == '/') {
				if b[i] != '\n' {
					b[i] = ' '
				}
				i++
			}
			if i+1 < len(b) {
				b[i], b[i+1] = ' ', ' '
				i++
			}
		case b[i] == '"' || b[i] == '\'':
			q := b[i]
			if q == '\'' && i > 0 && isWordByte(b[i-1], false) { // a digit separator: 1'000
				continue
			}
			for i++; i < len(b) && b[i] != q && b[i] != '\n'; i++ {
				if b[i] == '\\' && i+1 < len(b) {
					b[i] = ' '
					i++
				}
				b[i] = ' '
			}
		}
	}
	return string(b)
}

// topLevel blanks everything inside braces except the outermost opening brace,
// so declarations inside functions and structs are not scanned; the braces of a
// namespace or an extern "C" block are transparent (their declarations are top-level ones).
func topLevel(src string) string {
	b := []byte(src)
	var stack []bool // per open brace: true when transparent
	opaque := 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '{':
			before := string(b[max(0, i-80):i])
			transparent := opaque == 0 && (nsRE.MatchString(before) || externCRE.MatchString(before))
			stack = append(stack, transparent)
			if transparent {
				b[i] = ' '
				continue
			}
			opaque++
			if opaque > 1 {
				b[i] = ' '
			}
		case c == '}':
			if len(stack) == 0 {
				continue
			}
			transparent := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !transparent {
				opaque--
			}
			b[i] = ' '
		case opaque > 0 && c != '\n':
			b[i] = ' '
		}
	}
	return string(b)
}

var (
	nsRE      = regexp.MustCompile(`\bnamespace(\s+[A-Za-z_][A-Za-z0-9_:]*)?\s*$`)
	externCRE = regexp.MustCompile(`\bextern\s*"[^"\n]*"\s*$`) // the "C" is blanked by stripComments
)
