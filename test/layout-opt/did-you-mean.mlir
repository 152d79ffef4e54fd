// Misspelled flags, pass names and pass options get a "did you mean" hint,
// as mlir-opt's; a name near nothing gets none.

// RUN: not layout-opt -remove-redundant-conversion %s 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: layout-opt: error: unknown command line argument '-remove-redundant-conversion': not a flag or a registered pass (see -help and -list-passes); did you mean '-remove-redundant-conversions'?
// RUN: not layout-opt -verify-diagnostic %s 2>&1 | FileCheck %s --check-prefix=FLAG2
// FLAG2: did you mean '-verify-diagnostics'?
// RUN: not layout-opt -frobnicate %s 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: unknown command line argument '-frobnicate': not a flag or a registered pass (see -help and -list-passes)
// NONE-NOT: did you mean

// RUN: not layout-opt -pass-pipeline='builtin.module(canonicalize-layout)' %s 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: MLIR Textual PassPipeline Parser:1:16: error: 'canonicalize-layout' does not refer to a registered pass or pass pipeline; did you mean 'canonicalize-layouts'?

// RUN: not layout-opt -canonicalize-layouts='frm=linear' %s 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: pass 'canonicalize-layouts' has no option 'frm' (options: form); did you mean 'form'?
// RUN: not layout-opt -pass-pipeline='builtin.module(canonicalize-layouts{forms=linear})' %s 2>&1 | FileCheck %s --check-prefix=OPTION2
// OPTION2: pass 'canonicalize-layouts' has no option 'forms' (options: form); did you mean 'form'?

// RUN: not layout-opt -mlir-print-ir-after=remove-redundant-conversion -remove-redundant-conversions %s 2>&1 | FileCheck %s --check-prefix=PRINT
// PRINT: layout-opt: error: 'remove-redundant-conversion' does not refer to a registered pass; did you mean 'remove-redundant-conversions'?

// An encoding key, in the input.
// RUN: not layout-opt %s 2>&1 | FileCheck %s --check-prefix=KEY
// KEY: error: unexpected key: sizePerThred; did you mean 'sizePerThread'?
#blocked = #ttg.blocked<{sizePerThred = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
}
