package sass

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	instLine = regexp.MustCompile(`^\s*/\*([0-9a-f]{4,})\*/\s*(.*?)\s*(/\*.*\*/)?\s*$`)
	funcSass = regexp.MustCompile(`^\s*Function : (\S+)`)
	funcDis  = regexp.MustCompile(`^\s*\.section\s+\.text\.([^,\s]+)`)
	space    = regexp.MustCompile(`\s+`)
)

func listings(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"*.sass", "*.nvdisasm"} {
		m, err := filepath.Glob(filepath.Join("../../testdata/golden/sass", pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 80 {
		t.Fatalf("found %d listings, want the whole corpus", len(files))
	}
	return files
}

// TestGoldenListings parses every golden listing and checks, against a
// regular-expression scan of the same text, the functions, the instruction
// count of each, and that each instruction prints back to its line.
func TestGoldenListings(t *testing.T) {
	total, withLine := 0, 0
	for _, path := range listings(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		l, err := Parse(string(data))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if !strings.HasPrefix(l.Arch, "sm_") {
			t.Errorf("%s: arch %q", path, l.Arch)
		}
		// Independent scan.
		var names []string
		var texts [][]string
		for _, line := range strings.Split(string(data), "\n") {
			if m := funcSass.FindStringSubmatch(line); m != nil {
				names = append(names, m[1])
				texts = append(texts, nil)
			} else if m := funcDis.FindStringSubmatch(line); m != nil {
				names = append(names, m[1])
				texts = append(texts, nil)
			} else if m := instLine.FindStringSubmatch(line); m != nil && len(texts) > 0 {
				texts[len(texts)-1] = append(texts[len(texts)-1], m[2])
			}
		}
		if len(l.Funcs) != len(names) {
			t.Errorf("%s: %d functions, scan finds %d", path, len(l.Funcs), len(names))
			continue
		}
		for i, f := range l.Funcs {
			if f.Name != names[i] || len(f.Insts) != len(texts[i]) {
				t.Errorf("%s: %s has %d instructions, scan finds %s with %d", path, f.Name, len(f.Insts), names[i], len(texts[i]))
				continue
			}
			for j, in := range f.Insts {
				got := space.ReplaceAllString(in.String(), "")
				want := space.ReplaceAllString(texts[i][j], "")
				if got != want {
					t.Errorf("%s: %s: %q prints as %q", path, f.Name, texts[i][j], in.String())
				}
				if j > 0 && in.Addr <= f.Insts[j-1].Addr {
					t.Errorf("%s: %s: address %x after %x", path, f.Name, in.Addr, f.Insts[j-1].Addr)
				}
				if in.Line > 0 {
					withLine++
				}
				total++
			}
		}
		if strings.HasSuffix(path, ".nvdisasm") {
			checkSourceLines(t, path, l)
		}
	}
	t.Logf("%d instructions, %d with a source line", total, withLine)
}

// checkSourceLines checks that nvdisasm's source lines name the kernel's
// .cu file and lie within it, and that every function's first instruction
// has a line.
func checkSourceLines(t *testing.T, path string, l *Listing) {
	base := strings.SplitN(filepath.Base(path), ".", 2)[0]
	src, err := os.ReadFile(filepath.Join("../../testdata/golden/src", base+".cu"))
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(src), "\n") + 1
	for _, f := range l.Funcs {
		if len(f.Insts) == 0 || f.Insts[0].Line == 0 {
			t.Errorf("%s: %s: first instruction has no source line", path, f.Name)
		}
		for _, in := range f.Insts {
			if in.Line == 0 {
				continue
			}
			if strings.HasSuffix(in.File, base+".cu") && in.Line > n {
				t.Errorf("%s: %s: line %d beyond the %d lines of %s", path, f.Name, in.Line, n, in.File)
			}
		}
	}
}

func TestResUsageGolden(t *testing.T) {
	files, err := filepath.Glob("../../testdata/golden/res/*.txt")
	if err != nil || len(files) < 60 {
		t.Fatalf("res files: %d %v", len(files), err)
	}
	rows := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		res, err := ParseResUsage(string(data))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		want := strings.Count(string(data), "Function ")
		if len(res) != want {
			t.Errorf("%s: %d functions, text names %d", path, len(res), want)
		}
		for name, r := range res {
			if r.Registers <= 0 || r.Registers > 255 || r.Constant[0] <= 0 {
				t.Errorf("%s: %s: implausible %+v", path, name, r)
			}
			rows++
		}
	}
	t.Logf("%d functions", rows)
}

func TestResUsageRow(t *testing.T) {
	text := "\nResource usage:\n Common:\n  GLOBAL:0\n Function k:\n  REG:14 STACK:8 SHARED:1056 LOCAL:4 CONSTANT[2]:8 CONSTANT[0]:548 TEXTURE:1 SURFACE:2 SAMPLER:3 FOO:9\n"
	res, err := ParseResUsage(text)
	if err != nil {
		t.Fatal(err)
	}
	r := res["k"]
	if r.Registers != 14 || r.Stack != 8 || r.Shared != 1056 || r.Local != 4 || r.Constant[2] != 8 ||
		r.Constant[0] != 548 || r.Texture != 1 || r.Surface != 2 || r.Sampler != 3 || r.Other["FOO"] != 9 {
		t.Errorf("%+v", r)
	}
	if _, err := ParseResUsage(" Function k:\n  REG:x\n"); err == nil {
		t.Error("bad number accepted")
	}
}

