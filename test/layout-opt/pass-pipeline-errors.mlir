// Malformed pipelines are reported with the position of the problem, the
// pipeline text and a caret, then "invalid pass pipeline"; the tool fails
// before reading its input and writes nothing to standard output.

// RUN: not layout-opt %s -pass-pipeline='builtin.module(tt.func(remove-redundant-conversions)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNBALANCED --strict-whitespace --match-full-lines
// UNBALANCED:MLIR Textual PassPipeline Parser:1:15: error: encountered unbalanced parentheses while parsing pipeline
// UNBALANCED-NEXT:builtin.module(tt.func(remove-redundant-conversions)
// UNBALANCED-NEXT:              ^
// UNBALANCED-NEXT:layout-opt: error: invalid pass pipeline

// RUN: not layout-opt %s -pass-pipeline='builtin.module(no-such-pass)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN --strict-whitespace --match-full-lines
// UNKNOWN:MLIR Textual PassPipeline Parser:1:16: error: 'no-such-pass' does not refer to a registered pass or pass pipeline
// UNKNOWN-NEXT:builtin.module(no-such-pass)
// UNKNOWN-NEXT:               ^
// UNKNOWN-NEXT:layout-opt: error: invalid pass pipeline

// RUN: not layout-opt %s -pass-pipeline='builtin.module(canonicalize-layouts{form=weird})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADVAL --strict-whitespace --match-full-lines
// BADVAL:MLIR Textual PassPipeline Parser:1:42: error: pass 'canonicalize-layouts': invalid value "weird" for option 'form' (allowed: named, linear)
// BADVAL-NEXT:builtin.module(canonicalize-layouts{form=weird})
// BADVAL-NEXT:                                         ^
// BADVAL-NEXT:layout-opt: error: invalid pass pipeline

// RUN: not layout-opt %s -pass-pipeline='builtin.module(canonicalize-layouts{shape=1})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADOPT
// BADOPT: Parser:1:37: error: pass 'canonicalize-layouts' has no option 'shape' (options: form)

// RUN: not layout-opt %s -pass-pipeline='builtin.module(canonicalize-layouts{form=linear)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BRACE
// BRACE: Parser:1:36: error: missing closing '}' while processing pass options

// The anchor op is required.
// RUN: not layout-opt %s -pass-pipeline='canonicalize-layouts' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ANCHOR
// ANCHOR: Parser:1:1: error: expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'

// RUN: not layout-opt %s -p='builtin.module(,)' 2>&1 | FileCheck %s --check-prefix=COMMA
// COMMA: Parser:1:16: error: expected a pass name or a nested pipeline, found ','

// Nothing reaches standard output.
// RUN: not layout-opt %s -pass-pipeline='builtin.module(no-such-pass)' 2>%t.err | count 0

module {
}
