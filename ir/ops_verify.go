package ir

import (
	"fmt"
	"strings"
)

// Op verifiers of the control-flow, call and shared-memory ops, with the
// messages of MLIR's and Triton's verifiers.

// HasParent returns a verifier for MLIR's HasParent / ParentOneOf traits:
// the op's parent must be one of names (given sorted, as MLIR prints them).
func HasParent(names ...string) func(*Operation) error {
	return func(op *Operation) error {
		if p := op.ParentOp(); p != nil {
			for _, n := range names {
				if p.name == n {
					return nil
				}
			}
		}
		if len(names) == 1 {
			return fmt.Errorf("expects parent op '%s'", names[0])
		}
		return fmt.Errorf("expects parent op to be one of '%s'", strings.Join(names, ", "))
	}
}
