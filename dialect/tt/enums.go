package tt

import "github.com/layoutopt/layoutopt/ir"

// The enum properties of the tt ops. Triton declares them as I32EnumAttr
// (TritonAttrDefs.td), not as dialect EnumAttr: their custom form is the
// keyword, their generic form a plain `i32` integer (`cache = 2 : i32`).
var (
	CacheModifier  = &ir.Enum{Name: "cache modifier", Cases: []string{"none", "ca", "cg", "wb", "cs", "wt", "cv"}, Base: 1}
	EvictionPolicy = &ir.Enum{Name: "eviction policy", Cases: []string{"evict_normal", "evict_first", "evict_last"}, Base: 1}
	InputPrecision = &ir.Enum{Name: "input precision", Cases: []string{"tf32", "tf32x3", "ieee", "bf16x3", "bf16x6"}, Base: 0}
	ProgramIDDim   = &ir.Enum{Name: "program dimension", Cases: []string{"x", "y", "z"}, Base: 0}
	RoundingMode   = &ir.Enum{Name: "rounding mode", Cases: []string{"rtz", "rtne"}, Base: 0}
	MemSemantic    = &ir.Enum{Name: "memory semantic", Cases: []string{"relaxed", "acquire", "release", "acq_rel"}, Base: 1}
	MemSyncScope   = &ir.Enum{Name: "memory sync scope", Cases: []string{"gpu", "cta", "sys"}, Base: 1}
	RMWOp          = &ir.Enum{Name: "atomic rmw op", Cases: []string{"and", "or", "xor", "add", "fadd", "max", "min", "umax", "umin", "exch"}, Base: 1}
	ScaleDotElem   = &ir.Enum{Name: "scale dot elem type", Cases: []string{"e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "bf16", "fp16"}, Base: 0}
)

// propagateNan is the sparse PropagateNanAttr: none = 0, all = 0xFFFF.
var propagateNan = map[string]int64{"none": 0, "all": 0xFFFF}

func enumAttr(name string, e *ir.Enum, def int64) ir.AttrDef {
	return ir.AttrDef{Name: name, Kind: ir.EnumAttrKind, Enum: e, Default: e.Attr(def)}
}

// ParseEnumAssign parses `kw = keyword` into the i32 property prop when
// keyword kw is next; it reports whether it was.
func ParseEnumAssign(p *ir.OpParser, st *ir.OpState, kw, prop string, e *ir.Enum) (bool, error) {
	if p.PeekKeyword() != kw {
		return false, nil
	}
	p.Advance()
	if err := p.Expect("="); err != nil {
		return true, err
	}
	pos := p.Pos()
	word, err := p.ParseIdent("keyword")
	if err != nil {
		return true, err
	}
	v, ok := e.Value(word)
	if !ok {
		return true, p.Errorf(pos, "expected %s to be one of: %s", e.Name, joinCases(e.Cases))
	}
	st.Props = append(st.Props, ir.NamedAttr{Name: prop, Value: e.Attr(v)})
	return true, nil
}

// PrintEnumAssign prints ` kw = keyword` when op's property prop is set
// and not def.
func PrintEnumAssign(p *ir.OpPrinter, op *ir.Operation, kw, prop string, e *ir.Enum, def int64) {
	v, ok := op.IntAttr(prop)
	if !ok || v == def {
		return
	}
	p.Raw(" " + kw + " = " + e.Keyword(v))
}

// ParseCacheEvict parses the optional `cacheModifier = X` and
// `evictionPolicy = Y` of a memory op, in either order.
func ParseCacheEvict(p *ir.OpParser, st *ir.OpState) error {
	for {
		ok, err := ParseEnumAssign(p, st, "cacheModifier", "cache", CacheModifier)
		if err != nil {
			return err
		}
		if ok {
			continue
		}
		ok, err = ParseEnumAssign(p, st, "evictionPolicy", "evict", EvictionPolicy)
		if err != nil || !ok {
			return err
		}
	}
}

// PrintCacheEvict prints what ParseCacheEvict reads, leaving out defaults.
func PrintCacheEvict(p *ir.OpPrinter, op *ir.Operation) {
	PrintEnumAssign(p, op, "cacheModifier", "cache", CacheModifier, 1)
	PrintEnumAssign(p, op, "evictionPolicy", "evict", EvictionPolicy, 1)
}

func joinCases(cs []string) string {
	s := ""
	for i, c := range cs {
		if i > 0 {
			s += ", "
		}
		s += c
	}
	return s
}
