package lit

import (
	"bytes"
	"flag"
	"fmt"
	"github.com/layoutopt/layoutopt/proc"
	"io"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"
)

// options are Main's command-line settings.
type options struct {
	workers     int
	verbose     bool
	showAll     bool
	quiet       bool
	succinct    bool
	filter      string
	filterOut   string
	xunit       string
	showTests   bool
	ignoreFail  bool
	maxFailures int
	execRoot    string
	timeout     int
	allowEmpty  bool
	jsonOut     string
	numShards   int
	runShard    int

	include, exclude *regexp.Regexp // compiled filters; nil: none
}

// Main is the lit command: it discovers the tests under the paths in
// p.Args, runs them in parallel with tools available in-process, prints
// progress, failure logs and a summary that ends with the line
// "N passed, N failed[, N skipped]" to p.Stdout, and returns 1 when a test
// failed, 2 on a usage or configuration error, 0 otherwise. The extra
// arguments in the environment variable LIT_OPTS (split with sh quoting)
// come after p.Args; LIT_FILTER and LIT_FILTER_OUT give defaults for
// --filter and --filter-out, and LIT_NUM_SHARDS and LIT_RUN_SHARD for
// --num-shards and --run-shard.
func Main(p *proc.Proc, tools map[string]proc.Tool) int {
	o, paths, status := parseArgs(p)
	if o == nil {
		return status
	}
	tests, err := Discover(paths...)
	if err != nil {
		fmt.Fprintln(p.Stderr, err)
		return 2
	}
	if len(tests) == 0 {
		fmt.Fprintln(p.Stderr, "lit: error: did not discover any tests for the given paths")
		return 2
	}
	if o.showTests {
		for _, t := range tests {
			fmt.Fprintf(p.Stdout, "  %s\n", t.FullName())
		}
		return 0
	}
	selected, results := o.selectTests(tests)
	if len(selected) == 0 && !o.allowEmpty {
		fmt.Fprintf(p.Stderr, "lit: error: the filters did not match any tests (of %d discovered); use --allow-empty-runs to allow this\n", len(tests))
		return 2
	}
	workers := min(o.workers, max(len(selected), 1))
	if len(selected) == len(tests) {
		fmt.Fprintf(p.Stdout, "-- Testing: %d tests, %d workers --\n", len(tests), workers)
	} else {
		fmt.Fprintf(p.Stdout, "-- Testing: %d of %d tests, %d workers --\n", len(selected), len(tests), workers)
	}

	r := &Runner{Tools: tools, Env: p.Env, Timeout: time.Duration(o.timeout) * time.Second}
	if o.execRoot != "" {
		r.ExecRoot = p.Path(o.execRoot)
	}
	start := time.Now()
	results = append(results, runAll(r, selected, workers, p.Stdout, *o)...)
	elapsed := time.Since(start)

	WriteSummary(p.Stdout, results, elapsed, o.quiet)
	for _, out := range []struct {
		path  string
		write func(io.Writer, []Result, time.Duration) error
	}{{o.xunit, WriteXUnit}, {o.jsonOut, WriteJSON}} {
		if out.path == "" {
			continue
		}
		var buf bytes.Buffer
		err := out.write(&buf, results, elapsed)
		if err == nil {
			err = proc.WriteFileAtomic(p.Path(out.path), buf.Bytes())
		}
		if err != nil {
			fmt.Fprintf(p.Stderr, "lit: error: %v\n", err)
			return 2
		}
	}
	if Count(results).Failed > 0 && !o.ignoreFail {
		return 1
	}
	return 0
}

