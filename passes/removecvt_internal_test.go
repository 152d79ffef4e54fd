package passes

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/ir"
	"pgregory.net/rapid"
)

func lin(reg, lane, warp [][]int) *attr.LinearEncoding {
	return &attr.LinearEncoding{Register: reg, Lane: lane, Warp: warp, Block: [][]int{}}
}

func TestLayoutConversionCost(t *testing.T) {
	r := &rewriter{}
	base := lin([][]int{{1}, {2}}, [][]int{{4}, {8}, {16}, {32}, {64}}, [][]int{{128}, {256}})
	const n = 512 * 4 // elements x bytes
	tests := []struct {
		name string
		dst  attr.Encoding
		want int
	}{
		{"same", base, 0},
		{"same layout, other spelling", &attr.Blocked{SizePerThread: []int{4}, ThreadsPerWarp: []int{32}, WarpsPerCTA: []int{4}, Order: []int{0}}, 0},
		{"registers only", lin([][]int{{2}, {1}}, [][]int{{4}, {8}, {16}, {32}, {64}}, [][]int{{128}, {256}}), n},
		{"within a warp", lin([][]int{{64}, {2}}, [][]int{{4}, {8}, {16}, {32}, {1}}, [][]int{{128}, {256}}), 4 * n},
		{"across warps", lin([][]int{{1}, {2}}, [][]int{{4}, {8}, {16}, {32}, {64}}, [][]int{{256}, {128}}), 8*n + 256},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := r.layoutConversionCost(base, tc.dst, []int{512}, 4); got != tc.want {
				t.Errorf("cost = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestOpCost(t *testing.T) {
	const src = `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%a: tensor<256xf32, #blocked>, %s: f32) {
    %c = arith.constant dense<1.000000e+00> : tensor<256xf32, #blocked>
    %0 = tt.splat %s : f32 -> tensor<256xf32, #blocked>
    %1 = arith.addf %a, %0 : tensor<256xf32, #blocked>
    %2 = math.exp %1 : tensor<256xf32, #blocked>
    %3 = arith.divf %2, %c : tensor<256xf32, #blocked>
    %4 = "tt.reduce"(%3) <{axis = 0 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %m = arith.addf %x, %y : f32
      tt.reduce.return %m : f32
    }) : (tensor<256xf32, #blocked>) -> f32
    tt.return
  }
}`
	m := ir.MustParse(src)
	fn := m.Body().First()
	r := newRewriter(m, fn)
	want := map[string]int{
		"arith.constant": 0,
		"tt.splat":       0,
		"arith.addf":     256 * 4,
		"math.exp":       8 * 256 * 4,
		"arith.divf":     8 * 256 * 4,
	}
	got := map[string]int{}
	for _, op := range r.ops() {
		if _, ok := want[op.Name()]; ok && op.ParentOp() == fn {
			got[op.Name()] = r.opCost(op)
		}
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("opCost(%s) = %d, want %d", k, got[k], w)
		}
	}
}

func TestWeight(t *testing.T) {
	for d, w := range map[int]float64{-1: 0.125, 0: 1, 1: 8, 2: 64} {
		if got := weight(d); got != w {
			t.Errorf("weight(%d) = %v, want %v", d, got, w)
		}
	}
}

// genBlocked draws a one-CTA #ttg.blocked of the given rank for 4 warps of
// 32 lanes.
func genBlocked(t *rapid.T, rank int) *attr.Blocked {
	pow := func(label string, maxLog int) int { return 1 << rapid.IntRange(0, maxLog).Draw(t, label) }
	split := func(label string, total int) []int {
		v := make([]int, rank)
		for i := range v {
			v[i] = 1
		}
		for total > 1 {
			v[rapid.IntRange(0, rank-1).Draw(t, label)] *= 2
			total /= 2
		}
		return v
	}
	spt := make([]int, rank)
	for i := range spt {
		spt[i] = pow("spt", 2)
	}
	order := rapid.Permutation(seq(rank)).Draw(t, "order")
	return &attr.Blocked{SizePerThread: spt, ThreadsPerWarp: split("tpw", 32), WarpsPerCTA: split("wpc", 4), Order: order}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func genShape(t *rapid.T, rank int) []int {
	s := make([]int, rank)
	for i := range s {
		s[i] = 1 << rapid.IntRange(0, 7).Draw(t, "shape")
	}
	return s
}

// TestTransposeEncMatchesLinear: the encoding attr.Transpose gives tt.trans's
// result (the one its layout rule propagates) is the operand's linear
// layout with its output dims permuted.
func TestTransposeEncMatchesLinear(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rank := rapid.IntRange(2, 3).Draw(t, "rank")
		b := genBlocked(t, rank)
		shape := genShape(t, rank)
		order := rapid.Permutation(seq(rank)).Draw(t, "perm")
		dstShape := permute(shape, order)
		got := attr.Transpose(b, order, shape)
		if got == nil {
			t.Fatalf("no transposed encoding for %s", encKey(b))
		}
		src, err := attr.Linear(b, shape)
		if err != nil {
			t.Fatal(err)
		}
		dst, err := attr.Linear(got, dstShape)
		if err != nil {
			t.Fatalf("%s on %v: %v", encKey(got), dstShape, err)
		}
		for _, in := range src.InDimNames() {
			sb, db := src.Bases(in), dst.Bases(in)
			if len(sb) != len(db) {
				t.Fatalf("%s: %d bases, transposed %d", in, len(sb), len(db))
			}
			for k := range sb {
				if !slices.Equal(permute(sb[k], order), db[k]) {
					t.Fatalf("%s basis %d: %v transposed by %v is %v, got %v", in, k, sb[k], order, permute(sb[k], order), db[k])
				}
			}
		}
	})
}

// TestBlockedForFindsBlocked: the #ttg.linear form of any blocked layout of
// rank 1 or 2 is recognised as some blocked layout with the same function.
func TestBlockedForFindsBlocked(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rank := rapid.IntRange(1, 2).Draw(t, "rank")
		b := genBlocked(t, rank)
		shape := genShape(t, rank)
		c := &canonicalizer{}
		ll, err := attr.Linear(b, shape)
		if err != nil {
			t.Fatal(err)
		}
		le, err := attr.FromLinear(ll)
		if err != nil {
			t.Fatal(err)
		}
		found := c.blockedFor(le.(*attr.LinearEncoding), shape)
		if found == nil {
			t.Fatalf("no blocked layout found for %s (from %s) on %v", encKey(le), encKey(b), shape)
		}
		if !attr.SameLayout(found, b, shape) {
			t.Fatalf("%s is not %s on %v", encKey(found), encKey(b), shape)
		}
	})
}

