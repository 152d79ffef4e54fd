package attr

import (
	"errors"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	const bl = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]"
	for _, c := range []struct {
		in   string
		at   string // the error points at the first occurrence of at (or 0 if "")
		want string
	}{
		{"#ttg.blocked<{sizePerThread = [1, 3], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>", "sizePerThread", "sizePerThread[1] = 3 is not a power of two"},
		{"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1], order = [1, 0]}>", "threadsPerWarp", "threadsPerWarp has 3 entries, expected 2"},
		{"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 1]}>", "order", "order [1, 1] is not a permutation of 0..1"},
		{"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, -1]}>", "-1", "expected an unsigned integer value in order"},
		{"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1]}>", "", "missing key 'order'"},
		{bl + ", vec = 2}>", "vec", "unexpected key: vec"},
		{"#ttg.blocked<{sizePerThred = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>", "sizePerThred", "unexpected key: sizePerThred; did you mean 'sizePerThread'?"},
		{bl + ", CGALayout = [[1]]}>", "[1]]", "'CGALayout' entry length does not match rank 2"},
		{bl + ", CTAsPerCGA = [2, 3], CTASplitNum = [1, 1], CTAOrder = [1, 0]}>", "CTAOrder", "must be powers of two"},
		{bl + "}", "$", "expected '>'"},
		{"#ttg.blocked<{sizePerThread = [1, 8] threadsPerWarp = [4, 8]}>", "threadsPerWarp", "expected ',' or '}'"},
		{"#ttg.unknown<{}>", "", "unknown attribute #ttg.unknown"},
		{"#mma", "", "undefined attribute alias #mma"},
		{"ttg.blocked", "", "expected an attribute starting with '#'"},
		{"#ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>", "dim", "slice dim=2 must be less than the parent rank=2"},
		{"#ttg.slice<{dim = 0, parent = #ttg.shared_memory}>", "#ttg.shared_memory", "expected a distributed encoding trait"},
		{"#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>}>", "", "kWidth parameter is mandatory"},
		{"#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>, kWidth = 2}>", "opIdx", "must be 0 for Hopper MMA parent"},
		{"#ttg.dot_op<{opIdx = 2, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>", "opIdx", "opIdx parameter can be 0 or 1, got: 2"},
		{"#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 3], instrShape = [16, 8]}>", "warpsPerCTA", "warpsPerCTA[1] = 3 is not a power of two"},
		{"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 16, 8], isTransposed = true}>", "instrShape", "invalid (mDim, nDim) combination: (32, 16)"},
		{"#ttg.amd_wmma<{version = 4, isTranspose = false, warpsPerCTA = [2, 2]}>", "version", "WMMA version must be in the [1, 3] range"},
		{"#ttg.amd_wmma<{version = 2, isTranspose = 1, warpsPerCTA = [2, 2]}>", "1,", "expected a bool type in isTranspose"},
		{"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], transposed = true}>", "transposed", "unexpected key: transposed"},
		{"#ttg.nvmma_shared<{swizzlingByteWidth = 96, transposed = false, elementBitWidth = 16}>", "swizzlingByteWidth", "swizzlingByteWidth must be 0, 32, 64, or 128"},
		{"#ttg.linear<{register = [[0, 1]], lane = [], warp = []}>", "", "Expected basis of 'block' not found"},
		{"#ttg.linear<{register = [[1, 1]], lane = [], warp = [], block = []}>", "register", "each base must move in at most one dimension"},
		{"#ttg.linear<{register = [[0, 2]], lane = [], warp = [], block = []}>", "register", "must be surjective"},
		{"#ttg.padded_shared<[3:+4] {order = [1, 0], shape = [64, 64]}>", "3:+4", "interval values must all be power of two"},
		{"#ttg.padded_shared<[4:+4] {order = [1, 0]}>", "", "Mismatch of shape and order ranks in padded layout"},
		{"#ttg.shared_linear<{offset = [[0, 1]], alignment = 16}>", "alignment", "alignment must be specified outside of the linear layout braces"},
		{"#ttg.shared_linear<{offset = [[0, 1]]}, alignment = 12>", "alignment", "alignment must be a positive power of two"},
		{"#ttg.blocked<{sizePerThread = [1, 8], sizePerThread = [1, 8]}>", "sizePerThread = [1, 8]}", "duplicate key 'sizePerThread'"},
		{"#ttg.blocked<{sizePerThread = [99999999999]}>", "99999999999", "invalid integer"},
		// Triton's padded_shared parser words an unknown key differently.
		{"#ttg.padded_shared<[2:+1, 4:+2] {offset = [[1, 0], [2, 0]], block = [], order = [0, 1]}>", "order", `Unexpected attribute "order" found`},
		{"#ttg.padded_shared<[2:+1, 4:+2] {order = [1, 0], register = [[0, 1]]}>", "register", `Unexpected attribute "register" found`},
		// Triton accepts a versionMajor 1 nvidia_mma; a dot_op on it has no kWidth.
		{"#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 1, warpsPerCTA = [1, 1], instrShape = [16, 8]}>, kWidth = 8}>", "kWidth", "ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper MMA parent"},
		{"#ttg.dot_op<{opIdx = 1, parent = #ttg.amd_wmma<{version = 1, warpsPerCTA = [1, 4]}>}>", "", "ttg.dot_op kWidth parameter must be 8/16 for WMMA v1 (including packed cases for `scaled_dot`)"},
	} {
		_, _, err := Parse(c.in, nil)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%s) = %v, want an *Error", c.in, err)
			continue
		}
		if !strings.Contains(e.Msg, c.want) {
			t.Errorf("Parse(%s): message %q, want it to contain %q", c.in, e.Msg, c.want)
		}
		wantOff := 0
		switch c.at {
		case "":
		case "$":
			wantOff = len(c.in)
		default:
			wantOff = strings.Index(c.in, c.at)
		}
		if e.Offset != wantOff {
			t.Errorf("Parse(%s): error %q at offset %d, want %d (%q)", c.in, e.Msg, e.Offset, wantOff, c.at)
		}
	}
}

