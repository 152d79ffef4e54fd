package cute

import (
	"fmt"
	"strings"
)

// ParseError is a syntax or validity error in layout text, located at a byte
// offset of the input.
type ParseError struct {
	Offset    int    // 0-based byte offset of the error
	Line, Col int    // 1-based line and column (in bytes) of Offset
	Msg       string // what is wrong
}

// Error formats the error as "line:col: msg".
func (e *ParseError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// maxParseDepth bounds tuple nesting so that hostile input cannot exhaust the
// stack.
const maxParseDepth = 64

type parser struct {
	src string
	pos int
}

func (p *parser) errAt(off int, format string, args ...any) *ParseError {
	line, col := 1, 1
	for i := 0; i < off && i < len(p.src); i++ {
		if p.src[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &ParseError{Offset: off, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

// found describes the text at the current position for an error message.
func (p *parser) found() string {
	if p.pos >= len(p.src) {
		return "end of input"
	}
	return fmt.Sprintf("%q", p.src[p.pos])
}

func (p *parser) expect(c byte, what string) error {
	p.skipSpace()
	if p.peek() != c {
		return p.errAt(p.pos, "expected %s, found %s", what, p.found())
	}
	p.pos++
	return nil
}

// integer parses [_][-]digits; CuTe prints static integers as _4.
func (p *parser) integer() (int, error) {
	p.skipSpace()
	start := p.pos
	if p.peek() == '_' {
		p.pos++
	}
	neg := false
	if p.peek() == '-' {
		neg = true
		p.pos++
	}
	digits := p.pos
	v := 0
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		if p.pos-digits >= 18 {
			return 0, p.errAt(start, "integer too large")
		}
		v = v*10 + int(p.src[p.pos]-'0')
		p.pos++
	}
	if p.pos == digits {
		p.pos = start
		return 0, p.errAt(start, "expected an integer or '(', found %s", p.found())
	}
	if neg {
		v = -v
	}
	return v, nil
}

func (p *parser) intTuple(depth int) (IntTuple, error) {
	p.skipSpace()
	if p.peek() != '(' {
		v, err := p.integer()
		return Int(v), err
	}
	if depth >= maxParseDepth {
		return IntTuple{}, p.errAt(p.pos, "tuples nested deeper than %d", maxParseDepth)
	}
	open := p.pos
	p.pos++
	first, err := p.intTuple(depth + 1)
	if err != nil {
		return IntTuple{}, err
	}
	return p.tupleRest(open, []IntTuple{first}, depth)
}

// tupleRest parses ", elem"* ")" after the first element of a tuple.
func (p *parser) tupleRest(open int, elems []IntTuple, depth int) (IntTuple, error) {
	for {
		p.skipSpace()
		switch p.peek() {
		case ',':
			p.pos++
			e, err := p.intTuple(depth + 1)
			if err != nil {
				return IntTuple{}, err
			}
			elems = append(elems, e)
		case ')':
			p.pos++
			return tupleOf(elems), nil
		default:
			if p.pos >= len(p.src) {
				return IntTuple{}, p.errAt(open, "unclosed '('")
			}
			return IntTuple{}, p.errAt(p.pos, "expected ',' or ')', found %s", p.found())
		}
	}
}

func (p *parser) end(what string) error {
	p.skipSpace()
	if p.pos != len(p.src) {
		return p.errAt(p.pos, "unexpected %s after the %s", p.found(), what)
	}
	return nil
}

// ParseIntTuple parses an IntTuple in CuTe or Mojo notation: an integer such
// as 4 or -2 (a leading '_', CuTe's mark of a static integer, is accepted), or
// a parenthesised comma list such as ((3,2),(2, 5)). Spaces are allowed
// between tokens.
func ParseIntTuple(s string) (IntTuple, error) {
	p := &parser{src: s}
	t, err := p.intTuple(0)
	if err != nil {
		return IntTuple{}, err
	}
	if err := p.end("tuple"); err != nil {
		return IntTuple{}, err
	}
	return t, nil
}

// ParseLayout parses a layout in CuTe notation, ((3,2),(2,5)):((1,6),(3,12)),
// or in Mojo's, (((3, 2), (2, 5)):((1, 6), (3, 12))), where the whole
// shape:stride is wrapped in one more pair of parentheses. Spaces are allowed
// between tokens and CuTe's static-integer underscores (_4) are accepted.
// Malformed text, a stride that is not congruent to the shape, or a shape
// leaf below 1 gives a *ParseError located in s.
func ParseLayout(s string) (Layout, error) {
	p := &parser{src: s}
	l, err := p.layout()
	if err != nil {
		return Layout{}, err
	}
	if err := p.end("layout"); err != nil {
		return Layout{}, err
	}
	return l, nil
}

// MustParseLayout is ParseLayout for text known to be valid, such as a
// literal in a program; it panics on error.
func MustParseLayout(s string) Layout {
	l, err := ParseLayout(s)
	if err != nil {
		panic(fmt.Sprintf("cute: MustParseLayout(%q): %v", s, err))
	}
	return l
}

func (p *parser) layout() (Layout, error) {
	p.skipSpace()
	start := p.pos
	var shape IntTuple
	if p.peek() == '(' {
		open := p.pos
		p.pos++
		first, err := p.intTuple(1)
		if err != nil {
			return Layout{}, err
		}
		p.skipSpace()
		if p.peek() == ':' {
			// Mojo: "(" shape ":" stride ")".
			p.pos++
			strideAt := p.pos
			stride, err := p.intTuple(1)
			if err != nil {
				return Layout{}, err
			}
			if err := p.expect(')', "')' closing the Mojo layout"); err != nil {
				return Layout{}, err
			}
			return p.newLayout(start, strideAt, first, stride)
		}
		if shape, err = p.tupleRest(open, []IntTuple{first}, 0); err != nil {
			return Layout{}, err
		}
	} else {
		v, err := p.integer()
		if err != nil {
			return Layout{}, err
		}
		shape = Int(v)
	}
	if err := p.expect(':', "':' between shape and stride"); err != nil {
		return Layout{}, err
	}
	p.skipSpace()
	strideAt := p.pos
	stride, err := p.intTuple(0)
	if err != nil {
		return Layout{}, err
	}
	return p.newLayout(start, strideAt, shape, stride)
}

func (p *parser) newLayout(start, strideAt int, shape, stride IntTuple) (Layout, error) {
	if !Congruent(shape, stride) {
		return Layout{}, p.errAt(strideAt, "stride %v is not congruent to shape %v", stride, shape)
	}
	l, err := NewLayout(shape, stride)
	if err != nil {
		return Layout{}, p.errAt(start, "%s", strings.TrimPrefix(err.Error(), "cute: "))
	}
	return l, nil
}

// ParseSwizzledLayout parses a layout optionally preceded by a swizzle and an
// offset, in CuTe C++'s print form for a ComposedLayout:
//
//	Sw<3,4,3> o 0 o (8,64):(64,1)
//	Sw<3,4,3> o (8,64):(64,1)
//	(8,64):(64,1)
//
// The layout may be in either notation (see ParseLayout).
func ParseSwizzledLayout(s string) (SwizzledLayout, error) {
	p := &parser{src: s}
	var out SwizzledLayout
	p.skipSpace()
	if strings.HasPrefix(p.src[p.pos:], "Sw<") {
		at := p.pos
		p.pos += len("Sw<")
		var vals [3]int
		for i := range vals {
			if i > 0 {
				if err := p.expect(',', "','"); err != nil {
					return SwizzledLayout{}, err
				}
			}
			v, err := p.integer()
			if err != nil {
				return SwizzledLayout{}, err
			}
			vals[i] = v
		}
		if err := p.expect('>', "'>' closing the swizzle"); err != nil {
			return SwizzledLayout{}, err
		}
		out.Swizzle = Swizzle{B: vals[0], M: vals[1], S: vals[2]}
		if err := out.Swizzle.Validate(); err != nil {
			return SwizzledLayout{}, p.errAt(at, "%s", strings.TrimPrefix(err.Error(), "cute: "))
		}
		if err := p.expect('o', "'o' after the swizzle"); err != nil {
			return SwizzledLayout{}, err
		}
		// An optional offset: an integer followed by 'o'.
		save := p.pos
		if v, err := p.integer(); err == nil {
			p.skipSpace()
			if p.peek() == 'o' {
				p.pos++
				out.Offset = v
			} else {
				p.pos = save
			}
		} else {
			p.pos = save
		}
	}
	l, err := p.layout()
	if err != nil {
		return SwizzledLayout{}, err
	}
	if err := p.end("layout"); err != nil {
		return SwizzledLayout{}, err
	}
	out.Layout = l
	return out, nil
}
