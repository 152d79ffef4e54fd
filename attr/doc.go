// Package attr models the TritonGPU layout encodings of Triton 3.6 — the
// #ttg.* attributes that say where each element of a tensor lives — and
// converts each one to the linear layout Triton computes for it.
//
// # Encodings
//
// Every attribute is a value of a struct type implementing [Encoding]:
// distributed (register) layouts [Blocked], [LinearEncoding], [Slice],
// [NvidiaMma], [DotOperand], [AMDMfma] and [AMDWmma]; shared-memory layouts
// [SwizzledShared], [AMDRotatingShared], [NVMMAShared], [PaddedShared] and
// [SharedLinear]; the Blackwell [TensorMemory] layout; and the memory spaces
// [SharedMemory] and [TensorMemorySpace]. [Parse] reads the attribute text
// (accepting the legacy triton_gpu prefix and the CTAsPerCGA / CTASplitNum /
// CTAOrder keys), Format prints it exactly as Triton 3.6 does (multi-CTA
// layouts as CGALayout = [[…]]), and Verify checks the fields alone and
// against the module's ttg.num-warps, ttg.threads-per-warp and
// ttg.num-ctas. Parse runs the field checks too, so a bad value is an
// [*Error] that points at the key it is about.
//
// The parser is a small hand-written recursive-descent parser over MLIR's
// generic attribute values (integers, booleans, arrays, dictionaries,
// nested attributes): it keeps the byte offset of every key for error
// messages, handles the two bodies that are not dictionaries
// (padded_shared's "[32:+4] {…}" and shared_linear's "{…}, alignment = 16")
// directly, and leaves the meaning of the keys to one small builder per
// encoding. A grammar library would add a token stream and a parse tree to
// convert without making any of that simpler.
//
// # Linear layouts
//
// Every [Layout] converts to a [linear.Layout] for a tensor shape with
// ToLinear: a map over GF(2) from hardware bits to tensor coordinates, with
// input dims register, lane, warp, block for distributed layouts and
// offset, block for shared ones. The conversions transcribe Triton's
// LinearLayoutConversions.cpp step by step — the one-CTA tile, then
// combineCtaCgaWithShape, which repeats the tile into extra registers (or
// offsets) when the shape is larger than the tile, in the tile's own
// dimension order, and turns bases that point past a smaller shape into
// zeros (broadcast) — so the bases match Triton's bit for bit. They are
// checked against every conversion vector of Triton's unit tests and every
// row of an oracle produced by Triton 3.6 itself.
//
// # Tensor-memory accesses
//
// [TMemLdStLayout] is the register layout in which tcgen05.ld/st of one
// access atom ([TMemAccessAtom]) move a [TensorMemory] buffer, after
// Triton's getDistributedLayoutForTmemLdSt; [TMemCompatibleLayouts] lists
// them, and [IsTMemCompatible] (Triton's isDistributedLayoutTMemCompatible)
// says whether a tensor's layout is one of them, as canonicalization asks
// before it folds a conversion into a ttng.tmem_store. One-CTA buffers only.
package attr
