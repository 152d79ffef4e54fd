package filecheck

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// matchResult is the outcome of Pattern::match: a match (pos, n relative to
// the searched buffer) and/or errors. errs without found means the pattern
// could not be matched because of its own errors (undefined variables, ...).
type matchResult struct {
	found  bool
	pos, n int
	errs   []error
}

// Bounds on the search for same-line back-reference values: candidate
// regexes tried at one start position, and in one search overall.
const (
	maxBackrefTriesPerStart = 64
	maxBackrefTries         = 1 << 16
)

// match searches buf (the input from offset base on) for the pattern.
func (p *pattern) match(buf string, base int) matchResult {
	if p.typ == checkEOF {
		return matchResult{found: true, pos: len(buf)}
	}
	if p.fixed != "" {
		var i int
		if p.ignoreCase {
			i = indexFold(buf, p.fixed)
		} else {
			i = strings.Index(buf, p.fixed)
		}
		if i < 0 {
			return matchResult{}
		}
		return matchResult{found: true, pos: i, n: len(p.fixed)}
	}
	// Evaluate substitutions first; vals[i] is piece i's value.
	var vals []string
	var errs []error
	if len(p.substs) > 0 {
		vals = make([]string, len(p.pieces))
		p.ctx.lineVar.value = nil
		if p.line > 0 {
			p.ctx.lineVar.value = bigInt(p.line)
		}
		for i, pc := range p.pieces {
			if pc.sub == nil {
				continue
			}
			v, e := pc.sub.result(p.ctx)
			if len(e) > 0 {
				errs = append(errs, e...)
				continue
			}
			vals[i] = v
		}
		if len(errs) > 0 {
			return matchResult{errs: errs}
		}
	}
	m, groups := p.search(buf, vals)
	if m == nil {
		return matchResult{}
	}
	res := matchResult{found: true, pos: m[0], n: m[1] - m[0]}
	group := func(i int) (string, int) {
		g := groups[i]
		if m[2*g] < 0 {
			return "", base + m[0]
		}
		return buf[m[2*g]:m[2*g+1]], base + m[2*g]
	}
	for _, i := range p.strDefs {
		txt, off := group(i)
		p.ctx.strVars[p.pieces[i].name] = strValue{text: txt, off: off}
	}
	if p.typ == checkEmpty {
		res.pos++
		res.n--
	}
	for _, i := range p.numDefs {
		txt, off := group(i)
		nv := p.pieces[i].nv
		v, err := nv.format.parseValue(sref{&srcBuf{text: buf}, off - base, off - base + len(txt)})
		if err != nil {
			de := err.(*diagError)
			de.off += base
			de.end += base
			de.b = nil // caller locates it in the input
			res.errs = append(res.errs, de)
			continue
		}
		nv.value = v
		nv.strOff, nv.strLen = off, len(txt)
	}
	return res
}

// indexFold is an ASCII case-insensitive strings.Index.
func indexFold(s, sub string) int {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		j := 0
		for j < n && lowerASCII(s[i+j]) == lowerASCII(sub[j]) {
			j++
		}
		if j == n {
			return i
		}
	}
	return -1
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// build assembles the Go regex for the pattern. vals holds substituted
// values per piece; lits, when non-nil, forces a string definition piece
// (and its back-references) to a literal value. It returns the regex body
// and the Go group number of every piece that captures (0 if none); with
// lits == nil each back-reference becomes its own group copying the
// definition's regex.
func (p *pattern) build(vals []string, lits map[int]string) (string, []int) {
	var b strings.Builder
	groups := make([]int, len(p.pieces))
	next := 1
	for i, pc := range p.pieces {
		switch pc.kind {
		case pieceRaw:
			b.WriteString(pc.re)
			next += pc.groups
		case pieceRegex:
			b.WriteString("(" + pc.re + ")")
			next += 1 + pc.groups
		case pieceStrDef:
			groups[i] = next
			next++
			if v, ok := lits[i]; ok {
				b.WriteString("(" + quoteLiteral(v) + ")")
			} else {
				b.WriteString("(" + pc.re + ")")
				next += pc.groups
			}
		case pieceBackref:
			if v, ok := lits[pc.ref]; ok {
				b.WriteString(quoteLiteral(v))
			} else {
				groups[i] = next
				next++
				def := p.pieces[pc.ref]
				b.WriteString("(" + def.re + ")")
				next += def.groups
			}
		case pieceStrSubst, pieceNumSubst:
			b.WriteString(quoteLiteral(vals[i]))
		case pieceNumDef:
			groups[i] = next
			next++
			if pc.sub != nil {
				b.WriteString("(" + quoteLiteral(vals[i]) + ")")
			} else {
				b.WriteString("(" + pc.re + ")")
				next += pc.groups
			}
		}
	}
	return b.String(), groups
}

// reKey identifies a compiled variant of a regex body.
type reKey struct{ variant, body string }

// compile compiles a variant of body: "" plain, "after" (a leading rune is
// consumed first, so matches start after it and '^' sees the real context),
// "at" (anchored at the start), "atAfter" (anchored right after one rune).
func (p *pattern) compile(body, variant string) *regexp.Regexp {
	key := reKey{variant, body}
	if re, ok := p.cache[key]; ok {
		return re
	}
	flags := "(?m)"
	if p.ignoreCase {
		flags = "(?mi)"
	}
	var src string
	switch variant {
	case "after":
		src = flags + `(?s:.)(?:` + body + `)`
	case "at":
		src = flags + `\A(?:` + body + `)`
	case "atAfter":
		src = flags + `\A(?s:.)(?:` + body + `)`
	default:
		src = flags + body
	}
	re, err := regexp.Compile(src)
	if err != nil {
		// The pieces were validated at parse time; a failure here means a
		// construct Go rejects, which then never matches.
		re = regexp.MustCompile(`[^\x00-\x{10FFFF}]`)
	}
	re.Longest()
	if p.cache == nil || len(p.cache) > 256 {
		p.cache = map[reKey]*regexp.Regexp{}
	}
	p.cache[key] = re
	return re
}

