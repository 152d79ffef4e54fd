package linear

import (
	"github.com/layoutopt/layoutopt/internal/testenv"
	"math/rand/v2"
	"testing"
)

// Benchmarks: go test -run '^$' -bench . -benchmem ./linear
//
// Each fast operation has a brute-force counterpart (suffix BruteForce) that
// computes the same thing the naive way, from plain [][]int bases.

// benchLayout is a 16-bit distributed layout: 4 in-dims (register 4 bits,
// lane 5, warp 4, block 3) onto 2 out-dims of 256, a bijection.
func benchLayout(b testing.TB, seed uint64) Layout {
	r := rand.New(rand.NewPCG(seed, 1))
	cols := make([]uint64, 16)
	for i := range cols {
		cols[i] = 1 << uint(i)
	}
	r.Shuffle(len(cols), func(i, j int) { cols[i], cols[j] = cols[j], cols[i] })
	for k := 0; k < 40; k++ { // column operations keep it a bijection
		i, j := r.IntN(16), r.IntN(16)
		if i != j {
			cols[i] ^= cols[j]
		}
	}
	sizes := []struct {
		name string
		bits int
	}{{"register", 4}, {"lane", 5}, {"warp", 4}, {"block", 3}}
	var ins []InDim
	c := 0
	for _, s := range sizes {
		d := InDim{Name: s.name}
		for k := 0; k < s.bits; k++ {
			d.Bases = append(d.Bases, []int{int(cols[c] & 255), int(cols[c] >> 8)})
			c++
		}
		ins = append(ins, d)
	}
	l, err := New(ins, []OutDim{{"dim0", 256}, {"dim1", 256}}, true)
	if err != nil {
		b.Fatal(err)
	}
	return l
}

var sinkInts []int
var sinkInt int
var sinkLayout Layout

func BenchmarkApply(b *testing.B) {
	l := benchLayout(b, 1)
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for i := 0; b.Loop(); i++ {
		out := l.Apply(i&15, i&31, i>>5&15, i>>9&7)
		sinkInt += out[0] + out[1]
	}
}

func BenchmarkApplyInto(b *testing.B) {
	l := benchLayout(b, 1)
	out := make([]int, 2)
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for i := 0; b.Loop(); i++ {
		l.ApplyInto(out, i&15, i&31, i>>5&15, i>>9&7)
	}
	sinkInts = out
}

func BenchmarkApplyBruteForce(b *testing.B) {
	r := toRef(benchLayout(b, 1))
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for i := 0; b.Loop(); i++ {
		sinkInts = r.eval([]int{i & 15, i & 31, i >> 5 & 15, i >> 9 & 7})
	}
}

// composeOuter is a 16-bit layout from (dim0, dim1) to (x, y).
func composeOuter(b testing.TB) Layout {
	l := benchLayout(b, 2)
	l, err := l.ReshapeIns([]Dim{{"dim1", 256}, {"dim0", 256}})
	if err != nil {
		b.Fatal(err)
	}
	l, err = l.ReshapeOuts([]Dim{{"x", 256}, {"y", 256}})
	if err != nil {
		b.Fatal(err)
	}
	return l
}

func BenchmarkCompose(b *testing.B) {
	inner, outer := benchLayout(b, 1), composeOuter(b)
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for b.Loop() {
		c, err := inner.Compose(outer)
		if err != nil {
			b.Fatal(err)
		}
		sinkLayout = c
	}
}

// BenchmarkComposeBruteForce composes as Triton's code does, applying outer
// to every basis of inner by name, on plain bases, then builds the layout.
func BenchmarkComposeBruteForce(b *testing.B) {
	inner, outer := toRef(benchLayout(b, 1)), toRef(composeOuter(b))
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for b.Loop() {
		var ins []InDim
		for _, d := range inner.ins {
			nd := InDim{Name: d.Name}
			for _, basis := range d.Bases {
				x := make([]int, len(outer.ins))
				for i, od := range outer.ins {
					for j, o := range inner.outs {
						if o.Name == od.Name {
							x[i] = basis[j]
						}
					}
				}
				nd.Bases = append(nd.Bases, outer.eval(x))
			}
			ins = append(ins, nd)
		}
		l, err := New(ins, outer.outs, false)
		if err != nil {
			b.Fatal(err)
		}
		sinkLayout = l
	}
}

