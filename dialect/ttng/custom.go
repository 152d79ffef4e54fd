package ttng

import (
	"fmt"
	"strings"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
)

// The custom directives of TritonNvidiaGPUOps.td (custom<Token>,
// custom<BarriersAndPreds>) and the op verifiers, with Triton's messages.

// tokenCustom returns the custom<Token>($dep, type($token)) directive of
// an op whose optional dependency operand is dep: `[%dep]`, `[]` or
// nothing; with the brackets the op returns an async token.
func tokenCustom(dep string) map[string]*ir.Custom {
	return map[string]*ir.Custom{"Token": {
		Parse: func(p *ir.OpParser, st *ir.OpState, fs *ir.FormatState) error {
			if !p.IsPunct("[") {
				return nil
			}
			pos := p.Pos()
			refs, err := p.ParseBracketOperands()
			if err != nil {
				return err
			}
			if len(refs) > 1 {
				return p.Errorf(pos, "expected at most one token")
			}
			fs.SetOperands(dep, refs, pos)
			if len(refs) == 1 {
				fs.SetTypes(dep, []ir.Type{ir.AsyncToken})
			}
			fs.SetTypes("token", []ir.Type{ir.AsyncToken})
			return nil
		},
		Print: func(p *ir.OpPrinter, op *ir.Operation) {
			if op.NamedResult("token") == nil {
				return
			}
			p.Raw("[")
			if d := op.NamedOperand(dep); d != nil {
				p.Operand(d)
			}
			p.Raw("]")
		},
	}}
}

// mmaCustom holds custom<Token> and custom<BarriersAndPreds>
// (`, %bar[%pred]` per barrier) of the tcgen5 MMAs.
func mmaCustom() map[string]*ir.Custom {
	c := tokenCustom("acc_dep")
	c["BarriersAndPreds"] = &ir.Custom{
		Parse: func(p *ir.OpParser, st *ir.OpState, fs *ir.FormatState) error {
			pos := p.Pos()
			var bars, preds []ir.OperandRef
			for p.ParseOptional(",") {
				b, err := p.ParseOperand()
				if err != nil {
					return err
				}
				if err := p.Expect("["); err != nil {
					return err
				}
				pr, err := p.ParseOperand()
				if err != nil {
					return err
				}
				if err := p.Expect("]"); err != nil {
					return err
				}
				bars, preds = append(bars, b), append(preds, pr)
			}
			fs.SetOperands("barriers", bars, pos)
			fs.SetOperands("barrier_preds", preds, pos)
			return nil
		},
		Print: func(p *ir.OpPrinter, op *ir.Operation) {
			preds := op.OperandGroup("barrier_preds")
			for i, b := range op.OperandGroup("barriers") {
				p.Raw(", ")
				p.Operand(b)
				p.Raw("[")
				if i < len(preds) {
					p.Operand(preds[i])
				}
				p.Raw("]")
			}
		},
	}
	return c
}

// inferI1 sets the types of the named operand groups to i1, and returns
// an InferTypes function.
func inferI1(names ...string) func(fs *ir.FormatState) error {
	return func(fs *ir.FormatState) error {
		for _, n := range names {
			fs.SetTypes(n, repeat(ir.I1, len(fs.Operands(n))))
		}
		return nil
	}
}

// inferI32 is inferI1 for i32 groups (TMA coordinates).
func inferI32(names ...string) func(fs *ir.FormatState) error {
	return func(fs *ir.FormatState) error {
		for _, n := range names {
			fs.SetTypes(n, repeat(ir.I32, len(fs.Operands(n))))
		}
		return nil
	}
}

func repeat(t ir.Type, n int) []ir.Type {
	ts := make([]ir.Type, n)
	for i := range ts {
		ts[i] = t
	}
	return ts
}

// ---- verifiers ----

// verifyBarrierType is Triton's verifyBarrierType.
func verifyBarrierType(v *ir.Value) error {
	m, ok := v.Type().(*ir.MemDescType)
	if !ok || !ir.TypesEqual(m.Elem, ir.I64) || len(m.Shape) != 1 || m.Shape[0] != 1 {
		return fmt.Errorf("barrier allocation must be a descriptor of 1xi64 type")
	}
	return nil
}

func verifyBarrierAlloc(op *ir.Operation) error { return verifyBarrierType(op.NamedOperand("alloc")) }

