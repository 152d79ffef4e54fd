package ir

// Registration of the tt, ttg and ttng ops of Triton 3.6 TTGIR.

// The enum properties of the tt ops. Triton declares them as I32EnumAttr
// (TritonAttrDefs.td), not as dialect EnumAttr: their custom form is the
// keyword, their generic form a plain `i32` integer (`cache = 2 : i32`,
// `inputPrecision = 0 : i32`), with these values: CacheModifier none=1 ..
// cv=7, EvictionPolicy evict_normal=1 .. evict_last=3, InputPrecision
// tf32=0, tf32x3=1, ieee=2 (default), bf16x3=3, bf16x6=4, ProgramIDDim
// x=0 .. z=2, RoundingMode rtz=0, rtne=1, PaddingOption zero=1, nan=2.
var (
	cacheModifiers  = enumKeyword{names: []string{"none", "ca", "cg", "wb", "cs", "wt", "cv"}, base: 1}
	evictionPolicys = enumKeyword{names: []string{"evict_normal", "evict_first", "evict_last"}, base: 1}
	inputPrecisions = enumKeyword{names: []string{"tf32", "tf32x3", "ieee", "bf16x3", "bf16x6"}, base: 0}
	programDims     = enumKeyword{names: []string{"x", "y", "z"}, base: 0}
	roundingModes   = enumKeyword{names: []string{"rtz", "rtne"}, base: 0}
)

