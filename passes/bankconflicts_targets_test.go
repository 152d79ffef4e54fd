package passes

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/ir"
)

// TestRoundTripBankConflicts measures the bank conflicts of the round trips
// insert-shared-round-trips materialises in the shared kernels, as the
// bank-conflicts pass counts them at the local_alloc (store) and local_load
// (load): with swizzle=optimal a side is conflict free wherever Triton's
// plan for the conversion is, and never worse than the plan. It logs the
// totals for optimal and none.
func TestRoundTripBankConflicts(t *testing.T) {
	dir := testenv.SharedDir()
	if dir == "" {
		t.Skip("../shared not present")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "triton36", "*", "*.ttgir"))
	if len(files) == 0 {
		t.Skip("no shared kernels")
	}
	totals := map[string][2]int{}
	trips := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		for _, swz := range []string{"optimal", "none"} {
			m, diags := ir.Parse(src, ir.ParseConfig{Filename: name})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			// Triton's plan of each conversion that becomes a round trip,
			// in program order.
			var plans [][2]int
			m.Walk(func(op *ir.Operation) ir.WalkResult {
				if op.Name() != opConvert {
					return ir.Advance
				}
				c, err := planConvert(op, smemTarget(op, 0, false))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if c != nil && c.withinCTA() {
					plans = append(plans, [2]int{c.plan.Store.Conflicts, c.plan.Load.Conflicts})
				}
				return ir.Advance
			})
			old := map[*ir.Operation]bool{}
			m.Walk(func(op *ir.Operation) ir.WalkResult {
				old[op] = true
				return ir.Advance
			})
			p, err := ParsePipeline("builtin.module(insert-shared-round-trips{swizzle=" + swz + "})")
			if err != nil {
				t.Fatal(err)
			}
			if d, err := p.Run(m, RunConfig{}); err != nil {
				t.Fatalf("%s: %v %v", name, err, d)
			}
			// The ops the pass built.
			var got [][2]int
			m.Walk(func(op *ir.Operation) ir.WalkResult {
				if old[op] {
					return ir.Advance
				}
				switch op.Name() {
				case "ttg.local_alloc":
					a, _, err := localAccess(op.Operand(0).Type(), op.Result(0).Type())
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					got = append(got, [2]int{a.Conflicts, -1})
				case "ttg.local_load":
					a, _, err := localAccess(op.Result(0).Type(), op.Operand(0).Type())
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					got[len(got)-1][1] = a.Conflicts
				}
				return ir.Advance
			})
			if len(got) != len(plans) {
				t.Fatalf("%s (%s): %d round trips, %d planned", name, swz, len(got), len(plans))
			}
			tot := totals[swz]
			for i, g := range got {
				tot[0] += g[0]
				tot[1] += g[1]
				if swz != "optimal" {
					continue
				}
				for side, what := range []string{"store", "load"} {
					if g[side] > plans[i][side] {
						t.Errorf("%s: round trip %d: %s has %d bank conflicts, Triton's plan %d", name, i, what, g[side], plans[i][side])
					}
				}
			}
			totals[swz] = tot
			if swz == "optimal" {
				trips += len(got)
			}
		}
	}
	for _, swz := range []string{"optimal", "none"} {
		t.Logf("swizzle=%s: %d round trips, bank conflicts per access summed: store %d, load %d, total %d",
			swz, trips, totals[swz][0], totals[swz][1], totals[swz][0]+totals[swz][1])
	}
}
