package cuda

import (
	"fmt"
	"runtime"
	"strings"
	"unsafe"
)

// CUjit_option values LoadPTX passes.
const (
	jitInfoLogBuffer       = 3
	jitInfoLogBufferBytes  = 4
	jitErrorLogBuffer      = 5
	jitErrorLogBufferBytes = 6
	jitLogVerbose          = 12
)

// jitLogBytes is the size of each JIT log buffer.
const jitLogBytes = 64 << 10

// Module is a loaded PTX (or cubin) image.
type Module struct {
	c *Context
	h handle
	// InfoLog is what the JIT compiler (ptxas) reported while loading:
	// with verbose logging, the registers, spills and shared memory of
	// every function.
	InfoLog string
}

// JITError is a failed module load, with ptxas's error log.
type JITError struct {
	Err *Error
	Log string // the JIT error log, e.g. "ptxas application ptx input, line 12; error : …"
}

func (e *JITError) Error() string {
	if e.Log == "" {
		return e.Err.Error()
	}
	return e.Err.Error() + "\n" + strings.TrimRight(e.Log, "\n")
}

func (e *JITError) Unwrap() error { return e.Err }

// LoadPTX loads a PTX module, JIT-compiling it for the device, with
// verbose logging. On failure the error is a *JITError with ptxas's log.
func (c *Context) LoadPTX(ptx []byte) (*Module, error) {
	img := make([]byte, len(ptx)+1) // the image must end in a NUL byte
	copy(img, ptx)
	info := make([]byte, jitLogBytes)
	elog := make([]byte, jitLogBytes)
	opts := []int32{jitInfoLogBuffer, jitInfoLogBufferBytes, jitErrorLogBuffer, jitErrorLogBufferBytes, jitLogVerbose}
	vals := []uintptr{uintptr(unsafe.Pointer(&info[0])), jitLogBytes, uintptr(unsafe.Pointer(&elog[0])), jitLogBytes, 1}
	// The driver writes into the logs through addresses the collector does
	// not see as pointers: pin them.
	var pin runtime.Pinner
	pin.Pin(&info[0])
	pin.Pin(&elog[0])
	defer pin.Unpin()
	m := &Module{c: c}
	var r Result
	err := c.Do(func() error {
		r = drv.cuModuleLoadDataEx(&m.h, unsafe.Pointer(&img[0]), uint32(len(opts)), &opts[0], &vals[0])
		return nil
	})
	if err != nil {
		return nil, err
	}
	if r != Success {
		return nil, &JITError{Err: check("cuModuleLoadDataEx", r).(*Error), Log: cBytes(elog)}
	}
	m.InfoLog = cBytes(info)
	return m, nil
}

// Unload unloads the module; its functions become invalid.
func (m *Module) Unload() error {
	if m.h == 0 {
		return nil
	}
	h := m.h
	m.h = 0
	return m.c.call("cuModuleUnload", func() Result { return drv.cuModuleUnload(h) })
}

// Function attributes (CUfunction_attribute).
const (
	funcMaxThreadsPerBlock = 0
	funcSharedSizeBytes    = 1
	funcLocalSizeBytes     = 3
	funcNumRegs            = 4
	funcPTXVersion         = 5
	funcBinaryVersion      = 6
	funcMaxDynamicShared   = 8
)

// Function is a kernel of a loaded module.
type Function struct {
	m    *Module
	h    handle
	Name string
	// Attributes the driver reports for the compiled kernel.
	Regs          int // registers per thread
	LocalBytes    int // local memory per thread (register spills, local arrays)
	StaticShared  int // statically allocated shared memory, bytes
	MaxThreads    int // the most threads per block it can be launched with
	PTXVersion    int // 10·major + minor of the PTX it came from
	BinaryVersion int // 10·major + minor of the SASS target
	dynShared     int // the dynamic shared memory limit set so far
}

// Function looks up the kernel (.entry) called name.
func (m *Module) Function(name string) (*Function, error) {
	if m.h == 0 {
		return nil, fmt.Errorf("cuda: Function %q of an unloaded module", name)
	}
	f := &Function{m: m, Name: name, dynShared: 48 << 10}
	err := m.c.Do(func() error {
		if err := check("cuModuleGetFunction", drv.cuModuleGetFunction(&f.h, m.h, name)); err != nil {
			return fmt.Errorf("%w (kernel %q)", err, name)
		}
		for _, a := range []struct {
			attr int32
			dst  *int
		}{
			{funcNumRegs, &f.Regs}, {funcLocalSizeBytes, &f.LocalBytes},
			{funcSharedSizeBytes, &f.StaticShared}, {funcMaxThreadsPerBlock, &f.MaxThreads},
			{funcPTXVersion, &f.PTXVersion}, {funcBinaryVersion, &f.BinaryVersion},
		} {
			var v int32
			if err := check("cuFuncGetAttribute", drv.cuFuncGetAttribute(&v, a.attr, f.h)); err != nil {
				return err
			}
			*a.dst = int(v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// SetMaxDynamicShared raises the kernel's dynamic shared memory limit to n
// bytes (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES), which launches
// with more than 48 KiB need.
func (f *Function) SetMaxDynamicShared(n int) error {
	if max := f.m.c.MaxSharedOptin(); n+f.StaticShared > max {
		return fmt.Errorf("cuda: kernel %s needs %d bytes of shared memory (%d dynamic + %d static); the device allows %d per block",
			f.Name, n+f.StaticShared, n, f.StaticShared, max)
	}
	err := f.m.c.call("cuFuncSetAttribute", func() Result { return drv.cuFuncSetAttribute(f.h, funcMaxDynamicShared, int32(n)) })
	if err == nil {
		f.dynShared = n
	}
	return err
}
