package ptx

import "strings"

// FuncName returns a readable name for a mangled C++ function name as it
// appears in .debug_str: the qualified name of an Itanium "_Z" name
// ("_ZN3foo3barEi" -> "foo::bar", "_Z6helperfi" -> "helper"), with internal
// linkage prefixes ("_INTERNAL_..." namespaces) dropped. Parameter types,
// templates and other encodings are not decoded; a name it cannot read is
// returned unchanged.
func FuncName(mangled string) string {
	s, ok := strings.CutPrefix(mangled, "_Z")
	if !ok {
		return mangled
	}
	nested := false
	if strings.HasPrefix(s, "N") {
		nested = true
		s = s[1:]
	}
	var parts []string
	for len(s) > 0 && isDigit(s[0]) {
		n := 0
		i := 0
		for i < len(s) && isDigit(s[i]) && n <= len(s) {
			n = n*10 + int(s[i]-'0')
			i++
		}
		if n == 0 || i+n > len(s) {
			return mangled
		}
		part := s[i : i+n]
		s = s[i+n:]
		if !strings.HasPrefix(part, "_INTERNAL_") {
			parts = append(parts, part)
		}
		if !nested {
			break
		}
	}
	if len(parts) == 0 || nested && !strings.HasPrefix(s, "E") {
		return mangled
	}
	return strings.Join(parts, "::")
}

// TemplateArgs decodes the template arguments of an Itanium-mangled function
// template instance ("_Z9MatrixMulILi16EEvPfPKfS2_iif" -> "16",
// "_Z4scanIfLj256EEvPT_" -> "float, 256u"). It reads literal arguments of
// integer and bool types and builtin, pointer and named types; ok is false for
// names without template arguments or with encodings it does not read.
func TemplateArgs(mangled string) (string, bool) {
	s, ok := strings.CutPrefix(mangled, "_Z")
	if !ok || s == "" || !isDigit(s[0]) {
		return "", false
	}
	n, i := 0, 0
	for i < len(s) && isDigit(s[i]) {
		n = n*10 + int(s[i]-'0')
		i++
		if n > len(s) {
			return "", false
		}
	}
	s = s[i+n:]
	if !strings.HasPrefix(s, "I") {
		return "", false
	}
	s = s[1:]
	var args []string
	for {
		if s == "" {
			return "", false
		}
		if s[0] == 'E' {
			break
		}
		var a string
		var rest string
		if s[0] == 'L' {
			a, rest, ok = demangleLiteral(s[1:])
		} else {
			a, rest, ok = demangleType(s)
		}
		if !ok {
			return "", false
		}
		args = append(args, a)
		s = rest
	}
	if len(args) == 0 {
		return "", false
	}
	return strings.Join(args, ", "), true
}

// builtinTypes are the Itanium codes of C++'s builtin types.
var builtinTypes = map[byte]string{
	'v': "void", 'b': "bool", 'c': "char", 'a': "signed char", 'h': "unsigned char", 's': "short",
	't': "unsigned short", 'i': "int", 'j': "unsigned int", 'l': "long", 'm': "unsigned long",
	'x': "long long", 'y': "unsigned long long", 'f': "float", 'd': "double",
}

// demangleLiteral reads "TYPE NUMBER E" after an L.
func demangleLiteral(s string) (string, string, bool) {
	if s == "" {
		return "", "", false
	}
	t := s[0]
	if _, ok := builtinTypes[t]; !ok || t == 'v' || t == 'f' || t == 'd' {
		return "", "", false
	}
	s = s[1:]
	neg := strings.HasPrefix(s, "n")
	if neg {
		s = s[1:]
	}
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 || i >= len(s) || s[i] != 'E' {
		return "", "", false
	}
	v := s[:i]
	if neg {
		v = "-" + v
	}
	switch t {
	case 'b':
		v = map[string]string{"0": "false", "1": "true"}[v]
		if v == "" {
			return "", "", false
		}
	case 'j', 'm', 'y', 'h', 't':
		v += "u"
	}
	return v, s[i+1:], true
}

// demangleType reads a builtin type, a named type or a pointer/const of one.
func demangleType(s string) (string, string, bool) {
	switch {
	case s == "":
		return "", "", false
	case s[0] == 'P':
		t, rest, ok := demangleType(s[1:])
		return t + "*", rest, ok
	case s[0] == 'K':
		t, rest, ok := demangleType(s[1:])
		return "const " + t, rest, ok
	case isDigit(s[0]):
		n, i := 0, 0
		for i < len(s) && isDigit(s[i]) {
			n = n*10 + int(s[i]-'0')
			i++
			if n > len(s) {
				return "", "", false
			}
		}
		if i+n > len(s) {
			return "", "", false
		}
		return s[i : i+n], s[i+n:], true
	}
	if t, ok := builtinTypes[s[0]]; ok {
		return t, s[1:], true
	}
	return "", "", false
}
