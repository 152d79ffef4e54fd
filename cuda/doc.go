// Package cuda is the CUDA driver API, bound at run time with
// github.com/ebitengine/purego: it needs no cgo, so the tools that use it
// build with CGO_ENABLED=0 and run on any machine that has libcuda.so.1.
//
// It covers what running a Triton kernel from its PTX takes: initialisation,
// a device's primary context, loading PTX with the JIT's error and info logs,
// device memory and copies, launches with Triton 3.6's kernel ABI
// ([Kernel]: the tt.func parameters in order, then the global and profile
// scratch pointers; dynamic shared memory, opted in above 48 KiB), and
// events for timing.
//
//	ctx, err := cuda.NewContext(0) // device 0's primary context
//	if err != nil { … }            // errors.Is(err, cuda.ErrNoDriver) without libcuda
//	defer ctx.Close()
//	mod, err := ctx.LoadPTX(ptx)   // a *JITError carries ptxas's log
//	k, err := mod.Kernel(meta)     // meta: Triton's metadata (name, num_warps, shared, …)
//	x, err := ctx.Alloc(n * 4)
//	err = k.Launch(cuda.Dim3{X: 256}, x, y, int32(n))
//
// # Threads
//
// A CUDA context is current per OS thread, and Go moves goroutines between
// threads. A [Context] therefore owns one locked OS thread and runs every
// driver call on it: its methods may be called from any goroutine. [Context.Do]
// runs a function on that thread, so that a loop of launches and event
// records inside it makes no thread hops at all (the benchmark loops do).
//
// # Errors
//
// A failed driver call returns an [*Error] holding the call, the CUresult
// and the driver's own name and description of it
// ("cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory"). Without a
// driver every constructor returns an error wrapping [ErrNoDriver].
//
// The driver library is libcuda.so.1, or the file that $LAYOUTOPT_LIBCUDA
// names ([LibraryEnv]); the package's tests build a mock driver
// (package internal/mockcuda) and use it where there is no GPU.
package cuda
