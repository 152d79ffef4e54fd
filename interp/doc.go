// Package interp is a reference interpreter for TritonGPU IR: it runs a
// tt.func over a grid of programs on host memory, one op at a time over
// whole tensors. Layouts change where a value lives, not what it is, so
// the interpreter ignores them: ttg.convert_layout is the identity, shared
// memory holds values, and two programs that differ only in layouts
// compute the same bits (but for tt.elementwise_inline_asm, whose asm sees
// consecutive registers of a thread packed together: the interpreter
// groups elements as the result's layout does, and runs asm of 32-bit
// integer and f32 PTX). That makes it the oracle for layout passes (run a
// kernel before and after a pass on the same inputs: the outputs must be
// equal) and for code generators (compare the GPU's output with it, within
// Tolerance for floats).
//
// # Running a kernel
//
// Run is the one-call API: a module, a function name, one Arg per
// parameter (BufArg for a pointer: a typed host Buffer; IntArg, FloatArg
// for scalars) and a grid. Programs run in launch order (x fastest), each
// to completion; an access outside a buffer, an unknown op or a failed
// tt.assert is an *Error located at the op, naming the program.
//
//	out, _ := interp.NewBuffer(ir.F32, n)
//	err := interp.Run(m, "add_kernel", []interp.Arg{interp.BufArg(x), interp.BufArg(y),
//		interp.BufArg(out), interp.IntArg(n)}, [3]int{(n + 1023) / 1024, 1, 1})
//
// RunWith takes Options: Triton's reduction order (LayoutOrder), bounds on
// the ops and the work of a program (an endless loop becomes an error), a
// progress callback, an op table of one's own, and Workers: programs on
// several goroutines, with the result of launch order (see Machine.Launch). CompareBuffers and
// Tolerance compare a GPU's output with the interpreter's: integers and
// data movement exactly, floats within a bound the caller chooses (ForSum
// gives the classical bound of a reassociated sum).
//
// Machine is the lower level: any Memory (BufferMemory is Run's; LazyMemory
// is unbounded and fills itself with deterministic random values, for
// running kernels whose buffer sizes are unknown), a table of evaluators
// (Ops), and Launch/RunProgram.
//
// # Extending
//
// Evaluation is a table from op name to OpFunc. DefaultOps returns a copy
// of the package's table; add or replace entries for ops of your own
// dialect. An OpFunc gets the values of the op's operands and returns the
// values of its results; region ops run their blocks with Exec.RunBlock.
//
// # Values and semantics
//
// A tensor or scalar is a *Tensor: integers sign-extended at their width in
// int64, floats as the float64 of equal value (every value of f16, bf16,
// tf32, f32, f64 and the fp8 formats is one), pointers as int64 addresses.
// Integer ops wrap (two's complement); where LLVM's result is undefined
// (division by zero, over-wide shifts, float-to-int overflow) the
// interpreter gives PTX's result (see ops_arith.go). Float ops compute in
// float64 and round once to their type, to nearest even (correctly rounded
// IEEE results for + - * / sqrt); truncations to narrower floats round to
// nearest even; tt.fp_to_fp to fp8 saturates as Triton's PTX does. NaN
// payloads are not modelled. Reductions use a halving tree by default
// (ShapeOrder) and scans a sequential order, documented in ops_region.go;
// dots accumulate sequentially over k (see ops_dot.go). tt.dot_scaled is
// the computation Triton's DecomposeScaledBlocked rewrites it into: each
// operand upcast to bf16 or f16 (ttg.fp4_to_fp for packed e2m1), times its
// e8m0 or float scale, then tt.dot (see ops_scaled.go). Blackwell's
// tensor memory (ttng.tmem_alloc, tmem_load, tmem_store) is simulated like
// shared memory, and ttng.tc_gen5_mma accumulates into it as tt.dot
// computes, f32 operands as tf32 (see ops_tmem.go). These orders
// depend only on shapes, never on layouts, so layout passes must leave the
// output bit-identical. LayoutOrder instead reduces in Triton 3.6's order
// on the GPU, read off the operand's linear layout; scans and dots have no
// such mode (the GPU's scan and tensor-core orders are not modelled).
//
// A block pointer (tt.make_tensor_ptr, tt.advance) is a *BlockPtr;
// tt.load and tt.store through it compute what Triton's
// RewriteTensorPointer rewrites them into: offsets in i64, the addresses
// and the boundaryCheck mask of the rewrite, padding zero or NaN, and 0
// for an out-of-bounds element of a load without padding (see
// ops_blockptr.go). A tensor descriptor (tt.make_tensor_descriptor) is a
// *TensorDesc; tt.descriptor_load, tt.descriptor_store,
// tt.descriptor_gather and tt.descriptor_scatter compute what Triton's
// RewriteTensorDescriptorToPointer rewrites them into: i32 indices
// sign-extended to i64, every dimension bounds-checked, out-of-bounds
// elements read as 0 (NaN for floats when the descriptor's padding is
// PAD_NAN) and never written; tt.descriptor_reduce is not implemented
// (see ops_descriptor.go).
package interp