func init() {
	// Elementwise / shape ops with `%x attr-dict : A -> B`.
	for _, o := range []struct {
		name   string
		traits Trait
		props  []string
		sum    string
	}{
		{"tt.splat", Pure | SameOperandsAndResultEncoding, nil, "broadcast a scalar to a tensor"},
		{"tt.broadcast", Pure | SameOperandsAndResultEncoding | SameOperandsAndResultElementType, nil, "broadcast size-1 dimensions"},
		{"tt.expand_dims", Pure | SameOperandsAndResultElementType, []string{"axis"}, "insert a size-1 dimension"},
		{"tt.trans", Pure | SameOperandsAndResultElementType, []string{"order"}, "permute dimensions"},
		{"tt.histogram", Pure, nil, "histogram of a tensor"},
		{"tt.bitcast", Pure | Elementwise | SameOperandsAndResultShape | SameOperandsAndResultEncoding, nil, "bit cast"},
		{"tt.int_to_ptr", Pure | Elementwise | SameOperandsAndResultShape | SameOperandsAndResultEncoding, nil, "integer to pointer"},
		{"tt.ptr_to_int", Pure | Elementwise | SameOperandsAndResultShape | SameOperandsAndResultEncoding, nil, "pointer to integer"},
		{"tt.join", Pure | SameOperandsAndResultElementType, nil, "join two tensors along a new minor dimension"},
		{"tt.split", Pure | SameOperandsAndResultElementType, nil, "split the minor size-2 dimension"},
		{"tt.cat", Pure | SameOperandsAndResultElementType, nil, "concatenate"},
		{"ttg.convert_layout", Pure | SameOperandsAndResultShape | SameOperandsAndResultElementType, nil, "change the layout of a tensor"},
		{"ttg.memdesc_trans", Pure, []string{"order"}, "transposed view of a memory descriptor"},
		{"ttg.memdesc_reshape", Pure, nil, "reshaped view of a memory descriptor"},
		{"ttg.memdesc_reinterpret", Pure, nil, "reinterpreted view of a memory descriptor"},
		{"ttg.fp4_to_fp", Pure, []string{"axis"}, "upcast fp4"},
	} {
		d := &OpDef{Name: o.name, Summary: o.sum, Traits: o.traits, Props: o.props}
		switch o.name {
		case "tt.splat":
			d.Verify = verifySplat
		case "tt.broadcast":
			d.Verify = verifyBroadcast
		case "tt.expand_dims":
			d.Verify = verifyExpandDims
		case "tt.trans":
			d.Verify = verifyTrans
		}
		nres := 1
		switch o.name {
		case "tt.split":
			nres = 2
		}
		ArrowFormat(d, nres)
		Register(d)
	}
	for _, o := range []struct {
		name string
		sum  string
	}{
		{"tt.make_range", "a 1-D tensor of consecutive integers"},
	} {
		d := &OpDef{Name: o.name, Summary: o.sum, Traits: Pure}
		if o.name == "tt.make_range" {
			d.Props = []string{"start", "end"}
			d.Verify = verifyMakeRange
		}
		ColonTypeFormat(d)
		Register(d)
	}
	Register(&OpDef{Name: "tt.get_program_id", Summary: "program id along an axis", Traits: Pure, Props: []string{"axis"},
		Parse: parseAxisKeyword, Print: printAxisKeyword})
	Register(&OpDef{Name: "tt.get_num_programs", Summary: "number of programs along an axis", Traits: Pure, Props: []string{"axis"},
		Parse: parseAxisKeyword, Print: printAxisKeyword})
	Register(&OpDef{Name: "tt.addptr", Summary: "pointer plus offset", Traits: Pure | Elementwise | SameOperandsAndResultShape | SameOperandsAndResultEncoding,
		Parse: parseAddPtr, Print: printAddPtr, Verify: verifyAddPtr})
	Register(&OpDef{Name: "tt.load", Summary: "load from global memory", Traits: MemoryRead | SameOperandsAndResultShape | SameOperandsAndResultEncoding,
		Props: []string{"cache", "evict", "isVolatile", "boundaryCheck", "padding", "operandSegmentSizes"},
		Parse: parseLoad, Print: printLoadStore, Verify: verifyLoadStore})
	Register(&OpDef{Name: "tt.store", Summary: "store to global memory", Traits: MemoryWrite | SameOperandsAndResultShape | SameOperandsAndResultEncoding,
		Props: []string{"cache", "evict", "boundaryCheck"},
		Parse: parseStore, Print: printLoadStore, Verify: verifyLoadStore})
	Register(&OpDef{Name: "tt.dot", Summary: "matrix multiply-accumulate", Traits: Pure,
		Props: []string{"inputPrecision", "maxNumImpreciseAcc"},
		Parse: parseDot, Print: printDot, Verify: verifyDot})
	Register(&OpDef{Name: "tt.reshape", Summary: "reshape a tensor", Traits: Pure | SameOperandsAndResultElementType,
		Props: []string{"allow_reorder", "efficient_layout"}, Parse: parseReshape, Print: printReshape})
	Register(&OpDef{Name: "tt.gather", Summary: "gather along an axis", Traits: Pure,
		Props: []string{"axis", "efficient_layout"}, Parse: parseGather, Print: printGather})
	Register(&OpDef{Name: "tt.fp_to_fp", Summary: "float conversion", Traits: Pure | Elementwise | SameOperandsAndResultShape | SameOperandsAndResultEncoding,
		Props: []string{"rounding"}, Parse: parseFpToFp, Print: printFpToFp})
	for _, n := range []string{"tt.reduce", "tt.scan"} {
		props := []string{"axis"}
		if n == "tt.scan" {
			props = append(props, "reverse")
		}
		Register(&OpDef{Name: n, Summary: n[3:] + " along an axis (generic form only)", Traits: Pure | SingleBlock, Props: props, Verify: verifyReduce})
		r := &OpDef{Name: n + ".return", Summary: "terminator of " + n, Traits: Pure | Terminator | ReturnLike, Verify: HasParent(n)}
		TypeListFormat(r, false)
		Register(r)
	}
	for _, n := range []string{"tt.precise_sqrt"} {
		d := &OpDef{Name: n, Traits: Pure | Elementwise | SameOperandsAndResultType | SameOperandsAndResultEncoding}
		SameTypeFormat(d)
		Register(d)
	}
	for _, n := range []string{"tt.precise_divf", "tt.mulhiui"} {
		d := &OpDef{Name: n, Traits: Pure | Elementwise | SameOperandsAndResultType | SameOperandsAndResultEncoding}
		SameTypeFormat(d)
		Register(d)
	}
	// Shared memory.
	Register(&OpDef{Name: "ttg.local_alloc", Summary: "allocate shared memory", Props: []string{"alignment"},
		Parse: parseLocalAlloc, Print: printLocalAlloc})
	Register(&OpDef{Name: "ttg.local_load", Summary: "load a tensor from shared memory", Traits: MemoryRead,
		Parse: parseLocalLoad, Print: printLocalLoad, Verify: verifyLocalLoad})
	Register(&OpDef{Name: "ttg.local_store", Summary: "store a tensor into shared memory", Traits: MemoryWrite,
		Parse: parseLocalStore, Print: printLocalStore, Verify: verifyLocalStore})
	Register(&OpDef{Name: "ttg.local_dealloc", Summary: "free shared memory", Traits: MemoryWrite,
		Parse: parseSingleTyped, Print: printSingleTyped})
	Register(&OpDef{Name: "ttg.memdesc_index", Summary: "view of one buffer of a multi-buffered allocation", Traits: Pure,
		Parse: parseMemdescIndex, Print: printMemdescIndex})
	Register(&OpDef{Name: "ttg.async_copy_global_to_local", Summary: "asynchronous copy global → shared",
		Traits: MemoryRead | MemoryWrite, Props: []string{"cache", "evict", "isVolatile", "contiguity"},
		Parse: parseAsyncCopy, Print: printAsyncCopy})
	commit := &OpDef{Name: "ttg.async_commit_group", Summary: "commit pending async copies"}
	tokensFormat(commit, "tokens")
	Register(commit)
	asyncWait := &OpDef{Name: "ttg.async_wait", Summary: "wait for async copy groups", Props: []string{"num"}}
	tokensFormat(asyncWait, "")
	Register(asyncWait)
	for _, n := range []string{"ttg.barrier"} {
		b := &OpDef{Name: n, Summary: "block-wide barrier"}
		AttrOnlyFormat(b)
		Register(b)
	}
}

