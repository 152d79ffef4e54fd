package interp_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// TestTMAOnDevice runs a copy through tensor descriptors made in the kernel
// before and after triton-nvidia-tma-lowering (tensor maps written on the
// device into global scratch, TMA copies through shared memory): on a
// 70x200 f16 tensor (blocks of 64x128 over every edge) both copy it whole,
// so the tensor map's sizes and strides reach the copies the right way
// round. A 2-D copy through a host-side descriptor (DescArg) does the same.
func TestTMAOnDevice(t *testing.T) {
	src, err := os.ReadFile("../proof/kernels/tma_device_copy2d.ttgir")
	if err != nil {
		t.Fatal(err)
	}
	const m, n = 70, 200
	in := make([]byte, 2*m*n)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range in {
		in[i] = byte(r.Uint32())
		if i%2 == 1 {
			in[i] &^= 0x40 // an exponent below 31: no NaNs, whose payloads the interpreter does not keep
		}
	}
	mod, err := parseChunk(src, "tma_device_copy2d.ttgir")
	if err != nil {
		t.Fatal(err)
	}
	lowered, err := runPass(mod, "triton-nvidia-tma-lowering,tritongpu-global-scratch-memory-allocation")
	if err != nil {
		t.Fatal(err)
	}
	if !lowered.HasOp("ttng.tensormap_create") || !lowered.HasOp("ttng.async_tma_copy_global_to_local") {
		t.Fatal("the TMA lowering did not run")
	}
	for _, mm := range []*ir.Module{mod, lowered} {
		out := &interp.Buffer{Elem: ir.F16, Data: make([]byte, len(in))}
		args := []interp.Arg{interp.BufArg(&interp.Buffer{Elem: ir.F16, Data: append([]byte(nil), in...)}), interp.BufArg(out),
			interp.IntArg(m), interp.IntArg(n)}
		if err := interp.Run(mm, "tma_device_copy2d", args, [3]int{2, 2, 1}); err != nil {
			t.Fatal(err)
		}
		if d := diffF16(in, out.Data, n); d != "" {
			t.Errorf("lowered %v: %s", mm == lowered, d)
		}
	}

	host, err := os.ReadFile("../proof/kernels/tma_copy2d.ttgir")
	if err != nil {
		t.Fatal(err)
	}
	if mod, err = parseChunk(host, "tma_copy2d.ttgir"); err != nil {
		t.Fatal(err)
	}
	out := &interp.Buffer{Elem: ir.F16, Data: make([]byte, len(in))}
	shape, strides := []int64{m, n}, []int64{n, 1}
	args := []interp.Arg{interp.DescArg(&interp.Buffer{Elem: ir.F16, Data: append([]byte(nil), in...)}, shape, strides, false),
		interp.IntArg(m), interp.IntArg(n), interp.IntArg(n), interp.IntArg(1),
		interp.DescArg(out, shape, strides, false), interp.IntArg(m), interp.IntArg(n), interp.IntArg(n), interp.IntArg(1)}
	if err := interp.Run(mod, "tma_copy2d", args, [3]int{2, 2, 1}); err != nil {
		t.Fatal(err)
	}
	if d := diffF16(in, out.Data, n); d != "" {
		t.Errorf("through host-side descriptors: %s", d)
	}
}

// diffF16 describes how the f16 rows of n elements got differ from want,
// or is "".
func diffF16(want, got []byte, n int) string {
	bad, first := 0, -1
	for i := 0; i+1 < len(want); i += 2 {
		if !bytes.Equal(want[i:i+2], got[i:i+2]) {
			bad++
			if first < 0 {
				first = i / 2
			}
		}
	}
	if bad == 0 {
		return ""
	}
	return fmt.Sprintf("the copy differs in %d elements, first (%d, %d): %x, want %x", bad, first/n, first%n, got[2*first:2*first+2], want[2*first:2*first+2])
}
