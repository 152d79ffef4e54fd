package ttg

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/layoutopt/layoutopt/ir"
)

// ttg.warp_specialize, its partitions holder and terminators, as
// lib/Dialect/TritonGPU/IR/Ops.cpp parses, prints and verifies them:
//
//	%r = ttg.warp_specialize(%a) attributes {...}
//	default {
//	  ttg.warp_yield %x : i64
//	}
//	partition0(%arg2: i32) num_warps(4) {
//	  ttg.warp_return
//	} : (i32) -> i64
//
// The partition regions are isolated from above, the default region is
// not; so, as in Triton, the partitions live in a
// ttg.warp_specialize.partitions op, the only op of the second region.

const partitionsName = "ttg.warp_specialize.partitions"

func warpSpecializeOps() []*ir.OpDef {
	dense := func(name string, opt bool) ir.AttrDef {
		return ir.AttrDef{Name: name, Kind: ir.DenseI32Array, Optional: opt}
	}
	return []*ir.OpDef{
		{Name: "ttg.warp_specialize", Summary: "asynchronously execute code on multiple warpgroups",
			Operands: []ir.ArgDef{ir.Vars("explicitCaptures")}, Results: []ir.ArgDef{ir.Vars("defaultPassthrough")},
			Attrs: []ir.AttrDef{dense("partitionNumWarps", false), dense("warpGroupStartIds", true),
				dense("requestedRegisters", true), dense("actualRegisters", true)},
			Regions: []ir.ArgDef{ir.Arg("defaultRegion"), ir.Arg("partitionOpHolder")},
			Parse:   parseWarpSpecialize, Print: printWarpSpecialize, Verify: verifyWarpSpecialize},
		{Name: partitionsName, Summary: "container op for `ttg.warp_specialize`",
			Traits:  ir.IsolatedFromAbove | ir.Terminator,
			Regions: []ir.ArgDef{ir.Vars("partitionRegions")}, Verify: verifyPartitions},
		{Name: "ttg.warp_yield", Summary: "yield from the default region of `ttg.warp_specialize`",
			Traits: ir.Pure | ir.Terminator | ir.ReturnLike, Operands: []ir.ArgDef{ir.Vars("values")},
			Format: "($values^ `:` type($values))? attr-dict", Verify: verifyWarpYield},
		{Name: "ttg.warp_return", Summary: "implicit terminator of the partition regions",
			Traits: ir.Pure | ir.Terminator | ir.ReturnLike, Format: "attr-dict", Verify: verifyWarpReturn},
	}
}

func parseWarpSpecialize(p *ir.OpParser, st *ir.OpState) error {
	operandPos := p.Pos()
	if err := p.Expect("("); err != nil {
		return err
	}
	refs, err := p.ParseOperandList()
	if err != nil {
		return err
	}
	if err := p.Expect(")"); err != nil {
		return err
	}
	if err := p.ParseOptionalAttrDictWithKeyword(st); err != nil {
		return err
	}
	if err := p.ParseKeyword("default"); err != nil {
		return err
	}
	def, err := p.ParseRegion(nil, false)
	if err != nil {
		return err
	}
	partsPos := p.Pos()
	parts := ir.NewOperation(partitionsName, nil, nil, nil, 0)
	parts.SetPos(partsPos)
	parts.Loc = p.SrcLoc(partsPos)
	var numWarps []int64
	for p.ParseOptionalKeyword("partition" + strconv.Itoa(len(numWarps))) {
		if err := p.Expect("("); err != nil {
			return err
		}
		var args []*ir.Value
		if !p.ParseOptional(")") {
			for {
				ref, err := p.ParseOperand()
				if err != nil {
					return err
				}
				t, err := p.ParseColonType()
				if err != nil {
					return err
				}
				loc, err := p.ParseOptionalLocation()
				if err != nil {
					return err
				}
				args = append(args, p.NewArg(ref, t, loc))
				if !p.ParseOptional(",") {
					break
				}
			}
			if err := p.Expect(")"); err != nil {
				return err
			}
		}
		if err := p.ParseKeyword("num_warps"); err != nil {
			return err
		}
		if err := p.Expect("("); err != nil {
			return err
		}
		n, err := p.ParseInt()
		if err != nil {
			return err
		}
		numWarps = append(numWarps, n)
		if err := p.Expect(")"); err != nil {
			return err
		}
		r, err := p.ParseRegion(args, true)
		if err != nil {
			return err
		}
		into := parts.AddRegion()
		for _, b := range r.Blocks {
			into.AddBlock(b)
		}
	}
	ft, pos, err := p.ParseFunctionalType(-1)
	if err != nil {
		return err
	}
	if len(refs) != len(ft.Inputs) {
		return p.Errorf(operandPos, "%d operands present, but expected %d", len(refs), len(ft.Inputs))
	}
	if err := p.ResolveFunctional(st, refs, ft, pos); err != nil {
		return err
	}
	st.Props = append(st.Props, ir.NamedAttr{Name: "partitionNumWarps", Value: &ir.DenseArrayAttr{Elem: ir.I32, Ints: numWarps}})
	holder := &ir.Region{}
	hb := ir.NewBlock()
	holder.AddBlock(hb)
	hb.Append(parts)
	st.Regions = []*ir.Region{def, holder}
	return nil
}