func verifyArriveBarrier(op *ir.Operation) error {
	if c, ok := op.IntAttr("count"); ok && c < 1 {
		return fmt.Errorf("count must be greater than or equal to 1")
	}
	return verifyBarrierAlloc(op)
}

func isMutable(v *ir.Value) bool {
	m, ok := v.Type().(*ir.MemDescType)
	return ok && m.Mutable
}

func verifyTMEMAlloc(op *ir.Operation) error {
	if op.NamedOperand("src") == nil && !isMutable(op.NamedResult("result")) {
		return fmt.Errorf("uninitialized alloc must have a mutable memdesc type")
	}
	return nil
}

func verifyTMEMStore(op *ir.Operation) error {
	if !isMutable(op.NamedOperand("dst")) {
		return fmt.Errorf("Cannot store into an immutable alloc")
	}
	return nil
}

func verifyTMEMCopy(op *ir.Operation) error {
	if !isMutable(op.NamedOperand("dst")) {
		return fmt.Errorf("Cannot copy into an immutable alloc")
	}
	return nil
}

// verifyTMALoad checks the barrier and the destination of the TMA loads.
func verifyTMALoad(op *ir.Operation) error {
	if err := verifyBarrierType(op.NamedOperand("barrier")); err != nil {
		return err
	}
	res := op.NamedOperand("result")
	if !isMutable(res) {
		return fmt.Errorf("cannot store into immutable memory")
	}
	if op.Name() == "ttng.async_tma_copy_global_to_local" {
		if _, ok := ir.Encoding(res.Type()).(*attr.NVMMAShared); !ok {
			return fmt.Errorf("TMA result must have NVMMA shared layout")
		}
	}
	return nil
}

func bitWidth(t ir.Type) int {
	switch x := t.(type) {
	case *ir.FloatType:
		return x.FloatBits()
	case *ir.IntegerType:
		return x.Width
	}
	return 0
}

// verifyWarpGroupDot checks, as Triton 3.6's verifier, that an fp8 dot
// with an f32 accumulator allows at least 32 imprecise accumulations
// (maxNumImpreciseAcc; Triton's frontend gives fp8 dots 2^30), and the
// kWidth of an in-register LHS.
func verifyWarpGroupDot(op *ir.Operation) error {
	a := op.NamedOperand("a").Type()
	if e := ir.TypeString(ir.ElementType(a)); (e == "f8E5M2" || e == "f8E4M3FN") &&
		ir.TypeString(ir.ElementType(op.NamedResult("d").Type())) == "f32" &&
		ir.AttrIntValue(op.AttrOrDefault("maxNumImpreciseAcc")) < 32 {
		return fmt.Errorf("Cannot use F32 as the accumulator element type when the max_num_imprecise_acc is less than 32")
	}
	if d, ok := ir.Encoding(a).(*attr.DotOperand); ok {
		if w := bitWidth(ir.ElementType(a)); w > 0 && d.KWidth != 32/w {
			return fmt.Errorf("in-register LHS operand must have a kWidth of %d but got %d", 32/w, d.KWidth)
		}
	}
	return nil
}

// accumulatorTypes lists the accumulator element types tcgen05 MMAs
// accept per operand element type.
func accumulatorTypes(t ir.Type) []string {
	switch s := ir.TypeString(t); {
	case s == "bf16", s == "f32", s == "tf32":
		return []string{"f32"}
	case s == "f16", strings.HasPrefix(s, "f8"):
		return []string{"f16", "f32"}
	case s == "i8":
		return []string{"i32"}
	}
	return nil
}

func verifyTCGen5MMA(op *ir.Operation) error {
	a := ir.ElementType(op.NamedOperand("a").Type())
	b := ir.ElementType(op.NamedOperand("b").Type())
	d := ir.ElementType(op.NamedOperand("d").Type())
	if ir.TypesEqual(a, b) {
		if allowed := accumulatorTypes(a); allowed != nil {
			ds := ir.TypeString(d)
			for _, x := range allowed {
				if x == ds {
					return nil
				}
			}
			return fmt.Errorf("unsupported accumulator dtype for operand types '%s' and '%s', accumulator dtype is '%s' but must be one of ['%s']",
				ir.TypeString(a), ir.TypeString(b), ds, strings.Join(allowed, "', '"))
		}
	}
	return nil
}
