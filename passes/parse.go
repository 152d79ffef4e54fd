package passes

import (
	"fmt"
	"strings"

	"github.com/layoutopt/layoutopt/internal/suggest"
)

// PipelineError is a syntax or resolution error in a textual pipeline or a
// pass option string, located at a byte offset of Text.
type PipelineError struct {
	Text   string // the whole text being parsed
	Offset int    // 0-based byte offset of the problem in Text
	Msg    string
}

// Column returns the 1-based column of the problem.
func (e *PipelineError) Column() int { return e.Offset + 1 }

// Error returns the message located the way MLIR locates pipeline errors:
//
//	MLIR Textual PassPipeline Parser:1:16: error: 'foo' does not refer to a registered pass or pass pipeline
func (e *PipelineError) Error() string {
	return fmt.Sprintf("MLIR Textual PassPipeline Parser:1:%d: error: %s", e.Column(), e.Msg)
}

// Snippet returns the pipeline text on one line and a caret under the
// problem on the next, for printing after Error. Newlines and tabs in the
// text are shown as spaces so that the caret lines up.
func (e *PipelineError) Snippet() string {
	line := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || r == '\r' {
			return ' '
		}
		return r
	}, e.Text)
	off := min(max(e.Offset, 0), len(line))
	return line + "\n" + strings.Repeat(" ", off) + "^"
}

// ParsePipeline parses a textual pipeline against the default registry. See
// Registry.ParsePipeline.
func ParsePipeline(text string) (*Pipeline, error) { return defaultRegistry.ParsePipeline(text) }

// ParsePipeline parses a textual pipeline in MLIR's syntax:
//
//	pipeline ::= op-name '(' (element (',' element)*)? ')'
//	element  ::= pipeline | pass-name ('{' options '}')?
//	options  ::= (key ('=' value)?)*        separated by spaces
//
// Pass names are resolved in r (names or aliases) and options checked
// against each pass's declaration. Spaces are allowed around every token.
// Errors are *PipelineError values with the column of the problem.
func (r *Registry) ParsePipeline(text string) (*Pipeline, error) {
	p := &pipelineParser{reg: r, text: text}
	p.skipSpace()
	start := p.pos
	name := p.name()
	p.skipSpace()
	if name == "" || !p.peek('(') {
		return nil, p.errAt(start, "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'")
	}
	pl, err := p.nested(name, start, 0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.text) {
		if p.text[p.pos] == ')' {
			return nil, p.errAt(p.pos, "encountered extra closing ')' creating unbalanced parentheses while parsing pipeline")
		}
		return nil, p.errAt(p.pos, "unexpected text after the pipeline")
	}
	return pl, nil
}

// maxPipelineDepth bounds the nesting of pipelines, so that hostile input
// cannot exhaust the stack.
const maxPipelineDepth = 64

type pipelineParser struct {
	reg  *Registry
	text string
	pos  int
}

func (p *pipelineParser) errAt(off int, format string, args ...any) *PipelineError {
	return &PipelineError{Text: p.text, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (p *pipelineParser) skipSpace() {
	for p.pos < len(p.text) && isSpace(p.text[p.pos]) {
		p.pos++
	}
}

func (p *pipelineParser) peek(c byte) bool { return p.pos < len(p.text) && p.text[p.pos] == c }

// name scans a pass or op name: letters, digits, '_', '-', '.', '$'.
func (p *pipelineParser) name() string {
	start := p.pos
	for p.pos < len(p.text) {
		c := p.text[p.pos]
		if !isLetter(c) && !isDigit(c) && c != '_' && c != '-' && c != '.' && c != '$' {
			break
		}
		p.pos++
	}
	return p.text[start:p.pos]
}

// nested parses "(elements)" after the op name anchor (at offset at), with
// p.pos at the '('.
func (p *pipelineParser) nested(anchor string, at, depth int) (*Pipeline, error) {
	if depth >= maxPipelineDepth {
		return nil, p.errAt(at, "pipeline nested more than %d deep", maxPipelineDepth)
	}
	if anchor != AnyOp && !validOpName(anchor) {
		return nil, p.errAt(at, "'%s' is not a valid operation name", anchor)
	}
	open := p.pos
	p.pos++ // '('
	pl := NewPipeline(anchor)
	p.skipSpace()
	if p.peek(')') {
		p.pos++
		return pl, nil
	}
	for {
		p.skipSpace()
		start := p.pos
		name := p.name()
		if name == "" {
			if p.pos == len(p.text) {
				return nil, p.errAt(open, "encountered unbalanced parentheses while parsing pipeline")
			}
			return nil, p.errAt(p.pos, "expected a pass name or a nested pipeline, found '%c'", p.text[p.pos])
		}
		p.skipSpace()
		switch {
		case p.peek('('):
			inner, err := p.nested(name, start, depth+1)
			if err != nil {
				return nil, err
			}
			pl.Elems = append(pl.Elems, Element{Nested: inner})
		default:
			pass := p.reg.Lookup(name)
			if pass == nil {
				return nil, p.errAt(start, "'%s' does not refer to a registered pass or pass pipeline%s", name, suggest.Hint(name, p.reg.Names()))
			}
			if err := pl.canHold(pass); err != nil {
				return nil, p.errAt(start, "%v", err)
			}
			var opts []OptionValue
			if p.peek('{') {
				body, bodyAt, err := p.braces()
				if err != nil {
					return nil, err
				}
				if opts, err = parseOptionsAt(pass, p.text, body, bodyAt); err != nil {
					return nil, err
				}
			}
			pl.Elems = append(pl.Elems, Element{Pass: pass, Options: opts})
		}
		p.skipSpace()
		switch {
		case p.peek(','):
			p.pos++
		case p.peek(')'):
			p.pos++
			return pl, nil
		case p.pos == len(p.text):
			return nil, p.errAt(open, "encountered unbalanced parentheses while parsing pipeline")
		default:
			return nil, p.errAt(p.pos, "expected ',' after parsing pipeline")
		}
	}
}

// braces scans "{...}" with p.pos at the '{', and returns the text between
// the braces and its offset. As in MLIR, only braces count here: quotes
// inside options protect spaces, not braces.
func (p *pipelineParser) braces() (string, int, error) {
	open := p.pos
	end, ok := -1, false
	for i, depth := open, 0; i < len(p.text); i++ {
		if c := p.text[i]; c == '{' {
			depth++
		} else if c == '}' {
			if depth--; depth == 0 {
				end, ok = i, true
				break
			}
		}
	}
	if !ok {
		return "", 0, p.errAt(open, "missing closing '}' while processing pass options")
	}
	p.pos = end + 1
	return p.text[open+1 : end], open + 1, nil
}

// matchBrace returns the index of the '}' closing the '{' at s[i]. Nested
// braces count; a quoted string ('...' or "...") is skipped whole, and a
// quote with no closing partner is an ordinary character, as in MLIR's
// option parser.
func matchBrace(s string, i int) (int, bool) {
	depth := 0
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i, true
			}
		case '\'', '"':
			if j := strings.IndexByte(s[i+1:], c); j >= 0 {
				i += j + 1
			}
		}
	}
	return 0, false
}

