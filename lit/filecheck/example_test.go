package filecheck_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/layoutopt/layoutopt/lit/filecheck"
	"github.com/layoutopt/layoutopt/proc"
)

// Check an input against a check file, as "FileCheck check.mlir" would.
func ExampleCheck() {
	check := `// CHECK-LABEL: func @add
// CHECK: %[[SUM:.*]] = arith.addi
// CHECK-NEXT: return %[[SUM]]
`
	input := `func @add(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  return %0 : i32
}
`
	ok, err := filecheck.Check("add.mlir", []byte(check), "-", []byte(input), filecheck.DefaultOptions(), os.Stdout)
	fmt.Println(ok, err)
	// Output: true <nil>
}

// A failing check prints LLVM FileCheck's report; Main takes everything
// from the Proc, so it can run in-process.
func ExampleMain() {
	dir, err := os.MkdirTemp("", "filecheck")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "t.mlir"), []byte("CHECK: hello\nCHECK-SAME: world\n"), 0o644); err != nil {
		panic(err)
	}
	p := &proc.Proc{
		Args:   []string{"t.mlir"},
		Dir:    dir,
		Env:    []string{"FILECHECK_OPTS=--dump-input=never"},
		Stdin:  strings.NewReader("hello\nworld\n"),
		Stdout: os.Stdout,
		Stderr: os.Stdout,
	}
	fmt.Println("exit", filecheck.Main(p))
	// Output:
	// t.mlir:2:13: error: CHECK-SAME: is not on the same line as the previous match
	// CHECK-SAME: world
	//             ^
	// <stdin>:2:1: note: 'next' match was here
	// world
	// ^
	// <stdin>:1:6: note: previous match ended here
	// hello
	//      ^
	// exit 1
}
