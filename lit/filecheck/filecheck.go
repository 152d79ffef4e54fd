package filecheck

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/layoutopt/layoutopt/proc"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// Error is a failure that stops FileCheck before or instead of matching:
// bad options, an invalid check file, an unreadable or empty input. Status
// is the exit status FileCheck uses for it (2, or 1 for a few errors that
// LLVM FileCheck also exits with 1).
type Error struct {
	Status int
	Msg    string // the first diagnostic line

	emptyInput bool // the input was empty without --allow-empty
}

// Error returns the first diagnostic line.
func (e *Error) Error() string { return e.Msg }

// ExitStatus maps the results of Check to FileCheck's exit status:
// 0 matched, 1 did not match, 2 (or Error.Status) for errors.
func ExitStatus(ok bool, err error) int {
	var fe *Error
	switch {
	case errors.As(err, &fe):
		return fe.Status
	case err != nil:
		return 2
	case ok:
		return 0
	}
	return 1
}

// Check runs FileCheck: it matches input against the directives of the
// check file checkText and writes diagnostics, as LLVM FileCheck writes them
// to stderr, to diag. checkName and inputName name the two files in
// messages ("-" for the input means "<stdin>").
//
// ok reports whether all checks passed. A non-nil err (of type *Error)
// means FileCheck could not run the checks at all (exit status
// Error.Status, mostly 2).
func Check(checkName string, checkText []byte, inputName string, input []byte, opts Options, diag io.Writer) (ok bool, err error) {
	if inputName == "-" {
		inputName = "<stdin>"
	}
	var first bytes.Buffer
	w := io.MultiWriter(diag, &firstLine{buf: &first})
	newError := func(status int) *Error {
		return &Error{Status: status, Msg: strings.TrimSuffix(first.String(), "\n")}
	}
	fail := func(status int) (bool, error) { return false, newError(status) }

	for _, d := range opts.Defines {
		eq := strings.IndexByte(d, '=')
		if eq < 0 {
			fmt.Fprintf(w, "Missing equal sign in command-line definition '-D%s'\n", d)
			return fail(2)
		}
		if eq == 0 {
			fmt.Fprintf(w, "Missing variable name in command-line definition '-D%s'\n", d)
			return fail(2)
		}
	}
	checkPrefixes := opts.CheckPrefixes
	isDefault := len(checkPrefixes) == 0
	unique := map[string]bool{}
	if isDefault {
		checkPrefixes = []string{"CHECK"}
		unique["CHECK"] = true
	}
	commentPrefixes := opts.CommentPrefixes
	if commentPrefixes == nil {
		commentPrefixes = []string{"COM", "RUN"}
		unique["COM"], unique["RUN"] = true, true
	}
	if !isDefault {
		if err := validatePrefixes("check", unique, checkPrefixes); err != nil {
			fmt.Fprintln(w, err)
			return fail(2)
		}
	}
	if opts.CommentPrefixes != nil {
		if err := validatePrefixes("comment", unique, commentPrefixes); err != nil {
			fmt.Fprintln(w, err)
			return fail(2)
		}
	}
	// Deduplicate check prefixes (a set in LLVM), keeping order.
	var prefixes []string
	seen := map[string]bool{}
	for _, p := range checkPrefixes {
		if !seen[p] {
			seen[p] = true
			prefixes = append(prefixes, p)
		}
	}

	cbuf := newSrcBuf(checkName, canonicalize(checkText, opts.StrictWhitespace))
	cf, errs := readCheckFile(cbuf, &opts, prefixes, commentPrefixes, isDefault)
	if len(errs) > 0 {
		status := 2
		for _, e := range errs {
			var de *diagError
			if errors.As(e, &de) {
				printMessage(w, opts.Color, de.b, de.off, kindError, de.msg)
				if de.logged {
					io.WriteString(w, "\n")
				}
				if de.exit != 0 {
					status = de.exit
				}
			} else {
				fmt.Fprintln(w, e)
			}
		}
		return fail(status)
	}
	if len(input) == 0 && !opts.AllowEmpty {
		fmt.Fprintf(w, "FileCheck error: '%s' is empty.\n", inputName)
		e := newError(2)
		e.emptyInput = true
		return false, e
	}
	in := newSrcBuf(inputName, canonicalize(input, opts.StrictWhitespace))
	dump := opts.DumpInput
	if dump == "" {
		dump = "fail"
	}
	c := &checker{w: w, in: in, cf: cf, o: &opts, collect: dump != "never"}
	ok = c.checkInput()
	if dump == "always" || (!ok && dump == "fail") {
		filter := map[string]filterMode{"error": filterError, "annotation": filterAnnotation, "annotation-full": filterAnnotationFull, "all": filterAll}
		f, known := filter[opts.DumpInputFilter]
		if !known {
			f = filterError
			if dump == "always" {
				f = filterAll
			}
		}
		fmt.Fprintf(w, "\nInput file: %s\nCheck file: %s\n\n-dump-input=help explains the following input dump.\n\n", inputName, checkName)
		c.dumpAnnotatedInput(w, f, opts.DumpInputContext)
	}
	if !ok && opts.NextDiff {
		c.printNextDiffs(w)
	}
	return ok, nil
}

