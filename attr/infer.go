package attr

import (
	"fmt"
	"strconv"
	"sync"

	"github.com/layoutopt/layoutopt/linear"
)

// Layout inference: what Triton's DialectInferLayoutInterface computes for
// the shape ops (the encoding of a reduce's, expand_dims' or trans' result
// from its operand's and back), and the program-wide cache of linear
// layouts the passes share.

// Linear returns the linear layout of encoding e on a tensor of the given
// shape, or an error when e has none (a memory space, an encoding that
// does not fit the shape). It is ToLinear behind one cache for the whole
// program, keyed by the encoding value and the shape (then by the
// encoding's text, as Triton's dialect caches toLinearLayout), which also
// remembers failures.
func Linear(e Encoding, shape []int) (linear.Layout, error) {
	l, ok := e.(Layout)
	if !ok || e == nil {
		return linear.Layout{}, fmt.Errorf("encoding %s has no linear layout", formatOrNil(e))
	}
	k, fast := ptrKeyOf(l, shape)
	if fast {
		if r, ok := byPtr.load(k); ok {
			return r.ll, r.err
		}
	}
	ll, err := l.ToLinear(shape)
	if err != nil {
		ll = linear.Layout{}
	}
	if fast {
		byPtr.store(k, linearResult{ll, err})
	}
	return ll, err
}

func formatOrNil(e Encoding) string {
	if e == nil {
		return "<none>"
	}
	return e.Format(nil)
}

// ptrKey identifies a (layout value, shape) pair: parsed encodings are
// shared values, so the pointer finds a layout without printing it.
type ptrKey struct {
	l     Layout
	rank  int
	shape [8]int
}

func ptrKeyOf(l Layout, shape []int) (ptrKey, bool) {
	if len(shape) > 8 {
		return ptrKey{}, false
	}
	k := ptrKey{l: l, rank: len(shape)}
	copy(k.shape[:], shape)
	return k, true
}

type linearResult struct {
	ll  linear.Layout
	err error
}

// byPtr is the pointer-keyed front of ToLinear's text-keyed cache; like it,
// it is emptied when it reaches cacheLimit entries.
var byPtr resultCache

type resultCache struct {
	mu sync.Mutex
	m  map[ptrKey]linearResult
}

func (c *resultCache) load(k ptrKey) (linearResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[k]
	return r, ok
}

func (c *resultCache) store(k ptrKey, r linearResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= cacheLimit {
		c.m = map[ptrKey]linearResult{}
	}
	c.m[k] = r
}

// SameLayout reports whether a and b place the elements of a tensor of
// this shape identically (the same linear layout). Equal attributes are
// the same layout without computing anything.
func SameLayout(a, b Encoding, shape []int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if Equal(a, b) {
		return true
	}
	la, err := Linear(a, shape)
	if err != nil {
		return false
	}
	lb, err := Linear(b, shape)
	if err != nil {
		return false
	}
	return la.Equal(lb)
}

// SliceOf returns #ttg.slice<{dim, parent = e}> (a reduction's result
// layout, an expand_dims operand's), or nil when e is not a distributed
// layout that can be sliced along dim.
func SliceOf(dim int, e Encoding) Encoding {
	d, ok := e.(Distributed)
	if !ok {
		return nil
	}
	s := &Slice{Dim: dim, Parent: d}
	if s.Verify(ModuleInfo{}) != nil {
		return nil
	}
	return s
}

// Unslice returns the parent of e when e is #ttg.slice along dim (an
// expand_dims result's layout, a reduction operand's), else nil.
func Unslice(dim int, e Encoding) Encoding {
	if s, ok := e.(*Slice); ok && s.Dim == dim {
		return s.Parent
	}
	return nil
}

// Transpose returns the layout of tt.trans's result when its operand, of
// shape srcShape, has layout e and the permutation is order (result dim i
// is operand dim order[i]), or nil when there is none. A blocked layout is
// permuted field by field (as Triton's inferTransOpEncoding does); any
// other distributed layout becomes the #ttg.linear of its permuted linear
// layout. The result is checked against the linear layouts: on the
// permuted shape it must be e's layout with its output dims permuted.
func Transpose(e Encoding, order, srcShape []int) Encoding {
	if len(order) != len(srcShape) || !isPerm(order) {
		return nil
	}
	t := transposeEnc(e, order, srcShape)
	if t == nil {
		return nil
	}
	dstShape := permute(srcShape, order)
	src, err := Linear(e, srcShape)
	if err != nil {
		return nil
	}
	got, err := Linear(t, dstShape)
	if err != nil {
		return nil
	}
	for _, in := range src.InDimNames() {
		if !got.HasInDim(in) || len(got.Bases(in)) != len(src.Bases(in)) {
			return nil
		}
		sb, gb := src.Bases(in), got.Bases(in)
		for k := range sb {
			for d, o := range order {
				if gb[k][d] != sb[k][o] {
					return nil
				}
			}
		}
	}
	return t
}

