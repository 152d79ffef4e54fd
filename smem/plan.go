package smem

import (
	"errors"
	"fmt"
	"slices"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/linear"
)

// Target selects the swizzling variant. ComputeCapability 0 is Triton's
// generic path (optimalSwizzlingLdSt, st/ld.shared only: other targets and
// the lit -test-print-allocation scratch sizes); an NVIDIA compute
// capability (80, 90, 100, …) is the instruction-aware search over
// st/ld.shared, stmatrix/ldmatrix and their transposed forms that
// add_allocate_shared_memory_nv and the NVIDIA lowering use.
type Target struct {
	ComputeCapability int
}

// Access describes one side (the store of the source or the load of the
// destination) of a shared-memory round trip.
type Access struct {
	// Instr is the instruction: LdSt, Matrix or MatrixTrans.
	Instr Instr
	// VecElems is the number of consecutive elements one lane accesses with
	// one address: LargestVectorisation of the register → offset map for
	// st/ld.shared, 16 bytes for the matrix instructions.
	VecElems int
	// Conflicts is the bank-conflict count of one access instruction
	// (excess wavefronts, 2^k − 1) as Triton's swizzling scores it.
	Conflicts int
}

// VecBits returns the width of one access in bits for elements of bitwidth.
func (a Access) VecBits(bitwidth int) int { return a.VecElems * bitwidth }

// Plan is how a conversion is lowered, and for a shared-memory round trip
// the scratch layout Triton 3.6 chooses.
type Plan struct {
	Classification
	// Bitwidth is the element width the round trip moves: the input, or 8
	// for sub-byte elements.
	Bitwidth int
	// The fields below are set for Kind == SharedMemory without CrossCTA.

	// Swizzle is the chosen layout in flat tensor coordinates, and
	// SwizzleLayout the same as a LinearLayout with in-dims vector, bank,
	// segment, reps and the tensor's out-dims.
	Swizzle       Swizzle
	SwizzleLayout linear.Layout
	// Shared is the layout of the whole tensor in shared memory (in-dims
	// offset, block: the vector, bank, segment and reps bases in that
	// order), as a #ttg.shared_linear would state it when the round trip is
	// materialised without reusing one tile per round.
	Shared linear.Layout
	// Store and Load are the two sides.
	Store, Load Access
	// Reps is the number of rounds (store one tile, barrier, load it) that
	// reuse one scratch tile.
	Reps int
	// ScratchBytes is the scratch buffer Triton allocates:
	// numel / Reps × Bitwidth / 8.
	ScratchBytes int
}

// PlanEncodings is PlanConversion for two distributed encodings of a tensor
// of the given shape.
func PlanEncodings(src, dst attr.Layout, shape []int, bitwidth int, t Target) (*Plan, error) {
	s, err := src.ToLinear(shape)
	if err != nil {
		return nil, err
	}
	d, err := dst.ToLinear(shape)
	if err != nil {
		return nil, err
	}
	return PlanConversion(s, d, bitwidth, t)
}

// PlanConversion classifies the conversion from src to dst (distributed
// layouts of the same tensor) and, when it needs shared memory within a
// CTA, chooses the swizzled scratch layout, the instruction and vector
// width of each side, the repetitions and the scratch size, as Triton 3.6's
// ConvertLayoutOp lowering and its allocation analysis do. bitwidth is the
// element width (64 for pointers).
func PlanConversion(src, dst linear.Layout, bitwidth int, t Target) (*Plan, error) {
	if bitwidth <= 0 || bitwidth&(bitwidth-1) != 0 || bitwidth > 128 {
		return nil, fmt.Errorf("smem: bit width %d is not a power of two up to 128", bitwidth)
	}
	if !slices.Equal(src.OutDims(), dst.OutDims()) {
		return nil, fmt.Errorf("smem: the layouts are of different tensors: %v and %v", src.OutDims(), dst.OutDims())
	}
	c, err := Classify(src, dst)
	if err != nil {
		return nil, err
	}
	p := &Plan{Classification: c, Bitwidth: max(bitwidth, 8)}
	if c.Kind != SharedMemory || c.CrossCTA {
		return p, nil
	}
	bw := p.Bitwidth
	prep := func(l linear.Layout) (linear.Layout, error) {
		var ins []string
		for _, n := range l.InDimNames() {
			if n != "block" {
				ins = append(ins, n)
			}
		}
		l, err := l.Sublayout(ins, l.OutDimNames())
		if err != nil {
			return linear.Layout{}, err
		}
		rm, err := linear.ActionRemoveBroadcastedRegs(l)
		if err != nil {
			return linear.Layout{}, err
		}
		return rm.Apply(l)
	}
	s, err := prep(src)
	if err != nil {
		return nil, err
	}
	d, err := prep(dst)
	if err != nil {
		return nil, err
	}
	ss, ds := newSide(s), newSide(d)
	dim := s.TotalOutDimSizeLog2()
	var ch choice
	if t.ComputeCapability == 0 {
		swz, err := ldSt(&ss, &ds, bw, dim)
		if err != nil {
			return nil, err
		}
		srcT, dstT := Tiles(0, bw)
		ch = choice{swz: swz, src: srcT[0], dst: dstT[0], ldst: true}
	} else {
		srcT, dstT := Tiles(t.ComputeCapability, bw)
		if ch, err = instrAware(&ss, &ds, srcT, dstT, bw, dim); err != nil {
			return nil, err
		}
	}
	p.Swizzle = ch.swz
	if p.SwizzleLayout, err = ch.swz.Layout(src.OutDims()); err != nil {
		return nil, err
	}
	p.Reps = 1 << uint(len(ch.swz.Reps))
	p.ScratchBytes = s.TotalOutDimSize() / p.Reps * bw / 8
	if p.Shared, err = wholeTensor(p.SwizzleLayout); err != nil {
		return nil, err
	}
	if ch.ldst {
		ch.read, ch.write, err = conflictsLdSt(s, d, p.SwizzleLayout, bw)
		if err != nil {
			return nil, err
		}
	}
	access := func(l linear.Layout, tile MemOpTile, conf int) (Access, error) {
		a := Access{Instr: tile.Instr, VecElems: max(128/bw, 1), Conflicts: conf}
		if tile.Instr != LdSt {
			return a, nil
		}
		cvt, err := l.InvertAndCompose(p.SwizzleLayout)
		if err != nil {
			return Access{}, err
		}
		if cvt, err = cvt.ReshapeOuts([]linear.Dim{{Name: "offset", Size: cvt.TotalOutDimSize()}}); err != nil {
			return Access{}, err
		}
		v, _, err := linear.LargestVectorisation(cvt, bw, 0)
		if err != nil {
			return Access{}, err
		}
		a.VecElems = v
		return a, nil
	}
	if p.Store, err = access(s, ch.src, ch.write); err != nil {
		return nil, err
	}
	if p.Load, err = access(d, ch.dst, ch.read); err != nil {
		return nil, err
	}
	return p, nil
}

// wholeTensor returns the swizzle layout l (in-dims vector, bank, segment,
// reps) as a shared layout of the whole tensor: in-dim offset with those
// bases in that order, and an empty block in-dim.
func wholeTensor(l linear.Layout) (linear.Layout, error) {
	n := l.TotalInDimSize()
	l, err := l.ReshapeIns([]linear.Dim{{Name: "offset", Size: n}, {Name: "block", Size: 1}})
	if err != nil {
		return linear.Layout{}, err
	}
	if !l.IsInvertible() {
		return linear.Layout{}, errors.New("smem: the swizzled layout is not a bijection")
	}
	return l, nil
}
