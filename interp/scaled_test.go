package interp_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// offsets2D defines %<name>_off, the row-major offsets of a rows×cols
// tensor.
func offsets2D(name string, rows, cols int) string {
	r, c := fmt.Sprintf("tensor<%dxi32>", rows), fmt.Sprintf("tensor<%dxi32>", cols)
	rc := fmt.Sprintf("tensor<%dx%dxi32>", rows, cols)
	return fmt.Sprintf(`    %%%[1]s_r = tt.make_range {end = %[2]d : i32, start = 0 : i32} : %[4]s
    %%%[1]s_re = tt.expand_dims %%%[1]s_r {axis = 1 : i32} : %[4]s -> tensor<%[2]dx1xi32>
    %%%[1]s_n = arith.constant dense<%[3]d> : tensor<%[2]dx1xi32>
    %%%[1]s_rm = arith.muli %%%[1]s_re, %%%[1]s_n : tensor<%[2]dx1xi32>
    %%%[1]s_c = tt.make_range {end = %[3]d : i32, start = 0 : i32} : %[5]s
    %%%[1]s_ce = tt.expand_dims %%%[1]s_c {axis = 0 : i32} : %[5]s -> tensor<1x%[3]dxi32>
    %%%[1]s_rb = tt.broadcast %%%[1]s_rm : tensor<%[2]dx1xi32> -> %[6]s
    %%%[1]s_cb = tt.broadcast %%%[1]s_ce : tensor<1x%[3]dxi32> -> %[6]s
    %%%[1]s_off = arith.addi %%%[1]s_rb, %%%[1]s_cb : %[6]s
`, name, rows, cols, r, c, rc)
}

// pointers2D defines %<name>_pp: pointer %p plus the offsets of a
// rows×cols tensor of element type ty.
func pointers2D(name, p, ty string, rows, cols int) string {
	pt := fmt.Sprintf("tensor<%dx%dx!tt.ptr<%s>>", rows, cols, ty)
	return offsets2D(name, rows, cols) + fmt.Sprintf(`    %%%[1]s_ps = tt.splat %%%[2]s : !tt.ptr<%[3]s> -> %[4]s
    %%%[1]s_pp = tt.addptr %%%[1]s_ps, %%%[1]s_off : %[4]s, tensor<%[5]dx%[6]dxi32>
`, name, p, ty, pt, rows, cols)
}

// load2D loads the row-major rows×cols tensor of ty at %p into %name.
func load2D(name, p, ty string, rows, cols int) string {
	return pointers2D(name, p, ty, rows, cols) +
		fmt.Sprintf("    %%%s = tt.load %%%s_pp : tensor<%dx%dx!tt.ptr<%s>>\n", name, name, rows, cols, ty)
}

// store2D stores %name, a rows×cols tensor of ty, row-major at %p.
func store2D(name, p, ty string, rows, cols int) string {
	return pointers2D(name+"_st", p, ty, rows, cols) +
		fmt.Sprintf("    tt.store %%%s_st_pp, %%%s : tensor<%dx%dx!tt.ptr<%s>>\n", name, name, rows, cols, ty)
}

// fillBuffer makes a buffer of element type ty holding vals (integers
// truncated to ty, floats rounded to it).
func fillBuffer(t *testing.T, ty string, vals []float64) *interp.Buffer {
	t.Helper()
	b, err := interp.NewBuffer(mustType(t, ty), len(vals))
	if err != nil {
		t.Fatal(err)
	}
	isInt := strings.HasPrefix(ty, "i")
	for i, v := range vals {
		if isInt {
			b.SetInt(i, int64(v))
		} else {
			b.SetFloat(i, v)
		}
	}
	return b
}

// sameFloat: equal values, equal signs of zero, or both NaN.
func sameFloat(got, want float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return got == want && math.Signbit(got) == math.Signbit(want)
}

func checkBuffer(t *testing.T, what string, out *interp.Buffer, want []float64) {
	t.Helper()
	for i, w := range want {
		if g := out.Float(i); !sameFloat(g, w) {
			t.Errorf("%s: element %d = %v, want %v", what, i, g, w)
		}
	}
}

