package filecheck

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// translateERE rewrites a POSIX extended regular expression, as accepted by
// LLVM's regcomp (the engine behind llvm::Regex and so behind FileCheck's
// {{...}} blocks), into the syntax of Go's regexp package. It returns the Go
// text and the number of capturing groups the expression opens.
//
// The translation keeps POSIX meaning where the two syntaxes disagree:
//   - a backslash before an ordinary character stands for that character
//     (`\d` is "d", `\n` is "n"), as in regcomp;
//   - inside brackets a backslash is an ordinary character;
//   - a negated bracket never matches a newline (REG_NEWLINE);
//   - "{" that does not start a bound is literal;
//   - a second repetition operator after an atom is an error.
//
// Back-references (\1 .. \9) inside {{...}} are not supported and are
// reported as errors.
func translateERE(src string) (string, int, error) {
	t := &ereTranslator{src: src}
	t.parseERE(0)
	if t.err == nil && t.pos < len(src) {
		t.fail("unmatched parentheses")
	}
	if t.err != nil {
		return "", 0, t.err
	}
	return t.out.String(), t.groups, nil
}

type ereTranslator struct {
	src    string
	pos    int
	out    strings.Builder
	groups int
	err    error
}

func (t *ereTranslator) fail(msg string) {
	if t.err == nil {
		t.err = fmt.Errorf("%s", msg)
	}
}

func (t *ereTranslator) more() bool { return t.err == nil && t.pos < len(t.src) }

// parseERE parses branches separated by '|' until the end or a ')' at depth>0.
func (t *ereTranslator) parseERE(depth int) {
	for {
		start := t.out.Len()
		for t.more() && t.src[t.pos] != '|' && !(depth > 0 && t.src[t.pos] == ')') {
			t.parseExp(depth)
		}
		if t.err != nil {
			return
		}
		if t.out.Len() == start {
			t.fail("empty (sub)expression")
			return
		}
		if !t.more() || t.src[t.pos] != '|' {
			return
		}
		t.pos++
		t.out.WriteByte('|')
	}
}

func (t *ereTranslator) parseExp(depth int) {
	c := t.src[t.pos]
	t.pos++
	switch c {
	case '(':
		t.groups++
		t.out.WriteByte('(')
		if t.more() && t.src[t.pos] != ')' {
			t.parseERE(depth + 1)
		}
		if t.err != nil {
			return
		}
		if !t.more() || t.src[t.pos] != ')' {
			t.fail("parentheses not balanced")
			return
		}
		t.pos++
		t.out.WriteByte(')')
	case ')':
		t.fail("parentheses not balanced")
		return
	case '^', '$', '.':
		t.out.WriteByte(c)
	case '[':
		t.parseBracket()
	case '\\':
		if t.pos >= len(t.src) {
			t.fail("trailing backslash (\\)")
			return
		}
		r, n := utf8.DecodeRuneInString(t.src[t.pos:])
		t.pos += n
		if r >= '1' && r <= '9' {
			t.fail("back-references inside {{...}} are not supported")
			return
		}
		t.literal(r)
	case '{':
		if t.pos < len(t.src) && isDigit(t.src[t.pos]) {
			t.fail("repetition-operator operand invalid")
			return
		}
		t.literal('{')
	case '*', '+', '?':
		t.fail("repetition-operator operand invalid")
		return
	default:
		t.pos--
		r, n := utf8.DecodeRuneInString(t.src[t.pos:])
		t.pos += n
		t.literal(r)
	}
	if t.err != nil || t.pos >= len(t.src) {
		return
	}
	// At most one repetition operator.
	c = t.src[t.pos]
	isBound := c == '{' && t.pos+1 < len(t.src) && isDigit(t.src[t.pos+1])
	if c != '*' && c != '+' && c != '?' && !isBound {
		return
	}
	t.pos++
	if isBound {
		t.parseBound()
	} else {
		t.out.WriteByte(c)
	}
	if t.err != nil || t.pos >= len(t.src) {
		return
	}
	c = t.src[t.pos]
	if c == '*' || c == '+' || c == '?' || (c == '{' && t.pos+1 < len(t.src) && isDigit(t.src[t.pos+1])) {
		t.fail("repetition-operator operand invalid")
	}
}

func (t *ereTranslator) number() int {
	n := 0
	for t.pos < len(t.src) && isDigit(t.src[t.pos]) && n <= 255 {
		n = n*10 + int(t.src[t.pos]-'0')
		t.pos++
	}
	return n
}

// parseBound parses "n}", "n,}" or "n,m}" after the '{'.
func (t *ereTranslator) parseBound() {
	lo := t.number()
	hi := lo
	if t.pos < len(t.src) && t.src[t.pos] == ',' {
		t.pos++
		if t.pos < len(t.src) && isDigit(t.src[t.pos]) {
			hi = t.number()
		} else {
			hi = -1
		}
	}
	if t.pos >= len(t.src) || t.src[t.pos] != '}' {
		t.fail("braces not balanced")
		return
	}
	t.pos++
	if lo > 255 || hi > 255 || (hi >= 0 && hi < lo) {
		t.fail("invalid repetition count(s)")
		return
	}
	switch {
	case hi == lo:
		fmt.Fprintf(&t.out, "{%d}", lo)
	case hi < 0:
		fmt.Fprintf(&t.out, "{%d,}", lo)
	default:
		fmt.Fprintf(&t.out, "{%d,%d}", lo, hi)
	}
}

