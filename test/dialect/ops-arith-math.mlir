// The custom syntax of the arith and math ops: constants of every kind,
// integer and float arithmetic, comparisons with their predicate keywords,
// select, casts with "to", and math functions. Each prints back as written,
// printing is a fixed point, and the generic form reads back.

// RUN: layout-opt -keep-ssa-names %s | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | layout-opt -keep-ssa-names | FileCheck %s
// RUN: layout-opt -keep-ssa-names %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Predicates are integers in generic form (slt = 2, uge = 9, ogt = 2, une = 13;
// MLIR types them i64, see i64-attributes.mlir).
// GENERIC: %c = "arith.constant"() <{value = 42 : i32}> : () -> i32
// GENERIC: %true = "arith.constant"() <{value = true}> : () -> i1
// GENERIC: %ch = "arith.constant"() <{value = 0xFF800000 : f32}> : () -> f32
// GENERIC: %cidx = "arith.constant"() <{value = 0 : index}> : () -> index
// GENERIC: %splat = "arith.constant"() <{value = dense<1.000000e+00> : tensor<512xf32, #blocked>}> : () -> tensor<512xf32, #blocked>
// GENERIC: %15 = "arith.cmpi"(%a, %b) <{predicate = 2{{( : i64)?}}}> : (i32, i32) -> i1
// GENERIC: %16 = "arith.cmpi"(%a, %b) <{predicate = 9{{( : i64)?}}}> : (i32, i32) -> i1
// GENERIC: %17 = "arith.cmpf"(%x, %y) <{predicate = 2{{( : i64)?}}}> : (f32, f32) -> i1
// GENERIC: %18 = "arith.cmpf"(%x, %y) <{predicate = 13{{( : i64)?}}}> : (f32, f32) -> i1
// GENERIC: %20 = "arith.extf"(%x) : (f32) -> f64
// GENERIC: %33 = "math.fma"(%x, %y, %x) : (f32, f32, f32) -> f32

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @arith(%a: i32, %b: i32, %x: f32, %y: f32, %t: tensor<512xf32, #blocked>, %i: index) {
// CHECK-NEXT:  %c = arith.constant 42 : i32
// CHECK-NEXT:  %c_neg = arith.constant -1 : i8
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %cf = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:  %ch = arith.constant 0xFF800000 : f32
// CHECK-NEXT:  %cidx = arith.constant 0 : index
// CHECK-NEXT:  %splat = arith.constant dense<1.000000e+00> : tensor<512xf32, #blocked>
// CHECK-NEXT:  %0 = arith.addi %a, %b : i32
// CHECK-NEXT:  %1 = arith.addi %a, %b : i32
// CHECK-NEXT:  %2 = arith.muli %a, %b : i32
// CHECK-NEXT:  %3 = arith.subi %a, %b : i32
// CHECK-NEXT:  %4 = arith.divsi %a, %b : i32
// CHECK-NEXT:  %5 = arith.remui %a, %b : i32
// CHECK-NEXT:  %6 = arith.andi %a, %b : i32
// CHECK-NEXT:  %7 = arith.xori %a, %b : i32
// CHECK-NEXT:  %8 = arith.shli %a, %b : i32
// CHECK-NEXT:  %9 = arith.maxsi %a, %b : i32
// CHECK-NEXT:  %10 = arith.addf %x, %y : f32
// CHECK-NEXT:  %11 = arith.mulf %x, %y : f32
// CHECK-NEXT:  %12 = arith.divf %x, %y : f32
// CHECK-NEXT:  %13 = arith.maxnumf %x, %y : f32
// CHECK-NEXT:  %14 = arith.negf %x : f32
// CHECK-NEXT:  %15 = arith.cmpi slt, %a, %b : i32
// CHECK-NEXT:  %16 = arith.cmpi uge, %a, %b : i32
// CHECK-NEXT:  %17 = arith.cmpf ogt, %x, %y : f32
// CHECK-NEXT:  %18 = arith.cmpf une, %x, %y : f32
// CHECK-NEXT:  %19 = arith.select %15, %a, %b : i32
// CHECK-NEXT:  %20 = arith.extf %x : f32 to f64
// CHECK-NEXT:  %21 = arith.truncf %t : tensor<512xf32, #blocked> to tensor<512xbf16, #blocked>
// CHECK-NEXT:  %22 = arith.sitofp %a : i32 to f32
// CHECK-NEXT:  %23 = arith.fptosi %x : f32 to i32
// CHECK-NEXT:  %24 = arith.extsi %a : i32 to i64
// CHECK-NEXT:  %25 = arith.trunci %a : i32 to i8
// CHECK-NEXT:  %26 = arith.index_cast %i : index to i32
// CHECK-NEXT:  %27 = arith.bitcast %x : f32 to i32
// CHECK-NEXT:  %28 = arith.addf %t, %splat : tensor<512xf32, #blocked>
// CHECK-NEXT:  %29 = math.exp %t : tensor<512xf32, #blocked>
// CHECK-NEXT:  %30 = math.exp2 %x : f32
// CHECK-NEXT:  %31 = math.sqrt %x : f32
// CHECK-NEXT:  %32 = math.absf %x : f32
// CHECK-NEXT:  %33 = math.fma %x, %y, %x : f32
// CHECK-NEXT:  %34 = math.log %x : f32
// CHECK-NEXT:  %35 = math.rsqrt %x : f32
// CHECK-NEXT:  tt.return
// CHECK-NEXT:  }
  tt.func @arith(%a: i32, %b: i32, %x: f32, %y: f32, %t: tensor<512xf32, #blocked>, %i: index) {
    %c = arith.constant 42 : i32
    %c_neg = arith.constant -1 : i8
    %true = arith.constant true
    %cf = arith.constant 1.500000e+00 : f32
    %ch = arith.constant 0xFF800000 : f32
    %cidx = arith.constant 0 : index
    %splat = arith.constant dense<1.000000e+00> : tensor<512xf32, #blocked>
    %0 = arith.addi %a, %b : i32
    %1 = arith.addi %a, %b : i32
    %2 = arith.muli %a, %b : i32
    %3 = arith.subi %a, %b : i32
    %4 = arith.divsi %a, %b : i32
    %5 = arith.remui %a, %b : i32
    %6 = arith.andi %a, %b : i32
    %7 = arith.xori %a, %b : i32
    %8 = arith.shli %a, %b : i32
    %9 = arith.maxsi %a, %b : i32
    %10 = arith.addf %x, %y : f32
    %11 = arith.mulf %x, %y : f32
    %12 = arith.divf %x, %y : f32
    %13 = arith.maxnumf %x, %y : f32
    %14 = arith.negf %x : f32
    %15 = arith.cmpi slt, %a, %b : i32
    %16 = arith.cmpi uge, %a, %b : i32
    %17 = arith.cmpf ogt, %x, %y : f32
    %18 = arith.cmpf une, %x, %y : f32
    %19 = arith.select %15, %a, %b : i32
    %20 = arith.extf %x : f32 to f64
    %21 = arith.truncf %t : tensor<512xf32, #blocked> to tensor<512xbf16, #blocked>
    %22 = arith.sitofp %a : i32 to f32
    %23 = arith.fptosi %x : f32 to i32
    %24 = arith.extsi %a : i32 to i64
    %25 = arith.trunci %a : i32 to i8
    %26 = arith.index_cast %i : index to i32
    %27 = arith.bitcast %x : f32 to i32
    %28 = arith.addf %t, %splat : tensor<512xf32, #blocked>
    %29 = math.exp %t : tensor<512xf32, #blocked>
    %30 = math.exp2 %x : f32
    %31 = math.sqrt %x : f32
    %32 = math.absf %x : f32
    %33 = math.fma %x, %y, %x : f32
    %34 = math.log %x : f32
    %35 = math.rsqrt %x : f32
    tt.return
  }
}
