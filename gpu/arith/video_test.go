package arith

import (
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// decodeVideo parses one video instruction (d a b [c] are %r1 %r2 %r3 %r4).
func decodeVideo(t *testing.T, text string) (*Op, error) {
	t.Helper()
	src := ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<8>;\n" + text + "\nret;\n}\n"
	m, err := ptx.Parse("v.ptx", []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return Decode(m.Funcs[0].Insts[0])
}

// The SIMD forms by the manual's pseudocode, worked by hand; the scalar forms'
// H200-specific rules are pinned by gpu/sim's TestVideoH200.
func TestVideoCases(t *testing.T) {
	cases := []struct {
		text    string
		a, b, c uint32
		want    uint32
	}{
		// per-byte |a-b| (defaults: a.b3210, b.b7654, all bytes)
		{"vabsdiff4.u32.u32.u32 %r1, %r2, %r3, %r4;", 0x10ff0005, 0x20000109, 0, 0x10ff0104},
		// the same summed into c (__vsadu4)
		{"vabsdiff4.u32.u32.u32.add %r1, %r2, %r3, %r4;", 0x10ff0005, 0x20000109, 100, 100 + 0x10 + 0xff + 1 + 4},
		// signed bytes, saturated: 0x7f + 0x01 -> 0x7f; 0x80 + 0xff -> 0x80
		{"vadd4.s32.s32.s32.sat %r1, %r2, %r3, %r4;", 0x7f800000, 0x01ff0000, 0, 0x7f800000},
		// mask .b0: only byte 0 written, the rest from c
		{"vadd4.u32.u32.u32 %r1.b0, %r2, %r3, %r4;", 0x01010101, 0x02020202, 0xaabbccdd, 0xaabbcc03},
		// selectors: a's element 0 is b's byte 0 (index 4), element 1..3 a's bytes
		{"vmax4.u32.u32.u32 %r1, %r2.b3214, %r3.b0000, %r4;", 0x00000010, 0x00000020, 0, 0x10101020},
		// halves: average rounds up for non-negative sums, down for negative
		{"vavrg2.s32.s32.s32 %r1, %r2, %r3, %r4;", 0xfffe0003, 0xffff0000, 0, 0xfffe0002},
		// vset2 with accumulate: two comparisons true -> c + 2
		{"vset2.u32.u32.lt.add %r1, %r2, %r3, %r4;", 0x00010001, 0x00020002, 5, 7},
		// scalar vmad u32: a.h0 * b.b1 + c
		{"vmad.u32.u32.u32 %r1, %r2.h0, %r3.b1, %r4;", 0x00000100, 0x00000300, 7, 0x100*3 + 7},
		// vmad .po: + 1
		{"vmad.u32.u32.u32.po %r1, %r2, %r3, %r4;", 3, 4, 5, 18},
		// vmad with the product negated: -(3*4) + 20 = 8
		{"vmad.s32.s32.s32 %r1, -%r2, %r3, %r4;", 3, 4, 20, 8},
		// scalar vsub with byte selectors, s32: 0x80 (-128) - 1 = -129
		{"vsub.s32.s32.s32 %r1, %r2.b0, %r3.b0;", 0x80, 1, 0, 0xffffff7f},
		// merge into byte 2 of c
		{"vadd.u32.u32.u32 %r1.b2, %r2.b0, %r3.b0, %r4;", 0x12, 0x01, 0xffffffff, 0xff13ffff},
		// shifts: clamp at 32; wrap masks to 5 bits
		{"vshr.s32.s32.u32.clamp %r1, %r2, %r3;", 0x80000000, 40, 0, 0xffffffff},
		{"vshr.u32.u32.u32.wrap %r1, %r2, %r3;", 0x80000000, 33, 0, 0x40000000},
	}
	for _, c := range cases {
		o, err := decodeVideo(t, c.text)
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		src := [4]uint64{uint64(c.a), uint64(c.b), uint64(c.c)}
		if got, _ := o.Eval(&src, nil); uint32(got) != c.want {
			t.Errorf("%s a=%#x b=%#x c=%#x: %#x, want %#x", c.text, c.a, c.b, c.c, uint32(got), c.want)
		}
	}
}

func TestVideoDecodeErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"vadd4.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;", ".sat cannot be used with the accumulate"},
		{"vadd4.u32.u32.u32 %r1.h0, %r2, %r3, %r4;", "must start with .b"},
		{"vadd4.u32.u32.u32 %r1, %r2.b32, %r3, %r4;", "must be .b followed by 4 digits"},
		{"vadd2.u32.u32.u32 %r1, %r2.h3, %r3, %r4;", "must be .h followed by 2 digits"},
		{"vadd2.u32.u32.u32.min %r1, %r2, %r3, %r4;", "not a SIMD secondary operation"},
		{"vadd.u32.u32.u32 %r1.h0, %r2.b0, %r3;", "needs the c operand"},
		{"vadd.u32.u32.u32.add %r1.b1, %r2, %r3, %r4;", "a destination selector (merge) and a secondary operation"},
		{"vadd.f32.u32.u32 %r1, %r2, %r3;", "not allowed"},
		{"vshl.u32.u32.u32 %r1, %r2, %r3;", "exactly one of .clamp and .wrap"},
		{"vshl.u32.u32.u32.sat.clamp %r1, %r2, %r3;", "not implemented"},
		{"vmad.u32.u32.u32.shr7 %r1, %r2, %r3, %r4;", "not implemented"},
		{"vmad.s32.s32.s32 %r1, -%r2, %r3, -%r4;", "not both"},
		{"vmad.u32.u32.u32.po %r1, -%r2, %r3, %r4;", "may not be negated"},
		{"vset.u32.u32 %r1, %r2, %r3;", "needs a comparison"},
		{"vadd.u32.u32.u32 %r1, -%r2, %r3;", "cannot be negated"},
	}
	for _, c := range cases {
		_, err := decodeVideo(t, c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.text, err, c.want)
		}
	}
}
