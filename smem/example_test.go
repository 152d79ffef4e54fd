package smem_test

import (
	"fmt"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/smem"
)

func mustLayout(text string) attr.Layout {
	enc, _, err := attr.Parse(text, nil)
	if err != nil {
		panic(err)
	}
	return enc.(attr.Layout)
}

// A 32×32 f32 transpose: rows of 4 elements per thread to one column per
// warp. Triton sends it through shared memory; at cc80 with st/ld.shared
// and a 4 KiB buffer, at cc90 with stmatrix and 2 rounds of 2 KiB.
func Example() {
	src := mustLayout("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>")
	dst := mustLayout("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>")
	shape := []int{32, 32}
	for _, cc := range []int{80, 90} {
		p, err := smem.PlanEncodings(src, dst, shape, 32, smem.Target{ComputeCapability: cc})
		if err != nil {
			panic(err)
		}
		fmt.Printf("cc%d: %v, store %s ×%d (%d conflicts), load %s ×%d (%d conflicts), %d rounds, %d bytes\n",
			cc, p.Kind, p.Store.Instr.Name(true), p.Store.VecElems, p.Store.Conflicts,
			p.Load.Instr.Name(false), p.Load.VecElems, p.Load.Conflicts, p.Reps, p.ScratchBytes)
	}

	// Storing the source row-major, unswizzled: two rows share each
	// 128-bit wavefront's banks.
	s, _ := src.ToLinear(shape)
	flatRows, _ := mustLayout("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>").ToLinear(shape)
	n, _ := smem.BankConflicts(s, flatRows, 32)
	fmt.Println("row-major store:", n, "bank conflict")
	// Output:
	// cc80: shared memory, store st.shared ×2 (0 conflicts), load ld.shared ×2 (0 conflicts), 1 rounds, 4096 bytes
	// cc90: shared memory, store stmatrix ×4 (0 conflicts), load ld.shared ×4 (0 conflicts), 2 rounds, 2048 bytes
	// row-major store: 1 bank conflict
}