// fp4Kernel unpacks a rows×cols i8 tensor along axis into ty and stores
// the result.
func fp4Kernel(rows, cols, axis int, ty string) string {
	or, oc := rows, cols
	if axis == 0 {
		or *= 2
	} else {
		oc *= 2
	}
	return fmt.Sprintf(`module {
  tt.func public @k(%%in: !tt.ptr<i8>, %%out: !tt.ptr<%[1]s>) {
%[2]s    %%r = ttg.fp4_to_fp %%x {axis = %[3]d : i32} : tensor<%[4]dx%[5]dxi8> -> tensor<%[6]dx%[7]dx%[1]s>
%[8]s    tt.return
  }
}`, ty, load2D("x", "in", "i8", rows, cols), axis, rows, cols, or, oc, store2D("r", "out", ty, or, oc))
}

// TestFp4ToFp: ttg.fp4_to_fp unpacks the low nibble first, along either
// axis, with e2m1's values (-0 kept).
func TestFp4ToFp(t *testing.T) {
	// 0x21: 0.5, 1; 0x87: 6, -0; 0x9F: -6, -0.5; 0x4C: -2, 2 (low, high).
	in := []float64{0x21, 0x87 - 256, 0x9F - 256, 0x4C}
	negZero := math.Copysign(0, -1)
	for _, c := range []struct {
		axis int
		ty   string
		want []float64
	}{
		{1, "f16", []float64{0.5, 1, 6, negZero, -6, -0.5, -2, 2}},
		{0, "f16", []float64{0.5, 6, 1, negZero, -6, -2, -0.5, 2}},
		{0, "bf16", []float64{0.5, 6, 1, negZero, -6, -2, -0.5, 2}},
	} {
		src := fp4Kernel(2, 2, c.axis, c.ty)
		m := parseText(t, src)
		if d := ir.Verify(m); d.HasErrors() {
			t.Fatalf("%v\n%s", d, src)
		}
		x := fillBuffer(t, "i8", in)
		out := fillBuffer(t, c.ty, make([]float64, 8))
		if err := interp.Run(m, "k", []interp.Arg{interp.BufArg(x), interp.BufArg(out)}, [3]int{1, 1, 1}); err != nil {
			t.Fatal(err)
		}
		checkBuffer(t, fmt.Sprintf("axis %d to %s", c.axis, c.ty), out, c.want)
	}
}

// dsOperand is an operand of a tt.dot_scaled test kernel: its stored
// element type, shape and values, and optionally its scale.
type dsOperand struct {
	ty         string
	rows, cols int
	vals       []float64
	scaleTy    string // "" when the operand has no scale
	scaleRows  int
	scaleCols  int
	scale      []float64
}

// dsCase is a tt.dot_scaled kernel: D = dot_scaled(A, B) + C, C and D
// M×N f32.
type dsCase struct {
	name     string
	a, b     dsOperand
	lhs, rhs string
	attrs    string // the attribute dictionary
	m, n     int
	c        []float64 // nil: zeros
}

func (c dsCase) kernel() string {
	var params, body strings.Builder
	operand := func(x dsOperand, name string) (string, string) {
		fmt.Fprintf(&params, "%%p%s: !tt.ptr<%s>, ", name, x.ty)
		body.WriteString(load2D(name, "p"+name, x.ty, x.rows, x.cols))
		use := "%" + name
		ty := fmt.Sprintf("tensor<%dx%dx%s>", x.rows, x.cols, x.ty)
		if x.scaleTy != "" {
			fmt.Fprintf(&params, "%%p%ss: !tt.ptr<%s>, ", name, x.scaleTy)
			body.WriteString(load2D(name+"s", "p"+name+"s", x.scaleTy, x.scaleRows, x.scaleCols))
			use += " scale %" + name + "s"
			ty += fmt.Sprintf(", tensor<%dx%dx%s>", x.scaleRows, x.scaleCols, x.scaleTy)
		}
		return use, ty
	}
	au, at := operand(c.a, "a")
	bu, bt := operand(c.b, "b")
	body.WriteString(load2D("c", "pc", "f32", c.m, c.n))
	fmt.Fprintf(&body, "    %%d = tt.dot_scaled %s, %s, %%c lhs = %s rhs = %s %s : %s * %s -> tensor<%dx%dxf32>\n",
		au, bu, c.lhs, c.rhs, c.attrs, at, bt, c.m, c.n)
	body.WriteString(store2D("d", "pd", "f32", c.m, c.n))
	return fmt.Sprintf("module {\n  tt.func public @k(%s%%pc: !tt.ptr<f32>, %%pd: !tt.ptr<f32>) {\n%s    tt.return\n  }\n}", params.String(), body.String())
}

