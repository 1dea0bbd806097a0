package kernel

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

type namedErr struct{ tb []string }

func (namedErr) Error() string         { return "cell line 3: bad\nsecond line" }
func (namedErr) ErrorName() string     { return "CompileError" }
func (e namedErr) Traceback() []string { return e.tb }

func TestDescribeError(t *testing.T) {
	cases := []struct {
		err   error
		ename string
		tb    string
	}{
		{errors.New("line 1\nline 2"), "Error", "line 1|line 2"},
		{fmt.Errorf("wrapped: %w", namedErr{tb: []string{"a", "b"}}), "CompileError", "a|b"},
		{namedErr{tb: []string{}}, "CompileError", "cell line 3: bad|second line"},
		{interruptedError{}, "KeyboardInterrupt", "KeyboardInterrupt: interrupted"},
		// The stack (KernelScope's own files) goes to the log, never into the cell.
		{panicError{value: "boom", stack: "goroutine 1\nmain.go:1\n"}, "InternalError", "internal error: boom|This is a bug in KernelScope, not in the cell; the kernel keeps running. The stack is in the kernel's log (stderr, or the file KERNELSCOPE_LOG names): please report it with the cell."},
	}
	for _, c := range cases {
		e := describeError(c.err)
		if e.Ename != c.ename || strings.Join(e.Traceback, "|") != c.tb || e.Evalue != c.err.Error() {
			t.Errorf("describeError(%v) = %+v, want ename %s traceback %q", c.err, e, c.ename, c.tb)
		}
	}
}