// findFrom returns the leftmost-longest match of body in buf starting at or
// after from (a rune boundary), with indexes relative to buf.
func (p *pattern) findFrom(buf, body string, from int) []int {
	if from == 0 {
		return p.compile(body, "").FindStringSubmatchIndex(buf)
	}
	prev := runeBefore(buf, from)
	m := p.compile(body, "after").FindStringSubmatchIndex(buf[prev:])
	if m == nil {
		return nil
	}
	_, w := utf8.DecodeRuneInString(buf[prev+m[0]:])
	m[0] += w
	for i := range m {
		if m[i] >= 0 {
			m[i] += prev
		}
	}
	return m
}

// matchAt matches body anchored at offset s of buf.
func (p *pattern) matchAt(buf, body string, s int) []int {
	if s == 0 {
		return p.compile(body, "at").FindStringSubmatchIndex(buf)
	}
	prev := runeBefore(buf, s)
	m := p.compile(body, "atAfter").FindStringSubmatchIndex(buf[prev:])
	if m == nil {
		return nil
	}
	m[0] = s - prev
	for i := range m {
		if m[i] >= 0 {
			m[i] += prev
		}
	}
	return m
}

// search finds the leftmost match of the pattern, honouring same-line
// back-references, and returns the submatch indexes and group numbers.
func (p *pattern) search(buf string, vals []string) ([]int, []int) {
	body, groups := p.build(vals, nil)
	if body == "" {
		// The regex is empty once substituted (every substitution was
		// ""): llvm::Regex rejects an empty regex and never matches.
		return nil, nil
	}
	if !p.hasRef {
		return p.findFrom(buf, body, 0), groups
	}
	tries := 0
	for from := 0; from <= len(buf); {
		m := p.findFrom(buf, body, from)
		if m == nil {
			return nil, nil
		}
		s := m[0]
		if p.refsAgree(buf, m, groups) {
			return m, groups
		}
		startTries := 0
		if mm, g := p.tryValues(buf, vals, s, m, groups, &startTries); mm != nil {
			return mm, g
		}
		tries += startTries
		if s >= len(buf) || tries > maxBackrefTries {
			return nil, nil
		}
		_, w := utf8.DecodeRuneInString(buf[s:])
		from = s + w
	}
	return nil, nil
}

func groupText(buf string, m []int, g int) string {
	if m[2*g] < 0 {
		return ""
	}
	return buf[m[2*g]:m[2*g+1]]
}

// refsAgree reports whether every back-reference copy captured the same
// text as its definition.
func (p *pattern) refsAgree(buf string, m, groups []int) bool {
	for i, pc := range p.pieces {
		if pc.kind == pieceBackref && groupText(buf, m, groups[i]) != groupText(buf, m, groups[pc.ref]) {
			return false
		}
	}
	return true
}

// tryValues looks for a match at s where each back-referenced definition
// takes a value suggested by the unconstrained match m: what the
// definition or one of its copies captured, or a prefix of those.
func (p *pattern) tryValues(buf string, vals []string, s int, m, groups []int, tries *int) ([]int, []int) {
	var refDefs []int
	seen := map[int]bool{}
	for _, pc := range p.pieces {
		if pc.kind == pieceBackref && !seen[pc.ref] {
			seen[pc.ref] = true
			refDefs = append(refDefs, pc.ref)
		}
	}
	cands := make([][]string, len(refDefs))
	for k, d := range refDefs {
		set := map[string]bool{}
		add := func(v string) {
			for n := len(v); n >= 0 && len(cands[k]) < 64; n-- {
				if !set[v[:n]] {
					set[v[:n]] = true
					cands[k] = append(cands[k], v[:n])
				}
			}
		}
		add(groupText(buf, m, groups[d]))
		for i, pc := range p.pieces {
			if pc.kind == pieceBackref && pc.ref == d {
				add(groupText(buf, m, groups[i]))
			}
		}
	}
	lits := map[int]string{}
	var dfs func(k int) ([]int, []int)
	dfs = func(k int) ([]int, []int) {
		if k == len(refDefs) {
			*tries++
			body, g := p.build(vals, lits)
			if mm := p.matchAt(buf, body, s); mm != nil {
				return mm, g
			}
			return nil, nil
		}
		for _, v := range cands[k] {
			if *tries > maxBackrefTriesPerStart {
				return nil, nil
			}
			if !p.defAccepts(refDefs[k], v) {
				continue
			}
			lits[refDefs[k]] = v
			if mm, g := dfs(k + 1); mm != nil {
				return mm, g
			}
		}
		delete(lits, refDefs[k])
		return nil, nil
	}
	return dfs(0)
}

// defAccepts reports whether the regex of definition piece d matches all
// of v.
func (p *pattern) defAccepts(d int, v string) bool {
	return p.compile(`(?:`+p.pieces[d].re+`)\z`, "at").MatchString(v)
}

// runeBefore returns the start of the rune that ends at off.
func runeBefore(s string, off int) int {
	_, w := utf8.DecodeLastRuneInString(s[:off])
	return off - w
}
