package tensorlayout

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/proc"
)

// showUses is tensor-layout -i FILE with neither -t nor -l: every layout
// alias of FILE, on each tensor shape that FILE uses it with (the types
// tensor<SHAPExT, #name> and !ttg.memdesc<SHAPExT, #name, …>, in the
// order they first appear). In the tensor and hw views each alias starts
// with Triton's "Print layout attribute: #NAME = ATTR" line and each shape
// with "Tensor shape: 64x32"; -view linear prints "#NAME 64x32: LINEAR"
// lines, -view json one object per shape (the object holds the layout and
// the shape). An alias that no tensor type of the file uses directly (the
// parent of a slice or dot operand, say), or that cannot be shown on a
// shape, gets a note on stderr naming it. The status is 1 only when
// nothing at all could be shown.
func showUses(p *proc.Proc, file string, data []byte, aliases map[string]attr.Encoding, order []string, v string) int {
	uses := tensorUses(string(data))
	var out bytes.Buffer
	layouts, shown := 0, 0
	for _, name := range order {
		l, ok := aliases[name].(attr.Layout)
		if !ok {
			continue
		}
		layouts++
		shapes := uses[name]
		if len(shapes) == 0 {
			fmt.Fprintf(p.Stderr, "tensor-layout: note: #%s is not the encoding of any tensor type in %s; show it with -l '#%s' -t TYPE\n", name, file, name)
			continue
		}
		var one bytes.Buffer
		header := false
		for _, shape := range shapes {
			tt := tensorType{shape: shape}
			var b bytes.Buffer
			if err := showOne(&b, l, name, tt, v); err != nil {
				fmt.Fprintf(p.Stderr, "tensor-layout: note: #%s not shown on shape %s: %v\n", name, shapeText(shape), err)
				continue
			}
			if !header && (v == "tensor" || v == "hw") {
				fmt.Fprintf(&one, "Print layout attribute: #%s = %s\n", name, l.Format(nil))
				header = true
			}
			one.Write(b.Bytes())
			shown++
		}
		out.Write(one.Bytes())
	}
	if layouts == 0 {
		return fail(p, "%s defines no layout aliases", file)
	}
	if shown == 0 {
		return fail(p, "no layout alias of %s could be shown; give -t TYPE", file)
	}
	if _, err := out.WriteTo(p.Stdout); err != nil {
		return fail(p, "%v", err)
	}
	return 0
}

// showOne prints alias name's layout on one shape for showUses.
func showOne(w *bytes.Buffer, l attr.Layout, name string, tt tensorType, v string) error {
	if err := l.Verify(attr.ModuleInfo{}); err != nil {
		return fmt.Errorf("%s: %v", l.Format(nil), err)
	}
	ll, err := l.ToLinear(tt.shape)
	if err != nil {
		return err
	}
	switch v {
	case "linear":
		s, err := linearText(l, ll)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "#%s %s: %s\n", name, shapeText(tt.shape), s)
		return nil
	case "json":
		return writeJSON(w, l.Format(nil), tt.shape, ll)
	case "hw":
		fmt.Fprintf(w, "Tensor shape: %s\n", shapeText(tt.shape))
		return writeHWView(w, ll, tt.shape)
	default:
		fmt.Fprintf(w, "Tensor shape: %s\n", shapeText(tt.shape))
		return writeTensorView(w, ll, tt.shape)
	}
}

func shapeText(shape []int) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = fmt.Sprint(d)
	}
	return strings.Join(parts, "x")
}

// tensorUses finds the tensor<…> and !ttg.memdesc<…> types of text whose
// encoding is an alias, and returns for each alias name the distinct
// shapes, in the order they first appear. Types that do not parse (a
// dynamic dimension, say) are ignored.
func tensorUses(text string) map[string][][]int {
	uses := map[string][][]int{}
	for name, tts := range typedUses(text) {
		seen := map[string]bool{}
		for _, tt := range tts {
			if k := shapeText(tt.shape); !seen[k] {
				seen[k] = true
				uses[name] = append(uses[name], tt.shape)
			}
		}
	}
	return uses
}

// typedUses is tensorUses with the element type: for each alias, the
// distinct (shape, element type) pairs of the types using it, in the order
// they first appear. A shared layout's banks depend on the element type.
func typedUses(text string) map[string][]tensorType {
	uses := map[string][]tensorType{}
	seen := map[string]bool{}
	for i := 0; i < len(text); i++ {
		var start int
		switch {
		case strings.HasPrefix(text[i:], "!ttg.memdesc<"):
			start = i
			i += len("!ttg.memdesc")
		case strings.HasPrefix(text[i:], "tensor<") && (i == 0 || !isIdent(text[i-1])):
			start = i
			i += len("tensor")
		default:
			continue
		}
		end := matchAngle(text, i)
		if end < 0 {
			continue
		}
		tt, err := parseTensorType(text[start : end+1])
		if err != nil || !strings.HasPrefix(tt.encoding, "#") || !aliasName.MatchString(tt.encoding[1:]) {
			continue
		}
		name := tt.encoding[1:]
		key := name + " " + shapeText(tt.shape) + " " + tt.elem
		if !seen[key] {
			seen[key] = true
			uses[name] = append(uses[name], tt)
		}
	}
	return uses
}

// matchAngle returns the index of the '>' closing the '<' at text[i], or -1.
func matchAngle(text string, i int) int {
	depth := 0
	for j := i; j < len(text); j++ {
		switch text[j] {
		case '<':
			depth++
		case '>':
			if j > 0 && text[j-1] == '-' {
				continue // "->" of a function type
			}
			depth--
			if depth == 0 {
				return j
			}
		case '\n':
			return -1
		}
	}
	return -1
}

func isIdent(c byte) bool {
	return c == '_' || c == '.' || c == '!' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
