package analysis

import (
	"strings"
)

// cudaParam is one kernel parameter as the CUDA source declares it.
type cudaParam struct {
	name    string
	ctype   string // the declared type, e.g. "const float*"
	pointer bool
	elem    string // element type of a pointer ("f32"), "" when not a known scalar type
}

// cudaKernels finds the __global__ functions of a CUDA source and their
// parameters. It is a light scan, not a C++ parser: it strips comments, finds
// `__global__ ... NAME(` and splits the parameter list at top-level commas.
func cudaKernels(src string) map[string][]cudaParam {
	s := stripComments(src)
	out := map[string][]cudaParam{}
	for {
		i := strings.Index(s, "__global__")
		if i < 0 {
			return out
		}
		s = s[i+len("__global__"):]
		open := strings.IndexByte(s, '(')
		if open < 0 {
			return out
		}
		head := strings.TrimSpace(s[:open])
		if strings.ContainsAny(head, ";{}") {
			continue
		}
		name := lastIdent(head)
		depth, end := 0, -1
		for j := open; j < len(s); j++ {
			switch s[j] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					end = j
				}
			}
			if end >= 0 {
				break
			}
		}
		if end < 0 || name == "" {
			return out
		}
		var params []cudaParam
		for _, p := range splitTop(s[open+1 : end]) {
			p = strings.TrimSpace(p)
			if p == "" || p == "void" {
				continue
			}
			if eq := strings.IndexByte(p, '='); eq >= 0 {
				p = strings.TrimSpace(p[:eq])
			}
			pn := lastIdent(p)
			ct := strings.TrimSpace(strings.TrimSuffix(p, pn))
			cp := cudaParam{name: pn, ctype: ct}
			if strings.Contains(ct, "*") || strings.HasSuffix(p, "]") {
				cp.pointer = true
				cp.elem = cElem(strings.TrimSpace(strings.ReplaceAll(ct, "*", " ")))
			}
			params = append(params, cp)
		}
		if _, seen := out[name]; !seen {
			out[name] = params
		}
		s = s[end:]
	}
}

// cElem maps a C element type to the cell language's element type.
func cElem(t string) string {
	var words []string
	for _, w := range strings.Fields(t) {
		switch w {
		case "const", "volatile", "__restrict__", "__restrict", "restrict", "struct":
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
	case "short", "short int", "int16_t":
		return "i16"
	case "unsigned short", "uint16_t", "ushort":
		return "u16"
	case "int", "signed", "signed int", "int32_t":
		return "i32"
	case "unsigned", "unsigned int", "uint32_t", "uint":
		return "u32"
	case "long long", "long long int", "long", "int64_t", "long int":
		return "i64"
	case "unsigned long long", "unsigned long", "uint64_t", "size_t", "unsigned long long int":
		return "u64"
	}
	return ""
}

func splitTop(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '<', '[':
			depth++
		case ')', '>', ']':
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

// demangle recovers the plain name of an Itanium-mangled function ("_Z10vector_addPfi" -> "vector_add").
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
