package ir

import (
	"strconv"
	"unicode/utf8"
)

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tError           // a lexical error; text is the message
	tBareID          // foo, tt.load, i32, f8E4M3FN, 64x64xf32
	tPercent         // %name (text without '%')
	tCaret           // ^bb0
	tHash            // #name or #dialect.name
	tExcl            // !name or !dialect.name
	tAt              // @name or @"quoted" (text: the symbol)
	tInt             // 42, 0x2A
	tFloat           // 1.5, 1.0e-3
	tString          // "..." (text: the unescaped value)
	tPunct           // ( ) [ ] { } < > , : = * ? + - ->  ...
)

// token is one lexical token. For identifiers and punctuation text aliases
// the source; for strings it holds the decoded value.
type token struct {
	kind      tokKind
	text      string
	off       int // byte offset of the first character
	line, col int
}

// lexer turns MLIR source into tokens. It tracks lines incrementally so
// that positions cost nothing extra.
type lexer struct {
	// src is the input as a string (Parse copies the caller's bytes once):
	// the parser's strings slice it.
	src       string
	off       int
	line      int
	lineStart int
	file      string
}

func newLexer(src string, file string, startLine int) *lexer {
	if startLine <= 0 {
		startLine = 1
	}
	return &lexer{src: src, line: startLine, file: file}
}

// posOf returns the position at line and column col of the lexer's file.
func (lx *lexer) posOf(line, col int) Pos { return Pos{File: lx.file, Line: line, Col: col} }

func (lx *lexer) skipSpace() {
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		switch c {
		case ' ', '\t', '\r':
			lx.off++
		case '\n':
			lx.off++
			lx.line++
			lx.lineStart = lx.off
		case '/':
			if lx.off+1 < len(lx.src) && lx.src[lx.off+1] == '/' {
				for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
					lx.off++
				}
				continue
			}
			return
		default:
			return
		}
	}
}

func isIDChar(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c == '$' || c == '.'
}

func isSuffixIDChar(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c == '$' || c == '.' || c == '-'
}

// next returns the next token.
func (lx *lexer) next() token {
	lx.skipSpace()
	t := token{off: lx.off, line: lx.line, col: lx.off - lx.lineStart + 1}
	if lx.off >= len(lx.src) {
		t.kind = tEOF
		return t
	}
	start := lx.off
	c := lx.src[lx.off]
	switch {
	case isLetter(c) || c == '_':
		lx.off++
		for lx.off < len(lx.src) && (isIDChar(lx.src[lx.off])) {
			lx.off++
		}
		t.kind, t.text = tBareID, lx.src[start:lx.off]
		return t
	case isDigit(c):
		return lx.number(t)
	}
	switch c {
	case '%', '^', '#', '!':
		lx.off++
		if lx.off < len(lx.src) && lx.src[lx.off] == '"' && c != '%' && c != '^' {
			return lx.errTok(t, "quoted names are not supported here")
		}
		for lx.off < len(lx.src) && isSuffixIDChar(lx.src[lx.off]) {
			if c == '#' || c == '!' {
				if lx.src[lx.off] == '-' {
					break
				}
			}
			lx.off++
		}
		if lx.off == start+1 {
			if c == '!' || c == '#' {
				t.kind, t.text = tPunct, lx.src[start:lx.off]
				return t
			}
			return lx.errTok(t, "invalid identifier after '"+string(c)+"'")
		}
		t.text = lx.src[start+1 : lx.off]
		switch c {
		case '%':
			t.kind = tPercent
		case '^':
			t.kind = tCaret
		case '#':
			t.kind = tHash
		default:
			t.kind = tExcl
		}
		return t
	case '@':
		lx.off++
		if lx.off < len(lx.src) && lx.src[lx.off] == '"' {
			s := lx.stringLit(t)
			if s.kind == tError {
				return s
			}
			t.kind, t.text = tAt, s.text
			return t
		}
		for lx.off < len(lx.src) && isSuffixIDChar(lx.src[lx.off]) {
			lx.off++
		}
		if lx.off == start+1 {
			return lx.errTok(t, "invalid symbol reference")
		}
		t.kind, t.text = tAt, lx.src[start+1:lx.off]
		return t
	case '"':
		return lx.stringLit(t)
	case '-':
		if lx.off+1 < len(lx.src) && lx.src[lx.off+1] == '>' {
			lx.off += 2
			t.kind, t.text = tPunct, "->"
			return t
		}
	case '{':
		if lx.off+1 < len(lx.src) && lx.src[lx.off+1] == '-' {
			lx.off += 2
			t.kind, t.text = tPunct, "{-"
			return t
		}
	}
	switch c {
	case '(', ')', '[', ']', '{', '}', '<', '>', ',', ':', '=', '*', '?', '+', '-':
		lx.off++
		t.kind, t.text = tPunct, lx.src[start:lx.off]
		return t
	}
	if c >= utf8.RuneSelf {
		r, _ := utf8.DecodeRuneInString(lx.src[lx.off:])
		return lx.errTok(t, "unexpected character "+strconv.QuoteRune(r))
	}
	return lx.errTok(t, "unexpected character '"+string(c)+"'")
}

