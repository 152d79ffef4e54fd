package filecheck

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// checkString is one positive directive with the CHECK-DAG/CHECK-NOT
// patterns that precede it: LLVM's FileCheckString.
type checkString struct {
	pat    *pattern
	prefix string
	loc    sref // where the pattern starts; diagnostics point here
	dagNot []*pattern
}

// canonicalize is FileCheck::CanonicalizeFile: it drops the '\r' of each
// "\r\n" and, unless strict, squeezes runs of blanks into one space.
func canonicalize(in []byte, strict bool) string {
	special := " \t\r"
	if strict {
		special = "\r"
	}
	if !bytes.ContainsAny(in, special) {
		return string(in)
	}
	var b strings.Builder
	b.Grow(len(in))
	for i := 0; i < len(in); {
		j := bytes.IndexAny(in[i:], special)
		if j < 0 {
			b.Write(in[i:])
			break
		}
		b.Write(in[i : i+j])
		i += j
		switch c := in[i]; {
		case c == '\r':
			if i+1 >= len(in) || in[i+1] != '\n' {
				b.WriteByte('\r')
			}
			i++
		case strict:
			b.WriteByte(c)
			i++
		default:
			b.WriteByte(' ')
			for i < len(in) && (in[i] == ' ' || in[i] == '\t') {
				i++
			}
		}
	}
	return b.String()
}

func isPartOfWord(c byte) bool { return isAlnum(c) || c == '-' || c == '_' }

// prefixFinder finds the earliest (then longest) occurrence of any prefix.
type prefixFinder struct {
	text     string
	prefixes []string
	next     []int // cached next occurrence of each prefix, -1: none
	from     []int // position the cache entry was computed from
}

func newPrefixFinder(text string, prefixes []string) *prefixFinder {
	f := &prefixFinder{text: text, prefixes: prefixes, next: make([]int, len(prefixes)), from: make([]int, len(prefixes))}
	for i := range prefixes {
		f.from[i] = -1
	}
	return f
}

// find returns the position and prefix of the first prefix at or after pos.
func (f *prefixFinder) find(pos int) (int, string) {
	best, bestLen := -1, 0
	for i, p := range f.prefixes {
		if f.from[i] < 0 || (f.next[i] >= 0 && f.next[i] < pos) || (f.next[i] < 0 && f.from[i] > pos) {
			j := strings.Index(f.text[pos:], p)
			if j >= 0 {
				j += pos
			}
			f.next[i], f.from[i] = j, pos
		}
		j := f.next[i]
		if j < 0 {
			continue
		}
		if best < 0 || j < best || (j == best && len(p) > bestLen) {
			best, bestLen = j, len(p)
		}
	}
	if best < 0 {
		return -1, ""
	}
	for _, p := range f.prefixes {
		if len(p) == bestLen && strings.HasPrefix(f.text[best:], p) {
			return best, p
		}
	}
	return -1, ""
}

// findCheckType is FindCheckType: it classifies the text after a prefix.
// rest is what follows the directive (after the colon) when valid.
func findCheckType(b *srcBuf, pos int, prefix string, isComment bool) (typ checkType, count int, literal bool, rest int) {
	text := b.text
	r := pos + len(prefix)
	if len(text) <= r {
		return checkNone, 0, false, -1
	}
	if isComment {
		if text[r] == ':' {
			return checkComment, 1, false, r + 1
		}
		return checkNone, 0, false, -1
	}
	consumeModifiers := func(t checkType, cnt int) (checkType, int, bool, int) {
		if r < len(text) && text[r] == ':' {
			return t, cnt, false, r + 1
		}
		if r >= len(text) || text[r] != '{' {
			return checkNone, 0, false, -1
		}
		r++
		skipSpace := func() {
			for r < len(text) && strings.IndexByte(" \t\n\v\f\r", text[r]) >= 0 {
				r++
			}
		}
		lit := false
		for {
			skipSpace()
			if !strings.HasPrefix(text[r:], "LITERAL") {
				return checkNone, 0, false, -1
			}
			r += len("LITERAL")
			lit = true
			skipSpace()
			if r < len(text) && text[r] == ',' {
				r++
				continue
			}
			break
		}
		if !strings.HasPrefix(text[r:], "}:") {
			return checkNone, 0, false, -1
		}
		return t, cnt, lit, r + 2
	}
	if text[r] == ':' {
		return checkPlain, 1, false, r + 1
	}
	if text[r] == '{' {
		return consumeModifiers(checkPlain, 1)
	}
	if text[r] != '-' {
		return checkNone, 0, false, -1
	}
	r++
	rest0 := text[r:]
	if strings.HasPrefix(rest0, "COUNT-") {
		r += len("COUNT-")
		s := sref{b, r, len(text)}
		v, ok := consumeInteger(&s, 10, true)
		if !ok {
			return checkBadCount, 0, false, r
		}
		r = s.lo
		if v.Sign() <= 0 || v.Cmp(bigInt(1<<31-1)) > 0 {
			return checkBadCount, 0, false, r
		}
		if r >= len(text) || (text[r] != ':' && text[r] != '{') {
			return checkBadCount, 0, false, r
		}
		return consumeModifiers(checkPlain, int(v.Int64()))
	}
	for _, bad := range []string{"DAG-NOT:", "NOT-DAG:", "NEXT-NOT:", "NOT-NEXT:", "SAME-NOT:", "NOT-SAME:", "EMPTY-NOT:", "NOT-EMPTY:"} {
		if strings.HasPrefix(rest0, bad) {
			return checkBadNot, 0, false, r
		}
	}
	for _, k := range []struct {
		s string
		t checkType
	}{{"NEXT", checkNext}, {"SAME", checkSame}, {"NOT", checkNot}, {"DAG", checkDAG}, {"LABEL", checkLabel}, {"EMPTY", checkEmpty}} {
		if strings.HasPrefix(rest0, k.s) {
			r += len(k.s)
			return consumeModifiers(k.t, 1)
		}
	}
	return checkNone, 0, false, -1
}