func BenchmarkInvertAndCompose(b *testing.B) {
	this, outer := benchLayout(b, 1), benchLayout(b, 3)
	outer, _ = outer.ReshapeIns([]Dim{{"offset", 1 << 13}, {"block", 8}})
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for b.Loop() {
		c, err := this.InvertAndCompose(outer)
		if err != nil {
			b.Fatal(err)
		}
		sinkLayout = c
	}
}

// BenchmarkInvertAndComposeBruteForce finds, for every basis of this, the
// smallest input of outer that maps to it, by enumerating outer's 2^16
// inputs once into a lookup table.
func BenchmarkInvertAndComposeBruteForce(b *testing.B) {
	this, outer := benchLayout(b, 1), benchLayout(b, 3)
	outer, _ = outer.ReshapeIns([]Dim{{"offset", 1 << 13}, {"block", 8}})
	rt, ro := toRef(this), toRef(outer)
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for b.Loop() {
		pre := make(map[int]int, 1<<16)
		for flat := (1 << 16) - 1; flat >= 0; flat-- {
			pre[ro.join(ro.eval(ro.split(flat)))] = flat
		}
		var ins []InDim
		for _, d := range rt.ins {
			nd := InDim{Name: d.Name}
			for _, basis := range d.Bases {
				x := pre[rt.join(basis)]
				nd.Bases = append(nd.Bases, []int{x & (1<<13 - 1), x >> 13})
			}
			ins = append(ins, nd)
		}
		l, err := New(ins, []OutDim{{"offset", 1 << 13}, {"block", 8}}, false)
		if err != nil {
			b.Fatal(err)
		}
		sinkLayout = l
	}
}

// matrix20 returns 20 random 20-bit columns of rank 19 (one dependent column).
func matrix20() []uint64 {
	r := rand.New(rand.NewPCG(7, 7))
	cols := make([]uint64, 20)
	for {
		for i := range cols {
			cols[i] = r.Uint64() & (1<<20 - 1)
		}
		cols[19] = cols[3] ^ cols[11]
		if RankOfColumns(cols) == 19 {
			return cols
		}
	}
}

func BenchmarkRank20x20(b *testing.B) {
	cols := matrix20()
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for b.Loop() {
		sinkInt += RankOfColumns(cols)
	}
}

func BenchmarkRREF20x20(b *testing.B) {
	cols := matrix20()
	rows := make([]uint64, 20)
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for b.Loop() {
		for r := range rows {
			rows[r] = 0
			for c, v := range cols {
				rows[r] |= (v >> uint(r) & 1) << uint(c)
			}
		}
		sinkInt += RREF(rows, 20)
	}
}

// BenchmarkIsInjective20x20 builds a 20-bit layout (which computes its rank)
// and asks whether it is injective.
func BenchmarkIsInjective20x20(b *testing.B) {
	cols := matrix20()
	bases := make([][]int, 20)
	for i, v := range cols {
		bases[i] = []int{int(v)}
	}
	ins := []InDim{{"in", bases}}
	outs := []OutDim{{"out", 1 << 20}}
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for b.Loop() {
		l, err := New(ins, outs, false)
		if err != nil {
			b.Fatal(err)
		}
		if l.IsInjective() {
			b.Fatal("injective")
		}
	}
}

// BenchmarkIsInjectiveBruteForce counts the image of the 20-bit layout over
// all 2^20 inputs.
func BenchmarkIsInjectiveBruteForce(b *testing.B) {
	cols := matrix20()
	seen := make([]bool, 1<<20)
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for b.Loop() {
		clear(seen)
		n := 0
		// Gray-code walk: one XOR per input.
		v := uint64(0)
		for i := 0; i < 1<<20; i++ {
			if i > 0 {
				v ^= cols[trailingZeros(i)]
			}
			if !seen[v] {
				seen[v] = true
				n++
			}
		}
		if n == 1<<20 {
			b.Fatal("injective")
		}
	}
}

func trailingZeros(i int) int {
	n := 0
	for i&1 == 0 {
		i >>= 1
		n++
	}
	return n
}
