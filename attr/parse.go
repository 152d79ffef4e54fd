package attr

import (
	"errors"
	"fmt"
	"slices"
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

// args is the parsed body of one attribute, as the builders see it.
type args struct {
	p                   *parser
	start               int
	name                string // canonical attribute name
	fields              []field
	used                []string
	intervals, paddings []int
}

func (a *args) get(key string) *field {
	for i := range a.fields {
		if a.fields[i].key == key {
			return &a.fields[i]
		}
	}
	return nil
}

// locate turns a builder error into a located *Error.
func (a *args) locate(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	off := a.start
	var fe *FieldError
	if errors.As(err, &fe) {
		if f := a.get(fe.Field); f != nil {
			off = f.off
		}
	}
	return &Error{Offset: off, Msg: err.Error()}
}

// strict rejects keys outside allowed ("unexpected key: …").
func (a *args) strict(allowed ...string) error {
	for _, f := range a.fields {
		if f.key == "intervals" && a.intervals != nil {
			continue
		}
		if !slices.Contains(allowed, f.key) {
			return a.p.errf(f.off, "unexpected key: %s", f.key)
		}
	}
	return nil
}

func (a *args) require(keys ...string) error {
	for _, k := range keys {
		if a.get(k) == nil {
			return a.p.errf(a.start, "#%s: missing key '%s'", a.name, k)
		}
	}
	return nil
}

func (a *args) uintOf(v value, desc string) (int, error) {
	if v.kind != vInt {
		return 0, a.p.errf(v.off, "expected an integer value in %s, found %s", desc, kindNames[v.kind])
	}
	if v.num < 0 {
		return 0, a.p.errf(v.off, "expected an unsigned integer value in %s", desc)
	}
	return int(v.num), nil
}

// uint reads an optional unsigned integer field into dst.
func (a *args) uint(key string, dst *int) error {
	f := a.get(key)
	if f == nil {
		return nil
	}
	n, err := a.uintOf(f.val, key)
	*dst = n
	return err
}

func (a *args) boolean(key string, dst *bool) error {
	f := a.get(key)
	if f == nil {
		return nil
	}
	if f.val.kind != vBool {
		return a.p.errf(f.val.off, "expected a bool type in %s", key)
	}
	*dst = f.val.b
	return nil
}

func (a *args) intsOf(v value, desc string) ([]int, error) {
	if v.kind != vArray {
		return nil, a.p.errf(v.off, "expected an array for %s", desc)
	}
	r := make([]int, 0, len(v.elems))
	for _, e := range v.elems {
		n, err := a.uintOf(e, desc)
		if err != nil {
			return nil, err
		}
		r = append(r, n)
	}
	return r, nil
}

// ints reads an optional array-of-unsigned field (nil when absent).
func (a *args) ints(key string) ([]int, error) {
	f := a.get(key)
	if f == nil {
		return nil, nil
	}
	return a.intsOf(f.val, key)
}

// bases reads an array of integer arrays.
func (a *args) bases(key string) ([][]int, error) {
	f := a.get(key)
	if f == nil {
		return nil, nil
	}
	if f.val.kind != vArray {
		return nil, a.p.errf(f.val.off, "Expected array of arrays for basis of '%s'", key)
	}
	r := make([][]int, 0, len(f.val.elems))
	for _, e := range f.val.elems {
		if e.kind != vArray {
			return nil, a.p.errf(e.off, "Expected array of integers in basis for '%s'", key)
		}
		b, err := a.intsOf(e, "basis for '"+key+"'")
		if err != nil {
			return nil, err
		}
		r = append(r, b)
	}
	return r, nil
}

func (a *args) encoding(key string) (Encoding, *field, error) {
	f := a.get(key)
	if f == nil {
		return nil, nil, nil
	}
	if f.val.kind != vEnc {
		return nil, f, a.p.errf(f.val.off, "expected an attribute for %s", key)
	}
	return f.val.enc, f, nil
}

// cga reads CGALayout, or the legacy CTAsPerCGA / CTASplitNum / CTAOrder.
func (a *args) cga(rank int) (CGALayout, error) {
	if f := a.get("CGALayout"); f != nil {
		if f.val.kind != vArray {
			return CGALayout{}, a.p.errf(f.val.off, "expected array value for 'CGALayout'")
		}
		var c CGALayout
		for _, e := range f.val.elems {
			b, err := a.intsOf(e, "CGALayout entry")
			if err != nil {
				return c, err
			}
			if len(b) != rank {
				return c, a.p.errf(e.off, "'CGALayout' entry length does not match rank %d", rank)
			}
			c.Bases = append(c.Bases, b)
		}
		if err := c.verify(rank); err != nil {
			return c, a.p.errf(f.val.off, "%v", err)
		}
		return c, nil
	}
	ctas, err := a.ints("CTAsPerCGA")
	if err != nil {
		return CGALayout{}, err
	}
	split, err := a.ints("CTASplitNum")
	if err != nil {
		return CGALayout{}, err
	}
	order, err := a.ints("CTAOrder")
	if err != nil {
		return CGALayout{}, err
	}
	if ctas == nil && split == nil && order == nil {
		return CGALayout{}, nil
	}
	if ctas == nil {
		ctas = slices.Repeat([]int{1}, rank)
	}
	if split == nil {
		split = ctas
	}
	if order == nil {
		for d := rank - 1; d >= 0; d-- {
			order = append(order, d)
		}
	}
	key := "CTAOrder"
	if a.get(key) == nil {
		key = "CTAsPerCGA"
	}
	if len(order) != rank || len(ctas) != rank || len(split) != rank {
		return CGALayout{}, ferrf(key, "CTAsPerCGA, CTASplitNum and CTAOrder must have %d entries (the rank)", rank)
	}
	c, err := CGAFromSplit(ctas, split, order)
	return c, ferr(key, err)
}

var cgaKeys = []string{"CGALayout", "CTAsPerCGA", "CTASplitNum", "CTAOrder"}

type builder func(a *args) (Encoding, error)

var builders map[string]builder

func init() {
	builders = map[string]builder{
		"ttg.blocked":                 buildBlocked,
		"ttg.linear":                  buildLinear,
		"ttg.slice":                   buildSlice,
		"ttg.nvidia_mma":              buildNvidiaMma,
		"ttg.dot_op":                  buildDotOp,
		"ttg.amd_mfma":                buildMfma,
		"ttg.amd_wmma":                buildWmma,
		"ttg.swizzled_shared":         buildSwizzled,
		"ttg.amd_rotating_shared":     buildSwizzled,
		"ttg.nvmma_shared":            buildNVMMAShared,
		"ttg.padded_shared":           buildPadded,
		"ttg.shared_linear":           buildSharedLinear,
		"ttg.shared_memory":           nil,
		"ttng.tensor_memory_encoding": buildTensorMemory,
		"ttng.tensor_memory":          nil,
	}
}

// all collects the first error of a list of field reads.
func all(errs ...error) error { return firstErr(errs...) }

func buildBlocked(a *args) (Encoding, error) {
	if err := all(a.strict(append([]string{"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"}, cgaKeys...)...),
		a.require("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order")); err != nil {
		return nil, err
	}
	b := &Blocked{}
	var errs [4]error
	b.SizePerThread, errs[0] = a.ints("sizePerThread")
	b.ThreadsPerWarp, errs[1] = a.ints("threadsPerWarp")
	b.WarpsPerCTA, errs[2] = a.ints("warpsPerCTA")
	b.Order, errs[3] = a.ints("order")
	if err := all(errs[:]...); err != nil {
		return nil, err
	}
	var err error
	if b.CGA, err = a.cga(len(b.SizePerThread)); err != nil {
		return nil, err
	}
	return b, b.check()
}

func buildLinear(a *args) (Encoding, error) {
	l := &LinearEncoding{}
	dst := []*[][]int{&l.Register, &l.Lane, &l.Warp, &l.Block}
	for i, k := range []string{"register", "lane", "warp", "block"} {
		if a.get(k) == nil {
			return nil, a.p.errf(a.start, "Expected basis of '%s' not found", k)
		}
		var err error
		if *dst[i], err = a.bases(k); err != nil {
			return nil, err
		}
		if *dst[i] == nil {
			*dst[i] = [][]int{}
		}
	}
	if err := a.strict("register", "lane", "warp", "block"); err != nil {
		return nil, err
	}
	return l, l.check()
}

func distributedParent(a *args) (Distributed, error) {
	e, f, err := a.encoding("parent")
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, a.p.errf(a.start, "missing key 'parent'")
	}
	d, ok := e.(Distributed)
	if !ok {
		return nil, a.p.errf(f.val.off, "expected a distributed encoding trait, got #%s", e.Name())
	}
	return d, nil
}

