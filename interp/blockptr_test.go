package interp_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
)

// The source matrix of the block pointer tests: 4×5 f32, row-major,
// element (r, c) = 10r + c + 1 (so that no element is 0, the padding).
func srcMatrix(t *testing.T) *interp.Buffer {
	t.Helper()
	return fillBuffer(t, "f32", grid(4, 5, func(r, c int) float64 { return float64(10*r + c + 1) }))
}

// blockLoad describes a kernel that makes a block pointer into %src with
// shape, strides and offsets, advances it by adv, loads a rows×cols block
// through it with attrs and stores the block row-major at %out.
type blockLoad struct {
	ty         string
	shape      [2]int64
	strides    [2]int64
	offsets    [2]int32
	adv        [2]int32
	rows, cols int
	attrs      string // the attribute dictionary of the load, "" for none
}

// blockHeader defines %bp, the block pointer of shape, strides and
// offsets into %src advanced by adv, for a rows×cols block of ty.
func blockHeader(ty string, shape, strides [2]int64, offsets, adv [2]int32, rows, cols int) string {
	bt := fmt.Sprintf("!tt.ptr<tensor<%dx%dx%s>>", rows, cols, ty)
	return fmt.Sprintf(`    %%s0 = arith.constant %d : i64
    %%s1 = arith.constant %d : i64
    %%t0 = arith.constant %d : i64
    %%t1 = arith.constant %d : i64
    %%o0 = arith.constant %d : i32
    %%o1 = arith.constant %d : i32
    %%d0 = arith.constant %d : i32
    %%d1 = arith.constant %d : i32
    %%bp0 = tt.make_tensor_ptr %%src, [%%s0, %%s1], [%%t0, %%t1], [%%o0, %%o1] {order = array<i32: 1, 0>} : %s
    %%bp = tt.advance %%bp0, [%%d0, %%d1] : %s
`, shape[0], shape[1], strides[0], strides[1], offsets[0], offsets[1], adv[0], adv[1], bt, bt)
}

func (c blockLoad) elem() string {
	if c.ty == "" {
		return "f32"
	}
	return c.ty
}

func (c blockLoad) kernel() string {
	ty := c.elem()
	bt := fmt.Sprintf("!tt.ptr<tensor<%dx%dx%s>>", c.rows, c.cols, ty)
	attrs := ""
	if c.attrs != "" {
		attrs = " {" + c.attrs + "}"
	}
	return fmt.Sprintf(`module {
  tt.func public @k(%%src: !tt.ptr<%[1]s>, %%out: !tt.ptr<%[1]s>) {
%[2]s    %%v = tt.load %%bp%[3]s : %[4]s
%[5]s    tt.return
  }
}`, ty, blockHeader(ty, c.shape, c.strides, c.offsets, c.adv, c.rows, c.cols), attrs, bt, store2D("v", "out", ty, c.rows, c.cols))
}

func (c blockLoad) run(t *testing.T, src *interp.Buffer) (*interp.Buffer, error) {
	t.Helper()
	return runTile(t, c.kernel(), c.elem(), c.rows*c.cols, src)
}

// runTile runs kernel @k(%src, %out) on one program, %out being n elements
// of ty that start as -7, and returns %out.
func runTile(t *testing.T, kernel, ty string, n int, src *interp.Buffer) (*interp.Buffer, error) {
	t.Helper()
	m := parseText(t, kernel)
	out := fillBuffer(t, ty, fill(n, func(int) float64 { return -7 }))
	err := interp.Run(m, "k", []interp.Arg{interp.BufArg(src), interp.BufArg(out)}, [3]int{1, 1, 1})
	return out, err
}

// checkInts checks out's first elements against want.
func checkInts(t *testing.T, out *interp.Buffer, want []int64) {
	t.Helper()
	for i, w := range want {
		if g := out.Int(i); g != w {
			t.Errorf("element %d = %d, want %d", i, g, w)
		}
	}
}

var nan = math.NaN()

