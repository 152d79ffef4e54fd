package attr

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/linear"
)

// cache holds the layouts computed so far, keyed by the encoding's text
// and the shape, as Triton's dialect caches toLinearLayout; linear.Layout
// values are immutable, so they can be shared. It is emptied when it
// reaches cacheLimit entries.
var cache layoutCache[string]

const cacheLimit = 4096

func toLinear(l Layout, shape []int) (linear.Layout, error) {
	var kb strings.Builder
	kb.WriteString(l.Format(nil))
	for _, s := range shape {
		kb.WriteByte(' ')
		kb.WriteString(strconv.Itoa(s))
	}
	key := kb.String()
	if ll, ok := cache.load(key); ok {
		return ll, nil
	}
	ll, err := convert(l, shape)
	if err != nil {
		return linear.Layout{}, err
	}
	return cache.store(key, ll), nil
}

// ToLinear implements Layout.
func (b *Blocked) ToLinear(shape []int) (linear.Layout, error) { return toLinear(b, shape) }

// ToLinear implements Layout.
func (l *LinearEncoding) ToLinear(shape []int) (linear.Layout, error) { return toLinear(l, shape) }

// ToLinear implements Layout.
func (s *Slice) ToLinear(shape []int) (linear.Layout, error) { return toLinear(s, shape) }

// ToLinear implements Layout.
func (m *NvidiaMma) ToLinear(shape []int) (linear.Layout, error) { return toLinear(m, shape) }

// ToLinear implements Layout.
func (d *DotOperand) ToLinear(shape []int) (linear.Layout, error) { return toLinear(d, shape) }

// ToLinear implements Layout.
func (m *AMDMfma) ToLinear(shape []int) (linear.Layout, error) { return toLinear(m, shape) }

// ToLinear implements Layout.
func (w *AMDWmma) ToLinear(shape []int) (linear.Layout, error) { return toLinear(w, shape) }

// ToLinear implements Layout.
func (s *SwizzledShared) ToLinear(shape []int) (linear.Layout, error) { return toLinear(s, shape) }

// ToLinear implements Layout.
func (s *AMDRotatingShared) ToLinear(shape []int) (linear.Layout, error) { return toLinear(s, shape) }

// ToLinear implements Layout.
func (s *NVMMAShared) ToLinear(shape []int) (linear.Layout, error) { return toLinear(s, shape) }

// ToLinear implements Layout: the linear component, without the padding
// (Triton's paddedLinearLayout). shape must equal the component's shape.
func (p *PaddedShared) ToLinear(shape []int) (linear.Layout, error) { return toLinear(p, shape) }

// ToLinear implements Layout. shape must equal the layout's own shape:
// shared linear layouts are not broadcast or repeated.
func (s *SharedLinear) ToLinear(shape []int) (linear.Layout, error) { return toLinear(s, shape) }

// ToLinear implements Layout (input dims row, col, block).
func (m *TensorMemory) ToLinear(shape []int) (linear.Layout, error) { return toLinear(m, shape) }

// FromLinear returns the encoding that denotes the linear layout l: a
// #ttg.linear (*LinearEncoding) when l's input dims are among register,
// lane, warp, block (in that order), a #ttg.shared_linear (*SharedLinear,
// alignment 16) when they are among offset, block. The output dims must be
// dim0, dim1, … . The result is verified as Parse would.
func FromLinear(l linear.Layout) (Layout, error) {
	outs := l.OutDimNames()
	if !slices.Equal(outs, standardDims(len(outs))) {
		return nil, fmt.Errorf("output dimensions must be dim0, dim1, …; got %v", outs)
	}
	if len(outs) == 0 {
		return nil, fmt.Errorf("a layout without output dimensions has no encoding")
	}
	ins := l.InDimNames()
	inOrder := func(allowed ...string) bool {
		i := 0
		for _, n := range ins {
			for i < len(allowed) && allowed[i] != n {
				i++
			}
			if i == len(allowed) {
				return false
			}
		}
		return true
	}
	bases := func(name string) [][]int {
		if b := l.Bases(name); b != nil {
			return b
		}
		return [][]int{}
	}
	var enc interface {
		Layout
		check() error
	}
	switch {
	case inOrder(linearDims...):
		enc = &LinearEncoding{Register: bases("register"), Lane: bases("lane"), Warp: bases("warp"), Block: bases("block")}
	case inOrder(sharedLinearDims...):
		enc = &SharedLinear{Offset: bases("offset"), Block: bases("block"), Alignment: 16}
	default:
		return nil, fmt.Errorf("input dimensions %v are neither register, lane, warp, block nor offset, block", ins)
	}
	if enc.Rank() == 0 {
		return nil, fmt.Errorf("a layout without bases has no encoding (its rank is unknown)")
	}
	if err := enc.check(); err != nil {
		return nil, err
	}
	return enc, nil
}
