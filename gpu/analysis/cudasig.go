package analysis

import (
	"strings"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// cudaParam is one kernel parameter as the CUDA source declares it.
type cudaParam struct {
	name    string
	ctype   string // the declared type, e.g. "const float*"
	pointer bool
	elem    string // element type of a pointer ("f32"), "" when not a known scalar type
	def     string // default argument text ("0.75f"), "" for none

	// For pointers to vector types and structs: bytes per pointee and how
	// many elem values make one (float4*: 16 and 4). Zero when unknown.
	pointeeSize  int
	pointeeElems int
	pointee      string // the pointee type's name ("float4", "Particle")
}

// cudaKernels finds the __global__ functions of a CUDA source and their
// parameters. It is a light scan, not a C++ parser: it strips comments,
// expands the source's object-like macros, skips attributes
// (__launch_bounds__(...), __attribute__((...)), [[...]]) and templates
// between __global__ and the name, and splits the parameter list at
// top-level commas, keeping default arguments.
func cudaKernels(src string) map[string][]cudaParam {
	s := expandMacros(stripComments(src))
	structs := cudaStructs(s)
	out := map[string][]cudaParam{}
	for {
		i := indexWord(s, "__global__")
		if i < 0 {
			return out
		}
		s = s[i+len("__global__"):]
		name, open, ok := kernelName(s)
		if !ok {
			continue
		}
		end := matchParen(s, open)
		if end < 0 {
			return out
		}
		var params []cudaParam
		for _, p := range splitTop(s[open+1 : end]) {
			p = strings.TrimSpace(p)
			if p == "" || p == "void" {
				continue
			}
			cp := cudaParam{}
			if eq := topLevelEq(p); eq >= 0 {
				cp.def = strings.TrimSpace(p[eq+1:])
				p = strings.TrimSpace(p[:eq])
			}
			p = stripAttributes(p)
			pn := lastIdent(p)
			ct := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(strings.SplitN(p, "[", 2)[0]), pn))
			cp.name, cp.ctype = pn, strings.Join(strings.Fields(ct), " ")
			if strings.Contains(ct, "*") || strings.HasSuffix(p, "]") {
				cp.pointer = true
				base := strings.TrimSpace(strings.ReplaceAll(ct, "*", " "))
				cp.elem = cElem(base)
				if cp.elem == "" {
					if l, ok := typeLayout(base, structs); ok {
						cp.elem, cp.pointeeSize, cp.pointeeElems, cp.pointee = l.elem, l.size, l.size/max(elemSize(l.elem), 1), baseTypeName(base)
					}
				}
			}
			params = append(params, cp)
		}
		if _, seen := out[name]; !seen {
			out[name] = params
		}
		s = s[end:]
	}
}

// kernelName finds the function name after __global__: the identifier before
// the first '(' that does not open an attribute. It returns the name and the
// index of its '('.
func kernelName(s string) (string, int, bool) {
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ';' || c == '{' || c == '}':
			return "", 0, false
		case c == '[' && i+1 < len(s) && s[i+1] == '[':
			j := strings.Index(s[i:], "]]")
			if j < 0 {
				return "", 0, false
			}
			i += j + 2
		case c == '(':
			return "", 0, false
		case isIdentByte(c) && !(c >= '0' && c <= '9'):
			j := i
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			word := s[i:j]
			k := j
			for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r') {
				k++
			}
			if k < len(s) && s[k] == '(' {
				switch word {
				case "__launch_bounds__", "__attribute__", "__declspec", "alignas", "__align__", "__maxnreg__", "__cluster_dims__":
					e := matchParen(s, k)
					if e < 0 {
						return "", 0, false
					}
					i = e + 1
					continue
				}
				return word, k, true
			}
			i = j
		default:
			i++
		}
	}
	return "", 0, false
}

// matchParen returns the index of the ')' that closes the '(' at open, or -1.
func matchParen(s string, open int) int {
	depth := 0
	for j := open; j < len(s); j++ {
		switch s[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// topLevelEq finds a default argument's '=' outside brackets.
func topLevelEq(p string) int {
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '(', '<', '[', '{':
			depth++
		case ')', '>', ']', '}':
			depth--
		case '=':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// stripAttributes drops __attribute__((...)), __align__(n) and [[...]] from a declaration.
func stripAttributes(p string) string {
	for _, a := range []string{"__attribute__", "__align__", "alignas"} {
		for {
			i := indexWord(p, a)
			if i < 0 {
				break
			}
			open := strings.IndexByte(p[i:], '(')
			if open < 0 {
				break
			}
			e := matchParen(p, i+open)
			if e < 0 {
				break
			}
			p = p[:i] + " " + p[e+1:]
		}
	}
	for {
		i := strings.Index(p, "[[")
		j := strings.Index(p, "]]")
		if i < 0 || j < i {
			break
		}
		p = p[:i] + " " + p[j+2:]
	}
	return p
}

// indexWord finds w in s as a whole identifier.
func indexWord(s, w string) int {
	off := 0
	for {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return -1
		}
		i += off
		before := i == 0 || !isIdentByte(s[i-1])
		after := i+len(w) >= len(s) || !isIdentByte(s[i+len(w)])
		if before && after {
			return i
		}
		off = i + len(w)
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// expandMacros substitutes the source's object-like macros (#define NAME text)
// for whole identifiers, a few rounds deep, and blanks the directive lines.
func expandMacros(s string) string {
	lines := strings.Split(s, "\n")
	macros := map[string]string{}
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(t, "#") {
			continue
		}
		// Join continued lines.
		full := t
		for strings.HasSuffix(full, "\\") && i+1 < len(lines) {
			lines[i] = ""
			i++
			full = strings.TrimSuffix(full, "\\") + " " + strings.TrimSpace(lines[i])
		}
		lines[i] = ""
		d := strings.TrimSpace(strings.TrimPrefix(full, "#"))
		if !strings.HasPrefix(d, "define") {
			continue
		}
		d = strings.TrimSpace(strings.TrimPrefix(d, "define"))
		j := 0
		for j < len(d) && isIdentByte(d[j]) {
			j++
		}
		if j == 0 || j < len(d) && d[j] == '(' {
			continue // function-like macros are left alone
		}
		macros[d[:j]] = strings.TrimSpace(d[j:])
	}
	s = strings.Join(lines, "\n")
	if len(macros) == 0 {
		return s
	}
	for round := 0; round < 4; round++ {
		var b strings.Builder
		changed := false
		for i := 0; i < len(s); {
			c := s[i]
			if c == '"' {
				j := i + 1
				for j < len(s) && s[j] != '"' && s[j] != '\n' {
					if s[j] == '\\' {
						j++
					}
					j++
				}
				if j < len(s) {
					j++
				}
				b.WriteString(s[i:min(j, len(s))])
				i = j
				continue
			}
			if isIdentByte(c) {
				j := i
				for j < len(s) && isIdentByte(s[j]) {
					j++
				}
				if v, ok := macros[s[i:j]]; ok && !(c >= '0' && c <= '9') {
					b.WriteString(v)
					changed = true
				} else {
					b.WriteString(s[i:j])
				}
				i = j
				continue
			}
			b.WriteByte(c)
			i++
		}
		s = b.String()
		if !changed {
			break
		}
	}
	return s
}

// cElem maps a C element type to the cell language's element type.
func cElem(t string) string {
	var words []string
	for _, w := range strings.Fields(t) {
		switch w {
		case "const", "volatile", "__restrict__", "__restrict", "restrict", "struct", "__grid_constant__":
			continue
		}
		words = append(words, w)
	}
	switch strings.Join(words, " ") {
	case "float":
		return "f32"
	case "double":
		return "f64"
	case "__half", "half":
		return "f16"
	case "__nv_bfloat16", "nv_bfloat16":
		return "bf16"
	case "char", "signed char", "int8_t":
		return "i8"
	case "unsigned char", "uint8_t", "uchar":
		return "u8"
	case "short", "short int", "int16_t", "signed short":
		return "i16"
	case "unsigned short", "uint16_t", "ushort":
		return "u16"
	case "int", "signed", "signed int", "int32_t":
		return "i32"
	case "unsigned", "unsigned int", "uint32_t", "uint":
		return "u32"
	case "long long", "long long int", "long", "int64_t", "long int", "signed long long":
		return "i64"
	case "unsigned long long", "unsigned long", "uint64_t", "size_t", "unsigned long long int", "ulong":
		return "u64"
	}
	return ""
}

func elemSize(e string) int {
	switch e {
	case "i8", "u8":
		return 1
	case "i16", "u16", "f16", "bf16":
		return 2
	case "i32", "u32", "f32":
		return 4
	case "i64", "u64", "f64":
		return 8
	}
	return 0
}

// layout is a type's size, alignment and the element type it is made of
// ("u8" when its fields are of different types).
type layout struct {
	size, align int
	elem        string
}

// baseTypeName drops qualifiers from a type.
func baseTypeName(t string) string {
	var words []string
	for _, w := range strings.Fields(t) {
		switch w {
		case "const", "volatile", "__restrict__", "__restrict", "restrict", "struct":
			continue
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// vectorBase maps CUDA's vector type prefixes to their element types.
var vectorBase = map[string]string{
	"char": "i8", "uchar": "u8", "short": "i16", "ushort": "u16", "int": "i32", "uint": "u32",
	"long": "i64", "ulong": "u64", "longlong": "i64", "ulonglong": "u64", "float": "f32", "double": "f64",
}

// typeLayout lays out a scalar, a CUDA vector type (float4: 16 bytes, aligned
// 16; float3: 12, aligned 4) or a struct of the source.
func typeLayout(t string, structs map[string][]structField) (layout, bool) {
	return typeLayoutDepth(baseTypeName(t), structs, 0)
}

func typeLayoutDepth(t string, structs map[string][]structField, depth int) (layout, bool) {
	if e := cElem(t); e != "" {
		n := elemSize(e)
		return layout{size: n, align: n, elem: e}, true
	}
	if n := len(t); n > 1 && t[n-1] >= '1' && t[n-1] <= '4' {
		if e, ok := vectorBase[t[:n-1]]; ok {
			k := int(t[n-1] - '0')
			es := elemSize(e)
			size, al := es*k, es*k
			switch k {
			case 3:
				al = es
			case 4:
				if es == 8 {
					al = 16 // double4, longlong4: aligned 16 (CUDA 12's _16a layout)
				}
			}
			if t[:n-1] == "long" || t[:n-1] == "ulong" {
				al = min(al, 16)
			}
			return layout{size: size, align: al, elem: e}, true
		}
	}
	fields, ok := structs[t]
	if !ok || depth > 4 {
		return layout{}, false
	}
	var l layout
	l.align = 1
	for i, f := range fields {
		fl, ok := typeLayoutDepth(f.ctype, structs, depth+1)
		if !ok {
			return layout{}, false
		}
		l.size = alignUp(l.size, fl.align) + fl.size*f.count
		l.align = max(l.align, fl.align)
		if i == 0 {
			l.elem = fl.elem
		} else if l.elem != fl.elem {
			l.elem = "u8"
		}
	}
	if a := structs[t+"\x00align"]; len(a) == 1 && a[0].count > l.align {
		l.align = a[0].count
	}
	l.size = alignUp(l.size, l.align)
	if l.elem == "" || l.size == 0 {
		return layout{}, false
	}
	if l.elem != "u8" && l.size%elemSize(l.elem) != 0 {
		l.elem = "u8"
	}
	return l, true
}

// structField is one field (or array of fields) of a struct.
type structField struct {
	ctype string
	count int
}

// cudaStructs finds `struct NAME { ... };` and `typedef struct { ... } NAME;`
// definitions with plain fields. An explicit __align__(n) / alignas(n) is kept
// under the key NAME+"\x00align" (count = n).
func cudaStructs(s string) map[string][]structField {
	out := map[string][]structField{}
	for off := 0; ; {
		i := indexWord(s[off:], "struct")
		if i < 0 {
			return out
		}
		i += off
		open := strings.IndexByte(s[i:], '{')
		semi := strings.IndexByte(s[i:], ';')
		if open < 0 || (semi >= 0 && semi < open) {
			off = i + len("struct")
			continue
		}
		head := s[i+len("struct") : i+open]
		align := 0
		for _, a := range []string{"__align__", "alignas"} {
			if k := indexWord(head, a); k >= 0 {
				if o := strings.IndexByte(head[k:], '('); o >= 0 {
					if e := matchParen(head, k+o); e >= 0 {
						align = atoiSafe(strings.TrimSpace(head[k+o+1 : e]))
						head = head[:k] + head[e+1:]
					}
				}
			}
		}
		head = stripAttributes(head)
		name := lastIdent(strings.TrimSpace(head))
		depth, close := 0, -1
		for j := i + open; j < len(s); j++ {
			if s[j] == '{' {
				depth++
			} else if s[j] == '}' {
				depth--
				if depth == 0 {
					close = j
					break
				}
			}
		}
		if close < 0 {
			return out
		}
		body := s[i+open+1 : close]
		if name == "" {
			// typedef struct { ... } NAME;
			if e := strings.IndexByte(s[close:], ';'); e >= 0 {
				name = lastIdent(strings.TrimSpace(s[close+1 : close+e]))
			}
		}
		off = close + 1
		if name == "" || strings.ContainsAny(body, "({") {
			continue // methods, nested definitions: not laid out
		}
		var fields []structField
		ok := true
		for _, decl := range strings.Split(body, ";") {
			decl = strings.TrimSpace(stripAttributes(decl))
			if decl == "" {
				continue
			}
			parts := splitTop(decl)
			first := strings.TrimSpace(parts[0])
			fn := lastIdent(strings.SplitN(first, "[", 2)[0])
			ctype := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(strings.SplitN(first, "[", 2)[0]), fn))
			if ctype == "" || strings.Contains(ctype, "*") {
				ok = false
				break
			}
			for _, p := range parts {
				n := 1
				if k := strings.IndexByte(p, '['); k >= 0 {
					n = atoiSafe(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(p[k+1:]), "]")))
					if n <= 0 {
						ok = false
					}
				}
				fields = append(fields, structField{ctype: ctype, count: n})
			}
		}
		if ok && len(fields) > 0 {
			out[name] = fields
			if align > 0 {
				out[name+"\x00align"] = []structField{{count: align}}
			}
		}
	}
}

func atoiSafe(s string) int {
	n := 0
	if s == "" {
		return 0
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0
		}
		n = n*10 + int(s[i]-'0')
		if n > 1<<24 {
			return 0
		}
	}
	return n
}

// cudaVars finds the __constant__ and __device__ variables at file scope and
// their C element types ("c_Kernel" -> "float").
func cudaVars(src string) map[string]string {
	s := expandMacros(stripComments(src))
	out := map[string]string{}
	for _, q := range []string{"__constant__", "__device__"} {
		for off := 0; ; {
			i := indexWord(s[off:], q)
			if i < 0 {
				break
			}
			i += off
			off = i + len(q)
			end := declEnd(s[i:])
			if end < 0 || s[i+end] != ';' {
				continue // a function, not a variable
			}
			decl := s[i+len(q) : i+end]
			if e := topLevelEq(decl); e >= 0 {
				decl = decl[:e]
			}
			decl = stripAttributes(decl)
			decl = strings.ReplaceAll(strings.ReplaceAll(decl, "__constant__", " "), "__device__", " ")
			decl = strings.SplitN(decl, "[", 2)[0]
			name := lastIdent(decl)
			t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(decl), name))
			for _, w := range []string{"static", "extern", "volatile"} {
				t = strings.TrimSpace(strings.ReplaceAll(" "+t+" ", " "+w+" ", " "))
			}
			if name != "" && t != "" {
				out[name] = t
			}
		}
	}
	return out
}

