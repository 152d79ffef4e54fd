package attr

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var aliasDef = regexp.MustCompile(`^#([A-Za-z_][\w$.-]*) = (#.*)$`)

// TestRoundTripShared parses every alias definition at the top of the
// shared Triton 3.6 files and checks that printing gives the same text.
func TestRoundTripShared(t *testing.T) {
	root := sharedDir(t)
	var files []string
	for _, dir := range []string{"ttgir", "prepost"} {
		m, _ := filepath.Glob(filepath.Join(root, "triton36", dir, "*.ttgir"))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no TTGIR files")
	}
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		aliases := map[string]Encoding{}
		resolve := func(a string) (Encoding, bool) { e, ok := aliases[a]; return e, ok }
		for _, line := range strings.Split(string(data), "\n") {
			m := aliasDef.FindStringSubmatch(line)
			if m == nil || strings.HasPrefix(m[2], "#loc") {
				continue
			}
			enc, used, err := Parse(m[2], resolve)
			if err != nil {
				t.Errorf("%s: %s: %v", filepath.Base(f), line, err)
				continue
			}
			if used != len(m[2]) {
				t.Errorf("%s: %s: used %d of %d bytes", filepath.Base(f), line, used, len(m[2]))
			}
			ref := func(e Encoding) string {
				for k, v := range aliases {
					if v == e {
						return "#" + k
					}
				}
				return e.Format(nil)
			}
			if got := enc.Format(ref); got != m[2] {
				t.Errorf("%s: print(parse(x)) =\n %s\nwant\n %s", filepath.Base(f), got, m[2])
			}
			if p := enc.AliasPrefix(); p == "" || !strings.HasPrefix(m[1], p) {
				t.Errorf("%s: alias #%s, but AliasPrefix is %q", filepath.Base(f), m[1], p)
			}
			aliases[m[1]] = enc
			n++
		}
	}
	t.Logf("round-tripped %d alias definitions", n)
	// Every inline attribute in the bodies (slices, dot operands, memory
	// spaces) prints back as written, with the file's aliases.
	inline := 0
	for _, f := range files {
		data, _ := os.ReadFile(f)
		text := string(data)
		aliases := map[string]Encoding{}
		names := map[Encoding]string{}
		for _, line := range strings.Split(text, "\n") {
			if m := aliasDef.FindStringSubmatch(line); m != nil && !strings.HasPrefix(m[2], "#loc") {
				e, _, err := Parse(m[2], func(a string) (Encoding, bool) { e, ok := aliases[a]; return e, ok })
				if err != nil {
					t.Fatal(err)
				}
				aliases[m[1]], names[e] = e, "#"+m[1]
			}
		}
		body := text[strings.Index(text, "module"):]
		for i := strings.Index(body, "#ttg."); i >= 0; {
			enc, n, err := Parse(body[i:], func(a string) (Encoding, bool) { e, ok := aliases[a]; return e, ok })
			if err != nil {
				t.Errorf("%s: %v in %.80s", filepath.Base(f), err, body[i:])
				break
			}
			ref := func(e Encoding) string {
				if n, ok := names[e]; ok {
					return n
				}
				return e.Format(nil)
			}
			if got := enc.Format(ref); got != body[i:i+n] {
				t.Errorf("%s: printed %s, file has %s", filepath.Base(f), got, body[i:i+n])
			}
			inline++
			next := strings.Index(body[i+n:], "#ttg.")
			if next < 0 {
				break
			}
			i += n + next
		}
	}
	t.Logf("round-tripped %d inline attributes", inline)
	if n == 0 {
		t.Fatal("no alias definitions found")
	}
}

