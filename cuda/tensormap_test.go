package cuda

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// TestTensorMap encodes a tensor map of a 2-D bf16 tensor and passes it by
// value to a kernel that copies its 128 bytes out: the packing of a
// TensorMap argument (aligned, whole) end to end. On the mock driver the
// map records the arguments as the driver received them (innermost first).
func TestTensorMap(t *testing.T) {
	c := newContext(t)
	buf, err := c.Alloc(96 * 256 * 2)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Free()
	tiled := Tiled{DataType: 9, ElemBytes: 2, Base: buf.Ptr(), Dims: []uint64{96, 256}, Strides: []uint64{512},
		Box: []uint32{32, 64}, Swizzle: 3, L2Promotion: 2}
	m, err := c.EncodeTiled(tiled)
	if err != nil {
		t.Fatal(err)
	}
	if mock {
		u := func(i int) uint64 { return binary.LittleEndian.Uint64(m[8*i:]) }
		if u(0) != 2|9<<8|3<<16|2<<32 || u(1) != uint64(buf.Ptr()) || u(2) != 256 || u(3) != 96 || u(7) != 512 || u(11) != 64|32<<32 {
			t.Errorf("the driver received %x", m[:96])
		}
	}
	mod := loadPTX(t, c, "tensormap_echo.ptx")
	f, err := mod.Function("tensormap_echo")
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Alloc(128)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	for _, arg := range []any{m, *m} {
		if err := out.Write(make([]byte, 128)); err != nil {
			t.Fatal(err)
		}
		if err := f.Launch(Dim3{X: 1}, Dim3{X: 32}, 0, arg, out); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, 128)
		if err := out.Read(got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, m[:]) {
			t.Errorf("%T: the kernel saw %x, want %x", arg, got, m[:])
		}
	}

	for _, bad := range []struct {
		name string
		edit func(*Tiled)
		want string
	}{
		{"box over 256", func(t *Tiled) { t.Box = []uint32{32, 512} }, "cuTensorMapEncodeTiled"},
		{"stride not a multiple of 16", func(t *Tiled) { t.Strides = []uint64{510} }, "cuTensorMapEncodeTiled"},
		{"rank 6", func(t *Tiled) { t.Dims = make([]uint64, 6) }, "6 dimensions"},
		{"strides missing", func(t *Tiled) { t.Strides = nil }, "takes 1 strides"},
	} {
		tt := tiled
		bad.edit(&tt)
		if _, err := c.EncodeTiled(tt); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: err = %v, want one naming %q", bad.name, err, bad.want)
		}
	}
}
