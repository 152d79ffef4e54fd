package tensorlayout

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/internal/suggest"
	"github.com/layoutopt/layoutopt/proc"
	"github.com/layoutopt/layoutopt/smem"
)

const usage = `usage: tensor-layout -l ATTR -t TYPE [-view tensor|hw|linear|json|svg] [-o FILE]
       tensor-layout -l FILE#NAME -t TYPE [-view …]
       tensor-layout -i FILE -alias-names NAME[,NAME…] -t TYPE [-view …]
       tensor-layout -i FILE -t TYPE [-view …]    (every alias of FILE)
       tensor-layout -i FILE [-view …]            (every alias, on the shapes FILE uses it with)
       tensor-layout -l CUTE_LAYOUT [-view table|linear|json|svg]
       tensor-layout -l SRC -to DST -t TYPE -view svg [-target cuda:CC] (a conversion)
       tensor-layout -l REG -shared SHARED -t TYPE -view svg (one access's banks)
       tensor-layout -l REG -shared SHARED -t TYPE -view banks (the same as text)
       tensor-layout -i KERNEL.ttgir -view html -o KERNEL.html

Prints the layout of a tensor of type TYPE (e.g. tensor<64x64xf16>) under
the TritonGPU encoding ATTR (e.g. '#ttg.blocked<{…}>', '#name' with -i, or
FILE#name for an alias defined in FILE), or a CuTe layout such as
'(6,4):(4,1)'.

Views:
  tensor  as triton-tensor-layout: for each tensor element, the threads
          that hold it (Tthread:register, B<block>: when there are several
          CTAs); for shared layouts, the element at each offset, the
          offsets laid out in the tensor's shape (the default)
  hw      as triton-tensor-layout -use-hw-view: for each warp and
          register, the element every lane holds (for shared layouts,
          the element at every offset)
  linear  the linear layout on one line, as #ttg.linear<{…}> (shared
          layouts: #ttg.shared_linear<{…}, alignment = N>)
  json    the bases and sizes as a JSON object
  table   (CuTe layouts, their default) Mojo's print_layout table; CuTe
          layouts that are linear over GF(2) also have -view linear and json
  svg     a picture: distributed layouts coloured by warp and labelled
          T<lane>:R<register>; shared layouts with each element's offset
          coloured by bank (with -l REG -shared SHARED, one warp's access
          instruction outlined by wavefront); CuTe layouts as print_layout's
          grid; a conversion (-l SRC -to DST) coloured by where each element
          moves. Large tensors are drawn in blocks of elements.
  banks   (with -l REG -shared SHARED) warp 0's first access instruction
          of REG against SHARED as text: each lane's vector (elements,
          offsets), the banks of its words and its wavefront; the last line
          is "bank conflicts: N", N as Triton 3.6's get_shared_bank_conflicts
          counts it for TYPE's element width
  html    (with -i KERNEL alone) one self-contained page: every layout alias
          of the kernel and every ttg.convert_layout, its lowering class,
          scratch bytes and pictures, linked from the kernel's source

Flags:
`

