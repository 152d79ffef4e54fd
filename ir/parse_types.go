package ir

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/attr"
)

// scanBalanced returns the offset just past the '>' that closes the '<'
// at src[start], and whether the span is on one line. Brackets of all
// kinds nest; string literals are skipped. It returns -1 when unbalanced.
func scanBalanced(src string, start int) (end int, oneLine bool) {
	depth := 0
	oneLine = true
	for i := start; i < len(src); i++ {
		switch c := src[i]; c {
		case '<', '(', '[', '{':
			depth++
		case '>':
			if i > start && src[i-1] == '-' {
				continue // "->" in a function type
			}
			depth--
			if depth == 0 {
				return i + 1, oneLine
			}
		case ')', ']', '}':
			depth--
			if depth <= 0 {
				return -1, oneLine
			}
		case '\n':
			oneLine = false
		case '"':
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				} else if src[i] == '\n' {
					return -1, false
				}
			}
		}
	}
	return -1, oneLine
}

// cachedSpan looks up in cache the type or attribute text that starts at
// the current token and whose '<' is at lx.off; on a hit it skips the text.
// It also returns the text, the cache key, or "" when there is no '<' there
// or the text is not balanced on one line (such text is not cached).
func cachedSpan[T any](p *OpParser, cache map[string]T) (v T, key string, hit bool) {
	if p.lx.off >= len(p.lx.src) || p.lx.src[p.lx.off] != '<' {
		return v, "", false
	}
	end, oneLine := scanBalanced(p.lx.src, p.lx.off)
	if end < 0 || !oneLine {
		return v, "", false
	}
	key = p.lx.src[p.tok.off:end]
	if v, hit = cache[key]; hit {
		p.lx.off = end
		p.advance()
	}
	return v, key, hit
}

// ParseType parses a type.
func (p *OpParser) ParseType() (Type, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	switch p.tok.kind {
	case tBareID:
		return p.parseBuiltinType()
	case tExcl:
		return p.parseDialectType()
	case tPunct:
		if p.tok.text == "(" {
			return p.parseFunctionType()
		}
	}
	return nil, p.errorHere("expected non-function type")
}

// ParseTypeList parses one or more comma-separated types.
func (p *OpParser) ParseTypeList() ([]Type, error) {
	var ts []Type
	for {
		t, err := p.ParseType()
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
		if !p.ParseOptional(",") {
			return ts, nil
		}
	}
}

// ParseColonType parses `: type`.
func (p *OpParser) ParseColonType() (Type, error) {
	if err := p.Expect(":"); err != nil {
		return nil, err
	}
	return p.ParseType()
}

// ParseArrowTypeList parses `-> T` or `-> (T, ...)` (the arrow included).
func (p *OpParser) ParseArrowTypeList() ([]Type, error) {
	if err := p.Expect("->"); err != nil {
		return nil, err
	}
	return p.parseResultTypes()
}

// parseResultTypes parses `T` or `(T, ...)` or `()`.
func (p *OpParser) parseResultTypes() ([]Type, error) {
	if p.ParseOptional("(") {
		if p.ParseOptional(")") {
			return nil, nil
		}
		ts, err := p.ParseTypeList()
		if err != nil {
			return nil, err
		}
		return ts, p.Expect(")")
	}
	t, err := p.ParseType()
	if err != nil {
		return nil, err
	}
	return []Type{t}, nil
}

// funcTypeKey identifies a small function type by its (interned) parts.
type funcTypeKey struct {
	nin, nout int
	ts        [8]Type
}

