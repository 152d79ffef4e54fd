package axisinfo_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/axisinfo"
	_ "github.com/layoutopt/layoutopt/dialect"
	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/ir"
)

const kernel = `
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %s: i32 {tt.divisibility = 16 : i32}, %q: !tt.ptr<f16>, %c: i1) {
    %c64 = arith.constant 64 : i32
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c64 : i32
    %r0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %r1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>>
    %rows = tt.expand_dims %r0 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<64x1xi32, #b>
    %ss = tt.splat %s : i32 -> tensor<64x1xi32, #b>
    %ro = arith.muli %rows, %ss : tensor<64x1xi32, #b>
    %cols = tt.expand_dims %r1 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x64xi32, #b>
    %bs = tt.splat %base : i32 -> tensor<1x64xi32, #b>
    %co = arith.addi %cols, %bs : tensor<1x64xi32, #b>
    %rb = tt.broadcast %ro : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
    %cb = tt.broadcast %co : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #b>
    %ptr = tt.addptr %ps, %off : tensor<64x64x!tt.ptr<f32>, #b>, tensor<64x64xi32, #b>
    %qs = tt.splat %q : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #b>
    %qptr = tt.addptr %qs, %off : tensor<64x64x!tt.ptr<f16>, #b>, tensor<64x64xi32, #b>
    %poison = ub.poison : tensor<64x64x!tt.ptr<f32>, #b>
    %sel = scf.if %c -> (tensor<64x64x!tt.ptr<f32>, #b>) {
      scf.yield %poison : tensor<64x64x!tt.ptr<f32>, #b>
    } else {
      scf.yield %ptr : tensor<64x64x!tt.ptr<f32>, #b>
    }
    %scalar = arith.constant dense<8> : tensor<i32>
    %sp = tt.splat %scalar : tensor<i32> -> tensor<4xi32, #ttg.slice<{dim = 1, parent = #b}>>
    tt.return
  }
}
`

func analyze(t *testing.T, src string) (*axisinfo.Analysis, map[string]*ir.Value) {
	t.Helper()
	m, d := ir.ParseString(src, ir.ParseConfig{})
	if d.HasErrors() {
		t.Fatal(d)
	}
	var a *axisinfo.Analysis
	vals := map[string]*ir.Value{}
	m.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.Name() == "tt.func" {
			a = axisinfo.Analyze(op)
			for i, arg := range op.Region(0).Entry().Args() {
				vals[[]string{"p", "s", "q", "c"}[i]] = arg
			}
		}
		return ir.Advance
	})
	// The results in program order are the %names defined in the text.
	names := regexp.MustCompile(`(?m)^\s*%(\w+) = `).FindAllStringSubmatch(src, -1)
	k := 0
	m.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.NumResults() == 1 && op.Name() != "tt.func" {
			vals[names[k][1]] = op.Result(0)
			k++
		}
		return ir.Advance
	})
	return a, vals
}

func TestFacts(t *testing.T) {
	a, v := analyze(t, kernel)
	for _, c := range []struct {
		name                 string
		contig, div, constan []int64
	}{
		// Row r times a stride divisible by 16: r is a run 0, 1, 2... along
		// dim 0, which counts as divisible by 1 (Triton's MulI rule), so
		// the product is divisible by 16 along both dims (not "by
		// anything", as r's first element 0 alone would say).
		{"ro", []int64{1, 1}, []int64{16, 16}, []int64{1, 1}},
		{"base", []int64{1}, []int64{64}, []int64{1}},
		// Plus 64 consecutive columns from a multiple of 64: contiguous
		// along dim 1; along dim 0 every element is the column run's
		// first one, divisible by 1.
		{"off", []int64{1, 64}, []int64{1, 16}, []int64{1, 1}},
		// As f32 pointers from a 16-byte aligned base: runs of 64 f32
		// starting 16-byte aligned along dim 1, 4-byte aligned along dim 0.
		{"ptr", []int64{1, 64}, []int64{4, 16}, []int64{1, 1}},
		// The same offsets from a pointer with no tt.divisibility: 1 byte.
		{"qptr", []int64{1, 64}, []int64{1, 1}, []int64{1, 1}},
		// scf.if joining poison with %ptr keeps %ptr's facts.
		{"sel", []int64{1, 64}, []int64{4, 16}, []int64{1, 1}},
		// A splat of a rank-0 tensor is treated as a scalar.
		{"sp", []int64{1}, []int64{8}, []int64{4}},
	} {
		i := a.Get(v[c.name])
		if !slices.Equal(i.Contiguity, c.contig) || !slices.Equal(i.Divisibility, c.div) || !slices.Equal(i.Constancy, c.constan) {
			t.Errorf("%%%s: contiguity %v divisibility %v constancy %v, want %v %v %v",
				c.name, i.Contiguity, i.Divisibility, i.Constancy, c.contig, c.div, c.constan)
		}
	}
}

