// Package tensorlayout is the tensor-layout tool: it prints where the
// elements of a tensor live under a TritonGPU encoding, like Triton's
// triton-tensor-layout, or prints a CuTe layout's table, like Mojo's
// print_layout.
//
//	tensor-layout -l '#ttg.blocked<{…}>' -t 'tensor<64x64xf16>' [-view V]
//	tensor-layout -i defs.mlir -l '#mma' -t 'tensor<64x64xf32>'
//	tensor-layout -l 'defs.mlir#mma' -t 'tensor<64x64xf32>'
//	tensor-layout -i defs.mlir -alias-names blocked,mma -t 'tensor<64x64xf32>'
//	tensor-layout -i defs.mlir -t 'tensor<64x64xf32>'
//	tensor-layout -i kernel.ttgir
//	tensor-layout -l '(6,4):(4,1)'
//
// The encoding comes from -l (attribute text, an alias defined in the -i
// file, or FILE#name: the alias name defined in FILE), from -alias-names
// (each alias of the -i file in turn, as Triton's tool does), from the
// encoding written inside the -t type (tensor<…, #enc>, or
// !ttg.memdesc<…, #enc, #smem[, mutable][, allocShape]>, whose memory
// space and what follows it are skipped), or, with -i and none of these,
// from every layout alias of the -i file in turn (as Triton's tool; an
// alias that cannot be shown on the -t type, one of another rank say, is
// skipped with a note on stderr that names it, and the status is 1 only
// when no alias can be shown). With -i and no -t either, each layout alias
// is shown on every tensor shape the file uses it with (tensor<64x32xf16,
// #name> and !ttg.memdesc<…, #name, …> types, in the order first used):
// the "Print layout attribute: #NAME = ATTR" line, then per shape a line
// "Tensor shape: 64x32" and the layout; -view linear gives lines
// "#NAME 64x32: LINEAR". An alias that no tensor type uses directly (the
// parent of a slice, say) gets a note on stderr naming it. The views:
//
//   - tensor (the default) and hw: Triton's triton-tensor-layout output
//     (getLayoutStr in lib/Dialect/TritonGPU/IR/Dialect.cpp), byte for
//     byte. A line "Print layout attribute: ATTR" ("… #NAME = ATTR" for
//     an alias of -alias-names or of -i alone), then the layout, then,
//     for -alias-names only, an empty line. The tensor view of a
//     distributed layout gives, for every tensor element, row-major and
//     nested in brackets per dimension, the threads that hold it,
//     "T<thread>:<register>" (thread = lane + warp·lanes, "B<block>:"
//     before it when there are several CTAs, several joined by "|", each
//     padded on the left to the widths of the numbers of blocks, threads
//     and registers), separated by ", ";
//     a line starts with the brackets opening on it, then a space for
//     each dimension not opened there. For a shared layout it lays the
//     offsets out in the tensor's shape and gives the element stored at
//     each, "(i:j)" with indices padded to the width of their dimension's
//     size, separated by ",". The hw view gives, for a distributed layout,
//     "Block<b>:" (several CTAs only), then per warp "Warp<w>:" and one
//     line per register with the element each lane holds, "(i,j)"; for a
//     shared layout, "Block: <b>:" and one line per offset,
//     "Offset: <o> -> (i,j)";
//   - linear: exactly one line, #ttg.linear<{register = …, lane = …, warp =
//     …, block = …}> or, for shared layouts, #ttg.shared_linear<{offset =
//     …}, alignment = N>, in Triton's spacing;
//   - json: the in-dims with their sizes and bases and the out-dims with
//     their sizes, as one JSON object;
//   - table (CuTe layouts, the default for them): Mojo's print_layout;
//   - svg: a picture (svg.go, svgviews.go, svgcute.go). Distributed
//     layouts: the tensor as a grid (rank 3 as slices along dim 0, rank 1
//     wrapped in rows of 64), each element coloured by warp (Paul Tol's
//     muted palette, paler tints past 9 warps) and labelled T<lane>:R<reg>
//     of its lowest holder, broadcast copies as "×N" (or one note when
//     every element has the same number), a legend. Shared layouts: each
//     element's offset, coloured by the bank of its 4-byte word (Paul
//     Tol's light palette for neighbouring banks, darker shades of it for
//     the banks 8, 16 and 24 further on: see bankColour); with
//     -l REG -shared SHARED, warp 0's first access instruction (vectorised
//     as smem.BankConflicts does) outlined by wavefront and labelled
//     L<lane>, with smem.BankConflicts' count. -l SRC -to DST: source,
//     moves and destination side by side, each element coloured by the
//     cheapest move between a source and a destination holder (stays,
//     another register, lane, warp or CTA: the lowering class that move
//     needs), with smem.Classify's class and smem.PlanConversion's scratch
//     bytes and instructions (Triton's generic plan, or for the GPU that
//     -target cuda:CC names: at cc90 stmatrix, say). CuTe layouts: print_layout's
//     grid shaded by offset mod 8, nested modes outlined. Above 128 cells a
//     side, cells merge into blocks of 2^k elements (noted); labels are
//     drawn up to 4096 cells per slice. The output is deterministic;
//   - banks (with -l REG -shared SHARED; banks.go): the access -view svg
//     outlines, as text: one line per lane of warp 0's first access
//     instruction (its lane group, the elements of its vector, their
//     offsets, the banks of their words, the wavefront serving them), the
//     wavefront total, and last exactly one line "bank conflicts: N" with
//     smem.BankConflicts' count, which equals Triton 3.6's
//     get_shared_bank_conflicts (the element width comes from -t). Where
//     counting lines per bank differs from Triton's formula the wavefront
//     line says so. Errors point into the flag they come from;
//   - html (with -i KERNEL alone): one self-contained page (inline CSS and
//     SVG, no script, no outside reference): a summary of every
//     ttg.convert_layout (type, layouts, class, scratch bytes, store and
//     load instructions, for the module's ttg.target or -target), every
//     layout alias drawn on each shape the kernel uses it with (a shared
//     one with the banks of each element type it is used with), each conversion's
//     picture (repeats point to the first), and the source with line
//     anchors, its convert_layout ops and alias definitions linked.
//
// -o FILE writes the output of any view to FILE (proc.WriteFileAtomic,
// only when the run succeeds) instead of stdout.
//
// Where the output differs from Triton's tool: Triton's tool prints no
// tensor memory layout (#ttng.tensor_memory_encoding); here its tensor
// view gives "row:col" per location in the distributed format, every
// element right-aligned to the widest, and its hw view one line per 16
// rows under a "Col<c>:" header. With -i alone, aliases that are not
// layouts (#loc, memory spaces) are skipped, where Triton's tool fails on
// them; with -i and -l, -l '#name' names an alias of the file, where
// Triton's tool prints all of the file's aliases and then -l (which cannot
// use them). Triton's tool has no -view linear, json or table, nor CuTe
// layouts. Errors are MLIR-style and located (below), not Triton's
// one-line messages. ATTR is spelled by package attr's printer, which
// follows Triton's (MLIR's) but is not checked here byte for byte.
//
// A CuTe layout ("(6,4):(4,1)", Mojo's "((6, 4):(4, 1))", or a swizzled
// "Sw<3,4,3> o (8,64):(64,1)") needs no -t; besides its table it prints,
// when it is linear over GF(2), its linear form with -view linear
// ("{mode0 = [[8], …], mode1 = […]} -> offset[64]", one input dim per
// mode) and -view json.
//
// Bad attributes, types and flags give an error on stderr, located in the
// flag's value (MLIR's "-l:1:15: error: …" with a caret line), and exit
// status 1. Main takes a [proc.Proc], so lit runs the tool in-process.
package tensorlayout
