package ir

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
)

// sharedDir returns ../shared relative to the module root, or "" when absent.
func sharedDir(testing.TB) string { return testenv.SharedDir() }

// sharedFiles returns every TTGIR file of the shared corpus (skipping the
// test when there is none).
func sharedFiles(t testing.TB) []string {
	t.Helper()
	s := sharedDir(t)
	if s == "" {
		t.Skip("../shared not present")
	}
	var files []string
	for _, pat := range []string{"triton36/ttgir/*.ttgir", "triton36/prepost/*.ttgir"} {
		m, _ := filepath.Glob(filepath.Join(s, pat))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no shared TTGIR files")
	}
	return files
}

func printString(t testing.TB, m *Module, cfg PrintConfig) string {
	t.Helper()
	var b bytes.Buffer
	if err := Print(&b, m, cfg); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSharedFilesRoundTrip reads Triton 3.6's printed TTGIR and prints it
// back. Triton prints with locations and MLIR's -mlir-use-nameloc-as-prefix
// (its Python bindings' getOpPrintingFlags), so the same flags reproduce
// every file byte for byte whose names all come from locations the text
// carries; the scf.for loops of the matmul files have region arguments
// whose locations (name locations, in Triton's memory) scf.for's syntax
// does not print, so from the text MLIR, like layout-opt, can only name
// them %argN. With KeepNames (the input's own names) every file prints
// back byte for byte. Every configuration is a fixed point; the default
// (MLIR's names, no locations) too, since it does not depend on them.
func TestSharedFilesRoundTrip(t *testing.T) {
	identical, identicalNameLoc := 0, 0
	files := sharedFiles(t)
	triton := PrintConfig{DebugInfo: true, NameLocAsPrefix: true}
	input := PrintConfig{DebugInfo: true, KeepNames: true}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		m, diags := Parse(src, ParseConfig{Filename: name})
		if diags.HasErrors() {
			t.Errorf("%s: parse errors:\n%v", name, diags)
			continue
		}
		if d := Verify(m); len(d) > 0 {
			t.Errorf("%s: verify:\n%v", name, d)
		}
		for _, cfg := range []PrintConfig{input, triton, {DebugInfo: true}, {}, {Generic: true}, {Generic: true, DebugInfo: true, KeepNames: true}} {
			out := printString(t, m, cfg)
			m2, diags := ParseString(out, ParseConfig{Filename: name + ".printed"})
			if diags.HasErrors() {
				t.Errorf("%s %+v: reparse errors:\n%v\n%s", name, cfg, diags, out)
				continue
			}
			if out2 := printString(t, m2, cfg); out2 != out {
				t.Errorf("%s %+v: not a fixed point:\n%s", name, cfg, firstDiff(out, out2))
			}
			switch cfg {
			case PrintConfig{Generic: true, DebugInfo: true, KeepNames: true}:
				// Generic form loses nothing: back in custom form it is
				// the original text.
				if back := printString(t, m2, input); back != string(src) {
					t.Errorf("%s: generic round trip differs:\n%s", name, firstDiff(string(src), back))
				}
			case input:
				if out == string(src) {
					identical++
				} else {
					t.Errorf("%s: differs from the input:\n%s", name, firstDiff(string(src), out))
				}
			case triton:
				if out == string(src) {
					identicalNameLoc++
				} else if d := firstDiff(string(src), out); !strings.Contains(d, "scf.for") {
					t.Errorf("%s: with Triton's flags, differs before any scf.for:\n%s", name, d)
				}
			}
		}
	}
	t.Logf("%d of %d shared files print byte-identical with DebugInfo and KeepNames, %d with Triton's flags (DebugInfo, NameLocAsPrefix)",
		identical, len(files), identicalNameLoc)
	if identical != len(files) {
		t.Errorf("only %d of %d shared files print byte-identical", identical, len(files))
	}
}

// firstDiff shows the first differing line of a and b.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return "line " + itoa(int64(i+1)) + ":\n- " + x + "\n+ " + y
		}
	}
	return "(equal)"
}

// TestPrintConcurrent prints one module from several goroutines at once:
// one Print takes the value-slot fast path, the others the map, and all
// must print the same text (run with -race to check that only the holder
// of printSlots touches Value.pslot).
func TestPrintConcurrent(t *testing.T) {
	files := sharedFiles(t)
	src, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	m, diags := Parse(src, ParseConfig{Filename: "in.mlir"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := printString(t, m, PrintConfig{Generic: true})
	const n = 4
	got := make([]string, n)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b strings.Builder
			Print(&b, m, PrintConfig{Generic: true})
			got[i] = b.String()
		}()
	}
	wg.Wait()
	for i, g := range got {
		if g != want {
			t.Errorf("print %d differs from the serial print", i)
		}
	}
}

// keep prints m with the names it was written with (PrintConfig.KeepNames):
// the tests of op syntax and of IR edits name values as their inputs do.
func keep(m *Module) string {
	var b bytes.Buffer
	Print(&b, m, PrintConfig{KeepNames: true})
	return b.String()
}
