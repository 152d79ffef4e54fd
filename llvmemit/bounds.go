package llvmemit

import (
	"fmt"
	"slices"
	"strings"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/metadata"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
)

// MaxThreadsPerSM is the most threads an SM of compute capability 8.0 or
// 9.0 holds (2048; 8.6 and 8.9 hold 1536).
const MaxThreadsPerSM = 2048

// LaunchBounds are occupancy hints for ptxas, as CUDA's
// __launch_bounds__(maxThreads, minBlocksPerMultiprocessor) and Triton's
// maxnreg option give them. The zero value gives none.
type LaunchBounds struct {
	// MinCTAsPerSM is PTX's .minnctapersm: ptxas keeps the registers per
	// thread few enough for this many programs on an SM. Without it
	// ptxas often squeezes registers for full occupancy, at the cost of
	// loads in flight; 1 lets it use registers freely, which pays for
	// launches of a few programs (see DecideLaunchBounds) but lowers the
	// occupancy of a large grid. 0: no directive.
	MinCTAsPerSM int
	// MaxRegs is PTX's .maxnreg: at most this many registers per thread
	// (ptxas spills what does not fit). 0: no directive.
	MaxRegs int
}

// SetLaunchBounds gives every kernel of the module the bounds b, as the
// nvvm.annotations minctasm and maxnreg that llc-14 prints as
// .minnctapersm and .maxnreg.
func (r *Result) SetLaunchBounds(b LaunchBounds) error {
	if err := b.check(r.Kernels); err != nil || b == (LaunchBounds{}) {
		return err
	}
	for _, k := range r.Kernels {
		if err := r.setBounds(k.Name, b); err != nil {
			return err
		}
	}
	return r.Module.AssignMetadataIDs()
}

// SetKernelLaunchBounds gives the kernel called name the bounds b (see
// SetLaunchBounds).
func (r *Result) SetKernelLaunchBounds(name string, b LaunchBounds) error {
	for _, k := range r.Kernels {
		if k.Name != name {
			continue
		}
		if err := b.check([]Kernel{k}); err != nil || b == (LaunchBounds{}) {
			return err
		}
		if err := r.setBounds(name, b); err != nil {
			return err
		}
		return r.Module.AssignMetadataIDs()
	}
	return fmt.Errorf("no kernel %s in the module", name)
}

// check reports bounds no kernel of ks can have.
func (b LaunchBounds) check(ks []Kernel) error {
	if b.MaxRegs < 0 || b.MaxRegs > 255 {
		return fmt.Errorf("maxnreg %d: give 1 to 255 registers per thread (0: no limit)", b.MaxRegs)
	}
	if b.MinCTAsPerSM < 0 {
		return fmt.Errorf("min-ctas-per-sm %d: give a number of programs (0: no hint)", b.MinCTAsPerSM)
	}
	for _, k := range ks {
		if n := b.MinCTAsPerSM * k.Threads; n > MaxThreadsPerSM {
			return fmt.Errorf("min-ctas-per-sm %d: %d programs of kernel %s's %d threads are %d threads, more than the %d an SM holds",
				b.MinCTAsPerSM, b.MinCTAsPerSM, k.Name, k.Threads, n, MaxThreadsPerSM)
		}
	}
	return nil
}

// setBounds adds kernel name's annotations for b; the caller assigns the
// metadata IDs.
func (r *Result) setBounds(name string, b LaunchBounds) error {
	annots := r.Module.NamedMetadataDefs["nvvm.annotations"]
	if annots == nil {
		return fmt.Errorf("the module has no nvvm.annotations")
	}
	var fn *lir.Func
	for _, f := range r.Module.Funcs {
		if f.Name() == name {
			fn = f
		}
	}
	if fn == nil {
		return fmt.Errorf("kernel %s is not in the module", name)
	}
	for _, a := range []struct {
		key string
		v   int
	}{{"minctasm", b.MinCTAsPerSM}, {"maxnreg", b.MaxRegs}} {
		if a.v == 0 {
			continue
		}
		r.dropAnnotation(annots, fn, a.key)
		t := &metadata.Tuple{MetadataID: -1, Fields: []metadata.Field{fn, &metadata.String{Value: a.key}, i32(int64(a.v))}}
		r.Module.MetadataDefs = append(r.Module.MetadataDefs, t)
		annots.Nodes = append(annots.Nodes, t)
	}
	return nil
}

