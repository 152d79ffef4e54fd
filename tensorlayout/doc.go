// Package tensorlayout is the tensor-layout tool: it prints where the
// elements of a tensor live under a TritonGPU encoding, like Triton's
// triton-tensor-layout, or prints a CuTe layout's table, like Mojo's
// print_layout.
//
//	tensor-layout -l '#ttg.blocked<{…}>' -t 'tensor<64x64xf16>' [-view V]
//	tensor-layout -i defs.mlir -l '#mma' -t 'tensor<64x64xf32>'
//	tensor-layout -l 'defs.mlir#mma' -t 'tensor<64x64xf32>'
//	tensor-layout -i defs.mlir -alias-names blocked,mma -t 'tensor<64x64xf32>'
//	tensor-layout -l '(6,4):(4,1)'
//
// The encoding comes from -l (attribute text, an alias defined in the -i
// file, or FILE#name: the alias name defined in FILE), from -alias-names (each alias of the -i file in turn, as Triton's
// tool does), or from an encoding written inside the -t type. The views:
//
//   - tensor (the default): for every tensor element, row-major and nested
//     in brackets per dimension, the hardware locations that hold it —
//     "T<thread>:<register>" for distributed layouts (thread = lane +
//     warp·lanes), the offset for shared ones, prefixed "B<block>:" when the
//     layout spans several CTAs, joined by "|" when an element is
//     broadcast;
//   - hw: for every warp, one line per register giving the coordinates each
//     lane holds (shared layouts: the element at each offset);
//   - linear: exactly one line, #ttg.linear<{register = …, lane = …, warp =
//     …, block = …}> or, for shared layouts, #ttg.shared_linear<{offset =
//     …}, alignment = N>, in Triton's spacing;
//   - json: the in-dims with their sizes and bases and the out-dims with
//     their sizes, as one JSON object;
//   - table (CuTe layouts, the default for them): Mojo's print_layout.
//
// A CuTe layout ("(6,4):(4,1)", Mojo's "((6, 4):(4, 1))", or a swizzled
// "Sw<3,4,3> o (8,64):(64,1)") needs no -t; besides its table it prints,
// when it is linear over GF(2), its linear form with -view linear
// ("{mode0 = [[8], …], mode1 = […]} -> offset[64]", one input dim per
// mode) and -view json.
//
// Bad attributes, types and flags give an error on stderr, located in the
// flag's value (MLIR's "-l:1:15: error: …" with a caret line), and exit
// status 1. Main takes a [lit.Proc], so lit runs the tool in-process.
package tensorlayout