func (p *OpParser) parseFunctionType() (Type, error) {
	p.advance() // (
	// The types go on the parser's type stack (nested function types push
	// above and pop back), which allocates nothing once grown.
	start := len(p.typeStack)
	defer func() { p.typeStack = p.typeStack[:start] }()
	if err := p.pushTypesUntil(")"); err != nil {
		return nil, err
	}
	nin := len(p.typeStack) - start
	if err := p.Expect("->"); err != nil {
		return nil, err
	}
	if p.ParseOptional("(") {
		if err := p.pushTypesUntil(")"); err != nil {
			return nil, err
		}
	} else {
		t, err := p.ParseType()
		if err != nil {
			return nil, err
		}
		p.typeStack = append(p.typeStack, t)
	}
	ts := p.typeStack[start:]
	mk := func() *FunctionType {
		ft := &FunctionType{}
		if nin > 0 {
			ft.Inputs = append([]Type(nil), ts[:nin]...)
		}
		if len(ts) > nin {
			ft.Results = append([]Type(nil), ts[nin:]...)
		}
		return ft
	}
	var key funcTypeKey
	if len(ts) > len(key.ts) {
		return mk(), nil
	}
	key.nin, key.nout = nin, len(ts)-nin
	copy(key.ts[:], ts)
	if ft, ok := p.funcTypes[key]; ok {
		return ft, nil
	}
	ft := mk()
	p.funcTypes[key] = ft
	return ft, nil
}

// pushTypesUntil pushes the types of a possibly empty list `T, ...` ended
// by close (consumed) on the parser's type stack.
func (p *OpParser) pushTypesUntil(close string) error {
	return p.parseListUntil(close, func() error {
		t, err := p.ParseType()
		if err != nil {
			return err
		}
		p.typeStack = append(p.typeStack, t)
		return nil
	})
}

// parseListUntil parses a possibly empty comma-separated list ended by
// close (consumed), calling elem for each element.
func (p *OpParser) parseListUntil(close string, elem func() error) error {
	if p.ParseOptional(close) {
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		if !p.ParseOptional(",") {
			return p.Expect(close)
		}
	}
}

func (p *OpParser) parseBuiltinType() (Type, error) {
	s := p.tok.text
	switch s {
	case "index":
		p.advance()
		return Index, nil
	case "none":
		p.advance()
		return None, nil
	case "tensor":
		t, key, hit := cachedSpan(p, p.typeCache)
		if hit {
			return t, nil
		}
		p.advance()
		tt, err := p.parseTensorBody()
		if err != nil {
			return nil, err
		}
		if key != "" {
			p.typeCache[key] = tt
		}
		return tt, nil
	}
	if t := FloatTypeOf(s); t != nil {
		p.advance()
		return t, nil
	}
	sign, digits := Signless, ""
	switch {
	case strings.HasPrefix(s, "i"):
		digits = s[1:]
	case strings.HasPrefix(s, "si"):
		sign, digits = Signed, s[2:]
	case strings.HasPrefix(s, "ui"):
		sign, digits = Unsigned, s[2:]
	}
	if digits != "" && digits[0] != '0' {
		if w, err := strconv.Atoi(digits); err == nil {
			if w > 1<<24 {
				return nil, p.errorHere("integer bitwidth is limited to 16777215 bits")
			}
			p.advance()
			if t, ok := intTypes[IntegerType{w, sign}]; ok {
				return t, nil
			}
			return &IntegerType{Width: w, Sign: sign}, nil
		}
	}
	return nil, p.errorHere("expected non-function type")
}

// scanDims reads a dimension list `64x64x` starting at byte offset off
// (trailing 'x' required after each dimension when trailingX) and returns
// the dims and the offset after them.
func (p *OpParser) scanDims(off int, trailingX bool) ([]int64, int, error) {
	src := p.lx.src
	var dims []int64
	for off < len(src) {
		c := src[off]
		var d int64
		start := off
		switch {
		case c == '?':
			d = Dynamic
			off++
		case isDigit(c):
			for off < len(src) && isDigit(src[off]) {
				off++
			}
			v, err := strconv.ParseInt(string(src[start:off]), 10, 64)
			if err != nil {
				return nil, off, p.Errorf(p.lx.posOf(p.lx.line, start-p.lx.lineStart+1), "invalid dimension")
			}
			d = v
		default:
			return dims, off, nil
		}
		if off < len(src) && src[off] == 'x' {
			dims = append(dims, d)
			off++
			continue
		}
		if trailingX {
			// Not a dimension after all (e.g. an element type); stop.
			return dims, start, nil
		}
		dims = append(dims, d)
		return dims, off, nil
	}
	return dims, off, nil
}