// parseArgs reads the command line (p.Args, then LIT_OPTS). It returns the
// options and the absolute test paths, or nil options and the exit status
// when there is nothing to run.
func parseArgs(p *proc.Proc) (*options, []string, int) {
	fs := flag.NewFlagSet("lit", flag.ContinueOnError)
	fs.SetOutput(p.Stderr)
	var o options
	fs.Usage = func() {
		fmt.Fprintln(p.Stderr, "usage: lit [options] PATH...\n\nRuns the lit tests in the files and directories given.\n\nOptions:")
		fs.PrintDefaults()
	}
	// Each option has lit's names; the first is documented, the others
	// are aliases.
	usage := func(names []string, i int, text string) string {
		if i == 0 {
			return text
		}
		return "same as -" + names[0]
	}
	for _, f := range []struct {
		names []string
		dst   *bool
		text  string
	}{
		{[]string{"v", "verbose", "vv"}, &o.verbose, "print the log of each failing test"},
		{[]string{"a", "show-all"}, &o.showAll, "print the log of every test"},
		{[]string{"q", "quiet"}, &o.quiet, "print nothing but failures and the closing line"},
		{[]string{"s", "succinct"}, &o.succinct, "print only failing tests"},
	} {
		for i, n := range f.names {
			fs.BoolVar(f.dst, n, false, usage(f.names, i, f.text))
		}
	}
	jNames := []string{"j", "threads", "workers"}
	for i, n := range jNames {
		fs.IntVar(&o.workers, n, runtime.NumCPU(), usage(jNames, i, "run `N` tests at once"))
	}
	fs.StringVar(&o.filter, "filter", p.Getenv("LIT_FILTER"), "run only tests whose name matches `REGEX` (case-insensitive)")
	fs.StringVar(&o.filterOut, "filter-out", p.Getenv("LIT_FILTER_OUT"), "skip tests whose name matches `REGEX` (case-insensitive)")
	fs.StringVar(&o.xunit, "xunit-xml-output", "", "write results as xunit XML to `FILE`")
	fs.StringVar(&o.jsonOut, "o", "", "write results as JSON to `FILE`")
	fs.StringVar(&o.jsonOut, "output", "", "same as -o")
	fs.IntVar(&o.numShards, "num-shards", envInt(p, "LIT_NUM_SHARDS", 1), "split the tests into `M` shards")
	fs.IntVar(&o.runShard, "run-shard", envInt(p, "LIT_RUN_SHARD", 1), "run shard `K` of M (tests K, K+M, K+2M, ...)")
	fs.BoolVar(&o.showTests, "show-tests", false, "list the tests found and exit")
	fs.BoolVar(&o.allowEmpty, "allow-empty-runs", false, "do not fail when the filters select no test")
	fs.BoolVar(&o.ignoreFail, "ignore-fail", false, "exit with status 0 even when tests failed")
	fs.IntVar(&o.maxFailures, "max-failures", 0, "stop after `N` failures (0: no limit)")
	fs.IntVar(&o.timeout, "timeout", 0, "fail a test that runs longer than `SECONDS` (0: no limit)")
	fs.StringVar(&o.execRoot, "exec-root", "", "put every suite's Output directories under `DIR`")

	extra, err := splitWords(p.Getenv("LIT_OPTS"))
	if err != nil {
		fmt.Fprintf(p.Stderr, "lit: error: LIT_OPTS: %v\n", err)
		return nil, nil, 2
	}
	args := expandJ(append(slices.Clone(p.Args), extra...))
	var paths []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, nil, 0
			}
			return nil, nil, 2
		}
		if fs.NArg() == 0 {
			break
		}
		paths = append(paths, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(paths) == 0 {
		fmt.Fprintln(p.Stderr, "lit: error: no test paths given")
		fs.Usage()
		return nil, nil, 2
	}
	if o.numShards < 1 || o.runShard < 1 || o.runShard > o.numShards {
		fmt.Fprintf(p.Stderr, "lit: error: --run-shard must be between 1 and --num-shards (%d), not %d\n", o.numShards, o.runShard)
		return nil, nil, 2
	}
	if o.workers < 1 {
		fmt.Fprintln(p.Stderr, "lit: error: -j must be at least 1")
		return nil, nil, 2
	}
	for _, f := range []struct {
		expr string
		re   **regexp.Regexp
	}{{o.filter, &o.include}, {o.filterOut, &o.exclude}} {
		if f.expr == "" {
			continue
		}
		re, err := regexp.Compile("(?i)" + f.expr)
		if err != nil {
			fmt.Fprintf(p.Stderr, "lit: error: bad filter: %v\n", err)
			return nil, nil, 2
		}
		*f.re = re
	}
	for i, path := range paths {
		paths[i] = p.Path(path)
	}
	return &o, paths, 0
}

// selectTests picks the tests to run: those that pass the filters and
// fall in the shard. The others come back as Excluded results.
func (o *options) selectTests(tests []*Test) (selected []*Test, excluded []Result) {
	matched := 0 // tests that pass the filters; shards split these
	for _, t := range tests {
		name := t.FullName()
		if o.include != nil && !o.include.MatchString(name) || o.exclude != nil && o.exclude.MatchString(name) {
			excluded = append(excluded, Result{Test: t, Code: Excluded})
			continue
		}
		matched++
		if (matched-1)%o.numShards != o.runShard-1 {
			excluded = append(excluded, Result{Test: t, Code: Excluded})
			continue
		}
		selected = append(selected, t)
	}
	return selected, excluded
}

// splitWords splits s into words with the RUN-line shell's quoting.
func splitWords(s string) ([]string, error) {
	toks, err := lexShell(s)
	if err != nil {
		return nil, err
	}
	words := make([]string, 0, len(toks))
	for _, t := range toks {
		if t.kind != tokWord {
			return nil, fmt.Errorf("unexpected %q", t.op)
		}
		words = append(words, t.word.text)
	}
	return words, nil
}

// envInt returns the integer in environment variable key, or def.
func envInt(p *proc.Proc, key string, def int) int {
	if n, err := strconv.Atoi(p.Getenv(key)); err == nil {
		return n
	}
	return def
}

// expandJ rewrites "-j4" as "-j=4", the form lit users type.
func expandJ(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if len(a) > 2 && a[0] == '-' && a[1] == 'j' && a[2] != '=' {
			if _, err := strconv.Atoi(a[2:]); err == nil {
				a = "-j=" + a[2:]
			}
		}
		out[i] = a
	}
	return out
}

// runAll runs tests on a pool of workers and reports each result as it
// comes. Tests not started because of --max-failures are left out.
func runAll(r *Runner, tests []*Test, workers int, w io.Writer, o options) []Result {
	jobs := make(chan *Test)
	var mu sync.Mutex
	var results []Result
	failures := 0
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range jobs {
				select {
				case <-stop:
					continue // --max-failures reached
				default:
				}
				res := r.Run(t)
				mu.Lock()
				results = append(results, res)
				report(w, res, len(results), len(tests), o)
				if res.Code.IsFailure() {
					failures++
					if o.maxFailures > 0 && failures == o.maxFailures {
						close(stop)
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, t := range tests {
		select {
		case jobs <- t:
		case <-stop:
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return results
}

// report prints one result line, and the test's log when asked to.
func report(w io.Writer, res Result, i, n int, o options) {
	failed := res.Code.IsFailure()
	if (o.quiet || o.succinct) && !failed {
		return
	}
	fmt.Fprintf(w, "%s: %s (%d of %d)\n", res.Code, res.Test.FullName(), i, n)
	if o.showAll || (o.verbose && failed) {
		WriteFailureLog(w, res)
	}
}