// partitionsOf returns the partitions op of warp_specialize op, or nil.
func partitionsOf(op *ir.Operation) *ir.Operation {
	if op.NumRegions() < 2 {
		return nil
	}
	r := op.Region(1)
	if len(r.Blocks) == 0 || r.Blocks[0].First() == nil {
		return nil
	}
	if f := r.Blocks[0].First(); f.Name() == partitionsName {
		return f
	}
	return nil
}

func numWarpsOf(op *ir.Operation) []int64 {
	if d, ok := op.Attr("partitionNumWarps").(*ir.DenseArrayAttr); ok {
		return d.Ints
	}
	return nil
}

func printWarpSpecialize(p *ir.OpPrinter, op *ir.Operation) {
	// Only a verified op is printed: it has both regions and the holder.
	var regions []*ir.Region
	if parts := partitionsOf(op); parts != nil {
		regions = parts.Regions()
	}
	p.Raw("(")
	p.Operands(op.Operands())
	p.Raw(")")
	p.AttrDictWithKeyword(op, "partitionNumWarps")
	p.Newline()
	p.Raw("default ")
	if op.NumRegions() > 0 {
		p.Region(op.Region(0), false, false)
	}
	nw := numWarpsOf(op)
	for i, r := range regions {
		p.Newline()
		p.Raw("partition" + strconv.Itoa(i) + "(")
		if b := r.Entry(); b != nil {
			for k, a := range b.Args() {
				if k > 0 {
					p.Raw(", ")
				}
				p.ArgDecl(a)
			}
		}
		p.Raw(") num_warps(")
		if i < len(nw) {
			p.Raw(strconv.FormatInt(nw[i], 10))
		}
		p.Raw(") ")
		p.Region(r, false, false)
	}
	p.ColonFunctional(op)
}

// verifyWarpSpecialize is WarpSpecializeOp::verify.
func verifyWarpSpecialize(op *ir.Operation) error {
	parts := partitionsOf(op)
	if parts == nil {
		return errors.New("expected to find only a `ttg.warp_specialize.partitions` op inside its second region")
	}
	nw := numWarpsOf(op)
	if parts.NumRegions() != len(nw) {
		return fmt.Errorf("has %d partitions but `partitionNumWarps` has %d elements", parts.NumRegions(), len(nw))
	}
	for i, n := range nw {
		if n <= 0 || n&(n-1) != 0 || n > 1<<32-1 {
			return fmt.Errorf("partition #%d number of warps (%d) must be a power of 2", i, n)
		}
	}
	if d, ok := op.Attr("warpGroupStartIds").(*ir.DenseArrayAttr); ok && len(d.Ints) != len(nw) {
		return fmt.Errorf("has %d warp group start IDs but expected %d", len(d.Ints), len(nw))
	}
	captures := op.OperandTypes()
	for i, r := range parts.Regions() {
		var args []*ir.Value
		if b := r.Entry(); b != nil {
			args = b.Args()
		}
		if len(args) != len(captures) {
			return fmt.Errorf("partition region #%d has %d arguments but expected %d", i, len(args), len(captures))
		}
		for k, a := range args {
			if !ir.TypesEqual(a.Type(), captures[k]) {
				return fmt.Errorf("partition region #%d argument #%d has type '%s' but corresponding capture has type '%s'",
					i, k, ir.TypeString(a.Type()), ir.TypeString(captures[k]))
			}
		}
	}
	for p := op.ParentOp(); p != nil; p = p.ParentOp() {
		if p.Name() == "ttg.warp_specialize" {
			return errors.New("cannot be nested inside another `ttg.warp_specialize` op")
		}
	}
	return nil
}

// verifyPartitions checks what TritonGPUOps.td declares of the
// partitions op: its parent, and that every partition region has a block.
func verifyPartitions(op *ir.Operation) error {
	if p := op.ParentOp(); p == nil || p.Name() != "ttg.warp_specialize" {
		return errors.New("expects parent op 'ttg.warp_specialize'")
	}
	for i, r := range op.Regions() {
		if len(r.Blocks) == 0 {
			return fmt.Errorf("region #%d ('partitionRegions') failed to verify constraint: region with at least 1 blocks", i)
		}
	}
	return nil
}

// verifyWarpYield is WarpYieldOp::verify, after HasParent.
func verifyWarpYield(op *ir.Operation) error {
	p := op.ParentOp()
	if p == nil || p.Name() != "ttg.warp_specialize" {
		return errors.New("expects parent op 'ttg.warp_specialize'")
	}
	if op.NumOperands() != p.NumResults() {
		return fmt.Errorf("has %d operands but parent op expected %d", op.NumOperands(), p.NumResults())
	}
	for i, t := range p.ResultTypes() {
		if ot := op.Operand(i).Type(); !ir.TypesEqual(ot, t) {
			return fmt.Errorf("operand #%d has type '%s' but parent op expected '%s'", i, ir.TypeString(ot), ir.TypeString(t))
		}
	}
	return nil
}

func verifyWarpReturn(op *ir.Operation) error {
	if p := op.ParentOp(); p == nil || p.Name() != partitionsName {
		return errors.New("expects parent op 'ttg.warp_specialize.partitions'")
	}
	return nil
}
