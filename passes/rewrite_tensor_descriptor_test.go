package passes

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// runModulePass parses src (as k.mlir) and runs the module pass named
// pass on it.
func runModulePass(t *testing.T, pass, src string) (*ir.Module, ir.Diagnostics, error) {
	t.Helper()
	m, d := ir.ParseString(src, ir.ParseConfig{Filename: "k.mlir"})
	if d.HasErrors() {
		t.Fatalf("parse: %v", d)
	}
	pl, err := ParsePipeline("builtin.module(" + pass + ")")
	if err != nil {
		t.Fatal(err)
	}
	diags, err := pl.Run(m, RunConfig{})
	return m, diags, err
}

// runDescPass runs triton-rewrite-tensor-descriptor-to-pointer on src.
func runDescPass(t *testing.T, src string) (*ir.Module, ir.Diagnostics, error) {
	t.Helper()
	return runModulePass(t, "triton-rewrite-tensor-descriptor-to-pointer", src)
}

// runDescKernel runs @k(%in, %out: !tt.ptr<f32>, %n: i32) of m on two
// programs: in holds i*0.5-3, out starts at 100; it returns out.
func runDescKernel(t *testing.T, m *ir.Module, n int) []float64 {
	t.Helper()
	in, _ := interp.NewBuffer(ir.F32, n)
	out, _ := interp.NewBuffer(ir.F32, n)
	for i := range n {
		in.SetFloat(i, float64(i)*0.5-3)
		out.SetFloat(i, 100)
	}
	if err := interp.Run(m, "k", []interp.Arg{interp.BufArg(in), interp.BufArg(out), interp.IntArg(int64(n))}, [3]int{2, 1, 1}); err != nil {
		t.Fatalf("%v\n%s", err, m)
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = out.Float(i)
	}
	return vals
}

