package lit

import (
	"context"
	"errors"
	"fmt"
	"github.com/layoutopt/layoutopt/proc"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"syscall"
)

// crashStatus is the exit status of a command that crashed: an in-process
// tool that panicked, or an external process killed by a signal (whose status
// is minus the signal number, as Python's subprocess reports it). A negative
// status is a crash; `not --crash` expects one.
const crashStatus = -6

// shell is the state of one test's RUN-line shell: the working directory and
// environment that `cd`, `export` and `env` change, the commands it knows,
// and where unredirected output goes.
type shell struct {
	ctx        context.Context // cancels external processes; nil: never
	dir        string
	env        []string
	tools      map[string]proc.Tool // in-process commands
	toolPaths  map[string]string    // command name → executable, preferred over tools
	noPipefail bool                 // a pipeline's status is its last command's
	stdout     io.Writer            // must be safe for concurrent use
	stderr     io.Writer            // must be safe for concurrent use
}

// syncWriter serialises writes to w.
type syncWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (s syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// runLine parses and runs one RUN line and returns its exit status.
func (sh *shell) runLine(line string) (int, error) {
	n, err := parseShell(line)
	if err != nil {
		return 0, err
	}
	return sh.run(n), nil
}

func (sh *shell) run(n node) int {
	switch n := n.(type) {
	case *seq:
		st := sh.run(n.lhs)
		switch n.op {
		case "&&":
			if st != 0 {
				return st
			}
		case "||":
			if st == 0 {
				return 0
			}
		}
		return sh.run(n.rhs)
	case *pipeline:
		return sh.runPipeline(n)
	}
	panic(fmt.Sprintf("lit: unknown shell node %T", n))
}

// runPipeline runs the commands of p concurrently, connected by pipes, and
// returns the status of the last command that failed (pipefail), or 0;
// without pipefail, the status of the last command.
func (sh *shell) runPipeline(p *pipeline) int {
	if len(p.commands) == 1 {
		c := p.commands[0]
		if len(c.args) > 0 {
			switch c.args[0].text {
			case "cd", "export":
				return sh.runStateBuiltin(c)
			}
		}
		return sh.runCommand(c, strings.NewReader(""), sh.stdout)
	}
	for _, c := range p.commands {
		if name := c.args[0].text; name == "cd" || name == "export" {
			fmt.Fprintf(sh.stderr, "'%s' cannot be part of a pipeline\n", name)
			return 127
		}
	}
	status := make([]int, len(p.commands))
	var wg sync.WaitGroup
	var in io.Reader = strings.NewReader("")
	for i, c := range p.commands {
		var out io.Writer = sh.stdout
		var pw *io.PipeWriter
		var pr *io.PipeReader
		if i < len(p.commands)-1 {
			pr, pw = io.Pipe()
			out = pw
		}
		cmdIn := in
		wg.Add(1)
		go func() {
			defer wg.Done()
			status[i] = sh.runCommand(c, cmdIn, out)
			if pw != nil {
				pw.Close() // the next command sees end of input
			}
			if r, ok := cmdIn.(*io.PipeReader); ok {
				// Writers upstream get an error instead of blocking when
				// this command stops reading early, as with SIGPIPE.
				r.CloseWithError(errors.New("broken pipe"))
			}
		}()
		if pr != nil {
			in = pr
		}
	}
	wg.Wait()
	if sh.noPipefail {
		return status[len(status)-1]
	}
	for i := len(status) - 1; i >= 0; i-- {
		if status[i] != 0 {
			return status[i]
		}
	}
	return 0
}

// runStateBuiltin runs cd or export, which change the shell itself.
func (sh *shell) runStateBuiltin(c *command) int {
	args := sh.expand(c.args)
	if len(c.redirects) > 0 {
		fmt.Fprintf(sh.stderr, "%s: redirections are not supported\n", args[0])
		return 1
	}
	switch args[0] {
	case "cd":
		if len(args) != 2 {
			fmt.Fprintln(sh.stderr, "cd: expected exactly one argument")
			return 1
		}
		dir := args[1]
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(sh.dir, dir)
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			fmt.Fprintf(sh.stderr, "cd: %s: no such directory\n", args[1])
			return 1
		}
		sh.dir = dir
	case "export":
		for _, a := range args[1:] {
			k, v, ok := strings.Cut(a, "=")
			if !ok || k == "" {
				fmt.Fprintf(sh.stderr, "export: expected NAME=VALUE, got %q\n", a)
				return 1
			}
			sh.env = append(sh.env, k+"="+v)
		}
	}
	return 0
}

