package ir

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// ParseConfig controls Parse.
type ParseConfig struct {
	// Filename names the input in diagnostics and locations.
	Filename string
	// AllowUnregistered accepts ops that are not registered (in generic
	// form), as mlir-opt's -allow-unregistered-dialect does.
	AllowUnregistered bool
	// StartLine is the line number of src's first line (for
	// -split-input-file chunks); 0 means 1.
	StartLine int
	// MaxNesting bounds the nesting of regions, attributes and types; 0
	// means DefaultMaxNesting. Deeper input is a located error.
	MaxNesting int
	// MaxErrors stops parsing after this many errors; 0 means 20.
	MaxErrors int
	// Registry gives the ops the parser knows; nil means Default().
	Registry *Registry
}

// DefaultMaxNesting is the nesting limit used when ParseConfig.MaxNesting is 0.
const DefaultMaxNesting = 512

// errSyntax is returned by parse functions after they recorded a diagnostic.
var errSyntax = errors.New("syntax error")

// errTooMany stops the parser: MaxErrors diagnostics were recorded, or the
// nesting limit was passed (the ops around would fail the same way, so
// going on would only cascade).
var errTooMany = errors.New("too many errors")

// OpParser is the parser state that custom op parse functions use (see
// OpDef.Parse). Its methods read the token stream, report located errors
// and resolve operands.
type OpParser struct {
	lx   *lexer
	tok  token
	cfg  ParseConfig
	diag Diagnostics

	attrAliases map[string]Attribute
	typeAliases map[string]Type
	locAliases  map[string]*LocAlias
	mod         *Module
	typeCache   map[string]Type
	attrCache   map[string]Attribute
	derived     map[derivedKey]Type
	argPos      map[*Value]Pos // where entry arguments of custom ops were named
	refArena    []OperandRef
	valArena    []*Value
	funcTypes   map[funcTypeKey]*FunctionType
	states      []*OpState
	// fmtFree holds the declarative formats' states for reuse, and
	// typeArena the type lists they hand out.
	fmtFree   []*FormatState
	typeArena []Type
	ints      map[intKey]*IntegerAttr
	// typeStack holds the types of the function types being parsed.
	typeStack []Type
	// knownDialects caches dialectLoaded.
	knownDialects map[string]bool
	// reg gives the registered ops.
	reg *Registry
	// arena holds the parsed ops, their results and operands.
	arena opArena
	// posFile and posIndex cache fileIndex for packPos.
	posFile  string
	posIndex int32

	scope *valueScope
	// freeScopes and freeIsolated hold popped scopes (not isolated and
	// isolated) whose maps are reused.
	freeScopes, freeIsolated []*valueScope
	depth                    int
	// afterModule is set once the top-level module has been parsed.
	afterModule bool
	seq         int
	// eofReported is set once "expected '}' to end region" was reported
	// at the end of the input: the enclosing regions do not repeat it.
	eofReported bool
	// badAliases names the aliases whose definition failed: their uses
	// fail without a diagnostic of their own (no cascade), and silent
	// tells recover that the error being recovered from is such a use.
	badAliases map[string]bool
	silent     bool
}

// valueScope maps SSA names to values inside one region; isolated scopes
// (function bodies) stop lookups and own the pending forward references.
type valueScope struct {
	names    map[string]valueDef
	parent   *valueScope
	isolated bool
	forward  map[string]*forwardDef
	blocks   map[string]*blockDef
}

// valueDef is what an SSA name stands for: one value (a block argument) or
// a group of op results.
type valueDef struct {
	one       *Value
	group     []Value
	line, col int32 // where the name was defined (the file is the parser's)
}

func newDef(one *Value, group []Value, pos Pos) valueDef {
	return valueDef{one: one, group: group, line: int32(pos.Line), col: int32(pos.Col)}
}

func (p *OpParser) defPos(d valueDef) Pos {
	return Pos{File: p.cfg.Filename, Line: int(d.line), Col: int(d.col)}
}

func (d valueDef) count() int {
	if d.group != nil {
		return len(d.group)
	}
	return 1
}

func (d valueDef) at(i int) *Value {
	if d.group != nil {
		return &d.group[i]
	}
	return d.one
}

// forwardDef collects the placeholders of a name used before its definition.
type forwardDef struct {
	vals []*Value
	pos  Pos
}

type blockDef struct {
	block   *Block
	pos     Pos
	defined bool
}

// OperandRef is an SSA use as written: name, result number and position.
type OperandRef struct {
	Name  string
	Index int
	Pos   Pos
}

// Parse reads MLIR text (TTGIR as Triton prints it, or generic form) and
// returns the module and the diagnostics. It reports several errors when
// it can recover; the module is nil when there were errors.
func Parse(src []byte, cfg ParseConfig) (*Module, Diagnostics) {
	// One copy into a string: the module's names slice it, and the
	// caller's bytes are not retained.
	return parse(string(src), cfg)
}

// ParseString is Parse on a string; the module's names slice src (no
// copy).
func ParseString(src string, cfg ParseConfig) (*Module, Diagnostics) {
	return parse(src, cfg)
}

func parse(src string, cfg ParseConfig) (*Module, Diagnostics) {
	if cfg.MaxNesting <= 0 {
		cfg.MaxNesting = DefaultMaxNesting
	}
	if cfg.MaxErrors <= 0 {
		cfg.MaxErrors = 20
	}
	if cfg.Registry == nil {
		cfg.Registry = defaultRegistry
	}
	p := &OpParser{
		reg:         cfg.Registry,
		lx:          newLexer(src, cfg.Filename, cfg.StartLine),
		cfg:         cfg,
		attrAliases: map[string]Attribute{},
		typeAliases: map[string]Type{},
		locAliases:  map[string]*LocAlias{},
		typeCache:   map[string]Type{},
		attrCache:   map[string]Attribute{},
		derived:     map[derivedKey]Type{},
		argPos:      map[*Value]Pos{},
		funcTypes:   map[funcTypeKey]*FunctionType{},
		ints:        map[intKey]*IntegerAttr{},
		mod:         &Module{Registry: cfg.Registry},
	}
	p.advance()
	m := p.parseFile()
	if p.diag.HasErrors() {
		p.diag.Sort()
		return nil, p.diag
	}
	return m, p.diag
}

