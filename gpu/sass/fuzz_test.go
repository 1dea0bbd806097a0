package sass

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that the listing and res-usage parsers never panic and
// that every parsed instruction prints and parses back to itself.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"vector_add.sm_90.sass", "vector_add.sm_90.nvdisasm"} {
		data, err := os.ReadFile(filepath.Join("../../testdata/golden/sass", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add(" Function k:\n  REG:14 STACK:0 CONSTANT[0]:548\n")
	f.Fuzz(func(t *testing.T, text string) {
		_, _ = ParseResUsage(text)
		l, err := Parse(text)
		if err != nil || l == nil {
			return
		}
		for _, fn := range l.Funcs {
			for _, in := range fn.Insts {
				again, err := ParseInst(in.String())
				if err != nil {
					t.Fatalf("%q does not parse back: %v", in.String(), err)
				}
				if again.String() != in.String() {
					t.Fatalf("%q prints as %q", in.String(), again.String())
				}
			}
		}
		_ = l.String()
	})
}
