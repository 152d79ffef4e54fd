package interp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
)

// descHeader defines %d, a tensor descriptor of shape and strides into
// %src for rows×cols blocks of ty (attrs: the attribute dictionary of
// tt.make_tensor_descriptor, "" for none), and the i32 indices %i0, %i1.
func descHeader(ty string, shape [2]int32, strides [2]int64, idx [2]int32, rows, cols int, attrs string) string {
	if attrs != "" {
		attrs = " {" + attrs + "}"
	}
	return fmt.Sprintf(`    %%s0 = arith.constant %d : i32
    %%s1 = arith.constant %d : i32
    %%t0 = arith.constant %d : i64
    %%t1 = arith.constant %d : i64
    %%i0 = arith.constant %d : i32
    %%i1 = arith.constant %d : i32
    %%d = tt.make_tensor_descriptor %%src, [%%s0, %%s1], [%%t0, %%t1]%s : <%s>, <tensor<%dx%dx%s>>
`, shape[0], shape[1], strides[0], strides[1], idx[0], idx[1], attrs, ty, rows, cols, ty)
}

// descLoad describes a kernel that loads a rows×cols block at indices idx
// through a descriptor of shape and strides into %src and stores it
// row-major at %out.
type descLoad struct {
	ty         string
	shape      [2]int32
	strides    [2]int64
	idx        [2]int32
	rows, cols int
	attrs      string // of tt.make_tensor_descriptor
}

func (c descLoad) elem() string {
	if c.ty == "" {
		return "f32"
	}
	return c.ty
}

func (c descLoad) kernel() string {
	ty := c.elem()
	return fmt.Sprintf(`module {
  tt.func public @k(%%src: !tt.ptr<%[1]s>, %%out: !tt.ptr<%[1]s>) {
%[2]s    %%v = tt.descriptor_load %%d[%%i0, %%i1] : !tt.tensordesc<tensor<%[3]dx%[4]dx%[1]s>> -> tensor<%[3]dx%[4]dx%[1]s>
%[5]s    tt.return
  }
}`, ty, descHeader(ty, c.shape, c.strides, c.idx, c.rows, c.cols, c.attrs), c.rows, c.cols, store2D("v", "out", ty, c.rows, c.cols))
}

func (c descLoad) run(t *testing.T, src *interp.Buffer) (*interp.Buffer, error) {
	t.Helper()
	return runTile(t, c.kernel(), c.elem(), c.rows*c.cols, src)
}