func TestParseInst(t *testing.T) {
	in, err := ParseInst("@!UP0 IMAD.WIDE.U32 R2, R9, 0x4, desc[UR4][R2.64] ;")
	if err != nil {
		t.Fatal(err)
	}
	if in.Pred != "UP0" || !in.PredNeg || in.Op != "IMAD" || strings.Join(in.Mods, ".") != "WIDE.U32" ||
		len(in.Operands) != 4 || in.Operands[3] != "desc[UR4][R2.64]" {
		t.Errorf("%+v", in)
	}
	for _, bad := range []string{"", "@P0", "@ NOP", "FOO R1, [R2", "FOO R1,, R2", ".X R1"} {
		if _, err := ParseInst(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// regIndex matches a general register operand (not UR, SR_ or P registers).
var regIndex = regexp.MustCompile(`(?:^|[^A-Z_])R(\d+)`)

// TestReservedRegisters checks the relation the PTX register estimate relies
// on: cuobjdump's REG equals the highest general register used plus one plus
// two reserved registers. The highest index seen in the text can be one less
// than the highest used when it names the low half of a 64-bit pair, so the
// scan allows REG - 3 as well, and requires the exact relation for most.
func TestReservedRegisters(t *testing.T) {
	files, err := filepath.Glob("../../testdata/golden/sass/*.sass")
	if err != nil || len(files) == 0 {
		t.Fatal("no listings")
	}
	exact, total := 0, 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		l, err := Parse(string(data))
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(filepath.Base(p), ".sass")
		rd, err := os.ReadFile("../../testdata/golden/res/" + base + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		res, err := ParseResUsage(string(rd))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range l.Funcs {
			hi := -1
			for _, in := range f.Insts {
				for _, o := range in.Operands {
					for _, m := range regIndex.FindAllStringSubmatch(o, -1) {
						if n, err := strconv.Atoi(m[1]); err == nil && n > hi {
							hi = n
						}
					}
				}
			}
			reg := res[f.Name].Registers
			total++
			switch reg - (hi + 1) {
			case 2:
				exact++
			case 3:
			default:
				t.Errorf("%s %s: REG %d, highest register R%d", base, f.Name, reg, hi)
			}
		}
	}
	if exact*10 < total*9 {
		t.Errorf("REG = highest+3 for only %d of %d functions", exact, total)
	}
	t.Logf("%d of %d functions: REG = highest register + 1 + 2", exact, total)
}

func TestAtLine(t *testing.T) {
	data, err := os.ReadFile("../../testdata/golden/sass/vector_add.sm_90.nvdisasm")
	if err != nil {
		t.Fatal(err)
	}
	l, err := Parse(string(data))
	if err != nil {
		t.Fatal(err)
	}
	f := l.Func("vector_add")
	if f == nil {
		t.Fatal("no vector_add")
	}
	// Independently: count the instruction lines between the "line 3" and
	// the next "//##" marker of the text.
	want := 0
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, "//## File") {
			in = strings.HasSuffix(strings.TrimSpace(line), "line 3")
			continue
		}
		if in && instLine.MatchString(line) {
			want++
		}
	}
	got := f.AtLine("vector_add.cu", 3)
	if len(got) != want || want == 0 {
		t.Errorf("line 3: %d instructions, text has %d", len(got), want)
	}
	if len(f.AtLine("other.cu", 3)) != 0 {
		t.Error("other file matched")
	}
}

// TestListingRoundTrip prints every golden listing and parses it back.
func TestListingRoundTrip(t *testing.T) {
	for _, path := range listings(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		l, err := Parse(string(data))
		if err != nil {
			t.Fatal(err)
		}
		l2, err := Parse(l.String())
		if err != nil {
			t.Fatalf("%s: printed listing: %v", path, err)
		}
		if !reflect.DeepEqual(l, l2) {
			t.Errorf("%s: listing changed after print and parse", path)
		}
	}
}

func TestInlinedAt(t *testing.T) {
	text := "\t\tFunction : k\n\t//## File \"/i/a.h\", line 10 inlined at \"/s/k.cu\", line 20\n        /*0000*/ NOP ;\n\t//## File \"/s/k.cu\", line 21\n        /*0010*/ EXIT ;\n"
	l, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	f := l.Func("k")
	a, b := f.Insts[0], f.Insts[1]
	if a.File != "/i/a.h" || a.Line != 10 || a.InlinedFile != "/s/k.cu" || a.InlinedLine != 20 || b.InlinedLine != 0 || b.Line != 21 {
		t.Errorf("%+v %+v", a, b)
	}
	if got := f.AtLine("k.cu", 20); len(got) != 1 || got[0] != 0 {
		t.Errorf("AtLine(k.cu, 20) = %v", got)
	}
	l2, err := Parse(l.String())
	if err != nil || !reflect.DeepEqual(l, l2) {
		t.Errorf("round trip: %v\n%s", err, l.String())
	}
}
