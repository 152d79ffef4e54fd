package llvmemit

import (
	"fmt"
	"math/bits"
)

// Shared-memory matrix descriptors of sm_90's wgmma (PTX ISA, "Matrix
// Descriptor Format"): a 64-bit value with the operand tile's start
// address >> 4 in bits 0–13, the leading-dimension byte offset >> 4 in
// bits 16–29, the stride-dimension byte offset >> 4 in bits 32–45, the
// base offset in bits 49–51 (0 here: buffers are aligned to the swizzle
// pattern) and the swizzle mode in bits 62–63 (0 none, 1 128-byte,
// 2 64-byte, 3 32-byte).
//
// The hardware reads a tile of mn × k elements at the canonical layouts
// CUTLASS spells out (mma_traits_sm90_gmma.hpp), with T = 16 bytes of
// elements and S the swizzle width in bytes; offsets are bytes from the
// start address, and the swizzle XORs address bits [4, 4+B) with bits
// [7, 7+B), B = log2(S/16), of the absolute address:
//
//	K-major,  no swizzle: (mn%8)·16 + (k%T)·eb + (mn/8)·SBO + (k/T)·LBO
//	K-major,  S swizzle:  (mn%8)·S + k·eb + (mn/8)·SBO   (k·eb < S)
//	MN-major, no swizzle: (mn%T)·eb + (mn/T)·SBO + (k%8)·16 + (k/8)·LBO
//	MN-major, S swizzle:  (mn%(S/eb))·eb + (mn/(S/eb))·LBO + (k%8)·S + (k/8)·SBO
//
// deriveMatrixDesc reads LBO and SBO off an operand's shared layout, and
// matrixDesc.check compares the hardware's address of every element of a
// tile with the layout's, so that a descriptor is only ever used for a
// buffer it addresses exactly.

// smemOperand is a wgmma operand in shared memory, seen along its MN and
// K dims: off gives the element offset of (mn, k) from the buffer's
// start.
type smemOperand struct {
	off     func(mn, k int) int
	mn, k   int // the buffer's extent along MN and K
	eb      int // bytes per element
	swizzle int // swizzle width in bytes: 0, 32, 64 or 128
	instrK  int // K of one instruction
	tileMN  int // MN of one instruction's tile (64 for A, N for B)
}

// matrixDesc is a descriptor's constant fields.
type matrixDesc struct {
	LBO, SBO int // bytes
	Swizzle  int // bytes: 0, 32, 64, 128
	MNMajor  bool
}

// swizzleMode is the descriptor's encoding of a swizzle width.
func swizzleMode(bytes int) (uint64, error) {
	switch bytes {
	case 0:
		return 0, nil
	case 128:
		return 1, nil
	case 64:
		return 2, nil
	case 32:
		return 3, nil
	}
	return 0, fmt.Errorf("no wgmma swizzle mode for %d-byte swizzling", bytes)
}

// period is the alignment the swizzle pattern repeats at: a tile's
// buffer must start at a multiple of it.
func (d matrixDesc) period() int {
	if d.Swizzle == 0 {
		return 16
	}
	return 8 * d.Swizzle
}

// encode returns the descriptor of a tile starting at byte address addr.
func (d matrixDesc) encode(addr int) (uint64, error) {
	mode, err := swizzleMode(d.Swizzle)
	if err != nil {
		return 0, err
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"start address", addr}, {"leading byte offset", d.LBO}, {"stride byte offset", d.SBO}} {
		if f.v < 0 || f.v%16 != 0 || f.v>>4 >= 1<<14 {
			return 0, fmt.Errorf("the %s %d does not fit a matrix descriptor (a multiple of 16 below 256 KiB)", f.name, f.v)
		}
	}
	return uint64(addr>>4) | uint64(d.LBO>>4)<<16 | uint64(d.SBO>>4)<<32 | mode<<62, nil
}

// swizzleAddr applies the swizzle of S-byte mode to a byte address.
func swizzleAddr(a, s int) int {
	if s == 0 {
		return a
	}
	mask := s/16 - 1
	return a ^ (a>>7&mask)<<4
}

