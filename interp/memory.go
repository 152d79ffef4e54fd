package interp

import (
	"fmt"
	"math"

	"github.com/layoutopt/layoutopt/ir"
)

// Memory is the global memory the interpreted program reads and writes: a
// flat 64-bit byte address space. Pointer values are addresses in it.
// Errors (an address outside every buffer, say) are reported by the
// interpreter at the op that made the access.
type Memory interface {
	Load(addr int64, p []byte) error
	Store(addr int64, p []byte) error
}

// Buffer is a typed host buffer: Len() elements of Elem, little-endian in
// Data. It is what a pointer argument of a kernel points to.
type Buffer struct {
	Elem ir.Type
	Data []byte
}

// NewBuffer makes a zeroed buffer of n elements of elem (a scalar type:
// an integer, a float or a pointer type).
func NewBuffer(elem ir.Type, n int) (*Buffer, error) {
	e, err := ElemOf(elem)
	if err != nil {
		return nil, err
	}
	return &Buffer{Elem: elem, Data: make([]byte, n*e.Bytes())}, nil
}

func (b *Buffer) elem() Elem {
	e, err := ElemOf(b.Elem)
	if err != nil {
		panic(err) // NewBuffer checked it; a hand-made Buffer is checked by Run
	}
	return e
}

// Len is the number of elements of the buffer.
func (b *Buffer) Len() int { return len(b.Data) / b.elem().Bytes() }

// Float returns element i of a float buffer as a float64 (exactly).
func (b *Buffer) Float(i int) float64 {
	e := b.elem()
	n := e.Bytes()
	_, f := loadElem(e, b.Data[i*n:(i+1)*n])
	return f
}

// SetFloat rounds v to the buffer's float type (to nearest even) and
// stores it as element i.
func (b *Buffer) SetFloat(i int, v float64) {
	e := b.elem()
	n := e.Bytes()
	storeElem(e, b.Data[i*n:(i+1)*n], 0, e.Float.Round(v, NearestEven, false))
}

// Int returns element i of an integer buffer, sign-extended.
func (b *Buffer) Int(i int) int64 {
	e := b.elem()
	n := e.Bytes()
	v, _ := loadElem(e, b.Data[i*n:(i+1)*n])
	return v
}

// SetInt stores v, truncated to the buffer's width, as element i.
func (b *Buffer) SetInt(i int, v int64) {
	e := b.elem()
	n := e.Bytes()
	storeElem(e, b.Data[i*n:(i+1)*n], v, 0)
}

// bufferShift places buffer k of a BufferMemory at address (k+1)<<bufferShift.
const bufferShift = 40

// BufferMemory is a Memory made of separate buffers: buffer k lies at
// address (k+1)<<40, so that pointer arithmetic stays inside one buffer's
// 1 TiB window, and an access outside the bytes of a buffer is an error
// that names the buffer and the offset.
type BufferMemory struct {
	Bufs  []*Buffer
	Names []string // for messages; may be shorter than Bufs
}

// ScratchMemory is a Memory that can give a launch its global scratch
// (see Machine.Launch).
type ScratchMemory interface {
	Memory
	// AllocScratch returns the address of n bytes that no other buffer
	// holds.
	AllocScratch(n int64) (int64, error)
}

// AllocScratch implements ScratchMemory: a new zeroed buffer of n bytes,
// named "global scratch".
func (m *BufferMemory) AllocScratch(n int64) (int64, error) {
	if int64(len(m.Bufs)+2) >= 1<<(63-bufferShift) || n > 1<<bufferShift {
		return 0, fmt.Errorf("no room for %d bytes of global scratch", n)
	}
	return m.Add(&Buffer{Elem: ir.I8, Data: make([]byte, n)}, "global scratch"), nil
}

// Add places buffer b in the memory, named for messages, and returns its
// address.
func (m *BufferMemory) Add(b *Buffer, name string) int64 {
	k := len(m.Bufs)
	m.Bufs = append(m.Bufs, b)
	for len(m.Names) < k {
		m.Names = append(m.Names, "")
	}
	m.Names = append(m.Names, name)
	return m.Base(k)
}

// Base returns the address of buffer k.
func (m *BufferMemory) Base(k int) int64 { return int64(k+1) << bufferShift }

func (m *BufferMemory) find(addr int64, n int) ([]byte, error) {
	k := int(addr>>bufferShift) - 1
	off := addr & (1<<bufferShift - 1)
	if k < 0 || k >= len(m.Bufs) {
		return nil, fmt.Errorf("address %#x is in no buffer", addr)
	}
	b := m.Bufs[k]
	if off+int64(n) > int64(len(b.Data)) {
		name := fmt.Sprintf("buffer %d", k)
		if k < len(m.Names) && m.Names[k] != "" {
			name = fmt.Sprintf("buffer %d (%s)", k, m.Names[k])
		}
		return nil, fmt.Errorf("out-of-bounds access: byte offset %d of %s, which holds %d bytes", off, name, len(b.Data))
	}
	return b.Data[off : off+int64(n)], nil
}

// Load implements Memory.
func (m *BufferMemory) Load(addr int64, p []byte) error {
	src, err := m.find(addr, len(p))
	if err != nil {
		return err
	}
	copy(p, src)
	return nil
}