// run parses the kernel (and verifies it when verify is set) and runs it;
// it returns D.
func (c dsCase) run(t *testing.T, verify bool) (*interp.Buffer, error) {
	t.Helper()
	src := c.kernel()
	m := parseText(t, src)
	if d := ir.Verify(m); verify && d.HasErrors() {
		t.Fatalf("%s: %v\n%s", c.name, d, src)
	}
	var args []interp.Arg
	for _, x := range []dsOperand{c.a, c.b} {
		args = append(args, interp.BufArg(fillBuffer(t, x.ty, x.vals)))
		if x.scaleTy != "" {
			args = append(args, interp.BufArg(fillBuffer(t, x.scaleTy, x.scale)))
		}
	}
	cv := c.c
	if cv == nil {
		cv = make([]float64, c.m*c.n)
	}
	d := fillBuffer(t, "f32", make([]float64, c.m*c.n))
	args = append(args, interp.BufArg(fillBuffer(t, "f32", cv)), interp.BufArg(d))
	return d, interp.Run(m, "k", args, [3]int{1, 1, 1})
}

// fill makes n values, v(i) for i = 0 .. n-1.
func fill(n int, v func(i int) float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v(i)
	}
	return out
}

// grid makes a rows×cols grid of values v(row, col).
func grid(rows, cols int, v func(r, c int) float64) []float64 {
	return fill(rows*cols, func(i int) float64 { return v(i/cols, i%cols) })
}

// pick is x when b holds, else y.
func pick(b bool, x, y float64) float64 {
	if b {
		return x
	}
	return y
}

