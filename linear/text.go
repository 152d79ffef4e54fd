package linear

import (
	"fmt"
	"strconv"
	"strings"
)

// String returns Triton's toString form: a leading newline, one bulleted
// block per in-dim listing L(in = 2^i) for each basis, and the out-dims with
// their sizes, e.g.
//
//   - register=1 -> (0, 1)
//     register=2 -> (1, 0)
//   - lane is a size 1 dimension
//     where out dims are: [dim0 (size 2), dim1 (size 2)]
func (l Layout) String() string {
	var sb strings.Builder
	outs := make([]string, len(l.outs))
	for j, o := range l.outs {
		outs[j] = fmt.Sprintf("%s (size %d)", o.name, 1<<uint(o.log2))
	}
	outStr := "[" + strings.Join(outs, ", ") + "]"
	if len(l.ins) == 0 {
		if len(l.outs) == 0 {
			return "\n(empty layout)"
		}
		return "\n(empty layout with out-dims " + outStr + ")"
	}
	sb.WriteString("\n")
	for _, d := range l.ins {
		if d.log2 == 0 {
			fmt.Fprintf(&sb, " - %s is a size 1 dimension\n", d.name)
			continue
		}
		sb.WriteString(" - ")
		for b := 0; b < d.log2; b++ {
			if b > 0 {
				sb.WriteString("\n   ")
			}
			fmt.Fprintf(&sb, "%s=%d -> (", d.name, 1<<uint(b))
			writeInts(&sb, l.unpack(l.cols[d.off+b]))
			sb.WriteString(")")
		}
		sb.WriteString("\n")
	}
	sb.WriteString("where out dims are: " + outStr)
	return sb.String()
}

func writeInts(sb *strings.Builder, vs []int) {
	for i, v := range vs {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.Itoa(v))
	}
}

// AttrString returns the layout's bases in TritonGPU's #ttg.linear syntax,
// listing the in-dims the layout has, in its order, e.g.
// "#ttg.linear<{register = [[0, 1], [1, 0]], lane = [[0, 2]], warp = [], block = []}>".
// The out-dims are implied (dim0, dim1, … of the tensor), so they are not
// printed.
func (l Layout) AttrString() string {
	var sb strings.Builder
	sb.WriteString("#ttg.linear<")
	writeBody(&sb, l.InDims())
	sb.WriteString(">")
	return sb.String()
}

func writeBody(sb *strings.Builder, ins []InDim) {
	sb.WriteString("{")
	for i, d := range ins {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(attrName(d.Name) + " = [")
		for b, basis := range d.Bases {
			if b > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString("[")
			writeInts(sb, basis)
			sb.WriteString("]")
		}
		sb.WriteString("]")
	}
	sb.WriteString("}")
}

// attrName returns a dimension name as an attribute-dictionary key: bare if
// it is an identifier, quoted otherwise (as MLIR prints keys).
func attrName(name string) string {
	ok := name != "" && isIdentStart(name[0])
	for i := 1; ok && i < len(name); i++ {
		ok = isIdentChar(name[i])
	}
	if ok {
		return name
	}
	if strings.ContainsAny(name, "\"\\\n") {
		return strconv.Quote(name)
	}
	return `"` + name + `"`
}

// SyntaxError is a malformed #ttg.linear text: Msg says what is wrong at
// byte Offset of the input.
type SyntaxError struct {
	Offset int
	Msg    string
}

// Error formats the error as "offset N: message".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg)
}

// ParseAttr parses the text form AttrString prints, "#ttg.linear<{name =
// [[c, …], …], …}>", or its bare "{…}" body, into in-dims with their bases.
// Whitespace between tokens is free. Names are identifiers or simple quoted
// strings; coordinates are non-negative integers; every basis vector must
// have the same length and no name may repeat. Errors are *SyntaxError.
func ParseAttr(text string) ([]InDim, error) {
	p := &parser{s: text, width: -1}
	p.ws()
	wrapped := strings.HasPrefix(p.s[p.pos:], "#")
	if wrapped {
		if !strings.HasPrefix(p.s[p.pos:], "#ttg.linear") {
			return nil, p.errf("expected #ttg.linear")
		}
		p.pos += len("#ttg.linear")
		if err := p.expect('<'); err != nil {
			return nil, err
		}
	}
	ins, err := p.body()
	if err != nil {
		return nil, err
	}
	if wrapped {
		if err := p.expect('>'); err != nil {
			return nil, err
		}
	}
	p.ws()
	if p.pos < len(p.s) {
		return nil, p.errf("unexpected %q after the attribute", p.s[p.pos])
	}
	return ins, nil
}

