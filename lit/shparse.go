package lit

import (
	"fmt"
	"strings"
)

// This file is the RUN-line shell's front end: a lexer and parser for the
// small sh subset of lit's internal shell (llvm/utils/lit/lit/ShUtil.py).
//
//	script   = pipeline { ("&&" | "||" | ";") pipeline }   (left to right, no precedence)
//	pipeline = command { "|" command }
//	command  = word { word | redirect }
//	redirect = [digit] (">" | ">>" | "<" | ">&" | "&>" | "<&") word
//
// Words follow sh quoting: '...' is literal, "..." keeps everything but
// lets \" and \\ escape, and outside quotes a backslash escapes the next
// character. Unquoted * and ? make a word a glob pattern, expanded against the
// working directory when the command runs.

// word is one argument of a command.
type word struct {
	text string
	glob bool // contains an unquoted glob character
}

// redirect is one redirection of a command: fd op target.
type redirect struct {
	op     string // ">", ">>", "<", ">&", "&>", "<&"
	fd     int    // the redirected descriptor; -1 when the operator has no number
	target word
}

// command is one simple command of a pipeline.
type command struct {
	args      []word
	redirects []redirect
}

// node is a parsed script: a *pipeline or a *seq.
type node interface{ String() string }

// pipeline is commands joined by "|".
type pipeline struct {
	commands []*command
}

// seq is two scripts joined by "&&", "||" or ";".
type seq struct {
	lhs node
	op  string
	rhs node
}

// token kinds.
const (
	tokWord = iota
	tokOp
)

type token struct {
	kind int
	op   string // for tokOp
	fd   int    // for a redirection operator: the number before it, or -1
	word word   // for tokWord
	pos  int    // byte offset in the line
}

// shellError is a syntax error in a RUN line, located by its column (1-based
// byte offset) in the line after substitution.
type shellError struct {
	Col int
	Msg string
}

// Error formats the error as "col N: message".
func (e *shellError) Error() string { return fmt.Sprintf("col %d: %s", e.Col, e.Msg) }

// lexShell splits a RUN line into tokens.
func lexShell(s string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case isShellSpace(c):
			i++
		case c == ';':
			toks = append(toks, token{kind: tokOp, op: ";", fd: -1, pos: i})
			i++
		case c == '|':
			op := "|"
			if strings.HasPrefix(s[i:], "||") {
				op = "||"
			}
			toks = append(toks, token{kind: tokOp, op: op, fd: -1, pos: i})
			i += len(op)
		case c == '&':
			op := "&"
			if strings.HasPrefix(s[i:], "&&") {
				op = "&&"
			} else if strings.HasPrefix(s[i:], "&>") {
				op = "&>"
			}
			toks = append(toks, token{kind: tokOp, op: op, fd: -1, pos: i})
			i += len(op)
		case c == '>' || c == '<':
			op, n := lexRedirOp(s[i:])
			toks = append(toks, token{kind: tokOp, op: op, fd: -1, pos: i})
			i += n
		default:
			start := i
			w, next, err := lexWord(s, i)
			if err != nil {
				return nil, err
			}
			i = next
			// "2>" is one token: a word of digits immediately before a
			// redirection operator is its descriptor.
			if !w.glob && i < len(s) && (s[i] == '>' || s[i] == '<') && isDigits(s[start:i]) {
				op, n := lexRedirOp(s[i:])
				fd := 0
				for _, d := range s[start:i] {
					fd = fd*10 + int(d-'0')
					if fd > 1<<20 {
						return nil, &shellError{start + 1, "file descriptor number too large"}
					}
				}
				toks = append(toks, token{kind: tokOp, op: op, fd: fd, pos: start})
				i += n
				continue
			}
			toks = append(toks, token{kind: tokWord, word: w, pos: start})
		}
	}
	return toks, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isShellSpace(c byte) bool { return strings.IndexByte(" \t\n\r\v\f", c) >= 0 }

// endsWord reports whether an unquoted c ends a word: a blank or the
// first character of an operator.
func endsWord(c byte) bool { return isShellSpace(c) || strings.IndexByte("|&;<>", c) >= 0 }

// lexRedirOp reads the redirection operator at the start of s (which begins
// with '>' or '<') and returns it with its length.
func lexRedirOp(s string) (string, int) {
	for _, op := range []string{">>", ">&", "<&", "<<", ">", "<"} {
		if strings.HasPrefix(s, op) {
			return op, len(op)
		}
	}
	return s[:1], 1
}

