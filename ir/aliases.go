package ir

import (
	"sort"
	"strconv"
)

// aliasPlan is what the printer decided about aliases for one module.
type aliasPlan struct {
	byPtr      map[Attribute]string // attribute (by identity) → "#name" or ""
	byKey      map[string]string    // inline text → "#name"
	typeNames  map[Type]string      // input type aliases in use → "!name"
	defsBefore [][]byte
	defsAfter  [][]byte
	// numValues and numBlocks count the values (results and block
	// arguments) and blocks of the module, to size the printer's maps.
	numValues, numBlocks int
}

func (al *aliasPlan) ref(a Attribute) string {
	if n, ok := al.byPtr[a]; ok {
		return n
	}
	switch a.(type) {
	case *OpaqueAttr, *EncodingAttr:
		return al.byKey[AttrString(a)]
	}
	return ""
}

type aliasEntry struct {
	name   string
	seq    int
	text   []byte
	isAttr bool
	prefix string
}

// trimDigits returns name without its numeric suffix ("blocked" for "blocked12").
func trimDigits(name string) string {
	i := len(name)
	for i > 0 && isDigit(name[i-1]) {
		i--
	}
	return name[:i]
}

// computeAliases finds the encodings in use, names them (input names
// first, then Triton-style `prefixN` names in first-use order) and renders
// the alias definitions.
func computeAliases(m *Module, cfg PrintConfig) *aliasPlan {
	al := &aliasPlan{byPtr: map[Attribute]string{}, byKey: map[string]string{}, typeNames: map[Type]string{}}
	inputTypes := map[Type]*Alias{}
	// Names from the input.
	inputByKey := map[string]*Alias{}
	taken := map[string]bool{}
	for i := range m.Aliases {
		a := &m.Aliases[i]
		taken[a.Name] = true
		if a.Type != nil {
			if _, dup := inputTypes[a.Type]; !dup {
				inputTypes[a.Type] = a
			}
		}
		if a.Attr != nil {
			k := AttrString(a.Attr)
			if _, dup := inputByKey[k]; !dup {
				inputByKey[k] = a
			}
		}
	}
	for _, la := range m.LocAliases {
		taken[la.Name] = true
	}
	// Collect attributes in first-use order.
	var order []Attribute // canonical representatives, by key
	keyOf := map[Attribute]string{}
	seenKey := map[string]bool{}
	seenType := map[Type]bool{}
	// record keys an aliasable attribute once its nested ones are visited.
	record := func(a Attribute) {
		k := AttrString(a)
		keyOf[a] = k
		if !seenKey[k] {
			seenKey[k] = true
			order = append(order, a)
		}
	}
	var visitAttr func(Attribute, int)
	var visitType func(Type, int)
	visitAttr = func(a Attribute, depth int) {
		if a == nil || depth > 1000 {
			return
		}
		switch x := a.(type) {
		case *OpaqueAttr:
			if _, ok := keyOf[x]; ok {
				return
			}
			for _, r := range x.Refs {
				visitAttr(r, depth+1)
			}
			record(x)
		case *EncodingAttr:
			if _, ok := keyOf[x]; ok {
				return
			}
			for _, n := range nestedEncodings(x.Enc) {
				visitAttr(&EncodingAttr{Enc: n}, depth+1)
			}
			record(x)
		case *ArrayAttr:
			for _, e := range x.Elems {
				visitAttr(e, depth+1)
			}
		case *DictionaryAttr:
			for _, e := range x.Entries {
				visitAttr(e.Value, depth+1)
			}
		case *TypeAttr:
			visitType(x.Type, depth+1)
		case *DenseElementsAttr:
			visitType(x.Type, depth+1)
		}
	}
	visitType = func(t Type, depth int) {
		if t == nil || seenType[t] || depth > 1000 {
			return
		}
		seenType[t] = true
		if in, ok := inputTypes[t]; ok && !cfg.LocalScope {
			al.typeNames[t] = "!" + in.Name
		}
		switch x := t.(type) {
		case *RankedTensorType:
			visitType(x.Elem, depth+1)
			visitAttr(x.Encoding, depth+1)
		case *MemDescType:
			visitType(x.Elem, depth+1)
			visitAttr(x.Encoding, depth+1)
			visitAttr(x.MemorySpace, depth+1)
		case *PointerType:
			visitType(x.Pointee, depth+1)
		case *TensorDescType:
			visitType(x.Block, depth+1)
		case *FunctionType:
			for _, y := range x.Inputs {
				visitType(y, depth+1)
			}
			for _, y := range x.Results {
				visitType(y, depth+1)
			}
		case *OpaqueType:
			for _, r := range x.Refs {
				visitAttr(r, depth+1)
			}
		}
	}
	usedLocs := map[*LocAlias]bool{}
	var visitLoc func(Location, int)
	visitLoc = func(l Location, depth int) {
		if depth > 1000 {
			return
		}
		switch x := l.(type) {
		case LocRef:
			if x.Alias != nil && !usedLocs[x.Alias] {
				usedLocs[x.Alias] = true
				visitLoc(x.Alias.Loc, depth+1)
			}
		case NameLoc:
			visitLoc(x.Child, depth+1)
		case CallSiteLoc:
			visitLoc(x.Callee, depth+1)
			visitLoc(x.Caller, depth+1)
		case FusedLoc:
			for _, y := range x.Locs {
				visitLoc(y, depth+1)
			}
		}
	}
	m.Op.Walk(func(op *Operation) WalkResult {
		for _, a := range op.Props {
			visitAttr(a.Value, 0)
		}
		for _, a := range op.Attrs {
			visitAttr(a.Value, 0)
		}
		for i := range op.operands {
			if v := op.operands[i].value; v != nil {
				visitType(v.typ, 0)
			}
		}
		al.numValues += len(op.results)
		for _, r := range op.regions {
			al.numBlocks += len(r.Blocks)
			for _, b := range r.Blocks {
				al.numValues += len(b.args)
				for _, a := range b.args {
					visitType(a.typ, 0)
					if cfg.DebugInfo {
						visitLoc(a.Loc, 0)
					}
				}
			}
		}
		for i := range op.results {
			visitType(op.results[i].typ, 0)
		}
		if cfg.DebugInfo {
			visitLoc(op.Loc, 0)
		}
		return Advance
	})
	if cfg.LocalScope {
		order = nil
	}
	// Name them.
	counters := map[string]int{}
	type named struct {
		a     Attribute
		name  string
		input *Alias
	}
	var names []named
	for _, a := range order {
		k := keyOf[a]
		if in, ok := inputByKey[k]; ok {
			names = append(names, named{a, in.Name, in})
			al.byKey[k] = "#" + in.Name
			continue
		}
		prefix := AliasPrefix(a)
		if prefix == "" {
			continue
		}
		var name string
		for {
			n := counters[prefix]
			counters[prefix]++
			name = prefix
			if n > 0 {
				name += strconv.Itoa(n)
			}
			if !taken[name] {
				break
			}
		}
		taken[name] = true
		names = append(names, named{a, name, nil})
		al.byKey[k] = "#" + name
	}
	for a, k := range keyOf {
		al.byPtr[a] = al.byKey[k]
	}
	// Render definitions: input ones in input order, new ones placed next
	// to their prefix group.
	var before []aliasEntry
	for t, name := range al.typeNames {
		in := inputTypes[t]
		b := append([]byte(name), " = "...)
		// The definition itself is printed in full, with attribute aliases.
		before = append(before, aliasEntry{name: name, seq: in.seq, text: t.appendType(b, al.ref)})
	}
	for _, n := range names {
		if n.input == nil {
			continue
		}
		before = append(before, aliasEntry{name: n.name, seq: n.input.seq, isAttr: true, prefix: trimDigits(n.name),
			text: aliasDef(n.name, n.a, al.ref)})
	}
	var after []aliasEntry
	if cfg.DebugInfo && !cfg.LocalScope {
		for _, la := range m.LocAliases {
			// Every location alias of the input is kept: Triton prints
			// some that are only used structurally (inline copies).
			if la.Loc == nil {
				continue
			}
			e := aliasEntry{name: la.Name, seq: la.seq, text: locAliasDef(la)}
			if la.AfterModule {
				after = append(after, e)
			} else {
				before = append(before, e)
			}
		}
	}
	sort.SliceStable(before, func(i, j int) bool { return before[i].seq < before[j].seq })
	for _, n := range names {
		if n.input != nil {
			continue
		}
		e := aliasEntry{name: n.name, isAttr: true, prefix: AliasPrefix(n.a), text: aliasDef(n.name, n.a, al.ref)}
		at := -1
		for i, b := range before {
			if b.isAttr && b.prefix == e.prefix {
				at = i + 1
			}
		}
		if at < 0 {
			at = len(before)
			for i, b := range before {
				if b.isAttr && b.name > e.name {
					at = i
					break
				}
			}
		}
		before = append(before, aliasEntry{})
		copy(before[at+1:], before[at:])
		before[at] = e
	}
	for _, e := range before {
		al.defsBefore = append(al.defsBefore, e.text)
	}
	for _, e := range after {
		al.defsAfter = append(al.defsAfter, e.text)
	}
	return al
}

func aliasDef(name string, a Attribute, ref AliasFunc) []byte {
	b := append([]byte{'#'}, name...)
	b = append(b, " = "...)
	return a.appendAttr(b, ref)
}

func locAliasDef(la *LocAlias) []byte {
	b := append([]byte{'#'}, la.Name...)
	b = append(b, " = loc("...)
	b = la.Loc.appendLoc(b, false)
	return append(b, ')')
}