// The induction variable of an scf.for from 0 by 128 is divisible by 128
// (gcd of bound and step), so loads at iv + [0, 128) are 16-byte aligned;
// an op's own tt.divisibility / tt.contiguity hints replace its facts; a
// select by a condition constant over pairs keeps runs of 2.
func TestLoopAndHints(t *testing.T) {
	const src = `
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %q: i32) {
    %c0 = arith.constant 0 : i32
    %c128 = arith.constant 128 : i32
    scf.for %iv = %c0 to %n step %c128  : i32 {
      %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
      %s = tt.splat %iv : i32 -> tensor<128xi32, #b>
      %o = arith.addi %s, %r : tensor<128xi32, #b>
      %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
      %a = tt.addptr %ps, %o : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    }
    %h = arith.addi %q, %c0 {tt.divisibility = dense<64> : tensor<1xi32>} : i32
    %rr = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %c2 = arith.constant dense<2> : tensor<128xi32, #b>
    %c16 = arith.constant dense<16> : tensor<128xi32, #b>
    %half = arith.divsi %rr, %c2 : tensor<128xi32, #b>
    %ns = tt.splat %n : i32 -> tensor<128xi32, #b>
    %cond = arith.cmpi slt, %half, %ns : tensor<128xi32, #b>
    %up = arith.addi %rr, %c16 : tensor<128xi32, #b>
    %sel = arith.select %cond, %rr, %up : tensor<128xi1, #b>, tensor<128xi32, #b>
    %c4 = arith.constant dense<4> : tensor<128xi32, #b>
    %shl = arith.shli %rr, %c4 : tensor<128xi32, #b>
    %shr = arith.shrsi %rr, %c4 : tensor<128xi32, #b>
    %c8 = arith.constant dense<8> : tensor<128xi32, #b>
    %mx = arith.maxsi %rr, %c8 : tensor<128xi32, #b>
    %mn = arith.minsi %rr, %up : tensor<128xi32, #b>
    %pairs = arith.muli %half, %c8 : tensor<128xi32, #b>
    %sum = arith.addi %rr, %pairs : tensor<128xi32, #b>
    tt.return
  }
}
`
	a, v := analyze(t, src)
	for _, c := range []struct {
		name        string
		contig, div []int64
	}{
		{"o", []int64{128}, []int64{128}},
		{"a", []int64{128}, []int64{16}},
		{"h", []int64{1}, []int64{64}},
		// Runs of 2 picked from [0, 128) or [16, 144): divisible by 2, not
		// by 16 (Triton's select rule when the runs get shorter).
		{"sel", []int64{2}, []int64{2}},
		// [0, 128) << 4 is divisible by 16 (not by "anything", as its
		// first element alone); >> 4 by 1.
		{"shl", []int64{1}, []int64{16}},
		{"shr", []int64{1}, []int64{1}},
		// max([0, 128), 8) = 8, ..., 8, 9, 10, ...: nothing beyond 1 (Triton
		// would say 8); min of two runs of 128 keeps the smaller start's 16.
		{"mx", []int64{1}, []int64{1}},
		{"mn", []int64{128}, []int64{16}},
		// [0, 128) + [0, 0, 8, 8, 16, 16, ...]: pairs 0 1, 10 11, 20 21, ...
		// start at multiples of 2, not of 8.
		{"sum", []int64{2}, []int64{2}},
	} {
		i := a.Get(v[c.name])
		if !slices.Equal(i.Contiguity, c.contig) || !slices.Equal(i.Divisibility, c.div) {
			t.Errorf("%%%s: contiguity %v divisibility %v, want %v %v", c.name, i.Contiguity, i.Divisibility, c.contig, c.div)
		}
	}
}

// The analysis runs without failing on every function of Triton's lit
// tests and the TTGIR corpus, and every fact has the value's rank.
func TestCorpus(t *testing.T) {
	root := testenv.Shared(t, "triton36")
	n := 0
	err := filepath.Walk(root, func(path string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() || !(strings.HasSuffix(path, ".mlir") || strings.HasSuffix(path, ".ttgir")) {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, chunk := range strings.Split(string(src), "\n// -----") {
			m, d := ir.ParseString(chunk, ir.ParseConfig{AllowUnregistered: true})
			if d.HasErrors() {
				continue
			}
			m.Walk(func(fn *ir.Operation) ir.WalkResult {
				if fn.Name() != "tt.func" || fn.NumRegions() == 0 || fn.Region(0).Entry() == nil {
					return ir.Advance
				}
				a := axisinfo.Analyze(fn)
				n++
				fn.Walk(func(op *ir.Operation) ir.WalkResult {
					for _, r := range op.Results() {
						i := a.Get(r)
						want := 1
						if s, ok := ir.ShapeOf(r.Type()); ok && len(s) > 0 {
							want = len(s)
						}
						if len(i.Contiguity) != want || len(i.Divisibility) != want || len(i.Constancy) != want {
							t.Errorf("%s: %s: facts of rank %d for a value of rank %d", path, op.Name(), len(i.Contiguity), want)
						}
					}
					return ir.Advance
				})
				return ir.Skip
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d functions analysed", n)
}
