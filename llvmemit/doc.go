// Package llvmemit lowers a verified TritonGPU module (TTGIR, as Triton 3.6
// prints it) to LLVM IR for NVPTX, built with github.com/llir/llvm v0.3.6:
// LLVM 14 typed pointers, so that llc-14 compiles it
// (llc-14 -march=nvptx64 -mcpu=sm_80 -mattr=+ptx70 --nvptx-short-ptr
// -fp-contract=fast: LLCArgs; the last is Triton's enable_fp_fusion).
//
// # ABI
//
// Every public tt.func that returns nothing becomes a kernel with Triton
// 3.6's signature: the function's parameters in order (!tt.ptr<T> as
// T addrspace(1)*), then two trailing i8 addrspace(1)* parameters (global
// scratch and profile scratch, passed as null by launchers when their size
// is 0). Any other tt.func is a device function (internal and noinline when
// private), called with tt.call: its tensor parameters and results are one
// LLVM parameter or struct field per register, and its shared-memory frame
// (the caller's plus the call's allocation.offset) comes before the two
// scratch pointers, as in Triton's FuncOpToLLVM. Global scratch
// (ttg.global_scratch_alloc; scratch.go) is the kernel's global_scratch
// parameter plus the program's linear id times the module's
// ttg.global_scratch_memory_size (Kernel.GlobalScratchSize, what the
// launcher allocates per program) plus the op's offset; a call passes the
// callee its part at the call's offset. Kernels are marked with
// !nvvm.annotations "kernel" and "reqntidx" = 32·num_warps (LLVM 14's form
// of Triton's nvvm.reqntid). Dynamic shared memory is
// @global_smem = external addrspace(3) global [0 x i8], align 16; its size at
// launch is the module's ttg.shared attribute (Kernel.SharedBytes), or, for a
// module that was not given one, the scratch this package needs.
//
// # Lowering
//
// Each op is lowered by the hook registered for its name (Register; the
// built-in hooks are registered by this package's init functions), never by
// one central switch. An op without a hook, or a case a hook does not
// support, is an error located at the op and naming it: never a wrong
// program. A distributed tensor is held as one LLVM value per register of
// its layout, in the order of the layout's register index (Triton's
// packLLElements). Index arithmetic is Triton's applyLinearLayout: the
// thread's (lane, warp) bits go through the layout's GF(2) matrix as one
// mask-and-shift per diagonal, and every register adds a constant folded
// here (XOR), so register bits never become runtime arithmetic.
//
// Dots: tt.dot on #ttg.nvidia_mma v2 is mma.sync (f16, bf16, tf32, int8
// with i32 accumulators), on #ttg.blocked Triton's FMA dot (2-D or
// batched). fp8 values (f8E4M3FN, f8E5M2) travel as their bits and
// convert in software valid on sm_80 (fp8.go), upcasts on sm_90+ with the
// hardware's cvt (pairs.go). Where two registers are one PTX instruction
// on a 32-bit pair (bf16 add, sub and mul as fma.rn.bf16x2, fp8 upcasts,
// 16-bit selects with one condition) they are packed into a word, and
// bytes are packed with prmt from the words they came from, so that
// chains of such code keep their words; non-splat dense constants
// that differ between threads are read from constant memory.
//
// Global loads and stores are as wide as the layout's per-thread
// contiguity and the pointers' axis information allow (a port of Triton's
// AxisInfo for the ops lowered here, honouring tt.divisibility,
// tt.contiguity and tt.constancy), at most 128 bits: unmasked accesses are
// LLVM vector loads and stores with that alignment, masked ones Triton's
// predicated inline PTX (ld.global.v4.b32 and the like; in a loop of a
// function without a dot the masked-off words are set after the load, not
// before it: see loadHints.fillAfter). Where only the
// mask keeps an access from a wider vector (a bounds check against a size
// not known to be a multiple of it), a thread whose elements are all in
// bounds makes it with whole vectors and the others element by element, a
// branch on the AND of its masks (Triton goes element by element
// everywhere; not in loops around a wgmma of 64 or more accumulator
// registers per thread, where the branch measured slower). Each element is
// stored by one thread, as in Triton: copies held by other registers,
// lanes or warps (slice and broadcast layouts, scalars) do not store.
// Reductions, layout conversions and other data movement across threads
// go through warp shuffles and shared memory. A reduction over a whole warp
// of an integer of at most 32 bits with add, and, or, xor, min or max is
// one redux.sync on sm_80+; across warps, each thread combines the
// partials of the elements it holds, or, where threads hold 16 or more
// elements each, thread t combines element t's once and writes the total
// back for all (Triton's accumulatePartialReductions). A scan's warp step
// ends as Triton's: the thread's last register is the lanes' inclusive
// total, and the lane at the last position alone stores the warp's totals
// for the exchange across warps.
//
// # Shared memory
//
// Scratch buffers (conversions through shared memory, reductions across
// warps) use the op's allocation.offset attribute when the module carries
// one (Triton's -allocate-shared-memory convention); otherwise offset 0,
// with a barrier before every scratch use, so scratch users never overlap.
// On an allocated module Emit runs Membar first (as Triton's lowering
// does): the barriers between ops are its ttg.local_barrier ops, and an op
// emits only its inner ones (between a scratch store and load). A
// conversion in which every warp reads back only what it wrote itself
// (passes.CvtWarpSync, Triton's isCvtWarpSync) synchronises its round trip
// with bar.warp.sync -1 instead of bar.sync 0, as Triton does; Membar
// then keeps the accesses before it pending.
// A conversion's round trip uses the instructions smem's plan chose with
// its swizzle (Triton's optimalSwizzling): ldmatrix (sm_75+) and stmatrix
// (sm_90, which makes the module Hopper-only), plain or .trans, when the
// registers fit their 8×8 fragments, else 16-byte ld/st.shared vectors;
// local_load of 16-bit elements uses ldmatrix whenever they fit.
//
// # Intrinsics
//
// LLVM 14 turns an llvm.nvvm.* name it does not know into an external
// function silently; every intrinsic this package declares must be on the
// allow-list NVVMIntrinsics, and Emit fails on any other. Instructions LLVM
// 14 lacks are inline PTX, as in Triton.
//
// # Special registers
//
// The reads of %tid.x and %ctaid.x/y/z carry !range (CUDA's limits), as
// Triton's newer LLVM attaches them, so O3 widens non-negative program
// offsets with zext (mul.wide.u32). On the H200 this made the sm_90
// column-sum loop 45% faster (colsum_loop_32x128: 313 -> 216 us,
// proof/results/h200-r7) and the 128x128 block-pointer matmul 3%, and moved
// none of the other nine kernels of that A/B beyond noise. (Fusing llc-14's
// mul.wide+add.s64 into mad.wide as Triton's LLVM emits it was measured
// too, and not adopted: 4% faster on one f16 transpose, 12% slower on a
// grouped sm_90 matmul and an sm_80 column sum.)
//
// # Hopper
//
// ttng.warp_group_dot is sm_90's wgmma (wgmma.go): matrix descriptors for
// its shared operands, derived from their #ttg.nvmma_shared layouts (any
// swizzle, K- or MN-major, multi-buffered through memdesc_index) and
// checked on every element of every tile against the layout, A from
// shared memory or from registers, f32 accumulators and f16 ones (f16 and
// fp8 operands; N/4 f16x2 registers), s8 operands with i32 accumulators
// (the s32.s8.s8 form, K-major), fp8 dots whose maxNumImpreciseAcc is at
// most K summed in partial accumulators added to the f32 one every that
// many K elements (Triton's needsPartialAccumulator), async groups, and
// warp_group_dot_wait as wgmma.wait_group with the accumulators tied
// through it. Such a module
// is Hopper-only: Result.Hopper and Kernel.Arch say so, and its PTX
// header must become .version 8.0 / .target sm_90a (Result.Header,
// RewritePTXHeader; layout-translate does it). So must that of a module
// lowered for sm_90 with vector atomics (atom.add.v4.f32 and the like,
// Triton's for fadd where the pointers are contiguous): .version 8.1. A
// module with loads that the l2-prefetch pass marked (ld.global.L2::256B)
// needs .version 7.4, which llc-14 does not write for sm_80 (Header gives
// it, with llc's target).
//
// The mbarrier ops (ttng.init_barrier, inval_barrier, arrive_barrier,
// barrier_expect, wait_barrier; mbarrier.go) lower as Triton 3.6's
// BarrierOpToLLVM for one CTA: thread 0 initialises, invalidates, arrives
// and expects; every thread spins in the wait (try_wait.parity on sm_90,
// test_wait.parity with nanosleep below it, which needs .version 7.1).
// The TMA copies that complete on them (async_tma_copy_*) and tensor
// descriptors are not lowered.
//
// tt.print and tt.assert (print.go) call CUDA's vprintf and __assertfail,
// the two external functions CompilePTX lets a PTX declare.
// tt.extern_elementwise (extern.go) calls libdevice functions, which
// LinkLibdevice links in before the module is optimized (Result.Libdevice).
// tt.elementwise_inline_asm (inlineasm.go) is the user's PTX on blocks of
// packed_element registers, as Triton lowers it. A warp_group_dot wgmma cannot take runs as
// mma.sync (correct, synchronous): an operand layout that is none of
// wgmma's canonical ones (an unswizzled nvmma_shared buffer whose rows are
// not 16 bytes, a non-nvmma shared layout), a buffer not known to be
// aligned to its swizzle pattern, a
// tf32 operand that is not K-major, B in registers, A registers or an
// accumulator layout that do not hold wgmma's fragments, an instrShape that
// is no wgmma shape.
package llvmemit

// # Not supported yet
//
// These are located errors today: TMA and block pointers (tt.make_tensor_ptr,
// descriptors), layouts over several CTAs, warps of other than 32 threads,
// batched (rank-3) dots on mma layouts (batched FMA dots are supported),
// mma dot operands whose K order differs from mma.sync's fragments (tf32
// with kWidth 2), fp8 operands of mma.sync dots (FMA dots take them, and
// wgmma takes them) and arithmetic on fp8 values, the
// FNUZ fp8 kinds, conversions from f64 to fp8, bf16 accumulators of FMA
// dots, 8- and 16-bit atomics (but fadd on f16, and on bf16 for sm_90) and
// compare-and-swap, dense constants given as raw bytes, and the Blackwell,
// AMD and warp-specialization ops. Modules without an allocation get
// conservative barriers instead of Membar's (see above); local_alloc and
// local_store do not use stmatrix. fp8 wgmma operands (e4m3/e5m2 k32, A in shared
// memory or in registers) are checked on the simulator, not yet on a GPU.
