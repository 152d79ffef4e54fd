package cuda

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"unsafe"
)

// Dim3 is a grid or block size; a zero component counts as 1.
type Dim3 struct{ X, Y, Z int }

func (d Dim3) norm() Dim3 {
	for _, p := range []*int{&d.X, &d.Y, &d.Z} {
		if *p == 0 {
			*p = 1
		}
	}
	return d
}

// Count is X·Y·Z.
func (d Dim3) Count() int { d = d.norm(); return d.X * d.Y * d.Z }

func (d Dim3) String() string { d = d.norm(); return fmt.Sprintf("%d,%d,%d", d.X, d.Y, d.Z) }

// packArg encodes one kernel argument as the bytes of its .param:
// a DevicePtr or *Buffer is a 64-bit address, the fixed-size integer and
// float types their little-endian bits, a bool one byte, a TensorMap its
// 128 bytes.
func packArg(a any) ([]byte, error) {
	var b []byte
	switch v := a.(type) {
	case DevicePtr:
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	case *Buffer:
		b = binary.LittleEndian.AppendUint64(b, uint64(v.Ptr()))
	case bool:
		if v {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	case int8:
		b = append(b, byte(v))
	case uint8:
		b = append(b, v)
	case int16:
		b = binary.LittleEndian.AppendUint16(b, uint16(v))
	case uint16:
		b = binary.LittleEndian.AppendUint16(b, v)
	case int32:
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	case uint32:
		b = binary.LittleEndian.AppendUint32(b, v)
	case int64:
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	case uint64:
		b = binary.LittleEndian.AppendUint64(b, v)
	case float32:
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	case float64:
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	case []byte: // raw bits, e.g. an f16 scalar
		if len(v) == 0 || len(v) > 8 {
			return nil, fmt.Errorf("a raw argument of %d bytes (want 1 to 8)", len(v))
		}
		b = append(b, v...)
	case *TensorMap: // by value: .param .align 64 .b8 [128]
		b = append(b, v[:]...)
	case TensorMap:
		b = append(b, v[:]...)
	default:
		return nil, fmt.Errorf("unsupported kernel argument type %T", a)
	}
	return b, nil
}

// Launch is a kernel launch with its arguments packed and pinned, ready to
// be queued any number of times; Release frees what Prepare made.
type Launch struct {
	f           *Function
	grid, block Dim3
	shared      int
	slots       []uint64         // the argument values, each in whole 8-byte slots, a TensorMap 64-byte aligned
	params      []unsafe.Pointer // the address of each value, what cuLaunchKernel reads
	pin         runtime.Pinner
	owned       []*Buffer // scratch buffers of a Triton launch
	released    bool
}

// Prepare packs args (see packArg's types) for launches of f on grid with
// block threads and shared bytes of dynamic shared memory, raising the
// kernel's dynamic shared memory limit when shared is above it.
func (f *Function) Prepare(grid, block Dim3, shared int, args ...any) (*Launch, error) {
	grid, block = grid.norm(), block.norm()
	if block.Count() > f.MaxThreads {
		return nil, fmt.Errorf("cuda: kernel %s launched with %d threads per block; it allows %d", f.Name, block.Count(), f.MaxThreads)
	}
	if shared > f.dynShared {
		if err := f.SetMaxDynamicShared(shared); err != nil {
			return nil, err
		}
	}
	l := &Launch{f: f, grid: grid, block: block, shared: shared}
	packed := make([][]byte, len(args))
	n := 0
	for i, a := range args {
		b, err := packArg(a)
		if err != nil {
			return nil, fmt.Errorf("cuda: argument %d of %s: %v", i, f.Name, err)
		}
		packed[i] = b
		n += (len(b) + 7) / 8
		if len(b) > 8 {
			n += 8 // room to align it to 64 bytes
		}
	}
	l.slots = make([]uint64, max(n, 1))
	l.params = make([]unsafe.Pointer, max(len(args), 1))
	at := 0
	for i, b := range packed {
		if len(b) > 8 { // a TensorMap: 64-byte aligned, as Triton's launcher has it
			for uintptr(unsafe.Pointer(&l.slots[at]))%64 != 0 {
				at++
			}
		}
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&l.slots[at])), len(b)), b)
		l.params[i] = unsafe.Pointer(&l.slots[at])
		at += (len(b) + 7) / 8
	}
	// The driver reads params (Go memory holding Go pointers) and the slots.
	l.pin.Pin(&l.slots[0])
	l.pin.Pin(&l.params[0])
	return l, nil
}

// Run queues the launch on the default stream.
func (l *Launch) Run() error { return l.run(0) }

// RunOn queues the launch on stream s (in a [Context.Capture], adds it to
// the graph).
func (l *Launch) RunOn(s *Stream) error { return l.run(s.h) }

func (l *Launch) run(stream handle) error {
	if l.released {
		return fmt.Errorf("cuda: Run of a released launch of %s", l.f.Name)
	}
	g, b := l.grid, l.block
	return l.f.m.c.call("cuLaunchKernel", func() Result {
		return drv.cuLaunchKernel(l.f.h, uint32(g.X), uint32(g.Y), uint32(g.Z), uint32(b.X), uint32(b.Y), uint32(b.Z),
			uint32(l.shared), stream, unsafe.Pointer(&l.params[0]), nil)
	})
}

