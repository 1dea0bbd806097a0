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
