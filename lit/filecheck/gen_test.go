package filecheck

import (
	"fmt"
	"math/rand"
	"strings"
)

// genCase is one generated FileCheck run: check file, input and flags.
type genCase struct {
	name  string
	env   string // FILECHECK_OPTS, "" for none
	check string
	input string
	args  []string
}

// caseGen generates FileCheck runs from a seed. The checks are derived from
// the input so that most directives could match, then perturbed, so the
// cases mix passes and failures of every kind.
type caseGen struct {
	r *rand.Rand
	// noAnchors keeps ^ and $ out of generated EREs (see genRegex).
	noAnchors bool
}

var genWords = []string{
	"foo", "bar", "baz", "add", "mul", "%0", "%1", "%arg0", "r1", "r2", "r7",
	"x", "y", "label1:", "line 3", "line 5", "0x0a", "007", "func", "@f", "@g", "=", "i32", "f16", "tensor<4x4xf32>",
	"#blocked", "{", "}", "(", ")", "10", "42", "0x1f", "7", "ret", "BAD", "Foo",
	"a.b", "c*d", "[1]", "$v", "line", "end",
}

func (g *caseGen) pick(xs []string) string { return xs[g.r.Intn(len(xs))] }

func (g *caseGen) chance(p float64) bool { return g.r.Float64() < p }

func (g *caseGen) blank() string {
	switch g.r.Intn(6) {
	case 0:
		return "  "
	case 1:
		return "\t"
	case 2:
		return " \t "
	}
	return " "
}

// inputLine makes one input line.
func (g *caseGen) inputLine() string {
	if g.chance(0.08) {
		return ""
	}
	n := 1 + g.r.Intn(4)
	var b strings.Builder
	if g.chance(0.2) {
		b.WriteString(g.blank())
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(g.blank())
		}
		w := g.pick(genWords)
		if g.chance(0.1) {
			w = fmt.Sprint(g.r.Intn(300))
		}
		b.WriteString(w)
	}
	if g.chance(0.1) {
		b.WriteString(g.blank())
	}
	return b.String()
}

// fragment extracts a pattern fragment from line: a few words of it.
func (g *caseGen) fragment(line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return g.pick(genWords)
	}
	i := g.r.Intn(len(f))
	j := i + 1 + g.r.Intn(len(f)-i)
	return strings.Join(f[i:j], g.pick([]string{" ", " ", "  ", "\t"}))
}

// regexify turns parts of a literal fragment into regex and variable syntax.
func (g *caseGen) regexify(frag string, st *genState) string {
	words := strings.Split(frag, " ")
	for k, w := range words {
		if w == "" {
			continue
		}
		switch g.r.Intn(14) {
		case 0:
			words[k] = "{{" + regexClassFor(w) + "}}"
		case 1:
			words[k] = "{{.*}}"
		case 2:
			v := fmt.Sprintf("V%d", g.r.Intn(3))
			words[k] = "[[" + v + ":" + regexClassFor(w) + "]]"
			st.strVars = append(st.strVars, v)
		case 3:
			if len(st.strVars) > 0 {
				words[k] = "[[" + g.pick(st.strVars) + "]]"
			}
		case 4:
			if isNumber(w) {
				v := fmt.Sprintf("N%d", g.r.Intn(3))
				words[k] = "[[#" + v + ":]]"
				st.numVars = append(st.numVars, v)
			}
		case 5:
			if isNumber(w) && len(st.numVars) > 0 {
				words[k] = fmt.Sprintf("[[#%s+%d]]", g.pick(st.numVars), g.r.Intn(3)-1)
			}
		case 6:
			if strings.HasPrefix(w, "0x") {
				words[k] = "0x[[#%x,H:]]"
				st.numVars = append(st.numVars, "H")
			}
		case 7:
			if w == "line" {
				words[k] = "[[@LINE]]"
			}
		case 9:
			if isNumber(w) && len(st.numVars) > 0 {
				words[k] = fmt.Sprintf("[[#%s(%s,%d)]]", g.pick([]string{"add", "sub", "max", "min", "mul"}), g.pick(st.numVars), g.r.Intn(3))
			}
		case 10:
			if isNumber(w) {
				v := fmt.Sprintf("N%d", g.r.Intn(3))
				words[k] = fmt.Sprintf("[[#%%.%du,%s:]]", g.r.Intn(3), v)
				st.numVars = append(st.numVars, v)
			}
		case 11:
			if w == "line" || g.chance(0.2) {
				words[k] = g.pick([]string{"[[#@LINE]]", "[[@LINE-1]]", "[[# @LINE + 1]]"})
			}
		case 12:
			if isNumber(w) {
				words[k] = "[[#]]"
			}
		case 8:
			if len(w) > 2 {
				words[k] = w[:1] + "{{" + regexClassFor(w[1:]) + "}}"
			}
		}
	}
	out := strings.Join(words, " ")
	if g.chance(0.05) {
		// Same-line back-reference.
		out = "[[R:r[0-9]]]{{.*}}[[R]]"
		st.strVars = append(st.strVars, "R")
	}
	return out
}

