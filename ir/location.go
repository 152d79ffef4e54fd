package ir

import "strconv"

// Location is where an operation, block argument or function argument came
// from in the user's program, as MLIR's `loc(...)` syntax writes it. The
// implementations are UnknownLoc, FileLineColLoc, NameLoc, CallSiteLoc,
// FusedLoc and LocRef (a reference to a `#locN = loc(...)` alias, kept so
// that printing reproduces the input's aliases).
type Location interface {
	// appendLoc appends the body of the location (without `loc(` `)`);
	// inline writes alias references as the locations they name.
	appendLoc(b []byte, inline bool) []byte
	isLocation()
}

// UnknownLoc is `loc(unknown)`.
type UnknownLoc struct{}

// FileLineColLoc is `loc("file":line:col)`.
type FileLineColLoc struct {
	File      string
	Line, Col int
}

// NameLoc is `loc("name")` or `loc("name"(child))`. Child is nil when absent.
type NameLoc struct {
	Name  string
	Child Location
}

// CallSiteLoc is `loc(callsite(callee at caller))`.
type CallSiteLoc struct {
	Callee, Caller Location
}

// FusedLoc is `loc(fused[l1, l2, ...])` or `loc(fused<metadata>[...])`.
// Metadata is nil when absent.
type FusedLoc struct {
	Locs     []Location
	Metadata Attribute
}

// LocAlias is a named location alias, `#name = loc(...)`. Loc is nil until
// the definition has been seen (Triton prints most definitions after the
// module that uses them).
type LocAlias struct {
	Name string // without '#'
	Loc  Location
	// AfterModule records that the definition was written after the
	// top-level module, so that printing puts it back there.
	AfterModule bool
	pos         Pos
	seq         int
}

// LocRef is a location written as a reference to an alias: `loc(#loc12)`.
type LocRef struct {
	Alias *LocAlias
}

// Resolve follows alias references and returns the location they name, or
// nil for an undefined alias.
func Resolve(l Location) Location {
	for i := 0; i < 1000; i++ {
		r, ok := l.(LocRef)
		if !ok {
			return l
		}
		if r.Alias == nil {
			return nil
		}
		l = r.Alias.Loc
	}
	return nil
}

func (UnknownLoc) isLocation()     {}
func (FileLineColLoc) isLocation() {}
func (NameLoc) isLocation()        {}
func (CallSiteLoc) isLocation()    {}
func (FusedLoc) isLocation()       {}
func (LocRef) isLocation()         {}

func (UnknownLoc) appendLoc(b []byte, _ bool) []byte { return append(b, "unknown"...) }

func (l FileLineColLoc) appendLoc(b []byte, _ bool) []byte {
	b = appendQuoted(b, l.File)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(l.Line), 10)
	b = append(b, ':')
	return strconv.AppendInt(b, int64(l.Col), 10)
}

func (l NameLoc) appendLoc(b []byte, inline bool) []byte {
	b = appendQuoted(b, l.Name)
	if l.Child != nil {
		if _, unk := l.Child.(UnknownLoc); !unk {
			b = append(b, '(')
			b = l.Child.appendLoc(b, inline)
			b = append(b, ')')
		}
	}
	return b
}

func (l CallSiteLoc) appendLoc(b []byte, inline bool) []byte {
	b = append(b, "callsite("...)
	b = l.Callee.appendLoc(b, inline)
	b = append(b, " at "...)
	b = l.Caller.appendLoc(b, inline)
	return append(b, ')')
}

func (l FusedLoc) appendLoc(b []byte, inline bool) []byte {
	b = append(b, "fused"...)
	if l.Metadata != nil {
		b = append(b, '<')
		b = appendAttr(b, l.Metadata, nil)
		b = append(b, '>')
	}
	b = append(b, '[')
	for i, x := range l.Locs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = x.appendLoc(b, inline)
	}
	return append(b, ']')
}

func (l LocRef) appendLoc(b []byte, inline bool) []byte {
	if inline {
		// Resolve bounds alias chains; a cycle or an undefined alias
		// stays a reference.
		if r := Resolve(l); r != nil {
			if _, ref := r.(LocRef); !ref {
				return r.appendLoc(b, true)
			}
		}
	}
	b = append(b, '#')
	return append(b, l.Alias.Name...)
}

// LocString formats l as `loc(...)`.
func LocString(l Location) string { return string(appendLocation(nil, l, false)) }

// appendLocation appends `loc(...)` for l (`loc(unknown)` for nil); inline
// writes location aliases out, as appendLoc.
func appendLocation(b []byte, l Location, inline bool) []byte {
	b = append(b, "loc("...)
	if l == nil {
		b = append(b, "unknown"...)
	} else {
		b = l.appendLoc(b, inline)
	}
	return append(b, ')')
}

// appendQuoted appends s as an MLIR string literal, as
// llvm::printEscapedString does: printable ASCII as is except `"`, `\` as
// `\\`, everything else (`"` and newlines too) as \XX hex (`\22`).
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			b = append(b, '\\', c)
		case c >= 0x20 && c < 0x7f && c != '"':
			b = append(b, c)
		default:
			const hex = "0123456789ABCDEF"
			b = append(b, '\\', hex[c>>4], hex[c&15])
		}
	}
	return append(b, '"')
}