// TestBlockPointerLoad: the values a load through a block pointer gives,
// worked out by hand from the source matrix (10r + c + 1 at row r,
// column c of the 4×5 matrix, flat index 5r + c).
func TestBlockPointerLoad(t *testing.T) {
	rowMajor := [2]int64{5, 1}
	for _, c := range []struct {
		name string
		blockLoad
		want []float64
	}{
		{"inside, no check", blockLoad{shape: [2]int64{4, 5}, strides: rowMajor, offsets: [2]int32{1, 1}, rows: 2, cols: 4},
			[]float64{12, 13, 14, 15, 22, 23, 24, 25}},
		{"both dims, zero", blockLoad{shape: [2]int64{4, 5}, strides: rowMajor, offsets: [2]int32{3, 2}, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 0, 1>, padding = 1 : i32"},
			[]float64{33, 34, 35, 0, 0, 0, 0, 0}},
		{"both dims, nan", blockLoad{shape: [2]int64{4, 5}, strides: rowMajor, offsets: [2]int32{3, 2}, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 0, 1>, padding = 2 : i32"},
			[]float64{33, 34, 35, nan, nan, nan, nan, nan}},
		{"both dims, no padding", blockLoad{shape: [2]int64{4, 5}, strides: rowMajor, offsets: [2]int32{3, 2}, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 1, 0>"},
			[]float64{33, 34, 35, 0, 0, 0, 0, 0}},
		// Only rows checked: column 5 of row r is element (r+1, 0).
		{"rows only", blockLoad{shape: [2]int64{4, 5}, strides: rowMajor, offsets: [2]int32{1, 2}, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 0>, padding = 2 : i32"},
			[]float64{13, 14, 15, 21, 23, 24, 25, 31}},
		// Rows 3 and 4 of a matrix declared 4 rows high: row 4 padded.
		{"rows only, over the edge", blockLoad{shape: [2]int64{4, 5}, strides: rowMajor, offsets: [2]int32{3, 0}, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 0>, padding = 2 : i32"},
			[]float64{31, 32, 33, 34, nan, nan, nan, nan}},
		// Advanced from (1, 1) by (-1, -2) to (0, -1): column -1 padded.
		{"negative column", blockLoad{shape: [2]int64{4, 5}, strides: rowMajor, offsets: [2]int32{1, 1}, adv: [2]int32{-1, -2}, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 1>, padding = 1 : i32"},
			[]float64{0, 1, 2, 3, 0, 11, 12, 13}},
		{"negative column, nan", blockLoad{shape: [2]int64{4, 5}, strides: rowMajor, offsets: [2]int32{1, 1}, adv: [2]int32{-1, -2}, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 1>, padding = 2 : i32"},
			[]float64{nan, 1, 2, 3, nan, 11, 12, 13}},
		// Advanced from (0, 0) to (-1, -1): row -1 and column -1 padded.
		{"negative both", blockLoad{shape: [2]int64{4, 5}, strides: rowMajor, adv: [2]int32{-1, -1}, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 0, 1>, padding = 2 : i32"},
			[]float64{nan, nan, nan, nan, nan, 1, 2, 3}},
		// A smaller matrix in the same buffer: 3×3 at stride 5, checked
		// against its own shape, not the buffer's.
		{"smaller shape", blockLoad{shape: [2]int64{3, 3}, strides: rowMajor, offsets: [2]int32{2, 1}, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 0, 1>, padding = 1 : i32"},
			[]float64{22, 23, 0, 0, 0, 0, 0, 0}},
		// The transpose: a 5×4 view with strides [1, 5], element (i, j)
		// = matrix (j, i) = 10j + i + 1.
		{"transposed", blockLoad{shape: [2]int64{5, 4}, strides: [2]int64{1, 5}, offsets: [2]int32{3, 0}, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 0, 1>, padding = 1 : i32"},
			[]float64{4, 14, 24, 34, 5, 15, 25, 35}},
		{"transposed, over both edges", blockLoad{shape: [2]int64{5, 4}, strides: [2]int64{1, 5}, offsets: [2]int32{2, 0}, adv: [2]int32{2, 1}, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 0, 1>, padding = 2 : i32"},
			[]float64{15, 25, 35, nan, nan, nan, nan, nan}},
		// Strides of 2 along both dims: rows 0 and 2, columns 0, 2, 4
		// of the matrix; a 2×3 view.
		{"strided", blockLoad{shape: [2]int64{2, 3}, strides: [2]int64{10, 2}, offsets: [2]int32{0, 1}, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 0, 1>, padding = 1 : i32"},
			[]float64{3, 5, 0, 0, 23, 25, 0, 0}},
		// Offsets are i64 once made (RewriteTensorPointer sign-extends
		// them and advances in i64): 2^31-1 advanced by 1 is 2^31, row
		// 2^31 of 2^31+1 is in bounds and row 2^31+1 is not. Stride 0
		// reads row 0 of the matrix for both. (Wrapping at 32 bits would
		// give -2^31: every row out of bounds.)
		{"offsets past i32", blockLoad{shape: [2]int64{1<<31 + 1, 5}, strides: [2]int64{0, 1}, offsets: [2]int32{math.MaxInt32, 0}, adv: [2]int32{1, 0}, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 0, 1>, padding = 2 : i32"},
			[]float64{1, 2, 3, 4, nan, nan, nan, nan}},
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

// TestBlockPointerLoadInt: integer elements, zero padding.
func TestBlockPointerLoadInt(t *testing.T) {
	src := fillBuffer(t, "i16", grid(4, 5, func(r, c int) float64 { return float64(-(10*r + c + 1)) }))
	c := blockLoad{ty: "i16", shape: [2]int64{4, 5}, strides: [2]int64{5, 1}, offsets: [2]int32{2, 3}, rows: 2, cols: 4,
		attrs: "boundaryCheck = array<i32: 0, 1>, padding = 1 : i32"}
	out, err := c.run(t, src)
	if err != nil {
		t.Fatal(err)
	}
	checkInts(t, out, []int64{-24, -25, 0, 0, -34, -35, 0, 0})
}

// blockStoreKernel loads a 2×4 f32 tensor row-major from %in and stores it
// through a block pointer into %src (the destination) with attrs.
func blockStoreKernel(shape, strides [2]int64, offsets, adv [2]int32, attrs string) string {
	if attrs != "" {
		attrs = " {" + attrs + "}"
	}
	return fmt.Sprintf(`module {
  tt.func public @k(%%src: !tt.ptr<f32>, %%in: !tt.ptr<f32>) {
%s%s    tt.store %%bp, %%v%s : !tt.ptr<tensor<2x4xf32>>
    tt.return
  }
}`, blockHeader("f32", shape, strides, offsets, adv, 2, 4), load2D("v", "in", "f32", 2, 4), attrs)
}

// TestBlockPointerStore: a store writes the elements in bounds of the
// checked dimensions and nothing else. The destination is a 4×5 matrix
// at the start of a 30-element buffer of -1s, so that a store past the
// matrix would land in the buffer and be seen.
func TestBlockPointerStore(t *testing.T) {
	in := fillBuffer(t, "f32", fill(8, func(i int) float64 { return float64(i + 1) }))
	for _, c := range []struct {
		name    string
		offsets [2]int32
		adv     [2]int32
		strides [2]int64
		attrs   string
		written map[int]float64 // flat index -> value
	}{
		{"inside", [2]int32{1, 0}, [2]int32{}, [2]int64{5, 1}, "boundaryCheck = array<i32: 0, 1>",
			map[int]float64{5: 1, 6: 2, 7: 3, 8: 4, 10: 5, 11: 6, 12: 7, 13: 8}},
		// Rows 3, 4 and columns 2..5: only (3, 2..4) are in the matrix.
		{"corner", [2]int32{3, 2}, [2]int32{}, [2]int64{5, 1}, "boundaryCheck = array<i32: 0, 1>",
			map[int]float64{17: 1, 18: 2, 19: 3}},
		// Columns -2..1 (advanced from 0 by -2): -2 and -1 are not
		// written (row 0's would be outside the buffer).
		{"negative column", [2]int32{0, 0}, [2]int32{0, -2}, [2]int64{5, 1}, "boundaryCheck = array<i32: 1>",
			map[int]float64{0: 3, 1: 4, 5: 7, 6: 8}},
		// Rows only checked: columns 2..5 of row 3, column 5 being
		// flat index 20, past the matrix but not checked.
		{"rows only", [2]int32{3, 2}, [2]int32{}, [2]int64{5, 1}, "boundaryCheck = array<i32: 0>",
			map[int]float64{17: 1, 18: 2, 19: 3, 20: 4}},
		// Transposed: (i, j) at i + 5j, rows 3, 4 of 5 and columns 2, 3,
		// 4, 5 of 4: (3, 2) (3, 3) (4, 2) (4, 3) are written.
		{"transposed", [2]int32{3, 2}, [2]int32{}, [2]int64{1, 5}, "boundaryCheck = array<i32: 0, 1>",
			map[int]float64{13: 1, 18: 2, 14: 5, 19: 6}},
	} {
		t.Run(c.name, func(t *testing.T) {
			shape := [2]int64{4, 5}
			if c.strides[0] == 1 {
				shape = [2]int64{5, 4}
			}
			checkStore(t, c.name, blockStoreKernel(shape, c.strides, c.offsets, c.adv, c.attrs), in, c.written)
		})
	}
}

// checkStore runs kernel @k(%src, %in), %src being 30 f32 of -1, and
// checks that %src then holds written (flat index -> value) and -1
// everywhere else.
func checkStore(t *testing.T, name, kernel string, in *interp.Buffer, written map[int]float64) {
	t.Helper()
	m := parseText(t, kernel)
	dst := fillBuffer(t, "f32", fill(30, func(int) float64 { return -1 }))
	if err := interp.Run(m, "k", []interp.Arg{interp.BufArg(dst), interp.BufArg(in)}, [3]int{1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	want := fill(30, func(i int) float64 {
		if v, ok := written[i]; ok {
			return v
		}
		return -1
	})
	checkBuffer(t, name, dst, want)
}

// TestBlockPointerLoop: a block pointer carried by scf.for and advanced
// by two columns per iteration, summing three 4×2 blocks of the matrix
// (the third hangs over the right edge, zero-padded); the pointer the
// loop yields then passes through scf.if and tt.call.
func TestBlockPointerLoop(t *testing.T) {
	src := `module {
  tt.func private @down(%p: !tt.ptr<tensor<4x2xf32>>, %n: i32) -> !tt.ptr<tensor<4x2xf32>> {
    %z = arith.constant 0 : i32
    %q = tt.advance %p, [%n, %z] : !tt.ptr<tensor<4x2xf32>>
    tt.return %q : !tt.ptr<tensor<4x2xf32>>
  }
  tt.func public @k(%src: !tt.ptr<f32>, %out: !tt.ptr<f32>, %out2: !tt.ptr<f32>, %flag: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %cm = arith.constant -5 : i32
    %s0 = arith.constant 4 : i64
    %s1 = arith.constant 5 : i64
    %t0 = arith.constant 5 : i64
    %t1 = arith.constant 1 : i64
    %zero = arith.constant dense<0.000000e+00> : tensor<4x2xf32>
    %bp = tt.make_tensor_ptr %src, [%s0, %s1], [%t0, %t1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<4x2xf32>>
    %acc, %end = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %zero, %p = %bp) -> (tensor<4x2xf32>, !tt.ptr<tensor<4x2xf32>>) : i32 {
      %x = tt.load %p {boundaryCheck = array<i32: 1>, padding = 1 : i32} : !tt.ptr<tensor<4x2xf32>>
      %s = arith.addf %a, %x : tensor<4x2xf32>
      %np = tt.advance %p, [%c0, %c2] : !tt.ptr<tensor<4x2xf32>>
      scf.yield %s, %np : tensor<4x2xf32>, !tt.ptr<tensor<4x2xf32>>
    }
` + store2D("acc", "out", "f32", 4, 2) + `    %back = tt.advance %end, [%c0, %cm] : !tt.ptr<tensor<4x2xf32>>
    %sel = scf.if %flag -> (!tt.ptr<tensor<4x2xf32>>) {
      %d = tt.call @down(%back, %c2) : (!tt.ptr<tensor<4x2xf32>>, i32) -> !tt.ptr<tensor<4x2xf32>>
      scf.yield %d : !tt.ptr<tensor<4x2xf32>>
    } else {
      scf.yield %back : !tt.ptr<tensor<4x2xf32>>
    }
    %y = tt.load %sel {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<4x2xf32>>
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
		// The loop ends at column 6; back by 5 is column 1.
		want := []float64{2, 3, 12, 13, 22, 23, 32, 33}
		if flag { // and down by 2 rows: rows 2, 3 then padding
			want = []float64{22, 23, 32, 33, nan, nan, nan, nan}
		}
		checkBuffer(t, fmt.Sprintf("flag %v", flag), out2, want)
	}
}

// TestBlockPointerErrors: malformed block pointer ops are errors, never
// panics.
func TestBlockPointerErrors(t *testing.T) {
	rowMajor := [2]int64{5, 1}
	for _, c := range []struct {
		name string
		src  string
		want string
	}{
		{"nan padding of ints", blockLoad{ty: "i32", shape: [2]int64{4, 5}, strides: rowMajor, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 0>, padding = 2 : i32"}.kernel(), "padding NaN for i32"},
		{"unknown padding", blockLoad{shape: [2]int64{4, 5}, strides: rowMajor, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 0>, padding = 3 : i32"}.kernel(), "unknown padding option 3"},
		{"boundaryCheck dim", blockLoad{shape: [2]int64{4, 5}, strides: rowMajor, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 2>"}.kernel(), "boundaryCheck dimension 2 of a block of rank 2"},
		{"negative boundaryCheck dim", blockLoad{shape: [2]int64{4, 5}, strides: rowMajor, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: -1>"}.kernel(), "boundaryCheck dimension -1"},
		// Unchecked rows past the buffer: memory reports the access.
		{"unchecked out of bounds", blockLoad{shape: [2]int64{4, 5}, strides: rowMajor, offsets: [2]int32{3, 0}, rows: 2, cols: 4,
			attrs: "boundaryCheck = array<i32: 1>"}.kernel(), "out-of-bounds access"},
		{"store boundaryCheck dim", blockStoreKernel([2]int64{4, 5}, rowMajor, [2]int32{}, [2]int32{}, "boundaryCheck = array<i32: 0, 5>"),
			"boundaryCheck dimension 5"},
		{"make_tensor_ptr operands", `module {
  tt.func public @k(%src: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %s = arith.constant 4 : i64
    %o = arith.constant 0 : i32
    %bp = tt.make_tensor_ptr %src, [%s], [%s], [%o] {order = array<i32: 0>} : !tt.ptr<tensor<2x4xf32>>
    tt.return
  }
}`, "4 operands for a block of rank 2"},
		{"advance operands", `module {
  tt.func public @k(%src: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %s = arith.constant 4 : i64
    %o = arith.constant 0 : i32
    %bp = tt.make_tensor_ptr %src, [%s, %s], [%s, %s], [%o, %o] {order = array<i32: 1, 0>} : !tt.ptr<tensor<2x4xf32>>
    %q = tt.advance %bp, [%o] : !tt.ptr<tensor<2x4xf32>>
    tt.return
  }
}`, "1 offsets for a block of rank 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := parseText(t, c.src)
			src := fillBuffer(t, "f32", fill(20, func(int) float64 { return 1 }))
			if strings.Contains(c.src, "tensor<2x4xi32>") {
				src = fillBuffer(t, "i32", fill(20, func(int) float64 { return 1 }))
			}
			out, _ := interp.NewBuffer(src.Elem, 20)
			err := interp.Run(m, "k", []interp.Arg{interp.BufArg(src), interp.BufArg(out)}, [3]int{1, 1, 1})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}
