package lit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/proc"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// Builtins returns the commands the RUN-line shell provides in-process, as
// lit's internal shell does: cat, count, diff, echo, false, mkdir, rm,
// split-file and true. The shell itself also handles cd, export, env, not
// and ":". Each call returns a new map, which a caller may extend.
func Builtins() map[string]proc.Tool {
	return map[string]proc.Tool{
		"cat":        catMain,
		"count":      countMain,
		"diff":       diffMain,
		"echo":       echoMain,
		"false":      func(*proc.Proc) int { return 1 },
		"mkdir":      mkdirMain,
		"rm":         rmMain,
		"split-file": splitFileMain,
		"true":       func(*proc.Proc) int { return 0 },
	}
}

// echoMain is echo with -n (no newline) and -e (backslash escapes).
func echoMain(p *proc.Proc) int {
	args := p.Args
	newline, escapes := true, false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		for _, c := range args[0][1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	s := strings.Join(args, " ")
	if escapes {
		var stop bool
		s, stop = echoEscapes(s)
		if stop {
			newline = false
		}
	}
	if newline {
		s += "\n"
	}
	if _, err := io.WriteString(p.Stdout, s); err != nil {
		return 1
	}
	return 0
}

// echoEscapes interprets echo -e escapes; stop reports \c.
func echoEscapes(s string) (out string, stop bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\':
			b.WriteByte('\\')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'c':
			return b.String(), true
		case '0':
			n, j := 0, i+1
			for ; j < len(s) && j < i+4 && s[j] >= '0' && s[j] <= '7'; j++ {
				n = n*8 + int(s[j]-'0')
			}
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String(), false
}

// catMain concatenates files ("-" or none: stdin); -v (--show-nonprinting)
// shows control characters in ^X and M- notation.
func catMain(p *proc.Proc) int {
	var files []string
	show := false
	for _, a := range p.Args {
		switch a {
		case "-v", "--show-nonprinting":
			show = true
		default:
			if strings.HasPrefix(a, "-") && a != "-" {
				fmt.Fprintf(p.Stderr, "cat: unsupported option %s\n", a)
				return 1
			}
			files = append(files, a)
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, name := range files {
		data, err := p.ReadFile(name)
		if err != nil {
			fmt.Fprintf(p.Stderr, "cat: %v\n", err)
			status = 1
			continue
		}
		if show {
			data = showNonprinting(data)
		}
		if _, err := p.Stdout.Write(data); err != nil {
			return 1
		}
	}
	return status
}

// showNonprinting renders bytes like cat -v: control characters as ^X,
// DEL as ^?, high bytes as M-x; newlines and tabs stay.
func showNonprinting(data []byte) []byte {
	var b bytes.Buffer
	for _, c := range data {
		if c >= 128 {
			b.WriteString("M-")
			c -= 128
		}
		switch {
		case c == '\n' || c == '\t':
			b.WriteByte(c)
		case c < 32:
			b.WriteByte('^')
			b.WriteByte(c + 64)
		case c == 127:
			b.WriteString("^?")
		default:
			b.WriteByte(c)
		}
	}
	return b.Bytes()
}

// countMain checks that stdin has exactly N newline characters, as LLVM's
// count does.
func countMain(p *proc.Proc) int {
	if len(p.Args) != 1 {
		fmt.Fprintln(p.Stderr, "usage: count <expected line count>")
		return 2
	}
	want, err := strconv.Atoi(p.Args[0])
	if err != nil || want < 0 {
		fmt.Fprintf(p.Stderr, "count: invalid line count %q\n", p.Args[0])
		return 2
	}
	data, err := io.ReadAll(p.Stdin)
	if err != nil {
		fmt.Fprintf(p.Stderr, "count: %v\n", err)
		return 2
	}
	got := bytes.Count(data, []byte("\n")) // a last line without newline does not count, as in LLVM
	if got != want {
		fmt.Fprintf(p.Stderr, "Expected %d lines, got %d.\n", want, got)
		return 1
	}
	return 0
}

// mkdirMain creates directories; -p creates parents and accepts existing
// ones.
func mkdirMain(p *proc.Proc) int {
	parents := false
	var dirs []string
	for _, a := range p.Args {
		if a == "-p" {
			parents = true
		} else {
			dirs = append(dirs, a)
		}
	}
	if len(dirs) == 0 {
		fmt.Fprintln(p.Stderr, "mkdir: missing operand")
		return 1
	}
	status := 0
	for _, d := range dirs {
		var err error
		if parents {
			err = os.MkdirAll(p.Path(d), 0o777)
		} else {
			err = os.Mkdir(p.Path(d), 0o777)
		}
		if err != nil {
			fmt.Fprintf(p.Stderr, "mkdir: %v\n", err)
			status = 1
		}
	}
	return status
}

// rmMain removes files; -f ignores missing ones, -r/-R removes directories
// recursively.
func rmMain(p *proc.Proc) int {
	force, recursive := false, false
	var names []string
	for i, a := range p.Args {
		if a == "--" {
			names = append(names, p.Args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "frRv") == "" {
			force = force || strings.Contains(a, "f")
			recursive = recursive || strings.ContainsAny(a, "rR")
			continue
		}
		names = append(names, a)
	}
	if len(names) == 0 && !force {
		fmt.Fprintln(p.Stderr, "rm: missing operand")
		return 1
	}
	status := 0
	for _, n := range names {
		path := p.Path(n)
		fi, err := os.Lstat(path)
		switch {
		case errors.Is(err, os.ErrNotExist) && force:
			continue
		case err != nil:
			fmt.Fprintf(p.Stderr, "rm: %v\n", err)
			status = 1
			continue
		case fi.IsDir() && !recursive:
			fmt.Fprintf(p.Stderr, "rm: cannot remove %s: is a directory\n", n)
			status = 1
			continue
		}
		if err := os.RemoveAll(path); err != nil {
			fmt.Fprintf(p.Stderr, "rm: %v\n", err)
			status = 1
		}
	}
	return status
}

// diffMain compares two files ("-" for stdin) line by line and prints a
// unified diff when they differ. Options: -b (ignore changes in the amount
// of white space), -w (ignore all white space), -B (ignore blank lines),
// --strip-trailing-cr, -u/-U N (context lines, default 3). Exit status 0:
// same, 1: different, 2: trouble.
func diffMain(p *proc.Proc) int {
	var opts diffOptions
	opts.context = 3
	var files []string
	args := p.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-b" || a == "--ignore-space-change":
			opts.spaceChange = true
		case a == "-w" || a == "--ignore-all-space":
			opts.allSpace = true
		case a == "-B" || a == "--ignore-blank-lines":
			opts.blankLines = true
		case a == "--strip-trailing-cr":
			opts.stripCR = true
		case a == "-u" || a == "--unified":
		case strings.HasPrefix(a, "-U"):
			v := a[2:] // -UN, or -U N
			if v == "" && i+1 < len(args) {
				i++
				v = args[i]
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				fmt.Fprintf(p.Stderr, "diff: invalid context length %q\n", v)
				return 2
			}
			opts.context = n
		case a == "-" || !strings.HasPrefix(a, "-"):
			files = append(files, a)
		default:
			fmt.Fprintf(p.Stderr, "diff: unsupported option %s\n", a)
			return 2
		}
	}
	if len(files) != 2 {
		fmt.Fprintln(p.Stderr, "diff: expected two files")
		return 2
	}
	var texts [2][]byte
	for i, f := range files {
		data, err := p.ReadFile(f)
		if err != nil {
			fmt.Fprintf(p.Stderr, "diff: %v\n", err)
			return 2
		}
		texts[i] = data
	}
	out := unifiedDiff(files[0], files[1], string(texts[0]), string(texts[1]), opts)
	if out == "" {
		return 0
	}
	io.WriteString(p.Stdout, out)
	return 1
}

type diffOptions struct {
	spaceChange, allSpace, blankLines, stripCR bool
	context                                    int
}

// key is the form of a line that the comparison sees.
func (o diffOptions) key(line string) string {
	if o.stripCR {
		line = strings.TrimSuffix(line, "\r")
	}
	switch {
	case o.allSpace:
		line = strings.Join(strings.Fields(line), "")
	case o.spaceChange:
		line = strings.Join(strings.Fields(line), " ")
	}
	return line
}

// splitLines splits text into lines without their newlines.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// unifiedDiff returns the unified diff of a and b, or "" when they are the
// same under opts.
func unifiedDiff(nameA, nameB, a, b string, opts diffOptions) string {
	la, lb := splitLines(a), splitLines(b)
	// Line-mode diff: map each distinct key to a rune, diff the runes.
	ids := map[string]rune{}
	toRunes := func(lines []string) []rune {
		rs := make([]rune, len(lines))
		for i, l := range lines {
			k := opts.key(l)
			id, ok := ids[k]
			if !ok {
				id = rune(len(ids) + 1)
				if id >= 0xD800 { // skip surrogates, which are not valid runes
					id += 0x800
				}
				ids[k] = id
			}
			rs[i] = id
		}
		return rs
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	diffs := dmp.DiffMainRunes(toRunes(la), toRunes(lb), false)

	// Turn the diff into edit operations, one per line.
	type edit struct {
		op   byte // ' ', '-', '+'
		a, b int  // line indexes in la, lb (the one that applies)
	}
	var edits []edit
	ia, ib := 0, 0
	for _, d := range diffs {
		n := len([]rune(d.Text))
		for range n {
			switch d.Type {
			case diffmatchpatch.DiffEqual:
				edits = append(edits, edit{' ', ia, ib})
				ia++
				ib++
			case diffmatchpatch.DiffDelete:
				edits = append(edits, edit{'-', ia, ib})
				ia++
			case diffmatchpatch.DiffInsert:
				edits = append(edits, edit{'+', ia, ib})
				ib++
			}
		}
	}
	changed := func(e edit) bool {
		if e.op == ' ' {
			return false
		}
		if opts.blankLines {
			if e.op == '-' {
				return strings.TrimSpace(la[e.a]) != ""
			}
			return strings.TrimSpace(lb[e.b]) != ""
		}
		return true
	}
	var out strings.Builder
	for i := 0; i < len(edits); {
		if !changed(edits[i]) {
			i++
			continue
		}
		// A hunk: from context lines before the change to context lines
		// after the last change that is within 2*context of the next.
		start := max(i-opts.context, 0)
		end := i
		for j := i; j < len(edits); j++ {
			if changed(edits[j]) {
				end = j
			} else if j-end > 2*opts.context {
				break
			}
		}
		stop := min(end+opts.context+1, len(edits))
		if out.Len() == 0 {
			fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
		}
		var na, nb int
		for _, e := range edits[start:stop] {
			if e.op != '+' {
				na++
			}
			if e.op != '-' {
				nb++
			}
		}
		first := edits[start]
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(first.a, na), hunkRange(first.b, nb))
		for _, e := range edits[start:stop] {
			switch e.op {
			case ' ':
				out.WriteString(" " + la[e.a] + "\n")
			case '-':
				out.WriteString("-" + la[e.a] + "\n")
			case '+':
				out.WriteString("+" + lb[e.b] + "\n")
			}
		}
		i = stop
	}
	return out.String()
}

// hunkRange formats a unified-diff range: start line (1-based) and count.
func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return strconv.Itoa(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitFileMain is LLVM's split-file: it splits the input at lines
// "//--- NAME" or "X--- NAME" (X one character, e.g. "#" or ";") into files
// under the output directory. --leading-lines keeps line numbers by
// prefixing each part with empty lines; --no-leading-lines is the default.
func splitFileMain(p *proc.Proc) int {
	leading := false
	var pos []string
	for _, a := range p.Args {
		switch a {
		case "--leading-lines", "-leading-lines":
			leading = true
		case "--no-leading-lines", "-no-leading-lines":
			leading = false
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) != 2 {
		fmt.Fprintln(p.Stderr, "usage: split-file [--leading-lines] INPUT DIRECTORY")
		return 1
	}
	data, err := p.ReadFile(pos[0])
	if err != nil {
		fmt.Fprintf(p.Stderr, "split-file: error: %v\n", err)
		return 1
	}
	type part struct {
		name    string
		begin   int // byte offset of the first content line
		end     int
		leading int
	}
	var parts []*part
	seen := map[string]bool{}
	errs := 0
	off, lineNo := 0, 0
	for off < len(data) {
		lineNo++
		lineStart := off
		line := string(data[off:])
		if j := strings.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
			off += j + 1
		} else {
			off = len(data)
		}
		line = strings.TrimSuffix(line, "\r")
		markerLen := 5
		if strings.HasPrefix(line, "//") {
			markerLen = 6
		}
		if len(line) < markerLen || !strings.HasPrefix(line[markerLen-4:], "--- ") {
			continue
		}
		name := line[markerLen:]
		switch {
		case name == "":
			fmt.Fprintf(p.Stderr, "%s:%d: error: empty part name\n", pos[0], lineNo)
			errs++
			continue
		case strings.TrimSpace(name) != name:
			fmt.Fprintf(p.Stderr, "%s:%d: error: part name cannot have leading or trailing space\n", pos[0], lineNo)
			errs++
			continue
		case seen[name]:
			fmt.Fprintf(p.Stderr, "%s:%d: error: '%s' occurs more than once\n", pos[0], lineNo, line)
			errs++
			continue
		}
		seen[name] = true
		if len(parts) > 0 {
			parts[len(parts)-1].end = lineStart
		}
		pt := &part{name: name, begin: off}
		if leading {
			pt.leading = lineNo
		}
		parts = append(parts, pt)
	}
	if len(parts) == 0 {
		fmt.Fprintf(p.Stderr, "split-file: error: %s: no part separator was found\n", pos[0])
		return 1
	}
	if errs > 0 {
		return 1
	}
	parts[len(parts)-1].end = len(data)
	outDir := p.Path(pos[1])
	if fi, err := os.Stat(outDir); err == nil && !fi.IsDir() {
		os.Remove(outDir)
	}
	for _, pt := range parts {
		path := filepath.Join(outDir, filepath.FromSlash(pt.name))
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			fmt.Fprintf(p.Stderr, "split-file: error: %v\n", err)
			return 1
		}
		content := strings.Repeat("\n", pt.leading) + string(data[pt.begin:pt.end])
		if err := os.WriteFile(path, []byte(content), 0o666); err != nil {
			fmt.Fprintf(p.Stderr, "split-file: error: %v\n", err)
			return 1
		}
	}
	return 0
}
