// Command blocked builds, from scratch with package linear, the linear layout
// of the TritonGPU encoding
//
//	#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
//
// on a 32×32 tensor, evaluates it at register=5, lane=3, warp=2, and inverts it
// to find which register of which thread holds a given tensor element.
//
//	go run ./examples/blocked
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/layoutopt/layoutopt/linear"
	"github.com/layoutopt/layoutopt/proc"
)

func main() { os.Exit(run(proc.OS())) }

// run prints the example to p.Stdout; it returns the exit status.
func run(p *proc.Proc) int {
	if err := explain(p.Stdout); err != nil {
		fmt.Fprintln(p.Stderr, "blocked:", err)
		return 1
	}
	return 0
}

// blocked returns the linear layout of a #ttg.blocked encoding on a tensor of
// the given shape, as Triton's toLinearLayout builds it for one CTA: the
// per-thread, per-warp and per-CTA tiles are identity maps laid out along
// order (most minor dim first), multiplied together; then the tile is
// repeated in registers until it covers the shape, or broadcast where the
// shape is smaller.
func blocked(sizePerThread, threadsPerWarp, warpsPerCTA, order, shape []int) (linear.Layout, error) {
	l := linear.Empty()
	for _, part := range []struct {
		in    string
		sizes []int
	}{{"register", sizePerThread}, {"lane", threadsPerWarp}, {"warp", warpsPerCTA}} {
		tile, err := linear.IdentityStandardND(part.in, part.sizes, order)
		if err != nil {
			return linear.Layout{}, err
		}
		if l, err = linear.Mul(l, tile); err != nil {
			return linear.Layout{}, err
		}
	}
	dims := linear.StandardOutDimNames(len(shape))
	want := map[string]int{}
	for i, d := range dims {
		want[d] = shape[i]
	}
	l, err := linear.EnsureLayoutNotSmallerThan(l, want)
	if err != nil {
		return linear.Layout{}, err
	}
	if l, err = linear.EnsureLayoutNotLargerThan(l, want, true); err != nil {
		return linear.Layout{}, err
	}
	// One CTA: a "block" dimension of size 1.
	for _, d := range dims {
		b, err := linear.Identity1D(1, "block", d)
		if err != nil {
			return linear.Layout{}, err
		}
		if l, err = linear.Mul(l, b); err != nil {
			return linear.Layout{}, err
		}
	}
	return l.TransposeOuts(dims)
}

func explain(w io.Writer) error {
	l, err := blocked([]int{1, 1}, []int{1, 32}, []int{4, 1}, []int{1, 0}, []int{32, 32})
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}> on tensor<32x32>:")
	fmt.Fprintln(w, l.AttrString())
	fmt.Fprintln(w, l.String())

	// The forward map: which element does register 5 of lane 3 of warp 2 hold?
	reg, lane, warp := 5, 3, 2
	x := l.Apply(reg, lane, warp, 0)
	fmt.Fprintf(w, "L(register=%d, lane=%d, warp=%d) = (%d, %d)\n", reg, lane, warp, x[0], x[1])

	// Every element is held exactly once: the layout is a bijection, so it
	// has an inverse, from tensor coordinates to hardware coordinates.
	fmt.Fprintf(w, "rank %d of %d bits: injective %v, surjective %v\n",
		l.Rank(), l.TotalInDimSizeLog2(), l.IsInjective(), l.IsSurjective())
	inv, err := l.Invert()
	if err != nil {
		return err
	}
	fmt.Fprint(w, "inverse, from (dim0, dim1) to (register, lane, warp, block):", inv, "\n")
	for _, e := range [][2]int{{x[0], x[1]}, {31, 31}, {1, 0}} {
		h := inv.Apply(e[0], e[1])
		fmt.Fprintf(w, "element (%d, %d) is held by register=%d, lane=%d, warp=%d, block=%d\n",
			e[0], e[1], h[0], h[1], h[2], h[3])
	}

	// Converting to the transposed blocked layout (lanes along dim0): the
	// conversion maps each hardware position of the source to the position of
	// the destination that holds the same element.
	dst, err := blocked([]int{1, 1}, []int{32, 1}, []int{1, 4}, []int{0, 1}, []int{32, 32})
	if err != nil {
		return err
	}
	cvt, err := l.InvertAndCompose(dst)
	if err != nil {
		return err
	}
	c := cvt.Apply(reg, lane, warp, 0)
	fmt.Fprintf(w, "after converting to %s,\n  element (%d, %d) moves to register=%d, lane=%d, warp=%d\n",
		dst.AttrString(), x[0], x[1], c[0], c[1], c[2])
	_, local := cvt.Quotient([]string{"block", "warp"})
	fmt.Fprintf(w, "  the conversion stays within each warp: %v\n", local)
	return nil
}
