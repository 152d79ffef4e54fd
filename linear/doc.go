// Package linear implements Triton's LinearLayout: linear maps over GF(2)
// from named hardware dimensions to named tensor dimensions, and the algebra
// Triton's compiler builds on them.
//
// # The model
//
// A Layout L has ordered, named input dimensions (in-dims, e.g. register,
// lane, warp, block for a distributed tensor, or offset, block for shared
// memory) and ordered, named output dimensions (out-dims, dim0, dim1, … for
// a tensor). Every dimension has a power-of-two size. An in-dim of size 2^k
// has k basis vectors; basis i is L(in = 2^i, every other input 0) and holds
// one coordinate per out-dim. L is linear over GF(2), where addition is XOR:
//
//	L(x ⊕ y) = L(x) ⊕ L(y),   L(0) = 0,
//
// so L(x) is the XOR of the bases of the set bits of x. For example, with
// out-dims (dim0, dim1) and
//
//	L(register=1) = (0, 1)   L(register=2) = (1, 0)   L(lane=1) = (0, 2)
//
// L(register=3, lane=1) = (0,1) ⊕ (1,0) ⊕ (0,2) = (1, 3).
//
// Dimension order is part of a layout's identity. It is read "minor to
// major": it does not change what Apply returns, but it decides how Mul,
// ReshapeIns/ReshapeOuts and FlattenIns/FlattenOuts group bits, the column
// and row order of the bit matrix (Matrix), and Equal.
//
// # The bit matrix
//
// Stacking the out-dims' bits (first out-dim lowest) turns L into a matrix
// over GF(2) with one row per output bit and one column per input bit (in-dims
// in order, low bit first). Rank is that matrix's rank; L is surjective when
// the rank is the number of output bits, injective when it is the number of
// input bits, and invertible when both hold. Each column is stored packed in a
// uint64, so Apply is a few XORs and allocates nothing (ApplyInto), and the
// algebra works on whole columns.
//
// # The algebra
//
//   - Compose(outer) is outer ∘ L, for L's out-dims = outer's in-dims.
//   - Mul(inner, outer), Triton's operator*, is a direct product: inner's
//     bits are the minor part of each shared dimension, outer's the major.
//   - InvertAndCompose(outer) finds C with L(x) = outer(C(x)), the core of
//     layout conversion; Invert and PseudoInvert build on it.
//   - DivideLeft and DivideRight undo Mul; Quotient removes dims over which
//     the layout is the identity.
//   - TransposeIns/Outs, ReshapeIns/Outs, FlattenIns/Outs, Sublayout,
//     ConcatIns/Outs, ResizeInDim/OutDim, RenameInDim and ColumnAction
//     rearrange bases without changing the math.
//
// Where Triton asserts, this package returns an error; where Triton returns an
// optional, it returns a boolean. Text forms follow Triton: String is
// LinearLayout::toString, AttrString the #ttg.linear attribute, which
// ParseAttr reads back.
package linear
