package kernel

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestGlobMatch(t *testing.T) {
	cases := []struct {
		pattern, s string
		want       bool
	}{
		{"*", "", true},
		{"*", "a/b\nc", true},
		{"%arch*", "%arch sm_90", true},
		{"%arch*", " %arch sm_90", false},
		{"*sync*", "__syncthreads();", true},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"a?c", "aé c", false},
		{"a?c", "aéc", true},
		{"[ab]x", "bx", true},
		{"[^ab]x", "bx", false},
		{"[a-c]*", "cat", true},
		{"[a-c]*", "dog", false},
		{"[]]", "]", true},
		{"[", "[", true},
		{"a[", "a[", true},
		{"ABC", "abc", false},
		{"*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false},
	}
	for _, c := range cases {
		if got := globMatch(c.pattern, c.s); got != c.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", c.pattern, c.s, got, c.want)
		}
	}
}

func lines(e []HistoryEntry) string {
	s := ""
	for _, x := range e {
		s += fmt.Sprintf("%d:%s ", x.Line, x.Input)
	}
	return s
}

func TestHistory(t *testing.T) {
	var h History
	for i, in := range []string{"a1", "b", "a1", "a2", "c"} {
		h.Add(i+1, in)
	}
	if got := lines(h.Tail(2)); got != "4:a2 5:c " {
		t.Errorf("tail 2 = %q", got)
	}
	if got := lines(h.Tail(10)); got != "1:a1 2:b 3:a1 4:a2 5:c " {
		t.Errorf("tail 10 = %q", got)
	}
	if got := lines(h.Range(0, 2, 4)); got != "2:b 3:a1 " {
		t.Errorf("range 2..4 = %q", got)
	}
	if got := lines(h.Range(1, 4, 0)); got != "4:a2 5:c " {
		t.Errorf("range 4.. = %q", got)
	}
	if got := lines(h.Range(-1, 1, 0)); got != "" {
		t.Errorf("range of an earlier session = %q", got)
	}
	if got := lines(h.Search("a*", -1, false)); got != "1:a1 3:a1 4:a2 " {
		t.Errorf("search a* = %q", got)
	}
	if got := lines(h.Search("a*", -1, true)); got != "3:a1 4:a2 " {
		t.Errorf("search a* unique = %q", got)
	}
	if got := lines(h.Search("a*", 1, false)); got != "4:a2 " {
		t.Errorf("search a* n=1 = %q", got)
	}
}

func TestCursorConversion(t *testing.T) {
	s := "aé✓b" // bytes: a(1) é(2) ✓(3) b(1)
	for runes, bytes := range map[int]int{-3: 0, 0: 0, 1: 1, 2: 3, 3: 6, 4: 7, 99: 7} {
		if got := runeToByte(s, runes); got != bytes {
			t.Errorf("runeToByte(%d) = %d, want %d", runes, got, bytes)
		}
	}
	for bytes, runes := range map[int]int{-1: 0, 0: 0, 1: 1, 3: 2, 6: 3, 7: 4, 50: 4} {
		if got := byteToRune(s, bytes); got != runes {
			t.Errorf("byteToRune(%d) = %d, want %d", bytes, got, runes)
		}
	}
	if a, b := clampRange(5, 2, 10, 3); a != 3 || b != 3 {
		t.Errorf("clampRange inverted = %d,%d", a, b)
	}
	if a, b := clampRange(1, 11, 10, 3); a != 3 || b != 3 {
		t.Errorf("clampRange past end = %d,%d", a, b)
	}
}

// TestHistoryKeepsCappedCopies: a 30 MB cell is stored cut to maxHistoryInput bytes
// with a note, and the history's inputs stay within maxHistoryBytes however many
// large cells run.
func TestHistoryKeepsCappedCopies(t *testing.T) {
	var h History
	big := strings.Repeat("é", 15<<20) // 30 MB of two-byte runes
	for i := 1; i <= 400; i++ {
		h.Add(i, big)
	}
	e := h.Tail(-1)
	if h.bytes > maxHistoryBytes {
		t.Errorf("history holds %d bytes, limit %d", h.bytes, maxHistoryBytes)
	}
	if len(e) == 0 || e[len(e)-1].Line != 400 {
		t.Fatalf("latest entry missing: %d entries", len(e))
	}
	last := e[len(e)-1].Input
	if len(last) > maxHistoryInput+200 || !utf8.ValidString(last) || !strings.Contains(last, "of this cell's 31457280 bytes") {
		t.Errorf("capped input: %d bytes, valid UTF-8 %v, tail %q", len(last), utf8.ValidString(last), last[max(0, len(last)-80):])
	}
	sum := 0
	for _, x := range e {
		sum += len(x.Input)
	}
	if sum != h.bytes {
		t.Errorf("byte count %d, entries hold %d", h.bytes, sum)
	}
	h2 := History{}
	h2.Add(1, "short")
	if got := h2.Tail(1)[0].Input; got != "short" {
		t.Errorf("short input stored as %q", got)
	}
}
