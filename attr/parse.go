package attr

import (
	"fmt"
	"strconv"
	"strings"
)

// The attribute syntax is MLIR's: a name, then (for most encodings) a
// dictionary `<{key = value, …}>` whose values are integers, booleans,
// arrays and nested attributes. A hand-written recursive-descent parser
// reads that generic value tree in one pass, keeping the byte offset of
// every key and value, and a small builder per encoding interprets the
// keys. This keeps error positions exact and the two irregular bodies
// (padded_shared's `[4:+1] {…}` and shared_linear's `{…}, alignment = 16`)
// simple; a grammar library would add a lexer and a tree to convert for no
// gain at this size.

type valKind int

const (
	vInt valKind = iota
	vBool
	vArray
	vDict
	vEnc
)

var kindNames = [...]string{vInt: "an integer", vBool: "a boolean", vArray: "an array", vDict: "a dictionary", vEnc: "an attribute"}

type value struct {
	off    int
	kind   valKind
	num    int64
	b      bool
	elems  []value
	fields []field
	enc    Encoding
}

type field struct {
	key string
	off int
	val value
}

type parser struct {
	text    string
	pos     int
	resolve func(string) (Encoding, bool)
	depth   int
}

// Parse parses one attribute starting at text[0] == '#', e.g.
// "#ttg.blocked<{sizePerThread = [1, 4], …}>", "#ttg.shared_memory" or
// "#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>". It consumes exactly
// one attribute and returns how many bytes it used. resolve looks up an
// alias used inside (name without '#', e.g. "mma"); it may be nil. The
// legacy spellings are accepted: the triton_gpu dialect prefix and the
// CTAsPerCGA / CTASplitNum / CTAOrder keys (converted to a CGALayout).
// Field values are checked as Triton's attribute verifiers do; errors are
// *Error values located at the offending key or value.
func Parse(text string, resolve func(alias string) (Encoding, bool)) (enc Encoding, n int, err error) {
	p := &parser{text: text, resolve: resolve}
	enc, err = p.attr()
	if err != nil {
		return nil, 0, err
	}
	return enc, p.pos, nil
}

// Known reports whether Parse handles attributes of this name
// ("ttg.blocked", "ttg.shared_memory", …; the legacy "triton_gpu." prefix
// counts as "ttg.").
func Known(name string) bool {
	_, ok := builders[canonical(name)]
	return ok
}

func canonical(name string) string {
	if rest, ok := strings.CutPrefix(name, "triton_gpu."); ok {
		return "ttg." + rest
	}
	return name
}

