package cuda

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

// ErrNoDriver is wrapped by the error of every call made where the CUDA
// driver library (libcuda.so.1) cannot be loaded.
var ErrNoDriver = errors.New("no CUDA driver")

// Result is a CUresult, the status every driver call returns.
type Result int32

// The results this package tests for by value.
const (
	Success  Result = 0   // CUDA_SUCCESS
	NotReady Result = 600 // CUDA_ERROR_NOT_READY
)

// handle is an opaque driver handle (CUcontext, CUmodule, CUfunction,
// CUevent, CUstream).
type handle = uintptr

// The driver's entry points. The _v2 names are the symbols behind cuda.h's
// macros (64-bit CUdeviceptr and size_t); a slot lists its fallbacks.
var drv struct {
	cuInit                      func(flags uint32) Result
	cuDriverGetVersion          func(v *int32) Result
	cuGetErrorName              func(r Result, s **byte) Result
	cuGetErrorString            func(r Result, s **byte) Result
	cuDeviceGetCount            func(n *int32) Result
	cuDeviceGet                 func(dev *int32, ordinal int32) Result
	cuDeviceGetName             func(name *byte, n int32, dev int32) Result
	cuDeviceGetAttribute        func(v *int32, attr int32, dev int32) Result
	cuDeviceTotalMem            func(bytes *uint64, dev int32) Result
	cuDevicePrimaryCtxRetain    func(ctx *handle, dev int32) Result
	cuDevicePrimaryCtxRelease   func(dev int32) Result
	cuCtxSetCurrent             func(ctx handle) Result
	cuCtxSynchronize            func() Result
	cuModuleLoadDataEx          func(mod *handle, image unsafe.Pointer, n uint32, opts *int32, vals *uintptr) Result
	cuModuleUnload              func(mod handle) Result
	cuModuleGetFunction         func(fn *handle, mod handle, name string) Result
	cuFuncGetAttribute          func(v *int32, attr int32, fn handle) Result
	cuFuncSetAttribute          func(fn handle, attr int32, value int32) Result
	cuMemAlloc                  func(dptr *DevicePtr, size uint64) Result
	cuMemFree                   func(dptr DevicePtr) Result
	cuMemsetD8                  func(dptr DevicePtr, v uint8, n uint64) Result
	cuMemcpyHtoD                func(dst DevicePtr, src unsafe.Pointer, size uint64) Result
	cuMemcpyDtoH                func(dst unsafe.Pointer, src DevicePtr, size uint64) Result
	cuMemcpyDtoDAsync           func(dst, src DevicePtr, size uint64, stream handle) Result
	cuLaunchKernel              func(f handle, gx, gy, gz, bx, by, bz, smem uint32, stream handle, params, extra unsafe.Pointer) Result
	cuEventCreate               func(ev *handle, flags uint32) Result
	cuEventDestroy              func(ev handle) Result
	cuEventRecord               func(ev handle, stream handle) Result
	cuEventSynchronize          func(ev handle) Result
	cuEventElapsedTime          func(ms *float32, start, end handle) Result
	cuStreamCreate              func(s *handle, flags uint32) Result
	cuStreamDestroy             func(s handle) Result
	cuStreamBeginCapture        func(s handle, mode int32) Result
	cuStreamEndCapture          func(s handle, g *handle) Result
	cuGraphGetNodes             func(g handle, nodes *handle, n *uint64) Result
	cuGraphInstantiateWithFlags func(exec *handle, g handle, flags uint64) Result
	cuGraphLaunch               func(exec handle, s handle) Result
	cuGraphExecDestroy          func(exec handle) Result
	cuGraphDestroy              func(g handle) Result
	// Optional (CUDA 12+): nil when the driver lacks it.
	cuTensorMapEncodeTiled func(m unsafe.Pointer, dtype, rank uint32, base uintptr, dims, strides *uint64, box, elemStrides *uint32,
		interleave, swizzle, l2, fill uint32) Result
}

