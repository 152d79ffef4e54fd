package tensorlayout

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/proc"
	"github.com/layoutopt/layoutopt/smem"
)

// htmlLimits keep a page of many pictures small: labels only on small
// tensors, blocks above 64 cells a side.
var htmlLimits = svgLimits{maxSide: 64, maxLabelCells: 512, maxLabelCols: 32}

var targetAttr = regexp.MustCompile(`ttg\.target\s*=\s*"cuda:(\d+)"`)

// conversionOp is one ttg.convert_layout of a kernel.
type conversionOp struct {
	line     int // 1-based
	srcText  string
	dstText  string
	src, dst attr.Layout
	tt       tensorType
	plan     *smem.Plan
	err      error
	sameAs   int // index of an earlier conversion with the same picture, or -1
}

// findConversions returns every ttg.convert_layout of the kernel's lines,
// with its two encodings parsed and planned for target t.
func findConversions(lines []string, resolve func(string) (attr.Encoding, bool), t smem.Target) []*conversionOp {
	var ops []*conversionOp
	seen := map[string]int{}
	for i, line := range lines {
		k := strings.Index(line, "ttg.convert_layout ")
		if k < 0 {
			continue
		}
		var types []tensorType
		rest := line[k:]
		for j := 0; j < len(rest) && len(types) < 2; j++ {
			if !strings.HasPrefix(rest[j:], "tensor<") || (j > 0 && isIdent(rest[j-1])) {
				continue
			}
			end := matchAngle(rest, j+len("tensor"))
			if end < 0 {
				break
			}
			tt, err := parseTensorType(rest[j : end+1])
			if err == nil {
				types = append(types, tt)
			}
			j = end
		}
		op := &conversionOp{line: i + 1, sameAs: -1}
		ops = append(ops, op)
		if len(types) < 2 || types[0].encoding == "" || types[1].encoding == "" {
			op.err = fmt.Errorf("cannot read the two tensor types with encodings")
			continue
		}
		op.tt, op.srcText, op.dstText = types[0], types[0].encoding, types[1].encoding
		parse := func(text string) (attr.Layout, error) {
			enc, _, err := attr.Parse(text, resolve)
			if err != nil {
				return nil, err
			}
			l, ok := enc.(attr.Layout)
			if !ok {
				return nil, fmt.Errorf("%s is not a layout", text)
			}
			return l, nil
		}
		var err error
		if op.src, err = parse(op.srcText); err != nil {
			op.err = err
			continue
		}
		if op.dst, err = parse(op.dstText); err != nil {
			op.err = err
			continue
		}
		op.plan, op.err = smem.PlanEncodings(op.src, op.dst, op.tt.shape, accessBits(elemBits(op.tt.elem)), t)
		if op.err != nil {
			continue
		}
		key := op.srcText + "|" + op.dstText + "|" + shapeText(op.tt.shape) + "|" + op.tt.elem
		if j, ok := seen[key]; ok {
			op.sameAs = j
			continue
		}
		seen[key] = len(ops) - 1
	}
	return ops
}

