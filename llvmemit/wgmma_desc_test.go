package llvmemit

import (
	"fmt"
	"testing"

	"github.com/layoutopt/layoutopt/attr"
)

// The descriptor's bit fields, from the PTX ISA's matrix-descriptor
// format: start address >> 4 in bits 0–13, LBO >> 4 in 16–29, SBO >> 4 in
// 32–45, the swizzle mode in 62–63 (1: 128 B, 2: 64 B, 3: 32 B).
func TestMatrixDescEncode(t *testing.T) {
	for _, c := range []struct {
		d    matrixDesc
		addr int
		want uint64
	}{
		// Triton's createDescriptor for a 128-byte swizzle and stride 128:
		// SBO = 128>>1 = 64 (1024 bytes), LBO = 128·128>>4 = 1024.
		{matrixDesc{LBO: 16384, SBO: 1024, Swizzle: 128}, 0x2000, 0x200 | 1024<<16 | 64<<32 | 1<<62},
		{matrixDesc{LBO: 4096, SBO: 512, Swizzle: 64}, 0x10, 0x1 | 256<<16 | 32<<32 | 2<<62},
		{matrixDesc{LBO: 2048, SBO: 256, Swizzle: 32}, 0x3fff0, 0x3fff | 128<<16 | 16<<32 | 3<<62},
		{matrixDesc{LBO: 128, SBO: 256}, 0x40, 0x4 | 8<<16 | 16<<32},
	} {
		got, err := c.d.encode(c.addr)
		if err != nil || got != c.want {
			t.Errorf("%+v.encode(%#x) = %#x, %v; want %#x", c.d, c.addr, got, err, c.want)
		}
	}
	for _, c := range []struct {
		d    matrixDesc
		addr int
	}{
		{matrixDesc{LBO: 16, SBO: 16, Swizzle: 128}, 8},       // address not a multiple of 16
		{matrixDesc{LBO: 16, SBO: 16, Swizzle: 128}, 1 << 18}, // address past 14 bits
		{matrixDesc{LBO: 1 << 18, SBO: 16, Swizzle: 128}, 0},  // LBO past 14 bits
		{matrixDesc{LBO: 16, SBO: 16, Swizzle: 16}, 0},        // no such swizzle
	} {
		if got, err := c.d.encode(c.addr); err == nil {
			t.Errorf("%+v.encode(%#x) = %#x, want an error", c.d, c.addr, got)
		}
	}
}

// The swizzle XORs the 16-byte chunk index (bits 4–6) with the row in the
// 8-row atom (bits 7–9), for 128 bytes; fewer bits for 64 and 32.
func TestSwizzleAddr(t *testing.T) {
	for _, c := range []struct{ a, s, want int }{
		{3*128 + 1*16 + 2, 128, 3*128 + 2*16 + 2}, // row 3, chunk 1 → chunk 2
		{7*128 + 7*16, 128, 7 * 128},              // row 7, chunk 7 → chunk 0
		{1024 + 5*128, 128, 1024 + 5*128 + 5*16},  // next atom, row 5, chunk 0 → 5
		{3*128 + 1*16, 64, 3*128 + 2*16},          // 2 bits: 1 ^ 3
		{3*128 + 1*16, 32, 3 * 128},               // 1 bit: 1 ^ 1
		{3*128 + 1*16, 0, 3*128 + 16},
	} {
		if got := swizzleAddr(c.a, c.s); got != c.want {
			t.Errorf("swizzleAddr(%d, %d) = %d, want %d", c.a, c.s, got, c.want)
		}
	}
}

// nvmmaOperand is operand idx (0: A [M, K], 1: B [K, N]) of shape in a
// #ttg.nvmma_shared buffer.
func nvmmaOperand(t *testing.T, swizzle int, transposed bool, idx int, shape []int) smemOperand {
	t.Helper()
	enc := &attr.NVMMAShared{SwizzlingByteWidth: swizzle, Transposed: transposed, ElementBitWidth: 16, LayoutRank: 2}
	S, err := attr.Linear(enc, shape)
	if err != nil {
		t.Fatal(err)
	}
	view, err := S.Invert()
	if err != nil {
		t.Fatal(err)
	}
	o := smemOperand{eb: 2, swizzle: swizzle, instrK: 16, tileMN: 64}
	if idx == 0 {
		o.off = func(mn, k int) int { return view.Apply(mn, k)[0] }
		o.mn, o.k = shape[0], shape[1]
	} else {
		o.off = func(mn, k int) int { return view.Apply(k, mn)[0] }
		o.mn, o.k, o.tileMN = shape[1], shape[0], min(shape[1], 256)
	}
	return o
}

// The fields read off Triton's nvmma_shared layouts are Triton's
// (createDescriptor: SBO = swizzle·8 bytes, LBO = swizzle × the extent of
// the dim that is not contiguous), the majorness is the layout's, and the
// descriptor addresses every element of every tile where the layout puts
// it, at every K step.
func TestDeriveMatrixDesc(t *testing.T) {
	for _, swizzle := range []int{32, 64, 128} {
		for _, transposed := range []bool{false, true} {
			for idx, shape := range [][]int{{128, 64}, {64, 128}} {
				name := fmt.Sprintf("swizzle%d/transposed=%v/%s%v", swizzle, transposed, []string{"A", "B"}[idx], shape)
				o := nvmmaOperand(t, swizzle, transposed, idx, shape)
				d, err := deriveMatrixDesc(o)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				// A is K-major unless transposed; B (N contiguous) is
				// MN-major unless transposed.
				wantMN := transposed == (idx == 0)
				stride := shape[1-map[bool]int{false: 1, true: 0}[transposed]]
				want := matrixDesc{LBO: swizzle * stride, SBO: swizzle * 8, Swizzle: swizzle, MNMajor: wantMN}
				if d != want {
					t.Errorf("%s: derived %+v, want %+v", name, d, want)
				}
				for mn0 := 0; mn0 < o.mn; mn0 += o.tileMN {
					for k0 := 0; k0 < o.k; k0 += o.instrK {
						if err := d.check(o, mn0, k0); err != nil {
							t.Errorf("%s: %v", name, err)
						}
					}
				}
			}
		}
	}
}

// A descriptor is refused for a buffer it does not address exactly: two
// K columns swapped, a tile start off the 16-byte grid, or a K step wider
// than the swizzle.
func TestMatrixDescCheckRefuses(t *testing.T) {
	o := nvmmaOperand(t, 128, false, 0, []int{64, 64})
	d, err := deriveMatrixDesc(o)
	if err != nil {
		t.Fatal(err)
	}
	swapped := o
	swapped.off = func(mn, k int) int {
		if k == 2 || k == 3 {
			k ^= 1
		}
		return o.off(mn, k)
	}
	if err := d.check(swapped, 0, 0); err == nil {
		t.Errorf("a layout with two K columns swapped passed the check")
	}
	if err := d.check(o, 0, 4); err == nil {
		t.Errorf("a tile starting 8 bytes into a row passed the check")
	}
	narrow := nvmmaOperand(t, 32, false, 0, []int{64, 64})
	narrow.instrK = 32 // 64 bytes of K per step
	dn, err := deriveMatrixDesc(narrow)
	if err != nil {
		t.Fatal(err)
	}
	if err := dn.check(narrow, 0, 0); err == nil {
		t.Errorf("a K step wider than the 32-byte swizzle passed the check")
	}
}
