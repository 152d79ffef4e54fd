// Package optdriver is the command-line driver of layout-opt, importable
// the way MLIR's MlirOptMain is: a tool's main is
//
//	func main() { os.Exit(optdriver.Main(proc.OS())) }
//
// and another Go program can host the same driver over its own passes with
// a Tool{Name, Registry}.
//
// The driver follows mlir-opt's habits: it reads a file (or standard
// input, or -), runs a pipeline given as pass flags (in command-line order,
// options as -NAME='key=value ...') or as -pass-pipeline='builtin.module(...)',
// and writes the result to standard output or -o FILE (through a temporary
// file and a rename, so an existing FILE is untouched on error). It
// supports -split-input-file[=MARKER] (diagnostics keep the line numbers of
// the whole file; outputs are joined by -output-split-marker),
// -verify-diagnostics[=all|only-expected] with MLIR's expected-error,
// -warning, -remark and -note designators (@above, @below, @+N, @-N,
// @unknown, and -re regexes in {{...}}), -verify-each, the IR printing
// flags (-mlir-print-ir-before-all, -after-all, -after-change,
// -after-failure, -before=, -after=, -module-scope), -mlir-timing,
// -mlir-print-debuginfo, -mlir-print-op-generic, -mlir-print-local-scope,
// -mlir-use-nameloc-as-prefix, -allow-unregistered-dialect, -dump-pass-pipeline, -list-passes, -help
// and -version. The exit status is 0 on success and 1 on any error.
//
// SSA values are named as mlir-opt and triton-opt name them (%argN for
// entry block arguments, %0, %1, ... for results, the op's own names such
// as arith.constant's %c0_i32 and %cst), whatever the input called them;
// -mlir-use-nameloc-as-prefix names them after their name locations
// instead, as Triton prints its IR (so with -mlir-print-debuginfo Triton's
// printed TTGIR reads back as written, except the region arguments of
// scf.for, whose locations the text does not carry), and -keep-ssa-names,
// which is not an MLIR flag, keeps the names the input wrote.
//
// Diagnostics are printed as MLIR prints them: "file:line:col: error:
// message", the source line and a caret. Errors of the driver itself read
// "layout-opt: error: message".
package optdriver