func buildSlice(a *args) (Encoding, error) {
	if err := all(a.strict("dim", "parent"), a.require("dim", "parent")); err != nil {
		return nil, err
	}
	s := &Slice{}
	if err := a.uint("dim", &s.Dim); err != nil {
		return nil, err
	}
	var err error
	if s.Parent, err = distributedParent(a); err != nil {
		return nil, err
	}
	return s, s.check()
}

func buildDotOp(a *args) (Encoding, error) {
	if err := all(a.strict("opIdx", "parent", "kWidth"), a.require("opIdx", "parent")); err != nil {
		return nil, err
	}
	d := &DotOperand{}
	if err := all(a.uint("opIdx", &d.OpIdx), a.uint("kWidth", &d.KWidth)); err != nil {
		return nil, err
	}
	var err error
	if d.Parent, err = distributedParent(a); err != nil {
		return nil, err
	}
	return d, d.check()
}

// The nvidia_mma, amd_mfma and amd_wmma builders ignore keys they do not
// know, as Triton's parsers for them do; the others reject them.

func buildNvidiaMma(a *args) (Encoding, error) {
	if err := a.require("versionMajor", "warpsPerCTA", "instrShape"); err != nil {
		return nil, err
	}
	m := &NvidiaMma{}
	var e1, e2 error
	m.WarpsPerCTA, e1 = a.ints("warpsPerCTA")
	m.InstrShape, e2 = a.ints("instrShape")
	if err := all(a.uint("versionMajor", &m.VersionMajor), a.uint("versionMinor", &m.VersionMinor), e1, e2); err != nil {
		return nil, err
	}
	var err error
	if m.CGA, err = a.cga(len(m.WarpsPerCTA)); err != nil {
		return nil, err
	}
	return m, m.check()
}

