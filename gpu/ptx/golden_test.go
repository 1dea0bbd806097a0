package ptx

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goldenPTX lists every PTX file of the golden corpus.
func goldenPTX(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"../../testdata/golden/ptx/*.ptx", "../../testdata/golden/isa/ptx/*.ptx"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 300 {
		t.Fatalf("found %d golden PTX files, want the whole corpus (>= 300)", len(files))
	}
	return files
}

func TestParseGolden(t *testing.T) {
	for _, path := range goldenPTX(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Parse(filepath.Base(path), src)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if len(m.Kernels()) == 0 {
			t.Errorf("%s: no kernels", path)
		}
	}
}

// funcHeader finds the name in ".entry NAME(" and ".func (.param ...) NAME(".
var funcHeader = regexp.MustCompile(`\.(?:entry|func)\s*(?:\([^)]*\))?\s*([A-Za-z_$%][\w$]*)`)

// lineCountInsts counts instruction statements per function with a line-based
// scan independent of the parser: inside a function body, a line whose first
// word is neither a directive, a label, a brace nor a comment starts one
// instruction (or as many as it has ';'), unless it continues a statement
// not yet ended by ';'.
func lineCountInsts(src string) map[string]int {
	counts := map[string]int{}
	name := ""
	depth := 0
	open := false // inside a statement that has not reached its ';'
	header := ""
	for _, line := range strings.Split(src, "\n") {
		s := strings.TrimSpace(line)
		if i := strings.Index(s, "//"); i >= 0 {
			s = strings.TrimSpace(s[:i])
		}
		if depth == 0 {
			if strings.Contains(s, ".entry") || strings.Contains(s, ".func") {
				header = ""
			}
			header += " " + s
			if s == "{" {
				if m := funcHeader.FindStringSubmatch(header); m != nil {
					name = m[1]
					depth = 1
					counts[name] = 0
				}
				header = ""
			}
			continue
		}
		switch {
		case open:
		case s == "{":
			depth++
		case s == "}":
			depth--
			if depth == 0 {
				name = ""
			}
		case s == "" || strings.HasPrefix(s, ".") || strings.HasSuffix(s, ":"):
		default:
			// "trap; exit;" holds two statements
			counts[name] += max(1, strings.Count(s, ";"))
			open = true
		}
		if open && strings.HasSuffix(s, ";") {
			open = false
		}
	}
	return counts
}

func TestInstructionCountGolden(t *testing.T) {
	total := 0
	for _, path := range goldenPTX(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Parse(path, src)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		want := lineCountInsts(string(src))
		got := map[string]int{}
		for _, f := range m.Funcs {
			if f.HasBody {
				got[f.Name] = len(f.Insts)
				total += len(f.Insts)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: parser found functions %v, line scan %v", path, got, want)
		}
		for k, n := range want {
			if got[k] != n {
				t.Errorf("%s: %s: %d instructions, line scan counts %d", path, k, got[k], n)
			}
		}
	}
	t.Logf("%d instructions checked", total)
}