// parseOptions parses a pass option string (as given on a pass flag),
// errors located in options itself.
func parseOptions(pass *Pass, options string) ([]OptionValue, error) {
	return parseOptionsAt(pass, options, options, 0)
}

// parseOptionsAt parses body, found at offset at of text, as the options of
// pass: space-separated key or key=value items. A value runs to the next
// space outside quotes and braces; one pair of enclosing quotes or braces is
// removed. (As in MLIR, a quote without a closing partner is an ordinary
// character.) Every key must be an option of pass, given once, with a valid
// value; a bare key sets a bool option to true.
func parseOptionsAt(pass *Pass, text, body string, at int) ([]OptionValue, error) {
	errAt := func(off int, format string, args ...any) error {
		return &PipelineError{Text: text, Offset: at + off, Msg: fmt.Sprintf(format, args...)}
	}
	var vals []OptionValue
	seen := map[string]bool{}
	i := 0
	for {
		for i < len(body) && isSpace(body[i]) {
			i++
		}
		if i == len(body) {
			return vals, nil
		}
		keyAt := i
		for i < len(body) && !isSpace(body[i]) && body[i] != '=' {
			i++
		}
		key := body[keyAt:i]
		opt := pass.option(key)
		if opt == nil {
			if len(pass.Options) == 0 {
				return nil, errAt(keyAt, "pass '%s' has no option '%s' (it takes no options)", pass.Name, key)
			}
			return nil, errAt(keyAt, "pass '%s' has no option '%s' (options: %s)%s", pass.Name, key, pass.optionNames(), suggest.Hint(key, pass.optionList()))
		}
		if seen[key] {
			return nil, errAt(keyAt, "option '%s' of pass '%s' given twice", key, pass.Name)
		}
		seen[key] = true
		if i == len(body) || body[i] != '=' {
			if opt.Kind != BoolOption {
				return nil, errAt(keyAt, "option '%s' of pass '%s' needs a value: %s=...", key, pass.Name, key)
			}
			vals = append(vals, OptionValue{Name: key, Value: "true"})
			continue
		}
		i++ // '='
		valAt := i
		for i < len(body) && !isSpace(body[i]) {
			switch c := body[i]; c {
			case '\'', '"':
				if j := strings.IndexByte(body[i+1:], c); j >= 0 {
					i += j + 1
				}
				i++
			case '{':
				end, ok := matchBrace(body, i)
				if !ok {
					return nil, errAt(i, "missing closing '}' in the value of option '%s'", key)
				}
				i = end + 1
			default:
				i++
			}
		}
		v := unquoteOptionValue(body[valAt:i])
		if err := opt.Check(v); err != nil {
			return nil, errAt(valAt, "pass '%s': %v", pass.Name, err)
		}
		vals = append(vals, OptionValue{Name: key, Value: v})
	}
}

// unquoteOptionValue removes one pair of enclosing quotes, or of braces
// that match each other, as MLIR does, and trims spaces.
func unquoteOptionValue(v string) string {
	v = strings.TrimSpace(v)
	if len(v) < 2 {
		return v
	}
	if (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
		return strings.TrimSpace(v[1 : len(v)-1])
	}
	if v[0] == '{' {
		if end, ok := matchBrace(v, 0); ok && end == len(v)-1 {
			return strings.TrimSpace(v[1 : len(v)-1])
		}
	}
	return v
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// option returns the declared option named name, or nil.
func (p *Pass) option(name string) *Option {
	for i := range p.Options {
		if p.Options[i].Name == name {
			return &p.Options[i]
		}
	}
	return nil
}

func (p *Pass) optionNames() string {
	return strings.Join(p.optionList(), ", ")
}

func (p *Pass) optionList() []string {
	names := make([]string, len(p.Options))
	for i, o := range p.Options {
		names[i] = o.Name
	}
	return names
}
