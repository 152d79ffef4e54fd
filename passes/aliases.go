package passes

import "github.com/layoutopt/layoutopt/ir"

// regenerateAttrAliases drops the module's attribute aliases (keeping type
// aliases), so that the printer names the attributes still in use afresh —
// #blocked, #blocked1, … in order of first use — as MLIR's printer always
// does. A pass calls it after rewriting layouts, so that its output does not
// keep gaps (#blocked6 alone) or names of attributes that are gone. It
// reports whether any alias was dropped.
func regenerateAttrAliases(m *ir.Module) bool {
	kept := m.Aliases[:0:0]
	for _, a := range m.Aliases {
		if a.Type != nil {
			kept = append(kept, a)
		}
	}
	dropped := len(kept) != len(m.Aliases)
	m.Aliases = kept
	return dropped
}
