package expect

import (
	"fmt"
	"math"
	"strings"
)

// val is an evaluated value: a vector or a scalar, numeric or boolean.
type val struct {
	data   []float64
	elem   string // element type; "" for untyped literals, "bool" for comparisons
	scalar bool
	raw    []byte // file() bytes not yet given a type
	raw1   bool   // raw came from file() without a type
	fail   int    // for a false boolean scalar from a reduction: the failing index (-1 none)
	why    string // for a false boolean scalar: what failed
}

// evaluator holds the environment and the generator variables in scope.
type evaluator struct {
	env    *Env
	locals map[string]float64
}

func errAt(n *Node, format string, a ...any) error {
	return &Error{Col: n.Col, Msg: fmt.Sprintf(format, a...)}
}

func isFloat(e string) bool { return strings.HasPrefix(e, "f") || e == "bf16" }

// top evaluates the whole expectation and judges it.
func (ev *evaluator) top(n *Node) (Result, error) {
	v, err := ev.eval(n)
	if err != nil {
		return Result{}, err
	}
	if v.elem != "bool" {
		return Result{}, errAt(n, "expected a comparison (==, ~=, <, all(...) ...), found a value")
	}
	if v.scalar {
		if v.data[0] != 0 {
			return Result{Passed: true, Message: "holds"}, nil
		}
		msg := "does not hold"
		if v.why != "" {
			msg = v.why
		} else if cmpOps[n.Op] {
			msg = ev.explain(n, 0)
		}
		return Result{Passed: false, Message: msg}, nil
	}
	bad, first := 0, -1
	for i, x := range v.data {
		if x == 0 {
			bad++
			if first < 0 {
				first = i
			}
		}
	}
	if bad == 0 {
		return Result{Passed: true, Message: fmt.Sprintf("holds for all %d elements", len(v.data))}, nil
	}
	return Result{Passed: false, Message: fmt.Sprintf("fails at index %d: %s (%d of %d elements fail)", first, ev.explain(n, first), bad, len(v.data))}, nil
}

// explain describes both sides of a comparison at index i.
func (ev *evaluator) explain(n *Node, i int) string {
	if len(n.Args) != 2 || !cmpOps[n.Op] {
		return render(n) + " is false"
	}
	l, err1 := ev.eval(n.Args[0])
	r, err2 := ev.eval(n.Args[1])
	if err1 != nil || err2 != nil {
		return render(n) + " is false"
	}
	l, r, _ = ev.typed(l, r)
	at := func(v val) string {
		if v.scalar {
			return formatNum(v.data[0], v.elem)
		}
		if i < len(v.data) {
			return formatNum(v.data[i], v.elem)
		}
		return "?"
	}
	return fmt.Sprintf("%s is %s, %s is %s", renderAt(n.Args[0], i, l.scalar), at(l), renderAt(n.Args[1], i, r.scalar), at(r))
}

// renderAt names an operand at index i ("out[7]") when it is a vector.
func renderAt(n *Node, i int, scalar bool) string {
	s := render(n)
	if scalar {
		return s
	}
	if n.Op == "var" {
		return fmt.Sprintf("%s[%d]", s, i)
	}
	return fmt.Sprintf("(%s)[%d]", s, i)
}

// render prints a node back as source text.
func render(n *Node) string {
	switch n.Op {
	case "num":
		return formatNum(n.Num, "f64")
	case "str":
		return fmt.Sprintf("%q", n.Name)
	case "var":
		return n.Name
	case "neg":
		return "-" + render(n.Args[0])
	case "not":
		return "!" + render(n.Args[0])
	case "index":
		return render(n.Args[0]) + "[" + render(n.Args[1]) + "]"
	case "call":
		var parts []string
		for _, a := range n.Args {
			parts = append(parts, render(a))
		}
		s := n.Name + "(" + strings.Join(parts, ", ")
		if n.Limit != nil {
			s += " for " + n.Var + " < " + render(n.Limit)
		}
		return s + ")"
	}
	if len(n.Args) == 2 {
		return render(n.Args[0]) + " " + n.Op + " " + render(n.Args[1])
	}
	return n.Op
}

