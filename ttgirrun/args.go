package ttgirrun

import (
	"fmt"
	"math"
	"strings"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/proc"
)

// arg is one kernel argument: a scalar, or a buffer with its initial
// contents and what the runs left in it.
type arg struct {
	p    *param
	text string // NAME=SPEC as given
	spec *spec

	scalar scalarValue

	elem   elemType
	shape  []int
	init   []byte // contents before the launch
	gpuOut []byte // after the GPU launch
	cpuOut []byte // after the interpreter's run
}

func (a *arg) isBuffer() bool { return a.p.elem != nil }

// bindArgs parses the -arg flags against k's parameters and, with makeBuffers,
// makes the buffers (without, it only checks the specs: -dry-run). It
// reports errors itself and returns a non-zero status then.
func bindArgs(p *proc.Proc, k *kernel, flags []string, runSeed uint64, makeBuffers bool) ([]*arg, int) {
	args := make([]*arg, len(k.params))
	for _, f := range flags {
		name, text, ok := strings.Cut(f, "=")
		if !ok {
			return nil, failAt(p, "-arg", f, len(f), "want NAME=SPEC (e.g. x=rand:f32:65536 or n=65536)")
		}
		prm, err := k.lookup(name)
		if err != nil {
			return nil, failAt(p, "-arg", f, 0, err.Error())
		}
		if args[prm.index] != nil {
			return nil, failAt(p, "-arg", f, 0, fmt.Sprintf("parameter %s is given twice (also by -arg %s)", prm.name, args[prm.index].text))
		}
		s, err := parseSpec(text)
		if err != nil {
			off := len(name) + 1
			if se, ok := err.(*specError); ok {
				off += se.off
			}
			return nil, failAt(p, "-arg", f, off, err.Error())
		}
		a := &arg{p: prm, text: f, spec: s}
		if msg := a.make(p, runSeed, makeBuffers); msg != "" {
			return nil, failAt(p, "-arg", f, len(name)+1, msg)
		}
		args[prm.index] = a
	}
	if miss := k.missing(given(args)); len(miss) > 0 {
		return nil, fail(p, "no -arg for %s (@%s takes %s)", strings.Join(miss, ", "), k.name, k.signature())
	}
	return args, 0
}

func given(args []*arg) map[int]bool {
	m := map[int]bool{}
	for i, a := range args {
		if a != nil {
			m[i] = true
		}
	}
	return m
}

// make checks the spec against the parameter and, with makeBuffer, fills the
// buffer (a file: is then read); it returns an error message or "".
func (a *arg) make(p *proc.Proc, runSeed uint64, makeBuffer bool) string {
	prm, s := a.p, a.spec
	typ := ir.TypeString(prm.typ)
	if s.scalar {
		if prm.elem != nil {
			return fmt.Sprintf("%s is a pointer (%s): give a buffer, such as rand:%s:65536", prm.name, typ, ir.TypeString(prm.elem))
		}
		v, _ := parseScalar(s.lit)
		if it, ok := prm.typ.(*ir.IntegerType); ok {
			if !v.isInt {
				return fmt.Sprintf("%s is an integer (%s); %s is not", prm.name, typ, s.lit)
			}
			if it.Width < 64 {
				lo, hi := -(int64(1) << (it.Width - 1)), int64(1)<<it.Width-1 // signed or unsigned
				if it.Width == 1 {
					lo = 0
				}
				if v.i < lo || v.i > hi {
					return fmt.Sprintf("%s does not fit %s", s.lit, typ)
				}
			}
		}
		a.scalar = v
		return ""
	}
	if prm.elem == nil {
		return fmt.Sprintf("%s is a scalar (%s): give a number", prm.name, typ)
	}
	e, err := newElemType(prm.elem)
	if err != nil {
		return fmt.Sprintf("%s points to %s: %v", prm.name, ir.TypeString(prm.elem), err)
	}
	a.elem = e
	if s.dtype != "" && s.dtype != e.name {
		return fmt.Sprintf("%s points to %s, not %s", prm.name, e.name, s.dtype)
	}
	if s.padding != "" && prm.desc == nil {
		return fmt.Sprintf("padding= is for tensor descriptor parameters; %s is %s", prm.name, typ)
	}
	if prm.desc != nil {
		r := len(prm.desc.Block.Shape)
		if s.kind == "file" || len(s.shape) != r {
			return fmt.Sprintf("%s is a tensor descriptor of rank %d (%s): give its tensor's shape, such as %s", prm.name, r, typ, descShapeExample(prm.desc))
		}
		// The TMA's (and Triton's TensorDescriptor's) rule: every stride
		// but the innermost a multiple of 16 bytes.
		if e, err := newElemType(prm.elem); err == nil && r > 1 && s.shape[r-1]*e.bytes%16 != 0 {
			return fmt.Sprintf("%s's rows of %d %s take %d bytes: a tensor descriptor's strides must be multiples of 16 bytes (TMA)", prm.name, s.shape[r-1], e.name, s.shape[r-1]*e.bytes)
		}
	}
	if s.kind == "file" {
		if !makeBuffer {
			return ""
		}
		data, err := p.ReadFile(s.path)
		if err != nil {
			return err.Error()
		}
		if len(data) == 0 || len(data)%e.bytes != 0 {
			return fmt.Sprintf("%s has %d bytes: not a whole, non-zero number of %s elements", s.path, len(data), e.name)
		}
		a.init, a.shape = data, []int{len(data) / e.bytes}
		return ""
	}
	n := 1
	for _, d := range s.shape {
		n *= d
	}
	if int64(n)*int64(e.bytes) > math.MaxInt {
		return "the buffer is too large"
	}
	a.shape = s.shape
	if !makeBuffer {
		return ""
	}
	if a.init, err = fill(s, e, n, argSeed(runSeed, prm.name)); err != nil {
		return err.Error()
	}
	return ""
}