// An unexpected key gets Triton's message, and a "did you mean" hint only
// when an allowed key is close.
func TestUnexpectedKeyHint(t *testing.T) {
	const rest = "threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]"
	for in, want := range map[string]string{
		"#ttg.blocked<{sizePerThred = [1, 8], " + rest + "}>":             "unexpected key: sizePerThred; did you mean 'sizePerThread'?",
		"#ttg.blocked<{sizePerThread = [1, 8], " + rest + ", bogus = 1}>": "unexpected key: bogus",
	} {
		_, _, err := Parse(in, nil)
		var e *Error
		if !errors.As(err, &e) || e.Msg != want {
			t.Errorf("Parse(%s) = %v, want %q", in, err, want)
		}
	}
}

func TestVerifyModule(t *testing.T) {
	parse := func(s string) Encoding {
		t.Helper()
		e, _, err := Parse(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	blocked := parse("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>")
	blocked2 := parse("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>")
	mma := parse("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>")
	mfma := parse("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>")
	lin := parse("#ttg.linear<{register = [[0, 1]], lane = [[0, 2], [1, 0]], warp = [[2, 0]], block = []}>")
	slice := parse("#ttg.slice<{dim = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>}>")
	for _, c := range []struct {
		enc  Encoding
		m    ModuleInfo
		want string // "" = valid
	}{
		{blocked, ModuleInfo{NumWarps: 4, ThreadsPerWarp: 32, NumCTAs: 1}, ""},
		{blocked, ModuleInfo{}, ""},
		{blocked, ModuleInfo{NumWarps: 8}, "Layout has 4 warps per CTA, but the context requires 8 warps per CTA"},
		{blocked, ModuleInfo{ThreadsPerWarp: 64}, "Layout has 32 threads per warp, but the context requires 64 threads per warp"},
		{blocked, ModuleInfo{NumCTAs: 2}, "Layout has 1 CTAs per CGA, but the context requires 2 CTAs per CGA"},
		{blocked2, ModuleInfo{NumCTAs: 2}, ""},
		{mma, ModuleInfo{NumWarps: 4, ThreadsPerWarp: 32}, ""},
		{mma, ModuleInfo{NumWarps: 8}, "Layout has 4 warps per CTA"},
		{mma, ModuleInfo{ThreadsPerWarp: 64}, "need 32 threads per warp"},
		{mfma, ModuleInfo{NumWarps: 4, ThreadsPerWarp: 64}, ""},
		{mfma, ModuleInfo{ThreadsPerWarp: 32}, "need 64 threads per warp"},
		{lin, ModuleInfo{NumWarps: 2, ThreadsPerWarp: 4}, ""},
		{lin, ModuleInfo{NumWarps: 4}, "Layout has 2 warps per CTA, but the context requires 4"},
		{lin, ModuleInfo{ThreadsPerWarp: 32}, "Layout has 4 threads per warp"},
		{slice, ModuleInfo{NumWarps: 8}, "Layout has 4 warps per CTA"},
		{SharedMemory{}, ModuleInfo{NumWarps: 8}, ""},
		{&SwizzledShared{Vec: 1, PerPhase: 1, MaxPhase: 1, Order: []int{1, 0}}, ModuleInfo{NumWarps: 8, NumCTAs: 2}, ""},
		{&SwizzledShared{Vec: 3, PerPhase: 1, MaxPhase: 1, Order: []int{1, 0}}, ModuleInfo{}, "vec = 3 is not a power of two"},
	} {
		err := c.enc.Verify(c.m)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s.Verify(%+v) = %v", c.enc.Format(nil), c.m, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s.Verify(%+v) = %v, want %q", c.enc.Format(nil), c.m, err, c.want)
		}
	}
}

