package interp_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

func parseText(t testing.TB, src string) *ir.Module {
	t.Helper()
	m, diags := ir.Parse([]byte(src), ir.ParseConfig{Filename: "test.mlir"})
	if diags.HasErrors() {
		t.Fatalf("%v\n%s", diags, src)
	}
	return m
}

// scalarKernel runs body (which defines %r of type ty) and returns what it
// stores.
func scalarKernel(t *testing.T, ty, body string) *interp.Buffer {
	t.Helper()
	src := fmt.Sprintf(`module {
  tt.func public @k(%%out: !tt.ptr<%s>) {
%s
    tt.store %%out, %%r : !tt.ptr<%s>
    tt.return
  }
}`, ty, body, ty)
	m := parseText(t, src)
	e, err := interp.ElemOf(ir.ElementType(mustType(t, ty)))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := interp.NewBuffer(e.Type, 1)
	if err := interp.Run(m, "k", []interp.Arg{interp.BufArg(out)}, [3]int{1, 1, 1}); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return out
}

func mustType(t *testing.T, ty string) ir.Type {
	m := parseText(t, fmt.Sprintf("module {\n tt.func public @f(%%a: %s) {\n tt.return\n }\n}", ty))
	return m.Body().First().Region(0).Entry().Arg(0).Type()
}

func TestIntegerSemantics(t *testing.T) {
	bin := func(op, ty string, a, b int64) string {
		return fmt.Sprintf("    %%a = arith.constant %d : %s\n    %%b = arith.constant %d : %s\n    %%r = %s %%a, %%b : %s", a, ty, b, ty, op, ty)
	}
	for _, c := range []struct {
		ty, body string
		want     int64
	}{
		{"i8", bin("arith.addi", "i8", 100, 100), -56},
		{"i8", bin("arith.muli", "i8", 16, 16), 0},
		{"i32", bin("arith.divsi", "i32", 7, 0), -1},
		{"i32", bin("arith.remsi", "i32", 7, 0), 7},
		{"i8", bin("arith.divsi", "i8", -128, -1), -128},
		{"i8", bin("arith.remsi", "i8", -128, -1), 0},
		{"i8", bin("arith.divui", "i8", -1, 2), 127},
		{"i8", bin("arith.remui", "i8", -1, 16), 15},
		{"i8", bin("arith.shli", "i8", 1, 8), 0},
		{"i8", bin("arith.shli", "i8", 1, 7), -128},
		{"i8", bin("arith.shrsi", "i8", -128, 9), -1},
		{"i8", bin("arith.shrui", "i8", -128, 1), 64},
		{"i32", bin("arith.ceildivsi", "i32", -7, 2), -3},
		{"i32", bin("arith.ceildivsi", "i32", 7, 2), 4},
		{"i32", bin("arith.floordivsi", "i32", -7, 2), -4},
		{"i32", bin("arith.floordivsi", "i32", 7, 2), 3},
		{"i8", bin("arith.maxui", "i8", -1, 1), -1},
		{"i8", bin("arith.minsi", "i8", -1, 1), -1},
		{"i32", bin("tt.mulhiui", "i32", -1, 2), 1},
		{"i64", bin("tt.mulhiui", "i64", -1, -1), -2},
		{"i32", "    %a = arith.constant true\n    %r = arith.extui %a : i1 to i32", 1},
		{"i32", "    %a = arith.constant true\n    %r = arith.extsi %a : i1 to i32", -1},
		{"i8", "    %a = arith.constant 300 : i32\n    %r = arith.trunci %a : i32 to i8", 44},
		{"i32", "    %a = arith.constant 1.0e10 : f32\n    %r = arith.fptosi %a : f32 to i32", math.MaxInt32},
		{"i32", "    %a = arith.constant -1.0e10 : f32\n    %r = arith.fptosi %a : f32 to i32", math.MinInt32},
		{"i32", "    %a = arith.constant 0x7FC00000 : f32\n    %r = arith.fptosi %a : f32 to i32", 0},
		{"i32", "    %a = arith.constant -5.5 : f32\n    %r = arith.fptoui %a : f32 to i32", 0},
		{"i32", "    %a = arith.constant -7.9 : f32\n    %r = arith.fptosi %a : f32 to i32", -7},
		{"i32", "    %a = arith.constant 1.0 : f32\n    %r = tt.bitcast %a : f32 -> i32", 0x3f800000},
		{"i1", "    %a = arith.constant 3 : i32\n    %b = arith.constant -1 : i32\n    %r = arith.cmpi ult, %a, %b : i32", -1},
		{"i1", "    %a = arith.constant 3 : i32\n    %b = arith.constant -1 : i32\n    %r = arith.cmpi slt, %a, %b : i32", 0},
	} {
		if got := scalarKernel(t, c.ty, c.body).Int(0); got != c.want {
			t.Errorf("%s\n  = %d, want %d", c.body, got, c.want)
		}
	}
}