// TestDescriptorLoad: the values a descriptor load gives, worked out by
// hand from the source matrix (10r + c + 1 at row r, column c of the 4×5
// matrix, flat index 5r + c). Every dimension is checked; out-of-bounds
// elements are 0, or NaN with padding = 2 (PAD_NAN).
func TestDescriptorLoad(t *testing.T) {
	rowMajor := [2]int64{5, 1}
	for _, c := range []struct {
		name string
		descLoad
		want []float64
	}{
		{"inside", descLoad{shape: [2]int32{4, 5}, strides: rowMajor, idx: [2]int32{1, 1}, rows: 2, cols: 4},
			[]float64{12, 13, 14, 15, 22, 23, 24, 25}},
		// Rows 3, 4 and columns 2..5: row 4 and column 5 are outside.
		{"over both edges", descLoad{shape: [2]int32{4, 5}, strides: rowMajor, idx: [2]int32{3, 2}, rows: 2, cols: 4},
			[]float64{33, 34, 35, 0, 0, 0, 0, 0}},
		{"over both edges, padding zero", descLoad{shape: [2]int32{4, 5}, strides: rowMajor, idx: [2]int32{3, 2}, rows: 2, cols: 4,
			attrs: "padding = 1 : i32"},
			[]float64{33, 34, 35, 0, 0, 0, 0, 0}},
		{"over both edges, nan", descLoad{shape: [2]int32{4, 5}, strides: rowMajor, idx: [2]int32{3, 2}, rows: 2, cols: 4,
			attrs: "padding = 2 : i32"},
			[]float64{33, 34, 35, nan, nan, nan, nan, nan}},
		// Rows -1, 0 and columns -2..1: only (0, 0) and (0, 1) inside.
		{"negative indices", descLoad{shape: [2]int32{4, 5}, strides: rowMajor, idx: [2]int32{-1, -2}, rows: 2, cols: 4},
			[]float64{0, 0, 0, 0, 0, 0, 1, 2}},
		{"negative indices, nan", descLoad{shape: [2]int32{4, 5}, strides: rowMajor, idx: [2]int32{-1, -2}, rows: 2, cols: 4,
			attrs: "padding = 2 : i32"},
			[]float64{nan, nan, nan, nan, nan, nan, 1, 2}},
		// A 3×3 matrix at stride 5 in the same buffer, checked against
		// its own shape: row 3 and column 3 (in the buffer) are outside.
		{"smaller shape", descLoad{shape: [2]int32{3, 3}, strides: rowMajor, idx: [2]int32{2, 1}, rows: 2, cols: 4},
			[]float64{22, 23, 0, 0, 0, 0, 0, 0}},
		// Strides 10 and 2: a 2×3 view of rows 0, 2 and columns 0, 2, 4;
		// (i, j) at flat 10i + 2j.
		{"strided", descLoad{shape: [2]int32{2, 3}, strides: [2]int64{10, 2}, idx: [2]int32{0, 1}, rows: 2, cols: 4},
			[]float64{3, 5, 0, 0, 23, 25, 0, 0}},
		// The transpose: a 5×4 view with strides [1, 5], (i, j) = matrix
		// (j, i) = 10j + i + 1; rows 3, 4 and columns 2..5 (4, 5 out).
		{"transposed", descLoad{shape: [2]int32{5, 4}, strides: [2]int64{1, 5}, idx: [2]int32{3, 2}, rows: 2, cols: 4},
			[]float64{24, 34, 0, 0, 25, 35, 0, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := c.run(t, srcMatrix(t))
			if err != nil {
				t.Fatal(err)
			}
			checkBuffer(t, c.name, out, c.want)
		})
	}
}

// TestDescriptorLoadInt: integer elements read 0 out of bounds even when
// the padding is NaN (the rewrite selects NaN for float types only).
func TestDescriptorLoadInt(t *testing.T) {
	src := fillBuffer(t, "i16", grid(4, 5, func(r, c int) float64 { return float64(-(10*r + c + 1)) }))
	c := descLoad{ty: "i16", shape: [2]int32{4, 5}, strides: [2]int64{5, 1}, idx: [2]int32{2, 3}, rows: 2, cols: 4,
		attrs: "padding = 2 : i32"}
	out, err := c.run(t, src)
	if err != nil {
		t.Fatal(err)
	}
	checkInts(t, out, []int64{-24, -25, 0, 0, -34, -35, 0, 0})
}

// descStoreKernel loads a 2×4 f32 tensor row-major from %in and stores it
// through a descriptor of shape and strides into %src at idx.
func descStoreKernel(shape [2]int32, strides [2]int64, idx [2]int32) string {
	return fmt.Sprintf(`module {
  tt.func public @k(%%src: !tt.ptr<f32>, %%in: !tt.ptr<f32>) {
%s%s    tt.descriptor_store %%d[%%i0, %%i1], %%v : !tt.tensordesc<tensor<2x4xf32>>, tensor<2x4xf32>
    tt.return
  }
}`, descHeader("f32", shape, strides, idx, 2, 4, ""), load2D("v", "in", "f32", 2, 4))
}

