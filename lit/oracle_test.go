package lit

import (
	"bytes"
	"fmt"
	"github.com/layoutopt/layoutopt/proc"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// realLit is LLVM 14's lit as Debian installs it; its tools (count, not,
// FileCheck) are in llvmBin.
const (
	realLit = "/usr/lib/llvm-14/build/utils/lit/lit.py"
	llvmBin = "/usr/lib/llvm-14/bin"
)

// oracleLines are RUN lines whose outcome LLVM's lit decides; each becomes
// a test of its own. (Lit 14 lacks a few things ours has, such as
// redirecting echo's stderr or writing to /dev/null, so those are not here.)
var oracleLines = []string{
	"echo a && false || echo b",
	"false || true && false",
	`echo "a\"b" | grep -q 'a"b'`,
	`echo 'x y' > %t && cat %t | grep -q "x y"`,
	"not not true",
	"not true 2>&1 | cat",
	"echo abc | not grep zzz",
	"true ; false",
	"false ; true",
	"echo %% | grep -q '%'",
	"%greet | count 1",
	"cd %S && ls | grep -q case1.t",
	"echo a > %t.1 ; echo b > %t.2 ; not diff %t.1 %t.2",
	"echo a > %t.1 ; echo a > %t.2 ; diff %t.1 %t.2",
	"env FOO=1 printenv FOO | grep -q 1",
	"echo -n abc | count 1",
	"echo -n abc | count 0",
	`echo a\ b | grep -q 'a b'`,
	"mkdir -p %t.d/x && rm -r %t.d && not ls %t.d",
	"false | true",
	"true | false",
	"echo a; echo b | count 1",
	"not --crash true",
	"echo x >%t.o && cat %t.o 2>%t.e | count 1", // lit 14's echo takes no 2> (ours does)
	"echo x 2>&1 >%t.o | count 0",
	"cat %s | grep -q RUN",
	"not cat %S/missing-file",
	"export FOO=bar ; printenv FOO | grep -q bar",
	"echo %s | grep -q 'case'",
	"echo abc | FileCheck %s --check-prefix=NOPE",
}

// TestAgainstLLVMLit runs the same RUN lines with LLVM's lit (Python) and
// with this package, and compares which pass.
func TestAgainstLLVMLit(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	if _, err := os.Stat(realLit); err != nil {
		t.Skip("no LLVM lit at " + realLit)
	}
	if testing.Short() {
		t.Skip("slow: runs Python")
	}
	dir := t.TempDir()
	files := map[string]string{
		"lit.cfg.py": "import lit.formats\nconfig.name = 'D'\nconfig.test_format = lit.formats.ShTest(execute_external=False)\n" +
			"config.suffixes = ['.t']\nconfig.substitutions.append(('%greet', 'echo hi'))\n",
		"lit.cfg": "name = D\nsuffixes = .t\nsubstitute %greet = echo hi\ntool FileCheck = " + llvmBin + "/FileCheck\n",
	}
	for i, l := range oracleLines {
		files[fmt.Sprintf("case%d.t", i+1)] = "RUN: " + l + "\n"
	}
	writeTree(t, dir, files)
	path := llvmBin + string(os.PathListSeparator) + os.Getenv("PATH")

	// Both list the failing tests after the run as "  D :: caseN.t".
	failRE := regexp.MustCompile(`(?m)^  D :: (case\d+\.t)$`)
	failures := func(out string) []string {
		var names []string
		for _, m := range failRE.FindAllStringSubmatch(out, -1) {
			names = append(names, m[1])
		}
		sort.Strings(names)
		return names
	}

	cmd := exec.Command(python, realLit, "-q", dir)
	cmd.Env = append(os.Environ(), "PATH="+path)
	theirs, _ := cmd.CombinedOutput()

	var ours bytes.Buffer
	p := &proc.Proc{Args: []string{"-q", dir}, Dir: dir, Env: []string{"PATH=" + path}, Stdin: strings.NewReader(""), Stdout: &ours, Stderr: &ours}
	Main(p, nil)

	want, got := failures(string(theirs)), failures(ours.String())
	if len(want) == 0 {
		t.Fatalf("LLVM lit reported no failures; its output:\n%s", theirs)
	}
	if strings.Join(want, " ") != strings.Join(got, " ") {
		lines := func(names []string) string {
			var b strings.Builder
			for _, n := range names {
				data, _ := os.ReadFile(filepath.Join(dir, n))
				fmt.Fprintf(&b, "  %s: %s", n, data)
			}
			return b.String()
		}
		t.Errorf("failing tests differ\nLLVM lit:\n%sours:\n%s", lines(want), lines(got))
	}
}
