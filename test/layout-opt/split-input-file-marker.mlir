// -split-input-file=MARKER splits at another marker, and
// -output-split-marker sets what joins the outputs. A line that is almost
// a marker (too few or too many '=') gets a "near miss" warning and does
// not split. (The input is in another file, so that these RUN lines, which
// spell the marker, do not split it.)

// RUN: layout-opt %S/Inputs/custom-marker.mlir -split-input-file='// =====' \
// RUN:   -output-split-marker='// NEXT CHUNK' 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN < %t.err

// CHECK:      tt.func @one()
// CHECK:      {{^}}}
// CHECK-EMPTY:
// CHECK-NEXT: // NEXT CHUNK
// CHECK-NEXT: module {
// CHECK-NEXT:   tt.func @two()
// CHECK-NOT:  NEXT CHUNK

// WARN:      custom-marker.mlir:9:7: warning: near miss with file split marker
// WARN-NEXT: // ===
// WARN-NEXT:       ^
// WARN-NEXT: custom-marker.mlir:15:7: warning: near miss with file split marker
// WARN-NEXT: // ======
// WARN-NEXT:       ^
// WARN-NOT:  warning

// The default marker does not split this file.
// RUN: layout-opt %S/Inputs/custom-marker.mlir -split-input-file 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT:     tt.func @one()
// DEFAULT-NOT: {{-----}}
// DEFAULT:     tt.func @two()