func (t *ereTranslator) literal(r rune) {
	t.out.WriteString(regexpQuoteRune(r))
}

func regexpQuoteRune(r rune) string {
	if r < utf8.RuneSelf && strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
		return `\` + string(r)
	}
	return string(r)
}

// classRune renders one rune for use inside a Go character class.
func classRune(r rune) string {
	if (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') || r >= utf8.RuneSelf {
		return string(r)
	}
	return `\x{` + strconv.FormatInt(int64(r), 16) + `}`
}

var posixClasses = map[string]bool{
	"alnum": true, "alpha": true, "blank": true, "cntrl": true, "digit": true, "graph": true,
	"lower": true, "print": true, "punct": true, "space": true, "upper": true, "xdigit": true,
}

// parseBracket translates a bracket expression; the '[' is consumed.
func (t *ereTranslator) parseBracket() {
	var b strings.Builder
	b.WriteByte('[')
	negate := false
	if t.pos < len(t.src) && t.src[t.pos] == '^' {
		negate = true
		t.pos++
		b.WriteByte('^')
	}
	first := true
	for {
		if t.pos >= len(t.src) {
			t.fail("brackets ([ ]) not balanced")
			return
		}
		c := t.src[t.pos]
		if c == ']' && !first {
			t.pos++
			break
		}
		first = false
		if c == '[' && t.pos+1 < len(t.src) && (t.src[t.pos+1] == ':' || t.src[t.pos+1] == '=' || t.src[t.pos+1] == '.') {
			kind := t.src[t.pos+1]
			name, ok := t.bracketTerm(kind)
			if !ok {
				return
			}
			if kind == ':' {
				if !posixClasses[name] {
					t.fail("invalid character class")
					return
				}
				b.WriteString("[:" + name + ":]")
				continue
			}
			r, ok := t.collatingRune(name)
			if !ok {
				return
			}
			t.rangeOrChar(&b, r)
			continue
		}
		r, n := utf8.DecodeRuneInString(t.src[t.pos:])
		t.pos += n
		t.rangeOrChar(&b, r)
		if t.err != nil {
			return
		}
	}
	if negate {
		b.WriteString(`\n`)
	}
	b.WriteByte(']')
	t.out.WriteString(b.String())
}

// rangeOrChar writes r, or the range r-x when a '-' and an end follow.
func (t *ereTranslator) rangeOrChar(b *strings.Builder, r rune) {
	if t.pos+1 < len(t.src) && t.src[t.pos] == '-' && t.src[t.pos+1] != ']' {
		t.pos++
		var hi rune
		if strings.HasPrefix(t.src[t.pos:], "[.") {
			name, ok := t.bracketTerm('.')
			if !ok {
				return
			}
			if hi, ok = t.collatingRune(name); !ok {
				return
			}
		} else {
			var n int
			hi, n = utf8.DecodeRuneInString(t.src[t.pos:])
			t.pos += n
		}
		if hi < r {
			t.fail("invalid character range")
			return
		}
		b.WriteString(classRune(r) + "-" + classRune(hi))
		return
	}
	b.WriteString(classRune(r))
}

// bracketTerm reads "[" kind NAME kind "]" at t.pos, where kind is ':',
// '=' or '.', and returns NAME.
func (t *ereTranslator) bracketTerm(kind byte) (string, bool) {
	end := strings.Index(t.src[t.pos+2:], string(kind)+"]")
	if end < 0 {
		t.fail("brackets ([ ]) not balanced")
		return "", false
	}
	name := t.src[t.pos+2 : t.pos+2+end]
	t.pos += 2 + end + 2
	return name, true
}

// collatingRune returns the character an equivalence class or collating
// element names; only single characters are supported.
func (t *ereTranslator) collatingRune(name string) (rune, bool) {
	r, n := utf8.DecodeRuneInString(name)
	if n == 0 || n != len(name) {
		t.fail("invalid collating element")
		return 0, false
	}
	return r, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// quoteLiteral is regexp.QuoteMeta for arbitrary bytes: each byte that is
// not part of valid UTF-8 becomes U+FFFD, which is how Go's matcher sees
// such a byte in the input (so it matches any invalid byte there).
func quoteLiteral(s string) string {
	if utf8.ValidString(s) {
		return regexp.QuoteMeta(s)
	}
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && n == 1 {
			b.WriteString(`\x{fffd}`)
		} else {
			b.WriteString(regexp.QuoteMeta(s[:n]))
		}
		s = s[n:]
	}
	return b.String()
}
