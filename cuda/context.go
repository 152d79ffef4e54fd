package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
)

// ErrClosed is returned by the methods of a closed [Context] and of what it
// made.
var ErrClosed = errors.New("cuda: context closed")

// Device attributes (CUdevice_attribute) that [Context] reads.
const (
	attrMultiprocessorCount    = 16
	attrComputeCapabilityMajor = 75
	attrComputeCapabilityMinor = 76
	attrMaxSharedPerBlockOptin = 97
)

// Context is a device's primary context, with the one OS thread that every
// driver call on it runs on (see the package documentation).
type Context struct {
	dev   int32
	ctx   handle
	calls chan func()
	quit  chan struct{}
	done  chan struct{}
	once  sync.Once
	tid   int // the context thread's OS thread id

	// Filled in by NewContext.
	name                string
	major, minor        int
	sms                 int
	totalMem            int64
	maxSharedOptinBytes int
}

// NewContext retains the primary context of device ordinal (0 for the
// first GPU) and makes it current on a new OS thread owned by the Context.
func NewContext(ordinal int) (*Context, error) {
	if err := load(); err != nil {
		return nil, err
	}
	c := &Context{calls: make(chan func()), quit: make(chan struct{}), done: make(chan struct{})}
	ready := make(chan error, 1)
	go c.loop(int32(ordinal), ready)
	if err := <-ready; err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Context) loop(ordinal int32, ready chan<- error) {
	// The goroutine stays locked to the thread until it returns, which
	// ends the thread with it: no other goroutine ever runs on a thread
	// where this context is current.
	runtime.LockOSThread()
	defer close(c.done)
	c.tid = threadID()
	if err := c.open(ordinal); err != nil {
		ready <- err
		return
	}
	ready <- nil
	for {
		select {
		case f := <-c.calls:
			f()
		case <-c.quit:
			drv.cuCtxSynchronize()
			drv.cuDevicePrimaryCtxRelease(c.dev)
			return
		}
	}
}

func (c *Context) open(ordinal int32) error {
	if err := check("cuDeviceGet", drv.cuDeviceGet(&c.dev, ordinal)); err != nil {
		return err
	}
	if err := check("cuDevicePrimaryCtxRetain", drv.cuDevicePrimaryCtxRetain(&c.ctx, c.dev)); err != nil {
		return err
	}
	if err := check("cuCtxSetCurrent", drv.cuCtxSetCurrent(c.ctx)); err != nil {
		drv.cuDevicePrimaryCtxRelease(c.dev)
		return err
	}
	name := make([]byte, 256)
	if err := check("cuDeviceGetName", drv.cuDeviceGetName(&name[0], int32(len(name)), c.dev)); err != nil {
		return err
	}
	c.name = cBytes(name)
	for _, a := range []struct {
		attr int32
		dst  *int
	}{
		{attrComputeCapabilityMajor, &c.major},
		{attrComputeCapabilityMinor, &c.minor},
		{attrMultiprocessorCount, &c.sms},
		{attrMaxSharedPerBlockOptin, &c.maxSharedOptinBytes},
	} {
		var v int32
		if err := check("cuDeviceGetAttribute", drv.cuDeviceGetAttribute(&v, a.attr, c.dev)); err != nil {
			return err
		}
		*a.dst = int(v)
	}
	var mem uint64
	if err := check("cuDeviceTotalMem", drv.cuDeviceTotalMem(&mem, c.dev)); err != nil {
		return err
	}
	c.totalMem = int64(mem)
	return nil
}

// Do runs f on the context's thread and returns its error. Calls to the
// Context's methods (and those of its modules, buffers and events) inside f
// run directly, without a thread hop, so a timing loop inside Do enqueues
// its work as fast as the driver takes it.
func (c *Context) Do(f func() error) error {
	if threadID() == c.tid {
		return f()
	}
	errc := make(chan error, 1)
	select {
	case c.calls <- func() { errc <- f() }:
		return <-errc
	case <-c.quit:
		return ErrClosed
	}
}

// call runs one driver call on the context's thread.
func (c *Context) call(name string, f func() Result) error {
	return c.Do(func() error { return check(name, f()) })
}

// Close waits for the device's pending work, releases the primary context
// and ends the context's thread. It must not run concurrently with other
// calls on c; a second Close does nothing.
func (c *Context) Close() error {
	c.once.Do(func() { close(c.quit) })
	<-c.done
	return nil
}

// Synchronize waits until the device has finished all work queued on it.
func (c *Context) Synchronize() error {
	return c.call("cuCtxSynchronize", drv.cuCtxSynchronize)
}

// Name is the device's name, "NVIDIA H200".
func (c *Context) Name() string { return c.name }

// ComputeCapability is the device's compute capability (9, 0 on Hopper).
func (c *Context) ComputeCapability() (major, minor int) { return c.major, c.minor }

// Multiprocessors is the number of SMs.
func (c *Context) Multiprocessors() int { return c.sms }

// TotalMemory is the device memory in bytes.
func (c *Context) TotalMemory() int64 { return c.totalMem }

// MaxSharedOptin is the most shared memory per block a kernel can opt in
// to, in bytes (227 KiB on Hopper).
func (c *Context) MaxSharedOptin() int { return c.maxSharedOptinBytes }

// String describes the device: "NVIDIA H200 (sm_90, 132 SMs, 140 GiB)".
func (c *Context) String() string {
	return fmt.Sprintf("%s (sm_%d%d, %d SMs, %d GiB)", c.name, c.major, c.minor, c.sms, c.totalMem>>30)
}
