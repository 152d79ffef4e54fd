package ir

// Exported pieces of package ir that the tt and ttg dialect packages
// (dialect/tt, dialect/ttg) build on: derived-type interning for the
// parsers of loads and stores, and the HasParent verifier.

type derivedKey struct {
	t    Type
	kind int
}

// pointee returns the (interned) type loaded through pointer type t.
func (p *OpParser) pointee(t Type) (Type, bool) {
	k := derivedKey{t, 0}
	if d, ok := p.derived[k]; ok {
		return d, true
	}
	d, ok := PointeeLike(t)
	if ok {
		p.derived[k] = d
	}
	return d, ok
}

// maskOf returns the (interned) i1 type shaped like t.
func (p *OpParser) maskOf(t Type) Type {
	k := derivedKey{t, 1}
	if d, ok := p.derived[k]; ok {
		return d
	}
	d := WithElem(t, I1)
	p.derived[k] = d
	return d
}

// Pointee returns the type loaded through pointer type t (PointeeLike),
// interned per parse so that the many loads of one pointer type share it.
func (p *OpParser) Pointee(t Type) (Type, bool) { return p.pointee(t) }

// MaskOf returns the i1 type shaped like t (WithElem(t, I1)), interned
// per parse.
func (p *OpParser) MaskOf(t Type) Type { return p.maskOf(t) }

// TypeListsEqual reports whether two type lists are equal element-wise.
func TypeListsEqual(a, b []Type) bool { return typeListsEqual(a, b) }