// parseTensorBody parses `<SHAPExELEM[, ENC]>` after `tensor`.
func (p *OpParser) parseTensorBody() (*RankedTensorType, error) {
	if !p.isPunct("<") {
		return nil, p.errorHere("expected '<' in tensor type")
	}
	dims, off, err := p.scanDims(p.lx.off, true)
	if err != nil {
		return nil, err
	}
	if dims == nil {
		dims = []int64{}
	}
	p.lx.off = off
	p.advance()
	elem, err := p.ParseType()
	if err != nil {
		return nil, err
	}
	t := &RankedTensorType{Shape: dims, Elem: elem}
	if p.ParseOptional(",") {
		if t.Encoding, err = p.ParseAttr(); err != nil {
			return nil, err
		}
	}
	return t, p.Expect(">")
}

func (p *OpParser) parseDialectType() (Type, error) {
	name, pos := p.tok.text, p.Pos()
	if !strings.Contains(name, ".") {
		t, ok := p.typeAliases[name]
		if !ok {
			return nil, p.aliasUseError(pos, "!"+name)
		}
		p.advance()
		return t, nil
	}
	switch name {
	case "ttg.async.token":
		p.advance()
		return AsyncToken, nil
	case "tt.ptr", "ttg.memdesc", "tt.memdesc", "tt.tensordesc":
	default:
		return p.parseOpaqueType()
	}
	t, key, hit := cachedSpan(p, p.typeCache)
	if hit {
		return t, nil
	}
	p.advance()
	if !p.isPunct("<") {
		return nil, p.errorHere("expected '<'")
	}
	var res Type
	var err error
	switch name {
	case "tt.ptr":
		p.advance()
		pt := &PointerType{AddrSpace: 1}
		if pt.Pointee, err = p.ParseType(); err != nil {
			return nil, err
		}
		if p.ParseOptional(",") {
			as, err := p.ParseInt()
			if err != nil {
				return nil, err
			}
			pt.AddrSpace = int(as)
		}
		res, err = pt, p.Expect(">")
	case "tt.tensordesc":
		p.advance()
		bt, err2 := p.ParseType()
		if err2 != nil {
			return nil, err2
		}
		rt, ok := bt.(*RankedTensorType)
		if !ok {
			return nil, p.Errorf(pos, "expected tensor type in tensor descriptor")
		}
		res, err = &TensorDescType{Block: rt}, p.Expect(">")
	default:
		res, err = p.parseMemDescBody()
	}
	if err != nil {
		return nil, err
	}
	if key != "" {
		p.typeCache[key] = res
	}
	return res, nil
}

// ParseMemDescBody parses `<SHAPExELEM, ENC, SPACE[, mutable][, ALLOC]>`
// (the current token is '<'); ttg.async_copy_global_to_local prints its
// result type this way, without `!ttg.memdesc`.
func (p *OpParser) ParseMemDescBody() (*MemDescType, error) {
	return p.parseMemDescBody()
}

