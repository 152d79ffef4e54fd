package ttgirrun

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	_ "github.com/layoutopt/layoutopt/dialect" // registers the dialects
	"github.com/layoutopt/layoutopt/internal/suggest"
	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
	"github.com/layoutopt/layoutopt/proc"
)

const usage = `usage: ttgir-run KERNEL.ttgir -arg NAME=SPEC… -grid X[,Y[,Z]] [-ptx K.ptx [-meta K.json]] [-check] [-bench N]

Runs one tt.func of a TTGIR module on a grid of programs: on the CPU through
the reference interpreter (package interp), or, with -ptx, on the GPU from
PTX compiled for it (by llvmemit, or Triton's own), with Triton 3.6's kernel
ABI. -check runs both and compares every buffer; -bench times the GPU kernel
against a device-to-device copy of the same bytes in the same run.

Arguments (one -arg per parameter, by SSA name or position):
  n=65536  x=2.5  flag=true        scalars for integer and float parameters
  x=rand:f32:65536                 uniform in [-1, 1) (integers: [-100, 100])
  x=rand:f16:4096x4096:lo=0:hi=1:seed=7
  x=randn:bf16:1024:mean=0:std=2   normal
  y=zeros:f32:65536  ones  full:f32:N:value=3  iota:i32:N:start=0:step=1
  x=file:PATH                      raw little-endian elements
The element type, when given, must be the pointer's pointee type; a shape
(4096x4096) gives mismatch reports coordinates. A tensor descriptor
parameter (!tt.tensordesc, a host-side TMA descriptor) takes a buffer spec
with a shape of its rank, its rows a multiple of 16 bytes (the TMA's rule):
the descriptor is over that row-major tensor (on
the GPU a CUtensorMap made as Triton's launcher makes it); :padding=nan
makes out-of-bounds float loads NaN (default padding=zero);
Triton's kernels take its shape (i32) and strides (i64) as the parameters
after it, given as scalars.

Flags:
`