func buildMfma(a *args) (Encoding, error) {
	m := &AMDMfma{ElementBitWidth: 32}
	vkey := "version"
	if a.get(vkey) == nil && a.get("versionMajor") != nil {
		vkey = "versionMajor" // the pre-3.4 spelling
	}
	if err := a.require(vkey, "warpsPerCTA", "instrShape"); err != nil {
		return nil, err
	}
	var e [3]error
	m.WarpsPerCTA, e[0] = a.ints("warpsPerCTA")
	m.InstrShape, e[1] = a.ints("instrShape")
	m.TilesPerWarp, e[2] = a.ints("tilesPerWarp")
	if err := all(a.uint(vkey, &m.Version), a.boolean("isTransposed", &m.IsTransposed),
		a.uint("elementBitWidth", &m.ElementBitWidth), e[0], e[1], e[2]); err != nil {
		return nil, err
	}
	var err error
	if m.CGA, err = a.cga(len(m.WarpsPerCTA)); err != nil {
		return nil, err
	}
	return m, m.check()
}

func buildWmma(a *args) (Encoding, error) {
	if err := a.require("version", "warpsPerCTA"); err != nil {
		return nil, err
	}
	w := &AMDWmma{InstrShape: slices.Clone(defaultWmmaInstr)}
	var e [3]error
	w.WarpsPerCTA, e[0] = a.ints("warpsPerCTA")
	w.TilesPerWarp, e[1] = a.ints("tilesPerWarp")
	if a.get("instrShape") != nil {
		w.InstrShape, e[2] = a.ints("instrShape")
	}
	if err := all(a.uint("version", &w.Version), a.boolean("isTranspose", &w.IsTransposed), e[0], e[1], e[2]); err != nil {
		return nil, err
	}
	var err error
	if w.CGA, err = a.cga(len(w.WarpsPerCTA)); err != nil {
		return nil, err
	}
	return w, w.check()
}

func buildSwizzled(a *args) (Encoding, error) {
	if err := all(a.strict(append([]string{"vec", "perPhase", "maxPhase", "order"}, cgaKeys...)...),
		a.require("vec", "perPhase", "maxPhase", "order")); err != nil {
		return nil, err
	}
	var vec, perPhase, maxPhase int
	order, err := a.ints("order")
	if err := all(err, a.uint("vec", &vec), a.uint("perPhase", &perPhase), a.uint("maxPhase", &maxPhase)); err != nil {
		return nil, err
	}
	cga, err := a.cga(len(order))
	if err != nil {
		return nil, err
	}
	if err := checkSwizzled(vec, perPhase, maxPhase, order, cga); err != nil {
		return nil, err
	}
	if a.name == "ttg.amd_rotating_shared" {
		return &AMDRotatingShared{vec, perPhase, maxPhase, order, cga}, nil
	}
	return &SwizzledShared{vec, perPhase, maxPhase, order, cga}, nil
}

