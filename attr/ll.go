package attr

import (
	"sync"

	"github.com/layoutopt/layoutopt/linear"
)

// The conversions are a transcription of Triton's LinearLayoutConversions.cpp
// and, like it, chains of LinearLayout operations (package linear). The
// encoding checks that run first establish the operations' preconditions,
// so the conversions call them through must: a failing operation (a shape
// too large for a layout, say) panics with a convError, which convert
// recovers and returns.

// convError carries the error of a failing layout operation from must to
// convert.
type convError struct{ err error }

// must returns v, or panics with a convError if err is not nil. It is for
// the conversions only, which run under convert.
func must[T any](v T, err error) T {
	if err != nil {
		panic(convError{err})
	}
	return v
}

// convert returns the linear layout of l for shape: l's conversion, with
// the error of any layout operation it runs through must.
func convert(l Layout, shape []int) (linear.Layout, error) {
	return guard(func() (linear.Layout, error) { return l.toLinearLayout(shape) })
}

// guard runs f, a chain of layout operations through must, and returns
// its result, or the error of the first operation that fails.
func guard(f func() (linear.Layout, error)) (l linear.Layout, err error) {
	defer func() {
		if r := recover(); r != nil {
			ce, ok := r.(convError)
			if !ok {
				panic(r)
			}
			l, err = linear.Layout{}, ce.err
		}
	}()
	return f()
}

// mul is the product of ls in order (Triton's operator* folded left); the
// product of none is the empty layout. (linear.Mul returns the other
// factor of an empty one, so starting from Empty costs nothing.)
func mul(ls ...linear.Layout) linear.Layout {
	r := linear.Empty()
	for _, l := range ls {
		r = must(linear.Mul(r, l))
	}
	return r
}

func identity1D(size int, in, out string) linear.Layout {
	k := oneDimKey{size, in, out, false}
	if l, ok := oneDims.load(k); ok {
		return l
	}
	return oneDims.store(k, must(linear.Identity1D(size, in, out)))
}

// zeros1D is Triton's LinearLayout::zeros1D: an out-dim of size 1.
func zeros1D(size int, in, out string) linear.Layout {
	k := oneDimKey{size, in, out, true}
	if l, ok := oneDims.load(k); ok {
		return l
	}
	return oneDims.store(k, must(linear.Zeros1D(size, in, out, 1)))
}

// identityND is Triton's identityStandardND.
func identityND(in string, shape, order []int) linear.Layout {
	k := ndKey{in: in, rank: len(shape)}
	cacheable := len(shape) <= len(k.shape) && len(order) == len(shape)
	if cacheable {
		copy(k.shape[:], shape)
		copy(k.order[:], order)
		if l, ok := identityNDs.load(k); ok {
			return l
		}
	}
	l := must(linear.IdentityStandardND(in, shape, order))
	if cacheable {
		identityNDs.store(k, l)
	}
	return l
}

// The conversions build the same few identity layouts again and again;
// layouts are immutable, so these caches keep them.
var (
	oneDims     layoutCache[oneDimKey]
	identityNDs layoutCache[ndKey]
)

type oneDimKey struct {
	size    int
	in, out string
	zeros   bool
}

type ndKey struct {
	in           string
	rank         int
	shape, order [8]int
}

// layoutCache is a concurrency-safe map of layouts, emptied when it
// reaches cacheLimit entries (ToLinear's cache and the identity caches).
type layoutCache[K comparable] struct {
	mu sync.Mutex
	m  map[K]linear.Layout
}

func (c *layoutCache[K]) load(k K) (linear.Layout, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.m[k]
	return l, ok
}

// store keeps l under k and returns it.
func (c *layoutCache[K]) store(k K, l linear.Layout) linear.Layout {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= cacheLimit {
		c.m = make(map[K]linear.Layout)
	}
	c.m[k] = l
	return l
}

func transposeOuts(l linear.Layout, names []string) linear.Layout {
	return must(l.TransposeOuts(names))
}

// fromBases builds a layout from bases with the out-dim sizes inferred as
// Triton infers them, without requiring surjectivity, so that the
// verifiers can judge the bases of an attribute themselves.
func fromBases(ins []linear.InDim, outNames []string) (linear.Layout, error) {
	outs, err := linear.InferredOutDims(ins, outNames)
	if err != nil {
		return linear.Layout{}, err
	}
	return linear.New(ins, outs, false)
}

// dimNames caches the standard out-dim names of the usual ranks.
var dimNames = linear.StandardOutDimNames(8)

// standardDims is linear.StandardOutDimNames(rank), shared for the usual
// ranks; callers must not modify it.
func standardDims(rank int) []string {
	if rank <= len(dimNames) {
		return dimNames[:rank:rank]
	}
	return linear.StandardOutDimNames(rank)
}

// standardShape names the sizes of shape dim0, dim1, … .
func standardShape(shape []int) map[string]int {
	m := make(map[string]int, len(shape))
	for d, n := range standardDims(len(shape)) {
		m[n] = shape[d]
	}
	return m
}

// outSizes returns the out-dim sizes of l, in order.
func outSizes(l linear.Layout) []int {
	dims := l.OutDims()
	s := make([]int, len(dims))
	for i, d := range dims {
		s[i] = d.Size
	}
	return s
}

// injectiveIgnoringZeros reports whether the non-zero bases of l are
// linearly independent.
func injectiveIgnoringZeros(l linear.Layout) bool {
	n := 0
	for _, c := range l.Columns() {
		if c != 0 {
			n++
		}
	}
	return l.Rank() == n
}

func isZero(v []int) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }
