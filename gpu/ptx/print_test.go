package ptx

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// clearPos zeroes every Pos in the value graph reachable from v so that two
// parses of differently laid out texts can be compared.
func clearPos(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			clearPos(v.Elem())
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[Pos]() {
			v.Set(reflect.Zero(v.Type()))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			clearPos(v.Field(i))
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			clearPos(v.Index(i))
		}
	}
}

func roundTrip(t *testing.T, name string, src []byte) {
	t.Helper()
	m1, err := Parse(name, src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	text := m1.String()
	m2, err := Parse(name+".printed", []byte(text))
	if err != nil {
		t.Fatalf("%s: printed text does not parse: %v\n%s", name, err, text)
	}
	if text2 := m2.String(); text2 != text {
		t.Errorf("%s: printing is not stable", name)
	}
	clearPos(reflect.ValueOf(m1))
	clearPos(reflect.ValueOf(m2))
	if !reflect.DeepEqual(m1, m2) {
		for i := range m1.Funcs {
			if i < len(m2.Funcs) && !reflect.DeepEqual(m1.Funcs[i], m2.Funcs[i]) {
				for j := range m1.Funcs[i].Insts {
					if j < len(m2.Funcs[i].Insts) && !reflect.DeepEqual(m1.Funcs[i].Insts[j], m2.Funcs[i].Insts[j]) {
						t.Errorf("%s: inst %d: %+v != %+v", name, j, *m1.Funcs[i].Insts[j], *m2.Funcs[i].Insts[j])
						break
					}
				}
			}
		}
		t.Errorf("%s: module changed after print and re-parse", name)
	}
}

func TestRoundTrip(t *testing.T) {
	files := goldenPTX(t)
	clang, _ := filepath.Glob("testdata/clang/*.ptx")
	files = append(files, clang...)
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, path, src)
	}
	roundTrip(t, "hand.ptx", []byte(handPTX))
}

var hexLit = regexp.MustCompile(`\b0[xX][0-9a-fA-F]+`)

// TestInstTextGolden compares Inst.Text with the source line of every
// golden instruction, white space removed: the printer writes what nvcc wrote.
func TestInstTextGolden(t *testing.T) {
	n := 0
	for _, path := range goldenPTX(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		m, err := Parse(path, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m.Funcs {
			for _, in := range f.Insts {
				want := lines[in.Pos.Line-1]
				if i := strings.Index(want, "//"); i >= 0 {
					want = want[:i]
				}
				want = strings.Join(strings.Fields(want), "")
				// The AST keeps values, not their radix: write hex in decimal.
				want = hexLit.ReplaceAllStringFunc(want, func(h string) string {
					v, err := strconv.ParseUint(h[2:], 16, 64)
					if err != nil {
						return h
					}
					return strconv.FormatInt(int64(v), 10)
				})
				got := strings.Join(strings.Fields(in.Text()), "")
				if got != want {
					t.Errorf("%s:%d: printed %q, source %q", path, in.Pos.Line, got, want)
				}
				n++
			}
		}
	}
	t.Logf("%d instructions", n)
}
