package kernel

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// historySession is the session number of this process's history.
const historySession = 1

const (
	// maxHistoryInput is the most bytes of one cell the history keeps; longer cells are
	// stored cut, with a note, so a 30 MB cell does not stay in memory for good.
	maxHistoryInput = 64 << 10
	// maxHistoryBytes bounds the inputs kept in all; the oldest entries go first.
	maxHistoryBytes = 16 << 20
)

// HistoryEntry is one stored cell.
type HistoryEntry struct {
	// Session is always 1: history lives only as long as the process.
	Session int
	// Line is the cell's execution count.
	Line int
	// Input is the cell's source.
	Input string
}

// History is the in-memory input history of one kernel process; safe for concurrent use.
type History struct {
	mu      sync.Mutex
	entries []HistoryEntry
	bytes   int // total length of the entries' inputs
}

// Add stores input as line: a copy cut to maxHistoryInput bytes; the oldest entries
// are dropped once the inputs exceed maxHistoryBytes in all.
func (h *History) Add(line int, input string) {
	input = capInput(input)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.entries = append(h.entries, HistoryEntry{Session: historySession, Line: line, Input: input})
	h.bytes += len(input)
	drop := 0
	for h.bytes > maxHistoryBytes && drop < len(h.entries)-1 {
		h.bytes -= len(h.entries[drop].Input)
		drop++
	}
	if drop > 0 {
		h.entries = append([]HistoryEntry(nil), h.entries[drop:]...)
	}
}

// capInput returns a copy of input of at most maxHistoryInput bytes (cut at a rune
// boundary, with a note saying how long the cell was); the copy does not keep the
// request's buffer alive.
func capInput(input string) string {
	if len(input) <= maxHistoryInput {
		return strings.Clone(input)
	}
	cut := maxHistoryInput
	for cut > 0 && !utf8.RuneStart(input[cut]) {
		cut--
	}
	return input[:cut] + fmt.Sprintf("\n// [history keeps the first %d of this cell's %d bytes]\n", cut, len(input))
}

// snapshot returns a copy of the entries.
func (h *History) snapshot() []HistoryEntry {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]HistoryEntry(nil), h.entries...)
}

// Tail returns the last n entries (all when n < 0).
func (h *History) Tail(n int) []HistoryEntry {
	e := h.snapshot()
	if n >= 0 && n < len(e) {
		e = e[len(e)-n:]
	}
	return e
}

// Range returns the entries of session with start <= line < stop (stop <= 0: to the end).
// Session 0 and 1 name this process; negative sessions (earlier ones) are empty.
func (h *History) Range(session, start, stop int) []HistoryEntry {
	if session != 0 && session != historySession {
		return nil
	}
	var out []HistoryEntry
	for _, e := range h.snapshot() {
		if e.Line >= start && (stop <= 0 || e.Line < stop) {
			out = append(out, e)
		}
	}
	return out
}

// Search returns the entries whose input matches the glob pattern, the last n of
// them when n >= 0; with unique, only the latest of equal inputs is kept.
func (h *History) Search(pattern string, n int, unique bool) []HistoryEntry {
	var out []HistoryEntry
	for _, e := range h.snapshot() {
		if globMatch(pattern, e.Input) {
			out = append(out, e)
		}
	}
	if unique {
		seen := make(map[string]bool, len(out))
		kept := out[:0:0]
		for i := len(out) - 1; i >= 0; i-- {
			if !seen[out[i].Input] {
				seen[out[i].Input] = true
				kept = append(kept, out[i])
			}
		}
		for i, j := 0, len(kept)-1; i < j; i, j = i+1, j-1 {
			kept[i], kept[j] = kept[j], kept[i]
		}
		out = kept
	}
	if n >= 0 && n < len(out) {
		out = out[len(out)-n:]
	}
	return out
}

// globMatch matches s against a glob with *, ? and [set] (SQLite GLOB semantics:
// case-sensitive, * matches newlines and slashes, [^...] negates). It runs in
// O(len(pattern)*len(s)) and never panics.
func globMatch(pattern, s string) bool {
	p, t := []rune(pattern), []rune(s)
	pi, ti := 0, 0
	starP, starT := -1, -1
	for ti < len(t) {
		if pi < len(p) {
			switch p[pi] {
			case '*':
				starP, starT = pi, ti
				pi++
				continue
			case '?':
				pi++
				ti++
				continue
			case '[':
				if ok, next, valid := matchClass(p, pi, t[ti]); valid {
					if ok {
						pi = next
						ti++
						continue
					}
				} else if t[ti] == '[' { // unterminated class: literal '['
					pi++
					ti++
					continue
				}
			default:
				if p[pi] == t[ti] {
					pi++
					ti++
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		starT++
		pi, ti = starP+1, starT
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// matchClass matches c against the class starting at p[i] == '['; it returns whether c
// matches, the index after the class, and whether the class is terminated.
func matchClass(p []rune, i int, c rune) (match bool, next int, valid bool) {
	j := i + 1
	negate := false
	if j < len(p) && p[j] == '^' {
		negate = true
		j++
	}
	first := true
	for j < len(p) && (first || p[j] != ']') {
		first = false
		lo := p[j]
		hi := lo
		if j+2 < len(p) && p[j+1] == '-' && p[j+2] != ']' {
			hi = p[j+2]
			j += 2
		}
		if lo <= c && c <= hi {
			match = true
		}
		j++
	}
	if j >= len(p) {
		return false, 0, false
	}
	return match != negate, j + 1, true
}