func parseAxisKeyword(p *OpParser, st *OpState) error {
	pos := p.Pos()
	kw, err := p.ParseIdent("program dimension (x, y or z)")
	if err != nil {
		return err
	}
	v, ok := programDims.value(kw)
	if !ok {
		return p.Errorf(pos, "expected one of [x, y, z] for program dimension")
	}
	st.Props = append(st.Props, NamedAttr{"axis", Int(v, I32)})
	t, _, err := p.ParseAttrDictAndType(st)
	if err != nil {
		return err
	}
	st.Types = []Type{t}
	return nil
}

func printAxisKeyword(p *OpPrinter, op *Operation) {
	v, _ := op.IntAttr("axis")
	p.Raw(" " + programDims.name(v))
	p.AttrDict(op, "axis")
	p.Raw(" : ")
	p.Type(op.Result(0).Type())
}

func parseAddPtr(p *OpParser, st *OpState) error {
	refs, err := p.ParseOperandCount(2, 2)
	if err != nil {
		return err
	}
	pos, ts, err := p.ParseAttrsColonTypes(st, 2)
	if err != nil {
		return err
	}
	if st.Operands, err = p.ResolveAll(refs, ts, pos); err != nil {
		return err
	}
	st.Types = []Type{ts[0]}
	return nil
}

func printAddPtr(p *OpPrinter, op *Operation) {
	p.OperandsAttrs(op.Operands(), op)
	p.Raw(" : ")
	p.Types(op.OperandTypes())
}

// parseCacheEvict parses the optional `cacheModifier = X` and
// `evictionPolicy = Y` of a load or store.
func (p *OpParser) parseCacheEvict(st *OpState) error {
	for {
		ok, err := p.ParseEnumKeyword(st, "cacheModifier", "cache", cacheModifiers)
		if err != nil {
			return err
		}
		if ok {
			continue
		}
		ok, err = p.ParseEnumKeyword(st, "evictionPolicy", "evict", evictionPolicys)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
	}
}

func printCacheEvict(p *OpPrinter, op *Operation) {
	PrintEnumKeyword(p, op, "cacheModifier", "cache", cacheModifiers, 1, false)
	PrintEnumKeyword(p, op, "evictionPolicy", "evict", evictionPolicys, 1, false)
}

// parseLoad parses `%ptr[, %mask[, %other]] [cacheModifier = X]
// [evictionPolicy = Y] attr-dict : P`.
func parseLoad(p *OpParser, st *OpState) error {
	return p.parseLoadStore(st, 1, func(pt, val, mask Type) []Type { return []Type{pt, mask, val} }, true)
}

