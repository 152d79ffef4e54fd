package lit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/layoutopt/layoutopt/lit"
	"github.com/layoutopt/layoutopt/proc"
)

// A suite in a temporary directory, run with one in-process tool.
func Example() {
	dir, err := os.MkdirTemp("", "lit-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	files := map[string]string{
		"lit.cfg":     "name = DEMO\nsuffixes = .test\nfeatures = linux\n",
		"upper.test":  "RUN: echo hello | upper | count 1\nRUN: echo hello | upper > %t && cat %t\n",
		"broken.test": "XFAIL: linux\nRUN: upper < missing-file\n",
		"gpu.test":    "REQUIRES: gpu\nRUN: false\n",
	}
	for name, content := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666)
	}
	upper := func(p *proc.Proc) int {
		var word string
		if _, err := fmt.Fscan(p.Stdin, &word); err != nil {
			fmt.Fprintln(p.Stderr, "upper:", err)
			return 1
		}
		fmt.Fprintln(p.Stdout, strings.ToUpper(word))
		return 0
	}
	tests, err := lit.Discover(dir)
	if err != nil {
		panic(err)
	}
	r := &lit.Runner{Tools: map[string]proc.Tool{"upper": upper}}
	var results []lit.Result
	for _, t := range tests {
		res := r.Run(t)
		results = append(results, res)
		fmt.Printf("%s: %s\n", res.Code, t.FullName())
	}
	fmt.Println(lit.Count(results))
	// Output:
	// XFAIL: DEMO :: broken.test
	// UNSUPPORTED: DEMO :: gpu.test
	// PASS: DEMO :: upper.test
	// 2 passed, 0 failed, 1 skipped
}

func ExampleEvalFeatures() {
	features := map[string]bool{"linux": true, "target=x86_64-linux-gnu": true}
	for _, expr := range []string{"linux && !windows", "target={{aarch64-.*}}", "gpu || linux"} {
		ok, err := lit.EvalFeatures(expr, features)
		fmt.Println(expr, "=>", ok, err)
	}
	// Output:
	// linux && !windows => true <nil>
	// target={{aarch64-.*}} => false <nil>
	// gpu || linux => true <nil>
}
