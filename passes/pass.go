package passes

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/ir"
)

// Pass is a transformation of the IR, described as a plain value in the
// spirit of golang.org/x/tools/go/analysis.Analyzer: a name, documentation,
// options with defaults, the op it runs on and a Run function. A Pass is
// registered once (see Register) and must not be modified afterwards.
type Pass struct {
	// Name is the pass argument used in pipelines and as a command-line
	// flag, e.g. "remove-redundant-conversions". Lowercase letters, digits,
	// '-', '_' and '.'; it must start with a letter.
	Name string
	// Summary is one line for -help and -list-passes.
	Summary string
	// Doc is the longer description: what the pass does and why.
	Doc string
	// Anchor is the name of the op the pass runs on: "builtin.module" (the
	// default when empty), "tt.func", ..., or "any" for a pass that can run
	// on any op. A pass anchored on a different op than the pipeline it is
	// listed in runs on every op of its anchor kind directly nested in the
	// pipeline's op (implicit nesting, as mlir-opt does).
	Anchor string
	// Aliases are other spellings accepted wherever Name is, e.g. Triton's
	// "tritongpu-remove-layout-conversions".
	Aliases []string
	// Options are the options the pass accepts, in the order -help lists
	// them.
	Options []Option
	// Run transforms op (an op named Anchor). It reports problems through
	// ctx (Errorf, Warningf, Remarkf, Emit). Returning a non-nil error, or
	// emitting an error diagnostic, makes the pass — and the pipeline — fail.
	Run func(ctx *Context, op *ir.Operation) error
}

// AnchorOp returns the op name the pass runs on: p.Anchor, or
// "builtin.module" when Anchor is empty.
func (p *Pass) AnchorOp() string {
	if p.Anchor == "" {
		return ModuleOp
	}
	return p.Anchor
}

// ModuleOp is the name of the top-level op, the default anchor.
const ModuleOp = "builtin.module"

// AnyOp is the anchor of a pass that runs on whatever op it is nested under.
const AnyOp = "any"

// OptionKind says how an option's value is checked.
type OptionKind int

// Option kinds. The zero value, StringOption, accepts any text (or one of
// Values, when Values is set).
const (
	StringOption OptionKind = iota // any string, or one of Values
	IntOption                      // a decimal integer (with optional sign)
	BoolOption                     // true, false, 1, 0 (MLIR's spellings); a bare key means true
)

// String returns the kind's name as -help prints it: "string", "int" or
// "bool".
func (k OptionKind) String() string {
	switch k {
	case IntOption:
		return "int"
	case BoolOption:
		return "bool"
	default:
		return "string"
	}
}

// Option describes one option of a pass.
type Option struct {
	Name    string     // key in pipelines: canonicalize-layouts{form=linear}
	Doc     string     // one line for -help
	Default string     // value when the option is not given; must itself be valid
	Kind    OptionKind // how values are checked; StringOption when zero
	Values  []string   // when non-empty, the only values allowed (an enum)
}

// Check reports whether v is a valid value of the option, with an error
// that names the option and says what is allowed.
func (o *Option) Check(v string) error {
	if len(o.Values) > 0 {
		if slices.Contains(o.Values, v) {
			return nil
		}
		return fmt.Errorf("invalid value %q for option '%s' (allowed: %s)", v, o.Name, strings.Join(o.Values, ", "))
	}
	switch o.Kind {
	case IntOption:
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			return fmt.Errorf("invalid value %q for option '%s': expected an integer", v, o.Name)
		}
	case BoolOption:
		if _, ok := parseBool(v); !ok {
			return fmt.Errorf("invalid value %q for option '%s': expected true or false", v, o.Name)
		}
	}
	return nil
}

func parseBool(v string) (val, ok bool) {
	switch v {
	case "true", "True", "TRUE", "1":
		return true, true
	case "false", "False", "FALSE", "0":
		return false, true
	}
	return false, false
}
