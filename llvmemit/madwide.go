package llvmemit

import (
	"regexp"
	"strings"
)

// FuseMadWide rewrites llc-14's address arithmetic
//
//	mul.wide.u32 %rdA, %rX, Y;      (or .s32)
//	…
//	add.s64      %rdB, %rdP, %rdA;  (the only use of %rdA)
//
// into the one instruction the NVPTX back end of Triton's LLVM writes,
//
//	mad.wide.u32 %rdB, %rX, Y, %rdP;
//
// at the add, where the add is the product's only use, in the same basic
// block, and nothing between them writes %rX or Y: the rule of the NVPTX
// back end of Triton's LLVM (a product several adds read stays a mul.wide,
// as in Triton's PTX). The value is the same (mad.wide
// adds the exact 64-bit product); what changes is ptxas's code: for a
// kernel parameter %rdP it computes the address with LEA from a uniform
// register (ULDC) instead of an IMAD.WIDE on the parameter loaded into
// ordinary registers (LDC.64), as in Triton's SASS. It returns the PTX and
// the number of pairs fused.
func FuseMadWide(ptx []byte) ([]byte, int) {
	lines := strings.Split(string(ptx), "\n")
	drop := make([]bool, len(lines))
	fused := 0
	for start := 0; start < len(lines); {
		end := start + 1
		for end < len(lines) && !funcHeader.MatchString(lines[end]) {
			end++
		}
		fused += fuseMadWideIn(lines[start:end], drop[start:end])
		start = end
	}
	if fused == 0 {
		return ptx, 0
	}
	out := make([]string, 0, len(lines))
	for i, l := range lines {
		if !drop[i] {
			out = append(out, l)
		}
	}
	return []byte(strings.Join(out, "\n")), fused
}

var (
	funcHeader = regexp.MustCompile(`^(\.visible |\.weak )?\.(entry|func)\b`)
	mulWide    = regexp.MustCompile(`^\s*mul\.wide\.([us]32)\s+(%rd\d+),\s*(%r\d+),\s*(%r\d+|-?\d+|0[xX][0-9a-fA-F]+);\s*$`)
	addS64     = regexp.MustCompile(`^\s*add\.s64\s+(%rd\d+),\s*(%rd\d+),\s*(%rd\d+);\s*$`)
	regToken   = regexp.MustCompile(`%[A-Za-z_][A-Za-z0-9_]*`)
)

// fuseMadWideIn fuses the pairs of one function's lines, rewriting the
// adds and marking the muls in drop; it returns how many it fused.
func fuseMadWideIn(fn []string, drop []bool) int {
	uses := map[string]int{}
	for _, l := range fn {
		for _, r := range regToken.FindAllString(stripComment(l), -1) {
			uses[r]++
		}
	}
	fused := 0
	for i, l := range fn {
		m := mulWide.FindStringSubmatch(l)
		if m == nil || uses[m[2]] != 2 { // defined, and read once
			continue
		}
		sign, prod, x, y := m[1], m[2], m[3], m[4]
		for j := i + 1; j < len(fn); j++ {
			if a := addS64.FindStringSubmatch(fn[j]); a != nil && (a[2] == prod) != (a[3] == prod) {
				base := a[2]
				if base == prod {
					base = a[3]
				}
				fn[j] = "\tmad.wide." + sign + " \t" + a[1] + ", " + x + ", " + y + ", " + base + ";"
				drop[i] = true
				fused++
				break
			}
			if endsBlock(fn[j]) || writes(fn[j], x) || writes(fn[j], y) || hasReg(fn[j], prod) {
				break
			}
		}
	}
	return fused
}

// hasReg reports whether register r occurs on line l (not counting
// comments).
func hasReg(l, r string) bool {
	for _, tok := range regToken.FindAllString(stripComment(l), -1) {
		if tok == r {
			return true
		}
	}
	return false
}

func stripComment(l string) string {
	if i := strings.Index(l, "//"); i >= 0 {
		return l[:i]
	}
	return l
}

// instruction splits a line into its opcode and operands, a guard
// (@%p, @!%p) and comment aside ("" for none).
func instruction(l string) (op, operands string) {
	t := strings.TrimSpace(stripComment(l))
	if strings.HasPrefix(t, "@") {
		if k := strings.IndexAny(t, " \t"); k >= 0 {
			t = strings.TrimSpace(t[k:])
		}
	}
	if k := strings.IndexAny(t, " \t"); k >= 0 {
		return t[:k], strings.TrimSpace(t[k:])
	}
	return strings.TrimSuffix(t, ";"), ""
}

// endsBlock reports whether a line is a label or a branch, call, return or
// exit: the end of a basic block.
func endsBlock(l string) bool {
	if strings.HasSuffix(strings.TrimSpace(stripComment(l)), ":") {
		return true
	}
	op, _ := instruction(l)
	base, _, _ := strings.Cut(op, ".")
	switch base {
	case "bra", "brx", "call", "ret", "exit", "trap":
		return true
	}
	return false
}

// writes reports whether the instruction on line l may write register r
// (an immediate is never written): r among its destination operands, the
// first operand or a vector of them. Stores and reductions to memory
// write no register.
func writes(l, r string) bool {
	if !strings.HasPrefix(r, "%") || !strings.Contains(l, r) {
		return false
	}
	op, ops := instruction(l)
	if strings.HasPrefix(op, "st.") || strings.HasPrefix(op, "red.") {
		return false
	}
	var dst string
	if strings.HasPrefix(ops, "{") {
		dst, _, _ = strings.Cut(ops, "}")
	} else {
		dst, _, _ = strings.Cut(ops, ",")
	}
	for _, tok := range regToken.FindAllString(dst, -1) {
		if tok == r {
			return true
		}
	}
	return false
}