// parseStore parses `%ptr, %value[, %mask] [cacheModifier = X]
// [evictionPolicy = Y] attr-dict : P`.
func parseStore(p *OpParser, st *OpState) error {
	return p.parseLoadStore(st, 2, func(pt, val, mask Type) []Type { return []Type{pt, val, mask} }, false)
}

// parseLoadStore is the format shared by tt.load and tt.store: min to 3
// operands whose types order gives from the pointer type, its pointee and
// its mask type; loads return the pointee.
func (p *OpParser) parseLoadStore(st *OpState, min int, order func(pt, val, mask Type) []Type, load bool) error {
	refs, err := p.ParseOperandCount(min, 3)
	if err != nil {
		return err
	}
	if err := p.parseCacheEvict(st); err != nil {
		return err
	}
	pt, pos, err := p.ParseAttrDictAndType(st)
	if err != nil {
		return err
	}
	val, ok := p.pointee(pt)
	if !ok {
		return p.Errorf(pos, "expected a pointer or tensor of pointers type")
	}
	if st.Operands, err = p.ResolveAll(refs, order(pt, val, p.maskOf(pt))[:len(refs)], pos); err != nil {
		return err
	}
	if load {
		st.Types = []Type{val}
	}
	return nil
}

// printLoadStore prints the format of parseLoadStore.
// As MLIR, attr-dict leaves out the derived operandSegmentSizes and the
// default-valued boundaryCheck and isVolatile (generic form written by
// Triton has them all).
func printLoadStore(p *OpPrinter, op *Operation) {
	p.OperandsAttrsNoDict(op.Operands())
	printCacheEvict(p, op)
	elided := []string{"cache", "evict", "operandSegmentSizes"}
	if b, ok := op.Attr("boundaryCheck").(*DenseArrayAttr); ok && len(b.Ints) == 0 {
		elided = append(elided, "boundaryCheck")
	}
	if b, ok := op.Attr("isVolatile").(*BoolAttr); ok && !b.Value {
		elided = append(elided, "isVolatile")
	}
	p.AttrDict(op, elided...)
	p.ColonType(op.Operand(0).Type())
}

type derivedKey struct {
	t    Type
	kind int
}

// pointee returns the (interned) type loaded through pointer type t.
func (p *OpParser) pointee(t Type) (Type, bool) {
	k := derivedKey{t, 0}
	if d, ok := p.derived[k]; ok {
		return d, true
	}
	d, ok := PointeeLike(t)
	if ok {
		p.derived[k] = d
	}
	return d, ok
}

// maskOf returns the (interned) i1 type shaped like t.
func (p *OpParser) maskOf(t Type) Type {
	k := derivedKey{t, 1}
	if d, ok := p.derived[k]; ok {
		return d
	}
	d := WithElem(t, I1)
	p.derived[k] = d
	return d
}

// parseDot parses `%a, %b, %c[, inputPrecision = X] attr-dict : A * B ->
// C`; `, maxNumImpreciseAcc = N`, which older versions of this package
// printed, is still read.
func parseDot(p *OpParser, st *OpState) error {
	var refs []OperandRef
	for i := 0; i < 3; i++ {
		if i > 0 {
			if err := p.Expect(","); err != nil {
				return err
			}
		}
		r, err := p.ParseOperand()
		if err != nil {
			return err
		}
		refs = append(refs, r)
	}
	for p.ParseOptional(",") {
		switch p.PeekKeyword() {
		case "inputPrecision":
			if _, err := p.ParseEnumKeyword(st, "inputPrecision", "inputPrecision", inputPrecisions); err != nil {
				return err
			}
		case "maxNumImpreciseAcc":
			p.advance()
			if err := p.Expect("="); err != nil {
				return err
			}
			n, err := p.ParseInt()
			if err != nil {
				return err
			}
			st.Props = append(st.Props, NamedAttr{"maxNumImpreciseAcc", Int(n, I32)})
		default:
			return p.errorHere("expected 'inputPrecision' or 'maxNumImpreciseAcc'")
		}
	}
	return p.parseDotTypes(st, refs)
}

