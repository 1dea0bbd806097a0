package magics

import (
	"strings"
	"testing"
)

// TestLaunchConfig: template arguments, <<<grid, block, shared>>> and their errors.
func TestLaunchConfig(t *testing.T) {
	l, err := ParseLaunch(`MatrixMul<16><<<dim3(3, 2), {16, 16}, 256*sizeof(float)>>>(C=zeros(10), wA=32)`)
	if err != nil {
		t.Fatal(err)
	}
	if l.Kernel != "MatrixMul" || l.TemplateArgs != "16" || l.Grid != [3]int{3, 2, 1} || l.Block != [3]int{16, 16, 1} || !l.SharedSet || l.Shared != 1024 || len(l.Args) != 2 {
		t.Errorf("got %+v", l)
	}
	if l, err := ParseLaunch(`scan<float, 256>(x=rand(4))`); err != nil || l.TemplateArgs != "float, 256" {
		t.Errorf("template types: %+v %v", l, err)
	}
	for _, c := range []struct{ in, want string }{
		{`k<<<4>>>()`, "expected <<<grid, block>>>"},
		{`k<<<4, 256, 1e9>>>()`, "shared memory"},
		{`k<<<4, 256, 0, s>>>()`, "streams are not modelled"},
		{`k<<<4, 2048>>>()`, "block"},
		{`k<16(a=rand(4))`, "not closed"},
		{`k<<<4, 256, 300000>>>()`, "227 KB"},
	} {
		if _, err := ParseLaunch(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.in, err, c.want)
		}
	}
}

// TestSharedAndSymbolMagics: %shared and %symbol reach the cell's launch, a
// later %launch <<<..., N>>> replaces %shared, and errors name the magic and line.
func TestSharedAndSymbolMagics(t *testing.T) {
	s := NewState()
	if _, err := s.Parse("%shared 4K\n%symbol c_Kernel = rand(17, 0, 1, 3):f32\n%symbol d_gain = 2.5f"); err != nil {
		t.Fatal(err)
	}
	spec, err := s.Parse("__global__ void k() {}")
	if err != nil {
		t.Fatal(err)
	}
	l := spec.Launch
	if l == nil || !l.SharedSet || l.Shared != 4096 || len(l.Symbols) != 2 || l.Symbols[0].Name != "c_Kernel" || l.Symbols[0].Init.Type != "f32" ||
		l.Symbols[1].Init.Func != "fill" || l.Symbols[1].Init.Fill != "2.5f" {
		t.Fatalf("launch %+v", l)
	}
	spec, err = s.Parse("%launch k<<<8, 128, 512>>>()\n__global__ void k() {}")
	if err != nil {
		t.Fatal(err)
	}
	if spec.Launch.Shared != 512 || spec.Grid != [3]int{8, 1, 1} || spec.Block != [3]int{128, 1, 1} || len(spec.Launch.Symbols) != 2 {
		t.Errorf("launch %+v grid %v block %v", spec.Launch, spec.Grid, spec.Block)
	}
	if _, err := s.Parse("%symbol clear\n%shared auto"); err != nil {
		t.Fatal(err)
	}
	if spec, _ := s.Parse("__global__ void k() {}"); spec.Launch != nil {
		t.Errorf("after clear: %+v", spec.Launch)
	}
	for _, c := range []struct{ in, want string }{
		{"\n%symbol 3", "cell line 2: %symbol: expected NAME = initialiser"},
		{"%symbol c = bogus(3)", "unknown initialiser bogus()"},
		{"%shared lots", "cell line 1: %shared: expected a number of bytes"},
	} {
		if _, err := s.Parse(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}
