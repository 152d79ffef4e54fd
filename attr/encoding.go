package attr

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/linear"
)

// Encoding is one TritonGPU attribute: a tensor layout encoding or the
// shared-memory space.
type Encoding interface {
	// Name is the attribute's dialect-qualified name ("ttg.blocked", …).
	Name() string
	// Format prints the attribute as Triton 3.6 does ("#ttg.blocked<{…}>").
	// Nested encodings (parent = …) are printed with ref(nested), which
	// returns e.g. "#mma" (an alias) or the nested text; a nil ref prints
	// them inline.
	Format(ref func(Encoding) string) string
	// AliasPrefix is the alias name Triton's printer gives the attribute
	// ("blocked", "mma", "shared", "linear", "smem"), or "" when Triton
	// prints it inline.
	AliasPrefix() string
	// Verify checks the fields, alone and against the module (ttg.num-warps,
	// ttg.threads-per-warp, ttg.num-ctas; zero fields of m are not checked).
	// The error carries no position: the caller locates it (a
	// *FieldError names the key it is about).
	Verify(m ModuleInfo) error
}

// ModuleInfo is what Verify needs to know about the enclosing module. A zero
// field means unknown and is not checked.
type ModuleInfo struct{ NumWarps, ThreadsPerWarp, NumCTAs int }

// Layout is an Encoding that describes where the elements of a tensor live:
// every distributed and shared encoding (not the memory space).
type Layout interface {
	Encoding
	// ToLinear returns the layout for a tensor of the given shape, exactly
	// as Triton's toLinearLayout computes it (repeating the encoding's tile
	// into registers or offsets when the shape is larger, broadcasting when
	// it is smaller): input dims register, lane, warp, block for distributed
	// encodings, offset, block for shared ones (row, col, block for tensor
	// memory); output dims dim0… with sizes equal to shape.
	ToLinear(shape []int) (linear.Layout, error)
	// Rank is the tensor rank the encoding is written for.
	Rank() int
	toLinearLayout(shape []int) (linear.Layout, error)
}

// Distributed marks the register (distributed) encodings.
type Distributed interface {
	Layout
	distributed()
}

// Shared marks the shared-memory encodings.
type Shared interface {
	Layout
	shared()
}

// CGALayout is the arrangement of the CTAs of a cluster (CGA) over the
// tensor: one basis per bit of the CTA index, each a vector of tensor rank.
// No bases means a single CTA. A zero basis means the CTAs it selects hold
// the same data (multicast).
type CGALayout struct {
	Bases [][]int
}

// NumCTAs is the number of CTAs the layout spans (2^len(Bases)).
func (c CGALayout) NumCTAs() int { return 1 << len(c.Bases) }

// CGAFromSplit converts the legacy triple (CTAsPerCGA, CTASplitNum,
// CTAOrder) to a CGALayout, as Triton's fromSplitParams does: walking the
// dims in CTAOrder, each gets log2(split) unit bases and then
// log2(CTAsPerCGA/split) zero bases.
func CGAFromSplit(ctasPerCGA, splitNum, order []int) (CGALayout, error) {
	rank := len(order)
	if len(ctasPerCGA) != rank || len(splitNum) != rank {
		return CGALayout{}, fmt.Errorf("CTAsPerCGA, CTASplitNum and CTAOrder must have the same length")
	}
	if err := checkPermutation("CTAOrder", order); err != nil {
		return CGALayout{}, err
	}
	var c CGALayout
	for _, d := range order {
		n, s := ctasPerCGA[d], splitNum[d]
		if !isPow2(n) || !isPow2(s) || s > n {
			return CGALayout{}, fmt.Errorf("CTAsPerCGA[%d] = %d and CTASplitNum[%d] = %d must be powers of two with CTASplitNum <= CTAsPerCGA", d, n, d, s)
		}
		for v := 1; v < s; v *= 2 {
			b := make([]int, rank)
			b[d] = v
			c.Bases = append(c.Bases, b)
		}
		for v := s; v < n; v *= 2 {
			c.Bases = append(c.Bases, make([]int, rank))
		}
	}
	return c, nil
}

func (c CGALayout) lay(rank int) (linear.Layout, error) {
	return fromBases([]linear.InDim{{Name: "block", Bases: c.Bases}}, standardDims(rank))
}

// split returns CTASplitNum: how many distinct pieces each dim is cut into.
func (c CGALayout) split(rank int) []int {
	s := make([]int, rank)
	outs, err := linear.InferredOutDims([]linear.InDim{{Name: "block", Bases: c.Bases}}, standardDims(rank))
	for d := range s {
		s[d] = 1
		if err == nil {
			s[d] = outs[d].Size
		}
	}
	return s
}