// readFileString reads a file straight into a string (os.ReadFile and a
// conversion would copy it once more).
func readFileString(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var b strings.Builder
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 && fi.Size() < math.MaxInt32 {
		b.Grow(int(fi.Size()) + 1)
	}
	if _, err := io.Copy(&b, f); err != nil {
		return "", err
	}
	return b.String(), nil
}

// ParseFile reads and parses a file; cfg.Filename defaults to path.
func ParseFile(path string, cfg ParseConfig) (*Module, error) {
	src, err := readFileString(path)
	if err != nil {
		return nil, err
	}
	if cfg.Filename == "" {
		cfg.Filename = path
	}
	m, diags := parse(src, cfg)
	if err := diags.Err(); err != nil {
		return nil, err
	}
	return m, nil
}

// MustParse parses src and panics on error; for tests and examples with
// constant input.
func MustParse(src string) *Module {
	m, d := ParseString(src, ParseConfig{Filename: "<string>"})
	if d.HasErrors() {
		panic(d.Error())
	}
	return m
}

func (p *OpParser) advance() { p.tok = p.lx.next() }

// Pos returns the position of the current token.
func (p *OpParser) Pos() Pos { return p.lx.posOf(p.tok.line, p.tok.col) }

func (p *OpParser) tokPos(t token) Pos { return p.lx.posOf(t.line, t.col) }

// Errorf records an error at pos and returns an error to propagate.
func (p *OpParser) Errorf(pos Pos, format string, args ...any) error {
	p.diag.Errorf(pos, format, args...)
	if len(p.diag) >= p.cfg.MaxErrors {
		return errTooMany
	}
	return errSyntax
}

// errorHere reports an error at the current token (a lexical error's own
// message wins).
func (p *OpParser) errorHere(format string, args ...any) error {
	if p.tok.kind == tError {
		return p.Errorf(p.Pos(), "%s", p.tok.text)
	}
	return p.Errorf(p.Pos(), format, args...)
}

// addNote attaches a note to the last diagnostic.
func (p *OpParser) addNote(pos Pos, msg string) {
	if n := len(p.diag); n > 0 {
		p.diag[n-1].Notes = append(p.diag[n-1].Notes, Diagnostic{Pos: pos, Severity: Note, Msg: msg})
	}
}

func (p *OpParser) isPunct(s string) bool { return p.tok.kind == tPunct && p.tok.text == s }

// ParseOptional consumes punctuation s if it is next.
func (p *OpParser) ParseOptional(s string) bool {
	if p.isPunct(s) {
		p.advance()
		return true
	}
	return false
}

// Expect consumes punctuation s or reports "expected 's'".
func (p *OpParser) Expect(s string) error {
	if p.ParseOptional(s) {
		return nil
	}
	return p.errorHere("expected '%s'", s)
}

// PeekKeyword returns the bare identifier at the current token, or "".
func (p *OpParser) PeekKeyword() string {
	if p.tok.kind == tBareID {
		return p.tok.text
	}
	return ""
}

// ParseOptionalKeyword consumes keyword kw if it is next.
func (p *OpParser) ParseOptionalKeyword(kw string) bool {
	if p.tok.kind == tBareID && p.tok.text == kw {
		p.advance()
		return true
	}
	return false
}

// ParseKeyword consumes keyword kw or reports "expected 'kw'".
func (p *OpParser) ParseKeyword(kw string) error {
	if p.ParseOptionalKeyword(kw) {
		return nil
	}
	return p.errorHere("expected '%s'", kw)
}

// ParseIdent consumes and returns any bare identifier.
func (p *OpParser) ParseIdent(what string) (string, error) {
	if p.tok.kind != tBareID {
		return "", p.errorHere("expected %s", what)
	}
	s := p.tok.text
	p.advance()
	return s, nil
}

// ParseInt consumes an integer literal (with optional '-').
func (p *OpParser) ParseInt() (int64, error) {
	neg := p.ParseOptional("-")
	if p.tok.kind != tInt {
		return 0, p.errorHere("expected integer value")
	}
	v, err := parseIntLit(p.tok.text, neg)
	if err != nil {
		return 0, p.errorHere("integer value too large")
	}
	p.advance()
	return v, nil
}

func parseIntLit(s string, neg bool) (int64, error) {
	var u uint64
	var err error
	if strings.HasPrefix(s, "0x") {
		u, err = strconv.ParseUint(s[2:], 16, 64)
	} else {
		u, err = strconv.ParseUint(s, 10, 64)
	}
	if err != nil {
		return 0, err
	}
	if neg {
		if u > 1<<63 {
			return 0, strconv.ErrRange
		}
		return -int64(u), nil
	}
	return int64(u), nil
}

// ParseSymbolName consumes @name.
func (p *OpParser) ParseSymbolName() (string, error) {
	if p.tok.kind != tAt {
		return "", p.errorHere("expected valid '@'-identifier for symbol name")
	}
	s := p.tok.text
	p.advance()
	return s, nil
}

// ParseString consumes a string literal.
func (p *OpParser) ParseString() (string, error) {
	if p.tok.kind != tString {
		return "", p.errorHere("expected string")
	}
	s := p.tok.text
	p.advance()
	return s, nil
}

// packPos is packPos(pos), with the file's index cached.
func (p *OpParser) packPos(pos Pos) opPos {
	if pos.File != p.posFile || p.posIndex == 0 {
		p.posFile, p.posIndex = pos.File, fileIndex(pos.File)
	}
	return opPos{p.posIndex, clamp32(pos.Line), clamp32(pos.Col)}
}

// srcLoc returns the location of a position of the input: the
// FileLineColLoc that MLIR's parser gives ops and arguments written without
// a location.
func (p *OpParser) srcLoc(pos Pos) Location {
	return p.arena.fileLoc(p.cfg.Filename, pos.Line, pos.Col)
}