func (p *OpParser) parseMemDescBody() (*MemDescType, error) {
	if !p.isPunct("<") {
		return nil, p.errorHere("expected '<'")
	}
	start := p.Pos()
	dims, off, err := p.scanDims(p.lx.off, true)
	if err != nil {
		return nil, err
	}
	p.lx.off = off
	p.advance()
	if len(dims) == 0 {
		return nil, p.errorHere("rank 0 memdesc is not allowed")
	}
	t := &MemDescType{Shape: dims}
	if t.Elem, err = p.ParseType(); err != nil {
		return nil, err
	}
	// The encoding and the memory space are required (MemDescType::parse).
	if err := p.Expect(","); err != nil {
		return nil, err
	}
	if t.Encoding, err = p.ParseAttr(); err != nil {
		return nil, err
	}
	if err := p.Expect(","); err != nil {
		return nil, err
	}
	if t.MemorySpace, err = p.ParseAttr(); err != nil {
		return nil, err
	}
	for p.ParseOptional(",") {
		switch {
		case p.PeekKeyword() == "mutable":
			p.advance()
			t.Mutable = true
		case p.tok.kind == tInt:
			alloc, off, err := p.scanDims(p.tok.off, false)
			if err != nil {
				return nil, err
			}
			p.lx.off = off
			p.advance()
			t.AllocShape = alloc
		default:
			return nil, p.errorHere("unexpected field in memdesc type")
		}
	}
	if err := checkPaddedShape(t); err != nil {
		return nil, p.Errorf(start, "%v", err)
	}
	return t, p.Expect(">")
}

func (p *OpParser) parseOpaqueType() (Type, error) {
	text, refs, err := p.parseOpaqueText()
	if err != nil {
		return nil, err
	}
	return &OpaqueType{Text: text, Refs: refs}, nil
}

// parseOpaqueText reads a dialect attribute or type (`ttg.blocked<...>`),
// current token being its name, and returns the text with alias
// references replaced by NUL bytes, plus the referenced attributes.
func (p *OpParser) parseOpaqueText() (string, []Attribute, error) {
	name := p.tok.text
	src := p.lx.src
	if p.lx.off >= len(src) || src[p.lx.off] != '<' {
		p.advance()
		return name, nil, nil
	}
	start := p.lx.off
	end, oneLine := scanBalanced(src, start)
	if end < 0 {
		return "", nil, p.errorHere("unbalanced '<' in dialect attribute or type")
	}
	if !oneLine {
		return "", nil, p.errorHere("dialect attribute or type spans several lines")
	}
	var sb strings.Builder
	sb.WriteString(name)
	var refs []Attribute
	for i := start; i < end; i++ {
		c := src[i]
		if c == '"' {
			j := i + 1
			for j < end && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			sb.WriteString(src[i : j+1])
			i = j
			continue
		}
		if c == 0 {
			return "", nil, p.Errorf(p.lx.posOf(p.tok.line, i-p.lx.lineStart+1), "NUL byte in dialect attribute")
		}
		if c != '#' {
			sb.WriteByte(c)
			continue
		}
		j := i + 1
		for j < end && isIDChar(src[j]) {
			j++
		}
		id := string(src[i+1 : j])
		if id == "" || strings.Contains(id, ".") {
			sb.WriteString(src[i:j])
			i = j - 1
			continue
		}
		a, ok := p.attrAliases[id]
		if !ok {
			return "", nil, p.aliasUseError(p.lx.posOf(p.tok.line, i-p.lx.lineStart+1), id)
		}
		refs = append(refs, a)
		sb.WriteByte(0)
		i = j - 1
	}
	p.lx.off = end
	p.advance()
	return sb.String(), refs, nil
}

// ---- attributes ----