func TestToLinearErrors(t *testing.T) {
	for _, c := range []struct {
		enc   string
		shape []int
		want  string
	}{
		{"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>", []int{64}, "has rank 1, but the layout"},
		{"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>", []int{64, 48}, "must be a power of two"},
		{"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>", []int{64, 32}, "smaller than the 128-byte swizzle"},
		{"#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 16>", []int{4, 4}, "do not broadcast"},
	} {
		enc, _, err := Parse(c.enc, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = enc.(Layout).ToLinear(c.shape)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s.ToLinear(%v) = %v, want %q", c.enc, c.shape, err, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
		"#ttg.slice<{dim = 1, parent = #blocked}>",
		"#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>",
		"#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>",
		"#ttg.shared_linear<{offset = [[0, 1], [1, 1]]}, alignment = 16>",
		"#ttg.linear<{register = [[0, 1]], lane = [[0, 2], [1, 0]], warp = [[2, 0]], block = []}>",
		"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16, CGALayout = [[0, 1]]}>",
		"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>",
		"#ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>",
		"#ttg.shared_memory",
	} {
		f.Add(s)
	}
	blocked := &Blocked{SizePerThread: []int{1, 1}, ThreadsPerWarp: []int{4, 8}, WarpsPerCTA: []int{4, 1}, Order: []int{1, 0}}
	resolve := func(a string) (Encoding, bool) { return blocked, a == "blocked" }
	f.Fuzz(func(t *testing.T, s string) {
		enc, n, err := Parse(s, resolve)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Offset < 0 || e.Offset > len(s) {
				t.Fatalf("Parse(%q): bad error %v", s, err)
			}
			return
		}
		if n <= 0 || n > len(s) {
			t.Fatalf("Parse(%q) used %d bytes", s, n)
		}
		// What parses prints to text that parses to the same attribute.
		out := enc.Format(nil)
		enc2, n2, err := Parse(out, nil)
		if err != nil || n2 != len(out) || enc2.Format(nil) != out {
			t.Fatalf("Parse(%q) printed %q, which re-parses to %v, %d, %v", s, out, enc2, n2, err)
		}
		if l, ok := enc.(Layout); ok && l.Rank() > 0 && l.Rank() <= 4 {
			shape := make([]int, l.Rank())
			for i := range shape {
				shape[i] = 16
			}
			_, _ = l.ToLinear(shape) // must not panic
		}
	})
}

// An amd_mfma without version is version 0, as Triton's parser leaves it
// (TritonGPU/optimize_epilogue.mlir writes one).
func TestMfmaWithoutVersion(t *testing.T) {
	e, _, err := Parse("#ttg.amd_mfma<{warpsPerCTA=[1,1], instrShape=[32,32], isTranspose=false}>", nil)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := e.(*AMDMfma); !ok || m.Version != 0 {
		t.Fatalf("got %#v, want an amd_mfma of version 0", e)
	}
}
