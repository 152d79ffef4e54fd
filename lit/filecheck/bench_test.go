package filecheck

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// benchInput builds an input of about size bytes and a check file with
// nchecks directives spread over it.
func benchInput(size, nchecks int) (check, input []byte) {
	var in strings.Builder
	line := 0
	for in.Len() < size {
		fmt.Fprintf(&in, "  %%%d = arith.addi %%a%d, %%b%d : i32 loc(#loc%d)\n", line, line, line, line)
		line++
	}
	var ck strings.Builder
	step := line / nchecks
	for i := 0; i < nchecks; i++ {
		n := i * step
		switch i % 4 {
		case 0:
			fmt.Fprintf(&ck, "// CHECK: %%%d = arith.addi\n", n)
		case 1:
			fmt.Fprintf(&ck, "// CHECK: %%[[V%d:[0-9]+]] = arith.addi %%a{{[0-9]+}}, %%b[[V%d]]\n", i, i)
		case 2:
			fmt.Fprintf(&ck, "// CHECK: %%[[#N%d:]] = arith.addi\n// CHECK-SAME: %%a[[#N%d]], %%b[[#N%d+0]]\n", i, i, i)
		case 3:
			fmt.Fprintf(&ck, "// CHECK: loc(#loc%d)\n// CHECK-NEXT: %%%d =\n// CHECK-NOT: arith.muli\n", n, n+1)
		}
	}
	return []byte(ck.String()), []byte(in.String())
}

// BenchmarkCheckLarge checks a 10 MB input against 10,000 directives.
func BenchmarkCheckLarge(b *testing.B) {
	check, input := benchInput(10<<20, 10000)
	opts := DefaultOptions()
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	for b.Loop() {
		ok, err := Check("bench.mlir", check, "-", input, opts, io.Discard)
		if !ok || err != nil {
			b.Fatalf("ok=%v err=%v", ok, err)
		}
	}
}

// BenchmarkCheckSmall is a typical lit test: a few dozen lines.
func BenchmarkCheckSmall(b *testing.B) {
	check, input := benchInput(4<<10, 20)
	opts := DefaultOptions()
	b.ReportAllocs()
	for b.Loop() {
		if ok, err := Check("small.mlir", check, "-", input, opts, io.Discard); !ok || err != nil {
			b.Fatalf("ok=%v err=%v", ok, err)
		}
	}
}
