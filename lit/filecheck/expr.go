package filecheck

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Numeric values live in [-2^63, 2^64-1], like LLVM's ExpressionValue.
var (
	minValue = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 63))
	maxValue = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(1))
	maxInt64 = big.NewInt(1<<63 - 1)
)

// errOverflow marks a value that left the representable range.
type errOverflow struct{}

func (errOverflow) Error() string { return "overflow error" }

func checkRange(v *big.Int) (*big.Int, error) {
	if v.Cmp(minValue) < 0 || v.Cmp(maxValue) > 0 {
		return nil, errOverflow{}
	}
	return v, nil
}

// formatKind is the conversion of a numeric format specifier.
type formatKind int

const (
	fmtNone formatKind = iota
	fmtUnsigned
	fmtSigned
	fmtHexLower
	fmtHexUpper
)

// numFormat is an ExpressionFormat: how a number is matched and printed.
type numFormat struct {
	kind      formatKind
	precision int
	alternate bool
}

func (f numFormat) String() string {
	s := "%"
	if f.alternate {
		s += "#"
	}
	if f.precision > 0 {
		s += "." + strconv.Itoa(f.precision)
	}
	switch f.kind {
	case fmtSigned:
		return s + "d"
	case fmtHexLower:
		return s + "x"
	case fmtHexUpper:
		return s + "X"
	}
	return s + "u"
}

// wildcard is the POSIX regex matching any number in this format.
func (f numFormat) wildcard() string {
	pre := ""
	if f.alternate {
		pre = "0x"
	}
	withPrec := func(s string) string { return fmt.Sprintf("%s%s{%d}", pre, s, f.precision) }
	switch f.kind {
	case fmtSigned:
		if f.precision > 0 {
			return withPrec("-?([1-9][0-9]*)?[0-9]")
		}
		return "-?[0-9]+"
	case fmtHexUpper:
		if f.precision > 0 {
			return withPrec("([1-9A-F][0-9A-F]*)?[0-9A-F]")
		}
		return pre + "[0-9A-F]+"
	case fmtHexLower:
		if f.precision > 0 {
			return withPrec("([1-9a-f][0-9a-f]*)?[0-9a-f]")
		}
		return pre + "[0-9a-f]+"
	}
	if f.precision > 0 {
		return withPrec("([1-9][0-9]*)?[0-9]")
	}
	return "[0-9]+"
}

// text renders v in this format, or fails when v does not fit it.
func (f numFormat) text(v *big.Int) (string, error) {
	neg := v.Sign() < 0
	if f.kind == fmtSigned {
		if v.Cmp(maxInt64) > 0 {
			return "", errOverflow{}
		}
	} else if neg {
		return "", errOverflow{}
	}
	abs := new(big.Int).Abs(v)
	var digits string
	switch f.kind {
	case fmtHexLower:
		digits = abs.Text(16)
	case fmtHexUpper:
		digits = strings.ToUpper(abs.Text(16))
	default:
		digits = abs.Text(10)
	}
	if len(digits) < f.precision {
		digits = strings.Repeat("0", f.precision-len(digits)) + digits
	}
	if f.alternate {
		digits = "0x" + digits
	}
	if neg {
		digits = "-" + digits
	}
	return digits, nil
}

// parseValue reads a matched number back; s points into the input.
func (f numFormat) parseValue(s sref) (*big.Int, error) {
	str := s.str()
	if f.kind == fmtSigned {
		n, err := strconv.ParseInt(str, 10, 64)
		if err != nil {
			return nil, errAt(s, "unable to represent numeric value")
		}
		return big.NewInt(n), nil
	}
	hex := f.kind == fmtHexLower || f.kind == fmtHexUpper
	missing := f.alternate && !strings.HasPrefix(str, "0x")
	if f.alternate && !missing {
		str = str[2:]
	}
	base := 10
	if hex {
		base = 16
	}
	n, err := strconv.ParseUint(str, base, 64)
	if err != nil {
		return nil, errAt(s, "unable to represent numeric value")
	}
	if missing {
		return nil, errAt(s, "missing alternate form prefix")
	}
	return new(big.Int).SetUint64(n), nil
}

// numVar is a numeric variable (or the @LINE pseudo variable).
type numVar struct {
	name    string
	format  numFormat // implicit format
	value   *big.Int  // nil when undefined
	defLine int       // check-file line of the defining directive, 0 if none
	// strOff, strLen locate the matched text of the value in the input
	// (strLen < 0: none, e.g. a command-line definition).
	strOff, strLen int
}

func bigInt(n int) *big.Int { return big.NewInt(int64(n)) }

// exprNode is a node of a numeric expression.
type exprNode interface {
	eval() (*big.Int, []error)
	// implicitFormat is the format the expression inherits from its
	// variables, fmtNone if it has none.
	implicitFormat() (numFormat, error)
}

type exprLiteral struct{ v *big.Int }

func (e *exprLiteral) eval() (*big.Int, []error)          { return e.v, nil }
func (e *exprLiteral) implicitFormat() (numFormat, error) { return numFormat{}, nil }

type exprVar struct {
	name sref
	v    *numVar
}

func (e *exprVar) eval() (*big.Int, []error) {
	if e.v.value == nil {
		return nil, []error{errAt(e.name, "undefined variable: "+e.name.str())}
	}
	return e.v.value, nil
}

func (e *exprVar) implicitFormat() (numFormat, error) { return e.v.format, nil }

