package attr

import (
	"fmt"
	"slices"
	"strings"

	"github.com/layoutopt/layoutopt/linear"
)

// SwizzledShared is #ttg.swizzled_shared: rows (along Order[1]) of the
// tensor are stored one after the other and XOR-swizzled in units of Vec
// elements by (row / PerPhase) % MaxPhase.
type SwizzledShared struct {
	Vec, PerPhase, MaxPhase int
	Order                   []int
	CGA                     CGALayout
}

// AMDRotatingShared is #ttg.amd_rotating_shared: like SwizzledShared, but
// the phase of a row is also XORed with its block number
// (row / (PerPhase·MaxPhase)) % MaxPhase.
type AMDRotatingShared struct {
	Vec, PerPhase, MaxPhase int
	Order                   []int
	CGA                     CGALayout
}

// NVMMAShared is #ttg.nvmma_shared, the shared layout that TMA and wgmma /
// tcgen05 read: 8-row core matrices swizzled over SwizzlingByteWidth bytes.
type NVMMAShared struct {
	SwizzlingByteWidth int
	Transposed         bool
	// ElementBitWidth is 0 when the text leaves it out: Triton 3.6
	// parses that (its parser reads the key into an uninitialized
	// variable), so the attribute reads, verifies and prints back without
	// it, and only ToLinear, which needs the width, refuses it.
	ElementBitWidth int
	FP4Padded       bool
	LayoutRank      int // the rank (2 unless given)
	CGA             CGALayout
}

// PaddedShared is #ttg.padded_shared: a linear component (offset → tensor
// coordinates) plus padding: after every Intervals[k] elements, Paddings[k]
// elements are skipped.
type PaddedShared struct {
	Intervals, Paddings []int
	Offset, Block       [][]int // bases of the linear component
	Shape               []int   // out sizes of the linear component
}

// SharedLinear is #ttg.shared_linear: a shared layout given by the bases of
// its offset and block input dims, and the alignment of the allocation.
type SharedLinear struct {
	Offset, Block [][]int
	Alignment     int
}

// SharedMemory is #ttg.shared_memory, the memory space of shared-memory
// descriptors (not a layout).
type SharedMemory struct{}

func (*SwizzledShared) shared()    {}
func (*AMDRotatingShared) shared() {}
func (*NVMMAShared) shared()       {}
func (*PaddedShared) shared()      {}
func (*SharedLinear) shared()      {}

// Name implements Encoding.
func (*SwizzledShared) Name() string { return "ttg.swizzled_shared" }

// Name implements Encoding.
func (*AMDRotatingShared) Name() string { return "ttg.amd_rotating_shared" }

// Name implements Encoding.
func (*NVMMAShared) Name() string { return "ttg.nvmma_shared" }

// Name implements Encoding.
func (*PaddedShared) Name() string { return "ttg.padded_shared" }

// Name implements Encoding.
func (*SharedLinear) Name() string { return "ttg.shared_linear" }

// Name implements Encoding.
func (SharedMemory) Name() string { return "ttg.shared_memory" }

// AliasPrefix implements Encoding.
func (*SwizzledShared) AliasPrefix() string { return "shared" }

// AliasPrefix implements Encoding.
func (*AMDRotatingShared) AliasPrefix() string { return "shared" }

// AliasPrefix implements Encoding.
func (*NVMMAShared) AliasPrefix() string { return "shared" }

// AliasPrefix implements Encoding.
func (*PaddedShared) AliasPrefix() string { return "shared" }

// AliasPrefix implements Encoding.
func (*SharedLinear) AliasPrefix() string { return "shared" }

// AliasPrefix implements Encoding.
func (SharedMemory) AliasPrefix() string { return "smem" }

// Rank implements Layout.
func (s *SwizzledShared) Rank() int { return len(s.Order) }

// Rank implements Layout.
func (s *AMDRotatingShared) Rank() int { return len(s.Order) }

// Rank implements Layout.
func (s *NVMMAShared) Rank() int { return s.LayoutRank }

// Rank implements Layout.
func (p *PaddedShared) Rank() int { return len(p.Shape) }

// Rank implements Layout.
func (s *SharedLinear) Rank() int { return len(firstBasis(s.Offset, s.Block)) }

func formatSwizzled(name string, vec, perPhase, maxPhase int, order []int, cga CGALayout) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "#%s<{vec = %d, perPhase = %d, maxPhase = %d", name, vec, perPhase, maxPhase)
	intsField(&sb, ", ", "order", order)
	cga.format(&sb)
	sb.WriteString("}>")
	return sb.String()
}

