package ptx

import "fmt"

// Token is the kind of a lexical token of PTX.
type Token uint8

// The tokens of PTX. Punctuation tokens are named after their character.
const (
	EOF     Token = iota
	Illegal       // a byte that starts no token
	Ident         // foo, %r1, $L__BB0_2, _
	Dir           // .u32, .global, .shared::cta (text without the leading dot)
	Int           // 42, 0x1F, 017, 0b101, 7U
	Float         // 0f3F800000, 0d3FF0000000000000, 1.5, 2e10
	String        // "text" (literal keeps its quotes)
	Comma         // ,
	Semi          // ;
	Colon         // :
	LBrace        // {
	RBrace        // }
	LParen        // (
	RParen        // )
	LBrack        // [
	RBrack        // ]
	Plus          // +
	Minus         // -
	Bang          // !
	At            // @
	Pipe          // |
	Less          // <
	Greater       // >
	Assign        // =
	Other         // any other operator character: * / & ~ ^ ? %
)

var tokenNames = [...]string{
	EOF: "end of file", Illegal: "illegal character", Ident: "identifier", Dir: "directive",
	Int: "integer", Float: "float", String: "string", Comma: "','", Semi: "';'", Colon: "':'",
	LBrace: "'{'", RBrace: "'}'", LParen: "'('", RParen: "')'", LBrack: "'['", RBrack: "']'",
	Plus: "'+'", Minus: "'-'", Bang: "'!'", At: "'@'", Pipe: "'|'", Less: "'<'", Greater: "'>'",
	Assign: "'='", Other: "operator",
}

// String names the token kind for messages.
func (t Token) String() string {
	if int(t) < len(tokenNames) {
		return tokenNames[t]
	}
	return fmt.Sprintf("Token(%d)", t)
}

// Scanner splits a PTX text into tokens. Comments and white space are skipped.
// The zero value is not usable; call Init.
type Scanner struct {
	src       string
	off       int // offset of the next unread byte
	line      int32
	lineStart int
	err       func(pos Pos, msg string)
}

// Init prepares s to scan src; err (may be nil) is called for lexical errors.
func (s *Scanner) Init(src string, err func(pos Pos, msg string)) {
	s.src = src
	s.off = 0
	s.line = 1
	s.lineStart = 0
	if len(src) >= 3 && src[:3] == "\xEF\xBB\xBF" { // byte order mark
		s.off, s.lineStart = 3, 3
	}
	s.err = err
}

func (s *Scanner) pos(off int) Pos {
	return Pos{Line: s.line, Col: int32(off-s.lineStart) + 1}
}

func (s *Scanner) errorf(pos Pos, format string, args ...any) {
	if s.err != nil {
		s.err(pos, fmt.Sprintf(format, args...))
	}
}

// isFollow reports whether c may continue an identifier.
func isFollow(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// skip skips white space and comments.
func (s *Scanner) skip() {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == '\n':
			s.off++
			s.line++
			s.lineStart = s.off
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			s.off++
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '/':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.off++
			}
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '*':
			start := s.pos(s.off)
			s.off += 2
			closed := false
			for s.off < len(s.src) {
				if s.src[s.off] == '*' && s.off+1 < len(s.src) && s.src[s.off+1] == '/' {
					s.off += 2
					closed = true
					break
				}
				if s.src[s.off] == '\n' {
					s.line++
					s.lineStart = s.off + 1
				}
				s.off++
			}
			if !closed {
				s.errorf(start, "comment not terminated")
			}
		default:
			return
		}
	}
}

