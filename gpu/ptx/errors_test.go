package ptx

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// wrapBody puts lines into a kernel whose body starts on line 6.
func wrapBody(body string) string {
	return ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n" +
		"\t.reg .b32 %r<4>;\n\t.reg .pred %p<2>;\n" + body + "\n}\n"
}

func TestMalformed(t *testing.T) {
	cases := []struct {
		src  string
		line int
		msg  string
	}{
		{wrapBody("\tfoo.u32 %r1, %r2;"), 8, "unknown opcode foo"},
		{wrapBody("\tadd.u32 %r1, %r2 %r3;"), 8, "expected ',' or ';', found '%r3'"},
		{wrapBody("\tadd.u32 %r1, %r9, 1;"), 8, "undefined: %r9"},
		{wrapBody("\tmov.u32 %r1, %nosuch;"), 8, "undefined: %nosuch"},
		{wrapBody("\tbra MISSING;"), 8, "undefined: MISSING"},
		{wrapBody("\tmov.u32 %r1, %tid.q;"), 8, "special register %tid has no component .q"},
		{wrapBody("\tmov.u32 %r1, %laneid.x;"), 8, "special register %laneid has no component .x"},
		{wrapBody("\tld.global.u32 %r1, [%r2+];"), 8, "expected integer offset, found ']'"},
		{wrapBody("\tld.global.u32 %r1, [nosym];"), 8, "undefined: nosym"},
		{wrapBody("\tmov.f32 %r1, 0f3F80;"), 8, "must have 8 hex digits"},
		{wrapBody("\tmov.u32 %r1, 0x;"), 8, "invalid integer literal"},
		{wrapBody("\tmov.u32 %r1, 12ab;"), 8, "malformed number"},
		{wrapBody("\t@%nop bra L;\nL:\n\tret;"), 8, "undefined: %nop"},
		{wrapBody("L:\nL:\n\tret;"), 9, "label L redefined"},
		{wrapBody("\t.reg .b99 %x;"), 8, "expected register type, found '.b99'"},
		{wrapBody("\tmov.u32 %r1, 1"), 9, "expected ',' or ';', found '}'"},
		{wrapBody("\t.shared .align 3 .b8 s[4];"), 8, "alignment must be a power of two"},
		{wrapBody("\t.bogus 1;"), 8, "unexpected directive '.bogus' in function body"},
		{wrapBody("\tmov.u32 %r1, \"s\";"), 8, "expected operand, found \"s\""},
		{wrapBody("\tmov.u32 %r1, #;"), 8, "illegal character '#'"},
		{wrapBody("\tadd.u32 %r1, %r2, {%r3;"), 8, "expected '}', found ';'"},
		{".version 8.0\n.target sm_80\n.address_size 48\n", 3, "address size must be 32 or 64"},
		{".version 8.0\n.entry k(.param .u99 a) { ret; }\n", 2, "expected parameter type, found '.u99'"},
		{".version 8.0\n.entry k(.param .u32 a { ret; }\n", 2, "expected ')', found '{'"},
		{".version 8.0\n.visible .bogus x;\n", 2, "expected .entry, .func or a variable after linkage directive"},
		{".version 8.0\n.entry k()\n{\n\tret;\n", 5, "expected '}' to close body of k, found end of file"},
		{".version 8.0\nmov.u32 %r1, 1;\n", 2, "expected directive, found 'mov'"},
		{".version 8.0\n.global .u32 g = nosuch;\n", 2, "undefined: nosuch"},
		{".version 8.0\n/* open comment\n", 2, "comment not terminated"},
		{".version 8.0\n.file 1 \"open\n", 2, "string literal not terminated"},
		{".version 8.0\n.entry k() .maxntid 1,\n{ ret; }\n", 3, "expected integer, found '{'"},
		{wrapBody("\tbrx.idx %r1, T;\nT: .branchtargets A, B;\nA:\n\tret;"), 9, "undefined: B"},
	}
	for _, c := range cases {
		_, err := Parse("bad.ptx", []byte(c.src))
		var list ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Errorf("%q: no error, want %q", c.src, c.msg)
			continue
		}
		e := list[0]
		if int(e.Pos.Line) != c.line || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%q:\n got line %d: %s\nwant line %d: %s", c.src, e.Pos.Line, e.Msg, c.line, c.msg)
		}
		if want := fmt.Sprintf("bad.ptx:%d:%d: ", e.Pos.Line, e.Pos.Col); !strings.HasPrefix(e.Error(), want) {
			t.Errorf("Error() = %q, want prefix %q", e.Error(), want)
		}
	}
}