// dropAnnotation removes fn's annotation key, so that bounds set twice
// leave the second.
func (r *Result) dropAnnotation(annots *metadata.NamedDef, fn *lir.Func, key string) {
	is := func(n metadata.Node) bool {
		t, ok := n.(*metadata.Tuple)
		if !ok || len(t.Fields) != 3 || t.Fields[0] != fn {
			return false
		}
		s, ok := t.Fields[1].(*metadata.String)
		return ok && s.Value == key
	}
	annots.Nodes = slices.DeleteFunc(annots.Nodes, is)
	r.Module.MetadataDefs = slices.DeleteFunc(r.Module.MetadataDefs, func(d metadata.Definition) bool { return is(d) })
}

// LaunchDecision is layout-translate's default launch bounds for one
// kernel, and why.
type LaunchDecision struct {
	Bounds LaunchBounds
	Why    string
}

// Remark is the remark layout-translate -remarks makes of the decision.
func (d LaunchDecision) Remark() string {
	if d.Bounds.MinCTAsPerSM > 0 {
		return fmt.Sprintf("launch bounds: .minnctapersm %d (%s)", d.Bounds.MinCTAsPerSM, d.Why)
	}
	return "launch bounds: none (" + d.Why + ")"
}

// DecideLaunchBounds is the default launch bounds of the kernel fn (a
// tt.func): .minnctapersm 1 when neither fn nor a function it calls reads
// its program id or the number of programs (tt.get_program_id,
// tt.get_num_programs), takes work from a counter (atomics) or can read
// special registers (inline asm). Every program of such a kernel computes
// the same, so it is launched as one program and its time is the latency
// of one CTA, which registers buy: ptxas otherwise keeps registers few
// enough for full occupancy. Kernels with a dot are left to ptxas: on the
// proof's one-program dots .minnctapersm 1 was 2-3% slower, on its
// one-program reductions, scans and element-wise kernels up to 16% faster
// (proof/results/h200-r14: the 97 tile kernels 107.9 -> 110.8% of Triton).
func DecideLaunchBounds(fn *ir.Operation) LaunchDecision {
	if v, ok := fn.Attr("sym_visibility").(*ir.StringAttr); ok && v.Value != "public" {
		return LaunchDecision{Why: "not a kernel"}
	}
	if ft := tt.FuncType(fn); ft != nil && len(ft.Results) > 0 {
		return LaunchDecision{Why: "not a kernel: it returns values"}
	}
	var why string
	seen := map[*ir.Operation]bool{}
	var walk func(f *ir.Operation)
	walk = func(f *ir.Operation) {
		if seen[f] {
			return
		}
		seen[f] = true
		f.Walk(func(op *ir.Operation) ir.WalkResult {
			switch name := op.Name(); {
			case name == "tt.get_program_id" || name == "tt.get_num_programs":
				why = "it reads " + name
			case name == "tt.dot" || name == "tt.dot_scaled" || name == "ttng.warp_group_dot" || strings.HasPrefix(name, "ttng.tc_gen5_mma"):
				why = "it has " + name
			case name == "tt.atomic_rmw" || name == "tt.atomic_cas":
				why = "it has " + name + " (programs may take work from a counter)"
			case name == "tt.elementwise_inline_asm":
				why = "it has inline asm"
			case name == "tt.call":
				if c, ok := op.Attr("callee").(*ir.SymbolRefAttr); ok {
					if callee := tt.LookupSymbol(fn, c.Root); callee != nil && callee.Name() == "tt.func" {
						walk(callee)
					}
				}
			}
			if why != "" {
				return ir.Interrupt
			}
			return ir.Advance
		})
	}
	walk(fn)
	if why != "" {
		return LaunchDecision{Why: why}
	}
	return LaunchDecision{Bounds: LaunchBounds{MinCTAsPerSM: 1},
		Why: "it reads no program id, so every program computes the same and a launch is one program: ptxas may use registers for latency"}
}
