package cuda

import (
	"fmt"
	"unsafe"
)

// DevicePtr is a device address (CUdeviceptr). As a kernel argument it is
// a global pointer.
type DevicePtr uint64

// Buffer is device memory allocated with [Context.Alloc].
type Buffer struct {
	c    *Context
	ptr  DevicePtr
	size int64
}

// Alloc allocates n bytes of device memory (256-byte aligned). A buffer of
// zero bytes has the null address and needs no driver call.
func (c *Context) Alloc(n int64) (*Buffer, error) {
	if n < 0 {
		return nil, fmt.Errorf("cuda: Alloc of %d bytes", n)
	}
	b := &Buffer{c: c, size: n}
	if n == 0 {
		return b, nil
	}
	err := c.call("cuMemAlloc", func() Result { return drv.cuMemAlloc(&b.ptr, uint64(n)) })
	if err != nil {
		return nil, fmt.Errorf("%w (allocating %d bytes)", err, n)
	}
	return b, nil
}

// Ptr is the buffer's device address.
func (b *Buffer) Ptr() DevicePtr { return b.ptr }

// Size is the buffer's size in bytes.
func (b *Buffer) Size() int64 { return b.size }

// Free releases the buffer; a second Free does nothing.
func (b *Buffer) Free() error {
	if b.ptr == 0 {
		return nil
	}
	p := b.ptr
	b.ptr = 0
	return b.c.call("cuMemFree", func() Result { return drv.cuMemFree(p) })
}

func (b *Buffer) checkRange(what string, n int) error {
	if b.ptr == 0 && b.size != 0 {
		return fmt.Errorf("cuda: %s on a freed buffer", what)
	}
	if int64(n) > b.size {
		return fmt.Errorf("cuda: %s of %d bytes into a buffer of %d", what, n, b.size)
	}
	return nil
}

// Write copies src to the start of the buffer (host to device; it returns
// when the copy is done).
func (b *Buffer) Write(src []byte) error {
	if err := b.checkRange("Write", len(src)); err != nil || len(src) == 0 {
		return err
	}
	return b.c.call("cuMemcpyHtoD", func() Result {
		return drv.cuMemcpyHtoD(b.ptr, unsafe.Pointer(&src[0]), uint64(len(src)))
	})
}

// Read copies the start of the buffer into dst (device to host, after the
// work queued before it).
func (b *Buffer) Read(dst []byte) error {
	if err := b.checkRange("Read", len(dst)); err != nil || len(dst) == 0 {
		return err
	}
	return b.c.call("cuMemcpyDtoH", func() Result {
		return drv.cuMemcpyDtoH(unsafe.Pointer(&dst[0]), b.ptr, uint64(len(dst)))
	})
}

// Fill sets every byte of the buffer to v (queued on the default stream).
func (b *Buffer) Fill(v byte) error {
	if err := b.checkRange("Fill", 0); err != nil || b.size == 0 {
		return err
	}
	return b.c.call("cuMemsetD8", func() Result { return drv.cuMemsetD8(b.ptr, v, uint64(b.size)) })
}

// Copy queues a device-to-device copy of n bytes from src to dst on the
// default stream.
func (c *Context) Copy(dst, src DevicePtr, n int64) error {
	if n == 0 {
		return nil
	}
	return c.call("cuMemcpyDtoDAsync", func() Result { return drv.cuMemcpyDtoDAsync(dst, src, uint64(n), 0) })
}
