package lit

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"github.com/layoutopt/layoutopt/proc"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// e2eTools are the fake project tools of the end-to-end suite.
func e2eTools() map[string]proc.Tool {
	return map[string]proc.Tool{
		// fake-opt FILE: prints FILE's lines that start with "op ", like a
		// compiler that echoes its operations; "op crash" panics.
		"fake-opt": func(p *proc.Proc) int {
			data, err := os.ReadFile(p.Path(p.Args[0]))
			if err != nil {
				fmt.Fprintf(p.Stderr, "fake-opt: %v\n", err)
				return 1
			}
			for _, l := range strings.Split(string(data), "\n") {
				if l == "op crash" {
					panic("fake-opt crashed")
				}
				if strings.HasPrefix(l, "op ") {
					fmt.Fprintln(p.Stdout, l)
				}
			}
			return 0
		},
		// grep-q WORD: succeeds when stdin contains WORD.
		"grep-q": func(p *proc.Proc) int {
			var b bytes.Buffer
			b.ReadFrom(p.Stdin)
			if strings.Contains(b.String(), p.Args[0]) {
				return 0
			}
			fmt.Fprintf(p.Stderr, "grep-q: %q not found in input\n", p.Args[0])
			return 1
		},
		// flaky FILE: fails the first time (creating FILE), passes after.
		"flaky": func(p *proc.Proc) int {
			if _, err := os.Stat(p.Path(p.Args[0])); err == nil {
				return 0
			}
			os.WriteFile(p.Path(p.Args[0]), nil, 0o666)
			return 1
		},
	}
}

var e2eSuite = map[string]string{
	"lit.cfg":       "name = E2E\nsuffixes = .test\nexcludes = Inputs\nfeatures = fast linux\nsubstitute %opt = fake-opt\n",
	"pass.test":     "RUN: %opt %s | grep-q 'op add'\nRUN: echo done | count 1\nop add\n",
	"pipe.test":     "RUN: %opt %s > %t && cat %t | count 2\nop a\nop b\n",
	"split.test":    "RUN: split-file %s %t && %opt %t/in.txt | grep-q 'op mul'\n//--- in.txt\nop mul\n",
	"cont.test":     "RUN: echo \\\nRUN:   joined | grep-q 'joined'\n",
	"fail.test":     "RUN: %opt %s | grep-q 'op sub'\nop add\n",
	"crash.test":    "RUN: %opt %s\nop crash\n",
	"notcrash.test": "RUN: not --crash %opt %s\nop crash\n",
	"xfail.test":    "XFAIL: linux\nRUN: false\n",
	"xpass.test":    "XFAIL: *\nRUN: true\n",
	"unsup.test":    "REQUIRES: gpu\nRUN: false\n",
	"unsup2.test":   "UNSUPPORTED: fast && linux\nRUN: false\n",
	"needs.test":    "REQUIRES: fast, !windows\nRUN: true\n",
	"flaky.test":    "ALLOW_RETRIES: 1\nRUN: flaky %t.seen\n",
	"norun.test":    "nothing to run here\n",
	"define.test":   "DEFINE: %{greet} = echo \\\nDEFINE:   hi %s\nRUN: %{greet} | grep-q define.test\n",
	"Inputs/x.test": "RUN: false\n",
}

