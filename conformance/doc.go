// Package conformance measures layout-opt against Triton 3.6's own lit
// tests (../shared/triton36/lit: Triton/, TritonGPU/, TritonNvidiaGPU/),
// with triton-opt replaced by layout-opt and everything run in-process
// (optdriver.Main and filecheck.Main). Its test, TestTriton36, holds the
// result to testdata/triton36.expect; see README.md for how to use it.
//
// There are four kinds of case, each with an id "FILE#N" (FILE relative
// to the corpus, N 1-based):
//
//   - round-trip FILE#N: chunk N of FILE, split at "// -----" exactly as
//     -split-input-file splits (every file with the marker uses that flag),
//     for every file that some RUN line runs as "triton-opt ... %s ...".
//     Chunks holding "expected-error" are left out (they are meant to
//     fail). The chunk passes when layout-opt
//     [-allow-unregistered-dialect] parses, verifies and prints it (custom
//     form), and printing the parse of that output gives the same text:
//     print(parse(print(parse(x)))) == print(parse(x)). The flag is given
//     when any of the file's RUN lines gives it.
//   - verify-diagnostics FILE#N: chunk N of a file whose RUN line is
//     "triton-opt %s FLAGS [| FileCheck ...]" with -verify-diagnostics and
//     FLAGS only driver flags (split, unregistered dialects, printing) or
//     passes layout-opt has (by name or Triton alias). The chunk runs alone
//     (line numbers kept) with that RUN line's flags; it passes when
//     layout-opt exits 0, that is, every expected-* diagnostic was produced
//     and no other error was. Without -split-input-file the file is one
//     chunk. A FileCheck after the pipe is not run (print-only covers it).
//   - print-only FILE#N: CHECK-LABEL block N of a RUN line
//     "triton-opt %s [driver flags, no pass] | FileCheck %s [flags]"
//     (id FILE@RUNk#N when a file has several such lines). layout-opt runs
//     once on the whole file as the RUN line says; then FileCheck, with the
//     RUN line's flags, checks its output against the check file reduced to
//     the lines before the first label (shared definitions) plus block N,
//     other lines blanked so line numbers stay. A file without labels is
//     one block. The output is checked even when layout-opt failed on
//     another chunk of a split file, so that one failing chunk does not
//     hide the others; a block whose chunk failed fails (its label is not
//     in the output), with layout-opt's first error as the reason.
//   - pass FILE#N: CHECK-LABEL block N of a RUN line
//     "triton-opt %s [driver flags] PASSES [2>&1] | FileCheck %s [flags]"
//     whose passes layout-opt all has (by name or Triton alias), without
//     -verify-diagnostics. As print-only, except that the block's check
//     text keeps the next block's label, so that the block is checked up
//     to where that label matches, as in the whole file (a CHECK-NOT at
//     the end of a block does not see later chunks); when that label is
//     what fails, the block is checked alone. With 2>&1, FileCheck reads
//     layout-opt's error output after its output.
//
// A block keeps the definitions of global variables ([[$NAME:...]]) of
// earlier blocks only when it uses them.
//
// RUN lines with env, not, redirections (but a 2>&1 after triton-opt's
// arguments), other commands or inputs other than %s are out of scope for
// verify-diagnostics, print-only and pass.
package conformance
