package lit

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseConfig(t *testing.T) {
	text := `
# A suite.
name = LAYOUTOPT
suffixes = .mlir .ll
excludes = Inputs README.txt
features = asserts
features += nvptx
substitute %opt = layout-opt --x=1
substitute %{pathsep-free} = a b
env FILECHECK_OPTS = --enable-var-scope
tool FileCheck = ../bin/FileCheck
tool llc = llc-14
path = bin /abs/bin
exec_root = ../build
`
	c, err := ParseConfig("/src/test/lit.cfg", []byte(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		Name:          "LAYOUTOPT",
		Suffixes:      []string{".mlir", ".ll"},
		Excludes:      []string{"Inputs", "README.txt"},
		Substitutions: []Substitution{{"%opt", "layout-opt --x=1"}, {"%{pathsep-free}", "a b"}},
		Features:      []string{"asserts", "nvptx"},
		Env:           []string{"FILECHECK_OPTS=--enable-var-scope"},
		ToolPaths:     map[string]string{"FileCheck": "/src/bin/FileCheck", "llc": "llc-14"},
		Path:          []string{"/src/test/bin", "/abs/bin"},
		Pipefail:      true,
		SourceRoot:    "/src/test",
		ExecRoot:      "/src/build",
	}
	if d := cmp.Diff(want, c); d != "" {
		t.Errorf("ParseConfig mismatch (-want +got):\n%s", d)
	}

	local := "suffixes = .txt\nsubstitute %opt = other\nsubstitute %new = n\nunsupported = true\nfeatures =\npipefail = false\n"
	l, err := ParseConfig("/src/test/sub/lit.local.cfg", []byte(local), c)
	if err != nil {
		t.Fatal(err)
	}
	if !l.Unsupported || l.Pipefail || !cmp.Equal(l.Suffixes, []string{".txt"}) || len(l.Features) != 0 {
		t.Errorf("local config = %+v", l)
	}
	wantSubs := []Substitution{{"%opt", "other"}, {"%{pathsep-free}", "a b"}, {"%new", "n"}}
	if d := cmp.Diff(wantSubs, l.Substitutions); d != "" {
		t.Errorf("local substitutions (-want +got):\n%s", d)
	}
	if c.Unsupported || !c.Pipefail || len(c.Suffixes) != 2 || c.Substitutions[0].Replacement != "layout-opt --x=1" {
		t.Errorf("a local config changed its parent: %+v", c)
	}

	d, err := ParseConfig("/x/suite/lit.cfg", nil, nil)
	if err != nil || d.Name != "suite" || d.SourceRoot != "/x/suite" {
		t.Errorf("empty config = %+v, %v", d, err)
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		text   string
		line   int
		msg    string
		parent bool
	}{
		{"name LAYOUTOPT", 1, "expected KEY = VALUE", false},
		{"\n\n = x", 3, "missing key", false},
		{"colour = red", 1, "unknown key", false},
		{"name += x", 1, "'+=' works only for lists", false},
		{"substitute = x", 1, "needs one name", false},
		{"env A B = x", 1, "needs one name", false},
		{"name x = y", 1, "unexpected", false},
		{"name =", 1, "empty name", false},
		{"unsupported = maybe", 1, "true or false", false},
		{"pipefail = 1", 1, "pipefail must be true or false", false},
		{"tool X =", 1, "empty path", false},
		{"exec_root = /x", 1, "only in lit.cfg", true},
		{"exec_root =", 1, "empty exec_root", false},
	}
	parent := &Config{Name: "P", ToolPaths: map[string]string{}}
	for _, tt := range tests {
		var p *Config
		if tt.parent {
			p = parent
		}
		_, err := ParseConfig("dir/lit.cfg", []byte(tt.text), p)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Line != tt.line || !strings.Contains(ce.Msg, tt.msg) {
			t.Errorf("ParseConfig(%q) = %v, want line %d %q", tt.text, err, tt.line, tt.msg)
			continue
		}
		if want := "dir/lit.cfg:"; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %q is not located", err)
		}
	}
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		"name = X\nsuffixes = .mlir\n", "features += a b\n# c\n", "substitute %x = y\nenv A = b\ntool T = ./t\n",
		"unsupported = true", "exec_root = out", "path = a b", "=", "a += b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseConfig(filepath.Join("/suite", ConfigName), []byte(s), nil)
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Line < 1 || ce.Line > strings.Count(s, "\n")+1 {
				t.Fatalf("ParseConfig(%q): unlocated error %v", s, err)
			}
			return
		}
		if c.Name == "" {
			t.Fatalf("ParseConfig(%q): empty name", s)
		}
		// A configuration is a valid parent for a local one that sets nothing.
		l, err := ParseConfig("/suite/sub/"+LocalConfigName, nil, c)
		if err != nil || !cmp.Equal(l, c) {
			t.Fatalf("empty local config changed %+v into %+v (%v)", c, l, err)
		}
	})
}