func isPerm(order []int) bool {
	seen := make([]bool, len(order))
	for _, o := range order {
		if o < 0 || o >= len(order) || seen[o] {
			return false
		}
		seen[o] = true
	}
	return true
}

func transposeEnc(e Encoding, order []int, srcShape []int) Encoding {
	rank := len(order)
	if b, ok := e.(*Blocked); ok && b.Rank() == rank {
		inv := InvertPerm(order)
		nb := &Blocked{
			SizePerThread:  permute(b.SizePerThread, order),
			ThreadsPerWarp: permute(b.ThreadsPerWarp, order),
			WarpsPerCTA:    permute(b.WarpsPerCTA, order),
			Order:          make([]int, rank),
		}
		for i, d := range b.Order {
			nb.Order[i] = inv[d]
		}
		// The CGA layout's bases are per-dimension too: each is
		// permuted, and one of another rank has no transpose
		// (inferTransOpEncoding's permuteCGALayout fails on it).
		for _, basis := range b.CGA.Bases {
			if len(basis) != rank {
				return nil
			}
			nb.CGA.Bases = append(nb.CGA.Bases, permute(basis, order))
		}
		return nb
	}
	if _, ok := e.(Distributed); !ok {
		return nil
	}
	ll, err := Linear(e, srcShape)
	if err != nil {
		return nil
	}
	l, err := FromLinear(ll)
	le, ok := l.(*LinearEncoding)
	if err != nil || !ok {
		return nil
	}
	for _, bases := range [][][]int{le.Register, le.Lane, le.Warp, le.Block} {
		for i, v := range bases {
			bases[i] = permute(v, order)
		}
	}
	return le
}

// InvertPerm returns the inverse of permutation order.
func InvertPerm(order []int) []int {
	inv := make([]int, len(order))
	for i, o := range order {
		inv[o] = i
	}
	return inv
}

// permute returns v reordered: element i is v[order[i]].
func permute(v []int, order []int) []int {
	out := make([]int, len(order))
	for i, o := range order {
		out[i] = v[o]
	}
	return out
}

// JoinLayout is the layout of tt.join's result when its operands have
// layout src (Triton's inferJoinOpEncoding, as a function): a new minor
// dimension of size 2 held in each thread's first register, everything
// else as in src.
func JoinLayout(src linear.Layout) (linear.Layout, error) {
	outs := src.OutDims()
	r := len(outs)
	outs = append(outs, linear.OutDim{Name: "dim" + strconv.Itoa(r), Size: 2})
	ins := src.InDims()
	for i := range ins {
		bases := make([][]int, 0, len(ins[i].Bases)+1)
		if ins[i].Name == "register" {
			e := make([]int, r+1)
			e[r] = 1
			bases = append(bases, e)
		}
		for _, b := range ins[i].Bases {
			bases = append(bases, append(append([]int{}, b...), 0))
		}
		ins[i].Bases = bases
	}
	return linear.New(ins, outs, false)
}

// SplitLayout is the layout of tt.split's results when its operand has
// layout src (Triton's inferSplitOpEncoding, as a function): the minor
// dimension, of size 2, must be held by exactly one register bit and by
// nothing else; that bit and the dimension go.
func SplitLayout(src linear.Layout) (linear.Layout, error) {
	outs := src.OutDims()
	r := len(outs) - 1
	if r < 0 || outs[r].Size != 2 {
		return linear.Layout{}, fmt.Errorf("split: the minor dimension must have size 2")
	}
	ins := src.InDims()
	found := false
	for i := range ins {
		var bases [][]int
		for _, b := range ins[i].Bases {
			if b[r] == 0 {
				bases = append(bases, b[:r])
				continue
			}
			onlyMinor := true
			for _, x := range b[:r] {
				onlyMinor = onlyMinor && x == 0
			}
			if ins[i].Name != "register" || found || !onlyMinor {
				return linear.Layout{}, fmt.Errorf("split: the minor dimension is not held by one register alone")
			}
			found = true
		}
		ins[i].Bases = bases
	}
	if !found {
		return linear.Layout{}, fmt.Errorf("split: the minor dimension is not held in registers")
	}
	return linear.New(ins, outs[:r], false)
}

// Reshape returns the layout of tt.reshape's result (without
// allow_reorder) when its operand, of shape srcShape, has layout e
// (Triton's inferReshapeOpEncoding): e's linear layout with its output read
// as one row-major index and split again over dstShape, as a #ttg.linear.
// It returns nil when e is not distributed or the sizes differ.
func Reshape(e Encoding, srcShape, dstShape []int) Encoding {
	if _, ok := e.(Distributed); !ok {
		return nil
	}
	ll, err := Linear(e, srcShape)
	if err != nil {
		return nil
	}
	r, err := linear.ReshapeLayout(ll, dstShape)
	if err != nil {
		return nil
	}
	out, err := FromLinear(r)
	if err != nil {
		return nil
	}
	return out
}
