package ptx

import (
	"reflect"
	"strings"
	"testing"
)

// TestPragmaIndex: a body pragma keeps the index of the instruction after it (nvcc's
// `.pragma "nounroll";` after a loop's head label), a header pragma index 0, and the
// printer puts each back in its place.
func TestPragmaIndex(t *testing.T) {
	src := `.version 8.5
.target sm_90
.address_size 64
.visible .entry k(.param .u32 n)
.pragma "hdr";
{
	.reg .b32 %r<4>;
	.reg .pred %p<2>;
	ld.param.u32 %r1, [n];
	mov.u32 %r2, 0;
$L__BB0_1:
	.pragma "nounroll";
	add.s32 %r2, %r2, 1;
	setp.lt.s32 %p1, %r2, %r1;
	@%p1 bra $L__BB0_1;
	ret;
}
`
	m, err := Parse("p.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Funcs[0]
	if !reflect.DeepEqual(f.Pragmas, []string{"hdr", "nounroll"}) || !reflect.DeepEqual(f.PragmaIndex, []int{0, 2}) {
		t.Fatalf("pragmas %q at %v, want [hdr nounroll] at [0 2]", f.Pragmas, f.PragmaIndex)
	}
	text := m.String()
	if !strings.Contains(text, "$L__BB0_1:\n\t.pragma \"nounroll\";\n\tadd.s32") {
		t.Errorf("the printed body pragma is not after its label:\n%s", text)
	}
	m2, err := Parse("p2.ptx", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if f2 := m2.Funcs[0]; !reflect.DeepEqual(f2.Pragmas, f.Pragmas) || !reflect.DeepEqual(f2.PragmaIndex, f.PragmaIndex) {
		t.Errorf("round trip: %q at %v", f2.Pragmas, f2.PragmaIndex)
	}
}
