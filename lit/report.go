package lit

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"
)

// Totals counts results for the closing line.
type Totals struct {
	Passed, Failed, Skipped int
}

// Count tallies results: PASS, FLAKYPASS and XFAIL count as passed; FAIL,
// XPASS, UNRESOLVED and TIMEOUT as failed; UNSUPPORTED as skipped.
// Excluded tests were never selected and count as none of these.
func Count(results []Result) Totals {
	var t Totals
	for _, r := range results {
		switch {
		case r.Code.IsFailure():
			t.Failed++
		case r.Code == Unsupported:
			t.Skipped++
		case r.Code == Excluded:
		default:
			t.Passed++
		}
	}
	return t
}

// String is the closing line: "N passed, N failed", with ", N skipped" when
// any test was skipped.
func (t Totals) String() string {
	s := fmt.Sprintf("%d passed, %d failed", t.Passed, t.Failed)
	if t.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", t.Skipped)
	}
	return s
}

// WriteFailureLog writes a test's log in lit's framed form:
//
//	******************** TEST 'S :: a.mlir' FAILED ********************
//	<log>
//	********************
func WriteFailureLog(w io.Writer, r Result) {
	what := "FAILED"
	if !r.Code.IsFailure() {
		what = r.Code.String()
	}
	stars := strings.Repeat("*", 20)
	fmt.Fprintf(w, "%s TEST '%s' %s %s\n%s", stars, r.Test.FullName(), what, stars, r.Output)
	if r.Output != "" && !strings.HasSuffix(r.Output, "\n") {
		io.WriteString(w, "\n")
	}
	fmt.Fprintf(w, "%s\n", stars)
}

// WriteSummary writes lit's summary of a run: the lists of failing tests,
// the testing time, the count of each outcome, and last the line
// "N passed, N failed[, N skipped]". With quiet set, only failure groups
// are counted.
func WriteSummary(w io.Writer, results []Result, elapsed time.Duration, quiet bool) {
	byCode := map[Code][]Result{}
	for _, r := range results {
		byCode[r.Code] = append(byCode[r.Code], r)
	}
	for _, c := range []Code{Unresolved, Timeout, XPass, Fail} {
		rs := byCode[c]
		if len(rs) == 0 {
			continue
		}
		title := c.Label()
		fmt.Fprintf(w, "********************\n%s Tests (%d):\n", title, len(rs))
		names := make([]string, len(rs))
		for i, r := range rs {
			names[i] = r.Test.FullName()
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(w, "  %s\n", n)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nTesting Time: %.2fs\n\n", elapsed.Seconds())
	fmt.Fprintf(w, "Total Discovered Tests: %d\n", len(results))
	var shown []Code
	width, cwidth := 0, 0
	for c := Excluded; c <= XPass; c++ {
		if n := len(byCode[c]); n > 0 && (!quiet || c.IsFailure()) {
			shown = append(shown, c)
			width = max(width, len(c.Label()))
			cwidth = max(cwidth, len(fmt.Sprint(n)))
		}
	}
	for _, c := range shown {
		n := len(byCode[c])
		fmt.Fprintf(w, "  %-*s: %*d (%.2f%%)\n", width, c.Label(), cwidth, n, 100*float64(n)/float64(len(results)))
	}
	fmt.Fprintln(w, Count(results))
}

// WriteXUnit writes results as JUnit-style XML, as lit's --xunit-xml-output
// does: one <testsuite> per suite, one <testcase> per test with a <failure>
// holding the log of a failing test, or <skipped> for one that did not run.
func WriteXUnit(w io.Writer, results []Result, elapsed time.Duration) error {
	type suite struct {
		name    string
		results []Result
	}
	var suites []*suite
	index := map[string]*suite{}
	for _, r := range results {
		name := r.Test.Config.Name
		s := index[name]
		if s == nil {
			s = &suite{name: name}
			index[name] = s
			suites = append(suites, s)
		}
		s.results = append(s.results, r)
	}
	sort.Slice(suites, func(i, j int) bool { return suites[i].name < suites[j].name })
	attr := func(s string) string { // escapes quotes and newlines too
		var b strings.Builder
		xml.EscapeText(&b, []byte(s))
		return b.String()
	}
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	fmt.Fprintf(&b, "<testsuites time=\"%.2f\">\n", elapsed.Seconds())
	for _, s := range suites {
		var failures, skipped int
		var t time.Duration
		for _, r := range s.results {
			t += r.Elapsed
			if r.Code.IsFailure() {
				failures++
			} else if r.Code == Unsupported || r.Code == Excluded {
				skipped++
			}
		}
		safe := strings.ReplaceAll(s.name, ".", "-")
		fmt.Fprintf(&b, "<testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" skipped=\"%d\" time=\"%.2f\">\n",
			attr(safe), len(s.results), failures, skipped, t.Seconds())
		for _, r := range s.results {
			dir, file := path.Split(r.Test.Rel)
			class := safe + "." + strings.ReplaceAll(strings.TrimSuffix(dir, "/"), ".", "_")
			if dir == "" {
				class = safe + "." + safe
			}
			fmt.Fprintf(&b, "<testcase classname=\"%s\" name=\"%s\" time=\"%.2f\"", attr(class), attr(file), r.Elapsed.Seconds())
			switch {
			case r.Code.IsFailure():
				fmt.Fprintf(&b, ">\n\t<failure><![CDATA[%s]]></failure>\n</testcase>\n", cdata(r.Output))
			case r.Code == Unsupported:
				fmt.Fprintf(&b, ">\n\t<skipped message=\"%s\"/>\n</testcase>\n", attr(strings.TrimSpace(r.Output)))
			case r.Code == Excluded:
				fmt.Fprintf(&b, ">\n\t<skipped message=\"Test not selected (--filter, ...)\"/>\n</testcase>\n")
			default:
				b.WriteString("/>\n")
			}
		}
		b.WriteString("</testsuite>\n")
	}
	b.WriteString("</testsuites>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// cdata makes s safe inside a CDATA section: control characters other
// than tab, newline and carriage return are dropped (XML forbids them),
// and "]]>" is split across two sections.
func cdata(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	return strings.ReplaceAll(s, "]]>", "]]]]><![CDATA[>")
}

// WriteJSON writes results in the form of lit's -o/--output file:
//
//	{"__version__": [17, 0, 0], "elapsed": 1.5,
//	 "tests": [{"name": "S :: a.mlir", "code": "PASS", "output": "...", "elapsed": 0.01}, ...]}
//
// (the version is that of the lit whose format this follows).
func WriteJSON(w io.Writer, results []Result, elapsed time.Duration) error {
	type test struct {
		Name    string  `json:"name"`
		Code    string  `json:"code"`
		Output  string  `json:"output"`
		Elapsed float64 `json:"elapsed"`
	}
	doc := struct {
		Version []int   `json:"__version__"`
		Elapsed float64 `json:"elapsed"`
		Tests   []test  `json:"tests"`
	}{Version: []int{17, 0, 0}, Elapsed: elapsed.Seconds(), Tests: []test{}}
	for _, r := range results {
		doc.Tests = append(doc.Tests, test{r.Test.FullName(), r.Code.String(), r.Output, r.Elapsed.Seconds()})
	}
	sort.Slice(doc.Tests, func(i, j int) bool { return doc.Tests[i].Name < doc.Tests[j].Name })
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
