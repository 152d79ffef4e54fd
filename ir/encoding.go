package ir

import (
	"errors"
	"strings"

	"github.com/layoutopt/layoutopt/attr"
)

// EncodingAttr is a TritonGPU layout encoding or memory space
// (`#ttg.blocked<{...}>`, `#ttg.shared_memory`, ...), parsed, printed and
// verified by package attr.
type EncodingAttr struct {
	Enc attr.Encoding
}

func (*EncodingAttr) isAttribute() {}

func (a *EncodingAttr) appendAttr(b []byte, ref AliasFunc) []byte {
	var nested func(attr.Encoding) string
	if ref != nil {
		nested = func(e attr.Encoding) string {
			if n := ref(&EncodingAttr{Enc: e}); n != "" {
				return n
			}
			return e.Format(nested)
		}
	}
	return append(b, a.Enc.Format(nested)...)
}

// Encoding returns the layout encoding of a tensor or memdesc type, or nil
// when it has none or it is not a TritonGPU encoding.
func Encoding(t Type) attr.Encoding {
	if e, ok := EncodingOf(t).(*EncodingAttr); ok {
		return e.Enc
	}
	return nil
}

// nestedEncodings returns the encodings an encoding refers to (a slice's or
// dot operand's parent).
func nestedEncodings(e attr.Encoding) []attr.Encoding {
	switch x := e.(type) {
	case *attr.Slice:
		if x.Parent != nil {
			return []attr.Encoding{x.Parent}
		}
	case *attr.DotOperand:
		if x.Parent != nil {
			return []attr.Encoding{x.Parent}
		}
	}
	return nil
}

// parseEncoding parses a #ttg attribute known to package attr; the current
// token is its name.
func (p *OpParser) parseEncoding() (Attribute, error) {
	start := p.tok.off
	key := ""
	multiLine := -1 // the end of a balanced text that spans lines
	if end, oneLine := scanBalanced(p.lx.src, p.lx.off); p.lx.off < len(p.lx.src) && p.lx.src[p.lx.off] == '<' && end > 0 && oneLine {
		key = p.lx.src[start:end]
	} else if end > 0 && p.lx.src[p.lx.off] == '<' {
		multiLine = end
	} else if p.lx.off >= len(p.lx.src) || p.lx.src[p.lx.off] != '<' {
		key = p.tok.text
	}
	if key != "" {
		if a, ok := p.attrCache[key]; ok {
			p.lx.off = start + len(key)
			p.advance()
			return a, nil
		}
	}
	resolve := func(alias string) (attr.Encoding, bool) {
		if a, ok := p.attrAliases[alias].(*EncodingAttr); ok {
			return a.Enc, true
		}
		return nil, false
	}
	text := p.lx.src[start:]
	if multiLine > 0 {
		// An alias written over several lines (`#blocked = #ttg.blocked<{`
		// then one key a line): the whole bracketed text.
		text = text[:multiLine-start]
	} else if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	enc, n, err := attr.Parse(text, resolve)
	if err != nil {
		var ae *attr.Error
		off, msg := 0, err.Error()
		if errors.As(err, &ae) {
			off, msg = ae.Offset, ae.Msg
		}
		if p.badAliases != nil && off < len(text) && text[off] == '#' {
			// A reference to an alias whose definition failed: that
			// error stands alone.
			if name, ok := strings.CutPrefix(msg, "undefined attribute alias #"); ok && p.badAliases[name] {
				p.silent = true
				return nil, errSyntax
			}
		}
		line, col := p.tok.line, p.tok.col+off
		if nl := strings.LastIndexByte(text[:min(off, len(text))], '\n'); nl >= 0 {
			line += strings.Count(text[:nl], "\n") + 1
			col = off - nl
		}
		return nil, p.Errorf(p.lx.posOf(line, col), "%s", msg)
	}
	a := &EncodingAttr{Enc: enc}
	if key != "" && n == len(key) {
		p.attrCache[key] = a
	}
	if multiLine > 0 {
		p.lx.skipTo(start + n)
	} else {
		p.lx.off = start + n
	}
	p.advance()
	return a, nil
}
