package ir

import (
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"
	plexer "github.com/alecthomas/participle/v2/lexer"
)

// The declarative assembly format, interpreted.
//
// OpDef.Format holds an assembly format in the notation of MLIR's ODS
// (mlir.llvm.org/docs/DefiningDialects/Operations/#declarative-assembly-format):
//
//	$src attr-dict `:` type($src) `->` type($result)
//
// Elements are
//
//   - `$name`: an operand group, attribute or region of the definition;
//   - literals: a backquoted keyword or punctuation (`->`, `into`); the
//     punctuation : , -> = [ ] < > may also be written bare;
//   - directives: attr-dict, attr-dict-with-keyword, type(x),
//     functional-type(inputs, results), operands, results, regions, and
//     custom<Name>(...) for the pieces an op writes in Go (OpDef.Custom);
//     type arguments are `$name`, operands or results;
//   - optional groups `( ... )?`: the group is printed when its anchor
//     (the element marked `^`) is present, and parsed when its first
//     element is there; a unit attribute anchor that the group does not
//     print is set by the group's presence.
//
// Types the format does not spell out come from the definition's
// TypeRules and the SameOperandsAndResultType trait. Spacing follows
// MLIR's generated printers exactly (a space before each element except
// after `(`, `[`, `{`, `<` and before `)`, `]`, `,` and similar), so a
// declared op prints what mlir-tblgen's printer prints.
//
// Formats are compiled on first use with participle (they are read once
// per op, not on the parser's hot path); a malformed format is reported
// by Registry.Register and by CheckFormat.

// ---- grammar ----

