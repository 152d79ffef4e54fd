// Package suggest finds the closest of a set of names to a misspelled one,
// for the "did you mean" hints of the tools' error messages (mlir-opt's
// and LLVM's command-line parser give the same kind of hint).
package suggest

import (
	"flag"
	"strings"
)

// Closest returns the candidate nearest to name in edit distance
// ([Distance]), or
// "" when none is near enough to be a likely misspelling: the distance must
// be at most a third of the longer name's length, and at least 1 is always
// allowed. Ties go to the candidate that comes first. name itself, when it
// is a candidate, is never suggested.
func Closest(name string, candidates []string) string {
	best, bestDist := "", -1
	for _, c := range candidates {
		if c == name || c == "" {
			continue
		}
		limit := max(len(name), len(c)) / 3
		limit = max(limit, 1)
		d := Distance(name, c)
		if d <= limit && (bestDist < 0 || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}

// Hint is "; did you mean 'X'?" for the [Closest] candidate X, or "".
func Hint(name string, candidates []string) string {
	if c := Closest(name, candidates); c != "" {
		return "; did you mean '" + c + "'?"
	}
	return ""
}

// Distance is the edit distance between a and b over bytes: the fewest
// insertions, deletions, substitutions and swaps of two adjacent bytes
// ("veiw" for "view") that turn a into b, each costing one (the optimal
// string alignment distance).
func Distance(a, b string) int {
	// Three rows of the dynamic-programming table: i-2, i-1 and i.
	pprev := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], pprev[j-2]+1)
			}
		}
		pprev, prev, cur = prev, cur, pprev
	}
	return prev[len(b)]
}

// UnknownFlag returns the closest flag of fs to the one that err (from
// fs.Parse) says is not defined, as "did you mean -X?\n", or "".
func UnknownFlag(fs *flag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return ""
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if c := Closest(name, names); c != "" {
		return "did you mean -" + c + "?\n"
	}
	return ""
}