// TestRoundTrip covers every encoding, including the defaults Triton omits
// when printing and the nested forms.
func TestRoundTrip(t *testing.T) {
	for _, s := range []string{
		"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
		"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>",
		"#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>",
		"#ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>}>}>",
		"#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>",
		"#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = [[1, 0]], instrShape = [16, 64, 16]}>",
		"#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>",
		"#ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>",
		"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>",
		"#ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 16, 32], isTransposed = false, tilesPerWarp = [2, 2], elementBitWidth = 64}>",
		"#ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2]}>",
		"#ttg.amd_wmma<{version = 3, isTranspose = true, warpsPerCTA = [2, 2], tilesPerWarp = [2, 1], instrShape = [16, 16, 32]}>",
		"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
		"#ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>",
		"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
		"#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8, fp4Padded = true, rank = 3}>",
		"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>",
		"#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>",
		"#ttg.padded_shared<[2:+1, 4:+2] {offset = [[0, 2], [0, 1]], block = []}>",
		"#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]]}, alignment = 16>",
		"#ttg.shared_linear<{offset = [[0, 1], [1, 1]], block = [[2, 0]]}, alignment = 128>",
		"#ttg.shared_memory",
		"#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>",
		"#ttng.tensor_memory",
	} {
		enc, n, err := Parse(s, nil)
		if err != nil {
			t.Errorf("Parse(%s): %v", s, err)
			continue
		}
		if n != len(s) {
			t.Errorf("Parse(%s) used %d of %d bytes", s, n, len(s))
		}
		if got := enc.Format(nil); got != s {
			t.Errorf("print(parse(x)) =\n %s\nwant\n %s", got, s)
		}
		if err := enc.Verify(ModuleInfo{}); err != nil {
			t.Errorf("Verify(%s): %v", s, err)
		}
		if !Known(enc.Name()) {
			t.Errorf("Known(%q) = false", enc.Name())
		}
	}
}

// TestNormalise covers input spellings that print differently.
func TestNormalise(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"#ttg.blocked<{order=[1,0],sizePerThread=[1,8],threadsPerWarp=[4,8],warpsPerCTA=[4,1]}>",
			"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"},
		{"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CTAsPerCGA = [2, 2], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>",
			"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 0], [1, 0]]}>"},
		{"#triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CTAsPerCGA = [1], CTASplitNum = [1], CTAOrder = [0]}>",
			"#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"},
		{"#ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>",
			"#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"},
		{"#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2 : i32}>",
			"#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>"},
		{"#ttg.padded_shared<[32:+4] {offset = [[0, 1], [0, 2], [1, 0]], block = []}>",
			"#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [2, 4]}>"},
		{"#ttg.shared_linear<{offset = [[0, 1]], block = []}, alignment = 16>",
			"#ttg.shared_linear<{offset = [[0, 1]]}, alignment = 16>"},
		{"#ttg.amd_mfma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false}>",
			"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false}>"},
	} {
		enc, _, err := Parse(c.in, nil)
		if err != nil {
			t.Errorf("Parse(%s): %v", c.in, err)
			continue
		}
		if got := enc.Format(nil); got != c.want {
			t.Errorf("Parse(%s) prints\n %s\nwant\n %s", c.in, got, c.want)
		}
	}
}

func TestParseConsumesOneAttribute(t *testing.T) {
	s := "#ttg.shared_memory, mutable>"
	enc, n, err := Parse(s, nil)
	if err != nil || n != len("#ttg.shared_memory") || enc.Name() != "ttg.shared_memory" {
		t.Fatalf("Parse(%q) = %v, %d, %v", s, enc, n, err)
	}
	s = "#mma}> loc(#loc)"
	mma := &NvidiaMma{VersionMajor: 2, WarpsPerCTA: []int{2, 2}, InstrShape: []int{16, 8}}
	enc, n, err = Parse(s, func(a string) (Encoding, bool) { return mma, a == "mma" })
	if err != nil || n != 4 || enc != mma {
		t.Fatalf("Parse(%q) = %v, %d, %v", s, enc, n, err)
	}
	if !Equal(enc, mma) || Equal(enc, SharedMemory{}) {
		t.Error("Equal is wrong")
	}
}

// TestEqualIdentityAndValueTypes checks Equal on the same pointer, on equal
// encodings held in different values, and on value-type encodings, which
// must not make it panic.
func TestEqualIdentityAndValueTypes(t *testing.T) {
	parse := func(s string) Encoding {
		t.Helper()
		enc, _, err := Parse(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		return enc
	}
	const text = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"
	a, b := parse(text), parse(text)
	other := parse("#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>")
	tests := []struct {
		x, y Encoding
		want bool
	}{
		{a, a, true},
		{a, b, true},
		{a, other, false},
		{SharedMemory{}, SharedMemory{}, true},
		{SharedMemory{}, a, false},
		{nil, nil, true},
		{a, nil, false},
	}
	for _, tt := range tests {
		if got := Equal(tt.x, tt.y); got != tt.want {
			t.Errorf("Equal(%v, %v) = %v, want %v", tt.x, tt.y, got, tt.want)
		}
	}
}
