package expect

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// token kinds.
const (
	tEOF = iota
	tNum
	tIdent
	tString
	tOp
)

// token is one lexeme with its 1-based column.
type token struct {
	kind int
	text string
	num  float64
	col  int
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "the end of the expression"
	case tString:
		return strconv.Quote(t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

// ops are the operators, longest first.
var ops = []string{"==", "!=", "<=", ">=", "~=", "&&", "||", "+", "-", "*", "/", "%", "<", ">", "(", ")", "[", "]", ",", "=", "!"}

// scan splits text into tokens.
func scan(text string) ([]token, error) {
	var out []token
	i := 0
	for i < len(text) {
		c := text[i]
		col := i + 1
		switch {
		case c == ' ' || c == '\t':
			i++
		case c >= '0' && c <= '9' || (c == '.' && i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9'):
			j := i
			for j < len(text) && (isNumChar(text[j]) || ((text[j] == '+' || text[j] == '-') && (text[j-1] == 'e' || text[j-1] == 'E') && !strings.HasPrefix(text[i:], "0x"))) {
				j++
			}
			lit := strings.TrimRight(text[i:j], "fFuU")
			v, err := strconv.ParseFloat(lit, 64)
			if err != nil {
				iv, ierr := strconv.ParseInt(lit, 0, 64)
				if ierr != nil {
					return nil, &Error{col, fmt.Sprintf("expected a number, found %q", text[i:j])}
				}
				v = float64(iv)
			}
			out = append(out, token{kind: tNum, text: text[i:j], num: v, col: col})
			i = j
		case c == '_' || unicode.IsLetter(rune(c)):
			j := i
			for j < len(text) && (text[j] == '_' || unicode.IsLetter(rune(text[j])) || unicode.IsDigit(rune(text[j]))) {
				j++
			}
			out = append(out, token{kind: tIdent, text: text[i:j], col: col})
			i = j
		case c == '"':
			j := i + 1
			for j < len(text) && text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(text) {
				return nil, &Error{col, "expected a closing \" for the string"}
			}
			s, err := strconv.Unquote(text[i : j+1])
			if err != nil {
				return nil, &Error{col, fmt.Sprintf("expected a valid string, found %s", text[i:j+1])}
			}
			out = append(out, token{kind: tString, text: s, col: col})
			i = j + 1
		default:
			matched := false
			for _, op := range ops {
				if strings.HasPrefix(text[i:], op) {
					out = append(out, token{kind: tOp, text: op, col: col})
					i += len(op)
					matched = true
					break
				}
			}
			if !matched {
				return nil, &Error{col, fmt.Sprintf("expected an operand or operator, found %q", string(c))}
			}
		}
	}
	out = append(out, token{kind: tEOF, col: len(text) + 1})
	return out, nil
}

func isNumChar(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == 'x' || c == 'X' ||
		(c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == 'u' || c == 'U'
}

// Node is a parsed expression.
type Node struct {
	Op   string  // "num", "str", "var", "call", "index", "neg", "not", or a binary operator
	Name string  // variable or function name; string literal
	Num  float64 // number literal
	Args []*Node // operands or call arguments
	Col  int
	// Generator: all(body for Var < Limit).
	Var   string
	Limit *Node
	// Tolerances of ~=.
	ULP, Rel, Abs float64
}

// parser is a recursive-descent parser over the tokens.
type parser struct {
	toks []token
	pos  int
}

func (p *parser) peek() token { return p.toks[p.pos] }
func (p *parser) next() token { t := p.toks[p.pos]; p.pos++; return t }

func (p *parser) isOp(s string) bool { t := p.peek(); return t.kind == tOp && t.text == s }

func (p *parser) want(s string) (token, error) {
	t := p.next()
	if t.kind != tOp || t.text != s {
		return t, &Error{t.col, fmt.Sprintf("expected %q, found %s", s, t)}
	}
	return t, nil
}

// expectation: expr [tolerance ...] where tolerance is ulp=N, rel=x or abs=x (after ~=).
func (p *parser) expectation() (*Node, error) {
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	for p.peek().kind == tIdent {
		t := p.next()
		if n.Op != "~=" {
			return nil, &Error{t.col, fmt.Sprintf("expected the end of the expression, found %s (tolerances go after ~=)", t)}
		}
		if _, err := p.want("="); err != nil {
			return nil, err
		}
		v := p.next()
		if v.kind != tNum || v.num < 0 {
			return nil, &Error{v.col, fmt.Sprintf("expected a non-negative number for %s, found %s", t.text, v)}
		}
		switch t.text {
		case "ulp":
			n.ULP = v.num
		case "rel":
			n.Rel = v.num
		case "abs":
			n.Abs = v.num
		default:
			return nil, &Error{t.col, fmt.Sprintf("expected ulp, rel or abs, found %s", t)}
		}
	}
	return n, nil
}

func (p *parser) or() (*Node, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.isOp("||") {
		t := p.next()
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		l = &Node{Op: "||", Args: []*Node{l, r}, Col: t.col}
	}
	return l, nil
}

func (p *parser) and() (*Node, error) {
	l, err := p.compare()
	if err != nil {
		return nil, err
	}
	for p.isOp("&&") {
		t := p.next()
		r, err := p.compare()
		if err != nil {
			return nil, err
		}
		l = &Node{Op: "&&", Args: []*Node{l, r}, Col: t.col}
	}
	return l, nil
}

var cmpOps = map[string]bool{"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true, "~=": true}

func (p *parser) compare() (*Node, error) {
	l, err := p.additive()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind == tOp && cmpOps[t.text] {
		p.next()
		r, err := p.additive()
		if err != nil {
			return nil, err
		}
		l = &Node{Op: t.text, Args: []*Node{l, r}, Col: t.col}
		if t2 := p.peek(); t2.kind == tOp && cmpOps[t2.text] {
			return nil, &Error{t2.col, fmt.Sprintf("expected && or the end of the expression, found %s (comparisons do not chain)", t2)}
		}
	}
	return l, nil
}

func (p *parser) additive() (*Node, error) {
	l, err := p.term()
	if err != nil {
		return nil, err
	}
	for p.isOp("+") || p.isOp("-") {
		t := p.next()
		r, err := p.term()
		if err != nil {
			return nil, err
		}
		l = &Node{Op: t.text, Args: []*Node{l, r}, Col: t.col}
	}
	return l, nil
}

func (p *parser) term() (*Node, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.isOp("*") || p.isOp("/") || p.isOp("%") {
		t := p.next()
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = &Node{Op: t.text, Args: []*Node{l, r}, Col: t.col}
	}
	return l, nil
}

func (p *parser) unary() (*Node, error) {
	if p.isOp("-") || p.isOp("!") {
		t := p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		op := "neg"
		if t.text == "!" {
			op = "not"
		}
		return &Node{Op: op, Args: []*Node{x}, Col: t.col}, nil
	}
	return p.postfix()
}

func (p *parser) postfix() (*Node, error) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	for p.isOp("[") {
		t := p.next()
		i, err := p.or()
		if err != nil {
			return nil, err
		}
		if _, err := p.want("]"); err != nil {
			return nil, err
		}
		x = &Node{Op: "index", Args: []*Node{x, i}, Col: t.col}
	}
	return x, nil
}

func (p *parser) primary() (*Node, error) {
	t := p.next()
	switch t.kind {
	case tNum:
		return &Node{Op: "num", Num: t.num, Col: t.col}, nil
	case tString:
		return &Node{Op: "str", Name: t.text, Col: t.col}, nil
	case tIdent:
		switch t.text {
		case "true":
			return &Node{Op: "num", Num: 1, Col: t.col}, nil
		case "false":
			return &Node{Op: "num", Num: 0, Col: t.col}, nil
		}
		if !p.isOp("(") {
			return &Node{Op: "var", Name: t.text, Col: t.col}, nil
		}
		p.next()
		call := &Node{Op: "call", Name: t.text, Col: t.col}
		if p.isOp(")") {
			p.next()
			return call, nil
		}
		for {
			a, err := p.or()
			if err != nil {
				return nil, err
			}
			call.Args = append(call.Args, a)
			if f := p.peek(); f.kind == tIdent && f.text == "for" {
				// Generator: body for VAR < LIMIT
				p.next()
				v := p.next()
				if v.kind != tIdent {
					return nil, &Error{v.col, fmt.Sprintf("expected an index variable after for, found %s", v)}
				}
				if _, err := p.want("<"); err != nil {
					return nil, err
				}
				lim, err := p.additive()
				if err != nil {
					return nil, err
				}
				call.Var, call.Limit = v.text, lim
			}
			if p.isOp(",") {
				p.next()
				continue
			}
			if _, err := p.want(")"); err != nil {
				return nil, err
			}
			return call, nil
		}
	case tOp:
		if t.text == "(" {
			x, err := p.or()
			if err != nil {
				return nil, err
			}
			if _, err := p.want(")"); err != nil {
				return nil, err
			}
			return x, nil
		}
	}
	return nil, &Error{t.col, fmt.Sprintf("expected a number, a name, a call or (, found %s", t)}
}
