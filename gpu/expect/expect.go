// Package expect evaluates %expect expressions over a launch's buffers and
// scalars: elementwise arithmetic and comparisons, ~= with ulp/rel/abs
// tolerances, reductions (sum, min, max, all, any, len), indexing, ranges
// (all(out[i] <= out[i+1] for i < n-1)), file("ref.bin") and literals.
//
// An expression is scanned into tokens with their columns, parsed into a
// tree ("expected X, found Y at column N" on a syntax error) and evaluated;
// the result passes when every element of its value is true, and a failure
// names the first failing index with the values of both sides.
package expect

import (
	"fmt"
	"strings"
)

// Value is a buffer or scalar the expression can name.
type Value struct {
	Elem   string    // element type: i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64
	Data   []float64 // the elements (one for a scalar)
	Scalar bool      // a scalar argument rather than a buffer
}

// Env is what an expression is evaluated against.
type Env struct {
	Vars map[string]Value
	// ReadFile reads file("name") (the launch's own safe reader); nil refuses file().
	ReadFile func(name string) ([]byte, error)
	// Decode turns file bytes into elements of a type (launch.ElemValue per element).
	Decode func(b []byte, elem string) []float64
	// MaxElements bounds the elements a range may iterate; 0 = 1<<26.
	MaxElements int
}

// Result is the outcome of one expectation.
type Result struct {
	Passed  bool
	Message string // first failing index and values, or a one-line summary when it passed
}

// Error is a mistake in the expression itself, at a column (1-based).
type Error struct {
	Col int
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("%s at column %d", e.Msg, e.Col) }

// Check parses and evaluates one expectation.
func Check(text string, env *Env) (Result, error) {
	n, err := Parse(text)
	if err != nil {
		return Result{}, err
	}
	ev := &evaluator{env: env, locals: map[string]float64{}}
	if ev.env.MaxElements <= 0 {
		ev.env.MaxElements = 1 << 26
	}
	return ev.top(n)
}

// Parse parses an expectation into its tree.
func Parse(text string) (*Node, error) {
	toks, err := scan(text)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	n, err := p.expectation()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, &Error{t.col, fmt.Sprintf("expected the end of the expression, found %s", t)}
	}
	return n, nil
}

// formatNum writes an element for messages.
func formatNum(v float64, elem string) string {
	if strings.HasPrefix(elem, "f") || elem == "bf16" || elem == "" {
		return fmt.Sprintf("%.9g", v)
	}
	return fmt.Sprintf("%d", int64(v))
}
