package ptx

import (
	"os"
	"sort"
	"strings"
	"testing"
)

func TestOpcodeDocs(t *testing.T) {
	ops := Opcodes()
	if !sort.StringsAreSorted(ops) || len(ops) < 100 {
		t.Fatalf("%d opcodes", len(ops))
	}
	for _, op := range ops {
		d, ok := OpcodeDoc(op)
		if !ok || d.Opcode != op || d.Syntax == "" || len(d.Summary) < 20 || !strings.HasSuffix(d.Summary, ".") {
			t.Errorf("%s: %+v", op, d)
		}
		if !strings.Contains(d.Syntax, op) {
			t.Errorf("%s: syntax %q does not show the opcode", op, d.Syntax)
		}
		if !IsOpcode(op) {
			t.Errorf("IsOpcode(%q) false", op)
		}
	}
	for _, q := range []string{"ld.global.nc.v4.f32", "@%p1 bra", " shfl.sync.down.b32 "} {
		if _, ok := OpcodeDoc(q); !ok {
			t.Errorf("OpcodeDoc(%q) not found", q)
		}
	}
	for _, q := range []string{"", "foo", "LD", "%r1"} {
		if _, ok := OpcodeDoc(q); ok || IsOpcode(q) {
			t.Errorf("%q accepted", q)
		}
	}
}

// TestGoldenOpcodesDocumented checks that every opcode used in the corpus has
// a documentation entry (the inspect request answers from it).
func TestGoldenOpcodesDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, path := range goldenPTX(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Parse(path, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m.Funcs {
			for _, in := range f.Insts {
				seen[in.Op] = true
			}
		}
	}
	for op := range seen {
		if _, ok := OpcodeDoc(op); !ok {
			t.Errorf("%s undocumented", op)
		}
	}
	t.Logf("%d distinct opcodes in the corpus", len(seen))
}