// eval evaluates a node.
func (ev *evaluator) eval(n *Node) (val, error) {
	switch n.Op {
	case "num":
		return val{data: []float64{n.Num}, scalar: true}, nil
	case "str":
		return val{}, errAt(n, "expected a value, found the string %q (strings are only file names: file(%q))", n.Name, n.Name)
	case "var":
		if x, ok := ev.locals[n.Name]; ok {
			return val{data: []float64{x}, scalar: true, elem: "i64"}, nil
		}
		v, ok := ev.env.Vars[n.Name]
		if !ok {
			return val{}, errAt(n, "unknown name %q (the launch's buffers and scalars: %s)", n.Name, ev.names())
		}
		return val{data: v.Data, elem: v.Elem, scalar: v.Scalar}, nil
	case "neg", "not":
		x, err := ev.eval(n.Args[0])
		if err != nil {
			return val{}, err
		}
		x, err = ev.decoded(n.Args[0], x, "")
		if err != nil {
			return val{}, err
		}
		out := make([]float64, len(x.data))
		for i, a := range x.data {
			if n.Op == "neg" {
				out[i] = -a
			} else {
				out[i] = b2f(a == 0)
			}
		}
		elem := x.elem
		if n.Op == "not" {
			elem = "bool"
		}
		return val{data: out, elem: elem, scalar: x.scalar}, nil
	case "index":
		return ev.index(n)
	case "call":
		return ev.call(n)
	}
	return ev.binary(n)
}