// Main runs tensor-layout with the arguments and streams of p and returns
// its exit status: 0 on success, 1 on bad flags, attributes or types.
func Main(p *proc.Proc) (code int) {
	fs := flag.NewFlagSet("tensor-layout", flag.ContinueOnError)
	fs.SetOutput(p.Stderr)
	layoutText := fs.String("l", "", "the layout: an encoding attribute, '#alias' (with -i), or a CuTe layout")
	typeText := fs.String("t", "", "the tensor type, e.g. tensor<64x64xf16> (an encoding inside it is used when -l is absent)")
	view := fs.String("view", "", "what to print: tensor (default), hw, linear, json, or table (CuTe)")
	hw := fs.Bool("use-hw-view", false, "same as -view hw (triton-tensor-layout's spelling)")
	input := fs.String("i", "", "a file of alias definitions (#name = #ttg.…) that -l and -alias-names refer to; alone, every layout alias in it is printed")
	aliasNames := fs.String("alias-names", "", "comma-separated aliases from -i to print, one after the other")
	outFile := fs.String("o", "", "write the output to this file (atomically) instead of stdout")
	toText := fs.String("to", "", "with -l SRC and -view svg: the destination layout of a conversion")
	sharedText := fs.String("shared", "", "with -l REG and -view svg or banks: a shared layout that REG is stored to or loaded from")
	targetText := fs.String("target", "", "with -to or -view html: the GPU the shared-memory plan of a conversion is for, as cuda:CC or CC (80, 90, 100, …); default: Triton's generic plan (st/ld.shared) for -to, the kernel's ttg.target for -view html")
	fs.Usage = func() {} // printed below, after a "did you mean" hint
	if err := fs.Parse(p.Args); err != nil {
		// The flag package printed the error ("flag provided but not
		// defined: -x").
		fmt.Fprint(p.Stderr, suggest.UnknownFlag(fs, err))
		fmt.Fprint(p.Stderr, usage)
		fs.PrintDefaults()
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 1
	}
	if fs.NArg() > 0 {
		return fail(p, "unexpected argument %q", fs.Arg(0))
	}
	if *outFile != "" {
		// Everything goes to a buffer, written to the file only on success.
		orig, buf := p, &bytes.Buffer{}
		q := *p
		q.Stdout = buf
		p = &q
		defer func() {
			if code == 0 {
				if err := proc.WriteFileAtomic(orig.Path(*outFile), buf.Bytes()); err != nil {
					code = fail(orig, "cannot write %s: %v", *outFile, err)
				}
			}
		}()
	}
	v := *view
	if *hw {
		if v != "" && v != "hw" {
			return fail(p, "-use-hw-view conflicts with -view %s", v)
		}
		v = "hw"
	}
	if t := strings.TrimSpace(*layoutText); t != "" && !strings.HasPrefix(t, "#") {
		// FILE#name: an alias defined in FILE. CuTe layouts never hold a
		// '#', so a name after one means a file, readable or not.
		if i := strings.LastIndexByte(t, '#'); i > 0 && aliasName.MatchString(t[i+1:]) {
			if *input != "" {
				return fail(p, "-l %s names an alias file, and so does -i %s; give -l '#%s' with -i", t, *input, t[i+1:])
			}
			*input, *layoutText = t[:i], t[i:]
		} else {
			if *toText != "" || *sharedText != "" {
				return fail(p, "-to and -shared take TritonGPU encodings, not CuTe layouts")
			}
			return runCuTe(p, t, v)
		}
	}
	if v == "" {
		v = "tensor"
	}
	switch v {
	case "tensor", "hw", "linear", "json", "svg", "html", "banks":
	case "table":
		return fail(p, "-view table is for CuTe layouts; TritonGPU encodings have the views tensor, hw, linear, json, svg, banks and html")
	default:
		return fail(p, "unknown view %q (want tensor, hw, linear, json, table, svg, banks or html)", v)
	}
	switch {
	case v == "banks" && *sharedText == "":
		return fail(p, "-view banks shows an access to shared memory: give -l REG -shared SHARED -t TYPE")
	case v == "banks" && *toText != "":
		return fail(p, "-view banks takes -shared SHARED, not -to")
	case *toText != "" && v != "svg":
		return fail(p, "-to draws a conversion: give -view svg")
	case *sharedText != "" && v != "svg" && v != "banks":
		return fail(p, "-shared shows one access: give -view banks (text) or -view svg")
	}
	if *toText != "" && *sharedText != "" {
		return fail(p, "give either -to or -shared, not both")
	}
	if v == "html" {
		if *input == "" {
			return fail(p, "-view html needs -i KERNEL (a TTGIR file)")
		}
		if *layoutText != "" || *typeText != "" || *aliasNames != "" {
			return fail(p, "-view html shows the whole -i file; -l, -t and -alias-names do not apply")
		}
	}

	aliases := map[string]attr.Encoding{}
	var order []string // the aliases of -i, in the order defined
	var data []byte    // the -i file
	if *input != "" {
		var err error
		if data, order, err = readAliases(p, *input, aliases); err != nil {
			fmt.Fprintf(p.Stderr, "%v\n", err)
			return 1
		}
	}
	resolve := func(a string) (attr.Encoding, bool) { e, ok := aliases[a]; return e, ok }

	var target *smem.Target
	if *targetText != "" {
		if v != "html" && *toText == "" {
			return fail(p, "-target applies to a conversion (-l SRC -to DST -view svg) and to -view html")
		}
		t, err := parseTarget(*targetText)
		if err != nil {
			return fail(p, "-target: %v", err)
		}
		target = &t
	}
	if v == "html" {
		return runHTML(p, *input, data, aliases, order, target)
	}
	if *typeText == "" && *input != "" && *aliasNames == "" && strings.TrimSpace(*layoutText) == "" {
		if v == "svg" {
			return fail(p, "-view svg draws one layout: give -l '#NAME' -t TYPE, or -view html for every layout of %s", *input)
		}
		return showUses(p, *input, data, aliases, order, v)
	}
	if *typeText == "" {
		return fail(p, "missing -t TYPE (a tensor type such as tensor<64x64xf16>)")
	}
	tt, err := parseTensorType(*typeText)
	if err != nil {
		var te *typeError
		errors.As(err, &te)
		return failAt(p, "-t", *typeText, te.Offset, te.Msg)
	}

	// A job is one attribute to show: the flag it comes from, the flag's
	// text (echoed in errors), and where in it the attribute starts and
	// ends.
	type job struct {
		flag, text string
		start, end int
		alias      string // the alias name, for -alias-names and -i alone
		all        bool   // one of all the aliases of -i
	}
	var jobs []job
	switch {
	case *aliasNames != "":
		if *layoutText != "" {
			return fail(p, "give either -l or -alias-names, not both")
		}
		off := 0
		for _, item := range strings.Split(*aliasNames, ",") {
			n := strings.TrimSpace(item)
			at := off + len(item) - len(strings.TrimLeft(item, " \t\n"))
			if n == "" || n == "#" {
				return failAt(p, "-alias-names", *aliasNames, at, "expected an alias name (names are separated by single commas)")
			}
			n = strings.TrimPrefix(n, "#")
			if _, ok := aliases[n]; !ok {
				return fail(p, "alias #%s is not defined%s", n, inFile(*input))
			}
			jobs = append(jobs, job{flag: "#" + n, text: "#" + n, end: len(n) + 1, alias: n})
			off += len(item) + 1
		}
	case strings.TrimSpace(*layoutText) != "":
		t := *layoutText
		start := len(t) - len(strings.TrimLeft(t, " \t\n"))
		jobs = append(jobs, job{flag: "-l", text: t, start: start, end: len(strings.TrimRight(t, " \t\n"))})
	case tt.encoding != "":
		jobs = append(jobs, job{flag: "-t", text: *typeText, start: tt.encOff, end: tt.encOff + len(tt.encoding)})
	case *input != "":
		// -i alone: every layout alias of the file, as Triton's tool.
		for _, n := range order {
			if _, ok := aliases[n].(attr.Layout); ok {
				jobs = append(jobs, job{flag: "#" + n, text: "#" + n, end: len(n) + 1, alias: n, all: true})
			}
		}
		if len(jobs) == 0 {
			return fail(p, "%s defines no layout aliases", *input)
		}
	default:
		return fail(p, "missing -l ATTR (or an encoding inside the -t type)")
	}
	if v == "svg" && len(jobs) > 1 {
		return fail(p, "-view svg draws one layout; %d given (use -view html for several)", len(jobs))
	}
	if other, flag := *toText, "-to"; other != "" || *sharedText != "" {
		if other == "" {
			other, flag = *sharedText, "-shared"
		}
		j := jobs[0]
		src, code := parseLayoutArg(p, j.flag, j.text, j.start, j.end, resolve)
		if src == nil {
			return code
		}
		start := len(other) - len(strings.TrimLeft(other, " \t\n"))
		dst, code := parseLayoutArg(p, flag, other, start, len(strings.TrimRight(other, " \t\n")), resolve)
		if dst == nil {
			return code
		}
		if v == "banks" {
			return runBanks(p, src, dst, j.flag, j.text, j.start, other, start, *typeText, tt)
		}
		if err := svgPair(p.Stdout, src, dst, flag, tt, target); err != nil {
			return fail(p, "%v", err)
		}
		return 0
	}
	// Nothing is printed unless every job succeeds, as Triton's tool;
	// except with -i alone, where an alias that cannot be shown on the -t
	// type (another rank, say) gets a note on stderr naming it, and the
	// others are printed.
	var out bytes.Buffer
	shown, skipped := 0, 0
	for _, j := range jobs {
		src := j.text[j.start:j.end]
		enc, n, err := attr.Parse(src, resolve)
		if err != nil {
			var ae *attr.Error
			if errors.As(err, &ae) {
				return failAt(p, j.flag, j.text, j.start+ae.Offset, ae.Msg)
			}
			return fail(p, "%v", err)
		}
		if rest := strings.TrimSpace(src[n:]); rest != "" {
			at := j.start + n + len(src[n:]) - len(strings.TrimLeft(src[n:], " \t\n"))
			return failAt(p, j.flag, j.text, at, fmt.Sprintf("unexpected %q after the attribute", rest))
		}
		var one bytes.Buffer
		if err := show(&one, enc, j.alias, !j.all, tt, v); err != nil {
			if !j.all {
				return fail(p, "%v", err)
			}
			fmt.Fprintf(p.Stderr, "tensor-layout: note: #%s not shown on %s: %v\n", j.alias, strings.TrimSpace(*typeText), err)
			skipped++
			continue
		}
		out.Write(one.Bytes())
		shown++
	}
	if shown == 0 && skipped > 0 {
		return fail(p, "none of the %d layout aliases of %s can be shown on %s", skipped, *input, strings.TrimSpace(*typeText))
	}
	if _, err := out.WriteTo(p.Stdout); err != nil {
		return fail(p, "%v", err)
	}
	return 0
}