func (lx *lexer) errTok(t token, msg string) token {
	if lx.off == t.off {
		lx.off++
	}
	t.kind, t.text = tError, msg
	return t
}

// number lexes an integer or float literal: digits, 0x hex, or
// digits '.' digits [eE [+-] digits].
func (lx *lexer) number(t token) token {
	start := lx.off
	if lx.src[lx.off] == '0' && lx.off+1 < len(lx.src) && lx.src[lx.off+1] == 'x' &&
		lx.off+2 < len(lx.src) && isHex(lx.src[lx.off+2]) {
		lx.off += 2
		for lx.off < len(lx.src) && isHex(lx.src[lx.off]) {
			lx.off++
		}
		t.kind, t.text = tInt, lx.src[start:lx.off]
		return t
	}
	for lx.off < len(lx.src) && isDigit(lx.src[lx.off]) {
		lx.off++
	}
	if lx.off >= len(lx.src) || lx.src[lx.off] != '.' {
		t.kind, t.text = tInt, lx.src[start:lx.off]
		return t
	}
	lx.off++
	for lx.off < len(lx.src) && isDigit(lx.src[lx.off]) {
		lx.off++
	}
	if lx.off < len(lx.src) && (lx.src[lx.off] == 'e' || lx.src[lx.off] == 'E') {
		j := lx.off + 1
		if j < len(lx.src) && (lx.src[j] == '+' || lx.src[j] == '-') {
			j++
		}
		if j < len(lx.src) && isDigit(lx.src[j]) {
			for j < len(lx.src) && isDigit(lx.src[j]) {
				j++
			}
			lx.off = j
		}
	}
	t.kind, t.text = tFloat, lx.src[start:lx.off]
	return t
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// stringLit lexes "..." with MLIR escapes (\n \t \" \\ and \XX hex).
func (lx *lexer) stringLit(t token) token {
	lx.off++ // opening quote
	start := lx.off
	simple := true
	for {
		if lx.off >= len(lx.src) || lx.src[lx.off] == '\n' {
			return lx.errTok(t, "expected '\"' in string literal")
		}
		c := lx.src[lx.off]
		if c == '"' {
			break
		}
		if c == 0 {
			return lx.errTok(t, "NUL character in string literal")
		}
		if c == '\\' {
			simple = false
			if lx.off+1 >= len(lx.src) {
				return lx.errTok(t, "unknown escape in string literal")
			}
			n := lx.src[lx.off+1]
			switch {
			case n == '"' || n == '\\' || n == 'n' || n == 't':
				lx.off += 2
				continue
			case lx.off+2 < len(lx.src) && isHex(n) && isHex(lx.src[lx.off+2]):
				lx.off += 3
				continue
			}
			return lx.errTok(t, "unknown escape in string literal")
		}
		lx.off++
	}
	raw := lx.src[start:lx.off]
	lx.off++
	t.kind = tString
	if simple {
		t.text = raw
		return t
	}
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			b = append(b, raw[i])
			continue
		}
		i++
		switch raw[i] {
		case 'n':
			b = append(b, '\n')
		case 't':
			b = append(b, '\t')
		case '"', '\\':
			b = append(b, raw[i])
		default:
			v, _ := strconv.ParseUint(raw[i:i+2], 16, 8)
			b = append(b, byte(v))
			i++
		}
	}
	t.text = string(b)
	return t
}

// skipTo moves the lexer forward to off, counting the lines it passes (for
// text read by another parser, such as a layout attribute over several
// lines).
func (lx *lexer) skipTo(off int) {
	for i := lx.off; i < off; i++ {
		if lx.src[i] == '\n' {
			lx.line++
			lx.lineStart = i + 1
		}
	}
	lx.off = off
}
