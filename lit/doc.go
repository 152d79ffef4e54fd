// Package lit is a Go implementation of LLVM's lit test runner for
// FileCheck-style tests, with lit's internal shell. It stands alone: of the
// project it imports only package proc, and the tools that RUN lines call
// are handed to it as a map of in-process [proc.Tool] functions.
//
// # Tests
//
// A test is a file whose comments hold keywords, as in lit:
//
//	// RUN: layout-opt %s -remove-redundant-conversions \
//	// RUN:   | FileCheck %s
//	// REQUIRES: asserts && !windows
//	// UNSUPPORTED: slow
//	// XFAIL: *
//	// ALLOW_RETRIES: 2
//	// END.
//
// A keyword counts anywhere on a line unless it is the tail of a longer
// word ("CHECK-RUN:" is not RUN:). RUN: lines run in order and the first
// that fails fails the test; a RUN: line ending in a backslash continues
// with the text of the next RUN: line. REQUIRES:, UNSUPPORTED: and XFAIL:
// take comma-separated feature expressions (see [EvalFeatures]); a test
// runs only if every REQUIRES holds, is UNSUPPORTED if any UNSUPPORTED
// holds, and is expected to fail if any XFAIL holds ("*" always does). A
// passing XFAIL test is an XPASS, which is a failure. ALLOW_RETRIES: N
// reruns a failing test up to N times; passing on a retry is a FLAKYPASS.
// "DEFINE: %{name} = text" adds a substitution for the RUN lines after it,
// in front of all others (the name must be new); "REDEFINE: %{name} =
// text" changes an existing one from there on; both continue onto the
// next line of the same keyword after a trailing backslash, joined by one
// space. Scanning stops at END.
//
// # Substitutions
//
// Before a RUN line runs, the suite's substitutions apply in the order the
// configuration gives them, then the built-in ones: %s (the test file), %S
// and %p (its directory), %t (a temporary path for the test,
// EXEC/dir/Output/name.tmp), %T (that Output directory), %basename_t and
// %{t:stem} (the base name of %t without .tmp), %{s:basename}, %{s:stem},
// the slash forms %/s %/S %/p %/t %/T, the symlink-free forms %{s:real}
// %{S:real} %{p:real} %{t:real} %{T:real}, the drive-colon-free forms %:s
// %:S %:p %:t %:T, %{pathsep}, %{fs-sep}, %{fs-src-root}, %{fs-tmp-root},
// and %(line), %(line+N), %(line-N) (the RUN line's number). %% is a
// literal %.
//
// # The shell
//
// RUN lines run in lit's internal shell, never /bin/sh: words with sh
// quoting ('…', "…", backslash) and globs (* and ? outside quotes, expanded
// in the working directory); pipelines with | (with pipefail, unless the
// configuration turns it off: a pipeline fails when any command in it
// fails); && and || and ; (left to right, as lit); redirections >, >>, <,
// 2>, 2>>, 2>&1, 1>&2, &> and >&FILE. The commands of a pipeline run
// concurrently and stream through pipes.
//
// A command is, in this order: a shell builtin (":", cd and export, which
// change the shell for the later RUN lines; env [-u NAME] [NAME=VALUE]...
// CMD; not CMD, which succeeds when CMD fails without crashing; not --crash
// CMD, which succeeds when CMD crashes); an executable named by the
// configuration's "tool" entry; an in-process tool from the runner's map,
// which shadows the [Builtins] (cat, count, diff, echo, false, mkdir, rm,
// split-file, true); or a program found on PATH. An in-process tool that
// panics has crashed: the shell prints the panic and a stack trace to the
// command's stderr. An external program killed by a signal has crashed too.
//
// # Suites and configuration
//
// A suite is a directory with a lit.cfg; lit finds it by walking up from
// each path it is given. A lit.local.cfg in a directory of the suite
// adjusts the configuration of that directory and those below it. Both
// files have one setting a line, "#" starts a comment line:
//
//	name = LAYOUTOPT                  # suite name, shown as "LAYOUTOPT :: path"
//	suffixes = .mlir .ll              # which files are tests
//	excludes = Inputs README.txt      # file and directory names to skip
//	features = asserts nvptx          # available features, for REQUIRES etc.
//	features += gpu                   # "+=" appends to a list, "=" replaces it
//	substitute %triton = layout-opt --mlir-print-debuginfo
//	env FILECHECK_OPTS = --enable-var-scope
//	tool FileCheck = /usr/lib/llvm-14/bin/FileCheck   # run this executable for FileCheck
//	path = ../bin                     # directories put in front of PATH
//	exec_root = ../build/test         # where Output/ (%t) lives (lit.cfg only)
//	unsupported = true                # every test here is UNSUPPORTED
//	pipefail = false                  # a pipeline's status is its last command's
//
// Pipefail is on by default, as in lit. The lists (suffixes, excludes,
// features, path) are separated by white space. "substitute PATTERN =
// TEXT" replaces the plain text PATTERN (substitutions are not regular
// expressions here) and keeps its place when a later file sets the same
// PATTERN again. Relative paths are relative to
// the file's directory; a tool given as a bare name is looked up on PATH.
// The default name is the suite directory's name and the default exec_root
// the suite directory itself. An unknown key or a malformed line is an
// error located as "file:line: error: …".
//
// # Running
//
// [Main] is the command-line runner (cmd/lit is a thin main over it). Its
// flags follow lit's: -j N, -v (log of each failure: the script, the
// failing command, its exit code, stdout and stderr), -a (log of every
// test), -q, -s, --filter REGEX and --filter-out REGEX (case-insensitive,
// on "SUITE :: path"), --xunit-xml-output FILE, -o FILE (JSON results),
// --max-failures N, --num-shards M and --run-shard K (or LIT_NUM_SHARDS
// and LIT_RUN_SHARD: run every M-th test starting at the K-th),
// --timeout SECONDS (per test), --show-tests, --ignore-fail,
// --allow-empty-runs and --exec-root DIR. Finding no test, or filters that
// leave none, is an error (status 2), as in lit. It prints a line per
// test as it finishes, "PASS: SUITE :: path (3 of 10)", then a summary in
// lit's form whose last line is exactly "N passed, N failed", followed by
// ", N skipped" when any test was UNSUPPORTED.
//
// A test's commands see the runner's environment (the lit command passes
// its own) with the configuration's env entries and path directories
// added; the working directory is the test's directory under the exec
// root.
//
// For Go programs, [Discover] finds tests and [Runner.Run] runs one, so a
// go test can run a suite as subtests.
package lit
