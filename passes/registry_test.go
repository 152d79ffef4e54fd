package passes

import (
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/ir"
)

func noop(*Context, *ir.Operation) error { return nil }

func TestRegisterErrors(t *testing.T) {
	tests := []struct {
		name string
		p    *Pass
		want string
	}{
		{"nil", nil, "cannot register a nil pass"},
		{"empty name", &Pass{Run: noop}, `invalid pass name ""`},
		{"bad name", &Pass{Name: "has space", Run: noop}, `invalid pass name "has space"`},
		{"leading digit", &Pass{Name: "1pass", Run: noop}, `invalid pass name "1pass"`},
		{"no run", &Pass{Name: "p"}, "pass 'p' has no Run function"},
		{"bad alias", &Pass{Name: "p", Aliases: []string{"-x"}, Run: noop}, `pass 'p': invalid alias "-x"`},
		{"alias twice", &Pass{Name: "p", Aliases: []string{"q", "q"}, Run: noop}, "alias 'q' given twice"},
		{"alias is name", &Pass{Name: "p", Aliases: []string{"p"}, Run: noop}, "alias 'p' given twice"},
		{"bad anchor", &Pass{Name: "p", Anchor: "tt func", Run: noop}, `invalid anchor op name "tt func"`},
		{"bad option name", &Pass{Name: "p", Options: []Option{{Name: "a b"}}, Run: noop}, `invalid option name "a b"`},
		{"option twice", &Pass{Name: "p", Options: []Option{{Name: "a"}, {Name: "a"}}, Run: noop}, "option 'a' declared twice"},
		{"bad kind", &Pass{Name: "p", Options: []Option{{Name: "a", Kind: 7}}, Run: noop}, "unknown kind 7"},
		{"enum int", &Pass{Name: "p", Options: []Option{{Name: "a", Kind: IntOption, Default: "1", Values: []string{"1"}}}, Run: noop}, "only string options can list allowed values"},
		{"default not allowed", &Pass{Name: "p", Options: []Option{{Name: "form", Default: "fancy", Values: []string{"named", "linear"}}}, Run: noop}, `bad default: invalid value "fancy" for option 'form' (allowed: named, linear)`},
		{"bad int default", &Pass{Name: "p", Options: []Option{{Name: "n", Kind: IntOption}}, Run: noop}, `bad default: invalid value "" for option 'n': expected an integer`},
		{"bad bool default", &Pass{Name: "p", Options: []Option{{Name: "b", Kind: BoolOption, Default: "yes"}}, Run: noop}, `invalid value "yes" for option 'b': expected true or false`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := NewRegistry().Register(tt.p)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Register: %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestRegisterConflicts(t *testing.T) {
	reg := NewRegistry()
	if err := reg.Register(&Pass{Name: "alpha", Aliases: []string{"a"}, Run: noop}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []*Pass{
		{Name: "alpha", Run: noop},
		{Name: "a", Run: noop},
		{Name: "beta", Aliases: []string{"alpha"}, Run: noop},
		{Name: "beta", Aliases: []string{"b", "a"}, Run: noop},
	} {
		err := reg.Register(p)
		if err == nil || !strings.Contains(err.Error(), "is already used by pass 'alpha'") {
			t.Errorf("Register(%s %v): %v, want a conflict with alpha", p.Name, p.Aliases, err)
		}
	}
	// A failed registration adds nothing, not even its other names.
	if reg.Lookup("beta") != nil || reg.Lookup("b") != nil {
		t.Error("a rejected pass was partly registered")
	}
}

func TestLookupAndAll(t *testing.T) {
	reg := NewRegistry()
	names := []string{"zeta", "alpha", "mid", "beta"}
	for _, n := range names {
		if err := reg.Register(&Pass{Name: n, Aliases: []string{n + "-alias"}, Run: noop}); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, p := range reg.All() {
		got = append(got, p.Name)
	}
	if want := "alpha beta mid zeta"; strings.Join(got, " ") != want {
		t.Errorf("All() = %v, want %s", got, want)
	}
	for _, n := range names {
		if p := reg.Lookup(n + "-alias"); p == nil || p.Name != n {
			t.Errorf("Lookup(%s-alias) = %v", n, p)
		}
	}
	if reg.Lookup("nope") != nil {
		t.Error("Lookup of an unknown name is not nil")
	}
	// All returns a copy.
	all := reg.All()
	all[0] = nil
	if reg.All()[0] == nil {
		t.Error("All exposes the registry's slice")
	}
}

func TestDefaultRegistry(t *testing.T) {
	p := &Pass{Name: "test-default-registry", Summary: "x", Run: noop}
	if err := Register(p); err != nil {
		t.Fatal(err)
	}
	if Lookup("test-default-registry") != p {
		t.Error("Lookup did not find the pass registered with Register")
	}
	found := false
	for _, q := range All() {
		found = found || q == p
	}
	if !found {
		t.Error("All does not list the registered pass")
	}
	if Default().Lookup(p.Name) != p {
		t.Error("Default() is not the registry Register uses")
	}
	defer func() {
		if recover() == nil {
			t.Error("MustRegister of a duplicate did not panic")
		}
	}()
	MustRegister(p)
}

func TestOptionKindString(t *testing.T) {
	for k, want := range map[OptionKind]string{StringOption: "string", IntOption: "int", BoolOption: "bool"} {
		if k.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(k), k.String(), want)
		}
	}
}

func TestDisplayName(t *testing.T) {
	for name, want := range map[string]string{
		"remove-redundant-conversions":        "RemoveRedundantConversions",
		"tritongpu-remove-layout-conversions": "TritongpuRemoveLayoutConversions",
		"cse":                                 "Cse",
		"my_pass.v2":                          "MyPassV2",
	} {
		if got := (&Pass{Name: name}).DisplayName(); got != want {
			t.Errorf("DisplayName(%q) = %q, want %q", name, got, want)
		}
	}
}
