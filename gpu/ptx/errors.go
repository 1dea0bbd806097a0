package ptx

import (
	"fmt"
	"sort"
	"strings"
)

// MaxErrors is the number of errors after which parsing stops with "too many errors".
const MaxErrors = 20

// Error is one syntax or semantic error in a PTX text.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

// Error formats the error as "file:line:col: msg".
func (e *Error) Error() string {
	if e.File == "" {
		return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// ErrorList is a list of errors sorted by position.
type ErrorList []*Error

// Len is the number of errors.
func (l ErrorList) Len() int { return len(l) }

// Sort sorts the list by line and column, keeping the order of equal positions.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// RemoveMultiples sorts the list and keeps only the first error of each line.
func (l *ErrorList) RemoveMultiples() {
	l.Sort()
	out := (*l)[:0]
	last := int32(-1)
	for _, e := range *l {
		if e.Pos.Line != last || e.Msg == "too many errors" {
			out = append(out, e)
			last = e.Pos.Line
		}
	}
	*l = out
}

// Error joins the first errors, one per line, with a count of the rest.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i == 10 {
			fmt.Fprintf(&b, "(and %d more errors)", len(l)-10)
			break
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns the list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