func TestFloatSemantics(t *testing.T) {
	for _, c := range []struct {
		ty, body string
		want     float64
	}{
		{"f32", "    %a = arith.constant 9007199254740993 : i64\n    %r = arith.sitofp %a : i64 to f32", 0x1p53},
		{"f32", "    %a = arith.constant -1 : i32\n    %r = arith.uitofp %a : i32 to f32", 0x1p32},
		{"f16", "    %a = arith.constant 65520.0 : f32\n    %r = arith.truncf %a : f32 to f16", math.Inf(1)},
		{"f16", "    %a = arith.constant 1.00048828125 : f32\n    %r = arith.truncf %a : f32 to f16", 1},
		{"bf16", "    %a = arith.constant 1.01171875 : f32\n    %r = arith.truncf %a : f32 to bf16", 1.015625},
		{"f8E4M3FN", "    %a = arith.constant 1000.0 : f32\n    %r = tt.fp_to_fp %a, rounding = rtne : f32 -> f8E4M3FN", 448},
		{"f8E5M2", "    %a = arith.constant 1.375 : f32\n    %r = tt.fp_to_fp %a, rounding = rtz : f32 -> f8E5M2", 1.25},
		{"f16", "    %a = arith.constant 2050.0 : f16\n    %b = arith.constant 1.0 : f16\n    %r = arith.addf %a, %b : f16", 2052},
		{"f16", "    %a = arith.constant 2048.0 : f16\n    %b = arith.constant 1.0 : f16\n    %r = arith.addf %a, %b : f16", 2048},
		{"f32", "    %a = arith.constant 0x7FC00000 : f32\n    %b = arith.constant 1.0 : f32\n    %r = arith.maxnumf %a, %b : f32", 1},
		{"f32", "    %a = arith.constant 0x7FC00000 : f32\n    %b = arith.constant 1.0 : f32\n    %r = arith.maximumf %a, %b : f32", math.NaN()},
		{"f32", "    %a = arith.constant 2.0 : f32\n    %r = math.rsqrt %a : f32", float64(float32(1 / math.Sqrt2))},
	} {
		got := scalarKernel(t, c.ty, c.body).Float(0)
		if !(got == c.want || math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("%s\n  = %g, want %g", c.body, got, c.want)
		}
	}
}

const reduceKernel = `module {
  tt.func public @k(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %i = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %q = tt.addptr %p, %i : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    %x = tt.load %q : tensor<4x!tt.ptr<f32>>
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<4xf32>) -> f32
    %t = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %one = arith.constant 1.0 : f32
      %a1 = arith.mulf %a, %one : f32
      %c = arith.addf %a1, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<4xf32>) -> f32
    %u = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.scan.return %c : f32
    }) : (tensor<4xf32>) -> tensor<4xf32>
    %o1 = tt.addptr %out, %i4 : !tt.ptr<f32>, i32
    %i4 = arith.constant 1 : i32
    tt.store %out, %s : !tt.ptr<f32>
    tt.store %o1, %t : !tt.ptr<f32>
    %r = tt.splat %out : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %r1 = tt.addptr %r, %i : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    %c2 = arith.constant dense<2> : tensor<4xi32>
    %r2 = tt.addptr %r1, %c2 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %r2, %u : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}`

