// Package amdg declares the ops of Triton's TritonAMDGPU dialect
// (third_party/amd/include/Dialect/TritonAMDGPU/IR/TritonAMDGPUOps.td in
// Triton 3.6) that Triton's lit tests use. Importing it registers them in
// ir.Default().
package amdg

import (
	"fmt"
	"slices"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/linear"
)

// Dialect is the amdg dialect.
var Dialect = &ir.Dialect{
	Name:    "amdg",
	Summary: "AMD-specific TritonGPU ops",
	Ops: []*ir.OpDef{
		{Name: "amdg.extract_slice", Summary: "extract a slice of a tensor at static offsets", Traits: ir.Pure,
			Operands: []ir.ArgDef{ir.Arg("source")}, Results: []ir.ArgDef{ir.Arg("result")},
			Attrs:  []ir.AttrDef{{Name: "static_offsets", Kind: ir.DenseI64Array}},
			Format: "$source $static_offsets attr-dict `:` type($source) `to` type($result)"},
		{Name: "amdg.concat", Summary: "concatenate tensors into a larger one", Traits: ir.Pure,
			Operands: []ir.ArgDef{ir.Vars("sources")}, Results: []ir.ArgDef{ir.Arg("result")},
			Format: "$sources attr-dict `:` type($sources) `->` type($result)"},
		{Name: "amdg.in_thread_transpose", Summary: "transpose the elements held by each thread", Traits: ir.Pure,
			Operands: []ir.ArgDef{ir.Arg("src")}, Results: []ir.ArgDef{ir.Arg("result")},
			Format: "$src attr-dict `:` type($src) `->` type($result)",
			Verify: verifyInThreadTranspose},
		{Name: "amdg.local_load_packed_tranposed", Summary: "load packed sub-byte values from shared memory, transposed",
			Traits:   ir.MemoryRead,
			Operands: []ir.ArgDef{ir.Arg("src")}, Results: []ir.ArgDef{ir.Arg("result")},
			Format: "$src attr-dict `:` qualified(type($src)) `->` type($result)",
			Verify: verifyLocalLoadPackedTransposed},
		{Name: "amdg.scaled_upcast_fp8", Summary: "upcast fp8 values with a scale", Traits: ir.Pure,
			Operands: []ir.ArgDef{ir.Arg("input"), ir.Arg("scale")}, Results: []ir.ArgDef{ir.Arg("output")},
			Format: "$input `scale` $scale attr-dict `:` type($input) `,` type($scale) `->` type($output)"},
		{Name: "amdg.scaled_upcast_fp4", Summary: "upcast packed fp4 values with a scale", Traits: ir.Pure,
			Operands: []ir.ArgDef{ir.Arg("input"), ir.Arg("scale")}, Results: []ir.ArgDef{ir.Arg("output")},
			Attrs:  []ir.AttrDef{{Name: "axis", Kind: ir.I32Attr}},
			Format: "$input `scale` $scale attr-dict `:` type($input) `,` type($scale) `->` type($output)"},
	},
}

func init() {
	Dialect.Ops = append(Dialect.Ops, loadOps()...)
	ir.MustRegisterDialect(Dialect)
}

// verifyInThreadTranspose has the checks of Triton's
// InThreadTransposeOp::verify but the one on the output's linear layout.
func verifyInThreadTranspose(op *ir.Operation) error {
	src, dst := op.Operand(0).Type(), op.Result(0).Type()
	if _, ok := ir.Encoding(src).(*attr.Blocked); !ok {
		return fmt.Errorf("Expect input tensor in Blocked encoding")
	}
	ss, _ := ir.ShapeOf(src)
	ds, _ := ir.ShapeOf(dst)
	if !slices.Equal(ss, ds) {
		return fmt.Errorf("Expect equal input and output shapes")
	}
	if !ir.TypesEqual(ir.ElementType(src), ir.ElementType(dst)) {
		return fmt.Errorf("Expect input and output tensor to have same dtype")
	}
	if len(ss) != 2 {
		return fmt.Errorf("Expect 2d tensor")
	}
	want, err := inThreadTransposed(ir.Encoding(src).(*attr.Blocked), ss)
	if err != nil {
		return nil // the encodings' own checks report it
	}
	got, err := attr.Linear(ir.Encoding(dst), toInts(ds))
	if err != nil || !got.Equal(want) {
		return fmt.Errorf("Expect output layout to be transposed per thread: %s", want.String())
	}
	return nil
}

// inThreadTransposed is Triton's InThreadTransposeOp::deduceOutputLayout:
// the source's layout with each thread's own tile of registers walked in
// the other order (the major dimension first); lanes, warps, blocks and
// the repetitions of the tile stay.
func inThreadTransposed(b *attr.Blocked, shape []int64) (linear.Layout, error) {
	ll, err := attr.Linear(b, toInts(shape))
	if err != nil {
		return linear.Layout{}, err
	}
	tile := 0
	for _, s := range b.SizePerThread {
		for ; s > 1; s >>= 1 {
			tile++
		}
	}
	ins := ll.InDims()
	for i := range ins {
		if ins[i].Name != "register" || tile > len(ins[i].Bases) {
			continue
		}
		regs := ins[i].Bases
		var major, minor [][]int
		for _, v := range regs[:tile] {
			if v[b.Order[0]] != 0 {
				minor = append(minor, v)
			} else {
				major = append(major, v)
			}
		}
		bases := append(append(append([][]int{}, major...), minor...), regs[tile:]...)
		ins[i] = linear.InDim{Name: "register", Bases: bases}
	}
	return linear.New(ins, ll.OutDims(), false)
}

func toInts(s []int64) []int {
	out := make([]int, len(s))
	for i, x := range s {
		out[i] = int(x)
	}
	return out
}

// verifyLocalLoadPackedTransposed follows Triton's
// LocalLoadPackedTransposedOp::verify: a dot operand result, a source
// order with the packed dimension minor, and the packed shape (two values
// per byte along K).
func verifyLocalLoadPackedTransposed(op *ir.Operation) error {
	src, dst := op.Operand(0).Type(), op.Result(0).Type()
	dot, ok := ir.Encoding(dst).(*attr.DotOperand)
	if !ok {
		return fmt.Errorf("only works with DotOperandEncodingAttr dst encoding")
	}
	var order []int
	switch s := ir.Encoding(src).(type) {
	case *attr.SwizzledShared:
		order = s.Order
	case *attr.AMDRotatingShared:
		order = s.Order
	}
	ss, _ := ir.ShapeOf(src)
	ds, _ := ir.ShapeOf(dst)
	if len(order) != 2 || len(ss) != 2 || len(ds) != 2 {
		return nil
	}
	if dot.OpIdx == 0 && order[0] != 0 || dot.OpIdx == 1 && order[0] != 1 {
		return fmt.Errorf("Order of dimensions don't match expected")
	}
	want := []int64{ss[0] / 2, ss[1] * 2}
	if dot.OpIdx == 0 {
		want = []int64{ss[0] * 2, ss[1] / 2}
	}
	if !slices.Equal(want, ds) {
		return fmt.Errorf("Input and output dimensions don't match after packing changes")
	}
	return nil
}