// enter increases the nesting depth, reporting an error past the limit.
func (p *OpParser) enter() error {
	p.depth++
	if p.depth > p.cfg.MaxNesting {
		p.Errorf(p.Pos(), "nesting too deep (limit %d)", p.cfg.MaxNesting)
		return errTooMany
	}
	return nil
}

func (p *OpParser) leave() { p.depth-- }

// ---- file level ----

func (p *OpParser) parseFile() *Module {
	var top []*Operation
	block := NewBlock()
	p.pushRegionScope(true)
	for p.tok.kind != tEOF {
		var err error
		start := p.tok.off
		switch {
		case p.tok.kind == tHash && !strings.Contains(p.tok.text, "."):
			err = p.parseAttrAliasDef()
		case p.tok.kind == tExcl && !strings.Contains(p.tok.text, "."):
			err = p.parseTypeAliasDef()
		case p.isPunct("{-"):
			err = p.parseFileMetadata()
		default:
			var op *Operation
			op, err = p.parseOperation(block)
			if op != nil {
				top = append(top, op)
				if op.name == "builtin.module" {
					p.afterModule = true
				}
			}
		}
		if errors.Is(err, errTooMany) {
			break
		}
		if err != nil {
			p.recover(false, start)
		}
	}
	p.popScope()
	for name, la := range p.locAliases {
		if la.Loc == nil && !p.badAliases[name] {
			p.Errorf(la.pos, "operation location alias was never defined: #%s", name)
		}
	}
	m := p.mod
	if len(top) == 1 && top[0].name == "builtin.module" {
		top[0].Remove()
		m.Op = top[0]
	} else {
		m.Op = NewOperation("builtin.module", nil, nil, nil, 1)
		m.Op.regions[0].AddBlock(block)
		m.Op.Loc = FileLineColLoc{File: p.cfg.Filename} // MLIR's file:0:0
		m.Implicit = true
	}
	return m
}

// recover skips the rest of an op after a syntax error: to the first token
// of a later line that can begin an op or a definition, outside any
// bracket ('(', '[', '{') still open, so that an op whose region or
// parenthesized list is cut short is skipped whole. start is the offset
// where the op began: brackets it opened before the error (an attribute
// dictionary the error is in) count as open. inRegion stops it before a
// '}' that closes the enclosing region (the region's loop reads it); at
// the top level such a '}' is skipped.
func (p *OpParser) recover(inRegion bool, start int) {
	line := p.tok.line
	silent := p.silent
	p.silent = false
	if n := len(p.diag); !silent && n > 0 && p.diag[n-1].Pos.Line < line {
		// The error was on an earlier line (a semantic error found after
		// the op was read): nothing to skip.
		return
	}
	open := openBrackets(p.lx.src[start:min(p.tok.off, len(p.lx.src))])
	for p.tok.kind != tEOF {
		if p.tok.kind == tPunct {
			switch c := p.tok.text; c {
			case "(", "[", "{":
				open = append(open, c[0])
			case ")", "]", "}":
				if i := bytes.LastIndexByte(open, opener(c[0])); i >= 0 {
					open = open[:i]
				} else if c == "}" && inRegion {
					return
				}
			}
		} else if len(open) == 0 && p.tok.line != line && p.firstOnLine() {
			switch p.tok.kind {
			case tPercent, tString, tCaret:
				return
			case tBareID:
				// A custom op name has a dialect prefix (but for module):
				// a line that begins with `tensor<...>` or with a keyword
				// of the op's syntax (warp_specialize's `default {`,
				// `partition0(...)`) continues the op.
				if strings.Contains(p.tok.text, ".") || p.tok.text == "module" {
					return
				}
			case tHash, tExcl:
				// Alias definitions are top-level and name no dialect: a
				// line that begins with `!ttg.memdesc<...>` continues the
				// op's types.
				if !inRegion && !strings.Contains(p.tok.text, ".") {
					return
				}
			}
		}
		p.advance()
	}
}

// firstOnLine reports whether the current token is the first of its line.
func (p *OpParser) firstOnLine() bool {
	start := p.tok.off - (p.tok.col - 1)
	return start >= 0 && strings.TrimLeft(p.lx.src[start:p.tok.off], " \t") == ""
}

// opener returns the opening bracket of closing bracket c.
func opener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

// openBrackets returns the brackets ('(', '[', '{') that src opens and does
// not close, outermost first; a closing bracket closes the innermost open
// one of its kind. String literals and comments are skipped.
func openBrackets(src string) []byte {
	var open []byte
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '(', '[', '{':
			open = append(open, c)
		case ')', ']', '}':
			if j := bytes.LastIndexByte(open, opener(c)); j >= 0 {
				open = open[:j]
			}
		case '"':
			for i++; i < len(src) && src[i] != '"' && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			}
		}
	}
	return open
}

// badAlias records that the definition of alias name failed (see
// OpParser.badAliases).
func (p *OpParser) badAlias(name string) {
	if p.badAliases == nil {
		p.badAliases = map[string]bool{}
	}
	p.badAliases[name] = true
}

// aliasUseError is the error for a use of an undefined alias: none is
// reported when the alias's definition failed (that error was), else
// MLIR's "undefined symbol alias id".
func (p *OpParser) aliasUseError(pos Pos, name string) error {
	if p.badAliases[name] {
		p.silent = true
		return errSyntax
	}
	return p.Errorf(pos, "undefined symbol alias id '%s'", name)
}

func (p *OpParser) parseAttrAliasDef() error {
	name := p.tok.text
	if err := p.parseAttrAliasDef1(); err != nil {
		if _, defined := p.attrAliases[name]; !defined {
			p.badAlias(name)
		}
		return err
	}
	return nil
}