func inFile(name string) string {
	if name == "" {
		return " (no -i file given)"
	}
	return " in " + name
}

// show prints one encoding on the tensor type in view v. The tensor and hw
// views start as Triton's tool does: "Print layout attribute: ATTR", or
// for an alias "Print layout attribute: #NAME = ATTR", with an empty line
// after the layout when blank is set (-alias-names, not -i alone).
func show(w io.Writer, enc attr.Encoding, alias string, blank bool, tt tensorType, v string) error {
	l, ok := enc.(attr.Layout)
	if !ok {
		return fmt.Errorf("%s is a memory space, not a layout", enc.Format(nil))
	}
	if err := l.Verify(attr.ModuleInfo{}); err != nil {
		return fmt.Errorf("%s: %v", enc.Format(nil), err)
	}
	ll, err := l.ToLinear(tt.shape)
	if err != nil {
		return err
	}
	text := enc.Format(nil)
	switch v {
	case "linear":
		s, err := linearText(l, ll)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(w, s)
		return err
	case "json":
		return writeJSON(w, text, tt.shape, ll)
	case "svg":
		if alias != "" {
			text = "#" + alias + " = " + text
		}
		return svgLayout(w, text, l, ll, tt)
	}
	if alias != "" {
		text = "#" + alias + " = " + text
	}
	if _, err := fmt.Fprintf(w, "Print layout attribute: %s\n", text); err != nil {
		return err
	}
	if v == "hw" {
		err = writeHWView(w, ll, tt.shape)
	} else {
		err = writeTensorView(w, ll, tt.shape)
	}
	if err == nil && alias != "" && blank {
		_, err = io.WriteString(w, "\n")
	}
	return err
}