// ParseAttr parses an attribute value.
func (p *OpParser) ParseAttr() (Attribute, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	switch p.tok.kind {
	case tInt, tFloat:
		return p.parseNumberAttr(false)
	case tPunct:
		switch p.tok.text {
		case "-":
			p.advance()
			if p.tok.kind != tInt && p.tok.kind != tFloat {
				return nil, p.errorHere("expected integer or float literal after '-'")
			}
			return p.parseNumberAttr(true)
		case "[":
			p.advance()
			arr := &ArrayAttr{}
			err := p.parseListUntil("]", func() error {
				a, err := p.ParseAttr()
				if err != nil {
					return err
				}
				arr.Elems = append(arr.Elems, a)
				return nil
			})
			if err != nil {
				return nil, err
			}
			return arr, nil
		case "{":
			entries, err := p.parseAttrDictEntries()
			if err != nil {
				return nil, err
			}
			return &DictionaryAttr{Entries: entries}, nil
		case "(":
			t, err := p.ParseType()
			if err != nil {
				return nil, err
			}
			return &TypeAttr{t}, nil
		}
	case tString:
		s := p.tok.text
		p.advance()
		return &StringAttr{s}, nil
	case tAt:
		sym := &SymbolRefAttr{Root: p.tok.text}
		p.advance()
		for p.isPunct(":") && p.lx.off < len(p.lx.src) && p.lx.src[p.lx.off] == ':' {
			p.advance()
			p.advance()
			if p.tok.kind != tAt {
				return nil, p.errorHere("expected nested symbol reference identifier")
			}
			sym.Nested = append(sym.Nested, p.tok.text)
			p.advance()
		}
		return sym, nil
	case tHash:
		return p.parseHashAttr()
	case tExcl:
		t, err := p.ParseType()
		if err != nil {
			return nil, err
		}
		return &TypeAttr{t}, nil
	case tBareID:
		switch p.tok.text {
		case "true":
			p.advance()
			return True, nil
		case "false":
			p.advance()
			return False, nil
		case "unit":
			p.advance()
			return Unit, nil
		case "dense":
			return p.parseDense()
		case "array":
			return p.parseDenseArray()
		}
		// A type attribute. As MLIR, a word that does not begin a type is
		// "expected attribute value"; a type that fails keeps its own error.
		n, pos := len(p.diag), p.Pos()
		t, err := p.ParseType()
		if err != nil {
			if !errors.Is(err, errTooMany) && len(p.diag) == n+1 && p.diag[n].Pos == pos {
				p.diag = p.diag[:n]
				return nil, p.Errorf(pos, "expected attribute value")
			}
			return nil, err
		}
		return &TypeAttr{t}, nil
	}
	return nil, p.errorHere("expected attribute value")
}

func (p *OpParser) parseHashAttr() (Attribute, error) {
	name, pos := p.tok.text, p.Pos()
	if !strings.Contains(name, ".") {
		a, ok := p.attrAliases[name]
		if !ok {
			return nil, p.aliasUseError(pos, name)
		}
		p.advance()
		return a, nil
	}
	if attr.Known(name) {
		return p.parseEncoding()
	}
	key := name // a dialect attribute without '<' is keyed by its name
	if p.lx.off < len(p.lx.src) && p.lx.src[p.lx.off] == '<' {
		a, k, hit := cachedSpan(p, p.attrCache)
		if hit {
			return a, nil
		}
		key = k
	} else if a, ok := p.attrCache[key]; ok {
		p.advance()
		return a, nil
	}
	text, refs, err := p.parseOpaqueText()
	if err != nil {
		return nil, err
	}
	a := &OpaqueAttr{Text: text, Refs: refs}
	if key != "" {
		p.attrCache[key] = a
	}
	return a, nil
}

// parseNumberAttr parses a numeric literal (the '-' already consumed) and
// an optional `: type`.
func (p *OpParser) parseNumberAttr(neg bool) (Attribute, error) {
	lit := p.tok
	p.advance()
	var t Type
	if p.isPunct(":") {
		p.advance()
		var err error
		if t, err = p.ParseType(); err != nil {
			return nil, err
		}
	}
	return p.numberAttr(lit, neg, t)
}

