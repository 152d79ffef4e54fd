package opgen_test

import (
	"slices"
	"testing"

	"github.com/layoutopt/layoutopt/dialect/arith"
	"github.com/layoutopt/layoutopt/dialect/scf"
	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/dialect/ttg"
	"github.com/layoutopt/layoutopt/ir"
)

const accessorSrc = `#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>, %n: i32, %c: i1) -> f32 {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %s, %r : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<512xi32, #blocked>
    %v0 = tt.load %a : tensor<512x!tt.ptr<f32>, #blocked>
    %v1 = tt.load %a, %m cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<512x!tt.ptr<f32>, #blocked>
    %cv = ttg.convert_layout %v1 : tensor<512xf32, #blocked> -> tensor<512xf32, #blocked1>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %v0, %k = %c0) -> (tensor<512xf32, #blocked>, i32)  : i32 {
      %y = arith.addf %x, %x : tensor<512xf32, #blocked>
      %k1 = arith.addi %k, %i : i32
      scf.yield %y, %k1 : tensor<512xf32, #blocked>, i32
    }
    %t = scf.if %c -> (f32) {
      %z = arith.constant 1.0 : f32
      scf.yield %z : f32
    } else {
      %z = arith.constant 2.0 : f32
      scf.yield %z : f32
    }
    %sum = "tt.reduce"(%acc#0) <{axis = 0 : i32}> ({
    ^bb0(%e: f32, %f: f32):
      %g = arith.addf %e, %f : f32
      tt.reduce.return %g : f32
    }) : (tensor<512xf32, #blocked>) -> f32
    tt.return %sum : f32
  }
}
`

func parseOps(t *testing.T) map[string][]*ir.Operation {
	t.Helper()
	m, diags := ir.ParseString(accessorSrc, ir.ParseConfig{Filename: "accessors.mlir"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if d := ir.Verify(m); len(d) > 0 {
		t.Fatal(d)
	}
	ops := map[string][]*ir.Operation{}
	m.Walk(func(op *ir.Operation) ir.WalkResult {
		ops[op.Name()] = append(ops[op.Name()], op)
		return ir.Advance
	})
	return ops
}

func TestAccessorsLoad(t *testing.T) {
	ops := parseOps(t)
	loads := ops["tt.load"]
	plain, ok := tt.AsLoad(loads[0])
	if !ok {
		t.Fatal("AsLoad(tt.load) failed")
	}
	if _, ok := tt.AsLoad(ops["tt.splat"][0]); ok {
		t.Error("AsLoad(tt.splat) succeeded")
	}
	if _, ok := tt.AsLoad(nil); ok {
		t.Error("AsLoad(nil) succeeded")
	}
	addptr := ops["tt.addptr"][0]
	if plain.Ptr() != addptr.Result(0) || plain.Mask() != nil || plain.Other() != nil || plain.ResultValue() != loads[0].Result(0) {
		t.Error("plain load: wrong operands or result")
	}
	// Absent attributes read as their declared defaults.
	if plain.Cache() != 1 || plain.CacheName() != "none" || plain.CacheAttr() != nil ||
		plain.EvictName() != "evict_normal" || plain.IsVolatile() || plain.BoundaryCheck() == nil || len(plain.BoundaryCheck()) != 0 ||
		plain.Padding() != nil {
		t.Errorf("plain load defaults: cache %d %q %v, evict %q, volatile %v, boundaryCheck %v",
			plain.Cache(), plain.CacheName(), plain.CacheAttr(), plain.EvictName(), plain.IsVolatile(), plain.BoundaryCheck())
	}
	masked, _ := tt.AsLoad(loads[1])
	cmp, _ := arith.AsCmpI(ops["arith.cmpi"][0])
	if masked.Mask() != cmp.ResultValue() || masked.Other() != nil {
		t.Error("masked load: Mask is not the cmpi result")
	}
	if masked.Cache() != 2 || masked.CacheName() != "ca" || masked.CacheAttr() == nil || masked.EvictName() != "evict_last" || !masked.IsVolatile() {
		t.Errorf("masked load: cache %d %q, evict %q, volatile %v", masked.Cache(), masked.CacheName(), masked.EvictName(), masked.IsVolatile())
	}
	if cmp.PredicateName() != "slt" {
		t.Errorf("cmpi predicate = %q", cmp.PredicateName())
	}
	r, _ := tt.AsMakeRange(ops["tt.make_range"][0])
	if r.Start() != 0 || r.End() != 512 {
		t.Errorf("make_range: %d..%d", r.Start(), r.End())
	}
}

func TestAccessorsConvertLayoutAndRegions(t *testing.T) {
	ops := parseOps(t)
	cv, ok := ttg.AsConvertLayout(ops["ttg.convert_layout"][0])
	if !ok || cv.Src() != ops["tt.load"][1].Result(0) || cv.ResultValue() != cv.Result(0) {
		t.Error("convert_layout: Src is not the masked load")
	}

	f, _ := scf.AsFor(ops["scf.for"][0])
	consts := ops["arith.constant"]
	if f.LowerBound() != consts[0].Result(0) || f.Step() != consts[1].Result(0) {
		t.Error("for: wrong bounds")
	}
	if got := f.InitArgs(); len(got) != 2 || got[0] != ops["tt.load"][0].Result(0) || got[1] != consts[0].Result(0) {
		t.Errorf("for: InitArgs = %v", got)
	}
	if len(f.ResultsValue()) != 2 || f.RegionRegion() != f.Region(0) || f.UnsignedCmp() {
		t.Error("for: wrong results, region or unsignedCmp")
	}
	y, _ := scf.AsYield(ops["scf.yield"][0])
	if len(y.ResultsValue()) != 2 {
		t.Errorf("yield: %d values", len(y.ResultsValue()))
	}

	i, _ := scf.AsIf(ops["scf.if"][0])
	if i.ThenRegion() != i.Region(0) || i.ElseRegion() != i.Region(1) || len(i.ResultsValue()) != 1 {
		t.Error("if: wrong regions or results")
	}

	red, _ := tt.AsReduce(ops["tt.reduce"][0])
	if red.Axis() != 0 || red.CombineOp() != red.Region(0) || len(red.Srcs()) != 1 || red.AxisAttr() == nil {
		t.Error("reduce: wrong axis, region or operands")
	}

	fn, _ := tt.AsFunc(ops["tt.func"][0])
	ft, ok := fn.FunctionType().(*ir.FunctionType)
	if fn.SymName() != "k" || fn.SymVisibility() != "public" || !ok || len(ft.Inputs) != 3 || fn.Body() != fn.Region(0) {
		t.Errorf("func: name %q, visibility %q, type %v", fn.SymName(), fn.SymVisibility(), fn.FunctionType())
	}
	ret, _ := tt.AsReturn(ops["tt.return"][0])
	if got := ret.Srcs(); !slices.Equal(got, []*ir.Value{red.Result(0)}) {
		t.Errorf("return: %v", got)
	}
}