func (p *OpParser) parseAttrAliasDef1() error {
	name, pos := p.tok.text, p.Pos()
	p.advance()
	if err := p.Expect("="); err != nil {
		return err
	}
	if p.tok.kind == tBareID && p.tok.text == "loc" {
		loc, err := p.parseLocation()
		if err != nil {
			return err
		}
		la := p.locAliases[name]
		if la == nil {
			la = &LocAlias{Name: name, pos: pos}
			p.locAliases[name] = la
		} else if la.Loc != nil {
			return p.Errorf(pos, "redefinition of location alias '#%s'", name)
		}
		la.Loc, la.AfterModule, la.pos, la.seq = loc, p.afterModule, pos, p.seq
		p.seq++
		p.mod.LocAliases = append(p.mod.LocAliases, la)
		return nil
	}
	if _, dup := p.attrAliases[name]; dup {
		return p.Errorf(pos, "redefinition of attribute alias id '%s'", name)
	}
	a, err := p.ParseAttr()
	if err != nil {
		return err
	}
	p.attrAliases[name] = a
	p.mod.Aliases = append(p.mod.Aliases, Alias{Name: name, Attr: a, seq: p.seq})
	p.seq++
	return nil
}

func (p *OpParser) parseTypeAliasDef() error {
	name := p.tok.text
	if err := p.parseTypeAliasDef1(); err != nil {
		if _, defined := p.typeAliases[name]; !defined {
			p.badAlias("!" + name)
		}
		return err
	}
	return nil
}

func (p *OpParser) parseTypeAliasDef1() error {
	name, pos := p.tok.text, p.Pos()
	p.advance()
	if err := p.Expect("="); err != nil {
		return err
	}
	if _, dup := p.typeAliases[name]; dup {
		return p.Errorf(pos, "redefinition of type alias id '%s'", name)
	}
	t, err := p.ParseType()
	if err != nil {
		return err
	}
	p.typeAliases[name] = t
	p.mod.Aliases = append(p.mod.Aliases, Alias{Name: name, Type: t, seq: p.seq})
	p.seq++
	return nil
}

// ---- values ----

func (p *OpParser) pushScope(isolated bool) {
	isolated = isolated || p.scope == nil
	free := &p.freeScopes
	if isolated {
		free = &p.freeIsolated
	}
	var s *valueScope
	if n := len(*free); n > 0 {
		s = (*free)[n-1]
		*free = (*free)[:n-1]
	} else {
		s = &valueScope{names: make(map[string]valueDef, 8)}
		if isolated {
			s.forward = map[string]*forwardDef{}
		}
	}
	s.parent, s.isolated = p.scope, isolated
	p.scope = s
}

// pushRegionScope is pushScope for a region: the scope also holds block
// labels.
func (p *OpParser) pushRegionScope(isolated bool) {
	p.pushScope(isolated)
	if p.scope.blocks == nil {
		p.scope.blocks = map[string]*blockDef{}
	}
}

// maxReusedScope bounds the names a popped scope may hold to be reused:
// clearing a map costs its capacity, which small scopes (loop bodies)
// should not pay. Isolated scopes (function bodies) are reused up to
// maxReusedIsolatedScope names: the next function body is likely as large,
// and its map no longer grows from empty.
const (
	maxReusedScope         = 64
	maxReusedIsolatedScope = 1 << 14
)

func (p *OpParser) isolatedScope() *valueScope {
	s := p.scope
	for !s.isolated {
		s = s.parent
	}
	return s
}

func (p *OpParser) popScope() {
	s := p.scope
	if s.isolated {
		for name, d := range s.forward {
			p.Errorf(d.pos, "use of undeclared SSA value name '%%%s'", name)
		}
	}
	p.scope = s.parent
	limit, free := maxReusedScope, &p.freeScopes
	if s.isolated {
		limit, free = maxReusedIsolatedScope, &p.freeIsolated
	}
	if len(s.names) > limit || len(s.blocks) > limit {
		return
	}
	clear(s.names)
	if s.forward != nil {
		clear(s.forward)
	}
	if s.blocks != nil {
		clear(s.blocks)
	}
	s.parent = nil
	*free = append(*free, s)
}

// ParseOperand consumes an SSA use `%name` or `%name#N`.
func (p *OpParser) ParseOperand() (OperandRef, error) {
	if p.tok.kind != tPercent {
		return OperandRef{}, p.errorHere("expected SSA operand")
	}
	ref := OperandRef{Name: p.tok.text, Pos: p.Pos()}
	// A result number follows immediately: %x#1.
	if p.lx.off < len(p.lx.src) && p.lx.src[p.lx.off] == '#' {
		p.advance()
		if p.tok.kind != tHash {
			return ref, p.errorHere("expected result number")
		}
		n, err := strconv.Atoi(p.tok.text)
		if err != nil || n < 0 {
			return ref, p.errorHere("invalid SSA value result number")
		}
		ref.Index = n
	}
	p.advance()
	return ref, nil
}

// PeekOperand reports whether an SSA operand is next.
func (p *OpParser) PeekOperand() bool { return p.tok.kind == tPercent }

// ParseOperandList consumes zero or more comma-separated SSA uses.
func (p *OpParser) ParseOperandList() ([]OperandRef, error) {
	var buf [8]OperandRef
	refs, err := p.appendOperandList(buf[:0])
	if err != nil || len(refs) == 0 {
		return nil, err
	}
	return p.keepRefs(refs), nil
}

// appendOperandList is ParseOperandList appending to refs, for a caller
// that is done with the operands before it returns (no copy is kept).
func (p *OpParser) appendOperandList(refs []OperandRef) ([]OperandRef, error) {
	if !p.PeekOperand() {
		return refs, nil
	}
	for {
		r, err := p.ParseOperand()
		if err != nil {
			return nil, err
		}
		refs = append(refs, r)
		if !p.ParseOptional(",") {
			return refs, nil
		}
	}
}

// keepRefs copies refs into the parser's arena (fewer small allocations).
func (p *OpParser) keepRefs(refs []OperandRef) []OperandRef {
	n := len(refs)
	if n > 256 {
		return append([]OperandRef(nil), refs...)
	}
	if cap(p.refArena)-len(p.refArena) < n {
		p.refArena = make([]OperandRef, 0, 4096)
	}
	start := len(p.refArena)
	p.refArena = append(p.refArena, refs...)
	return p.refArena[start : start+n : start+n]
}