var formatLexer = plexer.MustSimple([]plexer.SimpleRule{
	{Name: "Literal", Pattern: "`[^`]*`"},
	{Name: "Var", Pattern: `\$[A-Za-z_][A-Za-z0-9_]*`},
	{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_-]*`},
	{Name: "Arrow", Pattern: `->`},
	{Name: "Punct", Pattern: `[(),:?^<>\[\]=*{}|+]`},
	{Name: "Space", Pattern: `\s+`},
})

type fmtAST struct {
	Elems []*fmtASTElem `parser:"@@*"`
}

type fmtASTElem struct {
	Group    *fmtASTGroup `parser:"(  @@"`
	Var      string       `parser:" | @Var"`
	Literal  string       `parser:" | @Literal"`
	Punct    string       `parser:" | @(Arrow | ':' | ',' | '=' | '[' | ']' | '<' | '>' | '*' | '+')"`
	Bare     string       `parser:" | @('attr-dict' | 'attr-dict-with-keyword')"`
	Dir      *fmtASTDir   `parser:" | @@ )"`
	IsAnchor bool         `parser:"@'^'?"`
}

type fmtASTGroup struct {
	Elems []*fmtASTElem `parser:"'(' @@+ ')' '?'"`
}

// fmtASTDir is a directive: the ones with arguments take them in
// parentheses right away; the others (attr-dict, operands, …) never do, so
// that `attr-dict (...)?` reads as a directive and an optional group.
type fmtASTDir struct {
	Name   string        `parser:"(  @('type' | 'qualified' | 'functional-type' | 'custom' | 'ref')"`
	Custom string        `parser:"   ( '<' @Ident '>' )?"`
	Args   []*fmtASTElem `parser:"   '(' ( @@ ( ',' @@ )* )? ')'"`
	Word   string        `parser:" | @Ident )"`
}

var formatParser = participle.MustBuild[fmtAST](
	participle.Lexer(formatLexer),
	participle.Elide("Space"),
	participle.UseLookahead(2),
)

// ---- compiled form ----

type fmtKind uint8

const (
	fLiteral fmtKind = iota
	fOperand
	fResult
	fAttr
	fRegion
	fAttrDict
	fAttrDictKw
	fType
	fFunctional
	fOperands
	fResults
	fRegions
	fCustom
	fOptional
	fSpace // `` (no space) or ` ` (a space): printing only
)

type fmtElem struct {
	kind   fmtKind
	lit    string     // literal text
	idx    int        // operand, result, region index or attribute index
	args   []*fmtElem // type/functional-type arguments; optional group body
	custom *Custom    // fCustom
	anchor *fmtElem   // fOptional: the anchor
	elided *fmtElem   // fOptional: a unit attribute anchor not printed
}

// Custom is a piece of an assembly format written in Go: `custom<Name>()`
// in a format calls Parse while parsing and Print while printing. Parse
// may record operands and types through the FormatState and attributes in
// the OpState. As in MLIR, a space is printed before the directive, unless
// OwnSpace is set: then Print writes its own leading space, if any, so that
// an optional piece that is absent prints nothing.
type Custom struct {
	Parse    func(p *OpParser, st *OpState, fs *FormatState) error
	Print    func(p *OpPrinter, op *Operation)
	OwnSpace bool
	// Attrs are the attributes the directive writes: attr-dict leaves
	// them out (when Elide is nil or returns true for the op).
	Attrs []string
	Elide func(op *Operation) bool
}

type compiledRule struct {
	target, from int
	fn           func(Type) Type
}

type compiledFormat struct {
	elems []*fmtElem
	// used are the attributes the format writes; attr-dict leaves them out.
	used []string
	// customs are the custom directives of the format.
	customs []*Custom
	// rules are the definition's type rules with their groups resolved
	// (an operand's index, or -1-index for a result).
	rules []compiledRule
	// elided are the attributes attr-dict always leaves out;
	// hasDefaults says some attribute has a default (left out when equal).
	elided      []string
	hasDefaults bool
	// hasOperandsDir and friends mark the whole-list directives.
	hasRegionsDir bool
}

func (d *OpDef) compiled() (*compiledFormat, error) {
	d.fmtOnce.Do(func() { d.fmt, d.fmtErr = compileFormat(d) })
	return d.fmt, d.fmtErr
}

// CheckFormat compiles def's assembly format and reports what is wrong
// with it (unknown variables, unknown directives, types that cannot be
// inferred), as mlir-tblgen does at build time.
func CheckFormat(def *OpDef) error {
	if def.Format == "" {
		return nil
	}
	_, err := def.compiled()
	return err
}

func compileFormat(d *OpDef) (*compiledFormat, error) {
	ast, err := formatParser.ParseString(d.Name, d.Format)
	if err != nil {
		return nil, fmt.Errorf("%s: assembly format: %v", d.Name, err)
	}
	c := &compiledFormat{}
	b := fmtBuilder{def: d, cf: c, typed: map[int]bool{}}
	c.elems, err = b.elems(ast.Elems, false)
	if err != nil {
		return nil, fmt.Errorf("%s: assembly format: %v", d.Name, err)
	}
	if !b.sawAttrDict {
		return nil, fmt.Errorf("%s: assembly format: 'attr-dict' directive not found", d.Name)
	}
	if err := b.checkTypes(); err != nil {
		return nil, fmt.Errorf("%s: assembly format: %v", d.Name, err)
	}
	for _, r := range d.TypeRules {
		c.rules = append(c.rules, compiledRule{target: groupKey(d, r.Target), from: groupKey(d, r.From), fn: r.Fn})
	}
	c.elided = append([]string{"operandSegmentSizes"}, c.used...)
	for _, a := range d.Attrs {
		c.hasDefaults = c.hasDefaults || a.Default != nil
	}
	return c, nil
}

// groupKey is the index of operand group name, or -1-index of result
// group name (checkTypes has made sure it is one of them).
func groupKey(d *OpDef, name string) int {
	if i := d.operandIndex(name); i >= 0 {
		return i
	}
	return -1 - d.resultIndex(name)
}

type fmtBuilder struct {
	def         *OpDef
	cf          *compiledFormat
	sawAttrDict bool
	// typed records the operand (index) and result (-1-index) groups whose
	// types the format writes.
	typed map[int]bool
	// custom says a custom directive may supply any type.
	custom bool
}

func (b *fmtBuilder) elems(in []*fmtASTElem, inGroup bool) ([]*fmtElem, error) {
	var out []*fmtElem
	for _, e := range in {
		el, err := b.elem(e, false)
		if err != nil {
			return nil, err
		}
		if e.IsAnchor && !inGroup {
			return nil, fmt.Errorf("anchor '^' outside an optional group")
		}
		out = append(out, el)
	}
	return out, nil
}

func (b *fmtBuilder) variable(name string, inType bool) (*fmtElem, error) {
	d := b.def
	if i := d.operandIndex(name); i >= 0 {
		return &fmtElem{kind: fOperand, idx: i}, nil
	}
	if i := d.resultIndex(name); i >= 0 {
		if !inType {
			return nil, fmt.Errorf("result '$%s' can only be used in a type directive", name)
		}
		return &fmtElem{kind: fResult, idx: i}, nil
	}
	if inType {
		return nil, fmt.Errorf("'$%s' is not an operand or result", name)
	}
	for i := range d.Attrs {
		if d.Attrs[i].Name == name {
			b.cf.used = append(b.cf.used, name)
			return &fmtElem{kind: fAttr, idx: i}, nil
		}
	}
	for i, r := range d.Regions {
		if r.Name == name {
			return &fmtElem{kind: fRegion, idx: i}, nil
		}
	}
	return nil, fmt.Errorf("unknown variable '$%s'", name)
}

func (b *fmtBuilder) elem(e *fmtASTElem, inType bool) (*fmtElem, error) {
	switch {
	case e.Group != nil:
		body, err := b.elems(e.Group.Elems, true)
		if err != nil {
			return nil, err
		}
		g := &fmtElem{kind: fOptional, args: body}
		for i, ae := range e.Group.Elems {
			if ae.IsAnchor {
				if g.anchor != nil {
					return nil, fmt.Errorf("only one anchor '^' is allowed in an optional group")
				}
				g.anchor = body[i]
			}
		}
		if g.anchor == nil {
			return nil, fmt.Errorf("optional group has no anchor '^'")
		}
		if a := g.anchor; a.kind == fAttr && b.def.Attrs[a.idx].Kind == UnitAttrKind && a != body[0] {
			g.elided = a
		}
		switch first := body[0]; first.kind {
		case fLiteral, fOperand, fAttr, fRegion, fType, fCustom:
		default:
			return nil, fmt.Errorf("first element of an optional group must be a literal, variable, type or custom directive")
		}
		return g, nil
	case e.Var != "":
		return b.variable(e.Var[1:], inType)
	case e.Literal != "":
		lit := e.Literal[1 : len(e.Literal)-1]
		if lit == "" || lit == " " {
			return &fmtElem{kind: fSpace, lit: lit}, nil
		}
		if strings.TrimSpace(lit) != lit {
			return nil, fmt.Errorf("literal `%s` has leading or trailing spaces", lit)
		}
		return &fmtElem{kind: fLiteral, lit: lit}, nil
	case e.Punct != "":
		return &fmtElem{kind: fLiteral, lit: e.Punct}, nil
	case e.Bare != "":
		// attr-dict takes no arguments: a group after it is not its
		// argument list (`attr-dict ($srcs^ `:` type($srcs))?`).
		return b.directive(&fmtASTDir{Name: e.Bare})
	case e.Dir != nil:
		return b.directive(e.Dir)
	}
	return nil, fmt.Errorf("empty element")
}

func (b *fmtBuilder) directive(dir *fmtASTDir) (*fmtElem, error) {
	if dir.Word != "" {
		dir = &fmtASTDir{Name: dir.Word}
	}
	args := func(n int) ([]*fmtElem, error) {
		if len(dir.Args) != n {
			return nil, fmt.Errorf("'%s' takes %d argument(s)", dir.Name, n)
		}
		out := make([]*fmtElem, n)
		for i, a := range dir.Args {
			el, err := b.typeArg(a)
			if err != nil {
				return nil, err
			}
			out[i] = el
		}
		return out, nil
	}
	switch dir.Name {
	case "attr-dict", "attr-dict-with-keyword":
		if b.sawAttrDict {
			return nil, fmt.Errorf("'attr-dict' directive has already been seen")
		}
		b.sawAttrDict = true
		if dir.Name == "attr-dict" {
			return &fmtElem{kind: fAttrDict}, nil
		}
		return &fmtElem{kind: fAttrDictKw}, nil
	case "type", "qualified":
		a, err := args(1)
		if err != nil {
			return nil, err
		}
		if dir.Name == "qualified" {
			// qualified(type($x)) prints the same types here: this
			// package always prints dialect types in full.
			if a[0].kind != fType {
				return nil, fmt.Errorf("'qualified' takes a type directive")
			}
			return a[0], nil
		}
		b.markTyped(a[0])
		return &fmtElem{kind: fType, args: a}, nil
	case "functional-type":
		a, err := args(2)
		if err != nil {
			return nil, err
		}
		b.markTyped(a[0])
		b.markTyped(a[1])
		return &fmtElem{kind: fFunctional, args: a}, nil
	case "operands":
		return &fmtElem{kind: fOperands}, nil
	case "results":
		return nil, fmt.Errorf("'results' can only be used in a type directive")
	case "regions":
		b.cf.hasRegionsDir = true
		return &fmtElem{kind: fRegions}, nil
	case "custom":
		c, ok := b.def.Custom[dir.Custom]
		if !ok || dir.Custom == "" {
			return nil, fmt.Errorf("unknown custom directive '%s'", dir.Custom)
		}
		b.custom = true
		b.cf.customs = append(b.cf.customs, c)
		return &fmtElem{kind: fCustom, custom: c, lit: dir.Custom}, nil
	}
	return nil, fmt.Errorf("unknown directive '%s'", dir.Name)
}

// typeArg compiles an argument of type or functional-type.
func (b *fmtBuilder) typeArg(a *fmtASTElem) (*fmtElem, error) {
	switch {
	case a.Var != "":
		return b.variable(a.Var[1:], true)
	case a.Dir != nil && a.Dir.Word == "operands":
		return &fmtElem{kind: fOperands}, nil
	case a.Dir != nil && a.Dir.Word == "results":
		return &fmtElem{kind: fResults}, nil
	case a.Dir != nil && a.Dir.Name == "type":
		// qualified(type($x))
		el, err := b.directive(a.Dir)
		return el, err
	}
	return nil, fmt.Errorf("expected '$name', operands or results as a type argument")
}

func (b *fmtBuilder) markTyped(e *fmtElem) {
	switch e.kind {
	case fOperand:
		b.typed[e.idx] = true
	case fResult:
		b.typed[-1-e.idx] = true
	case fOperands:
		for i := range b.def.Operands {
			b.typed[i] = true
		}
	case fResults:
		for i := range b.def.Results {
			b.typed[-1-i] = true
		}
	}
}

// checkTypes reports a group whose type neither the format nor a rule nor
// a trait gives (mlir-tblgen's "type of operand #N, named 'x', is not
// buildable and a buildable type cannot be inferred").
func (b *fmtBuilder) checkTypes() error {
	d := b.def
	known := func(k int) bool { return b.typed[k] }
	key := func(name string) (int, bool) {
		if i := d.operandIndex(name); i >= 0 {
			return i, true
		}
		if i := d.resultIndex(name); i >= 0 {
			return -1 - i, true
		}
		return 0, false
	}
	for _, r := range d.TypeRules {
		if _, ok := key(r.Target); !ok {
			return fmt.Errorf("type rule names unknown '%s'", r.Target)
		}
		if _, ok := key(r.From); !ok {
			return fmt.Errorf("type rule names unknown '%s'", r.From)
		}
	}
	if b.custom || d.InferTypes != nil {
		return nil
	}
	for changed := true; changed; {
		changed = false
		for _, r := range d.TypeRules {
			t, _ := key(r.Target)
			f, _ := key(r.From)
			if !known(t) && known(f) {
				b.typed[t], changed = true, true
			}
		}
	}
	same := d.Traits&SameOperandsAndResultType != 0
	anyKnown := len(b.typed) > 0
	for i, a := range d.Operands {
		if !known(i) && !(same && anyKnown) {
			return fmt.Errorf("type of operand '%s' is neither written nor inferable", a.Name)
		}
	}
	for i, a := range d.Results {
		if !known(-1-i) && !(same && anyKnown) {
			return fmt.Errorf("type of result '%s' is neither written nor inferable", a.Name)
		}
	}
	return nil
}

// ---- parsing ----

// FormatState holds what a declarative format has read so far: the
// operand references and types of each declared group. Custom directives
// record theirs through it.
type FormatState struct {
	def     *OpDef
	cf      *compiledFormat
	refs    [][]OperandRef // per operand group
	refPos  []Pos
	seen    []bool
	opTypes [][]Type // per operand group; nil = not known yet
	resType [][]Type // per result group
	allRefs []OperandRef
	all     bool

	splitOperandTypes, splitResultTypes       []Type
	hasSplitOperandTypes, hasSplitResultTypes bool
}

// SetOperands records the operands of group name.
func (fs *FormatState) SetOperands(name string, refs []OperandRef, pos Pos) {
	if i := fs.def.operandIndex(name); i >= 0 {
		fs.refs[i], fs.refPos[i], fs.seen[i] = refs, pos, true
	}
}

// SetTypes records the types of the operand or result group name.
func (fs *FormatState) SetTypes(name string, ts []Type) {
	if i := fs.def.operandIndex(name); i >= 0 {
		fs.opTypes[i] = ts
	} else if i := fs.def.resultIndex(name); i >= 0 {
		fs.resType[i] = ts
	}
}

// Operands returns the operand references recorded for group name.
func (fs *FormatState) Operands(name string) []OperandRef {
	if i := fs.def.operandIndex(name); i >= 0 {
		return fs.refs[i]
	}
	return nil
}

// Types returns the types recorded for the operand or result group name.
func (fs *FormatState) Types(name string) []Type {
	if i := fs.def.operandIndex(name); i >= 0 {
		return fs.opTypes[i]
	}
	if i := fs.def.resultIndex(name); i >= 0 {
		return fs.resType[i]
	}
	return nil
}

func parseFormat(p *OpParser, st *OpState, d *OpDef, cf *compiledFormat) error {
	fs := p.getFormatState(d)
	fs.cf = cf
	defer p.putFormatState(fs)
	if err := parseElems(p, st, fs, cf.elems); err != nil {
		return err
	}
	return resolveFormat(p, st, fs)
}

// getFormatState returns a cleared state for an op of definition d, from
// the parser's free list (formats nest: a region inside an op's format
// holds ops with formats of their own). The slices it hands out for
// references and types come from the parser's arenas.
func (p *OpParser) getFormatState(d *OpDef) *FormatState {
	var fs *FormatState
	if n := len(p.fmtFree); n > 0 {
		fs = p.fmtFree[n-1]
		p.fmtFree = p.fmtFree[:n-1]
	} else {
		fs = &FormatState{}
	}
	no, nr := len(d.Operands), len(d.Results)
	*fs = FormatState{
		def:     d,
		refs:    clearSlice(fs.refs, no),
		refPos:  clearSlice(fs.refPos, no),
		seen:    clearSlice(fs.seen, no),
		opTypes: clearSlice(fs.opTypes, no),
		resType: clearSlice(fs.resType, nr),
	}
	return fs
}

func (p *OpParser) putFormatState(fs *FormatState) { p.fmtFree = append(p.fmtFree, fs) }

// clearSlice returns s resized to n zero elements, reusing its array.
func clearSlice[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// keepTypes copies ts into the parser's type arena. An empty list is
// empty, not nil: nil means "not known yet" to the type rules.
func (p *OpParser) keepTypes(ts []Type) []Type {
	n := len(ts)
	if n == 0 {
		return []Type{}
	}
	if n > 256 {
		return append([]Type(nil), ts...)
	}
	if cap(p.typeArena)-len(p.typeArena) < n {
		p.typeArena = make([]Type, 0, 4096)
	}
	start := len(p.typeArena)
	p.typeArena = append(p.typeArena, ts...)
	return p.typeArena[start : start+n : start+n]
}

// repeatType returns n copies of t from the parser's type arena.
func (p *OpParser) repeatType(t Type, n int) []Type {
	if n == 0 {
		return []Type{}
	}
	if n > 256 {
		return repeatType(t, n)
	}
	if cap(p.typeArena)-len(p.typeArena) < n {
		p.typeArena = make([]Type, 0, 4096)
	}
	start := len(p.typeArena)
	for range n {
		p.typeArena = append(p.typeArena, t)
	}
	return p.typeArena[start : start+n : start+n]
}

func parseElems(p *OpParser, st *OpState, fs *FormatState, elems []*fmtElem) error {
	for _, e := range elems {
		if err := parseElem(p, st, fs, e); err != nil {
			return err
		}
	}
	return nil
}

func isKeywordLiteral(s string) bool {
	c := s[0]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func parseElem(p *OpParser, st *OpState, fs *FormatState, e *fmtElem) error {
	d := fs.def
	switch e.kind {
	case fSpace:
		return nil
	case fLiteral:
		if isKeywordLiteral(e.lit) {
			return p.ParseKeyword(e.lit)
		}
		return p.Expect(e.lit)
	case fOperand:
		pos := p.Pos()
		var refs []OperandRef
		switch d.Operands[e.idx].Arity {
		case One:
			r, err := p.ParseOperand()
			if err != nil {
				return err
			}
			refs = p.keepRefs([]OperandRef{r})
		case Optional:
			if p.PeekOperand() {
				r, err := p.ParseOperand()
				if err != nil {
					return err
				}
				refs = p.keepRefs([]OperandRef{r})
			}
		default:
			var err error
			if refs, err = p.ParseOperandList(); err != nil {
				return err
			}
		}
		fs.refs[e.idx], fs.refPos[e.idx], fs.seen[e.idx] = refs, pos, true
		return nil
	case fOperands:
		pos := p.Pos()
		refs, err := p.ParseOperandList()
		if err != nil {
			return err
		}
		fs.allRefs, fs.all = refs, true
		if len(fs.refPos) > 0 {
			fs.refPos[0] = pos
		}
		return nil
	case fAttr:
		a := &d.Attrs[e.idx]
		v, err := parseAttrValue(p, a)
		if err != nil {
			return err
		}
		putAttr(st, a, v)
		return nil
	case fAttrDict:
		return p.ParseOptionalAttrDict(st)
	case fAttrDictKw:
		return p.ParseOptionalAttrDictWithKeyword(st)
	case fType:
		return parseTypeArg(p, fs, e.args[0])
	case fFunctional:
		pos := p.Pos()
		t, err := p.ParseType()
		if err != nil {
			return err
		}
		ft, ok := t.(*FunctionType)
		if !ok {
			return p.Errorf(pos, "invalid kind of type specified")
		}
		setTypes(fs, e.args[0], ft.Inputs)
		setTypes(fs, e.args[1], ft.Results)
		return nil
	case fRegion:
		if d.Regions[e.idx].Arity == Variadic {
			return parseRegionList(p, st, d)
		}
		if d.Regions[e.idx].Arity == Optional && !p.isPunct("{") {
			st.Regions = append(st.Regions, &Region{})
			return nil
		}
		r, err := p.ParseRegion(nil, d.Traits&IsolatedFromAbove != 0)
		if err != nil {
			return err
		}
		st.Regions = append(st.Regions, r)
		return nil
	case fRegions:
		return parseRegionList(p, st, d)
	case fCustom:
		return e.custom.Parse(p, st, fs)
	case fOptional:
		if !optionalPresent(p, d, e.args[0]) {
			return nil
		}
		if e.elided != nil {
			putAttr(st, &d.Attrs[e.elided.idx], Unit)
		}
		for i, c := range e.args {
			// optionalPresent consumed a leading literal.
			if c == e.elided || i == 0 && c.kind == fLiteral {
				continue
			}
			if err := parseElem(p, st, fs, c); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("internal error: format element %d", e.kind)
}

func parseRegionList(p *OpParser, st *OpState, d *OpDef) error {
	if !p.isPunct("{") {
		return nil
	}
	for {
		r, err := p.ParseRegion(nil, d.Traits&IsolatedFromAbove != 0)
		if err != nil {
			return err
		}
		st.Regions = append(st.Regions, r)
		if !p.ParseOptional(",") {
			return nil
		}
	}
}

// optionalPresent says whether the first element of an optional group is
// next in the input.
func optionalPresent(p *OpParser, d *OpDef, first *fmtElem) bool {
	switch first.kind {
	case fLiteral:
		if isKeywordLiteral(first.lit) {
			return p.ParseOptionalKeyword(first.lit)
		}
		return p.ParseOptional(first.lit)
	case fOperand:
		return p.PeekOperand()
	case fRegion:
		return p.isPunct("{")
	case fType:
		return p.atType()
	case fAttr:
		a := &d.Attrs[first.idx]
		switch a.Kind {
		case EnumAttrKind:
			if p.tok.kind == tBareID {
				_, ok := a.Enum.Value(p.tok.text)
				return ok
			}
			return p.tok.kind == tString
		case I32Attr, I64Attr:
			return p.tok.kind == tInt || p.isPunct("-")
		case StrAttr:
			return p.tok.kind == tString
		case SymbolAttr, SymbolRef:
			return p.tok.kind == tAt
		case BoolAttrKind:
			return p.tok.kind == tBareID && (p.tok.text == "true" || p.tok.text == "false")
		case TypeAttrKind:
			return p.atType()
		case DenseI32Array, DenseI64Array:
			return p.isPunct("[")
		}
		return p.tok.kind == tHash || p.tok.kind == tInt || p.tok.kind == tString || p.isPunct("[")
	case fCustom:
		// A custom directive as guard always runs; it parses nothing when
		// its piece is absent.
		return true
	}
	return false
}

// atType reports whether a type starts at the current token.
func (p *OpParser) atType() bool {
	switch p.tok.kind {
	case tExcl:
		return true
	case tPunct:
		return p.tok.text == "("
	case tBareID:
		t := p.tok.text
		switch {
		case t == "index" || t == "none" || t == "tensor" || t == "vector" || t == "memref" || t == "tuple" || t == "complex":
			return true
		case FloatTypeOf(t) != nil:
			return true
		}
		digits := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(t, "si"), "ui"), "i")
		if digits != t && digits != "" && digits[0] >= '1' && digits[0] <= '9' {
			return strings.Trim(digits, "0123456789") == ""
		}
	}
	return false
}

func parseTypeArg(p *OpParser, fs *FormatState, a *fmtElem) error {
	d := fs.def
	switch a.kind {
	case fOperand:
		var n int
		switch d.Operands[a.idx].Arity {
		case One:
			n = 1
		default:
			n = len(fs.refs[a.idx])
			if !fs.seen[a.idx] {
				n = -1
			}
		}
		ts, err := parseTypesN(p, n)
		if err != nil {
			return err
		}
		fs.opTypes[a.idx] = ts
	case fResult:
		n := 1
		if d.Results[a.idx].Arity != One {
			n = -1
		}
		ts, err := parseTypesN(p, n)
		if err != nil {
			return err
		}
		fs.resType[a.idx] = ts
	case fOperands:
		n := len(fs.allRefs)
		if !fs.all {
			n = -1
		}
		ts, err := parseTypesN(p, n)
		if err != nil {
			return err
		}
		setTypes(fs, a, ts)
	case fResults:
		ts, err := parseTypesN(p, -1)
		if err != nil {
			return err
		}
		setTypes(fs, a, ts)
	}
	return nil
}

// parseTypesN parses n comma-separated types, or as many as there are
// when n < 0 (none when no type starts here).
func parseTypesN(p *OpParser, n int) ([]Type, error) {
	if n == 0 || n < 0 && !p.atType() {
		return nil, nil
	}
	var buf [8]Type
	ts := buf[:0]
	for {
		t, err := p.ParseType()
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
		if n > 0 && len(ts) == n || !p.ParseOptional(",") {
			return p.keepTypes(ts), nil
		}
	}
}

// setTypes records ts for a type-directive argument; for `operands` and
// `results` they are split among the groups at resolution.
func setTypes(fs *FormatState, a *fmtElem, ts []Type) {
	switch a.kind {
	case fOperand:
		fs.opTypes[a.idx] = ts
	case fResult:
		fs.resType[a.idx] = ts
	case fOperands:
		fs.splitOperandTypes = ts
		fs.hasSplitOperandTypes = true
	case fResults:
		fs.splitResultTypes = ts
		fs.hasSplitResultTypes = true
	}
}

func putAttr(st *OpState, a *AttrDef, v Attribute) {
	na := NamedAttr{Name: a.Name, Value: v}
	if a.Discardable {
		st.Attrs = append(st.Attrs, na)
	} else {
		st.Props = append(st.Props, na)
	}
}

func parseAttrValue(p *OpParser, a *AttrDef) (Attribute, error) {
	pos := p.Pos()
	switch a.Kind {
	case EnumAttrKind:
		var word string
		if p.tok.kind == tString {
			word = p.tok.text
			p.advance()
		} else {
			w, err := p.ParseIdent(a.Enum.Name)
			if err != nil {
				return nil, err
			}
			word = w
		}
		v, ok := a.Enum.Value(word)
		if !ok {
			return nil, p.Errorf(pos, "expected %s to be one of: %s", a.Enum.Name, strings.Join(a.Enum.Cases, ", "))
		}
		return a.Enum.Attr(v), nil
	case I32Attr, I64Attr:
		v, err := p.ParseInt()
		if err != nil {
			return nil, err
		}
		if a.Kind == I32Attr {
			if v < -1<<31 || v >= 1<<32 {
				return nil, p.Errorf(pos, "integer value too large")
			}
			return Int(v, I32), nil
		}
		return Int(v, I64), nil
	case BoolAttrKind:
		switch {
		case p.ParseOptionalKeyword("true"):
			return True, nil
		case p.ParseOptionalKeyword("false"):
			return False, nil
		}
		return nil, p.errorHere("expected 'true' or 'false'")
	case UnitAttrKind:
		return Unit, nil
	case StrAttr:
		s, err := p.ParseString()
		if err != nil {
			return nil, err
		}
		return Str(s), nil
	case SymbolAttr:
		s, err := p.ParseSymbolName()
		if err != nil {
			return nil, err
		}
		return Str(s), nil
	case SymbolRef:
		v, err := p.ParseAttr()
		if err != nil {
			return nil, err
		}
		if _, ok := v.(*SymbolRefAttr); !ok {
			return nil, p.Errorf(pos, "expected symbol reference")
		}
		return v, nil
	case TypeAttrKind:
		t, err := p.ParseType()
		if err != nil {
			return nil, err
		}
		return &TypeAttr{Type: t}, nil
	case DenseI32Array, DenseI64Array:
		elem := I32
		if a.Kind == DenseI64Array {
			elem = I64
		}
		if err := p.Expect("["); err != nil {
			return nil, err
		}
		d := &DenseArrayAttr{Elem: elem, Ints: []int64{}}
		if p.ParseOptional("]") {
			return d, nil
		}
		for {
			v, err := p.ParseInt()
			if err != nil {
				return nil, err
			}
			d.Ints = append(d.Ints, v)
			if p.ParseOptional("]") {
				return d, nil
			}
			if err := p.Expect(","); err != nil {
				return nil, err
			}
		}
	}
	return p.ParseAttr()
}

// resolveFormat infers the types the text left out and resolves the
// operands, in the order of the declared groups (MLIR's order).
func resolveFormat(p *OpParser, st *OpState, fs *FormatState) error {
	d := fs.def
	if fs.all {
		b, ok := groups(d.Operands, len(fs.allRefs), nil)
		if !ok {
			return p.Errorf(fs.refPos[0], "%d operands present, but expected %d", len(fs.allRefs), len(d.Operands))
		}
		for i := range d.Operands {
			fs.refs[i] = fs.allRefs[b[i]:b[i+1]]
			fs.seen[i] = true
		}
	}
	if fs.hasSplitOperandTypes {
		if err := splitTypes(fs.splitOperandTypes, d.Operands, fs.refs, fs.opTypes); err != nil {
			return p.Errorf(fs.refPos[0], "%v", err)
		}
	}
	if fs.hasSplitResultTypes {
		if err := splitTypes(fs.splitResultTypes, d.Results, nil, fs.resType); err != nil {
			return p.errorHere("%v", err)
		}
	}
	// Fill in types from the rules and the traits, until nothing changes.
	slot := func(k int) *[]Type {
		if k >= 0 {
			return &fs.opTypes[k]
		}
		return &fs.resType[-1-k]
	}
	for changed := true; changed; {
		changed = false
		for _, r := range fs.cf.rules {
			t, f := slot(r.target), slot(r.from)
			if *t != nil || len(*f) == 0 {
				continue
			}
			out := (*f)[0]
			if r.fn != nil {
				if out = r.fn(out); out == nil {
					continue
				}
			}
			n := 1
			if r.target >= 0 {
				n = len(fs.refs[r.target])
			}
			*t = p.repeatType(out, n)
			changed = true
		}
	}
	if d.Traits&SameOperandsAndResultType != 0 {
		var known Type
		for _, ts := range fs.opTypes {
			if len(ts) > 0 && known == nil {
				known = ts[0]
			}
		}
		for _, ts := range fs.resType {
			if len(ts) > 0 && known == nil {
				known = ts[0]
			}
		}
		if known != nil {
			for i := range d.Operands {
				if fs.opTypes[i] == nil {
					fs.opTypes[i] = p.repeatType(known, len(fs.refs[i]))
				}
			}
			for i, r := range d.Results {
				if fs.resType[i] == nil && r.Arity == One {
					fs.resType[i] = p.repeatType(known, 1)
				}
			}
		}
	}
	if d.InferTypes != nil {
		if err := d.InferTypes(fs); err != nil {
			return p.errorHere("%v", err)
		}
	}
	// Resolve group by group; the values go into one slice of the
	// parser's arena (the op copies them).
	total := 0
	for i := range d.Operands {
		total += len(fs.refs[i])
	}
	operands := p.valueSlice(total)[:0]
	for i := range d.Operands {
		refs, ts := fs.refs[i], fs.opTypes[i]
		if len(refs) == 0 {
			continue
		}
		if len(ts) != len(refs) {
			return p.Errorf(fs.refPos[i], "%d operands present, but expected %d", len(refs), len(ts))
		}
		vs, err := p.ResolveAll(refs, ts, fs.refPos[i])
		if err != nil {
			return err
		}
		operands = append(operands, vs...)
	}
	st.Operands = operands
	if d.Traits&AttrSizedOperandSegments != 0 {
		sizes := make([]int64, len(d.Operands))
		for i := range d.Operands {
			sizes[i] = int64(len(fs.refs[i]))
		}
		st.Props = append(st.Props, NamedAttr{"operandSegmentSizes", &DenseArrayAttr{Elem: I32, Ints: sizes}})
	}
	if len(d.Results) == 1 {
		st.Types = fs.resType[0]
	} else {
		var buf [8]Type
		types := buf[:0]
		for i := range d.Results {
			types = append(types, fs.resType[i]...)
		}
		st.Types = p.keepTypes(types)
	}
	for i, r := range d.Results {
		if fs.resType[i] == nil && r.Arity == One {
			return p.errorHere("cannot infer the type of result '%s'", r.Name)
		}
	}
	return nil
}

func repeatType(t Type, n int) []Type {
	ts := make([]Type, n)
	for i := range ts {
		ts[i] = t
	}
	return ts
}

// splitTypes divides a flat type list among declared groups (operands:
// by the parsed reference counts; results: one variable group at most).
func splitTypes(ts []Type, decls []ArgDef, refs [][]OperandRef, out [][]Type) error {
	var b []int
	if refs != nil {
		b = make([]int, len(decls)+1)
		for i := range decls {
			b[i+1] = b[i] + len(refs[i])
		}
		if b[len(decls)] != len(ts) {
			return fmt.Errorf("%d operands present, but expected %d", b[len(decls)], len(ts))
		}
	} else {
		var ok bool
		if b, ok = groups(decls, len(ts), nil); !ok {
			return fmt.Errorf("expected %d types", len(decls))
		}
	}
	for i := range decls {
		out[i] = ts[b[i]:b[i+1]]
	}
	return nil
}

// ---- printing ----

type fmtPrinter struct {
	p               *OpPrinter
	op              *Operation
	d               *OpDef
	cf              *compiledFormat
	shouldEmitSpace bool
	lastWasPunct    bool
	// The index bounds of the operand and result groups, in place (the
	// printer is a stack value: slices into itself would send it to the
	// heap); ook/rok are false when the op does not fit its declaration.
	ob, rb   [9]int
	ook, rok bool
	big      []int // operand bounds of ops with more than 8 groups
}

func printFormat(p *OpPrinter, op *Operation, d *OpDef, cf *compiledFormat) {
	fp := fmtPrinter{p: p, op: op, d: d, cf: cf, shouldEmitSpace: true}
	if n := len(d.Operands) + 1; n <= len(fp.ob) {
		var b []int
		b, fp.ook = op.operandBoundsInto(fp.ob[:n])
		if fp.ook && len(b) > 0 && &b[0] != &fp.ob[0] {
			copy(fp.ob[:], b)
		}
	} else {
		fp.big, fp.ook = op.operandBounds()
	}
	if n := len(d.Results) + 1; n <= len(fp.rb) {
		_, fp.rok = groupsInto(fp.rb[:n], d.Results, op.NumResults(), nil)
	}
	for _, e := range cf.elems {
		fp.elem(e)
	}
}

// operandRange and resultRange give the index bounds of a declared group
// (empty when the op's counts do not fit its declaration).
func (fp *fmtPrinter) operandRange(i int) (int, int) {
	switch {
	case !fp.ook:
		return 0, 0
	case fp.big != nil:
		return fp.big[i], fp.big[i+1]
	}
	return fp.ob[i], fp.ob[i+1]
}

func (fp *fmtPrinter) resultRange(i int) (int, int) {
	if !fp.rok {
		return 0, 0
	}
	return fp.rb[i], fp.rb[i+1]
}

// typeRange returns, for a type-directive argument, whether it names
// operands or results and its index bounds.
func (fp *fmtPrinter) typeRange(a *fmtElem) (results bool, lo, hi int) {
	switch a.kind {
	case fOperand:
		lo, hi = fp.operandRange(a.idx)
	case fResult:
		lo, hi = fp.resultRange(a.idx)
		results = true
	case fOperands:
		hi = fp.op.NumOperands()
	case fResults:
		hi, results = fp.op.NumResults(), true
	}
	return
}

// printTypes writes the types of a type-directive argument, comma-separated.
func (fp *fmtPrinter) printTypes(a *fmtElem) {
	results, lo, hi := fp.typeRange(a)
	for k := lo; k < hi; k++ {
		if k > lo {
			fp.p.buf = append(fp.p.buf, ", "...)
		}
		if results {
			fp.p.Type(fp.op.results[k].typ)
		} else {
			fp.p.Type(fp.op.operands[k].value.Type())
		}
	}
}

func (fp *fmtPrinter) typesOf(a *fmtElem) []Type {
	results, lo, hi := fp.typeRange(a)
	ts := make([]Type, 0, hi-lo)
	for k := lo; k < hi; k++ {
		if results {
			ts = append(ts, fp.op.results[k].typ)
		} else {
			ts = append(ts, fp.op.operands[k].value.Type())
		}
	}
	return ts
}

// literal prints a literal with the spacing of MLIR's generated printers.
func (fp *fmtPrinter) literal(v string) {
	if fp.shouldEmitSpace && spaceBefore(v, fp.lastWasPunct) {
		fp.p.buf = append(fp.p.buf, ' ')
	}
	fp.p.buf = append(fp.p.buf, v...)
	fp.shouldEmitSpace = len(v) != 1 || !strings.ContainsRune("<({[", rune(v[0]))
	fp.lastWasPunct = v[0] != '_' && !isAlpha(v[0])
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func spaceBefore(v string, lastWasPunct bool) bool {
	if len(v) != 1 && v != "->" {
		return true
	}
	if lastWasPunct {
		return !strings.ContainsRune(">)}],", rune(v[0]))
	}
	return !strings.ContainsRune("<>(){}[],", rune(v[0]))
}

// space emits the space MLIR puts before a non-literal element.
func (fp *fmtPrinter) space() {
	if fp.shouldEmitSpace || !fp.lastWasPunct {
		fp.p.buf = append(fp.p.buf, ' ')
	}
	fp.lastWasPunct = false
	fp.shouldEmitSpace = true
}

func (fp *fmtPrinter) elem(e *fmtElem) {
	p, op, d := fp.p, fp.op, fp.d
	switch e.kind {
	case fSpace:
		// MLIR's genSpacePrinter.
		if e.lit == " " {
			p.buf = append(p.buf, ' ')
			fp.lastWasPunct = false
		} else {
			fp.lastWasPunct = true
		}
		fp.shouldEmitSpace = false
	case fLiteral:
		fp.literal(e.lit)
	case fAttrDict, fAttrDictKw:
		elided := fp.cf.elided
		if len(fp.cf.customs) > 0 || fp.cf.hasDefaults {
			var buf [16]string
			elided = append(buf[:0], elided...)
		}
		for _, c := range fp.cf.customs {
			if c.Elide == nil || c.Elide(op) {
				elided = append(elided, c.Attrs...)
			}
		}
		for i := range d.Attrs {
			a := &d.Attrs[i]
			if a.Default != nil {
				if v := op.Attr(a.Name); v != nil && AttrsEqual(v, a.Default) {
					elided = append(elided, a.Name)
				}
			}
		}
		if e.kind == fAttrDict {
			p.AttrDict(op, elided...)
		} else {
			p.AttrDictWithKeyword(op, elided...)
		}
		fp.lastWasPunct = false
	case fOperand:
		lo, hi := fp.operandRange(e.idx)
		if lo == hi && d.Operands[e.idx].Arity != One {
			// Nothing to print: MLIR would print a stray space; the
			// printers this package matches print none.
			return
		}
		fp.space()
		p.OperandRange(op, lo, hi)
	case fOperands:
		if op.NumOperands() == 0 {
			return
		}
		fp.space()
		p.OperandRange(op, 0, op.NumOperands())
	case fAttr:
		a := &d.Attrs[e.idx]
		fp.space()
		printAttrValue(p, a, op.AttrOrDefault(a.Name))
	case fType:
		fp.space()
		fp.printTypes(e.args[0])
	case fFunctional:
		fp.space()
		p.FunctionalType(fp.typesOf(e.args[0]), fp.typesOf(e.args[1]))
	case fRegion:
		if e.idx < len(op.regions) {
			if d.Regions[e.idx].Arity == Optional && len(op.regions[e.idx].Blocks) == 0 {
				return
			}
			fp.space()
			p.Region(op.regions[e.idx], true, false)
		}
	case fRegions:
		if len(op.regions) == 0 {
			return
		}
		fp.space()
		for i, r := range op.regions {
			if i > 0 {
				p.Raw(", ")
			}
			p.Region(r, true, false)
		}
	case fCustom:
		if !e.custom.OwnSpace {
			fp.space()
			e.custom.Print(p, op)
			return
		}
		n := len(p.buf)
		e.custom.Print(p, op)
		if len(p.buf) > n {
			fp.lastWasPunct = false
			fp.shouldEmitSpace = true
		}
	case fOptional:
		if !fp.present(e.anchor) {
			return
		}
		for _, c := range e.args {
			if c != e.elided {
				fp.elem(c)
			}
		}
	}
}

// present says whether an optional group's anchor is there.
func (fp *fmtPrinter) present(a *fmtElem) bool {
	switch a.kind {
	case fOperand:
		lo, hi := fp.operandRange(a.idx)
		return hi > lo
	case fResult:
		lo, hi := fp.resultRange(a.idx)
		return hi > lo
	case fType:
		return fp.present(a.args[0])
	case fFunctional:
		return fp.present(a.args[0])
	case fAttr:
		at := &fp.d.Attrs[a.idx]
		v := fp.op.Attr(at.Name)
		if v == nil {
			return false
		}
		if at.Kind == UnitAttrKind {
			return true
		}
		return at.Default == nil || !AttrsEqual(v, at.Default)
	case fRegion:
		return a.idx < len(fp.op.regions) && len(fp.op.regions[a.idx].Blocks) > 0
	case fCustom:
		return true
	}
	return true
}

func printAttrValue(p *OpPrinter, a *AttrDef, v Attribute) {
	switch a.Kind {
	case EnumAttrKind:
		if i, ok := v.(*IntegerAttr); ok {
			name := a.Enum.Keyword(i.Value)
			if name != "" && isKeywordLiteral(name) {
				p.Raw(name)
			} else {
				p.String(name)
			}
			return
		}
	case I32Attr, I64Attr:
		if i, ok := v.(*IntegerAttr); ok {
			p.buf = appendIntValue(p.buf, i.Value, i.Type)
			return
		}
	case BoolAttrKind:
		if b, ok := v.(*BoolAttr); ok {
			if b.Value {
				p.Raw("true")
			} else {
				p.Raw("false")
			}
			return
		}
	case StrAttr:
		if s, ok := v.(*StringAttr); ok {
			p.String(s.Value)
			return
		}
	case SymbolAttr:
		if s, ok := v.(*StringAttr); ok {
			p.Symbol(s.Value)
			return
		}
	case TypeAttrKind:
		if t, ok := v.(*TypeAttr); ok {
			p.Type(t.Type)
			return
		}
	case DenseI32Array, DenseI64Array:
		if d, ok := v.(*DenseArrayAttr); ok {
			p.Raw("[")
			for i, x := range d.Ints {
				if i > 0 {
					p.Raw(", ")
				}
				p.buf = appendIntValue(p.buf, x, I64)
			}
			p.Raw("]")
			return
		}
	}
	if v != nil {
		p.Attr(v)
	}
}
