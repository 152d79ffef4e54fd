package ir

import "testing"

// TestDefaultLocations checks that ops and arguments written without a
// location get their source position, as MLIR's parser gives them, and
// that written locations and the implicit module's file:0:0 are kept.
func TestDefaultLocations(t *testing.T) {
	src := `tt.func @f(%a: i32, %b: i32 loc("b")) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = "arith.muli"(%0, %b) : (i32, i32) -> i32 loc(unknown)
  cf.br ^bb1(%1 : i32)
^bb1(%2: i32):
  %3 = scf.for %i = %2 to %2 step %2 iter_args(%x = %2) -> (i32) : i32 {
    scf.yield %x : i32
  }
  tt.return %3 : i32
}
`
	m, d := ParseString(src, ParseConfig{Filename: "in.mlir"})
	if d.HasErrors() {
		t.Fatal(d)
	}
	fn := findOp(m, "tt.func")
	entry := fn.Region(0).Entry()
	bb1 := fn.Region(0).Blocks[1]
	forOp := findOp(m, "scf.for")
	tests := []struct {
		what string
		loc  Location
		want string
	}{
		{"implicit module", m.Op.Loc, `loc("in.mlir":0:0)`},
		{"func", fn.Loc, `loc("in.mlir":1:1)`},
		{"argument", entry.Arg(0).Loc, `loc("in.mlir":1:12)`},
		{"argument with a location", entry.Arg(1).Loc, `loc("b")`},
		{"custom op", findOp(m, "arith.addi").Loc, `loc("in.mlir":2:8)`},
		{"written unknown", findOp(m, "arith.muli").Loc, `loc(unknown)`},
		{"block argument", bb1.Arg(0).Loc, `loc("in.mlir":5:6)`},
		{"induction variable", forOp.Region(0).Entry().Arg(0).Loc, `loc("in.mlir":6:16)`},
		{"iter_arg", forOp.Region(0).Entry().Arg(1).Loc, `loc("in.mlir":6:48)`},
	}
	for _, tc := range tests {
		if got := LocString(tc.loc); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.what, got, tc.want)
		}
	}
}