// firstLine keeps only the first line written through it.
type firstLine struct {
	buf  *bytes.Buffer
	done bool
}

func (f *firstLine) Write(p []byte) (int, error) {
	if !f.done {
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			f.buf.Write(p[:i+1])
			f.done = true
		} else {
			f.buf.Write(p)
		}
	}
	return len(p), nil
}

// printNextDiffs prints, for each failing CHECK-NEXT/EMPTY block, a line
// diff of the block's patterns against the input lines where the block was
// expected.
func (c *checker) printNextDiffs(w io.Writer) {
	for _, nf := range c.nexts {
		strs := c.cf.strings
		k := 0
		for i, cs := range strs {
			if cs == nf.cs {
				k = i
			}
		}
		a := k
		for a > 0 && (strs[a].pat.typ == checkNext || strs[a].pat.typ == checkEmpty) {
			a--
		}
		e := k
		for e+1 < len(strs) && (strs[e+1].pat.typ == checkNext || strs[e+1].pat.typ == checkEmpty) {
			e++
		}
		var want []string
		for _, cs := range strs[a : e+1] {
			want = append(want, strings.TrimSpace(cs.loc.str()))
		}
		// The previous match ended on the line of searchBeg (or just before).
		prevLine, _ := c.in.lineCol(max(nf.searchBeg-1, 0))
		if nf.searchBeg == 0 {
			prevLine = 1
		}
		firstLine := max(1, prevLine-(k-1-a))
		var got []string
		for l := firstLine; l < firstLine+len(want) && l <= len(c.in.lineStarts); l++ {
			got = append(got, strings.TrimSpace(c.in.line(l)))
		}
		cl, _ := nf.cs.loc.b.lineCol(nf.cs.loc.lo)
		fmt.Fprintf(w, "\n%s:%d: diff of the %s block (-expected +input lines %d-%d):\n",
			nf.cs.loc.b.name, cl, strs[a].prefix, firstLine, firstLine+len(got)-1)
		io.WriteString(w, lineDiff(want, got))
	}
}

// lineDiff renders a line-mode diff of want against got.
func lineDiff(want, got []string) string {
	dmp := diffmatchpatch.New()
	t1 := strings.Join(want, "\n") + "\n"
	t2 := strings.Join(got, "\n") + "\n"
	r1, r2, table := dmp.DiffLinesToRunes(t1, t2)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(r1, r2, false), table)
	var sb strings.Builder
	for _, d := range diffs {
		mark := " "
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			mark = "-"
		case diffmatchpatch.DiffInsert:
			mark = "+"
		}
		for _, l := range strings.SplitAfter(d.Text, "\n") {
			if l == "" {
				continue
			}
			sb.WriteString(mark + " " + strings.TrimSuffix(l, "\n") + "\n")
		}
	}
	return sb.String()
}

