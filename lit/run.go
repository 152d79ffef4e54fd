package lit

import (
	"bytes"
	"context"
	"fmt"
	"github.com/layoutopt/layoutopt/proc"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Code is the outcome of a test.
type Code int

// The outcomes, in the order lit's summary lists them.
const (
	Excluded    Code = iota // filtered out; not run
	Unsupported             // a REQUIRES is false, an UNSUPPORTED is true, or the config says so
	Pass                    // every RUN line succeeded
	FlakyPass               // passed after failing first (ALLOW_RETRIES)
	XFail                   // failed, as its XFAIL said it would
	Unresolved              // could not be run: bad keywords, no RUN line
	Timeout                 // ran past Runner.Timeout
	Fail                    // a RUN line failed
	XPass                   // passed although an XFAIL said it would fail
)

var codeNames = [...]struct{ name, label string }{
	Excluded:    {"EXCLUDED", "Excluded"},
	Unsupported: {"UNSUPPORTED", "Unsupported"},
	Pass:        {"PASS", "Passed"},
	FlakyPass:   {"FLAKYPASS", "Passed With Retry"},
	XFail:       {"XFAIL", "Expectedly Failed"},
	Unresolved:  {"UNRESOLVED", "Unresolved"},
	Timeout:     {"TIMEOUT", "Timed Out"},
	Fail:        {"FAIL", "Failed"},
	XPass:       {"XPASS", "Unexpectedly Passed"},
}

// String is the code as lit prints it before a test name: "PASS", "FAIL", ….
func (c Code) String() string {
	if c < 0 || int(c) >= len(codeNames) {
		return fmt.Sprintf("Code(%d)", int(c))
	}
	return codeNames[c].name
}

// Label is the code's name in the summary: "Passed", "Failed", ….
func (c Code) Label() string {
	if c < 0 || int(c) >= len(codeNames) {
		return c.String()
	}
	return codeNames[c].label
}

// IsFailure reports whether the code makes the run fail.
func (c Code) IsFailure() bool { return c == Fail || c == XPass || c == Unresolved || c == Timeout }

// Result is the outcome of running one test.
type Result struct {
	Test    *Test
	Code    Code
	Output  string        // the log: script, failing command, exit code, command output
	Elapsed time.Duration // wall time of all attempts
}

// Runner runs tests. Its fields must not change while tests run; Run is safe
// to call from many goroutines.
type Runner struct {
	// Tools are the commands that run in-process, by name. They shadow the
	// shell's Builtins; an executable named by a config's "tool" entry
	// shadows both. Commands found in neither run as external programs.
	Tools map[string]proc.Tool
	// Env is the environment every test starts from ("KEY=VALUE").
	Env []string
	// ExecRoot, when set, replaces each suite's exec_root: a test's %t
	// then lives under ExecRoot/<suite name>/<dir>/Output.
	ExecRoot string
	// Timeout, when positive, limits each test's wall time. A test that
	// runs past it is a TIMEOUT: its external processes are killed, but
	// an in-process tool cannot be stopped and finishes in the background.
	Timeout time.Duration

	once  sync.Once
	tools map[string]proc.Tool
}

func (r *Runner) toolTable() map[string]proc.Tool {
	r.once.Do(func() {
		r.tools = Builtins()
		for k, v := range r.Tools {
			r.tools[k] = v
		}
	})
	return r.tools
}

// Run runs one test: it reads the test's keywords, decides whether it is
// supported, runs its RUN lines in order until one fails (retrying as
// ALLOW_RETRIES allows), and judges the outcome against XFAIL.
func (r *Runner) Run(t *Test) Result {
	start := time.Now()
	var res Result
	if r.Timeout <= 0 {
		res = r.run(context.Background(), t)
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), r.Timeout)
		done := make(chan Result, 1)
		go func() { done <- r.run(ctx, t) }()
		select {
		case res = <-done:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			res = Result{Code: Timeout, Output: fmt.Sprintf("Reached timeout of %v\n%s", r.Timeout, res.Output)}
		}
		cancel()
	}
	res.Test = t
	res.Elapsed = time.Since(start)
	return res
}

