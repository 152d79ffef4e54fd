package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/layoutopt/layoutopt/passes"
)

// SplitMarker is -split-input-file's default marker.
const SplitMarker = "// -----"

// File is one test file of the corpus with its RUN lines.
type File struct {
	Rel  string // path in the corpus, with slashes: "TritonGPU/invalid.mlir"
	Path string // path on disk
	Text string
	Runs []*Run
}

// Run is one RUN line (continuations joined) of a file.
type Run struct {
	Index int // 1-based among the file's RUN lines
	Line  int // line of the first RUN: keyword
	Text  string

	// Opt holds the arguments of triton-opt when the RUN line is
	// "triton-opt ARGS [| FileCheck ARGS]" (no env, not, redirections or
	// other commands); OK reports that form.
	OK    bool
	Opt   []string
	Check []string // FileCheck's arguments; nil when there is no FileCheck

	InputIsFile       bool     // triton-opt reads %s
	Split             bool     // -split-input-file
	VerifyDiagnostics bool     // -verify-diagnostics[=mode]
	AllowUnregistered bool     // -allow-unregistered-dialect
	Passes            []string // passes layout-opt has (by name or alias)
	Missing           []string // flags that are neither driver flags nor layout-opt passes
	MergeStderr       bool     // "2>&1" after triton-opt's arguments: FileCheck reads stderr too
}

// driverFlags are layout-opt's flags that run no pass.
var driverFlags = map[string]bool{
	"split-input-file": true, "verify-diagnostics": true, "allow-unregistered-dialect": true,
	"mlir-print-debuginfo": true, "mlir-print-op-generic": true, "mlir-print-local-scope": true,
	"mlir-disable-threading": true, "output-split-marker": true, "verify-each": true,
}

// Load reads every .mlir file under root, sorted by path.
func Load(root string) ([]*File, error) {
	var files []*File
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".mlir") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		f := &File{Rel: filepath.ToSlash(rel), Path: path, Text: string(data)}
		f.Runs = parseRuns(f.Text)
		files = append(files, f)
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].Rel < files[j].Rel })
	return files, err
}

// AllowUnregistered reports whether any of the file's RUN lines passes
// -allow-unregistered-dialect to triton-opt.
func (f *File) AllowUnregistered() bool {
	for _, r := range f.Runs {
		if r.AllowUnregistered {
			return true
		}
	}
	return false
}

// ReadsFile reports whether some RUN line runs triton-opt on the file itself.
func (f *File) ReadsFile() bool {
	for _, r := range f.Runs {
		if r.OK && r.InputIsFile {
			return true
		}
	}
	return false
}

// parseRuns collects the RUN lines of a test file as lit does: a line
// holding "RUN:" (not the tail of a longer word such as CHECK-RUN:), a
// trailing backslash continuing onto the next RUN line.
func parseRuns(text string) []*Run {
	var runs []*Run
	var cur *Run
	for i, line := range strings.Split(text, "\n") {
		k := strings.Index(line, "RUN:")
		if k < 0 || (k > 0 && isWordChar(line[k-1])) {
			continue
		}
		body := strings.TrimSpace(line[k+len("RUN:"):])
		if cur == nil {
			cur = &Run{Index: len(runs) + 1, Line: i + 1}
		}
		if cont, ok := strings.CutSuffix(body, "\\"); ok {
			cur.Text += cont
			continue
		}
		cur.Text += body
		cur.classify()
		runs = append(runs, cur)
		cur = nil
	}
	return runs
}

