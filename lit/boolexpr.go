package lit

import (
	"fmt"
	"regexp"
	"strings"
)

// EvalFeatures evaluates a boolean feature expression, as written after
// REQUIRES:, UNSUPPORTED: and XFAIL:, against a set of available features.
//
//	expr  = and { "||" and }
//	and   = not { "&&" not }
//	not   = "!" not | "(" expr ")" | match
//	match = { identifier | "{{" regexp "}}" }      (adjacent, no spaces)
//	identifier = [-+=._a-zA-Z0-9]+
//
// A match is true when it matches a whole feature name; "{{re}}" parts are
// regular expressions, the rest is literal. "true" is always true; any other
// name is true only when it is in features.
func EvalFeatures(expr string, features map[string]bool) (bool, error) {
	toks, err := tokenizeBool(expr)
	if err != nil {
		return false, fmt.Errorf("%v in expression %q", err, expr)
	}
	p := &boolParser{toks: toks, features: features}
	v, err := p.or()
	if err == nil && p.i < len(p.toks) {
		err = fmt.Errorf("expected end of expression, have %q", p.toks[p.i])
	}
	if err != nil {
		return false, fmt.Errorf("%v in expression %q", err, expr)
	}
	return v, nil
}

func tokenizeBool(s string) ([]string, error) {
	var toks []string
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '(' || c == ')' || c == '!':
			toks = append(toks, s[i:i+1])
			i++
		case strings.HasPrefix(s[i:], "&&") || strings.HasPrefix(s[i:], "||"):
			toks = append(toks, s[i:i+2])
			i += 2
		default:
			start := i
			for i < len(s) {
				if isFeatureChar(s[i]) {
					i++
					continue
				}
				if strings.HasPrefix(s[i:], "{{") {
					j := strings.Index(s[i+2:], "}}")
					if j <= 0 {
						return nil, fmt.Errorf("couldn't parse text %q", s[i:])
					}
					i += j + 4
					continue
				}
				break
			}
			if i == start {
				return nil, fmt.Errorf("couldn't parse text %q", s[i:])
			}
			toks = append(toks, s[start:i])
		}
	}
	return toks, nil
}

func isFeatureChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-+=._", c) >= 0
}

type boolParser struct {
	toks     []string
	i        int
	features map[string]bool
}

func (p *boolParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *boolParser) or() (bool, error) {
	v, err := p.and()
	for err == nil && p.peek() == "||" {
		p.i++
		var r bool
		r, err = p.and()
		v = v || r
	}
	return v, err
}

func (p *boolParser) and() (bool, error) {
	v, err := p.not()
	for err == nil && p.peek() == "&&" {
		p.i++
		var r bool
		r, err = p.not()
		v = v && r
	}
	return v, err
}

func (p *boolParser) not() (bool, error) {
	switch t := p.peek(); t {
	case "!":
		p.i++
		v, err := p.not()
		return !v, err
	case "(":
		p.i++
		v, err := p.or()
		if err != nil {
			return false, err
		}
		if p.peek() != ")" {
			return false, fmt.Errorf("expected ')', have %s", quoteTok(p.peek()))
		}
		p.i++
		return v, nil
	case "", ")", "&&", "||":
		return false, fmt.Errorf("expected '!', '(', '{{', or identifier, have %s", quoteTok(t))
	default:
		p.i++
		return p.match(t)
	}
}

func quoteTok(t string) string {
	if t == "" {
		return "<end of expression>"
	}
	return fmt.Sprintf("%q", t)
}

// match reports whether the identifier-with-regexps t matches a feature.
func (p *boolParser) match(t string) (bool, error) {
	if !strings.Contains(t, "{{") {
		return t == "true" || p.features[t], nil
	}
	var b strings.Builder
	b.WriteString("^(?:")
	for rest := t; rest != ""; {
		i := strings.Index(rest, "{{")
		if i < 0 {
			b.WriteString(regexp.QuoteMeta(rest))
			break
		}
		b.WriteString(regexp.QuoteMeta(rest[:i]))
		j := strings.Index(rest[i+2:], "}}")
		b.WriteString("(?:" + rest[i+2:i+2+j] + ")")
		rest = rest[i+2+j+2:]
	}
	b.WriteString(")$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return false, fmt.Errorf("bad regular expression in %q: %v", t, err)
	}
	if re.MatchString("true") {
		return true, nil
	}
	for f, ok := range p.features {
		if ok && re.MatchString(f) {
			return true, nil
		}
	}
	return false, nil
}
