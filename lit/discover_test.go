package lit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeTree creates files under dir from a map of slash paths to contents.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

func testNames(tests []*Test) []string {
	var names []string
	for _, t := range tests {
		names = append(names, t.FullName())
	}
	return names
}

func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"suite/lit.cfg":                 "name = S\nsuffixes = .mlir .ll\nexcludes = Inputs\nfeatures = base\n",
		"suite/a.mlir":                  "",
		"suite/b.ll":                    "",
		"suite/notes.txt":               "",
		"suite/Inputs/helper.mlir":      "",
		"suite/Output/old.mlir":         "",
		"suite/.hidden/x.mlir":          "",
		"suite/sub/lit.local.cfg":       "suffixes += .txt\nfeatures += subfeat\n",
		"suite/sub/c.txt":               "",
		"suite/sub/deeper/d.mlir":       "",
		"suite/nested/lit.cfg":          "name = N\nsuffixes = .n\n",
		"suite/nested/e.n":              "",
		"suite/nested/f.mlir":           "",
		"suite/other/lit.local.cfg":     "unsupported = true\n",
		"suite/other/g.mlir":            "",
		"outside/lit.cfg":               "name = O\nsuffixes = .mlir\n",
		"outside/deep/dir/explicit.xyz": "",
		"outside/deep/linked.mlir":      "",
	})
	// A symbolic link to a directory is followed, unless it loops.
	if err := os.Symlink(filepath.Join(dir, "suite"), filepath.Join(dir, "suite/sub/loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "outside/deep"), filepath.Join(dir, "suite/linked")); err != nil {
		t.Fatal(err)
	}
	tests, err := Discover(filepath.Join(dir, "suite"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"N :: e.n", "S :: a.mlir", "S :: b.ll", "S :: linked/linked.mlir", "S :: other/g.mlir", "S :: sub/c.txt", "S :: sub/deeper/d.mlir"}
	if d := cmp.Diff(want, testNames(tests)); d != "" {
		t.Errorf("Discover (-want +got):\n%s", d)
	}
	for _, tt := range tests {
		switch tt.Rel {
		case "sub/deeper/d.mlir":
			if !cmp.Equal(tt.Config.Features, []string{"base", "subfeat"}) {
				t.Errorf("%s features = %v, want the local config's", tt.Rel, tt.Config.Features)
			}
		case "a.mlir":
			if !cmp.Equal(tt.Config.Features, []string{"base"}) || tt.Config.SourceRoot != filepath.Join(dir, "suite") {
				t.Errorf("%s config = %+v", tt.Rel, tt.Config)
			}
		case "other/g.mlir":
			if !tt.Config.Unsupported {
				t.Errorf("%s is not unsupported", tt.Rel)
			}
		}
	}

	// A file named explicitly is a test whatever its suffix; the suite is
	// found by walking up; duplicates collapse.
	explicit := filepath.Join(dir, "outside/deep/dir/explicit.xyz")
	tests, err = Discover(explicit, explicit, filepath.Join(dir, "suite/sub/c.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"O :: deep/dir/explicit.xyz", "S :: sub/c.txt"}
	if d := cmp.Diff(want, testNames(tests)); d != "" {
		t.Errorf("Discover of files (-want +got):\n%s", d)
	}
	if c := tests[1].Config; !cmp.Equal(c.Features, []string{"base", "subfeat"}) {
		t.Errorf("explicit test did not get its directory's local config: %v", c.Features)
	}
}

func TestDiscoverErrors(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"bad/lit.cfg":              "nonsense\n",
		"bad/a.mlir":               "",
		"badlocal/lit.cfg":         "suffixes = .mlir\n",
		"badlocal/x/lit.local.cfg": "colour = red\n",
		"badlocal/x/a.mlir":        "",
	})
	tests := []struct{ path, msg string }{
		{filepath.Join(dir, "bad"), "lit.cfg:1: error: expected KEY = VALUE"},
		{filepath.Join(dir, "badlocal"), "lit.local.cfg:1: error: unknown key"},
		{filepath.Join(dir, "missing"), "no such file"},
		{"/", "no lit.cfg found"},
	}
	for _, tt := range tests {
		_, err := Discover(tt.path)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Discover(%s) = %v, want %q", tt.path, err, tt.msg)
		}
	}
}