func TestTooManyErrors(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 50; i++ {
		b.WriteString("\tfoo.u32 %r1;\n")
	}
	m, err := Parse("many.ptx", []byte(wrapBody(b.String())))
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("err = %v", err)
	}
	if len(list) != MaxErrors+1 || list[len(list)-1].Msg != "too many errors" {
		t.Errorf("%d errors, last %q", len(list), list[len(list)-1].Msg)
	}
	for i := 1; i < len(list); i++ {
		if list[i].Pos.Line < list[i-1].Pos.Line {
			t.Errorf("errors not sorted at %d", i)
		}
	}
	if m == nil || len(m.Funcs) != 1 {
		t.Errorf("partial module missing")
	}
}

// TestPartialModule checks that a bad statement costs only that statement.
func TestPartialModule(t *testing.T) {
	m, err := Parse("p.ptx", []byte(wrapBody("\tmov.u32 %r1, 1;\n\tfoo %r1;\n\tadd.u32 %r2, %r1, 1;\n\tret;")))
	if err == nil {
		t.Fatal("no error")
	}
	k := m.Func("k")
	if k == nil || len(k.Insts) != 3 {
		t.Fatalf("partial function: %+v", k)
	}
}

var errorMark = regexp.MustCompile(`// ERROR "(.*)"\s*$`)

// TestErrorFile checks testdata/errors.ptx: every line marked // ERROR "text"
// produces an error containing the text, and no unmarked line has one.
func TestErrorFile(t *testing.T) {
	src, err := os.ReadFile("testdata/errors.ptx")
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{}
	for i, line := range strings.Split(string(src), "\n") {
		if m := errorMark.FindStringSubmatch(line); m != nil {
			want[i+1] = m[1]
		}
	}
	_, err = Parse("errors.ptx", src)
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("err = %v", err)
	}
	got := map[int][]string{}
	for _, e := range list {
		got[int(e.Pos.Line)] = append(got[int(e.Pos.Line)], e.Msg)
	}
	for line, msg := range want {
		found := false
		for _, g := range got[line] {
			found = found || strings.Contains(g, msg)
		}
		if !found {
			t.Errorf("line %d: want error %q, got %q", line, msg, got[line])
		}
	}
	for line, msgs := range got {
		if _, ok := want[line]; !ok {
			t.Errorf("line %d: unexpected errors %q", line, msgs)
		}
	}
	if len(want) < 15 {
		t.Errorf("only %d marked lines", len(want))
	}
}

// TestDeepNesting checks that pathological nesting is an error, not a crash.
func TestDeepNesting(t *testing.T) {
	deep := strings.Repeat("(", 100000)
	for _, src := range []string{
		".version 8.0\n.global .u32 g = " + deep + "1;\n",
		wrapBody("\tcall.uni f, " + deep + "%r1;"),
		wrapBody("\tmov.b32 %r1, " + strings.Repeat("{", 100000) + "%r2;"),
		".version 8.0\n.global .u32 g[1] = " + strings.Repeat("{", 100000) + "1;\n",
		wrapBody(strings.Repeat("{\n", 100000)),
	} {
		if _, err := Parse("deep.ptx", []byte(src)); err == nil {
			t.Errorf("no error for %.40q", src)
		}
	}
}

// TestRecoveryBadHeader checks that a function whose header cannot be read
// costs one error, not one per line of its body, and that later functions parse.
func TestRecoveryBadHeader(t *testing.T) {
	src := ".version 8.0\n.entry 7(.param .u32 a)\n{\n\tfoo;\n\tbar;\n}\n.entry ok()\n{\n\tret;\n}\n"
	m, err := Parse("h.ptx", []byte(src))
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 1 || list[0].Pos.Line != 2 {
		t.Fatalf("errors: %v", err)
	}
	if m.Func("ok") == nil || len(m.Func("ok").Insts) != 1 {
		t.Errorf("function after the bad one not parsed")
	}
}
