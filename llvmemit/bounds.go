package llvmemit

import (
	"fmt"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/metadata"
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
	// launches of a few programs (the proof's tile kernels: 107.9 ->
	// 111.0% of Triton, proof/results/h200-r13) but lowers the occupancy of
	// a large grid. 0: no directive.
	MinCTAsPerSM int
	// MaxRegs is PTX's .maxnreg: at most this many registers per thread
	// (ptxas spills what does not fit). 0: no directive.
	MaxRegs int
}

// SetLaunchBounds gives every kernel of the module the bounds b, as the
// nvvm.annotations minctasm and maxnreg that llc-14 prints as
// .minnctapersm and .maxnreg.
func (r *Result) SetLaunchBounds(b LaunchBounds) error {
	if b.MaxRegs < 0 || b.MaxRegs > 255 {
		return fmt.Errorf("maxnreg %d: give 1 to 255 registers per thread (0: no limit)", b.MaxRegs)
	}
	if b.MinCTAsPerSM < 0 {
		return fmt.Errorf("min-ctas-per-sm %d: give a number of programs (0: no hint)", b.MinCTAsPerSM)
	}
	if b == (LaunchBounds{}) || len(r.Kernels) == 0 {
		return nil
	}
	for _, k := range r.Kernels {
		if n := b.MinCTAsPerSM * k.Threads; n > MaxThreadsPerSM {
			return fmt.Errorf("min-ctas-per-sm %d: %d programs of kernel %s's %d threads are %d threads, more than the %d an SM holds",
				b.MinCTAsPerSM, b.MinCTAsPerSM, k.Name, k.Threads, n, MaxThreadsPerSM)
		}
	}
	annots := r.Module.NamedMetadataDefs["nvvm.annotations"]
	if annots == nil {
		return fmt.Errorf("the module has no nvvm.annotations")
	}
	for _, k := range r.Kernels {
		var fn *lir.Func
		for _, f := range r.Module.Funcs {
			if f.Name() == k.Name {
				fn = f
			}
		}
		if fn == nil {
			return fmt.Errorf("kernel %s is not in the module", k.Name)
		}
		for _, a := range []struct {
			key string
			v   int
		}{{"minctasm", b.MinCTAsPerSM}, {"maxnreg", b.MaxRegs}} {
			if a.v == 0 {
				continue
			}
			t := &metadata.Tuple{MetadataID: -1, Fields: []metadata.Field{fn, &metadata.String{Value: a.key}, i32(int64(a.v))}}
			r.Module.MetadataDefs = append(r.Module.MetadataDefs, t)
			annots.Nodes = append(annots.Nodes, t)
		}
	}
	return r.Module.AssignMetadataIDs()
}
