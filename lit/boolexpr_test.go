package lit

import (
	"strings"
	"testing"
)

func TestEvalFeatures(t *testing.T) {
	vars := map[string]bool{"its-true": true, "false-lol-true": true, "under_score": true, "e=quals": true, "d1g1ts": true,
		"linux": true, "target=x86_64-unknown-linux-gnu": true}
	tests := []struct {
		expr string
		want bool
	}{
		{"true", true},
		{"its-true", true},
		{"under_score", true},
		{"e=quals", true},
		{"d1g1ts", true},
		{"{{its.+}}", true},
		{"{{false-[lo]+-true}}", true},
		{"{{(true|false)-lol-(true|false)}}", true},
		{"d1g{{[0-9]}}ts", true},
		{"d1g{{[0-9]}}t{{[a-z]}}", true},
		{"d1{{(g|1)+}}ts", true},
		{"false", false},
		{"True", false},
		{"true-ish", false},
		{"tru", false},
		{"{{its-true.+}}", false},
		{"true || true", true},
		{"true || false", true},
		{"false || false", false},
		{"true && false", false},
		{"!true", false},
		{"!false", true},
		{"   ((!((false) ))   ) ", true},
		{"!false && !false && !! !false", true},
		{"false && false || true", true},
		{"false && (false || true)", false},
		{"linux && (target={{aarch64-.+}} || target={{x86_64-.+}})", true},
		{"linux && !target={{x86_64-.+}}", false},
	}
	for _, tt := range tests {
		got, err := EvalFeatures(tt.expr, vars)
		if err != nil || got != tt.want {
			t.Errorf("EvalFeatures(%q) = %v, %v; want %v", tt.expr, got, err, tt.want)
		}
	}
}

func TestEvalFeaturesErrors(t *testing.T) {
	tests := []struct{ expr, msg string }{
		{"ba#d", `couldn't parse text "#d"`},
		{"true and true", `expected end of expression, have "and"`},
		{"|| true", `have "||"`},
		{"true &&", "have <end of expression>"},
		{"", "have <end of expression>"},
		{"*", "couldn't parse text"},
		{"(((true && true) || true)", "expected ')'"},
		{"true (true)", `expected end of expression, have "("`},
		{"( )", `have ")"`},
		{"abc{{def", "couldn't parse text"},
		{"{{}}", "couldn't parse text"},
		{"{{[}}", "bad regular expression"},
	}
	for _, tt := range tests {
		_, err := EvalFeatures(tt.expr, nil)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("EvalFeatures(%q) error = %v, want %q", tt.expr, err, tt.msg)
		}
	}
}

func FuzzEvalFeatures(f *testing.F) {
	for _, s := range []string{"a && !b", "(x || {{y.*}}) && z", "!!!", "{{", "a{{b}}c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := EvalFeatures(s, map[string]bool{"a": true, "b": true})
		if err != nil {
			return
		}
		// Negation must flip any valid expression.
		nv, err := EvalFeatures("!("+s+")", map[string]bool{"a": true, "b": true})
		if err != nil || nv == v {
			t.Fatalf("!(%s) = %v, %v; %s = %v", s, nv, err, s, v)
		}
	})
}