// declEnd finds the ';', '{' or '(' that ends a declaration's head, outside brackets.
func declEnd(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
		case ';', '{':
			return i
		case '(':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func splitTop(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '<', '[', '{':
			depth++
		case ')', '>', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

func lastIdent(s string) string {
	s = strings.TrimRight(s, " \t\r\n")
	if k := strings.IndexByte(s, '['); k >= 0 {
		s = strings.TrimSpace(s[:k])
	}
	end := len(s)
	start := end
	for start > 0 {
		c := s[start-1]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			start--
			continue
		}
		break
	}
	return s[start:end]
}

// stripComments blanks // and /* */ comments, keeping newlines.
func stripComments(src string) string {
	b := []byte(src)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '"':
			for i++; i < len(b) && b[i] != '"' && b[i] != '\n'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			for ; i < len(b) && !(b[i] == '*' && i+1 < len(b) && b[i+1] == '/'); i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
			if i+1 < len(b) {
				b[i], b[i+1] = ' ', ' '
				i++
			}
		}
	}
	return string(b)
}

// demangle recovers the plain name of an Itanium-mangled function
// ("_Z10vector_addPfi" -> "vector_add", "_Z9MatrixMulILi16EEvPf" -> "MatrixMul").
func demangle(name string) string {
	if !strings.HasPrefix(name, "_Z") {
		return name
	}
	s := name[2:]
	if strings.HasPrefix(s, "N") {
		return name
	}
	n := 0
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		n = n*10 + int(s[i]-'0')
		i++
	}
	if i == 0 || i+n > len(s) {
		return name
	}
	return s[i : i+n]
}

// kernelDisplayName is the name a kernel is launched by: the plain name, with
// its template arguments when it is a template instance ("MatrixMul<16>").
func kernelDisplayName(mangled string) string {
	base := demangle(mangled)
	if targs, ok := ptx.TemplateArgs(mangled); ok {
		return base + "<" + targs + ">"
	}
	return base
}