type binFunc func(a, b *big.Int) (*big.Int, error)

type exprBinary struct {
	text        sref // the text of the whole operation, for messages
	fn          binFunc
	left, right exprNode
}

func (e *exprBinary) eval() (*big.Int, []error) {
	l, errs := e.left.eval()
	r, errs2 := e.right.eval()
	errs = append(errs, errs2...)
	if len(errs) > 0 {
		return nil, errs
	}
	v, err := e.fn(l, r)
	if err != nil {
		return nil, []error{err}
	}
	return v, nil
}

func (e *exprBinary) implicitFormat() (numFormat, error) {
	lf, err := e.left.implicitFormat()
	if err != nil {
		return numFormat{}, err
	}
	rf, err := e.right.implicitFormat()
	if err != nil {
		return numFormat{}, err
	}
	if lf.kind != fmtNone && rf.kind != fmtNone && lf != rf {
		return numFormat{}, errAt(e.text, fmt.Sprintf(
			"implicit format conflict between '%s' (%s) and '%s' (%s), need an explicit format specifier",
			exprText(e.left), lf, exprText(e.right), rf))
	}
	if lf.kind != fmtNone {
		return lf, nil
	}
	return rf, nil
}

func exprText(e exprNode) string {
	switch e := e.(type) {
	case *exprVar:
		return e.name.str()
	case *exprBinary:
		return e.text.str()
	case *exprLiteral:
		return e.v.String()
	}
	return ""
}

func opAdd(a, b *big.Int) (*big.Int, error) { return checkRange(new(big.Int).Add(a, b)) }
func opSub(a, b *big.Int) (*big.Int, error) { return checkRange(new(big.Int).Sub(a, b)) }
func opMul(a, b *big.Int) (*big.Int, error) { return checkRange(new(big.Int).Mul(a, b)) }
func opDiv(a, b *big.Int) (*big.Int, error) {
	if b.Sign() == 0 {
		return nil, errOverflow{}
	}
	return checkRange(new(big.Int).Quo(a, b))
}
func opMax(a, b *big.Int) (*big.Int, error) {
	if a.Cmp(b) >= 0 {
		return a, nil
	}
	return b, nil
}
func opMin(a, b *big.Int) (*big.Int, error) {
	if a.Cmp(b) <= 0 {
		return a, nil
	}
	return b, nil
}

var callFuncs = map[string]binFunc{
	"add": opAdd, "div": opDiv, "max": opMax, "min": opMin, "mul": opMul, "sub": opSub,
}

// expression is a numeric expression with its format; ast is nil for an
// empty expression ("[[#]]" or a bare definition).
type expression struct {
	ast    exprNode
	format numFormat
}

type operandKind int

const (
	operandLineVar operandKind = iota
	operandLegacyLiteral
	operandAny
)

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }

// parseVariable reads a variable name from the front of *s: an optional
// '$' (global) or '@' (pseudo), then [a-zA-Z_][a-zA-Z0-9_]*.
func parseVariable(s *sref) (name sref, pseudo bool, err error) {
	if s.empty() {
		return sref{}, false, errAt(*s, "empty variable name")
	}
	i := 0
	pseudo = s.at(0) == '@'
	if s.at(0) == '$' || pseudo {
		i++
	}
	if i >= s.len() || !(isAlpha(s.at(i)) || s.at(i) == '_') {
		return sref{}, false, errAt(*s, "invalid variable name")
	}
	i++
	for i < s.len() && (s.at(i) == '_' || isAlnum(s.at(i))) {
		i++
	}
	name = s.takeFront(i)
	*s = s.dropFront(i)
	return name, pseudo, nil
}

// consumeInteger mimics StringRef::consumeInteger: radix 0 senses 0x, 0b,
// 0o and a leading 0 (octal). It reports false when no digits were read or
// the value does not fit.
func consumeInteger(s *sref, radix int, signed bool) (*big.Int, bool) {
	str := s.str()
	i := 0
	neg := false
	if signed && strings.HasPrefix(str, "-") {
		neg = true
		i = 1
	}
	if radix == 0 {
		rest := str[i:]
		switch {
		case strings.HasPrefix(rest, "0x") || strings.HasPrefix(rest, "0X"):
			radix, i = 16, i+2
		case strings.HasPrefix(rest, "0b") || strings.HasPrefix(rest, "0B"):
			radix, i = 2, i+2
		case strings.HasPrefix(rest, "0o"):
			radix, i = 8, i+2
		case len(rest) > 1 && rest[0] == '0' && isDigit(rest[1]):
			radix, i = 8, i+1
		default:
			radix = 10
		}
	}
	start := i
	v := new(big.Int)
	for i < len(str) {
		c := str[i]
		var d int
		switch {
		case isDigit(c):
			d = int(c - '0')
		case c >= 'a' && c <= 'z':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = int(c-'A') + 10
		default:
			d = 99
		}
		if d >= radix {
			break
		}
		v.Mul(v, big.NewInt(int64(radix)))
		v.Add(v, big.NewInt(int64(d)))
		i++
	}
	if i == start {
		return nil, false
	}
	if neg {
		v.Neg(v)
		if v.Cmp(minValue) < 0 {
			return nil, false
		}
	} else if (signed && v.Cmp(maxInt64) > 0) || v.Cmp(maxValue) > 0 {
		return nil, false
	}
	*s = s.dropFront(i)
	return v, true
}