// TestRewriteTensorDescriptorSemantics checks kernels the lit test does
// not run: descriptor loads and stores partly out of bounds (rows past
// the tensor, a negative offset), NaN padding, a descriptor passed to a
// helper function, TritonGPU IR; each computes after the rewrite what it
// computes before (the interpreter evaluates descriptors as TMA does), and
// no !tt.tensordesc is left.
func TestRewriteTensorDescriptorSemantics(t *testing.T) {
	for _, c := range []struct{ name, src string }{
		{"masked-2d", `
tt.func public @k(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c8 = arith.constant 8 : i32
  %c8_64 = arith.constant 8 : i64
  %c1 = arith.constant 1 : i64
  %rows = arith.divsi %n, %c8 : i32
  %pid = tt.get_program_id x : i32
  %c3 = arith.constant 3 : i32
  %r0 = arith.muli %pid, %c3 : i32
  %cm2 = arith.constant -2 : i32
  %d = tt.make_tensor_descriptor %in, [%rows, %c8], [%c8_64, %c1] : <f32>, <tensor<4x8xf32>>
  %v = tt.descriptor_load %d[%r0, %cm2] : !tt.tensordesc<tensor<4x8xf32>> -> tensor<4x8xf32>
  %e = tt.make_tensor_descriptor %out, [%rows, %c8], [%c8_64, %c1] : <f32>, <tensor<4x8xf32>>
  %z = arith.constant 0 : i32
  tt.descriptor_store %e[%r0, %z], %v : !tt.tensordesc<tensor<4x8xf32>>, tensor<4x8xf32>
  tt.return
}`},
		{"nan-padding", `
tt.func public @k(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c1 = arith.constant 1 : i64
  %pid = tt.get_program_id x : i32
  %c16 = arith.constant 16 : i32
  %off = arith.muli %pid, %c16 : i32
  %c20 = arith.constant 20 : i32
  %d = tt.make_tensor_descriptor %in, [%c20], [%c1] {padding = 2 : i32} : <f32>, <tensor<16xf32>>
  %v = tt.descriptor_load %d[%off] : !tt.tensordesc<tensor<16xf32>> -> tensor<16xf32>
  %e = tt.make_tensor_descriptor %out, [%n], [%c1] : <f32>, <tensor<16xf32>>
  tt.descriptor_store %e[%off], %v : !tt.tensordesc<tensor<16xf32>>, tensor<16xf32>
  tt.return
}`},
		{"helper", `
tt.func private @get(%d: !tt.tensordesc<tensor<16xf32>>, %off: i32) -> tensor<16xf32> {
  %v = tt.descriptor_load %d[%off] : !tt.tensordesc<tensor<16xf32>> -> tensor<16xf32>
  tt.return %v : tensor<16xf32>
}
tt.func private @pass(%d: !tt.tensordesc<tensor<16xf32>>) -> !tt.tensordesc<tensor<16xf32>> {
  tt.return %d : !tt.tensordesc<tensor<16xf32>>
}
tt.func public @k(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c1 = arith.constant 1 : i64
  %pid = tt.get_program_id x : i32
  %c16 = arith.constant 16 : i32
  %off = arith.muli %pid, %c16 : i32
  %c24 = arith.constant 24 : i32
  %d = tt.make_tensor_descriptor %in, [%c24], [%c1] {padding = 2 : i32} : <f32>, <tensor<16xf32>>
  %d2 = tt.call @pass(%d) : (!tt.tensordesc<tensor<16xf32>>) -> !tt.tensordesc<tensor<16xf32>>
  %v = tt.call @get(%d2, %off) : (!tt.tensordesc<tensor<16xf32>>, i32) -> tensor<16xf32>
  %e = tt.make_tensor_descriptor %out, [%n], [%c1] : <f32>, <tensor<16xf32>>
  tt.descriptor_store %e[%off], %v : !tt.tensordesc<tensor<16xf32>>, tensor<16xf32>
  tt.return
}`},
		// TritonGPU IR: a descriptor for TMA (nvmma_shared), its tile in a
		// blocked layout, partly out of bounds.
		{"ttgir", `
#b = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func public @k(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c8 = arith.constant 8 : i32
  %c8_64 = arith.constant 8 : i64
  %c1 = arith.constant 1 : i64
  %rows = arith.divsi %n, %c8 : i32
  %pid = tt.get_program_id x : i32
  %c3 = arith.constant 3 : i32
  %r0 = arith.muli %pid, %c3 : i32
  %z = arith.constant 0 : i32
  %d = tt.make_tensor_descriptor %in, [%rows, %c8], [%c8_64, %c1] : <f32>, <tensor<4x16xf32, #s>>
  %v = tt.descriptor_load %d[%r0, %z] : !tt.tensordesc<tensor<4x16xf32, #s>> -> tensor<4x16xf32, #b>
  %e = tt.make_tensor_descriptor %out, [%rows, %c8], [%c8_64, %c1] : <f32>, <tensor<4x16xf32, #s>>
  tt.descriptor_store %e[%r0, %z], %v : !tt.tensordesc<tensor<4x16xf32, #s>>, tensor<4x16xf32, #b>
  tt.return
}
}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			before, d := ir.ParseString(c.src, ir.ParseConfig{Filename: "k.mlir"})
			if d.HasErrors() {
				t.Fatal(d)
			}
			want := runDescKernel(t, before, 32)
			m, diags, err := runDescPass(t, c.src)
			if err != nil {
				t.Fatalf("%v %v", err, diags)
			}
			var buf bytes.Buffer
			if err := ir.Print(&buf, m, ir.PrintConfig{}); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(buf.String(), "tensordesc") {
				t.Fatalf("a descriptor is left:\n%s", buf.String())
			}
			back, d := ir.Parse(buf.Bytes(), ir.ParseConfig{Filename: "out.mlir"})
			if d.HasErrors() || ir.Verify(back).HasErrors() {
				t.Fatalf("the output does not parse or verify: %v\n%s", d, buf.String())
			}
			got := runDescKernel(t, back, 32)
			nans := 0
			for i := range want {
				if math.IsNaN(want[i]) {
					nans++
				}
				if !(got[i] == want[i] || math.IsNaN(got[i]) && math.IsNaN(want[i])) {
					t.Fatalf("element %d: %g after the rewrite, %g before\n%s", i, got[i], want[i], buf.String())
				}
			}
			if (c.name == "nan-padding" || c.name == "helper") && nans == 0 {
				t.Errorf("no NaN read past the tensor: the NaN padding is not exercised")
			}
		})
	}
}

// TestRewriteTensorDescriptorRejects checks the located errors, and that
// the module is left unchanged.
func TestRewriteTensorDescriptorRejects(t *testing.T) {
	for _, c := range []struct{ name, src, msg string }{
		{"loop", `
tt.func public @k(%in: !tt.ptr<f32>, %n: i32) {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %d = tt.make_tensor_descriptor %in, [%n], [%c1] : <f32>, <tensor<16xf32>>
  %r = scf.for %i = %c0 to %n step %n iter_args(%a = %d) -> (!tt.tensordesc<tensor<16xf32>>)  : i32 {
    scf.yield %a : !tt.tensordesc<tensor<16xf32>>
  }
  tt.return
}`, "scf.for carries a tensor descriptor in a block argument"},
		{"rank-reducing", `
tt.func public @k(%in: !tt.ptr<f32>, %n: i32) {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %d = tt.make_tensor_descriptor %in, [%n, %n], [%c1, %c1] : <f32>, <tensor<1x16xf32>>
  %v = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<tensor<1x16xf32>> -> tensor<16xf32>
  tt.return
}`, "a tensor of rank 1 through a descriptor of rank 2"},
		{"indices", `
tt.func public @k(%in: !tt.ptr<f32>, %n: i32, %v: tensor<4x16xf32>) {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %d = tt.make_tensor_descriptor %in, [%n, %n], [%c1, %c1] : <f32>, <tensor<4x16xf32>>
  tt.descriptor_store %d[%c0], %v : !tt.tensordesc<tensor<4x16xf32>>, tensor<4x16xf32>
  tt.return
}`, "1 indices for a descriptor of rank 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m0, _ := ir.ParseString(c.src, ir.ParseConfig{Filename: "k.mlir"})
			var want bytes.Buffer
			ir.Print(&want, m0, ir.PrintConfig{})
			m, diags, err := runDescPass(t, c.src)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(fmt.Sprint(diags)+err.Error(), c.msg) {
				t.Errorf("error %v %v, want %q", err, diags, c.msg)
			}
			var got bytes.Buffer
			ir.Print(&got, m, ir.PrintConfig{})
			if got.String() != want.String() {
				t.Errorf("the module changed:\n%s", got.String())
			}
		})
	}
}

// FuzzRewriteTensorDescriptor runs the pass on any input that parses and
// verifies: it must not panic, and must leave IR that verifies (or an
// error and the module as it was).
func FuzzRewriteTensorDescriptor(f *testing.F) {
	f.Add(`tt.func public @k(%in: !tt.ptr<f32>, %n: i32) {
  %c1 = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %in, [%n], [%c1] : <f32>, <tensor<16xf32>>
  %v = tt.descriptor_load %d[%n] : !tt.tensordesc<tensor<16xf32>> -> tensor<16xf32>
  tt.descriptor_store %d[%n], %v : !tt.tensordesc<tensor<16xf32>>, tensor<16xf32>
  tt.return
}`)
	f.Add(`tt.func private @g(%d: !tt.tensordesc<tensor<2x4xi8>>) -> !tt.tensordesc<tensor<2x4xi8>> {
  tt.return %d : !tt.tensordesc<tensor<2x4xi8>>
}
tt.func public @k(%d: !tt.tensordesc<tensor<2x4xi8>>, %i: i32) {
  %e = tt.call @g(%d) : (!tt.tensordesc<tensor<2x4xi8>>) -> !tt.tensordesc<tensor<2x4xi8>>
  %v = tt.descriptor_load %e[%i, %i] : !tt.tensordesc<tensor<2x4xi8>> -> tensor<2x4xi8>
  tt.return
}`)
	f.Fuzz(func(t *testing.T, src string) {
		m, d := ir.ParseString(src, ir.ParseConfig{Filename: "fuzz.mlir"})
		if d.HasErrors() || ir.Verify(m).HasErrors() {
			return
		}
		var before bytes.Buffer
		if ir.Print(&before, m, ir.PrintConfig{}) != nil {
			return
		}
		pl, err := ParsePipeline("builtin.module(triton-rewrite-tensor-descriptor-to-pointer)")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pl.Run(m, RunConfig{}); err != nil {
			var after bytes.Buffer
			ir.Print(&after, m, ir.PrintConfig{})
			if after.String() != before.String() {
				t.Fatalf("an error (%v) and the module changed", err)
			}
			return
		}
		if d := ir.Verify(m); d.HasErrors() {
			t.Fatalf("the output does not verify: %v", d)
		}
	})
}

// TestRewriteTensorDescriptorLit runs the pass on every chunk of Triton's
// lit tests (../shared/triton36/lit) that parses, verifies and holds a
// tensor descriptor: each is rewritten into IR that verifies, or refused
// with a located error; none panics.
func TestRewriteTensorDescriptorLit(t *testing.T) {
	dir := testenv.SharedDir()
	if dir == "" {
		t.Skip("no ../shared")
	}
	var files []string
	filepath.WalkDir(filepath.Join(dir, "triton36", "lit"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".mlir") {
			files = append(files, p)
		}
		return nil
	})
	rewritten, refused := 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, chunk := range strings.Split(string(src), "\n// -----") {
			if !strings.Contains(chunk, "tensordesc") {
				continue
			}
			m, d := ir.ParseString(chunk, ir.ParseConfig{Filename: f})
			if d.HasErrors() || ir.Verify(m).HasErrors() {
				continue
			}
			pl, err := ParsePipeline("builtin.module(triton-rewrite-tensor-descriptor-to-pointer)")
			if err != nil {
				t.Fatal(err)
			}
			diags, err := pl.Run(m, RunConfig{})
			msg := fmt.Sprint(err, diags)
			switch {
			case err == nil:
				rewritten++
			case strings.Contains(msg, "internal error") || strings.Contains(msg, "does not verify"):
				t.Errorf("%s chunk %d: %s", filepath.Base(f), i+1, msg)
			default:
				refused++
			}
		}
	}
	t.Logf("%d chunks rewritten, %d refused with a located error", rewritten, refused)
	if rewritten == 0 {
		t.Error("no chunk was rewritten")
	}
}