// runHTML writes -i KERNEL -view html: one self-contained page (inline CSS
// and SVG, no script, no link outside it) with every layout alias of the
// kernel drawn on each shape the kernel uses it with, every
// ttg.convert_layout with its lowering class, scratch bytes and pictures,
// and the kernel's source, whose convert_layout lines link to them. The
// conversions are planned for target, or when it is nil for the kernel's
// ttg.target ("cuda:CC"; Triton's generic plan without one).
func runHTML(p *proc.Proc, file string, data []byte, aliases map[string]attr.Encoding, order []string, target *smem.Target) int {
	resolve := func(a string) (attr.Encoding, bool) { e, ok := aliases[a]; return e, ok }
	t := smem.Target{}
	if target != nil {
		t = *target
	} else if m := targetAttr.FindSubmatch(data); m != nil {
		t.ComputeCapability, _ = strconv.Atoi(string(m[1]))
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	ops := findConversions(lines, resolve, t)
	uses := typedUses(string(data))

	var b bytes.Buffer
	title := "Layouts of " + file
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n", html.EscapeString(title))
	b.WriteString(`<style>
body{font-family:sans-serif;margin:16px;color:#111;background:#fff}
h1{font-size:20px}h2{font-size:17px;border-bottom:1px solid #ccc}h3{font-size:14px;margin:14px 0 4px}
code,pre{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12px}
table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
.fig{overflow-x:auto;margin:4px 0 12px}.attr{word-break:break-all}
.cls{display:inline-block;width:10px;height:10px;border:1px solid #555;margin-right:4px}
pre.src{background:#f8f8f8;border:1px solid #ddd;padding:6px;overflow-x:auto}
pre.src a{color:#0645ad}.ln{color:#999;user-select:none;display:inline-block;width:4em}
:target{background:#ffe}
</style>
</head>
<body>
`)
	fmt.Fprintf(&b, "<h1>%s</h1>\n", html.EscapeString(title))
	targetName := "generic target"
	if t.ComputeCapability != 0 {
		targetName = "cuda:" + strconv.Itoa(t.ComputeCapability)
	}
	nLayouts := 0
	for _, n := range order {
		if _, ok := aliases[n].(attr.Layout); ok {
			nLayouts++
		}
	}
	fmt.Fprintf(&b, "<p>%d layout aliases, %d <code>ttg.convert_layout</code> ops, planned for %s. Contents: <a href=\"#summary\">summary</a>, <a href=\"#layouts\">layouts</a>, <a href=\"#conversions\">conversions</a>, <a href=\"#source\">source</a>.</p>\n", nLayouts, len(ops), targetName)

	// Conversions: a table, then one section each.
	b.WriteString("<h2 id=\"summary\">Conversions at a glance</h2>\n")
	if len(ops) == 0 {
		b.WriteString("<p>The kernel has no <code>ttg.convert_layout</code>.</p>\n")
	} else {
		b.WriteString("<table>\n<tr><th>#</th><th>line</th><th>type</th><th>source → destination</th><th>class</th><th>scratch bytes</th><th>store / load</th></tr>\n")
		for i, op := range ops {
			fmt.Fprintf(&b, "<tr><td><a href=\"#cvt-%d\">%d</a></td><td><a href=\"#L%d\">%d</a></td>", i, i, op.line, op.line)
			if op.err != nil {
				fmt.Fprintf(&b, "<td colspan=\"5\">%s</td></tr>\n", html.EscapeString(op.err.Error()))
				continue
			}
			fmt.Fprintf(&b, "<td><code>%s×%s</code></td><td><code>%s → %s</code></td><td>%s</td><td>%d</td><td>%s</td></tr>\n",
				shapeText(op.tt.shape), html.EscapeString(op.tt.elem), html.EscapeString(op.srcText), html.EscapeString(op.dstText),
				classCell(op.plan), scratch(op.plan), html.EscapeString(instrs(op.plan)))
		}
		b.WriteString("</table>\n")
	}
	// Layouts.
	b.WriteString("<h2 id=\"layouts\">Layouts</h2>\n")
	for _, n := range order {
		l, ok := aliases[n].(attr.Layout)
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "<h3 id=\"alias-%s\">#%s</h3>\n<p class=\"attr\"><code>%s</code></p>\n", html.EscapeString(n), html.EscapeString(n), html.EscapeString(l.Format(nil)))
		if len(uses[n]) == 0 {
			b.WriteString("<p>Not the encoding of any tensor type of the kernel.</p>\n")
		}
		drawn := map[string]bool{}
		for _, tt := range uses[n] {
			fig, key, err := aliasFigure(n, l, tt)
			if err != nil {
				fmt.Fprintf(&b, "<p>On %s: %s</p>\n", shapeText(tt.shape), html.EscapeString(err.Error()))
				continue
			}
			if drawn[key] {
				continue
			}
			drawn[key] = true
			fmt.Fprintf(&b, "<div class=\"fig\">%s</div>\n", fig)
		}
	}

	b.WriteString("<h2 id=\"conversions\">Conversions</h2>\n")
	for i, op := range ops {
		fmt.Fprintf(&b, "<h3 id=\"cvt-%d\">Conversion %d, <a href=\"#L%d\">line %d</a></h3>\n", i, i, op.line, op.line)
		fmt.Fprintf(&b, "<pre>%s</pre>\n", html.EscapeString(strings.TrimSpace(lines[op.line-1])))
		switch {
		case op.err != nil:
			fmt.Fprintf(&b, "<p>Not drawn: %s</p>\n", html.EscapeString(op.err.Error()))
		case op.sameAs >= 0:
			fmt.Fprintf(&b, "<p>%s, %d scratch bytes: the same layouts and type as <a href=\"#cvt-%d\">conversion %d</a>.</p>\n", classCell(op.plan), scratch(op.plan), op.sameAs, op.sameAs)
		default:
			fig, err := opFigure(op)
			if err != nil {
				fmt.Fprintf(&b, "<p>Not drawn: %s</p>\n", html.EscapeString(err.Error()))
				break
			}
			fmt.Fprintf(&b, "<div class=\"fig\">%s</div>\n", fig)
		}
	}

	// Source, with line anchors and links.
	cvtAt := map[int]int{}
	for i, op := range ops {
		cvtAt[op.line] = i
	}
	b.WriteString("<h2 id=\"source\">Source</h2>\n<pre class=\"src\">")
	for i, line := range lines {
		n := i + 1
		fmt.Fprintf(&b, "<span id=\"L%d\"><span class=\"ln\">%d</span>", n, n)
		esc := html.EscapeString(line)
		if k, ok := cvtAt[n]; ok {
			esc = strings.Replace(esc, "ttg.convert_layout", fmt.Sprintf("<a href=\"#cvt-%d\">ttg.convert_layout</a>", k), 1)
		} else if m := aliasLine.FindStringSubmatch(line); m != nil {
			if _, ok := aliases[m[1]].(attr.Layout); ok {
				esc = strings.Replace(esc, "#"+html.EscapeString(m[1]), fmt.Sprintf("<a href=\"#alias-%s\">#%s</a>", html.EscapeString(m[1]), html.EscapeString(m[1])), 1)
			}
		}
		b.WriteString(esc)
		b.WriteString("</span>\n")
	}
	b.WriteString("</pre>\n</body>\n</html>\n")
	if _, err := p.Stdout.Write(b.Bytes()); err != nil {
		return fail(p, "%v", err)
	}
	return 0
}

