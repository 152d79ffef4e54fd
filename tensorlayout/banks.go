package tensorlayout

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/linear"
	"github.com/layoutopt/layoutopt/proc"
)

// writeBanks is -view banks: the first access instruction of warp 0 (CTA 0)
// of a tensor with register layout reg stored to (or loaded from) shared
// layout shared, one line per lane: the elements of its vector, their
// offsets, the banks of their 4-byte words and the wavefront serving them.
// It ends with exactly one line "bank conflicts: N", N as Triton 3.6's
// get_shared_bank_conflicts counts it (smem.BankConflicts), for elements of
// bits bits (sub-byte elements are moved as bytes).
func writeBanks(w io.Writer, title string, reg, shared linear.Layout, shape []int, bits int) error {
	bw := accessBits(bits)
	acc, err := instruction(reg, shared, shape, bw)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", title)
	fmt.Fprintf(&b, "warp 0, first access instruction: %d-bit vectors (%d × %d-bit elements per lane); %d lane group(s) of %d lanes, served one after the other\n",
		acc.vec*bw, acc.vec, bw, acc.groups, acc.perGroup)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "lane\tgroup\telements\toffsets\tbanks\twavefront")
	for _, la := range acc.lanes {
		if len(la.elems) == 0 {
			continue
		}
		coords := make([]string, len(la.elems))
		for i, e := range la.elems {
			coords[i] = coordText(e, shape)
		}
		var banks []int
		for _, off := range la.offsets {
			banks = append(banks, bankOf(off, bw))
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\n", la.lane, la.lane/acc.perGroup, strings.Join(coords, " "), intRanges(la.offsets), intRanges(banks), intRanges(la.wavefront))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(&b, "wavefronts: %d for %d lane group(s)", acc.wavefronts, acc.groups)
	if physical := acc.wavefronts - acc.groups; physical != acc.conflicts*acc.groups {
		// Triton's count is 2^k − 1 from the lanes' span (§3.6 of the
		// note): it ignores partial-word and cross-line coincidences that
		// counting lines per bank sees.
		fmt.Fprintf(&b, " (counting lines per bank; Triton's formula below counts %d excess per group)", acc.conflicts)
	}
	fmt.Fprintf(&b, "\nbank conflicts: %d\n", acc.conflicts)
	_, err = io.WriteString(w, b.String())
	return err
}

// intRanges writes the distinct values of vs in increasing order, runs of
// consecutive values as "a-b": [0 1 2 3 8] → "0-3,8".
func intRanges(vs []int) string {
	s := slices.Clone(vs)
	slices.Sort(s)
	s = slices.Compact(s)
	var parts []string
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && s[j+1] == s[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(s[i]))
		} else {
			parts = append(parts, strconv.Itoa(s[i])+"-"+strconv.Itoa(s[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// runBanks is -l REG -shared SHARED -t TYPE -view banks. Errors are located
// in the flag they come from: a layout that is of the wrong kind or does
// not fit the type in -l or -shared, a tensor too small for Triton's count
// in -t.
func runBanks(p *proc.Proc, reg, shared attr.Layout, regFlag, regText string, regOff int, sharedText string, sharedOff int, typeText string, tt tensorType) int {
	rl, err := reg.ToLinear(tt.shape)
	if err != nil {
		return failAt(p, regFlag, regText, regOff, err.Error())
	}
	if layoutKind(rl) != "distributed" {
		return failAt(p, regFlag, regText, regOff, "-view banks needs a distributed (register) layout here; "+reg.Format(nil)+" is not")
	}
	sl, err := shared.ToLinear(tt.shape)
	if err != nil {
		return failAt(p, "-shared", sharedText, sharedOff, err.Error())
	}
	if layoutKind(sl) != "shared" {
		return failAt(p, "-shared", sharedText, sharedOff, "-shared must be a shared layout; "+shared.Format(nil)+" is not")
	}
	title := fmt.Sprintf("%s of %s to or from %s", strings.TrimSpace(typeText), reg.Format(nil), shared.Format(nil))
	var out strings.Builder
	if err := writeBanks(&out, title, rl, sl, tt.shape, elemBits(tt.elem)); err != nil {
		// The shape is what does not fit: point at it.
		return failAt(p, "-t", typeText, strings.IndexByte(typeText, '<')+1, err.Error())
	}
	if _, err := io.WriteString(p.Stdout, out.String()); err != nil {
		return fail(p, "%v", err)
	}
	return 0
}
