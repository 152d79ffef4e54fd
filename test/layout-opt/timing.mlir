// -mlir-timing prints MLIR's execution time report to standard error:
// the parser, each pass (a function pass under its implicit 'tt.func'
// pipeline), the output, and the total, which is 100%.

// RUN: layout-opt %s -remove-redundant-conversions -canonicalize-layouts -mlir-timing -o %t 2>&1 \
// RUN:   | FileCheck %s
// RUN: layout-opt %s -remove-redundant-conversions -canonicalize-layouts -mlir-timing -mlir-timing-display=list -o %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHECK

// CHECK:      ===-------------------------------------------------------------------------===
// CHECK-NEXT:                          ... Execution time report ...
// CHECK-NEXT: ===-------------------------------------------------------------------------===
// CHECK-NEXT:   Total Execution Time: [[#]].[[#]] seconds
// CHECK-EMPTY:
// CHECK-NEXT:   ----Wall Time----  ----Name----
// CHECK-DAG:    {{[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)}}  Parser
// CHECK-DAG:    RemoveRedundantConversions
// CHECK-DAG:    CanonicalizeLayouts
// CHECK-DAG:    Output
// CHECK:        {{[0-9]+\.[0-9]{4} \(100\.0%\)}}  Total

// In the tree (the default display), the function pass is indented under
// its pipeline.
// RUN: layout-opt %s -remove-redundant-conversions -canonicalize-layouts -mlir-timing -o %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TREE --strict-whitespace
// TREE:      %)  Parser
// TREE-NEXT: %)  'tt.func' Pipeline
// TREE-NEXT: %)    RemoveRedundantConversions
// TREE-NEXT: %)  CanonicalizeLayouts
// TREE-NEXT: %)  Output

// Without the flag there is no report.
// RUN: layout-opt %s -canonicalize-layouts -o %t 2>&1 | count 0

// RUN: not layout-opt %s -mlir-timing -mlir-timing-display=flat 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: layout-opt: error: invalid value "flat" for -mlir-timing-display: want tree or list

module {
  tt.func @f() {
    tt.return
  }
}