// valueSlice returns a zeroed slice of n values from the parser's arena.
func (p *OpParser) valueSlice(n int) []*Value {
	if n > 256 {
		return make([]*Value, n)
	}
	if cap(p.valArena)-len(p.valArena) < n {
		p.valArena = make([]*Value, 0, 4096)
	}
	start := len(p.valArena)
	p.valArena = p.valArena[:start+n]
	return p.valArena[start : start+n : start+n]
}

// Resolve finds the value ref names and checks that it has type t (a
// forward reference gets a placeholder of type t, checked at definition).
func (p *OpParser) Resolve(ref OperandRef, t Type) (*Value, error) {
	for s := p.scope; s != nil; s = s.parent {
		if d, ok := s.names[ref.Name]; ok {
			if ref.Index >= d.count() {
				return nil, p.Errorf(ref.Pos, "reference to invalid result number")
			}
			v := d.at(ref.Index)
			if v.typ == nil {
				// A value of a failed op: accept silently (the op's error
				// was reported).
				v.typ = t
				return v, nil
			}
			if t != nil && !TypesEqual(v.typ, t) {
				err := p.Errorf(ref.Pos, "use of value '%%%s' expects different type than prior uses: '%s' vs '%s'",
					ref.Name, TypeString(t), TypeString(v.typ))
				p.addNote(p.defPos(d), "prior use here")
				return v, err
			}
			return v, nil
		}
		if s.isolated {
			break
		}
	}
	iso := p.isolatedScope()
	d := iso.forward[ref.Name]
	if d == nil {
		d = &forwardDef{pos: ref.Pos}
		iso.forward[ref.Name] = d
	}
	for len(d.vals) <= ref.Index {
		d.vals = append(d.vals, nil)
	}
	if d.vals[ref.Index] == nil {
		d.vals[ref.Index] = &Value{typ: t, NameHint: ref.Name}
	}
	v := d.vals[ref.Index]
	if t != nil && !TypesEqual(v.typ, t) {
		return v, p.Errorf(ref.Pos, "use of value '%%%s' expects different type than prior uses: '%s' vs '%s'",
			ref.Name, TypeString(t), TypeString(v.typ))
	}
	return v, nil
}

// ResolveAll resolves refs against types, one type per ref; a count that
// differs is an error at pos, as in MLIR's resolveOperands.
func (p *OpParser) ResolveAll(refs []OperandRef, types []Type, pos Pos) ([]*Value, error) {
	if len(types) != len(refs) {
		return nil, p.Errorf(pos, "%d operands present, but expected %d", len(refs), len(types))
	}
	return p.resolveAll(refs, types, pos)
}

