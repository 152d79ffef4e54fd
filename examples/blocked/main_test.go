package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/proc"
)

func TestOutput(t *testing.T) {
	var out, errs bytes.Buffer
	p := &proc.Proc{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errs}
	if rc := run(p); rc != 0 {
		t.Fatalf("exit status %d: %s", rc, errs.String())
	}
	got := out.String()
	for _, want := range []string{
		"L(register=5, lane=3, warp=2) = (22, 3)\n",
		"element (22, 3) is held by register=5, lane=3, warp=2, block=0\n",
		"#ttg.linear<{register = [[4, 0], [8, 0], [16, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[1, 0], [2, 0]], block = []}>\n",
		"rank 10 of 10 bits: injective true, surjective true\n",
		"element (22, 3) moves to register=0, lane=22, warp=3\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	golden, err := os.ReadFile("testdata/output.golden")
	if err != nil {
		t.Fatal(err)
	}
	if got != string(golden) {
		t.Errorf("output differs from testdata/output.golden:\n%s", got)
	}
}

// TestBlockedMatchesDefinition checks the layout against the blocked
// encoding's definition, element by element: lane l of warp w holds column
// l and row w + 4·register.
func TestBlockedMatchesDefinition(t *testing.T) {
	l, err := blocked([]int{1, 1}, []int{1, 32}, []int{4, 1}, []int{1, 0}, []int{32, 32})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[2]int]bool{}
	for r := 0; r < 8; r++ {
		for ln := 0; ln < 32; ln++ {
			for w := 0; w < 4; w++ {
				got := l.Apply(r, ln, w, 0)
				want := [2]int{w + 4*r, ln}
				if got[0] != want[0] || got[1] != want[1] {
					t.Fatalf("L(%d, %d, %d) = %v, want %v", r, ln, w, got, want)
				}
				seen[want] = true
			}
		}
	}
	if len(seen) != 32*32 {
		t.Fatalf("%d elements covered, want 1024", len(seen))
	}
}