// Format implements Encoding.
func (s *SwizzledShared) Format(func(Encoding) string) string {
	return formatSwizzled(s.Name(), s.Vec, s.PerPhase, s.MaxPhase, s.Order, s.CGA)
}

// Format implements Encoding.
func (s *AMDRotatingShared) Format(func(Encoding) string) string {
	return formatSwizzled(s.Name(), s.Vec, s.PerPhase, s.MaxPhase, s.Order, s.CGA)
}

// Format implements Encoding.
func (s *NVMMAShared) Format(func(Encoding) string) string {
	var sb strings.Builder
	sb.WriteString("#ttg.nvmma_shared<{")
	intField(&sb, "", "swizzlingByteWidth", s.SwizzlingByteWidth)
	boolField(&sb, ", ", "transposed", s.Transposed)
	if s.ElementBitWidth != 0 {
		intField(&sb, ", ", "elementBitWidth", s.ElementBitWidth)
	}
	if s.FP4Padded {
		sb.WriteString(", fp4Padded = true")
	}
	if len(s.CGA.Bases) == 0 && s.LayoutRank != 2 {
		intField(&sb, ", ", "rank", s.LayoutRank)
	} else {
		s.CGA.format(&sb)
	}
	sb.WriteString("}>")
	return sb.String()
}

// linearComponent returns the linear component as a layout.
func (p *PaddedShared) linearComponent() (linear.Layout, error) {
	outs := make([]linear.OutDim, len(p.Shape))
	for d, n := range standardDims(len(p.Shape)) {
		outs[d] = linear.OutDim{Name: n, Size: p.Shape[d]}
	}
	return linear.New([]linear.InDim{{Name: "offset", Bases: p.Offset}, {Name: "block", Bases: p.Block}}, outs, false)
}

// identityOffsets returns the offset bases of the order/shape form of a
// padded layout: the identity on shape with order as its dim order. It
// reports false if shape and order do not make a layout.
func identityOffsets(shape, order []int) ([][]int, bool) {
	id, err := linear.IdentityStandardND("offset", shape, order)
	if err == nil {
		id, err = id.TransposeOuts(standardDims(len(shape)))
	}
	if err != nil {
		return nil, false
	}
	if b := id.Bases("offset"); b != nil {
		return b, true
	}
	return [][]int{}, true
}

// Order is the dim order of the linear component's offsets (Triton's
// getOrder: dims in the order the offset bases first move along them,
// then the rest from the last dim down).
func (p *PaddedShared) Order() []int {
	return orderPerDim(p.Offset, len(p.Shape))
}

func orderPerDim(bases [][]int, rank int) []int {
	var order []int
	for _, b := range bases {
		for d, v := range b {
			if v != 0 {
				if !slices.Contains(order, d) {
					order = append(order, d)
				}
				break
			}
		}
	}
	for d := rank - 1; d >= 0; d-- {
		if !slices.Contains(order, d) {
			order = append(order, d)
		}
	}
	return order
}

// Format implements Encoding.
func (p *PaddedShared) Format(func(Encoding) string) string {
	var sb strings.Builder
	sb.WriteString("#ttg.padded_shared<[")
	for i := range p.Intervals {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%d:+%d", p.Intervals[i], p.Paddings[i])
	}
	sb.WriteString("] {")
	order := p.Order()
	if id, ok := identityOffsets(p.Shape, order); ok && len(p.Block) == 0 && basesEqual(id, p.Offset) {
		intsField(&sb, "", "order", order)
		intsField(&sb, ", ", "shape", p.Shape)
	} else {
		writeLinearDims(&sb, sharedLinearDims, [][][]int{p.Offset, p.Block})
	}
	sb.WriteString("}>")
	return sb.String()
}

func basesEqual(a, b [][]int) bool {
	return slices.EqualFunc(a, b, func(x, y []int) bool { return slices.Equal(x, y) })
}

// Format implements Encoding.
func (s *SharedLinear) Format(func(Encoding) string) string {
	var sb strings.Builder
	sb.WriteString("#ttg.shared_linear<{")
	if len(s.Block) == 0 {
		writeLinearDims(&sb, []string{"offset"}, [][][]int{s.Offset})
	} else {
		writeLinearDims(&sb, sharedLinearDims, [][][]int{s.Offset, s.Block})
	}
	fmt.Fprintf(&sb, "}, alignment = %d>", s.Alignment)
	return sb.String()
}

// Format implements Encoding.
func (SharedMemory) Format(func(Encoding) string) string { return "#ttg.shared_memory" }