// TestDescriptorStore: a store writes the elements inside the tensor and
// nothing else. The destination is a 4×5 matrix at the start of a
// 30-element buffer of -1s, so that a store past the matrix would land in
// the buffer and be seen. The stored values are 1..8 row-major.
func TestDescriptorStore(t *testing.T) {
	in := fillBuffer(t, "f32", fill(8, func(i int) float64 { return float64(i + 1) }))
	rowMajor := [2]int64{5, 1}
	for _, c := range []struct {
		name    string
		shape   [2]int32
		strides [2]int64
		idx     [2]int32
		written map[int]float64 // flat index -> value
	}{
		{"inside", [2]int32{4, 5}, rowMajor, [2]int32{1, 0},
			map[int]float64{5: 1, 6: 2, 7: 3, 8: 4, 10: 5, 11: 6, 12: 7, 13: 8}},
		// Rows 3, 4 and columns 2..5: only (3, 2..4); (3, 5) would be
		// flat 20 and row 4 flat 22..25, all in the buffer.
		{"corner", [2]int32{4, 5}, rowMajor, [2]int32{3, 2},
			map[int]float64{17: 1, 18: 2, 19: 3}},
		// Rows -1, 0 and columns -2..1: only (0, 0) and (0, 1).
		{"negative indices", [2]int32{4, 5}, rowMajor, [2]int32{-1, -2},
			map[int]float64{0: 7, 1: 8}},
		// Strides 10 and 2 on a 2×3 view: (i, j) at 10i + 2j, columns
		// 1, 2 of 3 inside.
		{"strided", [2]int32{2, 3}, [2]int64{10, 2}, [2]int32{0, 1},
			map[int]float64{2: 1, 4: 2, 12: 5, 14: 6}},
		// Transposed 5×4 view, (i, j) at i + 5j: rows 3, 4, columns 2, 3.
		{"transposed", [2]int32{5, 4}, [2]int64{1, 5}, [2]int32{3, 2},
			map[int]float64{13: 1, 18: 2, 14: 5, 19: 6}},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkStore(t, c.name, descStoreKernel(c.shape, c.strides, c.idx), in, c.written)
		})
	}
}

// TestDescriptorLoop: a descriptor carried by scf.for, loading 4×2 blocks
// at columns 0, 2, 4 (the last hangs over the right edge) and summing
// them; the descriptor the loop yields then passes through scf.if and
// tt.call, which loads at the indices it is given.
func TestDescriptorLoop(t *testing.T) {
	src := `module {
  tt.func private @at(%d: !tt.tensordesc<tensor<4x2xf32>>, %r: i32, %c: i32) -> tensor<4x2xf32> {
    %x = tt.descriptor_load %d[%r, %c] : !tt.tensordesc<tensor<4x2xf32>> -> tensor<4x2xf32>
    tt.return %x : tensor<4x2xf32>
  }
  tt.func public @k(%src: !tt.ptr<f32>, %out: !tt.ptr<f32>, %out2: !tt.ptr<f32>, %flag: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %s0 = arith.constant 4 : i32
    %s1 = arith.constant 5 : i32
    %t0 = arith.constant 5 : i64
    %t1 = arith.constant 1 : i64
    %zero = arith.constant dense<0.000000e+00> : tensor<4x2xf32>
    %d0 = tt.make_tensor_descriptor %src, [%s0, %s1], [%t0, %t1] : <f32>, <tensor<4x2xf32>>
    %acc, %end = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %zero, %d = %d0) -> (tensor<4x2xf32>, !tt.tensordesc<tensor<4x2xf32>>) : i32 {
      %col = arith.muli %i, %c2 : i32
      %x = tt.descriptor_load %d[%c0, %col] : !tt.tensordesc<tensor<4x2xf32>> -> tensor<4x2xf32>
      %s = arith.addf %a, %x : tensor<4x2xf32>
      scf.yield %s, %d : tensor<4x2xf32>, !tt.tensordesc<tensor<4x2xf32>>
    }
` + store2D("acc", "out", "f32", 4, 2) + `    %y = scf.if %flag -> (tensor<4x2xf32>) {
      %r = tt.call @at(%end, %c2, %c1) : (!tt.tensordesc<tensor<4x2xf32>>, i32, i32) -> tensor<4x2xf32>
      scf.yield %r : tensor<4x2xf32>
    } else {
      %r = tt.call @at(%end, %c0, %c1) : (!tt.tensordesc<tensor<4x2xf32>>, i32, i32) -> tensor<4x2xf32>
      scf.yield %r : tensor<4x2xf32>
    }
` + store2D("y", "out2", "f32", 4, 2) + `    tt.return
  }
}`
	m := parseText(t, src)
	for _, flag := range []bool{false, true} {
		out := fillBuffer(t, "f32", fill(8, func(int) float64 { return -7 }))
		out2 := fillBuffer(t, "f32", fill(8, func(int) float64 { return -7 }))
		f := int64(0)
		if flag {
			f = 1
		}
		if err := interp.Run(m, "k", []interp.Arg{interp.BufArg(srcMatrix(t)), interp.BufArg(out), interp.BufArg(out2), interp.IntArg(f)}, [3]int{1, 1, 1}); err != nil {
			t.Fatal(err)
		}
		// Column j of the sum: (10r+j+1) + (10r+j+3) + (10r+j+5 or 0).
		checkBuffer(t, "sum", out, []float64{9, 6, 39, 26, 69, 46, 99, 66})
		want := []float64{2, 3, 12, 13, 22, 23, 32, 33} // rows 0..3, columns 1, 2
		if flag {                                       // rows 2..5: rows 4, 5 outside
			want = []float64{22, 23, 32, 33, 0, 0, 0, 0}
		}
		checkBuffer(t, fmt.Sprintf("flag %v", flag), out2, want)
	}
}