// Scan returns the next token, its position and its text.
func (s *Scanner) Scan() (tok Token, pos Pos, lit string) {
	s.skip()
	if s.off >= len(s.src) {
		return EOF, s.pos(s.off), ""
	}
	start := s.off
	pos = s.pos(start)
	c := s.src[start]
	switch {
	case isLetter(c):
		s.off++
		for s.off < len(s.src) && isFollow(s.src[s.off]) {
			s.off++
		}
		return Ident, pos, s.src[start:s.off]
	case c == '_' || c == '$' || c == '%':
		s.off++
		for s.off < len(s.src) && isFollow(s.src[s.off]) {
			s.off++
		}
		if s.off == start+1 && c != '_' {
			return Other, pos, s.src[start:s.off]
		}
		return Ident, pos, s.src[start:s.off]
	case c == '.':
		s.off++
		for s.off < len(s.src) {
			if isFollow(s.src[s.off]) {
				s.off++
				continue
			}
			if s.src[s.off] == ':' && s.off+2 < len(s.src) && s.src[s.off+1] == ':' && isFollow(s.src[s.off+2]) {
				s.off += 2
				continue
			}
			break
		}
		if s.off == start+1 {
			s.errorf(pos, "expected directive name after '.'")
			return Illegal, pos, "."
		}
		return Dir, pos, s.src[start+1 : s.off]
	case isDigit(c):
		return s.number(pos)
	case c == '"':
		s.off++
		for s.off < len(s.src) && s.src[s.off] != '"' && s.src[s.off] != '\n' {
			if s.src[s.off] == '\\' && s.off+1 < len(s.src) && s.src[s.off+1] != '\n' {
				s.off++
			}
			s.off++
		}
		if s.off >= len(s.src) || s.src[s.off] != '"' {
			s.errorf(pos, "string literal not terminated")
			return String, pos, s.src[start:s.off] + `"`
		}
		s.off++
		return String, pos, s.src[start:s.off]
	}
	s.off++
	switch c {
	case ',':
		return Comma, pos, ","
	case ';':
		return Semi, pos, ";"
	case ':':
		return Colon, pos, ":"
	case '{':
		return LBrace, pos, "{"
	case '}':
		return RBrace, pos, "}"
	case '(':
		return LParen, pos, "("
	case ')':
		return RParen, pos, ")"
	case '[':
		return LBrack, pos, "["
	case ']':
		return RBrack, pos, "]"
	case '+':
		return Plus, pos, "+"
	case '-':
		return Minus, pos, "-"
	case '!':
		return Bang, pos, "!"
	case '@':
		return At, pos, "@"
	case '|':
		return Pipe, pos, "|"
	case '<':
		return Less, pos, "<"
	case '>':
		return Greater, pos, ">"
	case '=':
		return Assign, pos, "="
	case '*', '/', '&', '~', '^', '?':
		return Other, pos, s.src[start:s.off]
	}
	s.errorf(pos, "illegal character %q", c)
	return Illegal, pos, s.src[start:s.off]
}

// number scans an integer or floating-point literal starting at s.off.
func (s *Scanner) number(pos Pos) (Token, Pos, string) {
	start := s.off
	src := s.src
	if src[s.off] == '0' && s.off+1 < len(src) {
		switch src[s.off+1] {
		case 'f', 'F', 'd', 'D':
			s.off += 2
			for s.off < len(src) && isHex(src[s.off]) {
				s.off++
			}
			return Float, pos, src[start:s.off]
		case 'x', 'X', 'b', 'B':
			s.off += 2
			for s.off < len(src) && isHex(src[s.off]) {
				s.off++
			}
			if s.off < len(src) && src[s.off] == 'U' {
				s.off++
			}
			return Int, pos, src[start:s.off]
		}
	}
	isFloat := false
	for s.off < len(src) && isDigit(src[s.off]) {
		s.off++
	}
	if s.off < len(src) && src[s.off] == '.' && (s.off+1 >= len(src) || !isLetter(src[s.off+1])) {
		isFloat = true
		s.off++
		for s.off < len(src) && isDigit(src[s.off]) {
			s.off++
		}
	}
	if s.off < len(src) && (src[s.off] == 'e' || src[s.off] == 'E') {
		j := s.off + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && isDigit(src[j]) {
			isFloat = true
			s.off = j
			for s.off < len(src) && isDigit(src[s.off]) {
				s.off++
			}
		}
	}
	if isFloat {
		return Float, pos, src[start:s.off]
	}
	if s.off < len(src) && src[s.off] == 'U' {
		s.off++
	}
	// A number glued to identifier characters is malformed ("12abc").
	if s.off < len(src) && isFollow(src[s.off]) {
		for s.off < len(src) && isFollow(src[s.off]) {
			s.off++
		}
		s.errorf(pos, "malformed number %q", src[start:s.off])
	}
	return Int, pos, src[start:s.off]
}
