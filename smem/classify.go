package smem

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/layoutopt/layoutopt/linear"
)

// Kind is how Triton 3.6 lowers a ttg.convert_layout.
type Kind int

const (
	// NoOp: the two layouts put every element in the same place; the
	// result is replaced by the source.
	NoOp Kind = iota
	// Registers: each thread only reorders its own registers
	// (cvtReordersRegisters, transferWithinThread).
	Registers
	// WarpShuffle: data moves between the lanes of a warp, with at most one
	// mixed register↔lane transposition (cvtNeedsWarpShuffle,
	// transferWithinWarp).
	WarpShuffle
	// SharedMemory: a round trip through a swizzled shared-memory scratch
	// buffer (cvtNeedsSharedMemory). With CrossCTA set the data also moves
	// between the CTAs of a cluster (distributed shared memory on NVIDIA).
	SharedMemory
)

func (k Kind) String() string {
	switch k {
	case NoOp:
		return "no-op"
	case Registers:
		return "register permutation"
	case WarpShuffle:
		return "warp shuffle"
	case SharedMemory:
		return "shared memory"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Classification is the result of Classify.
type Classification struct {
	Kind Kind
	// Cvt is Triton's minimalCvtLayout: dst.InvertAndCompose(src) with the
	// slowest hardware levels over which it is trivial quotiented away. Its
	// out-dims are a prefix of (register, lane, warp, block).
	Cvt linear.Layout
	// Transpositions is the number of mixed register↔lane transpositions
	// of the warp decomposition, when Cvt's out-dims are [register, lane]
	// (−1 otherwise).
	Transpositions int
	// CrossCTA is set when Cvt still has the block dimension.
	CrossCTA bool
}

// MinimalCvtLayout is Triton's minimalCvtLayout: C = dst.InvertAndCompose(src)
// maps a source hardware index to the destination one holding the same
// element; the in-dims the two layouts share at their ends (block, warp,
// lane, register, slowest first) are peeled off C with Quotient while C is
// trivial over them.
func MinimalCvtLayout(src, dst linear.Layout) (linear.Layout, error) {
	s, d := src.InDimNames(), dst.InDimNames()
	var dims []string
	for i := 0; i < min(len(s), len(d)); i++ {
		a, b := s[len(s)-1-i], d[len(d)-1-i]
		if a != b {
			break
		}
		dims = append(dims, a)
	}
	comp, err := dst.InvertAndCompose(src)
	if err != nil {
		return linear.Layout{}, fmt.Errorf("smem: minimalCvtLayout: %w", err)
	}
	comp, _ = comp.QuotientChain(dims)
	return comp, nil
}

// Classify says how Triton 3.6 lowers a conversion from src to dst, two
// distributed layouts of the same tensor (in-dims register, lane, warp,
// block): see Kind. It follows cvtReordersRegisters, cvtNeedsWarpShuffle
// and cvtNeedsSharedMemory in lib/Analysis/Utility.cpp.
func Classify(src, dst linear.Layout) (Classification, error) {
	cvt, err := MinimalCvtLayout(src, dst)
	if err != nil {
		return Classification{}, err
	}
	c := Classification{Cvt: cvt, Transpositions: -1}
	outs := cvt.OutDimNames()
	c.CrossCTA = slices.Contains(outs, "block")
	switch {
	case len(outs) == 0:
		c.Kind = NoOp
	case slices.Equal(outs, []string{"register"}):
		c.Kind = Registers
	case slices.Equal(outs, []string{"register", "lane"}):
		n, err := WarpTranspositions(src, dst)
		if err != nil {
			return Classification{}, err
		}
		c.Transpositions = n
		c.Kind = SharedMemory
		if n < 2 {
			c.Kind = WarpShuffle
		}
	default:
		c.Kind = SharedMemory
	}
	return c, nil
}

// WarpTranspositions returns the number of mixed transpositions (r_i l_j)
// in Triton's getWarpLayoutConvertDecomposition of a conversion that stays
// within a warp: the register broadcasts of both layouts are removed, their
// register and lane dims padded with zero bases to equal sizes, and
// P = S.invertAndCompose(T) on (register, lane) completed to a permutation
// (a basis zero on both sides is a fixed point; the other zero bases of
// src are paired in order with those of dst). Each maximal run of lane bits
// inside a cycle of P that also moves register bits is one transposition.
func WarpTranspositions(src, dst linear.Layout) (int, error) {
	prep := func(l linear.Layout) (linear.Layout, error) {
		rm, err := linear.ActionRemoveBroadcastedRegs(l)
		if err != nil {
			return linear.Layout{}, err
		}
		if l, err = rm.Apply(l); err != nil {
			return linear.Layout{}, err
		}
		if l, err = l.TransposeOuts(src.OutDimNames()); err != nil {
			return linear.Layout{}, err
		}
		return l.FlattenOuts(), nil
	}
	s, err := prep(src)
	if err != nil {
		return 0, err
	}
	t, err := prep(dst)
	if err != nil {
		return 0, err
	}
	sReg, sLane := s.ColumnsOf("register"), s.ColumnsOf("lane")
	tReg, tLane := t.ColumnsOf("register"), t.ColumnsOf("lane")
	nReg := max(len(sReg), len(tReg))
	nLane := max(len(sLane), len(tLane))
	n := nReg + nLane
	if n > 64 {
		return 0, fmt.Errorf("smem: %d register and lane bits", n)
	}
	pad := func(reg, lane []uint64) []uint64 {
		cols := make([]uint64, n)
		copy(cols, reg)
		copy(cols[nReg:], lane)
		return cols
	}
	S, T := pad(sReg, sLane), pad(tReg, tLane)
	// p[i] is the packed T in-bit vector that S's bit i maps to: bits
	// [0, nReg) are registers, [nReg, n) lanes.
	sol := newSolver(T)
	p := make([]uint64, n)
	var srcZeros, dstZeros []int
	for i := range n {
		if S[i] != 0 {
			x, ok := sol.solve(S[i])
			if !ok {
				return 0, fmt.Errorf("smem: warp decomposition: source basis %d is not held by the destination's registers and lanes", i)
			}
			p[i] = x
		}
		switch {
		case S[i] == 0 && T[i] == 0:
			p[i] = 1 << uint(i)
		case S[i] == 0:
			srcZeros = append(srcZeros, i)
		case T[i] == 0:
			dstZeros = append(dstZeros, i)
		}
	}
	for k := 0; k < min(len(srcZeros), len(dstZeros)); k++ {
		p[srcZeros[k]] = 1 << uint(dstZeros[k])
	}
	isReg := func(i int) bool { return i < nReg }
	// next follows Triton: the last in-dim (lane over register) with a
	// nonzero component, at the floor of its log2.
	next := func(i int) int {
		v := p[i]
		if lane := v >> uint(nReg); lane != 0 {
			return nReg + bits.Len64(lane) - 1
		}
		if v != 0 {
			return bits.Len64(v) - 1
		}
		return i
	}
	visited := make([]bool, n)
	count := 0
	for entry := range n {
		if visited[entry] {
			continue
		}
		cur := entry
		regEnd := -1
		for steps := 0; ; steps++ {
			if steps > n {
				return 0, fmt.Errorf("smem: warp decomposition: the conversion is not a permutation of register and lane bits")
			}
			visited[cur] = true
			nx := next(cur)
			if !isReg(cur) && isReg(nx) {
				regEnd = nx
			}
			if regEnd >= 0 {
				count++
				regEnd = -1
			}
			cur = nx
			if cur == entry {
				break
			}
		}
	}
	return count, nil
}