// aliasFigure draws alias name's layout on the type tt of a tensor or
// memdesc that uses it. A distributed layout is the same picture whatever
// the element type; a shared layout's banks depend on it (a 4-byte word
// holds two f16 or four i8), so its picture is drawn for tt's element type.
// key tells pictures apart: the shape, and for a shared layout the width.
func aliasFigure(name string, l attr.Layout, tt tensorType) ([]byte, string, error) {
	if err := l.Verify(attr.ModuleInfo{}); err != nil {
		return nil, "", err
	}
	ll, err := l.ToLinear(tt.shape)
	if err != nil {
		return nil, "", err
	}
	title, key := "#"+name+" on "+shapeText(tt.shape), shapeText(tt.shape)
	bits := elemBits(tt.elem)
	if layoutKind(ll) == "shared" {
		title += "x" + tt.elem
		key += "/" + strconv.Itoa(accessBits(bits))
	}
	f, err := layoutFigure(title, l, ll, tt.shape, bits, htmlLimits)
	if err != nil {
		return nil, "", err
	}
	return renderFigure(f, false), key, nil
}

func opFigure(op *conversionOp) ([]byte, error) {
	s, err := op.src.ToLinear(op.tt.shape)
	if err != nil {
		return nil, err
	}
	d, err := op.dst.ToLinear(op.tt.shape)
	if err != nil {
		return nil, err
	}
	f, err := conversionFigure(op.srcText+" -> "+op.dstText, s, d, op.tt.shape, op.plan, htmlLimits)
	if err != nil {
		return nil, err
	}
	return renderFigure(f, false), nil
}

func classCell(p *smem.Plan) string {
	c := p.Classification
	name := c.Kind.String()
	if c.CrossCTA {
		name += " (across CTAs)"
	}
	return fmt.Sprintf("<span class=\"cls\" style=\"background:%s\"></span>%s", classColour(c), html.EscapeString(name))
}

func scratch(p *smem.Plan) int {
	if p.Kind == smem.SharedMemory && !p.CrossCTA {
		return p.ScratchBytes
	}
	return 0
}

func instrs(p *smem.Plan) string {
	if p.Kind != smem.SharedMemory || p.CrossCTA {
		return ""
	}
	return fmt.Sprintf("%s ×%d (%d conflicts) / %s ×%d (%d conflicts), %d round(s)",
		p.Store.Instr.Name(true), p.Store.VecElems, p.Store.Conflicts,
		p.Load.Instr.Name(false), p.Load.VecElems, p.Load.Conflicts, p.Reps)
}
