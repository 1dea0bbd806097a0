package expect

import (
	"errors"
	"testing"
)

// FuzzExpect: any expression text either parses and evaluates (pass or fail) or is
// an *Error whose column lies within the text; nothing panics or runs away.
func FuzzExpect(f *testing.F) {
	for _, s := range []string{
		"out == a + b", "out ~= a * 2 ulp=2", "sum(hist) == n", "all(out[i] <= out[i+1] for i < n-1)",
		"max(out) < 1e9 && min(out) >= 0", "len(out) == n", "any(out != 0)", "out[3] == 7",
		"(a + b) * 2 == out rel=1e-6", "out ~= file(\"ref.bin\") abs=0.5", "all(", "out[", "1 +", ")",
	} {
		f.Add(s)
	}
	env := &Env{Vars: map[string]Value{
		"out":  {Elem: "f32", Data: []float64{1, 2, 3, 4, 5, 6, 7, 8}},
		"a":    {Elem: "f32", Data: []float64{0, 1, 1, 2, 2, 3, 3, 4}},
		"b":    {Elem: "f32", Data: []float64{1, 1, 2, 2, 3, 3, 4, 4}},
		"hist": {Elem: "u32", Data: []float64{2, 2, 2, 2}},
		"n":    {Elem: "i32", Data: []float64{8}, Scalar: true},
	}, MaxElements: 1 << 12}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 512 {
			return
		}
		_, err := Check(text, env)
		var e *Error
		if err != nil && errors.As(err, &e) && (e.Col < 1 || e.Col > len(text)+1) {
			t.Fatalf("%q: error column %d outside the text (%d bytes): %v", text, e.Col, len(text), err)
		}
	})
}
