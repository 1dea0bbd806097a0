package ptx

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var locLine = regexp.MustCompile(`^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)(?:,\s*function_name\s+(\S+),\s*inlined_at\s+(\d+)\s+(\d+)\s+(\d+))?`)

// TestSourceMapGolden checks the source map of every golden and clang PTX file against
// a text scan: each instruction line maps to the last .loc above it in its
// function, and each (file, line) maps back to exactly the instruction lines
// whose .loc or inlined_at names it.
func TestSourceMapGolden(t *testing.T) {
	checked := 0
	clang, _ := filepath.Glob("testdata/clang/*.ptx")
	for _, path := range append(goldenPTX(t), clang...) {
		if strings.Contains(path, "/isa/") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Parse(path, src)
		if err != nil {
			t.Fatal(err)
		}
		sm := NewSourceMap(m)
		want := map[FileLine][]int{}
		var cur []string
		depth := 0
		open := false
		for i, line := range strings.Split(string(src), "\n") {
			s := strings.TrimSpace(line)
			if j := strings.Index(s, "//"); j >= 0 {
				s = strings.TrimSpace(s[:j])
			}
			switch {
			case s == "{":
				if depth == 0 {
					cur = nil
				}
				depth++
				continue
			case s == "}":
				depth--
				continue
			case depth == 0:
				continue
			}
			if open { // continuation of a statement spread over lines
				open = !strings.HasSuffix(s, ";")
				continue
			}
			if mm := locLine.FindStringSubmatch(line); mm != nil {
				cur = mm
				continue
			}
			if s == "" || strings.HasPrefix(s, ".") || strings.HasSuffix(s, ":") || s == "{" || s == "}" || s == ")" || strings.HasPrefix(s, "(") || strings.HasPrefix(s, ");") || !strings.ContainsAny(s[:1], "abcdefghijklmnopqrstuvwxyz@") {
				continue
			}
			open = !strings.HasSuffix(s, ";")
			ln := i + 1
			li, ok := sm.At(ln)
			if !ok {
				t.Errorf("%s:%d: instruction has no map entry", path, ln)
				continue
			}
			if cur == nil {
				if li.Loc != (Loc{}) {
					t.Errorf("%s:%d: loc %+v before any .loc", path, ln, li.Loc)
				}
				continue
			}
			f, _ := strconv.Atoi(cur[1])
			l, _ := strconv.Atoi(cur[2])
			c, _ := strconv.Atoi(cur[3])
			if int(li.Loc.File) != f || int(li.Loc.Line) != l || int(li.Loc.Col) != c {
				t.Errorf("%s:%d: loc %+v, text says %v", path, ln, li.Loc, cur[1:4])
			}
			if l > 0 {
				want[FileLine{f, l}] = append(want[FileLine{f, l}], ln)
			}
			if cur[4] != "" {
				ifl, _ := strconv.Atoi(cur[5])
				il, _ := strconv.Atoi(cur[6])
				if int(li.Loc.InlinedLine) != il || li.User() != (FileLine{ifl, il}) || li.Loc.Func != cur[4] || li.Inlined == "" {
					t.Errorf("%s:%d: inlined %+v (%q), text says %v", path, ln, li.Loc, li.Inlined, cur[4:])
				}
				if (FileLine{ifl, il}) != (FileLine{f, l}) {
					want[FileLine{ifl, il}] = append(want[FileLine{ifl, il}], ln)
				}
			}
			checked++
		}
		got := sm.CUDALines()
		if len(got) != len(want) {
			t.Errorf("%s: %d CUDA lines mapped, text scan %d", path, len(got), len(want))
		}
		for k, lines := range want {
			g := sm.PTXLines(k.File, k.Line)
			if fmtInts(g) != fmtInts(lines) {
				t.Errorf("%s: %v -> %v, text scan %v", path, k, g, lines)
			}
		}
		cu := false
		for _, f := range m.Files {
			cu = cu || strings.HasSuffix(sm.FileName(f.Index), ".cu")
		}
		if !cu {
			t.Errorf("%s: no .file names a .cu source", path)
		}
	}
	t.Logf("%d instruction lines checked", checked)
}

func fmtInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}

// TestInlinedName checks that function_name resolves through .debug_str:
// vote.cu line 5 calls __ballot_sync, whose code nvcc inlines from
// sm_30_intrinsics.hpp.
func TestInlinedName(t *testing.T) {
	src, err := os.ReadFile("../../testdata/golden/ptx/vote.sm_90.ptx")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse("vote", src)
	if err != nil {
		t.Fatal(err)
	}
	sm := NewSourceMap(m)
	found := false
	for _, ln := range sm.PTXLines(1, 5) {
		li, _ := sm.At(ln)
		if strings.Contains(li.Inlined, "ballot_sync") && li.Loc.File == 2 && strings.HasSuffix(sm.FileName(2), "sm_30_intrinsics.hpp") {
			found = true
		}
	}
	if !found {
		t.Error("no instruction of vote.cu:5 comes from an inlined __ballot_sync")
	}
}
