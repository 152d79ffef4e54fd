package lit

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ConfigName is the file that marks the root of a test suite.
const ConfigName = "lit.cfg"

// LocalConfigName is the file that adjusts the configuration for one
// directory of a suite and the directories below it.
const LocalConfigName = "lit.local.cfg"

// Config is the configuration of a test suite, or of one directory of it
// after its lit.local.cfg files have been applied. The file format is
// described in the package documentation.
type Config struct {
	Name          string            // suite name, shown as "NAME :: path"
	Suffixes      []string          // file suffixes of tests, e.g. ".mlir"
	Excludes      []string          // file and directory names that are not tests
	Substitutions []Substitution    // applied in order, before the built-in ones
	Features      []string          // available features, for REQUIRES/UNSUPPORTED/XFAIL
	Env           []string          // "KEY=VALUE" entries added to the test environment
	ToolPaths     map[string]string // command name → executable that runs it
	Path          []string          // directories put in front of PATH
	Unsupported   bool              // every test here is UNSUPPORTED
	Pipefail      bool              // a pipeline fails when any command fails (default true)
	SourceRoot    string            // directory of the suite's lit.cfg
	ExecRoot      string            // where Output/ directories (%t) go; default SourceRoot
}

// Substitution replaces every occurrence of Pattern (plain text, not a
// regular expression) in a RUN line with Replacement.
type Substitution struct {
	Pattern, Replacement string
}

// ConfigError is an error in a configuration file, located by line.
type ConfigError struct {
	File string
	Line int
	Msg  string
}

// Error formats the error as "file:line: error: message".
func (e *ConfigError) Error() string {
	return fmt.Sprintf("%s:%d: error: %s", e.File, e.Line, e.Msg)
}

// Clone returns a deep copy of c.
func (c *Config) Clone() *Config {
	d := *c
	d.Suffixes = slices.Clone(c.Suffixes)
	d.Excludes = slices.Clone(c.Excludes)
	d.Substitutions = slices.Clone(c.Substitutions)
	d.Features = slices.Clone(c.Features)
	d.Env = slices.Clone(c.Env)
	d.Path = slices.Clone(c.Path)
	d.ToolPaths = make(map[string]string, len(c.ToolPaths))
	for k, v := range c.ToolPaths {
		d.ToolPaths[k] = v
	}
	return &d
}

// LoadConfig reads a configuration file: a suite's lit.cfg when parent is
// nil, or a lit.local.cfg that adjusts a copy of parent.
func LoadConfig(path string, parent *Config) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseConfig(path, data, parent)
}

// ParseConfig parses configuration text. file names it in errors, and its
// directory anchors relative paths. With a nil parent the result is a new
// suite configuration (SourceRoot is file's directory, Name defaults to that
// directory's name); otherwise it is a copy of parent with the changes
// applied.
func ParseConfig(file string, data []byte, parent *Config) (*Config, error) {
	dir := filepath.Dir(file)
	var c *Config
	if parent == nil {
		c = &Config{SourceRoot: dir, ToolPaths: map[string]string{}, Pipefail: true}
	} else {
		c = parent.Clone()
	}
	resolve := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(dir, p)
	}
	for n, line := range strings.Split(string(data), "\n") {
		errorf := func(format string, args ...any) error {
			return &ConfigError{File: file, Line: n + 1, Msg: fmt.Sprintf(format, args...)}
		}
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		eq := strings.IndexByte(line, '=')
		if eq < 0 {
			return nil, errorf("expected KEY = VALUE")
		}
		appendOp := eq > 0 && line[eq-1] == '+'
		lhs := line[:eq]
		if appendOp {
			lhs = line[:eq-1]
		}
		value := strings.TrimSpace(line[eq+1:])
		key, arg, _ := strings.Cut(strings.TrimSpace(lhs), " ")
		arg = strings.TrimSpace(arg)
		if key == "" {
			return nil, errorf("missing key before '='")
		}
		takesArg := key == "substitute" || key == "env" || key == "tool"
		if takesArg && (arg == "" || strings.ContainsAny(arg, " \t")) {
			return nil, errorf("%q needs one name before '=' (%s NAME = VALUE)", key, key)
		}
		if !takesArg && arg != "" {
			return nil, errorf("unexpected %q after %q", arg, key)
		}
		isList := false
		switch key {
		case "suffixes", "excludes", "features", "path":
			isList = true
		}
		if appendOp && !isList {
			return nil, errorf("'+=' works only for lists (suffixes, excludes, features, path)")
		}
		list := strings.Fields(value)
		set := func(dst *[]string, items []string) {
			if appendOp {
				*dst = append(*dst, items...)
			} else {
				*dst = items
			}
		}
		switch key {
		case "name":
			if value == "" {
				return nil, errorf("empty name")
			}
			c.Name = value
		case "suffixes":
			set(&c.Suffixes, list)
		case "excludes":
			set(&c.Excludes, list)
		case "features":
			set(&c.Features, list)
		case "path":
			for i, p := range list {
				list[i] = resolve(p)
			}
			set(&c.Path, list)
		case "substitute":
			i := slices.IndexFunc(c.Substitutions, func(s Substitution) bool { return s.Pattern == arg })
			if i >= 0 {
				c.Substitutions[i].Replacement = value
			} else {
				c.Substitutions = append(c.Substitutions, Substitution{arg, value})
			}
		case "env":
			if strings.Contains(arg, "=") {
				return nil, errorf("bad environment variable name %q", arg)
			}
			c.Env = append(c.Env, arg+"="+value)
		case "tool":
			if value == "" {
				return nil, errorf("empty path for tool %q", arg)
			}
			if strings.ContainsRune(value, '/') {
				value = resolve(value)
			}
			c.ToolPaths[arg] = value
		case "unsupported", "pipefail":
			var b bool
			switch value {
			case "true":
				b = true
			case "false":
			default:
				return nil, errorf("%s must be true or false, not %q", key, value)
			}
			if key == "unsupported" {
				c.Unsupported = b
			} else {
				c.Pipefail = b
			}
		case "exec_root":
			if parent != nil {
				return nil, errorf("exec_root may be set only in %s", ConfigName)
			}
			if value == "" {
				return nil, errorf("empty exec_root")
			}
			c.ExecRoot = resolve(value)
		default:
			return nil, errorf("unknown key %q", key)
		}
	}
	if c.Name == "" {
		c.Name = filepath.Base(dir)
	}
	return c, nil
}