func checkSwizzled(vec, perPhase, maxPhase int, order []int, cga CGALayout) error {
	return firstErr(
		checkPow2("vec", vec),
		checkPow2("perPhase", perPhase),
		checkPow2("maxPhase", maxPhase),
		ferr("order", checkPermutation("order", order)),
		ferr("CGALayout", cga.verify(len(order))),
	)
}

// Verify implements Encoding. Shared layouts are not checked against the
// module (Triton checks the warps, lanes and CTAs of distributed layouts
// only).
func (s *SwizzledShared) Verify(ModuleInfo) error {
	return checkSwizzled(s.Vec, s.PerPhase, s.MaxPhase, s.Order, s.CGA)
}

// Verify implements Encoding.
func (s *AMDRotatingShared) Verify(ModuleInfo) error {
	return checkSwizzled(s.Vec, s.PerPhase, s.MaxPhase, s.Order, s.CGA)
}

func (s *NVMMAShared) check() error {
	if s.ElementBitWidth != 0 && !isPow2(s.ElementBitWidth) {
		return ferrf("elementBitWidth", "elementBitWidth must be a non-zero power of two")
	}
	if !slices.Contains([]int{0, 32, 64, 128}, s.SwizzlingByteWidth) {
		return ferrf("swizzlingByteWidth", "swizzlingByteWidth must be 0, 32, 64, or 128")
	}
	if s.LayoutRank < 1 {
		return ferrf("rank", "rank must be positive")
	}
	return ferr("CGALayout", s.CGA.verify(s.LayoutRank))
}

// Verify implements Encoding.
func (s *NVMMAShared) Verify(ModuleInfo) error { return s.check() }

func (p *PaddedShared) check() error {
	if len(p.Intervals) != len(p.Paddings) {
		return ferrf("intervals", "intervals size (%d) must match paddings size (%d)", len(p.Intervals), len(p.Paddings))
	}
	if len(p.Intervals) == 0 {
		return ferrf("intervals", "must have at least one interval-padding pair")
	}
	for i, v := range p.Intervals {
		if !isPow2(v) {
			return ferrf("intervals", "interval values must all be power of two")
		}
		if !isPow2(p.Paddings[i]) {
			return ferrf("intervals", "padding values must all be power of two")
		}
		if slices.Contains(p.Intervals[:i], v) {
			return ferrf("intervals", "interval values cannot have duplicates")
		}
	}
	if err := checkLinearBases(sharedLinearDims, true, [][][]int{p.Offset, p.Block}); err != nil {
		return err
	}
	for _, bs := range [][][]int{p.Offset, p.Block} {
		for _, b := range bs {
			for _, v := range b {
				if v != 0 && !isPow2(v) {
					return ferrf("offset", "Each offset basis must be 0 or a power of two.")
				}
			}
		}
	}
	l, err := p.linearComponent()
	n := len(p.Offset) + len(p.Block)
	if err != nil || l.Rank() != n || n != l.TotalOutDimSizeLog2() {
		return ferrf("offset", "Broadcasting is not supported.")
	}
	return nil
}

// Verify implements Encoding.
func (p *PaddedShared) Verify(ModuleInfo) error { return p.check() }

func (s *SharedLinear) lay() (linear.Layout, error) {
	return fromBases([]linear.InDim{{Name: "offset", Bases: s.Offset}, {Name: "block", Bases: s.Block}}, standardDims(s.Rank()))
}

func (s *SharedLinear) check() error {
	if s.Alignment <= 0 || !isPow2(s.Alignment) {
		return ferrf("alignment", "alignment must be a positive power of two")
	}
	if err := checkLinearBases(sharedLinearDims, false, [][][]int{s.Offset, s.Block}); err != nil {
		return err
	}
	l, err := s.lay()
	if err != nil || !l.IsSurjective() {
		return ferrf("offset", "The layout must be surjective")
	}
	if !injectiveIgnoringZeros(l) {
		return ferrf("offset", "After removing the zero bases the layout must be bijective")
	}
	return nil
}

// Verify implements Encoding.
func (s *SharedLinear) Verify(ModuleInfo) error { return s.check() }

// Verify implements Encoding: the memory space has no fields.
func (SharedMemory) Verify(ModuleInfo) error { return nil }

// LinearComponent returns the linear component of the padded layout (in
// dims offset and block, out dims dim0…), Triton's getLinearComponent.
func (p *PaddedShared) LinearComponent() (linear.Layout, error) { return p.linearComponent() }
