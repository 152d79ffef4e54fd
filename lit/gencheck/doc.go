// Package gencheck writes FileCheck lines for a tool's output, to start a
// new lit test quickly, the way MLIR's generate-test-checks.py does.
//
// Given the printed IR of a module, [Generate] writes a CHECK-LABEL for
// each function with its arguments on CHECK-SAME lines, a CHECK for each
// line of its body, captures for SSA values (%[[VAL_0:.*]] where a value is
// defined, %[[VAL_0]] where it is used) and global captures for attribute
// aliases (#[[$BLOCKED:.+]] = #ttg.blocked<...>). The result is meant to
// be pasted into a test and trimmed to what the test is about:
//
//	layout-opt t.mlir -remove-redundant-conversions | lit gen-checks
//
// [Update] (gen-checks --source t.mlir -i) is the -update mode: it puts
// the fresh checks into the test itself, before each function, in place of
// the old ones:
//
//	layout-opt t.mlir -remove-redundant-conversions | lit gen-checks --source t.mlir -i
//
// [Main] is that command; it runs in-process like every tool of the
// project.
package gencheck
