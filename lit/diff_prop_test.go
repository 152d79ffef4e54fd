package lit

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// applyUnified applies a unified diff made by unifiedDiff to the lines of a.
func applyUnified(a []string, diff string) ([]string, error) {
	lines := splitLines(diff)
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return nil, fmt.Errorf("no header")
	}
	var out []string
	next := 0 // next line of a to copy
	for i := 2; i < len(lines); {
		var oldStart, oldLen int
		h := lines[i]
		if !strings.HasPrefix(h, "@@ -") {
			return nil, fmt.Errorf("line %d: want a hunk header, got %q", i, h)
		}
		old := strings.Fields(h)[1][1:]
		start, n, found := strings.Cut(old, ",")
		oldStart, _ = strconv.Atoi(start)
		oldLen = 1
		if found {
			oldLen, _ = strconv.Atoi(n)
		}
		if oldLen > 0 {
			oldStart-- // 1-based, except for an empty range
		}
		if oldStart < next {
			return nil, fmt.Errorf("hunks overlap or go backwards at %q", h)
		}
		newLen := 1
		if _, n, ok := strings.Cut(strings.Fields(h)[2], ","); ok {
			newLen, _ = strconv.Atoi(n)
		}
		out = append(out, a[next:oldStart]...)
		next = oldStart
		i++
		var seenOld, seenNew int
		for ; i < len(lines) && !strings.HasPrefix(lines[i], "@@ "); i++ {
			l := lines[i]
			if l[0] != '+' {
				seenOld++
			}
			if l[0] != '-' {
				seenNew++
			}
			switch l[0] {
			case ' ':
				if next >= len(a) || a[next] != l[1:] {
					return nil, fmt.Errorf("context %q does not match", l)
				}
				out = append(out, l[1:])
				next++
			case '-':
				if next >= len(a) || a[next] != l[1:] {
					return nil, fmt.Errorf("deleted line %q does not match", l)
				}
				next++
			case '+':
				out = append(out, l[1:])
			}
		}
		if seenOld != oldLen || seenNew != newLen {
			return nil, fmt.Errorf("hunk %q has %d old and %d new lines", h, seenOld, seenNew)
		}
	}
	return append(out, a[next:]...), nil
}

// TestUnifiedDiffApplies checks, for random texts, that the diff is empty
// exactly when the texts are equal and that applying it to the first text
// gives the second.
func TestUnifiedDiffApplies(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		gen := rapid.SliceOfN(rapid.SampledFrom([]string{"a", "b", "c", "d", ""}), 0, 30)
		a, b := gen.Draw(t, "a"), gen.Draw(t, "b")
		context := rapid.IntRange(0, 4).Draw(t, "context")
		text := func(ls []string) string {
			if len(ls) == 0 {
				return ""
			}
			return strings.Join(ls, "\n") + "\n"
		}
		d := unifiedDiff("a", "b", text(a), text(b), diffOptions{context: context})
		if (d == "") != (text(a) == text(b)) {
			t.Fatalf("diff of %q and %q is %q", a, b, d)
		}
		if d == "" {
			return
		}
		got, err := applyUnified(a, d)
		if err != nil {
			t.Fatalf("diff of %q and %q does not apply: %v\n%s", a, b, err, d)
		}
		if strings.Join(got, "\n") != strings.Join(b, "\n") || len(got) != len(b) {
			t.Fatalf("applying the diff of %q to it gives %q, want %q\n%s", a, got, b, d)
		}
	})
}
