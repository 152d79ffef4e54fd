package filecheck

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"
)

// checkType is the kind of a directive.
type checkType int

const (
	checkNone checkType = iota
	checkPlain
	checkNext
	checkSame
	checkNot
	checkDAG
	checkLabel
	checkEmpty
	checkComment
	checkEOF
	checkBadNot
	checkBadCount
)

// abbrev is the label used in the input dump.
func (t checkType) abbrev(count int) string {
	switch t {
	case checkPlain:
		if count > 1 {
			return "count"
		}
		return "check"
	case checkNext:
		return "next"
	case checkSame:
		return "same"
	case checkNot:
		return "not"
	case checkDAG:
		return "dag"
	case checkLabel:
		return "label"
	case checkEmpty:
		return "empty"
	case checkComment:
		return "com"
	case checkEOF:
		return "eof"
	case checkBadNot:
		return "bad-not"
	case checkBadCount:
		return "bad-count"
	}
	return "none"
}

// description is "PREFIX", "PREFIX-NEXT", "PREFIX-COUNT", ... for messages.
func (t checkType) description(prefix string, count int) string {
	switch t {
	case checkPlain:
		if count > 1 {
			return prefix + "-COUNT"
		}
		return prefix
	case checkNext:
		return prefix + "-NEXT"
	case checkSame:
		return prefix + "-SAME"
	case checkNot:
		return prefix + "-NOT"
	case checkDAG:
		return prefix + "-DAG"
	case checkLabel:
		return prefix + "-LABEL"
	case checkEmpty:
		return prefix + "-EMPTY"
	case checkComment:
		return prefix
	case checkEOF:
		return "implicit EOF"
	case checkBadNot:
		return "bad NOT"
	case checkBadCount:
		return "bad COUNT"
	}
	return "invalid"
}

// description is FileCheckType::getDescription with modifiers.
func (p *pattern) description(prefix string) string {
	d := p.typ.description(prefix, p.count)
	if p.literal && p.typ != checkEOF {
		d += "{LITERAL}"
	}
	return d
}

// strValue is the value of a string variable and where it was captured
// (off < 0 for command-line definitions).
type strValue struct {
	text string
	off  int
}

// varContext holds the variables of one FileCheck run:
// FileCheckPatternContext.
type varContext struct {
	strVars    map[string]strValue
	definedStr map[string]bool
	numVars    map[string]*numVar
	lineVar    *numVar
}

func newVarContext() *varContext {
	return &varContext{
		strVars:    map[string]strValue{},
		definedStr: map[string]bool{},
		numVars:    map[string]*numVar{},
		lineVar:    &numVar{name: "@LINE", format: numFormat{kind: fmtUnsigned}},
	}
}

// clearLocalVars forgets every variable whose name does not start with '$'.
func (c *varContext) clearLocalVars() {
	for name := range c.strVars {
		if !strings.HasPrefix(name, "$") {
			delete(c.strVars, name)
		}
	}
	for name, v := range c.numVars {
		if !strings.HasPrefix(name, "$") {
			v.value = nil
		}
	}
}

type pieceKind int

const (
	pieceRaw      pieceKind = iota // Go regex text, used as is
	pieceRegex                     // {{...}}: Go text wrapped in a group
	pieceStrDef                    // [[NAME:regex]]
	pieceBackref                   // [[NAME]] defined earlier in the same pattern
	pieceStrSubst                  // [[NAME]] defined by an earlier directive
	pieceNumSubst                  // [[#expr]]
	pieceNumDef                    // [[#NAME:]] or [[#NAME:expr]]
)

type piece struct {
	kind   pieceKind
	re     string // Go regex text (pieceRaw, pieceRegex, pieceStrDef, pieceNumDef without expr)
	groups int    // capturing groups inside re
	name   string
	ref    int     // pieceBackref: index of the pieceStrDef piece
	sub    *subst  // pieceStrSubst, pieceNumSubst, pieceNumDef with expr
	nv     *numVar // pieceNumDef
}

// subst is a substitution: a string variable or numeric expression whose
// value is inserted into the pattern at match time.
type subst struct {
	from sref // "NAME" or the expression text, for messages
	expr *expression
}