func (p *OpParser) parseDotTypes(st *OpState, refs []OperandRef) error {
	a, pos, err := p.ParseAttrDictAndType(st)
	if err != nil {
		return err
	}
	if err := p.Expect("*"); err != nil {
		return err
	}
	b, err := p.ParseType()
	if err != nil {
		return err
	}
	if err := p.Expect("->"); err != nil {
		return err
	}
	c, err := p.ParseType()
	if err != nil {
		return err
	}
	types := []Type{a, b, c}
	for len(types) < len(refs) {
		types = append(types, I1)
	}
	if st.Operands, err = p.ResolveAll(refs, types, pos); err != nil {
		return err
	}
	st.Types = []Type{c}
	return nil
}

func printDot(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operands(op.Operands())
	if v, ok := op.IntAttr("inputPrecision"); ok && v != 2 {
		p.Raw(", inputPrecision = " + inputPrecisions.name(v))
	}
	// maxNumImpreciseAcc has no keyword in the assemblyFormat: it stays in
	// attr-dict unless it has its default value 0.
	elided := []string{"inputPrecision"}
	if v, ok := op.IntAttr("maxNumImpreciseAcc"); ok && v == 0 {
		elided = append(elided, "maxNumImpreciseAcc")
	}
	p.AttrDict(op, elided...)
	p.printDotTypes(op)
}

func (p *OpPrinter) printDotTypes(op *Operation) {
	p.Raw(" : ")
	p.Type(op.Operand(0).Type())
	p.Raw(" * ")
	p.Type(op.Operand(1).Type())
	p.Raw(" -> ")
	p.Type(op.Result(0).Type())
}