// gatherHeader defines %d, a 10×10 row-major descriptor of 1×8 f32 blocks
// into %src, %x, the row offsets [9, -1, 0, 10, 3, 3, 2^31-1, -2^31], and
// %y = 4.
const gatherHeader = `    %s = arith.constant 10 : i32
    %t0 = arith.constant 10 : i64
    %t1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %src, [%s, %s], [%t0, %t1] : <f32>, <tensor<1x8xf32>>
    %x = arith.constant dense<[9, -1, 0, 10, 3, 3, 2147483647, -2147483648]> : tensor<8xi32>
    %y = arith.constant 4 : i32
`

// TestDescriptorGather: row x[i], columns 4..11 of a 10×10 matrix (100r +
// c + 1 at row r, column c) into row i; rows outside 0..9 and columns 10,
// 11 read 0.
func TestDescriptorGather(t *testing.T) {
	src := `module {
  tt.func public @k(%src: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
` + gatherHeader + `    %v = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x8xf32>>, tensor<8xi32>, i32) -> tensor<8x8xf32>
` + store2D("v", "out", "f32", 8, 8) + `    tt.return
  }
}`
	m := parseText(t, src)
	mat := fillBuffer(t, "f32", grid(10, 10, func(r, c int) float64 { return float64(100*r + c + 1) }))
	out := fillBuffer(t, "f32", fill(64, func(int) float64 { return -7 }))
	if err := interp.Run(m, "k", []interp.Arg{interp.BufArg(mat), interp.BufArg(out)}, [3]int{1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	z := []float64{0, 0, 0, 0, 0, 0, 0, 0}
	var want []float64
	want = append(want, 905, 906, 907, 908, 909, 910, 0, 0) // row 9
	want = append(want, z...)                               // row -1
	want = append(want, 5, 6, 7, 8, 9, 10, 0, 0)            // row 0
	want = append(want, z...)                               // row 10
	want = append(want, 305, 306, 307, 308, 309, 310, 0, 0) // row 3
	want = append(want, 305, 306, 307, 308, 309, 310, 0, 0) // row 3
	want = append(want, z...)                               // row 2^31-1
	want = append(want, z...)                               // row -2^31
	checkBuffer(t, "gather", out, want)
}

// TestDescriptorScatter: the values 1..64 (row-major 8×8) stored at rows
// x[i], columns 4..11 of a 10×10 matrix at the start of a 120-element
// buffer of -1s: only columns 4..9 of rows 9, 0 and 3 (twice, the later
// row winning) are written.
func TestDescriptorScatter(t *testing.T) {
	src := `module {
  tt.func public @k(%src: !tt.ptr<f32>, %in: !tt.ptr<f32>) {
` + gatherHeader + load2D("v", "in", "f32", 8, 8) + `    tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<1x8xf32>>, tensor<8xi32>, i32, tensor<8x8xf32>
    tt.return
  }
}`
	m := parseText(t, src)
	in := fillBuffer(t, "f32", fill(64, func(i int) float64 { return float64(i + 1) }))
	dst := fillBuffer(t, "f32", fill(120, func(int) float64 { return -1 }))
	if err := interp.Run(m, "k", []interp.Arg{interp.BufArg(dst), interp.BufArg(in)}, [3]int{1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	written := map[int]float64{
		94: 1, 95: 2, 96: 3, 97: 4, 98: 5, 99: 6, // row 9 from block row 0
		4: 17, 5: 18, 6: 19, 7: 20, 8: 21, 9: 22, // row 0 from block row 2
		34: 41, 35: 42, 36: 43, 37: 44, 38: 45, 39: 46, // row 3 from block row 5
	}
	checkBuffer(t, "scatter", dst, fill(120, func(i int) float64 {
		if v, ok := written[i]; ok {
			return v
		}
		return -1
	}))
}

// TestDescriptorErrors: malformed descriptor ops are errors, never panics.
func TestDescriptorErrors(t *testing.T) {
	rowMajor := [2]int64{5, 1}
	kernel := func(body string) string {
		return `module {
  tt.func public @k(%src: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %s = arith.constant 4 : i32
    %t = arith.constant 1 : i64
    %o = arith.constant 0 : i32
` + body + `    tt.return
  }
}`
	}
	for _, c := range []struct {
		name string
		src  string
		want string
	}{
		{"unknown padding", descLoad{shape: [2]int32{4, 5}, strides: rowMajor, rows: 2, cols: 4,
			attrs: "padding = 3 : i32"}.kernel(), "unknown padding option 3"},
		{"padding not an integer", descLoad{shape: [2]int32{4, 5}, strides: rowMajor, rows: 2, cols: 4,
			attrs: `padding = "nan"`}.kernel(), "is not an integer"},
		{"make operands", kernel(`    %d = tt.make_tensor_descriptor %src, [%s], [%t] : <f32>, <tensor<2x4xf32>>
`), "3 operands for a block of rank 2"},
		{"load index count", kernel(`    %d = tt.make_tensor_descriptor %src, [%s, %s], [%t, %t] : <f32>, <tensor<2x4xf32>>
    %v = tt.descriptor_load %d[%o] : !tt.tensordesc<tensor<2x4xf32>> -> tensor<2x4xf32>
`), "1 indices for a block of rank 2"},
		{"store index count", kernel(`    %d = tt.make_tensor_descriptor %src, [%s, %s], [%t, %t] : <f32>, <tensor<2x4xf32>>
    %v = arith.constant dense<1.0> : tensor<2x4xf32>
    tt.descriptor_store %d[%o, %o, %o], %v : !tt.tensordesc<tensor<2x4xf32>>, tensor<2x4xf32>
`), "3 indices for a block of rank 2"},
		// Past the buffer but inside the declared shape: memory reports it.
		{"shape larger than the buffer", descLoad{shape: [2]int32{40, 5}, strides: rowMajor, idx: [2]int32{4, 0}, rows: 2, cols: 4}.kernel(),
			"out-of-bounds access"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := parseText(t, c.src)
			src := fillBuffer(t, "f32", fill(20, func(int) float64 { return 1 }))
			out, _ := interp.NewBuffer(src.Elem, 20)
			err := interp.Run(m, "k", []interp.Arg{interp.BufArg(src), interp.BufArg(out)}, [3]int{1, 1, 1})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}
