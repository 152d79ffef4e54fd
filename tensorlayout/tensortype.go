package tensorlayout

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// tensorType is what -t gives: a shape, an element type, and optionally
// the text of an encoding attribute written inside the type.
type tensorType struct {
	shape    []int
	elem     string
	encoding string // "" when the type has none
	encOff   int    // byte offset of encoding in the -t value
	memdesc  bool   // a !ttg.memdesc type
}

// typeError is a malformed -t value; Offset is a byte offset into it.
type typeError struct {
	Offset int
	Msg    string
}

func (e *typeError) Error() string { return e.Msg }

// parseTensorType reads "tensor<64x64xf16>", optionally with an encoding
// ("tensor<64x64xf16, #blocked>"), or a shared-memory descriptor
// "!ttg.memdesc<64x64xf16, #shared, #smem>", whose encoding is the first
// parameter after the element type (the memory space, "mutable" and an
// allocation shape after it are skipped). Every dimension must be a static
// positive integer.
func parseTensorType(s string) (tensorType, error) {
	var t tensorType
	src := s
	s = strings.TrimSpace(s)
	lead := len(src) - len(strings.TrimLeftFunc(src, unicode.IsSpace)) // as TrimSpace trims
	var body string
	switch {
	case strings.HasPrefix(s, "tensor<"):
		body = s[len("tensor<"):]
		lead += len("tensor<")
	case strings.HasPrefix(s, "!ttg.memdesc<"):
		body = s[len("!ttg.memdesc<"):]
		lead += len("!ttg.memdesc<")
		t.memdesc = true
	default:
		return t, &typeError{lead, fmt.Sprintf("expected a tensor type such as tensor<64x64xf16>, got %q", s)}
	}
	if !strings.HasSuffix(body, ">") {
		return t, &typeError{len(src), "expected '>' at the end of the type"}
	}
	body = body[:len(body)-1]
	pos := 0
	for {
		i := pos
		for i < len(body) && body[i] >= '0' && body[i] <= '9' {
			i++
		}
		if i == pos || i >= len(body) || body[i] != 'x' {
			if i < len(body) && body[i] == '?' {
				return t, &typeError{lead + i, "dynamic dimensions ('?') are not supported"}
			}
			if i > pos {
				// "16f16" or "16>": an element type never starts with a
				// digit, so the 'x' after the dimension is missing.
				return t, &typeError{lead + i, fmt.Sprintf("expected 'x' after the dimension %s", body[pos:i])}
			}
			break
		}
		n, err := strconv.Atoi(body[pos:i])
		if err != nil || n <= 0 || n > 1<<30 {
			return t, &typeError{lead + pos, fmt.Sprintf("invalid dimension %q", body[pos:i])}
		}
		t.shape = append(t.shape, n)
		pos = i + 1
	}
	if len(t.shape) == 0 {
		return t, &typeError{lead, "expected a shape such as 64x64x before the element type"}
	}
	rest := body[pos:]
	end := elemEnd(rest)
	t.elem = strings.TrimSpace(rest[:end])
	if t.elem == "" || strings.ContainsAny(t.elem, " ,") {
		return t, &typeError{lead + pos, "expected an element type such as f16"}
	}
	rest = rest[end:]
	if r := strings.TrimSpace(rest); r != "" {
		if !strings.HasPrefix(r, ",") {
			return t, &typeError{lead + pos + end, fmt.Sprintf("unexpected %q after the element type", r)}
		}
		// The encoding: the first top-level parameter after the element
		// type. A tensor type has no other; a memdesc's memory space,
		// "mutable" and allocation shape follow it.
		off := lead + pos + end + strings.IndexByte(rest, ',') + 1
		enc := body[off-lead:]
		if e := elemEnd(enc); e < len(enc) {
			if !t.memdesc {
				return t, &typeError{off + e, fmt.Sprintf("unexpected %q after the encoding", strings.TrimSpace(enc[e:]))}
			}
			enc = enc[:e]
		}
		t.encoding = strings.TrimSpace(enc)
		off += len(enc) - len(strings.TrimLeftFunc(enc, unicode.IsSpace)) // as TrimSpace trims
		t.encOff = off
		if t.encoding == "" {
			return t, &typeError{off, "expected an encoding attribute after ','"}
		}
	}
	return t, nil
}

// elemEnd returns where the element type (or an encoding) ends: at the
// first ',' outside brackets and strings (element types such as
// !tt.ptr<f16> nest, encodings hold {…} and […]).
func elemEnd(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '<', '{', '[', '(':
			depth++
		case '>', '}', ']', ')':
			depth--
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return len(s)
}