func (c CGALayout) verify(rank int) error {
	for _, b := range c.Bases {
		if len(b) != rank {
			return fmt.Errorf("'CGALayout' entry length does not match rank %d", rank)
		}
		nz := 0
		for _, v := range b {
			if v < 0 || (v != 0 && !isPow2(v)) {
				return fmt.Errorf("'CGALayout' entries must be 0 or a power of two")
			}
			if v != 0 {
				nz++
			}
		}
		if nz > 1 {
			return fmt.Errorf("each 'CGALayout' basis must move in at most one dimension")
		}
	}
	if l, err := c.lay(rank); err != nil || !injectiveIgnoringZeros(l) {
		return fmt.Errorf("'CGALayout' bases must be distinct powers of two per dimension")
	}
	return nil
}

func (c CGALayout) verifyModule(m ModuleInfo) error {
	if m.NumCTAs > 0 && c.NumCTAs() != m.NumCTAs {
		return fmt.Errorf("Layout has %d CTAs per CGA, but the context requires %d CTAs per CGA", c.NumCTAs(), m.NumCTAs)
	}
	return nil
}

// format appends ", CGALayout = [[…], …]" when there is more than one CTA.
func (c CGALayout) format(sb *strings.Builder) {
	if len(c.Bases) == 0 {
		return
	}
	sb.WriteString(", CGALayout = ")
	writeBases(sb, c.Bases)
}

func writeInts(sb *strings.Builder, v []int) {
	sb.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.Itoa(x))
	}
	sb.WriteByte(']')
}

func writeBases(sb *strings.Builder, b [][]int) {
	sb.WriteByte('[')
	for i, v := range b {
		if i > 0 {
			sb.WriteString(", ")
		}
		writeInts(sb, v)
	}
	sb.WriteByte(']')
}

func intsField(sb *strings.Builder, sep, key string, v []int) {
	sb.WriteString(sep)
	sb.WriteString(key)
	sb.WriteString(" = ")
	writeInts(sb, v)
}

func intField(sb *strings.Builder, sep, key string, v int) {
	fmt.Fprintf(sb, "%s%s = %d", sep, key, v)
}

func boolField(sb *strings.Builder, sep, key string, v bool) {
	fmt.Fprintf(sb, "%s%s = %t", sep, key, v)
}

func refOf(ref func(Encoding) string, e Encoding) string {
	if ref != nil {
		return ref(e)
	}
	return e.Format(nil)
}

// Equal reports whether a and b are the same attribute (same fields after
// normalisation, so legacy CTA spellings equal their CGALayout form).
func Equal(a, b Encoding) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if samePointer(a, b) {
		return true
	}
	return a.Format(nil) == b.Format(nil)
}

// samePointer reports whether a and b are the same pointer, the common case
// when IR shares one attribute value: then Equal need not print them. It
// does not compare with ==, which panics on encodings of an uncomparable
// value type that another package may define.
func samePointer(a, b Encoding) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	return va.Kind() == reflect.Pointer && va.Type() == vb.Type() && va.Pointer() == vb.Pointer()
}

func product(v []int) int {
	p := 1
	for _, x := range v {
		p *= x
	}
	return p
}

func checkPermutation(field string, order []int) error {
	seen := make([]bool, len(order))
	for _, o := range order {
		if o < 0 || o >= len(order) || seen[o] {
			return fmt.Errorf("%s %s is not a permutation of 0..%d", field, fmtInts(order), len(order)-1)
		}
		seen[o] = true
	}
	return nil
}

func checkPow2s(field string, v []int) error {
	for i, x := range v {
		if !isPow2(x) {
			return fmt.Errorf("%s[%d] = %d is not a power of two", field, i, x)
		}
	}
	return nil
}

func checkPow2(field string, v int) error {
	if !isPow2(v) {
		return ferrf(field, "%s = %d is not a power of two", field, v)
	}
	return nil
}

func checkLen(field string, v []int, rank int) error {
	if len(v) != rank {
		return fmt.Errorf("%s has %d entries, expected %d (the rank)", field, len(v), rank)
	}
	return nil
}

func fmtInts(v []int) string {
	var sb strings.Builder
	writeInts(&sb, v)
	return sb.String()
}

func checkWarps(warps []int, m ModuleInfo) error {
	if p := product(warps); m.NumWarps > 0 && p != m.NumWarps {
		return fmt.Errorf("Layout has %d warps per CTA, but the context requires %d warps per CTA", p, m.NumWarps)
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