// Main runs ttgir-run with the arguments and streams of p and returns its
// exit status: 0 on success, 1 on bad input or a failed run, 2 when -check
// finds mismatches.
func Main(p *proc.Proc) int {
	fs := flag.NewFlagSet("ttgir-run", flag.ContinueOnError)
	fs.SetOutput(p.Stderr)
	var argFlags multiFlag
	fs.Var(&argFlags, "arg", "`NAME=SPEC`: a kernel argument (repeat for each parameter)")
	gridText := fs.String("grid", "", "the launch grid, `X[,Y[,Z]]` programs")
	funcName := fs.String("func", "", "the tt.func to run (default: the module's only public one)")
	ptxFile := fs.String("ptx", "", "run on the GPU from this PTX file")
	metaFile := fs.String("meta", "", "Triton's kernel metadata JSON for -ptx (name, num_warps, shared, scratch sizes); default: from the module")
	check := fs.Bool("check", false, "also run the reference interpreter and compare every buffer with the GPU's")
	cpu := fs.Bool("cpu", false, "run on the CPU only, through the reference interpreter (the default without -ptx)")
	bench := fs.Int("bench", 0, "time `N` launches and N device-to-device copies of the same bytes (median)")
	warmup := fs.Int("warmup", 10, "untimed launches and copies before -bench")
	graph := fs.Int("graph", 0, "with -bench, time each run as one CUDA graph of `K` launches (and K copies), reported per launch: for kernels shorter than the host's launch overhead, such as one-program tiles")
	bytesFlag := fs.Int64("bytes", 0, "bytes a launch moves, for GB/s (default: the size of every buffer argument)")
	seed := fs.Uint64("seed", 1, "seed of the random buffers (mixed with each argument's name)")
	rtol := fs.Float64("rtol", 0, "relative tolerance of float comparisons (0 with -atol 0: bit-exact)")
	atol := fs.Float64("atol", 0, "absolute tolerance of float comparisons")
	show := fs.Int("show", 10, "mismatches to print per buffer")
	device := fs.Int("device", 0, "CUDA device ordinal")
	dump := fs.String("dump", "", "write each buffer before (NAME.in.bin) and after the run (NAME.out.bin, NAME.ref.bin from -check's interpreter) into `DIR`")
	jsonOut := fs.String("json", "", "write the report as JSON to `FILE` (- for stdout)")
	quiet := fs.Bool("q", false, "print no progress")
	reduceOrder := fs.String("reduce-order", "layout", "the interpreter's tt.reduce order: layout (Triton's on the GPU, read off the operand's layout) or shape")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "goroutines the interpreter runs programs on (the result is that of launch order; kernels with atomics run in order)")
	dryRun := fs.Bool("dry-run", false, "check the arguments and the grid against the kernel, print the launch, run nothing")
	printN := fs.Int("print", 0, "print the first `N` elements of every buffer after the run (the GPU's, else the interpreter's)")
	fs.Usage = func() {}
	// Flags may come before and after the file, as in mlir-opt.
	var positional []string
	err := fs.Parse(p.Args)
	for err == nil && fs.NArg() > 0 {
		positional = append(positional, fs.Arg(0))
		err = fs.Parse(fs.Args()[1:])
	}
	if err != nil {
		fmt.Fprint(p.Stderr, suggest.UnknownFlag(fs, err))
		fmt.Fprint(p.Stderr, usage)
		fs.PrintDefaults()
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 1
	}
	if len(positional) != 1 {
		if len(positional) == 0 {
			return fail(p, "no TTGIR file (usage: ttgir-run KERNEL.ttgir -arg NAME=SPEC… -grid X)")
		}
		return fail(p, "one TTGIR file at a time; unexpected %q", positional[1])
	}
	switch {
	case *gridText == "":
		return fail(p, "missing -grid X[,Y[,Z]]")
	case *cpu && *ptxFile != "":
		return fail(p, "-cpu runs on the CPU; -ptx on the GPU: give one")
	case *ptxFile == "" && (*bench > 0 || *check):
		return fail(p, "-bench and -check need -ptx (the GPU kernel)")
	case *metaFile != "" && *ptxFile == "":
		return fail(p, "-meta goes with -ptx")
	case *bench < 0 || *warmup < 0 || *show < 0 || *bytesFlag < 0 || *printN < 0 || *graph < 0:
		return fail(p, "-bench, -warmup, -graph, -show, -print and -bytes take counts ≥ 0")
	case *graph > 0 && *bench == 0:
		return fail(p, "-graph goes with -bench")
	case *graph > maxGraph:
		return fail(p, "-graph %d: at most %d launches per graph", *graph, maxGraph)
	case *workers < 1:
		return fail(p, "-workers takes a count ≥ 1")
	case *rtol < 0 || *atol < 0:
		return fail(p, "-rtol and -atol must be ≥ 0")
	}
	var order interp.ReduceOrder
	switch *reduceOrder {
	case "layout":
		order = interp.LayoutOrder
	case "shape":
		order = interp.ShapeOrder
	default:
		return fail(p, "-reduce-order %s: want layout or shape", *reduceOrder)
	}
	grid, err := parseGrid(*gridText)
	if err != nil {
		return fail(p, "%v", err)
	}
	file := positional[0]
	src, err := p.ReadFile(file)
	if err != nil {
		return fail(p, "%v", err)
	}
	mod, diags := ir.Parse(src, ir.ParseConfig{Filename: file})
	if diags.HasErrors() {
		fmt.Fprint(p.Stderr, diags.Error())
		return 1
	}
	// Triton allocates global scratch after the TTGIR it prints: do it
	// here, for the interpreter and the launch (the buffer's size).
	if d, err := passes.AllocateGlobalScratch(mod); err != nil {
		fmt.Fprint(p.Stderr, d.Render(src, 1))
		if !d.HasErrors() {
			return fail(p, "%s: tritongpu-global-scratch-memory-allocation: %v", file, err)
		}
		return 1
	}
	k, err := findKernel(mod, *funcName)
	if err != nil {
		return fail(p, "%s: %v", file, err)
	}
	args, code := bindArgs(p, k, argFlags, *seed, !*dryRun)
	if code != 0 {
		return code
	}
	if *dryRun {
		var total int64
		for _, a := range args {
			if a.isBuffer() && a.shape != nil {
				n := int64(a.elem.bytes)
				for _, d := range a.shape {
					n *= int64(d)
				}
				total += n
			}
		}
		fmt.Fprintf(p.Stdout, "%s @%s: grid %d,%d,%d; %s in buffers; the arguments fit the kernel\n", file, k.name, grid[0], grid[1], grid[2], human(total))
		return 0
	}

	r := &run{p: p, k: k, file: file, args: args, grid: grid, quiet: *quiet, reduceOrder: order, workers: *workers,
		tol: interp.Tolerance{Abs: *atol, Rel: *rtol}, show: *show,
		rep: &report{Kernel: k.name, File: file, Grid: grid[:]}}
	for _, a := range args {
		r.rep.Args = append(r.rep.Args, a.reportArg())
	}
	if *dump != "" {
		if err := os.MkdirAll(p.Path(*dump), 0o755); err != nil {
			return fail(p, "%v", err)
		}
		if err := r.dumpBuffers(*dump, ".in.bin", func(a *arg) []byte { return a.init }); err != nil {
			return fail(p, "%v", err)
		}
	}
	status := 0
	if *ptxFile != "" {
		ptx, err := p.ReadFile(*ptxFile)
		if err != nil {
			return fail(p, "%v", err)
		}
		var metaJSON []byte
		if *metaFile != "" {
			if metaJSON, err = p.ReadFile(*metaFile); err != nil {
				return fail(p, "%v", err)
			}
		}
		r.rep.PTX = *ptxFile
		if err := r.gpu(*device, ptx, metaJSON, benchOpts{runs: *bench, warmup: *warmup, graph: *graph, bytes: *bytesFlag}); err != nil {
			return fail(p, "%v", err)
		}
		if *dump != "" {
			if err := r.dumpBuffers(*dump, ".out.bin", func(a *arg) []byte { return a.gpuOut }); err != nil {
				return fail(p, "%v", err)
			}
		}
	}
	if *ptxFile == "" || *check {
		if err := r.cpu(); err != nil {
			return fail(p, "%v", err)
		}
		suffix := ".out.bin"
		if *check {
			suffix = ".ref.bin"
		}
		if *dump != "" {
			if err := r.dumpBuffers(*dump, suffix, func(a *arg) []byte { return a.cpuOut }); err != nil {
				return fail(p, "%v", err)
			}
		}
	}
	if *check && !r.compare() {
		status = 2
	}
	if *printN > 0 {
		r.printBuffers(*printN)
	}
	if *jsonOut != "" {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r.rep); err != nil {
			return fail(p, "%v", err)
		}
		data := buf.Bytes()
		if *jsonOut == "-" {
			p.Stdout.Write(data)
		} else if err := proc.WriteFileAtomic(p.Path(*jsonOut), data); err != nil {
			return fail(p, "cannot write %s: %v", *jsonOut, err)
		}
	}
	return status
}

