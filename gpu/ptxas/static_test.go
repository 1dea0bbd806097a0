package ptxas

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/sass"
	"github.com/kernelscope/kernelscope/internal/golden"
)

// listingPair is one PTX file with the cuobjdump listing of the same build.
type listingPair struct{ name, arch, ptxPath, sassPath string }

var archs = []string{"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"}

func listingPairs(t testing.TB) []listingPair {
	var out []listingPair
	g := golden.Dir()
	srcs, _ := filepath.Glob(filepath.Join(g, "src", "*.cu"))
	for _, s := range srcs {
		n := strings.TrimSuffix(filepath.Base(s), ".cu")
		for _, a := range archs {
			out = append(out, listingPair{"golden/" + n, a, filepath.Join(g, "ptx", n+"."+a+".ptx"), filepath.Join(g, "sass", n+"."+a+".sass")})
		}
	}
	m := filepath.Join("..", "..", "testdata", "measured", "ptxas", "sass")
	out = append(out, listingPair{"iso", "sm_90", filepath.Join(m, "iso.sm_90.ptx"), filepath.Join(m, "iso.sm_90.sass")})
	out = append(out, listingPair{"bank", "sm_90", filepath.Join(m, "bank.sm_90.ptx"), filepath.Join(m, "bank.sm_90.sass")})
	return out
}

// sassStatic is the count of a function's SASS instructions up to the last EXIT (the
// trailing self-branch and NOP padding are never executed).
func sassStatic(f *sass.Func) int {
	last := -1
	for i, in := range f.Insts {
		if in.Op == "EXIT" || in.Op == "RET" {
			last = i
		}
	}
	n := 0
	for _, in := range f.Insts[:last+1] {
		if in.Op != "NOP" {
			n++
		}
	}
	return n
}

func loadPair(t testing.TB, p listingPair) (*ptx.Module, *sass.Listing) {
	b, err := os.ReadFile(p.ptxPath)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ptx.Parse(filepath.Base(p.ptxPath), b)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := os.ReadFile(p.sassPath)
	if err != nil {
		t.Fatal(err)
	}
	l, err := sass.Parse(string(sb))
	if err != nil {
		t.Fatal(err)
	}
	return m, l
}

func TestStaticExplore(t *testing.T) {
	if os.Getenv("KS_PTXAS_EXPLORE") == "" {
		t.Skip("KS_PTXAS_EXPLORE=1 to print the static comparison")
	}
	var lines []string
	for _, p := range listingPairs(t) {
		if os.Getenv("PTXAS_ARCH") != "" && p.arch != os.Getenv("PTXAS_ARCH") {
			continue
		}
		m, l := loadPair(t, p)
		for _, fn := range m.Funcs {
			if !fn.HasBody || !fn.Entry {
				continue
			}
			sf := l.Func(fn.Name)
			if sf == nil {
				continue
			}
			low, err := Lower(m, fn, p.arch)
			if err != nil {
				t.Fatal(err)
			}
			got, want := low.Static(), float64(sassStatic(sf))
			lines = append(lines, fmt.Sprintf("%-6s %-22s ptx %4d model %6.1f sass %4.0f  %+5.1f%%", p.arch, fn.Name, len(fn.Insts), got, want, 100*(got-want)/want))
		}
	}
	sort.Strings(lines)
	t.Log("\n" + strings.Join(lines, "\n"))
}