// result returns the value to insert (unescaped), or the located errors.
func (s *subst) result(ctx *varContext) (string, []error) {
	if s.expr == nil {
		v, ok := ctx.strVars[s.from.str()]
		if !ok {
			return "", []error{errAt(s.from, "undefined variable: "+s.from.str())}
		}
		return v.text, nil
	}
	v, errs := s.expr.ast.eval()
	if len(errs) > 0 {
		var out []error
		for _, e := range errs {
			if _, ok := e.(errOverflow); ok {
				e = errAt(s.from, "unable to substitute variable or numeric expression: overflow error")
			}
			out = append(out, e)
		}
		return "", out
	}
	txt, err := s.expr.format.text(v)
	if err != nil {
		return "", []error{errAt(s.from, "unable to substitute variable or numeric expression: overflow error")}
	}
	return txt, nil
}

// llvmEscape is llvm::Regex::escape.
func llvmEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`()^$|*+?.[]\{}`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// pattern is one directive's compiled pattern: LLVM's Pattern.
type pattern struct {
	ctx        *varContext
	typ        checkType
	count      int
	loc        sref // where the pattern text starts (for diagnostics)
	line       int  // check-file line, 0 for implicit patterns
	ignoreCase bool
	literal    bool // {LITERAL} modifier

	fixed   string // non-empty: a literal pattern
	pieces  []piece
	llvmRe  string // LLVM's RegExStr, used by the fuzzy matcher
	substs  []*subst
	strDefs []int // indexes of pieceStrDef pieces
	numDefs []int // indexes of pieceNumDef pieces
	hasRef  bool

	cache map[reKey]*regexp.Regexp
}

// hasVariable reports whether the pattern defines or uses variables.
func (p *pattern) hasVariable() bool { return len(p.substs) > 0 || len(p.strDefs) > 0 }

// parseOptions are the request fields that affect pattern parsing.
type parseOptions struct {
	matchFullLines   bool
	strictWhitespace bool
	ignoreCase       bool
}

// parsePattern is Pattern::parsePattern. s is the pattern text (rest of the
// directive line); prefix is used in messages.
func parsePattern(ctx *varContext, typ checkType, count int, literal bool, line int, s sref, prefix string, opts parseOptions) (*pattern, error) {
	p := &pattern{ctx: ctx, typ: typ, count: count, line: line, ignoreCase: opts.ignoreCase, literal: literal, loc: s}
	fullLines := opts.matchFullLines && typ != checkNot
	if !(opts.strictWhitespace && opts.matchFullLines) {
		s = s.rtrim()
	}
	if s.empty() && typ != checkEmpty {
		return nil, errAt(s, "found empty check string with prefix '"+prefix+":'")
	}
	if !s.empty() && typ == checkEmpty {
		return nil, errAt(s, "found non-empty check string for empty check with prefix '"+prefix+":'")
	}
	if typ == checkEmpty {
		p.llvmRe = "(\n$)"
		p.pieces = []piece{{kind: pieceRaw, re: `(\n$)`, groups: 1}}
		return p, nil
	}
	str := s.str()
	if literal || (!fullLines && (len(str) < 2 || (!strings.Contains(str, "{{") && !strings.Contains(str, "[[")))) {
		p.fixed = str
		return p, nil
	}
	if fullLines {
		p.llvmRe = "^"
		p.pieces = append(p.pieces, piece{kind: pieceRaw, re: "^"})
		if !opts.strictWhitespace {
			p.llvmRe += " *"
			p.pieces = append(p.pieces, piece{kind: pieceRaw, re: " *"})
		}
	}
	curParen := 1
	defs := map[string]strDef{} // string variables defined so far in this pattern
	for !s.empty() {
		if s.hasPrefix("{{") {
			end := s.index("}}")
			if end < 0 {
				return nil, errAt(s, "found start of regex string with no end '}}'")
			}
			body := sref{s.b, s.lo + 2, s.lo + end}
			goRe, n, err := translateERE(body.str())
			if err != nil {
				return nil, errAt(body, "invalid regex: "+err.Error())
			}
			p.pieces = append(p.pieces, piece{kind: pieceRegex, re: goRe, groups: n})
			p.llvmRe += "(" + body.str() + ")"
			curParen += 1 + n
			s = s.dropFront(end + 2)
			continue
		}
		if s.hasPrefix("[[") && !s.hasPrefix("[[[") {
			rest := s.dropFront(2)
			end, err := findRegexVarEnd(rest)
			if err != nil {
				return nil, err
			}
			if end < 0 {
				return nil, errAt(s, "Invalid substitution block, no ]] found")
			}
			match := rest.takeFront(end)
			s = rest.dropFront(end + 2)
			isNum := match.consume("#")
			curParen, err = p.parseBlock(match, isNum, line, defs, curParen)
			if err != nil {
				return nil, err
			}
			continue
		}
		// Fixed text up to the next "{{" or "[[" (searching from offset 1).
		str := s.str()
		end := len(str)
		if i := strings.Index(str[1:], "{{"); i >= 0 {
			end = i + 1
		}
		if i := strings.Index(str[1:], "[["); i >= 0 && i+1 < end {
			end = i + 1
		}
		lit := str[:end]
		p.pieces = append(p.pieces, piece{kind: pieceRaw, re: quoteLiteral(lit)})
		p.llvmRe += llvmEscape(lit)
		s = s.dropFront(end)
	}
	if fullLines {
		if !opts.strictWhitespace {
			p.llvmRe += " *"
			p.pieces = append(p.pieces, piece{kind: pieceRaw, re: " *"})
		}
		p.llvmRe += "$"
		p.pieces = append(p.pieces, piece{kind: pieceRaw, re: "$"})
	}
	return p, nil
}

