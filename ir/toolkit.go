package ir

// The toolkit for ops whose syntax is written in Go (custom directives and
// the few ops MLIR itself hand-writes: tt.func, scf.for, tt.reduce, …).
// Dialect packages build on these; the declarative formats (format.go)
// cover the rest.

// Advance moves past the current token.
func (p *OpParser) Advance() { p.advance() }

// ErrorHere records an error at the current token and returns errSyntax.
func (p *OpParser) ErrorHere(format string, args ...any) error { return p.errorHere(format, args...) }

// IsPunct reports whether punctuation s is the current token.
func (p *OpParser) IsPunct(s string) bool { return p.isPunct(s) }

// PeekString returns the value of a string literal at the current token.
func (p *OpParser) PeekString() (string, bool) {
	if p.tok.kind == tString {
		return p.tok.text, true
	}
	return "", false
}

// PeekSymbol reports whether a symbol `@name` is the current token.
func (p *OpParser) PeekSymbol() bool { return p.tok.kind == tAt }

// PeekInt reports whether an integer literal is the current token.
func (p *OpParser) PeekInt() bool { return p.tok.kind == tInt }

// AtType reports whether a type starts at the current token.
func (p *OpParser) AtType() bool { return p.atType() }

// ResolveSame resolves refs against types, where a single type stands for
// every operand (the custom formats that write one type for all).
func (p *OpParser) ResolveSame(refs []OperandRef, types []Type, pos Pos) ([]*Value, error) {
	return p.resolveAll(refs, types, pos)
}

// ParseResultTypes parses `T`, `(T, ...)` or `()`.
func (p *OpParser) ParseResultTypes() ([]Type, error) { return p.parseResultTypes() }

// ParseOpaqueText reads a dialect attribute body kept as text (see
// OpaqueAttr) and the attributes it refers to.
func (p *OpParser) ParseOpaqueText() (string, []Attribute, error) { return p.parseOpaqueText() }

// ParseAttrDictEntries parses `{name = value, ...}`.
func (p *OpParser) ParseAttrDictEntries() ([]NamedAttr, error) { return p.parseAttrDictEntries() }

// Config returns the printer's configuration.
func (p *OpPrinter) Config() PrintConfig { return p.cfg }

// IntValue writes integer v of type t without its type (`42`, `true`).
func (p *OpPrinter) IntValue(v int64, t Type) { p.buf = appendIntValue(p.buf, v, t) }

// FloatValue writes float v of type t without its type, as MLIR does.
func (p *OpPrinter) FloatValue(v float64, t Type) { p.buf = appendFloatValue(p.buf, v, t) }

// RegionSkipping is Region leaving out op skip (an implicit terminator).
func (p *OpPrinter) RegionSkipping(r *Region, printEntryArgs, printEmptyBlock bool, skip *Operation) {
	p.region(r, printEntryArgs, printEmptyBlock, skip)
}

// Newline starts a new line at the indentation of the op being printed
// (MLIR's OpAsmPrinter::printNewline).
func (p *OpPrinter) Newline() {
	p.buf = append(p.buf, '\n')
	p.writeIndent()
}

// SrcLoc returns the location MLIR's parser gives what it builds at pos
// (file:line:col of the input).
func (p *OpParser) SrcLoc(pos Pos) Location { return p.srcLoc(pos) }
