package lit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Test is one test file of a suite.
type Test struct {
	Path   string  // absolute path of the test file
	Rel    string  // path within the suite, slash-separated
	Config *Config // configuration of the test's directory
}

// FullName is the test's name in reports: "SUITE :: rel/path".
func (t *Test) FullName() string { return t.Config.Name + " :: " + t.Rel }

// Discover finds the tests under paths. Each path is a test file or a
// directory; the suite it belongs to is found by walking up from it to the
// nearest directory with a lit.cfg. In a directory, every file whose name
// ends with one of the suite's suffixes is a test, except excluded names,
// Output directories and hidden files; a lit.local.cfg adjusts the
// configuration of its directory and those below it, and a directory with
// its own lit.cfg is a separate suite. A file named explicitly is a test
// whatever its suffix. Tests come back sorted by full name, without
// duplicates.
func Discover(paths ...string) ([]*Test, error) {
	d := &discoverer{configs: map[string]*Config{}, walking: map[string]bool{}}
	seen := map[string]bool{}
	var tests []*Test
	add := func(t *Test) {
		if !seen[t.Path] {
			seen[t.Path] = true
			tests = append(tests, t)
		}
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("lit: %v", err)
		}
		dir := abs
		if !fi.IsDir() {
			dir = filepath.Dir(abs)
		}
		root, err := findSuiteRoot(dir)
		if err != nil {
			return nil, fmt.Errorf("lit: %s: %v", p, err)
		}
		cfg, err := d.configFor(dir, root)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			add(newTest(abs, root, cfg))
			continue
		}
		if err := d.walk(abs, root, cfg, add); err != nil {
			return nil, err
		}
	}
	sort.Slice(tests, func(i, j int) bool { return tests[i].FullName() < tests[j].FullName() })
	return tests, nil
}

type discoverer struct {
	configs map[string]*Config // directory → its configuration
	walking map[string]bool    // real paths of the directories being walked
}

func newTest(path, root string, cfg *Config) *Test {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		rel = filepath.Base(path)
	}
	return &Test{Path: path, Rel: filepath.ToSlash(rel), Config: cfg}
}

// findSuiteRoot walks up from dir to the nearest directory with a lit.cfg.
func findSuiteRoot(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ConfigName)); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", errors.New("no " + ConfigName + " found in it or any directory above it")
		}
		d = parent
	}
}

// configFor returns the configuration of dir, a directory inside the suite
// rooted at root: the suite's lit.cfg with the lit.local.cfg files from root
// down to dir applied.
func (d *discoverer) configFor(dir, root string) (*Config, error) {
	if c, ok := d.configs[dir]; ok {
		return c, nil
	}
	var c *Config
	var err error
	if dir == root {
		c, err = LoadConfig(filepath.Join(root, ConfigName), nil)
	} else {
		c, err = d.configFor(filepath.Dir(dir), root)
		if err == nil {
			c, err = d.local(dir, c)
		}
	}
	if err != nil {
		return nil, err
	}
	d.configs[dir] = c
	return c, nil
}

// local applies dir's lit.local.cfg, if any, to a copy of parent.
func (d *discoverer) local(dir string, parent *Config) (*Config, error) {
	path := filepath.Join(dir, LocalConfigName)
	if _, err := os.Stat(path); err != nil {
		return parent, nil
	}
	return LoadConfig(path, parent)
}

// walk adds the tests in dir, whose configuration is cfg.
func (d *discoverer) walk(dir, root string, cfg *Config, add func(*Test)) error {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		if d.walking[real] {
			return nil // a symbolic link back into a directory being walked
		}
		d.walking[real] = true
		defer delete(d.walking, real)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("lit: %v", err)
	}
	for _, e := range entries {
		name := e.Name()
		if name == "Output" || strings.HasPrefix(name, ".") || slices.Contains(cfg.Excludes, name) ||
			name == ConfigName || name == LocalConfigName {
			continue
		}
		path := filepath.Join(dir, name)
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(path); err == nil {
				isDir = fi.IsDir()
			}
		}
		if !isDir {
			if hasSuffix(name, cfg.Suffixes) {
				add(newTest(path, root, cfg))
			}
			continue
		}
		subRoot := root
		var sub *Config
		if _, serr := os.Stat(filepath.Join(path, ConfigName)); serr == nil {
			subRoot = path // a nested suite
			sub, err = d.configFor(path, path)
		} else {
			sub, err = d.local(path, cfg)
		}
		if err != nil {
			return err
		}
		d.configs[path] = sub
		if err := d.walk(path, subRoot, sub, add); err != nil {
			return err
		}
	}
	return nil
}

func hasSuffix(name string, suffixes []string) bool {
	for _, s := range suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}