// TestDotScaled: tt.dot_scaled as Triton 3.6's DecomposeScaledBlocked
// computes it, on 2×2 results with hand-computed values.
func TestDotScaled(t *testing.T) {
	const M, N, K = 2, 2, 32
	// e2m1 × e2m1, group 16. Unpacked, A's row 0 is 0 at even k and 1 at
	// odd k, row 1 -1 and 2; B's column 0 is 0.5 and 6, column 1 1.5 and
	// 0. A's scales (rows: m, columns: k/16) are 1, 2 and 0.5, 1; B's
	// (rows: n) are 1, 4 and 2, 1. Scaled, per group of 16 (8 even, 8 odd
	// k):
	//   A row 0: (0, 1), (0, 2); row 1: (-0.5, 1), (-1, 2)
	//   B col 0: (0.5, 6), (2, 24); col 1: (3, 0), (1.5, 0)
	// D[0][0] = 8·6 + 8·48 = 432, D[0][1] = 0,
	// D[1][0] = 8·(-0.25) + 8·6 + 8·(-2) + 8·48 = 414,
	// D[1][1] = 8·(-1.5) + 8·(-1.5) + C = -24 + 0.25.
	fp4Want := []float64{432, 0, 414, -23.75}
	aScale := []float64{127, 128, 126, 127}
	bScale := []float64{127, 129, 128, 127}
	fp4C := []float64{0, 0, 0, 0.25}
	// Packed along K: A's bytes are 0x20 (row 0: low 0, high 1) and 0x4A
	// (row 1: low -1, high 2); B's 0x71 (column 0: 0.5, 6) and 0x03
	// (column 1: 1.5, 0).
	kPacked := dsCase{name: "e2m1 k_pack",
		a: dsOperand{ty: "i8", rows: M, cols: K / 2, vals: grid(M, K/2, func(r, _ int) float64 { return pick(r == 0, 0x20, 0x4A) }),
			scaleTy: "i8", scaleRows: M, scaleCols: 2, scale: aScale},
		b: dsOperand{ty: "i8", rows: K / 2, cols: N, vals: grid(K/2, N, func(_, c int) float64 { return pick(c == 0, 0x71, 0x03) }),
			scaleTy: "i8", scaleRows: N, scaleCols: 2, scale: bScale},
		lhs: "e2m1", rhs: "e2m1", attrs: "{fastMath = false}", m: M, n: N, c: fp4C}
	// The same values packed along M (A) and N (B): A's byte at k holds
	// rows 0 (low) and 1 (high): 0xA0 at even k (0, -1), 0x42 at odd k
	// (1, 2); B's holds columns 0 and 1: 0x31 at even k (0.5, 1.5), 0x07 at
	// odd k (6, 0).
	mnPacked := kPacked
	mnPacked.name = "e2m1 lhs_k_pack = false, rhs_k_pack = false"
	mnPacked.attrs = "{fastMath = false, lhs_k_pack = false, rhs_k_pack = false}"
	mnPacked.a.rows, mnPacked.a.cols = M/2, K
	mnPacked.a.vals = grid(M/2, K, func(_, k int) float64 { return pick(k%2 == 0, 0xA0-256, 0x42) })
	mnPacked.b.rows, mnPacked.b.cols = K, N/2
	mnPacked.b.vals = grid(K, N/2, func(k, _ int) float64 { return pick(k%2 == 0, 0x31, 0x07) })
	// Only A packed along M.
	mPacked := kPacked
	mPacked.name = "e2m1 lhs_k_pack = false"
	mPacked.attrs = "{fastMath = false, lhs_k_pack = false}"
	mPacked.a = mnPacked.a

	// e4m3 × bf16, only A scaled, group 32. A's row 0 is 1.5, row 1 448 at
	// k < 16 and -0.125 after; its scales 2^3 and 2^-7 make them 12, 3.5
	// and -2^-10. B's column 0 is 1, column 1 2 at even k and -1 at odd k.
	// D[0][0] = 32·12 = 384, D[0][1] = 16·24 - 16·12 = 192,
	// D[1][0] = 16·3.5 - 16·2^-10 = 56 - 2^-6,
	// D[1][1] = 8·7 - 8·3.5 - 8·2^-9 + 8·2^-10 = 28 - 2^-7.
	e4m3A := grid(M, K, func(r, k int) float64 { return pick(r == 0, 1.5, pick(k < 16, 448, -0.125)) })
	e4m3 := dsCase{name: "e4m3 (f8E4M3FN) × bf16",
		a:   dsOperand{ty: "f8E4M3FN", rows: M, cols: K, vals: e4m3A, scaleTy: "i8", scaleRows: M, scaleCols: 1, scale: []float64{130, 120}},
		b:   dsOperand{ty: "bf16", rows: K, cols: N, vals: grid(K, N, func(k, c int) float64 { return pick(c == 0, 1, pick(k%2 == 0, 2, -1)) })},
		lhs: "e4m3", rhs: "bf16", attrs: "{fastMath = false}", m: M, n: N}
	e4m3Want := []float64{384, 192, 56 - 1.0/64, 28 - 1.0/128}
	// The same A stored as i8: the bits of 1.5 (0x3C), 448 (0x7E) and
	// -0.125 (0xA0).
	e4m3I8 := e4m3
	e4m3I8.name = "e4m3 (i8) × bf16"
	e4m3I8.a.ty = "i8"
	e4m3I8.a.vals = grid(M, K, func(r, k int) float64 { return pick(r == 0, 0x3C, pick(k < 16, 0x7E, 0xA0-256)) })

	// fp16 × e4m3: f16 compute type. A is 1024 (but A[0][0] = 1.5), scaled
	// by 2^-24 (row 0: byte 103, an f16 subnormal: 2^-14, and 1.5·2^-24,
	// which rounds to the even subnormal 2^-23) and by 2^-26 (row 1: byte
	// 101, which f16 rounds to 0). B is 0.5, scaled by 2^15 (column 0:
	// byte 142) and 2^16 (column 1: byte 143, which overflows f16 to +Inf,
	// though 0.5·2^16 would not). D[0][0] = 2^-23·2^14 + 31·2^-14·2^14 =
	// 31 + 2^-9, D[0][1] = +Inf, D[1][0] = 0, D[1][1] = 0·Inf = NaN.
	f16 := dsCase{name: "fp16 × e4m3",
		a:   dsOperand{ty: "f16", rows: M, cols: K, vals: grid(M, K, func(r, k int) float64 { return pick(r == 0 && k == 0, 1.5, 1024) }), scaleTy: "i8", scaleRows: M, scaleCols: 1, scale: []float64{103, 101}},
		b:   dsOperand{ty: "f8E4M3FN", rows: K, cols: N, vals: fill(K*N, func(int) float64 { return 0.5 }), scaleTy: "i8", scaleRows: N, scaleCols: 1, scale: []float64{142, 143}},
		lhs: "fp16", rhs: "e4m3", attrs: "{fastMath = false}", m: M, n: N}
	f16Want := []float64{31 + 1.0/512, math.Inf(1), 0, math.NaN()}

	// Special scale bytes, bf16 × bf16. A's row 0 is 2^120 with scale byte
	// 0, which is +0 (not 2^-127, which would add 32·2^-7 to C), row 1 is
	// 1 with scale 0xFF. B's column 0 is 1, column 1 is 0 at k = 0 and 1
	// after. Without fastMath row 1 is NaN; with fastMath it is +Inf, and
	// Inf·0 is NaN.
	special := dsCase{name: "scale bytes 0 and 0xFF",
		a:   dsOperand{ty: "bf16", rows: M, cols: K, vals: grid(M, K, func(r, _ int) float64 { return pick(r == 0, math.Ldexp(1, 120), 1) }), scaleTy: "i8", scaleRows: M, scaleCols: 1, scale: []float64{0, 0xFF - 256}},
		b:   dsOperand{ty: "bf16", rows: K, cols: N, vals: grid(K, N, func(k, c int) float64 { return pick(c == 1 && k == 0, 0, 1) })},
		lhs: "bf16", rhs: "bf16", attrs: "{fastMath = false}", m: M, n: N, c: []float64{0.5, -0.25, 1, 1}}
	specialWant := []float64{0.5, -0.25, math.NaN(), math.NaN()}
	fast := special
	fast.name = "scale bytes 0 and 0xFF, fastMath"
	fast.attrs = "{fastMath = true}"
	fastWant := []float64{0.5, -0.25, math.Inf(1), math.NaN()}

	// A float scale (f8E4M3FN), group 16: A (bf16, all 1) scaled by 0.5
	// and 3 (row 0) and by NaN and 1 (row 1). D[0][n] = 16·0.5 + 16·3 = 56
	// with B all 1; row 1 is NaN.
	floatScale := dsCase{name: "float scale",
		a:   dsOperand{ty: "bf16", rows: M, cols: K, vals: fill(M*K, func(int) float64 { return 1 }), scaleTy: "f8E4M3FN", scaleRows: M, scaleCols: 2, scale: []float64{0.5, 3, math.NaN(), 1}},
		b:   dsOperand{ty: "bf16", rows: K, cols: N, vals: fill(K*N, func(int) float64 { return 1 })},
		lhs: "bf16", rhs: "bf16", attrs: "{fastMath = false}", m: M, n: N}
	floatWant := []float64{56, 56, math.NaN(), math.NaN()}

	for _, c := range []struct {
		c    dsCase
		want []float64
	}{
		{kPacked, fp4Want}, {mnPacked, fp4Want}, {mPacked, fp4Want},
		{e4m3, e4m3Want}, {e4m3I8, e4m3Want},
		{f16, f16Want},
		{special, specialWant}, {fast, fastWant},
		{floatScale, floatWant},
	} {
		d, err := c.c.run(t, true)
		if err != nil {
			t.Errorf("%s: %v", c.c.name, err)
			continue
		}
		checkBuffer(t, c.c.name, d, c.want)
	}
}