// Main is FileCheck's command-line entry point: arguments, standard input,
// FILECHECK_OPTS and files all come from p. It returns the exit status.
func Main(p *proc.Proc) int {
	args := p.Args
	if env, ok := p.LookupEnv("FILECHECK_OPTS"); ok {
		args = append(splitGNU(env), args...)
	}
	cl, err := parseArgs(args)
	if err != nil {
		fmt.Fprintln(p.Stderr, err)
		return 1
	}
	if cl.help {
		io.WriteString(p.Stdout, usage)
		return 0
	}
	if cl.version {
		io.WriteString(p.Stdout, "FileCheck (layout-opt Go implementation, LLVM 14 compatible)\n")
		return 0
	}
	if cl.dumpHelp {
		io.WriteString(p.Stdout, DumpHelp)
		return 0
	}
	if cl.checkFile == "" {
		fmt.Fprintln(p.Stderr, "<check-file> not specified")
		return 2
	}
	checkName := cl.checkFile
	checkText, err := p.ReadFile(checkName)
	if err != nil {
		fmt.Fprintf(p.Stderr, "Could not open check file '%s': %s\n", cl.checkFile, errText(err))
		return 2
	}
	if checkName == "-" {
		checkName = "<stdin>"
	}
	inputName := cl.inputFile
	if inputName == "" {
		inputName = "-"
	}
	input, err := p.ReadFile(inputName)
	if err != nil {
		if inputName == "-" {
			inputName = "<stdin>"
		}
		fmt.Fprintf(p.Stderr, "Could not open input file '%s': %s\n", inputName, errText(err))
		return 2
	}
	var diag bytes.Buffer
	ok, err := Check(checkName, checkText, inputName, input, cl.opts, &diag)
	if fe, isFE := err.(*Error); isFE && fe.emptyInput {
		diag.WriteString("FileCheck command line:  FileCheck " + strings.Join(p.Args, " ") + "\n")
	}
	p.Stderr.Write(diag.Bytes())
	return ExitStatus(ok, err)
}

func errText(err error) string {
	if errors.Is(err, os.ErrNotExist) {
		return "No such file or directory"
	}
	if errors.Is(err, os.ErrPermission) {
		return "Permission denied"
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

const usage = `OVERVIEW: FileCheck (Go implementation of LLVM's FileCheck)

USAGE: FileCheck [options] <check-file>

OPTIONS:
  --allow-deprecated-dag-overlap  Enable overlapping among matches in a group of consecutive CHECK-DAG directives
  --allow-empty                   Allow the input file to be empty
  --allow-unused-prefixes         Allow prefixes to be specified but not appear in the test
  --check-prefix=<string>         Prefix to use from check file (defaults to 'CHECK')
  --check-prefixes=<string>       Alias for -check-prefix permitting multiple comma separated values
  --color                         Use colors in diagnostics and the input dump
  --comment-prefixes=<string>     Comment prefixes (defaults to 'COM,RUN')
  -D <VAR=VALUE>                  Define a variable to be used in capture patterns
  --dump-input=<value>            Dump input to stderr: help, always, fail (default), never
  --dump-input-context=<uint>     Lines of context around filtered lines (default 5)
  --dump-input-filter=<value>     all, annotation-full, annotation, error
  --enable-var-scope              Clear local variables at each CHECK-LABEL
  --ignore-case                   Use case-insensitive matching
  --implicit-check-not=<string>   Add an implicit negative check with this pattern
  --input-file=<filename>         File to check (defaults to stdin)
  --match-full-lines              Require all positive matches to cover an entire input line
  --next-diff                     Print a line diff for failing CHECK-NEXT blocks (default on)
  --strict-whitespace             Do not treat all horizontal whitespace as equivalent
  -v                              Print directive pattern matches
  --vv                            Print information helpful in diagnosing internal FileCheck issues

Options are also read from the FILECHECK_OPTS environment variable.
`