type parser struct {
	s     string
	pos   int
	width int // length of every basis vector, once one is seen
}

func (p *parser) errf(format string, args ...any) error {
	return &SyntaxError{Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) ws() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// peek skips whitespace and returns the next byte (0 at the end).
func (p *parser) peek() byte {
	p.ws()
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *parser) expect(c byte) error {
	if p.peek() != c {
		return p.unexpected(fmt.Sprintf("%q", c))
	}
	p.pos++
	return nil
}

func (p *parser) unexpected(want string) error {
	if p.pos >= len(p.s) {
		return p.errf("expected %s, found end of input", want)
	}
	return p.errf("expected %s, found %q", want, p.s[p.pos])
}

// list reads open, then items separated by ',' up to close (there may
// be none), calling item for each.
func (p *parser) list(open, close byte, item func() error) error {
	if err := p.expect(open); err != nil {
		return err
	}
	if p.peek() == close {
		p.pos++
		return nil
	}
	for {
		if err := item(); err != nil {
			return err
		}
		switch p.peek() {
		case ',':
			p.pos++
		case close:
			p.pos++
			return nil
		default:
			return p.unexpected(`"," or "` + string(close) + `"`)
		}
	}
}

func (p *parser) body() ([]InDim, error) {
	var ins []InDim
	err := p.list('{', '}', func() error {
		p.ws()
		at := p.pos
		name, err := p.name()
		if err != nil {
			return err
		}
		for _, d := range ins {
			if d.Name == name {
				return &SyntaxError{at, fmt.Sprintf("duplicate dimension %q", name)}
			}
		}
		if err := p.expect('='); err != nil {
			return err
		}
		bases, err := p.bases()
		if err != nil {
			return err
		}
		ins = append(ins, InDim{name, bases})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ins, nil
}

func isIdentStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isIdentChar(c byte) bool {
	return isIdentStart(c) || '0' <= c && c <= '9' || c == '$' || c == '.'
}

func (p *parser) name() (string, error) {
	c := p.peek()
	switch {
	case c == '"':
		end := strings.IndexAny(p.s[p.pos+1:], "\"\\\n")
		if end < 0 || p.s[p.pos+1+end] != '"' {
			return "", p.errf("unterminated or escaped string")
		}
		name := p.s[p.pos+1 : p.pos+1+end]
		if name == "" {
			return "", p.errf("empty dimension name")
		}
		p.pos += end + 2
		return name, nil
	case isIdentStart(c):
		start := p.pos
		for p.pos < len(p.s) && isIdentChar(p.s[p.pos]) {
			p.pos++
		}
		return p.s[start:p.pos], nil
	}
	return "", p.unexpected("a dimension name")
}

func (p *parser) bases() ([][]int, error) {
	bases := [][]int{}
	err := p.list('[', ']', func() error {
		p.ws()
		start := p.pos
		v, err := p.vector()
		if err != nil {
			return err
		}
		if p.width >= 0 && len(v) != p.width {
			return &SyntaxError{start, fmt.Sprintf("basis has %d coordinates, want %d like the first one", len(v), p.width)}
		}
		p.width = len(v)
		bases = append(bases, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return bases, nil
}

func (p *parser) vector() ([]int, error) {
	v := []int{}
	err := p.list('[', ']', func() error {
		n, err := p.int()
		v = append(v, n)
		return err
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

func (p *parser) int() (int, error) {
	c := p.peek()
	if c < '0' || c > '9' {
		return 0, p.unexpected("a non-negative integer")
	}
	start := p.pos
	for p.pos < len(p.s) && '0' <= p.s[p.pos] && p.s[p.pos] <= '9' {
		p.pos++
	}
	n, err := strconv.ParseInt(p.s[start:p.pos], 10, 64)
	if err != nil || n >= 1<<MaxBits {
		return 0, &SyntaxError{start, fmt.Sprintf("integer %s is too large", p.s[start:p.pos])}
	}
	return int(n), nil
}
