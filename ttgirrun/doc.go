// Package ttgirrun is the ttgir-run tool: it runs one tt.func of a TTGIR
// module over a grid of programs, with named arguments, on the CPU through
// the reference interpreter (package interp) or on the GPU from PTX with
// Triton 3.6's kernel ABI (package cuda), and checks and times the GPU run.
//
//	ttgir-run k.ttgir -arg x=rand:f32:65536 -arg y=zeros:f32:65536 -arg n=65536 -grid 128
//	ttgir-run k.ttgir … -ptx k.ptx -meta k.json -check -bench 100
//
// # Arguments
//
// Every parameter of the tt.func gets one -arg NAME=SPEC, by its SSA name
// (%x is x; unnamed ones are arg0, arg1, …) or its position. Integer and
// float parameters take literals; pointer parameters take a buffer spec,
// KIND[:DTYPE][:COUNT][:OPT=VALUE…] (see the usage text and spec.go):
// random (rand, randn, with lo/hi, mean/std and a seed that otherwise comes
// from -seed and the argument's name, so runs are reproducible), zeros,
// ones, full, iota, or file:PATH. The element type is the pointer's pointee
// type; a DTYPE in the spec must match it. A shape (4096x4096) makes
// mismatch reports give coordinates. Buffers are filled in parallel from
// per-chunk random streams, so their contents depend on the seed alone.
//
// # Runs
//
// Without -ptx the kernel runs on the interpreter, program by program in
// launch order (x fastest), with progress on stderr for long runs. With -ptx
// it runs on the GPU: -meta gives Triton's kernel metadata JSON (name,
// num_warps, shared, the scratch sizes); without it the launch takes the
// function's name and the module's ttg.num-warps and ttg.shared. -check runs
// the interpreter too and compares every buffer after the launch: integers
// exactly, floats bit for bit, or within -rtol/-atol (interp.Tolerance); it
// prints each buffer's verdict and its first -show mismatches (index,
// coordinates, both values and their bits) and exits with status 2 on a
// mismatch. The interpreter reduces (tt.reduce) in Triton's order on the
// GPU, read off the operand's layout (-reduce-order layout), or in the
// tensor's shape order (-reduce-order shape).
//
// -bench N times N launches, each between two CUDA events, and N
// device-to-device copies moving the same bytes (read plus written: -bytes,
// by default the size of every buffer argument, so a copy of half of them),
// in alternating batches of 20 after -warmup untimed runs of each, and
// reports the medians, GB/s and the kernel's bandwidth as a percentage of
// the copy's. -graph K makes each timed run one CUDA graph of K launches
// (and of K copies), captured once and timed as a whole, and reports times
// per launch: a kernel shorter than the host's launch overhead (one program
// computing a whole tile) is then timed on the device back to back, not at
// the rate the host issues launches (Triton's do_bench_cudagraph does the
// same). -dump DIR writes each buffer before (NAME.in.bin) and after
// the run (NAME.out.bin; NAME.ref.bin for the interpreter's under -check);
// -json FILE writes the whole report (device, registers, check, timings).
// -print N prints the first N elements of every buffer.
//
// The proof bundle (proof/build.sh, proof/run.sh) drives ttgir-run for
// every kernel against Triton 3.6 on the same TTGIR.
package ttgirrun