func (p *parser) errf(off int, format string, args ...any) error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) space() {
	for p.pos < len(p.text) {
		switch p.text[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) peek() byte {
	p.space()
	if p.pos < len(p.text) {
		return p.text[p.pos]
	}
	return 0
}

func (p *parser) expect(c byte) error {
	if p.peek() != c {
		return p.errf(p.pos, "expected '%c'%s", c, p.found())
	}
	p.pos++
	return nil
}

func (p *parser) found() string {
	if p.pos >= len(p.text) {
		return ", found end of input"
	}
	r := p.text[p.pos:]
	if len(r) > 12 {
		r = r[:12] + "…"
	}
	return fmt.Sprintf(", found %q", r)
}

func isIdent(c byte, first bool) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' ||
		!first && (c >= '0' && c <= '9' || c == '.' || c == '-')
}

func (p *parser) ident() string {
	p.space()
	s := p.pos
	for p.pos < len(p.text) && isIdent(p.text[p.pos], p.pos == s) {
		p.pos++
	}
	return p.text[s:p.pos]
}

// attr parses '#name…' at the current position.
func (p *parser) attr() (Encoding, error) {
	p.space()
	start := p.pos
	if p.pos >= len(p.text) || p.text[p.pos] != '#' {
		return nil, p.errf(p.pos, "expected an attribute starting with '#'%s", p.found())
	}
	p.pos++
	nameStart := p.pos
	for p.pos < len(p.text) && isIdent(p.text[p.pos], p.pos == nameStart) {
		p.pos++
	}
	name := p.text[nameStart:p.pos]
	if name == "" {
		return nil, p.errf(start, "expected an attribute name after '#'")
	}
	if !strings.Contains(name, ".") {
		if p.resolve != nil {
			if e, ok := p.resolve(name); ok && e != nil {
				return e, nil
			}
		}
		return nil, p.errf(start, "undefined attribute alias #%s", name)
	}
	canon := canonical(name)
	switch canon {
	case "ttg.shared_memory":
		return SharedMemory{}, nil
	case "ttng.tensor_memory":
		return TensorMemorySpace{}, nil
	}
	b, ok := builders[canon]
	if !ok {
		return nil, p.errf(start, "unknown attribute #%s", name)
	}
	if p.depth > 32 {
		return nil, p.errf(start, "attributes nested too deeply")
	}
	p.depth++
	defer func() { p.depth-- }()
	if err := p.expect('<'); err != nil {
		return nil, err
	}
	var a args
	a.start = start
	a.name = canon
	a.p = p
	var err error
	switch canon {
	case "ttg.padded_shared":
		err = p.paddedHead(&a)
	case "ttng.tensor_memory_encoding":
		a.fields, err = p.bareFields()
	default:
		var d value
		d, err = p.dict()
		a.fields = d.fields
	}
	if err != nil {
		return nil, err
	}
	if canon == "ttg.shared_linear" {
		if err := p.alignment(&a); err != nil {
			return nil, err
		}
	}
	if err := p.expect('>'); err != nil {
		return nil, err
	}
	enc, err := b(&a)
	if err != nil {
		return nil, a.locate(err)
	}
	return enc, nil
}

func (p *parser) dict() (value, error) {
	v := value{off: p.pos, kind: vDict}
	if err := p.expect('{'); err != nil {
		return v, err
	}
	if p.peek() == '}' {
		p.pos++
		return v, nil
	}
	for {
		p.space()
		koff := p.pos
		var key string
		if p.peek() == '"' {
			end := strings.IndexByte(p.text[p.pos+1:], '"')
			if end < 0 {
				return v, p.errf(koff, "unterminated string")
			}
			key = p.text[p.pos+1 : p.pos+1+end]
			p.pos += end + 2
		} else {
			key = p.ident()
		}
		if key == "" {
			return v, p.errf(koff, "expected a key%s", p.found())
		}
		for _, f := range v.fields {
			if f.key == key {
				return v, p.errf(koff, "duplicate key '%s' in dictionary attribute", key)
			}
		}
		if err := p.expect('='); err != nil {
			return v, err
		}
		val, err := p.value()
		if err != nil {
			return v, err
		}
		v.fields = append(v.fields, field{key, koff, val})
		switch p.peek() {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return v, nil
		default:
			return v, p.errf(p.pos, "expected ',' or '}'%s", p.found())
		}
	}
}

func (p *parser) value() (value, error) {
	c := p.peek()
	off := p.pos
	switch {
	case c == '[':
		p.pos++
		v := value{off: off, kind: vArray}
		if p.peek() == ']' {
			p.pos++
			return v, nil
		}
		for {
			e, err := p.value()
			if err != nil {
				return v, err
			}
			v.elems = append(v.elems, e)
			switch p.peek() {
			case ',':
				p.pos++
			case ']':
				p.pos++
				return v, nil
			default:
				return v, p.errf(p.pos, "expected ',' or ']'%s", p.found())
			}
		}
	case c == '{':
		return p.dict()
	case c == '#':
		e, err := p.attr()
		return value{off: off, kind: vEnc, enc: e}, err
	case c == '-' || c >= '0' && c <= '9':
		n, err := p.integer()
		return value{off: off, kind: vInt, num: n}, err
	case isIdent(c, true):
		id := p.ident()
		switch id {
		case "true", "false":
			return value{off: off, kind: vBool, b: id == "true"}, nil
		}
		return value{}, p.errf(off, "unexpected '%s': expected a value", id)
	}
	return value{}, p.errf(off, "expected a value%s", p.found())
}

// integer reads a decimal integer with an optional ': iN' type suffix.
func (p *parser) integer() (int64, error) {
	s := p.pos
	if p.text[p.pos] == '-' {
		p.pos++
	}
	for p.pos < len(p.text) && p.text[p.pos] >= '0' && p.text[p.pos] <= '9' {
		p.pos++
	}
	n, err := strconv.ParseInt(p.text[s:p.pos], 10, 32)
	if err != nil {
		return 0, p.errf(s, "invalid integer %q", p.text[s:p.pos])
	}
	save := p.pos
	if p.peek() == ':' {
		p.pos++
		t := p.ident()
		if len(t) < 2 || (t[0] != 'i' && !strings.HasPrefix(t, "si") && !strings.HasPrefix(t, "ui")) {
			p.pos = save
		}
	}
	return n, nil
}

// bareFields reads `key = value, …` up to (not including) the closing '>',
// the struct syntax of the ttng attributes.
func (p *parser) bareFields() ([]field, error) {
	var fs []field
	for p.peek() != '>' {
		if len(fs) > 0 {
			if err := p.expect(','); err != nil {
				return nil, err
			}
		}
		koff := p.pos
		key := p.ident()
		if key == "" {
			return nil, p.errf(koff, "expected a key%s", p.found())
		}
		if err := p.expect('='); err != nil {
			return nil, err
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		fs = append(fs, field{key, koff, v})
	}
	return fs, nil
}

// paddedHead reads padded_shared's `[interval:+pad, …] {…}`.
func (p *parser) paddedHead(a *args) error {
	if err := p.expect('['); err != nil {
		return err
	}
	a.fields = append(a.fields, field{key: "intervals", off: p.pos})
	for {
		p.space()
		off := p.pos
		if p.peek() < '0' || p.peek() > '9' {
			return p.errf(off, "expected an interval%s", p.found())
		}
		iv, err := p.integer()
		if err != nil {
			return err
		}
		if err := p.expect(':'); err != nil {
			return err
		}
		if err := p.expect('+'); err != nil {
			return err
		}
		p.space()
		if p.peek() < '0' || p.peek() > '9' {
			return p.errf(p.pos, "expected a padding%s", p.found())
		}
		pd, err := p.integer()
		if err != nil {
			return err
		}
		a.intervals = append(a.intervals, int(iv))
		a.paddings = append(a.paddings, int(pd))
		if p.peek() == ',' {
			p.pos++
			continue
		}
		if err := p.expect(']'); err != nil {
			return err
		}
		break
	}
	d, err := p.dict()
	a.fields = append(a.fields, d.fields...)
	return err
}

// alignment reads shared_linear's `, alignment = N` after the dictionary.
func (p *parser) alignment(a *args) error {
	if f := a.get("alignment"); f != nil {
		return p.errf(f.off, "alignment must be specified outside of the linear layout braces")
	}
	if err := p.expect(','); err != nil {
		return err
	}
	p.space()
	off := p.pos
	if p.ident() != "alignment" {
		return p.errf(off, "expected 'alignment'")
	}
	if err := p.expect('='); err != nil {
		return err
	}
	p.space()
	v, err := p.value()
	if err != nil {
		return err
	}
	a.fields = append(a.fields, field{key: "alignment", off: off, val: v})
	return nil
}