// lexWord reads one word starting at s[i] and returns it with the offset just
// past it.
func lexWord(s string, i int) (word, int, error) {
	// Fast path: a word without quotes or backslashes is a substring.
	j, glob := i, false
	for ; j < len(s); j++ {
		c := s[j]
		if c == '\'' || c == '"' || c == '\\' {
			break
		}
		if endsWord(c) {
			return word{text: s[i:j], glob: glob}, j, nil
		}
		glob = glob || c == '*' || c == '?'
	}
	if j == len(s) {
		return word{text: s[i:], glob: glob}, j, nil
	}
	var b strings.Builder
	var w word
	quotedGlob := false
	for i < len(s) {
		c := s[i]
		switch {
		case endsWord(c):
			goto done
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return word{}, 0, &shellError{i + 1, "missing closing quote (')"}
			}
			q := s[i+1 : i+1+j]
			quotedGlob = quotedGlob || strings.ContainsAny(q, "*?")
			b.WriteString(q)
			i += j + 2
		case c == '"':
			start := i
			i++
			closed := false
			for i < len(s) {
				c := s[i]
				if c == '"' {
					closed = true
					i++
					break
				}
				if c == '\\' && i+1 < len(s) {
					switch s[i+1] {
					case '"', '\\', '$':
						b.WriteByte(s[i+1])
						i += 2
						continue
					}
				}
				if c == '*' || c == '?' {
					quotedGlob = true
				}
				b.WriteByte(c)
				i++
			}
			if !closed {
				return word{}, 0, &shellError{start + 1, `missing closing quote (")`}
			}
		case c == '\\':
			if i+1 == len(s) {
				return word{}, 0, &shellError{i + 1, "escape character at end of line"}
			}
			b.WriteByte(s[i+1])
			i += 2
		case c == '*' || c == '?':
			w.glob = true
			b.WriteByte(c)
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
done:
	if w.glob && quotedGlob {
		return word{}, 0, &shellError{i + 1, "glob characters both inside and outside quotes are not supported"}
	}
	w.text = b.String()
	return w, i, nil
}

// parseShell parses one RUN line into a script.
func parseShell(s string) (node, error) {
	toks, err := lexShell(s)
	if err != nil {
		return nil, err
	}
	p := &shParser{toks: toks, end: len(s)}
	if len(toks) == 0 {
		return nil, &shellError{1, "empty command"}
	}
	var lhs node
	lhs, err = p.pipeline()
	if err != nil {
		return nil, err
	}
	for p.i < len(p.toks) {
		t := p.toks[p.i]
		switch t.op {
		case "&&", "||", ";":
		case "&":
			return nil, &shellError{t.pos + 1, "unsupported shell operator '&'"}
		default:
			return nil, &shellError{t.pos + 1, fmt.Sprintf("syntax error near unexpected token %q", t.op)}
		}
		p.i++
		if p.i == len(p.toks) {
			if t.op == ";" { // a trailing ";" is allowed, as in sh
				break
			}
			return nil, &shellError{t.pos + 1, fmt.Sprintf("missing command after %q", t.op)}
		}
		rhs, err := p.pipeline()
		if err != nil {
			return nil, err
		}
		lhs = &seq{lhs: lhs, op: t.op, rhs: rhs}
	}
	return lhs, nil
}

type shParser struct {
	toks []token
	i    int
	end  int
}

func (p *shParser) pipeline() (*pipeline, error) {
	var pl pipeline
	for {
		c, err := p.command()
		if err != nil {
			return nil, err
		}
		pl.commands = append(pl.commands, c)
		if p.i < len(p.toks) && p.toks[p.i].kind == tokOp && p.toks[p.i].op == "|" {
			p.i++
			continue
		}
		return &pl, nil
	}
}

func (p *shParser) command() (*command, error) {
	if p.i == len(p.toks) {
		return nil, &shellError{p.end + 1, "missing command"}
	}
	if t := p.toks[p.i]; t.kind != tokWord {
		return nil, &shellError{t.pos + 1, fmt.Sprintf("syntax error near unexpected token %q", t.op)}
	}
	var c command
	for p.i < len(p.toks) {
		t := p.toks[p.i]
		if t.kind == tokWord {
			c.args = append(c.args, t.word)
			p.i++
			continue
		}
		switch t.op {
		case "|", "||", "&&", ";", "&":
			return &c, nil
		case "<<":
			return nil, &shellError{t.pos + 1, "here-documents (<<) are not supported"}
		}
		p.i++
		if p.i == len(p.toks) || p.toks[p.i].kind != tokWord {
			return nil, &shellError{t.pos + 1, fmt.Sprintf("missing target after redirection %q", t.op)}
		}
		c.redirects = append(c.redirects, redirect{op: t.op, fd: t.fd, target: p.toks[p.i].word})
		p.i++
	}
	return &c, nil
}

// String renders the script back in shell syntax, quoting where needed.
func (p *pipeline) String() string {
	parts := make([]string, len(p.commands))
	for i, c := range p.commands {
		parts[i] = c.String()
	}
	return strings.Join(parts, " | ")
}

// String renders the script back in shell syntax.
func (s *seq) String() string {
	if s.op == ";" {
		return s.lhs.String() + " ; " + s.rhs.String()
	}
	return s.lhs.String() + " " + s.op + " " + s.rhs.String()
}

// String renders the command back in shell syntax.
func (c *command) String() string {
	var parts []string
	for _, a := range c.args {
		parts = append(parts, a.quoted())
	}
	for _, r := range c.redirects {
		fd := ""
		if r.fd >= 0 {
			fd = fmt.Sprint(r.fd)
		}
		parts = append(parts, fd+r.op+r.target.quoted())
	}
	return strings.Join(parts, " ")
}

// quoted returns the word in a form that lexes back to itself.
func (w word) quoted() string {
	if w.text != "" && !strings.ContainsAny(w.text, " \t\n\r\v\f|&;<>'\"\\*?") {
		return w.text
	}
	if w.glob {
		var b strings.Builder
		for i := 0; i < len(w.text); i++ {
			c := w.text[i]
			if c != '*' && c != '?' && strings.IndexByte(" \t\n\r\v\f|&;<>'\"\\", c) >= 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
		return b.String()
	}
	return "'" + strings.ReplaceAll(w.text, "'", `'\''`) + "'"
}
