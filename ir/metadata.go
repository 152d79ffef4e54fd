package ir

import "strings"

// ExternalResource is one entry of the `external_resources` section of a
// file metadata dictionary (`{-# external_resources: {name: {key: value}}
// #-}`), such as the mlir_reproducer configuration that MLIR's crash
// reproducers carry. mlir-opt keeps the external resources it does not
// handle and prints them back after the module; so do Parse and Print.
type ExternalResource struct {
	Name    string // the resource's owner (mlir_reproducer)
	Entries []ResourceEntry
}

// ResourceEntry is a key and its value: a string (a blob is a string
// "0x..." of hex digits, the first 4 bytes its alignment) or a boolean.
type ResourceEntry struct {
	Key   string
	Value string // the unquoted string, or "true" / "false"
	Bool  bool   // Value is true or false, not a string
}

// parseFileMetadata parses `{-# key: {...}, ... #-}` as MLIR's
// parseFileMetadataDictionary does; the current token is "{-".
func (p *OpParser) parseFileMetadata() error {
	p.advance()
	if err := p.Expect("#"); err != nil {
		return err
	}
	if p.metadataEnd() {
		return nil
	}
	for {
		keyPos := p.Pos()
		if p.tok.kind != tBareID {
			return p.errorHere("expected identifier key in file metadata dictionary")
		}
		key := p.tok.text
		p.advance()
		if err := p.Expect(":"); err != nil {
			return err
		}
		var err error
		switch key {
		case "dialect_resources":
			err = p.parseResourceSection(true)
		case "external_resources":
			err = p.parseResourceSection(false)
		default:
			err = p.Errorf(keyPos, "unknown key '%s' in file metadata dictionary", key)
		}
		if err != nil {
			return err
		}
		if p.metadataEnd() {
			return nil
		}
		if !p.ParseOptional(",") {
			return p.errorHere("expected ',' or '#-}'")
		}
	}
}

// metadataEnd consumes `#-}` if it is next.
func (p *OpParser) metadataEnd() bool {
	if !p.isPunct("#") || !strings.HasPrefix(p.lx.src[p.lx.off:], "-}") {
		return false
	}
	p.advance()
	p.advance()
	p.advance()
	return true
}

// parseResourceSection parses `{ name: { key: value, ... }, ... }`.
// Dialect resources are blobs of the builtin dialect, referenced by
// dense_resource attributes; mlir-opt prints only those in use, and none
// can be here, so they are checked and dropped. External resources are
// kept in Module.Resources.
func (p *OpParser) parseResourceSection(dialect bool) error {
	if err := p.Expect("{"); err != nil {
		return err
	}
	return p.parseListUntil("}", func() error {
		namePos := p.Pos()
		if p.tok.kind != tBareID {
			return p.errorHere("expected identifier key for 'resource' entry")
		}
		name := p.tok.text
		p.advance()
		if err := p.Expect(":"); err != nil {
			return err
		}
		if err := p.Expect("{"); err != nil {
			return err
		}
		if dialect {
			if name != "builtin" {
				if !dialectLoaded(p.reg, name) {
					return p.Errorf(namePos, "dialect '%s' is unknown", name)
				}
				return p.Errorf(namePos, "unexpected 'resource' section for dialect '%s'", name)
			}
		}
		res := ExternalResource{Name: name}
		err := p.parseListUntil("}", func() error {
			var key string
			switch p.tok.kind {
			case tBareID, tString:
				key = p.tok.text
			default:
				if dialect {
					return p.errorHere("expected identifier key for 'resource' entry")
				}
				return p.errorHere("expected identifier key for 'external_resources' entry")
			}
			p.advance()
			if err := p.Expect(":"); err != nil {
				return err
			}
			e := ResourceEntry{Key: key, Value: p.tok.text}
			switch {
			case p.tok.kind == tBareID && (p.tok.text == "true" || p.tok.text == "false") && !dialect:
				e.Bool = true
			case p.tok.kind == tString && strings.HasPrefix(p.tok.text, "0x"):
				if err := p.checkBlob(key); err != nil {
					return err
				}
				e.Value = "0x" + strings.ToUpper(p.tok.text[2:])
			case p.tok.kind == tString && !dialect:
			case dialect:
				return p.errorHere("expected hex string blob for key '%s'", key)
			default:
				return p.errorHere("expected string value for key '%s'", key)
			}
			p.advance()
			res.Entries = append(res.Entries, e)
			return nil
		})
		if err != nil {
			return err
		}
		if dialect {
			return nil
		}
		// Entries of a name seen before join its resource (MLIR keeps one
		// collection per name).
		for i := range p.mod.Resources {
			if r := &p.mod.Resources[i]; r.Name == name {
				r.Entries = append(r.Entries, res.Entries...)
				return nil
			}
		}
		p.mod.Resources = append(p.mod.Resources, res)
		return nil
	})
}

// checkBlob checks the hex blob at the current token as MLIR's
// ParsedResourceEntry::parseAsBlob does.
func (p *OpParser) checkBlob(key string) error {
	hex := p.tok.text[2:]
	if len(hex)%2 != 0 || strings.IndexFunc(hex, func(r rune) bool { return !isHex(byte(r)) || r >= 0x80 }) >= 0 {
		return p.errorHere("expected hex string blob for key '%s'", key)
	}
	if len(hex) < 8 {
		return p.errorHere("expected hex string blob for key '%s' to encode alignment in first 4 bytes", key)
	}
	return nil
}

// appendFileMetadata appends m's file metadata dictionary as MLIR's
// printFileMetadataDictionary writes it after the module and the deferred
// aliases, or nothing when m has no resources.
func appendFileMetadata(b []byte, m *Module) []byte {
	n := 0
	for _, r := range m.Resources {
		if len(r.Entries) == 0 {
			continue // MLIR prints nothing for a resource without entries
		}
		if n == 0 {
			b = append(b, "\n{-#\n  external_resources: {\n"...)
		} else {
			b = append(b, ",\n"...)
		}
		n++
		b = append(b, "    "...)
		b = append(b, r.Name...)
		b = append(b, ": {\n"...)
		for j, e := range r.Entries {
			if j > 0 {
				b = append(b, ",\n"...)
			}
			b = append(b, "      "...)
			if isBareIdent(e.Key) {
				b = append(b, e.Key...)
			} else {
				b = appendQuoted(b, e.Key)
			}
			b = append(b, ": "...)
			if e.Bool {
				b = append(b, e.Value...)
			} else {
				b = appendQuoted(b, e.Value)
			}
		}
		b = append(b, "\n    }"...)
	}
	if n == 0 {
		return b
	}
	return append(b, "\n  }\n#-}\n"...)
}