func isWordChar(c byte) bool {
	return c == '-' || c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// classify fills in the fields derived from the RUN line's text.
func (r *Run) classify() {
	cmds, ok := splitPipeline(r.Text)
	if !ok || len(cmds) == 0 || len(cmds) > 2 || len(cmds[0]) == 0 || cmds[0][0] != "triton-opt" {
		return
	}
	if len(cmds) == 2 {
		if len(cmds[1]) == 0 || cmds[1][0] != "FileCheck" {
			return
		}
		r.Check = cmds[1][1:]
	}
	r.OK = true
	r.Opt = cmds[0][1:]
	if n := len(r.Opt); n > 0 && r.Opt[n-1] == "2>&1" {
		r.MergeStderr = true
		r.Opt = r.Opt[:n-1]
	}
	for _, a := range r.Opt {
		if a == "%s" {
			r.InputIsFile = true
			continue
		}
		if !strings.HasPrefix(a, "-") {
			r.Missing = append(r.Missing, "input "+a)
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case name == "split-input-file":
			r.Split = true
		case name == "verify-diagnostics":
			r.VerifyDiagnostics = true
		case name == "allow-unregistered-dialect":
			r.AllowUnregistered = true
		case driverFlags[name]:
		case passes.Lookup(name) != nil:
			r.Passes = append(r.Passes, name)
		default:
			r.Missing = append(r.Missing, name)
		}
	}
}

// splitPipeline splits a RUN line into the words of its commands, with sh
// quoting. It reports false for anything but a plain pipeline (&&, ;,
// redirections other than a "2>&1" word, which it keeps as a word).
func splitPipeline(s string) ([][]string, bool) {
	var cmds [][]string
	var words []string
	var w strings.Builder
	inWord := false
	end := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			end()
		case c == '|':
			end()
			if i+1 < len(s) && s[i+1] == '|' {
				return nil, false
			}
			cmds = append(cmds, words)
			words = nil
		case c == '2' && !inWord && strings.HasPrefix(s[i:], "2>&1") && (i+4 == len(s) || s[i+4] == ' ' || s[i+4] == '\t' || s[i+4] == '|'):
			words = append(words, "2>&1")
			i += 3
		case c == '&' || c == ';' || c == '<' || c == '>':
			return nil, false
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			w.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				w.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, false
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	end()
	cmds = append(cmds, words)
	return cmds, true
}

// Chunk is one piece of a file split as -split-input-file splits it.
type Chunk struct {
	Index     int // 1-based
	Text      string
	StartLine int // line of Text[0] in the file
}

// Padded returns the chunk preceded by enough newlines that its lines keep
// their line numbers in the file.
func (c Chunk) Padded() string {
	return strings.Repeat("\n", c.StartLine-1) + c.Text
}

// SplitChunks splits src as mlir-opt's splitAndProcessBuffer (and
// layout-opt's -split-input-file) does with the default marker "// -----":
// a cut at every "// ---" followed by "--" that is not followed by another
// "-".
func SplitChunks(src string) []Chunk {
	const prefix, suffix = "// ---", "--"
	var chunks []Chunk
	start, from, line := 0, 0, 1
	add := func(end int) {
		chunks = append(chunks, Chunk{Index: len(chunks) + 1, Text: src[start:end], StartLine: line})
	}
	for {
		i := strings.Index(src[from:], prefix)
		if i < 0 {
			break
		}
		i += from
		after := i + len(prefix)
		rest := src[after:]
		if strings.HasPrefix(rest, suffix) && len(rest) > len(suffix) && rest[len(suffix)] != '-' {
			add(i)
			next := after + len(suffix)
			line += strings.Count(src[start:next], "\n")
			start = next
		}
		from = after
	}
	add(len(src))
	return chunks
}

// Block is one CHECK-LABEL block of a check file: the check file with every
// directive line outside the preamble (the lines before the first label),
// the earlier labels and this block blanked, so line numbers stay.
type Block struct {
	Index int // 1-based
	Line  int // line of the label (0 when the file has no label)
	Label string
	Check string
	// NextLine and Next are the line number and text of the next block's
	// label (0 and "" for the last block).
	NextLine int
	Next     string
}

// Bounded returns the block's check text with the next block's label
// kept, so that the block's directives are checked up to where that
// label matches, as FileCheck checks the whole file.
func (b Block) Bounded() string {
	if b.NextLine == 0 {
		return b.Check
	}
	lines := strings.SplitAfter(b.Check, "\n")
	lines[b.NextLine-1] = b.Next
	return strings.Join(lines, "")
}

// LabelBlocks cuts the check file text at the CHECK-LABEL directives of the
// given prefixes. A file without labels is one block.
func LabelBlocks(text string, prefixes []string) []Block {
	lines := strings.SplitAfter(text, "\n")
	var labels []int
	for i, l := range lines {
		for _, p := range prefixes {
			if k := strings.Index(l, p+"-LABEL:"); k >= 0 && (k == 0 || !isWordChar(l[k-1])) {
				labels = append(labels, i)
				break
			}
		}
	}
	if len(labels) == 0 {
		return []Block{{Index: 1, Check: text}}
	}
	var blocks []Block
	for n, from := range labels {
		to := len(lines)
		if n+1 < len(labels) {
			to = labels[n+1]
		}
		// The definitions of global variables before the block that the
		// block uses, with the directives from the label they follow down
		// to them, so that they match where they did in the whole file.
		body := strings.Join(lines[from:to], "")
		keep := map[int]bool{}
		last := -1
		for i := labels[0]; i < from; i++ {
			if slices.Contains(labels, i) {
				// FileCheck matches every label first, each after the one
				// before: the earlier labels stay, so that this one
				// matches where it does in the whole file (two labels
				// that both match "@wait_barrier" take its first and its
				// second occurrence).
				keep[i] = true
				last = i
			} else if g := definesGlobal(lines[i], prefixes); g != "" && strings.Contains(body, "[[$"+g+"]]") {
				for k := last; k <= i; k++ {
					keep[k] = true
				}
			}
		}
		var b strings.Builder
		for i, l := range lines {
			if i < labels[0] || from <= i && i < to || keep[i] {
				b.WriteString(l)
			} else if strings.HasSuffix(l, "\n") {
				b.WriteByte('\n')
			}
		}
		blk := Block{Index: n + 1, Line: from + 1, Label: strings.TrimSpace(lines[from]), Check: b.String()}
		if n+1 < len(labels) {
			blk.NextLine, blk.Next = to+1, lines[to]
		}
		blocks = append(blocks, blk)
	}
	return blocks
}

// definesGlobal reports whether check line l is a plain or DAG directive
// that defines a global variable (`[[$NAME:...]]`). FileCheck's global
// variables outlive CHECK-LABEL blocks, so a block keeps the definitions
// written before it; such a line matches before the block's label, where
// it matched in the whole file too.
func definesGlobal(l string, prefixes []string) string {
	at := strings.Index(l, "[[$")
	if at < 0 {
		return ""
	}
	name := at + 3
	for name < len(l) && isWordChar(l[name]) {
		name++
	}
	if name == at+3 || name >= len(l) || l[name] != ':' {
		return ""
	}
	for _, p := range prefixes {
		for _, d := range []string{p + ":", p + "-DAG:"} {
			if k := strings.Index(l, d); k >= 0 && (k == 0 || !isWordChar(l[k-1])) && k < at {
				return l[at+3 : name]
			}
		}
	}
	return ""
}

// CheckPrefixes returns the prefixes a FileCheck command line selects
// (CHECK when none is given).
func CheckPrefixes(args []string) []string {
	var ps []string
	for i := 0; i < len(args); i++ {
		a := strings.TrimLeft(args[i], "-")
		name, val, hasVal := strings.Cut(a, "=")
		if name != "check-prefix" && name != "check-prefixes" {
			continue
		}
		if !hasVal && i+1 < len(args) {
			i++
			val = args[i]
		}
		ps = append(ps, strings.Split(val, ",")...)
	}
	if len(ps) == 0 {
		ps = []string{"CHECK"}
	}
	return ps
}

func (r *Run) String() string { return fmt.Sprintf("RUN %d (line %d): %s", r.Index, r.Line, r.Text) }
