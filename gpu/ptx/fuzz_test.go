package ptx

import (
	"os"
	"reflect"
	"testing"
)

func addSeeds(f *testing.F) {
	f.Add([]byte(handPTX))
	for _, body := range []string{"\tmov.u32 %r1, %tid.x;", "L:\n\t@%p1 bra L;\n\tret;", "\tld.global.v2.u32 {%r1, _}, [p+-4];"} {
		f.Add([]byte(wrapBody(body)))
	}
	for i, path := range goldenPTX(f) {
		if i%20 != 0 {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
}

// FuzzParse checks that Parse never panics, always returns a module, and that
// a module parsed without errors survives printing and re-parsing.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := Parse("fuzz.ptx", src)
		if m == nil {
			t.Fatal("nil module")
		}
		if err != nil {
			return
		}
		for _, fn := range m.Funcs {
			if g, err := BuildCFG(fn); err == nil {
				for i := range fn.Insts {
					if r := g.Reconv(i); r < -1 || r >= len(fn.Insts) {
						t.Fatalf("Reconv(%d) = %d out of range", i, r)
					}
				}
			}
			EstimateRegisters(fn)
		}
		NewSourceMap(m)
		text := m.String()
		m2, err := Parse("printed.ptx", []byte(text))
		if err != nil {
			t.Fatalf("printed module does not parse: %v\n%s", err, text)
		}
		clearPos(reflect.ValueOf(m))
		clearPos(reflect.ValueOf(m2))
		if !reflect.DeepEqual(m, m2) {
			t.Fatalf("round trip changed the module:\n%s", text)
		}
	})
}

// FuzzScan checks that the scanner terminates and positions only grow.
func FuzzScan(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		var s Scanner
		s.Init(string(src), nil)
		last := Pos{Line: 1, Col: 0}
		for n := 0; ; n++ {
			tok, pos, _ := s.Scan()
			if pos.Line < last.Line || pos.Line == last.Line && pos.Col < last.Col {
				t.Fatalf("position went back: %v after %v", pos, last)
			}
			last = pos
			if tok == EOF {
				break
			}
			if n > len(src)+1 {
				t.Fatal("scanner does not advance")
			}
		}
	})
}