// runMain runs Main in dir and returns the status and stdout.
func runMain(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	p := &proc.Proc{Args: args, Dir: dir, Env: []string{"PATH=" + os.Getenv("PATH")}, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	st := Main(p, e2eTools())
	return st, out.String(), errb.String()
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestMainEndToEnd(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, filepath.Join(dir, "suite"), e2eSuite)
	xmlPath := filepath.Join(dir, "results.xml")
	st, out, errs := runMain(t, dir, "-v", "-j", "3", "suite", "--xunit-xml-output", "results.xml")
	if st != 1 {
		t.Errorf("status = %d, want 1; stderr %s", st, errs)
	}
	if got, want := lastLine(out), "9 passed, 4 failed, 2 skipped"; got != want {
		t.Errorf("last line = %q, want %q\n%s", got, want, out)
	}
	wantCodes := map[string]string{
		"pass": "PASS", "pipe": "PASS", "split": "PASS", "cont": "PASS", "define": "PASS", "notcrash": "PASS", "needs": "PASS",
		"fail": "FAIL", "crash": "FAIL", "xfail": "XFAIL", "xpass": "XPASS", "unsup": "UNSUPPORTED",
		"unsup2": "UNSUPPORTED", "flaky": "FLAKYPASS", "norun": "UNRESOLVED",
	}
	for name, code := range wantCodes {
		re := regexp.MustCompile(`(?m)^` + code + `: E2E :: ` + name + `\.test \(\d+ of 15\)$`)
		if !re.MatchString(out) {
			t.Errorf("no %s line for %s in\n%s", code, name, out)
		}
	}
	for _, want := range []string{
		"-- Testing: 15 tests, 3 workers --",
		"******************** TEST 'E2E :: fail.test' FAILED ********************",
		"Failed Command (RUN: at line 1):\n--\nfake-opt " + filepath.Join(dir, "suite", "fail.test") + " | grep-q 'op sub'\n--",
		"Command Output (stderr):\n--\ngrep-q: \"op sub\" not found in input\n--",
		"panic: fake-opt crashed",
		"error: test has no 'RUN:' line",
		"Failed Tests (2):\n  E2E :: crash.test\n  E2E :: fail.test\n",
		"Unexpectedly Passed Tests (1):\n  E2E :: xpass.test\n",
		"Unresolved Tests (1):\n  E2E :: norun.test\n",
		"Total Discovered Tests: 15\n",
		"  Unsupported        : 2 (13.33%)\n",
		"  Passed             : 7 (46.67%)\n",
		"  Passed With Retry  : 1 (6.67%)\n",
		"  Expectedly Failed  : 1 (6.67%)\n",
		"  Failed             : 2 (13.33%)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "TEST 'E2E :: pass.test'") {
		t.Errorf("-v printed the log of a passing test")
	}

	// The xunit file.
	data, err := os.ReadFile(xmlPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Skipped  int    `xml:"skipped,attr"`
			Cases    []struct {
				Class   string `xml:"classname,attr"`
				Name    string `xml:"name,attr"`
				Failure *struct {
					Text string `xml:",chardata"`
				} `xml:"failure"`
				Skipped *struct {
					Message string `xml:"message,attr"`
				} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("xunit output does not parse: %v\n%s", err, data)
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("xunit has %d suites, want 1", len(doc.Suites))
	}
	s := doc.Suites[0]
	if s.Name != "E2E" || s.Tests != 15 || s.Failures != 4 || s.Skipped != 2 || len(s.Cases) != 15 {
		t.Errorf("xunit suite = %s tests=%d failures=%d skipped=%d cases=%d", s.Name, s.Tests, s.Failures, s.Skipped, len(s.Cases))
	}
	for _, c := range s.Cases {
		if c.Class != "E2E.E2E" {
			t.Errorf("classname = %q, want E2E.E2E", c.Class)
		}
		switch c.Name {
		case "fail.test":
			if c.Failure == nil || !strings.Contains(c.Failure.Text, "grep-q") {
				t.Errorf("fail.test failure = %+v", c.Failure)
			}
		case "unsup.test":
			if c.Skipped == nil || !strings.Contains(c.Skipped.Message, "unavailable features: gpu") {
				t.Errorf("unsup.test skipped = %+v", c.Skipped)
			}
		case "pass.test":
			if c.Failure != nil || c.Skipped != nil {
				t.Errorf("pass.test is not plain: %+v", c)
			}
		}
	}
}

func TestMainFilterAndFlags(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, filepath.Join(dir, "suite"), e2eSuite)

	st, out, _ := runMain(t, dir, "suite", "--filter", ":: PASS|cont", "-a")
	if st != 0 {
		t.Errorf("filtered run status = %d, want 0\n%s", st, out)
	}
	if got := lastLine(out); got != "2 passed, 0 failed" {
		t.Errorf("filtered last line = %q\n%s", got, out)
	}
	for _, want := range []string{"-- Testing: 2 of 15 tests,", "  Excluded", "TEST 'E2E :: pass.test' PASS", "Exit Code: 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("filtered output lacks %q:\n%s", want, out)
		}
	}

	st, out, _ = runMain(t, dir, "-q", "suite", "--filter-out", "x?pass|fail|crash|norun")
	if st != 0 || lastLine(out) != "6 passed, 0 failed, 2 skipped" || strings.Contains(out, "PASS:") {
		t.Errorf("-q --filter-out: status %d\n%s", st, out)
	}

	st, out, _ = runMain(t, dir, "-j1", "-s", "suite/fail.test", "suite/pass.test", "--ignore-fail")
	if st != 0 || strings.Contains(out, "PASS: ") || !strings.Contains(out, "FAIL: E2E :: fail.test (") {
		t.Errorf("-s --ignore-fail: status %d\n%s", st, out)
	}

	st, out, _ = runMain(t, dir, "--show-tests", "suite")
	if st != 0 || !strings.Contains(out, "  E2E :: xpass.test\n") {
		t.Errorf("--show-tests: status %d\n%s", st, out)
	}

	st, out, _ = runMain(t, dir, "-j", "1", "--max-failures", "1", "suite")
	if st != 1 || !strings.Contains(lastLine(out), " 1 failed") {
		t.Errorf("--max-failures 1: status %d, last line %q", st, lastLine(out))
	}

	st, _, _ = runMain(t, dir, "suite/pass.test", "suite/fail.test", "-o", "out.json")
	var doc struct {
		Version []int   `json:"__version__"`
		Elapsed float64 `json:"elapsed"`
		Tests   []struct {
			Name, Code, Output string
		} `json:"tests"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "out.json"))
	if err == nil {
		err = json.Unmarshal(data, &doc)
	}
	if st != 1 || err != nil || len(doc.Tests) != 2 || doc.Tests[0].Name != "E2E :: fail.test" || doc.Tests[0].Code != "FAIL" ||
		!strings.Contains(doc.Tests[0].Output, "grep-q") || doc.Tests[1].Code != "PASS" || len(doc.Version) != 3 {
		t.Errorf("-o: status %d, err %v, %+v", st, err, doc)
	}

	// Shards split the tests by position: 15 tests in 4 shards.
	total := 0
	for k := 1; k <= 4; k++ {
		st, out, _ := runMain(t, dir, "--num-shards", "4", "--run-shard", fmt.Sprint(k), "suite")
		var n int
		if _, err := fmt.Sscanf(out, "-- Testing: %d of 15 tests", &n); err != nil || st == 2 {
			t.Fatalf("shard %d: status %d: %v\n%s", k, st, err, out)
		}
		total += n
	}
	if total != 15 {
		t.Errorf("shards ran %d tests, want 15", total)
	}

	execRoot := filepath.Join(dir, "exec")
	st, _, _ = runMain(t, dir, "--exec-root", execRoot, "suite/pipe.test")
	if st != 0 {
		t.Errorf("--exec-root run failed")
	}
	if _, err := os.Stat(filepath.Join(execRoot, "E2E", "Output", "pipe.test.tmp")); err != nil {
		t.Errorf("--exec-root: %%t not under the exec root: %v", err)
	}

	if st, out, _ := runMain(t, dir, "--filter", "no-such-test", "--allow-empty-runs", "suite"); st != 0 || lastLine(out) != "0 passed, 0 failed" {
		t.Errorf("--allow-empty-runs: status %d\n%s", st, out)
	}
	os.MkdirAll(filepath.Join(dir, "suite", "empty"), 0o777)
	for _, args := range [][]string{{}, {"-j", "0", "suite"}, {"--filter", "(", "suite"}, {"nope"}, {"--bogus"},
		{"--filter", "no-such-test", "suite"}, {"suite/empty"}, {"--num-shards", "2", "--run-shard", "3", "suite"}} {
		if st, _, _ := runMain(t, dir, args...); st != 2 {
			t.Errorf("Main(%q) = %d, want 2", args, st)
		}
	}
}

func TestMainLitOpts(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, filepath.Join(dir, "suite"), e2eSuite)
	var out bytes.Buffer
	p := &proc.Proc{Args: []string{"suite"}, Dir: dir, Env: []string{"LIT_OPTS=-q --filter-out 'x pass'", "LIT_FILTER=^E2E :: pass"},
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}
	if st := Main(p, e2eTools()); st != 0 || lastLine(out.String()) != "1 passed, 0 failed" || strings.Contains(out.String(), "PASS:") {
		t.Errorf("LIT_OPTS/LIT_FILTER: status %d\n%s", st, out.String())
	}
}

func TestMainBadLitOpts(t *testing.T) {
	var out bytes.Buffer
	p := &proc.Proc{Args: []string{"."}, Dir: t.TempDir(), Env: []string{"LIT_OPTS=-q 'open"}, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}
	if st := Main(p, nil); st != 2 || !strings.Contains(out.String(), "LIT_OPTS: col 4: missing closing quote") {
		t.Errorf("status %d: %s", st, out.String())
	}
	p.Env = []string{"LIT_OPTS=-q | x"}
	if st := Main(p, nil); st != 2 || !strings.Contains(out.String(), `LIT_OPTS: unexpected "|"`) {
		t.Errorf("status %d: %s", st, out.String())
	}
}

func TestTotals(t *testing.T) {
	tests := []struct {
		codes []Code
		want  string
	}{
		{nil, "0 passed, 0 failed"},
		{[]Code{Pass, FlakyPass, XFail, Excluded}, "3 passed, 0 failed"},
		{[]Code{Fail, XPass, Unresolved, Unsupported}, "0 passed, 3 failed, 1 skipped"},
	}
	for _, tt := range tests {
		var rs []Result
		for _, c := range tt.codes {
			rs = append(rs, Result{Code: c})
		}
		if got := Count(rs).String(); got != tt.want {
			t.Errorf("Count(%v) = %q, want %q", tt.codes, got, tt.want)
		}
	}
}

func TestCdata(t *testing.T) {
	if got := cdata("a]]>b\x01c\td\xff"); got != "a]]]]><![CDATA[>bc\td\uFFFD" {
		t.Errorf("cdata = %q", got)
	}
}

func BenchmarkRunTest(b *testing.B) {
	dir := b.TempDir()
	writeTree(b, dir, map[string]string{
		"lit.cfg":   "name = B\nsuffixes = .test\nsubstitute %opt = fake-opt\n",
		"pass.test": "RUN: %opt %s | grep-q 'op add'\nRUN: %opt %s > %t && cat %t | count 2\nop add\nop mul\n",
	})
	tests, err := Discover(filepath.Join(dir, "pass.test"))
	if err != nil {
		b.Fatal(err)
	}
	r := &Runner{Tools: e2eTools()}
	b.ReportAllocs()
	for b.Loop() {
		if res := r.Run(tests[0]); res.Code != Pass {
			b.Fatalf("%v: %s", res.Code, res.Output)
		}
	}
}
