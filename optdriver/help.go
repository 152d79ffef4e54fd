package optdriver

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// usage writes -help: the driver's flags, then every pass with its summary,
// aliases and options, in the layout of mlir-opt --help.
func (t *Tool) usage(w io.Writer, fs *flag.FlagSet, passFlags map[string]bool, reg *passes.Registry) {
	overview := t.Overview
	if overview == "" {
		overview = t.name() + ": an mlir-opt-style driver for TritonGPU layout passes"
	}
	type row struct{ left, right string }
	var opts []row
	fs.VisitAll(func(f *flag.Flag) {
		if passFlags[f.Name] {
			return
		}
		arg, text := flag.UnquoteUsage(f)
		left := "--" + f.Name
		if f.Name == "o" || f.Name == "p" || f.Name == "h" {
			left = "-" + f.Name
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			if arg != "" {
				left += "[=<" + arg + ">]"
			}
		} else if f.Name == "o" {
			left += " <" + arg + ">"
		} else {
			left += "=<" + arg + ">"
		}
		if def := f.DefValue; def != "" && def != "false" && def != "-" {
			text += " (default: " + def + ")"
		}
		opts = append(opts, row{left, text})
	})
	type passRow struct {
		row
		sub []row
	}
	var prows []passRow
	for _, p := range reg.All() {
		pr := passRow{row: row{"--" + p.Name, p.Summary}}
		for _, a := range p.Aliases {
			pr.sub = append(pr.sub, row{"--" + a, "Alias for --" + p.Name})
		}
		for _, o := range p.Options {
			pr.sub = append(pr.sub, row{o.Name + "=" + optionArg(o), optionDoc(o)})
		}
		prows = append(prows, pr)
	}
	width := 0
	for _, r := range opts {
		width = max(width, len(r.left)+2)
	}
	for _, p := range prows {
		width = max(width, len(p.left)+6)
		for _, s := range p.sub {
			width = max(width, len(s.left)+8)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "OVERVIEW: %s\n", overview)
	fmt.Fprintf(&b, "Available Dialects: %s\n\n", strings.Join(dialects(), ", "))
	fmt.Fprintf(&b, "USAGE: %s [options] [input file]\n\n", t.name())
	b.WriteString("  The input file defaults to - (standard input). Flags and the input may come in any order.\n\n")
	b.WriteString("OPTIONS:\n")
	for _, r := range opts {
		fmt.Fprintf(&b, "  %-*s - %s\n", width-2, r.left, r.right)
	}
	b.WriteString("\n  Compiler passes to run, in command-line order (options: --NAME='key=value ...'):\n")
	b.WriteString("    Passes:\n")
	for _, p := range prows {
		fmt.Fprintf(&b, "      %-*s -   %s\n", width-6, p.left, p.right)
		for _, s := range p.sub {
			fmt.Fprintf(&b, "        %-*s - %s\n", width-8, s.left, s.right)
		}
	}
	io.WriteString(w, b.String())
}

// listPasses writes -list-passes: every registered pass with its summary,
// aliases and options.
func listPasses(w io.Writer, reg *passes.Registry) {
	var b strings.Builder
	b.WriteString("Registered Passes:\n")
	for _, p := range reg.All() {
		fmt.Fprintf(&b, "  %s: %s\n", p.Name, p.Summary)
		if a := p.AnchorOp(); a != passes.ModuleOp {
			fmt.Fprintf(&b, "    runs on: %s\n", a)
		}
		for _, a := range p.Aliases {
			fmt.Fprintf(&b, "    alias: %s\n", a)
		}
		for _, o := range p.Options {
			fmt.Fprintf(&b, "    %s=%s: %s\n", o.Name, optionArg(o), optionDoc(o))
		}
	}
	io.WriteString(w, b.String())
}

// optionArg describes the values of an option: "<named|linear>", "<int>".
func optionArg(o passes.Option) string {
	if len(o.Values) > 0 {
		return "<" + strings.Join(o.Values, "|") + ">"
	}
	return "<" + o.Kind.String() + ">"
}

func optionDoc(o passes.Option) string {
	doc := o.Doc
	if o.Default != "" {
		doc += " (default: " + o.Default + ")"
	}
	return strings.TrimSpace(doc)
}

// dialects returns the sorted names of the dialects with registered ops.
func dialects() []string {
	var names []string
	for _, op := range ir.RegisteredOps() {
		d := ir.DialectOf(op)
		if len(names) == 0 || names[len(names)-1] != d {
			names = append(names, d)
		}
	}
	return names
}