// validatePrefixes checks user-supplied prefixes as LLVM does.
func validatePrefixes(kind string, unique map[string]bool, prefixes []string) error {
	for _, p := range prefixes {
		if p == "" {
			return fmt.Errorf("error: supplied %s prefix must not be the empty string", kind)
		}
		for i := 0; i < len(p); i++ {
			if !isPartOfWord(p[i]) {
				return fmt.Errorf("error: supplied %s prefix must start with a letter and contain only alphanumeric characters, hyphens, and underscores: '%s'", kind, p)
			}
		}
		if unique[p] {
			return fmt.Errorf("error: supplied %s prefix must be unique among check and comment prefixes: '%s'", kind, p)
		}
		unique[p] = true
	}
	return nil
}

// checkFile is a parsed check file.
type checkFile struct {
	buf     *srcBuf
	ctx     *varContext
	strings []*checkString
	impBufs []*srcBuf // one synthetic buffer per --implicit-check-not
}

// readCheckFile is FileCheck::readCheckFile.
func readCheckFile(buf *srcBuf, o *Options, checkPrefixes, commentPrefixes []string, isDefaultPrefix bool) (*checkFile, []error) {
	cf := &checkFile{buf: buf, ctx: newVarContext()}
	if errs := defineCmdlineVariables(cf.ctx, o.Defines); len(errs) > 0 {
		for _, e := range errs {
			markLogged(e)
		}
		return nil, errs
	}
	popts := parseOptions{matchFullLines: o.MatchFullLines, strictWhitespace: o.StrictWhitespace, ignoreCase: o.IgnoreCase}
	var implicit []*pattern
	for _, p := range o.ImplicitCheckNot {
		const pre = "-implicit-check-not='"
		ib := newSrcBuf("command line", pre+p+"'")
		cf.impBufs = append(cf.impBufs, ib)
		pat, err := parsePattern(cf.ctx, checkNot, 1, false, 0, sref{ib, len(pre), len(pre) + len(p)}, "IMPLICIT-CHECK", popts)
		if err != nil {
			return nil, []error{err}
		}
		implicit = append(implicit, pat)
	}
	dagNot := append([]*pattern(nil), implicit...)
	isComment := map[string]bool{}
	for _, c := range commentPrefixes {
		isComment[c] = true
	}
	all := append(append([]string(nil), checkPrefixes...), commentPrefixes...)
	finder := newPrefixFinder(buf.text, all)
	notFound := map[string]bool{}
	for _, p := range checkPrefixes {
		notFound[p] = true
	}
	distinct := len(notFound)
	text := buf.text
	pos, line := 0, 1
	for pos < len(text) {
		// FindFirstMatchingPrefix.
		var used string
		var typ checkType
		var count, after int
		var literal bool
		for pos < len(text) {
			at, p := finder.find(pos)
			if at < 0 {
				break
			}
			line += strings.Count(text[pos:at], "\n")
			pos = at
			if pos == 0 || !isPartOfWord(text[pos-1]) {
				typ, count, literal, after = findCheckType(buf, pos, p, isComment[p])
				if typ != checkNone {
					used = p
					break
				}
			}
			// Skip the prefix and the rest of the word.
			pos += len(p)
			for pos < len(text) && isPartOfWord(text[pos]) {
				pos++
			}
		}
		if used == "" {
			break
		}
		if typ != checkComment {
			delete(notFound, used)
		}
		prefixStart := pos
		if after < 0 {
			pos += len(used)
		} else {
			pos = after
		}
		if typ == checkBadNot {
			return nil, []error{&diagError{b: buf, off: pos, msg: "unsupported -NOT combo on prefix '" + used + "'"}}
		}
		if typ == checkBadCount {
			return nil, []error{&diagError{b: buf, off: pos, msg: "invalid count in -COUNT specification on prefix '" + used + "'"}}
		}
		if !(o.StrictWhitespace && o.MatchFullLines) {
			for pos < len(text) && (text[pos] == ' ' || text[pos] == '\t') {
				pos++
			}
		}
		eol := strings.IndexAny(text[pos:], "\n\r")
		if eol < 0 {
			eol = len(text)
		} else {
			eol += pos
		}
		patText := sref{buf, pos, eol}
		pos = eol
		if typ == checkComment {
			continue
		}
		pat, err := parsePattern(cf.ctx, typ, count, literal, line, patText, used, popts)
		if err != nil {
			return nil, []error{err}
		}
		if typ == checkLabel && pat.hasVariable() {
			return nil, []error{&diagError{b: buf, off: prefixStart, msg: "found '" + used + "-LABEL:' with variable definition or use"}}
		}
		if (typ == checkNext || typ == checkSame || typ == checkEmpty) && len(cf.strings) == 0 {
			return nil, []error{&diagError{b: buf, off: prefixStart, msg: "found '" + typ.description(used, 1) + "' without previous '" + used + ": line"}}
		}
		if typ == checkDAG || typ == checkNot {
			dagNot = append(dagNot, pat)
			continue
		}
		cf.strings = append(cf.strings, &checkString{pat: pat, prefix: used, loc: patText, dagNot: dagNot})
		dagNot = append([]*pattern(nil), implicit...)
	}
	noneFound := len(notFound) == distinct
	unused := !o.AllowUnusedPrefixes && len(notFound) > 0
	if (noneFound || unused) && (len(implicit) == 0 || !isDefaultPrefix) {
		var names []string
		for p := range notFound {
			names = append(names, p)
		}
		sort.Strings(names)
		for i, n := range names {
			names[i] = "'" + n + ":'"
		}
		s := " "
		if len(names) > 1 {
			s = "es "
		}
		return nil, []error{fmt.Errorf("error: no check strings found with prefix%s%s", s, strings.Join(names, ", "))}
	}
	if len(dagNot) > 0 {
		eof := &pattern{ctx: cf.ctx, typ: checkEOF, count: 1, line: line + 1, loc: sref{buf, pos, pos}}
		cf.strings = append(cf.strings, &checkString{pat: eof, prefix: checkPrefixes[0], loc: sref{buf, pos, pos}, dagNot: dagNot})
	}
	return cf, nil
}