// TestReduceOrder checks the documented orders: the reduction's halving
// tree ((x0+x2) + (x1+x3)) on values where the sequential order gives
// another result, in both the fast path (one-op region) and the general
// one, and the sequential scan.
func TestReduceOrder(t *testing.T) {
	m := parseText(t, strings.Replace(reduceKernel, "    %o1 = tt.addptr %out, %i4 : !tt.ptr<f32>, i32\n    %i4 = arith.constant 1 : i32\n", "    %i4 = arith.constant 1 : i32\n    %o1 = tt.addptr %out, %i4 : !tt.ptr<f32>, i32\n", 1))
	in, _ := interp.NewBuffer(ir.F32, 4)
	for i, v := range []float64{1e8, 1, -1e8, 1} {
		in.SetFloat(i, v)
	}
	out, _ := interp.NewBuffer(ir.F32, 6)
	if err := interp.Run(m, "k", []interp.Arg{interp.BufArg(in), interp.BufArg(out)}, [3]int{1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	// sequential: ((1e8 + 1) - 1e8) + 1 = 1; tree: (1e8 - 1e8) + (1 + 1) = 2
	if out.Float(0) != 2 || out.Float(1) != 2 {
		t.Errorf("reductions = %g, %g; want 2, 2 (the halving tree)", out.Float(0), out.Float(1))
	}
	// scan: 1e8, 1e8 (1e8+1 rounds to 1e8 in f32), 0, 1
	for i, want := range []float64{1e8, 1e8, 0, 1} {
		if got := out.Float(2 + i); got != want {
			t.Errorf("scan[%d] = %g, want %g", i, got, want)
		}
	}
}

const addKernel = `module {
  tt.func public @add(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
    %pid = tt.get_program_id x : i32
    %c = arith.constant 64 : i32
    %base = arith.muli %pid, %c : i32
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %b = tt.splat %base : i32 -> tensor<64xi32>
    %off = arith.addi %b, %r : tensor<64xi32>
    %nn = tt.splat %n : i32 -> tensor<64xi32>
    %mask = arith.cmpi slt, %off, %nn : tensor<64xi32>
    %px = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %qx = tt.addptr %px, %off : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %vx = tt.load %qx, %mask : tensor<64x!tt.ptr<f32>>
    %py = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %qy = tt.addptr %py, %off : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %vy = tt.load %qy, %mask : tensor<64x!tt.ptr<f32>>
    %s = arith.addf %vx, %vy : tensor<64xf32>
    %po = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %qo = tt.addptr %po, %off : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %qo, %s, %mask : tensor<64x!tt.ptr<f32>>
    tt.return
  }
}`

func addArgs(n, size int) ([]interp.Arg, *interp.Buffer) {
	x, _ := interp.NewBuffer(ir.F32, size)
	y, _ := interp.NewBuffer(ir.F32, size)
	out, _ := interp.NewBuffer(ir.F32, size)
	for i := 0; i < size; i++ {
		x.SetFloat(i, float64(i))
		y.SetFloat(i, 0.5)
	}
	return []interp.Arg{interp.BufArg(x), interp.BufArg(y), interp.BufArg(out), interp.IntArg(int64(n))}, out
}

// TestOutOfBounds: an unmasked access outside a buffer is an error located
// at the load, naming the buffer and the program; a masked one is not.
func TestOutOfBounds(t *testing.T) {
	m := parseText(t, addKernel)
	args, out := addArgs(100, 100)
	if err := interp.Run(m, "add", args, [3]int{2, 1, 1}); err != nil {
		t.Fatalf("masked tail: %v", err)
	}
	if got := out.Float(99); got != 99.5 {
		t.Errorf("out[99] = %g, want 99.5", got)
	}
	args, _ = addArgs(128, 100) // n says 128, the buffers hold 100
	err := interp.Run(m, "add", args, [3]int{2, 1, 1})
	var e *interp.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want an *interp.Error", err)
	}
	if e.Op != "tt.load" || e.Pos.Line != 13 || e.PID != [3]int{1, 0, 0} || !strings.Contains(e.Msg, "out-of-bounds") || !strings.Contains(e.Msg, "argument 0") {
		t.Errorf("error = %v", err)
	}
	if !strings.HasPrefix(err.Error(), "test.mlir:13:11: error: 'tt.load' op element [36]: out-of-bounds access: byte offset 400 of buffer 0 (argument 0)") {
		t.Errorf("message = %q", err.Error())
	}
}

// TestOpTable: an op without an evaluator is a located error naming it,
// and a program can add its own evaluators.
func TestOpTable(t *testing.T) {
	m := parseText(t, addKernel)
	args, out := addArgs(64, 64)
	mem := &interp.BufferMemory{}
	mc := interp.NewMachine(m, mem)
	vals, err := interp.BindArgs(mc.Func("add"), args, mem)
	if err != nil {
		t.Fatal(err)
	}
	delete(mc.Ops, "arith.addf")
	err = mc.Launch("add", vals, [3]int{1, 1, 1})
	if err == nil || !strings.Contains(err.Error(), "test.mlir:17:10: error: 'arith.addf' op the interpreter does not implement this op") {
		t.Fatalf("got %v", err)
	}
	// An evaluator of one's own: addf as subtraction.
	mc.Ops["arith.addf"] = func(ex *interp.Exec, op *ir.Operation, args []interp.Value) ([]interp.Value, error) {
		a, b := args[0].(*interp.Tensor), args[1].(*interp.Tensor)
		r := interp.NewTensor(a.Elem, a.Shape)
		for i := range r.F {
			r.F[i] = a.F[i] - b.F[i]
		}
		return []interp.Value{r}, nil
	}
	if err := mc.Launch("add", vals, [3]int{1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	if got := out.Float(3); got != 2.5 {
		t.Errorf("out[3] = %g, want 3 - 0.5", got)
	}
}

// TestHarnessSeesChanges: the pass check of TestEveryPassEveryFile notices
// a change of what a kernel computes, and only that.
func TestHarnessSeesChanges(t *testing.T) {
	src := string(readFile(t, "triton36/ttgir/softmax_b1024_sm90_w4.ttgir"))
	run := func(s string) *interp.LazyMemory {
		mem, err := runKernel(parseText(t, s), 1)
		if err != nil {
			t.Fatal(err)
		}
		return mem
	}
	base := run(src)
	if base.NumWritten() == 0 {
		t.Fatal("the kernel wrote nothing")
	}
	if d := diffWrites(base, run(src)); d != "" {
		t.Errorf("same kernel: %s", d)
	}
	changed := strings.Replace(src, "arith.divf %num, %5", "arith.divf %5, %num", 1)
	if changed == src {
		t.Fatal("no divf to change")
	}
	if d := diffWrites(base, run(changed)); d == "" {
		t.Error("a changed kernel writes the same bytes")
	}
	masked := strings.Replace(src, "tt.store %3, %6, %x_0", "tt.store %3, %6", 1)
	if d := diffWrites(base, run(masked)); d == "" {
		t.Error("a kernel without its store mask writes the same bytes")
	}
}

// TestRunWith: options reach the machine (progress after each program,
// the work bound).
func TestRunWith(t *testing.T) {
	m := parseText(t, addKernel)
	args, _ := addArgs(256, 256)
	var calls []int
	opts := interp.Options{Progress: func(done, total int) {
		if total != 4 {
			t.Errorf("total = %d, want 4", total)
		}
		calls = append(calls, done)
	}}
	if err := interp.RunWith(m, "add", args, [3]int{4, 1, 1}, opts); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(calls) != "[1 2 3 4]" {
		t.Errorf("progress calls %v", calls)
	}
	err := interp.RunWith(m, "add", args, [3]int{4, 1, 1}, interp.Options{MaxWork: 500})
	if err == nil || !strings.Contains(err.Error(), "more than 500 elements") {
		t.Errorf("work bound: %v", err)
	}
}
