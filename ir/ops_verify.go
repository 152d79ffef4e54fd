package ir

import (
	"errors"
	"fmt"
	"strings"
)

// Op verifiers of the control-flow, call and shared-memory ops, with the
// messages of MLIR's and Triton's verifiers.

// hasParent returns a verifier for MLIR's HasParent / ParentOneOf traits:
// the op's parent must be one of names (given sorted, as MLIR prints them).
func hasParent(names ...string) func(*Operation) error {
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

// verifyYield is scf.yield's ParentOneOf<ExecuteRegionOp, ForOp, IfOp,
// IndexSwitchOp, WhileOp>.
var verifyYield = hasParent("scf.execute_region", "scf.for", "scf.if", "scf.index_switch", "scf.while")

// verifyIf is scf::IfOp::verify.
func verifyIf(op *Operation) error {
	if op.NumResults() > 0 && (len(op.regions) < 2 || len(op.Region(1).Blocks) == 0) {
		return errors.New("must have an else block if defining values")
	}
	return nil
}
