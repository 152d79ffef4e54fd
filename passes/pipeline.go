package passes

import (
	"fmt"
	"strings"
)

// Pipeline is a list of passes and nested pipelines that runs on ops of one
// kind, its Anchor. Its textual form is MLIR's:
//
//	builtin.module(canonicalize-layouts{form=linear},tt.func(my-pass),remove-redundant-conversions)
//
// Build one with ParsePipeline or NewPipeline and AddPass/Nest.
type Pipeline struct {
	// Anchor is the name of the op the pipeline runs on ("builtin.module",
	// "tt.func", ... or "any").
	Anchor string
	// Elems are run in order.
	Elems []Element
}

// Element is one step of a pipeline: either a pass with its options or a
// nested pipeline, which runs on every op of its anchor kind directly nested
// in the op the enclosing pipeline runs on.
type Element struct {
	Pass    *Pass         // the pass, or nil for a nested pipeline
	Options []OptionValue // options given explicitly, in the order given
	Nested  *Pipeline     // the nested pipeline, or nil for a pass
}

// OptionValue is one option given to a pass: Name=Value.
type OptionValue struct {
	Name, Value string
}

// NewPipeline returns an empty pipeline anchored on op name anchor.
func NewPipeline(anchor string) *Pipeline { return &Pipeline{Anchor: anchor} }

// AddPass appends pass to p with options in MLIR's textual form, the text
// between the braces of a pipeline element or the value of a pass flag:
// space-separated key=value pairs ("form=linear max-iter=3"), where a value
// may be quoted ('a b', "a b") or in braces ({a b}) to hold spaces; square
// brackets and parentheses do not protect spaces. It checks every option
// against the pass's declaration.
func (p *Pipeline) AddPass(pass *Pass, options string) error {
	if err := p.canHold(pass); err != nil {
		return err
	}
	vals, err := parseOptions(pass, options)
	if err != nil {
		return err
	}
	p.Elems = append(p.Elems, Element{Pass: pass, Options: vals})
	return nil
}

// canHold reports why pass cannot run in p, or nil. A pass anchored on
// another op kind runs on the children of that kind (implicit nesting),
// which only goes down: no op but a module holds a module, so a pass
// restricted to builtin.module cannot run in a pipeline on any other op.
func (p *Pipeline) canHold(pass *Pass) error {
	if a := pass.AnchorOp(); a == ModuleOp && p.Anchor != a && p.Anchor != AnyOp {
		return fmt.Errorf("Can't add pass '%s' restricted to '%s' on a PassManager intended to run on '%s', did you intend to nest?", pass.Name, a, p.Anchor)
	}
	return nil
}

// Nest appends a pipeline anchored on op name anchor to p and returns it.
func (p *Pipeline) Nest(anchor string) *Pipeline {
	n := NewPipeline(anchor)
	p.Elems = append(p.Elems, Element{Nested: n})
	return n
}

// String returns the pipeline's textual form, which ParsePipeline reads
// back into an equal pipeline. Options are written in the order given.
func (p *Pipeline) String() string {
	var b strings.Builder
	p.write(&b)
	return b.String()
}

func (p *Pipeline) write(b *strings.Builder) {
	b.WriteString(p.Anchor)
	b.WriteByte('(')
	for i, e := range p.Elems {
		if i > 0 {
			b.WriteByte(',')
		}
		if e.Nested != nil {
			e.Nested.write(b)
			continue
		}
		b.WriteString(e.Pass.Name)
		if len(e.Options) > 0 {
			b.WriteByte('{')
			for j, o := range e.Options {
				if j > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(o.Name)
				b.WriteByte('=')
				b.WriteString(quoteOptionValue(o.Value))
			}
			b.WriteByte('}')
		}
	}
	b.WriteByte(')')
}

// quoteOptionValue returns v as it must be written inside braces so that it
// reads back as v: bare when it has no space, quote or brace, otherwise in
// single quotes, double quotes, or braces, whichever v does not contain.
// (MLIR's syntax has no escapes: a value with unbalanced braces (counted
// with or without its quoted text, like {"'}"), or with
// leading or trailing spaces, cannot be written so that it reads back.)
func quoteOptionValue(v string) string {
	switch {
	case v != "" && !strings.ContainsAny(v, " \t\n\r'\"{}"):
		return v
	case !strings.Contains(v, "'"):
		return "'" + v + "'"
	case !strings.Contains(v, `"`):
		return `"` + v + `"`
	default:
		return "{" + v + "}"
	}
}
