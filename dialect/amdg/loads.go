package amdg

import (
	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
)

// The AMD ops that copy global memory to shared memory asynchronously, and
// the conditional barrier.

func loadOps() []*ir.OpDef {
	return []*ir.OpDef{
		{Name: "amdg.cond_barrier", Summary: "barrier for the threads whose predicate holds",
			Traits: ir.MemoryRead | ir.MemoryWrite, Operands: []ir.ArgDef{ir.Arg("pred")},
			Format: "$pred attr-dict",
			InferTypes: func(fs *ir.FormatState) error {
				fs.SetTypes("pred", []ir.Type{ir.I1})
				return nil
			}},
		// Operands dest, ptr, offsets, mask?, other?, stride? (segment
		// sizes); the result is an async token.
		{Name: "amdg.buffer_load_to_local", Summary: "buffer load from a scalar base and tensor offsets into shared memory",
			Traits: ir.MemoryRead | ir.MemoryWrite | ir.AttrSizedOperandSegments,
			Props:  []string{"cache", "operandSegmentSizes"},
			Parse:  parseBufferLoadToLocal, Print: printBufferLoadToLocal},
		{Name: "amdg.async_tdm_copy_global_to_local", Summary: "tensor data mover copy of a descriptor block into shared memory",
			Traits:   ir.MemoryRead | ir.MemoryWrite,
			Operands: []ir.ArgDef{ir.Arg("desc"), ir.Vars("indices"), ir.Arg("result"), ir.Arg("pred")},
			Results:  []ir.ArgDef{ir.Arg("token")},
			Format:   "$desc `[` $indices `]` `into` $result `,` $pred attr-dict `:` qualified(type($desc)) `->` qualified(type($result))",
			TypeRules: []ir.TypeRule{
				{Target: "indices", From: "desc", Fn: func(ir.Type) ir.Type { return ir.I32 }},
				{Target: "pred", From: "desc", Fn: func(ir.Type) ir.Type { return ir.I1 }},
			},
			InferTypes: func(fs *ir.FormatState) error {
				fs.SetTypes("token", []ir.Type{ir.AsyncToken})
				return nil
			}},
	}
}

// parseBufferLoadToLocal parses
//
//	$ptr `[` $offsets `]` (`mask` `=` $mask^)? (`other` `=` $other^)? (`stride` `=` $stride^)?
//	(`cacheModifier` `=` $cache)? `into` $dest attr-dict
//	`:` type($ptr) `[` type($offsets) `]` type($other) `->` type($dest)
//
// with the pointer and memdesc types written without their dialect prefix.
func parseBufferLoadToLocal(p *ir.OpParser, st *ir.OpState) error {
	ptr, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.Expect("["); err != nil {
		return err
	}
	offs, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.Expect("]"); err != nil {
		return err
	}
	var opt [3]*ir.OperandRef
	for i, kw := range []string{"mask", "other", "stride"} {
		if p.ParseOptionalKeyword(kw) {
			if err := p.Expect("="); err != nil {
				return err
			}
			r, err := p.ParseOperand()
			if err != nil {
				return err
			}
			opt[i] = &r
		}
	}
	if err := tt.ParseCacheEvict(p, st); err != nil {
		return err
	}
	if err := p.ParseKeyword("into"); err != nil {
		return err
	}
	dest, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	pos := p.Pos()
	if err := p.Expect(":"); err != nil {
		return err
	}
	ptrT, err := p.ParseStrippedType("tt.ptr")
	if err != nil {
		return err
	}
	if err := p.Expect("["); err != nil {
		return err
	}
	offT, err := p.ParseType()
	if err != nil {
		return err
	}
	if err := p.Expect("]"); err != nil {
		return err
	}
	var otherT ir.Type
	if opt[1] != nil {
		if otherT, err = p.ParseType(); err != nil {
			return err
		}
	}
	if err := p.Expect("->"); err != nil {
		return err
	}
	var destT ir.Type
	if p.IsPunct("<") {
		if destT, err = p.ParseMemDescBody(); err != nil {
			return err
		}
	} else if destT, err = p.ParseType(); err != nil {
		return err
	}
	refs := []ir.OperandRef{dest, ptr, offs}
	types := []ir.Type{destT, ptrT, offT}
	sizes := []int{1, 1, 1, 0, 0, 0}
	optTypes := []ir.Type{ir.WithElem(offT, ir.I1), otherT, ir.I32}
	for i, r := range opt {
		if r != nil {
			refs = append(refs, *r)
			types = append(types, optTypes[i])
			sizes[3+i] = 1
		}
	}
	vals, err := p.ResolveAll(refs, types, pos)
	if err != nil {
		return err
	}
	st.Operands = vals
	st.Props = append(st.Props, ir.Segments(sizes...))
	st.Types = []ir.Type{ir.AsyncToken}
	return nil
}

func printBufferLoadToLocal(p *ir.OpPrinter, op *ir.Operation) {
	sizes := ir.SegmentSizes(op)
	if len(sizes) != 6 {
		// No segment sizes: the optional operands, if any, are masks.
		sizes = []int64{1, 1, 1, int64(min(1, max(0, op.NumOperands()-3))), 0, 0}
	}
	p.Raw(" ")
	p.Operand(op.Operand(1))
	p.Raw("[")
	p.Operand(op.Operand(2))
	p.Raw("]")
	i := 3
	var other ir.Type
	for k, kw := range []string{"mask", "other", "stride"} {
		if sizes[3+k] == 1 && i < op.NumOperands() {
			p.Raw(" " + kw + " = ")
			p.Operand(op.Operand(i))
			if kw == "other" {
				other = op.Operand(i).Type()
			}
			i++
		}
	}
	tt.PrintCacheEvict(p, op)
	p.Raw(" into ")
	p.Operand(op.Operand(0))
	p.AttrDict(op, "cache", "evict", "operandSegmentSizes")
	p.Raw(" : ")
	p.StrippedType(op.Operand(1).Type())
	p.Raw("[")
	p.Type(op.Operand(2).Type())
	p.Raw("] ")
	if other != nil {
		p.Type(other)
	}
	p.Raw(" -> ")
	if md, ok := op.Operand(0).Type().(*ir.MemDescType); ok {
		p.MemDescBody(md)
	} else {
		p.Type(op.Operand(0).Type())
	}
}