// TestDotScaledErrors: operands the interpreter cannot multiply are
// located errors (on modules that skip the verifier, which rejects most
// of them).
func TestDotScaledErrors(t *testing.T) {
	const M, N, K = 2, 2, 32
	ones := func(n int) []float64 { return fill(n, func(int) float64 { return 1 }) }
	base := dsCase{
		a:   dsOperand{ty: "bf16", rows: M, cols: K, vals: ones(M * K)},
		b:   dsOperand{ty: "bf16", rows: K, cols: N, vals: ones(K * N)},
		lhs: "bf16", rhs: "bf16", attrs: "{fastMath = false}", m: M, n: N}
	if d, err := base.run(t, true); err != nil || d.Float(3) != 32 {
		t.Fatalf("the unscaled kernel: %v", err)
	}
	badGroup := base
	badGroup.a.scaleTy, badGroup.a.scaleRows, badGroup.a.scaleCols, badGroup.a.scale = "i8", M, 3, ones(M*3)
	badRows := base
	badRows.b.scaleTy, badRows.b.scaleRows, badRows.b.scaleCols, badRows.b.scale = "i8", 1, 2, ones(2)
	badK := base
	badK.b.rows, badK.b.vals = K/2, ones(K/2*N)
	fp6 := base
	fp6.lhs = "e2m3"
	badType := base
	badType.rhs = "e2m1" // a bf16 tensor is not packed e2m1
	for _, c := range []struct {
		c    dsCase
		want string
	}{
		{badGroup, "a_scale of shape [2 3]: K = 32 is not a multiple of its last dimension"},
		{badRows, "b_scale of shape [1 2]: dimension 0 must be N = 2"},
		{badK, "unpacked operands of shapes [2 32] · [16 2] do not give [2 2]"},
		{fp6, "lhs: element kind e2m3 (fp6) is not supported"},
		{badType, "b: packed e2m1 values of type bf16, expected i8"},
	} {
		_, err := c.c.run(t, false)
		if err == nil || !strings.Contains(err.Error(), "error: 'tt.dot_scaled' op "+c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

// TestDotScaledBatched: a rank-3 tt.dot_scaled scales each batch with its
// own scales. A and B are all 1, so D[b][m][n] = 32·ascale[b][m]·bscale[b][n]
// with A's scales 1, 2 (batch 0) and 4, 8 (batch 1) and B's 1, 1 and 0.5, 2.
func TestDotScaledBatched(t *testing.T) {
	reshape := func(name, from, to string) string {
		return fmt.Sprintf("    %%%s3 = tt.reshape %%%s : %s -> %s\n", name, name, from, to)
	}
	src := "module {\n  tt.func public @k(%pa: !tt.ptr<bf16>, %pas: !tt.ptr<i8>, %pb: !tt.ptr<bf16>, %pbs: !tt.ptr<i8>, %pd: !tt.ptr<f32>) {\n" +
		load2D("a", "pa", "bf16", 4, 32) + reshape("a", "tensor<4x32xbf16>", "tensor<2x2x32xbf16>") +
		load2D("as", "pas", "i8", 4, 1) + reshape("as", "tensor<4x1xi8>", "tensor<2x2x1xi8>") +
		load2D("b", "pb", "bf16", 64, 2) + reshape("b", "tensor<64x2xbf16>", "tensor<2x32x2xbf16>") +
		load2D("bs", "pbs", "i8", 4, 1) + reshape("bs", "tensor<4x1xi8>", "tensor<2x2x1xi8>") +
		"    %c = arith.constant dense<0.0> : tensor<2x2x2xf32>\n" +
		"    %d3 = tt.dot_scaled %a3 scale %as3, %b3 scale %bs3, %c lhs = bf16 rhs = bf16 {fastMath = false} : tensor<2x2x32xbf16>, tensor<2x2x1xi8> * tensor<2x32x2xbf16>, tensor<2x2x1xi8> -> tensor<2x2x2xf32>\n" +
		"    %d = tt.reshape %d3 : tensor<2x2x2xf32> -> tensor<4x2xf32>\n" +
		store2D("d", "pd", "f32", 4, 2) + "    tt.return\n  }\n}"
	m := parseText(t, src)
	if d := ir.Verify(m); d.HasErrors() {
		t.Fatalf("%v\n%s", d, src)
	}
	ones := func(n int) []float64 { return fill(n, func(int) float64 { return 1 }) }
	d := fillBuffer(t, "f32", make([]float64, 8))
	args := []interp.Arg{
		interp.BufArg(fillBuffer(t, "bf16", ones(128))), interp.BufArg(fillBuffer(t, "i8", []float64{127, 128, 129, 130})),
		interp.BufArg(fillBuffer(t, "bf16", ones(128))), interp.BufArg(fillBuffer(t, "i8", []float64{127, 127, 126, 128})),
		interp.BufArg(d)}
	if err := interp.Run(m, "k", args, [3]int{1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	checkBuffer(t, "batched", d, []float64{32, 32, 64, 64, 64, 256, 128, 512})
}
