package llvmemit_test

import (
	"os"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// TestIndicesDisjointAdd: a register's index is the thread's base index
// plus constant register bits that share no bit with it, written add nuw
// nsw (so that LLVM folds x < x+c, the first tie-breaks of an argmin); the
// argmin's results, on inputs full of ties, equal the interpreter's.
func TestIndicesDisjointAdd(t *testing.T) {
	src, err := os.ReadFile("../passes/testdata/prepost/argmin_reduce_axis1_32x64_sm80_w4.post.ttgir")
	if err != nil {
		t.Fatal(err)
	}
	k := strings.Replace(string(src), "@custom_reduce_argmin(", "@k(", 1) // the name crossCheck runs
	ll := lowerSource(t, k, "argmin.mlir", true).Module.String()
	for _, c := range []string{", 1\n", ", 2\n", ", 3\n"} { // sizePerThread 4 along the reduced axis
		if !containsLine(ll, "= add nuw nsw i32 %", c) {
			t.Fatalf("no index written add nuw nsw i32 …%q in\n%s", strings.TrimSpace(c), ll)
		}
	}
	res := crossCheck(t, k, 4, []*interp.Buffer{filled(t, ir.F32, 32*64, 5), zeros(t, ir.F32, 32), zeros(t, ir.I32, 32)})
	nonzero := 0
	for i := 0; i < 32; i++ {
		if res[2].Int(i) != 0 {
			nonzero++
		}
	}
	if nonzero == 0 {
		t.Fatal("every argmin is 0: a vacuous check")
	}
}

// containsLine reports whether some line of s holds both a and the suffix b.
func containsLine(s, a, b string) bool {
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.Contains(l, a) && strings.HasSuffix(l, b) {
			return true
		}
	}
	return false
}
