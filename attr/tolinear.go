package attr

import "github.com/layoutopt/layoutopt/linear"

// toLinear converts the private layout value into a linear.Layout.
func (l lay) toLinear() (linear.Layout, error) {
	ins := make([]linear.InDim, len(l.ins))
	for i, d := range l.ins {
		b := d.bases
		if b == nil {
			b = [][]int{}
		}
		ins[i] = linear.InDim{Name: d.name, Bases: b}
	}
	outs := make([]linear.OutDim, len(l.outs))
	for i, o := range l.outs {
		outs[i] = linear.OutDim{Name: o.name, Size: o.size}
	}
	return linear.New(ins, outs, false)
}

func toLinear(l Layout, shape []int) (linear.Layout, error) {
	ll, err := l.toLay(shape)
	if err != nil {
		return linear.Layout{}, err
	}
	return ll.toLinear()
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