// expand turns words into arguments, expanding globs against the working
// directory; a pattern that matches nothing stays as it is.
func (sh *shell) expand(ws []word) []string {
	var args []string
	for _, w := range ws {
		if !w.glob {
			args = append(args, w.text)
			continue
		}
		pat := w.text
		if !filepath.IsAbs(pat) {
			pat = filepath.Join(sh.dir, pat)
		}
		matches, err := filepath.Glob(pat)
		if err != nil || len(matches) == 0 {
			args = append(args, w.text)
			continue
		}
		sort.Strings(matches)
		for _, m := range matches {
			if !filepath.IsAbs(w.text) {
				if rel, err := filepath.Rel(sh.dir, m); err == nil {
					m = rel
				}
			}
			args = append(args, m)
		}
	}
	return args
}

// runCommand applies c's redirections and runs it with stdin in and stdout
// out.
func (sh *shell) runCommand(c *command, in io.Reader, out io.Writer) int {
	fds := [3]any{in, out, sh.stderr}
	origin := [3]int{0, 1, 2} // which stream each descriptor now refers to
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	for _, r := range c.redirects {
		target := r.target.text
		if r.target.glob {
			if m := sh.expand([]word{r.target}); len(m) == 1 {
				target = m[0]
			}
		}
		path := target
		if !filepath.IsAbs(path) {
			path = filepath.Join(sh.dir, path)
		}
		open := func(flag int) *os.File {
			f, err := os.OpenFile(path, flag, 0o666)
			if err != nil {
				fmt.Fprintf(sh.stderr, "%s\n", err)
				return nil
			}
			files = append(files, f)
			return f
		}
		// toBoth sends stdout and stderr to one truncated file.
		toBoth := func() bool {
			f := open(os.O_WRONLY | os.O_CREATE | os.O_TRUNC)
			if f == nil {
				return false
			}
			fds[1], fds[2] = f, f
			origin[1], origin[2] = 3+len(files), 3+len(files)
			return true
		}
		fd := r.fd
		switch r.op {
		case ">", ">>":
			if fd < 0 {
				fd = 1
			}
			flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
			if r.op == ">>" {
				flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
			}
			if fd > 2 {
				fmt.Fprintf(sh.stderr, "unsupported redirect of file descriptor %d\n", fd)
				return 1
			}
			f := open(flag)
			if f == nil {
				return 1
			}
			fds[fd] = f
			origin[fd] = 3 + len(files)
		case "<":
			if fd < 0 {
				fd = 0
			}
			if fd != 0 {
				fmt.Fprintf(sh.stderr, "unsupported redirect of file descriptor %d for input\n", fd)
				return 1
			}
			f := open(os.O_RDONLY)
			if f == nil {
				return 1
			}
			fds[0] = f
		case "&>":
			if !toBoth() {
				return 1
			}
		case ">&", "<&":
			if fd < 0 {
				fd = 1
				if r.op == "<&" {
					fd = 0
				}
			}
			src := -1
			if len(target) == 1 && target[0] >= '0' && target[0] <= '2' {
				src = int(target[0] - '0')
			}
			if fd > 2 || src < 0 || (fd == 0) != (src == 0) {
				if r.op == ">&" && r.fd < 0 { // ">&file" is "&>file"
					if !toBoth() {
						return 1
					}
					continue
				}
				fmt.Fprintf(sh.stderr, "unsupported redirect %d%s%s\n", fd, r.op, target)
				return 1
			}
			fds[fd] = fds[src]
			origin[fd] = origin[src]
		default:
			fmt.Fprintf(sh.stderr, "unsupported redirect %q\n", r.op)
			return 1
		}
	}
	stdin := fds[0].(io.Reader)
	stdout, stderr := fds[1].(io.Writer), fds[2].(io.Writer)
	if origin[1] == origin[2] {
		if _, ok := stdout.(*os.File); !ok {
			var mu sync.Mutex
			w := syncWriter{&mu, stdout}
			stdout, stderr = w, w
		}
	}
	args := sh.expand(c.args)
	return sh.exec(args, sh.dir, sh.env, stdin, stdout, stderr)
}