// canonical is the byte offset the hardware gives element (mn, k) of a
// tile, before the swizzle.
func (d matrixDesc) canonical(mn, k, eb int) int {
	t := 16 / eb
	switch {
	case !d.MNMajor && d.Swizzle == 0:
		return mn%8*16 + k%t*eb + mn/8*d.SBO + k/t*d.LBO
	case !d.MNMajor:
		return mn%8*d.Swizzle + k*eb + mn/8*d.SBO
	case d.Swizzle == 0:
		return mn%t*eb + mn/t*d.SBO + k%8*16 + k/8*d.LBO
	default:
		row := d.Swizzle / eb
		return mn%row*eb + mn/row*d.LBO + k%8*d.Swizzle + k/8*d.SBO
	}
}

// deriveMatrixDesc reads the descriptor fields off the operand's layout:
// which dim is contiguous, and the byte distances between the 8-row (or
// T-element) groups the canonical layouts step by. A distance the tile
// never uses is given Triton's value (the swizzle width times the other
// dim's extent).
func deriveMatrixDesc(o smemOperand) (matrixDesc, error) {
	d := matrixDesc{Swizzle: o.swizzle}
	if _, err := swizzleMode(o.swizzle); err != nil {
		return d, err
	}
	at := func(mn, k int) int { return (o.off(mn, k) ^ o.off(0, 0)) * o.eb }
	switch {
	case o.k > 1 && at(0, 1) == o.eb:
		d.MNMajor = false
	case o.mn > 1 && at(1, 0) == o.eb:
		d.MNMajor = true
	default:
		return d, fmt.Errorf("neither K nor MN is contiguous in shared memory")
	}
	t := 16 / o.eb
	unused := o.swizzle * o.mn
	if d.MNMajor {
		unused = o.swizzle * o.k
	}
	dist := func(mn, k int) int {
		if mn >= o.mn || k >= o.k {
			return unused
		}
		return at(mn, k)
	}
	switch {
	case !d.MNMajor && o.swizzle == 0:
		d.SBO, d.LBO = dist(8, 0), dist(0, t)
	case !d.MNMajor:
		d.SBO, d.LBO = dist(8, 0), dist(0, o.swizzle/o.eb)
	case o.swizzle == 0:
		d.SBO, d.LBO = dist(t, 0), dist(0, 8)
	default:
		d.SBO, d.LBO = dist(0, 8), dist(o.swizzle/o.eb, 0)
	}
	return d, nil
}

// check verifies that the descriptor, started at the tile's first element
// (mn0, k0), makes the hardware read every element of the tile where the
// layout puts it, for a buffer aligned to the swizzle's period.
func (d matrixDesc) check(o smemOperand, mn0, k0 int) error {
	start := o.off(mn0, k0) * o.eb
	if start%16 != 0 {
		return fmt.Errorf("the tile at (%d, %d) starts at byte %d, not a multiple of 16", mn0, k0, start)
	}
	if !d.MNMajor && d.Swizzle != 0 && o.instrK*o.eb > d.Swizzle {
		return fmt.Errorf("one instruction's K (%d bytes) is wider than the %d-byte swizzle", o.instrK*o.eb, d.Swizzle)
	}
	for mn := 0; mn < o.tileMN; mn++ {
		for k := 0; k < o.instrK; k++ {
			want := o.off(mn0+mn, k0+k) * o.eb
			if got := swizzleAddr(start+d.canonical(mn, k, o.eb), d.Swizzle); got != want {
				return fmt.Errorf("the descriptor addresses element (%d, %d) of the tile at (%d, %d) at byte %d, the layout at %d", mn, k, mn0, k0, got, want)
			}
		}
	}
	return nil
}

// lowBit is the largest power of two dividing x (1<<30 for 0).
func lowBit(x int) int {
	if x == 0 {
		return 1 << 30
	}
	return 1 << bits.TrailingZeros(uint(x))
}