// Release unpins the arguments and frees the launch's scratch buffers.
func (l *Launch) Release() error {
	if l.released {
		return nil
	}
	l.released = true
	l.pin.Unpin()
	var first error
	for _, b := range l.owned {
		if err := b.Free(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Launch queues one launch of f (Prepare, Run, Release).
func (f *Function) Launch(grid, block Dim3, shared int, args ...any) error {
	return runOnce(f.Prepare(grid, block, shared, args...))
}

// runOnce runs a prepared launch once and releases it.
func runOnce(l *Launch, err error) error {
	if err != nil {
		return err
	}
	err = l.Run()
	if rerr := l.Release(); err == nil {
		err = rerr
	}
	return err
}

// Meta is what launching a Triton kernel needs from its metadata: the keys
// of the JSON that Triton 3.6 writes beside a compiled kernel
// (CompiledKernel.metadata); other keys are ignored.
type Meta struct {
	Name                string `json:"name"`
	NumWarps            int    `json:"num_warps"`
	NumCTAs             int    `json:"num_ctas"`
	ThreadsPerWarp      int    `json:"threads_per_warp"`
	Shared              int    `json:"shared"` // dynamic shared memory, bytes
	GlobalScratchSize   int    `json:"global_scratch_size"`
	GlobalScratchAlign  int    `json:"global_scratch_align"`
	ProfileScratchSize  int    `json:"profile_scratch_size"`
	ProfileScratchAlign int    `json:"profile_scratch_align"`
}

// ParseMeta reads Triton's kernel metadata JSON.
func ParseMeta(data []byte) (Meta, error) {
	var m Meta
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("kernel metadata: %v", err)
	}
	return m, m.validate()
}

func (m *Meta) validate() error {
	switch {
	case m.Name == "":
		return fmt.Errorf("kernel metadata: no kernel name")
	case m.NumWarps <= 0:
		return fmt.Errorf("kernel metadata: num_warps %d", m.NumWarps)
	case m.NumCTAs > 1:
		return fmt.Errorf("kernel metadata: num_ctas %d: launching thread-block clusters is not supported", m.NumCTAs)
	case m.Shared < 0 || m.GlobalScratchSize < 0 || m.ProfileScratchSize < 0 || m.ThreadsPerWarp < 0:
		return fmt.Errorf("kernel metadata: negative size")
	}
	return nil
}

// Threads is the block size: threads_per_warp (32 when absent) × num_warps.
func (m Meta) Threads() int {
	w := m.ThreadsPerWarp
	if w == 0 {
		w = 32
	}
	return w * m.NumWarps
}

// Kernel is a Triton kernel: a function and its metadata.
type Kernel struct {
	Fn   *Function
	Meta Meta
}

// Kernel looks up the kernel that meta describes.
func (m *Module) Kernel(meta Meta) (*Kernel, error) {
	if err := meta.validate(); err != nil {
		return nil, err
	}
	f, err := m.Function(meta.Name)
	if err != nil {
		return nil, err
	}
	return &Kernel{Fn: f, Meta: meta}, nil
}

// Prepare packs a launch of the kernel on grid with Triton 3.6's ABI:
// args are the tt.func's parameters in order, then come the global-scratch
// and profile-scratch pointers (null when the kernel needs none, else a
// buffer of grid·size bytes, each program's share aligned); the block has
// Meta.Threads() threads and Meta.Shared bytes of dynamic shared memory.
func (k *Kernel) Prepare(grid Dim3, args ...any) (*Launch, error) {
	c := k.Fn.m.c
	var owned []*Buffer
	scratch := func(size, align int) (DevicePtr, error) {
		if size == 0 {
			return 0, nil
		}
		if align > 0 {
			size = (size + align - 1) / align * align
		}
		b, err := c.Alloc(int64(size) * int64(grid.Count()))
		if err != nil {
			return 0, err
		}
		owned = append(owned, b)
		return b.Ptr(), nil
	}
	free := func() {
		for _, b := range owned {
			b.Free()
		}
	}
	gs, err := scratch(k.Meta.GlobalScratchSize, k.Meta.GlobalScratchAlign)
	if err != nil {
		free()
		return nil, err
	}
	ps, err := scratch(k.Meta.ProfileScratchSize, k.Meta.ProfileScratchAlign)
	if err != nil {
		free()
		return nil, err
	}
	all := append(append([]any{}, args...), gs, ps)
	l, err := k.Fn.Prepare(grid, Dim3{X: k.Meta.Threads()}, k.Meta.Shared, all...)
	if err != nil {
		free()
		return nil, err
	}
	l.owned = owned
	return l, nil
}

// Launch queues one launch of the kernel (Prepare, Run, Release).
func (k *Kernel) Launch(grid Dim3, args ...any) error {
	return runOnce(k.Prepare(grid, args...))
}
