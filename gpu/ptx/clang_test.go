package ptx

import (
	"os"
	"path/filepath"
	"testing"
)

// TestParseClang parses PTX that clang emitted for small kernels of this
// package (testdata/clang, see its README) and checks the instruction count
// against the independent line scan.
func TestParseClang(t *testing.T) {
	files, err := filepath.Glob("testdata/clang/*.ptx")
	if err != nil || len(files) == 0 {
		t.Fatalf("no clang fixtures: %v", err)
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Parse(path, src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		want := lineCountInsts(string(src))
		for _, f := range m.Funcs {
			if f.HasBody && len(f.Insts) != want[f.Name] {
				t.Errorf("%s: %s: %d instructions, line scan %d", path, f.Name, len(f.Insts), want[f.Name])
			}
		}
	}
}
