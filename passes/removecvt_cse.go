package passes

import (
	"fmt"
	"maps"
	"strings"

	"github.com/layoutopt/layoutopt/ir"
)

// Rematerialization clones cheap producers once per conversion it removes,
// so two conversions of one value leave two identical copies. cse merges
// identical side-effect-free ops without regions (same name, attributes,
// operands and result types) when the first dominates the second: same
// block earlier, or an enclosing block.
func (r *rewriter) cse() {
	r.cseRegions(r.fn, map[string]*ir.Operation{})
}

func (r *rewriter) cseRegions(op *ir.Operation, outer map[string]*ir.Operation) {
	for _, rg := range op.Regions() {
		for _, b := range rg.Blocks {
			seen := maps.Clone(outer)
			for _, o := range b.Ops() {
				if len(o.Regions()) > 0 {
					r.cseRegions(o, seen)
					continue
				}
				if !r.cseCandidate(o) {
					continue
				}
				k := cseKey(o)
				first, ok := seen[k]
				if !ok {
					seen[k] = o
					continue
				}
				for i, v := range o.Results() {
					v.ReplaceAllUsesWith(first.Result(i))
				}
				if o.Erase() == nil {
					r.changed = true
				}
			}
		}
	}
}

func (r *rewriter) cseCandidate(op *ir.Operation) bool {
	if op.NumResults() == 0 || !op.HasTrait(ir.Pure) || op.HasTrait(ir.MemoryRead) || op.HasTrait(ir.MemoryWrite) {
		return false
	}
	switch r.classify(op) {
	case classCheap, classElementwise, classConvert:
		return true
	case classMapped:
		return len(op.Regions()) == 0
	}
	return false
}

func cseKey(op *ir.Operation) string {
	var sb strings.Builder
	sb.WriteString(op.Name())
	for _, na := range op.Props {
		fmt.Fprintf(&sb, " %s=%s", na.Name, ir.AttrString(na.Value))
	}
	for _, na := range op.Attrs {
		fmt.Fprintf(&sb, " %s=%s", na.Name, ir.AttrString(na.Value))
	}
	for _, v := range op.Operands() {
		fmt.Fprintf(&sb, " %p", v)
	}
	for _, t := range op.ResultTypes() {
		sb.WriteString(" : ")
		sb.WriteString(ir.TypeString(t))
	}
	return sb.String()
}