var (
	aliasLine = regexp.MustCompile(`^\s*#([A-Za-z_][\w$.-]*)\s*=\s*(#.*?)\s*$`)
	aliasName = regexp.MustCompile(`^[A-Za-z_][\w$.-]*$`)
)

// readAliases reads the alias definitions of file (other lines are
// ignored), each of which may use the ones before it, and returns their
// names in order.
func readAliases(p *proc.Proc, file string, aliases map[string]attr.Encoding) ([]byte, []string, error) {
	data, err := os.ReadFile(p.Path(file))
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, nil, fmt.Errorf("tensor-layout: error: cannot read the alias file %s: %v", file, err)
	}
	var order []string
	resolve := func(a string) (attr.Encoding, bool) { e, ok := aliases[a]; return e, ok }
	for i, line := range strings.Split(string(data), "\n") {
		m := aliasLine.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		name, text := line[m[2]:m[3]], line[m[4]:m[5]]
		if !attr.Known(attrName(text)) {
			continue // #loc aliases and other dialects' attributes
		}
		enc, _, err := attr.Parse(text, resolve)
		if err != nil {
			var ae *attr.Error
			if errors.As(err, &ae) {
				return nil, nil, fmt.Errorf("%s:%d:%d: error: %s", file, i+1, m[4]+ae.Offset+1, ae.Msg)
			}
			return nil, nil, fmt.Errorf("%s:%d: error: %v", file, i+1, err)
		}
		if _, ok := aliases[name]; !ok {
			order = append(order, name)
		}
		aliases[name] = enc
	}
	return data, order, nil
}

// attrName is the dialect name of attribute text ("ttg.blocked").
func attrName(text string) string {
	s := strings.TrimPrefix(text, "#")
	end := strings.IndexAny(s, "<> ,")
	if end < 0 {
		end = len(s)
	}
	return s[:end]
}

func fail(p *proc.Proc, format string, args ...any) int {
	fmt.Fprintf(p.Stderr, "tensor-layout: error: "+format+"\n", args...)
	return 1
}

// failAt reports an error in the value of a flag, MLIR-style, with the
// text and a caret under the offending column.
func failAt(p *proc.Proc, where, text string, off int, msg string) int {
	line := strings.ReplaceAll(text, "\n", " ")
	off = min(max(off, 0), len(line))
	fmt.Fprintf(p.Stderr, "%s:1:%d: error: %s\n%s\n%s^\n", where, off+1, msg, line, strings.Repeat(" ", off))
	return 1
}