func TestSplits(t *testing.T) {
	tests := []struct {
		rank, total int
		limit       []int
		want        string
	}{
		{1, 4, nil, "[[4]]"},
		{2, 4, nil, "[[1 4] [2 2] [4 1]]"},
		{2, 0, []int{2, 1}, "[[1 1] [2 1]]"},
	}
	for _, tc := range tests {
		if got := fmt.Sprint(splits(tc.rank, tc.total, tc.limit)); got != tc.want {
			t.Errorf("splits(%d, %d, %v) = %s, want %s", tc.rank, tc.total, tc.limit, got, tc.want)
		}
	}
}

func TestRestoreBody(t *testing.T) {
	const src = `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%p: tensor<256x!tt.ptr<f32>, #blocked>, %a: tensor<256xf32, #blocked>) {
    %0 = arith.addf %a, %a : tensor<256xf32, #blocked>
    %1 = scf.if %c -> (tensor<256xf32, #blocked>) {
      scf.yield %0 : tensor<256xf32, #blocked>
    } else {
      scf.yield %a : tensor<256xf32, #blocked>
    }
    tt.store %p, %1 : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}`
	m, diags := ir.ParseString(strings.Replace(src, "%a: tensor<256xf32, #blocked>)", "%a: tensor<256xf32, #blocked>, %c: i1)", 1), ir.ParseConfig{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := m.String()
	fn := m.Body().First()
	backup := fn.Clone()
	// Damage the body, then restore it.
	body := entryBlock(fn)
	add := body.First()
	add.Result(0).ReplaceAllUsesWith(body.Arg(1))
	if err := add.Erase(); err != nil {
		t.Fatal(err)
	}
	restoreBody(body, entryBlock(backup))
	if got := m.String(); got != want {
		t.Fatalf("restored:\n%s\nwant:\n%s", got, want)
	}
	if d := ir.Verify(m); d.HasErrors() {
		t.Fatal(d)
	}
	for _, a := range body.Args() {
		for _, u := range a.Uses() {
			if u.Op.Block() == nil {
				t.Fatalf("argument used by a detached %s", u.Op.Name())
			}
		}
	}
}

// permute returns v reordered: element i is v[order[i]].
func permute(v []int, order []int) []int {
	out := make([]int, len(order))
	for i, o := range order {
		out[i] = v[o]
	}
	return out
}

func TestReduceCost(t *testing.T) {
	// Triton's price of a reduction: the lanes plus 8 times the warps
	// holding distinct elements along the axis; broadcast bases count
	// for nothing.
	tests := []struct {
		name, layout, shape, combiner string
		axis                          int
		cost                          int
		nonAssociative                bool
	}{
		{"rows in lanes, along columns", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>", "128x64", "arith.addf", 1, 1 + 8*1, true},
		{"rows in lanes, along rows", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>", "128x64", "arith.maxnumf", 0, 32 + 8*4, false},
		{"split lanes and warps", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]}>", "32x64", "arith.mulf", 1, 4 + 8*4, true},
		{"broadcast lanes and warps", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>", "16x64", "arith.addf", 0, 16 + 8*1, true},
		{"two elements", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [0, 1]}>", "64x2", "arith.addf", 1, 2 + 8*1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := fmt.Sprintf(`#l = %s
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%%a: tensor<%sxf32, #l>) {
    %%0 = "tt.reduce"(%%a) <{axis = %d : i32}> ({
    ^bb0(%%x: f32, %%y: f32):
      %%m = %s %%x, %%y : f32
      tt.reduce.return %%m : f32
    }) : (tensor<%sxf32, #l>) -> tensor<%sxf32, #ttg.slice<{dim = %d, parent = #l}>>
    tt.return
  }
}`, tc.layout, tc.shape, tc.axis, tc.combiner, tc.shape, strings.Split(tc.shape, "x")[1-tc.axis], tc.axis)
			m := ir.MustParse(src)
			fn := m.Body().First()
			r := newRewriter(m, fn)
			red := entryBlock(fn).First()
			if got := r.opCost(red); got != tc.cost {
				t.Errorf("opCost = %d, want %d", got, tc.cost)
			}
			if got := nonAssociative(red); got != tc.nonAssociative {
				t.Errorf("nonAssociative = %v, want %v", got, tc.nonAssociative)
			}
		})
	}
}
