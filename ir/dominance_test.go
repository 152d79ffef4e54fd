package ir

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// cfgFunc builds a tt.func whose blocks branch as succ says (block i to
// the blocks succ[i]; none means tt.return).
func cfgFunc(succ [][]int) string {
	var b strings.Builder
	b.WriteString("tt.func @f(%c: i1) {\n")
	for i, ss := range succ {
		if i > 0 {
			fmt.Fprintf(&b, "^bb%d:\n", i)
		}
		switch len(ss) {
		case 0:
			b.WriteString("  tt.return\n")
		case 1:
			fmt.Fprintf(&b, "  cf.br ^bb%d\n", ss[0])
		default:
			fmt.Fprintf(&b, "  cf.cond_br %%c, ^bb%d, ^bb%d\n", ss[0], ss[1])
		}
	}
	b.WriteString("}\n")
	return b.String()
}

func TestDomTree(t *testing.T) {
	tests := []struct {
		name string
		succ [][]int
		// dom[i] lists the blocks that block i dominates (itself included).
		dom [][]int
	}{
		{"chain", [][]int{{1}, {2}, {}}, [][]int{{0, 1, 2}, {1, 2}, {2}}},
		{"diamond", [][]int{{1, 2}, {3}, {3}, {}}, [][]int{{0, 1, 2, 3}, {1}, {2}, {3}}},
		{"loop", [][]int{{1}, {2, 3}, {1}, {}}, [][]int{{0, 1, 2, 3}, {1, 2, 3}, {2}, {3}}},
		// Block 2 is unreachable: dominated by all, dominates only itself.
		{"unreachable", [][]int{{1}, {}, {1}}, [][]int{{0, 1, 2}, {1, 2}, {2}}},
		// Irreducible: 1 and 2 reach each other, both entered from 0.
		{"irreducible", [][]int{{1, 2}, {2}, {1, 3}, {}}, [][]int{{0, 1, 2, 3}, {1}, {2, 3}, {3}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := MustParse(cfgFunc(tc.succ))
			r := findOp(m, "tt.func").Region(0)
			tree := newDomTree(r)
			for a := range tc.succ {
				want := map[int]bool{}
				for _, b := range tc.dom[a] {
					want[b] = true
				}
				for b := range tc.succ {
					if got := tree.dominates(r.Blocks[a], r.Blocks[b]); got != want[b] {
						t.Errorf("dominates(^bb%d, ^bb%d) = %v, want %v", a, b, got, want[b])
					}
				}
			}
		})
	}
}

// TestDominanceLongChain checks that verifying a long chain of blocks, each
// using a value of the entry block, stays fast (no quadratic walk).
func TestDominanceLongChain(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString("tt.func @f(%x: i32) {\n  %v = arith.addi %x, %x : i32\n  cf.br ^bb1\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "^bb%d:\n  %%a%d = arith.addi %%v, %%x : i32\n  cf.br ^bb%d\n", i, i, i+1)
	}
	fmt.Fprintf(&b, "^bb%d:\n  tt.return\n}\n", n)
	m := MustParse(b.String())
	start := time.Now()
	if d := Verify(m); len(d) > 0 {
		t.Fatal(d)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("Verify took %v", el)
	}
}

func TestDominanceErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"sibling", `tt.func @f(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %0 = arith.addi %x, %x : i32
  tt.return %0 : i32
^bb2:
  tt.return %0 : i32
}`, "t.mlir:7:3: error: operand #0 does not dominate this use\nt.mlir:4:8: note: operand defined here (op in the same region)"},
		{"own region", `tt.func @f(%c: i1, %x: i32) -> i32 {
  %0 = scf.if %c -> (i32) {
    scf.yield %0 : i32
  } else {
    scf.yield %x : i32
  }
  tt.return %0 : i32
}`, "t.mlir:3:5: error: operand #0 does not dominate this use\nt.mlir:2:8: note: operand defined here (op in a parent region)"},
		{"block argument", `tt.func @f(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^bb1(%x : i32), ^bb2
^bb1(%a: i32):
  tt.return %a : i32
^bb2:
  tt.return %a : i32
}`, "t.mlir:6:3: error: operand #0 does not dominate this use\nt.mlir:1:1: note: operand defined as a block argument (block #1 in the same region)"},
		{"unreachable use", `tt.func @f(%c: i1, %x: i32) -> i32 {
  tt.return %x : i32
^bb1:
  tt.return %0 : i32
^bb2:
  %0 = arith.addi %x, %x : i32
  cf.br ^bb1
}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, d := ParseString(tc.src, ParseConfig{Filename: "t.mlir"})
			if d.HasErrors() {
				t.Fatal(d)
			}
			var got []string
			for _, e := range Verify(m) {
				got = append(got, e.Pos.String()+": error: "+e.Msg)
				for _, n := range e.Notes {
					if !strings.HasPrefix(n.Msg, "see current operation") {
						got = append(got, n.Pos.String()+": note: "+n.Msg)
					}
				}
			}
			if s := strings.Join(got, "\n"); s != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", s, tc.want)
			}
		})
	}
}
