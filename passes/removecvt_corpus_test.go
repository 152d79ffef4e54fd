package passes_test

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/ir"
)

var updateCorpus = flag.Bool("update", false, "rewrite testdata/prepost/worse.expect from this run of TestRemoveConversionsCorpus")

const (
	corpusDir    = "testdata/prepost"
	corpusExpect = "testdata/prepost/worse.expect"
	corpusMin    = 40
)

// corpusCounts is what one pair of the corpus measured: the conversions in
// the .pre input, in our output and in Triton's .post.
type corpusCounts struct {
	ran               bool
	pre, ours, triton int
}

// TestRemoveConversionsCorpus runs remove-redundant-conversions on every
// NAME.pre.ttgir of testdata/prepost (Triton 3.6 kernels, see the README
// there) and compares with Triton's NAME.post.ttgir. Every pair must parse,
// the output must re-parse and verify, keep every anchor's layouts and
// compute what the input computes. Leaving more ttg.convert_layout ops than
// Triton fails, except on the pairs listed, with both counts, in
// testdata/prepost/worse.expect: a ratchet, so that a new regression fails
// and so does a listed pair whose count changed (record it with
// go test ./passes -run TestRemoveConversionsCorpus -update).
func TestRemoveConversionsCorpus(t *testing.T) {
	pres, err := filepath.Glob(filepath.Join(corpusDir, "*.pre.ttgir"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pres) < corpusMin {
		t.Fatalf("%d pairs in %s, want at least %d", len(pres), corpusDir, corpusMin)
	}
	names := make([]string, len(pres))
	counts := make([]corpusCounts, len(pres))
	t.Run("pairs", func(t *testing.T) {
		for i, pre := range pres {
			names[i] = strings.TrimSuffix(filepath.Base(pre), ".pre.ttgir")
			t.Run(names[i], func(t *testing.T) {
				t.Parallel()
				counts[i] = checkCorpusPair(t, names[i], pre)
			})
		}
	})

	var all, sum corpusCounts
	var better, equal, worse int
	measured := map[string]corpusCounts{}
	for i, c := range counts {
		if !c.ran {
			continue
		}
		measured[names[i]] = c
		all.pre, all.ours, all.triton = all.pre+c.pre, all.ours+c.ours, all.triton+c.triton
		switch {
		case c.ours < c.triton:
			better++
		case c.ours == c.triton:
			equal++
		default:
			worse++
			sum.ours, sum.triton = sum.ours+c.ours, sum.triton+c.triton
		}
	}
	t.Logf("corpus: %d pairs measured of %d; convert_layout ops: pre %d, ours %d, Triton %d; fewer than Triton on %d, as many on %d, more on %d (ours %d vs Triton %d there)",
		len(measured), len(pres), all.pre, all.ours, all.triton, better, equal, worse, sum.ours, sum.triton)

	if *updateCorpus {
		if len(measured) != len(pres) {
			t.Fatalf("-update needs every pair measured (%d of %d were): run it without a subtest filter and fix the failing pairs first", len(measured), len(pres))
		}
		writeCorpusExpect(t, names, counts)
		return
	}
	want, err := readCorpusExpect(corpusExpect)
	if err != nil {
		t.Fatalf("%v (generate it with: go test ./passes -run TestRemoveConversionsCorpus -update)", err)
	}
	var regressed, changed, fixed, gone []string
	for name, c := range measured {
		w, listed := want[name]
		switch {
		case !listed && c.ours > c.triton:
			regressed = append(regressed, fmt.Sprintf("%s: ours %d, Triton %d", name, c.ours, c.triton))
		case listed && c.ours <= c.triton:
			fixed = append(fixed, fmt.Sprintf("%s: ours %d, Triton %d (listed: ours %d)", name, c.ours, c.triton, w.ours))
		case listed && c.ours > w.ours:
			regressed = append(regressed, fmt.Sprintf("%s: ours %d, Triton %d (listed: ours %d)", name, c.ours, c.triton, w.ours))
		case listed && (c.ours != w.ours || c.triton != w.triton):
			changed = append(changed, fmt.Sprintf("%s: ours %d, Triton %d (listed: ours %d, Triton %d)", name, c.ours, c.triton, w.ours, w.triton))
		}
	}
	for name := range want {
		if _, ok := measured[name]; !ok {
			if _, err := os.Stat(filepath.Join(corpusDir, name+".pre.ttgir")); err != nil {
				gone = append(gone, name)
			}
		}
	}
	for _, l := range [][]string{regressed, changed, fixed, gone} {
		sort.Strings(l)
	}
	const how = "record them with: go test ./passes -run TestRemoveConversionsCorpus -update"
	if len(regressed) > 0 {
		t.Errorf("%d pairs leave more convert_layout ops than Triton and than %s allows (regressions):\n  %s",
			len(regressed), corpusExpect, strings.Join(regressed, "\n  "))
	}
	if len(fixed) > 0 {
		t.Errorf("%d pairs listed in %s now leave no more convert_layout ops than Triton; %s\n  %s",
			len(fixed), corpusExpect, how, strings.Join(fixed, "\n  "))
	}
	if len(changed) > 0 {
		t.Errorf("%d pairs listed in %s changed counts; %s\n  %s", len(changed), corpusExpect, how, strings.Join(changed, "\n  "))
	}
	if len(gone) > 0 {
		t.Errorf("%d pairs listed in %s are not in the corpus; %s\n  %s", len(gone), corpusExpect, how, strings.Join(gone, "\n  "))
	}
}

// checkCorpusPair checks one pair and returns its counts (ran is false when
// the pair could not be measured).
func checkCorpusPair(t *testing.T, name, pre string) corpusCounts {
	t.Helper()
	preSrc, err := os.ReadFile(pre)
	if err != nil {
		t.Fatal(err)
	}
	postPath := strings.TrimSuffix(pre, ".pre.ttgir") + ".post.ttgir"
	postSrc, err := os.ReadFile(postPath)
	if err != nil {
		t.Fatal(err)
	}
	before, diags := ir.Parse(preSrc, ir.ParseConfig{Filename: pre})
	if diags.HasErrors() {
		t.Fatalf("parse %s: %v", pre, diags)
	}
	post, diags := ir.Parse(postSrc, ir.ParseConfig{Filename: postPath})
	if diags.HasErrors() {
		t.Fatalf("parse %s: %v", postPath, diags)
	}
	if diags := ir.Verify(post); diags.HasErrors() {
		t.Errorf("Triton's %s does not verify: %v", postPath, diags)
	}
	m := runPipeline(t, pre, preSrc, "builtin.module(remove-redundant-conversions)")
	out := m.String()
	after, diags := ir.ParseString(out, ir.ParseConfig{Filename: name + ".out"})
	if diags.HasErrors() {
		t.Fatalf("output does not re-parse: %v\n%s", diags, out)
	}
	if diags := ir.Verify(after); diags.HasErrors() {
		t.Fatalf("output does not verify: %v\n%s", diags, out)
	}
	sameAnchors(t, name, anchorSignature(t, before), anchorSignature(t, after))
	sameComputation(t, name, before, after)
	c := corpusCounts{
		ran:    true,
		pre:    countOps(before, "ttg.convert_layout"),
		ours:   countOps(after, "ttg.convert_layout"),
		triton: countOps(post, "ttg.convert_layout"),
	}
	t.Logf("%s: convert_layout ops: pre %d, ours %d, Triton %d", name, c.pre, c.ours, c.triton)
	return c
}

// readCorpusExpect reads lines "NAME ours N triton M" (# starts a comment).
func readCorpusExpect(path string) (map[string]corpusCounts, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	want := map[string]corpusCounts{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 5 || fs[1] != "ours" || fs[3] != "triton" {
			return nil, fmt.Errorf("%s:%d: want NAME ours N triton M, got %q", path, n, line)
		}
		ours, err1 := strconv.Atoi(fs[2])
		triton, err2 := strconv.Atoi(fs[4])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s:%d: bad count in %q", path, n, line)
		}
		if _, dup := want[fs[0]]; dup {
			return nil, fmt.Errorf("%s:%d: %s listed twice", path, n, fs[0])
		}
		want[fs[0]] = corpusCounts{ran: true, ours: ours, triton: triton}
	}
	return want, sc.Err()
}

func writeCorpusExpect(t *testing.T, names []string, counts []corpusCounts) {
	t.Helper()
	var b strings.Builder
	b.WriteString("# Pairs of testdata/prepost where remove-redundant-conversions leaves more\n")
	b.WriteString("# ttg.convert_layout ops than Triton 3.6's tritongpu-remove-layout-conversions:\n")
	b.WriteString("# NAME ours N triton M. TestRemoveConversionsCorpus fails on a pair worse than\n")
	b.WriteString("# listed here and on a listed pair whose counts changed.\n")
	b.WriteString("# Generated by: go test ./passes -run TestRemoveConversionsCorpus -update\n")
	idx := make([]int, len(names))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return names[idx[a]] < names[idx[b]] })
	for _, i := range idx {
		if c := counts[i]; c.ours > c.triton {
			fmt.Fprintf(&b, "%s ours %d triton %d\n", names[i], c.ours, c.triton)
		}
	}
	if err := os.WriteFile(corpusExpect, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
