package passes

import (
	"fmt"
	"sort"
	"sync"
)

// Registry maps pass names and aliases to passes. The package keeps one
// default registry, used by Register, Lookup, All and ParsePipeline; a
// program that wants an isolated set of passes (a test, say) makes its own
// with NewRegistry. A Registry is safe for concurrent use.
type Registry struct {
	mu     sync.RWMutex
	byName map[string]*Pass // names and aliases
	passes []*Pass          // registered passes, sorted by Name
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{byName: make(map[string]*Pass)}
}

// defaultRegistry holds the passes registered by Register, including every
// pass of this package (each registers itself in an init function).
var defaultRegistry = NewRegistry()

// Default returns the package's default registry.
func Default() *Registry { return defaultRegistry }

// Register adds p to the default registry. See Registry.Register.
func Register(p *Pass) error { return defaultRegistry.Register(p) }

// MustRegister is like Register but panics on error. It is meant for init
// functions, where a bad pass definition is a programming error.
func MustRegister(p *Pass) {
	if err := Register(p); err != nil {
		panic(err)
	}
}

// Lookup returns the pass of the default registry with the given name or
// alias, or nil.
func Lookup(name string) *Pass { return defaultRegistry.Lookup(name) }

// All returns the passes of the default registry, sorted by name.
func All() []*Pass { return defaultRegistry.All() }

// Register checks p and adds it. It returns an error, and adds nothing, when
// the name or an alias is malformed or already taken (by a name or an
// alias), when p has no Run function, or when an option is malformed,
// declared twice, or has a default that is not one of its allowed values.
func (r *Registry) Register(p *Pass) error {
	if err := validate(p); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	names := append([]string{p.Name}, p.Aliases...)
	for _, n := range names {
		if q, ok := r.byName[n]; ok {
			return fmt.Errorf("passes: cannot register pass '%s': name '%s' is already used by pass '%s'", p.Name, n, q.Name)
		}
	}
	for _, n := range names {
		r.byName[n] = p
	}
	i := sort.Search(len(r.passes), func(i int) bool { return r.passes[i].Name >= p.Name })
	r.passes = append(r.passes, nil)
	copy(r.passes[i+1:], r.passes[i:])
	r.passes[i] = p
	return nil
}

// Lookup returns the pass with the given name or alias, or nil.
func (r *Registry) Lookup(name string) *Pass {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.byName[name]
}

// Names returns the names and aliases of the registered passes, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.byName))
	for n := range r.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// All returns the registered passes sorted by name (aliases not repeated).
func (r *Registry) All() []*Pass {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]*Pass(nil), r.passes...)
}

// validate checks a pass definition.
func validate(p *Pass) error {
	if p == nil {
		return fmt.Errorf("passes: cannot register a nil pass")
	}
	if !validName(p.Name) {
		return fmt.Errorf("passes: invalid pass name %q (want a letter followed by letters, digits, '-', '_' or '.')", p.Name)
	}
	if p.Run == nil {
		return fmt.Errorf("passes: pass '%s' has no Run function", p.Name)
	}
	seen := map[string]bool{p.Name: true}
	for _, a := range p.Aliases {
		if !validName(a) {
			return fmt.Errorf("passes: pass '%s': invalid alias %q", p.Name, a)
		}
		if seen[a] {
			return fmt.Errorf("passes: pass '%s': alias '%s' given twice", p.Name, a)
		}
		seen[a] = true
	}
	if p.Anchor != "" && p.Anchor != AnyOp && !validOpName(p.Anchor) {
		return fmt.Errorf("passes: pass '%s': invalid anchor op name %q", p.Name, p.Anchor)
	}
	opts := map[string]bool{}
	for i := range p.Options {
		o := &p.Options[i]
		if !validName(o.Name) {
			return fmt.Errorf("passes: pass '%s': invalid option name %q", p.Name, o.Name)
		}
		if opts[o.Name] {
			return fmt.Errorf("passes: pass '%s': option '%s' declared twice", p.Name, o.Name)
		}
		opts[o.Name] = true
		if o.Kind < StringOption || o.Kind > BoolOption {
			return fmt.Errorf("passes: pass '%s': option '%s' has an unknown kind %d", p.Name, o.Name, o.Kind)
		}
		if len(o.Values) > 0 && o.Kind != StringOption {
			return fmt.Errorf("passes: pass '%s': option '%s': only string options can list allowed values", p.Name, o.Name)
		}
		if err := o.Check(o.Default); err != nil {
			return fmt.Errorf("passes: pass '%s': bad default: %v", p.Name, err)
		}
	}
	return nil
}

// validName reports whether s is a valid pass, alias or option name: a
// letter followed by letters, digits, '-', '_' or '.'.
func validName(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// validOpName reports whether s is a valid op name such as "tt.func": a
// letter or '_' followed by letters, digits, '_', '$' or '.'.
func validOpName(s string) bool {
	if s == "" || !(isLetter(s[0]) || s[0] == '_') {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c) && c != '_' && c != '$' && c != '.' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