// multiFlag collects a repeated flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, " ") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

func fail(p *proc.Proc, format string, args ...any) int {
	fmt.Fprintf(p.Stderr, "ttgir-run: error: "+format+"\n", args...)
	return 1
}

// failAt reports an error in a flag's value, MLIR-style, with the text and
// a caret under the offending column.
func failAt(p *proc.Proc, where, text string, off int, msg string) int {
	off = min(max(off, 0), len(text))
	fmt.Fprintf(p.Stderr, "%s:1:%d: error: %s\n%s\n%s^\n", where, off+1, msg, text, strings.Repeat(" ", off))
	return 1
}

// dumpBuffers writes every buffer argument's bytes (from get) to
// DIR/NAME+suffix.
func (r *run) dumpBuffers(dir, suffix string, get func(*arg) []byte) error {
	for _, a := range r.args {
		if a.p.elem == nil || get(a) == nil {
			continue
		}
		if err := proc.WriteFileAtomic(r.p.Path(filepath.Join(dir, a.p.name+suffix)), get(a)); err != nil {
			return err
		}
	}
	return nil
}

// progress prints a progress line to stderr unless -q.
func (r *run) progress(format string, args ...any) {
	if !r.quiet {
		fmt.Fprintf(r.p.Stderr, "ttgir-run: "+format+"\n", args...)
	}
}