func (p *OpParser) numberAttr(lit token, neg bool, t Type) (Attribute, error) {
	if t == nil && lit.kind == tFloat {
		t = F64
	}
	ft, isFloat := t.(*FloatType)
	if lit.kind == tFloat || isFloat {
		if !isFloat {
			return nil, p.Errorf(p.tokPos(lit), "floating point value not valid for specified type")
		}
		if lit.kind == tInt && strings.HasPrefix(lit.text, "0x") {
			bits, err := strconv.ParseUint(lit.text[2:], 16, 64)
			if err != nil {
				return nil, p.Errorf(p.tokPos(lit), "hexadecimal float literal too large")
			}
			return &FloatAttr{Value: FloatFromBits(bits, ft), Type: t}, nil
		}
		v, err := parseFloatLit(lit.text, neg)
		if err != nil {
			return nil, p.Errorf(p.tokPos(lit), "invalid floating point literal")
		}
		return &FloatAttr{Value: v, Type: t}, nil
	}
	v, err := parseIntLit(lit.text, neg)
	if err != nil {
		return nil, p.Errorf(p.tokPos(lit), "integer constant out of range for attribute")
	}
	if t == nil {
		t = I64
	}
	switch t.(type) {
	case *IntegerType, *IndexType:
	default:
		return nil, p.Errorf(p.tokPos(lit), "integer literal not valid for specified type")
	}
	k := intKey{v, t}
	if a, ok := p.ints[k]; ok {
		return a, nil
	}
	a := &IntegerAttr{Value: v, Type: t}
	p.ints[k] = a
	return a, nil
}

// intKey identifies an integer attribute (attributes are immutable, so
// equal ones are shared).
type intKey struct {
	v int64
	t Type
}

