package llvmemit_test

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// crossCheck lowers src (after allocate-shared-memory-nv), runs its
// kernel @k on the simulator with the buffers bufs as its pointer
// arguments (one CTA of warps warps), runs the reference interpreter on
// copies of the same buffers, and fails on the first byte where the two
// disagree (a NaN agrees with any NaN: the interpreter does not model
// payloads). It returns the simulated buffers.
func crossCheck(t *testing.T, src string, warps int, bufs []*interp.Buffer) []*interp.Buffer {
	t.Helper()
	return crossCheckArgs(t, src, warps, bufs, nil)
}

// crossCheckArgs is crossCheck for a kernel whose buffer parameters are
// followed by integer ones (ints).
func crossCheckArgs(t *testing.T, src string, warps int, bufs []*interp.Buffer, ints []int64) []*interp.Buffer {
	t.Helper()
	want := make([]*interp.Buffer, len(bufs))
	args := make([]interp.Arg, len(bufs))
	for i, b := range bufs {
		c := *b
		c.Data = bytes.Clone(b.Data)
		want[i] = &c
		args[i] = interp.BufArg(want[i])
	}
	for _, v := range ints {
		args = append(args, interp.IntArg(v))
	}
	m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "crosscheck.mlir"})
	if diags.HasErrors() {
		t.Fatalf("parse: %v\n%s", diags, src)
	}
	if err := interp.Run(m, "k", args, [3]int{1, 1, 1}); err != nil {
		t.Fatalf("interp: %v", err)
	}
	res := lowerSource(t, src, "crosscheck.mlir", true)
	// The buffers lie one after the other in the simulator's global
	// memory, each 16-byte aligned.
	var mem []byte
	var addrs []uint64
	for _, b := range bufs {
		addrs = append(addrs, uint64(len(mem)))
		mem = append(mem, b.Data...)
		for len(mem)%16 != 0 {
			mem = append(mem, 0)
		}
	}
	s := newSim(32*warps, mem)
	ran := false
	for _, f := range res.Module.Funcs {
		if f.Name() == "k" {
			words := addrs
			for _, v := range ints {
				words = append(words, uint64(uint32(v)))
			}
			s.run(f, append(words, 0, 0))
			ran = true
		}
	}
	if !ran {
		t.Fatal("no kernel @k in the module")
	}
	got := make([]*interp.Buffer, len(bufs))
	for i, b := range bufs {
		c := *b
		c.Data = bytes.Clone(mem[addrs[i] : addrs[i]+uint64(len(b.Data))])
		got[i] = &c
		_, isFloat := b.Elem.(*ir.FloatType)
		n := len(c.Data) / c.Len() // bytes an element
		for j := range c.Data {
			if c.Data[j] == want[i].Data[j] {
				continue
			}
			// The interpreter does not model NaN payloads (a NaN is a
			// NaN, as its Compare has it): any NaN agrees with any NaN.
			if e := j / n; isFloat && math.IsNaN(c.Float(e)) && math.IsNaN(want[i].Float(e)) {
				continue
			}
			t.Fatalf("buffer %d, byte %d: the lowered kernel wrote %#x, the interpreter %#x", i, j, c.Data[j], want[i].Data[j])
		}
	}
	return got
}

// filled returns a buffer of n elements of type elem holding integers,
// varying with seed: small ones (exact in every float type, and in i8),
// or for integers of 16 bits and more, ones that rarely repeat.
func filled(t *testing.T, elem ir.Type, n, seed int) *interp.Buffer {
	t.Helper()
	b, err := interp.NewBuffer(elem, n)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		v := (i*37+seed*11)%9 - 4
		switch e := elem.(type) {
		case *ir.FloatType:
			b.SetFloat(i, float64(v))
		case *ir.IntegerType:
			if e.Width >= 16 { // distinct values, so that misplaced elements show
				v = (i*7919+seed*101)%1000 - 300
			}
			b.SetInt(i, int64(v))
		}
	}
	return b
}

func zeros(t *testing.T, elem ir.Type, n int) *interp.Buffer {
	t.Helper()
	b, err := interp.NewBuffer(elem, n)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var _ = fmt.Sprint