// exec runs one command by name: a shell builtin (not, env, :), an
// executable named in the config, an in-process tool, or a program found on
// PATH, in that order.
func (sh *shell) exec(args []string, dir string, env []string, stdin io.Reader, stdout, stderr io.Writer) int {
	name := args[0]
	switch name {
	case ":":
		return 0
	case "not":
		crash := false
		rest := args[1:]
		if len(rest) > 0 && rest[0] == "--crash" {
			crash, rest = true, rest[1:]
		}
		if len(rest) == 0 {
			fmt.Fprintln(stderr, "not: missing command")
			return 1
		}
		st := sh.exec(rest, dir, env, stdin, stdout, stderr)
		switch {
		case crash && st < 0:
			return 0
		case crash:
			return 1
		case st < 0: // a crash is never the failure "not" expects
			return 1
		case st == 0:
			return 1
		}
		return 0
	case "env":
		env = append([]string(nil), env...)
		rest := args[1:]
		for len(rest) > 0 {
			switch {
			case rest[0] == "-u" && len(rest) > 1:
				env = unsetEnv(env, rest[1])
				rest = rest[2:]
				continue
			case rest[0] == "-i" || rest[0] == "--ignore-environment":
				env = nil
				rest = rest[1:]
				continue
			}
			k, _, ok := strings.Cut(rest[0], "=")
			if !ok || k == "" {
				break
			}
			env = append(env, rest[0])
			rest = rest[1:]
		}
		if len(rest) == 0 {
			for _, kv := range env {
				fmt.Fprintln(stdout, kv)
			}
			return 0
		}
		return sh.exec(rest, dir, env, stdin, stdout, stderr)
	case "cd", "export":
		fmt.Fprintf(stderr, "'%s' cannot be used here\n", name)
		return 127
	}
	if path, ok := sh.toolPaths[name]; ok {
		if !strings.ContainsRune(path, '/') {
			found, err := lookPath(path, dir, env)
			if err != nil {
				fmt.Fprintf(stderr, "'%s': tool %s not found on PATH\n", name, path)
				return 127
			}
			path = found
		}
		return runExternal(sh.ctx, path, args, dir, env, stdin, stdout, stderr)
	}
	if tool, ok := sh.tools[name]; ok {
		return runTool(tool, &proc.Proc{Args: args[1:], Dir: dir, Env: env, Stdin: stdin, Stdout: stdout, Stderr: stderr})
	}
	path, err := lookPath(name, dir, env)
	if err != nil {
		fmt.Fprintf(stderr, "'%s': command not found\n", name)
		return 127
	}
	return runExternal(sh.ctx, path, args, dir, env, stdin, stdout, stderr)
}

// unsetEnv removes every entry for key from env.
func unsetEnv(env []string, key string) []string {
	out := env[:0]
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != key {
			out = append(out, kv)
		}
	}
	return out
}

// runTool runs an in-process tool; a panic is a crash, reported like one.
func runTool(tool proc.Tool, p *proc.Proc) (status int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(p.Stderr, "panic: %v\n\n%s", r, debug.Stack())
			status = crashStatus
		}
	}()
	return tool(p)
}

// runExternal runs an executable and returns its exit status, minus the
// signal number when a signal killed it.
func runExternal(ctx context.Context, path string, args []string, dir string, env []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if ctx == nil {
		ctx = context.Background()
	}
	cmd := exec.CommandContext(ctx, path, args[1:]...)
	cmd.Args[0] = args[0]
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	// Feed a non-file stdin through a pipe of our own, so that waiting for
	// the process does not wait for an upstream command that has not
	// finished writing (exec.Cmd.Wait would).
	var feed *os.File
	if f, ok := stdin.(*os.File); ok {
		cmd.Stdin = f
	} else {
		r, w, err := os.Pipe()
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", args[0], err)
			return 127
		}
		cmd.Stdin, feed = r, w
	}
	err := cmd.Start()
	if feed != nil {
		cmd.Stdin.(*os.File).Close() // the child has its own copy
	}
	if err != nil {
		if feed != nil {
			feed.Close()
		}
		fmt.Fprintf(stderr, "%s: %v\n", args[0], err)
		return 127
	}
	if feed != nil {
		go func() {
			io.Copy(feed, stdin) // ends when the child exits (EPIPE) or stdin ends
			feed.Close()
		}()
	}
	err = cmd.Wait()
	if ps := cmd.ProcessState; ps != nil {
		// The process's own status, even when copying its output failed
		// because the next command stopped reading, as a shell reports it.
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return -int(ws.Signal())
		}
		return ps.ExitCode()
	}
	fmt.Fprintf(stderr, "%s: %v\n", args[0], err)
	return 127
}

// lookPath finds an executable on the PATH of env; a name with a slash is
// taken relative to dir.
func lookPath(name, dir string, env []string) (string, error) {
	isExec := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
	}
	if strings.ContainsRune(name, '/') {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if isExec(p) {
			return p, nil
		}
		return "", fs.ErrNotExist
	}
	for _, d := range filepath.SplitList((&proc.Proc{Env: env}).Getenv("PATH")) {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		if p := filepath.Join(d, name); isExec(p) {
			return p, nil
		}
	}
	return "", fs.ErrNotExist
}
