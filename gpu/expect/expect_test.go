package expect

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

// testEnv has a few buffers and scalars, and one reference file of f32.
func testEnv() *Env {
	ref := make([]byte, 16)
	for i, v := range []float32{1, 2, 3, 4.0000005} {
		binary.LittleEndian.PutUint32(ref[4*i:], math.Float32bits(v))
	}
	return &Env{
		Vars: map[string]Value{
			"a":      {Elem: "f32", Data: []float64{1, 2, 3, 4}},
			"b":      {Elem: "f32", Data: []float64{0.5, 0.25, 0.125, 0}},
			"out":    {Elem: "f32", Data: []float64{1.5, 2.25, 3.125, 4}},
			"sorted": {Elem: "i32", Data: []float64{1, 2, 2, 5}},
			"hist":   {Elem: "u32", Data: []float64{3, 0, 1, 0}},
			"n":      {Elem: "i32", Data: []float64{4}, Scalar: true},
			"tiny":   {Elem: "f32", Data: []float64{float64(math.Float32frombits(0x3f800001))}, Scalar: true},
		},
		ReadFile: func(name string) ([]byte, error) {
			if name == "ref.bin" {
				return ref, nil
			}
			return nil, errors.New("file(\"" + name + "\"): no such file")
		},
		Decode: func(b []byte, elem string) []float64 {
			var out []float64
			for i := 0; i+4 <= len(b); i += 4 {
				out = append(out, float64(math.Float32frombits(binary.LittleEndian.Uint32(b[i:]))))
			}
			return out
		},
	}
}

// TestExpectations: what passes, what fails and with which message.
func TestExpectations(t *testing.T) {
	cases := []struct {
		expr string
		pass bool
		msg  string // substring of the message
	}{
		{"out == a + b", true, "holds for all 4"},
		{"out == a - b", false, "fails at index 0: out[0] is 1.5, (a - b)[0] is 0.5 (3 of 4 elements fail)"},
		{"sum(hist) == n", true, "holds"},
		{"sum(hist) == 5", false, "sum(hist) is 4, 5 is 5"},
		{"len(out) == n", true, ""},
		{"all(sorted[i] <= sorted[i+1] for i < n-1)", true, ""},
		{"all(out[i] > out[i+1] for i < n-1)", false, "fails for i = 0: out[i] is 1.5, out[i + 1] is 2.25"},
		{"any(hist == 1)", true, ""},
		{"any(hist > 3)", false, "false for all 4"},
		{"all(hist >= 0)", true, ""},
		{"all(hist > 0)", false, "fails at index 1"},
		{"max(sorted) == 5 && min(sorted) == 1", true, ""},
		{"out[2] == 3.125", true, ""},
		{"a ~= file(\"ref.bin\") ulp=2", true, ""},
		{"a ~= file(\"ref.bin\")", true, ""},
		{"a == file(\"ref.bin\")", false, "fails at index 3"},
		{"tiny ~= 1 ulp=1", true, ""},
		{"tiny ~= 1 ulp=0.5", false, ""},
		{"out ~= a abs=0.6", true, ""},
		{"out ~= a rel=0.1", false, "fails at index 0"},
		{"hist % 2 == 1 || hist == 0", true, ""},
		{"-a < 0", true, ""},
		{"!(out == a)", false, "fails at index 3"},
		{"sum(out[i] for i < n) == 10.875", true, ""},
		{"a * 2 == a + a", true, ""},
		{"sorted / 2 == 0", false, "fails at index 1"},
	}
	for _, c := range cases {
		r, err := Check(c.expr, testEnv())
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if r.Passed != c.pass || !strings.Contains(r.Message, c.msg) {
			t.Errorf("%s: passed=%v %q, want passed=%v containing %q", c.expr, r.Passed, r.Message, c.pass, c.msg)
		}
	}
}

// TestExpressionErrors: mistakes in the expression name the column and what was expected.
func TestExpressionErrors(t *testing.T) {
	cases := []struct {
		expr string
		want string
	}{
		{"out == ", "expected a number, a name, a call or (, found the end of the expression at column 8"},
		{"out = a", "expected the end of the expression, found \"=\" at column 5"},
		{"out == a +* b", "expected a number, a name, a call or (, found \"*\" at column 11"},
		{"(out == a", "expected \")\", found the end of the expression at column 10"},
		{"out[1 == a", "expected \"]\", found the end of the expression at column 11"},
		{"out == a ulp=2", "found \"ulp\" (tolerances go after ~=) at column 10"},
		{"out ~= a ulp=x", "expected a non-negative number for ulp, found \"x\" at column 14"},
		{"out ~= a tol=1", "expected ulp, rel or abs, found \"tol\" at column 10"},
		{"out == c", "unknown name \"c\" (the launch's buffers and scalars: a, b, hist, n, out, sorted, tiny) at column 8"},
		{"a == out[7]", "index 7 is out of range of out (4 elements) at column 10"},
		{"foo(a) == 1", "unknown function foo (valid: sum, min, max, all, any, len, abs, file) at column 1"},
		{"sum(a)", "expected a comparison (==, ~=, <, all(...) ...), found a value at column 1"},
		{"a == file(\"missing.bin\")", "file(\"missing.bin\"): no such file at column 6"},
		{"a < b < out", "comparisons do not chain) at column 7"},
		{"all(a[i] for j)", "expected \"<\", found \")\" at column 15"},
		{"a == $", "expected an operand or operator, found \"$\" at column 6"},
		{"a == \"x", "expected a closing \" for the string at column 6"},
		{"a == out[0] + hist[9]", "index 9 is out of range of hist (4 elements) at column 20"},
		{"a == sorted[0:2]", "expected an operand or operator, found \":\" at column 14"},
	}
	for _, c := range cases {
		_, err := Check(c.expr, testEnv())
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: got %v, want an *Error", c.expr, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got  %q\n want %q", c.expr, err.Error(), c.want)
		}
	}
}