func isNumber(w string) bool {
	for _, c := range w {
		if c < '0' || c > '9' {
			return false
		}
	}
	return w != ""
}

// regexClassFor gives a POSIX regex matching w (and more).
func regexClassFor(w string) string {
	switch {
	case isNumber(w):
		return "[0-9]+"
	case strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") == "":
		return "[a-z]+"
	case strings.HasPrefix(w, "%"):
		return "%[[:alnum:]_]+"
	}
	return "[^ ]+"
}

type genState struct {
	strVars, numVars []string
}

// mutate damages a pattern so that it probably does not match.
func (g *caseGen) mutate(p string) string {
	switch g.r.Intn(5) {
	case 0:
		return p + "zz"
	case 1:
		return "q" + p
	case 2:
		if len(p) > 1 {
			i := g.r.Intn(len(p) - 1)
			return p[:i] + p[i+1:]
		}
	case 3:
		return strings.ToUpper(p)
	}
	return p + " " + g.pick(genWords)
}

func (g *caseGen) gen(seed int64) genCase {
	g.r = rand.New(rand.NewSource(seed))
	nlines := 1 + g.r.Intn(12)
	lines := make([]string, nlines)
	for i := range lines {
		lines[i] = g.inputLine()
	}
	var args []string
	prefixes := []string{"CHECK"}
	switch g.r.Intn(8) {
	case 0:
		prefixes = []string{"A", "B"}
		args = append(args, "--check-prefixes=A,B")
	case 1:
		prefixes = []string{"FOO"}
		args = append(args, "-check-prefix", "FOO")
	case 2:
		prefixes = []string{"P1", "P2"}
		args = append(args, "--check-prefix=P1", "--check-prefix=P2")
	}
	opt := func(p float64, flags ...string) bool {
		if g.chance(p) {
			args = append(args, flags...)
			return true
		}
		return false
	}
	fullLines := opt(0.1, "--match-full-lines")
	strict := opt(0.1, "--strict-whitespace")
	ignoreCase := opt(0.08, "--ignore-case")
	opt(0.08, "--enable-var-scope")
	opt(0.05, "--allow-deprecated-dag-overlap")
	opt(0.05, "--allow-unused-prefixes")
	opt(0.1, g.pick([]string{"-v", "-vv", "--dump-input=always", "--dump-input=never", "-dump-input=fail"}))
	opt(0.1, "--dump-input-filter="+g.pick([]string{"all", "annotation-full", "annotation", "error"}))
	opt(0.05, "--dump-input-context", fmt.Sprint(g.r.Intn(4)))
	opt(0.05, "--color")
	if g.chance(0.08) {
		args = append(args, "--implicit-check-not="+g.pick([]string{"BAD", "bar", "{{r[0-9]}}", "error"}))
	}
	st := &genState{}
	if g.chance(0.08) {
		args = append(args, "-DDV="+g.pick(genWords))
		st.strVars = append(st.strVars, "DV")
	}
	if g.chance(0.05) {
		args = append(args, "-D#DN=42")
		st.numVars = append(st.numVars, "DN")
	}
	comment := "COM"
	if g.chance(0.05) {
		args = append(args, "--comment-prefixes=NOTE,RUN")
		comment = "NOTE"
	}
	empty := false
	if g.chance(0.03) {
		lines = nil
		empty = true
		opt(0.5, "--allow-empty")
	}
	var check strings.Builder
	check.WriteString("RUN: FileCheck %s\n")
	cursor := 0
	ndir := 2 + g.r.Intn(7)
	havePositive := false
	for d := 0; d < ndir; d++ {
		prefix := prefixes[d%len(prefixes)]
		line := ""
		if len(lines) > 0 {
			line = lines[min(cursor, len(lines)-1)]
		}
		kinds := []string{"", "", "-NEXT", "-SAME", "-NOT", "-DAG", "-DAG", "-LABEL", "-EMPTY", "-COUNT-2"}
		kind := g.pick(kinds)
		if !havePositive && (kind == "-NEXT" || kind == "-SAME" || kind == "-EMPTY") && g.chance(0.95) {
			kind = ""
		}
		switch kind {
		case "-EMPTY":
			cursor++
			if cursor <= len(lines) && g.chance(0.7) {
				// Make the expected empty line exist.
				lines = append(lines[:cursor], append([]string{""}, lines[cursor:]...)...)
			}
		case "-NEXT":
			cursor++
			if cursor < len(lines) {
				line = lines[cursor]
			}
		case "-SAME", "-NOT":
			if f := strings.Fields(line); len(f) > 0 && kind == "-SAME" {
				line = f[len(f)-1]
			}
		default:
			cursor += g.r.Intn(2)
			if cursor < len(lines) {
				line = lines[cursor]
			}
		}
		if kind == "-COUNT-2" && cursor+1 < len(lines) && g.chance(0.7) {
			// Repeat a word of this line on the next one.
			if f := strings.Fields(line); len(f) > 0 {
				w := f[g.r.Intn(len(f))]
				line = w
				lines[cursor+1] = w + " " + lines[cursor+1]
				cursor++
			}
		}
		pat := g.fragment(line)
		if fullLines && g.chance(0.6) {
			pat = strings.Join(strings.Fields(line), " ")
			if pat == "" {
				pat = g.pick(genWords)
			}
		}
		if kind == "-DAG" && g.chance(0.3) && cursor < len(lines) {
			pat = g.fragment(lines[cursor+g.r.Intn(len(lines)-cursor)])
		}
		if kind == "-NOT" {
			pat = g.pick(append(genWords, "BAD", "error", "{{x|y}}"))
			if g.chance(0.6) {
				pat = g.pick([]string{"error", "nothere", "{{warn|fatal}}", "[[#]] bad"})
			}
		}
		if kind == "-EMPTY" {
			pat = ""
		}
		if kind != "-EMPTY" && kind != "-LABEL" && g.chance(0.25) {
			pat = g.regexify(pat, st)
		}
		if ignoreCase && g.chance(0.5) {
			pat = strings.ToUpper(pat)
		}
		if kind != "-EMPTY" && g.chance(0.05) {
			pat = g.mutate(pat)
		}
		modifier := ""
		if g.chance(0.05) {
			modifier = "{LITERAL}"
		}
		sep := g.pick([]string{" ", " ", "  ", "\t", ""})
		if strict && fullLines {
			sep = ""
		}
		dir := prefix + kind + modifier + ":"
		// Occasional malformed directives.
		switch g.r.Intn(300) {
		case 0:
			dir = prefix + "-DAG-NOT:"
		case 1:
			dir = prefix + "-COUNT-0:"
		case 2:
			pat = "{{unterminated"
		case 3:
			pat = "[[UNDEF_VAR]]"
		case 4:
			pat = ""
		case 5:
			dir = prefix + "-NXT:"
		}
		if g.chance(0.05) {
			check.WriteString(comment + ": " + prefix + ": commented out\n")
		}
		if g.chance(0.1) {
			check.WriteString("// some text\n")
		}
		check.WriteString("// " + dir + sep + pat)
		if g.chance(0.05) {
			check.WriteString("  ")
		}
		check.WriteString("\n")
		if kind != "-NOT" && kind != "-DAG" {
			havePositive = true
		}
		if kind == "-LABEL" && g.chance(0.5) {
			st.strVars = nil
		}
	}
	if g.chance(0.15) {
		check.WriteString("// " + g.pick(prefixes) + "-NOT: " + g.pick(append(genWords, "error", "nothere")) + "\n")
	}
	input := strings.Join(lines, "\n")
	if !empty && g.chance(0.85) {
		input += "\n"
	}
	if g.chance(0.05) {
		input = strings.ReplaceAll(input, "\n", "\r\n")
	}
	c := genCase{name: fmt.Sprintf("seed%d", seed), check: check.String(), input: input, args: args}
	if len(args) > 0 && g.chance(0.1) {
		// Pass the options through FILECHECK_OPTS instead.
		c.env = strings.Join(args, " ")
		c.args = nil
	}
	return c
}