// Store implements Memory.
func (m *BufferMemory) Store(addr int64, p []byte) error {
	dst, err := m.find(addr, len(p))
	if err != nil {
		return err
	}
	copy(dst, p)
	return nil
}

// LazyMemory is an unbounded Memory for testing programs without knowing
// the sizes of their buffers: region k (address (k+1)<<40, as in
// BufferMemory) holds elements of Elems[k], and every byte not yet written
// reads as a deterministic pseudo-random value of that element type,
// derived from Seed, k and the element's index (floats uniform in [-2, 2)
// rounded to the type; integers uniform in [0, 16); pointers 0). Any
// address can be read and written, negative offsets included, so two runs
// of equivalent programs can be compared by their writes (Written).
type LazyMemory struct {
	Seed  uint64
	Elems []Elem
	pages map[int64]*lazyPage
	last  *lazyPage // the page of the last access
	lastN int64
}

const pageBits = 12

type lazyPage struct {
	data    [1 << pageBits]byte
	written [1 << pageBits]bool
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// lazyScratch is where LazyMemory puts global scratch: far above the
// addresses tests give their buffers.
const lazyScratch = 1 << 56

// AllocScratch implements ScratchMemory: the bytes from lazyScratch on
// (each launch gets the same ones), which read like any other of the
// memory until written.
func (m *LazyMemory) AllocScratch(n int64) (int64, error) {
	if n > lazyScratch {
		return 0, fmt.Errorf("no room for %d bytes of global scratch", n)
	}
	return lazyScratch, nil
}

func (m *LazyMemory) page(addr int64) *lazyPage {
	if m.pages == nil {
		m.pages = map[int64]*lazyPage{}
	}
	pn := addr >> pageBits
	if m.last != nil && m.lastN == pn {
		return m.last
	}
	if p := m.pages[pn]; p != nil {
		m.last, m.lastN = p, pn
		return p
	}
	p := &lazyPage{}
	base := pn << pageBits
	k := int(base>>bufferShift) - 1
	e := Elem{Width: 8}
	if k >= 0 && k < len(m.Elems) {
		e = m.Elems[k]
	}
	n := e.Bytes()
	regionBase := int64(k+1) << bufferShift
	for off := 0; off < len(p.data); off += n {
		idx := (base + int64(off) - regionBase) / int64(n)
		h := splitmix(m.Seed ^ splitmix(uint64(k)<<48^uint64(idx)))
		var iv int64
		var fv float64
		switch {
		case e.Float != nil:
			fv = e.Float.Round(float64(h>>11)/(1<<53)*4-2, NearestEven, false)
		case e.IsPtr():
		default:
			iv = int64(h % 16)
		}
		storeElem(e, p.data[off:off+n], iv, fv)
	}
	m.pages[pn] = p
	m.last, m.lastN = p, pn
	return p
}

// Load implements Memory.
func (m *LazyMemory) Load(addr int64, p []byte) error {
	for len(p) > 0 {
		pg := m.page(addr)
		off := int(addr & (1<<pageBits - 1))
		n := copy(p, pg.data[off:])
		p, addr = p[n:], addr+int64(n)
	}
	return nil
}

// Store implements Memory.
func (m *LazyMemory) Store(addr int64, p []byte) error {
	for len(p) > 0 {
		pg := m.page(addr)
		off := int(addr & (1<<pageBits - 1))
		n := copy(pg.data[off:], p)
		for i := off; i < off+n; i++ {
			pg.written[i] = true
		}
		p, addr = p[n:], addr+int64(n)
	}
	return nil
}

// DiffWrites compares what two LazyMemory values had written to them: it
// returns the number of byte addresses written in one but not the other or
// with different values, and the lowest such address.
func DiffWrites(a, b *LazyMemory) (n int, first int64) {
	first = math.MaxInt64
	cmp := func(pn int64, p, q *lazyPage) {
		for i := range p.written {
			pw, qw := p.written[i], q != nil && q.written[i]
			if pw != qw || pw && p.data[i] != q.data[i] {
				n++
				first = min(first, pn<<pageBits+int64(i))
			}
		}
	}
	for pn, p := range a.pages {
		cmp(pn, p, b.pages[pn])
	}
	for pn, q := range b.pages {
		if a.pages[pn] == nil {
			cmp(pn, q, nil)
		}
	}
	return n, first
}

// EachWritten calls fn with the address of every byte written (in no
// particular order).
func (m *LazyMemory) EachWritten(fn func(addr int64)) {
	for pn, p := range m.pages {
		for i, w := range p.written {
			if w {
				fn(pn<<pageBits + int64(i))
			}
		}
	}
}

// ReadWritten returns the byte at addr and whether it was written.
func (m *LazyMemory) ReadWritten(addr int64) (byte, bool) {
	p := m.pages[addr>>pageBits]
	if p == nil {
		return 0, false
	}
	i := addr & (1<<pageBits - 1)
	return p.data[i], p.written[i]
}

// NumWritten is the number of bytes written.
func (m *LazyMemory) NumWritten() int {
	n := 0
	for _, p := range m.pages {
		for _, w := range p.written {
			if w {
				n++
			}
		}
	}
	return n
}