func (ev *evaluator) names() string {
	var out []string
	for k := range ev.env.Vars {
		out = append(out, k)
	}
	sortStrings(out)
	return strings.Join(out, ", ")
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// decoded gives file() bytes a type (elem, or f32 when there is none).
func (ev *evaluator) decoded(n *Node, v val, elem string) (val, error) {
	if !v.raw1 {
		return v, nil
	}
	if elem == "" || elem == "bool" {
		elem = "f32"
	}
	if ev.env.Decode == nil {
		return val{}, errAt(n, "file() is not available here")
	}
	return val{data: ev.env.Decode(v.raw, elem), elem: elem}, nil
}

// typed decodes file() operands with the other side's element type.
func (ev *evaluator) typed(l, r val) (val, val, error) {
	var err error
	if l.raw1 {
		if l, err = ev.decoded(nil, l, r.elem); err != nil {
			return l, r, err
		}
	}
	if r.raw1 {
		if r, err = ev.decoded(nil, r, l.elem); err != nil {
			return l, r, err
		}
	}
	return l, r, nil
}

func (ev *evaluator) index(n *Node) (val, error) {
	x, err := ev.eval(n.Args[0])
	if err != nil {
		return val{}, err
	}
	if x, err = ev.decoded(n.Args[0], x, ""); err != nil {
		return val{}, err
	}
	i, err := ev.eval(n.Args[1])
	if err != nil {
		return val{}, err
	}
	if !i.scalar {
		return val{}, errAt(n.Args[1], "expected a single index, found %d elements", len(i.data))
	}
	k := i.data[0]
	if k != math.Trunc(k) || k < 0 || int(k) >= len(x.data) {
		return val{}, errAt(n.Args[1], "index %s is out of range of %s (%d elements)", formatNum(k, "f64"), render(n.Args[0]), len(x.data))
	}
	return val{data: []float64{x.data[int(k)]}, elem: x.elem, scalar: true}, nil
}

func (ev *evaluator) call(n *Node) (val, error) {
	argc := func(want int) error {
		if len(n.Args) != want {
			return errAt(n, "%s takes %d argument(s), found %d", n.Name, want, len(n.Args))
		}
		return nil
	}
	if n.Limit != nil && n.Name != "all" && n.Name != "any" && n.Name != "sum" {
		return val{}, errAt(n, "expected all, any or sum before a for range, found %s", n.Name)
	}
	switch n.Name {
	case "file":
		if len(n.Args) < 1 || len(n.Args) > 2 || n.Args[0].Op != "str" {
			return val{}, errAt(n, "expected file(\"name.bin\") or file(\"name.bin\", \"f32\")")
		}
		if ev.env.ReadFile == nil {
			return val{}, errAt(n, "file() is not available here")
		}
		b, err := ev.env.ReadFile(n.Args[0].Name)
		if err != nil {
			return val{}, errAt(n, "%v", err)
		}
		if len(n.Args) == 2 {
			if n.Args[1].Op != "str" {
				return val{}, errAt(n.Args[1], "expected an element type string like \"f32\"")
			}
			return ev.decoded(n, val{raw: b, raw1: true}, n.Args[1].Name)
		}
		return val{raw: b, raw1: true}, nil
	case "len":
		if err := argc(1); err != nil {
			return val{}, err
		}
		x, err := ev.eval(n.Args[0])
		if err != nil {
			return val{}, err
		}
		if x, err = ev.decoded(n.Args[0], x, ""); err != nil {
			return val{}, err
		}
		return val{data: []float64{float64(len(x.data))}, elem: "i64", scalar: true}, nil
	case "abs":
		if err := argc(1); err != nil {
			return val{}, err
		}
		x, err := ev.eval(n.Args[0])
		if err != nil {
			return val{}, err
		}
		if x, err = ev.decoded(n.Args[0], x, ""); err != nil {
			return val{}, err
		}
		out := make([]float64, len(x.data))
		for i, a := range x.data {
			out[i] = math.Abs(a)
		}
		return val{data: out, elem: x.elem, scalar: x.scalar}, nil
	case "sum", "min", "max", "all", "any":
		if err := argc(1); err != nil {
			return val{}, err
		}
		if n.Limit != nil {
			return ev.generate(n)
		}
		x, err := ev.eval(n.Args[0])
		if err != nil {
			return val{}, err
		}
		if x, err = ev.decoded(n.Args[0], x, ""); err != nil {
			return val{}, err
		}
		return ev.reduce(n, x)
	}
	return val{}, errAt(n, "unknown function %s (valid: sum, min, max, all, any, len, abs, file)", n.Name)
}

// reduce folds a vector.
func (ev *evaluator) reduce(n *Node, x val) (val, error) {
	if len(x.data) == 0 {
		return val{}, errAt(n, "%s of an empty buffer", n.Name)
	}
	switch n.Name {
	case "all", "any":
		if x.elem != "bool" {
			return val{}, errAt(n.Args[0], "expected a comparison inside %s(...), found a value", n.Name)
		}
		first := -1
		for i, a := range x.data {
			if (n.Name == "all") == (a == 0) {
				first = i
				break
			}
		}
		if n.Name == "all" {
			r := val{data: []float64{b2f(first < 0)}, elem: "bool", scalar: true, fail: first}
			if first >= 0 {
				r.why = fmt.Sprintf("fails at index %d: %s", first, ev.explain(n.Args[0], first))
			}
			return r, nil
		}
		r := val{data: []float64{b2f(first >= 0)}, elem: "bool", scalar: true, fail: -1}
		if first < 0 {
			r.why = fmt.Sprintf("%s is false for all %d elements", render(n.Args[0]), len(x.data))
		}
		return r, nil
	}
	acc := x.data[0]
	for _, a := range x.data[1:] {
		switch n.Name {
		case "sum":
			acc += a
		case "min":
			acc = math.Min(acc, a)
		case "max":
			acc = math.Max(acc, a)
		}
	}
	elem := x.elem
	if elem == "bool" {
		elem = "i64"
	}
	return val{data: []float64{acc}, elem: elem, scalar: true}, nil
}

// generate evaluates all/any/sum(body for v < limit).
func (ev *evaluator) generate(n *Node) (val, error) {
	lim, err := ev.eval(n.Limit)
	if err != nil {
		return val{}, err
	}
	if !lim.scalar {
		return val{}, errAt(n.Limit, "expected a number of iterations, found %d elements", len(lim.data))
	}
	cnt := int(lim.data[0])
	if cnt > ev.env.MaxElements {
		return val{}, errAt(n.Limit, "a range of %d iterations is more than the %d allowed", cnt, ev.env.MaxElements)
	}
	if _, dup := ev.locals[n.Var]; dup {
		return val{}, errAt(n, "the index variable %s is already in use", n.Var)
	}
	defer delete(ev.locals, n.Var)
	body := n.Args[0]
	var acc float64
	for i := 0; i < cnt; i++ {
		ev.locals[n.Var] = float64(i)
		b, err := ev.eval(body)
		if err != nil {
			return val{}, err
		}
		if !b.scalar {
			return val{}, errAt(body, "expected one value per %s, found %d elements", n.Var, len(b.data))
		}
		x := b.data[0]
		switch n.Name {
		case "sum":
			acc += x
		case "all":
			if b.elem != "bool" {
				return val{}, errAt(body, "expected a comparison inside all(...), found a value")
			}
			if x == 0 {
				return val{data: []float64{0}, elem: "bool", scalar: true, fail: i,
					why: fmt.Sprintf("fails for %s = %d: %s", n.Var, i, ev.explain(body, 0))}, nil
			}
		case "any":
			if b.elem != "bool" {
				return val{}, errAt(body, "expected a comparison inside any(...), found a value")
			}
			if x != 0 {
				return val{data: []float64{1}, elem: "bool", scalar: true, fail: -1}, nil
			}
		}
	}
	switch n.Name {
	case "sum":
		return val{data: []float64{acc}, scalar: true}, nil
	case "all":
		return val{data: []float64{1}, elem: "bool", scalar: true, fail: -1}, nil
	}
	return val{data: []float64{0}, elem: "bool", scalar: true, fail: -1,
		why: fmt.Sprintf("%s is false for every %s < %d", render(body), n.Var, cnt)}, nil
}

// binary evaluates arithmetic, comparisons and && / ||, elementwise.
func (ev *evaluator) binary(n *Node) (val, error) {
	l, err := ev.eval(n.Args[0])
	if err != nil {
		return val{}, err
	}
	r, err := ev.eval(n.Args[1])
	if err != nil {
		return val{}, err
	}
	if l, r, err = ev.typed(l, r); err != nil {
		return val{}, err
	}
	size := len(l.data)
	switch {
	case l.scalar && !r.scalar:
		size = len(r.data)
	case !l.scalar && !r.scalar && len(l.data) != len(r.data):
		return val{}, errAt(n, "%s has %d elements and %s has %d", render(n.Args[0]), len(l.data), render(n.Args[1]), len(r.data))
	}
	get := func(v val, i int) float64 {
		if v.scalar {
			return v.data[0]
		}
		return v.data[i]
	}
	elem := promote(l.elem, r.elem)
	out := make([]float64, size)
	isCmp := cmpOps[n.Op] || n.Op == "&&" || n.Op == "||"
	intOp := !isFloat(elem) && elem != "" && elem != "bool"
	if elem == "" && !isCmp {
		intOp = l.data != nil && r.data != nil && allInts(l.data) && allInts(r.data) && n.Op == "%"
	}
	for i := 0; i < size; i++ {
		a, b := get(l, i), get(r, i)
		var z float64
		switch n.Op {
		case "+":
			z = a + b
		case "-":
			z = a - b
		case "*":
			z = a * b
		case "/":
			if b == 0 && intOp {
				return val{}, errAt(n, "integer division by zero at index %d", i)
			}
			z = a / b
			if intOp {
				z = math.Trunc(z)
			}
		case "%":
			if b == 0 {
				return val{}, errAt(n, "remainder by zero at index %d", i)
			}
			z = math.Mod(a, b)
		case "==":
			z = b2f(a == b)
		case "!=":
			z = b2f(a != b)
		case "<":
			z = b2f(a < b)
		case "<=":
			z = b2f(a <= b)
		case ">":
			z = b2f(a > b)
		case ">=":
			z = b2f(a >= b)
		case "~=":
			z = b2f(close(a, b, promote(l.elem, r.elem), n))
		case "&&":
			z = b2f(a != 0 && b != 0)
		case "||":
			z = b2f(a != 0 || b != 0)
		default:
			return val{}, errAt(n, "unknown operator %s", n.Op)
		}
		if !isCmp && elem == "f32" {
			z = float64(float32(z))
		}
		out[i] = z
	}
	if isCmp {
		elem = "bool"
	}
	return val{data: out, elem: elem, scalar: l.scalar && r.scalar}, nil
}

func allInts(d []float64) bool {
	for _, x := range d {
		if x != math.Trunc(x) {
			return false
		}
	}
	return true
}

// promote is the element type of an operation on two types: a float if either is one.
func promote(a, b string) string {
	switch {
	case a == "" || a == "bool":
		return b
	case b == "" || b == "bool":
		return a
	case isFloat(a) && isFloat(b):
		if a == "f64" || b == "f64" {
			return "f64"
		}
		return a
	case isFloat(b):
		return b
	}
	return a
}

// close is ~=: within ulp units in the last place (of elem), or rel or abs; by
// default a relative tolerance of 1e-5.
func close(a, b float64, elem string, n *Node) bool {
	if a == b || (math.IsNaN(a) && math.IsNaN(b)) {
		return true
	}
	ulp, rel, abs := n.ULP, n.Rel, n.Abs
	if ulp == 0 && rel == 0 && abs == 0 {
		rel = 1e-5
	}
	if ulp > 0 && ulpDist(a, b, elem) <= ulp {
		return true
	}
	d := math.Abs(a - b)
	if abs > 0 && d <= abs {
		return true
	}
	return rel > 0 && d <= rel*math.Max(math.Abs(a), math.Abs(b))
}

// ulpDist is the number of representable values of elem between a and b.
func ulpDist(a, b float64, elem string) float64 {
	if elem == "f32" || elem == "f16" || elem == "bf16" {
		return math.Abs(float64(ordered32(float32(a)) - ordered32(float32(b))))
	}
	if elem == "f64" {
		return math.Abs(float64(ordered64(a)) - float64(ordered64(b)))
	}
	return math.Abs(a - b)
}

func ordered32(f float32) int64 {
	b := int64(int32(math.Float32bits(f)))
	if b < 0 {
		b = math.MinInt32 - b
	}
	return b
}

func ordered64(f float64) int64 {
	b := int64(math.Float64bits(f))
	if b < 0 {
		b = math.MinInt64 - b
	}
	return b
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