// ere generates a random POSIX ERE over a small alphabet.
func (g *caseGen) ere(depth int) string {
	var b strings.Builder
	n := 1 + g.r.Intn(3)
	for i := 0; i < n; i++ {
		switch k := g.r.Intn(12); {
		case k < 4:
			b.WriteString(g.pick([]string{"a", "b", "0", "1", " ", "-", `\.`, `\{`, `\d`, `\n`, "x", ","}))
		case k == 4:
			b.WriteString(".")
		case k == 5:
			b.WriteString(g.pick([]string{"[ab]", "[^a]", "[[:digit:]]", "[a-c0]", "[]a]", `[\.]`, "[^ ]", "[[:space:]]", "[[:alpha:]_]"}))
		case k == 6 && depth < 2:
			b.WriteString("(" + g.ere(depth+1) + ")")
		case k == 7 && depth < 2:
			b.WriteString("(" + g.ere(depth+1) + "|" + g.ere(depth+1) + ")")
		case k == 8 && !g.noAnchors:
			b.WriteString(g.pick([]string{"^", "$"}))
			continue
		default:
			b.WriteString(g.pick([]string{"a", "b", "1"}))
		}
		if g.chance(0.4) && !(g.noAnchors && b.Len() > 0 && b.String()[b.Len()-1] == ')') {
			ops := []string{"*", "+", "?", "{2}", "{1,2}", "{0,}"}
			if g.noAnchors {
				ops = []string{"*", "+", "{2}", "{1,2}"}
			}
			b.WriteString(g.pick(ops))
		}
	}
	return b.String()
}

