package launch

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMaterialise(t *testing.T) {
	tests := []struct {
		init  Init
		elem  string
		first []string
	}{
		{Init{Func: "zeros", N: 3}, "f32", []string{"0", "0", "0"}},
		{Init{Func: "ones", N: 2}, "i16", []string{"1", "1"}},
		{Init{Func: "arange", N: 4}, "u8", []string{"0", "1", "2", "3"}},
		{Init{Func: "arange", N: 3}, "f64", []string{"0", "1", "2"}},
		{Init{Func: "fill", N: 2, Fill: "2.5f"}, "f32", []string{"2.5", "2.5"}},
		{Init{Func: "fill", N: 2, Fill: "-7"}, "i32", []string{"-7", "-7"}},
		{Init{Func: "fill", N: 1, Fill: "1"}, "f16", []string{"1"}},
		{Init{Func: "arange", N: 300}, "u8", nil}, // wraps like a C cast
	}
	for _, tc := range tests {
		size := ElemSizes[tc.elem]
		b, _, err := Materialise(tc.init, tc.elem, size, "", 1)
		if err != nil {
			t.Fatalf("%+v: %v", tc.init, err)
		}
		if len(b) != tc.init.N*size {
			t.Fatalf("%+v: %d bytes", tc.init, len(b))
		}
		for i, want := range tc.first {
			if got := FormatElem(b[i*size:], tc.elem); got != want {
				t.Errorf("%+v element %d: %s, want %s", tc.init, i, got, want)
			}
		}
		if tc.init.N == 300 && b[299] != 299%256 {
			t.Errorf("u8 arange wraps: element 299 = %d", b[299])
		}
	}
}

func TestRandIsSeededAndInRange(t *testing.T) {
	a, _, _ := Materialise(Init{Func: "rand", N: 1000, Lo: -2, Hi: 3, HasRange: true}, "f32", 4, "", 1)
	b, _, _ := Materialise(Init{Func: "rand", N: 1000, Lo: -2, Hi: 3, HasRange: true}, "f32", 4, "", 1)
	c, _, _ := Materialise(Init{Func: "rand", N: 1000, Lo: -2, Hi: 3, HasRange: true}, "f32", 4, "", 2)
	if string(a) != string(b) || string(a) == string(c) {
		t.Fatal("rand must be deterministic for a seed and differ between seeds")
	}
	for i := 0; i < 1000; i++ {
		v := math.Float32frombits(binary.LittleEndian.Uint32(a[4*i:]))
		if v < -2 || v >= 3 {
			t.Fatalf("element %d = %g outside [-2, 3)", i, v)
		}
	}
	ints, _, _ := Materialise(Init{Func: "rand", N: 500, Lo: 5, Hi: 9, HasRange: true, Seed: 7, HasSeed: true}, "i32", 4, "", 1)
	for i := 0; i < 500; i++ {
		if v := int32(binary.LittleEndian.Uint32(ints[4*i:])); v < 5 || v >= 9 {
			t.Fatalf("integer element %d = %d outside [5, 9)", i, v)
		}
	}
}

func TestMaterialiseErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.bin"), []byte{1, 2, 3, 4, 5}, 0o644); err != nil {
		t.Fatal(err)
	}
	b, _, err := Materialise(Init{Func: "file", Path: "x.bin"}, "u32", 4, dir, 1)
	if err != nil || len(b) != 8 || b[4] != 5 || b[5] != 0 {
		t.Fatalf("file(): %v %v (a partial last element is zero-padded)", b, err)
	}
	for _, tc := range []struct {
		init Init
		want string
	}{
		{Init{Func: "zeros", N: 0}, "must be positive"},
		{Init{Func: "zeros", N: 1 << 30}, "1 GiB"},
		{Init{Func: "rand", N: 3, Lo: 2, Hi: 1, HasRange: true}, "below the lower bound"},
		{Init{Func: "fill", N: 3, Fill: "abc"}, "expected a number"},
		{Init{Func: "frob", N: 3}, "unknown initialiser"},
		{Init{Func: "file", Path: "missing.bin"}, "missing.bin"},
	} {
		if _, _, err := Materialise(tc.init, "f32", 4, dir, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", tc.init, err, tc.want)
		}
	}
}

func TestParseScalar(t *testing.T) {
	tests := []struct {
		text, typ string
		want      uint64
	}{
		{"2.5f", "f32", uint64(math.Float32bits(2.5))},
		{"-1", "f64", math.Float64bits(-1)},
		{"1000", "i32", 1000},
		{"-3", "i32", uint64(0xfffffffffffffffd)},
		{"0x10", "u32", 16},
		{"18446744073709551615", "u64", math.MaxUint64},
		{"1", "f16", 0x3c00},
		{"4.0", "i32", 4},
	}
	for _, tc := range tests {
		got, err := ParseScalar(tc.text, tc.typ)
		if err != nil || got != tc.want {
			t.Errorf("ParseScalar(%q, %s) = %#x, %v; want %#x", tc.text, tc.typ, got, err, tc.want)
		}
	}
	for _, bad := range []struct{ text, typ string }{{"abc", "i32"}, {"2.5", "i32"}, {"x", "f32"}} {
		if _, err := ParseScalar(bad.text, bad.typ); err == nil {
			t.Errorf("ParseScalar(%q, %s): no error", bad.text, bad.typ)
		}
	}
}

// TestF16Bits checks the half-precision conversion on values with known encodings.
func TestF16Bits(t *testing.T) {
	tests := []struct {
		f    float32
		want uint16
	}{
		{1, 0x3c00}, {-2, 0xc000}, {65504, 0x7bff}, {65520, 0x7c00}, // 65520 rounds up to infinity
		{float32(math.Inf(-1)), 0xfc00}, {5.960464477539063e-08, 0x0001}, // smallest subnormal
		{2.9802322387695312e-08, 0x0000},                // half of it: a tie, to even (zero)
		{1.0009765625, 0x3c01}, {1.00048828125, 0x3c00}, // one ulp; half an ulp ties to even
		{0.333333333, 0x3555},
	}
	for _, tc := range tests {
		if got := F16Bits(tc.f); got != tc.want {
			t.Errorf("F16Bits(%g) = %#04x, want %#04x", tc.f, got, tc.want)
		}
		if tc.want&0x7c00 != 0x7c00 {
			if back := F16ToF32(tc.want); F16Bits(back) != tc.want {
				t.Errorf("round trip of %#04x through %g", tc.want, back)
			}
		}
	}
	if got := F16Bits(float32(math.NaN())); got&0x7c00 != 0x7c00 || got&0x3ff == 0 {
		t.Errorf("NaN -> %#04x", got)
	}
}