func buildNVMMAShared(a *args) (Encoding, error) {
	if err := all(a.strict(append([]string{"swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded", "rank"}, cgaKeys...)...),
		a.require("swizzlingByteWidth", "elementBitWidth")); err != nil {
		return nil, err
	}
	s := &NVMMAShared{LayoutRank: 2}
	if err := all(a.uint("swizzlingByteWidth", &s.SwizzlingByteWidth), a.boolean("transposed", &s.Transposed),
		a.uint("elementBitWidth", &s.ElementBitWidth), a.boolean("fp4Padded", &s.FP4Padded), a.uint("rank", &s.LayoutRank)); err != nil {
		return nil, err
	}
	var err error
	if s.CGA, err = a.cga(s.LayoutRank); err != nil {
		return nil, err
	}
	return s, s.check()
}

func buildPadded(a *args) (Encoding, error) {
	p := &PaddedShared{Intervals: a.intervals, Paddings: a.paddings}
	if a.get("offset") != nil || a.get("block") != nil {
		if err := a.strict("offset", "block"); err != nil {
			return nil, err
		}
		for _, k := range []string{"offset", "block"} {
			if a.get(k) == nil {
				return nil, a.p.errf(a.start, "Expected basis of '%s' not found", k)
			}
		}
		var e1, e2 error
		p.Offset, e1 = a.bases("offset")
		p.Block, e2 = a.bases("block")
		if err := all(e1, e2); err != nil {
			return nil, err
		}
		if err := checkLinearBases([]string{"offset", "block"}, true, [][][]int{p.Offset, p.Block}); err != nil {
			return nil, err
		}
		l := fromBases([]lin{{"offset", p.Offset}, {"block", p.Block}}, standardDims(len(firstBasis(p.Offset, p.Block))))
		for _, o := range l.outs {
			p.Shape = append(p.Shape, o.size)
		}
	} else {
		if err := a.strict("order", "shape"); err != nil {
			return nil, err
		}
		order, e1 := a.ints("order")
		shape, e2 := a.ints("shape")
		if err := all(e1, e2); err != nil {
			return nil, err
		}
		if len(order) != len(shape) || len(order) == 0 {
			return nil, a.p.errf(a.start, "Mismatch of shape and order ranks in padded layout")
		}
		if err := firstErr(ferr("order", checkPermutation("order", order)), ferr("shape", checkPow2s("shape", shape))); err != nil {
			return nil, err
		}
		p.Shape = shape
		p.Offset = identityND("offset", shape, order).transposeOuts(standardDims(len(shape))).bases("offset")
		if p.Offset == nil {
			p.Offset = [][]int{}
		}
	}
	if p.Block == nil {
		p.Block = [][]int{}
	}
	return p, p.check()
}

func firstBasis(bs ...[][]int) []int {
	for _, b := range bs {
		if len(b) > 0 {
			return b[0]
		}
	}
	return nil
}

func buildSharedLinear(a *args) (Encoding, error) {
	if err := a.strict("offset", "block", "alignment"); err != nil {
		return nil, err
	}
	if a.get("offset") == nil {
		return nil, a.p.errf(a.start, "Expected basis of 'offset' not found")
	}
	s := &SharedLinear{}
	var e1, e2 error
	s.Offset, e1 = a.bases("offset")
	s.Block, e2 = a.bases("block")
	f := a.get("alignment")
	n, e3 := a.uintOf(f.val, "alignment")
	s.Alignment = n
	if err := all(e1, e2, e3); err != nil {
		return nil, err
	}
	if s.Block == nil {
		s.Block = [][]int{}
	}
	return s, s.check()
}

func buildTensorMemory(a *args) (Encoding, error) {
	if err := all(a.strict("blockM", "blockN", "colStride", "CTASplitM", "CTASplitN", "twoCTAs"),
		a.require("blockM", "blockN")); err != nil {
		return nil, err
	}
	m := &TensorMemory{ColStride: 1}
	if err := all(a.uint("blockM", &m.BlockM), a.uint("blockN", &m.BlockN), a.uint("colStride", &m.ColStride),
		a.uint("CTASplitM", &m.CTASplitM), a.uint("CTASplitN", &m.CTASplitN), a.boolean("twoCTAs", &m.TwoCTAs)); err != nil {
		return nil, err
	}
	return m, m.check()
}