// strDef is a string variable defined earlier in the pattern being
// parsed: its pieceStrDef piece and its POSIX group number (LLVM limits
// back-references to \1..\9).
type strDef struct{ piece, paren int }

// findRegexVarEnd finds the "]]" closing a substitution block, honouring
// backslash escapes and nested brackets. -1 means not found.
func findRegexVarEnd(s sref) (int, error) {
	off, depth := 0, 0
	str := s.str()
	for off < len(str) {
		if strings.HasPrefix(str[off:], "]]") && depth == 0 {
			return off, nil
		}
		if str[off] == '\\' {
			off += 2
			continue
		}
		switch str[off] {
		case '[':
			depth++
		case ']':
			if depth == 0 {
				return 0, &diagError{b: s.b, off: s.lo + off, msg: `missing closing "]" for regex variable`, exit: 1}
			}
			depth--
		}
		off++
	}
	return -1, nil
}

// parseBlock handles one [[...]] block (match is its content without the
// brackets and without the leading '#'). curParen is the POSIX number of
// the next capturing group; it returns the number after the block's groups.
func (p *pattern) parseBlock(match sref, isNum bool, line int, defs map[string]strDef, curParen int) (int, error) {
	ctx := p.ctx
	isDef, substNeeded, legacyLine := false, false, false
	var defName string
	var substFrom sref
	var matchRegexp string
	if !isNum {
		varEnd := match.index(":")
		head := match.str()
		if varEnd >= 0 {
			head = head[:varEnd]
		}
		if sp := strings.IndexAny(head, " \t"); sp >= 0 {
			return 0, &diagError{b: match.b, off: match.lo + sp, msg: "unexpected whitespace"}
		}
		orig := match
		name, pseudo, err := parseVariable(&match)
		if err != nil {
			return 0, markLogged(err)
		}
		isDef = varEnd >= 0
		substNeeded = !isDef
		if isDef {
			if pseudo || !match.consume(":") {
				return 0, errAt(name, "invalid name in string variable definition")
			}
			if _, ok := ctx.numVars[name.str()]; ok {
				return 0, errAt(name, "numeric variable with name '"+name.str()+"' already exists")
			}
			defName = name.str()
			// An empty regex stays empty: LLVM skips it, and the group
			// then matches "".
			matchRegexp = match.str()
		} else if pseudo {
			match = orig
			legacyLine, isNum = true, true
		} else {
			if !match.empty() {
				return 0, errAt(name, "invalid name in string variable use")
			}
			substFrom = name
		}
	}
	var expr *expression
	var defVar *numVar
	if isNum {
		var err error
		expr, defVar, err = parseNumericBlock(match, legacyLine, line, ctx)
		if err != nil {
			return 0, markLogged(err)
		}
		substNeeded = expr.ast != nil
		if defVar != nil {
			isDef = true
			defName = defVar.name
		}
		if substNeeded {
			substFrom = match
		} else {
			matchRegexp = expr.format.wildcard()
		}
	}
	var goRe string
	groups := 0
	if matchRegexp != "" {
		var err error
		goRe, groups, err = translateERE(matchRegexp)
		if err != nil {
			// Point at the regex text inside the block.
			off := match.lo
			if i := strings.Index(match.b.text[match.lo:], matchRegexp); i >= 0 && !isNum {
				off += i
			}
			return 0, &diagError{b: match.b, off: off, msg: "invalid regex: " + err.Error()}
		}
	}
	if isDef {
		defParen := curParen
		curParen++
		if isNum {
			ctx.numVars[defName] = defVar
			pc := piece{kind: pieceNumDef, re: goRe, groups: groups, name: defName, nv: defVar}
			if substNeeded {
				pc.sub = &subst{from: substFrom, expr: expr}
				p.substs = append(p.substs, pc.sub)
			}
			p.numDefs = append(p.numDefs, len(p.pieces))
			p.pieces = append(p.pieces, pc)
			p.llvmRe += "(" + matchRegexp + ")"
		} else {
			ctx.definedStr[defName] = true
			defs[defName] = strDef{piece: len(p.pieces), paren: defParen}
			p.strDefs = append(p.strDefs, len(p.pieces))
			p.pieces = append(p.pieces, piece{kind: pieceStrDef, re: goRe, groups: groups, name: defName})
			p.llvmRe += "(" + matchRegexp + ")"
		}
		curParen += groups
		return curParen, nil
	}
	curParen += groups
	if matchRegexp != "" {
		// "[[#]]" or "[[#%x]]": a bare wildcard.
		p.pieces = append(p.pieces, piece{kind: pieceRegex, re: goRe, groups: groups})
		p.llvmRe += matchRegexp
	}
	if substNeeded {
		if !isNum {
			if def, ok := defs[substFrom.str()]; ok {
				if def.paren < 1 || def.paren > 9 {
					return 0, errAt(substFrom, "Can't back-reference more than 9 variables")
				}
				p.pieces = append(p.pieces, piece{kind: pieceBackref, ref: def.piece, name: substFrom.str()})
				p.hasRef = true
				p.llvmRe += `\` + fmt.Sprint(def.paren)
				return curParen, nil
			}
			sub := &subst{from: substFrom}
			p.substs = append(p.substs, sub)
			p.pieces = append(p.pieces, piece{kind: pieceStrSubst, sub: sub})
		} else {
			sub := &subst{from: substFrom, expr: expr}
			p.substs = append(p.substs, sub)
			p.pieces = append(p.pieces, piece{kind: pieceNumSubst, sub: sub})
		}
	}
	return curParen, nil
}

// parseNumericBlock is Pattern::parseNumericSubstitutionBlock.
func parseNumericBlock(s sref, legacyLine bool, line int, ctx *varContext) (*expression, *numVar, error) {
	var explicit numFormat
	precision := 0
	formatEnd := s.index(",")
	funcStart := s.index("(")
	if formatEnd >= 0 && (funcStart < 0 || formatEnd < funcStart) {
		fe := s.takeFront(formatEnd)
		s = s.dropFront(formatEnd + 1)
		fe = fe.ltrim().rtrim()
		if !fe.consume("%") {
			return nil, nil, errAt(fe, "invalid matching format specification in expression")
		}
		altLoc := fe
		alt := fe.consume("#")
		if fe.consume(".") {
			v, ok := consumeInteger(&fe, 10, false)
			if !ok || v.Cmp(big.NewInt(1<<31)) >= 0 {
				return nil, nil, errAt(fe, "invalid precision in format specifier")
			}
			precision = int(v.Int64())
		}
		if !fe.empty() {
			fmtLoc := fe
			c := fe.at(0)
			fe = fe.dropFront(1)
			switch c {
			case 'u':
				explicit = numFormat{kind: fmtUnsigned, precision: precision}
			case 'd':
				explicit = numFormat{kind: fmtSigned, precision: precision}
			case 'x':
				explicit = numFormat{kind: fmtHexLower, precision: precision, alternate: alt}
			case 'X':
				explicit = numFormat{kind: fmtHexUpper, precision: precision, alternate: alt}
			default:
				return nil, nil, errAt(fmtLoc, "invalid format specifier in expression")
			}
		}
		if alt && explicit.kind != fmtHexLower && explicit.kind != fmtHexUpper {
			return nil, nil, errAt(altLoc, "alternate form only supported for hex values")
		}
		fe = fe.ltrim()
		if !fe.empty() {
			return nil, nil, errAt(fe, "invalid matching format specification in expression")
		}
	}
	var defExpr sref
	hasDef := false
	if defEnd := s.index(":"); defEnd >= 0 {
		hasDef = true
		defExpr = s.takeFront(defEnd)
		s = s.dropFront(defEnd + 1)
	}
	s = s.ltrim()
	hasConstraint := s.consume("==")
	s = s.ltrim()
	var ast exprNode
	if s.empty() {
		if hasConstraint {
			return nil, nil, errAt(s, "empty numeric expression should not have a constraint")
		}
	} else {
		s = s.rtrim()
		outer := s
		ao := operandAny
		if legacyLine {
			ao = operandLineVar
		}
		var err error
		ast, err = parseOperand(&s, ao, !hasConstraint, line, ctx)
		for err == nil && !s.empty() {
			ast, err = parseBinop(outer, &s, ast, legacyLine, line, ctx)
			if err == nil && legacyLine && !s.empty() {
				return nil, nil, errAt(s, "unexpected characters at end of expression '"+s.str()+"'")
			}
		}
		if err != nil {
			return nil, nil, err
		}
	}
	format := explicit
	if format.kind == fmtNone && ast != nil {
		f, err := ast.implicitFormat()
		if err != nil {
			return nil, nil, err
		}
		format = f
	}
	if format.kind == fmtNone {
		format = numFormat{kind: fmtUnsigned, precision: precision}
	}
	e := &expression{ast: ast, format: format}
	if !hasDef {
		return e, nil, nil
	}
	defExpr = defExpr.ltrim()
	v, err := parseNumericDef(defExpr, ctx, line, format)
	if err != nil {
		return nil, nil, err
	}
	return e, v, nil
}

// parseNumericDef is Pattern::parseNumericVariableDefinition.
func parseNumericDef(s sref, ctx *varContext, line int, format numFormat) (*numVar, error) {
	name, pseudo, err := parseVariable(&s)
	if err != nil {
		return nil, err
	}
	if pseudo {
		return nil, errAt(name, "definition of pseudo numeric variable unsupported")
	}
	if ctx.definedStr[name.str()] {
		return nil, errAt(name, "string variable with name '"+name.str()+"' already exists")
	}
	s = s.ltrim()
	if !s.empty() {
		return nil, errAt(s, "unexpected characters after numeric variable name")
	}
	if v, ok := ctx.numVars[name.str()]; ok {
		if v.format != format {
			return nil, errAt(s, "format different from previous variable definition")
		}
		return v, nil
	}
	return &numVar{name: name.str(), format: format, defLine: line}, nil
}

// parseOperand is Pattern::parseNumericOperand.
func parseOperand(s *sref, ao operandKind, maybeConstraint bool, line int, ctx *varContext) (exprNode, error) {
	if s.hasPrefix("(") {
		if ao != operandAny {
			return nil, errAt(*s, "parenthesized expression not permitted here")
		}
		return parseParenExpr(s, line, ctx)
	}
	if ao == operandLineVar || ao == operandAny {
		save := *s
		name, pseudo, err := parseVariable(s)
		if err == nil {
			if s.ltrim().hasPrefix("(") {
				if ao != operandAny {
					return nil, errAt(name, "unexpected function call")
				}
				return parseCallExpr(s, name, line, ctx)
			}
			return parseVarUse(name, pseudo, line, ctx)
		}
		if ao == operandLineVar {
			return nil, err
		}
		*s = save
	}
	save := *s
	radix := 0
	if ao == operandLegacyLiteral {
		radix = 10
	}
	if v, ok := consumeInteger(s, radix, false); ok {
		return &exprLiteral{v}, nil
	}
	*s = save
	if ao == operandAny {
		if v, ok := consumeInteger(s, 0, true); ok {
			return &exprLiteral{v}, nil
		}
	}
	*s = save
	msg := "invalid "
	if maybeConstraint {
		msg += "matching constraint or "
	}
	return nil, errAt(*s, msg+"operand format")
}

func parseVarUse(name sref, pseudo bool, line int, ctx *varContext) (exprNode, error) {
	if pseudo {
		if name.str() != "@LINE" {
			return nil, errAt(name, "invalid pseudo numeric variable '"+name.str()+"'")
		}
		return &exprVar{name: name, v: ctx.lineVar}, nil
	}
	v, ok := ctx.numVars[name.str()]
	if !ok {
		v = &numVar{name: name.str(), format: numFormat{kind: fmtUnsigned}}
		ctx.numVars[name.str()] = v
	}
	if v.defLine != 0 && line != 0 && v.defLine == line {
		return nil, errAt(name, "numeric variable '"+name.str()+"' defined earlier in the same CHECK directive")
	}
	return &exprVar{name: name, v: v}, nil
}

func parseBinop(outer sref, s *sref, left exprNode, legacyLine bool, line int, ctx *varContext) (exprNode, error) {
	*s = s.ltrim()
	if s.empty() {
		return left, nil
	}
	opLoc := *s
	op := s.at(0)
	*s = s.dropFront(1)
	var fn binFunc
	switch op {
	case '+':
		fn = opAdd
	case '-':
		fn = opSub
	default:
		return nil, errAt(opLoc, fmt.Sprintf("unsupported operation '%c'", op))
	}
	*s = s.ltrim()
	if s.empty() {
		return nil, errAt(*s, "missing operand in expression")
	}
	ao := operandAny
	if legacyLine {
		ao = operandLegacyLiteral
	}
	right, err := parseOperand(s, ao, false, line, ctx)
	if err != nil {
		return nil, err
	}
	text := sref{outer.b, outer.lo, s.lo}
	return &exprBinary{text: text, fn: fn, left: left, right: right}, nil
}

func parseParenExpr(s *sref, line int, ctx *varContext) (exprNode, error) {
	*s = s.ltrim()
	s.consume("(")
	*s = s.ltrim()
	if s.empty() {
		return nil, errAt(*s, "missing operand in expression")
	}
	sub, err := parseOperand(s, operandAny, false, line, ctx)
	*s = s.ltrim()
	for err == nil && !s.empty() && !s.hasPrefix(")") {
		orig := *s
		sub, err = parseBinop(orig, s, sub, false, line, ctx)
		*s = s.ltrim()
	}
	if err != nil {
		return nil, err
	}
	if !s.consume(")") {
		return nil, errAt(*s, "missing ')' at end of nested expression")
	}
	return sub, nil
}

func parseCallExpr(s *sref, fname sref, line int, ctx *varContext) (exprNode, error) {
	*s = s.ltrim()
	fn, ok := callFuncs[fname.str()]
	if !ok {
		return nil, errAt(fname, "call to undefined function '"+fname.str()+"'")
	}
	s.consume("(")
	*s = s.ltrim()
	var args []exprNode
	for !s.empty() && !s.hasPrefix(")") {
		if s.hasPrefix(",") {
			return nil, errAt(*s, "missing argument")
		}
		outer := *s
		arg, err := parseOperand(s, operandAny, false, line, ctx)
		for err == nil && !s.empty() {
			*s = s.ltrim()
			if s.hasPrefix(",") || s.hasPrefix(")") {
				break
			}
			arg, err = parseBinop(outer, s, arg, false, line, ctx)
		}
		if err != nil {
			return nil, err
		}
		args = append(args, arg)
		*s = s.ltrim()
		if !s.consume(",") {
			break
		}
		*s = s.ltrim()
		if s.hasPrefix(")") {
			return nil, errAt(*s, "missing argument")
		}
	}
	if !s.consume(")") {
		return nil, errAt(*s, "missing ')' at end of call expression")
	}
	if len(args) == 2 {
		return &exprBinary{text: sref{fname.b, fname.lo, s.lo}, fn: fn, left: args[0], right: args[1]}, nil
	}
	return nil, errAt(fname, fmt.Sprintf("function '%s' takes 2 arguments but %d given", fname.str(), len(args)))
}