func (r *Runner) run(ctx context.Context, t *Test) Result {
	data, err := os.ReadFile(t.Path)
	if err != nil {
		return Result{Code: Unresolved, Output: err.Error() + "\n"}
	}
	sc, err := parseTestScript(t.Path, data)
	if err != nil {
		return Result{Code: Unresolved, Output: err.Error() + "\n"}
	}
	cfg := t.Config
	if cfg.Unsupported {
		return Result{Code: Unsupported, Output: "Test is unsupported by its configuration\n"}
	}
	features := map[string]bool{}
	for _, f := range cfg.Features {
		features[f] = true
	}
	var missing, present []string
	for _, e := range sc.requires {
		if ok, _ := EvalFeatures(e, features); !ok {
			missing = append(missing, e)
		}
	}
	if len(missing) > 0 {
		return Result{Code: Unsupported, Output: "Test requires the following unavailable features: " + strings.Join(missing, ", ") + "\n"}
	}
	for _, e := range sc.unsupported {
		if ok, _ := EvalFeatures(e, features); ok {
			present = append(present, e)
		}
	}
	if len(present) > 0 {
		return Result{Code: Unsupported, Output: "Test does not support the following features and/or targets: " + strings.Join(present, ", ") + "\n"}
	}
	xfail := false
	for _, e := range sc.xfail {
		if ok, _ := EvalFeatures(e, features); e == "*" || ok {
			xfail = true
		}
	}

	execDir, tmpDir, tmpBase := r.paths(t)
	if err := os.MkdirAll(tmpDir, 0o777); err != nil {
		return Result{Code: Unresolved, Output: err.Error() + "\n"}
	}
	subs := append(slices.Clone(cfg.Substitutions), builtinSubstitutions(t.Path, tmpDir, tmpBase)...)
	// Each RUN line sees the directives before it: apply them in steps,
	// from one line's substitutions to the next's.
	lineSubs := make([][]Substitution, len(sc.runs))
	applied := 0
	for i, rl := range sc.runs {
		subs, err = applyDefines(t.Path, subs, sc.defines[applied:rl.defines])
		if err != nil {
			return Result{Code: Unresolved, Output: err.Error() + "\n"}
		}
		applied = rl.defines
		lineSubs[i] = subs
	}
	env := append(append([]string(nil), r.Env...), cfg.Env...)
	if len(cfg.Path) > 0 {
		p := strings.Join(cfg.Path, string(os.PathListSeparator))
		if old := (&proc.Proc{Env: env}).Getenv("PATH"); old != "" {
			p += string(os.PathListSeparator) + old
		}
		env = append(env, "PATH="+p)
	}

	var out string
	passed := false
	attempts := sc.allowRetries + 1
	for attempt := 0; attempt < attempts && !passed && ctx.Err() == nil; attempt++ {
		passed, out = r.execute(ctx, sc.runs, lineSubs, execDir, env, cfg)
		if passed && attempt > 0 && !xfail {
			return Result{Code: FlakyPass, Output: out}
		}
	}
	switch {
	case xfail && passed:
		return Result{Code: XPass, Output: out}
	case xfail:
		return Result{Code: XFail, Output: out}
	case passed:
		return Result{Code: Pass, Output: out}
	}
	return Result{Code: Fail, Output: out}
}

