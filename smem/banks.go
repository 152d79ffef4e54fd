package smem

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/layoutopt/layoutopt/linear"
)

// Bank geometry of NVIDIA shared memory: 32 banks of 32 bits, so one
// wavefront serves a 1024-bit (128-byte) line.
const (
	numBanks = 32
	bankBits = 32
	lineBits = numBanks * bankBits
)

func ilog2(n int) int { return bits.Len(uint(n)) - 1 }

// flat returns the packed columns of in-dim name of l with its out-dims
// flattened: the flat tensor index of each basis.
func flat(l linear.Layout, name string) []uint64 {
	return l.FlattenOuts().ColumnsOf(name)
}

// conflicts returns Triton's bankConflicts(tileSrc, tileDst, smem) as
// (read, write): 2^k − 1 where k is the dimension of the intersection of a
// tile with the span of smem's segment bases.
func conflicts(tileSrc, tileDst []uint64, smem linear.Layout) (read, write int) {
	seg := flat(smem, "segment")
	dim := smem.TotalOutDimSizeLog2()
	write = 1<<uint(intersectionDim(seg, tileSrc, dim)) - 1
	read = 1<<uint(intersectionDim(seg, tileDst, dim)) - 1
	return read, write
}

// dropLast returns vs without its last n elements (none when n ≤ 0).
func dropLast(vs []uint64, n int) ([]uint64, error) {
	if n <= 0 {
		return vs, nil
	}
	if n > len(vs) {
		return nil, fmt.Errorf("smem: %d lane bases, cannot drop %d for the vector width", len(vs), n)
	}
	return vs[:len(vs)-n], nil
}

// conflictsLdSt is Triton's bankConflictsLdSt: the conflicts of
// ld.shared/st.shared accesses of src and dst against smem (in-dims vector,
// bank, segment[, reps]). A wavefront serves 32, 16 or 8 lanes for accesses
// of ≤ 32, 64 or 128 bits, so the last 0, 1 or 2 lane bases are dropped.
func conflictsLdSt(src, dst, smem linear.Layout, bitwidth int) (read, write int, err error) {
	log2Vec := ilog2(max(smem.InDimSize("vector")*bitwidth/bankBits, 1))
	tileSrc, err := dropLast(flat(src, "lane"), log2Vec)
	if err != nil {
		return 0, 0, err
	}
	tileDst, err := dropLast(flat(dst, "lane"), log2Vec)
	if err != nil {
		return 0, 0, err
	}
	read, write = conflicts(tileSrc, tileDst, smem)
	return read, write, nil
}

// BankConflicts returns the number of bank conflicts of storing a tensor
// with register layout reg to (or loading it from) shared layout shared,
// for elements of the given bit width, exactly as Triton 3.6's
// bankConflictsMemDesc (gluon's get_shared_bank_conflicts) counts them: the
// excess wavefronts of each access instruction, 2^k − 1 (0 is conflict
// free, 31 is a 32-way conflict). reg has in-dims register, lane, warp,
// block; shared has offset (and block); both have the same out-dims.
//
// The access is vectorised as far as LargestVectorisation allows (v
// elements); shared's in-bits are split into vector (log2 v), bank
// (log2 min(1024/(v·bitwidth), N)) and segment (the rest); the lanes of one
// wavefront are the lane bases without the last log2(max(v·bitwidth/32, 1));
// and k is the dimension of span(those lanes) ∩ span(segment), in flat
// tensor coordinates.
//
// It returns an error where Triton aborts: layouts without the in-dims
// named above, a register layout whose image is not in shared's, and
// tensors smaller than one vector times one bank line (no segment).
func BankConflicts(reg, shared linear.Layout, bitwidth int) (int, error) {
	a, err := LocalAccess(reg, shared, bitwidth)
	return a.Conflicts, err
}

// LocalAccess is BankConflicts with the vector width it found: the
// st.shared / ld.shared access of a tensor with register layout reg to or
// from shared layout shared (a ttg.local_store, local_alloc or local_load
// lowered with lowerLdStShared), its width in elements and its bank
// conflicts per access instruction. Instr is always LdSt.
func LocalAccess(reg, shared linear.Layout, bitwidth int) (Access, error) {
	if !shared.HasInDim("offset") {
		return Access{}, errors.New(`smem: the shared layout has no "offset" in-dim`)
	}
	if !reg.HasInDim("register") || !reg.HasInDim("lane") {
		return Access{}, errors.New(`smem: the register layout needs "register" and "lane" in-dims`)
	}
	if bitwidth <= 0 || bitwidth&(bitwidth-1) != 0 || bitwidth > 128 {
		return Access{}, fmt.Errorf("smem: bit width %d is not a power of two up to 128", bitwidth)
	}
	rm, err := linear.ActionRemoveBroadcastedRegs(reg)
	if err != nil {
		return Access{}, err
	}
	regNB, err := rm.Apply(reg)
	if err != nil {
		return Access{}, err
	}
	toShared, err := regNB.InvertAndCompose(shared)
	if err != nil {
		return Access{}, fmt.Errorf("smem: register layout → shared layout: %w", err)
	}
	v, _, err := linear.LargestVectorisation(toShared, bitwidth, 0)
	if err != nil {
		return Access{}, err
	}
	// The permutation of the registers does not change the lanes, which are
	// all the count looks at.
	n := shared.TotalInDimSize()
	bank := min(lineBits/(v*bitwidth), n)
	seg := n / (bank * v)
	if seg == 0 {
		return Access{}, fmt.Errorf("smem: the tensor has %d elements, fewer than a vector of %d times a bank line of %d: Triton aborts (reshapeIns)", n, v, bank)
	}
	split, err := shared.ReshapeIns([]linear.Dim{{Name: "vector", Size: v}, {Name: "bank", Size: bank}, {Name: "segment", Size: seg}})
	if err != nil {
		return Access{}, err
	}
	read, _, err := conflictsLdSt(regNB, regNB, split, bitwidth)
	if err != nil {
		return Access{}, err
	}
	return Access{Instr: LdSt, VecElems: v, Conflicts: read}, nil
}
