package ir

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// benchModule builds a module of at least size bytes (printed with cfg)
// from the functions of the shared files (renamed apart), and returns its
// text. Files whose ops need MLIR 15+ syntax (array<...>) are left out when
// cfg.PropsAsAttrs asks for mlir-opt-14 compatible text, and so are files
// of other than 4 warps, so that the module verifies.
func benchModule(tb testing.TB, size int, cfg PrintConfig) []byte {
	tb.Helper()
	var funcs []*Operation
	for _, f := range sharedFiles(tb) {
		src, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		if cfg.PropsAsAttrs && bytes.Contains(src, []byte("array<")) {
			continue
		}
		m, diags := Parse(src, ParseConfig{Filename: filepath.Base(f)})
		if diags.HasErrors() {
			tb.Fatal(diags)
		}
		// The module below says 4 warps; functions of 8-warp files would
		// fail the verifier's layout checks (layout-opt verifies).
		if w, ok := m.Op.Attr("ttg.num-warps").(*IntegerAttr); ok && w.Value != 4 {
			continue
		}
		for o := m.Body().First(); o != nil; o = o.Next() {
			if o.Name() == "tt.func" {
				funcs = append(funcs, o)
			}
		}
	}
	out := NewModule()
	out.Op.Attrs = []NamedAttr{
		{"ttg.num-ctas", Int(1, I32)}, {"ttg.num-warps", Int(4, I32)},
		{"ttg.target", Str("cuda:90")}, {"ttg.threads-per-warp", Int(32, I32)}}
	var buf bytes.Buffer
	for round := 0; ; round++ {
		for i, f := range funcs {
			c := f.Clone()
			name := f.Attr("sym_name").(*StringAttr).Value
			c.SetAttr("sym_name", Str(fmt.Sprintf("%s_%d_%d", name, round, i)))
			c.Loc = nil
			c.Walk(func(op *Operation) WalkResult {
				op.Loc = nil
				for _, r := range op.Regions() {
					for _, b := range r.Blocks {
						for _, a := range b.Args() {
							a.Loc = nil
						}
					}
				}
				return Advance
			})
			out.Body().Append(c)
		}
		if round%20 == 19 || round > 2000 {
			buf.Reset()
			if err := Print(&buf, out, cfg); err != nil {
				tb.Fatal(err)
			}
			if buf.Len() >= size {
				return buf.Bytes()
			}
		}
	}
}

const benchSize = 20 << 20

var benchCache = map[PrintConfig][]byte{}

func benchInput(b *testing.B, cfg PrintConfig) []byte {
	if src, ok := benchCache[cfg]; ok {
		return src
	}
	src := benchModule(b, benchSize, cfg)
	benchCache[cfg] = src
	return src
}

func benchParse(b *testing.B, cfg PrintConfig) {
	src := benchInput(b, cfg)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, diags := Parse(src, ParseConfig{Filename: "bench.mlir"}); diags.HasErrors() {
			b.Fatal(diags)
		}
	}
}

func benchPrint(b *testing.B, cfg PrintConfig) {
	src := benchInput(b, cfg)
	m, diags := Parse(src, ParseConfig{Filename: "bench.mlir"})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := Print(io.Discard, m, cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse parses a 20 MB module in Triton's custom form.
func BenchmarkParse(b *testing.B) { benchParse(b, PrintConfig{}) }

// BenchmarkPrint prints a 20 MB module in Triton's custom form.
func BenchmarkPrint(b *testing.B) { benchPrint(b, PrintConfig{}) }

// BenchmarkParseGeneric parses a 20 MB module in generic form.
func BenchmarkParseGeneric(b *testing.B) {
	benchParse(b, PrintConfig{Generic: true, PropsAsAttrs: true})
}

// BenchmarkPrintGeneric prints a 20 MB module in generic form.
func BenchmarkPrintGeneric(b *testing.B) {
	benchPrint(b, PrintConfig{Generic: true, PropsAsAttrs: true})
}

// TestBenchModuleFile writes the generic-form benchmark module (readable by
// mlir-opt-14 --allow-unregistered-dialect; with DIALECT_BENCH_FORM=custom,
// Triton's custom form) to $DIALECT_BENCH_OUT and, when
// $DIALECT_BENCH_IN names a file, times parse + print of it in-process.
// $DIALECT_BENCH_MB sets the module's minimum size in MB (default 17).
// It is a helper for the mlir-opt comparison in the README; it skips
// unless one of the variables is set.
func TestBenchModuleFile(t *testing.T) {
	out, in := os.Getenv("DIALECT_BENCH_OUT"), os.Getenv("DIALECT_BENCH_IN")
	if out == "" && in == "" {
		t.Skip("set DIALECT_BENCH_OUT or DIALECT_BENCH_IN")
	}
	cfg := PrintConfig{Generic: true, PropsAsAttrs: true}
	if os.Getenv("DIALECT_BENCH_FORM") == "custom" {
		cfg = PrintConfig{}
	}
	if out != "" {
		size := 17 << 20
		if mb := os.Getenv("DIALECT_BENCH_MB"); mb != "" {
			n, err := strconv.Atoi(mb)
			if err != nil || n <= 0 {
				t.Fatalf("DIALECT_BENCH_MB=%q: want a positive number of MB", mb)
			}
			size = n << 20
		}
		src := benchModule(t, size, cfg)
		if err := os.WriteFile(out, src, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d bytes to %s", len(src), out)
	}
	if in != "" {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		m, diags := Parse(src, ParseConfig{Filename: in, AllowUnregistered: true})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		parsed := time.Now()
		var sb strings.Builder
		if err := Print(&sb, m, cfg); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d bytes: parse %v, print %v", len(src), parsed.Sub(start), time.Since(parsed))
	}
}
