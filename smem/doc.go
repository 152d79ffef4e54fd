// Package smem plans how a TritonGPU layout conversion moves data, exactly
// as Triton 3.6 does: it classifies a ttg.convert_layout, chooses the
// swizzled shared-memory layout of a round trip with Triton's
// optimal-swizzling algorithm, and counts bank conflicts of any register
// layout against any shared layout. Layouts are linear.Layout values (from
// attr's ToLinear); everything works over GF(2).
//
// # Classification
//
// For distributed layouts S (source) and D (destination) of one tensor,
// C = D⁻¹∘S (D.InvertAndCompose(S)) maps a source hardware index
// (register, lane, warp, block) to the destination index holding the same
// element. MinimalCvtLayout peels the hardware levels off C, slowest first,
// while C is the identity on that level and block-diagonal around it
// (Quotient). What is left decides the lowering (Classify):
//
//	nothing               NoOp          the result is the source
//	[register]            Registers     each thread permutes its registers
//	[register, lane]      WarpShuffle   if the warp decomposition has ≤ 1 mixed transposition
//	anything else         SharedMemory  a round trip through shared memory (CrossCTA with block)
//
// The warp decomposition (WarpTranspositions) completes C on register and
// lane bits to a permutation P and factors it as P_mixed ∘ P_lane ∘ P_reg;
// every maximal run of lane bits inside a cycle that also moves register
// bits is one transposition (r_i l_j) of P_mixed. Two or more of them go
// through shared memory.
//
// # Banks and wavefronts
//
// Shared memory has 32 banks of 32 bits: one wavefront serves one 128-byte
// line (1024 bits). A shared layout maps an offset to a tensor element;
// split its offset bits into vector (the elements one lane moves with one
// instruction, v of them), bank (the rest of one line, log2(1024/(v·bw))
// bits) and segment (which line). Lanes whose offsets differ only in
// segment bits hit the same banks of different lines and serialise. In flat
// tensor coordinates (a basis is the flat index of its element), with T the
// span of the lanes served by one wavefront and G the span of the segment
// bases, the excess wavefronts of one access are
//
//	conflicts = 2^dim(T ∩ G) − 1.
//
// A 128-bit access is served 8 lanes per wavefront and a 64-bit one 16, so
// the last 2 or 1 lane bases are left out of T. BankConflicts computes this
// for any register and shared layout, with v from LargestVectorisation of
// the register → offset map, as gluon's get_shared_bank_conflicts does.
// Every access instruction of every warp has the same count, since each is
// a coset of the same lane subspace.
//
// # Optimal swizzling
//
// For a round trip the algorithm (A. Goucher's, lib/Tools/GenericSwizzling
// .cpp) builds the shared layout from its parts in flat coordinates:
//
//   - vector V: register bases common to both sides (at most 16 bytes),
//     filled up to one 32-bit word from warp bases when that is short;
//   - segment G: unit vectors neither side's wavefront tile touches, then
//     A[i]⊕B[i] for the tile bases only one side uses (A and B sorted, A
//     the smaller set), which neither side's lanes can span, and only then
//     A[i] and B[i] themselves, each costing one side a doubling;
//   - bank: the unit vectors completing V ∪ G to a basis (complementBasis:
//     the non-pivot columns of the row-reduced matrix);
//   - reps: segment bases that are registers on both sides become rounds
//     that reuse one scratch tile (store tile r, barrier, load tile r).
//
// On NVIDIA the search tries every pair of store and load instructions the
// target has (st.shared, stmatrix from cc 90, stmatrix.trans for 16-bit;
// ld.shared, ldmatrix from cc 75, ldmatrix.trans) whose contiguous 16-byte
// tiles agree, scores each swizzle by read+write conflicts and keeps the
// best (ties: more reps, i.e. less scratch; then the first pair). With no
// feasible pair, or on the generic path, st/ld.shared with the vector above
// is used. The scratch buffer is numel/reps × bitwidth/8 bytes.
//
// PlanConversion returns all of it: the classification, the swizzle (as
// flat bases and as a LinearLayout with in-dims vector, bank, segment,
// reps), the whole-tensor shared layout a materialised round trip would
// use, each side's instruction, vector width and conflicts, the reps and
// the scratch size. Where Triton asserts, the functions return an error.
//
// # Agreement with Triton 3.6
//
// testdata/ holds what Triton 3.6.0 answered on the GPU machine (made by
// testdata/gen/oracle.py, described in testdata/README.md), and the tests
// require equality on every row: 1066 bank-conflict counts of random
// blocked, nvidia_mma, dot_op and linear register layouts against
// swizzled_shared, nvmma_shared (rank 2 and 3) and shared_linear layouts,
// 8/16/32-bit, including the 14 cases where Triton aborts (we return an
// error); 200 scratch sizes of conversions at cc 80 and 90 as
// allocate-shared-memory reports them; and, in package passes, the 3218
// round trips insert-shared-round-trips materialises in the corpus.
package smem