// genRegex makes a case stressing {{regex}} blocks and captures.
func (g *caseGen) genRegex(seed int64) genCase {
	g.r = rand.New(rand.NewSource(seed))
	var lines []string
	for i := 0; i < 1+g.r.Intn(5); i++ {
		var b strings.Builder
		for j := 0; j < g.r.Intn(12); j++ {
			b.WriteString(g.pick([]string{"a", "b", "0", "1", " ", "-", ".", "{", "d", "n", "x", ",", "ab", "a1", "\\", "]", "_", "\t"}))
		}
		lines = append(lines, b.String())
	}
	var check strings.Builder
	var args []string
	if g.chance(0.2) {
		args = append(args, "--ignore-case")
	}
	if g.chance(0.2) {
		args = append(args, "--match-full-lines")
	}
	if g.chance(0.1) {
		args = append(args, "--strict-whitespace")
	}
	var vars []string
	for d := 0; d < 1+g.r.Intn(4); d++ {
		kind := g.pick([]string{"", "", "-NEXT", "-SAME", "-NOT", "-DAG"})
		if d == 0 && (kind == "-NEXT" || kind == "-SAME") {
			kind = ""
		}
		var pat strings.Builder
		if g.chance(0.3) {
			pat.WriteString(g.pick([]string{"a", "b", "1", "x"}))
		}
		switch k := g.r.Intn(5); {
		case k == 0:
			v := fmt.Sprintf("V%d", g.r.Intn(2))
			// llvm::Regex misses back-references to groups that match
			// only an anchor, and some to repeated groups that can match
			// the empty string: documented differences; avoid them.
			g.noAnchors = true
			pat.WriteString("[[" + v + ":" + g.ere(1) + "]]")
			g.noAnchors = false
			if g.chance(0.5) {
				pat.WriteString(g.pick([]string{"", " ", "{{.*}}", ","}) + "[[" + v + "]]")
			}
			vars = append(vars, v)
		case k == 1 && len(vars) > 0:
			pat.WriteString("[[" + g.pick(vars) + "]]")
		default:
			pat.WriteString("{{" + g.ere(0) + "}}")
		}
		if g.chance(0.3) {
			pat.WriteString(g.pick([]string{"a", "b", "1", "{{$}}"}))
		}
		check.WriteString("CHECK" + kind + ": " + pat.String() + "\n")
	}
	return genCase{name: fmt.Sprintf("regex%d", seed), check: check.String(), input: strings.Join(lines, "\n") + "\n", args: args}
}