// builtinSubstitutions returns lit's own substitutions for a test file
// with the given temporary directory (%T) and base (%t is tmpBase+".tmp").
func builtinSubstitutions(file, tmpDir, tmpBase string) []Substitution {
	srcDir := filepath.Dir(file)
	tmp := tmpBase + ".tmp"
	real := func(p string) string { // symlinks resolved, as far as p exists
		dir, base := p, ""
		for {
			if r, err := filepath.EvalSymlinks(dir); err == nil {
				return filepath.Join(r, base)
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				return p
			}
			dir, base = parent, filepath.Join(filepath.Base(dir), base)
		}
	}
	stem := func(p string) string { return strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)) }
	subs := []Substitution{
		{"%{pathsep}", string(os.PathListSeparator)},
		{"%{fs-src-root}", filepath.VolumeName(file) + string(filepath.Separator)},
		{"%{fs-tmp-root}", filepath.VolumeName(tmp) + string(filepath.Separator)},
		{"%{fs-sep}", string(filepath.Separator)},
		{"%{s:basename}", filepath.Base(file)},
		{"%{s:stem}", stem(file)},
		{"%{t:stem}", filepath.Base(tmpBase)},
		{"%basename_t", filepath.Base(tmpBase)},
	}
	paths := []struct{ letter, path string }{
		{"s", file}, {"S", srcDir}, {"p", srcDir}, {"t", tmp}, {"T", tmpDir},
	}
	for _, v := range paths {
		subs = append(subs,
			Substitution{"%{" + v.letter + ":real}", real(v.path)},
			Substitution{"%/" + v.letter, filepath.ToSlash(v.path)},
			Substitution{"%:" + v.letter, noDriveColon(v.path)},
		)
	}
	// The plain forms come after all the others.
	for _, v := range paths {
		subs = append(subs, Substitution{"%" + v.letter, v.path})
	}
	return subs
}

// noDriveColon drops the colon of a Windows drive letter ("C:\\x" → "C\\x").
func noDriveColon(p string) string {
	if len(p) >= 2 && p[1] == ':' {
		return p[:1] + p[2:]
	}
	return p
}

// paths returns the directory a test runs in, its Output directory (%T)
// and the base of its temporary names (%t is tmpBase+".tmp").
func (r *Runner) paths(t *Test) (execDir, tmpDir, tmpBase string) {
	root := t.Config.ExecRoot
	if r.ExecRoot != "" {
		root = filepath.Join(r.ExecRoot, safeName(t.Config.Name))
	} else if root == "" {
		root = t.Config.SourceRoot
	}
	dir, base := path.Split(t.Rel)
	execDir = filepath.Join(root, filepath.FromSlash(dir))
	tmpDir = filepath.Join(execDir, "Output")
	return execDir, tmpDir, filepath.Join(tmpDir, base)
}

// safeName makes a suite name usable as one path element.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, s)
}

// lockedBuffer is a bytes.Buffer safe for concurrent writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// execute runs the RUN lines in order and stops at the first that fails;
// subs[i] are the substitutions of runs[i].
// It returns whether all succeeded and the log, in lit's format.
func (r *Runner) execute(ctx context.Context, runs []runLine, subs [][]Substitution, dir string, env []string, cfg *Config) (bool, string) {
	var stdout, stderr lockedBuffer
	sh := &shell{ctx: ctx, dir: dir, env: env, tools: r.toolTable(), toolPaths: cfg.ToolPaths, noPipefail: !cfg.Pipefail,
		stdout: &stdout, stderr: &stderr}
	var log strings.Builder
	log.WriteString("Script:\n--\n")
	cmds := make([]string, len(runs))
	for i, rl := range runs {
		cmds[i] = substitute(rl.text, subs[i])
		fmt.Fprintf(&log, ": 'RUN: at line %d'; %s\n", rl.line, cmds[i])
	}
	log.WriteString("--\n")
	status := 0
	for i, rl := range runs {
		if ctx.Err() != nil {
			status = 1
			break
		}
		st, err := sh.runLine(cmds[i])
		if err != nil {
			fmt.Fprintf(&stderr, "shell parser error on RUN: at line %d: %v\n", rl.line, err)
			st = 127
		}
		if st != 0 {
			status = st
			fmt.Fprintf(&log, "Exit Code: %d\nFailed Command (RUN: at line %d):\n--\n%s\n--\n", st, rl.line, strings.TrimSpace(cmds[i]))
			break
		}
	}
	if status == 0 {
		log.WriteString("Exit Code: 0\n")
	}
	log.WriteString("\n")
	for _, o := range []struct {
		name string
		buf  *lockedBuffer
	}{{"stdout", &stdout}, {"stderr", &stderr}} {
		if o.buf.buf.Len() == 0 {
			continue
		}
		fmt.Fprintf(&log, "Command Output (%s):\n--\n%s", o.name, o.buf.buf.String())
		if !bytes.HasSuffix(o.buf.buf.Bytes(), []byte("\n")) {
			log.WriteString("\n")
		}
		log.WriteString("--\n")
	}
	return status == 0, log.String()
}
