package ptx

import (
	"sort"
	"strings"
)

// IsOpcode reports whether op (without modifiers: "ld", "mad", "cp") is a PTX
// instruction opcode.
func IsOpcode(op string) bool {
	_, ok := opcodeIndex[op]
	return ok
}

// Opcodes returns the base opcodes the parser accepts, sorted.
func Opcodes() []string {
	out := make([]string, len(opDocs))
	for i, d := range opDocs {
		out[i] = d.Opcode
	}
	sort.Strings(out)
	return out
}

// OpcodeDoc returns the documentation of an opcode; op may carry modifiers
// ("ld.global.f32" and "@%p1 bra" find "ld" and "bra").
func OpcodeDoc(op string) (OpDoc, bool) {
	op = strings.TrimSpace(op)
	if i := strings.LastIndexAny(op, " \t"); i >= 0 {
		op = op[i+1:]
	}
	if i := strings.IndexByte(op, '.'); i >= 0 {
		op = op[:i]
	}
	i, ok := opcodeIndex[op]
	if !ok {
		return OpDoc{}, false
	}
	return opDocs[i], true
}