// genNumeric makes a case stressing numeric variables and expressions.
func (g *caseGen) genNumeric(seed int64) genCase {
	g.r = rand.New(rand.NewSource(seed))
	fmts := []string{"", "%u,", "%d,", "%x,", "%X,", "%#x,", "%.3u,", "%.2x,", "%#.4X,"}
	var lines []string
	var check strings.Builder
	defined := map[string]string{}
	var names []string
	for i := 0; i < 1+g.r.Intn(5); i++ {
		v := g.r.Int63n(300) - 50
		if g.chance(0.05) {
			v = 1<<62 + g.r.Int63n(5)
		}
		f := g.pick(fmts)
		var txt string
		switch {
		case strings.Contains(f, "x"), strings.Contains(f, "X"):
			if v < 0 {
				v = -v
			}
			txt = fmt.Sprintf("%x", v)
			if strings.Contains(f, "X") {
				txt = strings.ToUpper(txt)
			}
			if strings.Contains(f, "#") {
				txt = "0x" + txt
			}
		default:
			txt = fmt.Sprint(v)
		}
		if strings.Contains(f, ".3") && g.chance(0.5) {
			txt = "00" + txt
		}
		name := fmt.Sprintf("N%d", g.r.Intn(3))
		lines = append(lines, "v "+txt+" w "+fmt.Sprint(v+int64(g.r.Intn(3))))
		switch g.r.Intn(4) {
		case 0, 1:
			check.WriteString("CHECK: v [[#" + f + name + ":]] w\n")
			defined[name] = f
			names = append(names, name)
		case 2:
			if len(names) > 0 {
				n := g.pick(names)
				expr := g.pick([]string{n, n + "+1", n + " - 2", "add(" + n + ",1)", "max(" + n + ",7)", "(" + n + "+1)-1", "mul(" + n + ",0x2)", "div(" + n + ",2)"})
				check.WriteString("CHECK: v [[#" + g.pick(fmts) + expr + "]]\n")
			} else {
				check.WriteString("CHECK: v [[#]]\n")
			}
		default:
			check.WriteString("CHECK: v " + txt + " w [[#" + g.pick([]string{"", "%d,", "%u,", "== "}) + g.pick(append(names, "5", "-1", "@LINE")) + g.pick([]string{"", "+1", "-1"}) + "]]\n")
		}
		if g.chance(0.2) {
			check.WriteString("CHECK-SAME: w [[#" + name + "]]\n")
		}
	}
	var args []string
	if g.chance(0.2) {
		args = append(args, fmt.Sprintf("-D#%sN0=%d", g.pick([]string{"", "%x,", "%d,"}), g.r.Intn(20)))
	}
	return genCase{name: fmt.Sprintf("numeric%d", seed), check: check.String(), input: strings.Join(lines, "\n") + "\n", args: args}
}