// parseAttrDictEntries parses `{name = value, name, ...}`.
func (p *OpParser) parseAttrDictEntries() ([]NamedAttr, error) {
	if err := p.Expect("{"); err != nil {
		return nil, err
	}
	var out []NamedAttr
	err := p.parseListUntil("}", func() error {
		var name string
		switch p.tok.kind {
		case tBareID, tString:
			name = p.tok.text
		default:
			return p.errorHere("expected attribute name")
		}
		namePos := p.Pos()
		p.advance()
		for _, e := range out {
			if e.Name == name {
				return p.Errorf(namePos, "duplicate key '%s' in dictionary attribute", name)
			}
		}
		var v Attribute = Unit
		if p.ParseOptional("=") {
			var err error
			if v, err = p.ParseAttr(); err != nil {
				return err
			}
		}
		out = append(out, NamedAttr{name, v})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

type denseLit struct {
	tok token
	neg bool
}

func (p *OpParser) parseDense() (Attribute, error) {
	p.advance() // dense
	if err := p.Expect("<"); err != nil {
		return nil, err
	}
	var lits []denseLit
	hex := ""
	var rec func() error
	rec = func() error {
		if err := p.enter(); err != nil {
			return err
		}
		defer p.leave()
		if p.ParseOptional("[") {
			return p.parseListUntil("]", rec)
		}
		neg := p.ParseOptional("-")
		switch p.tok.kind {
		case tInt, tFloat:
		case tBareID:
			if p.tok.text != "true" && p.tok.text != "false" {
				return p.errorHere("expected element literal of primitive type")
			}
		default:
			return p.errorHere("expected element literal of primitive type")
		}
		lits = append(lits, denseLit{p.tok, neg})
		p.advance()
		return nil
	}
	if p.tok.kind == tString && strings.HasPrefix(p.tok.text, "0x") {
		hex = strconv.Quote(p.tok.text)
		p.advance()
	} else if !p.isPunct(">") {
		if err := rec(); err != nil {
			return nil, err
		}
	}
	if err := p.Expect(">"); err != nil {
		return nil, err
	}
	if err := p.Expect(":"); err != nil {
		return nil, err
	}
	tpos := p.Pos()
	t, err := p.ParseType()
	if err != nil {
		return nil, err
	}
	shape, ok := ShapeOf(t)
	if !ok {
		return nil, p.Errorf(tpos, "elements literal must be a shaped type")
	}
	d := &DenseElementsAttr{Type: t, Hex: hex}
	elem := ElementType(t)
	if len(lits) == 1 && !lits[0].neg && lits[0].tok.kind == tInt && strings.HasPrefix(lits[0].tok.text, "0x") {
		if _, isFloat := elem.(*FloatType); isFloat {
			d.Hex = lits[0].tok.text
			return d, nil
		}
	}
	n := int64(1)
	for _, s := range shape {
		n *= s
	}
	if len(lits) != 1 && int64(len(lits)) != n && hex == "" {
		return nil, p.Errorf(tpos, "inferred shape of elements literal ([%d]) does not match type ([%d])", len(lits), n)
	}
	for _, l := range lits {
		var a Attribute
		if l.tok.kind == tBareID {
			v := int64(0)
			if l.tok.text == "true" {
				v = 1
			}
			if it, ok := elem.(*IntegerType); !ok || it.Width != 1 {
				return nil, p.Errorf(p.tokPos(l.tok), "expected i1 type for 'true' or 'false' values")
			}
			a = &IntegerAttr{Value: v, Type: elem}
		} else if a, err = p.numberAttr(l.tok, l.neg, elem); err != nil {
			return nil, err
		}
		d.Elems = append(d.Elems, a)
	}
	return d, nil
}

func (p *OpParser) parseDenseArray() (Attribute, error) {
	p.advance() // array
	if err := p.Expect("<"); err != nil {
		return nil, err
	}
	t, err := p.ParseType()
	if err != nil {
		return nil, err
	}
	d := &DenseArrayAttr{Elem: t}
	_, isFloat := t.(*FloatType)
	if _, isInt := t.(*IntegerType); !isInt && !isFloat {
		return nil, p.errorHere("expected integer or float type in dense array")
	}
	if p.ParseOptional(":") {
		for {
			neg := p.ParseOptional("-")
			lit := p.tok
			switch {
			case lit.kind == tBareID && (lit.text == "true" || lit.text == "false"):
				v := int64(0)
				if lit.text == "true" {
					v = 1
				}
				d.Ints = append(d.Ints, v)
			case lit.kind == tInt || lit.kind == tFloat:
				a, err := p.numberAttr(lit, neg, t)
				if err != nil {
					return nil, err
				}
				switch x := a.(type) {
				case *IntegerAttr:
					d.Ints = append(d.Ints, x.Value)
				case *FloatAttr:
					d.Floats = append(d.Floats, x.Value)
				}
			default:
				return nil, p.errorHere("expected integer or float literal in dense array")
			}
			p.advance()
			if !p.ParseOptional(",") {
				break
			}
		}
	}
	return d, p.Expect(">")
}

// checkPaddedShape is MemDescType::verify for a #ttg.padded_shared with a
// linear component: its rank is the allocation shape's or one less (a
// buffer index in front), and the allocation's trailing dims are the
// component's out-dim sizes (a subview's own shape may be smaller).
func checkPaddedShape(t *MemDescType) error {
	ea, ok := t.Encoding.(*EncodingAttr)
	if !ok {
		return nil
	}
	ps, ok := ea.Enc.(*attr.PaddedShared)
	if !ok || ps.Offset == nil {
		return nil
	}
	ll, err := ps.LinearComponent()
	if err != nil {
		return nil // the encoding's own verifier reports it
	}
	shape := t.Shape
	if t.AllocShape != nil {
		shape = t.AllocShape
	}
	names := ll.OutDimNames()
	rank, n := len(names), len(shape)
	if rank != n && rank != n-1 {
		return fmt.Errorf("rank must be equal to or one less than the shape size. Got %d and %d", rank, n)
	}
	sub := shape[n-rank:]
	for d, name := range names {
		if got := ll.OutDimSize(name); int64(got) != sub[d] {
			return fmt.Errorf("Mismatch in expected shape for dimension %d. Expected: %d, got: %d", d, sub[d], got)
		}
	}
	return nil
}
