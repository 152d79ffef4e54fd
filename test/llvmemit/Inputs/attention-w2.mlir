#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [2, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 8], [8, 0], [16, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[0, 0]], block = []}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @attention(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg3: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg4: i32 {tt.divisibility = 16 : i32}, %arg5: f32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x16xf32, #mma>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32_i32 = arith.constant 32 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c32_i32 : i32
    %2 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %3 = tt.splat %1 : i32 -> tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %4 = arith.addi %3, %2 : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %5 = tt.expand_dims %4 {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %6 = tt.splat %arg4 : i32 -> tensor<32x1xi32, #blocked>
    %7 = arith.muli %5, %6 : tensor<32x1xi32, #blocked>
    %8 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>, #blocked>
    %9 = tt.addptr %8, %7 : tensor<32x1x!tt.ptr<f16>, #blocked>, tensor<32x1xi32, #blocked>
    %10 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %11 = tt.expand_dims %10 {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x16xi32, #blocked>
    %12 = tt.broadcast %9 : tensor<32x1x!tt.ptr<f16>, #blocked> -> tensor<32x16x!tt.ptr<f16>, #blocked>
    %13 = tt.broadcast %11 : tensor<1x16xi32, #blocked> -> tensor<32x16xi32, #blocked>
    %14 = tt.addptr %12, %13 : tensor<32x16x!tt.ptr<f16>, #blocked>, tensor<32x16xi32, #blocked>
    %15 = tt.load %14 : tensor<32x16x!tt.ptr<f16>, #blocked>
    %16 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %17 = tt.expand_dims %16 {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %18 = arith.muli %17, %6 : tensor<32x1xi32, #blocked>
    %19 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>, #blocked>
    %20 = tt.addptr %19, %18 : tensor<32x1x!tt.ptr<f16>, #blocked>, tensor<32x1xi32, #blocked>
    %21 = tt.broadcast %20 : tensor<32x1x!tt.ptr<f16>, #blocked> -> tensor<32x16x!tt.ptr<f16>, #blocked>
    %22 = tt.addptr %21, %13 : tensor<32x16x!tt.ptr<f16>, #blocked>, tensor<32x16xi32, #blocked>
    %23 = tt.load %22 : tensor<32x16x!tt.ptr<f16>, #blocked>
    %24 = ttg.convert_layout %23 : tensor<32x16xf16, #blocked> -> tensor<32x16xf16, #linear>
    %25 = tt.splat %arg2 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>, #blocked>
    %26 = tt.addptr %25, %18 : tensor<32x1x!tt.ptr<f16>, #blocked>, tensor<32x1xi32, #blocked>
    %27 = tt.broadcast %26 : tensor<32x1x!tt.ptr<f16>, #blocked> -> tensor<32x16x!tt.ptr<f16>, #blocked>
    %28 = tt.addptr %27, %13 : tensor<32x16x!tt.ptr<f16>, #blocked>, tensor<32x16xi32, #blocked>
    %29 = tt.load %28 : tensor<32x16x!tt.ptr<f16>, #blocked>
    %30 = tt.trans %24 {order = array<i32: 1, 0>} : tensor<32x16xf16, #linear> -> tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %31 = ttg.convert_layout %15 : tensor<32x16xf16, #blocked> -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %32 = tt.dot %31, %30, %cst_0, inputPrecision = tf32 : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    %33 = tt.splat %arg5 : f32 -> tensor<32x32xf32, #mma>
    %34 = arith.mulf %32, %33 : tensor<32x32xf32, #mma>
    %35 = "tt.reduce"(%34) <{axis = 1 : i32}> ({
    ^bb0(%arg6: f32, %arg7: f32):
      %54 = arith.maxnumf %arg6, %arg7 : f32
      tt.reduce.return %54 : f32
    }) : (tensor<32x32xf32, #mma>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %36 = tt.expand_dims %35 {axis = 1 : i32} : tensor<32xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<32x1xf32, #mma>
    %37 = tt.broadcast %36 : tensor<32x1xf32, #mma> -> tensor<32x32xf32, #mma>
    %38 = arith.subf %34, %37 : tensor<32x32xf32, #mma>
    %39 = math.exp %38 : tensor<32x32xf32, #mma>
    %40 = "tt.reduce"(%39) <{axis = 1 : i32}> ({
    ^bb0(%arg6: f32, %arg7: f32):
      %54 = arith.addf %arg6, %arg7 : f32
      tt.reduce.return %54 : f32
    }) : (tensor<32x32xf32, #mma>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %41 = tt.expand_dims %40 {axis = 1 : i32} : tensor<32xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<32x1xf32, #mma>
    %42 = tt.broadcast %41 : tensor<32x1xf32, #mma> -> tensor<32x32xf32, #mma>
    %43 = arith.divf %39, %42 : tensor<32x32xf32, #mma>
    %44 = arith.truncf %43 : tensor<32x32xf32, #mma> to tensor<32x32xf16, #mma>
    %45 = ttg.convert_layout %44 : tensor<32x32xf16, #mma> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %46 = ttg.convert_layout %29 : tensor<32x16xf16, #blocked> -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %47 = tt.dot %45, %46, %cst, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x16xf32, #mma>
    %48 = tt.splat %arg3 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>, #blocked>
    %49 = tt.addptr %48, %7 : tensor<32x1x!tt.ptr<f16>, #blocked>, tensor<32x1xi32, #blocked>
    %50 = tt.broadcast %49 : tensor<32x1x!tt.ptr<f16>, #blocked> -> tensor<32x16x!tt.ptr<f16>, #blocked>
    %51 = tt.addptr %50, %13 : tensor<32x16x!tt.ptr<f16>, #blocked>, tensor<32x16xi32, #blocked>
    %52 = arith.truncf %47 : tensor<32x16xf32, #mma> to tensor<32x16xf16, #mma>
    %53 = ttg.convert_layout %52 : tensor<32x16xf16, #mma> -> tensor<32x16xf16, #blocked>
    tt.store %51, %53 : tensor<32x16x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
