// Package filecheck is a Go implementation of LLVM's FileCheck, faithful to
// LLVM 14 (the FileCheck shipped as /usr/lib/llvm-14/bin/FileCheck), so that
// LLVM, MLIR and Triton lit tests run unchanged without an LLVM install.
//
// # Use
//
// Check runs one check file over one input and writes FileCheck's
// diagnostics to a writer:
//
//	ok, err := filecheck.Check("test.mlir", checkText, "-", output, filecheck.DefaultOptions(), os.Stderr)
//
// ok reports whether every directive matched; err (an *Error) means that
// FileCheck could not run the checks at all (bad options, an invalid check
// file, an empty input): exit status 2. ExitStatus maps the pair to the
// exit status. Main is the command-line entry point (cmd/filecheck and the
// in-process lit runner use it); it reads options from the arguments and
// from FILECHECK_OPTS, the check file from its positional argument and the
// input from --input-file or standard input, all through a *proc.Proc.
//
// # What is implemented
//
// The check file and the input are canonicalized as LLVM does ("\r\n"
// becomes "\n"; runs of blanks become one space unless
// --strict-whitespace), and all messages quote the canonical text, as LLVM's
// do. Directives: CHECK, -NEXT, -SAME, -NOT, -DAG, -LABEL, -EMPTY,
// -COUNT-<n>, the {LITERAL} modifier, comment prefixes (COM, RUN or
// --comment-prefixes), custom --check-prefix/--check-prefixes, and the
// check-file errors LLVM reports (empty patterns, -NOT combinations, bad
// counts, NEXT/SAME/EMPTY first, LABEL with variables, unused prefixes).
// Patterns: literal text, {{regex}}, [[VAR:regex]] and [[VAR]] (including
// uses on the defining line), numeric blocks [[#%fmt,VAR:expr]] with the
// u/d/x/X formats, precision and the '#' alternate form, + and -,
// add/sub/mul/div/min/max, parentheses, @LINE in both syntaxes, -D VAR=V
// and -D#fmt,VAR=expr. Matching follows FileCheck::checkInput,
// FileCheckString::Check, CheckDag and CheckNot: CHECK-NOT ranges, DAG
// groups with non-overlapping matches (or --allow-deprecated-dag-overlap),
// LABEL blocks checked independently, --enable-var-scope, and
// --implicit-check-not. Options: --match-full-lines, --strict-whitespace,
// --ignore-case, --allow-empty, --allow-unused-prefixes, --input-file,
// -v, -vv, --color, --dump-input=help|always|fail|never,
// --dump-input-filter, --dump-input-context, and FILECHECK_OPTS. Flags
// take LLVM's spellings: one or two dashes, "=value" or a separate value,
// repeated list options, and unknown or repeated single options are
// reported as llvm::cl does.
//
// Failure reports (error, pattern and caret lines, "scanning from here",
// "possible intended match", the notes of NEXT/SAME/NOT failures, variable
// substitutions, -v remarks) and the annotated input dump are byte for byte
// LLVM's; testdata/golden holds reports captured from FileCheck-14 and
// TestDifferential compares hundreds of generated runs with the installed
// FileCheck when it is present. As an extension, when a CHECK-NEXT or
// CHECK-EMPTY block fails, a line diff of the block's patterns against the
// nearest input lines follows the report (Options.NextDiff, flag
// --next-diff=false turns it off).
//
// # Known differences from LLVM FileCheck 14
//
//   - Regular expressions are POSIX EREs translated to Go's RE2 syntax and
//     matched leftmost-longest. The overall match equals POSIX's; the
//     submatch chosen for a capture can differ from POSIX's rules in
//     ambiguous cases such as (a|ab)(c|bcd). Go matches UTF-8 runes where
//     llvm::Regex matches bytes, and case folding under --ignore-case is
//     Unicode-aware for regex patterns (ASCII-only for literal ones, as in
//     LLVM). Back-references written inside {{...}} (\1 .. \9) are
//     rejected; equivalence classes and collating elements are limited to
//     single characters.
//   - Same-line variable uses ([[R:r[0-9]]] ... [[R]]) have no RE2
//     equivalent. They are matched by searching with the use replaced by a
//     copy of the definition's regex and, when the two captures differ,
//     retrying at that start with the definition fixed to each candidate
//     value (the captured texts and their prefixes), then at later starts.
//     This finds the same match as LLVM for the usual patterns; a few
//     pathological patterns could need more candidates than are tried (64
//     per start position, 65536 per search).
//     llvm::Regex never matches a back-reference to a group that holds
//     only an anchor ("[[V:^]] ... [[V]]") and misses some matches when the
//     referenced group holds a repeated group that can match the empty
//     string ("[[V:(a?)*b]]...[[V]]") or that matched nothing through a
//     "?" or "{0,}" piece before a later "$"; this package finds those
//     matches. Conversely llvm::Regex occasionally accepts a match with an
//     impossible capture (an empty text for a group that cannot match
//     empty, seen once in 3000 generated cases); those are not reproduced.
//   - LLVM computes the "possible intended match" note of a pattern made
//     only of substitutions (for example "CHECK: [[X]]") from an
//     uninitialized value, so whether it prints it is unpredictable; this
//     package never prints it.
//   - The program name in messages is "FileCheck", not argv[0]; -D accepts
//     "-D VAR=V" with a separate value, which LLVM 14 rejects. Output is
//     colored only with --color (Options.Color), never by detecting a
//     terminal; the colors are LLVM's ANSI sequences, byte for byte.
package filecheck
