package passes

import (
	"bytes"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// rewriteTensorPointers runs triton-rewrite-tensor-pointer on src and
// returns the module printed and parsed again, with the diagnostics.
func rewriteTensorPointers(t *testing.T, src string) (*ir.Module, ir.Diagnostics, error) {
	t.Helper()
	m, diags, err := runModulePass(t, "triton-rewrite-tensor-pointer", src)
	if err != nil {
		return m, diags, err
	}
	var buf bytes.Buffer
	if err := ir.Print(&buf, m, ir.PrintConfig{}); err != nil {
		t.Fatal(err)
	}
	back, d := ir.Parse(buf.Bytes(), ir.ParseConfig{Filename: "out.mlir"})
	if d.HasErrors() {
		t.Fatalf("the output does not parse: %v\n%s", d, buf.String())
	}
	if d := ir.Verify(back); d.HasErrors() {
		t.Fatalf("the output does not verify: %v\n%s", d, buf.String())
	}
	return back, diags, nil
}

// runBlockPtrKernel runs kernel @k(%in, %out: !tt.ptr<ELEM>, %n: i32) of m
// on an input of n elements i*0.5-3 (i%7 for integers) and returns out's n
// elements, which start as 100.
func runBlockPtrKernel(t *testing.T, m *ir.Module, elem ir.Type, n int, arg int64) []float64 {
	t.Helper()
	in, _ := interp.NewBuffer(elem, n)
	out, _ := interp.NewBuffer(elem, n)
	_, isInt := elem.(*ir.IntegerType)
	for i := range n {
		if isInt {
			in.SetInt(i, int64(i%7))
		} else {
			in.SetFloat(i, float64(i)*0.5-3)
		}
	}
	for i := range n {
		if isInt {
			out.SetInt(i, 100)
		} else {
			out.SetFloat(i, 100)
		}
	}
	if err := interp.Run(m, "k", []interp.Arg{interp.BufArg(in), interp.BufArg(out), interp.IntArg(arg)}, [3]int{2, 1, 1}); err != nil {
		t.Fatalf("%v\n%s", err, m)
	}
	vals := make([]float64, n)
	for i := range vals {
		if isInt {
			vals[i] = float64(out.Int(i))
		} else {
			vals[i] = out.Float(i)
		}
	}
	return vals
}

// Kernels the lit test does not cover: each is rewritten, the output has
// no block pointer left, and it computes what the block-pointer kernel
// computes (the interpreter evaluates block pointers as Triton's rewrite
// defines them).
func TestRewriteTensorPointerSemantics(t *testing.T) {
	f32 := ir.F32
	for _, c := range []struct {
		name, src string
		elem      ir.Type
		n         int
		want      []string // in the output
	}{
		{"rank1", `
tt.func public @k(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c1 = arith.constant 1 : i64
  %pid = tt.get_program_id x : i32
  %c16 = arith.constant 16 : i32
  %off = arith.muli %pid, %c16 : i32
  %n64 = arith.extsi %n : i32 to i64
  %p = tt.make_tensor_ptr %in, [%n64], [%c1], [%off] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  %v = tt.load %p {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16xf32>>
  %q = tt.make_tensor_ptr %out, [%n64], [%c1], [%off] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  tt.store %q, %v {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  tt.return
}`, f32, 32, []string{"tt.broadcast %{{.*}} : tensor<16xi64> -> tensor<16xi64>", "arith.constant 0.000000e+00 : f32"}},
		// A 2x4x8 block of a 3x5x8 tensor (strides 40, 8, 1), checked
		// in dims 0 and 1; program 1 starts at (1, 2, 0).
		{"rank3", `
tt.func public @k(%in: !tt.ptr<f16>, %out: !tt.ptr<f16>, %n: i32) {
  %c1 = arith.constant 1 : i64
  %c3 = arith.constant 3 : i64
  %c5 = arith.constant 5 : i64
  %c8 = arith.constant 8 : i64
  %c40 = arith.constant 40 : i64
  %z = arith.constant 0 : i32
  %pid = tt.get_program_id x : i32
  %c2 = arith.constant 2 : i32
  %o1 = arith.muli %pid, %c2 : i32
  %p = tt.make_tensor_ptr %in, [%c3, %c5, %c8], [%c40, %c8, %c1], [%pid, %o1, %z] {order = array<i32: 2, 1, 0>} : !tt.ptr<tensor<2x4x8xf16>>
  %v = tt.load %p {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<2x4x8xf16>>
  %q = tt.make_tensor_ptr %out, [%c3, %c5, %c8], [%c40, %c8, %c1], [%pid, %o1, %z] {order = array<i32: 2, 1, 0>} : !tt.ptr<tensor<2x4x8xf16>>
  tt.store %q, %v {boundaryCheck = array<i32: 1, 0>} : !tt.ptr<tensor<2x4x8xf16>>
  tt.return
}`, ir.F16, 120, []string{"tensor<2xi64> -> tensor<2x1xi64>", "tensor<2x1xi64> -> tensor<2x1x1xi64>",
			"{axis = 0 : i32} : tensor<4xi64> -> tensor<1x4xi64>", "{axis = 2 : i32} : tensor<1x4xi64> -> tensor<1x4x1xi64>",
			"{axis = 1 : i32} : tensor<1x8xi64> -> tensor<1x1x8xi64>", "arith.constant 0x7E00 : f16",
			"arith.andi %{{.*}}, %{{.*}} : tensor<2x4x8xi1>"}},
		// No padding: a masked load without other (masked-off elements
		// read 0); no boundaryCheck: no mask, and no other even with a
		// padding attribute.
		{"no-padding", `
tt.func public @k(%in: !tt.ptr<i32>, %out: !tt.ptr<i32>, %n: i32) {
  %c1 = arith.constant 1 : i64
  %pid = tt.get_program_id x : i32
  %c16 = arith.constant 16 : i32
  %off = arith.muli %pid, %c16 : i32
  %c5 = arith.constant 5 : i32
  %off2 = arith.addi %off, %c5 : i32
  %n64 = arith.extsi %n : i32 to i64
  %p = tt.make_tensor_ptr %in, [%n64], [%c1], [%off] {order = array<i32: 0>} : !tt.ptr<tensor<16xi32>>
  %v = tt.load %p {boundaryCheck = array<i32: 0>, cache = 2 : i32} : !tt.ptr<tensor<16xi32>>
  %p2 = tt.advance %p, [%c5] : !tt.ptr<tensor<16xi32>>
  %w = tt.load %p2 {padding = 1 : i32} : !tt.ptr<tensor<16xi32>>
  %s = arith.addi %v, %w : tensor<16xi32>
  %q = tt.make_tensor_ptr %out, [%n64], [%c1], [%off] {order = array<i32: 0>} : !tt.ptr<tensor<16xi32>>
  tt.store %q, %s : !tt.ptr<tensor<16xi32>>
  tt.return
}`, ir.I32, 64, []string{"tt.load %{{.*}}, %{{.*}} cacheModifier = ca : tensor<16x!tt.ptr<i32>>", "tt.load %{{[0-9]+}} : tensor<16x!tt.ptr<i32>>"}},
		// A block pointer through scf.if inside a loop, and out of it.
		{"if", `
tt.func public @k(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c1 = arith.constant 1 : i64
  %c8 = arith.constant 8 : i64
  %c40 = arith.constant 40 : i64
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %pid = tt.get_program_id x : i32
  %cst = arith.constant dense<0.0> : tensor<4x8xf32>
  %p = tt.make_tensor_ptr %in, [%c40, %c8], [%c8, %c1], [%pid, %z] {order = array<i32: 1, 0>} : !tt.ptr<tensor<4x8xf32>>
  %r:2 = scf.for %i = %z to %c4 step %one iter_args(%acc = %cst, %bp = %p) -> (tensor<4x8xf32>, !tt.ptr<tensor<4x8xf32>>) : i32 {
    %v = tt.load %bp {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<4x8xf32>>
    %a = arith.addf %acc, %v : tensor<4x8xf32>
    %odd = arith.andi %i, %one : i32
    %c = arith.cmpi ne, %odd, %z : i32
    %nb = scf.if %c -> (!tt.ptr<tensor<4x8xf32>>) {
      %x = tt.advance %bp, [%c3, %one] : !tt.ptr<tensor<4x8xf32>>
      scf.yield %x : !tt.ptr<tensor<4x8xf32>>
    } else {
      %x = tt.advance %bp, [%c4, %z] : !tt.ptr<tensor<4x8xf32>>
      scf.yield %x : !tt.ptr<tensor<4x8xf32>>
    }
    scf.yield %a, %nb : tensor<4x8xf32>, !tt.ptr<tensor<4x8xf32>>
  }
  %w = tt.load %r#1 {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<4x8xf32>>
  %s = arith.addf %r#0, %w : tensor<4x8xf32>
  %q = tt.make_tensor_ptr %out, [%c40, %c8], [%c8, %c1], [%pid, %z] {order = array<i32: 1, 0>} : !tt.ptr<tensor<4x8xf32>>
  tt.store %q, %s : !tt.ptr<tensor<4x8xf32>>
  tt.return
}`, f32, 320, []string{"scf.if %{{.*}} -> (i64, i64)", "scf.yield %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xf32>, i64, i64"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			orig, d := ir.ParseString(c.src, ir.ParseConfig{})
			if d.HasErrors() {
				t.Fatal(d)
			}
			m, diags, err := rewriteTensorPointers(t, c.src)
			if err != nil {
				t.Fatalf("%v: %v", err, diags)
			}
			out := m.String()
			for _, bad := range []string{"tt.make_tensor_ptr", "tt.advance", "!tt.ptr<tensor"} {
				if strings.Contains(out, bad) {
					t.Errorf("%s left in\n%s", bad, out)
				}
			}
			for _, w := range c.want {
				if !containsPattern(out, w) {
					t.Errorf("no %q in\n%s", w, out)
				}
			}
			for _, n := range []int64{int64(c.n), int64(c.n) - 7, 3} {
				want := runBlockPtrKernel(t, orig, c.elem, c.n, n)
				got := runBlockPtrKernel(t, m, c.elem, c.n, n)
				for i := range want {
					if want[i] != got[i] && !(want[i] != want[i] && got[i] != got[i]) {
						t.Fatalf("n=%d: out[%d] = %v after the pass, %v before", n, i, got[i], want[i])
					}
				}
			}
		})
	}
}

// containsPattern reports whether s contains pattern, where each
// %{{.*}} / %{{[0-9]+}} stands for one SSA name.
func containsPattern(s, pattern string) bool {
	parts := strings.FieldsFunc(strings.NewReplacer("%{{.*}}", "\x00", "%{{[0-9]+}}", "\x00").Replace(pattern), func(r rune) bool { return r == 0 })
	for _, line := range strings.Split(s, "\n") {
		rest, ok := line, true
		for i, p := range parts {
			j := strings.Index(rest, p)
			if j < 0 || i > 0 && !isSSAName(rest[:j]) {
				ok = false
				break
			}
			rest = rest[j+len(p):]
		}
		if ok {
			return true
		}
	}
	return false
}

func isSSAName(s string) bool {
	if !strings.HasPrefix(s, "%") || len(s) < 2 {
		return false
	}
	return !strings.ContainsAny(s, " ,:")
}

// Block pointers the rewrite does not handle: a located error, and the
// module left as it was.
func TestRewriteTensorPointerRejects(t *testing.T) {
	for _, c := range []struct{ name, src, line, msg string }{
		{"argument", `
tt.func public @k(%p: !tt.ptr<tensor<16xf32>>) {
  %v = tt.load %p : !tt.ptr<tensor<16xf32>>
  tt.return
}`, "k.mlir:2:", "block argument 0 of tt.func is a block pointer"},
		{"encoding", `
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func public @k(%in: !tt.ptr<f32>) {
  %c1 = arith.constant 1 : i64
  %z = arith.constant 0 : i32
  %p = tt.make_tensor_ptr %in, [%c1], [%c1], [%z] {order = array<i32: 0>} : !tt.ptr<tensor<128xf32, #b>>
  %v = tt.load %p : !tt.ptr<tensor<128xf32, #b>>
  tt.return
}
}`, "k.mlir:7:", "has a layout encoding"},
		{"call", `
tt.func private @g(%p: !tt.ptr<tensor<16xf32>>) {
  tt.return
}
tt.func public @k(%in: !tt.ptr<f32>) {
  %c1 = arith.constant 1 : i64
  %z = arith.constant 0 : i32
  %p = tt.make_tensor_ptr %in, [%c1], [%c1], [%z] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  tt.call @g(%p) : (!tt.ptr<tensor<16xf32>>) -> ()
  tt.return
}`, "k.mlir:2:", "block argument 0 of tt.func"},
		{"use", `
tt.func public @k(%in: !tt.ptr<f32>) -> !tt.ptr<tensor<16xf32>> {
  %c1 = arith.constant 1 : i64
  %z = arith.constant 0 : i32
  %p = tt.make_tensor_ptr %in, [%c1], [%c1], [%z] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  tt.return %p : !tt.ptr<tensor<16xf32>>
}`, "k.mlir:6:", "operand 0 of tt.return is a block pointer"},
		{"nan-int", `
tt.func public @k(%in: !tt.ptr<i32>) {
  %c1 = arith.constant 1 : i64
  %z = arith.constant 0 : i32
  %p = tt.make_tensor_ptr %in, [%c1], [%c1], [%z] {order = array<i32: 0>} : !tt.ptr<tensor<16xi32>>
  %v = tt.load %p {boundaryCheck = array<i32: 0>, padding = 2 : i32} : !tt.ptr<tensor<16xi32>>
  tt.return
}`, "k.mlir:6:", "NaN padding of i32 elements"},
		{"two-origins", `
tt.func public @k(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: i1) {
  %c1 = arith.constant 1 : i64
  %z = arith.constant 0 : i32
  %p = tt.make_tensor_ptr %a, [%c1], [%c1], [%z] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  %q = tt.make_tensor_ptr %b, [%c1], [%c1], [%z] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  %r = scf.if %c -> (!tt.ptr<tensor<16xf32>>) {
    scf.yield %p : !tt.ptr<tensor<16xf32>>
  } else {
    scf.yield %q : !tt.ptr<tensor<16xf32>>
  }
  %v = tt.load %r : !tt.ptr<tensor<16xf32>>
  tt.return
}`, "k.mlir:7:", "made by different tt.make_tensor_ptr ops"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, diags, err := rewriteTensorPointers(t, c.src)
			if err == nil {
				t.Fatalf("no error; got\n%s", m)
			}
			var s string
			for _, d := range diags {
				s += d.String() + "\n"
			}
			if !strings.Contains(s, c.line) || !strings.Contains(s, c.msg) {
				t.Errorf("diagnostics %q: want %s ... %s", s, c.line, c.msg)
			}
			if !strings.Contains(m.String(), "tt.make_tensor_ptr") && strings.Contains(c.src, "tt.make_tensor_ptr") {
				t.Errorf("the module was changed:\n%s", m)
			}
		})
	}
}
