package attr

import (
	"fmt"
	"strings"

	"github.com/layoutopt/layoutopt/linear"
)

// TensorMemory is #ttng.tensor_memory_encoding, the layout of a Blackwell
// tensor-memory allocation: blockM rows (lanes) by blockN columns per
// block, ColStride columns per element. Its linear layout has input dims
// row, col, block.
type TensorMemory struct {
	BlockM, BlockN, ColStride int
	CTASplitM, CTASplitN      int // 0 or 1 = not split
	TwoCTAs                   bool
}

// Name implements Encoding.
func (*TensorMemory) Name() string { return "ttng.tensor_memory_encoding" }

// AliasPrefix implements Encoding.
func (*TensorMemory) AliasPrefix() string { return "tmem" }

// Rank implements Layout: tensor memory holds 2-D tiles.
func (*TensorMemory) Rank() int { return 2 }

func (*TensorMemory) shared() {}

// Format implements Encoding.
func (m *TensorMemory) Format(func(Encoding) string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "#ttng.tensor_memory_encoding<blockM = %d, blockN = %d, colStride = %d", m.BlockM, m.BlockN, m.ColStride)
	if m.CTASplitM > 1 {
		fmt.Fprintf(&sb, ", CTASplitM = %d", m.CTASplitM)
	}
	if m.CTASplitN > 1 {
		fmt.Fprintf(&sb, ", CTASplitN = %d", m.CTASplitN)
	}
	if m.TwoCTAs {
		sb.WriteString(", twoCTAs = true")
	}
	sb.WriteString(">")
	return sb.String()
}

func (m *TensorMemory) check() error {
	if m.BlockM != 64 && m.BlockM != 128 {
		return ferrf("blockM", "blockM must be 64 or 128, got %d", m.BlockM)
	}
	if !isPow2(m.BlockN) {
		return ferrf("blockN", "blockN must be a power of two, got %d", m.BlockN)
	}
	if !isPow2(m.ColStride) {
		return ferrf("colStride", "colStride must be a power of two, got %d", m.ColStride)
	}
	for _, s := range [][2]any{{"CTASplitM", m.CTASplitM}, {"CTASplitN", m.CTASplitN}} {
		if v := s[1].(int); v != 0 && !isPow2(v) {
			return ferrf(s[0].(string), "%s must be a power of two", s[0])
		}
	}
	return nil
}

// Verify implements Encoding (tensor memory is not checked against the
// module).
func (m *TensorMemory) Verify(ModuleInfo) error { return m.check() }

func (m *TensorMemory) cga() CGALayout {
	sm, sn := max(1, m.CTASplitM), max(1, m.CTASplitN)
	c, _ := CGAFromSplit([]int{sm, sn}, []int{sm, sn}, []int{0, 1})
	return c
}

// toLinearLayout is tensorMemoryToLinearLayout.
func (m *TensorMemory) toLinearLayout(shape []int) (linear.Layout, error) {
	if err := firstErr(m.check(), checkShape(m, shape)); err != nil {
		return linear.Layout{}, err
	}
	cga := m.cga()
	per := shapePerCTA(cga, shape)
	blockN := min(m.BlockN, per[1])
	tile := zeros1D(m.ColStride, "col", "dim1")
	colLayout := identity1D(blockN, "col", "dim1")
	dims := []string{"dim0", "dim1"}
	if m.BlockM == 64 && !m.TwoCTAs {
		tile = transposeOuts(mul(tile, identity1D(16, "row", "dim0"), colLayout), dims)
		ins := tile.InDims()
		row := &ins[tile.InDimIndex("row")]
		rows := row.Bases
		switch {
		case per[0] > m.BlockM:
			rows = append(rows, []int{64, 0})
		case per[1] > blockN:
			rows = append(rows, []int{0, blockN})
		default:
			rows = append(rows, []int{0, 0})
		}
		row.Bases = append(rows, []int{16, 0}, []int{32, 0})
		tile = must(linear.NewInferred(ins, dims))
	} else {
		tile = mul(tile, identity1D(m.BlockM, "row", "dim0"), colLayout)
		if m.BlockM == 64 {
			// The last column basis becomes a row basis.
			ins := tile.InDims()
			col, row := &ins[tile.InDimIndex("col")], &ins[tile.InDimIndex("row")]
			cols := col.Bases
			if len(cols) == 0 {
				return linear.Layout{}, fmt.Errorf("a 64-row tensor memory block split over two CTAs needs more than one column, got shape %s", fmtInts(shape))
			}
			row.Bases = append(row.Bases, cols[len(cols)-1])
			col.Bases = cols[:len(cols)-1]
			tile = must(linear.New(ins, tile.OutDims(), false))
		}
		tile = transposeOuts(tile, dims)
	}
	repsM := per[0] / tile.OutDimSize("dim0")
	repsN := per[1] / tile.OutDimSize("dim1")
	if repsM < 1 || repsN < 1 {
		return linear.Layout{}, fmt.Errorf("shape %s is smaller than the tensor memory block %dx%d", fmtInts(shape), m.BlockM, blockN)
	}
	tile = mul(tile, identity1D(repsM, "col", "dim0"), identity1D(repsN, "col", "dim1"), must(cga.lay(2)))
	return transposeOuts(must(tile.TransposeIns([]string{"row", "col", "block"})), dims), nil
}

// TensorMemorySpace is #ttng.tensor_memory, the memory space of
// tensor-memory descriptors (not a layout).
type TensorMemorySpace struct{}

// Name implements Encoding.
func (TensorMemorySpace) Name() string { return "ttng.tensor_memory" }

// AliasPrefix implements Encoding: Triton prints it inline.
func (TensorMemorySpace) AliasPrefix() string { return "" }

// Format implements Encoding.
func (TensorMemorySpace) Format(func(Encoding) string) string { return "#ttng.tensor_memory" }

// Verify implements Encoding: the memory space has no fields.
func (TensorMemorySpace) Verify(ModuleInfo) error { return nil }
