package tensorlayout

import (
	"fmt"
	"strconv"
	"strings"
)

// tensorType is what -t gives: a shape, an element type, and optionally
// the text of an encoding attribute written inside the type.
type tensorType struct {
	shape    []int
	elem     string
	encoding string // "" when the type has none
}

// typeError is a malformed -t value; Offset is a byte offset into it.
type typeError struct {
	Offset int
	Msg    string
}

func (e *typeError) Error() string { return e.Msg }

// parseTensorType reads "tensor<64x64xf16>", optionally with an encoding
// ("tensor<64x64xf16, #blocked>"), or a shared-memory descriptor
// "!ttg.memdesc<64x64xf16, #shared, #smem>". Every dimension must be a
// static positive integer.
func parseTensorType(s string) (tensorType, error) {
	var t tensorType
	src := s
	s = strings.TrimSpace(s)
	lead := len(src) - len(strings.TrimLeft(src, " \t"))
	var body string
	switch {
	case strings.HasPrefix(s, "tensor<"):
		body = s[len("tensor<"):]
		lead += len("tensor<")
	case strings.HasPrefix(s, "!ttg.memdesc<"):
		body = s[len("!ttg.memdesc<"):]
		lead += len("!ttg.memdesc<")
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
		t.encoding = strings.TrimSpace(r[1:])
	}
	return t, nil
}

// elemEnd returns where the element type ends: at the first ',' outside
// angle brackets (element types such as !tt.ptr<f16> nest).
func elemEnd(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			depth++
		case '>':
			depth--
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return len(s)
}