// symbols pairs each entry point with the names to look it up by, in order.
func symbols() []struct {
	fn    any
	names []string
} {
	return []struct {
		fn    any
		names []string
	}{
		{&drv.cuInit, []string{"cuInit"}},
		{&drv.cuDriverGetVersion, []string{"cuDriverGetVersion"}},
		{&drv.cuGetErrorName, []string{"cuGetErrorName"}},
		{&drv.cuGetErrorString, []string{"cuGetErrorString"}},
		{&drv.cuDeviceGetCount, []string{"cuDeviceGetCount"}},
		{&drv.cuDeviceGet, []string{"cuDeviceGet"}},
		{&drv.cuDeviceGetName, []string{"cuDeviceGetName"}},
		{&drv.cuDeviceGetAttribute, []string{"cuDeviceGetAttribute"}},
		{&drv.cuDeviceTotalMem, []string{"cuDeviceTotalMem_v2"}},
		{&drv.cuDevicePrimaryCtxRetain, []string{"cuDevicePrimaryCtxRetain"}},
		{&drv.cuDevicePrimaryCtxRelease, []string{"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"}},
		{&drv.cuCtxSetCurrent, []string{"cuCtxSetCurrent"}},
		{&drv.cuCtxSynchronize, []string{"cuCtxSynchronize"}},
		{&drv.cuModuleLoadDataEx, []string{"cuModuleLoadDataEx"}},
		{&drv.cuModuleUnload, []string{"cuModuleUnload"}},
		{&drv.cuModuleGetFunction, []string{"cuModuleGetFunction"}},
		{&drv.cuFuncGetAttribute, []string{"cuFuncGetAttribute"}},
		{&drv.cuFuncSetAttribute, []string{"cuFuncSetAttribute"}},
		{&drv.cuMemAlloc, []string{"cuMemAlloc_v2"}},
		{&drv.cuMemFree, []string{"cuMemFree_v2"}},
		{&drv.cuMemsetD8, []string{"cuMemsetD8_v2"}},
		{&drv.cuMemcpyHtoD, []string{"cuMemcpyHtoD_v2"}},
		{&drv.cuMemcpyDtoH, []string{"cuMemcpyDtoH_v2"}},
		{&drv.cuMemcpyDtoDAsync, []string{"cuMemcpyDtoDAsync_v2"}},
		{&drv.cuLaunchKernel, []string{"cuLaunchKernel"}},
		{&drv.cuEventCreate, []string{"cuEventCreate"}},
		{&drv.cuEventDestroy, []string{"cuEventDestroy_v2", "cuEventDestroy"}},
		{&drv.cuEventRecord, []string{"cuEventRecord"}},
		{&drv.cuEventSynchronize, []string{"cuEventSynchronize"}},
		{&drv.cuEventElapsedTime, []string{"cuEventElapsedTime_v2", "cuEventElapsedTime"}},
		{&drv.cuStreamCreate, []string{"cuStreamCreate"}},
		{&drv.cuStreamDestroy, []string{"cuStreamDestroy_v2", "cuStreamDestroy"}},
		{&drv.cuStreamBeginCapture, []string{"cuStreamBeginCapture_v2", "cuStreamBeginCapture"}},
		{&drv.cuStreamEndCapture, []string{"cuStreamEndCapture"}},
		{&drv.cuGraphGetNodes, []string{"cuGraphGetNodes"}},
		{&drv.cuGraphInstantiateWithFlags, []string{"cuGraphInstantiateWithFlags"}},
		{&drv.cuGraphLaunch, []string{"cuGraphLaunch"}},
		{&drv.cuGraphExecDestroy, []string{"cuGraphExecDestroy"}},
		{&drv.cuGraphDestroy, []string{"cuGraphDestroy"}},
		{&drv.cuTensorMapEncodeTiled, []string{"cuTensorMapEncodeTiled", optional}},
	}
}

// optional ends the names of an entry point the package works without (its
// slot in drv stays nil when the driver lacks it).
const optional = ""

var (
	loadOnce sync.Once
	loadErr  error
)

// load binds the driver once per process and calls cuInit.
func load() error {
	loadOnce.Do(func() {
		if loadErr = bind(); loadErr != nil {
			return
		}
		loadErr = check("cuInit", drv.cuInit(0))
	})
	return loadErr
}

// Available reports whether the CUDA driver could be loaded and initialised;
// when it could not, the error says why and wraps [ErrNoDriver] (or is the
// driver's own error from cuInit, such as CUDA_ERROR_NO_DEVICE).
func Available() error { return load() }

// DriverVersion returns the driver's CUDA version as cuDriverGetVersion
// reports it (13000 for CUDA 13.0).
func DriverVersion() (int, error) {
	if err := load(); err != nil {
		return 0, err
	}
	var v int32
	if err := check("cuDriverGetVersion", drv.cuDriverGetVersion(&v)); err != nil {
		return 0, err
	}
	return int(v), nil
}

// DeviceCount returns the number of CUDA devices.
func DeviceCount() (int, error) {
	if err := load(); err != nil {
		return 0, err
	}
	var n int32
	if err := check("cuDeviceGetCount", drv.cuDeviceGetCount(&n)); err != nil {
		return 0, err
	}
	return int(n), nil
}

// Error is a failed driver call.
type Error struct {
	Call string // the driver entry point, "cuMemAlloc"
	Code Result
	Name string // the driver's name for Code, "CUDA_ERROR_OUT_OF_MEMORY"
	Desc string // the driver's description, "out of memory"
}

func (e *Error) Error() string {
	name := e.Name
	if name == "" {
		name = "CUDA error"
	}
	s := fmt.Sprintf("%s: %s (%d)", e.Call, name, e.Code)
	if e.Desc != "" {
		s += ": " + e.Desc
	}
	return s
}

// check turns a result into nil or an *Error named by the driver.
func check(call string, r Result) error {
	if r == Success {
		return nil
	}
	e := &Error{Call: call, Code: r}
	if drv.cuGetErrorName != nil {
		var s *byte
		if drv.cuGetErrorName(r, &s) == Success {
			e.Name = cString(s)
		}
	}
	if drv.cuGetErrorString != nil {
		var s *byte
		if drv.cuGetErrorString(r, &s) == Success {
			e.Desc = cString(s)
		}
	}
	return e
}

// cString copies a NUL-terminated C string owned by the driver.
func cString(p *byte) string {
	if p == nil {
		return ""
	}
	var n int
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// cBytes returns b up to its first NUL byte, as a string.
func cBytes(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}