func parseReshape(p *OpParser, st *OpState) error {
	ref, err := p.ParseOperand()
	if err != nil {
		return err
	}
	for _, kw := range []string{"allow_reorder", "efficient_layout"} {
		if p.ParseOptionalKeyword(kw) {
			st.Props = append(st.Props, NamedAttr{kw, Unit})
		}
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	return p.FinishOperandArrow(st, ref)
}

func printReshape(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	var elided []string
	for _, kw := range []string{"allow_reorder", "efficient_layout"} {
		if isSetFlag(op.Attr(kw)) {
			p.Raw(" " + kw)
			elided = append(elided, kw)
		}
	}
	p.AttrDict(op, elided...)
	p.ColonArrow(op.Operand(0).Type(), op.Result(0).Type())
}

// isSetFlag reports whether a is a unit attribute or true.
func isSetFlag(a Attribute) bool {
	switch x := a.(type) {
	case *UnitAttr:
		return true
	case *BoolAttr:
		return x.Value
	}
	return false
}

func parseGather(p *OpParser, st *OpState) error {
	src, idx, err := p.ParseIndexedAttrs(st)
	if err != nil {
		return err
	}
	ft, pos, err := p.ParseFunctionalType(2)
	if err != nil {
		return err
	}
	return p.ResolveFunctional(st, []OperandRef{src, idx}, ft, pos)
}

func printGather(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	p.BracketOperands(op.Operands()[1:2])
	p.AttrDict(op)
	p.ColonFunctional(op)
}

func parseFpToFp(p *OpParser, st *OpState) error {
	ref, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	if p.ParseOptional(",") {
		if _, err := p.ParseEnumKeyword(st, "rounding", "rounding", roundingModes); err != nil {
			return err
		}
	}
	// Files written before attr-dict moved ahead of the rounding mode.
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	return p.FinishOperandArrow(st, ref)
}

func printFpToFp(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	p.AttrDict(op, "rounding")
	if v, ok := op.IntAttr("rounding"); ok {
		p.Raw(", rounding = " + roundingModes.name(v))
	}
	p.ColonArrow(op.Operand(0).Type(), op.Result(0).Type())
}

// parseLocalAlloc parses `[%src] attr-dict : (T) -> M` or `: () -> M`.
func parseLocalAlloc(p *OpParser, st *OpState) error {
	refs, err := p.ParseOperandsAttrs(st)
	if err != nil {
		return err
	}
	ft, pos, err := p.ParseFunctionalType(-1)
	if err != nil {
		return err
	}
	if len(ft.Results) != 1 {
		return p.Errorf(pos, "expected function type with one result")
	}
	return p.ResolveFunctional(st, refs, ft, pos)
}

func printLocalAlloc(p *OpPrinter, op *Operation) {
	p.OperandsAttrs(op.Operands(), op)
	p.ColonFunctional(op)
}

// parseLocalLoad parses `%m [token %t] attr-dict : M -> T`.
func parseLocalLoad(p *OpParser, st *OpState) error {
	m, err := p.ParseOperand()
	if err != nil {
		return err
	}
	var tok *OperandRef
	if p.ParseOptionalKeyword("token") {
		t, err := p.ParseOperand()
		if err != nil {
			return err
		}
		tok = &t
	}
	if err := p.ParseOptionalAttrDict(st); err != nil {
		return err
	}
	if err := p.FinishOperandArrow(st, m); err != nil {
		return err
	}
	if tok != nil {
		tv, err := p.Resolve(*tok, AsyncToken)
		if err != nil {
			return err
		}
		st.Operands = append(st.Operands, tv)
	}
	return nil
}

func printLocalLoad(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	if op.NumOperands() > 1 {
		p.Raw(" token ")
		p.Operand(op.Operand(1))
	}
	p.AttrDict(op)
	p.ColonArrow(op.Operand(0).Type(), op.Result(0).Type())
}

// parseSingleTyped parses `%x attr-dict : T` with no results.
func parseSingleTyped(p *OpParser, st *OpState) error {
	refs, pos, t, err := p.ParseOperandsAttrsColon(st)
	if err != nil {
		return err
	}
	if len(refs) != 1 {
		return p.Errorf(pos, "%d operands present, but expected 1", len(refs))
	}
	st.Operands, err = p.resolveAll(refs, []Type{t}, pos)
	return err
}

func printSingleTyped(p *OpPrinter, op *Operation) {
	p.OperandsAttrs(op.Operands(), op)
	p.ColonType(op.Operand(0).Type())
}

// parseMemdescIndex parses `%m[%i] attr-dict : A -> B`.
func parseMemdescIndex(p *OpParser, st *OpState) error {
	m, idx, err := p.ParseIndexedAttrs(st)
	if err != nil {
		return err
	}
	if err := p.FinishOperandArrow(st, m); err != nil {
		return err
	}
	iv, err := p.Resolve(idx, I32)
	if err != nil {
		return err
	}
	st.Operands = append(st.Operands, iv)
	return nil
}

func printMemdescIndex(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	p.BracketOperands(op.Operands()[1:2])
	p.AttrDict(op)
	p.ColonArrow(op.Operand(0).Type(), op.Result(0).Type())
}

// parseAsyncCopy parses `%src, %dst [mask %m] [other %o] [cacheModifier = X]
// [evictionPolicy = Y] [isVolatile] attr-dict : SrcT -> <memdesc body>`.
func parseAsyncCopy(p *OpParser, st *OpState) error {
	refs, err := p.ParseOperandList()
	if err != nil {
		return err
	}
	if len(refs) != 2 {
		return p.Errorf(p.Pos(), "expected source and destination operands")
	}
	var mask, other *OperandRef
	if p.ParseOptionalKeyword("mask") {
		m, err := p.ParseOperand()
		if err != nil {
			return err
		}
		mask = &m
	}
	if p.ParseOptionalKeyword("other") {
		o, err := p.ParseOperand()
		if err != nil {
			return err
		}
		other = &o
	}
	if err := p.parseCacheEvict(st); err != nil {
		return err
	}
	if p.ParseOptionalKeyword("isVolatile") {
		st.Props = append(st.Props, NamedAttr{"isVolatile", True})
	}
	src, pos, err := p.ParseAttrDictAndType(st)
	if err != nil {
		return err
	}
	if err := p.Expect("->"); err != nil {
		return err
	}
	var dst Type
	if p.isPunct("<") {
		if dst, err = p.parseMemDescBody(); err != nil {
			return err
		}
	} else if dst, err = p.ParseType(); err != nil {
		return err
	}
	sv, err := p.Resolve(refs[0], src)
	if err != nil {
		return err
	}
	dv, err := p.Resolve(refs[1], dst)
	if err != nil {
		return err
	}
	st.Operands = []*Value{sv, dv}
	if mask != nil {
		mv, err := p.Resolve(*mask, p.maskOf(src))
		if err != nil {
			return err
		}
		st.Operands = append(st.Operands, mv)
	}
	if other != nil {
		ot, ok := p.pointee(src)
		if !ok {
			return p.Errorf(pos, "expected a tensor of pointers")
		}
		ov, err := p.Resolve(*other, ot)
		if err != nil {
			return err
		}
		st.Operands = append(st.Operands, ov)
	}
	if mask == nil && other != nil {
		st.Props = append(st.Props, NamedAttr{"operandSegmentSizes", &DenseArrayAttr{Elem: I32, Ints: []int64{1, 1, 0, 1}}})
	}
	st.Types = []Type{AsyncToken}
	return nil
}

func printAsyncCopy(p *OpPrinter, op *Operation) {
	p.Raw(" ")
	p.Operand(op.Operand(0))
	p.Raw(", ")
	p.Operand(op.Operand(1))
	n := op.NumOperands()
	_, noMask := op.Attr("operandSegmentSizes").(*DenseArrayAttr)
	switch {
	case n == 4:
		p.Raw(" mask ")
		p.Operand(op.Operand(2))
		p.Raw(" other ")
		p.Operand(op.Operand(3))
	case n == 3 && noMask:
		p.Raw(" other ")
		p.Operand(op.Operand(2))
	case n == 3:
		p.Raw(" mask ")
		p.Operand(op.Operand(2))
	}
	printCacheEvict(p, op)
	elided := []string{"cache", "evict", "operandSegmentSizes"}
	if b, ok := op.Attr("isVolatile").(*BoolAttr); ok && b.Value {
		p.Raw(" isVolatile")
		elided = append(elided, "isVolatile")
	}
	p.AttrDict(op, elided...)
	p.Raw(" : ")
	p.Type(op.Operand(0).Type())
	p.Raw(" -> ")
	if md, ok := op.Operand(1).Type().(*MemDescType); ok {
		p.MemDescBody(md)
	} else {
		p.Type(op.Operand(1).Type())
	}
}

// tokensFormat is `[keyword] [%t1, %t2] attr-dict` with async token
// operands and one token result (ttg.async_commit_group with keyword
// "tokens", ttg.async_wait with none).
func tokensFormat(def *OpDef, keyword string) {
	def.Parse = func(p *OpParser, st *OpState) error {
		if keyword == "" || p.ParseOptionalKeyword(keyword) {
			refs, err := p.ParseOperandList()
			if err != nil {
				return err
			}
			if len(refs) > 0 {
				if st.Operands, err = p.resolveAll(refs, []Type{AsyncToken}, p.Pos()); err != nil {
					return err
				}
			}
		}
		if err := p.ParseOptionalAttrDict(st); err != nil {
			return err
		}
		st.Types = []Type{AsyncToken}
		return nil
	}
	def.Print = func(p *OpPrinter, op *Operation) {
		if op.NumOperands() > 0 && keyword != "" {
			p.Raw(" " + keyword)
		}
		p.OperandsAttrs(op.Operands(), op)
	}
}

func itoa(v int64) string { return string(appendIntValue(nil, v, I64)) }

// parseLocalStore parses `%v, %m attr-dict : T -> M`.
func parseLocalStore(p *OpParser, st *OpState) error {
	refs, err := p.ParseOperandsAttrs(st)
	if err != nil {
		return err
	}
	if len(refs) != 2 {
		return p.Errorf(p.Pos(), "expected value and memory descriptor operands")
	}
	pos := p.Pos()
	a, b, err := p.ParseColonArrow()
	if err != nil {
		return err
	}
	st.Operands, err = p.ResolveAll(refs, []Type{a, b}, pos)
	return err
}

func printLocalStore(p *OpPrinter, op *Operation) {
	p.OperandsAttrs(op.Operands(), op)
	p.ColonArrow(op.Operand(0).Type(), op.Operand(1).Type())
}