// resolveAll is ResolveAll that also takes one type for all of one or more
// refs, for the custom formats that write a single type for all operands.
func (p *OpParser) resolveAll(refs []OperandRef, types []Type, pos Pos) ([]*Value, error) {
	if len(types) != len(refs) && !(len(types) == 1 && len(refs) > 0) {
		return nil, p.Errorf(pos, "%d operands present, but expected %d", len(refs), len(types))
	}
	vals := p.valueSlice(len(refs))
	for i, r := range refs {
		t := types[0]
		if len(types) == len(refs) {
			t = types[i]
		}
		v, err := p.Resolve(r, t)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	return vals, nil
}

// define binds name to vals in the current scope, resolving pending
// forward references.
func (p *OpParser) define(name string, def valueDef) error {
	if d, dup := p.scope.names[name]; dup {
		err := p.Errorf(p.defPos(def), "redefinition of SSA value '%%%s'", name)
		p.addNote(p.defPos(d), "previously defined here")
		return err
	}
	p.scope.names[name] = def
	iso := p.isolatedScope()
	if d, ok := iso.forward[name]; ok {
		delete(iso.forward, name)
		for i, ph := range d.vals {
			if ph == nil {
				continue
			}
			if i >= def.count() {
				return p.Errorf(d.pos, "reference to invalid result number")
			}
			v := def.at(i)
			if ph.typ != nil && v.typ != nil && !TypesEqual(ph.typ, v.typ) {
				p.Errorf(d.pos, "use of value '%%%s' expects different type than prior uses: '%s' vs '%s'",
					name, TypeString(ph.typ), TypeString(v.typ))
			}
			ph.ReplaceAllUsesWith(v)
		}
	}
	return nil
}

// NewArg returns a new, not yet attached, block argument named by ref, for
// custom ops whose region arguments are spelled by the op syntax (scf.for,
// tt.func); pass it to ParseRegion as an entry argument. A nil loc stands
// for the position of the name, as in MLIR.
func (p *OpParser) NewArg(ref OperandRef, t Type, loc Location) *Value {
	if loc == nil {
		loc = p.srcLoc(ref.Pos)
	}
	v := p.arena.value()
	v.typ, v.NameHint, v.Loc = t, ref.Name, loc
	p.argPos[v] = ref.Pos
	return v
}

// ---- operations ----

type resultGroup struct {
	name  string
	count int
	pos   Pos
}

// parseOperation parses one op and appends it to block.
func (p *OpParser) parseOperation(block *Block) (*Operation, error) {
	var gbuf [2]resultGroup
	groups := gbuf[:0]
	numResults := 0
	if p.tok.kind == tPercent {
		for {
			if p.tok.kind != tPercent {
				return nil, p.errorHere("expected SSA result name")
			}
			g := resultGroup{name: p.tok.text, count: 1, pos: p.Pos()}
			p.advance()
			if p.ParseOptional(":") {
				if p.tok.kind != tInt {
					return nil, p.errorHere("expected integer number of results")
				}
				n, err := strconv.Atoi(p.tok.text)
				if err != nil || n < 1 {
					return nil, p.errorHere("expected named operation to have at least 1 result")
				}
				g.count = n
				p.advance()
			}
			groups = append(groups, g)
			numResults += g.count
			if !p.ParseOptional(",") {
				break
			}
		}
		if err := p.Expect("="); err != nil {
			return nil, err
		}
	}
	opPos := p.Pos()
	var op *Operation
	var err error
	switch p.tok.kind {
	case tString:
		op, err = p.parseGenericOp(numResults)
	case tBareID:
		op, err = p.parseCustomOp(numResults)
	default:
		err = p.errorHere("expected operation name in quotes")
	}
	if err != nil {
		// Define the results anyway so that later uses do not cascade.
		for _, g := range groups {
			vals := make([]Value, g.count)
			for i := range vals {
				vals[i].NameHint = g.name
			}
			p.define(g.name, newDef(nil, vals, g.pos))
		}
		return nil, err
	}
	op.pos = p.packPos(opPos)
	// Trailing location; without one, the op's location is where its name
	// is, as MLIR's parser sets it.
	if p.tok.kind == tBareID && p.tok.text == "loc" {
		loc, err := p.parseLocation()
		if err != nil {
			return nil, err
		}
		op.Loc = loc
	} else {
		op.Loc = p.srcLoc(opPos)
	}
	// An op without a left-hand side keeps its results unnamed, as MLIR
	// accepts it (`ttg.async_wait {num = 0 : i32}`); the printer gives
	// them fresh names.
	if len(groups) > 0 && len(op.results) != numResults {
		return nil, p.Errorf(opPos, "operation defines %d results but was provided %d to bind", len(op.results), numResults)
	}
	k := 0
	for _, g := range groups {
		op.results[k].NameHint = g.name
		if err := p.define(g.name, newDef(nil, op.results[k:k+g.count:k+g.count], g.pos)); err != nil {
			return op, err
		}
		k += g.count
	}
	block.Append(op)
	return op, nil
}

// getState returns a cleared OpState from the parser's free list.
func (p *OpParser) getState() *OpState {
	if n := len(p.states); n > 0 {
		st := p.states[n-1]
		p.states = p.states[:n-1]
		return st
	}
	return &OpState{}
}

// putState clears st (the op keeps the slices it was given) and returns it
// to the free list.
func (p *OpParser) putState(st *OpState) {
	*st = OpState{}
	p.states = append(p.states, st)
}

func (p *OpParser) newOp(st *OpState, def *OpDef) *Operation {
	op := p.arena.op()
	op.operands, op.results = p.arena.operands(len(st.Operands)), p.arena.results(len(st.Types))
	op.name, op.def, op.Props, op.Attrs, op.Successors = st.Name, def, st.Props, st.Attrs, st.Successors
	for i, v := range st.Operands {
		op.operands[i] = opOperand{value: v, owner: op, index: i}
		op.operands[i].link()
	}
	for i, t := range st.Types {
		op.results[i] = Value{typ: t, def: op, index: int32(i)}
	}
	op.regions = st.Regions
	for _, r := range op.regions {
		r.parent = op
	}
	return op
}

func (p *OpParser) parseCustomOp(numResults int) (*Operation, error) {
	name, pos := p.tok.text, p.Pos()
	if name == "module" {
		name = "builtin.module"
	}
	def := p.reg.Lookup(name)
	if def == nil || def.Parse == nil {
		return nil, p.Errorf(pos, "custom op '%s' is unknown", p.tok.text)
	}
	p.advance()
	st := p.getState()
	defer p.putState(st)
	st.Name, st.NumResults = name, numResults
	if err := def.Parse(p, st); err != nil {
		return nil, err
	}
	return p.newOp(st, def), nil
}

func (p *OpParser) parseGenericOp(numResults int) (*Operation, error) {
	name, pos := p.tok.text, p.Pos()
	p.advance()
	def := p.reg.Lookup(name)
	if def == nil {
		// As MLIR: a loaded dialect (one with registered ops) never allows
		// unknown ops; -allow-unregistered-dialect only admits ops of
		// dialects that are not loaded.
		// These are verifier errors in MLIR: the op is read to its end (so
		// that parsing goes on in step) and the error stands.
		var err error
		if d := DialectOf(name); p.dialectKnown(d) {
			err = p.Errorf(pos, "unregistered operation '%s' found in dialect ('%s') that does not allow unknown operations", name, d)
		} else if !p.cfg.AllowUnregistered {
			err = p.Errorf(pos, "'%s' op created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used", name)
		}
		if errors.Is(err, errTooMany) {
			return nil, err
		}
	}
	st := &OpState{Name: name, NumResults: numResults}
	if err := p.Expect("("); err != nil {
		return nil, err
	}
	// The operands are resolved below, before the op is built: a buffer on
	// the stack holds them.
	var buf [8]OperandRef
	refs, err := p.appendOperandList(buf[:0])
	if err != nil {
		return nil, err
	}
	if err := p.Expect(")"); err != nil {
		return nil, err
	}
	var succs []*Block
	if p.ParseOptional("[") {
		for {
			b, err := p.parseSuccessor()
			if err != nil {
				return nil, err
			}
			succs = append(succs, b)
			if !p.ParseOptional(",") {
				break
			}
		}
		if err := p.Expect("]"); err != nil {
			return nil, err
		}
	}
	if p.ParseOptional("<") {
		if !p.isPunct("{") {
			return nil, p.errorHere("expected '{' in properties")
		}
		props, err := p.parseAttrDictEntries()
		if err != nil {
			return nil, err
		}
		st.Props = props
		if err := p.Expect(">"); err != nil {
			return nil, err
		}
	}
	if p.isPunct("(") {
		p.advance()
		for {
			r, err := p.ParseRegion(nil, def != nil && def.Traits&IsolatedFromAbove != 0)
			if err != nil {
				return nil, err
			}
			st.Regions = append(st.Regions, r)
			if !p.ParseOptional(",") {
				break
			}
		}
		if err := p.Expect(")"); err != nil {
			return nil, err
		}
	}
	if p.isPunct("{") {
		attrs, err := p.parseAttrDictEntries()
		if err != nil {
			return nil, err
		}
		// Old files write properties in the attribute dictionary.
		st.AddAttrs(def, attrs)
	}
	if err := p.Expect(":"); err != nil {
		return nil, err
	}
	tpos := p.Pos()
	t, err := p.ParseType()
	if err != nil {
		return nil, err
	}
	ft, ok := t.(*FunctionType)
	if !ok {
		return nil, p.Errorf(tpos, "expected function type")
	}
	if st.Operands, err = p.ResolveAll(refs, ft.Inputs, tpos); err != nil {
		return nil, err
	}
	st.Types = ft.Results
	st.Successors = genericSuccessors(name, succs, st)
	return p.newOp(st, def), nil
}

// genericSuccessors splits trailing operands among successors in generic
// form: cf.br passes all operands, cf.cond_br follows operandSegmentSizes.
func genericSuccessors(name string, succs []*Block, st *OpState) []Successor {
	if len(succs) == 0 {
		return nil
	}
	out := make([]Successor, len(succs))
	for i, b := range succs {
		out[i].Block = b
	}
	switch {
	case len(succs) == 1:
		if name == "cf.br" {
			out[0].NumOperands = len(st.Operands)
		}
	default:
		for _, a := range append(st.Props, st.Attrs...) {
			if a.Name != "operandSegmentSizes" {
				continue
			}
			if da, ok := a.Value.(*DenseArrayAttr); ok && len(da.Ints) == len(succs)+1 {
				for i := range succs {
					out[i].NumOperands = int(da.Ints[i+1])
				}
			}
		}
	}
	return out
}

// dialectKnown reports whether some registered op belongs to dialect d.
// dialectKnown reports whether dialect d has registered ops (is "loaded"),
// caching the answer per parse.
func (p *OpParser) dialectKnown(d string) bool {
	known, ok := p.knownDialects[d]
	if !ok {
		known = dialectLoaded(p.reg, d)
		if p.knownDialects == nil {
			p.knownDialects = map[string]bool{}
		}
		p.knownDialects[d] = known
	}
	return known
}

// dialectLoaded reports whether dialect d has registered ops. Such a
// dialect is loaded, in MLIR's terms, and allows no unregistered ops, even
// with ParseConfig.AllowUnregistered.
func dialectLoaded(r *Registry, d string) bool { return r.HasDialect(d) }

// parseSuccessor consumes ^label and returns the (possibly forward) block.
func (p *OpParser) parseSuccessor() (*Block, error) {
	if p.tok.kind != tCaret {
		return nil, p.errorHere("expected block name")
	}
	b := p.blockRef(p.tok.text, p.Pos())
	p.advance()
	return b, nil
}

// ParseSuccessorWithArgs consumes `^bb(%a, %b : T1, T2)` (arguments
// optional) and appends the operands to st.
func (p *OpParser) ParseSuccessorWithArgs(st *OpState) error {
	b, err := p.parseSuccessor()
	if err != nil {
		return err
	}
	n := 0
	if p.ParseOptional("(") {
		refs, err := p.ParseOperandList()
		if err != nil {
			return err
		}
		if err := p.Expect(":"); err != nil {
			return err
		}
		pos := p.Pos()
		types, err := p.ParseTypeList()
		if err != nil {
			return err
		}
		vals, err := p.ResolveAll(refs, types, pos)
		if err != nil {
			return err
		}
		if err := p.Expect(")"); err != nil {
			return err
		}
		st.Operands = append(st.Operands, vals...)
		n = len(vals)
	}
	st.Successors = append(st.Successors, Successor{Block: b, NumOperands: n})
	return nil
}

func (p *OpParser) blockScope() *valueScope {
	s := p.scope
	for s.blocks == nil {
		s = s.parent
	}
	return s
}

func (p *OpParser) blockRef(label string, pos Pos) *Block {
	s := p.blockScope()
	d := s.blocks[label]
	if d == nil {
		d = &blockDef{block: &Block{Label: label}, pos: pos}
		s.blocks[label] = d
	}
	return d.block
}

// ParseRegion parses `{ ... }`. entryArgs, if non-nil, are the entry
// block's arguments, declared by the op's custom syntax; isolated starts
// a fresh value scope.
func (p *OpParser) ParseRegion(entryArgs []*Value, isolated bool) (*Region, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	if err := p.Expect("{"); err != nil {
		return nil, err
	}
	r := &Region{}
	p.pushRegionScope(isolated)
	defer p.popScope()
	for _, a := range entryArgs {
		pos, ok := p.argPos[a]
		if !ok {
			pos = p.Pos()
		}
		delete(p.argPos, a)
		if err := p.define(a.NameHint, newDef(a, nil, pos)); err != nil {
			return nil, err
		}
	}
	attach := func(b *Block) {
		for _, a := range entryArgs {
			a.block, a.index = b, int32(len(b.args))
			b.args = append(b.args, a)
		}
	}
	if p.ParseOptional("}") {
		if entryArgs != nil {
			b := &Block{}
			attach(b)
			r.AddBlock(b)
		}
		return r, nil
	}
	var cur *Block
	if p.tok.kind == tCaret {
		if len(entryArgs) > 0 {
			return nil, p.errorHere("invalid block name in region with named arguments")
		}
	} else {
		cur = &Block{}
		attach(cur)
		r.AddBlock(cur)
	}
	// Errors inside the region are reported and recovered from here (at
	// the next op of this region); the region itself is read to its '}',
	// so the op that owns it goes on in step and reports nothing more.
	for {
		switch {
		case p.tok.kind == tEOF:
			if p.eofReported {
				return nil, errSyntax
			}
			p.eofReported = true
			return nil, p.errorHere("expected '}' to end region")
		case p.isPunct("}"):
			p.advance()
			for label, d := range p.scope.blocks {
				if !d.defined {
					if err := p.Errorf(d.pos, "reference to an undefined block '^%s'", label); errors.Is(err, errTooMany) {
						return nil, err
					}
				}
			}
			return r, nil
		case p.tok.kind == tCaret:
			b, err := p.parseBlockHeader()
			if err != nil {
				return nil, err
			}
			r.AddBlock(b)
			cur = b
		default:
			start := p.tok.off
			if _, err := p.parseOperation(cur); err != nil {
				if errors.Is(err, errTooMany) || p.eofReported {
					return nil, err
				}
				p.recover(true, start)
			}
		}
	}
}

// parseBlockHeader parses `^label(%a: T loc(..), ...):`.
func (p *OpParser) parseBlockHeader() (*Block, error) {
	label, pos := p.tok.text, p.Pos()
	s := p.blockScope()
	d := s.blocks[label]
	if d == nil {
		d = &blockDef{block: &Block{Label: label}, pos: pos}
		s.blocks[label] = d
	} else if d.defined {
		return nil, p.Errorf(pos, "redefinition of block '^%s'", label)
	}
	d.defined = true
	b := d.block
	p.advance()
	if p.ParseOptional("(") {
		err := p.parseListUntil(")", func() error {
			ref, err := p.ParseOperand()
			if err != nil {
				return err
			}
			if err := p.Expect(":"); err != nil {
				return err
			}
			t, err := p.ParseType()
			if err != nil {
				return err
			}
			var loc Location
			if p.PeekKeyword() == "loc" {
				if loc, err = p.parseLocation(); err != nil {
					return err
				}
			} else {
				loc = p.srcLoc(ref.Pos)
			}
			v := p.arena.value()
			v.typ, v.NameHint, v.Loc = t, ref.Name, loc
			b.appendArg(v)
			return p.define(ref.Name, newDef(v, nil, ref.Pos))
		})
		if err != nil {
			return nil, err
		}
	}
	if err := p.Expect(":"); err != nil {
		return nil, err
	}
	return b, nil
}

// ParseOptionalAttrDict parses an optional `{...}` into st (properties
// named by def go to st.Props).
func (p *OpParser) ParseOptionalAttrDict(st *OpState) error {
	if !p.isPunct("{") {
		return nil
	}
	attrs, err := p.parseAttrDictEntries()
	if err != nil {
		return err
	}
	st.AddAttrs(p.reg.Lookup(st.Name), attrs)
	return nil
}

// ParseOptionalAttrDictWithKeyword parses an optional `attributes {...}`.
func (p *OpParser) ParseOptionalAttrDictWithKeyword(st *OpState) error {
	if !p.ParseOptionalKeyword("attributes") {
		return nil
	}
	if !p.isPunct("{") {
		return p.errorHere("expected '{' in attribute dictionary")
	}
	return p.ParseOptionalAttrDict(st)
}

// ParseOptionalLocation parses an optional `loc(...)` (for arguments).
func (p *OpParser) ParseOptionalLocation() (Location, error) {
	if p.PeekKeyword() != "loc" {
		return nil, nil
	}
	return p.parseLocation()
}

// ---- locations ----

func (p *OpParser) parseLocation() (Location, error) {
	p.advance() // loc
	if err := p.Expect("("); err != nil {
		return nil, err
	}
	l, err := p.parseLocBody()
	if err != nil {
		return nil, err
	}
	if err := p.Expect(")"); err != nil {
		return nil, err
	}
	return l, nil
}

func (p *OpParser) parseLocBody() (Location, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	switch p.tok.kind {
	case tHash:
		name, pos := p.tok.text, p.Pos()
		p.advance()
		la := p.locAliases[name]
		if la == nil {
			la = &LocAlias{Name: name, pos: pos}
			p.locAliases[name] = la
		}
		return LocRef{la}, nil
	case tString:
		s := p.tok.text
		p.advance()
		if p.ParseOptional(":") {
			line, err := p.ParseInt()
			if err != nil {
				return nil, err
			}
			col := int64(0)
			if p.ParseOptional(":") {
				if col, err = p.ParseInt(); err != nil {
					return nil, err
				}
			}
			return FileLineColLoc{File: s, Line: int(line), Col: int(col)}, nil
		}
		if p.ParseOptional("(") {
			child, err := p.parseLocBody()
			if err != nil {
				return nil, err
			}
			if err := p.Expect(")"); err != nil {
				return nil, err
			}
			return NameLoc{Name: s, Child: child}, nil
		}
		return NameLoc{Name: s}, nil
	case tBareID:
		switch p.tok.text {
		case "unknown":
			p.advance()
			return UnknownLoc{}, nil
		case "callsite":
			p.advance()
			if err := p.Expect("("); err != nil {
				return nil, err
			}
			callee, err := p.parseLocBody()
			if err != nil {
				return nil, err
			}
			if err := p.ParseKeyword("at"); err != nil {
				return nil, err
			}
			caller, err := p.parseLocBody()
			if err != nil {
				return nil, err
			}
			if err := p.Expect(")"); err != nil {
				return nil, err
			}
			return CallSiteLoc{callee, caller}, nil
		case "fused":
			p.advance()
			var meta Attribute
			if p.ParseOptional("<") {
				var err error
				if meta, err = p.ParseAttr(); err != nil {
					return nil, err
				}
				if err := p.Expect(">"); err != nil {
					return nil, err
				}
			}
			if err := p.Expect("["); err != nil {
				return nil, err
			}
			var locs []Location
			err := p.parseListUntil("]", func() error {
				l, err := p.parseLocBody()
				if err != nil {
					return err
				}
				locs = append(locs, l)
				return nil
			})
			if err != nil {
				return nil, err
			}
			return FusedLoc{Locs: locs, Metadata: meta}, nil
		}
	}
	return nil, p.errorHere("expected location instance")
}

// ---- helpers shared with types and attributes ----

// parseFloatLit parses the float literal s, negated when neg; a value out
// of range is not an error (strconv's ±Inf or 0 stands).
func parseFloatLit(s string, neg bool) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, err
	}
	if neg {
		v = -v
	}
	return v, nil
}

// FloatFromBits returns the value of the float of type t (f16, bf16, f32,
// f64) whose bits are bits, as MLIR reads a hexadecimal float literal;
// for any other type, bits as a number.
func FloatFromBits(bits uint64, t Type) float64 {
	if ft, ok := t.(*FloatType); ok {
		switch ft.FloatBits() {
		case 16:
			if ft.Kind == "bf16" {
				return float64(math.Float32frombits(uint32(bits) << 16))
			}
			return halfBits(uint16(bits))
		case 32:
			return float64(math.Float32frombits(uint32(bits)))
		case 64:
			return math.Float64frombits(bits)
		}
	}
	return float64(bits)
}

// halfBits returns the value of the IEEE binary16 number with bits h.
func halfBits(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, frac := int(h>>10)&0x1F, float64(h&0x3FF)
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24)
	case 0x1F:
		if frac != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1024+frac, exp-25)
}