// interpArg is the argument for the interpreter; buffers are copies of the
// initial contents.
func (a *arg) interpArg() interp.Arg {
	switch {
	case a.p.desc != nil:
		shape, strides := a.descDims()
		return interp.DescArg(&interp.Buffer{Elem: a.p.elem, Data: append([]byte(nil), a.init...)}, shape, strides, a.spec.padding == "nan")
	case a.isBuffer():
		return interp.BufArg(&interp.Buffer{Elem: a.p.elem, Data: append([]byte(nil), a.init...)})
	case a.scalar.isInt:
		return interp.IntArg(a.scalar.i)
	}
	return interp.FloatArg(a.scalar.f)
}

// gpuScalar is a scalar argument as package cuda packs it.
func (a *arg) gpuScalar() any {
	v := a.scalar
	switch t := a.p.typ.(type) {
	case *ir.IntegerType:
		switch {
		case t.Width == 1:
			return v.i != 0
		case t.Width <= 8:
			return int8(v.i)
		case t.Width <= 16:
			return int16(v.i)
		case t.Width <= 32:
			return int32(v.i)
		}
		return v.i
	case *ir.FloatType:
		f := v.f
		switch t.Kind {
		case "f32":
			return float32(f)
		case "f64":
			return f
		}
		e, err := newElemType(t)
		if err != nil {
			return nil // cuda reports the unsupported argument
		}
		b := make([]byte, e.bytes)
		e.put(b, f)
		return b
	}
	return nil
}

// reportArg describes the argument in the JSON report.
func (a *arg) reportArg() reportArg {
	r := reportArg{Name: a.p.name, Type: ir.TypeString(a.p.typ), Spec: a.spec.text}
	if a.isBuffer() {
		r.Bytes = int64(len(a.init))
		r.Shape = a.shape
	}
	return r
}

// descDims are the shape and row-major strides (in elements) of a
// descriptor argument's tensor.
func (a *arg) descDims() (shape, strides []int64) {
	r := len(a.shape)
	shape, strides = make([]int64, r), make([]int64, r)
	stride := int64(1)
	for d := r - 1; d >= 0; d-- {
		shape[d], strides[d] = int64(a.shape[d]), stride
		stride *= int64(a.shape[d])
	}
	return shape, strides
}

// descShapeExample is a spec for a descriptor of type dt: a tensor of 16
// blocks a dimension.
func descShapeExample(dt *ir.TensorDescType) string {
	dims := make([]string, len(dt.Block.Shape))
	for i, n := range dt.Block.Shape {
		dims[i] = fmt.Sprint(16 * n)
	}
	return "rand:" + ir.TypeString(dt.Block.Elem) + ":" + strings.Join(dims, "x")
}