// defineCmdlineVariables is FileCheckPatternContext::defineCmdlineVariables.
func defineCmdlineVariables(ctx *varContext, defines []string) []error {
	if len(defines) == 0 {
		return nil
	}
	var diag strings.Builder
	type span struct{ off, n int }
	var spans []span
	for i, d := range defines {
		pre := fmt.Sprintf("Global define #%d: ", i+1)
		eq := strings.IndexByte(d, '=')
		if eq < 0 {
			spans = append(spans, span{diag.Len(), 0})
			continue
		}
		if d[0] == '#' {
			diag.WriteString(pre + d + " (parsed as: [[")
			sub := d[:eq] + ":" + d[eq+1:]
			spans = append(spans, span{diag.Len(), len(sub)})
			diag.WriteString(sub + "]])\n")
		} else {
			diag.WriteString(pre)
			spans = append(spans, span{diag.Len(), len(d)})
			diag.WriteString(d + "\n")
		}
	}
	b := newSrcBuf("Global defines", diag.String())
	var errs []error
	for _, sp := range spans {
		def := sref{b, sp.off, sp.off + sp.n}
		if def.empty() {
			errs = append(errs, errAt(def, "missing equal sign in global definition"))
			continue
		}
		if def.at(0) == '#' {
			e, v, err := parseNumericBlock(def.dropFront(1), false, 0, ctx)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if e.ast == nil {
				// "-D#N=" has an empty expression; LLVM would crash here.
				errs = append(errs, errAt(def, "empty numeric expression in global definition"))
				continue
			}
			val, es := e.ast.eval()
			if len(es) > 0 {
				for _, x := range es {
					switch de, _ := x.(*diagError); {
					case x == errOverflow{}:
						x = errAt(def, "overflow error")
					case de != nil && strings.HasPrefix(de.msg, "undefined variable: "):
						// LLVM logs an UndefVarError bare: no location.
						x = errors.New(de.msg)
					}
					errs = append(errs, x)
				}
				continue
			}
			if v == nil {
				errs = append(errs, errAt(def, "missing numeric variable name in global definition"))
				continue
			}
			v.value = val
			v.strLen = -1
			v.defLine = 0
			ctx.numVars[v.name] = v
			continue
		}
		eq := strings.IndexByte(def.str(), '=')
		nameRef := def.takeFront(eq)
		orig := nameRef
		name, pseudo, err := parseVariable(&nameRef)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if pseudo || !nameRef.empty() {
			errs = append(errs, errAt(orig, "invalid name in string variable definition '"+orig.str()+"'"))
			continue
		}
		if _, ok := ctx.numVars[name.str()]; ok {
			errs = append(errs, errAt(name, "numeric variable with name '"+name.str()+"' already exists"))
			continue
		}
		if _, ok := ctx.strVars[name.str()]; !ok {
			ctx.strVars[name.str()] = strValue{text: def.str()[eq+1:], off: -1}
		}
		ctx.definedStr[name.str()] = true
	}
	return errs
}
